/* fl-paint-cpu.c — what a CPU is doing, read from its stack of frames, and small questions
 * about the state that several views ask. The frames' locals mean what the step functions
 * of core/ say they mean (fl-fault.c, fl-spf.c, fl-pte-fault.c). */
#include "fl-paint-private.h"

#include <string.h>

static gboolean
valid_vma (const FlState *st, guint32 id)
{
  return id != 0 && id < st->sizes.nvmas && st->vmas[id].state != FL_OBJ_FREE;
}

static gboolean
valid_table (const FlState *st, guint32 id)
{
  return id != 0 && id < st->sizes.ntables && st->tables[id].state == FL_OBJ_LIVE;
}

guint
fl_table_index (guint level, guint64 address)
{
  return (guint) ((address >> (12 + 9 * (level - 1))) & (FL_PTRS_PER_TABLE - 1));
}

/* The live table an entry of `table` points to for `address`, 0 if none. */
guint32
fl_table_child (const FlState *st, guint32 table, guint64 address)
{
  if (!valid_table (st, table) || st->tables[table].level <= 1)
    return 0;
  guint64 entry = fl_table_entries (st, table)[fl_table_index (st->tables[table].level, address)];
  guint32 child = (guint32) entry;
  return entry < G_MAXUINT32 && valid_table (st, child) ? child : 0;
}

/* Unlinked from the tree (RB_CLEAR_NODE: its parent is itself) but not yet freed. */
gboolean
fl_vma_is_ghost (const FlState *st, guint32 id)
{
  if (!valid_vma (st, id))
    return FALSE;
  const FlVma *v = &st->vmas[id];
  return v->state == FL_OBJ_UNLINKED || v->state == FL_OBJ_RCU_PENDING || v->rb.parent == id;
}

static gboolean
is_fault_fn (guint fn)
{
  switch (fn)
    {
    case FL_FN_DO_PAGE_FAULT: case FL_FN_HANDLE_SPECULATIVE_FAULT: case FL_FN_PTE_MAP_LOCK:
    case FL_FN_HANDLE_MM_FAULT: case FL_FN_PGTABLE_ALLOC: case FL_FN_HANDLE_PTE_FAULT:
    case FL_FN_DO_ANONYMOUS_PAGE: case FL_FN_DO_FAULT: case FL_FN_DO_WP_PAGE:
    case FL_FN_DO_SWAP_PAGE: case FL_FN_FIND_VMA:
      return TRUE;
    default:
      return FALSE;
    }
}

void
fl_cpu_doing (const FlState *st, guint cpu, FlCpuDoing *out)
{
  memset (out, 0, sizeof *out);
  if (cpu >= st->sizes.ncpus)
    return;
  const FlCpu *c = &st->cpus[cpu];
  guint depth = MIN (c->depth, FL_MAX_DEPTH);
  guint first_fault = depth;
  for (guint i = 0; i < depth; i++)
    if (c->frames[i].fn == FL_FN_DO_PAGE_FAULT)
      {
        first_fault = i;
        break;
      }
  out->in_fault = first_fault < depth;
  if (out->in_fault)
    out->address = c->frames[first_fault].a[0];

  for (guint i = 0; i < depth; i++)
    {
      const FlFrame *f = &c->frames[i];
      if (f->fn == FL_FN_HANDLE_SPECULATIVE_FAULT)
        out->speculative = TRUE;
      if (f->fn == FL_FN_FIND_VMA && i + 1 == depth && f->pc == FL_LOC_FIND_VMA_walk)
        {
          guint32 id = (guint32) f->a[1] & 0xffff;
          if (valid_vma (st, id))
            out->visiting_vma = id;
        }
      if (i >= first_fault && f->fn != FL_FN_FIND_VMA && f->fn != FL_FN_PGTABLE_ALLOC)
        {
          guint32 id = (guint32) f->a[2] & 0xffff;
          if (valid_vma (st, id))
            out->held_vma = id;
        }
    }

  /* pte_map_lock keeps the table it failed to lock in a[4] while it waits for it */
  if (depth > 0 && c->status == FL_CPU_SPIN && c->frames[depth - 1].fn == FL_FN_PTE_MAP_LOCK)
    {
      guint32 table = (guint32) c->frames[depth - 1].a[4] & 0xffff;
      if (valid_table (st, table) && st->tables[table].level == 1)
        out->spin_table = table;
    }

  if (!out->in_fault || depth == 0)
    return;
  /* where the walk stands: the innermost fault frame that knows */
  for (guint i = depth; i-- > first_fault;)
    {
      const FlFrame *f = &c->frames[i];
      if (!is_fault_fn (f->fn))
        continue;
      guint32 table = 0;
      gboolean pte = FALSE;
      switch (f->fn)
        {
        case FL_FN_PTE_MAP_LOCK:
          if (f->pc == FL_LOC_PTE_MAP_LOCK_pin || f->pc == FL_LOC_PTE_MAP_LOCK_pgd)
            table = st->g->mm.pgd;
          else
            table = (guint32) f->a[4] & 0xffff;
          pte = f->pc == FL_LOC_PTE_MAP_LOCK_vma_is_dead || f->pc == FL_LOC_PTE_MAP_LOCK_unpin;
          break;
        case FL_FN_HANDLE_MM_FAULT:
          if (f->pc == FL_LOC_HANDLE_MM_FAULT_walk || f->pc == FL_LOC_HANDLE_MM_FAULT_read_pte)
            table = (guint32) f->a[4] & 0xffff;
          else if (f->pc == FL_LOC_HANDLE_MM_FAULT_handle_pte_fault)
            {
              table = (guint32) f->a[5] & 0xffff;
              pte = TRUE;
            }
          break;
        case FL_FN_HANDLE_SPECULATIVE_FAULT:
        case FL_FN_HANDLE_PTE_FAULT: case FL_FN_DO_ANONYMOUS_PAGE: case FL_FN_DO_FAULT:
        case FL_FN_DO_WP_PAGE: case FL_FN_DO_SWAP_PAGE:
          table = (guint32) f->a[5] & 0xffff;
          pte = TRUE;
          break;
        default:
          break;
        }
      if (valid_table (st, table))
        {
          out->walk_table = table;
          out->at_pte = pte && st->tables[table].level == 1;
          return;
        }
    }
}

/* The simulated time of the whole recorded run: the latest cycle any event reached. After a
 * seek back the state describes the past, but the lanes still show what follows. */
guint64
fl_last_cycle (FlSim *sim)
{
  return fl_sim_get_last_cycle (sim);
}
