/* Tests of a long run's memory: the packed events read back exactly, and seeking through
 * thinned checkpoints lands on the state that stepping reaches. */
#include "sim-helpers.h"
#include "fl-sim-internal.h"
#include "fl-workload.h"

#include <string.h>

/* multi-fault at 8 CPUs, 4 rounds: about 675,000 steps, so the events fill several chunks and
 * the checkpoints are thinned more than once. */
static FlSim *
long_run (guint64 max_steps)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FlScenario) sc = fl_workload_build ("multi-fault", 8, 4, &error);
  g_assert_no_error (error);
  FlConfig config = sc->config;
  g_assert_true (fl_config_set (&config, "oracle", "at-end", &error));
  FlSim *sim = fl_sim_new (sc, &config, 1, &error);
  g_assert_no_error (error);
  fl_sim_run (sim, max_steps);
  return sim;
}

static gint
by_value (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return x < y ? -1 : x > y;
}

/* Seeks in random order through the whole run equal the states met stepping forward once. */
static void
test_seek_long_run (void)
{
  enum { N = 24 };
  g_autoptr (FlSim) full = long_run (0);
  guint64 total = fl_sim_get_total_steps (full);
  g_assert_cmpuint (total, >, 600000);
  GRand *rand = g_rand_new_with_seed (11);
  guint64 targets[N], hashes[N];
  targets[0] = 0;
  targets[1] = total;
  for (guint i = 2; i < N; i++)
    targets[i] = (guint64) g_rand_int_range (rand, 1, (gint32) total);
  qsort (targets, N, sizeof targets[0], by_value);

  g_autoptr (FlSim) walker = long_run (1);
  fl_sim_seek (walker, 0);
  g_assert_cmpuint (fl_sim_get_step (walker), ==, 0);
  for (guint i = 0; i < N; i++)
    {
      if (targets[i] > fl_sim_get_step (walker))   /* 0 would mean "to the end" */
        fl_sim_run (walker, targets[i] - fl_sim_get_step (walker));
      g_assert_cmpuint (fl_sim_get_step (walker), ==, targets[i]);
      hashes[i] = fl_sim_get_state_hash (walker);
    }
  for (guint k = 0; k < 3 * N; k++)
    {
      guint i = g_rand_int_range (rand, 0, N);
      g_assert_true (fl_sim_seek (full, targets[i]));
      g_assert_cmpuint (fl_sim_get_step (full), ==, targets[i]);
      g_assert_cmpuint (fl_sim_get_state_hash (full), ==, hashes[i]);
    }
  g_rand_free (rand);
}

/* Stepping a CPU in the middle of a recorded run drops the future and rehashes the past from
 * the packed events (from the last checkpoint before it, which keeps the hash up to there):
 * when the choice is the recorded one, the run ends with the same hash, so every field of
 * every event rehashed was read back as it was recorded. */
static void
check_rehash (FlSim *sim, guint64 at)
{
  guint64 hash = fl_sim_get_hash (sim);
  gsize n = fl_sim_get_n_events (sim);
  g_assert_true (fl_sim_seek (sim, at));
  guint cpu = G_MAXUINT;
  for (gsize i = 0; i < n && cpu == G_MAXUINT; i++)
    {
      FlEvent e = fl_sim_get_event (sim, i);
      if (e.step == at && e.kind != FL_EV_FINDING)
        cpu = e.cpu;
    }
  g_assert_cmpuint (cpu, !=, G_MAXUINT);
  g_assert_true (fl_sim_step_cpu (sim, cpu));
  g_assert_cmpuint (fl_sim_get_n_events (sim), <, n);
  fl_sim_run (sim, 0);
  g_assert_cmpuint (fl_sim_get_n_events (sim), ==, n);
  g_assert_cmpuint (fl_sim_get_hash (sim), ==, hash);
}

static void
test_branch_rehash (void)
{
  g_autoptr (FlSim) sim = long_run (0);
  check_rehash (sim, fl_sim_get_total_steps (sim) - 1000);
  check_rehash (sim, 300000);
  /* a run with findings: a finding is one more event at its step */
  const char *const deadlock[] = { "pte-map-lock", "spin-irqs-off", NULL };
  g_autoptr (FlSim) found = run_builtin ("spf-tlb-ipi", deadlock, 0);
  g_assert_cmpuint (fl_sim_get_findings (found)->len, >, 0);
  g_assert_cmpuint (fl_sim_get_n_events (found), >, fl_sim_get_total_steps (found));
  check_rehash (found, fl_sim_get_total_steps (found) / 2);
}

/* The three ways of reading events agree. */
static void
test_event_accessors (void)
{
  g_autoptr (FlSim) sim = long_run (300000);
  gsize n;
  const FlEvent *flat = fl_sim_get_events (sim, &n);
  g_assert_cmpuint (n, ==, fl_sim_get_n_events (sim));
  g_assert_cmpuint (n, ==, 300000);
  FlEvent buf[100];
  for (gsize i = 0; i < n; i += 997)
    {
      FlEvent e = fl_sim_get_event (sim, i);
      g_assert_cmpmem (&e, sizeof e, &flat[i], sizeof flat[i]);
      g_assert_cmpuint (e.step, ==, i);
      gsize got = fl_sim_get_events_range (sim, i, G_N_ELEMENTS (buf), buf);
      g_assert_cmpuint (got, ==, MIN (G_N_ELEMENTS (buf), n - i));
      g_assert_cmpmem (buf, got * sizeof (FlEvent), &flat[i], got * sizeof (FlEvent));
    }
  g_assert_cmpuint (fl_sim_get_events_range (sim, n, 10, buf), ==, 0);
  /* the flat copy follows the run as it grows */
  fl_sim_run (sim, 5);
  flat = fl_sim_get_events (sim, &n);
  g_assert_cmpuint (n, ==, 300005);
  FlEvent last = fl_sim_get_event (sim, n - 1);
  g_assert_cmpmem (&last, sizeof last, &flat[n - 1], sizeof last);
}

static guint64
next_random (guint64 *s)
{
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

/* A simulation as the explorer drives it: every step chosen from outside. */
static FlSim *
explored (const char *id)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FlScenario) sc = fl_scenario_load_builtin (id, &error);
  g_assert_no_error (error);
  FlConfig config = sc->config;
  config.cost.hold = 0;
  FlSim *sim = fl_sim_new (sc, &config, sc->seed, &error);
  g_assert_no_error (error);
  fl_sim_set_policy (sim, FL_SCHED_EXTERNAL);
  fl_sim_fix_checkpoints (sim, 8);
  return sim;
}

/* The explorer's journaled steps (fl-state-journal.c), taken back one or a few at a time
 * along a random walk, give the state the walk had there byte for byte (a seek when a step
 * grew an array), and the run the walk ends with is the one its choices give from the start:
 * its events, and its state. */
static void
test_journal_undo (gconstpointer data)
{
  g_autoptr (FlSim) sim = explored (data);
  guint ncpus = fl_sim_get_config (sim)->cpus;
  GPtrArray *journals = g_ptr_array_new_with_free_func ((GDestroyNotify) fl_state_journal_free);
  g_autoptr (GArray) hashes = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr (GArray) choices = g_array_new (FALSE, FALSE, sizeof (guint8));
  guint64 h = fl_sim_get_state_hash (sim), rng = 29;
  g_array_append_val (hashes, h);
  /* forward more often than back, so that the walk reaches the ends of runs; it ends with a
   * step, which drops the run past it (after going back, the recorded run goes on) */
  gboolean stepped = FALSE;
  for (guint i = 0; i < 800 || !stepped; i++)
    {
      stepped = FALSE;
      guint depth = (guint) fl_sim_get_step (sim);
      if (depth > 0 && next_random (&rng) % 8 == 0)
        {
          guint at = depth - 1 - (guint) (next_random (&rng) % MIN (depth, 4));
          if (fl_sim_undo_steps (sim, (FlStateJournal *const *) journals->pdata + at,
                                 depth - at) < depth - at)
            g_assert_true (fl_sim_seek (sim, at));
          g_assert_cmpuint (fl_sim_get_state_hash (sim), ==, g_array_index (hashes, guint64, at));
          g_array_set_size (hashes, at + 1);
          g_array_set_size (choices, at);
          continue;
        }
      while (journals->len <= depth)
        g_ptr_array_add (journals, fl_state_journal_new ());
      guint8 cpu = (guint8) (next_random (&rng) % ncpus);
      if (!fl_sim_step_cpu_journaled (sim, cpu, g_ptr_array_index (journals, depth)))
        continue;
      h = fl_sim_get_state_hash (sim);
      g_array_append_val (hashes, h);
      g_array_append_val (choices, cpu);
      stepped = TRUE;
    }
  fl_sim_end_journal (sim);
  g_autoptr (FlSim) again = explored (data);
  for (guint i = 0; i < choices->len; i++)
    g_assert_true (fl_sim_step_cpu (again, g_array_index (choices, guint8, i)));
  g_assert_cmpuint (fl_sim_get_hash (again), ==, fl_sim_get_hash (sim));
  g_assert_cmpuint (fl_sim_get_state_hash (again), ==, fl_sim_get_state_hash (sim));
  g_ptr_array_unref (journals);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/seek/long-run", test_seek_long_run);
  g_test_add_func ("/core/seek/branch-rehash", test_branch_rehash);
  g_test_add_func ("/core/events/accessors", test_event_accessors);
  g_test_add_data_func ("/core/seek/journal/spf-vs-munmap", "spf-vs-munmap", test_journal_undo);
  g_test_add_data_func ("/core/seek/journal/spf-mmap-cache-race", "spf-mmap-cache-race",
                        test_journal_undo);
  g_test_add_data_func ("/core/seek/journal/refcount-vs-munmap", "refcount-vs-munmap",
                        test_journal_undo);
  return g_test_run ();
}
