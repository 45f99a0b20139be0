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
  FlPage *pages = sim->st.pages;
  guint32 next = prev != 0 ? pages[prev].next : *list.head;
  touch (sim, cpu, page);
  pages[page].prev = prev;
  pages[page].next = next;
  if (prev != 0)
    {
      touch (sim, cpu, prev);
      pages[prev].next = page;
    }
  else
    *list.head = page;
  if (next != 0)
    {
      touch (sim, cpu, next);
      pages[next].prev = page;
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
  FlPage *pages = sim->st.pages;
  FlPage *pg = &pages[page];
  touch (sim, cpu, page);
  if (pg->prev != 0)
    {
      touch (sim, cpu, pg->prev);
      pages[pg->prev].next = pg->next;
    }
  else
    *list.head = pg->next;
  if (pg->next != 0)
    {
      touch (sim, cpu, pg->next);
      pages[pg->next].prev = pg->prev;
    }
  else if (list.tail != NULL)
    *list.tail = pg->prev;
  pg->next = pg->prev = 0;
}
