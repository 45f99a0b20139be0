/* What a finding records about its cause: the CPU whose action is the defect (not the one
 * that noticed it), that action's step, the objects it names and the switch that let it
 * happen, all from the model. */
#include "sim-helpers.h"

static const FlFinding *
first_of (FlSim *sim, FlFindingKind kind)
{
  GPtrArray *findings = fl_sim_get_findings (sim);
  for (guint i = 0; i < findings->len; i++)
    if (((const FlFinding *) g_ptr_array_index (findings, i))->kind == kind)
      return g_ptr_array_index (findings, i);
  g_assert_not_reached ();
}

/* The PTE a stale-mapping finding names was installed at its cause step by its cause CPU,
 * which is the speculative fault's, while the writer that noticed it is another. */
static void
test_stale_mapping_names_installer (void)
{
  const char *sets[] = { "spf-seqcheck", "off", NULL };
  g_autoptr (FlSim) sim = run_builtin ("spf-vs-mprotect", sets, 0);
  const FlFinding *f = first_of (sim, FL_FINDING_STALE_MAPPING);
  g_assert_cmpuint (f->cpu, ==, 1);
  g_assert_cmpuint (f->cause_cpu, ==, 0);
  g_assert_cmpuint (f->cause_step, <, f->step);
  g_assert_cmpuint (f->objects.vma, ==, f->obj);
  g_assert_cmpuint (f->objects.table, !=, 0);
  g_assert_cmpint (f->objects.pte, >=, 0);
  g_assert_cmpuint (f->objects.page, !=, 0);
  g_assert_nonnull (strstr (f->cause, "cpu0 installed a writable PTE after cpu1's mprotect"));
  g_assert_nonnull (strstr (f->cause, "spf-seqcheck=off"));
  /* and nothing about a switch the run does not have off */
  g_assert_null (strstr (f->cause, "mprotect-seqcount"));

  /* the cause step is the step whose event wrote that PTE, on that CPU */
  gsize n;
  const FlEvent *ev = fl_sim_get_events (sim, &n);
  gboolean seen = FALSE;
  for (gsize i = 0; i < n; i++)
    if (ev[i].step + 1 == f->cause_step && ev[i].kind == FL_EV_PTE)
      {
        g_assert_cmpuint (ev[i].cpu, ==, f->cause_cpu);
        g_assert_cmpuint (ev[i].obj, ==, f->objects.table);
        g_assert_cmpuint (ev[i].val, ==, (guint) f->objects.pte);
        seen = TRUE;
      }
  g_assert_true (seen);

  /* the other unsafe switch that lets the same race through is named instead */
  const char *unbracketed[] = { "mprotect-seqcount", "unbracketed", NULL };
  g_autoptr (FlSim) other = run_builtin ("spf-vs-mprotect", unbracketed, 0);
  f = first_of (other, FL_FINDING_STALE_MAPPING);
  g_assert_cmpuint (f->cause_cpu, ==, 0);
  g_assert_nonnull (strstr (f->cause, "mprotect-seqcount=unbracketed"));
  g_assert_null (strstr (f->cause, "spf-seqcheck"));
}

/* Freeing a table whose lock is held names the table, its lock and the holder; the later
 * unlock of freed memory names the CPU that freed it as its cause. */
static void
test_freed_while_locked (void)
{
  const char *sets[] = { "spf", "v2-as-posted", NULL };
  g_autoptr (FlSim) sim = run_builtin ("spf-ptl-vs-munmap", sets, 0);
  const FlFinding *freed = first_of (sim, FL_FINDING_FREED_WHILE_LOCKED);
  g_assert_cmpuint (freed->cause_cpu, ==, freed->cpu);
  g_assert_cmpuint (freed->objects.table, ==, freed->obj);
  g_assert_true (freed->objects.ptl);
  g_assert_cmpint (freed->objects.holder, >=, 0);
  g_assert_cmpint (freed->objects.holder, !=, (gint) freed->cpu);
  g_assert_nonnull (strstr (freed->cause, "spf-find-vma=under-pte-lock"));

  const FlFinding *uaf = first_of (sim, FL_FINDING_USE_AFTER_FREE);
  g_assert_cmpuint (uaf->cpu, ==, (guint) freed->objects.holder);
  g_assert_cmpuint (uaf->cause_cpu, ==, freed->cpu);
  g_assert_cmpuint (uaf->cause_step, ==, freed->step);
  g_assert_cmpuint (uaf->objects.table, ==, freed->objects.table);
}

/* The deadlock's cause is the CPU spinning with IRQs off, not the one whose parking closed
 * the cycle. */
static void
test_deadlock_names_spinner (void)
{
  const char *sets[] = { "pte-map-lock", "spin-irqs-off", NULL };
  g_autoptr (FlSim) sim = run_builtin ("spf-tlb-ipi", sets, 0);
  const FlFinding *f = first_of (sim, FL_FINDING_DEADLOCK);
  g_assert_cmpuint (f->cause_cpu, !=, f->cpu);
  g_assert_true (f->objects.ptl);
  g_assert_nonnull (strstr (f->cause, "pte-map-lock=spin-irqs-off"));
}

/* A finding whose raiser knows no other cause is its own CPU's at its own step, with the
 * switch that let it happen. */
static void
test_default_cause_is_own (void)
{
  const char *sets[] = { "vma-free", "immediate", NULL };
  g_autoptr (FlSim) sim = run_builtin ("spf-vs-munmap", sets, 0);
  const FlFinding *f = first_of (sim, FL_FINDING_USE_AFTER_FREE);
  g_assert_cmpuint (f->cause_cpu, ==, f->cpu);
  g_assert_cmpuint (f->cause_step, ==, f->step);
  g_assert_cmpstr (f->cause, ==, "Because munmap freed the VMA at once instead of after an RCU "
                                 "grace period (vma-free=immediate).");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/finding-cause/stale-mapping", test_stale_mapping_names_installer);
  g_test_add_func ("/core/finding-cause/freed-while-locked", test_freed_while_locked);
  g_test_add_func ("/core/finding-cause/deadlock", test_deadlock_names_spinner);
  g_test_add_func ("/core/finding-cause/default", test_default_cause_is_own);
  return g_test_run ();
}
