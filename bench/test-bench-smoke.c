/* test-bench-smoke.c — faultline-bench --quick runs every measurement and prints every
 * number, and --write-doc writes them up. No timings are checked: they depend on the machine,
 * and --quick sizes make them meaningless anyway. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

/* One line per metric; the labels that carry step counts are matched by their start. */
static const char *const labels[] = {
  "steps/s, 8 CPUs, oracle per step", "steps/s, 8 CPUs, oracle at end",
  "steps/s, 64 CPUs, oracle per step", "steps/s, 64 CPUs, oracle at end",
  "steps in the run", "sizeof (FlEvent)",
  "whole simulation per event", "peak RSS during the run", "peak RSS growth during the run",
  "seek to a random step, median", "seek to a random step, p95", "seek to a random step, worst",
  "fl_store_record_sim", "bare batched SQLite insert", "store rate / bare rate",
  "render view 'lanes'", "render view 'vma'", "render view 'pgtable'", "render view 'cache'",
  "render view 'rcu'", "render view 'listing'", "render view 'counters'", "render view 'all'",
  "spf-vs-munmap, vma-free=immediate: first counterexample", "spf-vs-munmap: states explored",
  "spf-vs-munmap: steps per second exploring", "spf-vs-munmap: explorer memory",
  "spf-vs-munmap, vma-free=immediate: pan's first error", "spf-vs-munmap: pan's time to no error",
  "spf-vs-munmap: pan's states stored", "spf-vs-munmap: pan's states per second",
  "spf-vs-munmap: building pan (spin -a, gcc)",
};

static void
test_quick (void)
{
  const char *bench = g_getenv ("FL_BENCH");
  g_assert_nonnull (bench);
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("faultline-bench-test-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *doc = g_build_filename (dir, "performance.md", NULL);
  const char *argv[] = { bench, "--quick", "--write-doc", doc, NULL };
  g_autofree char *out = NULL, *err = NULL;
  int status;
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status,
                &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("faultline-bench --quick failed:\n%s\n%s", out, err);

  g_autofree char *text = NULL;
  g_file_get_contents (doc, &text, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    {
      /* "  LABEL ... NUMBER UNIT" on the terminal, "| LABEL ... | NUMBER UNIT |" in the file */
      g_autofree char *quoted = g_regex_escape_string (labels[i], -1);
      g_autofree char *line = g_strdup_printf ("(?m)^  %s.*\\s[0-9]+(\\.[0-9]+)? +\\S", quoted);
      g_autofree char *row = g_strdup_printf ("(?m)^\\| %s[^|]*\\| [0-9]+(\\.[0-9]+)? \\S", quoted);
      if (!g_regex_match_simple (line, out, 0, 0))
        g_error ("no number for '%s' in the output:\n%s", labels[i], out);
      if (!g_regex_match_simple (row, text, 0, 0))
        g_error ("no row for '%s' in the document:\n%s", labels[i], text);
    }
  g_assert_true (g_regex_match_simple ("(?m)^[0-9]+ of [0-9]+ targets met$", out, 0, 0));
  g_assert_nonnull (strstr (text, "| CPU | "));
  g_assert_nonnull (strstr (text, "| Build type | "));

  g_unlink (doc);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bench/quick", test_quick);
  return g_test_run ();
}
