/* fl-explore.c — the race explorer's search: depth-first over the CPU chosen at each step,
 * bounded in preemptions, the bound deepened from 0. One simulation serves the whole search:
 * to try another choice at step N it seeks back to N (the nearest checkpoint, then the
 * recorded choices replayed) and steps a different CPU, which drops the old future. That is
 * CHESS's stateless re-execution of the prefix, without building a new machine each time. */
#include "fl-explore-private.h"

#include <string.h>

typedef struct {
  guint64 alts;      /* CPUs still to try at this step, lowest id first */
  guint16 pre;       /* preemptions before this step */
  gint16  prev;      /* the CPU of the step before; -1 at the start */
  guint8  prev_on;   /* prev could still step here, so choosing another CPU preempts it */
  guint8  cpu;       /* the choice being run */
} Choice;

typedef struct {
  FlExplorer x;
  GArray *stack;            /* Choice, one per step of the schedule being run */
  GArray *choices;          /* guint8: the CPUs of the stack, for the leaf */
  guint bound;
  gboolean cut_by_bound;    /* a choice was not tried because it needed one more preemption */
} Search;

static guint
choice_cost (const Choice *ch)
{
  return ch->prev_on && ch->prev != ch->cpu;
}

static guint
preemptions_so_far (const Search *s)
{
  if (s->stack->len == 0)
    return 0;
  const Choice *top = &g_array_index (s->stack, Choice, s->stack->len - 1);
  return top->pre + choice_cost (top);
}

int
fl_key_set_add (FlKeySet *set, guint64 key, gsize max)
{
  if (key == 0)
    key = 1;
  if (set->used * 2 >= set->size)
    {
      if (set->size >= 2 * max)
        return -1;
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
  gsize j = key & (set->size - 1);
  while (set->keys[j] != 0 && set->keys[j] != key)
    j = (j + 1) & (set->size - 1);
  if (set->keys[j] != 0)
    return 0;
  set->keys[j] = key;
  set->used++;
  return 1;
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

/* One more step of the current schedule, by the first choice at this state: the running CPU
 * goes on while it can (no preemption), else the lowest id that can step. The other choices
 * are kept for backtracking, those that preempt only while the bound allows one more. */
static gboolean
push_choice (Search *s)
{
  guint64 on = fl_explorer_enabled (&s->x);
  if (on == 0)
    return FALSE;
  Choice ch = { 0 };
  ch.pre = (guint16) preemptions_so_far (s);
  ch.prev = s->stack->len ? g_array_index (s->stack, Choice, s->stack->len - 1).cpu : -1;
  ch.prev_on = ch.prev >= 0 && ((on >> ch.prev) & 1);
  if (ch.prev_on)
    {
      ch.cpu = (guint8) ch.prev;
      guint64 others = on & ~(G_GUINT64_CONSTANT (1) << ch.prev);
      if (others != 0 && ch.pre < s->bound)
        ch.alts = others;
      else if (others != 0)
        s->cut_by_bound = TRUE;
    }
  else
    {
      ch.cpu = (guint8) __builtin_ctzll (on);
      ch.alts = on & (on - 1);
    }
  g_array_append_val (s->stack, ch);
  if (!fl_sim_step_cpu (s->x.sim, ch.cpu))
    {
      /* a limit of the machine stopped the step: the schedule ends here, cut */
      g_array_set_size (s->stack, s->stack->len - 1);
      return FALSE;
    }
  s->x.r->steps++;
  return TRUE;
}

static void
note_peak (FlExplorer *x, gsize own)
{
  gsize bytes = own + x->outcomes.size * sizeof (guint64);
  for (guint i = 0; i < x->r->findings->len; i++)
    bytes += ((FlExploreFinding *) g_ptr_array_index (x->r->findings, i))->choices->len
             + sizeof (FlExploreFinding);
  x->r->peak_bytes = MAX (x->r->peak_bytes, bytes);
}

static void
keep_finding (FlExplorer *x, const FlFinding *f, guint pre, const guint8 *choices, guint n)
{
  GPtrArray *all = x->r->findings;
  FlExploreFinding *best = NULL;
  guint at = 0;
  for (; at < all->len; at++)
    {
      FlExploreFinding *e = g_ptr_array_index (all, at);
      if (e->kind == f->kind)
        best = e;
      if (e->kind >= f->kind)
        break;
    }
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
  note_peak (x, n * (sizeof (Choice) + 1));
}

/* A schedule of the bounded search ended. Those with fewer preemptions than the bound ran
 * already at a lower bound: only the re-run is counted. */
static void
leaf (Search *s)
{
  guint pre = preemptions_so_far (s);
  s->x.r->executions++;
  if (pre < s->bound)
    return;
  g_array_set_size (s->choices, s->stack->len);
  for (guint i = 0; i < s->stack->len; i++)
    g_array_index (s->choices, guint8, i) = g_array_index (s->stack, Choice, i).cpu;
  fl_explorer_leaf (&s->x, (const guint8 *) s->choices->data, s->stack->len, pre);
}

/* The deepest step with a choice left: seek back there and take the next one. */
static gboolean
backtrack (Search *s)
{
  while (s->stack->len > 0)
    {
      Choice *ch = &g_array_index (s->stack, Choice, s->stack->len - 1);
      if (ch->alts == 0)
        {
          g_array_set_size (s->stack, s->stack->len - 1);
          continue;
        }
      ch->cpu = (guint8) __builtin_ctzll (ch->alts);
      ch->alts &= ch->alts - 1;
      guint64 at = s->stack->len - 1;
      if (!fl_sim_seek (s->x.sim, at) || !fl_sim_step_cpu (s->x.sim, ch->cpu))
        {
          /* the recorded run holds every step up to here, and the choice could step there
           * when it was listed: only a limit of the machine refuses it; cut it */
          ch->alts = 0;
          continue;
        }
      s->x.r->steps++;
      return TRUE;
    }
  return FALSE;
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
  else if (x->o->max_schedules && r->schedules >= x->o->max_schedules)
    r->stop = FL_EXPLORE_STOP_SCHEDULES;
  else if (x->deadline && g_get_monotonic_time () >= x->deadline)
    r->stop = FL_EXPLORE_STOP_TIME;
  return r->stop != FL_EXPLORE_STOP_NONE;
}

/* Every schedule with at most s->bound preemptions, depth first. */
static void
explore_bound (Search *s)
{
  guint64 budget = s->x.budget;
  g_array_set_size (s->stack, 0);
  s->cut_by_bound = FALSE;
  fl_sim_seek (s->x.sim, 0);
  for (;;)
    {
      while ((budget == 0 || s->stack->len < budget) && push_choice (s))
        ;
      /* nobody can step: finishing runs the checks of the end (a deadlock among them) */
      if (!fl_sim_is_finished (s->x.sim) && (budget == 0 || s->stack->len < budget))
        fl_sim_step (s->x.sim);
      leaf (s);
      if (fl_explorer_out_of_budget (&s->x) || !backtrack (s))
        return;
    }
}

/* Bounds 0, 1, ... K in turn (CHESS): TRUE when a bound cut no schedule, so every
 * interleaving ran. */
static gboolean
explore_bounds (Search *s)
{
  FlExploreResult *r = s->x.r;
  for (guint k = 0; k <= s->x.o->preemptions; k++)
    {
      s->bound = k;
      r->bound = k;
      explore_bound (s);
      if (r->stop != FL_EXPLORE_STOP_NONE || (r->findings->len > 0 && !s->x.o->all))
        return FALSE;
      if (!s->cut_by_bound)
        return TRUE;
    }
  return FALSE;
}

/* The bounds, then (when they found nothing and cut some schedules) the search without one;
 * sets the verdict. */
static void
explore_systematic (Search *s)
{
  FlExploreResult *r = s->x.r;
  gboolean complete = explore_bounds (s) && r->cut_by_budget == 0;
  r->unbounded = FL_EXPLORE_REDUCTION_NONE;
  if (!complete && (r->findings->len == 0 || s->x.o->all) && r->stop == FL_EXPLORE_STOP_NONE
      && s->x.o->reduction != FL_EXPLORE_REDUCTION_NONE)
    {
      /* no counterexample within the bound: the rest of the interleavings, one per class of
       * equivalent orders, or every state once */
      r->unbounded = s->x.o->reduction;
      if (s->x.o->reduction == FL_EXPLORE_REDUCTION_DPOR)
        fl_explore_dpor (&s->x);
      else
        fl_explore_states (&s->x);
      complete = r->stop == FL_EXPLORE_STOP_NONE && r->cut_unbounded == 0;
    }
  if (r->findings->len > 0)
    r->verdict = FL_EXPLORE_FOUND;
  else if (complete && r->stop == FL_EXPLORE_STOP_NONE)
    r->verdict = FL_EXPLORE_COMPLETE;
  else
    r->verdict = FL_EXPLORE_BOUNDED;
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
  FlSim *sim = fl_sim_new (scenario, &explored, scenario->seed, error);
  if (sim == NULL)
    return NULL;
  /* the scenario's own [schedule], if any, is ignored: the search picks every step */
  fl_sim_set_policy (sim, FL_SCHED_EXTERNAL);
  /* the searches seek back a few steps at a time: a copy of the state every 8 steps */
  fl_sim_fix_checkpoints (sim, 8);

  FlExploreResult *r = g_new0 (FlExploreResult, 1);
  r->findings = g_ptr_array_new ();
  r->config = explored;
  Search s = {
    .x = { .sim = sim, .o = options, .r = r, .started = g_get_monotonic_time (),
           .budget = explored.budget, .ncpus = explored.cpus },
    .stack = g_array_new (FALSE, FALSE, sizeof (Choice)),
    .choices = g_array_new (FALSE, FALSE, sizeof (guint8)),
  };
  if (options->time_limit > 0)
    s.x.deadline = s.x.started + (gint64) (options->time_limit * G_USEC_PER_SEC);

  if (options->pct_runs > 0)
    {
      /* randomized runs prove nothing: found, or bounded by the number of runs */
      fl_explore_pct (&s.x, scenario);
      r->verdict = r->findings->len > 0 ? FL_EXPLORE_FOUND : FL_EXPLORE_BOUNDED;
    }
  else
    explore_systematic (&s);
  r->seconds = (g_get_monotonic_time () - s.x.started) / (double) G_USEC_PER_SEC;
  /* the steps seeks really re-ran (a copy of the state every 8 steps makes them few) */
  r->replayed = sim->replayed_steps;
  if (options->keep_outcomes)
    {
      r->outcome_keys = g_array_new (FALSE, FALSE, sizeof (guint64));
      for (gsize i = 0; i < s.x.outcomes.size; i++)
        if (s.x.outcomes.keys[i] != 0)
          g_array_append_val (r->outcome_keys, s.x.outcomes.keys[i]);
    }

  g_array_unref (s.stack);
  g_array_unref (s.choices);
  g_free (s.x.outcomes.keys);
  fl_sim_free (sim);
  return r;
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
  g_free (result);
}

gboolean
fl_explore_kept_before (guint pre_a, guint64 step_a, guint64 seed_a, guint pre_b, guint64 step_b,
                        guint64 seed_b)
{
  if (pre_a != pre_b)
    return pre_a < pre_b;
  if (step_a != step_b)
    return step_a < step_b;
  return seed_a < seed_b;
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
fl_explore_stop_name (FlExploreStop stop)
{
  switch (stop)
    {
    case FL_EXPLORE_STOP_SCHEDULES: return "max-schedules";
    case FL_EXPLORE_STOP_TIME: return "time-limit";
    case FL_EXPLORE_STOP_MEMORY: return "outcome table full";
    case FL_EXPLORE_STOP_CANCELLED: return "cancelled";
    case FL_EXPLORE_STOP_NONE:
    default: return "none";
    }
}
