/* fl-anon-vma.c — anon_vma_prepare (mm/rmap.c, 2.6.32): before a VMA's first anonymous page,
 * give it an anon_vma — a neighbour's when the two could merge, else a new one — under
 * mm->page_table_lock, which shares the mmap_sem line in 2.6.32's mm_struct. After that
 * first time it is one load of the VMA, which the callers make in the step before the call
 * (fl-pte-fault.c) and so never call it. The anon_vma objects themselves are an identity
 * here (merging asks whether two VMAs have the same one); their lists and their own lock are
 * not modeled: a new anon_vma is in the allocating CPU's cache, and nothing else takes its
 * lock on the paths the model has. */
#include "fl-sim-internal.h"

/* Could `near`'s anon_vma serve `vma` (find_mergeable_anon_vma's test: adjacent, the same
 * flags apart from the access bits, the same file at the right offset)? */
static gboolean
compatible (const FlVma *vma, const FlVma *near, gboolean near_is_next)
{
  const guint32 access = FL_VM_READ | FL_VM_WRITE | FL_VM_EXEC;
  if (near->anon_vma == 0 || near->state != FL_OBJ_LIVE || near->file != vma->file
      || ((vma->flags ^ near->flags) & ~access))
    return FALSE;
  const FlVma *lo = near_is_next ? vma : near, *hi = near_is_next ? near : vma;
  return lo->end == hi->start
         && (!(vma->flags & FL_VM_FILE)
             || lo->pgoff + (lo->end - lo->start) / FL_PAGE_SIZE == hi->pgoff);
}

static guint32
prev_of (const FlState *st, guint32 vma)
{
  for (guint32 v = st->g->mm.mmap; v; v = st->vmas[v].next)
    if (st->vmas[v].next == vma)
      return v;
  return 0;
}

/* anon_vma_prepare(vma). Returns 0. */
static void
step_anon_vma_prepare (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  guint32 ref = f->l.anon_vma_prepare.vma, vma = fl_ref_id (ref);
  const FlVma *v = &st->vmas[vma];
  switch (f->pc)
    {
    case FL_LOC_ANON_VMA_PREPARE_check:
      fl_check_vma (sim, cpu, ref);
      fl_touch (sim, cpu, fl_line_of_vma (st, vma), FL_ACCESS_READ);
      fl_ev (sim, FL_EV_CHECK, vma, v->anon_vma != 0);
      if (v->anon_vma)
        fl_return (sim, cpu, 0);
      else
        f->pc = FL_LOC_ANON_VMA_PREPARE_find_mergeable;
      return;
    case FL_LOC_ANON_VMA_PREPARE_find_mergeable:
      {
        /* the next VMA, then the previous one (find_vma_prev's walk, one step here) */
        fl_note_vma_list (sim);
        guint32 next = v->next, prev = prev_of (st, vma), found = 0;
        if (next)
          {
            fl_touch (sim, cpu, fl_line_of_vma (st, next), FL_ACCESS_READ);
            if (compatible (v, &st->vmas[next], TRUE))
              found = st->vmas[next].anon_vma;
          }
        if (!found && prev)
          {
            fl_touch (sim, cpu, fl_line_of_vma (st, prev), FL_ACCESS_READ);
            if (compatible (v, &st->vmas[prev], FALSE))
              found = st->vmas[prev].anon_vma;
          }
        f->l.anon_vma_prepare.anon_vma = found;
        fl_ev (sim, FL_EV_CHECK, found, found != 0);
        f->pc = found ? FL_LOC_ANON_VMA_PREPARE_lock : FL_LOC_ANON_VMA_PREPARE_alloc;
        return;
      }
    case FL_LOC_ANON_VMA_PREPARE_alloc:
      /* anon_vma_alloc: a slab object of this CPU's */
      f->l.anon_vma_prepare.anon_vma = ++FL_G_RW (st, mm.anon_vmas);
      fl_ev (sim, FL_EV_ALLOC, f->l.anon_vma_prepare.anon_vma, vma);
      f->pc = FL_LOC_ANON_VMA_PREPARE_lock;
      return;
    case FL_LOC_ANON_VMA_PREPARE_lock:
      f->pc = FL_LOC_ANON_VMA_PREPARE_set;
      fl_lock_try (sim, cpu, FL_LOCK_ID (FL_LOCK_PAGE_TABLE, 0));
      return;
    case FL_LOC_ANON_VMA_PREPARE_set:
      /* another thread of the mm may have given it one since the check */
      fl_touch (sim, cpu, fl_line_of_vma (st, vma), FL_ACCESS_WRITE);
      if (v->anon_vma == 0)
        fl_vma_rw (st, vma)->anon_vma = f->l.anon_vma_prepare.anon_vma;
      fl_ev (sim, FL_EV_STORE, vma, v->anon_vma);
      f->pc = FL_LOC_ANON_VMA_PREPARE_unlock;
      return;
    case FL_LOC_ANON_VMA_PREPARE_unlock:
      fl_lock_release (sim, cpu, FL_LOCK_ID (FL_LOCK_PAGE_TABLE, 0));
      fl_return (sim, cpu, 0);
      return;
    default:
      g_assert_not_reached ();
    }
}

const FlStepFn fl_step_anon_vma_prepare = step_anon_vma_prepare;
