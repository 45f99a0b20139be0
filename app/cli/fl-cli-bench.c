/* fl-cli-bench.c — `bench`: a workload under each design at each CPU count, as the 2010
 * table measured it: faults per (simulated) second and the ratio to the baseline. */
#include "fl-cli.h"
#include "fl-cli-bench.h"
#include "fl-cli-json.h"
#include "fl-bench-run.h"
#include "fl-paint-chart.h"
#include "fl-workload.h"

#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

typedef FlBenchRow Row;

static gboolean
parse_cpus (const char *text, GArray *out)
{
  g_auto (GStrv) parts = g_strsplit (text, ",", -1);
  for (guint i = 0; parts[i]; i++)
    {
      char *end = NULL;
      guint64 n = g_ascii_strtoull (parts[i], &end, 10);
      if (*parts[i] == '\0' || *end != '\0' || n < 1 || n > FL_MAX_CPUS)
        {
          fl_cli_fail ("--cpus: '%s' is not a CPU count from 1 to %u", parts[i], FL_MAX_CPUS);
          return FALSE;
        }
      guint c = (guint) n;
      g_array_append_val (out, c);
    }
  return TRUE;
}

static gboolean
parse_configs (const char *text, GPtrArray *out)
{
  g_auto (GStrv) parts = g_strsplit (text, ",", -1);
  for (guint i = 0; parts[i]; i++)
    {
      const FlBenchConfig *c = fl_bench_config (parts[i]);
      if (c == NULL)
        {
          fl_cli_fail ("--configs: unknown configuration '%s' (valid: baseline, xadd, spf, xadd+spf, "
                       "refcount)",
                       parts[i]);
          return FALSE;
        }
      g_ptr_array_add (out, (gpointer) c);
    }
  return TRUE;
}

static gboolean
apply_sets (FlConfig *config, gpointer sets)
{
  return fl_cli_apply_sets (config, sets);
}

static gboolean
measure (const char *workload, guint rounds, char **sets, Row *row)
{
  g_autoptr (GError) error = NULL;
  if (!fl_bench_measure (workload, rounds, apply_sets, sets, row, &error))
    {
      if (error != NULL)
        fl_cli_fail ("%s", error->message);
      return FALSE;
    }
  return TRUE;
}

/* The machine every row ran on, by name (`custom` when a cost was set by hand): the sets
 * were applied once already by the measurement, so they are known to be valid here. */
static char *
machine_of (char **sets)
{
  FlConfig config;
  fl_config_init_defaults (&config);
  for (guint i = 0; sets && sets[i]; i++)
    {
      g_autofree char *key = g_strndup (sets[i], strcspn (sets[i], "="));
      const char *eq = strchr (sets[i], '=');
      if (eq != NULL)
        fl_config_set (&config, key, eq + 1, NULL);
    }
  return fl_config_get (&config, "machine");
}

static void
print_json (const char *workload, const char *machine, GArray *rows)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "workload");
  json_builder_add_string_value (b, workload);
  fl_cli_json_string (b, "machine", machine);
  if (fl_workload_kernel (workload) != NULL)
    fl_cli_json_string (b, "kernel", fl_workload_kernel (workload));
  json_builder_set_member_name (b, "rows");
  json_builder_begin_array (b);
  for (guint i = 0; i < rows->len; i++)
    {
      const Row *r = &g_array_index (rows, Row, i);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "config");
      json_builder_add_string_value (b, r->config->name);
      json_builder_set_member_name (b, "cpus");
      json_builder_add_int_value (b, r->cpus);
      json_builder_set_member_name (b, "faults");
      json_builder_add_int_value (b, (gint64) r->faults);
      json_builder_set_member_name (b, "cycles");
      json_builder_add_int_value (b, (gint64) r->cycles);
      json_builder_set_member_name (b, "faults_per_sec");
      json_builder_add_double_value (b, r->per_sec);
      char hash[17];
      g_snprintf (hash, sizeof hash, "%016" G_GINT64_MODIFIER "x", r->hash);
      fl_cli_json_string (b, "hash", hash);
      /* no baseline measured at this CPU count: no ratio, not a ratio of 0 */
      json_builder_set_member_name (b, "ratio");
      if (r->ratio > 0)
        json_builder_add_double_value (b, r->ratio);
      else
        json_builder_add_null_value (b);
      if (fl_bench_published (r->config, workload) > 0)
        {
          json_builder_set_member_name (b, "published_ratio");
          json_builder_add_double_value (b, fl_bench_published (r->config, workload));
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  g_autoptr (JsonNode) root = json_builder_get_root (b);
  g_autofree char *text = json_to_string (root, TRUE);
  printf ("%s\n", text);
}

static void
print_table (const char *workload, const char *machine, guint rounds, GArray *rows)
{
  const char *by = fl_bench_published_by (workload);
  const char *kernel = fl_workload_kernel (workload);
  printf ("%s on machine %s, %u round%s per thread; faults per simulated second, ratio to "
          "baseline at the same CPU count\n", workload, machine, rounds, rounds == 1 ? "" : "s");
  if (kernel != NULL)
    printf ("every row runs the kernel the figure was published for: %s (Kamezawa's 2.6.33-rc2 "
            "charged every page to a memory cgroup; --set memcg=off runs it without)\n", kernel);
  printf ("\n");
  printf ("%-10s %5s %10s %14s %14s %7s%s%s\n", "config", "cpus", "faults", "cycles", "faults/s",
          "ratio", by ? "  " : "", by ? by : "");
  for (guint i = 0; i < rows->len; i++)
    {
      const Row *r = &g_array_index (rows, Row, i);
      char num[G_ASCII_DTOSTR_BUF_SIZE];
      printf ("%-10s %5u %10" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT " %14s", r->config->name,
              r->cpus, r->faults, r->cycles, fl_cli_decimal (r->per_sec, 0, num, sizeof num));
      if (r->ratio > 0)
        printf (" %7s", fl_cli_decimal (r->ratio, 2, num, sizeof num));
      else
        printf (" %7s", "-");     /* no baseline at this CPU count to compare with */
      double pub = fl_bench_published (r->config, workload);
      if (pub > 0 && r->cpus == 8)
        {
          printf ("  %s", fl_cli_decimal (pub, 2, num, sizeof num));
          /* the distance is a figure to report, not a test: it rests on cost.step */
          if (r->ratio > 0 && pub != 1.0)
            {
              double off = (r->ratio / pub - 1) * 100;
              printf (" (model %s%s%%)", off >= 0 ? "+" : "",
                      fl_cli_decimal (off, 0, num, sizeof num));
            }
        }
      if (r->findings)
        printf ("  (%u finding%s!)", r->findings, r->findings == 1 ? "" : "s");
      printf ("\n");
    }
}

/* The chart's format, from the file name: checked before anything is measured. */
const char *
fl_cli_chart_format (const char *path)
{
  const char *dot = strrchr (path, '.');
  if (dot && strchr (dot, '/') == NULL
      && (g_ascii_strcasecmp (dot + 1, "png") == 0 || g_ascii_strcasecmp (dot + 1, "svg") == 0
          || g_ascii_strcasecmp (dot + 1, "pdf") == 0))
    return dot + 1;
  return NULL;
}

/* Charts are drawn for a 16:9 slide, light or dark. */
void
fl_cli_chart_style (gboolean dark, FlPalette *palette, FlViewport *viewport)
{
  if (dark)
    fl_palette_init_dark (palette);
  else
    fl_palette_init_light (palette);
  *viewport = (FlViewport) { .width = 1280, .height = 720, .font_scale = 1.0 };
}

static gboolean
write_chart (const char *workload, GArray *rows, const char *path, gboolean dark)
{
  g_autoptr (GArray) points = g_array_new (FALSE, TRUE, sizeof (FlBenchPoint));
  for (guint i = 0; i < rows->len; i++)
    {
      const Row *r = &g_array_index (rows, Row, i);
      FlBenchPoint pt = {
        .workload = workload, .config = r->config->name, .cpus = r->cpus,
        .faults_per_sec = r->per_sec, .ratio = r->ratio,
        .published = r->cpus == FL_BENCH_TABLE_CPUS ? fl_bench_published (r->config, workload) : 0,
      };
      g_array_append_val (points, pt);
    }
  FlPalette palette;
  FlViewport viewport;
  fl_cli_chart_style (dark, &palette, &viewport);
  g_autoptr (GError) error = NULL;
  if (!fl_export_bench_chart ((const FlBenchPoint *) points->data, points->len, &viewport,
                              &palette, fl_cli_chart_format (path), path, &error))
    {
      fl_cli_fail ("--chart: %s", error->message);
      return FALSE;
    }
  return TRUE;
}

static int
bench (const char *workload, const char *cpus_text, const char *configs_text, char **sets,
       guint rounds, gboolean json, const char *chart, gboolean dark)
{
  g_autoptr (GArray) cpus = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GPtrArray) configs = g_ptr_array_new ();
  if (!parse_cpus (cpus_text ? cpus_text : "8", cpus)
      || !parse_configs (configs_text ? configs_text : "baseline,xadd,spf,xadd+spf", configs))
    return FL_EXIT_USAGE;
  g_autoptr (GArray) rows = g_array_new (FALSE, TRUE, sizeof (Row));
  for (guint c = 0; c < cpus->len; c++)
    {
      double base = 0;
      for (guint i = 0; i < configs->len; i++)
        {
          Row row = { .config = g_ptr_array_index (configs, i), .cpus = g_array_index (cpus, guint, c) };
          if (!measure (workload, rounds, sets, &row))
            return FL_EXIT_USAGE;
          if (strcmp (row.config->name, "baseline") == 0)
            base = row.per_sec;
          g_array_append_val (rows, row);
        }
      /* ratios against this CPU count's baseline, when it was measured */
      for (guint i = rows->len - configs->len; i < rows->len; i++)
        {
          Row *r = &g_array_index (rows, Row, i);
          r->ratio = base > 0 ? r->per_sec / base : 0;
        }
    }
  g_autofree char *machine = machine_of (sets);
  if (json)
    print_json (workload, machine, rows);
  else
    print_table (workload, machine, rounds, rows);
  if (chart && !write_chart (workload, rows, chart, dark))
    return FL_EXIT_USAGE;
  for (guint i = 0; i < rows->len; i++)
    if (g_array_index (rows, Row, i).findings)
      return FL_EXIT_FINDINGS;
  return FL_EXIT_OK;
}

/* --profile looks at one CPU count, for the designs asked (all by default). */
static int
profile_of (const char *workload, const char *cpus_text, const char *configs_text, char **sets,
            guint rounds, gboolean json)
{
  g_autoptr (GArray) cpus = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GPtrArray) configs = g_ptr_array_new ();
  if (!parse_cpus (cpus_text ? cpus_text : "8", cpus)
      || !parse_configs (configs_text ? configs_text : "baseline,xadd,spf,xadd+spf", configs))
    return FL_EXIT_USAGE;
  if (cpus->len != 1)
    return fl_cli_fail ("--profile takes one CPU count (--cpus %s names %u)", cpus_text,
                        cpus->len);
  return fl_cli_bench_profile (workload, g_array_index (cpus, guint, 0), configs, sets, rounds,
                               json);
}

/* --sensitivity measures every design at one CPU count: a list of counts or designs is a
 * mistake to name, not to ignore. */
static int
sensitivity_of (const char *workload, const char *cpus_text, const char *configs_text, char **sets,
                guint rounds, gboolean json, const char *chart, gboolean dark)
{
  g_autoptr (GArray) cpus = g_array_new (FALSE, FALSE, sizeof (guint));
  if (configs_text != NULL)
    return fl_cli_fail ("--sensitivity measures every design: leave out --configs");
  if (!parse_cpus (cpus_text ? cpus_text : "8", cpus))
    return FL_EXIT_USAGE;
  if (cpus->len != 1)
    return fl_cli_fail ("--sensitivity takes one CPU count (--cpus %s names %u)", cpus_text,
                        cpus->len);
  return fl_cli_bench_sensitivity (workload, g_array_index (cpus, guint, 0), sets, rounds, json,
                                   chart, dark);
}

int
fl_cli_bench (int argc, char **argv)
{
  char *workload = NULL, *cpus = NULL, *configs = NULL, *chart = NULL, *machine = NULL;
  char **sets = NULL;
  gint rounds = 4;
  gboolean json = FALSE, dark = FALSE, sensitivity = FALSE, profile = FALSE;
  GOptionEntry entries[] = {
    { "workload", 0, 0, G_OPTION_ARG_STRING, &workload, "multi-fault (default), multi-fault-all-split or will-it-scale-pf1", "ID" },
    { "cpus", 0, 0, G_OPTION_ARG_STRING, &cpus, "CPU counts, e.g. 1,2,4,8 (default 8)", "LIST" },
    { "configs", 0, 0, G_OPTION_ARG_STRING, &configs, "Designs (default baseline,xadd,spf,xadd+spf; also refcount, Kamezawa's)", "LIST" },
    { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets, "Override a switch for every run", "KEY=VALUE" },
    { "machine", 0, 0, G_OPTION_ARG_STRING, &machine, "The machine's cost table and topology: westmere-ex (default), nehalem-ep, nehalem-ex-8x8 or westmere-ex-4x10 (as --set machine=NAME, before the other --set)", "NAME" },
    { "rounds", 0, 0, G_OPTION_ARG_INT, &rounds, "Iterations of each thread's loop (default 4)", "N" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON", NULL },
    { "chart", 0, 0, G_OPTION_ARG_FILENAME, &chart, "Also draw the scaling lines and the 2010 bars into FILE (.png, .svg or .pdf)", "FILE" },
    { "dark", 0, 0, G_OPTION_ARG_NONE, &dark, "Draw the chart in the dark style", NULL },
    { "profile", 0, 0, G_OPTION_ARG_NONE, &profile, "Where each design's CPU time goes at one CPU count: shares by modeled function and by cache line", NULL },
    { "sensitivity", 0, 0, G_OPTION_ARG_NONE, &sensitivity, "How the ratios at one CPU count move with each free constant at 50%, 100% and 150% (the chart is then a tornado chart)", NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("- reproduce the 2010 fault-rate table");
  g_option_context_add_main_entries (context, entries, NULL);
  int status;
  gboolean parsed = fl_cli_parse (context, &argc, &argv);
  g_auto (GStrv) machine_keys = machine ? fl_config_preset_keys ("machine", machine) : NULL;
  if (parsed && machine != NULL && machine_keys == NULL)
    {
      g_auto (GStrv) names = g_strsplit (fl_config_valid_values ("machine"), "|", -1);
      g_autofree char *valid = g_strjoinv (", ", names);
      fl_cli_fail ("--machine '%s': no such machine (valid: %s; docs/model.md, \"Machines\")",
                   machine, valid);
      parsed = FALSE;
    }
  if (parsed && machine != NULL)
    {
      /* first, so that a --set of one of its costs still wins */
      g_autoptr (GStrvBuilder) with = g_strv_builder_new ();
      g_autofree char *set = g_strconcat ("machine=", machine, NULL);
      g_strv_builder_add (with, set);
      if (sets != NULL)
        g_strv_builder_addv (with, (const char **) sets);
      g_strfreev (sets);
      sets = g_strv_builder_end (with);
    }
  if (!parsed)
    status = FL_EXIT_USAGE;
  else if (argc > 1)
    status = fl_cli_fail ("bench takes no positional arguments (got '%s')", argv[1]);
  else if (rounds < 1 || rounds > 100000)
    status = fl_cli_fail ("--rounds must be from 1 to 100000");
  else if (chart && fl_cli_chart_format (chart) == NULL)
    status = fl_cli_fail ("--chart '%s': the file name must end in .png, .svg or .pdf", chart);
  else if (profile && (sensitivity || chart))
    status = fl_cli_fail ("--profile prints tables: leave out --sensitivity and --chart");
  else if (profile)
    status = profile_of (workload ? workload : "multi-fault", cpus, configs, sets, (guint) rounds,
                         json);
  else if (sensitivity)
    status = sensitivity_of (workload ? workload : "multi-fault", cpus, configs, sets,
                             (guint) rounds, json, chart, dark);
  else
    status = bench (workload ? workload : "multi-fault", cpus, configs, sets, (guint) rounds, json,
                    chart, dark);
  g_free (workload);
  g_free (cpus);
  g_free (configs);
  g_free (chart);
  g_free (machine);
  g_strfreev (sets);
  return status;
}
