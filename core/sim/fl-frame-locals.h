#pragma once

/* The locals of every modeled function, one struct each, as FlFrame's union holds them
 * (fl-state.h). They are all here rather than beside their step functions because the union
 * needs every one of them whole. Each is at most 48 bytes: a frame is copied into every
 * checkpoint and hashed by the explorer, so the frame stays 56 bytes. A frame is zeroed when
 * it is pushed (fl_call), and its caller fills in the arguments; a callee hands back what it
 * found through its return value (the caller's `ret`), never by writing the caller's frame.
 *
 * VMA and page-table "references" are an id with its generation (fl_vma_ref, fl_table_ref);
 * plain ids are said so. Private to core/. */

#include <glib.h>
#include "fl-rbtree.h"

G_BEGIN_DECLS

/* ---- the locked fault path (fl-fault.c) --------------------------------------------------- */

typedef struct {
  guint64 addr;
  guint32 flags;            /* FL_FAULT_WRITE */
  guint32 vma;              /* the VMA found */
  guint32 result;           /* the VM_FAULT_* bits to return */
  guint32 by_reference;     /* speculative-refcount: vma is held by a reference, not mmap_sem */
} FlLocalsDoPageFault;

typedef struct {
  guint64 addr;
  guint32 keep_cache;       /* argument: 1 leaves mm->mmap_cache alone */
  guint32 node;             /* the node being visited */
  guint32 best;             /* the first VMA ending above addr so far */
} FlLocalsFindVma;

typedef struct {
  guint64 addr;
  guint32 flags;
  guint32 vma;
  guint32 table;            /* the walk: the table being read (an id) and its level */
  guint32 level;
  guint64 entry;            /* then the PTE as read, in the table pte_table */
  guint32 pte_table;
} FlLocalsHandleMmFault;

typedef struct {
  guint64 addr;
  guint32 parent;           /* the table whose entry is missing (an id) */
  guint32 level;            /* the new table's */
  guint32 table;            /* the new table (an id) */
} FlLocalsPgtableAlloc;

/* ---- once the PTE is found (fl-spf.c, fl-pte-fault.c) --------------------------------------
 *
 * handle_speculative_fault, handle_pte_fault and the handlers it picks share these: a
 * handler takes them over whole from handle_pte_fault (a tail call). */
typedef struct {
  guint64 addr;
  guint16 flags;            /* FL_FAULT_WRITE, FL_FAULT_SPEC */
  guint16 result;           /* the VM_FAULT_* bits the release step returns */
  guint32 page;             /* the page taken, still to be dropped if the fault backs out */
  guint32 vma;
  guint32 seq;              /* the VMA's sequence count as the speculative fault read it */
  guint64 entry;            /* the PTE as first read; a handler's: the PTE to install */
  guint32 table;            /* the PTE table, as pte_map_lock returned it */
} FlLocalsFault;

typedef struct {
  guint64 addr;
  guint32 flags;
  guint32 vma;              /* 0: none yet (v2's order takes the lock before the lookup) */
  guint32 seq;
  guint32 table;            /* the table to lock under mmap_sem (0: walk to it); the one walked */
} FlLocalsPteMapLock;

/* ---- the VMA reference count of speculative-refcount (fl-refcount.c) -------------------- */

typedef struct {
  guint64 addr;
  guint32 node;             /* the node being visited */
  guint32 vma;              /* the best VMA so far, then the one found (its reference taken) */
} FlLocalsFindVmaSpeculative;

typedef struct {
  guint32 vma;              /* vma_put: a reference; invalidate_vma_before_free: an id */
} FlLocalsVmaRef;

/* ---- anon_vma, pages, mmap_sem ----------------------------------------------------------- */

typedef struct {
  guint32 vma;
  guint32 anon_vma;         /* the one found or allocated */
} FlLocalsAnonVmaPrepare;

typedef struct {
  guint32 zero;             /* argument: 1 clears the page (alloc_zeroed_user_highpage) */
} FlLocalsAllocPage;

typedef struct {
  guint32 page;             /* argument: the new page, returned once charged (memcg=on) */
} FlLocalsMemcgCharge;

typedef struct {
  guint32 page;
} FlLocalsLruCacheAdd;

typedef struct {
  gint64  count_seen;       /* xadd trylock: the count last read, the cmpxchg's expected value */
  guint32 granted;          /* generic trylock and down, xadd down: had it without queueing */
} FlLocalsRwsem;

/* ---- the writers (fl-writers-*.c) -----------------------------------------------------------
 *
 * VMA ids fit 16 bits (the state has fewer than 65536 VMAs), which keeps the writers' many
 * names within a frame. */

/* find_vma_prev's walk, a node per step (fl_writer_walk_prev). do_munmap's find_vma walks
 * the same way, prev then being the best VMA so far. */
typedef struct {
  guint16 node;             /* to visit next */
  guint16 prev;
  guint8  started;
  guint8  reserved;         /* explicit, so a state's hash never sees padding */
} FlWalkPrev;

/* find_vma_prepare's walk, a node per step (fl_writer_walk_prepare). */
typedef struct {
  guint16 node;             /* to visit next */
  guint16 parent;           /* rb_parent */
  guint16 prev;
  guint8  started : 1;
  guint8  right : 1;        /* link as rb_parent's right child */
  guint8  overlap : 1;      /* the VMA found overlaps [addr, end) */
} FlWalkPrepare;

typedef struct {
  guint64 addr, len;
  guint32 vm_flags;
  guint16 vma;              /* the new VMA, until it is linked */
  guint8  error;            /* refused: return an error once mmap_sem is released */
  guint8  released;         /* ... which it is */
  FlWalkPrepare walk;
  FlRbCursor cur;           /* rb_insert_color's */
} FlLocalsMmapRegion;

typedef struct {
  guint16 vma, insert;
  guint16 next;             /* vma->vm_next */
  guint8  remove_next;      /* 1: absorb next; 2: and the one after (mprotect's case 6) */
  guint8  move_next : 1;    /* next's start moves (mprotect's cases 4 and 5) */
  guint8  next_grows : 1;   /* ... down over vma (case 4) */
  guint8  next_waited : 1;  /* speculative-refcount: next's references waited for */
  guint64 start, end;
  FlWalkPrepare walk;       /* where insert goes */
  FlRbCursor cur;
} FlLocalsVmaAdjust;

typedef struct {
  guint32 vma;
  guint32 prev;             /* the VMA absorbing it */
  FlRbCursor cur;           /* rb_erase's */
} FlLocalsVmaUnlink;

typedef struct {
  guint16 prev, area, next;
  guint64 addr, end;
  guint32 vm_flags;
  guint32 file;
  guint64 pgoff;
  guint32 anon_vma;
} FlLocalsVmaMerge;

/* zap_pte_range and change_pte_range: one PTE table's part of a range, a step per entry. */
typedef struct {
  guint64 start, end;
  guint32 table;            /* an id */
  guint16 next_index;       /* the next entry to look at */
  guint16 done;             /* entries cleared (zap) or rewritten (change) */
  guint16 anon, file;       /* zap: anonymous and file pages unmapped, for add_mm_rss */
  guint8  write_ok;         /* change: PTEs may be (or stay) writable under the new protection */
  guint8  prot_none;        /* ... or grant no access (PROT_NONE: the PTE keeps its page) */
} FlLocalsPteRange;

/* The range the writers below take: its start, and its length until the first step checks
 * it and makes it the end. */
#define FL_LOCALS_RANGE_ARG \
  guint64 start;            \
  union {                   \
    guint64 len;            \
    guint64 end;            \
  }

/* copy_pte_range over the parent's range (fork's write-protection). */
typedef struct {
  FL_LOCALS_RANGE_ARG;
  guint64 cursor;           /* the next address to look at */
  guint16 vma;
  guint16 table;            /* the PTE table locked */
  guint8  started;          /* the VMA list walk begun */
  guint8  released;         /* mmap_sem released (fl_writer_release_sem) */
} FlLocalsCopyPteRange;

/* do_munmap (with sys_munmap's down_write and up_write). */
typedef struct {
  FL_LOCALS_RANGE_ARG;
  guint16 prev;
  guint16 vma;              /* the VMA at hand */
  guint16 tail;             /* the last VMA detached */
  guint16 head;             /* the first one detached, then remove_vma_list's next */
  union {
    FlWalkPrev walk;        /* find_vma_prev, then find_vma (prev: the best VMA so far) */
    FlRbCursor cur;         /* then rb_erase's, zeroed after each VMA */
    struct {
      guint64 cursor;       /* then unmap_vmas' and free_pgtables' address */
      guint8  level;        /* free_pgtables': the level of the tables it unhooks */
    };
  };
  guint8  detaching;        /* the detach loop begun */
  guint8  need_flush;       /* the mmu_gather's: something was cleared or unhooked */
} FlLocalsDoMunmap;

/* sys_mprotect with mprotect_fixup for each VMA of the range. */
typedef struct {
  FL_LOCALS_RANGE_ARG;
  guint16 vm_flags;         /* argument: the requested protection; down_write keeps its RWX */
  guint16 vma;              /* the VMA at hand */
  guint16 prev;
  guint8  error;            /* -ENOMEM (a hole): return it once mmap_sem is released */
  guint8  released;         /* ... which it is */
  union {
    FlWalkPrev walk;        /* find_vma_prev */
    guint64 cursor;         /* then change_protection's address */
  };
  guint64 lo, hi;           /* this VMA's part of the range: [nstart, tmp) */
} FlLocalsMprotectFixup;

/* sys_madvise(MADV_DONTNEED): zap_page_range on each VMA of the range. */
typedef struct {
  FL_LOCALS_RANGE_ARG;
  union {
    FlWalkPrev walk;        /* find_vma_prev */
    guint64 cursor;         /* then the zap's address */
  };
  guint16 vma;              /* the VMA at hand */
  guint8  error;            /* -ENOMEM (a hole): return it once mmap_sem is released */
  guint8  released;         /* ... which it is */
  guint8  need_flush;       /* the mmu_gather's: something of this VMA was cleared */
} FlLocalsMadviseDontneed;

/* try_to_unmap_one for the page mapped at addr: reclaim (migrate 0) or migration. */
typedef struct {
  guint64 addr;
  guint8  migrate;          /* argument: 1 migrates the page, 0 reclaims it */
  guint8  abort;            /* the PTE no longer maps the page */
  guint8  migref;           /* migration holds the old page's mapping reference */
  guint8  move_failed;      /* extra references: the old page goes back */
  guint8  installed;        /* remove_migration_pte put a page in */
  guint8  write;            /* the PTE cleared was writable (so is the migration entry) */
  guint32 table;            /* the PTE table (an id), as page_check_address found it */
  guint32 page;             /* the page mapped there */
  guint32 new_page;         /* migration: the copy */
  guint32 new_table;        /* the table remove_migration_pte found again (an id) */
} FlLocalsTryToUnmapOne;

G_END_DECLS
