#pragma once

/* What the painter tests share: the painters draw a run at a cursor's step. A built-in's run
 * under one switch; and, for tests that step a simulation of their own, the run it has
 * recorded so far (a copy: it steps on) at the step it stands at. */

#include "fl-cursor.h"

/* A simulation of built-in `id` at step 0, with `key`=`value` when `key` is not NULL. */
static inline FlSim *
fl_test_sim_for (const char *id, const char *key, const char *value)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FlScenario) scenario = fl_scenario_load_builtin (id, &error);
  g_assert_no_error (error);
  FlConfig config = scenario->config;
  if (key)
    {
      g_assert_true (fl_config_set (&config, key, value, &error));
      g_assert_no_error (error);
    }
  FlSim *sim = fl_sim_new (scenario, &config, scenario->seed, &error);
  g_assert_no_error (error);
  return sim;
}

/* Built-in `id`'s run, with `key`=`value` when `key` is not NULL, to its end or `steps`. */
static inline FlRun *
fl_test_run_for (const char *id, const char *key, const char *value, guint64 steps)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FlScenario) scenario = fl_scenario_load_builtin (id, &error);
  g_assert_no_error (error);
  FlConfig config = scenario->config;
  if (key)
    g_assert_true (fl_config_set (&config, key, value, NULL));
  FlRun *run = fl_run_new (scenario, &config, scenario->seed, steps, &error);
  g_assert_no_error (error);
  return run;
}

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
