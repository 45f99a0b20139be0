/* fl-store-explore.c — an exploration into the store: the scenario it searched, how, the
 * verdict, and one replayable run per kind of finding, each linked back to it. */
#include "fl-store-explore.h"
#include "fl-store-record.h"

/* Whatever of the exploration was written before a failure goes again: a store never holds
 * half of one. Best effort: the failure that brought us here is the one reported. */
static void
forget (FlStore *store, gint64 exploration_id, GArray *run_ids)
{
  for (guint i = 0; i < run_ids->len; i++)
    fl_store_delete_run (store, g_array_index (run_ids, gint64, i), NULL);
  if (exploration_id > 0)
    fl_store_delete_exploration (store, exploration_id, NULL);
}

/**
 * fl_store_record_exploration:
 * @store: a writable store
 * @scenario: the scenario explored (its text as written is what the store keeps)
 * @options: how it was explored
 * @result: what the exploration found
 * @out_run_ids: (element-type gint64) (optional): the runs recorded, one per kind of finding
 *   in @result's order, are appended here
 * @error: set when recording fails; the store then holds no trace of the exploration
 *
 * Saves the scenario (once), an exploration row (configuration, bounds, verdict, counts,
 * time), and for each kind of finding its shortest schedule as a scenario of its own (the
 * text --save writes, named `ID-KIND`: the same counterexample found again is the same
 * scenario) with the run that replays it, linked to the exploration.
 * Each run is re-simulated first and must give its finding and events hash, so a recorded
 * counterexample always replays.
 *
 * Returns: the exploration's id, or -1.
 */
gint64
fl_store_record_exploration (FlStore *store, const FlScenario *scenario,
                             const FlExploreOptions *options, const FlExploreResult *result,
                             GArray *out_run_ids, GError **error)
{
  g_return_val_if_fail (store != NULL && scenario != NULL && options != NULL, -1);
  g_return_val_if_fail (result != NULL, -1);
  g_return_val_if_fail (error == NULL || *error == NULL, -1);

  g_autofree char *canonical = scenario->text ? NULL : fl_scenario_to_text (scenario);
  gint64 scenario_id = 0;
  if (!fl_store_save_scenario (store, scenario->id, scenario->title,
                               (const char *const *) scenario->tags,
                               scenario->text ? scenario->text : canonical, &scenario_id, error))
    return -1;
  g_autofree char *config = fl_config_describe (&result->config);
  g_autofree char *bounds = fl_explore_options_describe (options);
  FlStoredExploration row = {
    .scenario_id = scenario_id, .config = config, .bounds = bounds,
    .verdict = (char *) fl_explore_verdict_name (result->verdict),
    .stopped_by = (char *) fl_explore_stop_name (result->stop),
    .bound = result->bound, .schedules = result->schedules, .executions = result->executions,
    .outcomes = result->outcomes, .steps = result->steps, .findings = result->findings->len,
    .seconds = result->seconds,
  };
  gint64 exploration_id = 0;
  if (!fl_store_add_exploration (store, &row, &exploration_id, error))
    return -1;

  g_autoptr (GArray) run_ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint i = 0; i < result->findings->len; i++)
    {
      const FlExploreFinding *f = g_ptr_array_index (result->findings, i);
      g_autofree char *text = fl_explore_counterexample_text (scenario, &result->config, f);
      g_autofree char *name = g_strdup_printf ("%s-%s", scenario->id,
                                               fl_finding_kind_name (f->kind));
      g_autoptr (FlSim) sim = fl_explore_replay (text, name, f, error);
      gint64 run_id = sim ? fl_store_record_found (store, sim, !fl_sim_is_finished (sim),
                                                   exploration_id, error) : -1;
      if (run_id < 0)
        {
          forget (store, exploration_id, run_ids);
          return -1;
        }
      g_array_append_val (run_ids, run_id);
    }
  if (out_run_ids != NULL)
    g_array_append_vals (out_run_ids, run_ids->data, run_ids->len);
  return exploration_id;
}
