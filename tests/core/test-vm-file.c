/* Tests of vm_file's lifetime (fl-vm-file.c, spf-file-vs-munmap): as v2 posted it
 * (vm-file-put=immediate) munmap puts the file while a speculative fault still holds the
 * VMA and the fault's ->fault reads a file already gone; with the repair the file stays open
 * until the VMA's RCU callback, the fault retries and nothing is found; a split's two halves
 * share one file; and the explorer finds v2's bug without the scenario's schedule. */
#include "sim-helpers.h"
#include "fl-cpu-view.h"
#include "fl-explore.h"
#include "fl-state.h"

/* The step (from 1) of the first event at `loc`, 0 when none. */
static guint64
step_at (FlSim *sim, FlLoc loc)
{
  gsize n;
  const FlEvent *ev = fl_sim_get_events (sim, &n);
  for (gsize i = 0; i < n; i++)
    if (ev[i].loc == loc)
      return ev[i].step + 1;
  return 0;
}

/* v2's order: the finding names the file, its cause is cpu1's remove_vma step. */
static void
test_v2_reads_a_put_file (void)
{
  static const char *const presets[][2] = { { "vm-file-put", "immediate" },
                                            { "spf", "v2-as-posted" } };
  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    {
      const char *sets[] = { presets[i][0], presets[i][1], NULL };
      g_autoptr (FlSim) sim = run_builtin ("spf-file-vs-munmap", sets, 0);
      GPtrArray *findings = fl_sim_get_findings (sim);
      g_assert_cmpuint (count_findings (sim, FL_FINDING_USE_AFTER_FREE), ==, 1);
      const FlFinding *f = NULL;
      for (guint k = 0; k < findings->len; k++)
        if (((FlFinding *) findings->pdata[k])->kind == FL_FINDING_USE_AFTER_FREE)
          f = findings->pdata[k];
      g_assert_nonnull (strstr (f->message, "reads the file of VMA 1"));
      g_assert_cmpuint (f->cpu, ==, 0);
      g_assert_cmpuint (f->cause_cpu, ==, 1);
      g_assert_cmpuint (f->cause_step, ==, step_at (sim, FL_LOC_DO_MUNMAP_remove_vma));
      g_assert_nonnull (strstr (f->cause, "vm-file-put=immediate"));
      g_assert_cmpuint (f->objects.vma, ==, 1);
    }
}

/* The repair: no finding, the fault retries and the range is gone (SIGSEGV); the file is
 * open from munmap's remove_vma until the VMA's RCU callback, and released by it. */
static void
test_repair_keeps_the_file_until_the_grace_period (void)
{
  g_autoptr (FlSim) sim = run_builtin ("spf-file-vs-munmap", NULL, 0);
  assert_no_findings (sim);
  FlCounters k;
  fl_sim_get_counters (sim, &k);
  g_assert_cmpuint (k.retried, ==, 1);
  g_assert_cmpuint (k.errors, ==, 1);
  guint64 removed = step_at (sim, FL_LOC_DO_MUNMAP_remove_vma);
  guint64 freed = step_at (sim, FL_LOC_RCU_DO_BATCH_invoke);
  g_assert_cmpuint (removed, >, 0);
  g_assert_cmpuint (freed, >, removed);
  for (guint64 step = removed; step <= freed; step++)
    {
      g_assert_true (fl_sim_seek (sim, step));
      const FlState *st = fl_sim_get_state (sim);
      gboolean open = step < freed;
      g_assert_cmpuint (st->g->files_used, ==, open ? 1 : 0);
      g_assert_cmpint (fl_state_vma_holds_file (st, 1), ==, open);
    }
}

/* munmap of a file mapping's first half: split_vma's new VMA takes a reference of its own
 * (get_file), so the half that stays keeps the file open after the other half's put, even
 * as v2 put it. */
static void
test_split_halves_share_the_file (void)
{
  static const char text[] =
    "[scenario]\ntitle=half\n\n[config]\ncpus=1\nvm-file-put=immediate\n\n[mm]\n"
    "vma=0x7f0000100000-0x7f0000110000 r-- file\n\n[cpu0]\n"
    "ops=munmap 0x7f0000100000 0x8000; fault 0x7f0000109000 read\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (FlScenario) sc = fl_scenario_parse (text, "half", &error);
  g_assert_no_error (error);
  g_autoptr (FlSim) sim = fl_sim_new (sc, NULL, 1, &error);
  g_assert_no_error (error);
  fl_sim_run (sim, 0);
  assert_no_findings (sim);
  const FlState *st = fl_sim_get_state (sim);
  g_assert_cmpuint (st->g->files_used, ==, 1);
  guint holders = 0;
  for (guint32 v = 1; v < st->sizes.nvmas; v++)
    holders += st->vmas[v].state == FL_OBJ_LIVE && fl_state_vma_holds_file (st, v);
  g_assert_cmpuint (holders, ==, 1);
  FlCounters k;
  fl_sim_get_counters (sim, &k);
  g_assert_cmpuint (k.errors, ==, 0);
}

/* Without the schedule: the explorer finds v2's use-after-free, and with the repair every
 * reachable state holds none. */
static void
test_explorer_finds_it (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FlScenario) sc = fl_scenario_load_builtin ("spf-file-vs-munmap", &error);
  g_assert_no_error (error);
  g_array_set_size (sc->schedule, 0);
  FlExploreOptions options = { .preemptions = 2, .reduction = FL_EXPLORE_REDUCTION_STATES };
  FlConfig v2 = sc->config;
  g_assert_true (fl_config_set (&v2, "vm-file-put", "immediate", &error));
  g_autoptr (FlExploreResult) found = fl_explore_run (sc, &v2, &options, &error);
  g_assert_no_error (error);
  g_assert_cmpint (found->verdict, ==, FL_EXPLORE_FOUND);
  g_autoptr (FlExploreResult) safe = fl_explore_run (sc, &sc->config, &options, &error);
  g_assert_no_error (error);
  g_assert_cmpint (safe->verdict, ==, FL_EXPLORE_COMPLETE);
  g_assert_cmpuint (safe->findings->len, ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/vm-file/v2-reads-a-put-file", test_v2_reads_a_put_file);
  g_test_add_func ("/core/vm-file/repair-keeps-the-file-until-the-grace-period",
                   test_repair_keeps_the_file_until_the_grace_period);
  g_test_add_func ("/core/vm-file/split-halves-share-the-file", test_split_halves_share_the_file);
  g_test_add_func ("/core/vm-file/explorer-finds-it", test_explorer_finds_it);
  return g_test_run ();
}
