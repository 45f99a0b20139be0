/* fl-spf.c — the speculative fault of the v2 patch: handle_speculative_fault and
 * pte_map_lock. No mmap_sem: the VMA is found under RCU, its sequence count remembered, and
 * every later pte_map_lock re-checks that the VMA is neither unlinked (RB_CLEAR_NODE) nor
 * changed (vm_sequence) before touching the PTE; otherwise VM_FAULT_RETRY sends the fault
 * back to the locked path. */
#include "fl-sim-internal.h"

/* The repaired order looks the VMA up first and takes the PTE lock only through
 * pte_map_lock(vma, seq), which re-checks the VMA under the lock with IRQs still off. v2 took
 * the lock first (pte_map_lock(NULL) turns IRQs back on before returning) and held it across
 * find_vma: munmap's TLB flush could then complete and free the locked page table. */
static gboolean
vma_first (FlSim *sim)
{
  return sim->config.spf_find_vma == FL_SPF_FIND_VMA_BEFORE_PTE_LOCK;
}

/* Give up with VM_FAULT_RETRY: through out_unmap when the PTE lock is held (v2's order
 * before read_pte), straight to the RCU unlock otherwise. */
static void
give_up (FlSim *sim, FlFrame *f)
{
  f->ret = FL_VM_FAULT_RETRY;
  f->pc = vma_first (sim) ? FL_LOC_HANDLE_SPECULATIVE_FAULT_rcu_read_unlock
                          : FL_LOC_HANDLE_SPECULATIVE_FAULT_out_unmap;
}

/* handle_speculative_fault: the fault's locals are handle_pte_fault's, which it calls. */
static void
step_hsf (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  FlLocalsFault *l = &f->l.fault;
  guint64 addr = l->addr;
  switch (f->pc)
    {
    case FL_LOC_HANDLE_SPECULATIVE_FAULT_rcu_read_lock:
      FL_CPU_RW (st, cpu, vm_pgfault)++;    /* count_vm_event(PGFAULT): a per-CPU count, no line */
      fl_rcu_read_lock (sim, cpu);
      f->pc = vma_first (sim) ? FL_LOC_HANDLE_SPECULATIVE_FAULT_find_vma
                              : FL_LOC_HANDLE_SPECULATIVE_FAULT_pte_map_lock;
      return;
    case FL_LOC_HANDLE_SPECULATIVE_FAULT_pte_map_lock:
      /* v2: walk to the PTE and lock it first, with no VMA yet to check; repaired: with the
       * VMA and its sequence count, checked again under the lock */
      {
        FlLoc next = vma_first (sim) ? FL_LOC_HANDLE_SPECULATIVE_FAULT_read_pte
                                     : FL_LOC_HANDLE_SPECULATIVE_FAULT_find_vma;
        FlLocalsPteMapLock *lock = &fl_call (sim, cpu, FL_FN_PTE_MAP_LOCK, next,
                                             (guint32) addr)->l.pte_map_lock;
        lock->addr = addr;
        lock->flags = l->flags;
        if (vma_first (sim))
          {
            lock->vma = l->vma;
            lock->seq = l->seq;
          }
        return;
      }
    case FL_LOC_HANDLE_SPECULATIVE_FAULT_find_vma:
      if (!vma_first (sim) && !f->ret)
        {
          /* no page table yet (first touch of the range): only the locked path allocates */
          fl_ev (sim, FL_EV_CHECK, 0, 0);
          f->ret = FL_VM_FAULT_RETRY;
          f->pc = FL_LOC_HANDLE_SPECULATIVE_FAULT_rcu_read_unlock;
          return;
        }
      if (!vma_first (sim))
        l->table = f->ret;        /* pte_map_lock's, locked */
      /* keep_cache: do not update mm->mmap_cache. The v2 patch does, without mmap_sem, and can
       * leave it pointing at a VMA that munmap has just detached (freed after the grace
       * period, then read by the next locked fault); later versions skipped the cache, and
       * so does spf-mmap-cache=leave, the default. */
      {
        FlLocalsFindVma *find = &fl_call (sim, cpu, FL_FN_FIND_VMA,
                                          FL_LOC_HANDLE_SPECULATIVE_FAULT_check_range,
                                          (guint32) addr)->l.find_vma;
        find->addr = addr;
        find->keep_cache = sim->config.spf_mmap_cache == FL_SPF_MMAP_CACHE_LEAVE;
        return;
      }
    case FL_LOC_HANDLE_SPECULATIVE_FAULT_check_range:
      {
        guint32 ref = f->ret, id = fl_ref_id (ref);
        gboolean inside = FALSE;
        l->vma = ref;
        /* a walk that missed a VMA the tree held all along (a rotation under it) retries
         * below like any other miss; the oracle counts it and says why */
        fl_walk_end (sim, cpu, addr, ref);
        if (id && fl_check_vma (sim, cpu, ref))
          {
            fl_touch (sim, cpu, fl_line_of_vma (st, id), FL_ACCESS_READ);
            inside = st->vmas[id].start <= addr && addr < st->vmas[id].end;
            FL_CPU_RW (st, cpu, spf_vm_flags) = st->vmas[id].flags;   /* for the oracle */
            /* the access check do_page_fault makes under mmap_sem; v2 left it out, later
             * versions added it (spf-access-check=on): without it a write fault in a
             * read-only VMA succeeds having mapped nothing writable, and the access faults
             * again for ever where 2.6.32 sent SIGSEGV. Failing it sends the fault to the
             * locked path, which refuses it. */
            if (sim->config.spf_access_check)
              inside = inside && fl_vma_allows (&st->vmas[id], l->flags);
          }
        fl_ev (sim, FL_EV_CHECK, id, inside);
        if (inside)
          f->pc = FL_LOC_HANDLE_SPECULATIVE_FAULT_read_seq;
        else
          give_up (sim, f);
        return;
      }
    case FL_LOC_HANDLE_SPECULATIVE_FAULT_read_seq:
      {
        guint32 id = fl_ref_id (l->vma);
        if (!fl_check_vma (sim, cpu, l->vma))
          {
            give_up (sim, f);
            return;
          }
        FlRbAccess acc = fl_vma_rb_access (st);
        const FlVma *v = &st->vmas[id];
        fl_touch (sim, cpu, fl_line_of_vma (st, id), FL_ACCESS_READ);
        gboolean dead = fl_rb_empty_node (&acc, id);
        l->seq = v->seq;
        /* an odd count means a writer is inside vma_adjust/mprotect right now */
        gboolean bad = dead || (sim->config.spf_seqcheck && (v->seq & 1));
        fl_ev (sim, FL_EV_CHECK, id, !bad);
        sim->ev.val = (guint32) ((bad ? 0u : 1u) | (v->seq << 1));
        if (bad)
          give_up (sim, f);
        else
          f->pc = vma_first (sim) ? FL_LOC_HANDLE_SPECULATIVE_FAULT_pte_map_lock
                                  : FL_LOC_HANDLE_SPECULATIVE_FAULT_read_pte;
        return;
      }
    case FL_LOC_HANDLE_SPECULATIVE_FAULT_read_pte:
      {
        if (vma_first (sim) && !f->ret)
          {
            /* no page table, or the VMA died before we held the lock: nothing is locked */
            fl_ev (sim, FL_EV_CHECK, 0, 0);
            f->ret = FL_VM_FAULT_RETRY;
            f->pc = FL_LOC_HANDLE_SPECULATIVE_FAULT_rcu_read_unlock;
            return;
          }
        if (vma_first (sim))
          l->table = f->ret;      /* pte_map_lock's, locked */
        guint32 table = fl_ref_id (l->table);
        fl_check_table (sim, cpu, l->table);
        fl_touch (sim, cpu, fl_line_of_table (st, table), FL_ACCESS_READ);
        l->entry = fl_table_entries (st, table)[fl_walk_index (1, addr)];
        fl_lock_release (sim, cpu, FL_LOCK_ID (FL_LOCK_PTL, table));
        fl_ev (sim, FL_EV_PTE, table, fl_walk_index (1, addr));
        f->pc = FL_LOC_HANDLE_SPECULATIVE_FAULT_handle_pte_fault;
        return;
      }
    case FL_LOC_HANDLE_SPECULATIVE_FAULT_handle_pte_fault:
      {
        fl_call (sim, cpu, FL_FN_HANDLE_PTE_FAULT, FL_LOC_HANDLE_SPECULATIVE_FAULT_rcu_read_unlock,
                 (guint32) addr)->l.fault = *l;
        return;
      }
    case FL_LOC_HANDLE_SPECULATIVE_FAULT_rcu_read_unlock:
      fl_rcu_read_unlock (sim, cpu);
      if (!(f->ret & (FL_VM_FAULT_RETRY | FL_VM_FAULT_SIGSEGV)))
        fl_oracle_fault_allowed (sim, cpu, addr, l->flags, l->vma);
      fl_return (sim, cpu, f->ret);
      return;
    case FL_LOC_HANDLE_SPECULATIVE_FAULT_out_unmap:
      fl_lock_release (sim, cpu, FL_LOCK_ID (FL_LOCK_PTL, fl_ref_id (l->table)));
      f->ret = FL_VM_FAULT_RETRY;
      f->pc = FL_LOC_HANDLE_SPECULATIVE_FAULT_rcu_read_unlock;
      return;
    default:
      g_assert_not_reached ();
    }
}

static gboolean
pinning (FlSim *sim)
{
  return sim->config.pin_page_tables == FL_PIN_PAGE_TABLES_IRQS_OFF;
}

/* Is the VMA unlinked, or changed since `seq` was read? (vma_is_dead of the patch) */
static gboolean
vma_is_dead (FlSim *sim, guint32 id, guint32 seq)
{
  FlRbAccess acc = fl_vma_rb_access (&sim->st);
  guint32 now = sim->st.vmas[id].seq;
  gboolean dead = fl_rb_empty_node (&acc, id);
  if (sim->config.spf_seqcheck)
    dead = dead || (now & 1) || now != seq;
  return dead;
}

/* pte_map_lock. Returns the PTE table (a reference) with its lock held, or 0. */
static void
step_pte_map_lock (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  FlLocalsPteMapLock *l = &f->l.pte_map_lock;
  guint64 addr = l->addr;
  switch (f->pc)
    {
    case FL_LOC_PTE_MAP_LOCK_locked:
      if (!(l->flags & FL_FAULT_SPEC))
        {
          /* under mmap_sem nothing can free the tables: pte_offset_map_lock */
          guint32 table = fl_ref_id (l->table);
          l->table = table;
          f->pc = FL_LOC_PTE_MAP_LOCK_unpin;
          fl_lock_try (sim, cpu, FL_LOCK_ID (FL_LOCK_PTL, table));
          return;
        }
      fl_ev (sim, FL_EV_CHECK, 0, 1);
      f->pc = FL_LOC_PTE_MAP_LOCK_pin;
      return;
    case FL_LOC_PTE_MAP_LOCK_pin:
      /* pin_page_tables: with IRQs off, the TLB-flush IPI that precedes freeing page tables
       * cannot complete, so the tables we walk stay allocated */
      if (pinning (sim))
        fl_irqs_off (sim, cpu);
      fl_ev (sim, FL_EV_IRQ, cpu, pinning (sim));
      f->pc = FL_LOC_PTE_MAP_LOCK_pgd;
      return;
    case FL_LOC_PTE_MAP_LOCK_pgd:
    case FL_LOC_PTE_MAP_LOCK_pud:
    case FL_LOC_PTE_MAP_LOCK_pmd:
      {
        guint level = 4 - (f->pc - FL_LOC_PTE_MAP_LOCK_pgd);
        guint32 table;
        if (level == 4)
          {
            fl_touch (sim, cpu, FL_LINE_MM_SEM, FL_ACCESS_READ);     /* mm->pgd */
            table = st->g->mm.pgd;
            l->table = fl_table_ref (st, table);
          }
        table = fl_ref_id (l->table);
        if (!fl_check_table (sim, cpu, l->table))
          {
            f->pc = FL_LOC_PTE_MAP_LOCK_out;
            return;
          }
        fl_touch (sim, cpu, fl_line_of_table (st, table), FL_ACCESS_READ);
        guint32 next = (guint32) fl_table_entries (st, table)[fl_walk_index (level, addr)];
        fl_ev (sim, FL_EV_WALK, table, level);
        if (next == 0)
          {
            f->pc = FL_LOC_PTE_MAP_LOCK_out;
            return;
          }
        l->table = fl_table_ref (st, next);
        f->pc = level == 2 ? FL_LOC_PTE_MAP_LOCK_trylock : f->pc + 1;
        return;
      }
    case FL_LOC_PTE_MAP_LOCK_trylock:
      {
        guint32 table = fl_ref_id (l->table);
        guint32 lock = FL_LOCK_ID (FL_LOCK_PTL, table);
        if (!fl_check_table (sim, cpu, l->table))
          {
            f->pc = FL_LOC_PTE_MAP_LOCK_out;
            return;
          }
        if (sim->config.pte_map_lock == FL_PTE_MAP_LOCK_SPIN_IRQS_OFF)
          {
            /* the version that deadlocked: a plain spin_lock, IRQs still off */
            f->pc = l->vma ? FL_LOC_PTE_MAP_LOCK_vma_is_dead : FL_LOC_PTE_MAP_LOCK_unpin;
            fl_lock_try (sim, cpu, lock);
            return;
          }
        if (fl_spin_trylock (sim, cpu, lock))
          f->pc = l->vma ? FL_LOC_PTE_MAP_LOCK_vma_is_dead : FL_LOC_PTE_MAP_LOCK_unpin;
        else
          f->pc = FL_LOC_PTE_MAP_LOCK_retry;
        return;
      }
    case FL_LOC_PTE_MAP_LOCK_retry:
      {
        /* unpin (IRQs on: a pending TLB flush is served), wait for the lock to be released,
         * then walk again from the top */
        guint32 table = fl_ref_id (l->table);
        if (pinning (sim))
          fl_irqs_on (sim, cpu);
        f->pc = FL_LOC_PTE_MAP_LOCK_pin;
        if (fl_lock_holder (sim, FL_LOCK_ID (FL_LOCK_PTL, table)) >= 0)
          fl_spin_wait_released (sim, cpu, FL_LOCK_ID (FL_LOCK_PTL, table));
        else
          fl_ev (sim, FL_EV_IRQ, cpu, 0);
        return;
      }
    case FL_LOC_PTE_MAP_LOCK_vma_is_dead:
      {
        guint32 ref = l->vma, id = fl_ref_id (ref);
        gboolean dead = TRUE;
        if (fl_check_vma (sim, cpu, ref))
          {
            fl_touch (sim, cpu, fl_line_of_vma (st, id), FL_ACCESS_READ);
            dead = vma_is_dead (sim, id, l->seq);
          }
        else
          {
            /* the freed VMA's memory is read anyway: with immediate freeing nothing stops it */
            dead = vma_is_dead (sim, id, l->seq);
          }
        fl_ev (sim, FL_EV_CHECK, id, !dead);
        if (dead)
          {
            fl_lock_release (sim, cpu, FL_LOCK_ID (FL_LOCK_PTL, fl_ref_id (l->table)));
            sim->ev.kind = FL_EV_CHECK;
            sim->ev.obj = id;
            sim->ev.val = 0;
            f->pc = FL_LOC_PTE_MAP_LOCK_out;
            return;
          }
        f->pc = FL_LOC_PTE_MAP_LOCK_unpin;
        return;
      }
    case FL_LOC_PTE_MAP_LOCK_unpin:
      if ((l->flags & FL_FAULT_SPEC) && pinning (sim))
        fl_irqs_on (sim, cpu);
      fl_ev (sim, FL_EV_RETURN, fl_ref_id (l->table), 1);
      fl_return (sim, cpu, fl_table_ref (st, fl_ref_id (l->table)));
      return;
    case FL_LOC_PTE_MAP_LOCK_out:
      if ((l->flags & FL_FAULT_SPEC) && pinning (sim))
        fl_irqs_on (sim, cpu);
      fl_ev (sim, FL_EV_RETURN, 0, 0);
      fl_return (sim, cpu, 0);
      return;
    default:
      g_assert_not_reached ();
    }
}

const FlStepFn fl_step_handle_speculative_fault = step_hsf;
const FlStepFn fl_step_pte_map_lock = step_pte_map_lock;
