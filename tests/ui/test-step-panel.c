/* The listing view and its step box tell the truth about the step the header shows (issues
 * 16, 18 and 20): the current line is a line of the function the CPU is in, a waiting CPU's
 * panel says what it waits for and who holds it, and the box describes the current step,
 * for the CPU that took it. Checked on the listing's accessible description, which the
 * same painter code writes as it draws. */
#include <string.h>
#include "painter-test-helpers.h"

#include "fl-cpu-view.h"
#include "fl-listing.h"
#include "fl-paint.h"

#define LONG_RUN 30000    /* steps of a long built-in walked: its start teaches the same */

static FlSim *
run_to (const char *id, const char *key, const char *value, guint64 steps)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FlScenario) sc = fl_scenario_load_builtin (id, &error);
  g_assert_no_error (error);
  FlConfig config = sc->config;
  if (key)
    g_assert_true (fl_config_set (&config, key, value, NULL));
  FlSim *sim = fl_sim_new (sc, &config, sc->seed, &error);
  g_assert_no_error (error);
  if (steps > 0)        /* 0: not a step yet (fl_sim_run would run to the end) */
    fl_sim_run (sim, steps);
  return sim;
}

static char *
listing_text_at (const FlCursor *cursor, guint cpu)
{
  FlViewport vp = { .width = 900, .height = 600, .font_scale = 1, .selected_cpu = cpu };
  return fl_view_describe (FL_VIEW_LISTING, cursor, &vp);
}

static char *
listing_text (FlSim *sim, guint cpu)
{
  return listing_text_at (fl_test_cursor (sim), cpu);
}

#define assert_has(text, part) \
  G_STMT_START { if (strstr ((text), (part)) == NULL) \
                   g_error ("“%s” is not in “%s”", (part), (text)); } G_STMT_END
#define assert_lacks(text, part) \
  G_STMT_START { if (strstr ((text), (part)) != NULL) \
                   g_error ("“%s” should not be in “%s”", (part), (text)); } G_STMT_END

/* spf-vs-munmap, step 21: cpu1 has just called __down_write, whose steps are __down_read's;
 * its listing showed no current line and "Next: __down_read:lock". */
static void
test_write_variant (void)
{
  g_autoptr (FlSim) sim = run_to ("spf-vs-munmap", NULL, NULL, 21);
  g_autofree char *text = listing_text (sim, 1);
  assert_has (text, "cpu1 is in __down_write, next line 3: spin_lock_irq(&sem->wait_lock);");
  assert_lacks (text, "__down_read");
  assert_lacks (text, " at lock");
}

/* spf-tlb-ipi with pte-map-lock=spin-irqs-off, at the deadlock: cpu1 waits for an
 * acknowledgement for ever (it was shown on "every target ran flush_tlb_func", "All targets
 * have flushed"); cpu0 spins with IRQs off (it was shown the trylock loop's "Success: turn
 * IRQs back on"). */
static void
test_deadlock (void)
{
  g_autoptr (FlSim) sim = run_to ("spf-tlb-ipi", "pte-map-lock", "spin-irqs-off", 100000);
  GPtrArray *findings = fl_sim_get_findings (sim);
  g_assert_cmpuint (findings->len, ==, 1);
  const FlFinding *deadlock = g_ptr_array_index (findings, 0);
  g_assert_cmpint (deadlock->kind, ==, FL_FINDING_DEADLOCK);
  g_assert_true (fl_sim_seek (sim, deadlock->step));

  g_autofree char *flusher = listing_text (sim, 1);
  assert_has (flusher, "cpu1 is in flush_tlb_others, waiting at line 6: "
                       "while (!cpumask_empty(flush_cpumask))");
  assert_has (flusher, "cpu1 waits for cpu0 to acknowledge its TLB-flush IPI.");
  assert_has (flusher, "the acknowledgement never comes");
  assert_lacks (flusher, "every target ran flush_tlb_func");
  assert_lacks (flusher, "All targets have flushed");

  g_autofree char *spinner = listing_text (sim, 0);
  assert_has (spinner, "cpu0 is in pte_map_lock, waiting at line 13: spin_lock(ptl);");
  assert_has (spinner, "cpu0 spins for the PTE lock of table 4, held by cpu1.");
  assert_has (spinner, "IRQs are off here");
  assert_has (spinner, "Deadlocked: it never runs again.");
  assert_lacks (spinner, "spin_trylock");
  assert_lacks (spinner, "Success: turn IRQs back on");
}

/* cow-write-fault, step 18: the box said "Step 18: walk level 2" (cpu0's last step) beside
 * the why of cpu0's next line, the trylock; step 18 is cpu1's, in find_vma. */
static void
test_cow_step_18 (void)
{
  g_autoptr (FlSim) sim = run_to ("cow-write-fault", NULL, NULL, 18);
  g_autofree char *text = listing_text (sim, 0);
  assert_has (text, "Step 18, cpu1: read VMA");
  assert_has (text, "Why: Visit one tree node");
  assert_lacks (text, "trylock");
}

/* spf-vs-rotation, step 30: cpu0's range check finds that its walk missed VMA 2; the box
 * says who hid it instead of the line's general why, and the counters count it. */
static void
test_missed_walk (void)
{
  g_autoptr (FlSim) sim = run_to ("spf-vs-rotation", NULL, NULL, 30);
  g_autofree char *text = listing_text (sim, 0);
  assert_has (text, "Step 30, cpu0: check failed");
  assert_has (text, "Why: The walk missed VMA 2, which the tree held all along: cpu1's "
                    "rotate-left at VMA 1 (step 21) moved it above VMA 1");
  assert_lacks (text, "a writer's rotation may have moved the VMA");
  FlViewport vp = { .width = 900, .height = 600, .font_scale = 1 };
  g_autofree char *counters = fl_view_describe (FL_VIEW_COUNTERS, fl_test_cursor (sim), &vp);
  assert_has (counters, "1 of the retried missed its VMA in the tree.");
  /* one step on, the next line's own why again */
  g_assert_true (fl_sim_step (sim));
  g_autofree char *next = listing_text (sim, 0);
  assert_lacks (next, "The walk missed");
}

/* The event of the step just taken, found from the end of the stream. */
static FlEvent
last_step_event (FlSim *sim)
{
  for (gsize i = fl_sim_get_n_events (sim); i-- > 0;)
    {
      FlEvent e = fl_sim_get_event (sim, i);
      if (e.kind != FL_EV_FINDING)
        return e;
    }
  g_assert_not_reached ();
}

/* At every step of every built-in, for every CPU: the box names the step the header counts
 * and the CPU that took it, and gives the why of the line that step ran, or the model's own
 * when it has one (spf-vs-rotation's missed walk). */
static void
test_every_step (void)
{
  g_auto (GStrv) ids = fl_scenario_builtin_ids ();
  for (guint i = 0; ids[i]; i++)
    {
      g_autoptr (FlSim) sim = run_to (ids[i], NULL, NULL, 0);
      /* the views draw the run as far as it goes: one cursor over it follows the stepping */
      g_autoptr (FlSim) whole = run_to (ids[i], NULL, NULL, LONG_RUN);
      g_autoptr (FlCursor) cursor = fl_test_cursor_of (whole);
      const FlConfig *config = fl_sim_get_config (sim);
      guint ncpus = fl_sim_get_state (sim)->sizes.ncpus;
      while (fl_sim_get_step (sim) < LONG_RUN && fl_sim_step (sim))
        {
          guint64 step = fl_sim_get_step (sim);
          FlEvent e = last_step_event (sim);
          g_assert_cmpuint (e.step + 1, ==, step);
          g_autofree char *head = g_strdup_printf ("Step %" G_GUINT64_FORMAT ", cpu%u: ",
                                                   step, e.cpu);
          FlListing *listing = fl_listing_get_for (fl_loc_fn (e.loc), config);
          gint line = listing ? fl_listing_line_of (listing, e.loc) : -1;
          /* the model's own why of this step (a walk that missed its VMA) comes first */
          g_autofree char *known = fl_sim_explain_event (sim, &e);
          g_autofree char *why = known ? g_strdup_printf ("Why: %s", known)
                                 : line >= 0 && listing->lines[line].why[0]
                                 ? g_strdup_printf ("Why: %s", listing->lines[line].why) : NULL;
          /* the selected CPU changes what the listing shows, never what the box says */
          g_assert_true (fl_cursor_seek (cursor, step));
          for (guint cpu = 0; cpu < ncpus && cpu < 3; cpu++)
            {
              g_autofree char *text = listing_text_at (cursor, cpu);
              assert_has (text, head);
              if (why)
                assert_has (text, why);
              FlCpuView v;
              fl_cursor_get_cpu_view (cursor, cpu, &v);
              if (fl_cpu_view_is_waiting (&v))
                assert_has (text, "waiting at line");
            }
        }
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ui/step-panel/write-variant", test_write_variant);
  g_test_add_func ("/ui/step-panel/deadlock", test_deadlock);
  g_test_add_func ("/ui/step-panel/cow-step-18", test_cow_step_18);
  g_test_add_func ("/ui/step-panel/missed-walk", test_missed_walk);
  g_test_add_func ("/ui/step-panel/every-step", test_every_step);
  return g_test_run ();
}
