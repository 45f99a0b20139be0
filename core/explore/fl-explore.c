/* fl-explore.c — the race explorer's entry and what its searches share: the sets of
 * outcomes, the counterexample kept for each kind of finding, the budget checks, the merge
 * of what threads and shards found, and the verdict. The searches are in fl-explore-bounds.c
 * (preemption bounding), fl-explore-states.c, fl-explore-dpor.c and fl-explore-pct.c. */
#include "fl-explore-private.h"

#include <string.h>

void
fl_key_set_grow (FlKeySet *set)
{
  gsize size = set->size ? set->size * 2 : 1024;
  guint64 *keys = g_new0 (guint64, size);
  for (gsize i = 0; i < set->size; i++)
    if (set->keys[i] != 0)
      {
        gsize j = set->keys[i] & (size - 1);
        while (keys[j] != 0)
          j = (j + 1) & (size - 1);
        keys[j] = set->keys[i];
      }
  g_free (set->keys);
  set->keys = keys;
  set->size = size;
}

int
fl_key_set_add (FlKeySet *set, guint64 key, gsize max)
{
  if (key == 0)
    key = 1;
  /* full: @max keys exactly, whatever the table's size */
  if (set->used >= max)
    return -1;
  if (set->used * 2 >= set->size)
    fl_key_set_grow (set);
  gsize j = key & (set->size - 1);
  while (set->keys[j] != 0 && set->keys[j] != key)
    j = (j + 1) & (set->size - 1);
  if (set->keys[j] != 0)
    return 0;
  set->keys[j] = key;
  set->used++;
  return 1;
}

int
fl_key_set_add_shared (FlKeySet *set, guint64 key, gsize max, gint *grow)
{
  if (key == 0)
    key = 1;
  if (__atomic_load_n (&set->used, __ATOMIC_RELAXED) >= max)
    return -1;
  /* keys are only ever added, each by one compare-and-swap into an empty slot: a slot seen
   * holding a key holds it for good, so the probe can go on past it */
  gsize mask = set->size - 1;
  for (gsize j = key & mask;; j = (j + 1) & mask)
    {
      guint64 there = __atomic_load_n (&set->keys[j], __ATOMIC_RELAXED);
      if (there == 0
          && __atomic_compare_exchange_n (&set->keys[j], &there, key, FALSE, __ATOMIC_RELAXED,
                                          __ATOMIC_RELAXED))
        {
          gsize used = __atomic_add_fetch (&set->used, 1, __ATOMIC_RELAXED);
          if (used * 2 >= set->size)
            g_atomic_int_set (grow, 1);
          return 1;
        }
      /* a lost race leaves in @there the key that won the slot */
      if (there == key)
        return 0;
    }
}

guint64
fl_explore_mix (guint64 x)
{
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

guint64
fl_explorer_enabled (FlExplorer *x)
{
  guint64 on = 0;
  for (guint c = 0; c < x->ncpus; c++)
    if (fl_sim_cpu_can_step (x->sim, c))
      on |= G_GUINT64_CONSTANT (1) << c;
  return on;
}

void
fl_explorer_note_peak (FlExplorer *x, gsize own)
{
  gsize bytes = own + x->outcomes.size * sizeof (guint64);
  for (guint i = 0; i < x->r->findings->len; i++)
    bytes += ((FlExploreFinding *) g_ptr_array_index (x->r->findings, i))->choices->len
             + sizeof (FlExploreFinding);
  x->r->peak_bytes = MAX (x->r->peak_bytes, bytes);
}

/* The counterexample of @kind in @findings (ordered by kind), or NULL; @at: where it is, or
 * where one of its kind goes. */
static FlExploreFinding *
of_kind (GPtrArray *findings, FlFindingKind kind, guint *at)
{
  for (*at = 0; *at < findings->len; (*at)++)
    {
      FlExploreFinding *e = g_ptr_array_index (findings, *at);
      if (e->kind >= kind)
        return e->kind == kind ? e : NULL;
    }
  return NULL;
}

static void
keep_finding (FlExplorer *x, const FlFinding *f, guint pre, const guint8 *choices, guint n)
{
  GPtrArray *all = x->r->findings;
  guint at;
  FlExploreFinding *best = of_kind (all, f->kind, &at);
  /* fewest preemptions, then fewest steps to the finding; ties keep the one found first */
  if (best != NULL && (best->preemptions < pre
                       || (best->preemptions == pre && best->step <= f->step)))
    return;
  if (best == NULL)
    {
      best = g_new0 (FlExploreFinding, 1);
      best->kind = f->kind;
      best->choices = g_array_new (FALSE, FALSE, sizeof (guint8));
      g_ptr_array_insert (all, (gint) at, best);
    }
  best->preemptions = pre;
  best->seed = x->seed;
  best->unit = x->unit;
  best->step = f->step;
  best->length = n;
  best->events_hash = fl_sim_get_hash (x->sim);
  g_free (best->message);
  best->message = g_strdup (f->message);
  g_array_set_size (best->choices, n);
  memcpy (best->choices->data, choices, n);
}

void
fl_explorer_leaf (FlExplorer *x, const guint8 *choices, guint n, guint pre)
{
  FlExploreResult *r = x->r;
  r->schedules++;
  if (x->shared_schedules != NULL)
    __atomic_fetch_add (x->shared_schedules, 1, __ATOMIC_RELAXED);
  r->max_length = MAX (r->max_length, n);
  gboolean cut = !fl_sim_is_finished (x->sim);
  r->cut_by_budget += cut;
  GPtrArray *findings = fl_sim_get_findings (x->sim);
  guint64 kinds = cut ? G_GUINT64_CONSTANT (1) << FL_FINDING_N_KINDS : 0;
  for (guint i = 0; i < findings->len; i++)
    {
      const FlFinding *f = g_ptr_array_index (findings, i);
      if (!(kinds & (G_GUINT64_CONSTANT (1) << f->kind)))
        keep_finding (x, f, pre, choices, n);
      kinds |= G_GUINT64_CONSTANT (1) << f->kind;
    }
  r->with_findings += findings->len > 0;
  for (guint i = 0; i < r->findings->len; i++)
    {
      FlExploreFinding *e = g_ptr_array_index (r->findings, i);
      e->hits += (kinds >> e->kind) & 1;
    }
  /* the outcome leaves time out: two orders that end in the same state are one outcome */
  guint64 state = fl_state_semantic_hash (fl_sim_get_state (x->sim), FL_STATE_OUTCOME);
  if (fl_key_set_add (&x->outcomes, fl_explore_mix (state ^ fl_explore_mix (kinds)),
                      FL_EXPLORE_MAX_OUTCOMES) < 0)
    r->stop = FL_EXPLORE_STOP_MEMORY;
  r->outcomes = x->outcomes.used;
  fl_explorer_note_peak (x, n);
}

gboolean
fl_explorer_out_of_budget (FlExplorer *x)
{
  FlExploreResult *r = x->r;
  if (r->stop != FL_EXPLORE_STOP_NONE)
    return TRUE;
  if (x->o->progress != NULL && (++x->checks & 255) == 0)
    {
      gint64 now = g_get_monotonic_time ();
      if (now >= x->next_progress)
        {
          r->seconds = (now - x->started) / (double) G_USEC_PER_SEC;
          x->o->progress (r, x->o->progress_data);
          x->next_progress = now + G_USEC_PER_SEC / 4;
        }
    }
  if (x->o->cancel != NULL && g_atomic_int_get (x->o->cancel))
    r->stop = FL_EXPLORE_STOP_CANCELLED;
  else if (x->o->max_schedules
           && (x->shared_schedules ? __atomic_load_n (x->shared_schedules, __ATOMIC_RELAXED)
                                   : r->schedules) >= x->o->max_schedules)
    r->stop = FL_EXPLORE_STOP_SCHEDULES;
  else if (x->deadline && g_get_monotonic_time () >= x->deadline)
    r->stop = FL_EXPLORE_STOP_TIME;
  return r->stop != FL_EXPLORE_STOP_NONE;
}

void
fl_explorer_progress_of_threads (FlExplorer *main, const FlExploreResult *own,
                                 const guint64 *schedules, guint64 states)
{
  FlExploreResult so_far = *main->r;
  so_far.schedules = __atomic_load_n (schedules, __ATOMIC_RELAXED);
  so_far.states = states;
  so_far.steps += own->steps;
  so_far.seconds = own->seconds;
  main->o->progress (&so_far, main->o->progress_data);
}

FlSim *
fl_explorer_new_sim (const FlScenario *scenario, const FlConfig *config, GError **error)
{
  FlSim *sim = fl_sim_new (scenario, config, scenario->seed, error);
  if (sim == NULL)
    return NULL;
  /* the scenario's own [schedule], if any, is ignored: the search picks every step */
  fl_sim_set_policy (sim, FL_SCHED_EXTERNAL);
  /* the searches seek back a few steps at a time: a copy of the state every 8 steps (the
   * bounded and the states searches set their own spacing) */
  fl_sim_fix_checkpoints (sim, 8);
  return sim;
}

/* The bounds, then (when they found nothing and cut some schedules) the search without one;
 * sets the verdict. A shard runs the bounds only: whether they cut anything is known once
 * every shard's part is merged. */
static void
explore_systematic (FlExplorer *x, const FlScenario *scenario)
{
  FlExploreResult *r = x->r;
  const FlExploreOptions *o = x->o;
  gboolean sharded = o->shards > 1;
  gboolean complete = fl_explore_bounds (x, scenario) && r->cut_by_budget == 0 && !sharded;
  r->unbounded = FL_EXPLORE_REDUCTION_NONE;
  if (!complete && !sharded && (r->findings->len == 0 || o->all)
      && r->stop == FL_EXPLORE_STOP_NONE && o->reduction != FL_EXPLORE_REDUCTION_NONE)
    {
      /* no counterexample within the bound: the rest of the interleavings, one per class of
       * equivalent orders, or every state once */
      r->unbounded = o->reduction;
      if (o->reduction == FL_EXPLORE_REDUCTION_DPOR)
        fl_explore_dpor (x);
      else
        fl_explore_states (x, scenario);
      complete = r->stop == FL_EXPLORE_STOP_NONE && r->cut_unbounded == 0;
    }
  if (r->findings->len > 0)
    r->verdict = FL_EXPLORE_FOUND;
  else if (complete && r->stop == FL_EXPLORE_STOP_NONE)
    r->verdict = FL_EXPLORE_COMPLETE;
  else
    r->verdict = FL_EXPLORE_BOUNDED;
}

static int
compare_keys (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return (x > y) - (x < y);
}

/* The outcome keys into the result: the bounds kept theirs in the order they met them, each
 * with its bound; what the search beyond them (or PCT) reached besides follows, in
 * increasing order, beyond the bounds marked as preemptions + 1. */
static void
keep_outcome_keys (FlExploreResult *r, const FlKeySet *outcomes)
{
  if (r->outcome_keys == NULL)
    r->outcome_keys = g_array_new (FALSE, FALSE, sizeof (guint64));
  /* the keys already kept, looked up in a copy that the appends below do not move */
  g_autoptr (GArray) had = g_array_copy (r->outcome_keys);
  g_autoptr (GHashTable) kept = g_hash_table_new (g_int64_hash, g_int64_equal);
  for (guint i = 0; i < had->len; i++)
    g_hash_table_add (kept, &g_array_index (had, guint64, i));
  guint16 beyond = (guint16) MIN (r->bound_limit + 1, G_MAXUINT16);
  /* in increasing order: where a key sits in the set depends on the order keys came in,
   * which with threads is a matter of timing */
  g_autoptr (GArray) more = g_array_new (FALSE, FALSE, sizeof (guint64));
  for (gsize i = 0; i < outcomes->size; i++)
    if (outcomes->keys[i] != 0 && !g_hash_table_contains (kept, &outcomes->keys[i]))
      g_array_append_val (more, outcomes->keys[i]);
  g_array_sort (more, compare_keys);
  g_array_append_vals (r->outcome_keys, more->data, more->len);
  for (guint i = 0; r->outcome_bounds != NULL && i < more->len; i++)
    g_array_append_val (r->outcome_bounds, beyond);
}

FlExploreResult *
fl_explore_run (const FlScenario *scenario, const FlConfig *config,
                const FlExploreOptions *options, GError **error)
{
  g_return_val_if_fail (scenario != NULL && config != NULL && options != NULL, NULL);
  if (config->cpus > FL_EXPLORE_MAX_CPUS)
    {
      g_set_error (error, FL_SIM_ERROR, FL_SIM_ERROR_CONFIG,
                   "the explorer handles at most %u CPUs (the scenario has %u)",
                   FL_EXPLORE_MAX_CPUS, config->cpus);
      return NULL;
    }
  /* The hold (a write's next access served by its own copy while requests queue) is a
   * statement about time; the explorer orders steps without it, so that what a step does
   * depends on the order of the steps alone. The counterexample carries cost.hold=0. */
  FlConfig explored = *config;
  explored.cost.hold = 0;
  FlSim *sim = fl_explorer_new_sim (scenario, &explored, error);
  if (sim == NULL)
    return NULL;

  FlExploreResult *r = g_new0 (FlExploreResult, 1);
  r->findings = g_ptr_array_new ();
  r->config = explored;
  r->shard = options->shard;
  r->shards = options->shards;
  r->bound_limit = options->preemptions;
  r->all = options->all;
  FlExplorer x = { .sim = sim, .o = options, .r = r, .started = g_get_monotonic_time (),
                   .budget = explored.budget, .ncpus = explored.cpus };
  if (options->time_limit > 0)
    x.deadline = x.started + (gint64) (options->time_limit * G_USEC_PER_SEC);

  if (options->pct_runs > 0)
    {
      /* randomized runs prove nothing: found, or bounded by the number of runs */
      fl_explore_pct (&x, scenario);
      r->verdict = r->findings->len > 0 ? FL_EXPLORE_FOUND : FL_EXPLORE_BOUNDED;
    }
  else
    explore_systematic (&x, scenario);
  r->seconds = (g_get_monotonic_time () - x.started) / (double) G_USEC_PER_SEC;
  /* the steps seeks really re-ran (copies of the state every few steps, and the states
   * search's journals, make them few) */
  r->replayed += sim->replayed_steps;
  if (options->keep_outcomes)
    keep_outcome_keys (r, &x.outcomes);

  g_free (x.outcomes.keys);
  fl_sim_free (sim);
  return r;
}

void
fl_explore_findings_add (GPtrArray *into, FlExploreFinding *theirs)
{
  guint at;
  FlExploreFinding *ours = of_kind (into, theirs->kind, &at);
  if (ours == NULL)
    {
      g_ptr_array_insert (into, (gint) at, theirs);
      return;
    }
  guint64 hits = ours->hits + theirs->hits;
  if (fl_explore_kept_before (theirs, ours))
    {
      into->pdata[at] = theirs;
      fl_explore_finding_free (ours);
    }
  else
    fl_explore_finding_free (theirs);
  ((FlExploreFinding *) into->pdata[at])->hits = hits;
}

void
fl_explorer_merge (FlExplorer *into, FlExplorer *from, GArray *new_keys)
{
  FlExploreResult *r = into->r, *w = from->r;
  r->schedules += w->schedules;
  r->executions += w->executions;
  r->steps += w->steps;
  r->with_findings += w->with_findings;
  r->cut_by_budget += w->cut_by_budget;
  r->max_length = MAX (r->max_length, w->max_length);
  r->peak_bytes += w->peak_bytes;
  if (r->stop == FL_EXPLORE_STOP_NONE)
    r->stop = w->stop;
  for (gsize i = 0; i < from->outcomes.size; i++)
    {
      guint64 key = from->outcomes.keys[i];
      if (key == 0)
        continue;
      int added = fl_key_set_add (&into->outcomes, key, FL_EXPLORE_MAX_OUTCOMES);
      if (added < 0)
        r->stop = FL_EXPLORE_STOP_MEMORY;
      else if (added > 0 && new_keys != NULL)
        g_array_append_val (new_keys, key);
    }
  r->outcomes = into->outcomes.used;
  for (guint i = 0; i < w->findings->len; i++)
    fl_explore_findings_add (r->findings, g_ptr_array_index (w->findings, i));
  /* every one was moved or freed */
  g_ptr_array_set_size (w->findings, 0);
}

void
fl_explore_finding_free (FlExploreFinding *f)
{
  g_array_unref (f->choices);
  g_free (f->message);
  g_free (f);
}

void
fl_explore_result_free (FlExploreResult *result)
{
  if (result == NULL)
    return;
  for (guint i = 0; i < result->findings->len; i++)
    fl_explore_finding_free (g_ptr_array_index (result->findings, i));
  g_ptr_array_unref (result->findings);
  if (result->outcome_keys != NULL)
    g_array_unref (result->outcome_keys);
  if (result->outcome_bounds != NULL)
    g_array_unref (result->outcome_bounds);
  if (result->per_bound != NULL)
    g_array_unref (result->per_bound);
  g_free (result);
}

gboolean
fl_explore_kept_before (const FlExploreFinding *a, const FlExploreFinding *b)
{
  if (a->preemptions != b->preemptions)
    return a->preemptions < b->preemptions;
  if (a->step != b->step)
    return a->step < b->step;
  if (a->unit != b->unit)
    return a->unit < b->unit;
  return a->seed < b->seed;
}

const char *
fl_explore_verdict_name (FlExploreVerdict verdict)
{
  switch (verdict)
    {
    case FL_EXPLORE_COMPLETE: return "complete";
    case FL_EXPLORE_BOUNDED: return "bounded";
    case FL_EXPLORE_FOUND: return "found";
    default: return "?";
    }
}

const char *
fl_explore_reduction_name (FlExploreReduction reduction)
{
  switch (reduction)
    {
    case FL_EXPLORE_REDUCTION_NONE: return "none";
    case FL_EXPLORE_REDUCTION_STATES: return "states";
    case FL_EXPLORE_REDUCTION_DPOR: return "dpor";
    default: return "?";
    }
}

/**
 * fl_explore_options_describe:
 * @options: a search
 *
 * Returns: (transfer full): `schedule=pct depth=D runs=N`, or `schedule=systematic
 *   preemptions=N reduction=R all=yes|no max-schedules=N time-limit=S max-states=N`:
 *   everything of @options that decides what the search finds, and nothing that only
 *   shares it out.
 */
char *
fl_explore_options_describe (const FlExploreOptions *options)
{
  if (options->pct_runs > 0)
    return g_strdup_printf ("schedule=pct depth=%u runs=%" G_GUINT64_FORMAT, options->pct_depth,
                            options->pct_runs);
  char limit[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_formatd (limit, sizeof limit, "%g", options->time_limit);
  return g_strdup_printf ("schedule=systematic preemptions=%u reduction=%s all=%s "
                          "max-schedules=%" G_GUINT64_FORMAT " time-limit=%s max-states=%"
                          G_GUINT64_FORMAT, options->preemptions,
                          fl_explore_reduction_name (options->reduction),
                          options->all ? "yes" : "no", options->max_schedules, limit,
                          options->max_states ? options->max_states
                                              : (guint64) FL_EXPLORE_MAX_STATES);
}

const char *
fl_explore_stop_name (FlExploreStop stop)
{
  switch (stop)
    {
    case FL_EXPLORE_STOP_SCHEDULES: return "max-schedules";
    case FL_EXPLORE_STOP_TIME: return "time-limit";
    case FL_EXPLORE_STOP_MEMORY: return "outcome table full";
    case FL_EXPLORE_STOP_CANCELLED: return "cancelled";
    case FL_EXPLORE_STOP_STATES: return "state table full";
    case FL_EXPLORE_STOP_NONE:
    default: return "none";
    }
}
