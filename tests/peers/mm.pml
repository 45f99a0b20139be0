/* mm.pml — what the two Promela peers of the race explorer share: two CPUs' interrupt
 * flags, the TLB-flush IPI, one page table with its split PTE lock, one VMA, and the
 * speculative pte_map_lock of the v2 patch. Included by spf-vs-munmap.pml and
 * spf-tlb-ipi.pml. Its one process is cpu0's IPI handler.
 *
 * Written for Faultline from the patch's logic (see docs/peers.md), not from the
 * simulator's code: the point of a peer is to reach the same verdicts another way.
 *
 * Memory is sequentially consistent here, as in SPIN: the patch's smp_wmb/smp_rmb pairs
 * (RB_CLEAR_NODE after rb_erase, the sequence count read before the use) only keep that
 * order on real hardware, and the simulator runs sequentially consistent too.
 *
 * Switches (cpp macros, `spin -DNAME -a MODEL`), named after the simulator's:
 *   PTE_MAP_LOCK_SPIN_IRQS_OFF  pte-map-lock=spin-irqs-off: spin_lock with IRQs still off
 *                               (default: trylock-loop, IRQs back on between tries)
 *   PIN_PAGE_TABLES_NONE        pin-page-tables=none: the walk leaves IRQs on
 *                               (default: irqs-off)
 *   VMA_FREE_IMMEDIATE          vma-free=immediate (used by munmap, spf-vs-munmap.pml)
 */

/* cpu0 runs the speculative fault in both models; cpu1 is the other side */
#define NCPUS 2

bool irqs_off[NCPUS];       /* local_irq_disable() in force */
bool ipi_pending[NCPUS];    /* a TLB-flush IPI sent to this CPU and not yet acknowledged */

/* The page-table pages below the pgd (pud, pmd, PTE page) are unhooked and freed together
 * by munmap's free_pgtables, so one pair of flags stands for all of them. The pgd page
 * itself is never freed. */
bool tables_hooked = true;  /* the pgd entry leads down to the PTE page */
bool tables_freed = false;  /* the pages went back to the allocator after the TLB flush */
byte ptl = 0;               /* the PTE lock, which lives in the PTE page: 0 free, else cpu + 1 */

/* The VMA the fault is in. munmap marks it dead with RB_CLEAR_NODE; vm_sequence is what
 * vma_adjust and mprotect bump (not modeled here: spf-vs-mprotect), so it stays even. */
bool vma_linked = true;     /* reachable from mm->mm_rb */
bool vma_dead = false;      /* RB_CLEAR_NODE(&vma->vm_rb): RB_EMPTY_NODE is true */
byte vma_seq = 0;           /* vma->vm_sequence */
bool vma_freed = false;     /* kmem_cache_free has run: any read of it is a use-after-free */

/* The oracle's use-after-free, as an assertion at every read of the object; pan names the
 * expression that failed, so a test can tell the VMA's from the page tables'. */
#define use_vma()     assert(!vma_freed)
#define use_tables()  assert(!tables_freed)

/* pin_page_tables on x86 is local_irq_disable: tables are freed only after a TLB flush
 * that this CPU must acknowledge, so with IRQs off they stay. */
#ifdef PIN_PAGE_TABLES_NONE
inline pin_page_tables(cpu)   { skip }
inline unpin_page_tables(cpu) { skip }
#else
inline pin_page_tables(cpu)   { irqs_off[cpu] = true }
inline unpin_page_tables(cpu) { irqs_off[cpu] = false }
#endif

/* flush_tlb_func, the IPI handler, on cpu0: in both models cpu1 is the one that flushes
 * and cpu0 the target. It runs between two of cpu0's steps, and only while cpu0's IRQs are
 * on (a pending IPI waits for local_irq_enable). A process of its own that never ends,
 * hence the end label: waiting for an IPI is a valid place to stop. */
active proctype flush_tlb_func()
{
end:
  do
  :: atomic { ipi_pending[0] && !irqs_off[0] -> ipi_pending[0] = false }  /* ack */
  od
}

/* flush_tlb_others: send the IPI, then spin with IRQs on until it is acknowledged. The
 * spin is an await: its iterations change nothing, and a sender that can never go on is
 * then a process blocked away from its end, which pan reports as an invalid end state. */
inline flush_tlb_others(target)
{
  ipi_pending[target] = true;   /* send */
  !ipi_pending[target]          /* wait */
}

/* pte_map_lock(mm, vma, address, pmd, flags, seq, &pte, &ptl), speculative: walk with IRQs
 * off, lock the PTE, re-check the VMA under the lock. `ok` comes back true with the PTE
 * lock held and IRQs on again, false with neither (VM_FAULT_RETRY for the caller). Each
 * statement is one step of the simulator's listing (data/listings/pte-map-lock*.txt).
 *
 * The trylock loop's `goto again` is an await too: with IRQs on, wait until the lock
 * looks free, then walk again from the top. A pending IPI is taken in that window, as the
 * real loop takes it at local_irq_enable. */
inline pte_map_lock(cpu, seq, ok)
{
  do
  :: pin_page_tables(cpu);                    /* pin */
     ok = tables_hooked;                      /* pgd: pgd_none? (the pgd is never freed) */
     if
     :: !ok -> unpin_page_tables(cpu); break  /* out: no page table, retry */
     :: else -> skip
     fi;
     use_tables();                            /* pud, pmd: entries in the lower tables */
#ifdef PTE_MAP_LOCK_SPIN_IRQS_OFF
     atomic { ptl == 0 -> use_tables(); ptl = cpu + 1; ok = true };  /* spin_lock, IRQs off */
#else
     atomic {                                 /* trylock */
       use_tables();
       if
       :: ptl == 0 -> ptl = cpu + 1; ok = true
       :: else -> ok = false
       fi
     };
#endif
     if
     :: !ok -> unpin_page_tables(cpu); ptl == 0   /* retry: IRQs on, wait, walk again */
     :: else ->
        atomic {                              /* vma_is_dead(vma, seq) */
          use_vma();
          ok = !(vma_dead || (vma_seq & 1) || vma_seq != seq)
        };
        if
        :: !ok -> ptl = 0                     /* unlock: pte_unmap_unlock */
        :: else -> skip
        fi;
        unpin_page_tables(cpu);               /* unpin, or out */
        break
     fi
  od
}
