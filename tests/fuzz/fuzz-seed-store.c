/* Writes the seed of the store fuzz target: a small store as Faultline writes one, with two
 * recorded runs (one with findings, one clean), a bookmark, a benchmark row and an
 * exploration with the run of its counterexample, so that mutations start from every table
 * holding rows. Built and run by the normal build. */

#include <stdio.h>
#include <glib/gstdio.h>
#include "fl-store.h"
#include "fl-store-record.h"
#include "fl-store-explore.h"

/* A built-in scenario run with one switch set (@key NULL: none) and recorded. */
static gint64
record (FlStore *store, const char *id, const char *key, const char *value, GError **error)
{
  g_autoptr (FlScenario) scenario = fl_scenario_load_builtin (id, error);
  if (scenario == NULL)
    return -1;
  FlConfig config = scenario->config;
  if (key != NULL && !fl_config_set (&config, key, value, error))
    return -1;
  g_autoptr (FlSim) sim = fl_sim_new (scenario, &config, scenario->seed, error);
  if (sim == NULL)
    return -1;
  fl_sim_set_policy (sim, FL_SCHED_SCRIPT);
  fl_sim_run_in_budget (sim, 0);
  return fl_store_record_sim (store, sim, FALSE, error);
}

/* spf-vs-munmap without its grace period explored up to bound 2: a found verdict and
 * one counterexample, in a few milliseconds. */
static gboolean
record_exploration (FlStore *store, GError **error)
{
  g_autoptr (FlScenario) scenario = fl_scenario_load_builtin ("spf-vs-munmap", error);
  if (scenario == NULL)
    return FALSE;
  FlConfig config = scenario->config;
  if (!fl_config_set (&config, "vma-free", "immediate", error))
    return FALSE;
  FlExploreOptions options = { .preemptions = 2, .reduction = FL_EXPLORE_REDUCTION_NONE };
  g_autoptr (FlExploreResult) result = fl_explore_run (scenario, &config, &options, error);
  return result != NULL
         && fl_store_record_exploration (store, scenario, &options, result, NULL, error) > 0;
}

int
main (int argc, char **argv)
{
  if (argc != 2)
    {
      fprintf (stderr, "usage: %s STORE\n", argv[0]);
      return 2;
    }
  const char *path = argv[1];
  /* a store left from an earlier build would grow by two runs each time */
  g_unlink (path);

  g_autoptr (GError) error = NULL;
  g_autoptr (FlStore) store = fl_store_open (path, FL_STORE_OPEN_CREATE, &error);
  gint64 run_id = -1, bookmark_id = 0;
  FlStoredBench row = { .workload = "multi-fault", .config = "fault-path=speculative",
                        .cpus = 2, .faults = 1000, .cycles = 123456, .faults_per_sec = 1e6,
                        .ratio = 1.5, .created = 1 };
  if (store == NULL
      || (run_id = record (store, "spf-vs-munmap", "vma-free", "immediate", &error)) < 0
      || record (store, "locked-anon-fault", NULL, NULL, &error) < 0
      || !fl_store_add_bookmark (store, run_id, 3, "the unmap", "seen by the fault",
                                 &bookmark_id, &error)
      || !fl_store_add_bench (store, &row, NULL, &error)
      || !record_exploration (store, &error))
    {
      fprintf (stderr, "%s: %s\n", path, error->message);
      return 1;
    }
  return 0;
}
