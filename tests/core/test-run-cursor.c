/* Tests of FlRun and FlCursor: a cursor's state at a step is the state a simulation stepped
 * there has; cursors move on their own, on one run, from several threads; branching by hand
 * makes a new run and leaves the old one as it was. */
#include "sim-helpers.h"
#include "fl-cursor.h"
#include "fl-run.h"

static FlRun *
builtin_run (const char *id, const char *const *sets)
{
  return fl_run_new_from_sim (run_builtin (id, sets, 0));
}

/* The state hash a fresh simulation has after `step` steps; after the last, once the run
 * is over (the end's checks done), as the run ended. */
static guint64
fresh_hash (const char *id, const char *const *sets, guint64 step, guint64 total)
{
  if (step == total)
    {
      g_autoptr (FlSim) sim = run_builtin (id, sets, 0);
      g_assert_cmpuint (fl_sim_get_step (sim), ==, total);
      return fl_sim_get_state_hash (sim);
    }
  if (step == 0)
    {
      g_autoptr (FlSim) sim = run_builtin (id, sets, 1);
      g_assert_true (fl_sim_seek (sim, 0));
      return fl_sim_get_state_hash (sim);
    }
  g_autoptr (FlSim) sim = run_builtin (id, sets, step);
  g_assert_cmpuint (fl_sim_get_step (sim), ==, step);
  return fl_sim_get_state_hash (sim);
}

/* The run keeps what the simulation recorded: the same events, hash, findings. */
static void
test_run_from_sim (void)
{
  const char *const sets[] = { "spf-seqcheck", "off", NULL };
  g_autoptr (FlSim) sim = run_builtin ("spf-vs-mprotect", sets, 0);
  guint64 hash = fl_sim_get_hash (sim), total = fl_sim_get_total_steps (sim);
  gsize n = fl_sim_get_n_events (sim);
  guint findings = fl_sim_get_findings (sim)->len;
  FlCounters k;
  fl_sim_get_counters (sim, &k);
  g_autoptr (FlRun) run = builtin_run ("spf-vs-mprotect", sets);
  g_assert_cmphex (fl_run_get_hash (run), ==, hash);
  g_assert_cmpuint (fl_run_get_total_steps (run), ==, total);
  g_assert_cmpuint (fl_run_get_n_events (run), ==, n);
  g_assert_cmpuint (fl_run_get_findings (run)->len, ==, findings);
  g_assert_cmpuint (findings, >, 0);
  g_assert_true (fl_run_is_finished (run));
  FlCounters r;
  fl_run_get_counters (run, &r);
  g_assert_cmpmem (&r, sizeof r, &k, sizeof k);
  gsize flat_n;
  const FlEvent *flat = fl_run_get_events (run, &flat_n);
  g_assert_cmpuint (flat_n, ==, n);
  for (gsize i = 0; i < n; i++)
    {
      FlEvent e = fl_sim_get_event (sim, i);
      g_assert_cmpmem (&flat[i], sizeof e, &e, sizeof e);
    }
  g_assert_true (fl_run_get_events (run, NULL) == flat);
  g_assert_cmpuint (fl_run_get_last_cycle (run), ==, fl_sim_get_last_cycle (sim));

  /* the same run made again is the same run; another seed's or configuration's is not */
  g_autoptr (FlRun) again = builtin_run ("spf-vs-mprotect", sets);
  g_assert_true (fl_run_same (run, again));
  g_autoptr (FlRun) other = builtin_run ("spf-vs-mprotect", NULL);
  g_assert_false (fl_run_same (run, other));
}

/* Seeking back and forth gives, at every step, the state a fresh simulation has there. */
static void
test_cursor_seek (void)
{
  g_autoptr (FlRun) run = builtin_run ("spf-vs-munmap", NULL);
  guint64 total = fl_run_get_total_steps (run);
  g_assert_cmpuint (total, >, 20);
  g_autofree guint64 *hashes = g_new (guint64, total + 1);
  for (guint64 s = 0; s <= total; s++)
    hashes[s] = fresh_hash ("spf-vs-munmap", NULL, s, total);

  g_autoptr (FlCursor) cursor = fl_cursor_new (run);
  g_assert_cmpuint (fl_cursor_get_step (cursor), ==, 0);
  g_assert_cmphex (fl_cursor_get_state_hash (cursor), ==, hashes[0]);
  for (guint64 s = 0; s <= total; s++)
    {
      g_assert_true (fl_cursor_seek (cursor, s));
      g_assert_cmphex (fl_cursor_get_state_hash (cursor), ==, hashes[s]);
    }
  for (guint64 s = total + 1; s-- > 0;)
    {
      g_assert_true (fl_cursor_seek (cursor, s));
      g_assert_cmpuint (fl_cursor_get_step (cursor), ==, s);
      g_assert_cmphex (fl_cursor_get_state_hash (cursor), ==, hashes[s]);
    }
  GRand *rand = g_rand_new_with_seed (7);
  for (guint i = 0; i < 200; i++)
    {
      guint64 s = (guint64) g_rand_int_range (rand, 0, (gint32) total + 1);
      g_assert_true (fl_cursor_seek (cursor, s));
      g_assert_cmphex (fl_cursor_get_state_hash (cursor), ==, hashes[s]);
    }
  g_rand_free (rand);
  g_assert_false (fl_cursor_seek (cursor, total + 1));
  /* the run is as it was */
  g_autoptr (FlSim) sim = run_builtin ("spf-vs-munmap", NULL, 0);
  g_assert_cmphex (fl_run_get_hash (run), ==, fl_sim_get_hash (sim));
  g_assert_cmpuint (fl_run_get_n_events (run), ==, fl_sim_get_n_events (sim));
}

/* A long run with thinned checkpoints: the cursor replays from the run's own. */
static void
test_cursor_long_run (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FlScenario) sc = fl_workload_build ("multi-fault", 8, 1, &error);
  g_assert_no_error (error);
  FlConfig config = sc->config;
  g_assert_true (fl_config_set (&config, "oracle", "at-end", &error));
  g_autoptr (FlRun) run = fl_run_new (sc, &config, 1, 0, &error);
  g_assert_no_error (error);
  guint64 total = fl_run_get_total_steps (run);
  g_assert_cmpuint (total, >, 100000);
  const guint64 targets[] = { total / 3, 12345, total, 1, total / 2 + 17 };
  g_autoptr (FlCursor) cursor = fl_cursor_new (run);
  for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
    {
      g_autoptr (FlSim) sim = fl_sim_new (sc, &config, 1, &error);
      fl_sim_run (sim, targets[i] == total ? 0 : targets[i]);
      g_assert_true (fl_cursor_seek (cursor, targets[i]));
      g_assert_cmphex (fl_cursor_get_state_hash (cursor), ==, fl_sim_get_state_hash (sim));
      FlCounters a, b;
      fl_cursor_get_counters (cursor, &a);
      fl_sim_get_counters (sim, &b);
      g_assert_cmpmem (&a, sizeof a, &b, sizeof b);
    }
}

/* A copy stands where its original stood and then moves on its own. */
static void
test_cursor_copy (void)
{
  g_autoptr (FlRun) run = builtin_run ("spf-tlb-ipi", NULL);
  guint64 total = fl_run_get_total_steps (run);
  g_autoptr (FlCursor) a = fl_cursor_new (run);
  g_assert_true (fl_cursor_seek (a, total / 2));
  guint64 middle = fl_cursor_get_state_hash (a);
  g_autoptr (FlCursor) b = fl_cursor_copy (a);
  g_assert_cmpuint (fl_cursor_get_step (b), ==, total / 2);
  g_assert_cmphex (fl_cursor_get_state_hash (b), ==, middle);
  g_assert_true (fl_cursor_seek (b, total));
  g_assert_cmpuint (fl_cursor_get_step (a), ==, total / 2);
  g_assert_cmphex (fl_cursor_get_state_hash (a), ==, middle);
  g_assert_true (fl_cursor_seek (a, 0));
  g_assert_cmpuint (fl_cursor_get_step (b), ==, total);
  g_assert_cmphex (fl_cursor_get_state_hash (b), ==,
                   fresh_hash ("spf-tlb-ipi", NULL, total, total));
  g_assert_true (fl_cursor_get_run (a) == fl_cursor_get_run (b));
}

typedef struct {
  FlRun   *run;
  guint64 *hashes;
  guint64  total;
  guint    seed;
  guint    checked;
} Walker;

static gpointer
walk (gpointer data)
{
  Walker *w = data;
  g_autoptr (FlCursor) cursor = fl_cursor_new (w->run);
  GRand *rand = g_rand_new_with_seed (w->seed);
  for (guint i = 0; i < 300; i++)
    {
      guint64 s = (guint64) g_rand_int_range (rand, 0, (gint32) w->total + 1);
      if (!fl_cursor_seek (cursor, s) || fl_cursor_get_state_hash (cursor) != w->hashes[s])
        break;
      FlEvent e = fl_run_get_event (w->run, fl_run_find_step (w->run, MIN (s, w->total - 1)));
      if (e.step != MIN (s, w->total - 1))
        break;
      w->checked++;
    }
  g_rand_free (rand);
  return NULL;
}

/* Two cursors on one run, each on its thread, see the states stepping gives. */
static void
test_cursor_threads (void)
{
  g_autoptr (FlRun) run = builtin_run ("spf-vs-munmap", NULL);
  guint64 total = fl_run_get_total_steps (run);
  g_autofree guint64 *hashes = g_new (guint64, total + 1);
  {
    g_autoptr (FlCursor) c = fl_cursor_new (run);
    for (guint64 s = 0; s <= total; s++)
      {
        g_assert_true (fl_cursor_seek (c, s));
        hashes[s] = fl_cursor_get_state_hash (c);
      }
  }
  Walker w[2] = { { run, hashes, total, 1, 0 }, { run, hashes, total, 2, 0 } };
  GThread *t[2];
  for (guint i = 0; i < 2; i++)
    t[i] = g_thread_new ("walker", walk, &w[i]);
  for (guint i = 0; i < 2; i++)
    g_thread_join (t[i]);
  g_assert_cmpuint (w[0].checked, ==, 300);
  g_assert_cmpuint (w[1].checked, ==, 300);
}

/* Stepping one CPU by hand makes a new run: when it is the recorded choice, the same run;
 * when it is another, a run that begins as the old one did and parts from it at that step,
 * as the simulation's own step_cpu makes it. The old run and its cursor stay as they were. */
static void
test_branch (void)
{
  g_autoptr (FlRun) run = builtin_run ("spf-vs-munmap", NULL);
  guint64 hash = fl_run_get_hash (run), total = fl_run_get_total_steps (run);
  g_autoptr (FlCursor) cursor = fl_cursor_new (run);
  guint64 at = 6;
  g_assert_true (fl_cursor_seek (cursor, at));
  guint64 state = fl_cursor_get_state_hash (cursor);
  FlEvent recorded = fl_run_get_event (run, fl_run_find_step (run, at));

  /* the recorded CPU: the same run again */
  FlSim *same = fl_cursor_branch (cursor, recorded.cpu);
  g_assert_nonnull (same);
  fl_sim_run (same, 0);
  g_autoptr (FlRun) same_run = fl_run_new_from_sim (same);
  g_assert_cmphex (fl_run_get_hash (same_run), ==, hash);
  g_assert_true (fl_run_same (run, same_run));

  /* another CPU: the run the simulation's own branch makes */
  guint other = recorded.cpu == 0 ? 1 : 0;
  g_assert_true (fl_cursor_cpu_can_step (cursor, other));
  FlSim *branch = fl_cursor_branch (cursor, other);
  g_assert_nonnull (branch);
  g_assert_cmpuint (fl_sim_get_step (branch), ==, at + 1);
  fl_sim_run (branch, 0);
  g_autoptr (FlRun) new_run = fl_run_new_from_sim (branch);
  g_autoptr (FlSim) by_hand = run_builtin ("spf-vs-munmap", NULL, 0);
  g_assert_true (fl_sim_seek (by_hand, at));
  g_assert_true (fl_sim_step_cpu (by_hand, other));
  fl_sim_run (by_hand, 0);
  g_assert_cmphex (fl_run_get_hash (new_run), ==, fl_sim_get_hash (by_hand));
  g_assert_cmpuint (fl_run_get_n_events (new_run), ==, fl_sim_get_n_events (by_hand));
  g_assert_cmpuint (fl_run_get_findings (new_run)->len, ==, fl_sim_get_findings (by_hand)->len);
  g_assert_false (fl_run_same (run, new_run));
  for (gsize i = 0; i < fl_run_find_step (run, at); i++)
    {
      FlEvent a = fl_run_get_event (run, i), b = fl_run_get_event (new_run, i);
      g_assert_cmpmem (&a, sizeof a, &b, sizeof b);
    }

  /* the old run, and the cursor on it, are untouched */
  g_assert_cmphex (fl_run_get_hash (run), ==, hash);
  g_assert_cmpuint (fl_run_get_total_steps (run), ==, total);
  g_assert_cmpuint (fl_cursor_get_step (cursor), ==, at);
  g_assert_cmphex (fl_cursor_get_state_hash (cursor), ==, state);
  g_assert_true (fl_cursor_seek (cursor, total));
  g_assert_cmphex (fl_cursor_get_state_hash (cursor), ==,
                   fresh_hash ("spf-vs-munmap", NULL, total, total));
}

/* At a run's last step a cursor shows the state the run ended in, the end's own checks
 * included (spf-tlb-ipi with the spinning pte_map_lock deadlocks: its CPUs end stuck),
 * however it got there: made there, seeked there from the middle, or copied. */
static void
test_cursor_end_state (void)
{
  const char *const sets[] = { "pte-map-lock", "spin-irqs-off", NULL };
  g_autoptr (FlSim) sim = run_builtin ("spf-tlb-ipi", sets, 0);
  g_assert_true (fl_sim_is_finished (sim));
  guint stuck = 0;
  const FlState *end = fl_sim_get_state (sim);
  for (guint c = 0; c < end->sizes.ncpus; c++)
    stuck += end->cpus[c].status == FL_CPU_STUCK;
  g_assert_cmpuint (stuck, >, 0);
  guint64 end_hash = fl_sim_get_state_hash (sim);

  g_autoptr (FlRun) run = builtin_run ("spf-tlb-ipi", sets);
  guint64 total = fl_run_get_total_steps (run);
  g_assert_cmpuint (total, ==, fl_sim_get_total_steps (sim));
  g_autoptr (FlCursor) cursor = fl_cursor_new (run);
  g_assert_true (fl_cursor_seek (cursor, total / 2));
  g_assert_true (fl_cursor_seek (cursor, total));
  g_assert_cmphex (fl_cursor_get_state_hash (cursor), ==, end_hash);
  guint seen = 0;
  for (guint c = 0; c < end->sizes.ncpus; c++)
    {
      FlCpuView v;
      fl_cursor_get_cpu_view (cursor, c, &v);
      seen += v.status == FL_CPU_STUCK;
      g_assert_false (fl_cursor_cpu_can_step (cursor, c));
    }
  g_assert_cmpuint (seen, ==, stuck);
  g_autoptr (FlCursor) copy = fl_cursor_copy (cursor);
  g_assert_cmphex (fl_cursor_get_state_hash (copy), ==, end_hash);
  /* and back: the replayed middle again */
  g_assert_true (fl_cursor_seek (copy, total - 1));
  g_assert_cmphex (fl_cursor_get_state_hash (copy), ==,
                   fresh_hash ("spf-tlb-ipi", sets, total - 1, total));
  g_assert_null (fl_cursor_branch (cursor, 0));
}

/* A snapshot is the run recorded so far, as a run of its own: the simulation steps on, and
 * a snapshot of one seeked back still holds the whole recorded run. */
static void
test_snapshot (void)
{
  g_autoptr (FlSim) sim = run_builtin ("spf-vs-munmap", NULL, 30);
  guint64 hash30 = fl_sim_get_hash (sim), state30 = fl_sim_get_state_hash (sim);
  g_autoptr (FlRun) at30 = fl_run_new_snapshot (sim);
  g_assert_cmpuint (fl_run_get_total_steps (at30), ==, 30);
  g_assert_cmphex (fl_run_get_hash (at30), ==, hash30);
  g_assert_false (fl_run_is_finished (at30));
  g_autoptr (FlCursor) c30 = fl_cursor_new (at30);
  g_assert_true (fl_cursor_seek (c30, 30));
  g_assert_cmphex (fl_cursor_get_state_hash (c30), ==, state30);

  fl_sim_run (sim, 0);
  g_assert_cmphex (fl_run_get_hash (at30), ==, hash30);   /* the snapshot stays as it was */
  g_autoptr (FlRun) whole = fl_run_new_from_sim (g_steal_pointer (&sim));
  g_autoptr (FlSim) back = run_builtin ("spf-vs-munmap", NULL, 0);
  g_assert_true (fl_sim_seek (back, 12));
  g_autoptr (FlRun) again = fl_run_new_snapshot (back);
  g_assert_true (fl_run_same (again, whole));
  g_assert_cmpuint (fl_sim_get_step (back), ==, 12);
  g_autoptr (FlCursor) c = fl_cursor_new (again);
  g_assert_true (fl_cursor_seek (c, 12));
  g_assert_cmphex (fl_cursor_get_state_hash (c), ==, fl_sim_get_state_hash (back));
  g_assert_true (fl_cursor_seek (c, 0));
  g_assert_true (fl_cursor_seek (c, 29));
  g_assert_true (fl_cursor_seek (c30, 29));
  g_assert_cmphex (fl_cursor_get_state_hash (c), ==, fl_cursor_get_state_hash (c30));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/run/from-sim", test_run_from_sim);
  g_test_add_func ("/core/cursor/seek", test_cursor_seek);
  g_test_add_func ("/core/cursor/long-run", test_cursor_long_run);
  g_test_add_func ("/core/cursor/copy", test_cursor_copy);
  g_test_add_func ("/core/cursor/threads", test_cursor_threads);
  g_test_add_func ("/core/cursor/branch", test_branch);
  g_test_add_func ("/core/cursor/end-state", test_cursor_end_state);
  g_test_add_func ("/core/run/snapshot", test_snapshot);
  return g_test_run ();
}
