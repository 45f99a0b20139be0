#pragma once

/* Between fl-writers-misc.c and fl-writers-unmap.c: the operations that change the address
 * space share their tree walks and page-table scans. Their locals are named, in
 * core/sim/fl-frame-locals.h. */

#include "fl-sim-internal.h"

G_BEGIN_DECLS

static inline guint64
fl_w_page_align (guint64 len)
{
  return (len + FL_PAGE_SIZE - 1) & ~(guint64) (FL_PAGE_SIZE - 1);
}

/* What one table of `level` maps: a PTE table (level 1) 2 MiB, a pmd table 1 GiB, ... */
static inline guint64
fl_w_span (guint level)
{
  return G_GUINT64_CONSTANT (1) << (12 + 9 * level);
}

static inline void
fl_w_touch_vma (FlSim *sim, guint cpu, guint32 vma, FlAccess access)
{
  if (vma)
    fl_touch (sim, cpu, fl_line_of_vma (&sim->st, vma), access);
}

/* Which PTEs a scan stops at. */
typedef enum {
  FL_W_ENTRY_ANY,         /* anything not none: zap */
  FL_W_ENTRY_NORMAL,      /* present, with a struct page (not the zero page): fork */
  FL_W_ENTRY_PROTECT,     /* present, or a write migration entry: mprotect */
} FlWriterEntryKind;

gboolean fl_writer_walk_prev      (FlSim *sim, guint cpu, guint64 addr, FlWalkPrev *walk);
guint32  fl_writer_walk_prev_vma  (const FlState *st, const FlWalkPrev *walk);

gboolean fl_writer_walk_prepare   (FlSim *sim, guint cpu, guint64 addr, guint64 end,
                                   FlWalkPrepare *walk);
void     fl_writer_link_vma       (FlSim *sim, guint cpu, guint32 id, const FlWalkPrepare *walk,
                                   FlRbCursor *cur);
gboolean fl_writer_insert_color_step (FlSim *sim, guint cpu, FlRbCursor *cur);

guint32  fl_writer_find_pte_table (FlSim *sim, guint cpu, guint64 *cursor, guint64 end);
guint32  fl_writer_next_entry     (const FlState *st, guint32 table, guint32 from, guint32 to,
                                   guint kind);
guint32  fl_writer_index_of       (const FlState *st, guint32 table, guint64 addr);
guint32  fl_writer_split_copy     (FlSim *sim, guint cpu, guint32 vma, guint64 addr,
                                   gboolean new_below);
void     fl_writer_rb_touch       (FlSim *sim, guint cpu, const FlRbCursor *cur,
                                   guint32 root_before);
gboolean fl_writer_rb_erase_step  (FlSim *sim, guint cpu, guint32 vma, FlRbCursor *cur);
void     fl_writer_rss_add        (FlSim *sim, guint cpu, gint64 anon, gint64 file);
gboolean fl_writer_is_anon        (const FlState *st, guint32 page);
void     fl_writer_release_sem    (FlSim *sim, guint cpu, gboolean error, guint8 *released,
                                   FlRwsemOp op, FlLoc here);

void     fl_writer_call_vma_adjust (FlSim *sim, guint cpu, FlLoc resume_at, guint32 vma,
                                    guint32 insert, guint64 start, guint64 end);

/* The step functions of the writers in fl-writers-unmap.c and fl-writers-merge.c (fl-locs.def
 * names them, through the fl_step_* of fl-writers-misc.c). */
void fl_writer_step_do_munmap        (FlSim *sim, guint cpu, FlFrame *f);
void fl_writer_step_vma_adjust       (FlSim *sim, guint cpu, FlFrame *f);
void fl_writer_step_vma_merge        (FlSim *sim, guint cpu, FlFrame *f);
void fl_writer_step_vma_unlink       (FlSim *sim, guint cpu, FlFrame *f);
void fl_writer_step_zap_pte_range    (FlSim *sim, guint cpu, FlFrame *f);
void fl_writer_step_madvise_dontneed (FlSim *sim, guint cpu, FlFrame *f);
void fl_writer_step_try_to_unmap_one (FlSim *sim, guint cpu, FlFrame *f);

G_END_DECLS
