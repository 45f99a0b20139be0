/* fl-bench-run.c — measuring one benchmark row, shared by `bench` and the window's chart. */
#include "fl-bench-run.h"

#include "fl-sim.h"

gboolean
fl_bench_measure (const char *workload, guint rounds, FlBenchAdjust adjust, gpointer adjust_data,
                  FlBenchRow *row, GError **error)
{
  g_return_val_if_fail (workload != NULL && row != NULL && row->config != NULL, FALSE);

  g_autoptr (FlScenario) sc = fl_workload_build (workload, row->cpus, rounds, error);
  if (sc == NULL)
    return FALSE;
  FlConfig config = sc->config;
  fl_bench_config_apply (row->config, &config);
  if (adjust != NULL && !adjust (&config, adjust_data))
    return FALSE;
  g_autoptr (FlSim) sim = fl_sim_new (sc, &config, 1, error);
  if (sim == NULL)
    return FALSE;
  fl_sim_run (sim, 0);
  FlCounters k;
  fl_sim_get_counters (sim, &k);
  row->faults = k.total;
  row->cycles = k.cycles;
  row->steps = fl_sim_get_step (sim);
  row->findings = fl_sim_get_findings (sim)->len;
  row->per_sec = k.cycles ? (double) k.total * config.cost.mhz * 1e6 / (double) k.cycles : 0;
  return TRUE;
}
