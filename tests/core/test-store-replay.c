/* Tests of the store with real simulations: every built-in scenario recorded and replayed, the
 * recorded events read back by step range, a replay that differs, and recordings killed at
 * any moment. Hashes are only ever compared with each other, never with a literal: the cost
 * model may change. */
#include <signal.h>
#include <unistd.h>
#include <sys/wait.h>
#include <sqlite3.h>
#include "fl-store-record.h"
#include "store-helpers.h"

/* A run as `faultline-cli run` makes one: the scenario's own switches and seed, its script
 * when it has one. */
static FlSim *
simulate_full (const char *id, const char *set_key, const char *set_value, FlSchedPolicy policy,
               guint64 seed, guint64 max_steps)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FlScenario) scenario = fl_scenario_load_builtin (id, &error);
  g_assert_no_error (error);
  FlConfig config = scenario->config;
  if (set_key != NULL)
    {
      g_assert_true (fl_config_set (&config, set_key, set_value, &error));
      g_assert_no_error (error);
    }
  FlSim *sim = fl_sim_new (scenario, &config, seed, &error);
  g_assert_no_error (error);
  fl_sim_set_policy (sim, policy);
  fl_sim_run (sim, max_steps);
  return sim;
}

static FlSim *
simulate (const char *id)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FlScenario) scenario = fl_scenario_load_builtin (id, &error);
  g_assert_no_error (error);
  FlSchedPolicy policy = scenario->schedule->len ? FL_SCHED_SCRIPT : FL_SCHED_TIME;
  return simulate_full (id, NULL, NULL, policy, scenario->seed, 0);
}

static gint64
record (FlStore *store, FlSim *sim)
{
  g_autoptr (GError) error = NULL;
  gint64 run_id = fl_store_record_sim (store, sim, !fl_sim_is_finished (sim), &error);
  g_assert_no_error (error);
  g_assert_cmpint (run_id, >, 0);
  return run_id;
}

/* The run replays to the hash the simulation had, and every stored event is the simulated
 * one. */
static void
assert_run_is (FlStore *store, gint64 run_id, FlSim *sim)
{
  g_autoptr (GError) error = NULL;
  FlReplayResult result;
  g_assert_true (fl_store_replay_run (store, run_id, &result, &error));
  g_assert_no_error (error);
  g_autofree char *hash = g_strdup_printf ("%016" G_GINT64_MODIFIER "x", fl_sim_get_hash (sim));
  g_assert_true (result.matches);
  g_assert_cmpint (result.first_difference, ==, -1);
  g_assert_cmpstr (result.hash, ==, hash);
  g_assert_cmpstr (result.stored_hash, ==, hash);
  g_assert_cmpuint (result.steps, ==, fl_sim_get_step (sim));

  g_autoptr (FlStoredRun) run = fl_store_get_run (store, run_id, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (run->steps, ==, fl_sim_get_step (sim));
  g_assert_cmpuint (run->findings, ==, fl_sim_get_findings (sim)->len);
  g_autoptr (GPtrArray) findings = fl_store_list_findings (store, run_id, &error);
  g_assert_cmpuint (findings->len, ==, fl_sim_get_findings (sim)->len);

  gsize n = 0;
  const FlEvent *events = fl_sim_get_events (sim, &n);
  g_autoptr (GArray) back = g_array_new (FALSE, TRUE, sizeof (FlEvent));
  g_assert_true (fl_store_load_events (store, run_id, 0, G_MAXUINT32, back, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (back->len, ==, n);
  fl_store_test_assert_events_equal ((const FlEvent *) back->data, events, n);
}

static FlStore *
open_store (const char *path)
{
  g_autoptr (GError) error = NULL;
  FlStore *store = fl_store_open (path, FL_STORE_OPEN_CREATE, &error);
  g_assert_no_error (error);
  return store;
}

/* ---- record → replay ------------------------------------------------------------------------ */

static void
test_every_builtin (FlStoreFixture *fx, gconstpointer data)
{
  g_autoptr (FlStore) store = open_store (fx->db);
  g_auto (GStrv) ids = fl_scenario_builtin_ids ();
  g_assert_cmpuint (g_strv_length (ids), >=, 13);
  for (guint i = 0; ids[i]; i++)
    {
      g_test_message ("%s", ids[i]);
      g_autoptr (FlSim) sim = simulate (ids[i]);
      g_assert_true (fl_sim_is_finished (sim));
      gint64 run_id = record (store, sim);
      assert_run_is (store, run_id, sim);
    }
  g_autoptr (GPtrArray) runs = fl_store_list_runs (store, 0, NULL);
  g_assert_cmpuint (runs->len, ==, g_strv_length (ids));
}

/* What a run records beyond the scenario: a switch set on the command line, a random
 * schedule with its seed, a changed cost, a run cut short. */
static void
test_replay_keeps_the_setup (FlStoreFixture *fx, gconstpointer data)
{
  g_autoptr (FlStore) store = open_store (fx->db);
  struct {
    const char *id, *key, *value;
    FlSchedPolicy policy;
    guint64 seed, max_steps;
  } cases[] = {
    { "spf-vs-munmap", "vma-free", "immediate", FL_SCHED_SCRIPT, 1, 0 },
    { "spf-vs-munmap", NULL, NULL, FL_SCHED_RANDOM, 5, 0 },
    { "spf-vs-munmap", NULL, NULL, FL_SCHED_RANDOM, 6, 0 },
    { "rwsem-xadd-bounce", NULL, NULL, FL_SCHED_TIME, 1, 0 },   /* a cost: see below */
    { "multi-fault", "fault-path", "speculative", FL_SCHED_RANDOM, 3, 2500 },
  };
  /* The cost table is being tuned: take whichever cost comes first and move it off its
   * default, rather than name one. */
  FlConfig defaults;
  fl_config_init_defaults (&defaults);
  const char *cost_key = NULL;
  for (const char *const *key = fl_config_keys (); *key && cost_key == NULL; key++)
    if (g_str_has_prefix (*key, "cost."))
      cost_key = *key;
  g_assert_nonnull (cost_key);
  g_autofree char *standard = fl_config_get (&defaults, cost_key);
  g_autofree char *changed = g_strdup_printf ("%" G_GUINT64_FORMAT,
                                              g_ascii_strtoull (standard, NULL, 10) + 7);
  cases[3].key = cost_key;
  cases[3].value = changed;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (FlSim) sim = simulate_full (cases[i].id, cases[i].key, cases[i].value,
                                             cases[i].policy, cases[i].seed, cases[i].max_steps);
      gint64 run_id = record (store, sim);
      assert_run_is (store, run_id, sim);
      if (cases[i].max_steps)
        {
          g_autoptr (FlStoredRun) run = fl_store_get_run (store, run_id, NULL);
          g_assert_cmpuint (run->steps, ==, cases[i].max_steps);
          g_assert_cmpstr (run->verdict, ==, "stopped");
        }
    }
  /* The findings of a broken design are recorded with the run. */
  g_autoptr (GPtrArray) findings = fl_store_list_findings (store, 1, NULL);
  g_assert_cmpuint (findings->len, >, 0);
  g_assert_cmpstr (((FlStoredFinding *) findings->pdata[0])->kind, ==, "use-after-free");
  /* Two seeds of the random schedule are two different runs, each replayed as itself. */
  g_autoptr (FlStoredRun) five = fl_store_get_run (store, 2, NULL);
  g_autoptr (FlStoredRun) six = fl_store_get_run (store, 3, NULL);
  g_assert_cmpstr (five->hash, !=, six->hash);
}

/* The stored events, read back a window of steps at a time as the window reads them, are the
 * simulated events of those steps, edges included. */
static void
test_events_by_range (FlStoreFixture *fx, gconstpointer data)
{
  g_autoptr (FlStore) store = open_store (fx->db);
  const char *ids[] = { "spf-vs-munmap", "rwsem-generic-bounce" };
  for (guint s = 0; s < G_N_ELEMENTS (ids); s++)
    {
      g_autoptr (FlSim) sim = simulate (ids[s]);
      gint64 run_id = record (store, sim);
      gsize n = 0;
      const FlEvent *all = fl_sim_get_events (sim, &n);
      g_assert_cmpuint (n, >, 10);
      guint32 last = all[n - 1].step;
      /* A step with more than one event, if the stream has one: its whole group must come. */
      guint32 shared = all[n / 2].step;
      for (gsize i = 1; i < n; i++)
        if (all[i].step == all[i - 1].step)
          {
            shared = all[i].step;
            break;
          }
      struct { guint32 first, last; } ranges[] = {
        { 0, 0 }, { 0, 1 }, { 0, last }, { last, last }, { last - 1, G_MAXUINT32 },
        { last / 2, last / 2 + 17 }, { shared, shared }, { last + 1, last + 100 },
        { 10, 5 }, { 0, G_MAXUINT32 },
      };
      for (guint r = 0; r < G_N_ELEMENTS (ranges); r++)
        {
          gsize lo = 0, hi;
          while (lo < n && all[lo].step < ranges[r].first)
            lo++;
          for (hi = lo; hi < n && all[hi].step <= ranges[r].last; hi++)
            ;
          if (ranges[r].first > ranges[r].last)
            hi = lo;
          g_autoptr (GError) error = NULL;
          g_autoptr (GArray) back = g_array_new (FALSE, TRUE, sizeof (FlEvent));
          g_assert_true (fl_store_load_events (store, run_id, ranges[r].first, ranges[r].last,
                                               back, &error));
          g_assert_no_error (error);
          g_assert_cmpuint (back->len, ==, hi - lo);
          fl_store_test_assert_events_equal ((const FlEvent *) back->data, all + lo, hi - lo);
        }
    }
}

/* A stored stream that no longer matches the simulation: the replay says so, and names the
 * step where they part. */
static void
test_replay_reports_the_difference (FlStoreFixture *fx, gconstpointer data)
{
  g_autoptr (FlSim) sim = simulate ("spf-vs-munmap");
  guint32 tampered = (guint32) fl_sim_get_step (sim) / 2;
  {
    g_autoptr (FlStore) store = open_store (fx->db);
    g_assert_cmpint (record (store, sim), ==, 1);
  }
  sqlite3 *db = NULL;
  g_assert_cmpint (sqlite3_open (fx->db, &db), ==, SQLITE_OK);
  g_autofree char *sql = g_strdup_printf (
    "UPDATE event SET val = val + 1 WHERE run_id = 1 AND step = %u AND sub = 0", tampered);
  g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_changes (db), ==, 1);
  g_assert_cmpint (sqlite3_exec (db, "UPDATE run SET hash = '0123456789abcdef' WHERE id = 1", NULL, NULL,
                                 NULL), ==, SQLITE_OK);
  sqlite3_close (db);

  g_autoptr (GError) error = NULL;
  g_autoptr (FlStore) store = open_store (fx->db);
  FlReplayResult result;
  g_assert_true (fl_store_replay_run (store, 1, &result, &error));
  g_assert_no_error (error);
  g_assert_false (result.matches);
  g_assert_cmpstr (result.hash, !=, result.stored_hash);
  g_assert_cmpint (result.first_difference, ==, tampered);

  g_assert_false (fl_store_replay_run (store, 2, &result, &error));
  g_assert_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_FOUND);
}

/* ---- killed while recording ------------------------------------------------------------------ */

/* Small scenarios the killed children record over and over, with a random schedule: each run
 * a few milliseconds, so the kills land in every phase of a recording, commit included. */
static const char *const loop_ids[] = {
  "spf-vs-munmap", "spf-anon-fault", "cow-write-fault", "swap-in-fault", "spf-tlb-ipi",
};

static FlSim *
loop_run (guint64 seed)
{
  return simulate_full (loop_ids[seed % G_N_ELEMENTS (loop_ids)], NULL, NULL, FL_SCHED_RANDOM,
                        seed, 0);
}

/* The child of test_killed_while_recording(): records runs until it is killed. It tells the
 * parent (one byte) once it is under way: halfway through a big run's events in @halfway
 * mode, after its first committed run otherwise. */
static void G_GNUC_NORETURN
record_until_killed (const char *path, gboolean halfway, guint64 first_seed, int ready_fd)
{
  g_autoptr (GError) error = NULL;
  FlStore *store = fl_store_open (path, FL_STORE_OPEN_NONE, &error);
  if (store == NULL)
    _exit (2);
  if (halfway)
    {
      g_autoptr (FlSim) sim = simulate_full ("multi-fault", NULL, NULL, FL_SCHED_TIME, 1, 0);
      gsize n = 0;
      const FlEvent *events = fl_sim_get_events (sim, &n);
      FlStoreRunInfo info = { .config = "killed halfway", .seed = 1 };
      gint64 run_id = 0;
      if (!fl_store_begin_run (store, 1, &info, &run_id, &error))
        _exit (3);
      for (gsize at = 0; at < n; at += 4096)
        {
          if (!fl_store_add_events (store, run_id, events + at, MIN (4096, n - at), &error))
            _exit (4);
          if (at <= n / 2 && at + 4096 > n / 2 && write (ready_fd, "h", 1) != 1)
            _exit (5);
        }
      for (;;)
        pause ();
    }
  for (guint64 seed = first_seed;; seed++)
    {
      g_autoptr (FlSim) sim = loop_run (seed);
      if (fl_store_record_sim (store, sim, FALSE, &error) < 0)
        _exit (6);
      if (seed == first_seed && write (ready_fd, "r", 1) != 1)
        _exit (7);
    }
}

static void
kill_child (const char *path, gboolean halfway, guint64 first_seed, guint delay_us)
{
  int fds[2];
  g_assert_cmpint (pipe (fds), ==, 0);
  /* No store is open across the fork: an SQLite connection must not be shared with a
   * child. */
  pid_t pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      close (fds[0]);
      record_until_killed (path, halfway, first_seed, fds[1]);
    }
  close (fds[1]);
  char byte = 0;
  ssize_t got = read (fds[0], &byte, 1);
  close (fds[0]);
  g_usleep (delay_us);
  g_assert_cmpint (kill (pid, SIGKILL), ==, 0);
  int status = 0;
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_cmpint (got, ==, 1);
  g_assert_true (WIFSIGNALED (status));
  g_assert_cmpint (WTERMSIG (status), ==, SIGKILL);
}

/* After a kill: SQLite and the store's own checks find nothing wrong, the runs recorded
 * before are all there and replay identical, and every other run is complete — its replay
 * matches and its stored events are all the simulated ones. */
static void
assert_store_after_kill (const char *path, FlSim **earlier, const gint64 *earlier_ids,
                         guint n_earlier, guint64 first_seed)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FlStore) store = fl_store_open (path, FL_STORE_OPEN_NONE, &error);
  g_assert_no_error (error);
  g_assert_true (fl_store_check (store, &error));
  g_assert_no_error (error);
  g_autoptr (GPtrArray) runs = fl_store_list_runs (store, 0, &error);
  g_assert_cmpuint (runs->len, >=, n_earlier);
  g_test_message ("after the kill: %u runs", runs->len);
  for (guint i = 0; i < n_earlier; i++)
    {
      g_assert_cmpint (((FlStoredRun *) runs->pdata[i])->id, ==, earlier_ids[i]);
      assert_run_is (store, earlier_ids[i], earlier[i]);
    }
  for (guint i = n_earlier; i < runs->len; i++)
    {
      const FlStoredRun *run = runs->pdata[i];
      g_assert_cmpuint (run->seed, >=, first_seed);
      g_autoptr (FlSim) sim = loop_run (run->seed);
      assert_run_is (store, run->id, sim);
    }
}

static void
test_killed_while_recording (FlStoreFixture *fx, gconstpointer data)
{
  const char *ids[] = { "spf-vs-munmap", "rwsem-xadd-bounce", "spf-tlb-ipi" };
  FlSim *earlier[G_N_ELEMENTS (ids)];
  gint64 earlier_ids[G_N_ELEMENTS (ids)];
  {
    g_autoptr (FlStore) store = open_store (fx->db);
    for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
      {
        earlier[i] = simulate (ids[i]);
        earlier_ids[i] = record (store, earlier[i]);
      }
  }

  /* Halfway through the events of a big run: the run must be absent. */
  kill_child (fx->db, TRUE, 0, 0);
  assert_store_after_kill (fx->db, earlier, earlier_ids, G_N_ELEMENTS (ids), 1000);
  {
    g_autoptr (FlStore) store = open_store (fx->db);
    g_autoptr (GPtrArray) runs = fl_store_list_runs (store, 0, NULL);
    g_assert_cmpuint (runs->len, ==, G_N_ELEMENTS (ids));
  }

  /* At moments nobody chose, while runs are recorded back to back: whatever was being
   * written, each run is either all there or not there at all. */
  GRand *rand = g_rand_new_with_seed (2010);
  for (guint round = 0; round < 6; round++)
    {
      guint64 first_seed = 1000 + 1000 * round;
      kill_child (fx->db, FALSE, first_seed, g_rand_int_range (rand, 0, 40000));
      assert_store_after_kill (fx->db, earlier, earlier_ids, G_N_ELEMENTS (ids), 1000);
    }
  g_rand_free (rand);
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    fl_sim_free (earlier[i]);
}

/* A branch (another CPU stepped at some step, the rest simulated from there) has the same
 * scenario, configuration and seed as the run it left: only the event-stream hash finds
 * each of the two again. */
static void
test_find_run_by_hash (FlStoreFixture *fx, gconstpointer data)
{
  g_autoptr (FlStore) store = open_store (fx->db);
  g_autoptr (GError) error = NULL;
  g_autoptr (FlSim) run = simulate ("spf-vs-munmap");
  g_autoptr (FlSim) branch = simulate ("spf-vs-munmap");
  const guint64 at = 10;
  gint64 found = -1;
  gboolean branched = FALSE;

  /* step another CPU than the run did at `at` */
  g_assert_true (fl_sim_seek (branch, at));
  guint recorded = fl_sim_get_event (run, (gsize) at).cpu;
  g_assert_cmpuint (fl_sim_get_event (run, (gsize) at).step, ==, at);
  for (guint cpu = 0; cpu < FL_MAX_CPUS && !branched; cpu++)
    if (cpu != recorded && fl_sim_cpu_can_step (branch, cpu))
      branched = fl_sim_step_cpu (branch, cpu);
  g_assert_true (branched);
  fl_sim_run (branch, 0);

  g_autofree char *config = fl_store_sim_config_text (run);
  g_autofree char *branch_config = fl_store_sim_config_text (branch);
  g_autofree char *hash = fl_store_sim_hash_text (run);
  g_autofree char *branch_hash = fl_store_sim_hash_text (branch);
  const char *text = fl_sim_get_scenario (run)->text;
  g_assert_cmpstr (config, ==, branch_config);
  g_assert_cmpstr (hash, !=, branch_hash);

  gint64 run_id = record (store, run);
  g_assert_true (fl_store_find_run (store, text, config, fl_sim_get_seed (run), branch_hash,
                                    &found, &error));
  g_assert_no_error (error);
  g_assert_cmpint (found, ==, 0);

  gint64 branch_id = record (store, branch);
  g_assert_cmpint (branch_id, !=, run_id);
  g_assert_true (fl_store_find_run (store, text, config, fl_sim_get_seed (run), hash, &found,
                                    &error));
  g_assert_cmpint (found, ==, run_id);
  g_assert_true (fl_store_find_run (store, text, config, fl_sim_get_seed (run), branch_hash,
                                    &found, &error));
  g_assert_cmpint (found, ==, branch_id);
  /* no hash: the newest of the three alike */
  g_assert_true (fl_store_find_run (store, text, config, fl_sim_get_seed (run), NULL, &found,
                                    &error));
  g_assert_cmpint (found, ==, branch_id);
  /* another seed is another run */
  g_assert_true (fl_store_find_run (store, text, config, fl_sim_get_seed (run) + 1, hash,
                                    &found, &error));
  g_assert_no_error (error);
  g_assert_cmpint (found, ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, fn) \
  g_test_add ("/core/store/replay/" path, FlStoreFixture, NULL, fl_store_fixture_set_up, fn, \
              fl_store_fixture_tear_down)
  ADD ("every-builtin", test_every_builtin);
  ADD ("keeps-the-setup", test_replay_keeps_the_setup);
  ADD ("events-by-range", test_events_by_range);
  ADD ("reports-the-difference", test_replay_reports_the_difference);
  ADD ("killed-while-recording", test_killed_while_recording);
  ADD ("find-run-by-hash", test_find_run_by_hash);
#undef ADD
  return g_test_run ();
}
