/* fl-steps.c — which step function runs each modeled function. */
#include "fl-machine.h"

extern const FlStepFn fl_fault_step_fns[];
extern const FlStepFn fl_spf_step_fns[];
extern const FlStepFn fl_pte_step_fns[];
extern const FlStepFn fl_page_step_fns[];
extern const FlStepFn fl_rwsem_step_fns[];
extern const FlStepFn fl_writer_step_fns[];
extern const FlStepFn fl_tlb_step_fn;
extern const FlStepFn fl_anon_vma_step_fn;
extern const FlStepFn fl_refcount_step_fns[];
extern const FlStepFn fl_memcg_step_fn;

/* user, rcu_do_batch and flush_tlb_func are taken by fl_sim_take_step, never as frames. */
FlStepFn
fl_step_fn_of (FlFn fn)
{
  switch (fn)
    {
    case FL_FN_DO_PAGE_FAULT: return fl_fault_step_fns[0];
    case FL_FN_FIND_VMA: return fl_fault_step_fns[1];
    case FL_FN_HANDLE_MM_FAULT: return fl_fault_step_fns[2];
    case FL_FN_PGTABLE_ALLOC: return fl_fault_step_fns[3];
    case FL_FN_HANDLE_SPECULATIVE_FAULT: return fl_spf_step_fns[0];
    case FL_FN_PTE_MAP_LOCK: return fl_spf_step_fns[1];
    case FL_FN_HANDLE_PTE_FAULT: return fl_pte_step_fns[0];
    case FL_FN_DO_ANONYMOUS_PAGE: return fl_pte_step_fns[1];
    case FL_FN_DO_FAULT: return fl_pte_step_fns[2];
    case FL_FN_DO_WP_PAGE: return fl_pte_step_fns[3];
    case FL_FN_DO_SWAP_PAGE: return fl_pte_step_fns[4];
    case FL_FN_ANON_VMA_PREPARE: return fl_anon_vma_step_fn;
    case FL_FN_ALLOC_PAGE: return fl_page_step_fns[0];
    case FL_FN_FREE_PAGES: return fl_page_step_fns[1];
    case FL_FN_LRU_CACHE_ADD: return fl_page_step_fns[2];
    case FL_FN_GENERIC_DOWN_READ_TRYLOCK: return fl_rwsem_step_fns[0];
    case FL_FN_GENERIC_DOWN: case FL_FN_GENERIC_DOWN_WRITE: return fl_rwsem_step_fns[1];
    case FL_FN_GENERIC_UP: case FL_FN_GENERIC_UP_WRITE: return fl_rwsem_step_fns[2];
    case FL_FN_XADD_DOWN_READ_TRYLOCK: return fl_rwsem_step_fns[3];
    case FL_FN_XADD_DOWN: case FL_FN_XADD_DOWN_WRITE: return fl_rwsem_step_fns[4];
    case FL_FN_XADD_UP: case FL_FN_XADD_UP_WRITE: return fl_rwsem_step_fns[5];
    case FL_FN_MMAP_REGION: return fl_writer_step_fns[0];
    case FL_FN_DO_MUNMAP: return fl_writer_step_fns[1];
    case FL_FN_VMA_ADJUST: return fl_writer_step_fns[2];
    case FL_FN_ZAP_PTE_RANGE: return fl_writer_step_fns[3];
    case FL_FN_MPROTECT_FIXUP: return fl_writer_step_fns[4];
    case FL_FN_CHANGE_PTE_RANGE: return fl_writer_step_fns[5];
    case FL_FN_MADVISE_DONTNEED: return fl_writer_step_fns[6];
    case FL_FN_COPY_PTE_RANGE: return fl_writer_step_fns[7];
    case FL_FN_TRY_TO_UNMAP_ONE: return fl_writer_step_fns[8];
    case FL_FN_VMA_MERGE: return fl_writer_step_fns[9];
    case FL_FN_VMA_UNLINK: return fl_writer_step_fns[10];
    case FL_FN_FLUSH_TLB_OTHERS: return fl_tlb_step_fn;
    case FL_FN_FIND_VMA_SPECULATIVE: return fl_refcount_step_fns[0];
    case FL_FN_VMA_PUT: return fl_refcount_step_fns[1];
    case FL_FN_INVALIDATE_VMA: return fl_refcount_step_fns[2];
    case FL_FN_MEM_CGROUP_CHARGE: return fl_memcg_step_fn;
    default: g_error ("%s is not run as a frame", fl_fn_name (fn));
    }
}

/* The write variants of the rwsem functions share their steps with the read variants: the
 * frame's pc names a read-variant line, shown at the same place of the write listing. */
FlFn
fl_fn_steps_of (FlFn fn)
{
  switch (fn)
    {
    case FL_FN_GENERIC_DOWN_WRITE: return FL_FN_GENERIC_DOWN;
    case FL_FN_GENERIC_UP_WRITE: return FL_FN_GENERIC_UP;
    case FL_FN_XADD_DOWN_WRITE: return FL_FN_XADD_DOWN;
    case FL_FN_XADD_UP_WRITE: return FL_FN_XADD_UP;
    default: return fn;
    }
}

FlLoc
fl_frame_loc (const FlFrame *f)
{
  FlFn base = fl_fn_steps_of (f->fn);
  if (base == f->fn || fl_loc_fn (f->pc) != base)
    return f->pc;
  return f->pc - fl_loc_first (base) + fl_loc_first (f->fn);
}
