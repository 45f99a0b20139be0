/* fl-cursor.c — the state of a run at one step.
 *
 * A cursor keeps a simulation of its own that only replays (fl_sim_new_replayer): it reads
 * the run's record (events, checkpoints) and never writes it, because replaying records
 * nothing. A seek restores the run's nearest checkpoint into the cursor's state and re-steps
 * the recorded choices up to the step, as a seek of the simulation that recorded the run
 * does, so the state is the one the run had there, bit for bit; at the run's end, the state
 * it ended in (the end's checks included). Const getters only read the
 * cursor's state (the step functions the CPU view asks, such as whether a CPU can step,
 * change nothing). */
#include "fl-cursor.h"
#include "fl-run-private.h"
#include "fl-sim-private.h"

struct _FlCursor {
  FlRun   *run;
  FlSim   *sim;       /* a replayer of run->rec */
  gboolean at_end;    /* its state is the run's end state (FlRun.end_block) */
};

/**
 * fl_cursor_new:
 * @run: a run (a reference is taken)
 *
 * Returns: (transfer full): a cursor at step 0 of @run
 */
FlCursor *
fl_cursor_new (const FlRun *run)
{
  g_return_val_if_fail (run != NULL, NULL);
  FlCursor *cursor = g_new0 (FlCursor, 1);
  cursor->run = fl_run_ref (run);
  cursor->sim = fl_sim_new_replayer (cursor->run->rec, &run->config, run->policy, run->stop);
  if (run->total_steps == 0)
    fl_cursor_seek (cursor, 0);   /* step 0 is the end */
  return cursor;
}

/**
 * fl_cursor_copy:
 * @cursor: a cursor
 *
 * Returns: (transfer full): a cursor on the same run at the same step, which moves on its own
 */
FlCursor *
fl_cursor_copy (const FlCursor *cursor)
{
  g_return_val_if_fail (cursor != NULL, NULL);
  FlCursor *copy = g_new0 (FlCursor, 1);
  copy->run = fl_run_ref (cursor->run);
  copy->sim = fl_sim_copy_replayer (cursor->sim);
  copy->at_end = cursor->at_end;
  return copy;
}

void
fl_cursor_free (FlCursor *cursor)
{
  if (cursor == NULL)
    return;
  fl_sim_free (cursor->sim);
  fl_run_unref (cursor->run);
  g_free (cursor);
}

/**
 * fl_cursor_seek:
 * @cursor: a cursor
 * @step: the step to go to, at most fl_run_get_total_steps()
 *
 * At the run's last step the state is the one the run ended in: what the end's checks
 * found (a deadlock, its CPUs stuck) shows there, as it did when the run was made.
 *
 * Returns: %FALSE when @step lies beyond the run (the cursor stays where it was)
 */
gboolean
fl_cursor_seek (FlCursor *cursor, guint64 step)
{
  g_return_val_if_fail (cursor != NULL, FALSE);
  const FlRun *run = cursor->run;
  if (step == run->total_steps)
    {
      if (!cursor->at_end)
        fl_state_restore (&cursor->sim->st, &run->end_sizes, run->end_block);
      cursor->sim->replaying = FALSE;
      cursor->at_end = TRUE;
      return TRUE;
    }
  if (step > run->total_steps)
    return FALSE;
  cursor->at_end = FALSE;
  return fl_sim_seek (cursor->sim, step);
}

/**
 * fl_cursor_get_run:
 * @cursor: a cursor
 *
 * Returns: (transfer none): the run it moves over
 */
const FlRun *
fl_cursor_get_run (const FlCursor *cursor)
{
  g_return_val_if_fail (cursor != NULL, NULL);
  return cursor->run;
}

guint64
fl_cursor_get_step (const FlCursor *cursor)
{
  g_return_val_if_fail (cursor != NULL, 0);
  return fl_sim_get_step (cursor->sim);
}

guint64
fl_cursor_get_total_steps (const FlCursor *cursor)
{
  g_return_val_if_fail (cursor != NULL, 0);
  return cursor->run->total_steps;
}

/**
 * fl_cursor_get_state:
 * @cursor: a cursor
 *
 * Returns: (transfer none): the machine's state at the cursor's step, valid until it moves
 */
const FlState *
fl_cursor_get_state (const FlCursor *cursor)
{
  g_return_val_if_fail (cursor != NULL, NULL);
  return fl_sim_get_state (cursor->sim);
}

/**
 * fl_cursor_get_state_hash:
 * @cursor: a cursor
 *
 * Returns: the hash of the state at its step: equal to that of any simulation of the same
 *   run at the same step
 */
guint64
fl_cursor_get_state_hash (const FlCursor *cursor)
{
  g_return_val_if_fail (cursor != NULL, 0);
  return fl_sim_get_state_hash (cursor->sim);
}

/**
 * fl_cursor_get_counters:
 * @cursor: a cursor
 * @counters: (out caller-allocates): the counters as they stand at its step
 */
void
fl_cursor_get_counters (const FlCursor *cursor, FlCounters *counters)
{
  g_return_if_fail (cursor != NULL && counters != NULL);
  fl_sim_get_counters (cursor->sim, counters);
}

/**
 * fl_cursor_get_cpu_view:
 * @cursor: a cursor
 * @cpu: one of the machine's CPUs
 * @out: (out caller-allocates): what @cpu is doing at the cursor's step (fl-cpu-view.h)
 */
void
fl_cursor_get_cpu_view (const FlCursor *cursor, guint cpu, FlCpuView *out)
{
  g_return_if_fail (cursor != NULL && out != NULL);
  fl_sim_get_cpu_view (cursor->sim, cpu, out);
}

/**
 * fl_cursor_cpu_can_step:
 * @cursor: a cursor
 * @cpu: a CPU
 *
 * Returns: whether @cpu could take the next step by hand (fl_cursor_branch())
 */
gboolean
fl_cursor_cpu_can_step (const FlCursor *cursor, guint cpu)
{
  g_return_val_if_fail (cursor != NULL, FALSE);
  return fl_sim_cpu_can_step (cursor->sim, cpu);
}

/**
 * fl_cursor_line_name:
 * @cursor: a cursor
 * @line: a cache-line id
 * @buf: room for the name of object lines
 * @size: size of @buf
 *
 * Returns: what the line holds at the cursor's step, as fl_sim_line_name()
 */
const char *
fl_cursor_line_name (const FlCursor *cursor, guint line, char *buf, gsize size)
{
  g_return_val_if_fail (cursor != NULL, "");
  return fl_sim_line_name (cursor->sim, line, buf, size);
}

/**
 * fl_cursor_describe_event:
 * @cursor: a cursor
 * @event: an event of its run
 *
 * Returns: (transfer full): the event in words, as fl_sim_describe_event()
 */
char *
fl_cursor_describe_event (const FlCursor *cursor, const FlEvent *event)
{
  g_return_val_if_fail (cursor != NULL && event != NULL, NULL);
  return fl_sim_describe_event (cursor->sim, event);
}

/**
 * fl_cursor_branch:
 * @cursor: a cursor
 * @cpu: the CPU to step by hand
 *
 * A new branch of the run: a simulation that stands at the cursor's step with the run's
 * past, has taken one step of @cpu instead of the recorded one, and records on from there.
 * Run it as far as it goes and finish it (fl_run_new_from_sim()) for the new run; the
 * cursor's run stays as it was.
 *
 * Returns: (transfer full) (nullable): the simulation, or %NULL when @cpu cannot step here
 */
FlSim *
fl_cursor_branch (const FlCursor *cursor, guint cpu)
{
  g_return_val_if_fail (cursor != NULL, NULL);
  if (!fl_sim_cpu_can_step (cursor->sim, cpu))
    return NULL;
  FlSim *sim = fl_sim_new_branch (cursor->sim, cursor->run->checkpoint_every);
  if (!fl_sim_step_cpu (sim, cpu))
    g_clear_pointer (&sim, fl_sim_free);
  return sim;
}
