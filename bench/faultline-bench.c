/* faultline-bench — the simulator's own speed (issue 7): steps per second, memory per event,
 * seek latency, recording rate and drawing time, printed and optionally written up, with the
 * window's frames measured by faultline-bench-window (--window-results). */
#include "fl-bench.h"

#include <locale.h>
#include <stdio.h>

int
main (int argc, char **argv)
{
  gboolean quick = FALSE;
  g_autofree char *doc = NULL;
  g_autofree char *window = NULL;
  GOptionEntry entries[] = {
    { "quick", 0, 0, G_OPTION_ARG_NONE, &quick,
      "Tiny sizes: check that every measurement runs (the numbers mean nothing)", NULL },
    { "write-doc", 0, 0, G_OPTION_ARG_FILENAME, &doc,
      "Write the machine and the results to PATH (docs/performance.md)", "PATH" },
    { "window-results", 0, 0, G_OPTION_ARG_FILENAME, &window,
      "Add the window's numbers, as faultline-bench-window --results wrote them", "FILE" },
    { NULL }
  };
  /* numbers in the C locale: the write-up and the smoke test parse them */
  setlocale (LC_ALL, "C");
  g_autoptr (GOptionContext) context =
    g_option_context_new ("- measure the simulator's own speed");
  g_option_context_add_main_entries (context, entries, NULL);
  g_autoptr (GError) error = NULL;
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("faultline-bench: %s\n", error->message);
      return 2;
    }

  g_auto (GStrv) machine = fl_bench_machine ();
  printf ("faultline-bench%s\n", quick ? " --quick (tiny sizes: the numbers mean nothing)" : "");
  for (guint i = 0; machine[i] && machine[i + 1]; i += 2)
    printf ("  %-13s %s\n", machine[i], machine[i + 1]);

  g_autoptr (FlBench) bench = fl_bench_new (quick);
  if (!fl_bench_steps (bench, &error) || !fl_bench_long_run (bench, &error)
      || !fl_bench_record (bench, &error) || !fl_bench_paint (bench, &error)
      || !fl_bench_explore (bench, &error) || !fl_bench_spin (bench, &error)
      || (window != NULL && !fl_bench_load_results (bench, window, &error)))
    {
      g_printerr ("faultline-bench: %s\n", error->message);
      return 1;
    }

  guint goals = 0, met = 0;
  for (guint i = 0; i < bench->metrics->len; i++)
    {
      const FlBenchMetric *m = g_ptr_array_index (bench->metrics, i);
      goals += m->goal != FL_GOAL_NONE;
      met += m->goal != FL_GOAL_NONE && fl_bench_passed (m);
    }
  /* a missed target is a finding to report, not a failure of the program */
  printf ("\n%u of %u targets met\n", met, goals);
  if (doc && !fl_bench_write_doc (bench, doc, &error))
    {
      g_printerr ("faultline-bench: cannot write %s: %s\n", doc, error->message);
      return 1;
    }
  if (doc)
    printf ("wrote %s\n", doc);
  return 0;
}
