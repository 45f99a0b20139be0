/* fl-writers-merge.c — how 2.6.32 changes a VMA's bounds: vma_merge, which mmap_region and
 * mprotect_fixup try before they allocate or split; vma_adjust, which moves bounds, absorbs
 * a neighbour (remove_next 1, or 2 for mprotect's case 6) or links a split-off VMA; and
 * __vma_unlink, which takes the absorbed neighbour out of the list and the tree. The v2 patch
 * opens vm_sequence write sections on vma and on its next around all of it (so a speculative
 * fault that read either count backs out), marks an unlinked VMA with RB_CLEAR_NODE, and
 * frees the absorbed VMA through call_rcu. A VMA's anon_vma is an identity here
 * (fl-anon-vma.c): two VMAs with different ones do not merge, and the VMA that takes pages
 * over from its neighbour takes its anon_vma too. */
#include "fl-writers-private.h"

#include <string.h>

/**
 * fl_writer_call_vma_adjust:
 * @sim: the simulation
 * @cpu: the calling CPU
 * @resume_at: where the caller continues
 * @vma: the VMA whose bounds change
 * @insert: a VMA split off it to link, or 0
 * @start: (the new bounds of @vma)
 * @end:
 *
 * Calls vma_adjust(vma, start, end, pgoff, insert).
 */
void
fl_writer_call_vma_adjust (FlSim *sim, guint cpu, FlLoc resume_at, guint32 vma, guint32 insert,
                           guint64 start, guint64 end)
{
  FlLocalsVmaAdjust *adj = &fl_call (sim, cpu, FL_FN_VMA_ADJUST, resume_at,
                                     vma | (insert << 16))->l.vma_adjust;
  adj->vma = (guint16) vma;
  adj->insert = (guint16) insert;
  adj->start = start;
  adj->end = end;
}

static void
seq_write (FlSim *sim, guint cpu, guint32 vma)
{
  FlVma *v = fl_vma_rw (&sim->st, vma);
  fl_w_touch_vma (sim, cpu, vma, FL_ACCESS_WRITE);
  v->seq++;
  fl_ev (sim, FL_EV_STORE, vma, v->seq);
}

/* The patch closes next's write section after free_vma(next): harmless while the free waits
 * for a grace period (this CPU runs its RCU callbacks only back in user space), a write into
 * freed memory with vma-free=immediate. */
static void
seq_write_removed (FlSim *sim, guint cpu, guint32 vma)
{
  if (sim->st.vmas[vma].state != FL_OBJ_FREE)
    {
      seq_write (sim, cpu, vma);
      return;
    }
  fl_finding (sim, cpu, FL_FINDING_USE_AFTER_FREE, vma,
              "cpu%u closes the vm_sequence write section of VMA %u, which vma_adjust has "
              "just freed: nothing keeps a merged-away VMA alive without call_rcu", cpu, vma);
  fl_ev (sim, FL_EV_CHECK, vma, 0);
}

/* What vma_adjust does with next when it is not inserting: absorb it whole (the range
 * reaches its end, or beyond for case 6), move its start up (case 5) or down (case 4). */
static void
decide_next (FlSim *sim, FlLocalsVmaAdjust *l, guint32 vma, guint32 next)
{
  const FlState *st = &sim->st;
  const FlVma *n = &st->vmas[next];
  if (l->end >= n->end)
    {
      l->remove_next = (guint8) (1 + (l->end > n->end));
      l->end = n->end;
    }
  else if (l->end > n->start)
    l->move_next = 1;
  else if (l->end < st->vmas[vma].end)
    {
      l->move_next = 1;
      l->next_grows = 1;
    }
}

/* "Easily overlooked" in vma_adjust: the VMA taking over part or all of its neighbour's
 * range (the importer) gets an anon_vma if it had none, so the pages it imports stay
 * reachable: vma's own, or else next's. Case 4 moves pages from vma into next. */
static void
import_anon_vma (FlState *st, const FlLocalsVmaAdjust *l, guint32 vma, guint32 next)
{
  const FlVma *v = &st->vmas[vma], *n = &st->vmas[next];
  guint32 importer = 0;
  if (l->remove_next)
    importer = vma;
  else if (l->move_next)
    importer = l->next_grows ? next : vma;
  if (importer == 0 || st->vmas[importer].anon_vma)
    return;
  fl_vma_rw (st, importer)->anon_vma = v->anon_vma ? v->anon_vma : n->anon_vma;
}

/* vm_pgoff follows vm_start: a file VMA's offset is where its start lies in the file. */
static void
set_start (FlVma *v, guint64 start)
{
  if (v->flags & FL_VM_FILE)
    v->pgoff = (guint64) ((gint64) v->pgoff + ((gint64) start - (gint64) v->start)
                                              / (gint64) FL_PAGE_SIZE);
  v->start = start;
}

/* vma_adjust(vma, start, end, pgoff, insert). */
void
fl_writer_step_vma_adjust (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  FlLocalsVmaAdjust *l = &f->l.vma_adjust;
  guint32 vma = l->vma, insert = l->insert;
  guint32 next = l->next;
  const FlVma *v = &st->vmas[vma];
  switch (f->pc)
    {
    case FL_LOC_VMA_ADJUST_seq_begin:
      next = v->next;
      l->next = (guint16) next;
      seq_write (sim, cpu, vma);
      f->pc = next ? FL_LOC_VMA_ADJUST_seq_begin_next : FL_LOC_VMA_ADJUST_adjust;
      return;
    case FL_LOC_VMA_ADJUST_seq_begin_next:
      seq_write (sim, cpu, next);
      if (!insert)
        decide_next (sim, l, vma, next);
      f->pc = FL_LOC_VMA_ADJUST_adjust;
      return;
    case FL_LOC_VMA_ADJUST_adjust:
      fl_w_touch_vma (sim, cpu, vma, FL_ACCESS_WRITE);
      {
        FlVma *w = fl_vma_rw (st, vma);
        set_start (w, l->start);
        w->end = l->end;
      }
      fl_ev (sim, FL_EV_STORE, vma, (guint32) ((v->end - v->start) / FL_PAGE_SIZE));
      if (l->move_next)
        {
          /* next->vm_start += adjust_next << PAGE_SHIFT: it begins where vma now ends */
          fl_w_touch_vma (sim, cpu, next, FL_ACCESS_WRITE);
          set_start (fl_vma_rw (st, next), v->end);
        }
      if (next && !insert)
        import_anon_vma (st, l, vma, next);
      if (l->remove_next)
        f->pc = FL_LOC_VMA_ADJUST_unlink_next;
      else if (insert)
        f->pc = FL_LOC_VMA_ADJUST_find_prepare;
      else
        f->pc = next ? FL_LOC_VMA_ADJUST_seq_end_next : FL_LOC_VMA_ADJUST_seq_end;
      return;
    case FL_LOC_VMA_ADJUST_unlink_next:
      {
        FlLocalsVmaUnlink *unlink = &fl_call (sim, cpu, FL_FN_VMA_UNLINK,
                                              FL_LOC_VMA_ADJUST_free_next, next)->l.vma_unlink;
        unlink->vma = next;
        unlink->prev = vma;
        return;
      }
    case FL_LOC_VMA_ADJUST_free_next:
      {
        /* Kamezawa's patch waits for next's references right after __vma_unlink */
        if (sim->config.fault_path == FL_FAULT_PATH_SPECULATIVE_REFCOUNT
            && !l->next_waited)
          {
            l->next_waited = 1;
            fl_call (sim, cpu, FL_FN_INVALIDATE_VMA, FL_LOC_VMA_ADJUST_free_next,
                     next)->l.vma_ref.vma = next;
            return;
          }
        l->next_waited = 0;
        /* mm->map_count-- (on the mmap_sem line), then free_vma(next): call_rcu in the patch */
        gboolean rcu = sim->config.vma_free == FL_VMA_FREE_RCU;
        fl_touch (sim, cpu, FL_LINE_MM_SEM, FL_ACCESS_WRITE);
        FL_G_RW (st, mm.map_count)--;
        fl_w_touch_vma (sim, cpu, next, FL_ACCESS_WRITE);
        gboolean put = fl_vma_put_file (sim, cpu, next, TRUE);   /* fput(file): at once in v2 */
        fl_ev (sim, FL_EV_FREE, next, rcu | (put << 1));
        if (rcu)
          fl_rcu_call (sim, cpu, next);
        else
          fl_vma_free_now (sim, next);
        f->pc = l->remove_next == 2 ? FL_LOC_VMA_ADJUST_seq_end_removed
                                         : FL_LOC_VMA_ADJUST_seq_end_next;
        return;
      }
    case FL_LOC_VMA_ADJUST_seq_end_removed:
      /* case 6: close the section of the VMA just absorbed, then the one after it */
      seq_write_removed (sim, cpu, next);
      f->pc = FL_LOC_VMA_ADJUST_seq_begin_again;
      return;
    case FL_LOC_VMA_ADJUST_seq_begin_again:
      /* next = vma->vm_next; write_seqcount_begin(&next->vm_sequence); goto again */
      fl_w_touch_vma (sim, cpu, vma, FL_ACCESS_READ);
      next = v->next;
      l->next = (guint16) next;
      seq_write (sim, cpu, next);
      l->remove_next = (guint8) (1 + (l->end > st->vmas[next].end));
      l->end = st->vmas[next].end;
      f->pc = FL_LOC_VMA_ADJUST_adjust;
      return;
    case FL_LOC_VMA_ADJUST_find_prepare:
      if (!fl_writer_walk_prepare (sim, cpu, st->vmas[insert].start, st->vmas[insert].end,
                                   &l->walk))
        return;
      g_assert (!l->walk.overlap);
      f->pc = FL_LOC_VMA_ADJUST_insert;
      return;
    case FL_LOC_VMA_ADJUST_insert:
      fl_writer_link_vma (sim, cpu, insert, &l->walk, &l->cur);
      f->pc = FL_LOC_VMA_ADJUST_rb_insert_color;
      return;
    case FL_LOC_VMA_ADJUST_rb_insert_color:
      if (fl_writer_insert_color_step (sim, cpu, &l->cur))
        f->pc = next ? FL_LOC_VMA_ADJUST_seq_end_next : FL_LOC_VMA_ADJUST_seq_end;
      return;
    case FL_LOC_VMA_ADJUST_seq_end_next:
      if (l->remove_next)
        seq_write_removed (sim, cpu, next);
      else
        seq_write (sim, cpu, next);
      f->pc = FL_LOC_VMA_ADJUST_seq_end;
      return;
    case FL_LOC_VMA_ADJUST_seq_end:
      seq_write (sim, cpu, vma);
      fl_return (sim, cpu, 0);
      return;
    default:
      g_assert_not_reached ();
    }
}

/* __vma_unlink(mm, vma, prev). */
void
fl_writer_step_vma_unlink (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  const FlMm *mm = &st->g->mm;
  FlRbAccess acc = fl_vma_rb_access (st);
  FlLocalsVmaUnlink *l = &f->l.vma_unlink;
  guint32 vma = l->vma, prev = l->prev;
  
  switch (f->pc)
    {
    case FL_LOC_VMA_UNLINK_list:
      /* prev->vm_next = vma->vm_next */
      fl_w_touch_vma (sim, cpu, vma, FL_ACCESS_READ);
      fl_w_touch_vma (sim, cpu, prev, FL_ACCESS_WRITE);
      fl_vma_rw (st, prev)->next = st->vmas[vma].next;
      fl_ev (sim, FL_EV_STORE, prev, st->vmas[prev].next);
      memset (&l->cur, 0, sizeof l->cur);
      f->pc = FL_LOC_VMA_UNLINK_rb_erase;
      return;
    case FL_LOC_VMA_UNLINK_rb_erase:
      if (fl_writer_rb_erase_step (sim, cpu, vma, &l->cur))
        f->pc = FL_LOC_VMA_UNLINK_clear_node;
      return;
    case FL_LOC_VMA_UNLINK_clear_node:
      /* smp_wmb(); RB_CLEAR_NODE: a speculative fault holding vma now sees it dead */
      fl_w_touch_vma (sim, cpu, vma, FL_ACCESS_WRITE);
      {
        FlVma *v = fl_vma_rw (st, vma);         /* before RB_CLEAR_NODE writes its node */
        fl_rb_clear_node (&acc, vma);
        v->state = FL_OBJ_UNLINKED;
      }
      fl_ev (sim, FL_EV_TREE, vma, FL_RB_ACTION_NONE);
      f->pc = FL_LOC_VMA_UNLINK_mmap_cache;
      return;
    case FL_LOC_VMA_UNLINK_mmap_cache:
      {
        /* if (mm->mmap_cache == vma) mm->mmap_cache = prev; the cache holds a reference
         * (id and generation), so a stale one is caught */
        gboolean cached = fl_ref_id (mm->mmap_cache) == vma;
        fl_touch (sim, cpu, FL_LINE_MM_MMAP, cached ? FL_ACCESS_WRITE : FL_ACCESS_READ);
        if (cached)
          FL_G_RW (st, mm.mmap_cache) = fl_vma_ref (st, prev);
        fl_ev (sim, cached ? FL_EV_STORE : FL_EV_CHECK, vma, cached ? prev : 0);
        fl_return (sim, cpu, 0);
        return;
      }
    default:
      g_assert_not_reached ();
    }
}

/* is_mergeable_anon_vma: pages under two different anon_vmas cannot share a VMA. */
static gboolean
anon_compatible (guint32 a, guint32 b)
{
  return a == 0 || b == 0 || a == b;
}

/* is_mergeable_vma, is_mergeable_anon_vma and the offset test of can_vma_merge_before/after:
 * same flags, same file, compatible anon_vmas, and for a file the pages lie where the merged
 * VMA would put them. */
static gboolean
mergeable (const FlVma *v, guint32 flags, guint32 file, guint32 anon_vma, guint64 pgoff,
           guint64 addr)
{
  if (v->flags != flags || v->file != file || !anon_compatible (anon_vma, v->anon_vma))
    return FALSE;
  if (!(flags & FL_VM_FILE))
    return TRUE;
  return (gint64) v->pgoff + ((gint64) addr - (gint64) v->start) / (gint64) FL_PAGE_SIZE
         == (gint64) pgoff;
}

/* vma_merge(mm, prev, addr, end, vm_flags, anon_vma, file, pgoff). Returns the VMA now
 * covering [addr, end), or 0 when none could. */
void
fl_writer_step_vma_merge (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  FlLocalsVmaMerge *l = &f->l.vma_merge;
  guint32 prev = l->prev, area = l->area;
  guint32 next = l->next;
  guint32 flags = l->vm_flags, file = l->file;
  guint64 addr = l->addr, end = l->end, pgoff = l->pgoff;
  guint32 anon = l->anon_vma;
  switch (f->pc)
    {
    case FL_LOC_VMA_MERGE_find_next:
      /* next = prev ? prev->vm_next : mm->mmap; area = next; skip area if the range ends
       * where it ends (mprotect's cases 6, 7, 8) */
      if (prev)
        fl_w_touch_vma (sim, cpu, prev, FL_ACCESS_READ);
      else
        fl_touch (sim, cpu, FL_LINE_MM_MMAP, FL_ACCESS_READ);
      area = next = prev ? st->vmas[prev].next : st->g->mm.mmap;
      if (next)
        {
          fl_w_touch_vma (sim, cpu, next, FL_ACCESS_READ);
          if (st->vmas[next].end == end)
            next = st->vmas[next].next;
        }
      l->area = (guint16) area;
      l->next = (guint16) next;
      fl_ev (sim, FL_EV_LOAD, area, next);
      f->pc = FL_LOC_VMA_MERGE_merge_prev;
      return;
    case FL_LOC_VMA_MERGE_merge_prev:
      {
        /* can_vma_merge_after(prev, ...), and then can next join too (cases 1 and 6)? */
        const FlVma *p = &st->vmas[prev];
        gboolean after = prev && p->end == addr
                         && mergeable (p, flags, file, anon, pgoff, addr);
        if (prev)
          fl_w_touch_vma (sim, cpu, prev, FL_ACCESS_READ);
        fl_ev (sim, FL_EV_CHECK, prev, after);
        if (!after)
          {
            f->pc = FL_LOC_VMA_MERGE_merge_next;
            return;
          }
        const FlVma *n = &st->vmas[next];
        gboolean both = next && end == n->start && mergeable (n, flags, file, anon, pgoff, addr)
                         && anon_compatible (p->anon_vma, n->anon_vma);
        if (next)
          fl_w_touch_vma (sim, cpu, next, FL_ACCESS_READ);
        fl_writer_call_vma_adjust (sim, cpu, FL_LOC_VMA_MERGE_merged_prev, prev, 0,
                                   st->vmas[prev].start, both ? st->vmas[next].end : end);
        return;
      }
    case FL_LOC_VMA_MERGE_merged_prev:
      fl_return (sim, cpu, prev);
      return;
    case FL_LOC_VMA_MERGE_merge_next:
      {
        /* can_vma_merge_before(next, ...): the range joins next's front (cases 3, 4, 8) */
        const FlVma *n = &st->vmas[next];
        gboolean before = next && end == n->start && mergeable (n, flags, file, anon, pgoff, addr);
        if (next)
          fl_w_touch_vma (sim, cpu, next, FL_ACCESS_READ);
        fl_ev (sim, FL_EV_CHECK, next, before);
        if (!before)
          {
            fl_return (sim, cpu, 0);
            return;
          }
        if (prev && addr < st->vmas[prev].end)                   /* case 4: prev shrinks */
          fl_writer_call_vma_adjust (sim, cpu, FL_LOC_VMA_MERGE_merged_next, prev, 0,
                                     st->vmas[prev].start, addr);
        else                                                     /* cases 3, 8 */
          fl_writer_call_vma_adjust (sim, cpu, FL_LOC_VMA_MERGE_merged_next, area, 0, addr,
                                     st->vmas[next].end);
        return;
      }
    case FL_LOC_VMA_MERGE_merged_next:
      fl_return (sim, cpu, area);
      return;
    default:
      g_assert_not_reached ();
    }
}
