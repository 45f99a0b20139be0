/* A speculative find_vma that a tree rotation misleads (spf-vs-rotation, issue 20): the walk
 * reads the root, cpu1's mmap rotates left at it, and the walk goes right into nothing. The
 * model counts the miss (missed VMA lookups), says who hid the VMA, and the fault retries
 * under mmap_sem with no finding, in v2 and in Kamezawa's design; the locked path never
 * misses, and neither does a walk the rotation does not fall inside. */
#include "sim-helpers.h"
#include "fl-explore.h"
#include "fl-explore-private.h"
#include "fl-footprint.h"
#include "fl-rbtree.h"
#include "fl-cpu-view.h"

#include <string.h>

static FlScenario *
builtin (void)
{
  g_autoptr (GError) error = NULL;
  FlScenario *sc = fl_scenario_load_builtin ("spf-vs-rotation", &error);
  g_assert_no_error (error);
  return sc;
}

/* The built-in with its [schedule] replaced by `steps` (none: NULL). */
static FlScenario *
with_schedule (const char *steps)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FlScenario) sc = builtin ();
  const char *at = strstr (sc->text, "\n[schedule]");
  g_assert_nonnull (at);
  g_autofree char *head = g_strndup (sc->text, at - sc->text + 1);
  g_autofree char *text = steps ? g_strdup_printf ("%s[schedule]\nsteps=%s\n", head, steps)
                                : g_strdup (head);
  FlScenario *out = fl_scenario_parse (text, "spf-vs-rotation.fault", &error);
  g_assert_no_error (error);
  return out;
}

static FlSim *
run_scenario (const FlScenario *sc, const char *key, const char *value)
{
  g_autoptr (GError) error = NULL;
  FlConfig config = sc->config;
  if (key)
    g_assert_true (fl_config_set (&config, key, value, &error));
  FlSim *sim = fl_sim_new (sc, &config, sc->seed, &error);
  g_assert_no_error (error);
  fl_sim_run (sim, 0);
  g_assert_true (fl_sim_is_finished (sim));
  assert_no_findings (sim);
  g_assert_cmpuint (fl_sim_get_unreached (sim)->len, ==, 0);
  return sim;
}

static FlCounters
counters_of (FlSim *sim)
{
  FlCounters k;
  fl_sim_get_counters (sim, &k);
  return k;
}

/* The step that found the miss: its range check, with the model's own why. */
static void
assert_explained (FlSim *sim, FlFn check_fn)
{
  GArray *misses = fl_sim_get_spf_misses (sim);
  g_assert_cmpuint (misses->len, ==, 1);
  const FlSpfMiss *m = &g_array_index (misses, FlSpfMiss, 0);
  g_assert_cmpuint (m->cpu, ==, 0);
  g_assert_cmpuint (m->vma, ==, 2);
  g_assert_cmpint (m->cause_cpu, ==, 1);
  g_assert_cmpuint (m->cause_action, ==, FL_RB_ACTION_ROTATE_LEFT);
  g_assert_cmpuint (m->cause_subject, ==, 1);
  g_assert_cmpuint (m->node, ==, 1);
  g_assert_cmpuint (m->cause_step, <, m->step);
  gsize n;
  const FlEvent *ev = fl_sim_get_events (sim, &n);
  guint explained = 0;
  for (gsize i = 0; i < n; i++)
    {
      g_autofree char *why = fl_sim_explain_event (sim, &ev[i]);
      if (why == NULL)
        continue;
      explained++;
      g_assert_cmpuint (ev[i].step + 1, ==, m->step);
      g_assert_cmpuint (ev[i].kind, ==, FL_EV_CHECK);
      g_assert_cmpuint (ev[i].val & 1, ==, 0);
      g_assert_cmpuint (fl_loc_fn (ev[i].loc), ==, check_fn);
      g_autofree char *cause = g_strdup_printf ("cpu1's rotate-left at VMA 1 (step %" G_GUINT64_FORMAT
                                                ") moved it above VMA 1", m->cause_step);
      g_assert_nonnull (strstr (why, "The walk missed VMA 2"));
      g_assert_nonnull (strstr (why, cause));
      g_assert_nonnull (strstr (why, "retries under mmap_sem"));
      g_autofree char *what = fl_sim_describe_event (sim, &ev[i]);
      g_assert_nonnull (strstr (what, "the walk missed VMA 2"));
    }
  g_assert_cmpuint (explained, ==, 1);
  /* what the views are told: cpu0's fault has VMA 2 out of its reach, hidden by cpu1, from
   * the rotation's step to the range check's, and at no other step */
  for (guint64 step = 1; step < m->step + 3; step++)
    {
      g_assert_true (fl_sim_seek (sim, step));
      FlCpuFault fault;
      fl_cpu_fault_decode (fl_sim_get_state (sim), 0, &fault);
      gboolean hidden = step >= m->cause_step && step < m->step;
      g_assert_cmpuint (fault.hidden_vma, ==, hidden ? 2 : 0);
      if (hidden)
        g_assert_cmpuint (fault.hidden_by, ==, 1);
    }
}

/* The scenario as written under `fault_path`: one miss, found at `check_fn`'s range check,
 * then the locked path maps the page. */
static void
assert_one_miss (const char *fault_path, FlFn check_fn)
{
  g_autoptr (FlScenario) sc = builtin ();
  g_autoptr (FlSim) sim = run_scenario (sc, "fault-path", fault_path);
  FlCounters k = counters_of (sim);
  g_assert_cmpuint (k.total, ==, 1);
  g_assert_cmpuint (k.missed, ==, 1);
  g_assert_cmpuint (k.retried, ==, 1);
  g_assert_cmpuint (k.locked, ==, 1);
  g_assert_cmpuint (k.speculative, ==, 0);
  g_assert_cmpuint (k.minor, ==, 1);
  g_assert_cmpuint (k.errors, ==, 0);
  assert_explained (sim, check_fn);
}

/* The scenario's schedule, v2's design (the scenario's own). */
static void
test_scripted_miss (void)
{
  assert_one_miss ("speculative", FL_FN_HANDLE_SPECULATIVE_FAULT);
}

/* Kamezawa's find_vma_speculative walks the same tree the same way: the same miss, the
 * same fallback. */
static void
test_refcount_misses_too (void)
{
  assert_one_miss ("speculative-refcount", FL_FN_FIND_VMA_SPECULATIVE);
}

/* A rotation before the walk reads the root, or after the walk found its VMA, misleads
 * nobody: the fault is speculative from start to end. */
static void
test_rotation_outside_the_walk (void)
{
  static const char *const orders[] = {
    "cpu1 until end; cpu0 until end",
    "cpu0 until end; cpu1 until end",
  };
  static const char *const paths[] = { "speculative", "speculative-refcount" };
  for (guint i = 0; i < G_N_ELEMENTS (orders); i++)
    for (guint p = 0; p < G_N_ELEMENTS (paths); p++)
      {
        g_autoptr (FlScenario) sc = with_schedule (orders[i]);
        g_autoptr (FlSim) sim = run_scenario (sc, "fault-path", paths[p]);
        FlCounters k = counters_of (sim);
        g_test_message ("%s, %s", orders[i], paths[p]);
        g_assert_cmpuint (k.missed, ==, 0);
        g_assert_cmpuint (k.retried, ==, 0);
        g_assert_cmpuint (k.speculative, ==, 1);
        g_assert_cmpuint (fl_sim_get_spf_misses (sim)->len, ==, 0);
      }
}

/* The steps cpu0 takes when it runs alone to its end first. */
static guint
cpu0_steps (const char *fault_path)
{
  g_autoptr (FlScenario) sc = with_schedule ("cpu0 until end; cpu1 until end");
  g_autoptr (FlSim) sim = run_scenario (sc, "fault-path", fault_path);
  gsize n;
  const FlEvent *ev = fl_sim_get_events (sim, &n);
  guint steps = 0;
  for (gsize i = 0; i < n; i++)
    steps += ev[i].cpu == 0 && ev[i].kind != FL_EV_FINDING;
  return steps;
}

/* Every moment cpu1's whole mmap can fall into cpu0's fault: cpu0 takes `k` steps, cpu1 runs
 * to its end, cpu0 goes on. Returns for how many k the walk missed, and the first such k. */
static guint
misses_over_every_preemption (const char *fault_path, guint *first)
{
  guint with_miss = 0, last = cpu0_steps (fault_path);
  *first = G_MAXUINT;
  for (guint k = 0; k <= last; k++)
    {
      g_autofree char *steps = k ? g_strdup_printf ("cpu0 for %u; cpu1 until end; cpu0 until end", k)
                                 : g_strdup ("cpu1 until end; cpu0 until end");
      g_autoptr (FlScenario) sc = with_schedule (steps);
      g_autoptr (FlSim) sim = run_scenario (sc, "fault-path", fault_path);
      FlCounters c = counters_of (sim);
      g_assert_cmpuint (c.total, ==, 1);
      g_assert_cmpuint (c.errors, ==, 0);
      if (c.missed)
        {
          g_assert_cmpuint (c.missed, ==, 1);
          g_assert_cmpuint (c.retried, ==, 1);
          with_miss++;
          *first = MIN (*first, k);
        }
    }
  return with_miss;
}

/* Exactly one moment misleads the walk: after it read the root, before it visited it. */
static void
test_exactly_when (void)
{
  guint first;
  g_assert_cmpuint (misses_over_every_preemption ("speculative", &first), ==, 1);
  /* user op, fault entry, try_spec, rcu_read_lock, call find_vma, mmap_cache and root */
  g_assert_cmpuint (first, ==, 6);
  g_assert_cmpuint (misses_over_every_preemption ("speculative-refcount", &first), ==, 1);
  /* user op, fault entry, try_spec, rcu_read_lock, the root */
  g_assert_cmpuint (first, ==, 5);
  g_assert_cmpuint (misses_over_every_preemption ("locked", &first), ==, 0);
}

/* The locked design walks under mmap_sem, which the writer needs for writing: it never
 * misses, whatever the order. */
static void
test_locked_never_misses (void)
{
  g_autoptr (FlScenario) sc = builtin ();
  g_autoptr (FlSim) sim = run_scenario (sc, "fault-path", "locked");
  FlCounters k = counters_of (sim);
  g_assert_cmpuint (k.missed, ==, 0);
  g_assert_cmpuint (k.locked, ==, 1);
  g_assert_cmpuint (fl_sim_get_spf_misses (sim)->len, ==, 0);
}

/* Seeking back and running again finds the same one miss: the record beside the state
 * follows the events. */
static void
test_seek_keeps_one_miss (void)
{
  g_autoptr (FlScenario) sc = builtin ();
  g_autoptr (FlSim) sim = run_scenario (sc, NULL, NULL);
  guint64 end = fl_sim_get_step (sim);
  FlSpfMiss before = g_array_index (fl_sim_get_spf_misses (sim), FlSpfMiss, 0);
  g_assert_true (fl_sim_seek (sim, 3));
  g_assert_cmpuint (counters_of (sim).missed, ==, 0);
  g_assert_true (fl_sim_seek (sim, end));
  g_assert_cmpuint (counters_of (sim).missed, ==, 1);
  g_assert_cmpuint (fl_sim_get_spf_misses (sim)->len, ==, 1);
  FlSpfMiss m;
  g_assert_true (fl_sim_get_spf_miss (sim, before.step, 0, &m));
  g_assert_cmpuint (m.cause_step, ==, before.cause_step);
}

/* The outcome key the explorer gives the end of `sim`'s run: its final state without time,
 * no finding (fl-explore.c). */
static guint64
outcome_key (FlSim *sim)
{
  guint64 state = fl_state_semantic_hash (fl_sim_get_state (sim), FL_STATE_OUTCOME);
  return fl_explore_mix (state ^ fl_explore_mix (0));
}

/* A miss is a cost, not a bug: the explorer finds nothing in any interleaving, under every
 * design that walks without mmap_sem and with v2's cache update, and the end of the missed
 * walk's run (retried, locked, missed) is one of its outcomes: the miss is reachable. */
static void
test_explorer_finds_nothing (void)
{
  static const char *const sets[][2] = {
    { "fault-path", "speculative" }, { "fault-path", "speculative-refcount" },
    { "spf", "v2-as-posted" }, { "spf-mmap-cache", "update" }, { "vma-refcount", "as-posted" },
  };
  g_autoptr (FlScenario) sc = with_schedule (NULL);
  for (guint i = 0; i < G_N_ELEMENTS (sets); i++)
    {
      g_autoptr (GError) error = NULL;
      FlConfig config = sc->config;
      g_assert_true (fl_config_set (&config, sets[i][0], sets[i][1], &error));
      FlExploreOptions options = { .preemptions = 2, .reduction = FL_EXPLORE_REDUCTION_STATES,
                                   .keep_outcomes = TRUE };
      g_autoptr (FlExploreResult) r = fl_explore_run (sc, &config, &options, &error);
      g_assert_no_error (error);
      g_test_message ("%s=%s: %" G_GUINT64_FORMAT " outcomes", sets[i][0], sets[i][1],
                      r->outcomes);
      g_assert_cmpint (r->verdict, ==, FL_EXPLORE_COMPLETE);
      g_assert_cmpuint (r->findings->len, ==, 0);

      /* the scripted miss, run as the explorer runs (no hold: time decides nothing there) */
      g_autoptr (FlScenario) scripted = with_schedule ("cpu0 until walk; cpu1 until end; "
                                                       "cpu0 until end");
      g_assert_true (fl_config_set (&config, "cost.hold", "0", &error));
      g_autoptr (FlSim) sim = fl_sim_new (scripted, &config, 1, &error);
      g_assert_no_error (error);
      fl_sim_run (sim, 0);
      g_assert_cmpuint (counters_of (sim).missed, ==, 1);
      guint64 key = outcome_key (sim);
      gboolean reached = FALSE;
      for (guint o = 0; o < r->outcome_keys->len; o++)
        reached |= g_array_index (r->outcome_keys, guint64, o) == key;
      g_assert_true (reached);
    }
}

/* rb_erase can hide a VMA too: munmap of the root moves its successor up, out from under
 * the node a walk stands on. */
static void
test_erase_hides_the_successor (void)
{
  /* inserted in order, VMA 2 is the root, VMA 4 its right child and VMA 3 VMA 4's left
   * child; erasing VMA 2 moves VMA 3 up to the root, and VMA 4's left becomes nil */
  const char *text =
    "[scenario]\ntitle=erase\nseed=1\n\n[config]\ncpus=2\nfault-path=speculative\n\n[mm]\n"
    "vma=0x7f0000000000-0x7f0000001000 rw- anon\nvma=0x7f0000002000-0x7f0000003000 rw- anon\n"
    "vma=0x7f0000004000-0x7f0000005000 rw- anon\nvma=0x7f0000006000-0x7f0000007000 rw- anon\n"
    "vma=0x7f0000008000-0x7f0000009000 rw- anon\npte=0x7f0000000000 present\n\n"
    "[cpu0]\nops=fault 0x7f0000004000 write\n\n[cpu1]\nops=munmap 0x7f0000002000 0x1000\n\n"
    "[schedule]\nsteps=cpu0 until walk; cpu0 for 1; cpu1 until end; cpu0 until end\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (FlScenario) sc = fl_scenario_parse (text, "erase.fault", &error);
  g_assert_no_error (error);
  g_autoptr (FlSim) sim = run_scenario (sc, NULL, NULL);
  g_assert_cmpuint (counters_of (sim).missed, ==, 1);
  const FlSpfMiss *m = &g_array_index (fl_sim_get_spf_misses (sim), FlSpfMiss, 0);
  g_assert_cmpuint (m->vma, ==, 3);
  g_assert_cmpint (m->cause_cpu, ==, 1);
  g_assert_cmpuint (m->cause_action, ==, FL_RB_ACTION_SUCCESSOR);
  g_assert_cmpuint (m->cause_subject, ==, 3);
  g_assert_cmpuint (m->node, ==, 4);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/rotation/scripted-miss", test_scripted_miss);
  g_test_add_func ("/core/rotation/refcount-misses-too", test_refcount_misses_too);
  g_test_add_func ("/core/rotation/outside-the-walk", test_rotation_outside_the_walk);
  g_test_add_func ("/core/rotation/exactly-when", test_exactly_when);
  g_test_add_func ("/core/rotation/locked-never-misses", test_locked_never_misses);
  g_test_add_func ("/core/rotation/seek-keeps-one-miss", test_seek_keeps_one_miss);
  g_test_add_func ("/core/rotation/explorer-finds-nothing", test_explorer_finds_nothing);
  g_test_add_func ("/core/rotation/erase-hides-the-successor", test_erase_hides_the_successor);
  return g_test_run ();
}
