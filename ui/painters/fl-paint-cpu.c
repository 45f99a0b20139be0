/* fl-paint-cpu.c — small questions about the state that several views ask: page-table
 * children, ghost VMAs. What a CPU is doing is decoded in core (fl-cpu-view.h). */
#include "fl-paint-private.h"

guint
fl_table_index (guint level, guint64 address)
{
  return (guint) ((address >> (12 + 9 * (level - 1))) & (FL_PTRS_PER_TABLE - 1));
}

/* The live table an entry of `table` points to for `address`, 0 if none. */
guint32
fl_table_child (const FlState *st, guint32 table, guint64 address)
{
  if (!fl_state_table_live (st, table) || st->tables[table].level <= 1)
    return 0;
  guint64 entry = fl_table_entries (st, table)[fl_table_index (st->tables[table].level, address)];
  guint32 child = (guint32) entry;
  return entry < G_MAXUINT32 && fl_state_table_live (st, child) ? child : 0;
}

/* Unlinked from the tree (RB_CLEAR_NODE: its parent is itself) but not yet freed. */
gboolean
fl_vma_is_ghost (const FlState *st, guint32 id)
{
  if (!fl_state_vma_in_use (st, id))
    return FALSE;
  const FlVma *v = &st->vmas[id];
  return v->state == FL_OBJ_UNLINKED || v->state == FL_OBJ_RCU_PENDING || v->rb.parent == id;
}

/* The simulated time of the whole recorded run: the latest cycle any event reached. After a
 * seek back the state describes the past, but the lanes still show what follows. */
guint64
fl_last_cycle (const FlRun *run)
{
  return fl_run_get_last_cycle (run);
}
