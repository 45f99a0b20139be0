/* fl-explore.c — the race explorer's search: depth-first over the CPU chosen at each step,
 * bounded in preemptions, the bound deepened from 0. One simulation serves the whole search:
 * to try another choice at step N it seeks back to N (the nearest checkpoint, then the
 * recorded choices replayed) and steps a different CPU, which drops the old future. That is
 * CHESS's stateless re-execution of the prefix, without building a new machine each time. */
#include "fl-explore.h"

#include <string.h>

typedef struct {
  guint64 alts;      /* CPUs still to try at this step, lowest id first */
  guint16 pre;       /* preemptions before this step */
  gint16  prev;      /* the CPU of the step before; -1 at the start */
  guint8  prev_on;   /* prev could still step here, so choosing another CPU preempts it */
  guint8  cpu;       /* the choice being run */
} Choice;

/* The distinct outcomes: an open-addressing set of 64-bit keys (0 stands for "empty"), so its
 * memory is known and capped. */
typedef struct {
  guint64 *keys;
  gsize    size, used;
} OutcomeSet;

typedef struct {
  FlSim *sim;
  const FlExploreOptions *o;
  FlExploreResult *r;
  GArray *stack;            /* Choice, one per step of the schedule being run */
  OutcomeSet outcomes;
  guint bound;
  gboolean cut_by_bound;    /* a choice was not tried because it needed one more preemption */
  gint64 started, deadline; /* g_get_monotonic_time() µs; deadline 0: none */
  guint64 budget;           /* steps per schedule; 0: none */
  guint ncpus;
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

static gboolean
outcome_add (OutcomeSet *set, guint64 key)
{
  if (key == 0)
    key = 1;
  if (set->used * 2 >= set->size)
    {
      if (set->size >= 2 * FL_EXPLORE_MAX_OUTCOMES)
        return FALSE;
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
  if (set->keys[j] == 0)
    {
      set->keys[j] = key;
      set->used++;
    }
  return TRUE;
}

static guint64
mix64 (guint64 x)
{
  /* splitmix64's finalizer: the kinds and the state hash end up spread over the whole key */
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

static guint64
enabled_cpus (Search *s)
{
  guint64 on = 0;
  for (guint c = 0; c < s->ncpus; c++)
    if (fl_sim_cpu_can_step (s->sim, c))
      on |= G_GUINT64_CONSTANT (1) << c;
  return on;
}

/* One more step of the current schedule, by the first choice at this state: the running CPU
 * goes on while it can (no preemption), else the lowest id that can step. The other choices
 * are kept for backtracking, those that preempt only while the bound allows one more. */
static gboolean
push_choice (Search *s)
{
  guint64 on = enabled_cpus (s);
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
  if (!fl_sim_step_cpu (s->sim, ch.cpu))
    {
      /* a limit of the machine stopped the step: the schedule ends here, cut */
      g_array_set_size (s->stack, s->stack->len - 1);
      return FALSE;
    }
  s->r->steps++;
  return TRUE;
}

static void
note_peak (Search *s)
{
  gsize bytes = s->stack->len * sizeof (Choice) + s->outcomes.size * sizeof (guint64);
  for (guint i = 0; i < s->r->findings->len; i++)
    bytes += ((FlExploreFinding *) g_ptr_array_index (s->r->findings, i))->choices->len
             + sizeof (FlExploreFinding);
  s->r->peak_bytes = MAX (s->r->peak_bytes, bytes);
}

static void
keep_finding (Search *s, const FlFinding *f, guint pre)
{
  GPtrArray *all = s->r->findings;
  FlExploreFinding *best = NULL;
  guint at = 0;
  for (; at < all->len; at++)
    {
      FlExploreFinding *x = g_ptr_array_index (all, at);
      if (x->kind == f->kind)
        best = x;
      if (x->kind >= f->kind)
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
  best->step = f->step;
  best->length = s->stack->len;
  best->events_hash = fl_sim_get_hash (s->sim);
  g_free (best->message);
  best->message = g_strdup (f->message);
  g_array_set_size (best->choices, s->stack->len);
  for (guint i = 0; i < s->stack->len; i++)
    g_array_index (best->choices, guint8, i) = g_array_index (s->stack, Choice, i).cpu;
}

/* A schedule ran to its end (or was cut). Those with fewer preemptions than the bound ran
 * already at a lower bound: only the re-run is counted. */
static void
leaf (Search *s)
{
  FlExploreResult *r = s->r;
  guint pre = preemptions_so_far (s);
  r->executions++;
  if (pre < s->bound)
    return;
  r->schedules++;
  r->max_length = MAX (r->max_length, s->stack->len);
  gboolean cut = !fl_sim_is_finished (s->sim);
  r->cut_by_budget += cut;
  GPtrArray *findings = fl_sim_get_findings (s->sim);
  guint64 kinds = cut ? G_GUINT64_CONSTANT (1) << FL_FINDING_N_KINDS : 0;
  for (guint i = 0; i < findings->len; i++)
    {
      const FlFinding *f = g_ptr_array_index (findings, i);
      if (!(kinds & (G_GUINT64_CONSTANT (1) << f->kind)))
        keep_finding (s, f, pre);
      kinds |= G_GUINT64_CONSTANT (1) << f->kind;
    }
  if (!outcome_add (&s->outcomes, mix64 (fl_sim_get_state_hash (s->sim) ^ mix64 (kinds))))
    r->stop = FL_EXPLORE_STOP_MEMORY;
  r->outcomes = s->outcomes.used;
  note_peak (s);
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
      s->r->replayed += at;
      if (!fl_sim_seek (s->sim, at) || !fl_sim_step_cpu (s->sim, ch->cpu))
        {
          /* the recorded run holds every step up to here, and the choice could step there
           * when it was listed: only a limit of the machine refuses it; cut it */
          ch->alts = 0;
          continue;
        }
      s->r->steps++;
      return TRUE;
    }
  return FALSE;
}

static gboolean
out_of_budget (Search *s)
{
  FlExploreResult *r = s->r;
  if (r->stop != FL_EXPLORE_STOP_NONE)
    return TRUE;
  if (s->o->max_schedules && r->schedules >= s->o->max_schedules)
    r->stop = FL_EXPLORE_STOP_SCHEDULES;
  else if (s->deadline && g_get_monotonic_time () >= s->deadline)
    r->stop = FL_EXPLORE_STOP_TIME;
  return r->stop != FL_EXPLORE_STOP_NONE;
}

/* Every schedule with at most s->bound preemptions, depth first. */
static void
explore_bound (Search *s)
{
  g_array_set_size (s->stack, 0);
  s->cut_by_bound = FALSE;
  fl_sim_seek (s->sim, 0);
  for (;;)
    {
      while ((s->budget == 0 || s->stack->len < s->budget) && push_choice (s))
        ;
      /* nobody can step: finishing runs the checks of the end (a deadlock among them) */
      if (!fl_sim_is_finished (s->sim) && (s->budget == 0 || s->stack->len < s->budget))
        fl_sim_step (s->sim);
      leaf (s);
      if (out_of_budget (s) || !backtrack (s))
        return;
    }
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
  FlSim *sim = fl_sim_new (scenario, config, scenario->seed, error);
  if (sim == NULL)
    return NULL;
  /* the scenario's own [schedule], if any, is ignored: the search picks every step */
  fl_sim_set_policy (sim, FL_SCHED_EXTERNAL);

  FlExploreResult *r = g_new0 (FlExploreResult, 1);
  r->findings = g_ptr_array_new ();
  Search s = {
    .sim = sim, .o = options, .r = r,
    .stack = g_array_new (FALSE, FALSE, sizeof (Choice)),
    .started = g_get_monotonic_time (),
    .budget = config->budget, .ncpus = config->cpus,
  };
  if (options->time_limit > 0)
    s.deadline = s.started + (gint64) (options->time_limit * G_USEC_PER_SEC);

  gboolean complete = FALSE;
  for (guint k = 0; k <= options->preemptions; k++)
    {
      s.bound = k;
      r->bound = k;
      explore_bound (&s);
      if (r->stop != FL_EXPLORE_STOP_NONE || r->findings->len > 0)
        break;
      if (!s.cut_by_bound)
        {
          complete = r->cut_by_budget == 0;
          break;
        }
    }
  if (r->findings->len > 0)
    r->verdict = FL_EXPLORE_FOUND;
  else if (complete && r->stop == FL_EXPLORE_STOP_NONE)
    r->verdict = FL_EXPLORE_COMPLETE;
  else
    r->verdict = FL_EXPLORE_BOUNDED;
  r->seconds = (g_get_monotonic_time () - s.started) / (double) G_USEC_PER_SEC;

  g_array_unref (s.stack);
  g_free (s.outcomes.keys);
  fl_sim_free (sim);
  return r;
}

void
fl_explore_result_free (FlExploreResult *result)
{
  if (result == NULL)
    return;
  for (guint i = 0; i < result->findings->len; i++)
    {
      FlExploreFinding *f = g_ptr_array_index (result->findings, i);
      g_array_unref (f->choices);
      g_free (f->message);
      g_free (f);
    }
  g_ptr_array_unref (result->findings);
  g_free (result);
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
    case FL_EXPLORE_STOP_NONE:
    default: return "none";
    }
}
