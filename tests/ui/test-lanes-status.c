/* test-lanes-status.c — the lanes tell what each CPU does between its steps: at every step of
 * every built-in, and at a deadlock, a parked CPU is drawn waiting on what it waits for. */
#include "fl-paint.h"
#include "painter-test-helpers.h"
#include "fl-cpu-view.h"
#include "fl-loc.h"

/* Where the last step taken ended, as the lanes draw the present up to there. */
static guint64
last_end_of (const FlCursor *cursor)
{
  const FlRun *run = fl_cursor_get_run (cursor);
  guint64 step = fl_cursor_get_step (cursor);
  gsize i = step ? fl_run_find_step (run, step) : 0;
  return i > 0 ? fl_run_get_event (run, i - 1).cycle : 0;
}

typedef struct {
  guint checked, turns, handlers, spec_starts, stuck;
} LaneCounts;

/* What a CPU's lane must show at its own clock from its status, or -1 (it runs). */
static int
parked_as (const FlState *st, guint c)
{
  const FlCpu *cpu = &st->cpus[c];
  switch (cpu->status)
    {
    case FL_CPU_SPIN: return FL_ACT_SPIN;
    case FL_CPU_SLEEP: return FL_ACT_BLOCKED;
    case FL_CPU_IPI_WAIT: return FL_ACT_IPI;
    case FL_CPU_STUCK:
      {
        /* caught in a deadlock: doing for ever what it waited for when the cycle closed */
        if (cpu->depth == 0)
          return -1;
        FlCpuView view;
        fl_cpu_view_decode (st, c, &view);
        return view.wait == FL_CPU_WAIT_LOCK || view.wait == FL_CPU_WAIT_LOCK_RELEASE
               ? FL_ACT_SPIN
               : view.wait == FL_CPU_WAIT_TLB_ACK ? FL_ACT_IPI : FL_ACT_BLOCKED;
      }
    default:
      return -1;
    }
}

/* Over about 1500 steps of one run, each CPU's lane at its own clock, where what it does
 * now begins, says what its status says: parked CPUs are drawn waiting on what they wait
 * for, a running one is drawn either waiting for its turn or not yet (its next work has not
 * happened); every IPI handler is drawn as one; a speculative fault starts speculative. */
static void
check_lanes_status (FlSim *sim, const char *label, LaneCounts *n)
{
  fl_sim_run (sim, 20000);
  g_autoptr (FlCursor) cursor = fl_test_cursor_of (sim);
  guint64 total = fl_sim_get_total_steps (sim);
  guint64 every = MAX (total / 1500, 1);
  /* the last step too: a deadlock's CPUs are stuck only there */
  guint64 last = 0;
  for (guint64 step = 1; last < total; step = MIN (step + every, total))
    {
      last = step;
      g_assert_true (fl_cursor_seek (cursor, step));
      const FlState *st = fl_cursor_get_state (cursor);
      guint64 until = last_end_of (cursor);
      for (guint c = 0; c < st->sizes.ncpus; c++)
        {
          const FlCpu *cpu = &st->cpus[c];
          if (cpu->clock >= until)
            continue;
          gboolean done = FALSE;
          int act = fl_lanes_shown_at (cursor, c, cpu->clock, &done);
          int want = parked_as (st, c);
          if (want >= 0 && (act != want || !done))
            g_error ("%s step %" G_GUINT64_FORMAT " cpu%u: status %d drawn as %d (%s)", label,
                     step, c, cpu->status, act, done ? "done" : "ahead");
          if (want < 0 && done && act != FL_ACT_TURN)
            g_error ("%s step %" G_GUINT64_FORMAT " cpu%u: not parked, drawn as %d", label,
                     step, c, act);
          n->turns += done && act == FL_ACT_TURN;
          n->stuck += want >= 0 && cpu->status == FL_CPU_STUCK;
          n->checked++;
        }
    }
  /* each IPI handler and each fault's speculative start, just before its step ends */
  gsize n_events = fl_sim_get_n_events (sim);
  for (gsize k = 0; k < n_events; k++)
    {
      FlEvent e = fl_sim_get_event (sim, k);
      gboolean ipi = e.kind == FL_EV_IPI_ACK;
      gboolean spec = e.loc == FL_LOC_DO_PAGE_FAULT_entry
                      && e.val == FL_FAULT_PATH_SPECULATIVE;
      if (!ipi && !spec)
        continue;
      g_assert_true (fl_cursor_seek (cursor, e.step + 1));
      gboolean done = FALSE;
      int act = fl_lanes_shown_at (cursor, e.cpu, e.cycle - 1, &done);
      g_assert_true (done);
      g_assert_cmpint (act, ==, ipi ? FL_ACT_IPI_HANDLER : FL_ACT_SPEC_FAULT);
      n->handlers += ipi;
      n->spec_starts += spec;
    }
}

/* The check above at every built-in, and at the deadlock of spf-tlb-ipi with the IRQs-off
 * pte_map_lock: cpu0 goes on spinning for the PTE lock (not asleep), cpu1 goes on waiting for
 * its acknowledgements. */
static void
test_lanes_status (void)
{
  g_auto (GStrv) ids = fl_scenario_builtin_ids ();
  LaneCounts n = { 0 };
  for (guint i = 0; ids[i]; i++)
    {
      g_autoptr (FlSim) sim = fl_test_sim_for (ids[i], NULL, NULL);
      check_lanes_status (sim, ids[i], &n);
    }
  g_assert_cmpuint (n.stuck, ==, 0);
  g_autoptr (FlSim) deadlock = fl_test_sim_for ("spf-tlb-ipi", "pte-map-lock", "spin-irqs-off");
  check_lanes_status (deadlock, "spf-tlb-ipi pte-map-lock=spin-irqs-off", &n);
  const FlState *end = fl_cursor_get_state (fl_test_cursor (deadlock));
  g_assert_cmpint (parked_as (end, 0), ==, FL_ACT_SPIN);
  g_assert_cmpint (parked_as (end, 1), ==, FL_ACT_IPI);
  /* cpu0's lane drawn spinning after its last step (cpu1's last step is the run's last) */
  g_assert_cmpuint (n.stuck, >=, 1);
  /* the cases of the report are among them */
  g_test_message ("%u CPU positions checked, %u stuck", n.checked, n.stuck);
  g_assert_cmpuint (n.checked, >, 1000);
  g_assert_cmpuint (n.turns, >, 0);
  g_assert_cmpuint (n.handlers, >, 0);
  g_assert_cmpuint (n.spec_starts, >, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ui/painters/lanes-status", test_lanes_status);
  return g_test_run ();
}
