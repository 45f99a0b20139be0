#pragma once

/* What the painter tests share: the painters draw a run at a cursor's step, and the tests
 * step a simulation of their own; this is the run it has recorded so far (a copy: it steps
 * on) at the step it stands at. */

#include "fl-cursor.h"

static inline FlCursor *
fl_test_cursor_of (FlSim *sim)
{
  g_autoptr (FlRun) run = fl_run_new_snapshot (sim);
  FlCursor *cursor = fl_cursor_new (run);
  g_assert_true (fl_cursor_seek (cursor, fl_sim_get_step (sim)));
  return cursor;
}

/* fl_test_cursor_of(), kept until the next call: for a painter's argument in an expression
 * (each call snapshots the simulation as it stands then). */
static inline const FlCursor *
fl_test_cursor (FlSim *sim)
{
  static FlCursor *held;
  g_clear_pointer (&held, fl_cursor_free);
  held = fl_test_cursor_of (sim);
  return held;
}
