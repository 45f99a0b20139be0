/* fl-explore-pct.c — probabilistic concurrency testing (Burckhardt, Kothari, Musuvathi,
 * Nagarakatte, "A randomized scheduler with probabilistic guarantees of finding bugs", ASPLOS
 * 2010). Each run gives the CPUs random distinct priorities d, d+1, ..., d+n-1 and picks d-1
 * change points among the k steps a run takes; at every step the CPU with the highest
 * priority that can step runs, and at the i-th change point the CPU about to step drops to
 * priority i, below every initial one. A bug that needs d ordering constraints is found by
 * one run with probability at least 1/(n k^(d-1)). Runs are seeded 1, 2, ...: the same input
 * gives the same runs. */
#include "fl-explore-private.h"

#include <string.h>

static guint64
splitmix (guint64 *state)
{
  guint64 z = (*state += 0x9e3779b97f4a7c15ull);
  return fl_explore_mix (z);
}

/* The length k of a run: the scenario under the time policy, to its end (or the budget). */
static guint64
run_length (const FlScenario *scenario, const FlConfig *config, GError **error)
{
  g_autoptr (FlSim) sim = fl_sim_new (scenario, config, scenario->seed, error);
  if (sim == NULL)
    return 1;   /* cannot happen (see the caller), and change points are drawn modulo k */
  fl_sim_set_policy (sim, FL_SCHED_TIME);
  fl_sim_run_in_budget (sim, 0);
  return MAX (fl_sim_get_step (sim), 1);
}

static void
one_run (FlExplorer *x, guint depth, guint64 k, guint64 seed, GArray *choices)
{
  FlSim *sim = x->sim;
  guint n = x->ncpus;
  guint32 prio[FL_EXPLORE_MAX_CPUS];
  guint64 change[FL_EXPLORE_PCT_MAX_DEPTH];
  guint64 rng = seed;
  /* a random permutation of d .. d+n-1 (Fisher-Yates) */
  for (guint c = 0; c < n; c++)
    prio[c] = depth + c;
  for (guint c = n; c > 1; c--)
    {
      guint j = (guint) (splitmix (&rng) % c);
      guint32 t = prio[c - 1];
      prio[c - 1] = prio[j];
      prio[j] = t;
    }
  for (guint i = 1; i < depth; i++)
    change[i] = 1 + splitmix (&rng) % k;

  fl_sim_seek (sim, 0);
  g_array_set_size (choices, 0);
  guint64 pre = 0;
  gint last = -1;
  for (guint64 step = 1; x->budget == 0 || step <= x->budget; step++)
    {
      guint64 on = fl_explorer_enabled (x);
      if (on == 0)
        break;
      gint best = -1;
      for (guint pass = 0; pass < 2; pass++)
        {
          best = -1;
          for (guint64 m = on; m; m &= m - 1)
            {
              guint c = (guint) __builtin_ctzll (m);
              if (best < 0 || prio[c] > prio[best])
                best = (gint) c;
            }
          /* at a change point the CPU about to step drops below every initial priority */
          gboolean changed = FALSE;
          for (guint i = 1; i < depth; i++)
            if (change[i] == step && prio[best] >= depth)
              {
                prio[best] = i;
                change[i] = 0;   /* one CPU per change point */
                changed = TRUE;
              }
          if (!changed)
            break;
        }
      pre += fl_explore_preempts (last, (guint) best, on);
      last = best;
      if (!fl_sim_step_cpu (sim, (guint) best))
        break;
      x->r->steps++;
      guint8 cpu = (guint8) best;
      g_array_append_val (choices, cpu);
    }
  if (!fl_sim_is_finished (sim) && fl_explorer_enabled (x) == 0)
    fl_sim_step (sim);
  x->r->executions++;
  fl_explorer_leaf (x, (const guint8 *) choices->data, choices->len, (guint) pre);
}

/* Runs first, first + step, first + 2 step, ... of the seeds 1 .. pct_runs. */
static void
runs (FlExplorer *x, guint depth, guint64 k, guint64 first, guint64 step)
{
  g_autoptr (GArray) choices = g_array_new (FALSE, FALSE, sizeof (guint8));
  for (guint64 i = first; i < x->o->pct_runs && !fl_explorer_out_of_budget (x); i += step)
    {
      x->seed = 1 + i;
      one_run (x, depth, k, x->seed * 0x2545f4914f6cdd1dull + 7, choices);
    }
}

/* Another core's share: its own simulation, result and outcome set, merged afterwards. */
typedef struct {
  FlExplorer x;
  FlExploreOptions options;
  guint depth;
  guint64 k, first, step;
} Worker;

static gpointer
worker_main (gpointer data)
{
  Worker *w = data;
  runs (&w->x, w->depth, w->k, w->first, w->step);
  return NULL;
}

void
fl_explore_pct (FlExplorer *x, const FlScenario *scenario)
{
  FlExploreResult *r = x->r;
  guint depth = CLAMP (x->o->pct_depth, 1, FL_EXPLORE_PCT_MAX_DEPTH);
  g_autoptr (GError) error = NULL;
  /* the scenario ran once already (fl_explore_run made its simulation): it cannot fail */
  guint64 k = run_length (scenario, &r->config, &error);
  r->pct_steps = k;
  r->pct_depth = depth;
  r->pct_runs = x->o->pct_runs;
  guint jobs = CLAMP (x->o->jobs, 1, FL_EXPLORE_MAX_JOBS);
  guint shards = MAX (x->o->shards, 1), shard = x->o->shard % shards;
  Worker *workers = g_new0 (Worker, jobs);
  GThread **threads = g_new0 (GThread *, jobs);
  for (guint j = 1; j < jobs; j++)
    {
      Worker *w = &workers[j];
      w->options = *x->o;
      w->options.progress = NULL;      /* the first core reports */
      w->options.max_schedules = 0;    /* the seeds are shared out instead */
      w->x = *x;
      w->x.o = &w->options;
      w->x.outcomes = (FlKeySet) { 0 };
      w->x.r = g_new0 (FlExploreResult, 1);
      w->x.r->findings = g_ptr_array_new ();
      w->x.r->config = r->config;
      w->x.sim = fl_explorer_new_sim (scenario, &r->config, NULL);
      w->depth = depth;
      w->k = k;
      w->first = shard + j * shards;
      w->step = jobs * shards;
      threads[j] = g_thread_new ("explore-pct", worker_main, w);
    }
  runs (x, depth, k, shard, jobs * shards);
  for (guint j = 1; j < jobs; j++)
    {
      g_thread_join (threads[j]);
      fl_explorer_merge (x, &workers[j].x, NULL);
      fl_sim_free (workers[j].x.sim);
      g_free (workers[j].x.outcomes.keys);
      fl_explore_result_free (workers[j].x.r);
    }
  g_free (threads);
  g_free (workers);
}
