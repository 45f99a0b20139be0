/* fl-writers-unmap.c — the operations that take mappings away: munmap (the race the patch
 * is about: unlink with RB_CLEAR_NODE, zap under the PTE locks, flush, free the tables, free
 * the VMA through call_rcu), zap_pte_range, madvise(MADV_DONTNEED) under the read lock, and
 * the reclaim / migration side of try_to_unmap_one, which flushes TLBs holding a PTE lock.
 *
 * Pages leave through the CPU's mmu_gather: the zap drops the mapping's reference and a page
 * whose last reference went goes on the gather list, freed only after the TLB flush (no CPU
 * may still reach it through a stale translation). Page-table pages likewise: free_pgtables
 * unhooks them before the flush and they are freed after it, which is what lets a walker
 * with IRQs off (pin_page_tables) trust the tables it reads. */
#include "fl-writers-private.h"


/* ---- munmap ------------------------------------------------------------------------------ */

/* find_vma(mm, addr) as do_munmap uses it to find `last`: mmap_cache first, then the tree a
 * node per step, the answer cached; walk->prev is the best VMA so far. Returns TRUE when
 * *found holds the answer. */
static gboolean
walk_find_vma (FlSim *sim, guint cpu, guint64 addr, FlWalkPrev *walk, guint32 *found)
{
  FlState *st = &sim->st;
  const FlMm *mm = &st->g->mm;
  if (!walk->started)
    {
      guint32 id = fl_ref_id (mm->mmap_cache);
      fl_touch (sim, cpu, FL_LINE_MM_MMAP, FL_ACCESS_READ);
      if (id && st->vmas[id].state == FL_OBJ_LIVE && st->vmas[id].gen == (mm->mmap_cache >> 16))
        {
          fl_w_touch_vma (sim, cpu, id, FL_ACCESS_READ);
          if (st->vmas[id].start <= addr && addr < st->vmas[id].end)
            {
              fl_ev (sim, FL_EV_CHECK, id, 1);
              *found = id;
              return TRUE;
            }
        }
      fl_ev (sim, FL_EV_CHECK, id, 0);
      *walk = (FlWalkPrev) { .node = (guint16) mm->root, .started = 1 };
      *found = 0;
      return mm->root == 0;
    }
  guint32 node = walk->node, best = walk->prev, next;
  const FlVma *v = &st->vmas[node];
  fl_w_touch_vma (sim, cpu, node, FL_ACCESS_READ);
  fl_ev (sim, FL_EV_LOAD, node, v->end > addr);
  if (v->end > addr)
    {
      best = node;
      next = v->start <= addr ? 0 : v->rb.left;
    }
  else
    next = v->rb.right;
  walk->node = (guint16) next;
  walk->prev = (guint16) best;
  if (next)
    return FALSE;
  if (best)
    {
      fl_touch (sim, cpu, FL_LINE_MM_MMAP, FL_ACCESS_WRITE);
      FL_G_RW (st, mm.mmap_cache) = fl_vma_ref (st, best);
    }
  *found = best;
  return TRUE;
}

/* zap_pte_range(table, start, end), resuming at `next`. */
static void
call_zap (FlSim *sim, guint cpu, FlLoc next, guint32 table, guint64 start, guint64 end)
{
  FlLocalsPteRange *zap = &fl_call (sim, cpu, FL_FN_ZAP_PTE_RANGE, next, table)->l.pte_range;
  zap->table = table;
  zap->start = start;
  zap->end = end;
}

/* A page-table page free_pgtables unhooked: still allocated, no longer reachable from the
 * pgd. Only do_munmap makes them, under mmap_sem held for write, which also keeps out the
 * locked fault path, the only one that allocates tables. */
static guint32
detached_table (const FlState *st)
{
  for (guint32 t = 1; t < st->sizes.ntables; t++)
    {
      const FlTable *table = &st->tables[t];
      if (table->state == FL_OBJ_LIVE && table->level < 4
          && fl_lookup_table (st, table->base, table->level) != t)
        return t;
    }
  return 0;
}

/* tlb_finish_mmu after the flush: the gathered page-table pages, then the gathered pages,
 * then remove_vma_list. */
static FlLoc
after_flush (FlSim *sim, guint cpu)
{
  if (detached_table (&sim->st))
    return FL_LOC_DO_MUNMAP_free_tables;
  if (sim->st.cpus[cpu].gather_count)
    return FL_LOC_DO_MUNMAP_free_pages;
  return FL_LOC_DO_MUNMAP_remove_vma;
}

/* free_pgtables(tlb, vma, floor, ceiling): unhook, one per step, every page-table page whose
 * whole span lies between the VMAs left around the hole (floor = prev->vm_end, ceiling =
 * next->vm_start): PTE tables, then pmd tables, then pud tables. Returns FALSE when none is
 * left. */
static gboolean
free_pgtables_step (FlSim *sim, guint cpu, FlLocalsDoMunmap *l)
{
  FlState *st = &sim->st;
  guint32 prev = l->prev, next = l->vma;
  guint64 floor = prev ? st->vmas[prev].end : 0;
  guint64 ceiling = next ? st->vmas[next].start : 0;
  guint level = l->level;
  guint64 cursor = l->cursor;
  fl_w_touch_vma (sim, cpu, prev, FL_ACCESS_READ);
  fl_w_touch_vma (sim, cpu, next, FL_ACCESS_READ);
  for (; level <= 3; level++, cursor = l->start & ~(fl_w_span (level) - 1))
    {
      guint64 span = fl_w_span (level);
      while (cursor < l->end)
        {
          guint64 base = cursor & ~(span - 1);
          cursor = base + span;
          if (base < floor || (ceiling && base + span > ceiling))
            continue;
          guint32 parent = fl_lookup_table (st, base, level + 1);
          guint32 index = fl_walk_index (level + 1, base);
          if (parent == 0 || fl_table_entries (st, parent)[index] == 0)
            continue;
          guint32 child = (guint32) fl_table_entries (st, parent)[index];
          /* pmd_clear / pud_clear / pgd_clear, then pte_free_tlb: into the mmu_gather */
          fl_touch (sim, cpu, fl_line_of_table (st, parent), FL_ACCESS_WRITE);
          fl_table_entries_rw (st, parent)[index] = 0;
          fl_table_rw (st, parent)->used--;
          l->level = (guint8) level;
          l->cursor = cursor;
          l->need_flush = 1;
          fl_ev (sim, FL_EV_STORE, child, level);
          return TRUE;
        }
    }
  fl_ev (sim, FL_EV_CHECK, 0, 0);
  return FALSE;
}

/* One step of rb_erase(vma) and then of its rebalancing; the cursor, in the caller's locals,
 * is zeroed before the first step. Returns whether the tree is whole again. */
gboolean
fl_writer_rb_erase_step (FlSim *sim, guint cpu, guint32 vma, FlRbCursor *cur)
{
  FlState *st = &sim->st;
  /* a rebalancing step writes nodes of its own choosing: every VMA marked */
  FlRbAccess acc = fl_vma_rb_access_rw (st);
  gboolean done;
  guint32 root = st->g->mm.root;
  if (cur->phase == FL_RB_PHASE_ERASE)
    {
      done = fl_rb_erase_color_step (&acc, &FL_G_RW (st, mm.root), cur);
      fl_writer_rb_touch (sim, cpu, cur, root);
      fl_ev (sim, FL_EV_TREE, cur->subject, cur->action);
    }
  else
    {
      done = fl_rb_erase_begin (&acc, &FL_G_RW (st, mm.root), vma, cur);
      fl_w_touch_vma (sim, cpu, vma, FL_ACCESS_READ);
      fl_writer_rb_touch (sim, cpu, cur, root);
      fl_ev (sim, FL_EV_TREE, vma, cur->action);
    }
  return done;
}

/* do_munmap (with sys_munmap's down_write/up_write): FlLocalsDoMunmap. */
void
fl_writer_step_do_munmap (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  const FlMm *mm = &st->g->mm;
  FlRbAccess acc = fl_vma_rb_access (st);
  FlLocalsDoMunmap *l = &f->l.do_munmap;
  guint32 prev = l->prev, vma = l->vma;
  switch (f->pc)
    {
    case FL_LOC_DO_MUNMAP_down_write:
      {
        guint64 len = fl_w_page_align (l->len);
        FL_CPU_RW (st, cpu, writer) = TRUE;
        if (len == 0 || (l->start & (FL_PAGE_SIZE - 1)) || l->start + len <= l->start)
          {
            fl_ev (sim, FL_EV_CHECK, (guint32) l->start, 0);
            fl_return (sim, cpu, FL_VM_FAULT_SIGSEGV);    /* -EINVAL */
            return;
          }
        l->end = l->start + len;
        fl_call (sim, cpu, fl_rwsem_fn (sim, FL_RWSEM_DOWN_WRITE), FL_LOC_DO_MUNMAP_find_vma, 0);
        return;
      }
    case FL_LOC_DO_MUNMAP_find_vma:
      if (!fl_writer_walk_prev (sim, cpu, l->start, &l->walk))
        return;
      prev = l->walk.prev;
      vma = fl_writer_walk_prev_vma (st, &l->walk);
      l->walk = (FlWalkPrev) { 0 };
      if (vma == 0 || st->vmas[vma].start >= l->end)
        {
          f->pc = FL_LOC_DO_MUNMAP_up_write;     /* nothing mapped there */
          return;
        }
      l->prev = (guint16) prev;
      l->vma = (guint16) vma;
      f->pc = l->start > st->vmas[vma].start ? FL_LOC_DO_MUNMAP_split : FL_LOC_DO_MUNMAP_find_last;
      return;
    case FL_LOC_DO_MUNMAP_split:
      {
        /* the head of vma stays mapped: split_vma(mm, vma, start, 0), and it becomes prev */
        guint32 above = fl_writer_split_copy (sim, cpu, vma, l->start, FALSE);
        l->prev = (guint16) vma;
        fl_writer_call_vma_adjust (sim, cpu, FL_LOC_DO_MUNMAP_find_last, vma, above,
                                   st->vmas[vma].start, l->start);
        return;
      }
    case FL_LOC_DO_MUNMAP_find_last:
      {
        guint32 last;
        if (!walk_find_vma (sim, cpu, l->end, &l->walk, &last))
          return;
        l->walk = (FlWalkPrev) { 0 };
        l->vma = (guint16) last;
        f->pc = last && l->end > st->vmas[last].start ? FL_LOC_DO_MUNMAP_split_last
                                                     : FL_LOC_DO_MUNMAP_rb_erase;
        return;
      }
    case FL_LOC_DO_MUNMAP_split_last:
      {
        /* the tail of last stays mapped: split_vma(mm, last, end, 1) */
        guint32 below = fl_writer_split_copy (sim, cpu, vma, l->end, TRUE);
        fl_writer_call_vma_adjust (sim, cpu, FL_LOC_DO_MUNMAP_rb_erase, vma, below, l->end,
                                   st->vmas[vma].end);
        return;
      }
    case FL_LOC_DO_MUNMAP_rb_erase:
      {
        /* detach_vmas_to_be_unmapped: rb_erase, then its rebalancing, one step each */
        if (!l->detaching)
          {
            /* vma = prev ? prev->vm_next : mm->mmap */
            vma = prev ? st->vmas[prev].next : mm->mmap;
            if (prev)
              fl_w_touch_vma (sim, cpu, prev, FL_ACCESS_READ);
            else
              fl_touch (sim, cpu, FL_LINE_MM_MMAP, FL_ACCESS_READ);
            l->vma = (guint16) vma;
            l->head = (guint16) vma;
            l->detaching = 1;
            l->cur = (FlRbCursor) { 0 };
          }
        if (fl_writer_rb_erase_step (sim, cpu, vma, &l->cur))
          f->pc = FL_LOC_DO_MUNMAP_clear_node;
        return;
      }
    case FL_LOC_DO_MUNMAP_clear_node:
      {
        /* smp_wmb(); RB_CLEAR_NODE: from now on a speculative fault holding this VMA sees it
         * dead (vma_is_dead), and the erase above is visible before the mark */
        guint32 next = st->vmas[vma].next;
        FlVma *v = fl_vma_rw (st, vma);         /* before RB_CLEAR_NODE writes its node */
        fl_w_touch_vma (sim, cpu, vma, FL_ACCESS_WRITE);
        fl_rb_clear_node (&acc, vma);
        v->state = FL_OBJ_UNLINKED;
        fl_touch (sim, cpu, FL_LINE_MM_SEM, FL_ACCESS_WRITE);
        FL_G_RW (st, mm.map_count)--;
        fl_ev (sim, FL_EV_TREE, vma, FL_RB_ACTION_NONE);
        l->tail = (guint16) vma;                  /* tail_vma */
        l->vma = (guint16) next;
        fl_w_touch_vma (sim, cpu, next, FL_ACCESS_READ);
        l->cur = (FlRbCursor) { 0 };
        FlLoc on = next && st->vmas[next].start < l->end ? FL_LOC_DO_MUNMAP_rb_erase
                                                        : FL_LOC_DO_MUNMAP_detach;
        /* Kamezawa's design: wait here, before anything is zapped or freed, for the faults
         * that hold a reference to the VMA (invalidate_vma_before_free) */
        if (sim->config.fault_path == FL_FAULT_PATH_SPECULATIVE_REFCOUNT)
          fl_call (sim, cpu, FL_FN_INVALIDATE_VMA, on, vma)->l.vma_ref.vma = vma;
        else
          f->pc = on;
        return;
      }
    case FL_LOC_DO_MUNMAP_detach:
      {
        /* *insertion_point = vma; tail_vma->vm_next = NULL; mm->mmap_cache = NULL */
        guint32 tail = l->tail;
        if (prev)
          {
            fl_vma_rw (st, prev)->next = vma;
            fl_w_touch_vma (sim, cpu, prev, FL_ACCESS_WRITE);
          }
        else
          FL_G_RW (st, mm.mmap) = vma;
        fl_vma_rw (st, tail)->next = 0;
        fl_w_touch_vma (sim, cpu, tail, FL_ACCESS_WRITE);
        FL_G_RW (st, mm.mmap_cache) = 0;
        fl_touch (sim, cpu, FL_LINE_MM_MMAP, FL_ACCESS_WRITE);
        fl_ev (sim, FL_EV_STORE, l->head, vma);
        l->cursor = l->start;
        f->ret = 0;
        f->pc = FL_LOC_DO_MUNMAP_unmap_vmas;
        return;
      }
    case FL_LOC_DO_MUNMAP_unmap_vmas:
      {
        /* unmap_region → unmap_vmas: zap_pte_range on every PTE table of the range */
        guint64 cursor = l->cursor;
        if (f->ret)
          l->need_flush = 1;
        f->ret = 0;
        guint32 table = fl_writer_find_pte_table (sim, cpu, &cursor, l->end);
        if (table)
          {
            guint64 base = st->tables[table].base;
            guint64 hi = MIN (l->end, base + fl_w_span (1));
            l->cursor = hi;
            call_zap (sim, cpu, FL_LOC_DO_MUNMAP_unmap_vmas, table, MAX (cursor, base), hi);
            return;
          }
        fl_ev (sim, FL_EV_CHECK, 0, 0);
        l->level = 1;
        l->cursor = l->start & ~(fl_w_span (1) - 1);
        f->pc = FL_LOC_DO_MUNMAP_free_pgtables;
        return;
      }
    case FL_LOC_DO_MUNMAP_free_pgtables:
      if (!free_pgtables_step (sim, cpu, l))
        f->pc = l->need_flush ? FL_LOC_DO_MUNMAP_flush : after_flush (sim, cpu);
      return;
    case FL_LOC_DO_MUNMAP_flush:
      /* tlb_finish_mmu → flush_tlb_mm: every CPU running the mm drops its translations */
      fl_call (sim, cpu, FL_FN_FLUSH_TLB_OTHERS, after_flush (sim, cpu), 0);
      return;
    case FL_LOC_DO_MUNMAP_free_tables:
      {
        guint32 table = detached_table (st);
        fl_ev (sim, FL_EV_FREE, table, table ? st->tables[table].level : 0);
        if (table)
          fl_table_free (sim, cpu, table);
        f->pc = after_flush (sim, cpu);
        return;
      }
    case FL_LOC_DO_MUNMAP_free_pages:
      fl_call (sim, cpu, FL_FN_FREE_PAGES, FL_LOC_DO_MUNMAP_remove_vma, 0);
      return;
    case FL_LOC_DO_MUNMAP_remove_vma:
      {
        /* remove_vma_list: free_vma is call_rcu in the patch (vma-free=rcu); a speculative
         * fault that found the VMA before the unlink may still be reading it */
        guint32 head = l->head;
        guint32 next = st->vmas[head].next;
        gboolean rcu = sim->config.vma_free == FL_VMA_FREE_RCU;
        fl_w_touch_vma (sim, cpu, head, FL_ACCESS_WRITE);
        /* fput: at once in v2 (fl-vm-file.c); the event says so in its bit 1 */
        gboolean put = fl_vma_put_file (sim, cpu, head, TRUE);
        fl_ev (sim, FL_EV_FREE, head, rcu | (put << 1));
        if (rcu)
          fl_rcu_call (sim, cpu, head);
        else
          fl_vma_free_now (sim, head);
        l->head = (guint16) next;
        if (next == 0)
          f->pc = FL_LOC_DO_MUNMAP_up_write;
        return;
      }
    case FL_LOC_DO_MUNMAP_up_write:
      /* never an error here (a bad range returned at once): up_write's return ends it */
      fl_call (sim, cpu, fl_rwsem_fn (sim, FL_RWSEM_UP_WRITE), FL_LOC_NONE, 0);
      return;
    default:
      g_assert_not_reached ();
    }
}

/* zap_pte_range(table, start, end): one step per entry cleared, under the PTE lock; returns
 * how many (the mmu_gather's need_flush). */
void
fl_writer_step_zap_pte_range (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  FlLocalsPteRange *l = &f->l.pte_range;
  guint32 table = l->table;
  guint32 lock = FL_LOCK_ID (FL_LOCK_PTL, table);
  guint32 anon = l->anon, file = l->file;
  switch (f->pc)
    {
    case FL_LOC_ZAP_PTE_RANGE_lock:
      l->next_index = (guint16) fl_writer_index_of (st, table, l->start);
      l->anon = l->file = l->done = 0;
      f->pc = FL_LOC_ZAP_PTE_RANGE_zap;
      fl_lock_try (sim, cpu, lock);
      return;
    case FL_LOC_ZAP_PTE_RANGE_zap:
      {
        guint32 to = fl_writer_index_of (st, table, l->end - 1) + 1;
        guint32 i = fl_writer_next_entry (st, table, l->next_index, to, FL_W_ENTRY_ANY);
        if (i >= to)
          {
            fl_touch (sim, cpu, fl_line_of_table (st, table), FL_ACCESS_READ);
            fl_ev (sim, FL_EV_CHECK, table, 0);
            f->pc = FL_LOC_ZAP_PTE_RANGE_unlock;
            return;
          }
        guint64 *e = fl_table_entries_rw (st, table);
        /* ptep_get_and_clear_full: an xchg on the PTE */
        guint64 pte = e[i];
        fl_touch (sim, cpu, fl_line_of_table (st, table), FL_ACCESS_RMW);
        e[i] = 0;
        fl_table_rw (st, table)->used--;
        fl_oracle_pte_written (sim, table);
        if ((pte & FL_PTE_KIND_MASK) == FL_PTE_PRESENT && FL_PTE_PAGE (pte) != st->g->zero_page)
          {
            /* page_remove_rmap, then tlb_remove_page: the mapping's reference goes, and a
             * page left with none waits in the gather until the TLBs are flushed */
            guint32 page = FL_PTE_PAGE (pte);
            FlPage *pg = fl_page_rw (st, page);
            fl_touch_page (sim, cpu, page);
            if (--pg->mapcount == 0)
              fl_memcg_uncharge (sim, cpu, page);
            if (fl_writer_is_anon (st, page))
              anon++;
            else
              file++;
            if (--pg->count == 0)
              fl_gather_page (sim, cpu, page);
          }
        /* a swap entry frees its slot (free_swap_and_cache); a migration entry holds no
         * reference of ours: the migrating CPU finds it gone */
        fl_ev (sim, FL_EV_PTE, table, i);
        guint32 next = fl_writer_next_entry (st, table, i + 1, to, FL_W_ENTRY_ANY);
        l->next_index = (guint16) next;
        l->anon = (guint16) anon;
        l->file = (guint16) file;
        l->done++;
        f->pc = next < to ? FL_LOC_ZAP_PTE_RANGE_zap
                          : (anon || file) ? FL_LOC_ZAP_PTE_RANGE_rss : FL_LOC_ZAP_PTE_RANGE_unlock;
        return;
      }
    case FL_LOC_ZAP_PTE_RANGE_rss:
      /* add_mm_rss once for the whole table, with what was counted along the way */
      fl_writer_rss_add (sim, cpu, -(gint64) anon, -(gint64) file);
      fl_ev (sim, FL_EV_RMW, anon, file);
      f->pc = FL_LOC_ZAP_PTE_RANGE_unlock;
      return;
    case FL_LOC_ZAP_PTE_RANGE_unlock:
      fl_lock_release (sim, cpu, lock);
      fl_memcg_uncharge_end (sim, cpu);
      fl_return (sim, cpu, l->done);
      return;
    default:
      g_assert_not_reached ();
    }
}

/* ---- madvise(MADV_DONTNEED) ---------------------------------------------------------------- */

/* The top of sys_madvise's loop for `vma` at `start`: a hole before it is -ENOMEM at the
 * end, but the VMAs after it are still done. */
static void
madvise_enter (FlSim *sim, guint cpu, FlFrame *f, guint32 vma, guint64 start)
{
  FlLocalsMadviseDontneed *l = &f->l.madvise_dontneed;
  const FlVma *v = &sim->st.vmas[vma];
  fl_w_touch_vma (sim, cpu, vma, FL_ACCESS_READ);
  if (start < v->start)
    {
      l->error = 1;
      start = v->start;
      if (start >= l->end)
        {
          f->pc = FL_LOC_MADVISE_DONTNEED_up_read;
          return;
        }
    }
  l->vma = (guint16) vma;
  l->cursor = start;
  f->ret = 0;
  f->pc = FL_LOC_MADVISE_DONTNEED_zap;
}

/* The bottom of the loop: prev = vma, start = vma->vm_end, vma = prev->vm_next. */
static void
madvise_next (FlSim *sim, guint cpu, FlFrame *f)
{
  FlLocalsMadviseDontneed *l = &f->l.madvise_dontneed;
  const FlVma *v = &sim->st.vmas[l->vma];
  if (v->end >= l->end)
    {
      f->pc = FL_LOC_MADVISE_DONTNEED_up_read;
      return;
    }
  if (v->next == 0)
    {
      l->error = 1;
      f->pc = FL_LOC_MADVISE_DONTNEED_up_read;
      return;
    }
  madvise_enter (sim, cpu, f, v->next, v->end);
}

/* sys_madvise(MADV_DONTNEED) → madvise_dontneed → zap_page_range for each VMA of the range,
 * with mmap_sem held only for read, so faults run alongside (FlLocalsMadviseDontneed). Each
 * VMA's zap ends with its own tlb_finish_mmu: flush, then free the gathered pages. */
void
fl_writer_step_madvise_dontneed (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  FlLocalsMadviseDontneed *l = &f->l.madvise_dontneed;
  switch (f->pc)
    {
    case FL_LOC_MADVISE_DONTNEED_down_read:
      {
        guint64 len = fl_w_page_align (l->len);
        FL_CPU_RW (st, cpu, writer) = TRUE;
        if ((l->start & (FL_PAGE_SIZE - 1)) || (l->len && len == 0) || l->start + len < l->start)
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
        fl_call (sim, cpu, fl_rwsem_fn (sim, FL_RWSEM_DOWN_READ), FL_LOC_MADVISE_DONTNEED_find_vma, 0);
        return;
      }
    case FL_LOC_MADVISE_DONTNEED_find_vma:
      {
        if (!fl_writer_walk_prev (sim, cpu, l->start, &l->walk))
          return;
        guint32 vma = fl_writer_walk_prev_vma (st, &l->walk);
        l->walk = (FlWalkPrev) { 0 };
        if (vma == 0)
          {
            l->error = 1;
            f->pc = FL_LOC_MADVISE_DONTNEED_up_read;
            return;
          }
        madvise_enter (sim, cpu, f, vma, l->start);
        return;
      }
    case FL_LOC_MADVISE_DONTNEED_zap:
      {
        const FlVma *v = &st->vmas[l->vma];
        guint64 cursor = l->cursor, end = MIN (l->end, v->end);
        if (f->ret)
          l->need_flush = 1;
        f->ret = 0;
        guint32 table = fl_writer_find_pte_table (sim, cpu, &cursor, end);
        if (table)
          {
            guint64 base = st->tables[table].base;
            guint64 hi = MIN (end, base + fl_w_span (1));
            l->cursor = hi;
            call_zap (sim, cpu, FL_LOC_MADVISE_DONTNEED_zap, table, MAX (cursor, base), hi);
            return;
          }
        fl_ev (sim, FL_EV_CHECK, l->vma, 0);
        /* tlb_finish_mmu: nothing cleared means nothing to flush or free */
        if (l->need_flush)
          f->pc = FL_LOC_MADVISE_DONTNEED_flush;
        else
          madvise_next (sim, cpu, f);
        return;
      }
    case FL_LOC_MADVISE_DONTNEED_flush:
      l->need_flush = 0;
      fl_call (sim, cpu, FL_FN_FLUSH_TLB_OTHERS, FL_LOC_MADVISE_DONTNEED_free_pages, 0);
      return;
    case FL_LOC_MADVISE_DONTNEED_free_pages:
      /* free the gathered pages, then on to the next VMA (or up_read) */
      madvise_next (sim, cpu, f);
      if (st->cpus[cpu].gather_count)
        fl_call (sim, cpu, FL_FN_FREE_PAGES, f->pc, 0);
      else
        fl_ev (sim, FL_EV_CHECK, 0, 0);
      return;
    case FL_LOC_MADVISE_DONTNEED_up_read:
      fl_writer_release_sem (sim, cpu, l->error, &l->released, FL_RWSEM_UP_READ,
                             FL_LOC_MADVISE_DONTNEED_up_read);
      return;
    default:
      g_assert_not_reached ();
    }
}

/* ---- reclaim and migration ----------------------------------------------------------------- */

/* page_check_address: walk to the PTE table of addr; the quick look before taking the lock. */
static guint32
pte_table_of (FlSim *sim, guint cpu, guint64 addr)
{
  guint64 cursor = addr;
  return fl_writer_find_pte_table (sim, cpu, &cursor, addr + 1);
}

static guint
wake_migration_waiters (FlSim *sim, guint cpu, guint32 table, guint32 index)
{
  FlState *st = &sim->st;
  guint32 obj = FL_MIGRATION_WAIT (table, index);
  guint n = 0;
  for (guint c = 0; c < st->sizes.ncpus; c++)
    if (c != cpu && st->cpus[c].status == FL_CPU_SLEEP && st->cpus[c].wait_obj == obj)
      {
        fl_wake (sim, c, st->cpus[cpu].clock + sim->config.cost.ipi);
        n++;
      }
  return n;
}

/* migrate_page_move_mapping + copy: the old page must have no references but the ones
 * expected (the migration's own, the page cache's, a forked child's); those move to the new
 * page, whose contents are copied. */
static gboolean
move_to_new_page (FlSim *sim, guint cpu, guint32 old, guint32 new)
{
  FlState *st = &sim->st;
  FlPage *op = fl_page_rw (st, old), *np = fl_page_rw (st, new);
  if (op->count != op->ext_refs)
    return FALSE;
  gint32 refs = op->ext_refs - 1, maps = op->ext_maps;
  fl_charge (sim, cpu, sim->config.cost.zero_page);     /* copy_highpage: 4 KiB copied */
  np->flags |= op->flags & (FL_PAGE_ANON | FL_PAGE_FILE);
  np->count += refs;
  np->ext_refs += refs;
  np->mapcount += maps;
  np->ext_maps += maps;
  op->count -= refs;
  op->ext_refs -= refs;
  op->mapcount -= maps;
  op->ext_maps = 0;
  if (op->flags & FL_PAGE_FILE)
    for (guint i = 1; i < st->sizes.ncache; i++)
      if (st->cache[i].page == old)
        fl_cache_rw (st, i)->page = new;
  return TRUE;
}

/* try_to_unmap_one for the page mapped at addr, from reclaim (the PTE becomes a swap entry,
 * or none for a file page, and the page is freed) or migration (a migration entry, a copy,
 * then remove_migration_ptes puts the copy in). ptep_clear_flush flushes the TLBs while the
 * PTE lock is held: a CPU spinning on that lock with IRQs off never acknowledges. */
void
fl_writer_step_try_to_unmap_one (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  FlLocalsTryToUnmapOne *l = &f->l.try_to_unmap_one;
  gboolean migrate = l->migrate;
  guint32 index = fl_walk_index (1, l->addr);
  switch (f->pc)
    {
    case FL_LOC_TRY_TO_UNMAP_ONE_check_address:
      {
        /* which page is mapped there: reclaim and migration start from the page */
        guint32 table = pte_table_of (sim, cpu, l->addr);
        guint64 pte = table ? fl_table_entries (st, table)[index] : 0;
        FL_CPU_RW (st, cpu, writer) = TRUE;
        if (table)
          fl_touch (sim, cpu, fl_line_of_table (st, table), FL_ACCESS_READ);
        if ((pte & FL_PTE_KIND_MASK) != FL_PTE_PRESENT || FL_PTE_PAGE (pte) == st->g->zero_page)
          {
            fl_ev (sim, FL_EV_CHECK, table, 0);
            fl_return (sim, cpu, 0);
            return;
          }
        l->table = table;
        l->page = FL_PTE_PAGE (pte);
        fl_ev (sim, FL_EV_CHECK, table, 1);
        f->pc = migrate ? FL_LOC_TRY_TO_UNMAP_ONE_alloc : FL_LOC_TRY_TO_UNMAP_ONE_lock;
        return;
      }
    case FL_LOC_TRY_TO_UNMAP_ONE_alloc:
      /* unmap_and_move allocates the new page before unmapping the old one */
      fl_call (sim, cpu, FL_FN_ALLOC_PAGE, FL_LOC_TRY_TO_UNMAP_ONE_lock, 0);
      return;
    case FL_LOC_TRY_TO_UNMAP_ONE_lock:
      {
        guint32 table;
        guint64 pte;
        if (migrate)
          l->new_page = f->ret;
        /* page_check_address: walk again, look, then take the PTE lock */
        table = pte_table_of (sim, cpu, l->addr);
        pte = table ? fl_table_entries (st, table)[index] : 0;
        if ((pte & FL_PTE_KIND_MASK) != FL_PTE_PRESENT || FL_PTE_PAGE (pte) != l->page)
          {
            l->abort = 1;
            fl_ev (sim, FL_EV_CHECK, table, 0);
            f->pc = FL_LOC_TRY_TO_UNMAP_ONE_release;
            return;
          }
        l->table = table;
        f->pc = FL_LOC_TRY_TO_UNMAP_ONE_clear_flush;
        fl_lock_try (sim, cpu, FL_LOCK_ID (FL_LOCK_PTL, table));
        return;
      }
    case FL_LOC_TRY_TO_UNMAP_ONE_clear_flush:
      {
        guint32 table = l->table;
        guint64 *e = fl_table_entries_rw (st, table);
        guint64 pte = e[index];
        fl_touch (sim, cpu, fl_line_of_table (st, table), FL_ACCESS_RMW);
        if ((pte & FL_PTE_KIND_MASK) != FL_PTE_PRESENT || FL_PTE_PAGE (pte) != l->page)
          {
            l->abort = 1;
            fl_ev (sim, FL_EV_CHECK, table, 0);
            f->pc = FL_LOC_TRY_TO_UNMAP_ONE_unlock;
            return;
          }
        /* ptep_clear_flush: clear the PTE, then flush_tlb_page with the PTE lock held. The
         * write bit is kept for the migration entry (make_migration_entry(page, write)). */
        e[index] = 0;
        fl_table_rw (st, table)->used--;
        fl_oracle_pte_written (sim, table);
        l->write = (pte & FL_PTE_WRITE) != 0;
        fl_call (sim, cpu, FL_FN_FLUSH_TLB_OTHERS, FL_LOC_TRY_TO_UNMAP_ONE_set_entry, 0);
        fl_ev (sim, FL_EV_PTE, table, index);
        return;
      }
    case FL_LOC_TRY_TO_UNMAP_ONE_set_entry:
      {
        guint32 table = l->table, old = l->page;
        FlPage *pg = fl_page_rw (st, old);
        gboolean anon = fl_writer_is_anon (st, old);
        guint64 entry;
        if (migrate)
          entry = FL_PTE_MAKE (old, FL_PTE_MIGRATION | (l->write ? FL_PTE_WRITE : 0));
        else if (anon)
          entry = FL_PTE_MAKE (1 + (guint32) ((l->addr / FL_PAGE_SIZE) & 0xffffff), FL_PTE_SWAP);
        else
          entry = 0;                               /* a file page is simply unmapped */
        fl_touch (sim, cpu, fl_line_of_table (st, table), FL_ACCESS_WRITE);
        fl_table_entries_rw (st, table)[index] = entry;
        fl_oracle_pte_written (sim, table);
        if (entry)
          fl_table_rw (st, table)->used++;
        /* the model keeps RSS equal to the present PTEs, so a migration entry is not counted
         * either (2.6.32 leaves it in anon_rss); page_remove_rmap */
        fl_writer_rss_add (sim, cpu, anon ? -1 : 0, anon ? 0 : -1);
        pg->mapcount--;
        if (migrate)
          {
            /* the mapping's reference is now the migration's; waiters sleep on the page lock */
            pg->ext_refs++;
            pg->flags |= FL_PAGE_LOCKED;
            l->migref = 1;
          }
        else if (--pg->count == 0)
          fl_gather_page (sim, cpu, old);          /* page_cache_release; written out, freed */
        fl_ev (sim, FL_EV_PTE, table, index);
        f->pc = FL_LOC_TRY_TO_UNMAP_ONE_unlock;
        return;
      }
    case FL_LOC_TRY_TO_UNMAP_ONE_unlock:
      fl_lock_release (sim, cpu, FL_LOCK_ID (FL_LOCK_PTL, l->table));
      f->pc = migrate && !l->abort ? FL_LOC_TRY_TO_UNMAP_ONE_copy
                                                : FL_LOC_TRY_TO_UNMAP_ONE_release;
      return;
    case FL_LOC_TRY_TO_UNMAP_ONE_copy:
      if (move_to_new_page (sim, cpu, l->page, l->new_page))
        fl_ev (sim, FL_EV_STORE, l->new_page, l->page);
      else
        {
          l->move_failed = 1;              /* -EAGAIN: the old page goes back */
          fl_ev (sim, FL_EV_CHECK, l->page, 0);
        }
      f->pc = FL_LOC_TRY_TO_UNMAP_ONE_lock_new;
      return;
    case FL_LOC_TRY_TO_UNMAP_ONE_lock_new:
      {
        /* remove_migration_pte: walk to the entry again (munmap may have zapped it) */
        guint32 table = pte_table_of (sim, cpu, l->addr);
        if (table == 0)
          {
            fl_ev (sim, FL_EV_CHECK, 0, 0);
            f->pc = FL_LOC_TRY_TO_UNMAP_ONE_release;
            return;
          }
        l->new_table = table;
        f->pc = FL_LOC_TRY_TO_UNMAP_ONE_set_new;
        fl_lock_try (sim, cpu, FL_LOCK_ID (FL_LOCK_PTL, table));
        return;
      }
    case FL_LOC_TRY_TO_UNMAP_ONE_set_new:
      {
        guint32 table = l->new_table, old = l->page;
        guint64 *e = fl_table_entries_rw (st, table);
        guint64 pte = e[index];
        if ((pte & FL_PTE_KIND_MASK) != FL_PTE_MIGRATION || FL_PTE_PAGE (pte) != old)
          {
            fl_touch (sim, cpu, fl_line_of_table (st, table), FL_ACCESS_READ);
            fl_ev (sim, FL_EV_CHECK, table, 0);
            f->pc = FL_LOC_TRY_TO_UNMAP_ONE_unlock_new;
            return;
          }
        guint32 page = l->move_failed ? old : l->new_page;
        /* mk_pte, pte_mkold; writable again only if the entry was a write one */
        fl_touch (sim, cpu, fl_line_of_table (st, table), FL_ACCESS_WRITE);
        e[index] = FL_PTE_MAKE (page, FL_PTE_PRESENT | (pte & FL_PTE_WRITE));
        fl_oracle_pte_written (sim, table);
        fl_page_rw (st, page)->mapcount++;
        if (page == old)
          {
            fl_page_rw (st, old)->ext_refs--;             /* the migration's reference maps it again */
            l->migref = 0;
          }
        fl_writer_rss_add (sim, cpu, fl_writer_is_anon (st, page) ? 1 : 0,
                           fl_writer_is_anon (st, page) ? 0 : 1);
        l->installed = 1;
        fl_ev (sim, FL_EV_PTE, table, index);
        f->pc = FL_LOC_TRY_TO_UNMAP_ONE_unlock_new;
        return;
      }
    case FL_LOC_TRY_TO_UNMAP_ONE_unlock_new:
      fl_lock_release (sim, cpu, FL_LOCK_ID (FL_LOCK_PTL, l->new_table));
      f->pc = FL_LOC_TRY_TO_UNMAP_ONE_release;
      return;
    case FL_LOC_TRY_TO_UNMAP_ONE_release:
      {
        guint woken = 0;
        if (migrate)
          {
            guint32 old = l->page, new = l->new_page;
            if (l->migref)
              {
                /* unlock_page wakes migration_entry_wait, then putback drops the old page */
                fl_page_rw (st, old)->flags &= ~(guint32) FL_PAGE_LOCKED;
                woken = wake_migration_waiters (sim, cpu, l->table, index);
                fl_page_rw (st, old)->ext_refs--;
                if (--fl_page_rw (st, old)->count == 0)
                  fl_gather_page (sim, cpu, old);
              }
            else if (l->installed)
              {
                /* the old page went back in place: only the waiters to wake */
                fl_page_rw (st, old)->flags &= ~(guint32) FL_PAGE_LOCKED;
                woken = wake_migration_waiters (sim, cpu, l->table, index);
              }
            /* a new page that was not mapped loses its allocation reference */
            if (!l->installed || l->move_failed)
              if (--fl_page_rw (st, new)->count == 0)
                fl_gather_page (sim, cpu, new);
          }
        if (st->cpus[cpu].gather_count)
          {
            fl_call (sim, cpu, FL_FN_FREE_PAGES, FL_LOC_NONE, 0);
            return;
          }
        if (migrate)
          fl_ev (sim, FL_EV_WAKE, FL_MIGRATION_WAIT (l->table, index), woken);
        else
          fl_ev (sim, FL_EV_RETURN, l->page, 0);
        fl_return (sim, cpu, 0);
        return;
      }
    default:
      g_assert_not_reached ();
    }
}
