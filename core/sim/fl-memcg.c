/* fl-memcg.c — the memory controller of 2.6.33-rc2 (memcg=on), as Kamezawa's kernels had it
 * built in and his benchmark's task sat in a memory cgroup: every new anonymous page is
 * charged to the cgroup, and uncharged when the zap frees it.
 *
 * What the charge touches (mm/memcontrol.c of 2.6.33): try_get_mem_cgroup_from_mm pins the
 * cgroup with css_tryget, an atomic_inc_not_zero on css.refcnt that the charged page keeps
 * until its uncharge drops it with css_put; consume_stock takes the page from this CPU's
 * stock of charges (memcg_stock, new in 2.6.33-rc1), and only when the stock is empty does
 * res_counter_charge take CHARGE_SIZE (32 pages) at once under the res_counter's spinlock,
 * the 31 left over going to the stock; __mem_cgroup_commit_charge then locks the page's
 * page_cgroup (a bit spinlock in pc->flags), points it at the cgroup, marks it used and counts
 * it in the cgroup's per-CPU statistics. The uncharge mirrors it (lock_page_cgroup, the
 * statistics, css_put), and inside a zap it is batched (memcg_batch, also new in 2.6.33-rc1):
 * one res_counter_uncharge for the whole zap at mem_cgroup_uncharge_end. The cgroup's own
 * LRU (mem_cgroup_add_lru_list, mem_cgroup_del_lru_list) is counted in its per-zone info
 * under zone->lru_lock, beside the zone's LRU.
 *
 * Shared lines: css.refcnt (twice per page, by every CPU of the cgroup), the res_counter
 * (once per 32 pages charged, once per zap uncharged) and the per-zone info (with each
 * lru_lock section); a page_cgroup moves with its page between the CPUs that recycle it. The
 * per-CPU stock and statistics are lines of the CPU's own and cost a hit. */
#include "fl-sim-internal.h"

#define CHARGE_SIZE 32u   /* pages: 2.6.33's CHARGE_SIZE, 32 * PAGE_SIZE */

/* A page's page_cgroup (40 bytes, its own array): as fl_touch_page, a single owner. */
static void
touch_pc (FlSim *sim, guint cpu, guint32 page, gboolean locked)
{
  FlPage *pg = fl_page_rw (&sim->st, page);
  const FlCostTable *k = &sim->config.cost;
  guint64 cost;

  fl_note (sim, FL_KEY (FL_KEY_PAGE, page), TRUE);
  if (pg->pc_owner == cpu + 1)
    cost = locked ? k->locked_rmw : k->l1_hit;
  else if (pg->pc_owner == 0)
    cost = k->dram + (locked ? k->locked_rmw : 0);
  else
    {
      gboolean remote = sim->socket_of[pg->pc_owner - 1] != sim->socket_of[cpu];
      cost = locked ? (remote ? k->remote_rmw : k->local_rmw)
                    : (remote ? k->remote_store : k->local_store);
      FL_G_RW (&sim->st, page_transfers)++;
    }
  pg->pc_owner = (guint16) (cpu + 1);
  FL_CPU_RW (&sim->st, cpu, clock) += cost;
}

/* mem_cgroup_newpage_charge: its page (l.memcg_charge), returned when charged. */
static void
step_charge (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  const FlCpu *c = &st->cpus[cpu];
  switch (f->pc)
    {
    case FL_LOC_MEM_CGROUP_CHARGE_css_tryget:
      /* atomic_inc_not_zero: a read of the count, then a lock cmpxchg of it */
      fl_touch (sim, cpu, fl_line_of_memcg (st, FL_MEMCG_LINE_CSS), FL_ACCESS_READ);
      fl_touch (sim, cpu, fl_line_of_memcg (st, FL_MEMCG_LINE_CSS), FL_ACCESS_RMW);
      fl_ev (sim, FL_EV_RMW, f->l.memcg_charge.page, 1);
      f->pc = FL_LOC_MEM_CGROUP_CHARGE_consume_stock;
      return;
    case FL_LOC_MEM_CGROUP_CHARGE_consume_stock:
      /* this CPU's memcg_stock: its own line */
      fl_charge (sim, cpu, sim->config.cost.l1_hit);
      fl_ev (sim, FL_EV_CHECK, c->memcg_stock, c->memcg_stock > 0);
      if (c->memcg_stock > 0)
        {
          FL_CPU_RW (st, cpu, memcg_stock)--;
          f->pc = FL_LOC_MEM_CGROUP_CHARGE_commit;
        }
      else
        f->pc = FL_LOC_MEM_CGROUP_CHARGE_res_counter_charge;
      return;
    case FL_LOC_MEM_CGROUP_CHARGE_res_counter_charge:
      {
        /* spin_lock_irqsave(&counter->lock), usage += 32 pages, max_usage, unlock: a critical
         * section of a few stores on the lock's own line, so one step; the CPUs that want
         * it meanwhile queue on the line */
        guint line = fl_line_of_memcg (st, FL_MEMCG_LINE_RES);
        fl_touch (sim, cpu, line, FL_ACCESS_RMW);
        fl_touch (sim, cpu, line, FL_ACCESS_WRITE);
        fl_touch (sim, cpu, line, FL_ACCESS_WRITE);
        FL_G_RW (st, memcg_usage) += CHARGE_SIZE;
        FL_CPU_RW (st, cpu, memcg_stock) = CHARGE_SIZE - 1;   /* refill_stock */
        fl_ev (sim, FL_EV_RMW, (guint32) st->g->memcg_usage, CHARGE_SIZE);
        f->pc = FL_LOC_MEM_CGROUP_CHARGE_commit;
        return;
      }
    case FL_LOC_MEM_CGROUP_CHARGE_commit:
      {
        /* lock_page_cgroup, pc->mem_cgroup and PCG_USED, the per-CPU statistics, unlock */
        guint32 page = f->l.memcg_charge.page;
        touch_pc (sim, cpu, page, TRUE);
        fl_charge (sim, cpu, 2 * sim->config.cost.l1_hit);
        fl_page_rw (st, page)->flags |= FL_PAGE_MEMCG;
        fl_ev (sim, FL_EV_STORE, page, 1);
        fl_return (sim, cpu, page);
        return;
      }
    default:
      g_assert_not_reached ();
    }
}

const FlStepFn fl_step_mem_cgroup_charge = step_charge;

/* mem_cgroup_uncharge_page, from page_remove_rmap when the page's last mapping goes, inside
 * the zap's step: lock_page_cgroup, the statistics, PCG_USED cleared, css_put; the
 * res_counter waits for the end of the zap (memcg_batch). */
void
fl_memcg_uncharge (FlSim *sim, guint cpu, guint32 page)
{
  FlState *st = &sim->st;
  if (!sim->config.memcg || !(st->pages[page].flags & FL_PAGE_MEMCG))
    return;
  touch_pc (sim, cpu, page, TRUE);
  fl_charge (sim, cpu, 2 * sim->config.cost.l1_hit);
  fl_page_rw (st, page)->flags &= ~(guint32) FL_PAGE_MEMCG;
  fl_touch (sim, cpu, fl_line_of_memcg (st, FL_MEMCG_LINE_CSS), FL_ACCESS_RMW);
  FL_CPU_RW (st, cpu, memcg_batch)++;
}

/* mem_cgroup_uncharge_end: what the zap uncharged leaves the res_counter in one section. */
void
fl_memcg_uncharge_end (FlSim *sim, guint cpu)
{
  FlState *st = &sim->st;
  const FlCpu *c = &st->cpus[cpu];
  if (!sim->config.memcg || c->memcg_batch == 0)
    return;
  guint line = fl_line_of_memcg (st, FL_MEMCG_LINE_RES);
  fl_touch (sim, cpu, line, FL_ACCESS_RMW);
  fl_touch (sim, cpu, line, FL_ACCESS_WRITE);
  FL_G_RW (st, memcg_usage) -= MIN (st->g->memcg_usage, (guint64) c->memcg_batch);
  FL_CPU_RW (st, cpu, memcg_batch) = 0;
}

/* mem_cgroup_add_lru_list / mem_cgroup_del_lru_list for `pages` pages under zone->lru_lock:
 * the cgroup's per-zone count (and list heads) on its line, each page's page_cgroup marked. */
void
fl_memcg_lru (FlSim *sim, guint cpu, guint pages)
{
  if (!sim->config.memcg || pages == 0)
    return;
  fl_touch (sim, cpu, fl_line_of_memcg (&sim->st, FL_MEMCG_LINE_ZONEINFO), FL_ACCESS_WRITE);
  fl_charge (sim, cpu, (guint64) pages * sim->config.cost.l1_hit);
}

/* list_add of a drained pagevec in front of the cgroup's LRU: the page added last, whoever
 * added it, gets its page_cgroup's link written (the zone's LRU does the same to its page). */
void
fl_memcg_lru_link (FlSim *sim, guint cpu, guint32 head)
{
  if (sim->config.memcg && head != 0)
    touch_pc (sim, cpu, head, FALSE);
}
