/* fl-store-explorations.c — explorations: how a scenario was searched and the verdict. */
#include "fl-store-private.h"

/* The words `explore` writes in the verdict column, so that a reader can rely on them. */
static const char *const verdicts[] = { "complete", "bounded", "found" };

static gboolean
is_verdict (const char *text)
{
  for (guint i = 0; i < G_N_ELEMENTS (verdicts); i++)
    if (g_strcmp0 (text, verdicts[i]) == 0)
      return TRUE;
  return FALSE;
}

/**
 * fl_stored_exploration_free:
 * @exploration: (nullable): an exploration from the store
 */
void
fl_stored_exploration_free (FlStoredExploration *exploration)
{
  if (exploration == NULL)
    return;
  g_free (exploration->scenario_name);
  g_free (exploration->config);
  g_free (exploration->bounds);
  g_free (exploration->verdict);
  g_free (exploration->stopped_by);
  g_free (exploration);
}

/**
 * fl_store_add_exploration:
 * @store: a writable store
 * @row: the exploration (its `id` and `scenario_name` are ignored; `created` 0 means now)
 * @out_id: (out) (optional): the id of the new row
 * @error: %FL_STORE_ERROR_NOT_FOUND for an unknown scenario, %FL_STORE_ERROR_INVALID for a
 *   verdict other than complete, bounded or found
 *
 * Returns: %TRUE on success.
 */
gboolean
fl_store_add_exploration (FlStore *store, const FlStoredExploration *row, gint64 *out_id,
                          GError **error)
{
  g_return_val_if_fail (store != NULL && row != NULL, FALSE);
  g_return_val_if_fail (row->config != NULL && row->bounds != NULL, FALSE);
  g_return_val_if_fail (row->verdict != NULL && row->stopped_by != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  const char *what = "record an exploration";
  if (!fl_store_check_writable (store, what, error) ||
      !fl_store_check_text (store, what, "config", row->config, FL_STORE_MAX_LONG, error) ||
      !fl_store_check_text (store, what, "bounds", row->bounds, FL_STORE_MAX_LONG, error) ||
      !fl_store_check_text (store, what, "stopped_by", row->stopped_by, FL_STORE_MAX_SHORT,
                            error))
    return FALSE;
  if (!is_verdict (row->verdict) || row->schedules > G_MAXINT64 || row->executions > G_MAXINT64
      || row->outcomes > G_MAXINT64 || row->steps > G_MAXINT64 || !(row->seconds >= 0))
    {
      g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_INVALID,
                   "cannot %s in '%s': verdict '%s', or a count out of range", what,
                   store->path, row->verdict);
      return FALSE;
    }
  g_autoptr (FlStoreCursor) insert = fl_store_cursor (store, FL_STMT_EXPLORATION_INSERT,
    "INSERT INTO exploration (scenario_id, config, bounds, verdict, stopped_by, bound, "
    "schedules, executions, outcomes, steps, findings, seconds, created) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)", error);
  if (insert == NULL)
    return FALSE;
  sqlite3_bind_int64 (insert, 1, row->scenario_id);
  sqlite3_bind_text (insert, 2, row->config, -1, SQLITE_STATIC);
  sqlite3_bind_text (insert, 3, row->bounds, -1, SQLITE_STATIC);
  sqlite3_bind_text (insert, 4, row->verdict, -1, SQLITE_STATIC);
  sqlite3_bind_text (insert, 5, row->stopped_by, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (insert, 6, row->bound);
  sqlite3_bind_int64 (insert, 7, (sqlite3_int64) row->schedules);
  sqlite3_bind_int64 (insert, 8, (sqlite3_int64) row->executions);
  sqlite3_bind_int64 (insert, 9, (sqlite3_int64) row->outcomes);
  sqlite3_bind_int64 (insert, 10, (sqlite3_int64) row->steps);
  sqlite3_bind_int64 (insert, 11, row->findings);
  sqlite3_bind_double (insert, 12, row->seconds);
  sqlite3_bind_int64 (insert, 13, row->created ? row->created : fl_store_now ());
  int rc = sqlite3_step (insert);
  if (rc == SQLITE_CONSTRAINT_FOREIGNKEY)
    {
      g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_FOUND,
                   "cannot %s in '%s': there is no scenario %" G_GINT64_FORMAT, what,
                   store->path, row->scenario_id);
      return FALSE;
    }
  if (rc != SQLITE_DONE)
    return fl_store_fail (store, rc, error, "%s", what);
  if (out_id != NULL)
    *out_id = sqlite3_last_insert_rowid (store->db);
  return TRUE;
}

/**
 * fl_store_delete_exploration:
 * @store: a writable store
 * @id: an exploration
 * @error: %FL_STORE_ERROR_NOT_FOUND when there is none
 *
 * Deletes the exploration; the runs of its counterexamples stay, no longer linked to it.
 *
 * Returns: %TRUE on success.
 */
gboolean
fl_store_delete_exploration (FlStore *store, gint64 id, GError **error)
{
  g_return_val_if_fail (store != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  g_autofree char *what = g_strdup_printf ("delete exploration %" G_GINT64_FORMAT, id);
  if (!fl_store_check_writable (store, what, error))
    return FALSE;
  g_autoptr (FlStoreCursor) stmt = fl_store_cursor (store, FL_STMT_EXPLORATION_DELETE,
    "DELETE FROM exploration WHERE id = ?1", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, id);
  int rc = sqlite3_step (stmt);
  if (rc != SQLITE_DONE)
    return fl_store_fail (store, rc, error, "%s", what);
  if (sqlite3_changes (store->db) == 0)
    {
      g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_FOUND,
                   "there is no exploration %" G_GINT64_FORMAT " in '%s'", id, store->path);
      return FALSE;
    }
  return TRUE;
}

#define EXPLORATION_SELECT \
  "SELECT e.id, e.scenario_id, s.name, e.config, e.bounds, e.verdict, e.stopped_by, e.bound, " \
  "e.schedules, e.executions, e.outcomes, e.steps, e.findings, e.seconds, e.created " \
  "FROM exploration e JOIN scenario s ON s.id = e.scenario_id "

static FlStoredExploration *
exploration_from_row (FlStore *store, sqlite3_stmt *stmt, GError **error)
{
  g_autoptr (FlStoredExploration) e = g_new0 (FlStoredExploration, 1);
  FlStoreRow row;
  fl_store_row_init (&row, store, stmt, error);
  e->id = fl_store_row_key (&row, 0, "exploration");
  e->scenario_id = fl_store_row_int (&row, 1, "scenario_id", 1, G_MAXINT64);
  e->config = fl_store_row_text (&row, 3, "config", FL_STORE_MAX_LONG);
  e->bounds = fl_store_row_text (&row, 4, "bounds", FL_STORE_MAX_LONG);
  e->verdict = fl_store_row_text (&row, 5, "verdict", FL_STORE_MAX_SHORT);
  e->stopped_by = fl_store_row_text (&row, 6, "stopped_by", FL_STORE_MAX_SHORT);
  e->bound = (guint) fl_store_row_int (&row, 7, "bound", 0, G_MAXUINT32);
  e->schedules = (guint64) fl_store_row_int (&row, 8, "schedules", 0, G_MAXINT64);
  e->executions = (guint64) fl_store_row_int (&row, 9, "executions", 0, G_MAXINT64);
  e->outcomes = (guint64) fl_store_row_int (&row, 10, "outcomes", 0, G_MAXINT64);
  e->steps = (guint64) fl_store_row_int (&row, 11, "steps", 0, G_MAXINT64);
  e->findings = (guint) fl_store_row_int (&row, 12, "findings", 0, G_MAXUINT32);
  e->seconds = fl_store_row_real (&row, 13, "seconds");
  e->created = fl_store_row_int (&row, 14, "created", G_MININT64, G_MAXINT64);
  if (fl_store_row_ok (&row) && !is_verdict (e->verdict))
    {
      g_autofree char *shown = g_utf8_substring (e->verdict, 0,
                                                 MIN (g_utf8_strlen (e->verdict, -1), 80));
      g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_BAD_VALUE,
                   "'%s' holds a value Faultline never writes: table exploration, row %"
                   G_GINT64_FORMAT ", column verdict is '%s' (Faultline writes complete, "
                   "bounded or found there)", store->path, e->id, shown);
      return NULL;
    }
  fl_store_row_label (&row, "scenario", "%" G_GINT64_FORMAT, e->scenario_id);
  e->scenario_name = fl_store_row_text (&row, 2, "name", FL_STORE_MAX_SHORT);
  return fl_store_row_ok (&row) ? g_steal_pointer (&e) : NULL;
}

/**
 * fl_store_list_explorations:
 * @store: a store
 * @scenario_id: a scenario id, or 0 for the explorations of every scenario
 * @error: a #GError
 *
 * Returns: (transfer container) (element-type FlStoredExploration): the explorations, oldest
 *   first, or %NULL on error.
 */
GPtrArray *
fl_store_list_explorations (FlStore *store, gint64 scenario_id, GError **error)
{
  g_return_val_if_fail (store != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  g_autoptr (FlStoreCursor) stmt = scenario_id > 0
    ? fl_store_cursor (store, FL_STMT_EXPLORATION_LIST,
                       EXPLORATION_SELECT "WHERE e.scenario_id = ?1 ORDER BY e.id", error)
    : fl_store_cursor (store, FL_STMT_EXPLORATION_LIST_ALL,
                       EXPLORATION_SELECT "ORDER BY e.id", error);
  if (stmt == NULL)
    return NULL;
  if (scenario_id > 0)
    sqlite3_bind_int64 (stmt, 1, scenario_id);
  g_autoptr (GPtrArray) list =
    g_ptr_array_new_with_free_func ((GDestroyNotify) fl_stored_exploration_free);
  int rc;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      FlStoredExploration *e = exploration_from_row (store, stmt, error);
      if (e == NULL)
        return NULL;
      g_ptr_array_add (list, e);
    }
  if (rc != SQLITE_DONE)
    {
      fl_store_fail (store, rc, error, "list explorations");
      return NULL;
    }
  return g_steal_pointer (&list);
}

/**
 * fl_store_get_exploration:
 * @store: a store
 * @id: an exploration id
 * @error: %FL_STORE_ERROR_NOT_FOUND when there is none
 *
 * Returns: (transfer full) (nullable): the exploration, or %NULL with @error set.
 */
FlStoredExploration *
fl_store_get_exploration (FlStore *store, gint64 id, GError **error)
{
  g_return_val_if_fail (store != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  g_autoptr (FlStoreCursor) stmt = fl_store_cursor (store, FL_STMT_EXPLORATION_GET,
                                                    EXPLORATION_SELECT "WHERE e.id = ?1", error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_int64 (stmt, 1, id);
  int rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    return exploration_from_row (store, stmt, error);
  if (rc == SQLITE_DONE)
    g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_FOUND,
                 "there is no exploration %" G_GINT64_FORMAT " in '%s'", id, store->path);
  else
    fl_store_fail (store, rc, error, "read exploration %" G_GINT64_FORMAT, id);
  return NULL;
}

/**
 * fl_store_exploration_runs:
 * @store: a store
 * @id: an exploration id
 * @error: a #GError
 *
 * The runs of an exploration's counterexamples, read through the run_by_exploration index
 * (a store may hold thousands of runs; their scenario texts are not read).
 *
 * Returns: (transfer full) (element-type gint64): their ids, smallest first (none for an
 *   unknown exploration), or %NULL on error.
 */
GArray *
fl_store_exploration_runs (FlStore *store, gint64 id, GError **error)
{
  g_return_val_if_fail (store != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  g_autoptr (FlStoreCursor) stmt = fl_store_cursor (store, FL_STMT_EXPLORATION_RUNS,
    "SELECT id FROM run WHERE exploration_id = ?1 ORDER BY id", error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_int64 (stmt, 1, id);
  g_autoptr (GArray) runs = g_array_new (FALSE, FALSE, sizeof (gint64));
  int rc;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 run = sqlite3_column_int64 (stmt, 0);
      g_array_append_val (runs, run);
    }
  if (rc != SQLITE_DONE)
    {
      fl_store_fail (store, rc, error, "list the runs of exploration %" G_GINT64_FORMAT, id);
      return NULL;
    }
  return g_steal_pointer (&runs);
}
