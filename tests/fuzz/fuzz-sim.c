/* Fuzz target: a parsed scenario run for a few thousand steps with the oracle after every
 * step, once under its own schedule and once under a random one seeded from the input, then
 * sought back to its middle (the checkpoints and the replay from them). */

#include "fl-sim.h"
#include "fuzz-harness.h"

/* Small enough that an input runs in milliseconds, large enough for a race to play out. */
#define FUZZ_SIM_BUDGET 3000u

static FlSim *
new_sim (const FlScenario *scenario, const FlConfig *config, FlSchedPolicy policy, guint64 seed)
{
  g_autoptr (GError) error = NULL;
  FlSim *sim = fl_sim_new (scenario, config, seed, &error);
  if (sim == NULL && error == NULL)
    fl_fuzz_fail ("fl_sim_new refused the scenario without saying why");
  if (sim != NULL)
    fl_sim_set_policy (sim, policy);
  return sim;
}

static void
run_once (const FlScenario *scenario, FlSchedPolicy policy, guint64 seed)
{
  FlConfig config = scenario->config;
  config.oracle = FL_ORACLE_EVERY_STEP;
  if (config.budget == 0 || config.budget > FUZZ_SIM_BUDGET)
    config.budget = FUZZ_SIM_BUDGET;

  g_autoptr (FlSim) sim = new_sim (scenario, &config, policy, seed);
  if (sim == NULL)
    return;
  fl_sim_run_in_budget (sim, 0);
  guint64 end = fl_sim_get_step (sim);
  if (end > config.budget)
    fl_fuzz_fail ("%" G_GUINT64_FORMAT " steps past a budget of %u", end, config.budget);
  if (!fl_sim_is_finished (sim) && fl_sim_get_stop_reason (sim) == FL_STOP_NONE)
    fl_fuzz_fail ("the run ended neither finished nor stopped, at step %" G_GUINT64_FORMAT, end);

  /* A seek must give the state a run that stopped there has (as tests/core/test-seek.c
   * checks for the built-in scenarios). A run of no steps has nowhere to seek to. */
  if (end == 0)
    return;
  guint64 middle = end / 2;
  if (!fl_sim_seek (sim, middle) || !fl_sim_seek (sim, end))
    fl_fuzz_fail ("cannot seek within the run's %" G_GUINT64_FORMAT " steps", end);
  fl_sim_seek (sim, middle);
  g_autoptr (FlSim) walker = new_sim (scenario, &config, policy, seed);
  if (walker == NULL)
    fl_fuzz_fail ("the same scenario and configuration are refused the second time");
  if (middle > 0)   /* 0 would mean "to the end" */
    fl_sim_run_in_budget (walker, middle);
  if (fl_sim_get_step (walker) != middle
      || fl_sim_get_state_hash (walker) != fl_sim_get_state_hash (sim))
    fl_fuzz_fail ("seeking to step %" G_GUINT64_FORMAT " gives another state than running to it",
                  middle);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (FlScenario) scenario = fl_fuzz_parse (data, size);
  if (scenario == NULL)
    return 0;

  run_once (scenario, FL_SCHED_SCRIPT, scenario->seed);
  run_once (scenario, FL_SCHED_RANDOM, fl_fuzz_input_hash (data, size));
  return 0;
}
