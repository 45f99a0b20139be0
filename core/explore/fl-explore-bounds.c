/* fl-explore-bounds.c — the systematic search with preemption bounding (Musuvathi & Qadeer,
 * CHESS, PLDI 2007): depth first over the CPU chosen at each step, bound 0 first, then 1, 2,
 * ... One simulation serves a whole search: to try another choice at step N it seeks back to
 * N (the nearest checkpoint, then the recorded choices replayed) and steps a different CPU,
 * which drops the old future. That is CHESS's stateless re-execution of the prefix, without
 * building a new machine each time.
 *
 * Threads and shards. Each bound's tree of schedules is cut into units that any search can
 * number without running the others: the first schedule is unit 0, and every other choice
 * taken at a step whose prefix holds fewer than UNIT_DEVIATIONS choices other than the first
 * starts the next unit, in the order depth first meets them. So a unit is either one
 * schedule (when its prefix is short of deviations) or a whole subtree. Part p of P owns the
 * units u with u % P == p: it walks the first choices of the units it does not own, to number
 * the units beyond them, and runs and counts only its own. Parts are the shards (processes,
 * machines) times the threads of each; the threads meet after every bound, so stopping at the
 * first bound that finds something or cuts nothing stays what one thread does. Depth first
 * meets units in increasing order, so the unit breaks a tie between two counterexamples of
 * equal preemptions and steps the way one thread would. */
#include "fl-explore-private.h"

#include <string.h>

/* Prefixes with fewer deviations than this start units: 2 gives every part a few hundred
 * short schedules to walk and thousands of units to share. */
#define UNIT_DEVIATIONS 2

typedef struct {
  guint64 alts;      /* CPUs still to try at this step, lowest id first */
  guint64 unit;      /* the unit this step belongs to */
  guint16 pre;       /* preemptions before this step */
  gint16  prev;      /* the CPU of the step before; -1 at the start */
  guint8  prev_on;   /* prev could still step here, so choosing another CPU preempts it */
  guint8  cpu;       /* the choice being run */
  guint8  devs;      /* choices other than the first up to here (at most UNIT_DEVIATIONS) */
} Choice;

typedef struct {
  FlExplorer x;             /* its own simulation; a fresh result and outcome set per bound */
  FlExploreOptions options; /* the caller's, progress through the first part only */
  GArray *stack;            /* Choice, one per step of the schedule being run */
  GArray *choices;          /* guint8: the CPUs of the stack, for the leaf */
  guint bound;
  gboolean cut_by_bound;    /* a choice was not tried because it needed one more preemption */
  guint64 part, parts;
  guint64 next_unit;        /* the number the next unit gets */
  FlExplorer *main;         /* the whole exploration's, merged into after every bound */
} Part;

static gboolean
owns (const Part *s, guint64 unit)
{
  return unit % s->parts == s->part;
}

static guint
choice_cost (const Choice *ch)
{
  return ch->prev_on && ch->prev != ch->cpu;
}

static const Choice *
top (const Part *s)
{
  return s->stack->len ? &g_array_index (s->stack, Choice, s->stack->len - 1) : NULL;
}

static guint
preemptions_so_far (const Part *s)
{
  const Choice *t = top (s);
  return t ? t->pre + choice_cost (t) : 0;
}

/* Whether no step from @ch's on can have a choice left for the search to come back to: two
 * CPUs with the bound spent. Then a CPU that can go on goes on (another would preempt it),
 * and one that cannot leaves the step to the other. A copy of the state taken down there
 * would never serve a seek, which goes back to a choice left; the copies were a sixth of the
 * bounded search's time. (Three CPUs or more: where the running one stops, two others may be
 * left to choose from.) */
static gboolean
no_choice_below (const Part *s, const Choice *ch)
{
  return s->x.ncpus <= 2 && ch->prev >= 0 && ch->pre >= s->bound;
}

/* One more step of the current schedule, by the first choice at this state: the running CPU
 * goes on while it can (no preemption), else the lowest id that can step. The other choices
 * are kept for backtracking, those that preempt only while the bound allows one more; in a
 * unit of another part, only those that start units. */
static gboolean
push_choice (Part *s)
{
  guint64 on = fl_explorer_enabled (&s->x);
  if (on == 0)
    return FALSE;
  const Choice *parent = top (s);
  Choice ch = { 0 };
  ch.pre = (guint16) preemptions_so_far (s);
  ch.prev = parent ? parent->cpu : -1;
  ch.unit = parent ? parent->unit : 0;
  ch.devs = parent ? parent->devs : 0;
  gboolean own = owns (s, ch.unit);
  ch.prev_on = ch.prev >= 0 && ((on >> ch.prev) & 1);
  if (ch.prev_on)
    {
      ch.cpu = (guint8) ch.prev;
      guint64 others = on & ~(G_GUINT64_CONSTANT (1) << ch.prev);
      if (others != 0 && ch.pre < s->bound)
        ch.alts = others;
      else if (others != 0 && own)
        s->cut_by_bound = TRUE;
    }
  else
    {
      ch.cpu = (guint8) __builtin_ctzll (on);
      ch.alts = on & (on - 1);
    }
  g_array_append_val (s->stack, ch);
  fl_sim_pause_checkpoints (s->x.sim, no_choice_below (s, &ch));
  if (!fl_sim_step_cpu (s->x.sim, ch.cpu))
    {
      /* a limit of the machine stopped the step: the schedule ends here, cut */
      fl_explore_resize (s->stack, s->stack->len - 1);
      return FALSE;
    }
  s->x.r->steps++;
  return TRUE;
}

/* A schedule of the bounded search ended. Those with fewer preemptions than the bound ran
 * already at a lower bound: only the re-run is counted. Another part's are not counted. */
static void
leaf (Part *s)
{
  const Choice *t = top (s);
  guint64 unit = t ? t->unit : 0;
  if (!owns (s, unit))
    return;
  guint pre = preemptions_so_far (s);
  s->x.r->executions++;
  if (pre < s->bound)
    return;
  fl_explore_resize (s->choices, s->stack->len);
  for (guint i = 0; i < s->stack->len; i++)
    /* clang 14's analyzer takes a GArray's data for NULL whatever its length (g_array_new
     * leaves it so until the first append, and the analyzer does not tie it to len) */
    /* NOLINTNEXTLINE(clang-analyzer-core.NullDereference) */
    g_array_index (s->choices, guint8, i) = g_array_index (s->stack, Choice, i).cpu;
  s->x.unit = unit;
  fl_explorer_leaf (&s->x, (const guint8 *) s->choices->data, s->stack->len, pre);
  fl_explorer_note_peak (&s->x, s->stack->len * (sizeof (Choice) + 1));
}

/* The deepest step with a choice left: seek back there and take the next one (skipping the
 * units of other parts that hold no units of their own). */
static gboolean
backtrack (Part *s)
{
  while (s->stack->len > 0)
    {
      guint at = s->stack->len - 1;
      Choice *ch = &g_array_index (s->stack, Choice, at);
      if (ch->alts == 0)
        {
          fl_explore_resize (s->stack, at);
          continue;
        }
      ch->cpu = (guint8) __builtin_ctzll (ch->alts);
      ch->alts &= ch->alts - 1;
      const Choice *parent = at ? &g_array_index (s->stack, Choice, at - 1) : NULL;
      guint devs = parent ? parent->devs : 0;
      ch->devs = (guint8) MIN (devs + 1, UNIT_DEVIATIONS);
      ch->unit = devs < UNIT_DEVIATIONS ? s->next_unit++ : parent->unit;
      if (!owns (s, ch->unit) && ch->devs >= UNIT_DEVIATIONS)
        continue;   /* a subtree of another part's, with no unit inside */
      fl_sim_pause_checkpoints (s->x.sim, no_choice_below (s, ch));
      if (!fl_sim_seek (s->x.sim, at) || !fl_sim_step_cpu (s->x.sim, ch->cpu))
        {
          /* the recorded run holds every step up to here, and the choice could step there
           * when it was listed: only a limit of the machine refuses it; that choice is cut.
           * A part skipping another's subtree does not try it, so the next choices here
           * are still taken, to number the units the same way in every part. */
          continue;
        }
      s->x.r->steps++;
      return TRUE;
    }
  return FALSE;
}

/* Every schedule of this part with at most s->bound preemptions, depth first. */
static void
explore_bound (Part *s)
{
  guint64 budget = s->x.budget;
  fl_explore_resize (s->stack, 0);
  s->cut_by_bound = FALSE;
  s->next_unit = 1;
  /* a schedule seeks back once, to its deepest choice left: a copy of the state every 16
   * steps costs less in all than every 8 (a seek replays up to 15 steps) or 32 (measured) */
  fl_sim_fix_checkpoints (s->x.sim, 16);
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
        break;
    }
  fl_sim_pause_checkpoints (s->x.sim, FALSE);
}

static gpointer
part_main (gpointer data)
{
  explore_bound (data);
  return NULL;
}

/* The first part's progress line: the counts merged so far, with every part's schedules. */
static void
part_progress (const FlExploreResult *own, gpointer data)
{
  Part *s = data;
  fl_explorer_progress_of_threads (s->main, own, s->x.shared_schedules, s->main->r->states);
}

static void
part_init (Part *s, FlExplorer *main, FlSim *sim, guint64 part, guint64 parts,
           guint64 *shared, gboolean reports)
{
  s->options = *main->o;
  s->options.progress = NULL;
  if (reports && main->o->progress != NULL)
    {
      s->options.progress = part_progress;
      s->options.progress_data = s;
    }
  s->x = *main;
  s->x.o = &s->options;
  s->x.sim = sim;
  s->x.shared_schedules = shared;
  s->x.outcomes = (FlKeySet) { 0 };
  s->x.r = NULL;
  s->stack = g_array_new (FALSE, FALSE, sizeof (Choice));
  s->choices = g_array_new (FALSE, FALSE, sizeof (guint8));
  s->part = part;
  s->parts = parts;
  s->main = main;
}

static void
part_start_bound (Part *s, guint bound)
{
  s->bound = bound;
  g_free (s->x.outcomes.keys);
  s->x.outcomes = (FlKeySet) { 0 };
  if (s->x.r != NULL)
    fl_explore_result_free (s->x.r);
  s->x.r = g_new0 (FlExploreResult, 1);
  s->x.r->findings = g_ptr_array_new ();
  s->x.r->config = s->main->r->config;
}

/* What a bound added, from the parts' own results before they are merged. */
static void
count_bound (FlExploreResult *r, Part *parts, guint n)
{
  FlExploreBoundCounts c = { 0 };
  for (guint j = 0; j < n; j++)
    {
      const FlExploreResult *w = parts[j].x.r;
      c.schedules += w->schedules;
      c.executions += w->executions;
      c.cut_by_budget += w->cut_by_budget;
      c.with_findings += w->with_findings;
      c.max_length = MAX (c.max_length, w->max_length);
      c.cut_by_bound |= parts[j].cut_by_bound;
      for (guint i = 0; i < w->findings->len; i++)
        {
          const FlExploreFinding *f = g_ptr_array_index (w->findings, i);
          c.hits[f->kind] += f->hits;
        }
    }
  g_array_append_val (r->per_bound, c);
}

gboolean
fl_explore_bounds (FlExplorer *x, const FlScenario *scenario)
{
  FlExploreResult *r = x->r;
  const FlExploreOptions *o = x->o;
  guint jobs = CLAMP (o->jobs, 1, FL_EXPLORE_MAX_JOBS);
  guint64 shards = MAX (o->shards, 1), shard = o->shard % shards;
  gboolean sharded = shards > 1;
  guint64 shared = r->schedules;
  r->per_bound = g_array_new (FALSE, FALSE, sizeof (FlExploreBoundCounts));
  if (o->keep_outcomes)
    {
      r->outcome_keys = g_array_new (FALSE, FALSE, sizeof (guint64));
      r->outcome_bounds = g_array_new (FALSE, FALSE, sizeof (guint16));
    }
  Part *parts = g_new0 (Part, jobs);
  GThread **threads = g_new0 (GThread *, jobs);
  /* the scenario ran once already (fl_explore_run made its simulation), so another fails
   * only when memory does: fewer threads then, the units shared out among those there are */
  FlSim **sims = g_new0 (FlSim *, jobs);
  sims[0] = x->sim;
  guint n = 1;
  while (n < jobs && (sims[n] = fl_explorer_new_sim (scenario, &r->config, NULL)) != NULL)
    n++;
  /* part shard + j * shards of n * shards: this shard's units are u % shards == shard
   * whatever n is, so shards run with different --jobs still share the tree out exactly */
  for (guint j = 0; j < n; j++)
    part_init (&parts[j], x, sims[j], shard + j * shards, n * shards, &shared, j == 0);
  g_free (sims);
  gboolean complete = FALSE;
  for (guint k = 0; k <= o->preemptions; k++)
    {
      r->bound = k;
      for (guint j = 0; j < n; j++)
        part_start_bound (&parts[j], k);
      for (guint j = 1; j < n; j++)
        threads[j] = g_thread_new ("explore-bound", part_main, &parts[j]);
      explore_bound (&parts[0]);
      for (guint j = 1; j < n; j++)
        g_thread_join (threads[j]);
      count_bound (r, parts, n);
      gboolean cut = g_array_index (r->per_bound, FlExploreBoundCounts, k).cut_by_bound;
      /* the parts ran at once: their peaks add up, beside what the merge keeps */
      gsize peak = r->peak_bytes, parts_peak = 0;
      for (guint j = 0; j < n; j++)
        {
          parts_peak += parts[j].x.r->peak_bytes;
          fl_explorer_merge (x, &parts[j].x, r->outcome_keys);
        }
      r->peak_bytes = MAX (peak, parts_peak + x->outcomes.size * sizeof (guint64));
      /* the keys this bound added first reached here */
      guint16 bound = (guint16) k;
      while (r->outcome_bounds != NULL && r->outcome_bounds->len < r->outcome_keys->len)
        g_array_append_val (r->outcome_bounds, bound);
      if (r->stop != FL_EXPLORE_STOP_NONE || (r->findings->len > 0 && !o->all))
        break;
      /* one shard's part cut nothing: the others' may have */
      if (!cut && !sharded)
        {
          complete = TRUE;
          break;
        }
    }
  for (guint j = 0; j < n; j++)
    {
      if (j > 0)
        {
          r->replayed += parts[j].x.sim->replayed_steps;
          fl_sim_free (parts[j].x.sim);
        }
      g_free (parts[j].x.outcomes.keys);
      fl_explore_result_free (parts[j].x.r);
      g_array_unref (parts[j].stack);
      g_array_unref (parts[j].choices);
    }
  g_free (threads);
  g_free (parts);
  return complete;
}
