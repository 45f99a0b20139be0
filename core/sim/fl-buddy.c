/* fl-buddy.c — a zone's free pages as 2.6.32's buddy allocator keeps them (mm/page_alloc.c).
 *
 * Free memory sits in blocks of 2^order pages (order 0 to FL_MAX_ORDER - 1), each aligned on
 * its size, on the zone's free_area[order] lists, linked through the first page's struct page.
 * Taking one page (__rmqueue_smallest) takes the first block of the smallest order that has
 * one and splits the rest of it back onto the lower lists (expand); freeing one
 * (__free_one_page) merges it with its buddy, the block of the same size next to it, as long
 * as that one is free too, and lists what it made. Both run under zone->lock, a batch of the
 * per-CPU list at a time (fl-page-alloc.c).
 *
 * What they read and write is touched through the coherence model: the struct pages of the
 * block, of its buddies and of its neighbours on the lists, which the CPUs that freed and
 * allocated them last hold, and the free_area lines, which move with the lock. That is the
 * hold time of zone->lock, and it grows with the number of CPUs that recycle each other's
 * neighbours: the lock Zijlstra saw dominate once mmap_sem was out of the way, and
 * free_pcppages_bulk's share of Kamezawa's profiles (docs/model.md, "The buddy allocator").
 *
 * A zone starts with no memory listed: the first time its lists are empty it takes the next
 * aligned block of the largest order from the pages never handed out (page_fresh), as if it
 * had been there since boot (memmap_init puts all memory on free_area[MAX_ORDER - 1]). */
#include "fl-sim-internal.h"

#define MAX_BLOCK (1u << (FL_MAX_ORDER - 1))

static inline guint32
align_up (guint32 id)
{
  return (id + MAX_BLOCK - 1) & ~(MAX_BLOCK - 1);
}

/* The set-up takes pages with no CPU: no step, no cost. */
static inline void
touch_area (FlSim *sim, gint cpu, FlZone *z, guint order)
{
  if (cpu >= 0)
    fl_touch_owned (sim, (guint) cpu, &z->area_owner[order]);
}

static inline FlPageList
area_list (FlZone *z, guint order)
{
  return (FlPageList) { &z->area_head[order], NULL };
}

/* list_add at the head of free_area[order], set_page_order, nr_free++ */
static void
area_add (FlSim *sim, gint cpu, FlZone *z, guint order, guint32 page)
{
  touch_area (sim, cpu, z, order);
  fl_page_list_insert (sim, cpu, area_list (z, order), 0, page);
  FlPage *pg = fl_page_rw (&sim->st, page);
  pg->flags |= FL_PAGE_BUDDY;
  pg->order = (guint8) order;
  z->area_free[order]++;
  z->free_listed += 1u << order;
}

/* list_del from free_area[order], rmv_page_order, nr_free-- */
static void
area_del (FlSim *sim, gint cpu, FlZone *z, guint order, guint32 page)
{
  touch_area (sim, cpu, z, order);
  fl_page_list_del (sim, cpu, area_list (z, order), page);
  FlPage *pg = fl_page_rw (&sim->st, page);
  pg->flags &= ~(guint32) FL_PAGE_BUDDY;
  pg->order = 0;
  z->area_free[order]--;
  z->free_listed -= 1u << order;
}

/* Pages never handed out that can still become whole blocks below @limit. */
static guint32
fresh_below (const FlGlobals *g, guint32 limit)
{
  limit = MIN (limit, FL_MAX_PAGES);
  guint32 base = align_up (g->page_fresh);
  return limit >= base + MAX_BLOCK ? (limit - base) & ~(MAX_BLOCK - 1) : 0;
}

/* The zone's lists are empty: the next block of the largest order joins it. */
static gboolean
take_fresh_block (FlSim *sim, gint cpu, guint node)
{
  FlState *st = &sim->st;
  if (fresh_below (st->g, st->g->zone_pages) == 0)
    return FALSE;
  guint32 base = align_up (st->g->page_fresh);
  FL_G_RW (st, page_fresh) = base + MAX_BLOCK;
  fl_state_need_page (st, base + MAX_BLOCK - 1);
  for (guint32 p = base; p < base + MAX_BLOCK; p++)
    fl_page_rw (st, p)->node = (guint8) node;
  area_add (sim, cpu, fl_zone_rw (st, node), FL_MAX_ORDER - 1, base);
  return TRUE;
}

/**
 * fl_zone_pop:
 * @sim: the simulation
 * @cpu: the CPU holding zone->lock, or -1 at set-up
 * @node: the zone
 *
 * __rmqueue for one page: the first block of the smallest order listed, its upper halves
 * listed again one order lower each (expand).
 *
 * Returns: the page, 0 when the zone has none left within the memory the machine has now
 * (fl_zone_grow)
 */
guint32
fl_zone_pop (FlSim *sim, gint cpu, guint node)
{
  FlZone *z = fl_zone_rw (&sim->st, node);
  guint order = 0;
  for (; order < FL_MAX_ORDER; order++)
    {
      touch_area (sim, cpu, z, order);   /* list_empty(&area->free_list) */
      if (z->area_head[order] != 0)
        break;
    }
  if (order == FL_MAX_ORDER)
    {
      if (!take_fresh_block (sim, cpu, node))
        return 0;
      order = FL_MAX_ORDER - 1;
    }
  guint32 page = z->area_head[order];
  area_del (sim, cpu, z, order, page);
  for (guint high = order; high > 0; high--)
    area_add (sim, cpu, z, high - 1, page + (1u << (high - 1)));
  return page;
}

/**
 * fl_zone_push:
 * @sim: the simulation
 * @cpu: the CPU holding zone->lock
 * @page: a free page, off every list
 *
 * __free_one_page at order 0: while the buddy (the frame whose number differs in bit
 * `order`) heads a free block of the same order, take it off its list and go on with the
 * pair; list the block that results. Page ids are page frame numbers, and blocks are aligned
 * on MAX_BLOCK, so a buddy always lies in the zone's own block.
 */
void
fl_zone_push (FlSim *sim, gint cpu, guint32 page)
{
  FlState *st = &sim->st;
  FlZone *z = fl_zone_rw (st, st->pages[page].node);
  guint order = 0;
  for (; order < FL_MAX_ORDER - 1; order++)
    {
      guint32 buddy = page ^ (1u << order);
      if (cpu >= 0)                      /* page_is_buddy reads its struct page */
        fl_touch_page (sim, (guint) cpu, buddy);
      const FlPage *b = &st->pages[buddy];
      if (!(b->flags & FL_PAGE_BUDDY) || b->order != order)
        break;
      area_del (sim, cpu, z, order, buddy);
      page &= ~(1u << order);
    }
  area_add (sim, cpu, z, order, page);
}

/* Free pages a zone can hand out: those on its lists, and the blocks never handed out, which
 * any zone may take. */
guint32
fl_zone_free (const FlState *st, guint node)
{
  const FlGlobals *g = st->g;
  return g->zones[node].free_listed + fresh_below (g, g->zone_pages);
}

/* The zones were sized from the scenario; a run that needs more memory gets it, as if the
 * machine had more, up to FL_MAX_PAGES (the check before every step stops the run first). */
void
fl_zone_grow (FlState *st)
{
  guint32 size = (guint32) MIN ((guint64) st->g->zone_pages * 2, (guint64) FL_MAX_PAGES);
  g_assert (size > st->g->zone_pages);
  FL_G_RW (st, zone_pages) = size;
}

/* Page frames the zones can still hand out without passing FL_MAX_PAGES. */
guint64
fl_zone_room (const FlState *st)
{
  const FlGlobals *g = st->g;
  guint64 listed = 0;
  for (guint n = 0; n < g->nodes; n++)
    listed += g->zones[n].free_listed;
  return listed + fresh_below (g, FL_MAX_PAGES);
}
