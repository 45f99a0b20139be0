/* Tests of Kamezawa's speculative fault (fault-path=speculative-refcount): munmap waits for a
 * held reference before it zaps anything; v3 as posted loses the wake-up; without the wait
 * the fault uses a freed VMA; the count's line moves between CPUs only when they share the
 * VMA; random interleavings of the built-ins stay clean. */
#include "sim-helpers.h"
#include "fl-state.h"

/* Index of the first event of `kind` in `fn` on `cpu` (G_MAXSIZE: none). */
static gsize
first_event (FlSim *sim, FlFn fn, FlEventKind kind, guint cpu)
{
  gsize n;
  const FlEvent *ev = fl_sim_get_events (sim, &n);
  for (gsize i = 0; i < n; i++)
    if (fl_loc_fn (ev[i].loc) == fn && ev[i].kind == kind && ev[i].cpu == cpu)
      return i;
  return G_MAXSIZE;
}

/* munmap unlinks the VMA, sleeps until the fault's vma_put wakes it, and only then zaps. */
static void
test_writer_waits_for_reference (void)
{
  g_autoptr (FlSim) sim = run_builtin ("refcount-vs-munmap", NULL, 0);
  g_assert_true (fl_sim_is_finished (sim));
  assert_no_findings (sim);
  gsize sleep = first_event (sim, FL_FN_INVALIDATE_VMA, FL_EV_SLEEP, 1);
  gsize put = first_event (sim, FL_FN_VMA_PUT, FL_EV_RMW, 0);
  gsize wake = first_event (sim, FL_FN_VMA_PUT, FL_EV_WAKE, 0);
  gsize zap = first_event (sim, FL_FN_ZAP_PTE_RANGE, FL_EV_PTE, 1);
  g_assert_cmpuint (sleep, <, put);
  g_assert_cmpuint (put, <, wake);
  g_assert_cmpuint (wake, <, zap);
  FlCounters c;
  fl_sim_get_counters (sim, &c);
  g_assert_cmpuint (c.speculative, ==, 1);
  g_assert_cmpuint (c.errors, ==, 0);
}

/* While munmap sleeps, the VMA it waits for is unlinked but alive, and referenced. */
static void
test_vma_alive_while_waiting (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FlScenario) sc = fl_scenario_load_builtin ("refcount-vs-munmap", &error);
  g_assert_no_error (error);
  g_autoptr (FlSim) sim = fl_sim_new (sc, NULL, sc->seed, &error);
  g_assert_no_error (error);
  gboolean saw_wait = FALSE, saw_held = FALSE;
  while (fl_sim_step (sim))
    {
      const FlState *st = fl_sim_get_state (sim);
      const FlCpu *writer = &st->cpus[1];
      if (writer->status != FL_CPU_SLEEP)
        continue;
      guint32 vma = writer->wait_obj & 0xffffu;
      g_assert_cmpuint (writer->wait_obj, ==, 0x20000000u | vma);
      g_assert_cmpuint (st->vmas[vma].state, !=, FL_OBJ_FREE);
      /* held until vma_put's decrement; its wake-up is the step after */
      g_assert_cmpint (st->vmas[vma].refs, <=, 1);
      saw_held |= st->vmas[vma].refs == 1;
      saw_wait = TRUE;
    }
  g_assert_true (saw_wait);
  g_assert_true (saw_held);
  assert_no_findings (sim);
}

/* v3 as posted wakes at a count of 1 while munmap waits for 0: a lost wake-up. */
static void
test_as_posted_loses_the_wakeup (void)
{
  const char *sets[] = { "vma-refcount", "as-posted", NULL };
  g_autoptr (FlSim) sim = run_builtin ("refcount-vs-munmap", sets, 0);
  g_assert_cmpuint (count_findings (sim, FL_FINDING_DEADLOCK), ==, 1);
  const FlFinding *f = g_ptr_array_index (fl_sim_get_findings (sim), 0);
  g_assert_nonnull (strstr (f->message, "lost wake-up"));
  g_assert_cmpuint (f->cpu, ==, 1);
  g_assert_cmpuint (fl_sim_get_state (sim)->cpus[1].status, ==, FL_CPU_STUCK);
}

/* With the safety off, munmap frees the VMA under the fault that holds it. */
static void
test_no_wait_uses_freed_vma (void)
{
  const char *sets[] = { "vma-refcount", "no-wait", NULL };
  g_autoptr (FlSim) sim = run_builtin ("refcount-vs-munmap", sets, 0);
  g_assert_cmpuint (count_findings (sim, FL_FINDING_USE_AFTER_FREE)
                    + count_findings (sim, FL_FINDING_STALE_MAPPING), >, 0);
}

/* Transfers of the VMA refcount lines, over the whole run. */
static guint64
refcount_transfers (FlSim *sim)
{
  const FlState *st = fl_sim_get_state (sim);
  guint64 n = 0;
  for (guint l = 0; l < st->sizes.nlines; l++)
    if (st->lines[l].kind == FL_LINE_KIND_VMA_REF)
      n += st->lines[l].transfers;
  return n;
}

/* Four CPUs in one VMA move its count's line on most faults; in VMAs of their own, never. */
static void
test_shared_line_bounces (void)
{
  g_autoptr (FlSim) shared = run_builtin ("refcount-shared-vma", NULL, 0);
  g_autoptr (FlSim) split = run_builtin ("refcount-split-vmas", NULL, 0);
  assert_no_findings (shared);
  assert_no_findings (split);
  FlCounters c;
  fl_sim_get_counters (shared, &c);
  g_assert_cmpuint (c.speculative, ==, 64);
  g_test_message ("refcount line transfers: shared %" G_GUINT64_FORMAT ", split %" G_GUINT64_FORMAT,
                  refcount_transfers (shared), refcount_transfers (split));
  g_assert_cmpuint (refcount_transfers (shared), >=, c.speculative);
  g_assert_cmpuint (refcount_transfers (split), ==, 0);
  /* the lines exist only in this design */
  const char *sets[] = { "fault-path", "speculative", NULL };
  g_autoptr (FlSim) spf = run_builtin ("refcount-shared-vma", sets, 0);
  g_assert_cmpuint (fl_sim_get_state (spf)->sizes.line_refs, ==, 0);
  g_assert_cmpuint (refcount_transfers (spf), ==, 0);
}

/* A fault the tree walk cannot pin (the VMA is dying) goes down the locked path. */
static void
test_dying_vma_falls_back (void)
{
  const char *sets[] = { "fault-path", "speculative-refcount", NULL };
  g_autoptr (FlSim) sim = run_builtin ("spf-vs-munmap", sets, 0);
  assert_no_findings (sim);
  FlCounters c;
  fl_sim_get_counters (sim, &c);
  /* the fault either pinned the VMA before munmap (it then succeeds) or came too late and
   * got SIGSEGV under mmap_sem: never both, never neither */
  g_assert_cmpuint (c.total, ==, 1);
  g_assert_cmpuint (c.speculative + c.errors, ==, 1);
}

/* In-place VMA changes are not covered by the design: mprotect changes the flags under a
 * fault that holds the VMA, and the oracle sees the writable PTE it leaves behind. */
static void
test_mprotect_is_not_covered (void)
{
  const char *sets[] = { "fault-path", "speculative-refcount", NULL };
  g_autoptr (FlSim) sim = run_builtin ("spf-vs-mprotect", sets, 0);
  g_assert_cmpuint (count_findings (sim, FL_FINDING_STALE_MAPPING), ==, 1);
}

/* Random interleavings of the design's built-ins, and of the munmap and merge races under
 * it, are clean in the default configuration. */
static void
test_random_schedules_are_clean (void)
{
  static const char *const ids[] = { "refcount-vs-munmap", "refcount-shared-vma",
                                     "refcount-split-vmas", "spf-vs-munmap", "spf-vs-merge",
                                     "will-it-scale-pf1" };
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    for (guint seed = 1; seed <= 12; seed++)
      {
        g_autoptr (GError) error = NULL;
        g_autoptr (FlScenario) sc = fl_scenario_load_builtin (ids[i], &error);
        g_assert_no_error (error);
        FlConfig config = sc->config;
        g_assert_true (fl_config_set (&config, "fault-path", "speculative-refcount", NULL));
        g_autoptr (FlSim) sim = fl_sim_new (sc, &config, seed, &error);
        g_assert_no_error (error);
        fl_sim_set_policy (sim, FL_SCHED_RANDOM);
        fl_sim_run (sim, 0);
        g_assert_true (fl_sim_is_finished (sim));
        if (fl_sim_get_findings (sim)->len)
          g_test_message ("%s seed %u", ids[i], seed);
        assert_no_findings (sim);
      }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/refcount/writer-waits", test_writer_waits_for_reference);
  g_test_add_func ("/core/refcount/vma-alive-while-waiting", test_vma_alive_while_waiting);
  g_test_add_func ("/core/refcount/as-posted-lost-wakeup", test_as_posted_loses_the_wakeup);
  g_test_add_func ("/core/refcount/no-wait-use-after-free", test_no_wait_uses_freed_vma);
  g_test_add_func ("/core/refcount/shared-line-bounces", test_shared_line_bounces);
  g_test_add_func ("/core/refcount/dying-vma-falls-back", test_dying_vma_falls_back);
  g_test_add_func ("/core/refcount/mprotect-not-covered", test_mprotect_is_not_covered);
  g_test_add_func ("/core/refcount/random-schedules", test_random_schedules_are_clean);
  return g_test_run ();
}
