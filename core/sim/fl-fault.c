/* fl-fault.c — the locked fault path: x86 do_page_fault, find_vma, handle_mm_fault and the
 * page-table allocation it does on the way down. */
#include "fl-sim-internal.h"

/* Kamezawa's design: the VMA came from find_vma_speculative with a reference, not under
 * mmap_sem (do_page_fault's `speculative`, its by_reference). */
static gboolean
refcount_design (const FlSim *sim)
{
  return sim->config.fault_path == FL_FAULT_PATH_SPECULATIVE_REFCOUNT;
}

/* What kept the VMA goes: the reference through vma_put (it passes to vma_put's frame until
 * the decrement), or mmap_sem through up_read. */
static void
release_vma (FlSim *sim, guint cpu, FlLocalsDoPageFault *l)
{
  if (l->by_reference)
    {
      l->by_reference = 0;
      fl_call (sim, cpu, FL_FN_VMA_PUT, FL_LOC_DO_PAGE_FAULT_done, l->vma)->l.vma_ref.vma = l->vma;
    }
  else
    fl_call (sim, cpu, fl_rwsem_fn (sim, FL_RWSEM_UP_READ), FL_LOC_DO_PAGE_FAULT_done, 0);
}

static void
step_do_page_fault (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  FlLocalsDoPageFault *l = &f->l.do_page_fault;
  switch (f->pc)
    {
    case FL_LOC_DO_PAGE_FAULT_entry:
      /* exception entry; the patch counts every fault, then tries the speculative path */
      fl_charge (sim, cpu, sim->config.cost.exception);
      FL_CPU_RW (st, cpu, flt_total)++;
      l->by_reference = 0;
      /* the value says whether the fault tries without mmap_sem first, in either design */
      fl_ev (sim, FL_EV_CHECK, (guint32) l->addr, sim->config.fault_path != FL_FAULT_PATH_LOCKED);
      f->pc = sim->config.fault_path != FL_FAULT_PATH_LOCKED ? FL_LOC_DO_PAGE_FAULT_try_spec
                                                             : FL_LOC_DO_PAGE_FAULT_trylock;
      return;
    case FL_LOC_DO_PAGE_FAULT_try_spec:
      if (refcount_design (sim))
        fl_call (sim, cpu, FL_FN_FIND_VMA_SPECULATIVE, FL_LOC_DO_PAGE_FAULT_spec_result,
                 (guint32) l->addr)->l.find_vma_spec.addr = l->addr;
      else
        {
          FlLocalsFault *hsf = &fl_call (sim, cpu, FL_FN_HANDLE_SPECULATIVE_FAULT,
                                         FL_LOC_DO_PAGE_FAULT_spec_result,
                                         (guint32) l->addr)->l.fault;
          hsf->addr = l->addr;
          hsf->flags = (guint16) (l->flags | FL_FAULT_SPEC);
        }
      return;
    case FL_LOC_DO_PAGE_FAULT_spec_result:
      if (refcount_design (sim))
        {
          /* a VMA with a reference: on to good_area's checks without mmap_sem; none (the walk
           * missed it, or it is dying): the locked path */
          fl_ev (sim, FL_EV_CHECK, fl_ref_id (f->ret), f->ret != 0);
          if (f->ret)
            {
              FL_CPU_RW (st, cpu, flt_spec)++;
              l->by_reference = 1;
              f->pc = FL_LOC_DO_PAGE_FAULT_check_vma;
              return;
            }
          FL_CPU_RW (st, cpu, flt_retry)++;
          f->pc = FL_LOC_DO_PAGE_FAULT_trylock;
          return;
        }
      fl_ev (sim, FL_EV_CHECK, f->ret, !(f->ret & FL_VM_FAULT_RETRY));
      if (!(f->ret & FL_VM_FAULT_RETRY))
        {
          FL_CPU_RW (st, cpu, flt_spec)++;
          l->result = f->ret;
          f->pc = FL_LOC_DO_PAGE_FAULT_done;
          return;
        }
      FL_CPU_RW (st, cpu, flt_retry)++;
      f->pc = FL_LOC_DO_PAGE_FAULT_trylock;
      return;
    case FL_LOC_DO_PAGE_FAULT_trylock:
      FL_CPU_RW (st, cpu, flt_locked)++;
      fl_call (sim, cpu, fl_rwsem_fn (sim, FL_RWSEM_TRYLOCK), FL_LOC_DO_PAGE_FAULT_trylock_result,
               0);
      return;
    case FL_LOC_DO_PAGE_FAULT_trylock_result:
      if (f->ret)
        {
          fl_ev (sim, FL_EV_CHECK, 0, 1);
          f->pc = FL_LOC_DO_PAGE_FAULT_find_vma;
          return;
        }
      fl_call (sim, cpu, fl_rwsem_fn (sim, FL_RWSEM_DOWN_READ), FL_LOC_DO_PAGE_FAULT_find_vma, 0);
      return;
    case FL_LOC_DO_PAGE_FAULT_find_vma:
      fl_call (sim, cpu, FL_FN_FIND_VMA, FL_LOC_DO_PAGE_FAULT_check_vma,
               (guint32) l->addr)->l.find_vma.addr = l->addr;
      return;
    case FL_LOC_DO_PAGE_FAULT_check_vma:
      {
        guint32 ref = f->ret, id = fl_ref_id (ref);
        gboolean good = FALSE;
        if (id && fl_check_vma (sim, cpu, ref))
          {
            const FlVma *v = &st->vmas[id];
            fl_touch (sim, cpu, fl_line_of_vma (st, id), FL_ACCESS_READ);
            good = v->start <= l->addr && fl_vma_allows (v, l->flags);
          }
        fl_ev (sim, FL_EV_CHECK, id, good);
        l->vma = ref;
        f->pc = good ? FL_LOC_DO_PAGE_FAULT_handle_mm_fault : FL_LOC_DO_PAGE_FAULT_bad_area;
        return;
      }
    case FL_LOC_DO_PAGE_FAULT_handle_mm_fault:
      {
        FlLocalsHandleMmFault *mm = &fl_call (sim, cpu, FL_FN_HANDLE_MM_FAULT,
                                              FL_LOC_DO_PAGE_FAULT_up_read,
                                              (guint32) l->addr)->l.handle_mm_fault;
        mm->addr = l->addr;
        mm->flags = l->flags;
        mm->vma = l->vma;
        return;
      }
    case FL_LOC_DO_PAGE_FAULT_up_read:
      l->result = f->ret;
      release_vma (sim, cpu, l);
      return;
    case FL_LOC_DO_PAGE_FAULT_bad_area:
      /* Kamezawa's patch reaches bad_area's up_read with no mmap_sem held and the reference
       * still taken; the model drops the reference instead (docs/model.md) */
      l->result = FL_VM_FAULT_SIGSEGV;
      release_vma (sim, cpu, l);
      return;
    case FL_LOC_DO_PAGE_FAULT_done:
      if (l->result & FL_VM_FAULT_REFAULT)
        {
          /* nothing was mapped (a migration was waited out): the access faults again */
          fl_ev (sim, FL_EV_CHECK, (guint32) l->addr, 0);
          f->pc = FL_LOC_DO_PAGE_FAULT_entry;
          return;
        }
      if (l->result & FL_VM_FAULT_SIGSEGV)
        FL_CPU_RW (st, cpu, flt_err)++;
      else if (l->result & FL_VM_FAULT_MAJOR)
        FL_CPU_RW (st, cpu, flt_maj)++;
      else
        FL_CPU_RW (st, cpu, flt_min)++;
      fl_ev (sim, FL_EV_RETURN, (guint32) l->addr, l->result);
      fl_return (sim, cpu, l->result);
      return;
    default:
      g_assert_not_reached ();
    }
}

/* find_vma. Returns a VMA reference. */
static void
step_find_vma (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  const FlMm *mm = &st->g->mm;
  FlLocalsFindVma *l = &f->l.find_vma;
  guint64 addr = l->addr;
  switch (f->pc)
    {
    case FL_LOC_FIND_VMA_cache:
      {
        /* mm->mmap_cache is one per mm, shared by every thread */
        fl_touch (sim, cpu, FL_LINE_MM_MMAP, FL_ACCESS_READ);
        guint32 ref = mm->mmap_cache, id = fl_ref_id (ref);
        if (id && fl_check_vma (sim, cpu, ref))
          {
            fl_touch (sim, cpu, fl_line_of_vma (st, id), FL_ACCESS_READ);
            if (st->vmas[id].start <= addr && addr < st->vmas[id].end)
              {
                fl_ev (sim, FL_EV_CHECK, id, 1);
                fl_return (sim, cpu, ref);
                return;
              }
          }
        fl_ev (sim, FL_EV_CHECK, id, 0);
        l->node = fl_vma_ref (st, mm->root);
        l->best = 0;
        f->pc = FL_LOC_FIND_VMA_walk;
        /* the speculative fault's walk has no mmap_sem: the oracle notes what it should find */
        if (fl_caller (sim, cpu)->fn == FL_FN_HANDLE_SPECULATIVE_FAULT)
          fl_walk_begin (sim, cpu, addr);
        return;
      }
    case FL_LOC_FIND_VMA_walk:
      {
        guint32 ref = l->node, id = fl_ref_id (ref);
        if (id == 0)
          {
            fl_ev (sim, FL_EV_TREE, 0, 0);
            if (l->best && !l->keep_cache)
              f->pc = FL_LOC_FIND_VMA_store_cache;
            else
              fl_return (sim, cpu, l->best);
            return;
          }
        if (!fl_check_vma (sim, cpu, ref))
          {
            /* a freed node: whatever its memory now holds, the walk cannot trust it */
            fl_return (sim, cpu, 0);
            return;
          }
        const FlVma *v = &st->vmas[id];
        fl_touch (sim, cpu, fl_line_of_vma (st, id), FL_ACCESS_READ);
        fl_ev (sim, FL_EV_LOAD, id, v->end > addr);
        if (v->end > addr)
          {
            l->best = ref;
            if (v->start <= addr)
              {
                if (l->keep_cache)
                  fl_return (sim, cpu, ref);
                else
                  f->pc = FL_LOC_FIND_VMA_store_cache;
                return;
              }
            l->node = fl_vma_ref (st, v->rb.left);
          }
        else
          l->node = fl_vma_ref (st, v->rb.right);
        return;
      }
    case FL_LOC_FIND_VMA_store_cache:
      fl_touch (sim, cpu, FL_LINE_MM_MMAP, FL_ACCESS_WRITE);
      FL_G_RW (st, mm.mmap_cache) = l->best;
      fl_ev (sim, FL_EV_STORE, fl_ref_id (l->best), fl_ref_id (l->best));
      fl_return (sim, cpu, l->best);
      return;
    default:
      g_assert_not_reached ();
    }
}

static void
step_handle_mm_fault (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  FlLocalsHandleMmFault *l = &f->l.handle_mm_fault;
  guint64 addr = l->addr;
  switch (f->pc)
    {
    case FL_LOC_HANDLE_MM_FAULT_pgd:
      FL_CPU_RW (st, cpu, vm_pgfault)++;    /* count_vm_event(PGFAULT), first thing in 2.6.32 */
      fl_touch (sim, cpu, FL_LINE_MM_SEM, FL_ACCESS_READ);     /* mm->pgd */
      l->table = st->g->mm.pgd;
      l->level = 4;
      fl_ev (sim, FL_EV_WALK, st->g->mm.pgd, 4);
      f->pc = FL_LOC_HANDLE_MM_FAULT_walk;
      return;
    case FL_LOC_HANDLE_MM_FAULT_walk:
      {
        guint32 table = l->table;
        guint level = l->level;
        guint64 entry = fl_table_entries (st, table)[fl_walk_index (level, addr)];
        fl_touch (sim, cpu, fl_line_of_table (st, table), FL_ACCESS_READ);
        fl_ev (sim, FL_EV_WALK, table, level);
        if (entry == 0)
          {
            /* pud_alloc / pmd_alloc / pte_alloc: the missing level, then walk it again */
            FlLocalsPgtableAlloc *alloc = &fl_call (sim, cpu, FL_FN_PGTABLE_ALLOC,
                                                    FL_LOC_HANDLE_MM_FAULT_walk,
                                                    table)->l.pgtable_alloc;
            alloc->parent = table;
            alloc->level = level - 1;
            alloc->addr = addr;
            return;
          }
        l->table = (guint32) entry;     /* an upper table's entry is the table below */
        l->level = level - 1;
        if (level - 1 == 1)
          f->pc = FL_LOC_HANDLE_MM_FAULT_read_pte;
        return;
      }
    case FL_LOC_HANDLE_MM_FAULT_read_pte:
      {
        guint32 table = l->table;
        fl_touch (sim, cpu, fl_line_of_table (st, table), FL_ACCESS_READ);
        guint64 entry = fl_table_entries (st, table)[fl_walk_index (1, addr)];
        fl_ev (sim, FL_EV_PTE, table, fl_walk_index (1, addr));
        l->pte_table = fl_table_ref (st, table);
        l->entry = entry;
        f->pc = FL_LOC_HANDLE_MM_FAULT_handle_pte_fault;
        return;
      }
    case FL_LOC_HANDLE_MM_FAULT_handle_pte_fault:
      {
        FlLocalsFault *pte = &fl_call (sim, cpu, FL_FN_HANDLE_PTE_FAULT, FL_LOC_NONE,
                                       (guint32) addr)->l.fault;
        pte->addr = addr;
        pte->flags = (guint16) l->flags;
        pte->vma = l->vma;
        pte->entry = l->entry;
        pte->table = l->pte_table;
        return;
      }
    default:
      g_assert_not_reached ();
    }
}

/* __pud_alloc / __pmd_alloc / __pte_alloc. */
static void
step_pgtable_alloc (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  FlLocalsPgtableAlloc *l = &f->l.pgtable_alloc;
  guint32 parent = l->parent;
  guint level = l->level;
  guint32 index = fl_walk_index (level + 1, l->addr);
  switch (f->pc)
    {
    case FL_LOC_PGTABLE_ALLOC_alloc:
      {
        guint shift = 12 + 9 * level;
        l->table = fl_table_alloc (sim, level, l->addr >> shift << shift);
        fl_charge (sim, cpu, sim->config.cost.zero_page);   /* a zeroed page for the table */
        fl_ev (sim, FL_EV_ALLOC, l->table, level);
        f->pc = FL_LOC_PGTABLE_ALLOC_lock;
        return;
      }
    case FL_LOC_PGTABLE_ALLOC_lock:
      f->pc = FL_LOC_PGTABLE_ALLOC_populate;
      fl_lock_try (sim, cpu, FL_LOCK_ID (FL_LOCK_PAGE_TABLE, 0));
      return;
    case FL_LOC_PGTABLE_ALLOC_populate:
      fl_touch (sim, cpu, fl_line_of_table (st, parent), FL_ACCESS_WRITE);
      if (fl_table_entries (st, parent)[index] == 0)
        {
          fl_table_entries_rw (st, parent)[index] = l->table;
          fl_table_rw (st, parent)->used++;
          fl_ev (sim, FL_EV_STORE, parent, l->table);
        }
      else
        {
          /* another thread populated it while we allocated: ours goes back */
          fl_table_free (sim, cpu, l->table);
          fl_ev (sim, FL_EV_FREE, l->table, 0);
        }
      f->pc = FL_LOC_PGTABLE_ALLOC_unlock;
      return;
    case FL_LOC_PGTABLE_ALLOC_unlock:
      fl_lock_release (sim, cpu, FL_LOCK_ID (FL_LOCK_PAGE_TABLE, 0));
      fl_return (sim, cpu, 0);
      return;
    default:
      g_assert_not_reached ();
    }
}

const FlStepFn fl_step_do_page_fault = step_do_page_fault;
const FlStepFn fl_step_find_vma = step_find_vma;
const FlStepFn fl_step_handle_mm_fault = step_handle_mm_fault;
const FlStepFn fl_step_pgtable_alloc = step_pgtable_alloc;
