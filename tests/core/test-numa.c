/* test-numa.c — a memory node per socket: each CPU allocates from its own node's zone, under
 * that zone's lock; one zone means the lines and ids the machine always had. */
#include <glib.h>

#include "fl-config.h"
#include "fl-scenario.h"
#include "fl-sim.h"
#include "fl-state.h"
#include "fl-workload.h"
#include "sim-helpers.h"

static FlSim *
run_multi_fault (const char *numa)
{
  const char *const sets[] = { "numa", numa, NULL };
  return run_workload ("multi-fault", 8, 1, sets);
}

/* Every page a thread faulted in came from the zone of its CPU's socket, and both sockets'
 * zone->lock lines were taken by their own CPUs. */
static void
test_pages_come_from_the_local_node (void)
{
  g_autoptr (FlSim) sim = run_multi_fault ("per-socket");
  const FlState *st = fl_sim_get_state (sim);
  guint per_node[2] = { 0, 0 };
  for (guint32 p = 1; p < st->sizes.npages; p++)
    if (p != st->g->zero_page && p < st->g->page_fresh)
      per_node[st->pages[p].node]++;
  g_assert_cmpuint (st->g->nodes, ==, 2);
  /* four threads on each socket, the same work: about half the pages each */
  g_assert_cmpuint (per_node[0], >, 0);
  g_assert_cmpuint (per_node[1], >, 0);
  g_assert_cmpuint (per_node[0], <, 2 * per_node[1]);
  g_assert_cmpuint (per_node[1], <, 2 * per_node[0]);

  char buf[64];
  guint node1 = fl_line_of_zone_lock (st, 1);
  g_assert_cmpuint (node1, >=, FL_LINE_N_FIXED);
  g_assert_cmpstr (fl_sim_line_name (sim, node1, buf, sizeof buf), ==, "zone->lock (node 1)");
  g_assert_cmpuint (st->lines[node1].owner >= 0 || st->lines[node1].transfers > 0
                    || st->lines[node1].sharers[0] != 0, ==, TRUE);
  /* only socket 1's CPUs (4-7) ever touched node 1's lock */
  for (guint cpu = 0; cpu < 4; cpu++)
    g_assert_false ((st->lines[node1].sharers[0] >> cpu) & 1);
  g_assert_true (st->lines[node1].owner < 0 || st->lines[node1].owner >= 4);
}

/* One zone: no node lines, the objects' lines start where they always did. */
static void
test_one_zone_keeps_the_layout (void)
{
  g_autoptr (FlSim) sim = run_multi_fault ("off");
  const FlState *st = fl_sim_get_state (sim);
  char buf[64];
  g_assert_cmpuint (st->g->nodes, ==, 1);
  g_assert_cmpuint (fl_line_objects (st), ==, FL_LINE_N_FIXED);
  g_assert_cmpstr (fl_sim_line_name (sim, FL_LINE_ZONE_LOCK, buf, sizeof buf), ==, "zone->lock");
}

static void
test_too_many_nodes_is_an_error (void)
{
  FlConfig config;
  g_autoptr (GError) error = NULL;
  fl_config_init_defaults (&config);
  g_assert_true (fl_config_set (&config, "numa", "per-socket", NULL));
  g_assert_true (fl_config_set (&config, "sockets", "16", NULL));
  g_assert_false (fl_config_validate (&config, &error));
  g_assert_nonnull (strstr (error->message, "at most 8"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/numa/local-node", test_pages_come_from_the_local_node);
  g_test_add_func ("/core/numa/one-zone", test_one_zone_keeps_the_layout);
  g_test_add_func ("/core/numa/too-many-nodes", test_too_many_nodes_is_an_error);
  return g_test_run ();
}
