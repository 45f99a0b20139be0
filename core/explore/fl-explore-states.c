/* fl-explore-states.c — every interleaving by a search that remembers the states it has
 * seen: depth first, every CPU that can step tried at every state, a state already seen
 * (with the kinds of finding met on the way) not explored again. What follows a state
 * depends on the state alone, so this reaches every outcome the full enumeration does; it
 * runs in the number of distinct states, not of interleavings.
 *
 * "The same state" is the outcome view of fl-semantic-hash.c: besides time, it leaves out
 * which caches hold which lines. The explorer runs without the hold and without the
 * arbitration (both follow time), and then where a line is decides only what an access
 * costs, never what a step reads, writes or can do next: the one caller that asks
 * (fl_touch()'s answer in the xadd trylock) uses it where the count it compares says the
 * same. So two states that differ only there have the same futures, up to time, and one is
 * explored for both: from a third to a half of the states of the 2-CPU races, and what lets
 * the 3-CPU built-ins finish. The tests check that both matchings reach the same outcomes
 * (FlExploreOptions.match_lines).
 *
 * Threads (options->jobs). Every thread runs the same depth-first search on a simulation of
 * its own, and all of them share the table of states seen: whichever reaches a state first
 * explores it, the others count an arrival at one explored. So each state is still explored
 * once, every CPU tried from it, and what the search counts is what one thread counts: the
 * states, the schedules (the ends, each a state), the outcomes, the arrivals at a state
 * explored, the steps (one per CPU tried from each state). Only the longest schedule run
 * (the path by which a state was first reached) and the steps replayed depend on which
 * thread came first. A thread with nothing left takes a step another thread has not tried
 * yet, the one nearest that thread's start (the largest part of the tree left), which the
 * other gives away when it sees somebody waiting; it gets there by replaying the steps
 * before it. A counterexample, though, is the path that reached its state first, which
 * threads would make a matter of timing: when the threads meet a finding they stop, and
 * one thread searches again from the start, so the schedule reported is the one a single
 * thread finds. */
#include "fl-explore-private.h"

#include <string.h>

typedef struct {
  guint64 left;         /* CPUs still to try from this state */
} Frame;

/* A step one thread gives to another: from the state @choices lead to, step @cpu. */
typedef struct {
  GArray *choices;      /* guint8 */
  GArray *enabled;      /* guint64: who could step at each state on the way, that one too */
  guint8  cpu;
} Item;

/* What the threads share. The lock guards the items and the counts of threads; the flags
 * are read without it at every step. */
typedef struct {
  FlKeySet seen;
  guint64  max;
  GMutex   lock;
  GCond    changed;
  GQueue   items;       /* Item *, newest first */
  guint    threads, idle, parked;
  gboolean done;        /* every thread idle and no item left */
  gint     want;        /* threads waiting for an item (atomic) */
  gint     stop;        /* a thread stopped: a finding, a full table, a limit (atomic) */
  gint     grow;        /* the table is half full: every thread waits while one grows it */
  gint     found;       /* a thread's schedule ended in a finding (atomic) */
} Shared;

typedef struct {
  FlExplorer *x;
  Shared     *sh;
  GArray     *stack;    /* Frame, one per depth from @base */
  GArray     *choices;  /* guint8, from depth 0 */
  GArray     *enabled;  /* guint64, from depth 0 */
  GPtrArray  *journals; /* one per depth: going back by journals, see back_to() */
  GArray     *points;   /* FlHashPoint, one per depth */
  guint       base;     /* the depth of the state this thread's search started from */
  FlStateView match;
  gboolean    fresh;    /* at a state just reached, not yet looked at */
  FlExplorer  own;      /* with threads: this thread's explorer, its counts its own */
  FlExplorer *main;     /* with threads: the caller's */
  FlExploreOptions options;
  GThread    *thread;
} Search;

static guint64
kinds_of (GPtrArray *findings)
{
  guint64 kinds = 0;
  for (guint i = 0; i < findings->len; i++)
    kinds |= G_GUINT64_CONSTANT (1) << ((const FlFinding *) g_ptr_array_index (findings, i))->kind;
  return kinds;
}

static guint
count_preemptions (const GArray *choices, const GArray *enabled)
{
  guint pre = 0;
  for (guint i = 1; i < choices->len; i++)
    pre += fl_explore_preempts (g_array_index (choices, guint8, i - 1),
                                g_array_index (choices, guint8, i),
                                g_array_index (enabled, guint64, i));
  return pre;
}

/* The journal of the step from depth @d, made when first needed. */
static FlStateJournal *
journal_at (GPtrArray *journals, guint d)
{
  while (journals->len <= d)
    g_ptr_array_add (journals, fl_state_journal_new ());
  return g_ptr_array_index (journals, d);
}

/* Back from the current depth to @at: the journaled steps taken back; a seek when one
 * cannot be (it grew an array). A seek leaves the journals of the steps before good: the
 * state it gives is the one they were taken from, byte for byte, and the slots' versions it
 * gives go with their bytes as the journals' do. The hash's copy goes back with it to the
 * point taken after hashing that state (@points, one per depth). */
static void
back_to (FlSim *sim, GPtrArray *journals, const GArray *points, guint at)
{
  guint depth = (guint) fl_sim_get_step (sim);
  guint n = depth - at;
  if (fl_sim_undo_steps (sim, (FlStateJournal *const *) journals->pdata + at, n) < n)
    fl_sim_seek (sim, at);
  fl_state_semantic_hash_back (fl_sim_get_state (sim), &g_array_index (points, FlHashPoint, at));
}

/* ---- the threads meet ------------------------------------------------------------------ */

/* More than one thread: a finding stops them (see the top of the file). */
static gboolean
threaded (const Shared *sh)
{
  return sh->threads > 1;
}

static void
stop_all (Shared *sh)
{
  g_mutex_lock (&sh->lock);
  g_atomic_int_set (&sh->stop, 1);
  g_cond_broadcast (&sh->changed);
  g_mutex_unlock (&sh->lock);
}

/* Under the lock: when every thread waits (for an item, or for the table), the table grows. */
static void
grow_if_all_wait (Shared *sh)
{
  if (g_atomic_int_get (&sh->grow) && sh->parked + sh->idle == sh->threads)
    {
      fl_key_set_grow (&sh->seen);
      g_atomic_int_set (&sh->grow, 0);
      g_cond_broadcast (&sh->changed);
    }
}

/* The table is half full: wait until it has grown (the last thread to wait grows it). */
static void
park (Shared *sh)
{
  g_mutex_lock (&sh->lock);
  sh->parked++;
  grow_if_all_wait (sh);
  while (g_atomic_int_get (&sh->grow) && !g_atomic_int_get (&sh->stop))
    g_cond_wait (&sh->changed, &sh->lock);
  sh->parked--;
  g_mutex_unlock (&sh->lock);
}

static void
item_free (Item *it)
{
  g_array_unref (it->choices);
  g_array_unref (it->enabled);
  g_free (it);
}

/* The next item, waiting for one; NULL when there is none left for anybody, or a stop. */
static Item *
take_item (Shared *sh)
{
  Item *it = NULL;
  g_mutex_lock (&sh->lock);
  sh->idle++;
  g_atomic_int_inc (&sh->want);
  for (;;)
    {
      if (g_atomic_int_get (&sh->stop) || sh->done)
        break;
      if ((it = g_queue_pop_head (&sh->items)) != NULL)
        break;
      grow_if_all_wait (sh);
      if (sh->idle == sh->threads && !g_atomic_int_get (&sh->grow))
        {
          sh->done = TRUE;
          g_cond_broadcast (&sh->changed);
          break;
        }
      g_cond_wait (&sh->changed, &sh->lock);
    }
  if (it != NULL)
    {
      sh->idle--;
      g_atomic_int_add (&sh->want, -1);
    }
  g_mutex_unlock (&sh->lock);
  return it;
}

/* Somebody waits: the untried step nearest this thread's start goes to them. */
static void
give_away (Search *s)
{
  Shared *sh = s->sh;
  guint i = 0;
  while (i < s->stack->len && g_array_index (s->stack, Frame, i).left == 0)
    i++;
  if (i == s->stack->len)
    return;
  g_mutex_lock (&sh->lock);
  if ((guint) g_atomic_int_get (&sh->want) > sh->items.length)
    {
      Frame *f = &g_array_index (s->stack, Frame, i);
      guint depth = s->base + i;
      Item *it = g_new0 (Item, 1);
      it->cpu = (guint8) __builtin_ctzll (f->left);
      f->left &= f->left - 1;
      it->choices = g_array_sized_new (FALSE, FALSE, sizeof (guint8), depth);
      g_array_append_vals (it->choices, s->choices->data, depth);
      it->enabled = g_array_sized_new (FALSE, FALSE, sizeof (guint64), depth + 1);
      g_array_append_vals (it->enabled, s->enabled->data, depth + 1);
      g_queue_push_head (&sh->items, it);
      /* all: a thread waiting for the table to grow must not take the wake-up */
      g_cond_broadcast (&sh->changed);
    }
  g_mutex_unlock (&sh->lock);
}

/* To the state @it leaves from, by the steps its run shares with ours and then its own, and
 * its step: the start of this thread's search. FALSE when the machine refused the step. */
static gboolean
start_item (Search *s, const Item *it)
{
  FlSim *sim = s->x->sim;
  FlExploreResult *r = s->x->r;
  guint d = it->choices->len, now = MIN ((guint) fl_sim_get_step (sim), s->choices->len);
  guint common = 0;
  while (common < MIN (now, d)
         && g_array_index (s->choices, guint8, common) == g_array_index (it->choices, guint8, common))
    common++;
  fl_sim_end_journal (sim);
  fl_sim_seek (sim, common);
  for (guint i = common; i < d; i++)
    {
      fl_sim_step_cpu (sim, g_array_index (it->choices, guint8, i));
      r->replayed++;
    }
  fl_explore_resize (s->choices, 0);
  g_array_append_vals (s->choices, it->choices->data, d);
  fl_explore_resize (s->enabled, 0);
  g_array_append_vals (s->enabled, it->enabled->data, d + 1);
  fl_explore_resize (s->stack, 0);
  if (!fl_sim_step_cpu (sim, it->cpu))
    {
      r->cut_unbounded++;
      return FALSE;
    }
  r->steps++;
  g_array_append_val (s->choices, it->cpu);
  s->base = d + 1;
  return TRUE;
}

/* ---- one thread's search ---------------------------------------------------------------- */

/* The state just reached: kept, and explored unless seen; FALSE to stop. */
static gboolean
look_at_fresh (Search *s)
{
  FlExplorer *x = s->x;
  FlExploreResult *r = x->r;
  Shared *sh = s->sh;
  FlSim *sim = x->sim;
  guint depth = s->choices->len;
  guint64 kinds = kinds_of (fl_sim_get_findings (sim));
  const FlState *st = fl_sim_get_state (sim);
  guint64 state = fl_state_semantic_hash (st, s->match);
  fl_explore_resize (s->points, depth + 1);
  g_array_index (s->points, FlHashPoint, depth) = fl_state_semantic_hash_point (st);
  if (g_atomic_int_get (&sh->grow))
    park (sh);
  int added = fl_key_set_add_shared (&sh->seen, fl_explore_mix (state ^ fl_explore_mix (kinds)),
                                     sh->max, &sh->grow);
  if (added < 0)
    {
      r->stop = FL_EXPLORE_STOP_STATES;
      return FALSE;
    }
  if (!threaded (sh))
    r->states = sh->seen.used;
  guint64 on = added ? fl_explorer_enabled (x) : 0;
  fl_explore_resize (s->enabled, depth + 1);
  g_array_index (s->enabled, guint64, depth) = on;
  if (!added)
    r->states_pruned++;
  else if (on == 0 || (x->budget && depth >= x->budget))
    {
      /* an end: nobody can step (finishing runs the checks of the end), or the step budget */
      gboolean cut = on != 0;
      if (!cut)
        fl_sim_step (sim);
      r->executions++;
      r->cut_unbounded += cut;
      fl_explorer_leaf (x, (const guint8 *) s->choices->data, depth,
                        count_preemptions (s->choices, s->enabled));
      if (threaded (sh) && r->findings->len > 0)
        {
          g_atomic_int_set (&sh->found, 1);
          return FALSE;
        }
    }
  else
    {
      Frame f = { on };
      g_array_append_val (s->stack, f);
    }
  return TRUE;
}

static void
search (Search *s)
{
  FlExplorer *x = s->x;
  FlExploreResult *r = x->r;
  Shared *sh = s->sh;
  FlSim *sim = x->sim;
  for (;;)
    {
      if (fl_explorer_out_of_budget (x) || g_atomic_int_get (&sh->stop))
        break;
      if (s->fresh)
        {
          s->fresh = FALSE;
          if (!look_at_fresh (s))
            break;
        }
      /* the deepest state with a CPU left to try */
      while (s->stack->len > 0 && g_array_index (s->stack, Frame, s->stack->len - 1).left == 0)
        fl_explore_resize (s->stack, s->stack->len - 1);
      if (s->stack->len == 0)
        {
          Item *it = threaded (sh) ? take_item (sh) : NULL;
          if (it == NULL)
            return;
          s->fresh = start_item (s, it);
          item_free (it);
          continue;
        }
      if (threaded (sh) && g_atomic_int_get (&sh->want) > 0)
        give_away (s);
      Frame *top = &g_array_index (s->stack, Frame, s->stack->len - 1);
      if (top->left == 0)
        continue;         /* given away */
      guint at = s->base + s->stack->len - 1;
      guint c = (guint) __builtin_ctzll (top->left);
      top->left &= top->left - 1;
      fl_explore_resize (s->choices, at);
      if (fl_sim_get_step (sim) != at)
        back_to (sim, s->journals, s->points, at);
      if (!fl_sim_step_cpu_journaled (sim, c, journal_at (s->journals, at)))
        {
          r->cut_unbounded++;     /* a limit of the machine refused the step */
          continue;
        }
      r->steps++;
      guint8 cpu = (guint8) c;
      g_array_append_val (s->choices, cpu);
      s->fresh = TRUE;
    }
  stop_all (sh);
}

static gpointer
search_thread (gpointer data)
{
  search (data);
  return NULL;
}

static void
search_init (Search *s, FlExplorer *x, Shared *sh, FlStateView match)
{
  s->x = x;
  s->sh = sh;
  s->match = match;
  s->stack = g_array_new (FALSE, FALSE, sizeof (Frame));
  s->choices = g_array_new (FALSE, FALSE, sizeof (guint8));
  s->enabled = g_array_new (FALSE, FALSE, sizeof (guint64));
  /* going back is by journals, one per depth: a seek only when a step grew an array, which
   * copies of the state serve. Such seeks are rare (every built-in, preemptions 0: none in
   * most, 31 steps replayed in the 12.9 M steps of spf-vs-mprotect-munmap's search), so a
   * copy every 256 steps: 3% fewer instructions in all than every 32 */
  s->journals = g_ptr_array_new_with_free_func ((GDestroyNotify) fl_state_journal_free);
  s->points = g_array_new (FALSE, FALSE, sizeof (FlHashPoint));
  const FlState *st = fl_sim_get_state (x->sim);
  fl_state_semantic_hash_keep (st, match);
  fl_state_semantic_hash_log (st, TRUE);
  fl_sim_fix_checkpoints (x->sim, 256);
  fl_sim_seek (x->sim, 0);
}

/* The search's own memory at its end: the stack, the path and the journals. */
static gsize
search_bytes (const Search *s)
{
  gsize bytes = s->stack->len * sizeof (Frame) + s->choices->len * 9;
  for (guint i = 0; i < s->journals->len; i++)
    bytes += fl_state_journal_bytes (g_ptr_array_index (s->journals, i));
  return bytes;
}

static void
search_clear (Search *s)
{
  FlSim *sim = s->x->sim;
  fl_sim_end_journal (sim);
  fl_state_semantic_hash_log (fl_sim_get_state (sim), FALSE);
  fl_state_semantic_hash_keep (fl_sim_get_state (sim), FL_STATE_COMMUTE);
  g_ptr_array_unref (s->journals);
  g_array_unref (s->points);
  g_array_unref (s->stack);
  g_array_unref (s->choices);
  g_array_unref (s->enabled);
}

static void
shared_init (Shared *sh, FlExplorer *x, guint threads)
{
  memset (sh, 0, sizeof *sh);
  sh->max = x->r->max_states;
  fl_key_set_grow (&sh->seen);
  g_mutex_init (&sh->lock);
  g_cond_init (&sh->changed);
  g_queue_init (&sh->items);
  sh->threads = threads;
}

static void
shared_clear (Shared *sh)
{
  g_queue_clear_full (&sh->items, (GDestroyNotify) item_free);
  g_mutex_clear (&sh->lock);
  g_cond_clear (&sh->changed);
  g_free (sh->seen.keys);
}

/* The first thread's progress: the caller's counts, with the states and schedules of all. */
static void
threads_progress (const FlExploreResult *own, gpointer data)
{
  Search *s = data;
  fl_explorer_progress_of_threads (s->main, own, s->own.shared_schedules,
                                   __atomic_load_n (&s->sh->seen.used, __ATOMIC_RELAXED));
}

/* The search on @n threads (the caller's simulation and @sims): TRUE when it went to its end
 * or a limit without meeting a finding, its counts added to the caller's. */
static gboolean
search_threads (FlExplorer *x, FlSim **sims, guint n, FlStateView match)
{
  FlExploreResult *r = x->r;
  Shared sh;
  shared_init (&sh, x, n);
  guint64 schedules = r->schedules;
  Search *s = g_new0 (Search, n);
  for (guint j = 0; j < n; j++)
    {
      s[j].own = *x;
      s[j].options = *x->o;
      s[j].options.progress = NULL;
      if (j == 0 && x->o->progress != NULL)
        {
          s[j].options.progress = threads_progress;
          s[j].options.progress_data = &s[j];
        }
      s[j].main = x;
      s[j].own.o = &s[j].options;
      s[j].own.sim = j == 0 ? x->sim : sims[j];
      s[j].own.outcomes = (FlKeySet) { 0 };
      s[j].own.shared_schedules = &schedules;
      s[j].own.r = g_new0 (FlExploreResult, 1);
      s[j].own.r->findings = g_ptr_array_new ();
      s[j].own.r->config = r->config;
      search_init (&s[j], &s[j].own, &sh, match);
    }
  s[0].fresh = TRUE;
  for (guint j = 1; j < n; j++)
    s[j].thread = g_thread_new ("explore-states", search_thread, &s[j]);
  search (&s[0]);
  for (guint j = 1; j < n; j++)
    g_thread_join (s[j].thread);
  gboolean found = g_atomic_int_get (&sh.found);
  gsize own = sh.seen.size * sizeof (guint64), peak = r->peak_bytes;
  for (guint j = 0; j < n; j++)
    {
      FlExploreResult *w = s[j].own.r;
      own += search_bytes (&s[j]) + w->peak_bytes;
      if (!found)
        {
          r->states_pruned += w->states_pruned;
          r->cut_unbounded += w->cut_unbounded;
          r->replayed += w->replayed;
          fl_explorer_merge (x, &s[j].own, NULL);
        }
      search_clear (&s[j]);
      if (j > 0)
        {
          r->replayed += s[j].own.sim->replayed_steps;
          fl_sim_free (s[j].own.sim);
        }
      g_free (s[j].own.outcomes.keys);
      fl_explore_result_free (w);
    }
  if (!found)
    {
      r->states = sh.seen.used;
      /* the merges added up the threads' peaks: what they held at once is counted here */
      r->peak_bytes = MAX (peak, own);
    }
  shared_clear (&sh);
  g_free (s);
  return !found;
}

void
fl_explore_states (FlExplorer *x, const FlScenario *scenario)
{
  FlExploreResult *r = x->r;
  r->max_states = x->o->max_states ? MIN (x->o->max_states, FL_EXPLORE_MAX_STATES_LIMIT)
                                    : FL_EXPLORE_MAX_STATES;
  FlStateView match = x->o->match_lines ? FL_STATE_COMMUTE : FL_STATE_OUTCOME;
  guint jobs = CLAMP (x->o->jobs, 1, FL_EXPLORE_MAX_JOBS);
  if (jobs > 1 && r->findings->len == 0)
    {
      /* a simulation per thread; another fails only when memory does: fewer threads then */
      FlSim **sims = g_new0 (FlSim *, jobs);
      guint n = 1;
      while (n < jobs && (sims[n] = fl_explorer_new_sim (scenario, &r->config, NULL)) != NULL)
        n++;
      gboolean done = search_threads (x, sims, n, match);
      g_free (sims);
      if (done)
        return;
      /* the threads met a finding: one thread again, for the schedule one thread finds */
    }
  Shared sh;
  shared_init (&sh, x, 1);
  Search s = { 0 };
  search_init (&s, x, &sh, match);
  s.fresh = TRUE;
  search (&s);
  r->states = sh.seen.used;
  r->peak_bytes = MAX (r->peak_bytes, sh.seen.size * sizeof (guint64) + search_bytes (&s));
  search_clear (&s);
  shared_clear (&sh);
}
