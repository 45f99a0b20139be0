#pragma once

/* What one step touched, for the explorer's partial-order reduction (fl-explore-dpor.c): two
 * steps of different CPUs are dependent when they touch one key and at least one of them
 * writes it. Internal to the core. */

#include <glib.h>
#include "fl-state.h"

G_BEGIN_DECLS

/* A key is a kind in the top byte and an id below it. */
typedef enum {
  FL_KEY_LINE = 1,      /* a cache line: most shared data lives on one (fl_touch) */
  FL_KEY_PAGE,          /* a struct page (fl_touch_page) */
  FL_KEY_ALLOC,         /* an allocator's next free id: which object the next alloc gets */
  /* one CPU's fields that other CPUs' steps read or write, by group */
  FL_KEY_CPU_SCHED,     /* status, what it waits on: waking and parking */
  FL_KEY_CPU_WRITER,    /* inside an mmap_sem-writing operation, mmap_sem held */
  FL_KEY_CPU_RCU,       /* read-side nesting, callbacks ready */
  FL_KEY_CPU_TLB,       /* IRQs, IPIs pending, in the mm's cpumask, flushes owed */
  FL_KEY_CPU_MEM,       /* per-CPU page lists and RSS caches */
  FL_KEY_CPU_OTHER,     /* anything else of it (its program): written by another CPU, it
                         * conflicts with every step of that CPU */
} FlKeyKind;

enum { FL_ALLOC_VMA, FL_ALLOC_TABLE, FL_ALLOC_PAGE, FL_ALLOC_CACHE,
       FL_ALLOC_FILE /* the files (fl-vm-file.c): slots and counts */ };

#define FL_KEY(kind, id) (((guint32) (kind) << 24) | ((guint32) (id) & 0xffffffu))
#define FL_KEY_KIND(key) ((FlKeyKind) ((key) >> 24))
#define FL_KEY_ID(key)   ((key) & 0xffffffu)

#define FL_FOOTPRINT_MAX 48u

typedef struct {
  guint8  n;
  guint8  everything;   /* too many keys, or a read of the whole state: depends on all */
  guint32 key[FL_FOOTPRINT_MAX];
  guint8  write[FL_FOOTPRINT_MAX];
} FlFootprint;

static inline void
fl_footprint_clear (FlFootprint *fp)
{
  fp->n = 0;
  fp->everything = FALSE;
}

void     fl_footprint_add      (FlFootprint *fp, guint32 key, gboolean write);
gboolean fl_footprint_conflict (const FlFootprint *a, const FlFootprint *b);

/* What a step wrote without a line telling it (another CPU woken, an allocator moved, a
 * global of the mm changed): @before is the globals and CPUs as they were before the step
 * (fl_footprint_snapshot), compared field group by field group with @st now. Clocks and
 * statistics are not compared: they are time, which the explorer does not order by. */
typedef struct {
  FlGlobals g;
  guint     ncpus;
  FlCpu    *cpus;
  FlCpuStack *stacks;       /* their loops and frames */
} FlFootprintSnapshot;

void     fl_footprint_snapshot      (FlFootprintSnapshot *snap, const FlState *st);
void     fl_footprint_snapshot_clear(FlFootprintSnapshot *snap);
void     fl_footprint_add_changes   (FlFootprint *fp, const FlFootprintSnapshot *before,
                                     const FlState *st, guint cpu);

/* The state without time (fl-semantic-hash.c says exactly what is left out, and why): clocks,
 * cache-line bookkeeping, statistics and step stamps. Two states hash equal when all the rest
 * is equal, and differently otherwise (up to 64-bit collisions). FL_STATE_OUTCOME also drops
 * who holds which line (what a run leaves, as a result); FL_STATE_COMMUTE keeps it (two
 * orders of independent steps leave the same lines). */
typedef enum { FL_STATE_OUTCOME, FL_STATE_COMMUTE } FlStateView;
guint64  fl_state_semantic_hash     (const FlState *st, FlStateView view);
/* Frees what the hash keeps beside @st (FlState.plain_hash). */
void     fl_state_semantic_hash_clear (FlState *st);

/* For a search that goes back by journals (the explorer's states search): while logging is
 * on, the kept view (fl_state_semantic_hash_keep: the commute view unless the search chose
 * another) notes what each hash changes in the copy of the plain arrays it keeps
 * beside @st, so that going back to a state it hashed (a point taken just after that hash)
 * takes the copy back too. Then the copy is that state's plain arrays again, and the marks
 * the way back set (the blocks a journal put back) are cleared: the next hash reads only what
 * the next step writes. Returns whether it could (not when an array grew in between: the
 * marks stay, the next hash compares them). */
typedef struct {
  gsize   len;
  guint64 sum, epoch;
} FlHashPoint;

void     fl_state_semantic_hash_keep     (const FlState *st, FlStateView view);
void     fl_state_semantic_hash_log      (const FlState *st, gboolean on);
FlHashPoint fl_state_semantic_hash_point (const FlState *st);
gboolean fl_state_semantic_hash_back     (const FlState *st, const FlHashPoint *point);

G_END_DECLS
