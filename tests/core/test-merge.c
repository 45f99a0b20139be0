/* Tests of vma_merge and vma_adjust: each case of 2.6.32's vma_merge leaves the VMAs the
 * kernel would, the v2 patch's seqcount sections close, and random address-space changes
 * (with speculative faults racing them) leave no two adjacent VMAs that should have merged;
 * anon_vma_prepare gives a VMA its anon_vma once, and two different ones keep VMAs apart. */
#include "sim-helpers.h"
#include "fl-state.h"

#define P G_GUINT64_CONSTANT (0x1000)
#define B G_GUINT64_CONSTANT (0x7f0000000000)

/* The VMAs in address order as "start-end flags" in pages from B, e.g. "0-4:rw 4-8:r". */
static char *
layout (FlSim *sim)
{
  const FlState *st = fl_sim_get_state (sim);
  GString *s = g_string_new (NULL);
  for (guint32 v = st->g->mm.mmap; v; v = st->vmas[v].next)
    {
      const FlVma *vma = &st->vmas[v];
      g_string_append_printf (s, "%s%" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT ":%s%s%s",
                              s->len ? " " : "", (vma->start - B) / P, (vma->end - B) / P,
                              vma->flags & FL_VM_READ ? "r" : "", vma->flags & FL_VM_WRITE ? "w" : "",
                              (vma->flags & (FL_VM_READ | FL_VM_WRITE)) ? "" : "-");
    }
  return g_string_free (s, FALSE);
}

static FlSim *
run_text (const char *ops, const char *extra_config)
{
  g_autofree char *text = g_strdup_printf (
    "[scenario]\ntitle=merge\nseed=1\n\n[config]\ncpus=1\nfault-path=speculative\n%s\n[mm]\n\n"
    "[cpu0]\nbase=0x%" G_GINT64_MODIFIER "x\nops=%s\n", extra_config ? extra_config : "", B, ops);
  g_autoptr (GError) error = NULL;
  g_autoptr (FlScenario) sc = fl_scenario_parse (text, "merge.fault", &error);
  g_assert_no_error (error);
  FlSim *sim = fl_sim_new (sc, NULL, 1, &error);
  g_assert_no_error (error);
  fl_sim_run (sim, 0);
  g_assert_true (fl_sim_is_finished (sim));
  return sim;
}

static void
assert_layout (const char *ops, const char *expected)
{
  g_autoptr (FlSim) sim = run_text (ops, NULL);
  assert_no_findings (sim);
  g_autofree char *got = layout (sim);
  if (g_strcmp0 (got, expected) != 0)
    g_test_message ("ops: %s", ops);
  g_assert_cmpstr (got, ==, expected);
}

/* mmap_region: an anonymous private range grows its neighbours (cases 1, 2, 3). */
static void
test_mmap_merges (void)
{
  assert_layout ("mmap base 0x4000 rw- anon; mmap base+0x4000 0x4000 rw- anon", "0-8:rw");
  assert_layout ("mmap base+0x4000 0x4000 rw- anon; mmap base 0x4000 rw- anon", "0-8:rw");
  assert_layout ("mmap base 0x4000 rw- anon; mmap base+0x8000 0x4000 rw- anon; "
                 "mmap base+0x4000 0x4000 rw- anon", "0-12:rw");
  /* different flags or a shared mapping stay apart */
  assert_layout ("mmap base 0x4000 rw- anon; mmap base+0x4000 0x4000 r-- anon", "0-4:rw 4-8:r");
  assert_layout ("mmap base 0x4000 rw- anon; mmap base+0x4000 0x4000 rw- shared", "0-4:rw 4-8:rw");
}

/* mprotect_fixup: the changed range joins whichever neighbour now has its flags. */
static void
test_mprotect_merges (void)
{
  const char *two = "mmap base 0x4000 r-- anon; mmap base+0x4000 0x4000 rw- anon; ";
  g_autofree char *c4 = g_strconcat (two, "mprotect base+0x3000 0x1000 rw-", NULL);
  g_autofree char *c5 = g_strconcat (two, "mprotect base+0x4000 0x1000 r--", NULL);
  g_autofree char *c7 = g_strconcat (two, "mprotect base+0x4000 0x4000 r--", NULL);
  g_autofree char *c8 = g_strconcat (two, "mprotect base 0x4000 rw-", NULL);
  assert_layout (c4, "0-3:r 3-8:rw");      /* case 4: prev shrinks, next grows down */
  assert_layout (c5, "0-5:r 5-8:rw");      /* case 5: prev grows, next's start moves up */
  assert_layout (c7, "0-8:r");             /* case 7: the whole of next joins prev */
  assert_layout (c8, "0-8:rw");            /* case 8: the whole of prev joins next */
  /* a range over two VMAs: the first merges, the second follows it */
  assert_layout ("mmap base 0x4000 r-- anon; mmap base+0x4000 0x4000 rw- anon; "
                 "mmap base+0x8000 0x4000 r-- anon; mprotect base+0x2000 0x8000 r--", "0-12:r");
}

/* Case 6: the middle goes back to its neighbours' flags, and vma_adjust absorbs two VMAs,
 * closing the first one's section and opening the next one's in between (remove_next 2). */
static void
test_case_6_removes_two (void)
{
  g_autoptr (FlSim) sim = run_text ("mmap base 0xc000 rw- anon; mprotect base+0x4000 0x4000 r--; "
                                    "mprotect base+0x4000 0x4000 rw-", NULL);
  assert_no_findings (sim);
  g_autofree char *got = layout (sim);
  g_assert_cmpstr (got, ==, "0-12:rw");
  gsize n;
  const FlEvent *ev = fl_sim_get_events (sim, &n);
  guint again = 0, removed = 0, frees = 0;
  for (gsize i = 0; i < n; i++)
    {
      again += ev[i].loc == FL_LOC_VMA_ADJUST_seq_begin_again;
      removed += ev[i].loc == FL_LOC_VMA_ADJUST_seq_end_removed;
      frees += ev[i].loc == FL_LOC_VMA_ADJUST_free_next && ev[i].kind == FL_EV_FREE;
    }
  g_assert_cmpuint (again, ==, 1);
  g_assert_cmpuint (removed, ==, 1);
  g_assert_cmpuint (frees, ==, 2);
  /* every write section closed: the one VMA's count is even */
  const FlState *st = fl_sim_get_state (sim);
  g_assert_cmpuint (st->vmas[st->g->mm.mmap].seq % 2, ==, 0);
  g_assert_cmpuint (st->g->mm.map_count, ==, 1);
}

/* Pages under two different anon_vmas cannot share a VMA: filling the hole between two VMAs
 * that each have pages grows only the first (case 2, not case 1); before their first pages
 * the three become one. A second write fault needs no anon_vma_prepare work. */
static void
test_anon_vmas_keep_apart (void)
{
  const char *faulted = "mmap base 0x4000 rw- anon; fault base write; mmap base+0x8000 0x4000 rw- anon; "
                        "fault base+0x8000 write; mmap base+0x4000 0x4000 rw- anon";
  assert_layout (faulted, "0-8:rw 8-12:rw");
  assert_layout ("mmap base 0x4000 rw- anon; mmap base+0x8000 0x4000 rw- anon; "
                 "mmap base+0x4000 0x4000 rw- anon; fault base write", "0-12:rw");
  g_autoptr (FlSim) sim = run_text ("mmap base 0x4000 rw- anon; fault base write; "
                                    "fault base+0x1000 write", NULL);
  g_assert_cmpuint (count_events (sim, FL_FN_ANON_VMA_PREPARE, FL_EV_ALLOC), ==, 1);
  g_assert_cmpuint (count_events (sim, FL_FN_ANON_VMA_PREPARE, FL_EV_LOCK), ==, 1);
  const FlState *st = fl_sim_get_state (sim);
  g_assert_cmpuint (st->vmas[st->g->mm.mmap].anon_vma, ==, 1);
}

/* File VMAs merge only where the file offsets line up. */
static void
test_file_offsets (void)
{
  assert_layout ("mmap base 0xc000 rw- file; mprotect base+0x4000 0x4000 r--; "
                 "mprotect base+0x4000 0x4000 rw-", "0-12:rw");
  /* two mappings of different files never merge */
  assert_layout ("mmap base 0x4000 rw- file; mmap base+0x4000 0x4000 r-- file; "
                 "mprotect base+0x4000 0x4000 rw-", "0-4:rw 4-8:rw");
}

/* With vma-free=immediate the patch's write_seqcount_end on the absorbed VMA writes freed
 * memory; through call_rcu (the patch) it does not. */
static void
test_seq_end_after_free (void)
{
  const char *ops = "mmap base 0x4000 r-- anon; mmap base+0x4000 0x4000 rw- anon; "
                    "mprotect base+0x4000 0x4000 r--";
  g_autoptr (FlSim) rcu = run_text (ops, NULL);
  assert_no_findings (rcu);
  g_autoptr (FlSim) now = run_text (ops, "vma-free=immediate\n");
  g_assert_cmpuint (count_findings (now, FL_FINDING_USE_AFTER_FREE), ==, 1);
}

/* Random mmap/munmap/mprotect over adjacent slots, with a second CPU faulting speculatively
 * in the same range under a random schedule: the oracle finds nothing, and at the end no two
 * adjacent VMAs have the same flags unless different anon_vmas keep them apart (in anonymous
 * memory every operation merges what can). */
static void
test_random_changes_leave_nothing_to_merge (void)
{
  guint absorbed = 0, twice = 0, retried = 0;
  for (guint32 seed = 1; seed <= 40; seed++)
    {
      GRand *rand = g_rand_new_with_seed (seed);
      GString *ops = g_string_new (NULL), *faults = g_string_new (NULL);
      static const char *const prots[] = { "rw-", "r--", "---" };
      for (guint i = 0; i < 120; i++)
        {
          guint64 at = (guint64) g_rand_int_range (rand, 0, 32) * P;
          guint64 len = (guint64) g_rand_int_range (rand, 1, 5) * P;
          const char *prot = prots[g_rand_int_range (rand, 0, 3)];
          switch (g_rand_int_range (rand, 0, 5))
            {
            case 0:
              g_string_append_printf (ops, "mmap base+0x%" G_GINT64_MODIFIER "x 0x%" G_GINT64_MODIFIER
                                      "x %s anon; ", at, len, prot);
              break;
            case 1:
              g_string_append_printf (ops, "munmap base+0x%" G_GINT64_MODIFIER "x 0x%"
                                      G_GINT64_MODIFIER "x; ", at, len);
              break;
            default:
              g_string_append_printf (ops, "mprotect base+0x%" G_GINT64_MODIFIER "x 0x%"
                                      G_GINT64_MODIFIER "x %s; ", at, len, prot);
              break;
            }
          g_string_append_printf (faults, "fault base+0x%" G_GINT64_MODIFIER "x %s; ",
                                  (guint64) g_rand_int_range (rand, 0, 40) * P,
                                  g_rand_boolean (rand) ? "write" : "read");
        }
      g_rand_free (rand);
      g_string_truncate (ops, ops->len - 2);
      g_string_truncate (faults, faults->len - 2);
      g_autofree char *text = g_strdup_printf (
        "[scenario]\ntitle=random merges\nseed=%u\n\n[config]\ncpus=2\nfault-path=speculative\n\n"
        "[mm]\n\n[cpu0]\nbase=0x%" G_GINT64_MODIFIER "x\nops=%s\n\n[cpu1]\nbase=0x%"
        G_GINT64_MODIFIER "x\nops=%s\n", seed, B, ops->str, B,
        faults->str);
      g_string_free (ops, TRUE);
      g_string_free (faults, TRUE);
      g_autoptr (GError) error = NULL;
      g_autoptr (FlScenario) sc = fl_scenario_parse (text, "random-merge.fault", &error);
      g_assert_no_error (error);
      g_autoptr (FlSim) sim = fl_sim_new (sc, NULL, seed, &error);
      g_assert_no_error (error);
      fl_sim_set_policy (sim, FL_SCHED_RANDOM);
      fl_sim_run (sim, 0);
      g_assert_true (fl_sim_is_finished (sim));
      if (fl_sim_get_findings (sim)->len)
        g_test_message ("seed %u, random schedule:\n%s", seed, text);
      assert_no_findings (sim);
      const FlState *st = fl_sim_get_state (sim);
      guint count = 0;
      for (guint32 v = st->g->mm.mmap; v; v = st->vmas[v].next, count++)
        {
          guint32 n = st->vmas[v].next;
          g_assert_cmpuint (st->vmas[v].seq % 2, ==, 0);
          /* equal neighbours only where their pages are under different anon_vmas */
          if (n && st->vmas[n].start == st->vmas[v].end && st->vmas[n].flags == st->vmas[v].flags)
            {
              g_assert_cmpuint (st->vmas[v].anon_vma, !=, 0);
              g_assert_cmpuint (st->vmas[n].anon_vma, !=, 0);
              g_assert_cmpuint (st->vmas[v].anon_vma, !=, st->vmas[n].anon_vma);
            }
        }
      g_assert_cmpuint (count, ==, st->g->mm.map_count);
      absorbed += count_events (sim, FL_FN_VMA_ADJUST, FL_EV_FREE);
      gsize n;
      const FlEvent *ev = fl_sim_get_events (sim, &n);
      for (gsize i = 0; i < n; i++)
        twice += ev[i].loc == FL_LOC_VMA_ADJUST_seq_begin_again;
      FlCounters k;
      fl_sim_get_counters (sim, &k);
      retried += k.retried;
    }
  /* the programs exercised what they are for: merges of one and of two VMAs, and speculative
   * faults that backed out */
  g_test_message ("%u VMAs absorbed, %u case-6 merges, %u retried faults", absorbed, twice, retried);
  g_assert_cmpuint (absorbed, >, 10);
  g_assert_cmpuint (twice, >, 0);
  g_assert_cmpuint (retried, >, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/merge/mmap", test_mmap_merges);
  g_test_add_func ("/core/merge/mprotect", test_mprotect_merges);
  g_test_add_func ("/core/merge/case-6", test_case_6_removes_two);
  g_test_add_func ("/core/merge/file-offsets", test_file_offsets);
  g_test_add_func ("/core/merge/anon-vmas", test_anon_vmas_keep_apart);
  g_test_add_func ("/core/merge/seq-end-after-free", test_seq_end_after_free);
  g_test_add_func ("/core/merge/random", test_random_changes_leave_nothing_to_merge);
  return g_test_run ();
}
