/* fl-mm.c — the objects of the mm: VMA and page-table slots, page frames, the page cache, RSS.
 * Allocation here is bookkeeping of the plain-data state (slots, free lists); what the kernel
 * does to allocate is modeled by the step functions that call these. */
#include "fl-sim-internal.h"

#include <string.h>

/* The VMAs' tree nodes, to walk, or to write the nodes of VMAs taken for writing first
 * (fl_vma_rw: rb_link_node, RB_CLEAR_NODE); it marks nothing itself. */
FlRbAccess
fl_vma_rb_access (const FlState *st)
{
  FlRbAccess acc = { (guint8 *) st->vmas, sizeof (FlVma), G_STRUCT_OFFSET (FlVma, rb),
                     G_STRUCT_OFFSET (FlVma, start) };
  return acc;
}

/* The same, to insert, erase or rebalance, which write nodes of their own choosing: every VMA
 * marked (FlPlainMarks). */
FlRbAccess
fl_vma_rb_access_rw (FlState *st)
{
  fl_plain_rw (st, FL_PLAIN_VMAS, st->vmas, st->vmas, st->sizes.nvmas * sizeof (FlVma));
  return fl_vma_rb_access (st);
}

/* The lowest free slot, as before the arrays grew (ids are part of the events); the hint
 * skips the slots known to be in use. Callers make sure one is left (fl_sim_room_for, the
 * check before every step), so the array never grows past its limit. */
static guint32
lowest_free (const guint8 *slots, gsize size, gsize state_offset, guint n, guint32 from)
{
  for (guint32 i = MAX (from, 1u); i < n; i++)
    if (slots[(gsize) i * size + state_offset] == FL_OBJ_FREE)
      return i;
  return MAX (n, 1u);
}

/* Reused slots bump their generation, so a reference kept across the free is still caught. */
/* For the explorer: a read of the VMA list and tree, every VMA in it (a walk the cost model
 * charges as cached, but whose answer another CPU's write can change). */
void
fl_note_vma_list (FlSim *sim)
{
  const FlState *st = &sim->st;
  if (G_LIKELY (sim->footprint == NULL))
    return;
  fl_note (sim, FL_KEY (FL_KEY_LINE, FL_LINE_MM_MMAP), FALSE);
  for (guint32 v = 1; v < st->sizes.nvmas; v++)
    if (st->vmas[v].state != FL_OBJ_FREE)
      fl_note (sim, FL_KEY (FL_KEY_LINE, fl_line_of_vma (st, v)), FALSE);
}

guint32
fl_vma_alloc (FlSim *sim)
{
  FlState *st = &sim->st;
  guint32 i = lowest_free ((const guint8 *) st->vmas, sizeof (FlVma),
                           G_STRUCT_OFFSET (FlVma, state), st->sizes.nvmas, st->g->vma_hint);
  fl_state_need_vma (st, i);
  fl_note (sim, FL_KEY (FL_KEY_LINE, fl_line_of_vma (st, i)), TRUE);
  FlVma *v = fl_vma_rw (st, i);
  guint16 gen = v->gen + 1;
  memset (v, 0, sizeof *v);
  v->gen = gen;
  v->state = FL_OBJ_LIVE;
  FL_G_RW (st, vma_hint) = i + 1;
  FL_G_RW (st, vmas_used)++;
  return i;
}

void
fl_vma_free_now (FlSim *sim, guint32 vma)
{
  FlState *st = &sim->st;
  fl_note (sim, FL_KEY (FL_KEY_LINE, fl_line_of_vma (st, vma)), TRUE);
  /* its file goes with it, unless remove_vma put it already (fl-vm-file.c) */
  fl_vma_put_file (sim, G_MAXUINT, vma, FALSE);
  fl_vma_rw (st, vma)->state = FL_OBJ_FREE;
  FL_G_RW (st, vma_hint) = MIN (st->g->vma_hint, vma);
  FL_G_RW (st, vmas_used)--;
  /* the slot's memory is gone: whoever still had its line loses it */
  FlLine *l = fl_line_rw (st, fl_line_of_vma (st, vma));
  memset (l->sharers, 0, sizeof l->sharers);
  l->owner = -1;
}

guint32
fl_table_alloc (FlSim *sim, guint level, guint64 base)
{
  FlState *st = &sim->st;
  guint32 i = lowest_free ((const guint8 *) st->tables, sizeof (FlTable),
                           G_STRUCT_OFFSET (FlTable, state), st->sizes.ntables, st->g->table_hint);
  fl_state_need_table (st, i);
  fl_note (sim, FL_KEY (FL_KEY_LINE, fl_line_of_table (st, i)), TRUE);
  fl_note (sim, FL_KEY (FL_KEY_LINE, fl_line_of_ptl (st, i)), TRUE);
  FlTable *t = fl_table_rw (st, i);
  guint16 gen = t->gen + 1;
  memset (t, 0, sizeof *t);
  memset (fl_table_entries_rw (st, i), 0, FL_PTRS_PER_TABLE * sizeof (guint64));
  t->gen = gen;
  t->state = FL_OBJ_LIVE;
  t->level = level;
  t->base = base;
  t->ptl_holder = -1;
  FL_G_RW (st, table_hint) = i + 1;
  FL_G_RW (st, tables_used)++;
  return i;
}

/* A PTE table's split lock lives in its struct page: freeing the table while the lock is held
 * or waited for frees the lock under its users (v2's pte_map_lock(NULL) returned holding it
 * with IRQs on, so munmap's TLB flush did not wait for the holder). */
void
fl_table_free (FlSim *sim, guint cpu, guint32 table)
{
  FlState *st = &sim->st;
  const FlTable *t = &st->tables[table];
  fl_note (sim, FL_KEY (FL_KEY_LINE, fl_line_of_table (&sim->st, table)), TRUE);
  fl_note (sim, FL_KEY (FL_KEY_LINE, fl_line_of_ptl (&sim->st, table)), TRUE);
  if (t->level == 1 && t->ptl_holder >= 0)
    {
      FlFinding *f = fl_finding (sim, cpu, FL_FINDING_FREED_WHILE_LOCKED, table,
                                 "cpu%u frees page-table page %u while cpu%d holds its PTE lock, "
                                 "which lives in that page", cpu, table, t->ptl_holder);
      if (f != NULL)
        fl_finding_caused_by (sim, f, cpu, f->step, FL_DEFECT_TABLE_FREED, "cpu%u freed page-table page %u while cpu%d "
                              "held its PTE lock", cpu, table, t->ptl_holder);
    }
  else if (t->level == 1 && t->ptl_next != t->ptl_owner)
    fl_finding (sim, cpu, FL_FINDING_FREED_WHILE_LOCKED, table,
                "cpu%u frees page-table page %u while CPUs wait for its PTE lock, which lives "
                "in that page", cpu, table);
  fl_table_rw (st, table)->state = FL_OBJ_FREE;
  FL_G_RW (st, table_hint) = MIN (st->g->table_hint, table);
  FL_G_RW (st, tables_used)--;
}

/* From node 0's zone without a step (set-up, the page cache's own pages). */
guint32
fl_page_take (FlSim *sim)
{
  FlState *st = &sim->st;
  while (fl_zone_free (st, 0) == 0)
    fl_zone_grow (st);
  guint32 p = fl_zone_pop (sim, -1, 0);
  memset (fl_page_rw (st, p), 0, sizeof (FlPage));
  fl_page_rw (st, p)->state = FL_OBJ_LIVE;
  return p;
}

/* The page cache holds every file page already (faults on it are soft): the first lookup of
 * an offset materializes the page with the cache's own reference. Entries are found through
 * an index kept in the state, so a run faulting a large file stays linear. */
guint32
fl_page_cache_get (FlSim *sim, guint32 file, guint32 pgoff)
{
  FlState *st = &sim->st;
  guint32 mask = st->sizes.ncache_index - 1;
  guint32 h = fl_cache_hash (file, pgoff) & mask;
  for (; st->cache_index[h] != 0; h = (h + 1) & mask)
    {
      const FlCacheEntry *e = &st->cache[st->cache_index[h]];
      if (e->file == file && e->pgoff == pgoff)
        return e->page;
    }
  /* entries fill up in order and stay, as the slots the cache had before it grew */
  guint32 i = ++FL_G_RW (st, cache_used);
  fl_state_need_cache (st, i);
  guint32 page = fl_page_take (sim);
  FlCacheEntry *e = fl_cache_rw (st, i);
  e->file = file;
  e->pgoff = pgoff;
  e->page = page;
  fl_page_rw (st, page)->flags = FL_PAGE_FILE;
  fl_page_rw (st, page)->count = 1;
  fl_page_rw (st, page)->ext_refs = 1;
  if (2 * (i + 1) > st->sizes.ncache_index)
    fl_state_index_cache (st, i);
  else
    *fl_cache_index_rw (st, h) = i;
  return st->cache[i].page;
}

guint32
fl_walk_index (guint level, guint64 addr)
{
  return (guint32) ((addr >> (12 + 9 * (level - 1))) & (FL_PTRS_PER_TABLE - 1));
}

/* The table of `level` that maps addr, or 0 when the walk stops earlier (set-up and oracle). */
guint32
fl_lookup_table (const FlState *st, guint64 addr, guint level)
{
  guint32 table = st->g->mm.pgd;
  for (guint l = 4; l > level && table; l--)
    table = (guint32) fl_table_entries (st, table)[fl_walk_index (l, addr)];
  return table;
}

guint32
fl_vma_covering (const FlState *st, guint64 addr)
{
  for (guint32 v = st->g->mm.mmap; v; v = st->vmas[v].next)
    if (st->vmas[v].start <= addr && addr < st->vmas[v].end)
      return v;
  return 0;
}

/* inc_mm_counter / add_mm_counter: one shared atomic line, or the faulting thread's cache. */
void
fl_rss_add (FlSim *sim, guint cpu, gboolean anon, gint64 delta)
{
  FlState *st = &sim->st;
  if (sim->config.rss == FL_RSS_PER_THREAD)
    {
      if (anon)
        FL_CPU_RW (st, cpu, rss_anon) += delta;
      else
        FL_CPU_RW (st, cpu, rss_file) += delta;
      return;
    }
  if (anon)
    FL_G_RW (st, mm.rss_anon) += delta;
  else
    FL_G_RW (st, mm.rss_file) += delta;
}

static const char *
vma_range (const FlVma *v, char *buf, gsize size)
{
  g_snprintf (buf, size, "0x%" G_GINT64_MODIFIER "x-0x%" G_GINT64_MODIFIER "x", v->start, v->end);
  return buf;
}

/**
 * fl_check_vma:
 * @sim: the simulation
 * @cpu: the CPU about to touch the VMA
 * @vma_ref: the reference it holds (id and generation)
 *
 * Returns: %TRUE when the VMA is still allocated; otherwise reports `use-after-free`.
 */
gboolean
fl_check_vma (FlSim *sim, guint cpu, guint32 vma_ref)
{
  FlState *st = &sim->st;
  guint32 id = fl_ref_id (vma_ref);
  const FlVma *v = &st->vmas[id];
  if (id == 0)
    return TRUE;
  if (v->state != FL_OBJ_FREE && v->gen == (vma_ref >> 16))
    return TRUE;
  char range[64];
  fl_finding (sim, cpu, FL_FINDING_USE_AFTER_FREE, id,
              "cpu%u reads VMA %u (%s) after it was freed: nothing kept it alive once munmap or a "
              "merge unlinked it",
              cpu, id, vma_range (v, range, sizeof range));
  return FALSE;
}

gboolean
fl_check_table (FlSim *sim, guint cpu, guint32 table_ref)
{
  FlState *st = &sim->st;
  guint32 id = fl_ref_id (table_ref);
  const FlTable *t = &st->tables[id];
  if (id == 0 || (t->state != FL_OBJ_FREE && t->gen == (table_ref >> 16)))
    return TRUE;
  fl_finding (sim, cpu, FL_FINDING_USE_AFTER_FREE, id,
              "cpu%u walks page-table page %u after it was freed: the walk was not pinned "
              "against the TLB-flush that frees page tables", cpu, id);
  return FALSE;
}
