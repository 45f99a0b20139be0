/* Tests of the store file itself: schema creation and migration, and the files it must refuse
 * (not a store, corrupt, newer, read-only, full, killed mid-recording) without changing them. */
#include <errno.h>
#include <signal.h>
#include <unistd.h>
#include <sys/wait.h>
#include <sqlite3.h>
#include "fl-store-private.h"
#include "store-helpers.h"

/* ---- raw SQLite access, to build files the store would never write ---------------------- */

static void
raw_exec (const char *path, const char *sql)
{
  sqlite3 *db = NULL;
  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  char *message = NULL;
  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", sql, message);
  g_assert_cmpint (sqlite3_close (db), ==, SQLITE_OK);
}

static gint64
db_int (sqlite3 *db, const char *sql)
{
  sqlite3_stmt *stmt = NULL;
  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  gint64 value = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  return value;
}

static char *
db_text (sqlite3 *db, const char *sql)
{
  sqlite3_stmt *stmt = NULL;
  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  char *value = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);
  return value;
}

static gint64
raw_int (const char *path, const char *sql)
{
  sqlite3 *db = NULL;
  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  gint64 value = db_int (db, sql);
  sqlite3_close (db);
  return value;
}

static FlStore *
open_ok (const char *path, FlStoreOpenFlags flags)
{
  g_autoptr (GError) error = NULL;
  FlStore *store = fl_store_open (path, flags, &error);
  g_assert_no_error (error);
  g_assert_nonnull (store);
  return store;
}

/* A real store with one scenario and one run of @n events, closed. */
static void
make_store (const char *path, gsize n)
{
  g_autoptr (FlStore) store = open_ok (path, FL_STORE_OPEN_CREATE);
  gint64 scenario = fl_store_test_save_scenario (store, "spf-vs-munmap");
  g_autoptr (GArray) events = fl_store_test_events (0, n, 7);
  fl_store_test_record (store, scenario, events, 4096);
}

/* Opens @path in every mode (with CREATE too unless @skip_create) expecting @code, and checks
 * the file did not change. */
static void
assert_refused_full (const char *path, int code, const char *in_message, gboolean skip_create)
{
  static const FlStoreOpenFlags flag_sets[] = {
    FL_STORE_OPEN_NONE, FL_STORE_OPEN_READ_ONLY, FL_STORE_OPEN_UNTRUSTED,
    FL_STORE_OPEN_UNTRUSTED | FL_STORE_OPEN_READ_ONLY, FL_STORE_OPEN_CREATE,
  };
  g_autofree char *before = fl_store_test_sha256 (path);
  for (guint i = 0; i < G_N_ELEMENTS (flag_sets) - (skip_create ? 1 : 0); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (FlStore) store = fl_store_open (path, flag_sets[i], &error);
      g_assert_null (store);
      g_assert_error (error, FL_STORE_ERROR, code);
      g_test_message ("flags %u: %s", flag_sets[i], error->message);
      g_assert_nonnull (strstr (error->message, path));
      if (in_message != NULL)
        g_assert_nonnull (strstr (error->message, in_message));
      g_autofree char *after = fl_store_test_sha256 (path);
      g_assert_cmpstr (before, ==, after);
    }
}

static void
assert_refused (const char *path, int code, const char *in_message)
{
  assert_refused_full (path, code, in_message, FALSE);
}

/* ---- schema ------------------------------------------------------------------------------ */

static void
test_schema_new_file (FlStoreFixture *fx, gconstpointer data)
{
  {
    g_autoptr (FlStore) store = open_ok (fx->db, FL_STORE_OPEN_CREATE);
    g_assert_false (fl_store_is_read_only (store));
    g_assert_cmpstr (fl_store_get_path (store), ==, fx->db);
    g_autofree char *mode = db_text (store->db, "PRAGMA journal_mode");
    g_assert_cmpstr (mode, ==, "wal");
    g_assert_cmpint (db_int (store->db, "PRAGMA synchronous"), ==, 1);     /* NORMAL */
    g_assert_cmpint (db_int (store->db, "PRAGMA foreign_keys"), ==, 1);
    g_assert_cmpint (db_int (store->db, "PRAGMA trusted_schema"), ==, 0);
  }
  g_assert_cmpint (raw_int (fx->db, "PRAGMA application_id"), ==, FL_STORE_APPLICATION_ID);
  g_assert_cmpint (raw_int (fx->db, "PRAGMA user_version"), ==, FL_STORE_SCHEMA_VERSION);
  g_assert_cmpint (raw_int (fx->db, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND "
                                    "name IN ('scenario', 'run', 'event', 'finding', 'bookmark', "
                                    "'bench')"), ==, 6);

  /* Opening again changes nothing and migrates nothing. */
  g_autoptr (FlStore) again = open_ok (fx->db, FL_STORE_OPEN_NONE);
  g_assert_cmpint (db_int (again->db, "PRAGMA user_version"), ==, FL_STORE_SCHEMA_VERSION);
}

static void
test_schema_missing_file (FlStoreFixture *fx, gconstpointer data)
{
  g_autoptr (GError) e1 = NULL, e2 = NULL;
  g_assert_null (fl_store_open (fx->db, FL_STORE_OPEN_NONE, &e1));
  g_assert_error (e1, FL_STORE_ERROR, FL_STORE_ERROR_NOT_FOUND);
  /* Read-only never creates anything, even when asked to create. */
  g_assert_null (fl_store_open (fx->db, FL_STORE_OPEN_READ_ONLY | FL_STORE_OPEN_CREATE, &e2));
  g_assert_error (e2, FL_STORE_ERROR, FL_STORE_ERROR_NOT_FOUND);
  g_assert_false (g_file_test (fx->db, G_FILE_TEST_EXISTS));
}

static void
test_schema_empty_file (FlStoreFixture *fx, gconstpointer data)
{
  g_assert_true (g_file_set_contents (fx->db, "", 0, NULL));
  assert_refused_full (fx->db, FL_STORE_ERROR_NOT_A_STORE, "empty", TRUE);
  g_autoptr (FlStore) store = open_ok (fx->db, FL_STORE_OPEN_CREATE);
  g_assert_cmpint (db_int (store->db, "PRAGMA user_version"), ==, FL_STORE_SCHEMA_VERSION);
}

static void
test_schema_default_path (void)
{
  /* The test runs with G_TEST_OPTION_ISOLATE_DIRS: the data dir is a fresh temporary one. */
  g_autofree char *expected_dir = g_build_filename (g_get_user_data_dir (), "faultline", NULL);
  g_assert_false (g_file_test (expected_dir, G_FILE_TEST_EXISTS));
  g_autofree char *path = fl_store_default_path ();
  g_autofree char *expected = g_build_filename (expected_dir, "faultline.db", NULL);
  g_assert_cmpstr (path, ==, expected);
  g_assert_true (g_file_test (expected_dir, G_FILE_TEST_IS_DIR));
  g_autoptr (FlStore) store = open_ok (path, FL_STORE_OPEN_CREATE);
}

/* A file of every earlier schema version reaches the current one, keeping its rows. */
static void
test_schema_migrations (FlStoreFixture *fx, gconstpointer data)
{
  for (int version = 0; version < FL_STORE_SCHEMA_VERSION; version++)
    {
      g_autofree char *name = g_strdup_printf ("v%d.db", version);
      g_autofree char *path = g_build_filename (fx->dir, name, NULL);
      g_autoptr (GError) error = NULL;
      g_assert_true (g_file_set_contents (path, "", 0, NULL));
      if (version > 0)
        {
          sqlite3 *db = NULL;
          g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
          g_assert_true (fl_store_schema_upgrade (db, path, version, &error));
          g_assert_no_error (error);
          g_assert_cmpint (db_int (db, "PRAGMA user_version"), ==, version);
          char *message = NULL;
          if (sqlite3_exec (db,
                "INSERT INTO scenario (id, name, title, tags, text, created) "
                "  VALUES (1, 'old', 'Old one', 'a;b', '[scenario]\ntitle=Old one\n', 100);"
                "INSERT INTO run (id, scenario_id, config, seed, steps, cycles, hash, findings, "
                "                 verdict, created) "
                "  VALUES (1, 1, 'rwsem=generic', 3, 2, 900, 'abcd', 0, 'safe', 200);"
                "INSERT INTO event VALUES (1, 0, 0, 10, 0, 1, 0, 1, 3, 1, 5, 77, 1);"
                "INSERT INTO event VALUES (1, 1, 0, 20, 1, 2, 2, 4, 2, 2, 5, 78, 0);"
                "INSERT INTO bookmark (id, run_id, step, title, note, created) "
                "  VALUES (1, 1, 1, 'here', 'the race', 500);",
                NULL, NULL, &message) != SQLITE_OK)
            g_error ("%s", message);
          sqlite3_close (db);
        }

      if (version > 0)
        {
          /* read-only, it cannot be migrated: refused as older, and left as it was */
          g_autoptr (GError) older = NULL;
          g_assert_null (fl_store_open (path, FL_STORE_OPEN_READ_ONLY, &older));
          g_assert_error (older, FL_STORE_ERROR, FL_STORE_ERROR_OLDER_SCHEMA);
          g_assert_nonnull (strstr (older->message, path));
        }
      g_autoptr (FlStore) store = open_ok (path, FL_STORE_OPEN_CREATE);
      g_assert_cmpint (fl_store_get_opened_version (store), ==, version);
      g_assert_cmpint (fl_store_get_schema_version (store), ==, FL_STORE_SCHEMA_VERSION);
      g_assert_cmpint (db_int (store->db, "PRAGMA user_version"), ==, FL_STORE_SCHEMA_VERSION);
      g_assert_cmpint (db_int (store->db, "PRAGMA application_id"), ==, FL_STORE_APPLICATION_ID);
      FlStoredBench row = { .workload = "page-fault1", .config = "rwsem=xadd", .cpus = 4,
                            .faults = 10, .cycles = 100, .faults_per_sec = 2.5, .ratio = 1 };
      g_assert_true (fl_store_add_bench (store, &row, NULL, &error));
      g_assert_no_error (error);
      if (version == 0)
        continue;

      g_autoptr (FlStoredRun) run = fl_store_get_run (store, 1, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (run->scenario_name, ==, "old");
      g_assert_cmpstr (run->hash, ==, "abcd");
      g_assert_cmpint (run->exploration_id, ==, 0);  /* the v3 migration: found by none */
      g_autoptr (GArray) events = g_array_new (FALSE, TRUE, sizeof (FlEvent));
      g_assert_true (fl_store_load_events (store, 1, 0, 10, events, &error));
      g_assert_cmpuint (events->len, ==, 2);
      g_assert_cmpuint (g_array_index (events, FlEvent, 1).obj, ==, 78);
      g_autoptr (FlStoredBookmark) mark = fl_store_get_bookmark (store, 1, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (mark->note, ==, "the race");
      g_assert_cmpint (mark->created, ==, 500);
      /* filled in by the v2 migration; a v2 file's insert above took the column's default */
      g_assert_cmpint (mark->updated, ==, version < 2 ? 500 : 0);
      g_autoptr (FlStoredScenario) scenario = fl_store_get_scenario (store, 1, &error);
      g_assert_cmpuint (g_strv_length (scenario->tags), ==, 2);
      g_autoptr (GPtrArray) explorations = fl_store_list_explorations (store, 0, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (explorations->len, ==, 0);
    }
}

/* ---- files that must be refused ----------------------------------------------------------- */

static void
test_bad_text_file (FlStoreFixture *fx, gconstpointer data)
{
  const char *text = "[scenario]\ntitle=not a database at all, but long enough to look like one\n";
  g_assert_true (g_file_set_contents (fx->db, text, -1, NULL));
  assert_refused (fx->db, FL_STORE_ERROR_NOT_A_STORE, "not an SQLite database");
}

static void
test_bad_other_application (FlStoreFixture *fx, gconstpointer data)
{
  raw_exec (fx->db, "CREATE TABLE photos (id INTEGER PRIMARY KEY, path TEXT);"
                    "INSERT INTO photos (path) VALUES ('/tmp/cat.png');");
  assert_refused (fx->db, FL_STORE_ERROR_NOT_A_STORE, "application_id 0 instead of 0x464C5431");

  /* Another application that does tag its files. */
  raw_exec (fx->db, "PRAGMA application_id = 1234");
  assert_refused (fx->db, FL_STORE_ERROR_NOT_A_STORE, "application_id 0x4D2");
}

/* Overwrites the start of a few pages in the middle of a real store: their b-tree headers. */
static void
test_bad_corrupt (FlStoreFixture *fx, gconstpointer data)
{
  make_store (fx->db, 100000);
  g_autofree char *contents = NULL;
  gsize length = 0;
  g_assert_true (g_file_get_contents (fx->db, &contents, &length, NULL));
  gsize page = 4096, pages = length / page;
  g_assert_cmpuint (pages, >, 20);
  for (gsize p = pages / 2; p < pages / 2 + 3; p++)
    memset (contents + p * page, 0xa5, 200);
  g_assert_true (g_file_set_contents (fx->db, contents, length, NULL));
  assert_refused (fx->db, FL_STORE_ERROR_CORRUPT, "corrupt");
}

static void
test_bad_truncated (FlStoreFixture *fx, gconstpointer data)
{
  make_store (fx->db, 100000);
  g_autofree char *contents = NULL;
  gsize length = 0;
  g_assert_true (g_file_get_contents (fx->db, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (fx->db, contents, length / 2, NULL));
  assert_refused (fx->db, FL_STORE_ERROR_CORRUPT, "corrupt");
}

static void
assert_writes_refused (FlStore *store)
{
  g_autoptr (GError) e1 = NULL, e2 = NULL, e3 = NULL, e4 = NULL;
  FlStoreRunInfo info = { .config = "" };
  g_assert_false (fl_store_save_scenario (store, "x", "x", NULL, "[scenario]\n", NULL, &e1));
  g_assert_error (e1, FL_STORE_ERROR, FL_STORE_ERROR_READ_ONLY);
  g_assert_false (fl_store_add_bookmark (store, 1, 0, "x", NULL, NULL, &e2));
  g_assert_error (e2, FL_STORE_ERROR, FL_STORE_ERROR_READ_ONLY);
  g_assert_false (fl_store_begin_run (store, 1, &info, NULL, &e3));
  g_assert_error (e3, FL_STORE_ERROR, FL_STORE_ERROR_READ_ONLY);
  g_assert_false (fl_store_delete_scenario (store, 1, &e4));
  g_assert_error (e4, FL_STORE_ERROR, FL_STORE_ERROR_READ_ONLY);
  g_assert_nonnull (strstr (e1->message, fl_store_get_path (store)));
}

/* A newer Faultline's store: refused for writing (this version could break what it does not
 * know), read as far as this version knows it, and never changed. */
static void
test_bad_newer_schema (FlStoreFixture *fx, gconstpointer data)
{
  make_store (fx->db, 100);
  raw_exec (fx->db, "PRAGMA user_version = 99; CREATE TABLE later (x INTEGER)");
  g_autofree char *before = fl_store_test_sha256 (fx->db);
  static const FlStoreOpenFlags writing[] = {
    FL_STORE_OPEN_NONE, FL_STORE_OPEN_UNTRUSTED, FL_STORE_OPEN_CREATE,
  };
  for (guint i = 0; i < G_N_ELEMENTS (writing); i++)
    {
      g_autoptr (GError) error = NULL;
      g_assert_null (fl_store_open (fx->db, writing[i], &error));
      g_assert_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NEWER_SCHEMA);
      g_assert_nonnull (strstr (error->message, "schema version 99"));
      g_assert_nonnull (strstr (error->message, "read-only"));
    }
  {
    g_autoptr (FlStore) store = open_ok (fx->db, FL_STORE_OPEN_READ_ONLY | FL_STORE_OPEN_UNTRUSTED);
    g_assert_cmpint (fl_store_get_schema_version (store), ==, 99);
    g_autoptr (GPtrArray) runs = fl_store_list_runs (store, 0, NULL);
    g_assert_cmpuint (runs->len, ==, 1);
    assert_writes_refused (store);
  }
  g_autofree char *after = fl_store_test_sha256 (fx->db);
  g_assert_cmpstr (before, ==, after);

  /* newer or not, a trigger is never accepted */
  raw_exec (fx->db, "CREATE TRIGGER later_spy AFTER INSERT ON run BEGIN SELECT 1; END;");
  g_autoptr (GError) error = NULL;
  g_assert_null (fl_store_open (fx->db, FL_STORE_OPEN_READ_ONLY, &error));
  g_assert_error (error, FL_STORE_ERROR, FL_STORE_ERROR_FOREIGN);
  g_assert_nonnull (strstr (error->message, "trigger 'later_spy'"));
}

/* A trigger is refused in every mode (the store creates none), and the file stays as it was. */
static void
test_bad_untrusted_trigger (FlStoreFixture *fx, gconstpointer data)
{
  make_store (fx->db, 100);
  raw_exec (fx->db, "CREATE TRIGGER spy AFTER INSERT ON bookmark BEGIN SELECT 1; END;");
  assert_refused (fx->db, FL_STORE_ERROR_FOREIGN, "the trigger 'spy' on table 'bookmark'");
}

static void
test_untrusted_store_opens (FlStoreFixture *fx, gconstpointer data)
{
  make_store (fx->db, 5000);
  g_autoptr (FlStore) store = open_ok (fx->db, FL_STORE_OPEN_UNTRUSTED);
  g_assert_cmpint (db_int (store->db, "PRAGMA cell_size_check"), ==, 1);
  g_autoptr (GPtrArray) runs = fl_store_list_runs (store, 0, NULL);
  g_assert_cmpuint (runs->len, ==, 1);
}

/* Opened read-only, a store reads normally, refuses every write and never changes. */
static void
test_read_only_open (FlStoreFixture *fx, gconstpointer data)
{
  make_store (fx->db, 1000);
  g_autofree char *before = fl_store_test_sha256 (fx->db);
  {
    g_autoptr (FlStore) store = open_ok (fx->db, FL_STORE_OPEN_READ_ONLY);
    g_assert_true (fl_store_is_read_only (store));
    g_autoptr (GPtrArray) runs = fl_store_list_runs (store, 0, NULL);
    g_assert_cmpuint (runs->len, ==, 1);
    g_autoptr (GArray) events = g_array_new (FALSE, TRUE, sizeof (FlEvent));
    g_assert_true (fl_store_load_events (store, 1, 0, 99, events, NULL));
    g_assert_cmpuint (events->len, >=, 100);
    assert_writes_refused (store);
  }
  g_autofree char *after = fl_store_test_sha256 (fx->db);
  g_assert_cmpstr (before, ==, after);
}

static void
test_bad_read_only_file (FlStoreFixture *fx, gconstpointer data)
{
  make_store (fx->db, 1000);
  g_assert_cmpint (g_chmod (fx->db, 0444), ==, 0);
  g_autofree char *before = fl_store_test_sha256 (fx->db);

  if (access (fx->db, W_OK) == 0)
    {
      /* Root (as in the CI containers) may write a 0444 file: the kernel does not enforce the
       * mode, so SQLite opens it read-write and there is no read-only file to detect. What
       * remains testable is the store's own guarantee: opened read-only, every write attempt
       * gets READ_ONLY and the file stays byte-identical. */
      g_test_message ("permissions are not enforced (running as root): testing the read-only "
                      "open mode instead");
      g_autoptr (FlStore) store = open_ok (fx->db, FL_STORE_OPEN_READ_ONLY);
      assert_writes_refused (store);
    }
  else
    {
      g_autoptr (GError) error = NULL;
      g_assert_null (fl_store_open (fx->db, FL_STORE_OPEN_NONE, &error));
      g_assert_error (error, FL_STORE_ERROR, FL_STORE_ERROR_READ_ONLY);
      g_assert_nonnull (strstr (error->message, fx->db));
      g_autoptr (FlStore) store = open_ok (fx->db, FL_STORE_OPEN_READ_ONLY);
      assert_writes_refused (store);
    }
  g_autofree char *after = fl_store_test_sha256 (fx->db);
  g_assert_cmpstr (before, ==, after);
}

/* A full disk, emulated with max_page_count on the connection: the write fails with FULL, the
 * run that did not fit leaves no trace, and everything committed before is intact. */
static void
test_full_disk (FlStoreFixture *fx, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FlStore) store = open_ok (fx->db, FL_STORE_OPEN_CREATE);
  gint64 scenario = fl_store_test_save_scenario (store, "full");
  g_autoptr (GArray) first = fl_store_test_events (0, 10000, 1);
  gint64 kept = fl_store_test_record (store, scenario, first, 1000);

  gint64 pages = db_int (store->db, "PRAGMA page_count");
  g_autofree char *limit = g_strdup_printf ("PRAGMA max_page_count = %" G_GINT64_FORMAT,
                                            pages + 8);
  g_assert_cmpint (sqlite3_exec (store->db, limit, NULL, NULL, NULL), ==, SQLITE_OK);

  g_autoptr (GArray) big = fl_store_test_events (0, 200000, 2);
  FlStoreRunInfo info = { .config = "rwsem=generic", .seed = 9 };
  gint64 lost = 0;
  g_assert_true (fl_store_begin_run (store, scenario, &info, &lost, &error));
  gboolean ok = TRUE;
  for (gsize at = 0; ok && at < big->len; at += 5000)
    ok = fl_store_add_events (store, lost, &g_array_index (big, FlEvent, at), 5000, &error);
  g_assert_false (ok);
  g_assert_error (error, FL_STORE_ERROR, FL_STORE_ERROR_FULL);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, fx->db));
  g_assert_false (fl_store_is_recording (store));
  g_clear_error (&error);

  /* Later calls for the dropped run say so; aborting it again is harmless. */
  g_assert_false (fl_store_finish_run (store, lost, 1, 1, "00", 0, NULL, &error));
  g_assert_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  fl_store_abort_run (store, lost);

  g_autoptr (GPtrArray) runs = fl_store_list_runs (store, scenario, &error);
  g_assert_cmpuint (runs->len, ==, 1);
  g_assert_cmpint (((FlStoredRun *) runs->pdata[0])->id, ==, kept);
  fl_store_test_assert_run_events (store, kept, first);
  g_assert_cmpint (db_int (store->db, "SELECT count(*) FROM event WHERE run_id <> 1"), ==, 0);

  /* Space again: the store works on. */
  g_assert_cmpint (sqlite3_exec (store->db, "PRAGMA max_page_count = 1073741823", NULL, NULL,
                                 NULL), ==, SQLITE_OK);
  gint64 later = fl_store_test_record (store, scenario, big, 5000);
  fl_store_test_assert_run_events (store, later, big);
  g_clear_pointer (&store, fl_store_close);
  g_assert_cmpint (raw_int (fx->db, "SELECT count(*) FROM run"), ==, 2);
  sqlite3 *db = NULL;
  g_assert_cmpint (sqlite3_open (fx->db, &db), ==, SQLITE_OK);
  g_autofree char *check = db_text (db, "PRAGMA integrity_check");
  g_assert_cmpstr (check, ==, "ok");
  sqlite3_close (db);
}

/* ---- a recording killed halfway ------------------------------------------------------------ */

#define CRASH_EVENTS 1000000

/* The child: records a run of a million events, tells the parent when half are in, and goes
 * on writing until the SIGKILL lands. It never finishes the run. */
static void G_GNUC_NORETURN
record_until_killed (const char *path, int ready_fd)
{
  g_autoptr (GError) error = NULL;
  FlStore *store = fl_store_open (path, FL_STORE_OPEN_NONE, &error);
  if (store == NULL)
    _exit (2);
  g_autoptr (GArray) events = fl_store_test_events (0, CRASH_EVENTS, 99);
  FlStoreRunInfo info = { .config = "doomed", .seed = 1 };
  gint64 run_id = 0;
  if (!fl_store_begin_run (store, 1, &info, &run_id, &error))
    _exit (3);
  for (gsize at = 0; at < events->len; at += 10000)
    {
      if (!fl_store_add_events (store, run_id, &g_array_index (events, FlEvent, at), 10000,
                                &error))
        _exit (4);
      if (at + 10000 == events->len / 2 && write (ready_fd, "h", 1) != 1)
        _exit (5);
    }
  for (;;)
    pause ();
}

static void
test_crash_while_recording (FlStoreFixture *fx, gconstpointer data)
{
  g_autoptr (GArray) first = fl_store_test_events (0, 50000, 11);
  g_autoptr (GArray) second = fl_store_test_events (0, 30000, 12);
  gint64 run1, run2;
  {
    g_autoptr (FlStore) store = open_ok (fx->db, FL_STORE_OPEN_CREATE);
    gint64 scenario = fl_store_test_save_scenario (store, "crash");
    g_assert_cmpint (scenario, ==, 1);
    run1 = fl_store_test_record (store, scenario, first, 8192);
    run2 = fl_store_test_record (store, scenario, second, 8192);
  }

  /* No connection is open across the fork: SQLite connections must not be shared with a
   * child. */
  int fds[2];
  g_assert_cmpint (pipe (fds), ==, 0);
  pid_t pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      close (fds[0]);
      record_until_killed (fx->db, fds[1]);
    }
  close (fds[1]);
  char byte = 0;
  ssize_t got = read (fds[0], &byte, 1);
  close (fds[0]);
  g_assert_cmpint (kill (pid, SIGKILL), ==, 0);
  int status = 0;
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_cmpint (got, ==, 1);   /* the child got halfway before it was killed */
  g_assert_true (WIFSIGNALED (status));
  g_assert_cmpint (WTERMSIG (status), ==, SIGKILL);

  sqlite3 *db = NULL;
  g_assert_cmpint (sqlite3_open (fx->db, &db), ==, SQLITE_OK);
  g_autofree char *check = db_text (db, "PRAGMA integrity_check");
  g_assert_cmpstr (check, ==, "ok");
  sqlite3_close (db);

  g_autoptr (FlStore) store = open_ok (fx->db, FL_STORE_OPEN_NONE);
  g_autoptr (GPtrArray) runs = fl_store_list_runs (store, 0, NULL);
  g_assert_cmpuint (runs->len, ==, 2);
  g_assert_cmpint (((FlStoredRun *) runs->pdata[0])->id, ==, run1);
  g_assert_cmpint (((FlStoredRun *) runs->pdata[1])->id, ==, run2);
  fl_store_test_assert_run_events (store, run1, first);
  fl_store_test_assert_run_events (store, run2, second);
  g_assert_cmpint (db_int (store->db, "SELECT count(*) FROM run"), ==, 2);
  g_assert_cmpint (db_int (store->db, "SELECT count(*) FROM event"), ==,
                   first->len + second->len);
  g_autoptr (GError) error = NULL;
  g_assert_true (fl_store_check (store, &error));
  g_assert_no_error (error);
}

/* The full check finds what quick_check cannot: rows that lost their parent. */
static void
test_check (FlStoreFixture *fx, gconstpointer data)
{
  make_store (fx->db, 2000);
  g_autoptr (GError) error = NULL;
  {
    g_autoptr (FlStore) store = open_ok (fx->db, FL_STORE_OPEN_NONE);
    g_assert_true (fl_store_check (store, &error));
    g_assert_no_error (error);
  }
  raw_exec (fx->db, "INSERT INTO event VALUES (77, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0)");
  g_autoptr (FlStore) store = open_ok (fx->db, FL_STORE_OPEN_READ_ONLY);
  g_assert_false (fl_store_check (store, &error));
  g_assert_error (error, FL_STORE_ERROR, FL_STORE_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "1 events belong to no run"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, fn) \
  g_test_add ("/core/store/" path, FlStoreFixture, NULL, fl_store_fixture_set_up, fn, \
              fl_store_fixture_tear_down)
  ADD ("schema/new-file", test_schema_new_file);
  ADD ("schema/missing-file", test_schema_missing_file);
  ADD ("schema/empty-file", test_schema_empty_file);
  ADD ("schema/migrations", test_schema_migrations);
  g_test_add_func ("/core/store/schema/default-path", test_schema_default_path);
  ADD ("bad-file/text", test_bad_text_file);
  ADD ("bad-file/other-application", test_bad_other_application);
  ADD ("bad-file/corrupt", test_bad_corrupt);
  ADD ("bad-file/truncated", test_bad_truncated);
  ADD ("bad-file/newer-schema", test_bad_newer_schema);
  ADD ("bad-file/untrusted-trigger", test_bad_untrusted_trigger);
  ADD ("bad-file/read-only", test_bad_read_only_file);
  ADD ("untrusted-store-opens", test_untrusted_store_opens);
  ADD ("read-only-open", test_read_only_open);
  ADD ("full-disk", test_full_disk);
  ADD ("crash-while-recording", test_crash_while_recording);
  ADD ("check", test_check);
#undef ADD
  return g_test_run ();
}
