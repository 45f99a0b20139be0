/* fl-cli-profile.c — `bench --profile`: where each design's CPU time goes, by modeled function
 * and by cache line, as the profile that made Linus look at the rwsem showed it. */
#include "fl-cli.h"
#include "fl-cli-bench.h"
#include "fl-cli-json.h"
#include "fl-bench-run.h"
#include "fl-profile.h"

#include <stdio.h>

#define SHOWN 8     /* rows per table: the rest is summed up as "other" */

static gboolean
apply_sets (FlConfig *config, gpointer sets)
{
  return fl_cli_apply_sets (config, sets);
}

static void
print_entries (const char *title, const GArray *entries, guint64 total)
{
  char num[G_ASCII_DTOSTR_BUF_SIZE];
  printf ("  %-40s %8s\n", title, "share");
  guint64 rest = total;
  for (guint i = 0; i < entries->len && i < SHOWN; i++)
    {
      const FlProfileEntry *e = &g_array_index (entries, FlProfileEntry, i);
      printf ("  %-40s %7s%%\n", e->name,
              fl_cli_decimal (100.0 * (double) e->cycles / (double) total, 1, num, sizeof num));
      rest -= e->cycles;
    }
  if (entries->len > SHOWN)
    printf ("  %-40s %7s%%\n", "(the rest)",
            fl_cli_decimal (100.0 * (double) rest / (double) total, 1, num, sizeof num));
}

static void
json_entries (JsonBuilder *b, const char *name, const GArray *entries, guint64 total)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (guint i = 0; i < entries->len; i++)
    {
      const FlProfileEntry *e = &g_array_index (entries, FlProfileEntry, i);
      json_builder_begin_object (b);
      fl_cli_json_string (b, "name", e->name);
      fl_cli_json_int (b, "cycles", (gint64) e->cycles);
      fl_cli_json_double (b, "share", total ? (double) e->cycles / (double) total : 0);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

int
fl_cli_bench_profile (const char *workload, guint cpus, GPtrArray *configs, char **sets,
                      guint rounds, gboolean json)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  fl_cli_json_string (b, "workload", workload);
  fl_cli_json_int (b, "cpus", cpus);
  json_builder_set_member_name (b, "profiles");
  json_builder_begin_array (b);
  if (!json)
    printf ("%s at %u CPUs, %u round%s per thread: the share of all CPU time (every CPU's "
            "cycles summed) spent in each modeled function and on each cache line; a step's "
            "time goes to the dearest line it touched, a wait to the step that ends it\n",
            workload, cpus, rounds, rounds == 1 ? "" : "s");
  gboolean findings = FALSE;
  for (guint i = 0; i < configs->len; i++)
    {
      FlBenchRow row = { .config = g_ptr_array_index (configs, i), .cpus = cpus };
      g_autoptr (FlProfile) profile = NULL;
      g_autoptr (GError) error = NULL;
      if (!fl_bench_measure_profile (workload, rounds, apply_sets, sets, &row, &profile, &error))
        return error ? fl_cli_fail ("%s", error->message) : FL_EXIT_USAGE;
      findings = findings || row.findings;
      if (json)
        {
          json_builder_begin_object (b);
          fl_cli_json_string (b, "config", row.config->name);
          fl_cli_json_int (b, "cpu_cycles", (gint64) profile->total);
          json_entries (b, "functions", profile->by_function, profile->total);
          json_entries (b, "lines", profile->by_line, profile->total);
          json_builder_end_object (b);
          continue;
        }
      printf ("\n%s: %" G_GUINT64_FORMAT " CPU cycles for %" G_GUINT64_FORMAT " faults\n",
              row.config->name, profile->total, row.faults);
      print_entries ("function", profile->by_function, profile->total);
      print_entries ("cache line", profile->by_line, profile->total);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  if (json)
    fl_cli_print_json_root (b, stdout);
  return findings ? FL_EXIT_FINDINGS : FL_EXIT_OK;
}
