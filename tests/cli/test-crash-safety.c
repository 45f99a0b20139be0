/* A store survives what happens to the program writing it: `faultline-cli run --record`
 * killed (SIGKILL) at 100 moments spread over a recording, and two recordings into one store
 * at once. After each kill the file passes integrity_check, every run recorded before is
 * still listed, and whatever run is listed replays as recorded: the interrupted one is
 * absent or complete, never half there. */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <sqlite3.h>
#include <string.h>

#define KILLS 100

/* A recording that takes a moment (about 60,000 steps): long enough to be killed in the
 * middle of the simulation, of the recording and of its commit. */
static const char scenario_text[] =
  "[scenario]\ntitle=recording under kill -9\n\n[config]\ncpus=4\nfault-path=locked\n\n"
  "[mm]\nvma=0x7f0000000000-0x7f0004000000 rw- anon\n\n"
  "[cpu0]\nbase=0x7f0000000000\nops=repeat 400 { fault +4096 write }\n\n"
  "[cpu1]\nbase=0x7f0001000000\nops=repeat 400 { fault +4096 write }\n\n"
  "[cpu2]\nbase=0x7f0002000000\nops=repeat 400 { fault +4096 write }\n\n"
  "[cpu3]\nbase=0x7f0003000000\nops=repeat 400 { fault +4096 write }\n";

typedef struct {
  char *dir, *store, *scenario;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  f->dir = g_dir_make_tmp ("faultline-crash-XXXXXX", &error);
  g_assert_no_error (error);
  f->store = g_build_filename (f->dir, "runs.db", NULL);
  f->scenario = g_build_filename (f->dir, "record.fault", NULL);
  g_assert_true (g_file_set_contents (f->scenario, scenario_text, -1, NULL));
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  g_autoptr (GDir) dir = g_dir_open (f->dir, 0, NULL);
  for (const char *name; dir && (name = g_dir_read_name (dir));)
    {
      g_autofree char *path = g_build_filename (f->dir, name, NULL);
      g_unlink (path);
    }
  g_rmdir (f->dir);
  g_free (f->dir);
  g_free (f->store);
  g_free (f->scenario);
}

static GSubprocess *
record (const Fixture *f, GError **error)
{
  g_autofree char *to = g_strconcat ("--record=", f->store, NULL);
  return g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                           error, g_getenv ("FL_CLI"), "run", f->scenario, to, NULL);
}

/* Runs `faultline-cli ARGS…` to its end; its exit status, or -1 for a signal. */
static int
cli_status (const char *first, ...)
{
  va_list args;
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (char *) g_getenv ("FL_CLI"));
  va_start (args, first);
  for (const char *a = first; a; a = va_arg (args, const char *))
    g_ptr_array_add (argv, (char *) a);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) p = g_subprocess_newv ((const char *const *) argv->pdata,
                                                 G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_wait (p, NULL, &error));
  return g_subprocess_get_if_exited (p) ? g_subprocess_get_exit_status (p) : -1;
}

/* The runs the store lists, by id, after checking the file's integrity. */
static GArray *
listed_runs (const char *path)
{
  sqlite3 *db = NULL;
  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  sqlite3_stmt *check = NULL;
  g_assert_cmpint (sqlite3_prepare_v2 (db, "PRAGMA integrity_check", -1, &check, NULL), ==,
                   SQLITE_OK);
  g_assert_cmpint (sqlite3_step (check), ==, SQLITE_ROW);
  g_assert_cmpstr ((const char *) sqlite3_column_text (check, 0), ==, "ok");
  sqlite3_finalize (check);
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  sqlite3_stmt *runs = NULL;
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT id FROM run ORDER BY id", -1, &runs, NULL),
                   ==, SQLITE_OK);
  while (sqlite3_step (runs) == SQLITE_ROW)
    {
      gint64 id = sqlite3_column_int64 (runs, 0);
      g_array_append_val (ids, id);
    }
  sqlite3_finalize (runs);
  sqlite3_close (db);
  return ids;
}

static gboolean
contains (GArray *ids, gint64 id)
{
  for (guint i = 0; i < ids->len; i++)
    if (g_array_index (ids, gint64, i) == id)
      return TRUE;
  return FALSE;
}

static void
assert_replays (const Fixture *f, gint64 id)
{
  g_autofree char *run = g_strdup_printf ("%" G_GINT64_FORMAT, id);
  int status = cli_status ("replay", f->store, run, NULL);
  if (status != 0)
    g_error ("run %s of %s does not replay as recorded (exit %d)", run, f->store, status);
}

static void
test_killed_while_recording (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  /* one whole recording first: the run every later kill must leave alone, and how long a
   * recording takes here, so the kills spread over all of it */
  gint64 start = g_get_monotonic_time ();
  g_assert_cmpint (cli_status ("run", f->scenario, "--record", f->store, NULL), ==, 0);
  gint64 whole = MAX (g_get_monotonic_time () - start, 20000);
  g_autoptr (GArray) before = listed_runs (f->store);
  g_assert_cmpuint (before->len, ==, 1);

  /* the moments are drawn from a fixed seed: the same moments on every run of the test */
  g_autoptr (GRand) rand = g_rand_new_with_seed (2010);
  guint killed = 0;
  for (guint i = 0; i < KILLS; i++)
    {
      g_autoptr (GSubprocess) p = record (f, &error);
      g_assert_no_error (error);
      g_usleep ((gulong) g_rand_int_range (rand, 0, (gint32) (whole * 11 / 10)));
      g_subprocess_force_exit (p);
      g_assert_true (g_subprocess_wait (p, NULL, &error));
      killed += !g_subprocess_get_if_exited (p);

      g_autoptr (GArray) now = listed_runs (f->store);
      for (guint k = 0; k < before->len; k++)
        if (!contains (now, g_array_index (before, gint64, k)))
          g_error ("kill %u: run %" G_GINT64_FORMAT " recorded earlier is gone", i,
                   g_array_index (before, gint64, k));
      /* a run the kill let finish, or that it cut short: listed only when complete */
      for (guint k = 0; k < now->len; k++)
        if (!contains (before, g_array_index (now, gint64, k)))
          assert_replays (f, g_array_index (now, gint64, k));
      g_array_set_size (before, 0);
      g_array_append_vals (before, now->data, now->len);
    }
  g_test_message ("%u of %u recordings killed before they ended; %u runs in the store", killed,
                  KILLS, before->len);
  /* most kills landed inside a recording, or this test would prove little */
  g_assert_cmpuint (killed, >=, KILLS / 2);
  assert_replays (f, g_array_index (before, gint64, 0));
}

/* Two recordings into one store at once: each lands, or says the store is busy; none is
 * lost silently and the file stays whole. Which one it is depends on the machine: the second
 * waits 5 s for the first's transaction, which a loaded machine can make last longer. */
static void
test_two_writers (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) a = record (f, &error);
  g_assert_no_error (error);
  g_autoptr (GSubprocess) b = record (f, &error);
  g_assert_no_error (error);
  GSubprocess *both[] = { a, b };
  guint landed = 0;
  for (guint i = 0; i < G_N_ELEMENTS (both); i++)
    {
      g_autofree char *err = NULL;
      g_assert_true (g_subprocess_communicate_utf8 (both[i], NULL, NULL, NULL, &err, &error));
      g_assert_no_error (error);
      g_assert_true (g_subprocess_get_if_exited (both[i]));
      int status = g_subprocess_get_exit_status (both[i]);
      if (status == 0)
        landed++;
      else
        {
          g_test_message ("writer %u: exit %d: %s", i, status, err);
          g_assert_cmpint (status, ==, 2);
          g_assert_nonnull (strstr (err, "busy"));
          g_assert_nonnull (strstr (err, f->store));
        }
    }
  g_autoptr (GArray) runs = listed_runs (f->store);
  g_assert_cmpuint (runs->len, ==, landed);
  g_assert_cmpuint (landed, >=, 1);
  for (guint i = 0; i < runs->len; i++)
    assert_replays (f, g_array_index (runs, gint64, i));
}

/* The second writer of test_two_writers on every machine: the test holds the write lock
 * while a recording starts, so the recording waits, gives up with exit 2 and says the store
 * is busy and which; nothing is written. */
static void
test_busy_store (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_assert_cmpint (cli_status ("run", f->scenario, "--record", f->store, NULL), ==, 0);
  sqlite3 *db = NULL;
  g_assert_cmpint (sqlite3_open_v2 (f->store, &db, SQLITE_OPEN_READWRITE, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "BEGIN IMMEDIATE", NULL, NULL, NULL), ==, SQLITE_OK);
  g_autoptr (GSubprocess) p = record (f, &error);
  g_assert_no_error (error);
  g_autofree char *err = NULL;
  g_assert_true (g_subprocess_communicate_utf8 (p, NULL, NULL, NULL, &err, &error));
  g_assert_no_error (error);
  g_assert_cmpint (sqlite3_exec (db, "ROLLBACK", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
  g_test_message ("the writer said: %s", err);
  g_assert_true (g_subprocess_get_if_exited (p));
  g_assert_cmpint (g_subprocess_get_exit_status (p), ==, 2);
  g_assert_nonnull (strstr (err, "busy"));
  g_assert_nonnull (strstr (err, f->store));
  g_autoptr (GArray) runs = listed_runs (f->store);
  g_assert_cmpuint (runs->len, ==, 1);
  assert_replays (f, g_array_index (runs, gint64, 0));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/cli/crash-safety/killed-while-recording", Fixture, NULL, fixture_set_up,
              test_killed_while_recording, fixture_tear_down);
  g_test_add ("/cli/crash-safety/two-writers", Fixture, NULL, fixture_set_up, test_two_writers,
              fixture_tear_down);
  g_test_add ("/cli/crash-safety/busy-store", Fixture, NULL, fixture_set_up, test_busy_store,
              fixture_tear_down);
  return g_test_run ();
}
