/* fl-cpu-fault.c — the objects a CPU's fault works on: the VMA find_vma visits, the VMA the
 * fault holds, the page table its walk stands on, the PTE lock it spins on, read from the
 * frames' named locals (core/sim/fl-frame-locals.h). */
#include "fl-cpu-view-private.h"
#include "fl-sim-internal.h"

#include <string.h>

/* Ids a view may follow: a frame keeps the ids of objects that may be gone since. */
gboolean
fl_state_vma_in_use (const FlState *st, guint32 id)
{
  return id != 0 && id < st->sizes.nvmas && st->vmas[id].state != FL_OBJ_FREE;
}

/* Does a VMA still hold its file's reference (remove_vma left it for the VMA's RCU
 * callback, fl-vm-file.c)? */
gboolean
fl_state_vma_holds_file (const FlState *st, guint32 id)
{
  return fl_state_vma_in_use (st, id) && st->vmas[id].vm_file != 0 && !st->vmas[id].file_put;
}

gboolean
fl_state_table_live (const FlState *st, guint32 id)
{
  return id != 0 && id < st->sizes.ntables && st->tables[id].state == FL_OBJ_LIVE;
}

static gboolean
is_fault_fn (guint fn)
{
  return (fl_fn_kinds (fn) & FL_FN_KIND_FAULT) != 0;
}

/* The VMA a fault frame holds (a reference), 0 for the functions that hold none. */
static guint32
held_vma_of (const FlFrame *f)
{
  switch (f->fn)
    {
    case FL_FN_DO_PAGE_FAULT: return f->l.do_page_fault.vma;
    case FL_FN_HANDLE_MM_FAULT: return f->l.handle_mm_fault.vma;
    case FL_FN_PTE_MAP_LOCK: return f->l.pte_map_lock.vma;
    case FL_FN_HANDLE_SPECULATIVE_FAULT:
    case FL_FN_HANDLE_PTE_FAULT: case FL_FN_DO_ANONYMOUS_PAGE: case FL_FN_DO_FAULT:
    case FL_FN_DO_WP_PAGE: case FL_FN_DO_SWAP_PAGE:
      return f->l.fault.vma;
    default:
      return 0;
    }
}

/* The table a fault frame's walk stands on, and whether it is past the walk, at the PTE. */
static guint32
walk_table_of (const FlState *st, const FlFrame *f, gboolean *pte)
{
  *pte = FALSE;
  switch (f->fn)
    {
    case FL_FN_PTE_MAP_LOCK:
      *pte = f->pc == FL_LOC_PTE_MAP_LOCK_vma_is_dead || f->pc == FL_LOC_PTE_MAP_LOCK_unpin;
      if (f->pc == FL_LOC_PTE_MAP_LOCK_pin || f->pc == FL_LOC_PTE_MAP_LOCK_pgd)
        return st->g->mm.pgd;
      return fl_ref_id (f->l.pte_map_lock.table);
    case FL_FN_HANDLE_MM_FAULT:
      if (f->pc == FL_LOC_HANDLE_MM_FAULT_walk || f->pc == FL_LOC_HANDLE_MM_FAULT_read_pte)
        return f->l.handle_mm_fault.table;
      if (f->pc == FL_LOC_HANDLE_MM_FAULT_handle_pte_fault)
        {
          *pte = TRUE;
          return fl_ref_id (f->l.handle_mm_fault.pte_table);
        }
      return 0;
    case FL_FN_HANDLE_SPECULATIVE_FAULT:
    case FL_FN_HANDLE_PTE_FAULT: case FL_FN_DO_ANONYMOUS_PAGE: case FL_FN_DO_FAULT:
    case FL_FN_DO_WP_PAGE: case FL_FN_DO_SWAP_PAGE:
      *pte = TRUE;
      return fl_ref_id (f->l.fault.table);
    default:
      return 0;
    }
}

/**
 * fl_cpu_fault_decode:
 * @st: a state
 * @cpu: one of its CPUs
 * @out: (out caller-allocates): the objects @cpu's fault works on, all 0 outside a fault
 */
void
fl_cpu_fault_decode (const FlState *st, guint cpu, FlCpuFault *out)
{
  g_return_if_fail (st != NULL && out != NULL);
  memset (out, 0, sizeof *out);
  if (cpu >= st->sizes.ncpus)
    return;
  const FlCpu *c = &st->cpus[cpu];
  const FlFrame *frames = fl_cpu_stack (st, cpu)->frames;
  guint depth = MIN (c->depth, FL_MAX_DEPTH);
  guint first_fault = depth;
  for (guint i = 0; i < depth; i++)
    if (frames[i].fn == FL_FN_DO_PAGE_FAULT)
      {
        first_fault = i;
        break;
      }
  out->in_fault = first_fault < depth;
  if (out->in_fault)
    out->address = frames[first_fault].l.do_page_fault.addr;

  for (guint i = 0; i < depth; i++)
    {
      const FlFrame *f = &frames[i];
      /* Kamezawa's fault is speculative from its lookup to its vma_put */
      if ((fl_fn_kinds (f->fn) & FL_FN_KIND_SPECULATIVE)
          || (f->fn == FL_FN_DO_PAGE_FAULT && f->l.do_page_fault.by_reference))
        out->speculative = TRUE;
      if (f->fn == FL_FN_FIND_VMA_SPECULATIVE && i + 1 == depth
          && f->pc == FL_LOC_FIND_VMA_SPECULATIVE_walk)
        {
          guint32 id = fl_ref_id (f->l.find_vma_spec.node);
          if (fl_state_vma_in_use (st, id))
            out->visiting_vma = id;
        }
      if (f->fn == FL_FN_FIND_VMA && i + 1 == depth && f->pc == FL_LOC_FIND_VMA_walk)
        {
          guint32 id = fl_ref_id (f->l.find_vma.node);
          if (fl_state_vma_in_use (st, id))
            out->visiting_vma = id;
        }
      if (i >= first_fault)
        {
          guint32 id = fl_ref_id (held_vma_of (f));
          if (fl_state_vma_in_use (st, id))
            out->held_vma = id;
        }
    }

  /* the oracle's record of a walk a rotation misled (fl-oracle-walk.c) */
  if (c->spf_walk_vma != 0 && c->spf_hidden_cpu != 0
      && fl_state_vma_in_use (st, fl_ref_id (c->spf_walk_vma)))
    {
      out->hidden_vma = fl_ref_id (c->spf_walk_vma);
      out->hidden_by = c->spf_hidden_cpu - 1u;
    }

  /* pte_map_lock keeps the table it failed to lock while it waits for it */
  if (depth > 0 && c->status == FL_CPU_SPIN && frames[depth - 1].fn == FL_FN_PTE_MAP_LOCK)
    {
      guint32 table = fl_ref_id (frames[depth - 1].l.pte_map_lock.table);
      if (fl_state_table_live (st, table) && st->tables[table].level == 1)
        out->spin_table = table;
    }

  if (!out->in_fault)
    return;
  /* where the walk stands: the innermost fault frame that knows */
  for (guint i = depth; i-- > first_fault;)
    {
      const FlFrame *f = &frames[i];
      if (!is_fault_fn (f->fn))
        continue;
      gboolean pte;
      guint32 table = walk_table_of (st, f, &pte);
      if (fl_state_table_live (st, table))
        {
          out->walk_table = table;
          out->at_pte = pte && st->tables[table].level == 1;
          return;
        }
    }
}
