/* fl-sim-limits.c — where a run stops before its end: the step budget the drivers honour
 * (faultline-cli run, the window), and the limits of the machine every run honours
 * (docs/scenario-format.md, "Limits"). A stop is checked before a step, never inside one,
 * so the state it leaves is a state the run really had. */
#include "fl-sim-internal.h"
#include "fl-sim-private.h"

/* Page frames one step can take from the zone: a refill of the per-CPU list (pcp->batch,
 * fl-page-alloc.c) or one page-cache page. */
#define PAGES_PER_STEP 32u

static gboolean
stop (FlSim *sim, FlStopReason reason, const char *why)
{
  g_free (sim->stop_message);
  sim->stop = reason;
  sim->stop_message = g_strdup_printf ("stopped at %" G_GUINT64_FORMAT " steps %s",
                                       sim->st.g->step, why);
  return FALSE;
}

void
fl_sim_clear_stop (FlSim *sim)
{
  sim->stop = FL_STOP_NONE;
  g_clear_pointer (&sim->stop_message, g_free);
}

/* One step allocates at most one VMA, one page table and PAGES_PER_STEP page frames, and
 * numbers itself in 32 bits (FlEvent.step): the run stops when the next step could need
 * more than is left. */
gboolean
fl_sim_room_for_step (FlSim *sim)
{
  const FlState *st = &sim->st;
  const FlGlobals *g = st->g;
  /* every step asks: the answer is almost always yes, so nothing is allocated (nor freed)
   * unless it is no */
  if (G_LIKELY (g->step < G_MAXUINT32 && g->vmas_used < FL_MAX_VMAS
                && g->tables_used < FL_MAX_TABLES && g->files_used < FL_MAX_FILES - 1
                && fl_zone_room (st) >= PAGES_PER_STEP))
    return TRUE;
  g_autofree char *why = NULL;
  if (g->step >= G_MAXUINT32)
    why = g_strdup_printf ("(the limit: a run has at most %u steps)", G_MAXUINT32);
  else if (g->vmas_used >= FL_MAX_VMAS)
    why = g_strdup_printf ("(the limit: at most %u VMAs at once)", FL_MAX_VMAS);
  else if (g->tables_used >= FL_MAX_TABLES)
    why = g_strdup_printf ("(the limit: at most %u page tables at once)", FL_MAX_TABLES);
  else if (g->files_used >= FL_MAX_FILES - 1)
    why = g_strdup_printf ("(the limit: at most %u files mapped at once)", FL_MAX_FILES - 1);
  else if (fl_zone_room (st) < PAGES_PER_STEP)
    why = g_strdup_printf ("(the limit: at most %u page frames)", FL_MAX_PAGES);
  if (why == NULL)
    return TRUE;
  return stop (sim, FL_STOP_LIMIT, why);
}

/**
 * fl_sim_step_in_budget:
 * @sim: a simulation
 *
 * fl_sim_step() within the configuration's step budget (`budget`, 0 for none): at the
 * budget the run stops with "stopped at N steps (budget)". What a run someone started
 * takes; a replay of a recorded run takes as many steps as it had instead.
 *
 * Returns: %FALSE when the run is over or stopped.
 */
gboolean
fl_sim_step_in_budget (FlSim *sim)
{
  g_return_val_if_fail (sim != NULL, FALSE);
  guint64 budget = sim->config.budget;
  if (!sim->replaying && sim->stop == FL_STOP_NONE && !sim->st.g->finished
      && budget != 0 && sim->st.g->step >= budget)
    return stop (sim, FL_STOP_BUDGET, "(budget)");
  return fl_sim_step (sim);
}

/**
 * fl_sim_interrupt:
 * @sim: a simulation that has not ended
 *
 * Ends the run where it stands, "stopped at N steps (interrupted)": a long run whose loading
 * someone cancelled is kept as far as it got.
 */
void
fl_sim_interrupt (FlSim *sim)
{
  g_return_if_fail (sim != NULL);
  if (sim->stop == FL_STOP_NONE && !sim->st.g->finished && !sim->replaying)
    stop (sim, FL_STOP_INTERRUPTED, "(interrupted)");
}

/**
 * fl_sim_get_stop_reason:
 * @sim: a simulation
 *
 * Returns: why the run stopped before its end, %FL_STOP_NONE when it did not.
 */
FlStopReason
fl_sim_get_stop_reason (FlSim *sim)
{
  g_return_val_if_fail (sim != NULL, FL_STOP_NONE);
  return sim->stop;
}

/**
 * fl_sim_get_stop_message:
 * @sim: a simulation
 *
 * Returns: (nullable): "stopped at N steps (budget)" or the limit the run reached; %NULL
 *   when it did not stop early.
 */
const char *
fl_sim_get_stop_message (FlSim *sim)
{
  g_return_val_if_fail (sim != NULL, NULL);
  return sim->stop_message;
}
