/* fl-bench-steps.c — simulated steps per second on multi-fault, at 8 and 64 CPUs, with the
 * oracle after every step and only at the end. */
#include "fl-bench.h"
#include "fl-workload.h"

#define SEED 1   /* the scheduling seed; multi-fault runs under the time policy anyway */

/**
 * fl_bench_workload:
 * Kamezawa's multi-fault as core/bench/fl-workload.c builds it, in its baseline design (locked
 * faults, generic rwsem): the configuration the 2010 table starts from.
 */
FlSim *
fl_bench_workload (guint cpus, guint rounds, FlOracleMode oracle, GError **error)
{
  g_autoptr (FlScenario) sc = fl_workload_build ("multi-fault", cpus, rounds, error);
  if (sc == NULL)
    return NULL;
  FlConfig config = sc->config;
  if (!fl_config_set (&config, "oracle", oracle == FL_ORACLE_AT_END ? "at-end" : "every-step",
                      error))
    return NULL;
  return fl_sim_new (sc, &config, SEED, error);
}

typedef struct {
  guint   cpus, rounds;
  guint64 max_steps;   /* 0 = to the end */
} Size;

/* One timed run from step 0; creating the simulation is not part of it. */
static gboolean
timed_run (const Size *size, FlOracleMode oracle, double *out_rate, guint64 *out_steps,
           guint64 *out_hash, GError **error)
{
  g_autoptr (FlSim) sim = fl_bench_workload (size->cpus, size->rounds, oracle, error);
  if (sim == NULL)
    return FALSE;
  guint64 t0 = fl_bench_now_ns ();
  guint64 steps = fl_sim_run (sim, size->max_steps);
  guint64 t1 = fl_bench_now_ns ();
  *out_rate = (double) steps / ((double) (t1 - t0) / 1e9);
  *out_steps = steps;
  *out_hash = fl_sim_get_hash (sim);
  return TRUE;
}

gboolean
fl_bench_steps (FlBench *bench, GError **error)
{
  /* Long enough (about a second each) that the clock and the first page faults of the event
   * array do not matter; the median of five runs. */
  const Size full[] = { { 8, 16, 0 }, { 64, 1, 0 } };
  const Size quick[] = { { 8, 1, 20000 }, { 64, 1, 20000 } };
  const Size *sizes = bench->quick ? quick : full;
  /* five: on a shared virtual machine one run in three can be slowed by the neighbours */
  guint reps = bench->quick ? 1 : 5;

  fl_bench_section (bench, "Simulation speed",
                    "multi-fault, baseline design, seed %d; %u rounds per thread at 8 CPUs, %u at "
                    "64%s; median of %u runs, each from a new simulation to the end of the run "
                    "(creating it is not timed); steps per second of wall-clock time",
                    SEED, sizes[0].rounds, sizes[1].rounds,
                    bench->quick ? " (cut at 20000 steps: --quick)" : "", reps);

  /* warm-up: code, the allocator's arenas and the CPU's clock, before anything is timed */
  double rate;
  guint64 steps, hash;
  Size warm = { 8, 1, bench->quick ? 2000 : 0 };
  if (!timed_run (&warm, FL_ORACLE_AT_END, &rate, &steps, &hash, error))
    return FALSE;

  for (guint s = 0; s < 2; s++)
    for (guint o = 0; o < 2; o++)
      {
        FlOracleMode oracle = o == 0 ? FL_ORACLE_EVERY_STEP : FL_ORACLE_AT_END;
        double rates[5];
        guint64 first_hash = 0;
        for (guint r = 0; r < reps; r++)
          {
            if (!timed_run (&sizes[s], oracle, &rates[r], &steps, &hash, error))
              return FALSE;
            /* the same run five times must be the same run: a cheap determinism check */
            if (r > 0 && hash != first_hash)
              {
                g_set_error (error, FL_BENCH_ERROR, FL_BENCH_ERROR_NOT_DETERMINISTIC,
                             "multi-fault at %u CPUs is not deterministic: two runs differ",
                             sizes[s].cpus);
                return FALSE;
              }
            first_hash = hash;
          }
        g_autofree char *label =
          g_strdup_printf ("steps/s, %u CPUs, oracle %s (%" G_GUINT64_FORMAT " steps)",
                           sizes[s].cpus, o == 0 ? "per step" : "at end", steps);
        fl_bench_add (bench, label, fl_bench_median (rates, reps) / 1e6, "M steps/s",
                      FL_GOAL_AT_LEAST, o == 0 ? 3 : 10);
      }
  return TRUE;
}
