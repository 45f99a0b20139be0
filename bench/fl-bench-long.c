/* fl-bench-long.c — one run of about ten million steps: what it costs in memory, and how fast
 * the window could jump to any step of it. */
#include "fl-bench.h"

#define SEEKS       200
#define SEEK_SEED   20100108   /* the day of the 2010 table: any fixed seed would do */

static void
add_memory (FlBench *bench, FlSim *sim, gsize heap_before, guint64 hwm_before_kib)
{
  /* counted, not fetched: fl_sim_get_events would decode a 32-byte copy of every event */
  gsize n_events = fl_sim_get_n_events (sim);
  gsize heap = fl_bench_heap_in_use () - heap_before;

  fl_bench_add (bench, "steps in the run", (double) fl_sim_get_step (sim), "steps",
                FL_GOAL_NONE, 0);
  fl_bench_add (bench, "sizeof (FlEvent)", sizeof (FlEvent), "bytes", FL_GOAL_NONE, 0);
  fl_bench_add (bench, "whole simulation per event (heap in use / events)",
                (double) heap / (double) n_events, "bytes", FL_GOAL_AT_MOST, 32);
  fl_bench_add (bench, "peak RSS during the run (VmHWM)",
                (double) fl_bench_peak_rss_kib () / 1024.0, "MiB", FL_GOAL_NONE, 0);
  fl_bench_add (bench, "peak RSS growth during the run",
                (double) (fl_bench_peak_rss_kib () - hwm_before_kib) / 1024.0, "MiB",
                FL_GOAL_NONE, 0);
}

static gboolean
add_seeks (FlBench *bench, FlSim *sim, GError **error)
{
  guint n = bench->quick ? 10 : SEEKS;
  guint64 total = fl_sim_get_total_steps (sim);
  g_autoptr (GRand) rand = g_rand_new_with_seed (SEEK_SEED);
  g_autofree double *ms = g_new (double, n);

  /* warm-up: the first seeks fault in the checkpoints' pages */
  for (guint i = 0; i < 5; i++)
    fl_sim_seek (sim, (guint64) g_rand_double_range (rand, 0, (double) total));
  for (guint i = 0; i < n; i++)
    {
      guint64 target = (guint64) g_rand_double_range (rand, 0, (double) total);
      guint64 t0 = fl_bench_now_ns ();
      gboolean ok = fl_sim_seek (sim, target);
      ms[i] = (double) (fl_bench_now_ns () - t0) / 1e6;
      if (!ok || fl_sim_get_step (sim) != target)
        {
          g_set_error (error, FL_BENCH_ERROR, FL_BENCH_ERROR_SEEK,
                       "seeking to step %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " failed",
                       target, total);
          return FALSE;
        }
    }
  fl_bench_add (bench, "seek to a random step, median", fl_bench_median (ms, n), "ms",
                FL_GOAL_AT_MOST, 10);
  fl_bench_add (bench, "seek to a random step, p95", fl_bench_percentile (ms, n, 95), "ms",
                FL_GOAL_NONE, 0);
  /* both order statistics sorted ms[], so its last element is the slowest seek */
  fl_bench_add (bench, "seek to a random step, worst", ms[n - 1], "ms", FL_GOAL_NONE, 0);
  return TRUE;
}

gboolean
fl_bench_long_run (FlBench *bench, GError **error)
{
  /* multi-fault takes about 169,000 steps per round at 8 CPUs: 60 rounds make ~10 million */
  guint cpus = 8, rounds = bench->quick ? 1 : 60;
  guint64 max_steps = bench->quick ? 50000 : 0;
  fl_bench_section (bench, "A ten-million-step run: memory and seeking",
                    "multi-fault, baseline design, %u CPUs, %u rounds%s, oracle at end; %u seeks "
                    "to uniformly random steps, PRNG seed %d",
                    cpus, rounds, bench->quick ? " cut at 50000 steps (--quick)" : "",
                    bench->quick ? 10 : SEEKS, SEEK_SEED);

  /* the earlier sections' event memory, kept for reuse, would come for free and hide this
   * run's cost */
  fl_sim_release_spare_memory ();
  if (!fl_bench_reset_peak_rss ())
    g_printerr ("faultline-bench: cannot reset VmHWM; the peak RSS includes what ran before\n");
  guint64 hwm_before = fl_bench_peak_rss_kib ();
  gsize heap_before = fl_bench_heap_in_use ();
  g_autoptr (FlSim) sim = fl_bench_workload (cpus, rounds, FL_ORACLE_AT_END, error);
  if (sim == NULL)
    return FALSE;
  fl_sim_run (sim, max_steps);
  add_memory (bench, sim, heap_before, hwm_before);
  return add_seeks (bench, sim, error);
}
