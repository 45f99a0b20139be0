#pragma once

/* Between fl-writers-misc.c and fl-writers-unmap.c: the operations that change the address
 * space share their tree walks, page-table scans and frame-packing helpers. */

#include "fl-sim-internal.h"

G_BEGIN_DECLS

/* Most writers keep named locals (core/sim/fl-frame-locals.h). do_munmap, mprotect_fixup,
 * madvise_dontneed and try_to_unmap_one still pack theirs into the frame's six words (the
 * raw l.a[]): VMA and table ids fit 16 bits (the state has fewer than 65536 VMAs), addresses
 * 48, so a word holds several; the helpers and flag bits below are for them. */
#define FL_W_LOW48         ((G_GUINT64_CONSTANT (1) << 48) - 1)

static inline guint32
fl_w_get16 (guint64 word, guint k)
{
  return (guint32) ((word >> (16 * k)) & 0xffff);
}

static inline void
fl_w_set16 (guint64 *word, guint k, guint32 value)
{
  *word = (*word & ~(G_GUINT64_CONSTANT (0xffff) << (16 * k)))
          | ((guint64) (value & 0xffff) << (16 * k));
}

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

/* Flags kept in the high bits of an operation's a3 (the low 48 bits hold a walk or an
 * address cursor, bits 48..50 a page-table level). */
#define FL_W_ERROR         (G_GUINT64_CONSTANT (1) << 63)   /* return an error at the end */
#define FL_W_RELEASED      (G_GUINT64_CONSTANT (1) << 62)   /* mmap_sem released: return it */
#define FL_W_NEED_FLUSH    (G_GUINT64_CONSTANT (1) << 61)   /* mmu_gather's need_flush */
#define FL_W_DETACHING     (G_GUINT64_CONSTANT (1) << 60)   /* do_munmap: detach loop begun */
#define FL_W_LEVEL_SHIFT   48
#define FL_W_LEVEL_MASK    (G_GUINT64_CONSTANT (7) << FL_W_LEVEL_SHIFT)

/* Which PTEs a scan stops at. */
typedef enum {
  FL_W_ENTRY_ANY,         /* anything not none: zap */
  FL_W_ENTRY_NORMAL,      /* present, with a struct page (not the zero page): fork */
  FL_W_ENTRY_PROTECT,     /* present, or a write migration entry: mprotect */
} FlWriterEntryKind;

/* find_vma_prev's walk, one node per step: bits 0..15 node, 16..31 prev, bit 32 started. */
#define FL_W_WALK_STARTED  (G_GUINT64_CONSTANT (1) << 32)
gboolean fl_writer_walk_prev      (FlSim *sim, guint cpu, guint64 addr, guint64 *walk);
guint32  fl_writer_walk_prev_vma  (const FlState *st, guint64 walk);

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
void     fl_writer_release_sem_word (FlSim *sim, guint cpu, guint64 *flags, FlRwsemOp op,
                                     FlLoc here);

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
