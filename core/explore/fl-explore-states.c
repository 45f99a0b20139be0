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
 * (FlExploreOptions.match_lines). */
#include "fl-explore-private.h"

typedef struct {
  guint64 left;         /* CPUs still to try from this state */
} Frame;

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

void
fl_explore_states (FlExplorer *x)
{
  FlSim *sim = x->sim;
  FlExploreResult *r = x->r;
  FlKeySet seen = { 0 };
  GArray *stack = g_array_new (FALSE, FALSE, sizeof (Frame));
  GArray *choices = g_array_new (FALSE, FALSE, sizeof (guint8));
  GArray *enabled = g_array_new (FALSE, FALSE, sizeof (guint64));
  /* going back is by journals, one per depth: a seek only when a step grew an array, which
   * copies of the state every 32 steps serve (every 16 or 64 cost more in all, measured) */
  GPtrArray *journals = g_ptr_array_new_with_free_func ((GDestroyNotify) fl_state_journal_free);
  GArray *points = g_array_new (FALSE, FALSE, sizeof (FlHashPoint));
  r->max_states = x->o->max_states ? MIN (x->o->max_states, FL_EXPLORE_MAX_STATES_LIMIT)
                                    : FL_EXPLORE_MAX_STATES;
  FlStateView match = x->o->match_lines ? FL_STATE_COMMUTE : FL_STATE_OUTCOME;
  fl_state_semantic_hash_keep (fl_sim_get_state (sim), match);
  fl_state_semantic_hash_log (fl_sim_get_state (sim), TRUE);
  fl_sim_fix_checkpoints (sim, 32);
  fl_sim_seek (sim, 0);
  gboolean fresh = TRUE;     /* at a state just reached, not yet looked at */
  while (!fl_explorer_out_of_budget (x))
    {
      guint depth = choices->len;
      if (fresh)
        {
          fresh = FALSE;
          GPtrArray *findings = fl_sim_get_findings (sim);
          guint64 kinds = kinds_of (findings);
          const FlState *st = fl_sim_get_state (sim);
          guint64 state = fl_state_semantic_hash (st, match);
          fl_explore_resize (points, depth + 1);
          g_array_index (points, FlHashPoint, depth) = fl_state_semantic_hash_point (st);
          int added = fl_key_set_add (&seen, fl_explore_mix (state ^ fl_explore_mix (kinds)),
                                      r->max_states);
          if (added < 0)
            {
              r->stop = FL_EXPLORE_STOP_STATES;
              break;
            }
          r->states = seen.used;
          guint64 on = added ? fl_explorer_enabled (x) : 0;
          fl_explore_resize (enabled, depth + 1);
          g_array_index (enabled, guint64, depth) = on;
          if (!added)
            r->states_pruned++;
          else if (on == 0 || (x->budget && depth >= x->budget))
            {
              /* an end: nobody can step (finishing runs the checks of the end), or the
               * step budget */
              gboolean cut = on != 0;
              if (!cut)
                fl_sim_step (sim);
              r->executions++;
              r->cut_unbounded += cut;
              fl_explorer_leaf (x, (const guint8 *) choices->data, depth,
                                count_preemptions (choices, enabled));
            }
          else
            {
              Frame f = { on };
              g_array_append_val (stack, f);
            }
        }
      /* the deepest state with a CPU left to try */
      while (stack->len > 0 && g_array_index (stack, Frame, stack->len - 1).left == 0)
        fl_explore_resize (stack, stack->len - 1);
      if (stack->len == 0)
        break;
      Frame *top = &g_array_index (stack, Frame, stack->len - 1);
      guint at = stack->len - 1;
      guint c = (guint) __builtin_ctzll (top->left);
      top->left &= top->left - 1;
      /* frames are pushed one per depth, so the frame's depth is its index */
      fl_explore_resize (choices, at);
      if (fl_sim_get_step (sim) != at)
        back_to (sim, journals, points, at);
      if (!fl_sim_step_cpu_journaled (sim, c, journal_at (journals, at)))
        {
          r->cut_unbounded++;     /* a limit of the machine refused the step */
          continue;
        }
      r->steps++;
      guint8 cpu = (guint8) c;
      g_array_append_val (choices, cpu);
      fresh = TRUE;
    }
  gsize journal_bytes = 0;
  for (guint i = 0; i < journals->len; i++)
    journal_bytes += fl_state_journal_bytes (g_ptr_array_index (journals, i));
  r->peak_bytes = MAX (r->peak_bytes, seen.size * sizeof (guint64)
                                      + stack->len * sizeof (Frame) + choices->len * 9
                                      + journal_bytes);
  fl_sim_end_journal (sim);
  fl_state_semantic_hash_log (fl_sim_get_state (sim), FALSE);
  fl_state_semantic_hash_keep (fl_sim_get_state (sim), FL_STATE_COMMUTE);
  g_ptr_array_unref (journals);
  g_array_unref (points);
  g_free (seen.keys);
  g_array_unref (stack);
  g_array_unref (choices);
  g_array_unref (enabled);
}
