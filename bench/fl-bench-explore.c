/* fl-bench-explore.c — the race explorer's own speed (issue 17): for each race scenario, the
 * time to the first counterexample with one safeguard off, and the time to the verdict
 * `complete` of the safe design, with the states, steps per second and memory it took. */
#include "fl-bench.h"
#include "fl-explore.h"

#include <math.h>
#include <stdlib.h>

typedef struct {
  const char *scenario, *key, *value;
} Race;

static const Race races[] = {
  { "spf-vs-munmap", "vma-free", "immediate" },
  { "spf-vs-mprotect", "spf-seqcheck", "off" },
  { "spf-tlb-ipi", "pte-map-lock", "spin-irqs-off" },
  { "spf-ptl-vs-munmap", "pin-page-tables", "none" },
  { "spf-mmap-cache-race", "spf-mmap-cache", "update" },
};

/* The bounds alone (no search beyond them), on one thread and on two, in pairs run one
 * right after the other: on a virtual machine the same half-second search varies by a tenth
 * from one run to the next and by more over minutes, so each pair's ratio is taken while the
 * host is as it was for both, and the median pair reported. */
#define BOUNDS_PAIRS 5

static int
compare_doubles (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
bounds_seconds (const FlScenario *sc, guint preemptions, guint jobs, GError **error)
{
  FlExploreOptions options = { .preemptions = preemptions, .jobs = jobs,
                               .reduction = FL_EXPLORE_REDUCTION_NONE };
  g_autoptr (FlExploreResult) r = fl_explore_run (sc, &sc->config, &options, error);
  return r == NULL ? -1 : r->seconds;
}

/* The median ratio of one thread's time to two threads' over BOUNDS_PAIRS pairs, and the
 * median time on one thread; FALSE on an error. */
static gboolean
jobs_speedup (const FlScenario *sc, guint preemptions, double *speedup, double *one,
              GError **error)
{
  double ratio[BOUNDS_PAIRS], single[BOUNDS_PAIRS];
  for (guint i = 0; i < BOUNDS_PAIRS; i++)
    {
      single[i] = bounds_seconds (sc, preemptions, 1, error);
      double two = single[i] < 0 ? -1 : bounds_seconds (sc, preemptions, 2, error);
      if (two < 0)
        return FALSE;
      ratio[i] = two > 0 ? single[i] / two : 0;
    }
  qsort (ratio, BOUNDS_PAIRS, sizeof *ratio, compare_doubles);
  qsort (single, BOUNDS_PAIRS, sizeof *single, compare_doubles);
  *speedup = ratio[BOUNDS_PAIRS / 2];
  *one = single[BOUNDS_PAIRS / 2];
  return TRUE;
}

static FlExploreResult *
explore (const FlScenario *sc, const char *key, const char *value, double time_limit,
         guint jobs, GError **error)
{
  FlConfig config = sc->config;
  if (key != NULL && !fl_config_set (&config, key, value, error))
    return NULL;
  FlExploreOptions options = { .preemptions = 2, .reduction = FL_EXPLORE_REDUCTION_STATES,
                               .time_limit = time_limit, .jobs = jobs };
  return fl_explore_run (sc, &config, &options, error);
}

/* The 3-CPU built-ins, their safe design explored to the end (no target: the issue asks for
 * complete or a stated bound), on one thread and on two (the states search shares its table
 * of states seen). */
static gboolean
three_cpus (FlBench *bench, GError **error)
{
  static const char *const scenarios[] = { "spf-vs-mprotect-munmap", "spf-two-vs-munmap" };
  guint n = bench->quick ? 0 : G_N_ELEMENTS (scenarios);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (FlScenario) sc = fl_scenario_load_builtin (scenarios[i], error);
      if (sc == NULL)
        return FALSE;
      g_array_set_size (sc->schedule, 0);
      g_autoptr (FlExploreResult) r = explore (sc, NULL, NULL, 0, 1, error);
      if (r == NULL)
        return FALSE;
      g_autoptr (FlExploreResult) two = explore (sc, NULL, NULL, 0, 2, error);
      if (two == NULL)
        return FALSE;
      g_autofree char *done = g_strdup_printf ("%s (3 CPUs): time to complete", scenarios[i]);
      g_autofree char *states = g_strdup_printf ("%s (3 CPUs): states explored", scenarios[i]);
      g_autofree char *memory = g_strdup_printf ("%s (3 CPUs): explorer memory", scenarios[i]);
      fl_bench_add (bench, done, r->verdict == FL_EXPLORE_COMPLETE ? r->seconds : INFINITY, "s",
                    FL_GOAL_NONE, 0);
      g_autofree char *jobs = g_strdup_printf ("%s (3 CPUs): time to complete, --jobs 2",
                                               scenarios[i]);
      fl_bench_add (bench, jobs, two->verdict == FL_EXPLORE_COMPLETE ? two->seconds : INFINITY,
                    "s", FL_GOAL_NONE, 0);
      fl_bench_add (bench, states, (double) r->states, "states", FL_GOAL_NONE, 0);
      fl_bench_add (bench, memory, (double) r->peak_bytes / 1048576.0, "MiB", FL_GOAL_NONE, 0);
    }
  return TRUE;
}

gboolean
fl_bench_explore (FlBench *bench, GError **error)
{
  fl_bench_section (bench, "The race explorer",
                    "`faultline-cli explore` on the 2-CPU race scenarios, their [schedule] "
                    "ignored: with one safeguard off, the time to the first counterexample "
                    "(preemption bounds 0, 1, 2); with all on, the time to the verdict complete "
                    "(the bounds, then every reachable state once). Schedules per second count the "
                    "bounds' schedules and the ends the states search reached; steps per second "
                    "the steps the search took, not those replayed by seeks. --jobs 2 against "
                    "--jobs 1: the bounds alone, each bound's units shared out to two threads; "
                    "five pairs of runs, each pair one thread then two right after, the median "
                    "pair's ratio. Then the two 3-CPU built-ins, safe, explored to the end, on "
                    "one thread and on two");
  guint n = bench->quick ? 1 : G_N_ELEMENTS (races);
  for (guint i = 0; i < n; i++)
    {
      const Race *race = &races[i];
      g_autoptr (FlScenario) sc = fl_scenario_load_builtin (race->scenario, error);
      if (sc == NULL)
        return FALSE;
      g_array_set_size (sc->schedule, 0);
      g_autoptr (FlExploreResult) found = explore (sc, race->key, race->value, 0, 1, error);
      if (found == NULL)
        return FALSE;
      g_autoptr (FlExploreResult) safe = explore (sc, NULL, NULL, bench->quick ? 0.2 : 0, 1,
                                                  error);
      if (safe == NULL)
        return FALSE;
      g_autofree char *first = g_strdup_printf ("%s, %s=%s: first counterexample",
                                                race->scenario, race->key, race->value);
      g_autofree char *done = g_strdup_printf ("%s: time to complete", race->scenario);
      g_autofree char *states = g_strdup_printf ("%s: states explored", race->scenario);
      g_autofree char *rate = g_strdup_printf ("%s: steps per second exploring", race->scenario);
      g_autofree char *schedules = g_strdup_printf ("%s: schedules per second exploring",
                                                    race->scenario);
      g_autofree char *memory = g_strdup_printf ("%s: explorer memory", race->scenario);
      /* never found, never complete: infinitely long, which misses any target */
      fl_bench_add (bench, first, found->findings->len ? found->seconds * 1000 : INFINITY, "ms",
                    FL_GOAL_AT_MOST, 100);
      fl_bench_add (bench, done, safe->verdict == FL_EXPLORE_COMPLETE ? safe->seconds : INFINITY,
                    "s", FL_GOAL_AT_MOST, 1);
      fl_bench_add (bench, states, (double) safe->states, "states", FL_GOAL_NONE, 0);
      /* the bounds' schedules and the states search's ends, the schedules/s (no target) */
      fl_bench_add (bench, schedules, safe->seconds > 0 ? safe->schedules / safe->seconds : 0,
                    "schedules/s", FL_GOAL_NONE, 0);
      fl_bench_add (bench, rate, safe->seconds > 0 ? safe->steps / safe->seconds : 0, "steps/s",
                    FL_GOAL_AT_LEAST, 5e6);
      fl_bench_add (bench, memory, (double) safe->peak_bytes / 1024.0, "KiB", FL_GOAL_NONE, 0);
      /* the same schedules on one core and on two (bound 3: enough to time) */
      guint bound = bench->quick ? 1 : 3;
      double speedup, one;
      if (!jobs_speedup (sc, bound, &speedup, &one, error))
        return FALSE;
      g_autofree char *jobs = g_strdup_printf ("%s: --jobs 2 against --jobs 1 (bounds 0-%u, "
                                               "%.2f s on one)", race->scenario, bound, one);
      fl_bench_add (bench, jobs, speedup, "x", FL_GOAL_AT_LEAST, 1.8);
    }
  return three_cpus (bench, error);
}
