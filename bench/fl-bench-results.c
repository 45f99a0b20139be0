/* fl-bench-results.c — one benchmark program's numbers handed to another: the window is timed
 * by faultline-bench-window (it needs a display), written up by faultline-bench with the rest.
 * The file is a GKeyFile: [results] section, note; then [metric N] label, value, unit, goal,
 * target, in the order measured. */
#include "fl-bench.h"

static const char *const goal_names[] = { "none", "at-least", "at-most" };

gboolean
fl_bench_save_results (FlBench *bench, const char *path, GError **error)
{
  g_autoptr (GKeyFile) file = g_key_file_new ();
  for (guint s = 0; s < bench->sections->len; s++)
    {
      g_autofree char *group = g_strdup_printf ("section %u", s);
      g_key_file_set_string (file, group, "title", g_ptr_array_index (bench->sections, s));
      g_key_file_set_string (file, group, "note", g_ptr_array_index (bench->notes, s));
    }
  for (guint i = 0; i < bench->metrics->len; i++)
    {
      const FlBenchMetric *m = g_ptr_array_index (bench->metrics, i);
      g_autofree char *group = g_strdup_printf ("metric %u", i);
      g_key_file_set_string (file, group, "section", m->section);
      g_key_file_set_string (file, group, "label", m->label);
      g_key_file_set_double (file, group, "value", m->value);
      g_key_file_set_string (file, group, "unit", m->unit);
      g_key_file_set_string (file, group, "goal", goal_names[m->goal]);
      g_key_file_set_double (file, group, "target", m->target);
    }
  return g_key_file_save_to_file (file, path, error);
}

static FlBenchGoal
goal_from_name (const char *name)
{
  for (guint g = 0; g < G_N_ELEMENTS (goal_names); g++)
    if (g_strcmp0 (name, goal_names[g]) == 0)
      return (FlBenchGoal) g;
  return FL_GOAL_NONE;
}

gboolean
fl_bench_load_results (FlBench *bench, const char *path, GError **error)
{
  g_autoptr (GKeyFile) file = g_key_file_new ();
  if (!g_key_file_load_from_file (file, path, G_KEY_FILE_NONE, error))
    return FALSE;
  for (guint s = 0;; s++)
    {
      g_autofree char *group = g_strdup_printf ("section %u", s);
      if (!g_key_file_has_group (file, group))
        break;
      g_autofree char *title = g_key_file_get_string (file, group, "title", error);
      g_autofree char *note = title ? g_key_file_get_string (file, group, "note", error) : NULL;
      if (note == NULL)
        return FALSE;
      fl_bench_section (bench, title, "%s", note);
      for (guint i = 0;; i++)
        {
          g_autofree char *mgroup = g_strdup_printf ("metric %u", i);
          if (!g_key_file_has_group (file, mgroup))
            break;
          g_autofree char *section = g_key_file_get_string (file, mgroup, "section", NULL);
          if (g_strcmp0 (section, title) != 0)
            continue;
          g_autofree char *label = g_key_file_get_string (file, mgroup, "label", error);
          g_autofree char *unit = label ? g_key_file_get_string (file, mgroup, "unit", error) : NULL;
          g_autofree char *goal = g_key_file_get_string (file, mgroup, "goal", NULL);
          GError *local = NULL;
          double value = g_key_file_get_double (file, mgroup, "value", &local);
          double target = local ? 0 : g_key_file_get_double (file, mgroup, "target", &local);
          if (unit == NULL || local != NULL)
            {
              if (local)
                g_propagate_error (error, local);
              return FALSE;
            }
          fl_bench_add (bench, label, value, unit, goal_from_name (goal), target);
        }
    }
  bench->window = TRUE;
  return TRUE;
}
