/* fl-bench-report.c — the numbers of one benchmark run: printed as they are measured, kept
 * for the write-up. */
#include "fl-bench.h"

#include <stdio.h>

G_DEFINE_QUARK (fl-bench-error-quark, fl_bench_error)

static void
metric_free (gpointer data)
{
  FlBenchMetric *m = data;
  g_free (m->section);
  g_free (m->label);
  g_free (m->unit);
  g_free (m);
}

FlBench *
fl_bench_new (gboolean quick)
{
  FlBench *bench = g_new0 (FlBench, 1);
  bench->quick = quick;
  bench->metrics = g_ptr_array_new_with_free_func (metric_free);
  bench->sections = g_ptr_array_new_with_free_func (g_free);
  bench->notes = g_ptr_array_new_with_free_func (g_free);
  bench->misses = g_ptr_array_new_with_free_func (g_free);
  return bench;
}

void
fl_bench_free (FlBench *bench)
{
  if (bench == NULL)
    return;
  g_ptr_array_unref (bench->metrics);
  g_ptr_array_unref (bench->sections);
  g_ptr_array_unref (bench->notes);
  g_ptr_array_unref (bench->misses);
  g_free (bench->current);
  g_free (bench);
}

/* Starts a group of metrics; the note says what was simulated to get them, for both the
 * terminal and the document. */
void
fl_bench_section (FlBench *bench, const char *title, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  char *note = g_strdup_vprintf (format, args);
  va_end (args);
  g_free (bench->current);
  bench->current = g_strdup (title);
  g_ptr_array_add (bench->sections, g_strdup (title));
  g_ptr_array_add (bench->notes, note);
  printf ("\n%s\n  (%s)\n", title, note);
  fflush (stdout);
}

gboolean
fl_bench_passed (const FlBenchMetric *m)
{
  switch (m->goal)
    {
    case FL_GOAL_AT_LEAST: return m->value >= m->target;
    case FL_GOAL_AT_MOST: return m->value <= m->target;
    case FL_GOAL_NONE: default: return TRUE;
    }
}

/* Three significant digits or so, without exponents: what a reader compares by eye. */
char *
fl_bench_format (double value)
{
  if (value >= 100 || value == 0)
    return g_strdup_printf ("%.0f", value);
  if (value >= 10)
    return g_strdup_printf ("%.1f", value);
  if (value >= 0.1)
    return g_strdup_printf ("%.2f", value);
  return g_strdup_printf ("%.3g", value);
}

char *
fl_bench_target_text (const FlBenchMetric *m)
{
  if (m->goal == FL_GOAL_NONE)
    return g_strdup ("");
  g_autofree char *target = fl_bench_format (m->target);
  return g_strdup_printf ("%s %s %s", m->goal == FL_GOAL_AT_LEAST ? "≥" : "≤", target, m->unit);
}

void
fl_bench_add (FlBench *bench, const char *label, double value, const char *unit,
              FlBenchGoal goal, double target)
{
  FlBenchMetric *m = g_new0 (FlBenchMetric, 1);
  m->section = g_strdup (bench->current);
  m->label = g_strdup (label);
  m->value = value;
  m->unit = g_strdup (unit);
  m->goal = goal;
  m->target = target;
  g_ptr_array_add (bench->metrics, m);

  g_autofree char *shown = fl_bench_format (value);
  printf ("  %-52s %10s %-10s", label, shown, unit);
  if (goal != FL_GOAL_NONE)
    {
      g_autofree char *target_text = fl_bench_target_text (m);
      printf ("  target %s: %s", target_text, fl_bench_passed (m) ? "PASS" : "MISS");
      if (!fl_bench_passed (m))
        g_ptr_array_add (bench->misses,
                         g_strdup_printf ("%s: measured %s %s, target %s.", label, shown, unit,
                                          target_text));
    }
  printf ("\n");
  fflush (stdout);
}
