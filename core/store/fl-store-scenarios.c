/* fl-store-scenarios.c — the scenario library: save, list, search, delete, export, import. */
#include "fl-store-private.h"
#include "fl-scenario.h"
#include "fl-scenario-private.h"

#include <string.h>

/* A scenario is meant to be written by hand: a stored one has the limit of a .fault file, which
 * keeps a stray import of a log or an image out of the library, and a stored text that no file
 * could hold out of a replay. */
#define MAX_SCENARIO_BYTES FL_SCENARIO_MAX_BYTES

#define SCENARIO_COLUMNS "id, name, title, tags, text, created"

/**
 * fl_stored_scenario_free:
 * @scenario: (nullable): a scenario from the store
 */
void
fl_stored_scenario_free (FlStoredScenario *scenario)
{
  if (scenario == NULL)
    return;
  g_free (scenario->name);
  g_free (scenario->title);
  g_strfreev (scenario->tags);
  g_free (scenario->text);
  g_free (scenario);
}

static char **
split_tags (const char *joined)
{
  if (joined == NULL || *joined == '\0')
    return g_new0 (char *, 1);
  return g_strsplit (joined, ";", -1);
}

static FlStoredScenario *
scenario_from_row (FlStore *store, sqlite3_stmt *stmt, GError **error)
{
  g_autoptr (FlStoredScenario) scenario = g_new0 (FlStoredScenario, 1);
  FlStoreRow row;
  fl_store_row_init (&row, store, stmt, error);
  scenario->id = fl_store_row_key (&row, 0, "scenario");
  scenario->name = fl_store_row_text (&row, 1, "name", FL_STORE_MAX_SHORT);
  scenario->title = fl_store_row_text (&row, 2, "title", FL_STORE_MAX_SHORT);
  g_autofree char *tags = fl_store_row_text (&row, 3, "tags", FL_STORE_MAX_LONG);
  scenario->text = fl_store_row_text (&row, 4, "text", MAX_SCENARIO_BYTES);
  scenario->created = fl_store_row_int (&row, 5, "created", G_MININT64, G_MAXINT64);
  if (!fl_store_row_ok (&row))
    return NULL;
  scenario->tags = split_tags (tags);
  return g_steal_pointer (&scenario);
}

static GPtrArray *
collect_scenarios (FlStore *store, sqlite3_stmt *stmt, GError **error)
{
  g_autoptr (GPtrArray) list = g_ptr_array_new_with_free_func ((GDestroyNotify) fl_stored_scenario_free);
  int rc;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      FlStoredScenario *scenario = scenario_from_row (store, stmt, error);
      if (scenario == NULL)
        return NULL;
      g_ptr_array_add (list, scenario);
    }
  if (rc != SQLITE_DONE)
    {
      fl_store_fail (store, rc, error, "list scenarios");
      return NULL;
    }
  return g_steal_pointer (&list);
}

static gboolean
check_text (FlStore *store, const char *what, const char *text, GError **error)
{
  if (!g_utf8_validate (text, -1, NULL))
    {
      g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_INVALID,
                   "cannot save a scenario in '%s': its %s is not valid UTF-8", store->path, what);
      return FALSE;
    }
  return TRUE;
}

/* Tags are stored ';'-joined, so a tag may not contain ';' or be empty. */
static char *
join_tags (FlStore *store, const char *const *tags, GError **error)
{
  if (tags == NULL)
    return g_strdup ("");
  for (guint i = 0; tags[i] != NULL; i++)
    {
      if (!check_text (store, "tag", tags[i], error))
        return NULL;
      if (*tags[i] == '\0' || strchr (tags[i], ';') != NULL)
        {
          g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_INVALID,
                       "cannot save a scenario in '%s': the tag '%s' is empty or contains ';'",
                       store->path, tags[i]);
          return NULL;
        }
    }
  return g_strjoinv (";", (char **) tags);
}

/**
 * fl_store_save_scenario:
 * @store: a store
 * @name: the built-in scenario id or the file stem
 * @title: the scenario's title
 * @tags: (nullable) (array zero-terminated=1): tags, none empty or containing ';'
 * @text: the `.fault` text exactly as written
 * @out_id: (out) (optional): the id of the stored scenario
 * @error: a #GError
 *
 * Saves a scenario. The text of a stored scenario never changes, because its runs replay it:
 * saving the same @name with the same @text gives back the same id (updating title and tags),
 * and a changed @text is a new scenario with a new id.
 *
 * Returns: %TRUE on success.
 */
gboolean
fl_store_save_scenario (FlStore *store, const char *name, const char *title,
                        const char *const *tags, const char *text, gint64 *out_id,
                        GError **error)
{
  g_return_val_if_fail (store != NULL, FALSE);
  g_return_val_if_fail (name != NULL && title != NULL && text != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_text (store, "name", name, error) || !check_text (store, "title", title, error) ||
      !check_text (store, "text", text, error) ||
      !fl_store_check_text (store, "save a scenario", "name", name, FL_STORE_MAX_SHORT, error) ||
      !fl_store_check_text (store, "save a scenario", "title", title, FL_STORE_MAX_SHORT,
                            error) ||
      !fl_store_check_text (store, "save a scenario", "text", text, MAX_SCENARIO_BYTES, error))
    return FALSE;
  g_autofree char *joined = join_tags (store, tags, error);
  if (joined == NULL ||
      !fl_store_check_text (store, "save a scenario", "tags", joined, FL_STORE_MAX_LONG, error))
    return FALSE;

  g_autofree char *what = g_strdup_printf ("save scenario '%s'", name);
  if (!fl_store_begin (store, what, error))
    return FALSE;

  gint64 id = 0;
  int rc;
  {
    g_autoptr (FlStoreCursor) find = fl_store_cursor (store, FL_STMT_SCENARIO_FIND,
      "SELECT id FROM scenario WHERE name = ?1 AND text = ?2 ORDER BY id DESC LIMIT 1", error);
    if (find == NULL)
      goto fail;
    sqlite3_bind_text (find, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_text (find, 2, text, -1, SQLITE_STATIC);
    rc = sqlite3_step (find);
    if (rc == SQLITE_ROW)
      id = sqlite3_column_int64 (find, 0);
    else if (rc != SQLITE_DONE)
      goto sqlite_fail;
  }

  if (id != 0)
    {
      g_autoptr (FlStoreCursor) retag = fl_store_cursor (store, FL_STMT_SCENARIO_RETAG,
        "UPDATE scenario SET title = ?2, tags = ?3 WHERE id = ?1", error);
      if (retag == NULL)
        goto fail;
      sqlite3_bind_int64 (retag, 1, id);
      sqlite3_bind_text (retag, 2, title, -1, SQLITE_STATIC);
      sqlite3_bind_text (retag, 3, joined, -1, SQLITE_STATIC);
      if ((rc = sqlite3_step (retag)) != SQLITE_DONE)
        goto sqlite_fail;
    }
  else
    {
      g_autoptr (FlStoreCursor) insert = fl_store_cursor (store, FL_STMT_SCENARIO_INSERT,
        "INSERT INTO scenario (name, title, tags, text, created) VALUES (?1, ?2, ?3, ?4, ?5)",
        error);
      if (insert == NULL)
        goto fail;
      sqlite3_bind_text (insert, 1, name, -1, SQLITE_STATIC);
      sqlite3_bind_text (insert, 2, title, -1, SQLITE_STATIC);
      sqlite3_bind_text (insert, 3, joined, -1, SQLITE_STATIC);
      sqlite3_bind_text (insert, 4, text, -1, SQLITE_STATIC);
      sqlite3_bind_int64 (insert, 5, fl_store_now ());
      if ((rc = sqlite3_step (insert)) != SQLITE_DONE)
        goto sqlite_fail;
      id = sqlite3_last_insert_rowid (store->db);
    }

  if (!fl_store_commit (store, what, error))
    return FALSE;
  if (out_id != NULL)
    *out_id = id;
  return TRUE;

sqlite_fail:
  fl_store_fail (store, rc, error, "%s", what);
fail:
  fl_store_rollback (store);
  return FALSE;
}

/**
 * fl_store_list_scenarios:
 * @store: a store
 * @error: a #GError
 *
 * Returns: (transfer container) (element-type FlStoredScenario): every stored scenario, by
 *   name then age, or %NULL on error.
 */
GPtrArray *
fl_store_list_scenarios (FlStore *store, GError **error)
{
  g_return_val_if_fail (store != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  g_autoptr (FlStoreCursor) stmt = fl_store_cursor (store, FL_STMT_SCENARIO_LIST,
    "SELECT " SCENARIO_COLUMNS " FROM scenario ORDER BY name, id", error);
  if (stmt == NULL)
    return NULL;
  return collect_scenarios (store, stmt, error);
}

/* LIKE treats % and _ as wildcards: a search for "50%" means the characters. */
static char *
like_pattern (const char *query)
{
  GString *pattern = g_string_new ("%");
  for (const char *p = query; *p; p++)
    {
      if (*p == '%' || *p == '_' || *p == '\\')
        g_string_append_c (pattern, '\\');
      g_string_append_c (pattern, *p);
    }
  g_string_append_c (pattern, '%');
  return g_string_free (pattern, FALSE);
}

/**
 * fl_store_search_scenarios:
 * @store: a store
 * @query: text to look for
 * @error: a #GError
 *
 * Finds the scenarios whose name, title, tags or text contain @query (ASCII letters match
 * either case; `%` and `_` are ordinary characters).
 *
 * Returns: (transfer container) (element-type FlStoredScenario): the matches, by name then age,
 *   or %NULL on error.
 */
GPtrArray *
fl_store_search_scenarios (FlStore *store, const char *query, GError **error)
{
  g_return_val_if_fail (store != NULL && query != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  g_autoptr (FlStoreCursor) stmt = fl_store_cursor (store, FL_STMT_SCENARIO_SEARCH,
    "SELECT " SCENARIO_COLUMNS " FROM scenario "
    "WHERE name LIKE ?1 ESCAPE '\\' OR title LIKE ?1 ESCAPE '\\' "
    "   OR tags LIKE ?1 ESCAPE '\\' OR text LIKE ?1 ESCAPE '\\' "
    "ORDER BY name, id", error);
  if (stmt == NULL)
    return NULL;
  g_autofree char *pattern = like_pattern (query);
  sqlite3_bind_text (stmt, 1, pattern, -1, SQLITE_STATIC);
  return collect_scenarios (store, stmt, error);
}

/**
 * fl_store_get_scenario:
 * @store: a store
 * @id: a scenario id
 * @error: set to %FL_STORE_ERROR_NOT_FOUND when there is no such scenario
 *
 * Returns: (transfer full) (nullable): the scenario, or %NULL with @error set.
 */
FlStoredScenario *
fl_store_get_scenario (FlStore *store, gint64 id, GError **error)
{
  g_return_val_if_fail (store != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  g_autoptr (FlStoreCursor) stmt = fl_store_cursor (store, FL_STMT_SCENARIO_GET,
    "SELECT " SCENARIO_COLUMNS " FROM scenario WHERE id = ?1", error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_int64 (stmt, 1, id);
  int rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    return scenario_from_row (store, stmt, error);
  if (rc == SQLITE_DONE)
    g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_FOUND,
                 "there is no scenario %" G_GINT64_FORMAT " in '%s'", id, store->path);
  else
    fl_store_fail (store, rc, error, "read scenario %" G_GINT64_FORMAT, id);
  return NULL;
}

/**
 * fl_store_delete_scenario:
 * @store: a store
 * @id: a scenario id
 * @error: set to %FL_STORE_ERROR_NOT_FOUND when there is no such scenario
 *
 * Deletes a scenario with its runs, their events, findings and bookmarks, in one transaction.
 *
 * Returns: %TRUE on success.
 */
gboolean
fl_store_delete_scenario (FlStore *store, gint64 id, GError **error)
{
  g_return_val_if_fail (store != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  g_autofree char *what = g_strdup_printf ("delete scenario %" G_GINT64_FORMAT, id);
  if (!fl_store_begin (store, what, error))
    return FALSE;

  int rc;
  {
    /* Events have no foreign key (see the schema); runs, findings and bookmarks cascade. */
    g_autoptr (FlStoreCursor) events = fl_store_cursor (store, FL_STMT_SCENARIO_DELETE_EVENTS,
      "DELETE FROM event WHERE run_id IN (SELECT id FROM run WHERE scenario_id = ?1)", error);
    if (events == NULL)
      goto fail;
    sqlite3_bind_int64 (events, 1, id);
    if ((rc = sqlite3_step (events)) != SQLITE_DONE)
      goto sqlite_fail;
  }
  {
    g_autoptr (FlStoreCursor) scenario = fl_store_cursor (store, FL_STMT_SCENARIO_DELETE,
      "DELETE FROM scenario WHERE id = ?1", error);
    if (scenario == NULL)
      goto fail;
    sqlite3_bind_int64 (scenario, 1, id);
    if ((rc = sqlite3_step (scenario)) != SQLITE_DONE)
      goto sqlite_fail;
  }
  if (sqlite3_changes (store->db) == 0)
    {
      g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_FOUND,
                   "there is no scenario %" G_GINT64_FORMAT " in '%s'", id, store->path);
      goto fail;
    }
  return fl_store_commit (store, what, error);

sqlite_fail:
  fl_store_fail (store, rc, error, "%s", what);
fail:
  fl_store_rollback (store);
  return FALSE;
}

static int
file_error_code (GError *file_error)
{
  if (g_error_matches (file_error, G_FILE_ERROR, G_FILE_ERROR_NOSPC))
    return FL_STORE_ERROR_FULL;
  if (g_error_matches (file_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
    return FL_STORE_ERROR_NOT_FOUND;
  if (g_error_matches (file_error, G_FILE_ERROR, G_FILE_ERROR_ACCES) ||
      g_error_matches (file_error, G_FILE_ERROR, G_FILE_ERROR_ROFS))
    return FL_STORE_ERROR_READ_ONLY;
  return FL_STORE_ERROR_IO;
}

/**
 * fl_store_export_scenario:
 * @store: a store
 * @id: a scenario id
 * @path: the `.fault` file to write (replaced atomically if it exists)
 * @error: a #GError
 *
 * Writes the scenario's text byte for byte as it was saved.
 *
 * Returns: %TRUE on success.
 */
gboolean
fl_store_export_scenario (FlStore *store, gint64 id, const char *path, GError **error)
{
  g_return_val_if_fail (store != NULL && path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  g_autoptr (FlStoredScenario) scenario = fl_store_get_scenario (store, id, error);
  if (scenario == NULL)
    return FALSE;
  g_autoptr (GError) local = NULL;
  if (!g_file_set_contents (path, scenario->text, strlen (scenario->text), &local))
    {
      g_set_error (error, FL_STORE_ERROR, file_error_code (local),
                   "cannot export scenario '%s' to '%s': %s", scenario->name, path,
                   local->message);
      return FALSE;
    }
  return TRUE;
}

/**
 * fl_store_import_scenario:
 * @store: a store
 * @path: a `.fault` file
 * @out_id: (out) (optional): the id of the stored scenario
 * @error: a #GError
 *
 * Same as fl_store_import_scenario_tagged() without extra tags.
 *
 * Returns: %TRUE on success.
 */
gboolean
fl_store_import_scenario (FlStore *store, const char *path, gint64 *out_id, GError **error)
{
  return fl_store_import_scenario_tagged (store, path, NULL, out_id, error);
}

/* The scenario's own tags, then the extra ones it does not have yet. */
static char **
merge_tags (const char *const *own, const char *const *extra)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  const char *const *lists[] = { own, extra };
  for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
    for (guint i = 0; lists[l] != NULL && lists[l][i] != NULL; i++)
      if (g_hash_table_add (seen, (gpointer) lists[l][i]))
        g_strv_builder_add (builder, lists[l][i]);
  return g_strv_builder_end (builder);
}

/**
 * fl_store_import_scenario_tagged:
 * @store: a store
 * @path: a `.fault` file
 * @extra_tags: (nullable) (array zero-terminated=1): tags to add to the file's own
 * @out_id: (out) (optional): the id of the stored scenario
 * @error: a #GError: %FL_STORE_ERROR_INVALID with the parser's `FILE:LINE: what` when the
 *   file is not a valid scenario
 *
 * Parses @path with the scenario parser and, only if it is a valid scenario, saves its text
 * exactly as it is (bytes, comments, line ends), under the file's stem as name (`foo.fault` →
 * `foo`), with the parsed title and tags plus @extra_tags. A file that does not parse writes
 * nothing. Importing the same file twice gives the same id (see fl_store_save_scenario()).
 *
 * Returns: %TRUE on success.
 */
gboolean
fl_store_import_scenario_tagged (FlStore *store, const char *path,
                                 const char *const *extra_tags, gint64 *out_id, GError **error)
{
  g_return_val_if_fail (store != NULL && path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  g_autofree char *text = NULL;
  gsize length = 0;
  g_autoptr (GError) local = NULL;
  if (!g_file_get_contents (path, &text, &length, &local))
    {
      g_set_error (error, FL_STORE_ERROR, file_error_code (local),
                   "cannot import '%s': %s", path, local->message);
      return FALSE;
    }
  if (length > MAX_SCENARIO_BYTES)
    {
      g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_INVALID,
                   "cannot import '%s': it has %" G_GSIZE_FORMAT " bytes, more than the %d a "
                   "scenario may have", path, length, MAX_SCENARIO_BYTES);
      return FALSE;
    }
  /* A scenario that does not parse could never be run or replayed: refuse it here, with the
   * parser's own words, which name the file and the line. The parser also refuses NUL bytes
   * and invalid UTF-8, which SQLite TEXT could not keep byte for byte. */
  g_autoptr (FlScenario) scenario = fl_scenario_parse_data (text, length, path, &local);
  if (scenario == NULL)
    {
      g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_INVALID, "cannot import %s",
                   local->message);
      return FALSE;
    }
  g_auto (GStrv) tags = merge_tags ((const char *const *) scenario->tags, extra_tags);
  return fl_store_save_scenario (store, scenario->id, scenario->title,
                                 (const char *const *) tags, text, out_id, error);
}
