/* fl-sensitivity.c — the 2010 table under each free constant at 50%, 100% and 150%. */
#include "fl-sensitivity.h"

#include "fl-config.h"

/* The constants no published measurement fixes (docs/model.md): the calibrated cost of a
 * step, how long a transfer keeps its line busy, how long a writer holds its line, and how
 * long a request takes to cross to the other socket (derived from two measurements, on the
 * assumption that the way there and the way back cost the same). */
static const char *const keys[] = { "cost.step", "cost.occupancy", "cost.hold", "cost.crossing",
                                    NULL };
static const guint percents[] = { 50, 100, 150 };

const char *const *
fl_sensitivity_keys (void)
{
  return keys;
}

typedef struct {
  FlBenchAdjust adjust;
  gpointer      data;
  const char   *key;
  guint         value;
} Override;

/* The caller's own overrides first, then the constant under study. */
static gboolean
apply (FlConfig *config, gpointer user_data)
{
  const Override *o = user_data;
  if (o->adjust != NULL && !o->adjust (config, o->data))
    return FALSE;
  g_autofree char *value = g_strdup_printf ("%u", o->value);
  return fl_config_set (config, o->key, value, NULL);
}

static guint
value_of (const char *key, FlBenchAdjust adjust, gpointer data)
{
  FlConfig config;
  fl_config_init_defaults (&config);
  if (adjust != NULL)
    adjust (&config, data);
  g_autofree char *text = fl_config_get (&config, key);
  return (guint) g_ascii_strtoull (text, NULL, 10);
}

/**
 * fl_sensitivity_measure:
 * @workload: a workload id (fl_workload_ids())
 * @cpus: the CPU count to measure at
 * @rounds: iterations of each thread's loop
 * @adjust: (nullable): the caller's overrides, applied to every run before the constant
 * @adjust_data: for @adjust
 * @error: set when a workload cannot be built or run
 *
 * Each constant of fl_sensitivity_keys() at 50%, 100% and 150% of its value (as @adjust
 * leaves it), the others as they are: one row each, with the four designs of the table.
 * The workload runs to its end; nothing here is sampled.
 *
 * Returns: (transfer full) (element-type FlSensitivityRow) (nullable): the rows, or %NULL
 */
GArray *
fl_sensitivity_measure (const char *workload, guint cpus, guint rounds, FlBenchAdjust adjust,
                        gpointer adjust_data, GError **error)
{
  guint n_configs = 0;
  const FlBenchConfig *configs = fl_bench_configs (&n_configs);
  /* the four designs of the 2010 table, which come first; Kamezawa's design has no
   * published figure on multi-fault to be sensitive about */
  g_return_val_if_fail (n_configs >= FL_SENSITIVITY_DESIGNS, NULL);
  n_configs = FL_SENSITIVITY_DESIGNS;
  g_autoptr (GArray) rows = g_array_new (FALSE, TRUE, sizeof (FlSensitivityRow));
  for (guint k = 0; keys[k]; k++)
    {
      guint base = value_of (keys[k], adjust, adjust_data);
      for (guint p = 0; p < G_N_ELEMENTS (percents); p++)
        {
          FlSensitivityRow row = { .key = keys[k], .percent = percents[p] };
          row.value = (guint) ((guint64) base * percents[p] / 100);
          Override o = { adjust, adjust_data, keys[k], row.value };
          for (guint d = 0; d < n_configs; d++)
            {
              FlBenchRow one = { .config = &configs[d], .cpus = cpus };
              if (!fl_bench_measure (workload, rounds, apply, &o, &one, error))
                return NULL;
              row.per_sec[d] = one.per_sec;
              row.findings += one.findings;
            }
          for (guint d = 0; d < n_configs; d++)
            row.ratio[d] = row.per_sec[0] > 0 ? row.per_sec[d] / row.per_sec[0] : 0;
          g_array_append_val (rows, row);
        }
    }
  return g_steal_pointer (&rows);
}

/**
 * fl_sensitivity_order_holds:
 * @row: a measured row
 * @from: the first design of the stretch (0: baseline)
 * @to: the last
 *
 * Returns: %TRUE when designs @from to @to come out strictly faster each than the one before,
 *   as in the published table
 */
gboolean
fl_sensitivity_order_holds (const FlSensitivityRow *row, guint from, guint to)
{
  g_return_val_if_fail (to < FL_SENSITIVITY_DESIGNS, FALSE);
  for (guint d = from + 1; d <= to; d++)
    if (!(row->per_sec[d] > row->per_sec[d - 1]))
      return FALSE;
  return TRUE;
}
