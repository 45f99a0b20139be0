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

/* vma_adjust's a0: the VMA (bits 0..15), the VMA to insert (16..31), vma->vm_next (32..47),
 * remove_next (48..49), whether next's start moves (mprotect's cases 4 and 5), and whether it
 * moves down (case 4). */
#define ADJ_REMOVE_SHIFT 48
#define ADJ_REMOVE_MASK  (G_GUINT64_CONSTANT (3) << ADJ_REMOVE_SHIFT)
#define ADJ_MOVE_NEXT    (G_GUINT64_CONSTANT (1) << 50)
#define ADJ_NEXT_GROWS   (G_GUINT64_CONSTANT (1) << 51)   /* case 4: next grows down over vma */
/* speculative-refcount: the references to next have been waited for (free_next runs twice) */
#define ADJ_NEXT_WAITED  (G_GUINT64_CONSTANT (1) << 52)

static guint
adj_remove_next (const FlFrame *f)
{
  return (guint) ((f->l.a[0] & ADJ_REMOVE_MASK) >> ADJ_REMOVE_SHIFT);
}

static void
adj_set_remove_next (FlFrame *f, guint remove_next)
{
  f->l.a[0] = (f->l.a[0] & ~ADJ_REMOVE_MASK) | ((guint64) remove_next << ADJ_REMOVE_SHIFT);
}

static void
seq_write (FlSim *sim, guint cpu, guint32 vma)
{
  FlVma *v = &sim->st.vmas[vma];
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
decide_next (FlSim *sim, FlFrame *f, guint32 vma, guint32 next)
{
  const FlState *st = &sim->st;
  const FlVma *n = &st->vmas[next];
  if (f->l.a[2] >= n->end)
    {
      adj_set_remove_next (f, 1 + (f->l.a[2] > n->end));
      f->l.a[2] = n->end;
    }
  else if (f->l.a[2] > n->start)
    f->l.a[0] |= ADJ_MOVE_NEXT;
  else if (f->l.a[2] < st->vmas[vma].end)
    f->l.a[0] |= ADJ_MOVE_NEXT | ADJ_NEXT_GROWS;
}

/* "Easily overlooked" in vma_adjust: the VMA taking over part or all of its neighbour's
 * range (the importer) gets an anon_vma if it had none, so the pages it imports stay
 * reachable: vma's own, or else next's. Case 4 moves pages from vma into next. */
static void
import_anon_vma (FlState *st, const FlFrame *f, guint32 vma, guint32 next)
{
  FlVma *v = &st->vmas[vma], *n = &st->vmas[next];
  FlVma *importer = NULL;
  if (adj_remove_next (f))
    importer = v;
  else if (f->l.a[0] & ADJ_MOVE_NEXT)
    importer = (f->l.a[0] & ADJ_NEXT_GROWS) ? n : v;
  if (importer == NULL || importer->anon_vma)
    return;
  importer->anon_vma = v->anon_vma ? v->anon_vma : n->anon_vma;
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

/* vma_adjust(vma, start, end, pgoff, insert): a0 as above, a1 start, a2 end, a3 the insert's
 * find_vma_prepare walk, a4..a5 the rb_insert_color cursor. */
void
fl_writer_step_vma_adjust (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  guint32 vma = fl_w_get16 (f->l.a[0], 0), insert = fl_w_get16 (f->l.a[0], 1);
  guint32 next = fl_w_get16 (f->l.a[0], 2);
  FlVma *v = &st->vmas[vma];
  switch (f->pc)
    {
    case FL_LOC_VMA_ADJUST_seq_begin:
      next = v->next;
      fl_w_set16 (&f->l.a[0], 2, next);
      seq_write (sim, cpu, vma);
      f->pc = next ? FL_LOC_VMA_ADJUST_seq_begin_next : FL_LOC_VMA_ADJUST_adjust;
      return;
    case FL_LOC_VMA_ADJUST_seq_begin_next:
      seq_write (sim, cpu, next);
      if (!insert)
        decide_next (sim, f, vma, next);
      f->pc = FL_LOC_VMA_ADJUST_adjust;
      return;
    case FL_LOC_VMA_ADJUST_adjust:
      fl_w_touch_vma (sim, cpu, vma, FL_ACCESS_WRITE);
      set_start (v, f->l.a[1]);
      v->end = f->l.a[2];
      fl_ev (sim, FL_EV_STORE, vma, (guint32) ((v->end - v->start) / FL_PAGE_SIZE));
      if (f->l.a[0] & ADJ_MOVE_NEXT)
        {
          /* next->vm_start += adjust_next << PAGE_SHIFT: it begins where vma now ends */
          fl_w_touch_vma (sim, cpu, next, FL_ACCESS_WRITE);
          set_start (&st->vmas[next], v->end);
        }
      if (next && !insert)
        import_anon_vma (st, f, vma, next);
      if (adj_remove_next (f))
        f->pc = FL_LOC_VMA_ADJUST_unlink_next;
      else if (insert)
        f->pc = FL_LOC_VMA_ADJUST_find_prepare;
      else
        f->pc = next ? FL_LOC_VMA_ADJUST_seq_end_next : FL_LOC_VMA_ADJUST_seq_end;
      return;
    case FL_LOC_VMA_ADJUST_unlink_next:
      fl_call_words (sim, cpu, FL_FN_VMA_UNLINK, FL_LOC_VMA_ADJUST_free_next, next, vma, 0, 0);
      return;
    case FL_LOC_VMA_ADJUST_free_next:
      {
        /* Kamezawa's patch waits for next's references right after __vma_unlink */
        if (sim->config.fault_path == FL_FAULT_PATH_SPECULATIVE_REFCOUNT
            && !(f->l.a[0] & ADJ_NEXT_WAITED))
          {
            f->l.a[0] |= ADJ_NEXT_WAITED;
            fl_call (sim, cpu, FL_FN_INVALIDATE_VMA, FL_LOC_VMA_ADJUST_free_next,
                     next)->l.vma_ref.vma = next;
            return;
          }
        f->l.a[0] &= ~ADJ_NEXT_WAITED;
        /* mm->map_count-- (on the mmap_sem line), then free_vma(next): call_rcu in the patch */
        gboolean rcu = sim->config.vma_free == FL_VMA_FREE_RCU;
        fl_touch (sim, cpu, FL_LINE_MM_SEM, FL_ACCESS_WRITE);
        st->g->mm.map_count--;
        fl_w_touch_vma (sim, cpu, next, FL_ACCESS_WRITE);
        fl_ev (sim, FL_EV_FREE, next, rcu);
        if (rcu)
          fl_rcu_call (sim, cpu, next);
        else
          fl_vma_free_now (sim, next);
        f->pc = adj_remove_next (f) == 2 ? FL_LOC_VMA_ADJUST_seq_end_removed
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
      fl_w_set16 (&f->l.a[0], 2, next);
      seq_write (sim, cpu, next);
      adj_set_remove_next (f, 1 + (f->l.a[2] > st->vmas[next].end));
      f->l.a[2] = st->vmas[next].end;
      f->pc = FL_LOC_VMA_ADJUST_adjust;
      return;
    case FL_LOC_VMA_ADJUST_find_prepare:
      if (!fl_writer_walk_prepare (sim, cpu, st->vmas[insert].start, st->vmas[insert].end, &f->l.a[3]))
        return;
      g_assert (!(f->l.a[3] & FL_W_PREP_OVERLAP));
      f->pc = FL_LOC_VMA_ADJUST_insert;
      return;
    case FL_LOC_VMA_ADJUST_insert:
      {
        FlRbCursor cur;
        fl_writer_link_vma (sim, cpu, insert, f->l.a[3], &cur);
        memcpy (&f->l.a[4], &cur, sizeof cur);
        f->pc = FL_LOC_VMA_ADJUST_rb_insert_color;
        return;
      }
    case FL_LOC_VMA_ADJUST_rb_insert_color:
      if (fl_writer_insert_color_step (sim, cpu, f))
        f->pc = next ? FL_LOC_VMA_ADJUST_seq_end_next : FL_LOC_VMA_ADJUST_seq_end;
      return;
    case FL_LOC_VMA_ADJUST_seq_end_next:
      if (adj_remove_next (f))
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

/* __vma_unlink(mm, vma, prev): a0 the VMA, a1 prev (the VMA absorbing it), a4..a5 the
 * rb_erase cursor. */
void
fl_writer_step_vma_unlink (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  FlMm *mm = &st->g->mm;
  FlRbAccess acc = fl_vma_rb_access (st);
  guint32 vma = (guint32) f->l.a[0], prev = (guint32) f->l.a[1];
  
  switch (f->pc)
    {
    case FL_LOC_VMA_UNLINK_list:
      /* prev->vm_next = vma->vm_next */
      fl_w_touch_vma (sim, cpu, vma, FL_ACCESS_READ);
      fl_w_touch_vma (sim, cpu, prev, FL_ACCESS_WRITE);
      st->vmas[prev].next = st->vmas[vma].next;
      fl_ev (sim, FL_EV_STORE, prev, st->vmas[prev].next);
      f->l.a[4] = f->l.a[5] = 0;
      f->pc = FL_LOC_VMA_UNLINK_rb_erase;
      return;
    case FL_LOC_VMA_UNLINK_rb_erase:
      if (fl_writer_rb_erase_step (sim, cpu, vma, &f->l.a[4]))
        f->pc = FL_LOC_VMA_UNLINK_clear_node;
      return;
    case FL_LOC_VMA_UNLINK_clear_node:
      /* smp_wmb(); RB_CLEAR_NODE: a speculative fault holding vma now sees it dead */
      fl_w_touch_vma (sim, cpu, vma, FL_ACCESS_WRITE);
      fl_rb_clear_node (&acc, vma);
      st->vmas[vma].state = FL_OBJ_UNLINKED;
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
          mm->mmap_cache = fl_vma_ref (st, prev);
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

/* vma_merge(mm, prev, addr, end, vm_flags, anon_vma, file, pgoff): a0 prev (bits 0..15),
 * area (16..31) and next (32..47); a1 addr; a2 end; a3 vm_flags (low 32 bits) and the file
 * id (high 32); a4 pgoff; a5 the anon_vma. Returns the VMA now covering [addr, end), or 0 when none could. */
void
fl_writer_step_vma_merge (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  guint32 prev = fl_w_get16 (f->l.a[0], 0), area = fl_w_get16 (f->l.a[0], 1);
  guint32 next = fl_w_get16 (f->l.a[0], 2);
  guint32 flags = (guint32) f->l.a[3], file = (guint32) (f->l.a[3] >> 32);
  guint64 addr = f->l.a[1], end = f->l.a[2], pgoff = f->l.a[4];
  guint32 anon = (guint32) f->l.a[5];
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
      fl_w_set16 (&f->l.a[0], 1, area);
      fl_w_set16 (&f->l.a[0], 2, next);
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
        fl_call_words (sim, cpu, FL_FN_VMA_ADJUST, FL_LOC_VMA_MERGE_merged_prev, prev,
                 st->vmas[prev].start, both ? st->vmas[next].end : end, 0);
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
          fl_call_words (sim, cpu, FL_FN_VMA_ADJUST, FL_LOC_VMA_MERGE_merged_next, prev,
                   st->vmas[prev].start, addr, 0);
        else                                                     /* cases 3, 8 */
          fl_call_words (sim, cpu, FL_FN_VMA_ADJUST, FL_LOC_VMA_MERGE_merged_next, area, addr,
                   st->vmas[next].end, 0);
        return;
      }
    case FL_LOC_VMA_MERGE_merged_next:
      fl_return (sim, cpu, area);
      return;
    default:
      g_assert_not_reached ();
    }
}
