/* fl-cli-sensitivity.c — `bench --sensitivity`: the 2010 table with each free constant of the
 * model at 50%, 100% and 150%, and which of its conclusions hold in every row. */
#include "fl-cli.h"
#include "fl-cli-bench.h"
#include "fl-cli-json.h"
#include "fl-paint-sensitivity.h"
#include "fl-sensitivity.h"
#include "fl-workload.h"

#include <json-glib/json-glib.h>
#include <stdio.h>

static gboolean
apply_sets (FlConfig *config, gpointer sets)
{
  return fl_cli_apply_sets (config, sets);
}

/* A conclusion of the published table, checked on every row. */
typedef struct {
  const char *text;
  guint       from, to;     /* designs that must come out strictly in order */
} Conclusion;

static const Conclusion conclusions[] = {
  { "xadd beats the baseline", 0, 1 },
  { "spf beats xadd", 1, 2 },
  { "xadd+spf beats spf", 2, 3 },
};

static guint
rows_holding (GArray *rows, const Conclusion *c)
{
  guint held = 0;
  for (guint i = 0; i < rows->len; i++)
    held += fl_sensitivity_order_holds (&g_array_index (rows, FlSensitivityRow, i), c->from,
                                        c->to);
  return held;
}

static void
print_table (const char *workload, guint cpus, guint rounds, GArray *rows)
{
  guint n = 0;
  const FlBenchConfig *configs = fl_bench_configs (&n);
  n = MIN (n, FL_SENSITIVITY_DESIGNS);    /* the 2010 table's designs, as measured */
  char num[G_ASCII_DTOSTR_BUF_SIZE];
  printf ("%s at %u CPUs, %u round%s per thread: each free constant at 50%%, 100%% and 150%% "
          "of its value, the others as they are; ratios to the baseline of the same row\n\n",
          workload, cpus, rounds, rounds == 1 ? "" : "s");
  printf ("%-16s %7s %5s", "constant", "value", "%");
  for (guint d = 1; d < n; d++)
    printf (" %9s", configs[d].name);
  printf ("   order\n");
  for (guint i = 0; i < rows->len; i++)
    {
      const FlSensitivityRow *r = &g_array_index (rows, FlSensitivityRow, i);
      printf ("%-16s %7u %5u", r->key, r->value, r->percent);
      for (guint d = 1; d < n; d++)
        printf (" %9s", fl_cli_decimal (r->ratio[d], 2, num, sizeof num));
      printf ("   %s%s\n", fl_sensitivity_order_holds (r, 0, n - 1) ? "as published" : "differs",
              r->findings ? "  (findings!)" : "");
    }
  if (g_strcmp0 (workload, "multi-fault") == 0 && cpus == 8)
    {
      printf ("%-16s %7s %5s", "published", "", "");
      for (guint d = 1; d < n; d++)
        printf (" %9s", fl_cli_decimal (configs[d].published, 2, num, sizeof num));
      printf ("\n");
    }
  printf ("\n");
  for (guint c = 0; c < G_N_ELEMENTS (conclusions); c++)
    printf ("%-22s in %u of %u rows\n", conclusions[c].text, rows_holding (rows, &conclusions[c]),
            rows->len);
}

static void
print_json (const char *workload, guint cpus, GArray *rows)
{
  guint n = 0;
  const FlBenchConfig *configs = fl_bench_configs (&n);
  n = MIN (n, FL_SENSITIVITY_DESIGNS);    /* the 2010 table's designs, as measured */
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  fl_cli_json_string (b, "workload", workload);
  fl_cli_json_int (b, "cpus", cpus);
  json_builder_set_member_name (b, "rows");
  json_builder_begin_array (b);
  for (guint i = 0; i < rows->len; i++)
    {
      const FlSensitivityRow *r = &g_array_index (rows, FlSensitivityRow, i);
      json_builder_begin_object (b);
      fl_cli_json_string (b, "constant", r->key);
      fl_cli_json_int (b, "value", r->value);
      fl_cli_json_int (b, "percent", r->percent);
      json_builder_set_member_name (b, "ratios");
      json_builder_begin_object (b);
      for (guint d = 0; d < n; d++)
        fl_cli_json_double (b, configs[d].name, r->ratio[d]);
      json_builder_end_object (b);
      fl_cli_json_bool (b, "order_as_published", fl_sensitivity_order_holds (r, 0, n - 1));
      fl_cli_json_int (b, "findings", r->findings);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  fl_cli_print_json_root (b, stdout);
}

int
fl_cli_bench_sensitivity (const char *workload, guint cpus, char **sets, guint rounds,
                          gboolean json, const char *chart, gboolean dark)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) rows = fl_sensitivity_measure (workload, cpus, rounds, apply_sets, sets,
                                                    &error);
  if (rows == NULL)
    return error ? fl_cli_fail ("%s", error->message) : FL_EXIT_USAGE;
  if (json)
    print_json (workload, cpus, rows);
  else
    print_table (workload, cpus, rounds, rows);
  if (chart)
    {
      FlPalette palette;
      FlViewport viewport;
      fl_cli_chart_style (dark, &palette, &viewport);
      if (!fl_export_sensitivity_chart ((const FlSensitivityRow *) rows->data, rows->len, cpus,
                                        &viewport, &palette, fl_cli_chart_format (chart), chart,
                                        &error))
        return fl_cli_fail ("--chart: %s", error->message);
    }
  for (guint i = 0; i < rows->len; i++)
    if (g_array_index (rows, FlSensitivityRow, i).findings)
      return FL_EXIT_FINDINGS;
  return FL_EXIT_OK;
}
