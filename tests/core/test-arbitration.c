/* test-arbitration.c — a line held on one socket serves that socket's requests before one
 * still crossing from the other (core/sim/fl-coherence.c, docs/model.md "The arbitration"). */
#include <glib.h>

#include "fl-config.h"
#include "fl-loc.h"
#include "fl-scenario.h"
#include "fl-sim.h"
#include "fl-state.h"
#include "fl-workload.h"
#include "sim-helpers.h"

/* multi-fault with the xadd rwsem and locked faults, whose count line saturates at 8 CPUs */
static FlSim *
run_xadd (guint cpus, const char *crossing)
{
  const char *const sets[] = { "fault-path", "locked", "rwsem", "xadd", "cost.crossing", crossing,
                               NULL };
  return run_workload ("multi-fault", cpus, 1, sets);
}

/* cmpxchg steps of __down_read_trylock, and how many of them lost (the count changed) */
static void
count_cmpxchg (FlSim *sim, guint *tries, guint *lost)
{
  gsize n;
  const FlEvent *ev = fl_sim_get_events (sim, &n);
  *tries = *lost = 0;
  for (gsize i = 0; i < n; i++)
    if (ev[i].loc == FL_LOC_XADD_DOWN_READ_TRYLOCK_cmpxchg && ev[i].kind == FL_EV_RMW)
      {
        (*tries)++;
        *lost += ev[i].val == 0;
      }
}

static guint
remote_transfers (FlSim *sim, guint line)
{
  gsize n;
  const FlEvent *ev = fl_sim_get_events (sim, &n);
  guint count = 0;
  for (gsize i = 0; i < n; i++)
    count += ev[i].line == line && ev[i].xfer == FL_XFER_REMOTE;
  return count;
}

/* Across two sockets the count line is served to its own socket first: requests overtake
 * the ones still crossing, fewer transfers cross, and the same faults take less time. The
 * values are the steps' order either way: the run is clean and counts the same faults. */
static void
test_the_holders_socket_goes_first (void)
{
  g_autoptr (FlSim) fifo = run_xadd (8, "0");
  g_autoptr (FlSim) arb = run_xadd (8, "90");
  const FlState *f = fl_sim_get_state (fifo);
  const FlState *a = fl_sim_get_state (arb);
  guint rf = remote_transfers (fifo, FL_LINE_MM_SEM), ra = remote_transfers (arb, FL_LINE_MM_SEM);
  g_test_message ("count line: %u overtakes; %u remote transfers in issue order, %u arbitrated; "
                  "%" G_GUINT64_FORMAT " against %" G_GUINT64_FORMAT " cycles",
                  a->lines[FL_LINE_MM_SEM].overtook, rf, ra, fl_sim_get_last_cycle (arb),
                  fl_sim_get_last_cycle (fifo));
  guint tries_f, lost_f, tries_a, lost_a;
  count_cmpxchg (fifo, &tries_f, &lost_f);
  count_cmpxchg (arb, &tries_a, &lost_a);
  g_test_message ("lost cmpxchg: %u of %u in issue order, %u of %u arbitrated", lost_f, tries_f,
                  lost_a, tries_a);
  g_assert_cmpuint (f->lines[FL_LINE_MM_SEM].overtook, ==, 0);
  g_assert_cmpuint (a->lines[FL_LINE_MM_SEM].overtook, >, 0);
  g_assert_cmpuint (ra, <, rf);
  g_assert_cmpuint (fl_sim_get_last_cycle (arb), <, fl_sim_get_last_cycle (fifo));
  guint64 faults_fifo = 0, faults_arb = 0;
  for (guint c = 0; c < 8; c++)
    {
      faults_fifo += f->cpus[c].flt_total;
      faults_arb += a->cpus[c].flt_total;
    }
  g_assert_cmpuint (faults_arb, ==, faults_fifo);
}

/* Inside one socket nothing crosses: the same events, bit for bit. */
static void
test_one_socket_is_unchanged (void)
{
  g_autoptr (FlSim) fifo = run_xadd (4, "0");
  g_autoptr (FlSim) arb = run_xadd (4, "90");
  g_assert_cmphex (fl_sim_get_hash (arb), ==, fl_sim_get_hash (fifo));
  g_assert_cmpuint (fl_sim_get_state (arb)->lines[FL_LINE_MM_SEM].overtook, ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/arbitration/holders-socket-first", test_the_holders_socket_goes_first);
  g_test_add_func ("/core/arbitration/one-socket-unchanged", test_one_socket_is_unchanged);
  return g_test_run ();
}
