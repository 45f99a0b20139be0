/* fl-bench-run.c — measuring one benchmark row, shared by `bench` and the window's chart. */
#include "fl-bench-run.h"

#include "fl-profile.h"
#include "fl-sim.h"

/* The row's run, simulated to its end: NULL with an error, or without one when `adjust`
 * refused. */
static FlSim *
run_row (const char *workload, guint rounds, FlBenchAdjust adjust, gpointer adjust_data,
         FlBenchRow *row, GError **error)
{
  g_autoptr (FlScenario) sc = fl_workload_build (workload, row->cpus, rounds, error);
  if (sc == NULL)
    return NULL;
  FlConfig config = sc->config;
  fl_bench_config_apply (row->config, &config);
  if (adjust != NULL && !adjust (&config, adjust_data))
    return NULL;
  FlSim *sim = fl_sim_new (sc, &config, 1, error);
  if (sim == NULL)
    return NULL;
  fl_sim_run (sim, 0);
  FlCounters k;
  fl_sim_get_counters (sim, &k);
  row->faults = k.total;
  row->cycles = k.cycles;
  row->steps = fl_sim_get_step (sim);
  row->hash = fl_sim_get_hash (sim);
  row->findings = fl_sim_get_findings (sim)->len;
  row->per_sec = k.cycles ? (double) k.total * config.cost.mhz * 1e6 / (double) k.cycles : 0;
  return sim;
}

gboolean
fl_bench_measure (const char *workload, guint rounds, FlBenchAdjust adjust, gpointer adjust_data,
                  FlBenchRow *row, GError **error)
{
  g_return_val_if_fail (workload != NULL && row != NULL && row->config != NULL, FALSE);
  g_autoptr (FlSim) sim = run_row (workload, rounds, adjust, adjust_data, row, error);
  return sim != NULL;
}

/* Like fl_bench_measure(), and where the run's time went (fl-profile.h). */
gboolean
fl_bench_measure_profile (const char *workload, guint rounds, FlBenchAdjust adjust,
                          gpointer adjust_data, FlBenchRow *row, FlProfile **profile,
                          GError **error)
{
  g_return_val_if_fail (workload != NULL && row != NULL && row->config != NULL, FALSE);
  g_return_val_if_fail (profile != NULL, FALSE);
  g_autoptr (FlSim) sim = run_row (workload, rounds, adjust, adjust_data, row, error);
  if (sim == NULL)
    return FALSE;
  *profile = fl_profile_of_run (sim);
  return TRUE;
}
