/* fl-explore-commute.c — the footprints checked against the simulation itself. Partial-order
 * reduction is only as sound as its dependence relation: two steps it calls independent must
 * give the same state in either order, and neither may enable or disable the other. This runs
 * random schedules and tries every adjacent pair it calls independent both ways. */
#include "fl-explore-private.h"

static guint
pick (guint64 on, guint64 *rng)
{
  guint n = (guint) __builtin_popcountll (on), k = (guint) (fl_xorshift64star (rng) % n);
  while (k--)
    on &= on - 1;
  return (guint) __builtin_ctzll (on);
}

/* Steps @b then @a from step @at (where @a then @b were taken) and compares the states. */
static gboolean
commutes (FlSim *sim, guint64 at, guint a, guint b, guint64 expected, FlFootprintSnapshot *snap,
          GString *why)
{
  FlFootprint fa, fb;
  if (!fl_sim_seek (sim, at))
    return TRUE;   /* nothing to say: the run cannot go back there */
  if (!fl_sim_cpu_can_step (sim, b))
    {
      g_string_append_printf (why, "step %" G_GUINT64_FORMAT ": cpu%u could step only after "
                              "cpu%u's step, which its footprint does not touch\n", at + 2, b, a);
      return FALSE;
    }
  fl_explore_step (sim, b, &fb, snap);
  if (!fl_sim_cpu_can_step (sim, a))
    {
      g_string_append_printf (why, "step %" G_GUINT64_FORMAT ": cpu%u's step disables cpu%u's, "
                              "which its footprint does not touch\n", at + 1, b, a);
      return FALSE;
    }
  fl_explore_step (sim, a, &fa, snap);
  guint64 got = fl_state_semantic_hash (fl_sim_get_state (sim), FL_STATE_COMMUTE);
  if (got != expected)
    {
      g_string_append_printf (why, "steps %" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT " (cpu%u, "
                              "cpu%u) give another state in the other order\n", at + 1, at + 2,
                              a, b);
      return FALSE;
    }
  return TRUE;
}

gint64
fl_explore_check_independence (const FlScenario *scenario, const FlConfig *config,
                               guint schedules, guint64 seed, guint64 *checked, GString *report,
                               GError **error)
{
  FlConfig explored = *config;
  explored.cost.hold = 0;
  g_autoptr (FlSim) sim = fl_sim_new (scenario, &explored, scenario->seed, error);
  if (sim == NULL)
    return -1;
  fl_sim_set_policy (sim, FL_SCHED_EXTERNAL);
  FlFootprintSnapshot snap = { 0 };
  FlFootprint prev_fp, fp;
  guint64 rng = seed * 0x9e3779b97f4a7c15ull + 1, bad = 0, pairs = 0;
  guint ncpus = MIN (explored.cpus, FL_EXPLORE_MAX_CPUS);
  FlExplorer x = { .sim = sim, .ncpus = ncpus };
  for (guint s = 0; s < schedules; s++)
    {
      fl_sim_seek (sim, 0);
      gint prev = -1;
      for (guint64 n = 0; explored.budget == 0 || n < explored.budget; n++)
        {
          guint64 on = fl_explorer_enabled (&x);
          if (on == 0)
            break;
          /* keep a CPU going now and then, as real schedules do, so that deep states come */
          guint c = prev >= 0 && (on >> prev & 1) && fl_xorshift64star (&rng) % 4 != 0
                    ? (guint) prev : pick (on, &rng);
          if (!fl_explore_step (sim, c, &fp, &snap))
            break;
          if (prev >= 0 && (guint) prev != c && !fl_footprint_conflict (&prev_fp, &fp))
            {
              pairs++;
              guint64 expected = fl_state_semantic_hash (fl_sim_get_state (sim),
                                                         FL_STATE_COMMUTE);
              if (!commutes (sim, n - 1, (guint) prev, c, expected, &snap, report))
                bad++;
              /* back onto the schedule as it was */
              fl_sim_seek (sim, n - 1);
              fl_explore_step (sim, (guint) prev, &prev_fp, &snap);
              fl_explore_step (sim, c, &fp, &snap);
            }
          prev_fp = fp;
          prev = (gint) c;
        }
    }
  fl_footprint_snapshot_clear (&snap);
  if (checked)
    *checked = pairs;
  return (gint64) bad;
}
