#pragma once

/* The corpus of hostile stores: what a stranger could send, made at test time from a genuine
 * store. Each FILE.sql here is one case, applied to a copy of it; its first two lines say what
 * it is and what every message about it must contain:
 *
 *   -- <what the case is>
 *   -- expect: KIND TEXT
 *
 * KIND is foreign (the open refuses the schema), corrupt (the open's integrity check refuses
 * it), bad-value (opens; a read refuses a value), newer (opens only read-only), not-a-store,
 * replay (opens and reads; replaying the run refuses it), or as-file (a replay must do what
 * `faultline-cli run` does with the same text as a file). Besides the files: NULL in every
 * NOT NULL column the code reads (made by dropping the constraint, writing the NULL and putting
 * the schema back as Faultline writes it), and a WAL file from another database.
 *
 * Shared by the core, cli and ui tests (header-only: each test program is one source file). */

#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <sqlite3.h>

typedef enum {
  FL_HOSTILE_FOREIGN,
  FL_HOSTILE_CORRUPT,
  FL_HOSTILE_BAD_VALUE,
  FL_HOSTILE_NEWER,
  FL_HOSTILE_NOT_A_STORE,
  FL_HOSTILE_REPLAY,
  FL_HOSTILE_AS_FILE,
} FlHostileKind;

typedef struct {
  char          *name;
  FlHostileKind  kind;
  char          *expect;       /* in every message about the case */
  char          *sql;          /* applied to the copy; NULL for the WAL case */
  gboolean       foreign_wal;  /* a WAL of another database next to the copy */
} FlHostileCase;

static inline void
fl_hostile_case_free (FlHostileCase *c)
{
  g_free (c->name);
  g_free (c->expect);
  g_free (c->sql);
  g_free (c);
}

static inline void
fl_hostile_exec (const char *path, const char *sql)
{
  sqlite3 *db = NULL;
  char *message = NULL;
  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", path, message);
  g_assert_cmpint (sqlite3_close (db), ==, SQLITE_OK);
}

/* A row in every table, as Faultline writes them: a finding, a bookmark, a benchmark row, an
 * exploration that found run 1. The base is a store holding run 1 of spf-vs-munmap, recorded
 * by the test's own means. */
static inline void
fl_hostile_prepare_base (const char *path)
{
  fl_hostile_exec (path,
    "INSERT INTO finding (run_id, step, cpu, kind, message) "
    "  VALUES (1, 3, 1, 'use-after-free', 'a finding of the hostile corpus');"
    "INSERT INTO bookmark (run_id, step, title, note, created, updated) "
    "  VALUES (1, 5, 'a bookmark', 'its note', 1000, 1000);"
    "UPDATE run SET findings = (SELECT count(*) FROM finding WHERE run_id = run.id);"
    "INSERT INTO bench (workload, config, cpus, faults, cycles, faults_per_sec, ratio, created) "
    "  VALUES ('multi-fault', 'rwsem=xadd', 8, 1000, 2000, 1.5e6, 2.5, 1000);"
    "INSERT INTO exploration (scenario_id, config, bounds, verdict, stopped_by, bound, "
    "  schedules, executions, outcomes, steps, findings, seconds, created) "
    "  VALUES (1, 'vma-free=immediate', 'schedule=systematic preemptions=2', 'found', 'none', "
    "          2, 40, 45, 7, 2000, 1, 0.25, 1000);"
    "UPDATE run SET exploration_id = 1 WHERE id = 1;");
}

static inline gboolean
fl_hostile_parse_kind (const char *word, FlHostileKind *out)
{
  static const char *const names[] = {
    "foreign", "corrupt", "bad-value", "newer", "not-a-store", "replay", "as-file",
  };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (strcmp (word, names[i]) == 0)
      {
        *out = (FlHostileKind) i;
        return TRUE;
      }
  return FALSE;
}

static inline FlHostileCase *
fl_hostile_case_from_file (const char *dir, const char *file)
{
  g_autofree char *path = g_build_filename (dir, file, NULL);
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_auto (GStrv) lines = g_strsplit (text, "\n", 3);
  g_assert_true (lines[0] && lines[1] && g_str_has_prefix (lines[1], "-- expect: "));
  const char *expect = lines[1] + strlen ("-- expect: ");
  g_auto (GStrv) words = g_strsplit (expect, " ", 2);
  FlHostileCase *c = g_new0 (FlHostileCase, 1);
  if (!fl_hostile_parse_kind (words[0], &c->kind))
    g_error ("%s: unknown kind '%s'", path, words[0]);
  c->name = g_strndup (file, strlen (file) - strlen (".sql"));
  c->expect = g_strdup (words[1] ? words[1] : "");
  c->sql = g_steal_pointer (&text);
  return c;
}

/* NULL in @column of the first row of @table, with the schema put back as it was. */
static inline FlHostileCase *
fl_hostile_null_case (const char *table, const char *column, const char *create_sql)
{
  g_autofree char *loose = NULL;
  {
    g_auto (GStrv) parts = g_strsplit (create_sql, " NOT NULL", -1);
    loose = g_strjoinv ("", parts);
  }
  const char *first_row = strcmp (table, "event") == 0
    ? "(run_id, step, sub) = (SELECT run_id, step, sub FROM event ORDER BY run_id, step, sub "
      "LIMIT 1)"
    : "rowid = (SELECT min(rowid) FROM \"%w\")";
  g_autofree char *where = NULL;
  {
    char *w = sqlite3_mprintf (first_row, table);
    where = g_strdup (w);
    sqlite3_free (w);
  }
  char *sql = sqlite3_mprintf (
    "PRAGMA writable_schema = ON;"
    "UPDATE sqlite_schema SET sql = %Q WHERE name = %Q;"
    "PRAGMA writable_schema = RESET;"
    "UPDATE \"%w\" SET \"%w\" = NULL WHERE %s;"
    "PRAGMA writable_schema = ON;"
    "UPDATE sqlite_schema SET sql = %Q WHERE name = %Q;"
    "PRAGMA writable_schema = RESET;", loose, table, table, column, where, create_sql, table);
  FlHostileCase *c = g_new0 (FlHostileCase, 1);
  c->name = g_strdup_printf ("null-%s-%s", table, column);
  c->kind = FL_HOSTILE_CORRUPT;
  /* the first row of each table: id 1, or the first event of run 1 */
  c->expect = g_strdup_printf ("NULL value in %s.%s; table %s, row %s, column %s is NULL",
                               table, column, table,
                               strcmp (table, "event") == 0 ? "(run 1, step 0, sub 0)" : "1",
                               column);
  c->sql = g_strdup (sql);
  sqlite3_free (sql);
  return c;
}

/* Every NOT NULL column of every table of @base that is not part of a key. */
static inline void
fl_hostile_add_null_cases (GPtrArray *cases, const char *base)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *tables = NULL;
  g_assert_cmpint (sqlite3_open_v2 (base, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT name, sql FROM sqlite_schema WHERE type = "
                                           "'table' AND name NOT LIKE 'sqlite%' ORDER BY name",
                                       -1, &tables, NULL), ==, SQLITE_OK);
  while (sqlite3_step (tables) == SQLITE_ROW)
    {
      const char *table = (const char *) sqlite3_column_text (tables, 0);
      const char *create_sql = (const char *) sqlite3_column_text (tables, 1);
      sqlite3_stmt *columns = NULL;
      g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT name FROM pragma_table_info (?1) "
                                               "WHERE \"notnull\" AND pk = 0 ORDER BY cid",
                                           -1, &columns, NULL), ==, SQLITE_OK);
      sqlite3_bind_text (columns, 1, table, -1, SQLITE_STATIC);
      while (sqlite3_step (columns) == SQLITE_ROW)
        {
          const char *column = (const char *) sqlite3_column_text (columns, 0);
          g_ptr_array_add (cases, fl_hostile_null_case (table, column, create_sql));
        }
      sqlite3_finalize (columns);
    }
  sqlite3_finalize (tables);
  sqlite3_close (db);
}

static inline int
fl_hostile_compare_names (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

/* Every case: the files in name order, the NULL cases, the foreign WAL. */
static inline GPtrArray *
fl_hostile_cases (const char *base)
{
  GPtrArray *cases = g_ptr_array_new_with_free_func ((GDestroyNotify) fl_hostile_case_free);
  g_autoptr (GDir) dir = g_dir_open (FL_HOSTILE_DIR, 0, NULL);
  g_assert_nonnull (dir);
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  for (const char *name; (name = g_dir_read_name (dir)) != NULL;)
    if (g_str_has_suffix (name, ".sql"))
      g_ptr_array_add (files, g_strdup (name));
  g_ptr_array_sort (files, fl_hostile_compare_names);
  for (guint i = 0; i < files->len; i++)
    g_ptr_array_add (cases, fl_hostile_case_from_file (FL_HOSTILE_DIR, files->pdata[i]));
  fl_hostile_add_null_cases (cases, base);

  FlHostileCase *wal = g_new0 (FlHostileCase, 1);
  wal->name = g_strdup ("wal-from-another-database");
  wal->kind = FL_HOSTILE_NOT_A_STORE;
  wal->expect = g_strdup ("is not a Faultline store");
  wal->foreign_wal = TRUE;
  g_ptr_array_add (cases, wal);
  return cases;
}

/* Next to @path, the WAL of another application's database: its pages take the place of the
 * store's own when SQLite reads the file. The other database stays open while its WAL is
 * copied, so that the WAL still holds its frames. */
static inline void
fl_hostile_add_foreign_wal (const char *path)
{
  g_autofree char *other = g_strconcat (path, ".other", NULL);
  g_autofree char *other_wal = g_strconcat (other, "-wal", NULL);
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  sqlite3 *db = NULL;
  g_assert_cmpint (sqlite3_open (other, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;"
                                     "CREATE TABLE contact (name TEXT, phone TEXT);"
                                     "INSERT INTO contact VALUES ('someone', '555-0100');",
                                 NULL, NULL, NULL), ==, SQLITE_OK);
  g_autofree char *contents = NULL;
  gsize length = 0;
  g_assert_true (g_file_get_contents (other_wal, &contents, &length, NULL));
  g_assert_cmpuint (length, >, 0);
  g_assert_true (g_file_set_contents (wal, contents, length, NULL));
  sqlite3_close (db);
  g_unlink (other);
}

/* A copy of @base at @path, made hostile as @c says. */
static inline void
fl_hostile_make (const FlHostileCase *c, const char *base, const char *path)
{
  g_autofree char *contents = NULL;
  gsize length = 0;
  g_assert_true (g_file_get_contents (base, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (path, contents, length, NULL));
  if (c->sql != NULL)
    fl_hostile_exec (path, c->sql);
  if (c->foreign_wal)
    fl_hostile_add_foreign_wal (path);
}

/* A copy of @base in @dir named after @c, made hostile; returns its path. */
static inline char *
fl_hostile_new_store (const FlHostileCase *c, const char *base, const char *dir)
{
  char *path = g_build_filename (dir, c->name, NULL);
  fl_hostile_make (c, base, path);
  return path;
}

/* The cases whose store no command may open. */
static inline gboolean
fl_hostile_is_refused (const FlHostileCase *c)
{
  return c->kind == FL_HOSTILE_FOREIGN || c->kind == FL_HOSTILE_CORRUPT ||
         c->kind == FL_HOSTILE_NOT_A_STORE;
}

/* The store file and its WAL as they are now, to compare after a command: a refused or read
 * file must stay exactly as it was. */
static inline char *
fl_hostile_digest (const char *path)
{
  g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  const char *files[] = { path, wal };
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *contents = NULL;
      gsize length = 0;
      if (g_file_get_contents (files[i], &contents, &length, NULL))
        g_checksum_update (sum, (const guchar *) contents, length);
      g_checksum_update (sum, (const guchar *) "|", 1);
    }
  return g_strdup (g_checksum_get_string (sum));
}
