/* Tests of explorations in the store: an exploration recorded with the runs of its
 * counterexamples, each of which replays; nothing of a failed recording is left behind; the
 * rows' rules; and what deleting an exploration or its scenario keeps. Counts are compared
 * with the explorer's own result, never with literals. */
#include "fl-store-explore.h"
#include "fl-store-record.h"
#include "store-helpers.h"

static FlExploreResult *
explore (const FlScenario *scenario, const char *key, const char *value,
         const FlExploreOptions *options)
{
  g_autoptr (GError) error = NULL;
  FlConfig config = scenario->config;
  g_assert_true (fl_config_set (&config, key, value, &error));
  FlExploreResult *r = fl_explore_run (scenario, &config, options, &error);
  g_assert_no_error (error);
  return r;
}

static FlScenario *
builtin (const char *id)
{
  g_autoptr (GError) error = NULL;
  FlScenario *scenario = fl_scenario_load_builtin (id, &error);
  g_assert_no_error (error);
  return scenario;
}

static FlStore *
open_store (const char *path)
{
  g_autoptr (GError) error = NULL;
  FlStore *store = fl_store_open (path, FL_STORE_OPEN_CREATE, &error);
  g_assert_no_error (error);
  return store;
}

static void
test_record_found (FlStoreFixture *fx, gconstpointer data)
{
  g_autoptr (FlScenario) scenario = builtin ("spf-vs-munmap");
  FlExploreOptions options = { .preemptions = 2, .reduction = FL_EXPLORE_REDUCTION_NONE,
                               .all = TRUE };
  g_autoptr (FlExploreResult) r = explore (scenario, "vma-free", "immediate", &options);
  g_assert_cmpuint (r->findings->len, >=, 1);
  g_autoptr (FlStore) store = open_store (fx->db);
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) run_ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  gint64 id = fl_store_record_exploration (store, scenario, &options, r, run_ids, &error);
  g_assert_no_error (error);
  g_assert_cmpint (id, >, 0);
  g_assert_cmpuint (run_ids->len, ==, r->findings->len);

  g_autoptr (FlStoredExploration) e = fl_store_get_exploration (store, id, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (e->scenario_name, ==, "spf-vs-munmap");
  g_assert_cmpstr (e->verdict, ==, fl_explore_verdict_name (r->verdict));
  g_assert_cmpstr (e->stopped_by, ==, "none");
  g_autofree char *bounds = fl_explore_options_describe (&options);
  g_assert_cmpstr (e->bounds, ==, bounds);
  g_autofree char *config = fl_config_describe (&r->config);
  g_assert_cmpstr (e->config, ==, config);
  g_assert_cmpuint (e->bound, ==, r->bound);
  g_assert_cmpuint (e->schedules, ==, r->schedules);
  g_assert_cmpuint (e->executions, ==, r->executions);
  g_assert_cmpuint (e->outcomes, ==, r->outcomes);
  g_assert_cmpuint (e->steps, ==, r->steps);
  g_assert_cmpuint (e->findings, ==, r->findings->len);
  g_assert_cmpfloat (e->seconds, ==, r->seconds);
  g_autoptr (FlStoredScenario) explored = fl_store_get_scenario (store, e->scenario_id, &error);
  g_assert_cmpstr (explored->text, ==, scenario->text);
  /* its runs, as the index finds them: the ones it recorded, in order */
  g_autoptr (GArray) linked = fl_store_exploration_runs (store, id, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (linked->len, ==, run_ids->len);
  for (guint i = 0; i < linked->len; i++)
    g_assert_cmpint (g_array_index (linked, gint64, i), ==, g_array_index (run_ids, gint64, i));

  for (guint i = 0; i < run_ids->len; i++)
    {
      const FlExploreFinding *f = g_ptr_array_index (r->findings, i);
      gint64 run_id = g_array_index (run_ids, gint64, i);
      g_autoptr (FlStoredRun) run = fl_store_get_run (store, run_id, &error);
      g_assert_no_error (error);
      g_assert_cmpint (run->exploration_id, ==, id);
      g_autofree char *name = g_strdup_printf ("spf-vs-munmap-%s",
                                               fl_finding_kind_name (f->kind));
      g_assert_cmpstr (run->scenario_name, ==, name);
      g_assert_nonnull (strstr (run->scenario_text, "\n[schedule]\n"));
      g_autofree char *hash = g_strdup_printf ("%016" G_GINT64_MODIFIER "x", f->events_hash);
      g_assert_cmpstr (run->hash, ==, hash);
      FlReplayResult replay;
      g_assert_true (fl_store_replay_run (store, run_id, &replay, &error));
      g_assert_no_error (error);
      g_assert_true (replay.matches);
      g_autoptr (GPtrArray) findings = fl_store_list_findings (store, run_id, &error);
      gboolean has = FALSE;
      for (guint j = 0; j < findings->len; j++)
        has |= g_strcmp0 (((FlStoredFinding *) findings->pdata[j])->kind,
                          fl_finding_kind_name (f->kind)) == 0;
      g_assert_true (has);
    }
  g_assert_true (fl_store_check (store, &error));
  g_assert_no_error (error);
}

/* An exploration without a finding is a row and no run. */
static void
test_record_safe (FlStoreFixture *fx, gconstpointer data)
{
  g_autoptr (FlScenario) scenario = builtin ("spf-tlb-ipi");
  FlExploreOptions options = { .preemptions = 1, .reduction = FL_EXPLORE_REDUCTION_NONE };
  g_autoptr (FlExploreResult) r = explore (scenario, "pte-map-lock", "trylock-loop", &options);
  g_assert_cmpuint (r->findings->len, ==, 0);
  g_autoptr (FlStore) store = open_store (fx->db);
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) run_ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  gint64 id = fl_store_record_exploration (store, scenario, &options, r, run_ids, &error);
  g_assert_no_error (error);
  g_assert_cmpint (id, >, 0);
  g_assert_cmpuint (run_ids->len, ==, 0);
  g_autoptr (GPtrArray) runs = fl_store_list_runs (store, 0, &error);
  g_assert_cmpuint (runs->len, ==, 0);
  g_autoptr (GPtrArray) list = fl_store_list_explorations (store, 0, &error);
  g_assert_cmpuint (list->len, ==, 1);
  g_assert_cmpstr (((FlStoredExploration *) list->pdata[0])->verdict, ==, "bounded");
}

/* A counterexample that does not replay (its hash tampered with here) stops the recording,
 * and the store keeps nothing of it: not the exploration, not the runs before it. */
static void
test_record_failure_leaves_nothing (FlStoreFixture *fx, gconstpointer data)
{
  g_autoptr (FlScenario) scenario = builtin ("spf-vs-munmap");
  FlExploreOptions options = { .preemptions = 2, .reduction = FL_EXPLORE_REDUCTION_NONE };
  g_autoptr (FlExploreResult) r = explore (scenario, "vma-free", "immediate", &options);
  g_assert_cmpuint (r->findings->len, ==, 1);
  ((FlExploreFinding *) g_ptr_array_index (r->findings, 0))->events_hash ^= 1;
  g_autoptr (FlStore) store = open_store (fx->db);
  g_autoptr (GError) error = NULL;
  g_assert_cmpint (fl_store_record_exploration (store, scenario, &options, r, NULL, &error), ==,
                   -1);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "does not replay"));
  g_clear_error (&error);
  g_autoptr (GPtrArray) list = fl_store_list_explorations (store, 0, &error);
  g_autoptr (GPtrArray) runs = fl_store_list_runs (store, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (list->len, ==, 0);
  g_assert_cmpuint (runs->len, ==, 0);
}

static void
test_rules (FlStoreFixture *fx, gconstpointer data)
{
  g_autoptr (FlStore) store = open_store (fx->db);
  g_autoptr (GError) error = NULL;
  gint64 scenario_id = 0;
  g_assert_true (fl_store_save_scenario (store, "s", "S", NULL, "[scenario]\ntitle=S\n",
                                         &scenario_id, &error));
  FlStoredExploration row = { .scenario_id = scenario_id + 1, .config = "cpus=2",
                              .bounds = "schedule=systematic", .verdict = "found",
                              .stopped_by = "none" };
  g_assert_false (fl_store_add_exploration (store, &row, NULL, &error));
  g_assert_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  row.scenario_id = scenario_id;
  row.verdict = "probably";
  g_assert_false (fl_store_add_exploration (store, &row, NULL, &error));
  g_assert_error (error, FL_STORE_ERROR, FL_STORE_ERROR_INVALID);
  g_clear_error (&error);
  row.verdict = "complete";
  row.config = "cpus=2\033[2J";
  g_assert_false (fl_store_add_exploration (store, &row, NULL, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  row.config = "cpus=2";
  g_assert_false (fl_store_delete_exploration (store, 99, &error));
  g_assert_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* a run naming an exploration that is not there is refused */
  FlStoreRunInfo info = { .config = "cpus=2", .exploration_id = 42 };
  g_assert_false (fl_store_begin_run (store, scenario_id, &info, NULL, &error));
  g_assert_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_FOUND);
}

/* Deleting an exploration keeps its runs, unlinked; deleting its scenario deletes it. */
static void
test_deleting (FlStoreFixture *fx, gconstpointer data)
{
  g_autoptr (FlScenario) scenario = builtin ("spf-vs-munmap");
  FlExploreOptions options = { .preemptions = 2, .reduction = FL_EXPLORE_REDUCTION_NONE };
  g_autoptr (FlExploreResult) r = explore (scenario, "vma-free", "immediate", &options);
  g_autoptr (FlStore) store = open_store (fx->db);
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) run_ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  gint64 first = fl_store_record_exploration (store, scenario, &options, r, run_ids, &error);
  gint64 second = fl_store_record_exploration (store, scenario, &options, r, run_ids, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (run_ids->len, ==, 2);

  g_assert_true (fl_store_delete_exploration (store, first, &error));
  g_autoptr (FlStoredRun) kept = fl_store_get_run (store, g_array_index (run_ids, gint64, 0),
                                                   &error);
  g_assert_no_error (error);
  g_assert_cmpint (kept->exploration_id, ==, 0);
  g_autoptr (GArray) unlinked = fl_store_exploration_runs (store, first, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (unlinked->len, ==, 0);
  g_autoptr (GArray) linked = fl_store_exploration_runs (store, second, &error);
  g_assert_cmpuint (linked->len, ==, 1);
  g_assert_cmpint (g_array_index (linked, gint64, 0), ==, g_array_index (run_ids, gint64, 1));

  g_autoptr (FlStoredExploration) e = fl_store_get_exploration (store, second, &error);
  g_assert_no_error (error);
  g_assert_true (fl_store_delete_scenario (store, e->scenario_id, &error));
  g_assert_no_error (error);
  g_autoptr (GPtrArray) left = fl_store_list_explorations (store, 0, &error);
  g_assert_cmpuint (left->len, ==, 0);
  /* the counterexamples are scenarios of their own: their runs stay */
  g_autoptr (GPtrArray) runs = fl_store_list_runs (store, 0, &error);
  g_assert_cmpuint (runs->len, ==, 2);
  for (guint i = 0; i < runs->len; i++)
    g_assert_cmpint (((FlStoredRun *) runs->pdata[i])->exploration_id, ==, 0);
  g_assert_true (fl_store_check (store, &error));
  g_assert_no_error (error);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, fn) \
  g_test_add ("/core/store/explorations/" path, FlStoreFixture, NULL, fl_store_fixture_set_up, \
              fn, fl_store_fixture_tear_down)
  ADD ("record-found", test_record_found);
  ADD ("record-safe", test_record_safe);
  ADD ("failure-leaves-nothing", test_record_failure_leaves_nothing);
  ADD ("rules", test_rules);
  ADD ("deleting", test_deleting);
#undef ADD
  return g_test_run ();
}
