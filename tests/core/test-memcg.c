/* Tests of the memory controller (memcg=on, fl-memcg.c): the per-CPU stock takes the
 * res_counter's line off all but one charge in 32, the css reference count's line moves with
 * every charge and uncharge, the zap uncharges the res_counter once, and without the switch
 * nothing of it runs. */
#include "sim-helpers.h"
#include "fl-state.h"

static gsize
count_at (FlSim *sim, FlLoc loc)
{
  gsize n, k = 0;
  const FlEvent *ev = fl_sim_get_events (sim, &n);
  for (gsize i = 0; i < n; i++)
    k += ev[i].loc == loc;
  return k;
}

/* multi-fault-all-split runs Kamezawa's kernel, memcg=on: two threads of 512 faults charge
 * the res_counter 16 times each (32 pages a time, 31 into the stock), and their two zaps give
 * every page back, so nothing stays charged. */
static void
test_stock_batches_the_res_counter (void)
{
  g_autoptr (FlSim) sim = run_workload ("multi-fault-all-split", 2, 1, NULL);
  const FlState *st = fl_sim_get_state (sim);
  g_assert_cmpuint (count_at (sim, FL_LOC_MEM_CGROUP_CHARGE_css_tryget), ==, 1024);
  g_assert_cmpuint (count_at (sim, FL_LOC_MEM_CGROUP_CHARGE_res_counter_charge), ==, 2 * 16);
  g_assert_cmpuint (st->g->memcg_usage, ==, 0);
  for (guint c = 0; c < 2; c++)
    {
      g_assert_cmpuint (st->cpus[c].memcg_stock, ==, 0);
      g_assert_cmpuint (st->cpus[c].memcg_batch, ==, 0);
    }
  for (guint32 p = 1; p < st->sizes.npages; p++)
    g_assert_false (st->pages[p].flags & FL_PAGE_MEMCG);
}

/* Eight threads on two sockets: the css line moves with every charge (a read, then the
 * cmpxchg) and every uncharge, the res_counter's only when a stock runs out (16 times per
 * thread) or a zap ends (once), so an order of magnitude less. */
static void
test_res_counter_line_moves_when_the_stock_runs_out (void)
{
  g_autoptr (FlSim) sim = run_workload ("multi-fault-all-split", 8, 1, NULL);
  const FlState *st = fl_sim_get_state (sim);
  guint32 css = st->lines[fl_line_of_memcg (st, FL_MEMCG_LINE_CSS)].transfers;
  guint32 res = st->lines[fl_line_of_memcg (st, FL_MEMCG_LINE_RES)].transfers;
  g_test_message ("css refcount line: %u transfers, res_counter: %u, for 4096 faults", css, res);
  g_assert_cmpuint (res, >, 0);
  g_assert_cmpuint (res, <=, 8 * (16 + 1));
  g_assert_cmpuint (css, >, 4096);
  g_assert_cmpuint (css, >, 10 * res);
}

/* A stock of one CPU's is its own: one thread alone never moves the res_counter's line
 * between CPUs, however many times its stock runs out. */
static void
test_one_cpu_moves_nothing (void)
{
  g_autoptr (FlSim) sim = run_workload ("multi-fault-all-split", 1, 2, NULL);
  const FlState *st = fl_sim_get_state (sim);
  g_assert_cmpuint (count_at (sim, FL_LOC_MEM_CGROUP_CHARGE_res_counter_charge), ==, 32);
  g_assert_cmpuint (st->lines[fl_line_of_memcg (st, FL_MEMCG_LINE_RES)].transfers, ==, 0);
  g_assert_cmpuint (st->lines[fl_line_of_memcg (st, FL_MEMCG_LINE_CSS)].transfers, ==, 0);
}

/* memcg=off: no charge runs, no line of the cgroup exists, the fault is 2.6.32's. */
static void
test_off_runs_none_of_it (void)
{
  const char *sets[] = { "memcg", "off", NULL };
  g_autoptr (FlSim) sim = run_workload ("multi-fault-all-split", 2, 1, sets);
  const FlState *st = fl_sim_get_state (sim);
  g_assert_cmpuint (count_at (sim, FL_LOC_MEM_CGROUP_CHARGE_css_tryget), ==, 0);
  g_assert_cmpuint (count_at (sim, FL_LOC_DO_ANONYMOUS_PAGE_charge), ==, 0);
  g_assert_cmpuint (st->sizes.line_memcg, ==, 0);
  g_assert_cmpuint (fl_line_of_memcg (st, FL_MEMCG_LINE_CSS), ==, FL_LINE_NONE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/memcg/stock-batches-the-res-counter", test_stock_batches_the_res_counter);
  g_test_add_func ("/core/memcg/res-counter-line-moves-when-the-stock-runs-out",
                   test_res_counter_line_moves_when_the_stock_runs_out);
  g_test_add_func ("/core/memcg/one-cpu-moves-nothing", test_one_cpu_moves_nothing);
  g_test_add_func ("/core/memcg/off-runs-none-of-it", test_off_runs_none_of_it);
  return g_test_run ();
}
