/* fl-fault.c — the locked fault path: x86 do_page_fault, find_vma, handle_mm_fault and the
 * page-table allocation it does on the way down. */
#include "fl-machine.h"

/* Kamezawa's design: the VMA came from find_vma_speculative with a reference, not under
 * mmap_sem (do_page_fault's `speculative`, kept in a5). */
static gboolean
refcount_design (const FlSim *sim)
{
  return sim->config.fault_path == FL_FAULT_PATH_SPECULATIVE_REFCOUNT;
}

/* What kept the VMA goes: the reference through vma_put (it passes to vma_put's frame until
 * the decrement), or mmap_sem through up_read. */
static void
release_vma (FlSim *sim, guint cpu, FlFrame *f)
{
  if (f->a[5])
    {
      f->a[5] = 0;
      fl_call (sim, cpu, FL_FN_VMA_PUT, FL_LOC_DO_PAGE_FAULT_done, f->a[2], 0, 0, 0);
    }
  else
    fl_call (sim, cpu, fl_rwsem_fn (sim, FL_RWSEM_UP_READ), FL_LOC_DO_PAGE_FAULT_done, 0, 0, 0, 0);
}

/* do_page_fault: a0 address, a1 FL_FAULT_WRITE; a2 vma; a4 result; a5 1 when a2 is held by a
 * reference (speculative-refcount) rather than by mmap_sem. */
static void
step_do_page_fault (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  FlCpu *c = &st->cpus[cpu];
  switch (f->pc)
    {
    case FL_LOC_DO_PAGE_FAULT_entry:
      /* exception entry; the patch counts every fault, then tries the speculative path */
      fl_charge (sim, cpu, sim->config.cost.exception);
      c->flt_total++;
      f->a[5] = 0;
      /* the value says whether the fault tries without mmap_sem first, in either design */
      fl_ev (sim, FL_EV_CHECK, (guint32) f->a[0], sim->config.fault_path != FL_FAULT_PATH_LOCKED);
      f->pc = sim->config.fault_path != FL_FAULT_PATH_LOCKED ? FL_LOC_DO_PAGE_FAULT_try_spec
                                                             : FL_LOC_DO_PAGE_FAULT_trylock;
      return;
    case FL_LOC_DO_PAGE_FAULT_try_spec:
      if (refcount_design (sim))
        fl_call (sim, cpu, FL_FN_FIND_VMA_SPECULATIVE, FL_LOC_DO_PAGE_FAULT_spec_result,
                 f->a[0], 0, 0, 0);
      else
        fl_call (sim, cpu, FL_FN_HANDLE_SPECULATIVE_FAULT, FL_LOC_DO_PAGE_FAULT_spec_result,
                 f->a[0], f->a[1] | FL_FAULT_SPEC, 0, 0);
      return;
    case FL_LOC_DO_PAGE_FAULT_spec_result:
      if (refcount_design (sim))
        {
          /* a VMA with a reference: on to good_area's checks without mmap_sem; none (the walk
           * missed it, or it is dying): the locked path */
          fl_ev (sim, FL_EV_CHECK, fl_ref_id (f->ret), f->ret != 0);
          if (f->ret)
            {
              c->flt_spec++;
              f->a[5] = 1;
              f->pc = FL_LOC_DO_PAGE_FAULT_check_vma;
              return;
            }
          c->flt_retry++;
          f->pc = FL_LOC_DO_PAGE_FAULT_trylock;
          return;
        }
      fl_ev (sim, FL_EV_CHECK, f->ret, !(f->ret & FL_VM_FAULT_RETRY));
      if (!(f->ret & FL_VM_FAULT_RETRY))
        {
          c->flt_spec++;
          f->a[4] = f->ret;
          f->pc = FL_LOC_DO_PAGE_FAULT_done;
          return;
        }
      c->flt_retry++;
      f->pc = FL_LOC_DO_PAGE_FAULT_trylock;
      return;
    case FL_LOC_DO_PAGE_FAULT_trylock:
      c->flt_locked++;
      fl_call (sim, cpu, fl_rwsem_fn (sim, FL_RWSEM_TRYLOCK), FL_LOC_DO_PAGE_FAULT_trylock_result,
               0, 0, 0, 0);
      return;
    case FL_LOC_DO_PAGE_FAULT_trylock_result:
      if (f->ret)
        {
          fl_ev (sim, FL_EV_CHECK, 0, 1);
          f->pc = FL_LOC_DO_PAGE_FAULT_find_vma;
          return;
        }
      fl_call (sim, cpu, fl_rwsem_fn (sim, FL_RWSEM_DOWN_READ), FL_LOC_DO_PAGE_FAULT_find_vma,
               0, 0, 0, 0);
      return;
    case FL_LOC_DO_PAGE_FAULT_find_vma:
      fl_call (sim, cpu, FL_FN_FIND_VMA, FL_LOC_DO_PAGE_FAULT_check_vma, f->a[0], 0, 0, 0);
      return;
    case FL_LOC_DO_PAGE_FAULT_check_vma:
      {
        guint32 ref = f->ret, id = fl_ref_id (ref);
        gboolean good = FALSE;
        if (id && fl_check_vma (sim, cpu, ref))
          {
            const FlVma *v = &st->vmas[id];
            fl_touch (sim, cpu, fl_line_of_vma (st, id), FL_ACCESS_READ);
            good = v->start <= f->a[0] && fl_vma_allows (v, (guint32) f->a[1]);
          }
        fl_ev (sim, FL_EV_CHECK, id, good);
        f->a[2] = ref;
        f->pc = good ? FL_LOC_DO_PAGE_FAULT_handle_mm_fault : FL_LOC_DO_PAGE_FAULT_bad_area;
        return;
      }
    case FL_LOC_DO_PAGE_FAULT_handle_mm_fault:
      fl_call (sim, cpu, FL_FN_HANDLE_MM_FAULT, FL_LOC_DO_PAGE_FAULT_up_read, f->a[0], f->a[1],
               f->a[2], 0);
      return;
    case FL_LOC_DO_PAGE_FAULT_up_read:
      f->a[4] = f->ret;
      release_vma (sim, cpu, f);
      return;
    case FL_LOC_DO_PAGE_FAULT_bad_area:
      /* Kamezawa's patch reaches bad_area's up_read with no mmap_sem held and the reference
       * still taken; the model drops the reference instead (docs/model.md) */
      f->a[4] = FL_VM_FAULT_SIGSEGV;
      release_vma (sim, cpu, f);
      return;
    case FL_LOC_DO_PAGE_FAULT_done:
      if (f->a[4] & FL_VM_FAULT_REFAULT)
        {
          /* nothing was mapped (a migration was waited out): the access faults again */
          fl_ev (sim, FL_EV_CHECK, (guint32) f->a[0], 0);
          f->pc = FL_LOC_DO_PAGE_FAULT_entry;
          return;
        }
      if (f->a[4] & FL_VM_FAULT_SIGSEGV)
        c->flt_err++;
      else if (f->a[4] & FL_VM_FAULT_MAJOR)
        c->flt_maj++;
      else
        c->flt_min++;
      fl_ev (sim, FL_EV_RETURN, (guint32) f->a[0], (guint32) f->a[4]);
      fl_return (sim, cpu, (guint32) f->a[4]);
      return;
    default:
      g_assert_not_reached ();
    }
}

/* find_vma: a0 address; a1 node being visited; a2 best so far. Returns a VMA reference. */
static void
step_find_vma (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  FlMm *mm = &st->g->mm;
  guint64 addr = f->a[0];
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
        f->a[3] = f->a[1];          /* 1: leave mmap_cache alone */
        f->a[1] = fl_vma_ref (st, mm->root);
        f->a[2] = 0;
        f->pc = FL_LOC_FIND_VMA_walk;
        /* the speculative fault's walk has no mmap_sem: the oracle notes what it should find */
        if (fl_caller (sim, cpu)->fn == FL_FN_HANDLE_SPECULATIVE_FAULT)
          fl_walk_begin (sim, cpu, addr);
        return;
      }
    case FL_LOC_FIND_VMA_walk:
      {
        guint32 ref = (guint32) f->a[1], id = fl_ref_id (ref);
        if (id == 0)
          {
            fl_ev (sim, FL_EV_TREE, 0, 0);
            if (f->a[2] && !f->a[3])
              f->pc = FL_LOC_FIND_VMA_store_cache;
            else
              fl_return (sim, cpu, (guint32) f->a[2]);
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
            f->a[2] = ref;
            if (v->start <= addr)
              {
                if (f->a[3])
                  fl_return (sim, cpu, ref);
                else
                  f->pc = FL_LOC_FIND_VMA_store_cache;
                return;
              }
            f->a[1] = fl_vma_ref (st, v->rb.left);
          }
        else
          f->a[1] = fl_vma_ref (st, v->rb.right);
        return;
      }
    case FL_LOC_FIND_VMA_store_cache:
      fl_touch (sim, cpu, FL_LINE_MM_MMAP, FL_ACCESS_WRITE);
      mm->mmap_cache = (guint32) f->a[2];
      fl_ev (sim, FL_EV_STORE, fl_ref_id ((guint32) f->a[2]), fl_ref_id ((guint32) f->a[2]));
      fl_return (sim, cpu, (guint32) f->a[2]);
      return;
    default:
      g_assert_not_reached ();
    }
}

/* handle_mm_fault: a0 address, a1 flags, a2 vma; a4 table being walked, a5 its level. */
static void
step_handle_mm_fault (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  guint64 addr = f->a[0];
  switch (f->pc)
    {
    case FL_LOC_HANDLE_MM_FAULT_pgd:
      st->cpus[cpu].vm_pgfault++;    /* count_vm_event(PGFAULT), first thing in 2.6.32 */
      fl_touch (sim, cpu, FL_LINE_MM_SEM, FL_ACCESS_READ);     /* mm->pgd */
      f->a[4] = st->g->mm.pgd;
      f->a[5] = 4;
      fl_ev (sim, FL_EV_WALK, st->g->mm.pgd, 4);
      f->pc = FL_LOC_HANDLE_MM_FAULT_walk;
      return;
    case FL_LOC_HANDLE_MM_FAULT_walk:
      {
        guint32 table = (guint32) f->a[4];
        guint level = (guint) f->a[5];
        guint64 entry = fl_table_entries (st, table)[fl_walk_index (level, addr)];
        fl_touch (sim, cpu, fl_line_of_table (st, table), FL_ACCESS_READ);
        fl_ev (sim, FL_EV_WALK, table, level);
        if (entry == 0)
          {
            /* pud_alloc / pmd_alloc / pte_alloc: the missing level, then walk it again */
            fl_call (sim, cpu, FL_FN_PGTABLE_ALLOC, FL_LOC_HANDLE_MM_FAULT_walk, table, level - 1,
                     addr, 0);
            return;
          }
        f->a[4] = entry;
        f->a[5] = level - 1;
        if (level - 1 == 1)
          f->pc = FL_LOC_HANDLE_MM_FAULT_read_pte;
        return;
      }
    case FL_LOC_HANDLE_MM_FAULT_read_pte:
      {
        guint32 table = (guint32) f->a[4];
        fl_touch (sim, cpu, fl_line_of_table (st, table), FL_ACCESS_READ);
        guint64 entry = fl_table_entries (st, table)[fl_walk_index (1, addr)];
        fl_ev (sim, FL_EV_PTE, table, fl_walk_index (1, addr));
        f->a[5] = fl_table_ref (st, table);
        f->a[4] = entry;
        f->pc = FL_LOC_HANDLE_MM_FAULT_handle_pte_fault;
        return;
      }
    case FL_LOC_HANDLE_MM_FAULT_handle_pte_fault:
      {
        FlFrame *g = fl_call (sim, cpu, FL_FN_HANDLE_PTE_FAULT, FL_LOC_NONE, addr, f->a[1], f->a[2], 0);
        g->a[4] = f->a[4];
        g->a[5] = f->a[5];
        return;
      }
    default:
      g_assert_not_reached ();
    }
}

/* __pud_alloc / __pmd_alloc / __pte_alloc: a0 parent table, a1 level of the new table,
 * a2 address; a3 the new table. */
static void
step_pgtable_alloc (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  guint32 parent = (guint32) f->a[0];
  guint level = (guint) f->a[1];
  guint32 index = fl_walk_index (level + 1, f->a[2]);
  switch (f->pc)
    {
    case FL_LOC_PGTABLE_ALLOC_alloc:
      {
        guint shift = 12 + 9 * level;
        f->a[3] = fl_table_alloc (sim, level, f->a[2] >> shift << shift);
        fl_charge (sim, cpu, sim->config.cost.zero_page);   /* a zeroed page for the table */
        fl_ev (sim, FL_EV_ALLOC, (guint32) f->a[3], level);
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
          fl_table_entries_rw (st, parent)[index] = f->a[3];
          st->tables[parent].used++;
          fl_ev (sim, FL_EV_STORE, parent, (guint32) f->a[3]);
        }
      else
        {
          /* another thread populated it while we allocated: ours goes back */
          fl_table_free (sim, cpu, (guint32) f->a[3]);
          fl_ev (sim, FL_EV_FREE, (guint32) f->a[3], 0);
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

const FlStepFn fl_fault_step_fns[] = {
  step_do_page_fault, step_find_vma, step_handle_mm_fault, step_pgtable_alloc,
};
