/* Tests of the buddy allocator (fl-buddy.c): after a workload every page frame the zones
 * took is in exactly one place (a listed free block, a CPU's list, or in use), every listed
 * block is aligned on its size and counted, no free block has a free buddy of its own size
 * (they would have merged), and the work under zone->lock moves struct pages between CPUs
 * only when there are several. */
#include "sim-helpers.h"
#include "fl-state.h"

#define MAX_BLOCK (1u << (FL_MAX_ORDER - 1))

static void
check_zones (const FlState *st)
{
  const FlGlobals *g = st->g;
  guint32 npages = st->sizes.npages;
  g_autofree guint8 *where = g_new0 (guint8, npages);   /* 1 listed, 2 on a CPU list */

  for (guint n = 0; n < g->nodes; n++)
    {
      const FlZone *z = &g->zones[n];
      guint64 listed = 0;
      for (guint o = 0; o < FL_MAX_ORDER; o++)
        {
          guint32 blocks = 0, prev = 0;
          for (guint32 p = z->area_head[o]; p != 0; p = st->pages[p].next)
            {
              const FlPage *pg = &st->pages[p];
              g_assert_cmpuint (pg->prev, ==, prev);
              g_assert_true (pg->flags & FL_PAGE_BUDDY);
              g_assert_cmpuint (pg->order, ==, o);
              g_assert_cmpuint (p % (1u << o), ==, 0);
              g_assert_cmpuint (p + (1u << o), <=, npages);
              for (guint32 q = p; q < p + (1u << o); q++)
                {
                  g_assert_cmpuint (where[q], ==, 0);
                  g_assert_cmpuint (st->pages[q].node, ==, n);
                  g_assert_cmpuint (st->pages[q].state, ==, FL_OBJ_FREE);
                  where[q] = 1;
                }
              /* the buddy invariant: a free block's buddy is not a free block of its size */
              if (o < FL_MAX_ORDER - 1)
                {
                  const FlPage *b = &st->pages[p ^ (1u << o)];
                  g_assert_false ((b->flags & FL_PAGE_BUDDY) && b->order == o);
                }
              prev = p;
              blocks++;
              g_assert_cmpuint (blocks, <=, npages);
            }
          g_assert_cmpuint (blocks, ==, z->area_free[o]);
          listed += (guint64) blocks << o;
        }
      g_assert_cmpuint (listed, ==, z->free_listed);
    }

  for (guint c = 0; c < st->sizes.ncpus; c++)
    {
      const FlCpu *cpu = &st->cpus[c];
      guint32 count = 0, prev = 0;
      for (guint32 p = cpu->pcp_head; p != 0; p = st->pages[p].next)
        {
          g_assert_cmpuint (st->pages[p].prev, ==, prev);
          g_assert_cmpuint (where[p], ==, 0);
          g_assert_cmpuint (st->pages[p].state, ==, FL_OBJ_FREE);
          g_assert_false (st->pages[p].flags & FL_PAGE_BUDDY);
          where[p] = 2;
          prev = p;
          count++;
        }
      g_assert_cmpuint (prev, ==, cpu->pcp_tail);
      g_assert_cmpuint (count, ==, cpu->pcp_count);
    }

  /* the blocks the zones took from memory: every frame listed, on a CPU's list, or in use */
  g_assert_cmpuint (g->page_fresh % MAX_BLOCK, ==, 0);
  for (guint32 p = MAX_BLOCK; p < g->page_fresh; p++)
    if (where[p] == 0)
      g_assert_cmpuint (st->pages[p].state, ==, FL_OBJ_LIVE);
}

static void
test_zones_after (gconstpointer data)
{
  const char *const *sets = data;
  g_autoptr (FlSim) sim = run_workload ("multi-fault", 8, 2, sets);
  const FlState *st = fl_sim_get_state (sim);
  check_zones (st);
  /* two rounds of 512 faults per thread went through the zones, 31 pages at a time */
  g_assert_cmpuint (st->g->page_fresh, >=, 2 * MAX_BLOCK);
}

/* Half-way through the touch phase pages are in use, on CPU lists and listed at once. */
static void
test_zones_midway (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FlScenario) sc = fl_workload_build ("multi-fault", 4, 1, &error);
  g_assert_no_error (error);
  g_autoptr (FlSim) sim = fl_sim_new (sc, &sc->config, 1, &error);
  g_assert_no_error (error);
  fl_sim_run (sim, 0);
  guint64 total = fl_sim_get_total_steps (sim);
  for (guint i = 1; i < 8; i++)
    {
      g_assert_true (fl_sim_seek (sim, total * i / 8));
      check_zones (fl_sim_get_state (sim));
    }
}

/* One CPU frees only its own pages: everything under zone->lock is its own struct pages and
 * free areas, and nothing moves; eight CPUs on two sockets recycle each other's. */
static void
test_struct_pages_move_only_between_cpus (void)
{
  g_autoptr (FlSim) one = run_workload ("multi-fault", 1, 2, NULL);
  g_autoptr (FlSim) eight = run_workload ("multi-fault", 8, 2, NULL);
  g_assert_cmpuint (fl_sim_get_state (one)->g->page_transfers, ==, 0);
  g_assert_cmpuint (fl_sim_get_state (eight)->g->page_transfers, >, 0);
}

int
main (int argc, char **argv)
{
  static const char *const one_zone[] = { NULL };
  static const char *const per_socket[] = { "machine", "nehalem-ep", NULL };
  static const char *const speculative[] = { "fault-path", "speculative", "rwsem", "xadd", NULL };
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/core/buddy/one-zone", one_zone, test_zones_after);
  g_test_add_data_func ("/core/buddy/zone-per-socket", per_socket, test_zones_after);
  g_test_add_data_func ("/core/buddy/speculative", speculative, test_zones_after);
  g_test_add_func ("/core/buddy/midway", test_zones_midway);
  g_test_add_func ("/core/buddy/struct-pages-move-only-between-cpus",
                   test_struct_pages_move_only_between_cpus);
  return g_test_run ();
}
