#pragma once

/* The whole machine as plain data, as the simulation writes it: the views' part of it
 * (fl-state-view.h), and what only the step functions touch: each CPU's program loops and
 * stack of frames, and the writers of the state. Private to core/. */

#include "fl-state-view.h"
#include "fl-frame-locals.h"

G_BEGIN_DECLS

/* One modeled function's activation: its arguments and locals are the member of `l` named
 * after it (fl-frame-locals.h). */
typedef struct {
  guint16 fn;               /* FlFn */
  guint16 pc;               /* FlLoc to resume at */
  guint32 ret;              /* what the last callee returned */
  union {
    FlLocalsDoPageFault        do_page_fault;
    FlLocalsFindVma            find_vma;
    FlLocalsHandleMmFault      handle_mm_fault;
    FlLocalsPgtableAlloc       pgtable_alloc;
    FlLocalsFault              fault;      /* handle_speculative_fault, handle_pte_fault, do_* */
    FlLocalsPteMapLock         pte_map_lock;
    FlLocalsFindVmaSpeculative find_vma_spec;
    FlLocalsVmaRef             vma_ref;    /* vma_put, invalidate_vma_before_free */
    FlLocalsAnonVmaPrepare     anon_vma_prepare;
    FlLocalsAllocPage          alloc_page;
    FlLocalsMemcgCharge        memcg_charge;
    FlLocalsLruCacheAdd        lru_cache_add;
    FlLocalsRwsem              rwsem;
    FlLocalsMmapRegion         mmap_region;
    FlLocalsVmaAdjust          vma_adjust;
    FlLocalsVmaUnlink          vma_unlink;
    FlLocalsVmaMerge           vma_merge;
    FlLocalsPteRange           pte_range;  /* zap_pte_range, change_pte_range */
    FlLocalsCopyPteRange       copy_pte_range;
    FlLocalsDoMunmap           do_munmap;
    FlLocalsMprotectFixup      mprotect_fixup;
    FlLocalsMadviseDontneed    madvise_dontneed;
    FlLocalsTryToUnmapOne      try_to_unmap_one;
  } l;
} FlFrame;

/* checkpoints copy frames and the explorer hashes them: keep them small */
G_STATIC_ASSERT (sizeof (FlFrame) == 56);

typedef struct {
  guint32 op;               /* index of the REPEAT op */
  guint32 left;             /* iterations still to run after this one */
} FlLoop;

struct _FlCpuStack {
  FlLoop  loops[FL_MAX_LOOPS];
  FlFrame frames[FL_MAX_DEPTH];
};

/* CPU @cpu's loops and frames, to read (fl_frame_rw() and fl_loops_rw() to write). */
static inline const FlCpuStack *
fl_cpu_stack (const FlState *st, guint cpu)
{
  return &st->stacks[cpu];
}

/* ---- the plain arrays, to write (FlPlainMarks) ------------------------------------------
 * Each accessor hands out what it names for writing, through this pointer before the state
 * is hashed next (a step's writes are: the explorer hashes between steps), and while the
 * marks are on marks its blocks, as fl_line_rw() marks a line. */

/* Marks the blocks of bytes [@offset, @offset + @bytes) of array @a, which starts at @base:
 * written since the hash last read them, and kept by the open journal (fl-state-journal.c)
 * if it has not yet. */
void     fl_plain_mark          (FlState *st, FlPlainArray a, const void *base, gsize offset,
                                 gsize bytes);
/* Marking on (every block marked: nothing is known of what was written while it was off)
 * or off. */
void     fl_state_plain_marking (FlState *st, gboolean on);
/* For fl-state.c and the journal, while marking is on: the bitmaps fitted to the arrays'
 * sizes after they changed (an array that changed size is marked whole), every block marked
 * (the arrays were written whole), and the bitmaps freed. */
void     fl_state_plain_resized  (FlState *st);
void     fl_state_plain_mark_all (FlState *st);
void     fl_state_plain_clear    (FlState *st);
/* Where block @block of array @a starts, and in @len how many of its bytes the array has (as
 * fitted: while marking is on). */
guint8  *fl_state_plain_block    (FlState *st, FlPlainArray a, gsize block, gsize *len);
/* A journal opens (the marks turned on if they were off): no block is kept by it yet. */
guint32  fl_state_plain_journal_begin (FlState *st);

static inline gpointer
fl_plain_rw (FlState *st, FlPlainArray a, const void *base, const void *p, gsize bytes)
{
  if (G_UNLIKELY (st->plain.on))
    {
      /* most writes are to a block the step has written already: marked and kept */
      gsize offset = (gsize) ((const guint8 *) p - (const guint8 *) base);
      gsize b = offset / FL_PLAIN_BLOCK;
      if (b != (offset + bytes - 1) / FL_PLAIN_BLOCK
          || !((st->plain.unhashed[a][b / 64] >> (b % 64)) & 1)
          || (st->journal != NULL && st->plain.journaled[a][b] != st->plain.journal))
        fl_plain_mark (st, a, base, offset, bytes);
    }
  return (gpointer) p;
}

/* A field of the globals, as an lvalue: FL_G_RW (st, mm.map_count)++. */
#define FL_G_RW(st, member) \
  (*(__typeof__ (((FlGlobals *) NULL)->member) *) \
     fl_plain_rw ((st), FL_PLAIN_GLOBALS, (st)->g, &(st)->g->member, sizeof ((st)->g->member)))

/* A field of CPU @cpu, as an lvalue: FL_CPU_RW (st, cpu, clock) += cycles (the hot paths'
 * marks: one block rather than the CPU's five). */
#define FL_CPU_RW(st, cpu, member) \
  (*(__typeof__ (((FlCpu *) NULL)->member) *) \
     fl_plain_rw ((st), FL_PLAIN_CPUS, (st)->cpus, &(st)->cpus[cpu].member, \
                  sizeof ((st)->cpus[cpu].member)))

/* CPU @cpu, to write only its clock and the hold's fields (clock, held_until, held_line: the
 * coherence model writes them at every access, and they lie in its first bytes). */
static inline FlCpu *
fl_cpu_clock_rw (FlState *st, guint cpu)
{
  G_STATIC_ASSERT (G_STRUCT_OFFSET (FlCpu, clock) == 0 && G_STRUCT_OFFSET (FlCpu, held_until) == 8
                   && G_STRUCT_OFFSET (FlCpu, held_line) == 40);
  return fl_plain_rw (st, FL_PLAIN_CPUS, st->cpus, &st->cpus[cpu], 44);
}

static inline FlCpu *
fl_cpu_rw (FlState *st, guint cpu)
{
  return fl_plain_rw (st, FL_PLAIN_CPUS, st->cpus, &st->cpus[cpu], sizeof (FlCpu));
}

static inline FlFrame *
fl_frame_rw (FlState *st, guint cpu, guint i)
{
  return fl_plain_rw (st, FL_PLAIN_STACKS, st->stacks, &st->stacks[cpu].frames[i],
                      sizeof (FlFrame));
}

/* Frames @from to @to - 1 of @cpu's stack (a push or pop clears or fills several). */
static inline FlFrame *
fl_frames_rw (FlState *st, guint cpu, guint from, guint to)
{
  return fl_plain_rw (st, FL_PLAIN_STACKS, st->stacks, &st->stacks[cpu].frames[from],
                      (to - from) * sizeof (FlFrame));
}

static inline FlLoop *
fl_loops_rw (FlState *st, guint cpu)
{
  return fl_plain_rw (st, FL_PLAIN_STACKS, st->stacks, st->stacks[cpu].loops,
                      sizeof st->stacks[cpu].loops);
}

/* All of the globals, to write (the set-up: marked whole). */
static inline FlGlobals *
fl_globals_rw (FlState *st)
{
  return fl_plain_rw (st, FL_PLAIN_GLOBALS, st->g, st->g, sizeof (FlGlobals));
}

static inline FlZone *
fl_zone_rw (FlState *st, guint node)
{
  return fl_plain_rw (st, FL_PLAIN_GLOBALS, st->g, &st->g->zones[node], sizeof (FlZone));
}

static inline FlVma *
fl_vma_rw (FlState *st, guint32 vma)
{
  return fl_plain_rw (st, FL_PLAIN_VMAS, st->vmas, &st->vmas[vma], sizeof (FlVma));
}

static inline FlTable *
fl_table_rw (FlState *st, guint32 table)
{
  return fl_plain_rw (st, FL_PLAIN_TABLES, st->tables, &st->tables[table], sizeof (FlTable));
}

static inline FlCacheEntry *
fl_cache_rw (FlState *st, guint32 entry)
{
  return fl_plain_rw (st, FL_PLAIN_CACHE, st->cache, &st->cache[entry], sizeof (FlCacheEntry));
}

static inline guint32 *
fl_cache_index_rw (FlState *st, guint32 slot)
{
  return fl_plain_rw (st, FL_PLAIN_CACHE_INDEX, st->cache_index, &st->cache_index[slot],
                      sizeof (guint32));
}

static inline FlRcuCb *
fl_cb_rw (FlState *st, guint32 cb)
{
  return fl_plain_rw (st, FL_PLAIN_CBS, st->cbs, &st->cbs[cb], sizeof (FlRcuCb));
}

void     fl_state_init   (FlState *st, const FlStateSizes *sizes);
void     fl_state_clear  (FlState *st);
void     fl_state_copy   (FlState *dst, const FlState *src);
guint64  fl_state_hash   (const FlState *st);
/* The state as one block: the most it takes (page tables with no entries take less), writing
 * it, and taking it back (sizes included). */
gsize    fl_state_bytes  (const FlStateSizes *sizes);
void     fl_state_save   (const FlState *st, guint8 *block);
void     fl_state_restore(FlState *st, const FlStateSizes *sizes, const guint8 *block);
/* Line @l of @st's layout as it is before anything touched it: nobody holds it, its kind
 * and object follow from its id (fl_state_line_identity: FL_LINE_KIND_FIXED and 0 for the
 * fixed lines), and all else is zero. */
void     fl_state_line_at_rest  (const FlState *st, guint l, FlLine *line);
void     fl_state_line_identity (const FlState *st, guint l, guint8 *kind, guint32 *obj);
/* Make room for id `id` of an array (at most its FL_MAX_*): what allocation calls before
 * handing the id out. Pointers into that array are stale afterwards. */
void     fl_state_need_vma   (FlState *st, guint32 id);
void     fl_state_need_table (FlState *st, guint32 id);
void     fl_state_need_page  (FlState *st, guint32 id);
void     fl_state_need_cache (FlState *st, guint32 id);
void     fl_state_need_cb    (FlState *st, guint32 id);
/* Entries 1..used of the page cache, indexed again in a table for twice as many. */
void     fl_state_index_cache (FlState *st, guint32 used);

/* Where the page-cache index looks first for (file, pgoff). */
static inline guint32
fl_cache_hash (guint32 file, guint32 pgoff)
{
  guint64 k = (((guint64) file << 32) | pgoff) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
  return (guint32) (k >> 32);
}

static inline void
fl_cpu_set_status (FlState *st, guint cpu, FlCpuStatus status)
{
  guint64 bit = G_GUINT64_CONSTANT (1) << (cpu % 64);
  fl_cpu_rw (st, cpu)->status = status;
  if (status == FL_CPU_RUNNING)
    FL_G_RW (st, running[cpu / 64]) |= bit;
  else
    FL_G_RW (st, running[cpu / 64]) &= ~bit;
  if (status == FL_CPU_SPIN)
    FL_G_RW (st, spinning[cpu / 64]) |= bit;
  else
    FL_G_RW (st, spinning[cpu / 64]) &= ~bit;
}

/* A step's journal (fl-state-journal.c): what one step wrote, as it was before, the tracked
 * slots and the plain arrays' blocks as the step first takes them for writing (the plain
 * arrays' marks are turned on for it), so that going back one step costs what the step
 * wrote, not a seek (a checkpoint restored, steps replayed). Active from
 * fl_state_journal_begin() until the next begin or undo. */
typedef struct _FlStateJournal FlStateJournal;
typedef enum { FL_JOURNAL_LINE, FL_JOURNAL_TABLE, FL_JOURNAL_PAGE, FL_JOURNAL_PLAIN } FlJournalKind;

FlStateJournal *fl_state_journal_new   (void);
void            fl_state_journal_free  (FlStateJournal *j);
void            fl_state_journal_begin (FlState *st, FlStateJournal *j);
/* FALSE, the state untouched, when the step grew an array FlTracked covers (lines, tables,
 * pages): only a seek goes back then. */
gboolean        fl_state_journal_undo  (FlState *st, FlStateJournal *j);
gsize           fl_state_journal_bytes (const FlStateJournal *j);
/* The slot's contents before the step's first write to it (the accessors below call it). */
void            fl_state_journal_slot  (FlState *st, FlJournalKind kind, guint slot);
/* The same for block @block of plain array @a, which starts at @base (fl_plain_mark() calls
 * it, once a step). */
void            fl_state_journal_block (FlState *st, FlPlainArray a, const void *base,
                                        gsize block);
/* The sizes of @to where only arrays no FlTracked covers grew since (RCU callbacks, the page
 * cache and its index): those arrays shrunk back, their contents to be put back by the
 * caller. FALSE, nothing changed, when any other did. */
gboolean        fl_state_shrink_untracked (FlState *st, const FlStateSizes *to);
/* The arrays no FlTracked covers, in the block's order (fl-state.c): @base and @bytes get
 * each one's start and size. Returns: how many. */
guint           fl_state_untracked     (FlState *st, guint8 **base, gsize *bytes);
#define FL_STATE_UNTRACKED_MAX 8

static inline void
fl_tracked_mark (FlTracked *t, guint slot)
{
  guint64 bit = G_GUINT64_CONSTANT (1) << (slot % 64);
  t->written[slot / 64] |= bit;
  t->unhashed[slot / 64] |= bit;
  t->touched[slot / 4096] |= G_GUINT64_CONSTANT (1) << (slot / 64 % 64);
  t->version[slot] = ++t->next;
}

/* Line @line, to write (see FlTracked): through this pointer before the state is hashed
 * next (a step's writes are: the explorer hashes between steps). */
static inline FlLine *
fl_line_rw (FlState *st, guint line)
{
  if (G_UNLIKELY (st->journal != NULL))
    fl_state_journal_slot (st, FL_JOURNAL_LINE, line);
  fl_tracked_mark (&st->line_marks, line);
  return (FlLine *) &st->lines[line];
}

/* Page @page's struct page, to write (see FlTracked), as for fl_line_rw(): most page frames
 * of a zone's blocks are never touched, and neither checkpoints nor the hash read those. */
static inline FlPage *
fl_page_rw (FlState *st, guint32 page)
{
  if (G_UNLIKELY (st->journal != NULL))
    fl_state_journal_slot (st, FL_JOURNAL_PAGE, page);
  fl_tracked_mark (&st->page_marks, page);
  return (FlPage *) &st->pages[page];
}

/* The entries of @table, to write (see FlTracked), as for fl_line_rw(). */
static inline guint64 *
fl_table_entries_rw (FlState *st, guint32 table)
{
  if (G_UNLIKELY (st->journal != NULL))
    fl_state_journal_slot (st, FL_JOURNAL_TABLE, table);
  fl_tracked_mark (&st->pte_marks, table);
  return st->ptes + (gsize) table * FL_PTRS_PER_TABLE;
}

G_END_DECLS
