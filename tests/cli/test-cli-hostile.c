/* The corpus of hostile stores (tests/data/hostile) through every `db` sub-command, `replay`
 * and `run --record`, as a user would type them: each command either does its job or exits 2
 * with the case's message; none is killed by a signal or runs past its time; a refused or
 * merely read file is byte-identical afterwards. */
#include <glib/gstdio.h>
#include <string.h>
#include "hostile-stores.h"
#include "cli-result.h"

/* far beyond any command on these small stores: a command that takes it has hung */
#define COMMAND_SECONDS "60"

static char *base_dir, *base_path, *fault_path;

/* @args, with "@DB" standing for @db and "@FAULT" for a valid .fault file. */
static void
cli (Result *r, const char *db, const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_ptr_array_add (argv, (char *) "timeout");
  g_ptr_array_add (argv, (char *) "-s");
  g_ptr_array_add (argv, (char *) "KILL");
  g_ptr_array_add (argv, (char *) COMMAND_SECONDS);
  g_ptr_array_add (argv, (char *) g_getenv ("FL_CLI"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) (strcmp (args[i], "@DB") == 0 ? db
                                     : strcmp (args[i], "@FAULT") == 0 ? fault_path : args[i]));
  g_ptr_array_add (argv, NULL);
  int wait = 0;
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               &r->out, &r->err, &wait, &error));
  g_assert_no_error (error);
  /* timeout(1) exits 128 + 9 when it had to kill the command */
  r->status = WIFEXITED (wait) && WEXITSTATUS (wait) < 128 ? WEXITSTATUS (wait) : -1;
}

static const char *const *const reading[] = {
  (const char *const[]) { "db", "list", "--db", "@DB", NULL },
  (const char *const[]) { "db", "list", "--search", "munmap", "--db", "@DB", "--json", NULL },
  (const char *const[]) { "db", "runs", "1", "--db", "@DB", "--json", NULL },
  (const char *const[]) { "db", "show", "1", "--db", "@DB", NULL },
  (const char *const[]) { "db", "bookmarks", "1", "--db", "@DB", NULL },
  (const char *const[]) { "db", "export", "1", "--db", "@DB", NULL },
  (const char *const[]) { "db", "check", "--db", "@DB", NULL },
  (const char *const[]) { "db", "explorations", "--db", "@DB", NULL },
  (const char *const[]) { "db", "explorations", "1", "--db", "@DB", "--json", NULL },
  (const char *const[]) { "replay", "@DB", "1", NULL },
  (const char *const[]) { "replay", "@DB", "1", "--untrusted", "--json", NULL },
};

static const char *const *const writing[] = {
  (const char *const[]) { "db", "bookmarks", "1", "--add", "2", "added", "--db", "@DB", NULL },
  (const char *const[]) { "db", "bookmarks", "1", "--edit", "1", "--title", "t", "--db", "@DB",
                          NULL },
  (const char *const[]) { "db", "bookmarks", "1", "--delete", "1", "--db", "@DB", NULL },
  (const char *const[]) { "db", "import", "@FAULT", "--db", "@DB", NULL },
  (const char *const[]) { "run", "spf-vs-munmap", "--record", "@DB", NULL },
  (const char *const[]) { "explore", "spf-vs-munmap", "--preemptions", "0", "--reduction",
                          "none", "--record", "@DB", NULL },
  (const char *const[]) { "db", "delete-exploration", "1", "--db", "@DB", NULL },
  (const char *const[]) { "db", "delete-run", "1", "--db", "@DB", NULL },
  (const char *const[]) { "db", "delete-scenario", "1", "--db", "@DB", NULL },
};

static char *
describe (const char *const *args)
{
  return g_strjoinv (" ", (char **) args);
}

static gboolean
is_replay (const char *const *args)
{
  return strcmp (args[0], "replay") == 0;
}

/* Exit 2 with the case's message (db check prints its own list, one object a line). */
static void
assert_refused (const FlHostileCase *c, const char *const *args, const Result *r)
{
  g_autofree char *what = describe (args);
  if (r->status != 2)
    g_error ("%s: %s: exit %d, expected 2 (stderr: %s)", c->name, what, r->status, r->err);
  gboolean check_list = strcmp (args[1], "check") == 0 && c->kind == FL_HOSTILE_FOREIGN;
  if (!check_list && strstr (r->err, c->expect) == NULL)
    g_error ("%s: %s: '%s' does not say '%s'", c->name, what, r->err, c->expect);
  if (check_list && strstr (r->err, "difference") == NULL)
    g_error ("%s: %s: '%s' lists nothing", c->name, what, r->err);
}

static void
test_case (gconstpointer data)
{
  const FlHostileCase *c = data;
  g_autofree char *path = fl_hostile_new_store (c, base_path, base_dir);
  g_autofree char *before = fl_hostile_digest (path);
  gboolean refused = fl_hostile_is_refused (c);
  guint failed_with_message = 0;

  for (guint i = 0; i < G_N_ELEMENTS (reading); i++)
    {
      g_auto (Result) r = { 0 };
      cli (&r, path, reading[i]);
      g_autofree char *what = describe (reading[i]);
      g_test_message ("%s: exit %d: %s", what, r.status, r.err);
      g_assert_cmpint (r.status, !=, -1);
      if (refused)
        assert_refused (c, reading[i], &r);
      else if (c->kind == FL_HOSTILE_NEWER)
        {
          g_assert_cmpint (r.status, ==, 0);
          g_assert_nonnull (strstr (r.err, "newer Faultline"));
        }
      else if (c->kind == FL_HOSTILE_REPLAY)
        {
          if (is_replay (reading[i]))
            assert_refused (c, reading[i], &r);
          else
            g_assert_cmpint (r.status, ==, 0);
        }
      else if (c->kind == FL_HOSTILE_BAD_VALUE && r.status != 0)
        {
          assert_refused (c, reading[i], &r);
          failed_with_message++;
        }
      g_autofree char *after = fl_hostile_digest (path);
      if (strcmp (before, after) != 0)
        g_error ("%s: %s changed the file", c->name, what);
    }
  if (c->kind == FL_HOSTILE_BAD_VALUE)
    g_assert_cmpuint (failed_with_message, >, 0);

  /* Writing commands: a refused store stays as it was; one that opens may be written to (that
   * is what was asked), so they run one after the other on a copy of their own. */
  g_autofree char *copy = g_strconcat (path, ".copy", NULL);
  fl_hostile_make (c, base_path, copy);
  for (guint i = 0; i < G_N_ELEMENTS (writing); i++)
    {
      const char *target = refused || c->kind == FL_HOSTILE_NEWER ? path : copy;
      g_auto (Result) r = { 0 };
      cli (&r, target, writing[i]);
      g_autofree char *what = describe (writing[i]);
      g_test_message ("%s: exit %d: %s", what, r.status, r.err);
      g_assert_cmpint (r.status, !=, -1);
      if (refused || c->kind == FL_HOSTILE_NEWER)
        {
          assert_refused (c, writing[i], &r);
          g_autofree char *after = fl_hostile_digest (path);
          if (strcmp (before, after) != 0)
            g_error ("%s: %s changed the file", c->name, what);
        }
      else if (r.status != 0)
        g_assert_cmpstr (r.err, !=, "");
    }
}

/* The stored 16 TiB VMA (and any text marked as-file): `replay` ends as `run` ends on the same
 * text in a .fault file, no better trusted. */
static void
test_as_file (gconstpointer data)
{
  const FlHostileCase *c = data;
  g_autofree char *path = fl_hostile_new_store (c, base_path, base_dir);
  g_autofree char *file = g_strconcat (path, ".fault", NULL);
  g_auto (Result) exported = { 0 }, replayed = { 0 }, ran = { 0 };
  cli (&exported, path, (const char *const[]) { "db", "export", "1", "-o", file, "--db", "@DB",
                                               NULL });
  g_assert_cmpint (exported.status, ==, 0);
  cli (&replayed, path, (const char *const[]) { "replay", "@DB", "1", NULL });
  cli (&ran, path, (const char *const[]) { "run", file, NULL });
  g_test_message ("replay: exit %d: %s", replayed.status, replayed.err);
  g_test_message ("run: exit %d: %s", ran.status, ran.err);
  /* 1 from run means findings; from replay, that the run differs: both are "simulated" */
  gboolean replay_simulated = replayed.status == 0 || replayed.status == 1;
  gboolean run_simulated = ran.status == 0 || ran.status == 1;
  g_assert_cmpint (replay_simulated, ==, run_simulated);
  if (!run_simulated)
    g_assert_cmpint (replayed.status, ==, ran.status);
  /* the state grows with what the run touches: a 16 TiB VMA is simulated, not refused */
  g_assert_true (run_simulated);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_autoptr (GError) error = NULL;
  base_dir = g_dir_make_tmp ("faultline-cli-hostile-XXXXXX", &error);
  g_assert_no_error (error);
  base_path = g_build_filename (base_dir, "base.db", NULL);
  fault_path = g_build_filename (base_dir, "extra.fault", NULL);
  g_assert_true (g_file_set_contents (fault_path, "[scenario]\ntitle=extra\n", -1, NULL));
  {
    g_auto (Result) r = { 0 };
    cli (&r, base_path, (const char *const[]) { "run", "spf-vs-munmap", "--record", "@DB", NULL });
    g_assert_cmpint (r.status, ==, 0);
  }
  fl_hostile_prepare_base (base_path);

  g_autoptr (GPtrArray) cases = fl_hostile_cases (base_path);
  for (guint i = 0; i < cases->len; i++)
    {
      const FlHostileCase *c = cases->pdata[i];
      g_autofree char *name = g_strdup_printf ("/cli/hostile/%s", c->name);
      g_test_add_data_func (name, c, c->kind == FL_HOSTILE_AS_FILE ? test_as_file : test_case);
    }
  int status = g_test_run ();

  g_autoptr (GDir) dir = g_dir_open (base_dir, 0, NULL);
  for (const char *name; dir && (name = g_dir_read_name (dir)) != NULL;)
    {
      g_autofree char *child = g_build_filename (base_dir, name, NULL);
      g_unlink (child);
    }
  g_rmdir (base_dir);
  g_free (fault_path);
  g_free (base_path);
  g_free (base_dir);
  return status;
}
