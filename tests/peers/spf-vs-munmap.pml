/* spf-vs-munmap.pml — the Promela peer of data/scenarios/spf-vs-munmap.fault: a speculative
 * write fault on cpu0 races munmap of the whole VMA on cpu1, in every interleaving.
 *
 * What is modeled, a statement for each step of the simulator's listings (the names after
 * '@' in data/listings/*.txt), the steps the explorer branches between; where it takes
 * several steps that nobody else can tell apart (rb_erase's rebalancing, the pud and pmd
 * levels of the walk, munmap's per-PTE zap), the model takes one:
 *   cpu0, do_page_fault -> handle_speculative_fault (the repaired order, spf-find-vma=
 *   before-pte-lock): rcu_read_lock; find_vma (read the tree's root, then visit the node,
 *   which is the VMA); check_range (its bounds and, with spf-access-check=on, vm_flags);
 *   read_seq (RB_EMPTY_NODE and vm_sequence, give up if dead or odd); pte_map_lock with
 *   the re-check under the lock (mm.pml); read_pte and unlock; handle_pte_fault ->
 *   do_anonymous_page: anon_vma_prepare (reads the VMA), pte_map_lock, pte_none and
 *   set_pte, unlock; rcu_read_unlock. On VM_FAULT_RETRY the locked path: down_read,
 *   find_vma, the access check (SIGSEGV here: the range is gone) or the fault, up_read.
 *   cpu1, do_munmap: down_write; rb_erase; RB_CLEAR_NODE; zap_pte_range under the PTE
 *   lock; free_pgtables unhooks the tables; flush_tlb_others (an IPI cpu0 must
 *   acknowledge with IRQs on); the page tables freed; remove_vma -> free_vma, either
 *   call_rcu (the callback runs after a grace period) or, with -DVMA_FREE_IMMEDIATE, at
 *   once; up_write.
 *   RCU: one reader (cpu0). A grace period that starts at call_rcu ends once that reader
 *   has been seen outside a read-side section; only a section already open at call_rcu
 *   can hold the VMA, since the VMA was unlinked before.
 *
 * What is abstracted away: costs, clocks and cache lines (they order nothing here: the
 * explorer leaves time out too); the rwsem's implementation (generic or xadd: only who
 * excludes whom); the tree's shape (one VMA: the root is the node); mmap_cache (read by
 * find_vma and left alone, spf-mmap-cache=leave: another way to the same pointer, folded
 * into the root's read); the page behind the PTE and the allocator; the PTE's value (cpu0
 * always sees none, the only value munmap writes there); the scenario's other PTE.
 *
 * What is checked, each as an assertion pan names when it fails: no read of the VMA or
 * of the page tables after they were freed (use-after-free: !(vma_freed), !(tables_freed),
 * in mm.pml); no page table freed while a CPU holds the PTE lock that lives in it
 * (freed-while-locked: ptl==0); no present PTE left for the range once both CPUs are done
 * (stale-mapping: !(pte_present)); and, as pan always does, no state where a process is
 * stuck away from its end (deadlock: invalid end state). The explorer's verdicts it must
 * agree with (tests/peers/check-peers.py):
 *   default                      no error          explore spf-vs-munmap: complete
 *   -DVMA_FREE_IMMEDIATE         use-after-free    explore spf-vs-munmap
 *                                (of the VMA)        --set vma-free=immediate: the same
 *   -DPIN_PAGE_TABLES_NONE       use-after-free    explore spf-ptl-vs-munmap (the same CPUs
 *                                (of the tables),    and operations, another [schedule])
 *                                freed-while-locked  --set pin-page-tables=none: the same
 *   -DPTE_MAP_LOCK_SPIN_IRQS_OFF no error          explore spf-vs-munmap
 *                                                    --set pte-map-lock=spin-irqs-off:
 *                                                    complete (munmap flushes after it drops
 *                                                    the PTE lock, so the IRQs-off spinner
 *                                                    never holds a flush up)
 */

#include "mm.pml"

bool in_rcu = false;        /* cpu0's RCU read-side nesting (0 or 1) */
bool writer = false;        /* mmap_sem held for writing */
byte readers = 0;           /* mmap_sem's readers */
bool pte_present = false;   /* the PTE of the faulting address */
bool fault_done = false, munmap_done = false;

/* free_vma_rcu, queued by call_rcu: the grace period, then kmem_cache_free */
proctype free_vma_rcu()
{
  !in_rcu;                  /* every reader that was inside has left */
  vma_freed = true
}

active proctype fault()     /* cpu0 */
{
  bool found, ok, resolved = false;
  byte seq;

  /* handle_speculative_fault */
  in_rcu = true;                                   /* rcu_read_lock */
  found = vma_linked;                              /* find_vma: mm->mm_rb.rb_node */
  if
  :: !found -> goto out
  :: else -> use_vma()                             /* find_vma: visit the node */
  fi;
  use_vma();                                       /* check_range */
  atomic { use_vma(); ok = !vma_dead; seq = vma_seq };  /* read_seq */
  if
  :: !ok || (seq & 1) -> goto out
  :: else -> skip
  fi;
  pte_map_lock(0, seq, ok);
  if
  :: !ok -> goto out
  :: else -> skip
  fi;
  atomic { use_tables(); ptl = 0 };                /* read_pte, pte_unmap_unlock */
  /* handle_pte_fault: the PTE is none, the VMA anonymous: do_anonymous_page, a write */
  use_vma();                                       /* anon_vma_prepare */
  pte_map_lock(0, seq, ok);
  if
  :: !ok -> goto out
  :: else -> skip
  fi;
  atomic { use_tables(); pte_present = true };     /* pte_none, set_pte */
  ptl = 0;                                         /* unlock */
  resolved = true;
out:
  in_rcu = false;                                  /* rcu_read_unlock */
  if
  :: resolved -> goto done                         /* spec_result: not VM_FAULT_RETRY */
  :: else -> skip
  fi;

  /* do_page_fault's locked path: mmap_sem keeps the VMA and the tables alive */
  atomic { !writer -> readers++ };                 /* down_read */
  if
  :: vma_linked ->                                 /* find_vma, check_vma */
     use_vma();
     atomic { ptl == 0 -> use_tables(); ptl = 1 }; /* pte_offset_map_lock */
     pte_present = true;
     ptl = 0
  :: else -> skip                                  /* bad_area: SIGSEGV */
  fi;
  readers--;                                       /* up_read */
done:
  fault_done = true
}

active proctype munmap()    /* cpu1 */
{
  atomic { !writer && readers == 0 -> writer = true };  /* down_write */
  vma_linked = false;                              /* rb_erase */
  vma_dead = true;                                 /* RB_CLEAR_NODE, after smp_wmb */
  atomic { ptl == 0 -> use_tables(); ptl = 2 };    /* zap_pte_range: lock */
  pte_present = false;                             /* zap */
  ptl = 0;                                         /* unlock */
  tables_hooked = false;                           /* free_pgtables */
  flush_tlb_others(0);                             /* flush: send, wait for cpu0 */
  atomic { assert(ptl == 0); tables_freed = true };  /* free_tables (freed-while-locked) */
#ifdef VMA_FREE_IMMEDIATE
  vma_freed = true;                                /* remove_vma: kmem_cache_free */
#else
  run free_vma_rcu();                              /* remove_vma: call_rcu */
#endif
  writer = false;                                  /* up_write */
  munmap_done = true
}

/* the oracle's stale-mapping check, once both CPUs are done */
active proctype oracle()
{
  fault_done && munmap_done;
  assert(!pte_present)
}
