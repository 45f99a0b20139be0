/* faultline-cli and the store: run --record, replay and every db sub-command, as a user runs
 * them. */
#include <sqlite3.h>
#include "cli-run.h"

typedef struct {
  char *dir;
  char *db;      /* dir/runs.db, holding the runs made by store_set_up() */
} StoreFixture;


static char *
file_digest (const char *path)
{
  g_autofree char *contents = NULL;
  gsize length = 0;
  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) contents, length);
}


/* Run 1: spf-vs-munmap as shipped (no findings); run 2: the same with the VMA freed at once
 * (a use-after-free). */
static void
store_set_up (StoreFixture *fx, gconstpointer data)
{
  fx->dir = g_dir_make_tmp ("faultline-cli-XXXXXX", NULL);
  g_assert_nonnull (fx->dir);
  fx->db = g_build_filename (fx->dir, "runs.db", NULL);
  g_auto (Result) a = { 0 }, b = { 0 };
  cli (&a, "run", "spf-vs-munmap", "--record", fx->db, NULL);
  g_assert_cmpint (a.status, ==, 0);
  g_assert_nonnull (strstr (a.err, "Recorded as run 1"));
  cli (&b, "run", "spf-vs-munmap", "--set", "vma-free=immediate", "--record", fx->db, NULL);
  g_assert_cmpint (b.status, ==, 1);
  g_assert_nonnull (strstr (b.err, "Recorded as run 2"));
}

static void
store_tear_down (StoreFixture *fx, gconstpointer data)
{
  remove_tree (fx->dir);
  g_free (fx->db);
  g_free (fx->dir);
}

static char *
write_file (StoreFixture *fx, const char *name, const char *text, gssize length)
{
  char *path = g_build_filename (fx->dir, name, NULL);
  g_assert_true (g_file_set_contents (path, text, length, NULL));
  return path;
}

static void
test_replay_identical (StoreFixture *fx, gconstpointer data)
{
  g_auto (Result) r = { 0 }, j = { 0 }, fresh = { 0 };
  cli (&r, "replay", fx->db, "1", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "spf-vs-munmap"));
  g_assert_nonnull (strstr (r.out, "identical"));

  /* The replay of run 2 reproduces what a new run of the same setup prints. */
  cli (&j, "replay", fx->db, "2", "--json", NULL);
  g_assert_cmpint (j.status, ==, 0);
  g_autoptr (JsonParser) pj = NULL, pf = NULL;
  JsonObject *replay = parse_json (j.out, &pj);
  g_assert_true (json_object_get_boolean_member (replay, "identical"));
  g_assert_cmpstr (json_object_get_string_member (replay, "hash"), ==,
                   json_object_get_string_member (replay, "stored_hash"));
  cli (&fresh, "run", "spf-vs-munmap", "--set", "vma-free=immediate", "--json", NULL);
  JsonObject *run = parse_json (fresh.out, &pf);
  g_assert_cmpstr (json_object_get_string_member (replay, "hash"), ==,
                   json_object_get_string_member (run, "hash"));
}

/* A run whose stored stream was changed: exit 1 and the step where it parts. */
static void
test_replay_differs (StoreFixture *fx, gconstpointer data)
{
  sqlite3 *db = NULL;
  g_assert_cmpint (sqlite3_open (fx->db, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "UPDATE event SET val = val + 1 WHERE run_id = 1 AND "
                                     "step = 40 AND sub = 0; UPDATE run SET hash = 'c4a9ed' "
                                     "WHERE id = 1", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
  g_auto (Result) r = { 0 };
  cli (&r, "replay", fx->db, "1", NULL);
  g_assert_cmpint (r.status, ==, 1);
  /* the stored event of step 41 (40 steps before it) was changed */
  g_assert_nonnull (strstr (r.out, "first differing step 41"));
}

static void
test_replay_bad_input (StoreFixture *fx, gconstpointer data)
{
  g_autofree char *text = write_file (fx, "notes.db", "just some notes, not a database\n", -1);
  g_autofree char *missing = g_build_filename (fx->dir, "missing.db", NULL);
  g_auto (Result) a = { 0 }, b = { 0 }, c = { 0 }, d = { 0 }, e = { 0 };
  cli (&a, "replay", fx->db, "99", NULL);
  g_assert_cmpint (a.status, ==, 2);
  g_assert_nonnull (strstr (a.err, "no run 99"));
  g_assert_nonnull (strstr (a.err, fx->db));
  assert_one_line (a.err);
  cli (&b, "replay", text, "1", NULL);
  g_assert_cmpint (b.status, ==, 2);
  g_assert_nonnull (strstr (b.err, "not a Faultline store"));
  assert_one_line (b.err);
  cli (&c, "replay", missing, "1", NULL);
  g_assert_cmpint (c.status, ==, 2);
  g_assert_nonnull (strstr (c.err, missing));
  g_assert_false (g_file_test (missing, G_FILE_TEST_EXISTS));
  cli (&d, "replay", fx->db, "first", NULL);
  g_assert_cmpint (d.status, ==, 2);
  g_assert_nonnull (strstr (d.err, "'first' is not a run id"));
  cli (&e, "replay", fx->db, NULL);
  g_assert_cmpint (e.status, ==, 2);
}

static void
test_db_list_runs_show (StoreFixture *fx, gconstpointer data)
{
  g_auto (Result) list = { 0 }, search = { 0 }, none = { 0 }, runs = { 0 }, show = { 0 },
                  json = { 0 }, unknown = { 0 };
  cli (&list, "db", "list", "--db", fx->db, NULL);
  g_assert_cmpint (list.status, ==, 0);
  g_assert_nonnull (strstr (list.out, "spf-vs-munmap"));
  g_assert_nonnull (strstr (list.out, "munmap races a speculative fault"));
  cli (&search, "db", "list", "--search", "MUNMAP", "--json", "--db", fx->db, NULL);
  g_autoptr (JsonParser) ps = json_parser_new ();
  g_assert_true (json_parser_load_from_data (ps, search.out, -1, NULL));
  JsonArray *found = json_node_get_array (json_parser_get_root (ps));
  g_assert_cmpuint (json_array_get_length (found), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (found, 0),
                                                  "name"), ==, "spf-vs-munmap");
  cli (&none, "db", "list", "--search", "no-such-thing", "--db", fx->db, NULL);
  g_assert_cmpint (none.status, ==, 0);
  g_assert_nonnull (strstr (none.out, "No stored scenario matches"));

  cli (&runs, "db", "runs", "1", "--json", "--db", fx->db, NULL);
  g_assert_cmpint (runs.status, ==, 0);
  g_autoptr (JsonParser) pr = json_parser_new ();
  g_assert_true (json_parser_load_from_data (pr, runs.out, -1, NULL));
  JsonArray *all = json_node_get_array (json_parser_get_root (pr));
  g_assert_cmpuint (json_array_get_length (all), ==, 2);
  JsonObject *second = json_array_get_object_element (all, 1);
  g_assert_cmpint (json_object_get_int_member (second, "findings"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (second, "verdict"), ==, "findings");

  cli (&show, "db", "show", "2", "--db", fx->db, NULL);
  g_assert_cmpint (show.status, ==, 0);
  g_assert_nonnull (strstr (show.out, "vma-free=immediate"));
  g_assert_nonnull (strstr (show.out, "use-after-free"));
  g_assert_nonnull (strstr (show.out, "Bookmarks  0"));
  g_assert_nonnull (strstr (show.out, json_object_get_string_member (second, "hash")));
  cli (&json, "db", "show", "2", "--json", "--db", fx->db, NULL);
  g_autoptr (JsonParser) pj = NULL;
  JsonObject *shown = parse_json (json.out, &pj);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (shown, "findings")), ==, 1);

  cli (&unknown, "db", "show", "7", "--db", fx->db, NULL);
  g_assert_cmpint (unknown.status, ==, 2);
  g_assert_nonnull (strstr (unknown.err, "no run 7"));
  assert_one_line (unknown.err);
}

static void
test_db_bookmarks (StoreFixture *fx, gconstpointer data)
{
  g_auto (Result) add = { 0 }, add2 = { 0 }, list = { 0 }, edit = { 0 }, del = { 0 },
                  json = { 0 }, show = { 0 }, far = { 0 }, other = { 0 };
  cli (&add, "db", "bookmarks", "2", "--add", "59", "the VMA is freed", "--note",
       "nothing kept it alive", "--db", fx->db, NULL);
  g_assert_cmpint (add.status, ==, 0);
  g_assert_nonnull (strstr (add.out, "Added bookmark 1"));
  cli (&add2, "db", "bookmarks", "2", "--add", "3", "--title", "the race starts", "--db", fx->db,
       NULL);
  g_assert_cmpint (add2.status, ==, 0);
  cli (&list, "db", "bookmarks", "2", "--db", fx->db, NULL);
  g_assert_cmpint (list.status, ==, 0);
  const char *early = strstr (list.out, "the race starts");
  const char *late = strstr (list.out, "the VMA is freed");
  g_assert_true (early != NULL && late != NULL && early < late);   /* in step order */
  g_assert_nonnull (strstr (list.out, "nothing kept it alive"));

  cli (&edit, "db", "bookmarks", "2", "--edit", "1", "--step", "60", "--db", fx->db, NULL);
  g_assert_cmpint (edit.status, ==, 0);
  cli (&del, "db", "bookmarks", "2", "--delete", "2", "--db", fx->db, NULL);
  g_assert_cmpint (del.status, ==, 0);
  cli (&json, "db", "bookmarks", "2", "--json", "--db", fx->db, NULL);
  g_autoptr (JsonParser) p = json_parser_new ();
  g_assert_true (json_parser_load_from_data (p, json.out, -1, NULL));
  JsonArray *marks = json_node_get_array (json_parser_get_root (p));
  g_assert_cmpuint (json_array_get_length (marks), ==, 1);
  JsonObject *mark = json_array_get_object_element (marks, 0);
  g_assert_cmpint (json_object_get_int_member (mark, "step"), ==, 60);
  g_assert_cmpstr (json_object_get_string_member (mark, "title"), ==, "the VMA is freed");
  g_assert_cmpstr (json_object_get_string_member (mark, "note"), ==, "nothing kept it alive");
  cli (&show, "db", "show", "2", "--db", fx->db, NULL);
  g_assert_nonnull (strstr (show.out, "Bookmarks  1"));

  cli (&far, "db", "bookmarks", "2", "--add", "100000", "too late", "--db", fx->db, NULL);
  g_assert_cmpint (far.status, ==, 2);
  g_assert_nonnull (strstr (far.err, "step 100000"));
  cli (&other, "db", "bookmarks", "1", "--delete", "1", "--db", fx->db, NULL);
  g_assert_cmpint (other.status, ==, 2);
  g_assert_nonnull (strstr (other.err, "belongs to run 2"));
}

static const char handwritten[] =
  "# written by hand\r\n"
  "[scenario]\n"
  "title = two CPUs fault the same page\n"
  "tags=race; review\n"
  "\n"
  "[config]\n"
  "cpus=2   # enough\n"
  "\n"
  "[mm]\n"
  "vma=0x7f0000000000-0x7f0000004000 rw- anon\n"
  "\n"
  "[cpu0]\n"
  "ops=fault 0x7f0000001000 write\n"
  "[cpu1]\n"
  "ops=fault 0x7f0000001000 read";

/* The text goes in and comes out byte for byte, whatever its line ends and comments. */
static void
test_db_import_export (StoreFixture *fx, gconstpointer data)
{
  g_autofree char *path = write_file (fx, "same-page.fault", handwritten, -1);
  g_autofree char *out = g_build_filename (fx->dir, "out.fault", NULL);
  g_auto (Result) imp = { 0 }, exp = { 0 }, to_stdout = { 0 }, list = { 0 };
  cli (&imp, "db", "import", path, "--tag", "cli-test", "--db", fx->db, NULL);
  g_assert_cmpint (imp.status, ==, 0);
  g_assert_nonnull (strstr (imp.out, "as scenario 2"));
  cli (&list, "db", "list", "--search", "cli-test", "--db", fx->db, NULL);
  g_assert_nonnull (strstr (list.out, "two CPUs fault the same page"));
  g_assert_nonnull (strstr (list.out, "same-page"));

  cli (&exp, "db", "export", "2", "-o", out, "--db", fx->db, NULL);
  g_assert_cmpint (exp.status, ==, 0);
  g_autofree char *written = NULL;
  gsize length = 0;
  g_assert_true (g_file_get_contents (out, &written, &length, NULL));
  g_assert_cmpmem (written, length, handwritten, strlen (handwritten));
  cli (&to_stdout, "db", "export", "2", "--db", fx->db, NULL);
  g_assert_cmpint (to_stdout.status, ==, 0);
  g_assert_cmpstr (to_stdout.out, ==, handwritten);

  /* -o naming the store itself would replace the library with one scenario. */
  g_autofree char *before = file_digest (fx->db);
  g_auto (Result) onto = { 0 };
  cli (&onto, "db", "export", "2", "-o", fx->db, "--db", fx->db, NULL);
  g_assert_cmpint (onto.status, ==, 2);
  g_assert_nonnull (strstr (onto.err, "the store itself"));
  g_autofree char *after = file_digest (fx->db);
  g_assert_cmpstr (before, ==, after);
}

/* A file the parser refuses: exit 2, the file and line named, the store not touched. */
static void
test_db_import_bad (StoreFixture *fx, gconstpointer data)
{
  g_autofree char *bad = write_file (fx, "bad.fault", "[scenario]\ntitle=t\n\n[cpu0]\n"
                                     "ops=fault 0x7f0000001000 sideways\n", -1);
  g_autofree char *before = file_digest (fx->db);
  g_auto (Result) r = { 0 }, list = { 0 };
  cli (&r, "db", "import", bad, "--db", fx->db, NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "bad.fault:5:"));
  assert_one_line (r.err);
  g_autofree char *after = file_digest (fx->db);
  g_assert_cmpstr (before, ==, after);
  cli (&list, "db", "list", "--json", "--db", fx->db, NULL);
  g_autoptr (JsonParser) p = json_parser_new ();
  g_assert_true (json_parser_load_from_data (p, list.out, -1, NULL));
  g_assert_cmpuint (json_array_get_length (json_node_get_array (json_parser_get_root (p))), ==, 1);
}

/* check passes a sound store and fails a copy with damaged pages, naming it. */
static void
test_db_check (StoreFixture *fx, gconstpointer data)
{
  g_auto (Result) big = { 0 }, ok = { 0 }, bad = { 0 }, list = { 0 };
  /* A few thousand steps of events, so that the file has pages in the middle to damage. */
  cli (&big, "run", "multi-fault", "--max-steps", "3000", "--record", fx->db, NULL);
  g_assert_cmpint (big.status, ==, 0);
  cli (&ok, "db", "check", "--db", fx->db, NULL);
  g_assert_cmpint (ok.status, ==, 0);
  g_assert_nonnull (strstr (ok.out, "ok (2 scenarios, 3 runs)"));

  g_autofree char *contents = NULL;
  gsize length = 0;
  g_assert_true (g_file_get_contents (fx->db, &contents, &length, NULL));
  gsize page = 4096, pages = length / page;
  g_assert_cmpuint (pages, >, 16);
  for (gsize p = pages / 2; p < pages / 2 + 3; p++)
    memset (contents + p * page, 0xa5, 200);
  g_autofree char *copy = write_file (fx, "damaged.db", contents, length);
  cli (&bad, "db", "check", "--db", copy, NULL);
  g_assert_cmpint (bad.status, ==, 2);
  g_assert_nonnull (strstr (bad.err, "corrupt"));
  g_assert_nonnull (strstr (bad.err, copy));
  assert_one_line (bad.err);
  cli (&list, "db", "runs", "--db", copy, NULL);
  g_assert_cmpint (list.status, ==, 2);
}

/* A store of an older Faultline (tests/data/stores/schema-2.sql, frozen as that version wrote
 * it): reading commands refuse it with the way out, `db upgrade` migrates it keeping its rows,
 * and a second upgrade has nothing to do. */
static void
test_db_upgrade (StoreFixture *fx, gconstpointer data)
{
  g_autofree char *sql_path = g_test_build_filename (G_TEST_DIST, "..", "data", "stores",
                                                     "schema-2.sql", NULL);
  g_autofree char *sql = NULL;
  g_assert_true (g_file_get_contents (sql_path, &sql, NULL, NULL));
  g_autofree char *old = g_build_filename (fx->dir, "old.db", NULL);
  sqlite3 *db = NULL;
  g_assert_cmpint (sqlite3_open (old, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_close (db), ==, SQLITE_OK);
  g_autofree char *before = file_digest (old);

  g_auto (Result) refused = { 0 };
  cli (&refused, "db", "list", "--db", old, NULL);
  g_assert_cmpint (refused.status, ==, 2);
  assert_one_line (refused.err);
  g_assert_nonnull (strstr (refused.err, "schema version 2"));
  g_assert_nonnull (strstr (refused.err, "faultline-cli db upgrade --db"));
  g_autofree char *after_refusal = file_digest (old);
  g_assert_cmpstr (after_refusal, ==, before);

  g_auto (Result) upgraded = { 0 };
  cli (&upgraded, "db", "upgrade", "--db", old, NULL);
  g_assert_cmpint (upgraded.status, ==, 0);
  g_assert_nonnull (strstr (upgraded.out, "from schema version 2 to"));
  g_auto (Result) listed = { 0 };
  cli (&listed, "db", "list", "--db", old, NULL);
  g_assert_cmpint (listed.status, ==, 0);
  g_assert_nonnull (strstr (listed.out, "munmap races a speculative fault"));
  g_auto (Result) checked = { 0 };
  cli (&checked, "db", "check", "--db", old, NULL);
  g_assert_cmpint (checked.status, ==, 0);
  g_auto (Result) again = { 0 };
  cli (&again, "db", "upgrade", "--db", old, NULL);
  g_assert_cmpint (again.status, ==, 0);
  g_assert_nonnull (strstr (again.out, "already"));

  /* no file there: nothing is created */
  g_autofree char *missing = g_build_filename (fx->dir, "missing.db", NULL);
  g_auto (Result) none = { 0 };
  cli (&none, "db", "upgrade", "--db", missing, NULL);
  g_assert_cmpint (none.status, ==, 2);
  assert_one_line (none.err);
  g_assert_false (g_file_test (missing, G_FILE_TEST_EXISTS));
}

/* --untrusted refuses what a store never holds and a hostile file might: a trigger. */
static void
test_db_untrusted (StoreFixture *fx, gconstpointer data)
{
  sqlite3 *db = NULL;
  g_assert_cmpint (sqlite3_open (fx->db, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "CREATE TRIGGER spy AFTER INSERT ON bookmark "
                                     "BEGIN SELECT 1; END", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
  g_autofree char *before = file_digest (fx->db);
  g_auto (Result) a = { 0 }, b = { 0 }, c = { 0 };
  cli (&a, "db", "runs", "--untrusted", "--db", fx->db, NULL);
  g_assert_cmpint (a.status, ==, 2);
  g_assert_nonnull (strstr (a.err, "trigger 'spy'"));
  cli (&b, "replay", "--untrusted", fx->db, "1", NULL);
  g_assert_cmpint (b.status, ==, 2);
  cli (&c, "db", "check", "--db", fx->db, NULL);   /* check is always untrusted */
  g_assert_cmpint (c.status, ==, 2);
  g_autofree char *after = file_digest (fx->db);
  g_assert_cmpstr (before, ==, after);
}

static void
test_db_delete (StoreFixture *fx, gconstpointer data)
{
  g_auto (Result) a = { 0 }, b = { 0 }, c = { 0 }, runs = { 0 }, d = { 0 }, e = { 0 };
  cli (&a, "db", "delete-run", "1", "--db", fx->db, NULL);
  g_assert_cmpint (a.status, ==, 0);
  cli (&b, "db", "delete-run", "1", "--db", fx->db, NULL);
  g_assert_cmpint (b.status, ==, 2);
  g_assert_nonnull (strstr (b.err, "no run 1"));
  cli (&runs, "db", "runs", "--json", "--db", fx->db, NULL);
  g_autoptr (JsonParser) p = json_parser_new ();
  g_assert_true (json_parser_load_from_data (p, runs.out, -1, NULL));
  g_assert_cmpuint (json_array_get_length (json_node_get_array (json_parser_get_root (p))), ==, 1);
  cli (&c, "db", "delete-scenario", "1", "--db", fx->db, NULL);
  g_assert_cmpint (c.status, ==, 0);
  g_assert_nonnull (strstr (c.out, "1 run"));
  cli (&d, "replay", fx->db, "2", NULL);
  g_assert_cmpint (d.status, ==, 2);
  /* Deleting in a store that is not there is a wrong path, not a new store. */
  g_autofree char *missing = g_build_filename (fx->dir, "typo.db", NULL);
  cli (&e, "db", "delete-run", "1", "--db", missing, NULL);
  g_assert_cmpint (e.status, ==, 2);
  g_assert_false (g_file_test (missing, G_FILE_TEST_EXISTS));
}

/* Without --db: the store under $XDG_DATA_HOME, created by the first writing command only. */
static void
test_db_default_path (StoreFixture *fx, gconstpointer data)
{
  g_autofree char *saved = g_strdup (g_getenv ("XDG_DATA_HOME"));
  g_assert_true (g_setenv ("XDG_DATA_HOME", fx->dir, TRUE));
  g_autofree char *store = g_build_filename (fx->dir, "faultline", "faultline.db", NULL);
  g_autofree char *path = write_file (fx, "same-page.fault", handwritten, -1);
  g_auto (Result) before = { 0 }, imp = { 0 }, after = { 0 };
  cli (&before, "db", "list", NULL);
  g_assert_cmpint (before.status, ==, 2);
  g_assert_nonnull (strstr (before.err, store));
  g_assert_nonnull (strstr (before.err, "no store there yet"));
  g_assert_false (g_file_test (store, G_FILE_TEST_EXISTS));
  cli (&imp, "db", "import", path, NULL);
  g_assert_cmpint (imp.status, ==, 0);
  g_assert_true (g_file_test (store, G_FILE_TEST_EXISTS));
  cli (&after, "db", "list", NULL);
  g_assert_cmpint (after.status, ==, 0);
  g_assert_nonnull (strstr (after.out, "same-page"));
  if (saved)
    g_setenv ("XDG_DATA_HOME", saved, TRUE);
  else
    g_unsetenv ("XDG_DATA_HOME");
}

/* Every command and sub-command explains itself, and wrong words get one line and exit 2. */
static void
test_db_usage (void)
{
  static const char *const subcommands[] = {
    "list", "runs", "show", "bookmarks", "import", "export", "check", "delete-run",
    "delete-scenario",
  };
  for (guint i = 0; i < G_N_ELEMENTS (subcommands); i++)
    {
      g_auto (Result) r = { 0 };
      cli (&r, "db", subcommands[i], "--help", NULL);
      g_assert_cmpint (r.status, ==, 0);
      g_assert_nonnull (strstr (r.out, "--db"));
      g_assert_nonnull (strstr (r.out, "Exit status"));
    }
  g_auto (Result) help = { 0 }, replay = { 0 }, none = { 0 }, unknown = { 0 }, top = { 0 };
  cli (&help, "db", "--help", NULL);
  g_assert_cmpint (help.status, ==, 0);
  g_assert_nonnull (strstr (help.out, "delete-scenario"));
  cli (&replay, "replay", "--help", NULL);
  g_assert_cmpint (replay.status, ==, 0);
  g_assert_nonnull (strstr (replay.out, "1 the replay differs"));
  cli (&none, "db", NULL);
  g_assert_cmpint (none.status, ==, 2);
  cli (&unknown, "db", "frobnicate", NULL);
  g_assert_cmpint (unknown.status, ==, 2);
  g_assert_nonnull (strstr (unknown.err, "frobnicate"));
  assert_one_line (unknown.err);
  cli (&top, "--help", NULL);
  g_assert_nonnull (strstr (top.out, "replay"));
  g_assert_nonnull (strstr (top.out, "db"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, fn) \
  g_test_add ("/cli/" path, StoreFixture, NULL, store_set_up, fn, store_tear_down)
  ADD ("replay/identical", test_replay_identical);
  ADD ("replay/differs", test_replay_differs);
  ADD ("replay/bad-input", test_replay_bad_input);
  ADD ("db/list-runs-show", test_db_list_runs_show);
  ADD ("db/bookmarks", test_db_bookmarks);
  ADD ("db/import-export", test_db_import_export);
  ADD ("db/import-bad", test_db_import_bad);
  ADD ("db/check", test_db_check);
  ADD ("db/upgrade", test_db_upgrade);
  ADD ("db/untrusted", test_db_untrusted);
  ADD ("db/delete", test_db_delete);
  ADD ("db/default-path", test_db_default_path);
#undef ADD
  g_test_add_func ("/cli/db/usage", test_db_usage);
  return g_test_run ();
}
