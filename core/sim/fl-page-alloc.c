/* fl-page-alloc.c — page frames as 2.6.32 hands them out: a per-CPU list refilled and drained
 * `batch` pages at a time under zone->lock, new pages joining the LRU through a per-CPU
 * pagevec drained under zone->lru_lock, and freed pages leaving the LRU in pagevec-sized
 * chunks. These are the shared lines that remain once mmap_sem stops bouncing. */
#include "fl-sim-internal.h"

#define PCP_BATCH     31u     /* zone_batchsize() for a large zone */
#define PCP_HIGH      (6 * PCP_BATCH)
#define PAGEVEC_SIZE  14u
#define ZONE_LOCK(node) FL_LOCK_ID (FL_LOCK_ZONE, node)
#define LRU_LOCK(node)  FL_LOCK_ID (FL_LOCK_LRU, node)

/* The zone a CPU allocates from: its own node's (the default policy allocates locally). */
guint
fl_node_of (FlSim *sim, guint cpu)
{
  guint nodes = sim->st.g->nodes;
  return nodes > 1 ? MIN (sim->socket_of[cpu], nodes - 1) : 0;
}

/* The per-CPU list, hot pages at the head: allocation takes the head, a freed page goes to
 * the head, a refill appends in the order the zone gave, and the bulk free gives back the
 * tail, the coldest (free_pcppages_bulk takes list->prev). */
static inline FlPageList
pcp_list (FlState *st, guint cpu)
{
  return (FlPageList) { &FL_CPU_RW (st, cpu, pcp_head), &FL_CPU_RW (st, cpu, pcp_tail) };
}

static void
pcp_insert (FlSim *sim, guint cpu, guint32 prev, guint32 page)
{
  fl_page_list_insert (sim, (gint) cpu, pcp_list (&sim->st, cpu), prev, page);
  FL_CPU_RW (&sim->st, cpu, pcp_count)++;
}

static void
pcp_unlink (FlSim *sim, guint cpu, guint32 page)
{
  fl_page_list_del (sim, (gint) cpu, pcp_list (&sim->st, cpu), page);
  FL_CPU_RW (&sim->st, cpu, pcp_count)--;
}

/* buffered_rmqueue, clearing the page when asked (alloc_zeroed_user_highpage). Returns it. */
static void
step_alloc (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  const FlCpu *c = &st->cpus[cpu];
  switch (f->pc)
    {
    case FL_LOC_ALLOC_PAGE_pcp:
      /* __alloc_pages with a GFP that may reclaim: might_sleep_if(__GFP_WAIT) */
      fl_rcu_may_sleep (sim, cpu, "allocates a page, which may sleep in reclaim,");
      fl_ev (sim, FL_EV_CHECK, c->pcp_count, c->pcp_count > 0);
      f->pc = c->pcp_count > 0 ? FL_LOC_ALLOC_PAGE_take : FL_LOC_ALLOC_PAGE_zone_lock;
      return;
    case FL_LOC_ALLOC_PAGE_zone_lock:
      fl_irqs_off (sim, cpu);
      f->pc = FL_LOC_ALLOC_PAGE_rmqueue_bulk;
      fl_lock_try (sim, cpu, ZONE_LOCK (fl_node_of (sim, cpu)));
      return;
    case FL_LOC_ALLOC_PAGE_rmqueue_bulk:
      {
        guint node = fl_node_of (sim, cpu);
        fl_touch (sim, cpu, fl_line_of_zone_lock (st, node), FL_ACCESS_WRITE);
        for (guint i = 0; i < PCP_BATCH; i++)
          {
            guint32 p = fl_zone_pop (sim, (gint) cpu, node);
            if (p == 0)
              break;
            pcp_insert (sim, cpu, c->pcp_tail, p);
          }
        fl_ev (sim, FL_EV_STORE, fl_zone_free (st, node), c->pcp_count);
        f->pc = FL_LOC_ALLOC_PAGE_zone_unlock;
        return;
      }
    case FL_LOC_ALLOC_PAGE_zone_unlock:
      fl_lock_release (sim, cpu, ZONE_LOCK (fl_node_of (sim, cpu)));
      fl_irqs_on (sim, cpu);
      f->pc = FL_LOC_ALLOC_PAGE_take;
      return;
    case FL_LOC_ALLOC_PAGE_take:
      {
        guint32 p = c->pcp_head;
        if (p == 0)
          {
            /* the zone the scenario was sized for ran out: the machine has more memory
             * (fl_zone_grow), so refill from the zone again */
            fl_zone_grow (st);
            fl_ev (sim, FL_EV_CHECK, 0, 0);
            f->pc = FL_LOC_ALLOC_PAGE_zone_lock;
            return;
          }
        pcp_unlink (sim, cpu, p);
        fl_page_rw (st, p)->state = FL_OBJ_LIVE;
        fl_page_rw (st, p)->count = 1;
        fl_page_rw (st, p)->mapcount = 0;
        fl_page_rw (st, p)->flags = 0;
        if (f->l.alloc_page.zero)
          fl_charge (sim, cpu, sim->config.cost.zero_page);
        fl_ev (sim, FL_EV_ALLOC, p, f->l.alloc_page.zero);
        fl_return (sim, cpu, p);
        return;
      }
    default:
      g_assert_not_reached ();
    }
}

/* free_pages_and_swap_cache over the CPU's mmu_gather: in chunks of a pagevec, leave the LRU
 * under lru_lock, then free_hot_cold_page onto the per-CPU list, which spills `batch` pages
 * back to the zone under zone->lock when it grows past its high mark. */
static void
step_free (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  FlCpu *c = fl_cpu_rw (st, cpu);
  switch (f->pc)
    {
    case FL_LOC_FREE_PAGES_lru_lock:
      if (c->gather_count == 0)
        {
          fl_ev (sim, FL_EV_CHECK, 0, 0);
          fl_return (sim, cpu, 0);
          return;
        }
      fl_irqs_off (sim, cpu);
      f->pc = FL_LOC_FREE_PAGES_release;
      fl_lock_try (sim, cpu, LRU_LOCK (fl_node_of (sim, cpu)));
      return;
    case FL_LOC_FREE_PAGES_release:
      {
        guint n = 0, node = fl_node_of (sim, cpu);
        fl_touch (sim, cpu, fl_line_of_lru_lock (st, node), FL_ACCESS_WRITE);
        while (n < PAGEVEC_SIZE && c->gather_head)
          {
            guint32 p = c->gather_head;
            fl_touch_page (sim, cpu, p);
            guint zone = st->pages[p].node;
            if (st->g->zones[zone].lru_head == p)
              FL_G_RW (st, zones[zone].lru_head) = 0;
            c->gather_head = st->pages[p].next;
            c->gather_count--;
            fl_page_rw (st, p)->state = FL_OBJ_FREE;
            fl_page_rw (st, p)->flags = 0;
            fl_page_rw (st, p)->count = 0;
            pcp_insert (sim, cpu, 0, p);
            n++;
          }
        fl_memcg_lru (sim, cpu, n);
        fl_lock_release (sim, cpu, LRU_LOCK (node));
        fl_irqs_on (sim, cpu);
        fl_ev (sim, FL_EV_FREE, n, c->pcp_count);
        f->pc = c->pcp_count > PCP_HIGH ? FL_LOC_FREE_PAGES_zone_lock : FL_LOC_FREE_PAGES_lru_lock;
        return;
      }
    case FL_LOC_FREE_PAGES_zone_lock:
      fl_irqs_off (sim, cpu);
      f->pc = FL_LOC_FREE_PAGES_free_bulk;
      fl_lock_try (sim, cpu, ZONE_LOCK (fl_node_of (sim, cpu)));
      return;
    case FL_LOC_FREE_PAGES_free_bulk:
      {
        /* A simplification on a NUMA machine: the CPU's list holds every page it freed and
         * the bulk free runs under its own node's lock, each page going back to its own zone;
         * 2.6.32 keeps a list per zone per CPU and frees each under that zone's lock. The
         * workloads free what they allocated, so their pages are local anyway. */
        guint node = fl_node_of (sim, cpu);
        fl_touch (sim, cpu, fl_line_of_zone_lock (st, node), FL_ACCESS_WRITE);
        for (guint i = 0; i < PCP_BATCH && c->pcp_tail; i++)
          {
            guint32 p = c->pcp_tail;
            pcp_unlink (sim, cpu, p);
            fl_zone_push (sim, (gint) cpu, p);
          }
        fl_ev (sim, FL_EV_STORE, fl_zone_free (st, node), c->pcp_count);
        f->pc = FL_LOC_FREE_PAGES_zone_unlock;
        return;
      }
    case FL_LOC_FREE_PAGES_zone_unlock:
      fl_lock_release (sim, cpu, ZONE_LOCK (fl_node_of (sim, cpu)));
      fl_irqs_on (sim, cpu);
      f->pc = FL_LOC_FREE_PAGES_lru_lock;
      return;
    default:
      g_assert_not_reached ();
    }
}

/* lru_cache_add: into the per-CPU pagevec; a full pagevec joins the LRU under lru_lock. */
static void
step_lru_add (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  FlCpu *c = fl_cpu_rw (st, cpu);
  guint32 page = f->l.lru_cache_add.page;
  switch (f->pc)
    {
    case FL_LOC_LRU_CACHE_ADD_pagevec_add:
      fl_touch_page (sim, cpu, page);
      fl_page_rw (st, page)->flags |= FL_PAGE_LRU;
      c->pagevec++;
      fl_ev (sim, FL_EV_STORE, page, c->pagevec);
      if (c->pagevec < PAGEVEC_SIZE)
        {
          fl_return (sim, cpu, 0);
          return;
        }
      f->pc = FL_LOC_LRU_CACHE_ADD_lru_lock;
      return;
    case FL_LOC_LRU_CACHE_ADD_lru_lock:
      fl_irqs_off (sim, cpu);
      f->pc = FL_LOC_LRU_CACHE_ADD_drain;
      /* the zone of the page that filled the pagevec: its pages are the CPU's own node's */
      fl_lock_try (sim, cpu, LRU_LOCK (st->pages[page].node));
      return;
    case FL_LOC_LRU_CACHE_ADD_drain:
      {
        guint node = st->pages[page].node;
        guint32 head = st->g->zones[node].lru_head;
        fl_touch (sim, cpu, fl_line_of_lru_lock (st, node), FL_ACCESS_WRITE);
        /* list_add links the batch in front of the page added last, whoever added it */
        if (head)
          fl_touch_page (sim, cpu, head);
        fl_memcg_lru_link (sim, cpu, head);
        fl_memcg_lru (sim, cpu, c->pagevec);
        FL_G_RW (st, zones[node].lru_head) = page;
        fl_ev (sim, FL_EV_STORE, 0, c->pagevec);
        c->pagevec = 0;
        f->pc = FL_LOC_LRU_CACHE_ADD_lru_unlock;
        return;
      }
    case FL_LOC_LRU_CACHE_ADD_lru_unlock:
      fl_lock_release (sim, cpu, LRU_LOCK (st->pages[page].node));
      fl_irqs_on (sim, cpu);
      fl_return (sim, cpu, 0);
      return;
    default:
      g_assert_not_reached ();
    }
}

const FlStepFn fl_step_alloc_page = step_alloc;
const FlStepFn fl_step_free_pages = step_free;
const FlStepFn fl_step_lru_cache_add = step_lru_add;

/* Put a page whose last reference went away on the CPU's mmu_gather list. */
void
fl_gather_page (FlSim *sim, guint cpu, guint32 page)
{
  FlState *st = &sim->st;
  FlCpu *c = fl_cpu_rw (st, cpu);
  fl_page_rw (st, page)->next = c->gather_head;
  c->gather_head = page;
  c->gather_count++;
}

/* put_page: drop one reference; the last one sends the page to the gather list. */
void
fl_put_page (FlSim *sim, guint cpu, guint32 page)
{
  FlState *st = &sim->st;
  if (page == st->g->zero_page)
    return;
  if (--fl_page_rw (st, page)->count == 0)
    fl_gather_page (sim, cpu, page);
}
