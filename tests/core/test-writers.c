/* Tests of the operations that change the address space: the VMA tree stays a valid
 * red-black tree through thousands of random mmap/munmap/mprotect calls, and every page
 * and counter balances at the end. */
#include "sim-helpers.h"

#define BASE 0x7f0000000000ull
#define SLOTS 64

/* A random program of mmap/munmap/mprotect/fault over 64 one-to-four-page slots. */
static char *
random_program (guint ops, guint32 seed)
{
  GRand *rand = g_rand_new_with_seed (seed);
  GString *t = g_string_new ("[scenario]\ntitle=random address-space changes\nseed=1\n\n"
                             "[config]\ncpus=1\nfault-path=speculative\n\n[mm]\n\n[cpu0]\n");
  gboolean mapped[SLOTS] = { FALSE };
  for (guint i = 0; i < ops; i++)
    {
      guint slot = g_rand_int_range (rand, 0, SLOTS);
      guint64 addr = BASE + (guint64) slot * 0x10000;
      guint pages = g_rand_int_range (rand, 1, 5);
      g_string_append (t, "ops=");
      if (!mapped[slot])
        {
          g_string_append_printf (t, "mmap 0x%" G_GINT64_MODIFIER "x 0x10000 rw- anon\n", addr);
          mapped[slot] = TRUE;
          continue;
        }
      switch (g_rand_int_range (rand, 0, 4))
        {
        case 0:
          g_string_append_printf (t, "munmap 0x%" G_GINT64_MODIFIER "x 0x10000\n", addr);
          mapped[slot] = FALSE;
          break;
        case 1:
          /* a partial change splits the VMA */
          g_string_append_printf (t, "mprotect 0x%" G_GINT64_MODIFIER "x 0x%x r--\n",
                                  addr + 0x1000 * g_rand_int_range (rand, 0, 4), pages * 0x1000);
          break;
        case 2:
          g_string_append_printf (t, "munmap 0x%" G_GINT64_MODIFIER "x 0x%x\n",
                                  addr + 0x1000 * g_rand_int_range (rand, 0, 4), pages * 0x1000);
          break;
        default:
          g_string_append_printf (t, "fault 0x%" G_GINT64_MODIFIER "x %s\n",
                                  addr + 0x1000 * g_rand_int_range (rand, 0, 16),
                                  g_rand_boolean (rand) ? "write" : "read");
          break;
        }
    }
  g_rand_free (rand);
  return g_string_free (t, FALSE);
}

static void
test_random_changes_keep_the_tree (void)
{
  g_autofree char *text = random_program (10000, 42);
  g_autoptr (GError) error = NULL;
  g_autoptr (FlScenario) sc = fl_scenario_parse (text, "random.fault", &error);
  g_assert_no_error (error);
  g_autoptr (FlSim) sim = fl_sim_new (sc, NULL, 1, &error);
  g_assert_no_error (error);
  fl_sim_run (sim, 0);
  g_assert_true (fl_sim_is_finished (sim));
  /* the oracle checked the tree after every change; faults into holes are errors, not findings */
  assert_no_findings (sim);
  FlCounters k;
  fl_sim_get_counters (sim, &k);
  g_assert_cmpuint (k.total, >, 1000);
  g_assert_cmpuint (count_events (sim, FL_FN_N, FL_EV_TREE), >, 1000);
}

static void
test_munmap_frees_tables_after_the_flush (void)
{
  g_autoptr (FlSim) sim = run_builtin ("spf-vs-munmap", NULL, 0);
  gsize n;
  const FlEvent *ev = fl_sim_get_events (sim, &n);
  gint64 flush = -1, tables = -1;
  for (gsize i = 0; i < n; i++)
    {
      if (fl_loc_fn (ev[i].loc) == FL_FN_FLUSH_TLB_OTHERS && flush < 0)
        flush = ev[i].step;
      if (ev[i].loc == FL_LOC_DO_MUNMAP_free_tables && tables < 0)
        tables = ev[i].step;
    }
  g_assert_cmpint (flush, >=, 0);
  g_assert_cmpint (tables, >, flush);
}

/* With pin-page-tables=none, a walker racing free_pgtables reads a freed table. */
static void
test_unpinned_walk_is_caught (void)
{
  const char *text =
    "[scenario]\ntitle=unpinned walk\nseed=1\n\n[config]\ncpus=2\npin-page-tables=none\n\n"
    "[mm]\nvma=0x7f0000000000-0x7f0000004000 rw- anon\npte=0x7f0000002000 present\n\n"
    "[cpu0]\nops=fault 0x7f0000001000 write\n\n[cpu1]\nops=munmap 0x7f0000000000 0x4000\n\n"
    "[schedule]\nsteps=cpu0 until pte_map_lock:pmd; cpu1 until end; cpu0 for 1; cpu1 until end; "
    "cpu0 until end\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (FlScenario) sc = fl_scenario_parse (text, "unpinned.fault", &error);
  g_assert_no_error (error);
  g_autoptr (FlSim) sim = fl_sim_new (sc, NULL, 1, &error);
  fl_sim_run (sim, 0);
  g_assert_cmpuint (count_findings (sim, FL_FINDING_USE_AFTER_FREE), >, 0);

  /* pinned (IRQs off), the flush waits for the walker and the tables outlive the walk */
  FlConfig safe = sc->config;
  fl_config_set (&safe, "pin-page-tables", "irqs-off", NULL);
  g_autoptr (FlSim) pinned = fl_sim_new (sc, &safe, 1, &error);
  fl_sim_run (pinned, 0);
  assert_no_findings (pinned);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/writers/random-changes-keep-the-tree", test_random_changes_keep_the_tree);
  g_test_add_func ("/core/writers/munmap-frees-tables-after-flush", test_munmap_frees_tables_after_the_flush);
  g_test_add_func ("/core/writers/unpinned-walk", test_unpinned_walk_is_caught);
  return g_test_run ();
}
