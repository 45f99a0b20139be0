/* fl-store-check.c — the schema is the app's, exactly. A trigger runs SQL when Faultline merely
 * writes a row, a view runs a query of the sender's choosing in place of a table, a changed
 * column drops the constraints the readers rely on: before anything else is read, every object
 * in sqlite_schema is compared with what the migrations create for the file's user_version. */
#include "fl-store-private.h"

#include <string.h>

typedef struct {
  char *type, *name, *table, *sql;
} SchemaObject;

static void
schema_object_free (SchemaObject *o)
{
  g_free (o->type);
  g_free (o->name);
  g_free (o->table);
  g_free (o->sql);
  g_free (o);
}

/* Tables SQLite itself makes: ANALYZE and `PRAGMA optimize` (which the store runs on close)
 * keep planner statistics in them. They hold data the planner reads, never SQL. */
static const struct { const char *name, *sql; } sqlite_tables[] = {
  { "sqlite_stat1", "CREATE TABLE sqlite_stat1(tbl,idx,stat)" },
  { "sqlite_stat4", "CREATE TABLE sqlite_stat4(tbl,idx,neq,nlt,ndlt,sample)" },
};

/* A name or a definition from the file goes into a one-line message: valid UTF-8, no control
 * characters, not longer than a line. */
static char *
printable (const char *text, gsize max)
{
  if (text == NULL)
    return g_strdup ("NULL");
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  GString *out = g_string_new (NULL);
  const char *p = valid;
  for (gsize chars = 0; *p != '\0' && chars < max; p = g_utf8_next_char (p), chars++)
    {
      gunichar c = g_utf8_get_char (p);
      if (g_unichar_iscntrl (c))
        g_string_append_c (out, ' ');
      else
        g_string_append_unichar (out, c);
    }
  if (*p != '\0')
    g_string_append (out, "…");
  return g_string_free (out, FALSE);
}

static GPtrArray *
read_schema (sqlite3 *db, FlStore *store, GError **error)
{
  g_autoptr (GPtrArray) objects =
    g_ptr_array_new_with_free_func ((GDestroyNotify) schema_object_free);
  sqlite3_stmt *stmt = NULL;
  if (store != NULL)
    fl_store_budget_reset (store);
  int rc = sqlite3_prepare_v2 (db, "SELECT type, name, tbl_name, sql FROM sqlite_schema "
                                   "ORDER BY name", -1, &stmt, NULL);
  while (rc == SQLITE_OK || rc == SQLITE_ROW)
    {
      if ((rc = sqlite3_step (stmt)) != SQLITE_ROW)
        break;
      SchemaObject *o = g_new0 (SchemaObject, 1);
      o->type = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
      o->name = g_strdup ((const char *) sqlite3_column_text (stmt, 1));
      o->table = g_strdup ((const char *) sqlite3_column_text (stmt, 2));
      o->sql = g_strdup ((const char *) sqlite3_column_text (stmt, 3));
      g_ptr_array_add (objects, o);
    }
  if (rc != SQLITE_DONE)
    {
      if (store != NULL)
        fl_store_fail (store, rc, error, "read the schema");
      else
        g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_IO, "cannot make the schema of "
                     "this version: %s", sqlite3_errmsg (db));
      sqlite3_finalize (stmt);
      return NULL;
    }
  sqlite3_finalize (stmt);
  return g_steal_pointer (&objects);
}

/* The schema as the migrations make it, in a database of their own in memory. */
static GPtrArray *
expected_schema (gint64 version, GError **error)
{
  sqlite3 *db = NULL;
  int rc = sqlite3_open_v2 (":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, NULL);
  GPtrArray *objects = NULL;
  if (rc != SQLITE_OK)
    g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_IO, "cannot make the schema of this "
                 "version: %s", sqlite3_errstr (rc));
  else if (version == 0 || fl_store_schema_upgrade (db, ":memory:", (int) version, error))
    objects = read_schema (db, NULL, error);
  sqlite3_close (db);
  return objects;
}

static const SchemaObject *
find (GPtrArray *objects, const char *name)
{
  for (guint i = 0; i < objects->len; i++)
    {
      const SchemaObject *o = objects->pdata[i];
      if (g_strcmp0 (o->name, name) == 0)
        return o;
    }
  return NULL;
}

static gboolean
is_sqlite_table (const SchemaObject *o)
{
  for (guint i = 0; i < G_N_ELEMENTS (sqlite_tables); i++)
    if (g_strcmp0 (o->name, sqlite_tables[i].name) == 0)
      return g_strcmp0 (o->type, "table") == 0 && g_strcmp0 (o->sql, sqlite_tables[i].sql) == 0;
  return FALSE;
}

/* One sentence for an object the migrations do not make. */
static char *
describe_extra (const SchemaObject *o)
{
  g_autofree char *type = printable (o->type, 20);
  g_autofree char *name = printable (o->name, 60);
  g_autofree char *table = printable (o->table, 60);
  if (g_strcmp0 (o->type, "trigger") == 0 || g_strcmp0 (o->type, "index") == 0)
    return g_strdup_printf ("the %s '%s' on table '%s', which Faultline never creates", type,
                            name, table);
  return g_strdup_printf ("the %s '%s', which Faultline never creates", type, name);
}

static char *
describe_changed (const SchemaObject *found, const SchemaObject *wanted)
{
  g_autofree char *name = printable (found->name, 60);
  if (g_strcmp0 (found->type, wanted->type) != 0)
    {
      g_autofree char *type = printable (found->type, 20);
      return g_strdup_printf ("'%s' is a %s, where Faultline creates a %s", name, type,
                              wanted->type);
    }
  g_autofree char *sql = printable (found->sql, 160);
  return g_strdup_printf ("the %s '%s' is not the one Faultline creates (here: %s)",
                          wanted->type, name, sql);
}

/*
 * Compares the schema of @store's file with the one this build makes for @version and returns
 * one sentence per difference, each naming the object: extra objects, objects of another type
 * or definition, missing ones. Empty when the file's schema is the app's.
 *
 * A store of a newer version than this build (opened read-only) cannot be compared exactly:
 * it must hold every table and index of this version as a table or index of the same name, and
 * no trigger and no view at all; its other additions are the newer version's.
 */
GPtrArray *
fl_store_schema_differences (FlStore *store, gint64 version, GError **error)
{
  gboolean newer = version > FL_STORE_SCHEMA_VERSION;
  g_autoptr (GPtrArray) wanted = expected_schema (newer ? FL_STORE_SCHEMA_VERSION : version,
                                                  error);
  if (wanted == NULL)
    return NULL;
  g_autoptr (GPtrArray) found = read_schema (store->db, store, error);
  if (found == NULL)
    return NULL;

  /* Worst first, as the open names only the first: what runs SQL or stands in for a table,
   * then a changed definition, then an extra table or index, then what is missing. */
  enum { RUNS_SQL, CHANGED, EXTRA, MISSING, N_RANKS };
  GPtrArray *ranks[N_RANKS];
  for (guint r = 0; r < N_RANKS; r++)
    ranks[r] = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < found->len; i++)
    {
      const SchemaObject *o = found->pdata[i];
      const SchemaObject *w = find (wanted, o->name);
      gboolean code = g_strcmp0 (o->type, "trigger") == 0 || g_strcmp0 (o->type, "view") == 0;
      if (w == NULL && is_sqlite_table (o))
        continue;
      if (w == NULL && newer && !code)
        continue;
      if (w == NULL)
        g_ptr_array_add (ranks[code ? RUNS_SQL : EXTRA], describe_extra (o));
      else if (g_strcmp0 (o->type, w->type) != 0)
        g_ptr_array_add (ranks[RUNS_SQL], describe_changed (o, w));
      else if (!newer && g_strcmp0 (o->sql, w->sql) != 0)
        g_ptr_array_add (ranks[CHANGED], describe_changed (o, w));
    }
  for (guint i = 0; i < wanted->len; i++)
    {
      const SchemaObject *w = wanted->pdata[i];
      if (find (found, w->name) == NULL)
        g_ptr_array_add (ranks[MISSING], g_strdup_printf ("the %s '%s' is missing", w->type,
                                                          w->name));
    }
  g_autoptr (GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  for (guint r = 0; r < N_RANKS; r++)
    {
      for (guint i = 0; i < ranks[r]->len; i++)
        g_ptr_array_add (problems, g_steal_pointer (&ranks[r]->pdata[i]));
      g_ptr_array_unref (ranks[r]);
    }
  return g_steal_pointer (&problems);
}
