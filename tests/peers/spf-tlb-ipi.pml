/* spf-tlb-ipi.pml — the Promela peer of data/scenarios/spf-tlb-ipi.fault: the cycle the v2
 * patch's cover letter describes. A CPU holding a PTE lock flushes the other CPUs' TLBs
 * and waits for every acknowledgement; another CPU that wants that PTE lock in
 * pte_map_lock spins for it. If it spins with IRQs off it never takes the IPI: neither
 * moves again. v2's pte_map_lock tries the lock and turns IRQs back on between tries.
 *
 * What is modeled, a statement for each step of the simulator's listings that touches
 * the PTE lock, the IRQ flag or the IPI:
 *   cpu1, a speculative write fault on a present read-only PTE (0x7f0000001000):
 *   handle_speculative_fault's pte_map_lock, read_pte and unlock; handle_pte_fault's
 *   pte_map_lock, pte_same, then do_wp_page's copy path: unlock, anon_vma_prepare and
 *   alloc (no statement: nothing another CPU touches), pte_map_lock, pte_same,
 *   ptep_clear_flush (flush_tlb_others with the PTE lock held: send, wait for cpu0's
 *   acknowledgement), set_pte, unlock.
 *   cpu0, a speculative read fault on an empty PTE of the same page table (0x7f0000003000):
 *   handle_speculative_fault's pte_map_lock, read_pte and unlock; do_anonymous_page (the
 *   zero page): pte_map_lock, pte_none and set_pte, unlock.
 *   Both run pte_map_lock of mm.pml, so -DPTE_MAP_LOCK_SPIN_IRQS_OFF changes both, as the
 *   switch changes both CPUs in the simulator.
 *
 * What is abstracted away: everything that no other CPU writes here and so cannot change
 * an outcome. Nothing unmaps or changes the VMA, so find_vma, the range and access checks
 * and the sequence count always pass (pte_map_lock still re-checks it, to the same
 * answer) and RCU protects nothing; the two faults touch two different PTEs, so cpu1's
 * pte_same always holds and the PTE values are left out; do_wp_page's choice between
 * reusing and copying the page is taken as the scenario takes it (copy, which is the path
 * that flushes); pages, the allocator, costs and cache lines.
 *
 * What is checked: deadlock, as pan's invalid end state (a process blocked away from its
 * end: cpu0 spinning on the lock, cpu1 waiting for the acknowledgement), and the
 * assertions of mm.pml. The explorer's verdicts it must agree with
 * (tests/peers/check-peers.py):
 *   default                      no error            explore: complete, no finding
 *   -DPTE_MAP_LOCK_SPIN_IRQS_OFF invalid end state   explore --set
 *                                                    pte-map-lock=spin-irqs-off: deadlock
 */

#include "mm.pml"

/* The speculative fault's `seq`: the VMA's count as read, which nobody changes here. */
#define SEQ 0

active proctype wp_fault()  /* cpu1 */
{
  bool ok;

  pte_map_lock(1, SEQ, ok);         /* handle_speculative_fault */
  ptl = 0;                          /* read_pte, pte_unmap_unlock */
  pte_map_lock(1, SEQ, ok);         /* handle_pte_fault; pte_same, then do_wp_page */
  ptl = 0;                          /* do_wp_page: unlock before copying */
  pte_map_lock(1, SEQ, ok);         /* pte_map_lock; pte_same */
  flush_tlb_others(0);              /* clear_flush, the PTE lock held */
  ptl = 0                           /* set_pte, unlock_done */
}

active proctype read_fault()  /* cpu0 */
{
  bool ok;

  pte_map_lock(0, SEQ, ok);         /* handle_speculative_fault */
  ptl = 0;                          /* read_pte, pte_unmap_unlock */
  pte_map_lock(0, SEQ, ok);         /* do_anonymous_page: the zero page */
  ptl = 0                           /* pte_none, set_pte, unlock */
}
