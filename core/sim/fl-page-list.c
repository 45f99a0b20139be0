/* fl-page-list.c — lists of pages linked through their struct pages (page->lru), as the
 * per-CPU free lists and the buddy allocator's free areas are: every link written is a
 * struct page written, which the coherence model charges to the CPU that writes it. */
#include "fl-sim-internal.h"

/* The set-up moves pages with no CPU: no step, no cost. */
static inline void
touch (FlSim *sim, gint cpu, guint32 page)
{
  if (cpu >= 0)
    fl_touch_page (sim, (guint) cpu, page);
}

/**
 * fl_page_list_insert:
 * @sim: the simulation
 * @cpu: the CPU writing the links, or -1 at set-up
 * @list: the list's head and tail (a list may have no tail)
 * @prev: the page to insert after, 0 for the head
 * @page: a page on no list
 *
 * list_add: @page between @prev and the page that followed it.
 */
void
fl_page_list_insert (FlSim *sim, gint cpu, FlPageList list, guint32 prev, guint32 page)
{
  FlState *st = &sim->st;
  guint32 next = prev != 0 ? st->pages[prev].next : *list.head;
  touch (sim, cpu, page);
  fl_page_rw (st, page)->prev = prev;
  fl_page_rw (st, page)->next = next;
  if (prev != 0)
    {
      touch (sim, cpu, prev);
      fl_page_rw (st, prev)->next = page;
    }
  else
    *list.head = page;
  if (next != 0)
    {
      touch (sim, cpu, next);
      fl_page_rw (st, next)->prev = page;
    }
  else if (list.tail != NULL)
    *list.tail = page;
}

/**
 * fl_page_list_del:
 * @sim: the simulation
 * @cpu: the CPU writing the links, or -1 at set-up
 * @list: the list @page is on
 * @page: the page
 *
 * list_del: its neighbours linked to each other, its own links cleared.
 */
void
fl_page_list_del (FlSim *sim, gint cpu, FlPageList list, guint32 page)
{
  FlState *st = &sim->st;
  FlPage *pg = fl_page_rw (st, page);
  touch (sim, cpu, page);
  if (pg->prev != 0)
    {
      touch (sim, cpu, pg->prev);
      fl_page_rw (st, pg->prev)->next = pg->next;
    }
  else
    *list.head = pg->next;
  if (pg->next != 0)
    {
      touch (sim, cpu, pg->next);
      fl_page_rw (st, pg->next)->prev = pg->prev;
    }
  else if (list.tail != NULL)
    *list.tail = pg->prev;
  pg->next = pg->prev = 0;
}
