/* fl-bench-doc.c — docs/performance.md: the machine, the method and every number of this run,
 * with what people wrote by hand below the marker carried over from the previous version. */
#include "fl-bench.h"

#include <string.h>

#define MARKER "<!-- faultline-bench keeps everything below this line when it rewrites the file -->"

static void
machine_table (GString *doc)
{
  g_auto (GStrv) facts = fl_bench_machine ();
  g_string_append (doc, "## Machine\n\n| | |\n|---|---|\n");
  for (guint i = 0; facts[i] && facts[i + 1]; i += 2)
    g_string_append_printf (doc, "| %s | %s |\n", facts[i], facts[i + 1]);
}

static void
section_table (GString *doc, FlBench *bench, guint s)
{
  const char *title = g_ptr_array_index (bench->sections, s);
  g_string_append_printf (doc, "\n### %s\n\n%s.\n\n", title,
                          (const char *) g_ptr_array_index (bench->notes, s));
  g_string_append (doc, "| measurement | value | target | |\n|---|---:|---|---|\n");
  for (guint i = 0; i < bench->metrics->len; i++)
    {
      const FlBenchMetric *m = g_ptr_array_index (bench->metrics, i);
      if (g_strcmp0 (m->section, title) != 0)
        continue;
      g_autofree char *value = fl_bench_format (m->value);
      g_autofree char *target = fl_bench_target_text (m);
      g_string_append_printf (doc, "| %s | %s %s | %s | %s |\n", m->label, value, m->unit,
                              target, m->goal == FL_GOAL_NONE ? ""
                              : fl_bench_passed (m) ? "PASS" : "**MISS**");
    }
}

/* Whatever follows the marker in the current file, marker included; the bare marker for a
 * new file. */
static char *
kept_part (const char *path)
{
  g_autofree char *old = NULL;
  if (g_file_get_contents (path, &old, NULL, NULL))
    {
      const char *mark = strstr (old, MARKER);
      if (mark)
        return g_strdup (mark);
    }
  return g_strdup (MARKER "\n");
}

gboolean
fl_bench_write_doc (FlBench *bench, const char *path, GError **error)
{
  g_autoptr (GString) doc = g_string_new (NULL);
  g_string_append (doc,
    "# Performance\n\n"
    "How fast the simulator itself runs, not the simulated fault rates (those are the 2010\n"
    "table, `faultline-cli bench`, which `make bench` prints first). Everything above the\n"
    "marker near the end is written by `faultline-bench --write-doc docs/performance.md`,\n"
    "which `make bench` runs in the release build (`build-release/`); the numbers are from\n"
    "one run on the machine below.\n\n"
    "Method: wall-clock time on `CLOCK_MONOTONIC`; a warm-up before anything is timed; every\n"
    "simulation is multi-fault from `core/bench/fl-workload.c` with fixed seeds, so every run\n"
    "simulates exactly the same steps and only the time it takes varies.");
  if (bench->window)
    g_string_append (doc,
      " The window's numbers\n"
      "(launch to the first frame, whole frames of the window and of each view with the Cairo\n"
      "renderer) come from `faultline-bench-window`, which `make bench` runs first, under\n"
      "`xvfb-run` when there is no display, and hands over with `--window-results`.\n\n");
  else
    g_string_append (doc,
      " Not measured by this\n"
      "run: the GTK window itself (`faultline-bench-window`, which needs a display; `make\n"
      "bench` runs it); the painters' times below are the drawing part of it.\n\n");
  machine_table (doc);
  g_string_append (doc, "\n## Results\n");
  for (guint s = 0; s < bench->sections->len; s++)
    section_table (doc, bench, s);

  g_string_append (doc, "\n## Targets\n\n");
  if (bench->misses->len == 0)
    g_string_append (doc, "Every target of issue 7 was met on this machine.\n");
  else
    {
      g_string_append (doc, "Missed on this machine:\n\n");
      for (guint i = 0; i < bench->misses->len; i++)
        g_string_append_printf (doc, "- %s\n", (const char *) g_ptr_array_index (bench->misses, i));
    }
  g_string_append (doc, "\n");
  g_autofree char *kept = kept_part (path);
  g_string_append (doc, kept);
  return g_file_set_contents (path, doc->str, (gssize) doc->len, error);
}
