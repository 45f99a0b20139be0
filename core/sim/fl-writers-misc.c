/* fl-writers-misc.c — the operations that change the address space without unmapping it:
 * mmap_region (insert a VMA, rebalancing step by step), vma_adjust (the seqcount write
 * section the patch puts around every VMA change), mprotect (split, change flags, change the
 * PTEs) and fork's write-protection of the parent's pages; plus what the writers share.
 * The unmapping side (munmap, zap, madvise, reclaim and migration) is fl-writers-unmap.c.
 *
 * Every step is one visible action and charges the lines it touches. Writers hold mmap_sem
 * for write (madvise for read), so the tree does not change under their walks; speculative
 * faults do read it concurrently, which is why every change a reader could see is a step. */
#include "fl-writers-private.h"

#include <string.h>

#define RWX (FL_VM_READ | FL_VM_WRITE | FL_VM_EXEC)

/* ---- shared by the writers ------------------------------------------------------------ */

/**
 * fl_writer_walk_prev:
 * @sim: the simulation
 * @cpu: the walking CPU
 * @addr: the address looked up
 * @walk: (inout): the walk, zero to start
 *
 * One step of find_vma_prev(mm, addr, &prev): the first step reads mm->mm_rb and visits the
 * root, each later one visits one node. The answer is the first VMA ending above @addr,
 * found as prev->vm_next (mm->mmap without a prev): fl_writer_walk_prev_vma().
 *
 * Returns: %TRUE when the walk is over
 */
gboolean
fl_writer_walk_prev (FlSim *sim, guint cpu, guint64 addr, FlWalkPrev *walk)
{
  FlState *st = &sim->st;
  if (!walk->started)
    {
      /* mm->mmap (the answer without a prev) and mm->mm_rb share the mm's first line */
      fl_touch (sim, cpu, FL_LINE_MM_MMAP, FL_ACCESS_READ);
      *walk = (FlWalkPrev) { .node = (guint16) st->g->mm.root, .started = 1 };
      if (st->g->mm.root == 0)
        {
          fl_ev (sim, FL_EV_LOAD, 0, 0);
          return TRUE;
        }
    }
  guint32 node = walk->node, prev = walk->prev, next;
  const FlVma *v = &st->vmas[node];
  fl_w_touch_vma (sim, cpu, node, FL_ACCESS_READ);
  if (addr < v->end)
    next = v->rb.left;
  else
    {
      /* this one ends below addr: stop if its list successor already ends above */
      prev = node;
      fl_w_touch_vma (sim, cpu, v->next, FL_ACCESS_READ);
      next = (v->next == 0 || addr < st->vmas[v->next].end) ? 0 : v->rb.right;
    }
  walk->node = (guint16) next;
  walk->prev = (guint16) prev;
  fl_ev (sim, FL_EV_LOAD, node, addr < v->end);
  return next == 0;
}

guint32
fl_writer_walk_prev_vma (const FlState *st, const FlWalkPrev *walk)
{
  return walk->prev ? st->vmas[walk->prev].next : st->g->mm.mmap;
}

/**
 * fl_writer_find_pte_table:
 * @sim: the simulation
 * @cpu: the walking CPU
 * @cursor: (inout): where to start; left at the first address the table found maps
 * @end: end of the range
 *
 * The pgd/pud/pmd loops of unmap_page_range, change_protection and copy_page_range: walk
 * down from mm->pgd to the first PTE table mapping something in [@cursor, @end), skipping
 * what empty entries would map. Reads of the upper tables are charged; they are mm-private
 * lines the walker usually holds.
 *
 * Returns: the PTE table, or 0 when the rest of the range has none
 */
guint32
fl_writer_find_pte_table (FlSim *sim, guint cpu, guint64 *cursor, guint64 end)
{
  FlState *st = &sim->st;
  fl_touch (sim, cpu, FL_LINE_MM_SEM, FL_ACCESS_READ);   /* mm->pgd */
  while (*cursor < end)
    {
      guint32 table = st->g->mm.pgd;
      guint level = 4;
      for (; level > 1; level--)
        {
          fl_touch (sim, cpu, fl_line_of_table (st, table), FL_ACCESS_READ);
          guint32 below = (guint32) fl_table_entries (st, table)[fl_walk_index (level, *cursor)];
          if (below == 0)
            break;
          table = below;
        }
      if (level == 1)
        return table;
      guint64 span = fl_w_span (level - 1);
      guint64 next = (*cursor & ~(span - 1)) + span;
      if (next <= *cursor)
        break;
      *cursor = next;
    }
  *cursor = MAX (*cursor, end);
  return 0;
}

/**
 * fl_writer_next_entry:
 * @st: the state
 * @table: a PTE table
 * @from: first index to look at
 * @to: index after the last one
 * @kind: which entries count (#FlWriterEntryKind)
 *
 * Returns: the first index in [@from, @to) holding an entry of @kind, or @to
 */
guint32
fl_writer_next_entry (const FlState *st, guint32 table, guint32 from, guint32 to, guint kind)
{
  const guint64 *e = fl_table_entries (st, table);
  for (guint32 i = from; i < to; i++)
    {
      guint64 pte = e[i];
      guint64 type = pte & FL_PTE_KIND_MASK;
      switch (kind)
        {
        case FL_W_ENTRY_ANY:
          if (pte)
            return i;
          break;
        case FL_W_ENTRY_PROTECT:
          /* pte_modify on present PTEs; write migration entries become read ones */
          if (type == FL_PTE_PRESENT || (type == FL_PTE_MIGRATION && (pte & FL_PTE_WRITE)))
            return i;
          break;
        case FL_W_ENTRY_NORMAL:
        default:
          /* vm_normal_page: the zero page is a special PTE, with no struct page to share */
          if (type == FL_PTE_PRESENT && FL_PTE_PAGE (pte) != st->g->zero_page)
            return i;
          break;
        }
    }
  return to;
}

/* The PTE indexes of [lo, hi) inside a table: hi may be the table's end. */
guint32
fl_writer_index_of (const FlState *st, guint32 table, guint64 addr)
{
  return (guint32) ((addr - st->tables[table].base) / FL_PAGE_SIZE);
}

/**
 * fl_writer_split_copy:
 * @sim: the simulation
 * @cpu: the CPU
 * @vma: the VMA being split
 * @addr: where it is split
 * @new_below: whether the new VMA is the part below @addr (else the part from @addr)
 *
 * The first half of split_vma: `*new = *vma` (sequence count included) trimmed to one side.
 * Nobody can see the new VMA until vma_adjust links it.
 *
 * Returns: the new VMA
 */
guint32
fl_writer_split_copy (FlSim *sim, guint cpu, guint32 vma, guint64 addr, gboolean new_below)
{
  FlState *st = &sim->st;
  guint32 id = fl_vma_alloc (sim);
  FlVma *n = fl_vma_rw (st, id);
  const FlVma *v = &st->vmas[vma];
  n->start = v->start;
  n->end = v->end;
  n->flags = v->flags;
  n->seq = v->seq;
  n->file = v->file;
  n->vm_file = v->vm_file;
  fl_file_get (sim, n->vm_file);   /* get_file: both halves hold the file */
  n->pgoff = v->pgoff;
  n->anon_vma = v->anon_vma;       /* *new = *vma: both halves share the anon_vma */
  if (new_below)
    n->end = addr;
  else
    {
      n->start = addr;
      if (n->flags & FL_VM_FILE)
        n->pgoff += (addr - v->start) / FL_PAGE_SIZE;
    }
  fl_w_touch_vma (sim, cpu, vma, FL_ACCESS_READ);
  fl_w_touch_vma (sim, cpu, id, FL_ACCESS_WRITE);
  fl_ev (sim, FL_EV_ALLOC, id, vma);
  return id;
}

/* What one rebalancing step wrote: the node it acted on, that node's parent now, and the
 * root pointer in the mm when the root changed. */
void
fl_writer_rb_touch (FlSim *sim, guint cpu, const FlRbCursor *cur, guint32 root_before)
{
  FlState *st = &sim->st;
  FlRbAccess acc = fl_vma_rb_access (st);
  if (cur->subject)
    {
      guint32 parent = fl_rb_node (&acc, cur->subject)->parent;
      fl_w_touch_vma (sim, cpu, cur->subject, FL_ACCESS_WRITE);
      if (parent && parent != cur->subject)
        fl_w_touch_vma (sim, cpu, parent, FL_ACCESS_WRITE);
    }
  if (st->g->mm.root != root_before)
    fl_touch (sim, cpu, FL_LINE_MM_MMAP, FL_ACCESS_WRITE);
  /* a lookup without mmap_sem may have lost its VMA to this change (the oracle's business) */
  fl_walk_tree_changed (sim, cpu, cur);
}

/* add_mm_rss: one atomic add per counter that changed, on the mm's shared RSS line (or the
 * thread's own cache with rss=per-thread, which touches no shared line). */
void
fl_writer_rss_add (FlSim *sim, guint cpu, gint64 anon, gint64 file)
{
  if (anon == 0 && file == 0)
    return;
  if (sim->config.rss == FL_RSS_SHARED_ATOMIC)
    fl_touch (sim, cpu, FL_LINE_MM_RSS, FL_ACCESS_RMW);
  if (anon)
    fl_rss_add (sim, cpu, TRUE, anon);
  if (file)
    fl_rss_add (sim, cpu, FALSE, file);
}

/* Counted as anonymous RSS unless it is a page-cache page, as the oracle counts. */
gboolean
fl_writer_is_anon (const FlState *st, guint32 page)
{
  return !(st->pages[page].flags & FL_PAGE_FILE);
}

/**
 * fl_writer_release_sem:
 * @sim: the simulation
 * @cpu: the CPU
 * @error: whether the operation returns an error
 * @released: (inout): the operation's local saying the semaphore is released already
 * @op: %FL_RWSEM_UP_WRITE or %FL_RWSEM_UP_READ
 * @here: the location of this step, to come back to on an error
 *
 * The last step of an operation. Success tail-calls up_write/up_read (whose return ends the
 * operation); an error comes back here once the semaphore is released to return the error.
 */
void
fl_writer_release_sem (FlSim *sim, guint cpu, gboolean error, guint8 *released, FlRwsemOp op,
                       FlLoc here)
{
  if (*released)
    {
      fl_ev (sim, FL_EV_RETURN, 0, FL_VM_FAULT_SIGSEGV);
      fl_return (sim, cpu, FL_VM_FAULT_SIGSEGV);
      return;
    }
  if (error)
    {
      *released = 1;
      fl_call (sim, cpu, fl_rwsem_fn (sim, op), here, 0);
      return;
    }
  fl_call (sim, cpu, fl_rwsem_fn (sim, op), FL_LOC_NONE, 0);
}

/* ---- inserting a VMA ------------------------------------------------------------------- */

/* One step of find_vma_prepare(mm, addr): where a VMA starting at addr is linked. The VMA it
 * finds (the last one ending above addr) overlaps [addr, end) when walk->overlap is set. */
gboolean
fl_writer_walk_prepare (FlSim *sim, guint cpu, guint64 addr, guint64 end, FlWalkPrepare *walk)
{
  FlState *st = &sim->st;
  if (!walk->started)
    {
      fl_touch (sim, cpu, FL_LINE_MM_MMAP, FL_ACCESS_READ);
      memset (walk, 0, sizeof *walk);
      walk->started = 1;
      walk->node = (guint16) st->g->mm.root;
      if (st->g->mm.root == 0)
        {
          fl_ev (sim, FL_EV_LOAD, 0, 0);
          return TRUE;
        }
    }
  guint32 node = walk->node, next;
  const FlVma *v = &st->vmas[node];
  fl_w_touch_vma (sim, cpu, node, FL_ACCESS_READ);
  walk->parent = (guint16) node;
  if (v->end > addr)
    {
      walk->overlap = v->start < end;
      walk->right = 0;
      next = v->start <= addr ? 0 : v->rb.left;
    }
  else
    {
      walk->prev = (guint16) node;
      walk->right = 1;
      next = v->rb.right;
    }
  walk->node = (guint16) next;
  fl_ev (sim, FL_EV_LOAD, node, v->end > addr);
  return next == 0;
}

/* __vma_link (list, then rb_link_node) and mm->map_count++, at the place walk_prepare found.
 * The tree may now hold a red node under a red parent: rb_insert_color follows, a step each. */
void
fl_writer_link_vma (FlSim *sim, guint cpu, guint32 id, const FlWalkPrepare *walk,
                    FlRbCursor *cur)
{
  FlState *st = &sim->st;
  FlRbAccess acc = fl_vma_rb_access (st);
  guint32 parent = walk->parent, prev = walk->prev;
  FlVma *v = fl_vma_rw (st, id);
  if (prev)
    {
      v->next = st->vmas[prev].next;
      fl_vma_rw (st, prev)->next = id;
      fl_w_touch_vma (sim, cpu, prev, FL_ACCESS_WRITE);
    }
  else
    {
      v->next = st->g->mm.mmap;
      FL_G_RW (st, mm.mmap) = id;
      fl_touch (sim, cpu, FL_LINE_MM_MMAP, FL_ACCESS_WRITE);
    }
  /* rb_link_node writes id's node (v) and parent's child link */
  if (parent)
    fl_vma_rw (st, parent);
  fl_rb_link (&acc, &FL_G_RW (st, mm.root), id, parent, walk->right ? FL_RB_RIGHT : FL_RB_LEFT);
  fl_w_touch_vma (sim, cpu, id, FL_ACCESS_WRITE);
  if (parent)
    fl_w_touch_vma (sim, cpu, parent, FL_ACCESS_WRITE);
  else
    fl_touch (sim, cpu, FL_LINE_MM_MMAP, FL_ACCESS_WRITE);
  /* map_count shares the mmap_sem line in 2.6.32's mm_struct */
  fl_touch (sim, cpu, FL_LINE_MM_SEM, FL_ACCESS_WRITE);
  FL_G_RW (st, mm.map_count)++;
  fl_rb_insert_color_begin (cur, id);
  fl_ev (sim, FL_EV_TREE, id, FL_RB_ACTION_NONE);
}

/* One rebalancing step of rb_insert_color, with the cursor in the caller's locals. */
gboolean
fl_writer_insert_color_step (FlSim *sim, guint cpu, FlRbCursor *cur)
{
  FlState *st = &sim->st;
  /* a rebalancing step writes nodes of its own choosing: every VMA marked */
  FlRbAccess acc = fl_vma_rb_access_rw (st);
  guint32 root = st->g->mm.root;
  gboolean done = fl_rb_insert_color_step (&acc, &FL_G_RW (st, mm.root), cur);
  fl_writer_rb_touch (sim, cpu, cur, root);
  fl_ev (sim, FL_EV_TREE, cur->subject, cur->action);
  return done;
}

/* mmap_region(addr, len, vm_flags). No MAP_FIXED
 * replacement: a range overlapping a VMA is refused. An anonymous private range first tries
 * vma_merge with its neighbours, as 2.6.32 does before it allocates a VMA. */
static void
step_mmap_region (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  FlLocalsMmapRegion *l = &f->l.mmap_region;
  switch (f->pc)
    {
    case FL_LOC_MMAP_REGION_down_write:
      {
        guint64 len = fl_w_page_align (l->len);
        FL_CPU_RW (st, cpu, writer) = TRUE;
        if (len == 0 || (l->addr & (FL_PAGE_SIZE - 1)) || l->addr + len <= l->addr)
          {
            fl_ev (sim, FL_EV_CHECK, (guint32) l->addr, 0);
            fl_return (sim, cpu, FL_VM_FAULT_SIGSEGV);
            return;
          }
        l->len = len;
        fl_call (sim, cpu, fl_rwsem_fn (sim, FL_RWSEM_DOWN_WRITE), FL_LOC_MMAP_REGION_find_prepare, 0);
        return;
      }
    case FL_LOC_MMAP_REGION_find_prepare:
      if (!fl_writer_walk_prepare (sim, cpu, l->addr, l->addr + l->len, &l->walk))
        return;
      if (l->walk.overlap)
        {
          l->error = 1;
          f->pc = FL_LOC_MMAP_REGION_up_write;
          return;
        }
      /* only an anonymous private mapping tries to grow a neighbour first */
      f->pc = (l->vm_flags & (FL_VM_FILE | FL_VM_SHARED)) ? FL_LOC_MMAP_REGION_alloc_vma
                                                      : FL_LOC_MMAP_REGION_vma_merge;
      return;
    case FL_LOC_MMAP_REGION_vma_merge:
      {
        FlLocalsVmaMerge *merge = &fl_call (sim, cpu, FL_FN_VMA_MERGE, FL_LOC_MMAP_REGION_merged,
                                            l->walk.prev)->l.vma_merge;
        merge->prev = l->walk.prev;
        merge->addr = l->addr;
        merge->end = l->addr + l->len;
        merge->vm_flags = l->vm_flags;
        return;
      }
    case FL_LOC_MMAP_REGION_merged:
      fl_ev (sim, FL_EV_CHECK, f->ret, f->ret != 0);
      f->pc = f->ret ? FL_LOC_MMAP_REGION_up_write : FL_LOC_MMAP_REGION_alloc_vma;
      return;
    case FL_LOC_MMAP_REGION_alloc_vma:
      {
        guint32 id = fl_vma_alloc (sim);
        FlVma *v = fl_vma_rw (st, id);
        v->start = l->addr;
        v->end = l->addr + l->len;
        v->flags = l->vm_flags;
        /* a file mapping gets a file of its own: id and generation make it unique */
        v->file = (v->flags & FL_VM_FILE) ? fl_vma_ref (st, id) : 0;
        v->vm_file = (v->flags & FL_VM_FILE) ? fl_file_open (sim) : 0;
        v->pgoff = 0;
        fl_w_touch_vma (sim, cpu, id, FL_ACCESS_WRITE);
        fl_ev (sim, FL_EV_ALLOC, id, v->flags);
        l->vma = (guint16) id;
        f->pc = FL_LOC_MMAP_REGION_vma_link;
        return;
      }
    case FL_LOC_MMAP_REGION_vma_link:
      {
        fl_writer_link_vma (sim, cpu, l->vma, &l->walk, &l->cur);
        l->vma = 0;
        f->pc = FL_LOC_MMAP_REGION_rb_insert_color;
        return;
      }
    case FL_LOC_MMAP_REGION_rb_insert_color:
      if (fl_writer_insert_color_step (sim, cpu, &l->cur))
        f->pc = FL_LOC_MMAP_REGION_up_write;
      return;
    case FL_LOC_MMAP_REGION_up_write:
      fl_writer_release_sem (sim, cpu, l->error, &l->released, FL_RWSEM_UP_WRITE,
                             FL_LOC_MMAP_REGION_up_write);
      return;
    default:
      g_assert_not_reached ();
    }
}

/* ---- mprotect ---------------------------------------------------------------------------- */

/* mprotect_fixup's new flags: the requested protection, the VMA's other bits kept. */
static guint32
new_flags (const FlLocalsMprotectFixup *l, const FlVma *v)
{
  return (l->vm_flags & RWX) | (v->flags & ~(guint32) RWX);
}

/* The end of sys_mprotect's loop body: on to the next VMA, which must start where this one
 * ends (a hole is -ENOMEM), or done. */
static void
mprotect_next (FlSim *sim, guint cpu, FlFrame *f, guint32 vma)
{
  FlState *st = &sim->st;
  FlLocalsMprotectFixup *l = &f->l.mprotect_fixup;
  const FlVma *v = &st->vmas[vma];
  l->prev = (guint16) vma;
  if (v->end >= l->end)
    {
      f->pc = FL_LOC_MPROTECT_FIXUP_up_write;
      return;
    }
  guint32 next = v->next;
  fl_w_touch_vma (sim, cpu, next, FL_ACCESS_READ);
  if (next == 0 || st->vmas[next].start != v->end)
    {
      l->error = 1;
      f->pc = FL_LOC_MPROTECT_FIXUP_up_write;
      return;
    }
  l->vma = (guint16) next;
  f->pc = FL_LOC_MPROTECT_FIXUP_split;
}

/* Where mprotect_fixup goes once the VMA is split to the range: into the seqcount write
 * section, or (v2, mprotect-seqcount=unbracketed) straight to the flags. */
static FlLoc
mprotect_change (FlSim *sim)
{
  return sim->config.mprotect_seqcount == FL_MPROTECT_SEQCOUNT_BRACKETED
         ? FL_LOC_MPROTECT_FIXUP_seq_begin : FL_LOC_MPROTECT_FIXUP_set_flags;
}

/* sys_mprotect with mprotect_fixup for each VMA of the range (FlLocalsMprotectFixup). VMAs
 * are split so the changed range is a VMA of its own; the model does not merge (vma_merge)
 * afterwards. */
static void
step_mprotect_fixup (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  FlLocalsMprotectFixup *l = &f->l.mprotect_fixup;
  guint32 vma = l->vma;
  const FlVma *v = &st->vmas[vma];
  switch (f->pc)
    {
    case FL_LOC_MPROTECT_FIXUP_down_write:
      {
        guint64 len = fl_w_page_align (l->len);
        FL_CPU_RW (st, cpu, writer) = TRUE;
        if ((l->start & (FL_PAGE_SIZE - 1)) || (len && l->start + len <= l->start))
          {
            fl_ev (sim, FL_EV_CHECK, (guint32) l->start, 0);
            fl_return (sim, cpu, FL_VM_FAULT_SIGSEGV);
            return;
          }
        if (len == 0)
          {
            fl_ev (sim, FL_EV_CHECK, (guint32) l->start, 1);
            fl_return (sim, cpu, 0);
            return;
          }
        l->end = l->start + len;
        l->vm_flags &= RWX;
        fl_call (sim, cpu, fl_rwsem_fn (sim, FL_RWSEM_DOWN_WRITE), FL_LOC_MPROTECT_FIXUP_find_vma, 0);
        return;
      }
    case FL_LOC_MPROTECT_FIXUP_find_vma:
      {
        if (!fl_writer_walk_prev (sim, cpu, l->start, &l->walk))
          return;
        guint32 prev = l->walk.prev;
        vma = fl_writer_walk_prev_vma (st, &l->walk);
        l->walk = (FlWalkPrev) { 0 };
        if (vma == 0 || st->vmas[vma].start > l->start)
          {
            l->error = 1;                             /* -ENOMEM: the range starts in a hole */
            f->pc = FL_LOC_MPROTECT_FIXUP_up_write;
            return;
          }
        if (l->start > st->vmas[vma].start)
          prev = vma;
        l->vma = (guint16) vma;
        l->prev = (guint16) prev;
        f->pc = FL_LOC_MPROTECT_FIXUP_split;
        return;
      }
    case FL_LOC_MPROTECT_FIXUP_split:
      {
        /* this VMA's part of the range: [nstart, tmp) of sys_mprotect's loop */
        l->lo = MAX (l->start, v->start);
        l->hi = MIN (l->end, v->end);
        fl_w_touch_vma (sim, cpu, vma, FL_ACCESS_READ);
        /* the check is the listing's `newflags == vma->vm_flags`: true, nothing to change */
        if (new_flags (l, v) == v->flags)
          {
            fl_ev (sim, FL_EV_CHECK, vma, 1);
            mprotect_next (sim, cpu, f, vma);
            return;
          }
        fl_ev (sim, FL_EV_CHECK, vma, 0);
        f->pc = FL_LOC_MPROTECT_FIXUP_vma_merge;
        return;
      }
    case FL_LOC_MPROTECT_FIXUP_vma_merge:
      {
        /* *pprev = vma_merge(mm, *pprev, start, end, newflags, vma->anon_vma, file, pgoff) */
        guint64 pgoff = v->pgoff + (l->lo - v->start) / FL_PAGE_SIZE;
        guint32 prev = l->prev;
        FlLocalsVmaMerge *merge = &fl_call (sim, cpu, FL_FN_VMA_MERGE, FL_LOC_MPROTECT_FIXUP_merged,
                                            prev)->l.vma_merge;
        merge->prev = (guint16) prev;
        merge->addr = l->lo;
        merge->end = l->hi;
        merge->vm_flags = new_flags (l, v);
        merge->file = v->file;
        merge->pgoff = pgoff;
        merge->anon_vma = v->anon_vma;
        return;
      }
    case FL_LOC_MPROTECT_FIXUP_merged:
      {
        guint64 lo = l->lo, hi = l->hi;
        fl_ev (sim, FL_EV_CHECK, f->ret ? f->ret : vma, f->ret != 0);
        if (f->ret)
          {
            /* merged: the VMA now holding the range gets the flags (goto success) */
            l->vma = (guint16) f->ret;
            f->pc = mprotect_change (sim);
            return;
          }
        if (lo != v->start)
          {
            guint32 below = fl_writer_split_copy (sim, cpu, vma, lo, TRUE);
            v = &st->vmas[vma];     /* the new VMA may have moved the array */
            fl_writer_call_vma_adjust (sim, cpu,
                                       hi != v->end ? FL_LOC_MPROTECT_FIXUP_split_end
                                                    : mprotect_change (sim),
                                       vma, below, lo, v->end);
            return;
          }
        if (hi != v->end)
          {
            guint32 above = fl_writer_split_copy (sim, cpu, vma, hi, FALSE);
            v = &st->vmas[vma];
            fl_writer_call_vma_adjust (sim, cpu, mprotect_change (sim), vma, above, v->start, hi);
            return;
          }
        f->pc = mprotect_change (sim);
        return;
      }
    case FL_LOC_MPROTECT_FIXUP_split_end:
      {
        guint64 hi = MIN (l->end, v->end);
        guint32 above = fl_writer_split_copy (sim, cpu, vma, hi, FALSE);
        v = &st->vmas[vma];
        fl_writer_call_vma_adjust (sim, cpu, mprotect_change (sim), vma, above, v->start, hi);
        return;
      }
    case FL_LOC_MPROTECT_FIXUP_seq_begin:
      /* The v2 patch brackets only vma_adjust; later SPF versions, and the default, also
       * bracket mprotect_fixup's change of vm_flags and PTEs with the VMA's seqcount. */
      fl_w_touch_vma (sim, cpu, vma, FL_ACCESS_WRITE);
      fl_vma_rw (st, vma)->seq++;
      fl_ev (sim, FL_EV_STORE, vma, v->seq);
      f->pc = FL_LOC_MPROTECT_FIXUP_set_flags;
      return;
    case FL_LOC_MPROTECT_FIXUP_set_flags:
      fl_w_touch_vma (sim, cpu, vma, FL_ACCESS_WRITE);
      fl_vma_rw (st, vma)->flags = new_flags (l, v);
      l->prev = (guint16) vma;
      fl_ev (sim, FL_EV_STORE, vma, v->flags);
      l->cursor = l->lo;
      f->pc = FL_LOC_MPROTECT_FIXUP_change_pte;
      return;
    case FL_LOC_MPROTECT_FIXUP_change_pte:
      {
        /* change_protection(vma, nstart, tmp): only the range's part, even in a merged VMA */
        guint64 cursor = l->cursor;
        guint32 table = fl_writer_find_pte_table (sim, cpu, &cursor, l->hi);
        if (table == 0)
          {
            fl_ev (sim, FL_EV_CHECK, vma, 0);
            f->pc = FL_LOC_MPROTECT_FIXUP_flush;
            return;
          }
        guint64 base = st->tables[table].base;
        guint64 lo = MAX (cursor, base), hi = MIN (l->hi, base + fl_w_span (1));
        /* pte_modify with the new vm_page_prot: writable only in a shared writable mapping,
         * and there (write-notify) only once dirty; private ones re-fault for COW */
        gboolean write_ok = (v->flags & FL_VM_SHARED) && (v->flags & FL_VM_WRITE);
        gboolean none = !(v->flags & RWX);
        l->cursor = hi;
        FlLocalsPteRange *change = &fl_call (sim, cpu, FL_FN_CHANGE_PTE_RANGE,
                                             FL_LOC_MPROTECT_FIXUP_change_pte, table)->l.pte_range;
        change->table = table;
        change->start = lo;
        change->end = hi;
        change->write_ok = (guint8) write_ok;
        change->prot_none = (guint8) none;
        return;
      }
    case FL_LOC_MPROTECT_FIXUP_flush:
      /* flush_tlb_range at the end of change_protection */
      fl_call (sim, cpu, FL_FN_FLUSH_TLB_OTHERS, FL_LOC_MPROTECT_FIXUP_seq_end, 0);
      return;
    case FL_LOC_MPROTECT_FIXUP_seq_end:
      /* unbracketed (v2) there is no write section to close: on to the next VMA */
      if (sim->config.mprotect_seqcount == FL_MPROTECT_SEQCOUNT_BRACKETED)
        {
          fl_w_touch_vma (sim, cpu, vma, FL_ACCESS_WRITE);
          fl_vma_rw (st, vma)->seq++;
          fl_ev (sim, FL_EV_STORE, vma, v->seq);
        }
      else
        fl_ev (sim, FL_EV_CHECK, vma, 1);
      mprotect_next (sim, cpu, f, vma);
      return;
    case FL_LOC_MPROTECT_FIXUP_up_write:
      fl_writer_release_sem (sim, cpu, l->error, &l->released, FL_RWSEM_UP_WRITE,
                             FL_LOC_MPROTECT_FIXUP_up_write);
      return;
    default:
      g_assert_not_reached ();
    }
}

/* change_pte_range(table, start, end, protection): one step per entry rewritten, under the
 * PTE lock. Returns how many it rewrote. */
static void
step_change_pte_range (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  FlLocalsPteRange *l = &f->l.pte_range;
  guint32 table = l->table;
  guint32 lock = FL_LOCK_ID (FL_LOCK_PTL, table);
  switch (f->pc)
    {
    case FL_LOC_CHANGE_PTE_RANGE_lock:
      l->next_index = (guint16) fl_writer_index_of (st, table, l->start);
      l->done = 0;
      f->pc = FL_LOC_CHANGE_PTE_RANGE_change;
      fl_lock_try (sim, cpu, lock);
      return;
    case FL_LOC_CHANGE_PTE_RANGE_change:
      {
        guint32 to = fl_writer_index_of (st, table, l->end - 1) + 1;
        guint32 i = fl_writer_next_entry (st, table, l->next_index, to,
                                          FL_W_ENTRY_PROTECT);
        if (i >= to)
          {
            fl_touch (sim, cpu, fl_line_of_table (st, table), FL_ACCESS_READ);
            fl_ev (sim, FL_EV_CHECK, table, 0);
            f->pc = FL_LOC_CHANGE_PTE_RANGE_unlock;
            return;
          }
        guint64 *e = fl_table_entries_rw (st, table);
        guint64 pte = e[i];
        if ((pte & FL_PTE_KIND_MASK) == FL_PTE_MIGRATION)
          pte &= ~(guint64) FL_PTE_WRITE;          /* make_migration_entry_read */
        else if (l->write_ok && (pte & FL_PTE_DIRTY))
          pte |= FL_PTE_WRITE;
        else
          pte &= ~(guint64) FL_PTE_WRITE;
        if ((pte & FL_PTE_KIND_MASK) == FL_PTE_PRESENT)
          pte = l->prot_none ? (pte | FL_PTE_PROTNONE) & ~(guint64) FL_PTE_WRITE
                             : pte & ~(guint64) FL_PTE_PROTNONE;
        /* ptep_modify_prot_start/commit: an atomic get-and-clear, then the new value */
        fl_touch (sim, cpu, fl_line_of_table (st, table), FL_ACCESS_RMW);
        e[i] = pte;
        fl_oracle_pte_written (sim, table);
        fl_ev (sim, FL_EV_PTE, table, i);
        l->done++;
        guint32 next = fl_writer_next_entry (st, table, i + 1, to, FL_W_ENTRY_PROTECT);
        l->next_index = (guint16) next;
        f->pc = next < to ? FL_LOC_CHANGE_PTE_RANGE_change : FL_LOC_CHANGE_PTE_RANGE_unlock;
        return;
      }
    case FL_LOC_CHANGE_PTE_RANGE_unlock:
      fl_lock_release (sim, cpu, lock);
      fl_return (sim, cpu, l->done);
      return;
    default:
      g_assert_not_reached ();
    }
}

/* ---- fork ---------------------------------------------------------------------------------- */

/* What dup_mmap/copy_page_range do to the parent's range [start, start + len): under
 * down_write, for each private VMA, each PTE table is locked and each present page is shared
 * with the child (get_page + page_dup_rmap: the child's reference and mapping are kept as
 * ext_refs and ext_maps, there is no child mm) and write-protected if writable, so the next
 * write on either side takes a copy-on-write fault (do_wp_page reuses only a page mapped
 * once). Shared VMAs are skipped: without an anon_vma their PTEs are not copied, the child
 * faults them in. */
static void
step_copy_pte_range (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  FlLocalsCopyPteRange *l = &f->l.copy_pte_range;
  guint32 vma = l->vma, table = l->table;
  const FlVma *v = &st->vmas[vma];
  guint64 cursor = l->cursor;
  switch (f->pc)
    {
    case FL_LOC_COPY_PTE_RANGE_down_write:
      {
        guint64 len = fl_w_page_align (l->len);
        FL_CPU_RW (st, cpu, writer) = TRUE;
        if (len == 0 || (l->start & (FL_PAGE_SIZE - 1)) || l->start + len <= l->start)
          {
            fl_ev (sim, FL_EV_CHECK, (guint32) l->start, 0);
            fl_return (sim, cpu, len == 0 ? 0 : FL_VM_FAULT_SIGSEGV);
            return;
          }
        l->end = l->start + len;
        fl_call (sim, cpu, fl_rwsem_fn (sim, FL_RWSEM_DOWN_WRITE), FL_LOC_COPY_PTE_RANGE_vma, 0);
        return;
      }
    case FL_LOC_COPY_PTE_RANGE_vma:
      {
        /* for (mpnt = oldmm->mmap; mpnt; mpnt = mpnt->vm_next), one VMA per step */
        if (!l->started)
          {
            fl_touch (sim, cpu, FL_LINE_MM_MMAP, FL_ACCESS_READ);
            vma = st->g->mm.mmap;
            l->started = 1;
          }
        else
          vma = v->next;
        l->vma = (guint16) vma;
        if (vma == 0 || st->vmas[vma].start >= l->end)
          {
            fl_ev (sim, FL_EV_LOAD, vma, 0);
            f->pc = FL_LOC_COPY_PTE_RANGE_flush;
            return;
          }
        v = &st->vmas[vma];
        fl_w_touch_vma (sim, cpu, vma, FL_ACCESS_READ);
        gboolean copy = v->end > l->start && !(v->flags & FL_VM_SHARED);
        fl_ev (sim, FL_EV_LOAD, vma, copy);
        if (copy)
          {
            l->cursor = MAX (l->start, v->start);
            f->pc = FL_LOC_COPY_PTE_RANGE_lock;
          }
        return;
      }
    case FL_LOC_COPY_PTE_RANGE_lock:
      {
        table = fl_writer_find_pte_table (sim, cpu, &cursor, MIN (l->end, v->end));
        if (table == 0)
          {
            fl_ev (sim, FL_EV_CHECK, vma, 0);
            f->pc = FL_LOC_COPY_PTE_RANGE_vma;
            return;
          }
        l->table = (guint16) table;
        l->cursor = MAX (cursor, st->tables[table].base);
        f->pc = FL_LOC_COPY_PTE_RANGE_wrprotect;
        fl_lock_try (sim, cpu, FL_LOCK_ID (FL_LOCK_PTL, table));
        return;
      }
    case FL_LOC_COPY_PTE_RANGE_wrprotect:
      {
        guint64 base = st->tables[table].base;
        guint64 hi = MIN (MIN (l->end, v->end), base + fl_w_span (1));
        guint32 to = fl_writer_index_of (st, table, hi - 1) + 1;
        guint32 i = fl_writer_next_entry (st, table, fl_writer_index_of (st, table, cursor), to,
                                          FL_W_ENTRY_NORMAL);
        if (i >= to)
          {
            fl_touch (sim, cpu, fl_line_of_table (st, table), FL_ACCESS_READ);
            fl_ev (sim, FL_EV_CHECK, table, 0);
            f->pc = FL_LOC_COPY_PTE_RANGE_unlock;
            return;
          }
        const guint64 *e = fl_table_entries (st, table);
        FlPage *pg = fl_page_rw (st, FL_PTE_PAGE (e[i]));
        if (e[i] & FL_PTE_WRITE)
          {
            /* ptep_set_wrprotect: a locked bit clear on the PTE */
            fl_touch (sim, cpu, fl_line_of_table (st, table), FL_ACCESS_RMW);
            fl_table_entries_rw (st, table)[i] &= ~(guint64) FL_PTE_WRITE;
            fl_oracle_pte_written (sim, table);
          }
        else
          fl_touch (sim, cpu, fl_line_of_table (st, table), FL_ACCESS_READ);
        pg->count++;
        pg->mapcount++;
        pg->ext_refs++;
        pg->ext_maps++;
        fl_ev (sim, FL_EV_PTE, table, i);
        guint32 next = fl_writer_next_entry (st, table, i + 1, to, FL_W_ENTRY_NORMAL);
        l->cursor = base + (guint64) next * FL_PAGE_SIZE;
        f->pc = next < to ? FL_LOC_COPY_PTE_RANGE_wrprotect : FL_LOC_COPY_PTE_RANGE_unlock;
        return;
      }
    case FL_LOC_COPY_PTE_RANGE_unlock:
      fl_lock_release (sim, cpu, FL_LOCK_ID (FL_LOCK_PTL, table));
      l->cursor = st->tables[table].base + fl_w_span (1);
      f->pc = FL_LOC_COPY_PTE_RANGE_lock;
      return;
    case FL_LOC_COPY_PTE_RANGE_flush:
      /* dup_mmap ends with flush_tlb_mm(oldmm): the old writable translations must go */
      fl_call (sim, cpu, FL_FN_FLUSH_TLB_OTHERS, FL_LOC_COPY_PTE_RANGE_up_write, 0);
      return;
    case FL_LOC_COPY_PTE_RANGE_up_write:
      fl_writer_release_sem (sim, cpu, FALSE, &l->released, FL_RWSEM_UP_WRITE,
                             FL_LOC_COPY_PTE_RANGE_up_write);
      return;
    default:
      g_assert_not_reached ();
    }
}

const FlStepFn fl_step_mmap_region = step_mmap_region;
const FlStepFn fl_step_do_munmap = fl_writer_step_do_munmap;
const FlStepFn fl_step_vma_adjust = fl_writer_step_vma_adjust;
const FlStepFn fl_step_zap_pte_range = fl_writer_step_zap_pte_range;
const FlStepFn fl_step_mprotect_fixup = step_mprotect_fixup;
const FlStepFn fl_step_change_pte_range = step_change_pte_range;
const FlStepFn fl_step_madvise_dontneed = fl_writer_step_madvise_dontneed;
const FlStepFn fl_step_copy_pte_range = step_copy_pte_range;
const FlStepFn fl_step_try_to_unmap_one = fl_writer_step_try_to_unmap_one;
const FlStepFn fl_step_vma_merge = fl_writer_step_vma_merge;
const FlStepFn fl_step_vma_unlink = fl_writer_step_vma_unlink;
