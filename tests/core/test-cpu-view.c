/* What a CPU is doing, as fl-cpu-view.h decodes it, checked at every step of every built-in
 * scenario under every value of every design switch (the what-if runs that produce findings
 * among them): every CPU's current line is a line of the listing the switches select, of the
 * function the CPU is in, and so is the line it goes on at; a waiting CPU says what it waits
 * for, and waits at the line of the step that parked it, as the events recorded it. Random
 * schedules with seeds 1-5 add the places where only other interleavings park a CPU. */
#include <string.h>

#include "fl-cpu-view.h"
#include "sim-helpers.h"

/* Scenarios longer than this are walked with their own switches only: every switch of a
 * million-step benchmark would take minutes and teach nothing the short ones do not. */
#define SHORT_RUN 30000

typedef struct {
  const FlConfig *config;
  FlListing      *listings[FL_FN_N];
  gboolean        looked_up[FL_FN_N];
  FlLoc           parked_at[FL_MAX_CPUS];   /* the line of each CPU's last parking step */
  guint64         checked;                  /* CPU views checked, for the message */
  guint64         waits;
} Walk;

static FlListing *
listing_of (Walk *w, FlFn fn)
{
  if (!w->looked_up[fn])
    {
      w->listings[fn] = fl_listing_get_for (fn, w->config);
      w->looked_up[fn] = TRUE;
    }
  return w->listings[fn];
}

static gboolean
parked (FlCpuStatus status)
{
  return status == FL_CPU_SPIN || status == FL_CPU_SLEEP || status == FL_CPU_IPI_WAIT
         || status == FL_CPU_STUCK;
}

/* One line of the function's listing, or a message saying why not. */
static gboolean
has_line (Walk *w, FlFn fn, FlLoc loc, const char *what, const char *where)
{
  FlListing *listing = listing_of (w, fn);
  if (fl_loc_fn (loc) != fn || listing == NULL || fl_listing_line_of (listing, loc) < 0)
    {
      g_test_message ("%s: %s %s:%s is not a line of %s's listing", where, what,
                      fl_fn_name (fl_loc_fn (loc)), fl_loc_tag (loc), fl_fn_id (fn));
      return FALSE;
    }
  return TRUE;
}

/* Returns the CPU the view says the script steps next (another CPU waiting for its turn
 * names it), -1 when it says nothing. */
static gint
check_cpu (Walk *w, FlSim *sim, guint cpu, const char *run)
{
  FlCpuView v;
  fl_sim_get_cpu_view (sim, cpu, &v);
  const FlCpu *c = &fl_sim_get_state (sim)->cpus[cpu];
  g_autofree char *where = g_strdup_printf ("%s, step %" G_GUINT64_FORMAT ", cpu%u", run,
                                            fl_sim_get_step (sim), cpu);
  w->checked++;
  g_assert_cmpuint (v.cpu, ==, cpu);
  g_assert_cmpint (v.status, ==, c->status);
  g_assert_cmpuint (v.depth, ==, c->depth);
  g_assert_true (v.fn == (v.depth ? v.frames[v.depth - 1].fn : FL_FN_USER));
  g_assert_true (has_line (w, v.fn, v.loc, "the current line", where));
  g_assert_true (has_line (w, v.fn, v.next, "the next line", where));
  for (guint i = 0; i + 1 < v.depth; i++)
    if (v.frames[i].loc != FL_LOC_NONE)
      g_assert_true (has_line (w, v.frames[i].fn, v.frames[i].loc, "an outer frame's line",
                               where));
  g_assert_cmpint (fl_cpu_view_line (&v, w->config), >=, 0);

  if (!parked (c->status))
    {
      g_assert_true (v.loc == v.next);
      if (v.wait == FL_CPU_WAIT_NONE)
        return -1;
      /* only the script holds back a CPU that can step */
      g_assert_cmpint (v.wait, ==, FL_CPU_WAIT_SCHEDULE);
      g_assert_true (fl_sim_get_policy (sim) == FL_SCHED_SCRIPT);
      g_assert_cmpint (v.holder, >=, 0);
      g_assert_cmpint (v.holder, !=, (gint) cpu);
      g_assert_cmpuint (fl_cpu_view_n_waits_on (&v), ==, 1);
      g_assert_true (g_str_has_prefix (v.wait_name, "cpu"));
      w->waits++;
      return v.holder;
    }
  w->waits++;
  if (v.wait == FL_CPU_WAIT_NONE || v.loc != w->parked_at[cpu])
    g_test_message ("%s: %s, decoded as waiting for %s at %s:%s; it parked at %s:%s",
                    where, fl_fn_id (v.fn), fl_cpu_wait_name (v.wait),
                    fl_fn_name (fl_loc_fn (v.loc)), fl_loc_tag (v.loc),
                    fl_fn_name (fl_loc_fn (w->parked_at[cpu])), fl_loc_tag (w->parked_at[cpu]));
  g_assert_cmpint (v.wait, !=, FL_CPU_WAIT_NONE);
  g_assert_cmpint (v.loc, ==, w->parked_at[cpu]);
  g_assert_cmpstr (v.wait_name, !=, "");
  /* on whom: a spinlock, mmap_sem and a TLB flush always have someone to wait on */
  if (v.wait == FL_CPU_WAIT_LOCK || v.wait == FL_CPU_WAIT_LOCK_RELEASE
      || v.wait == FL_CPU_WAIT_RWSEM || v.wait == FL_CPU_WAIT_TLB_ACK)
    {
      if (fl_cpu_view_n_waits_on (&v) == 0)
        g_test_message ("%s: waits for %s (%s) on nobody", where, fl_cpu_wait_name (v.wait),
                        v.wait_name);
      g_assert_cmpuint (fl_cpu_view_n_waits_on (&v), >, 0);
      g_assert_cmpint (v.holder, >=, 0);
      g_assert_true (fl_cpu_view_waits_on (&v, (guint) v.holder));
      g_assert_false (fl_cpu_view_waits_on (&v, cpu));
    }
  return -1;
}

/* Runs the scenario one step at a time and checks every CPU after each. */
static void
walk_scenario (const FlScenario *sc, const char *id, const char *key, const char *value,
               guint64 random_seed)
{
  g_autoptr (GError) error = NULL;
  FlConfig config = sc->config;
  if (key)
    g_assert_true (fl_config_set (&config, key, value, NULL));
  g_autoptr (FlSim) sim = fl_sim_new (sc, &config, random_seed ? random_seed : sc->seed, &error);
  if (sim == NULL)
    {
      /* a switch this scenario's machine cannot take is the CLI's error, not a view's */
      g_test_message ("%s with %s=%s does not run: %s", id, key, value, error->message);
      return;
    }
  if (random_seed)
    fl_sim_set_policy (sim, FL_SCHED_RANDOM);
  g_autofree char *run = g_strdup_printf ("%s %s%s%s seed %" G_GUINT64_FORMAT, id,
                                          key ? key : "", key ? "=" : "", key ? value : "",
                                          random_seed);
  Walk *w = g_new0 (Walk, 1);
  w->config = fl_sim_get_config (sim);
  guint ncpus = fl_sim_get_state (sim)->sizes.ncpus;
  gsize seen = 0;
  gint turn = -1;
  do
    {
      /* the parking steps among the events the last step added */
      gsize n = fl_sim_get_n_events (sim);
      for (; seen < n; seen++)
        {
          FlEvent e = fl_sim_get_event (sim, seen);
          if (e.kind == FL_EV_SPIN || e.kind == FL_EV_SLEEP)
            w->parked_at[e.cpu] = e.loc;
          /* a CPU told to wait for its turn saw the right CPU take the step */
          if (turn >= 0 && e.kind != FL_EV_FINDING)
            g_assert_cmpint (e.cpu, ==, turn);
        }
      turn = -1;
      for (guint cpu = 0; cpu < ncpus; cpu++)
        {
          gint says = check_cpu (w, sim, cpu, run);
          if (says >= 0 && turn >= 0)
            g_assert_cmpint (says, ==, turn);
          if (says >= 0)
            turn = says;
        }
    }
  while (fl_sim_step (sim));
  g_test_message ("%s: %" G_GUINT64_FORMAT " CPU views, %" G_GUINT64_FORMAT " waiting", run,
                  w->checked, w->waits);
  g_free (w);
}

static void
walk (const char *id, const char *key, const char *value, guint64 random_seed)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FlScenario) sc = fl_scenario_load_builtin (id, &error);
  g_assert_no_error (error);
  walk_scenario (sc, id, key, value, random_seed);
}

/* The test scenarios of tests/data/good run every operation (fork, mprotect, migration, a
 * barrier), so they reach the park places the built-ins do not. */
static void
test_good_scenarios (void)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "data", "good", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GDir) d = g_dir_open (dir, 0, &error);
  g_assert_no_error (error);
  guint n = 0;
  for (const char *name; (name = g_dir_read_name (d)) != NULL;)
    {
      if (!g_str_has_suffix (name, ".fault"))
        continue;
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr (FlScenario) sc = fl_scenario_load_file (path, &error);
      g_assert_no_error (error);
      g_autoptr (FlSim) probe = fl_sim_new (sc, &sc->config, sc->seed, &error);
      g_assert_no_error (error);
      if (fl_sim_run (probe, SHORT_RUN + 1) > SHORT_RUN)
        continue;
      for (guint64 seed = 0; seed <= 5; seed++)
        walk_scenario (sc, name, NULL, NULL, seed);
      n++;
    }
  g_assert_cmpuint (n, >, 0);
}

static void
test_builtin (gconstpointer data)
{
  const char *id = data;
  walk (id, NULL, NULL, 0);
  {
    g_autoptr (FlSim) probe = run_builtin (id, NULL, SHORT_RUN + 1);
    if (fl_sim_get_step (probe) > SHORT_RUN)
      return;
  }
  /* every key with a choice of values, and `spf`, which sets several at once */
  const char *const *keys = fl_config_keys ();
  for (guint k = 0; keys[k]; k++)
    {
      const char *values = fl_config_valid_values (keys[k]);
      if (values == NULL || strchr (values, '|') == NULL)
        continue;
      g_auto (GStrv) each = g_strsplit (values, "|", -1);
      for (guint i = 0; each[i]; i++)
        walk (id, keys[k], each[i], 0);
    }
  walk (id, "spf", "v2-as-posted", 0);
  /* other interleavings park CPUs at places the scripts do not reach */
  for (guint64 seed = 1; seed <= 5; seed++)
    walk (id, NULL, NULL, seed);
}

/* The deadlock of pte-map-lock=spin-irqs-off, as a lecturer must be able to tell it: cpu1
 * waits at flush_tlb_others' wait loop for cpu0's acknowledgement; cpu0 spins for the PTE
 * lock cpu1 holds, with IRQs off, on the spin_lock line of the listing of that variant. */
static void
test_deadlock (void)
{
  const char *sets[] = { "pte-map-lock", "spin-irqs-off", NULL };
  g_autoptr (FlSim) sim = run_builtin ("spf-tlb-ipi", sets, 100000);
  g_assert_cmpuint (count_findings (sim, FL_FINDING_DEADLOCK), ==, 1);
  const FlConfig *config = fl_sim_get_config (sim);
  FlCpuView flusher, spinner;
  fl_sim_get_cpu_view (sim, 1, &flusher);
  fl_sim_get_cpu_view (sim, 0, &spinner);

  g_assert_cmpint (flusher.status, ==, FL_CPU_STUCK);
  g_assert_cmpint (flusher.wait, ==, FL_CPU_WAIT_TLB_ACK);
  g_assert_true (flusher.loc == FL_LOC_FLUSH_TLB_OTHERS_wait);
  g_assert_true (flusher.next == FL_LOC_FLUSH_TLB_OTHERS_done);
  g_assert_cmpint (flusher.holder, ==, 0);
  g_assert_cmpuint (fl_cpu_view_n_waits_on (&flusher), ==, 1);

  g_assert_cmpint (spinner.status, ==, FL_CPU_STUCK);
  g_assert_cmpint (spinner.wait, ==, FL_CPU_WAIT_LOCK);
  g_assert_true (spinner.irqs_off);
  g_assert_true (spinner.fn == FL_FN_PTE_MAP_LOCK);
  g_assert_true (spinner.loc == FL_LOC_PTE_MAP_LOCK_trylock);
  g_assert_cmpint (spinner.holder, ==, 1);
  g_assert_true (g_str_has_prefix (spinner.wait_name, "PTE lock of table"));
  FlListing *listing = fl_cpu_view_listing (&spinner, config);
  gint line = fl_cpu_view_line (&spinner, config);
  g_assert_cmpint (line, >=, 0);
  g_assert_nonnull (strstr (listing->lines[line].text, "spin_lock(ptl)"));
  /* the trylock loop's listing is not the one shown */
  g_assert_true (listing != fl_listing_get (FL_FN_PTE_MAP_LOCK));
}

/* A write variant of the rwsem runs the read variant's steps: its line is still its own. */
static void
test_write_variant (void)
{
  g_autoptr (FlSim) sim = run_builtin ("spf-vs-munmap", NULL, 21);
  FlCpuView v;
  fl_sim_get_cpu_view (sim, 1, &v);
  g_assert_true (v.fn == FL_FN_GENERIC_DOWN_WRITE);
  g_assert_true (fl_loc_fn (v.loc) == FL_FN_GENERIC_DOWN_WRITE);
  g_assert_true (fl_loc_fn (v.next) == FL_FN_GENERIC_DOWN_WRITE);
  g_assert_cmpint (fl_cpu_view_line (&v, fl_sim_get_config (sim)), >=, 0);
  g_assert_true (v.frames[0].fn == FL_FN_DO_MUNMAP);
  g_assert_true (fl_loc_fn (v.frames[0].loc) == FL_FN_DO_MUNMAP);
}

/* spf-vs-munmap's script runs cpu0 until (the line tagged) handle_pte_fault first: cpu1,
 * which could step, waits for its turn; there cpu1 runs, and cpu0 waits. */
static void
test_script_turn (void)
{
  g_autoptr (FlSim) sim = run_builtin ("spf-vs-munmap", NULL, 1);
  FlCpuView v;
  fl_sim_get_cpu_view (sim, 1, &v);
  g_assert_cmpint (v.wait, ==, FL_CPU_WAIT_SCHEDULE);
  g_assert_cmpint (v.holder, ==, 0);
  g_assert_cmpstr (v.wait_name, ==, "cpu0 until handle_pte_fault");
  fl_sim_get_cpu_view (sim, 0, &v);
  g_assert_cmpint (v.wait, ==, FL_CPU_WAIT_NONE);
  while (fl_sim_get_cpu_view (sim, 0, &v),
         v.loc != FL_LOC_HANDLE_SPECULATIVE_FAULT_handle_pte_fault)
    g_assert_true (fl_sim_step (sim));
  fl_sim_get_cpu_view (sim, 0, &v);
  g_assert_cmpint (v.wait, ==, FL_CPU_WAIT_SCHEDULE);
  g_assert_cmpstr (v.wait_name, ==, "cpu1 until end");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/cpu-view/deadlock", test_deadlock);
  g_test_add_func ("/core/cpu-view/write-variant", test_write_variant);
  g_test_add_func ("/core/cpu-view/script-turn", test_script_turn);
  g_test_add_func ("/core/cpu-view/every-step/test-scenarios", test_good_scenarios);
  g_auto (GStrv) ids = fl_scenario_builtin_ids ();
  for (guint i = 0; ids[i]; i++)
    {
      g_autofree char *path = g_strdup_printf ("/core/cpu-view/every-step/%s", ids[i]);
      g_test_add_data_func_full (path, g_strdup (ids[i]), test_builtin, g_free);
    }
  return g_test_run ();
}
