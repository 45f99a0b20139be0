#pragma once

/* The machine's state as the views read it: plain data, arrays addressed by integer ids, no
 * pointers, so a snapshot is a memcpy and a state hash is a hash of bytes. Everything the
 * views draw is here (CPUs, cache lines, VMAs, page tables, pages, RCU, mmap_sem, the mm);
 * the modeled functions' frames and their locals are not: they live beside the CPUs in
 * FlState.stacks, defined in core's own fl-state.h, and what a CPU is doing comes decoded
 * from fl-cpu-view.h. Read only: the state is a cursor's (fl-cursor.h), which is const. */

#include <glib.h>
#include "fl-config.h"
#include "fl-event.h"
#include "fl-rbtree.h"

G_BEGIN_DECLS

#define FL_PAGE_SIZE      4096u
#define FL_PTRS_PER_TABLE 512u
#define FL_MAX_DEPTH      12
#define FL_MAX_LOOPS      8
#define FL_NIL            0u     /* id 0 of every array means "none" */

typedef enum { FL_MESI_I, FL_MESI_S, FL_MESI_E, FL_MESI_M } FlMesi;

typedef enum {
  FL_CPU_RUNNING,
  FL_CPU_SPIN,        /* parked spinning on a spinlock (IRQs as they were) */
  FL_CPU_SLEEP,       /* asleep on the rwsem wait list, a migration entry or a barrier */
  FL_CPU_IPI_WAIT,    /* waiting for TLB-flush acknowledgements */
  FL_CPU_DONE,        /* program over */
  FL_CPU_STUCK,       /* part of a deadlock: never runs again */
} FlCpuStatus;

/* What a CPU is doing. The events carry the first ten, as the CPU stands after its step
 * (FL_ACT_IPI is a CPU waiting for its TLB-flush acknowledgements: the handler is one step,
 * never a frame). The last two only the lanes draw, from the events and the step starts
 * (fl_sim_get_step_starts): events never carry them, so the run's hash keeps its meaning. */
typedef enum {
  FL_ACT_USER, FL_ACT_LOCKED_FAULT, FL_ACT_SPEC_FAULT, FL_ACT_SYSCALL, FL_ACT_SPIN,
  FL_ACT_BLOCKED, FL_ACT_IRQS_OFF, FL_ACT_RCU, FL_ACT_IPI, FL_ACT_DONE,
  FL_ACT_TURN,          /* runnable, held back while the schedule runs another CPU */
  FL_ACT_IPI_HANDLER,   /* running the TLB-flush IPI's handler (flush_tlb_func) */
  FL_ACT_N
} FlActivity;

/* Hot cache lines with a fixed id; objects' lines follow (see fl_line_of_*). */
typedef enum {
  FL_LINE_NONE,
  FL_LINE_MM_MMAP,        /* mm->mmap, mm_rb, mmap_cache: first line of mm_struct */
  FL_LINE_MM_SEM,         /* mm->pgd, map_count, mmap_sem, page_table_lock (2.6.32 layout) */
  FL_LINE_MM_RSS,         /* mm->_file_rss, _anon_rss */
  FL_LINE_ZONE_LOCK,      /* zone->lock: free lists, per-CPU list refills */
  FL_LINE_LRU_LOCK,       /* zone->lru_lock: pagevec drains */
  FL_LINE_TLB_FLUSH,      /* the flush cpumask the IPI handlers clear */
  FL_LINE_BARRIER,        /* a user-space pthread barrier */
  FL_LINE_RCU,            /* rcu_state: grace-period number and quiescent-state mask */
  FL_LINE_N_FIXED
} FlFixedLine;

typedef enum {
  FL_LINE_KIND_FIXED, FL_LINE_KIND_VMA, FL_LINE_KIND_PTL, FL_LINE_KIND_TABLE,
  FL_LINE_KIND_VMA_REF,     /* the line of a VMA's reference count (speculative-refcount) */
} FlLineKind;

typedef struct {
  guint64 busy_until;       /* one ownership transfer at a time: later requests queue */
  guint64 sharers[FL_MAX_CPUS / 64];
  gint16  owner;            /* CPU holding it Modified/Exclusive, -1 when none */
  guint8  owner_state;      /* FL_MESI_M or FL_MESI_E */
  guint8  kind;             /* FlLineKind */
  guint32 obj;
  guint32 transfers;        /* times the line moved between CPUs */
  guint32 own_copy;         /* accesses the hold served from the writer's copy, ahead of the queue */
  guint32 overtook;         /* requests served ahead of an ownership request still crossing */
  guint32 last_from, last_to; /* last transfer, for the cache view's arrow (cpu + 1, 0 none) */
  /* The ownership requests from another socket still crossing to it (fl-coherence.c: the
   * arbitration): when the first reaches the line, when its transfer was booked to start,
   * the line's busy_until before the first and after the last (the record holds while
   * nothing else was booked since), who held the unique copy they come to take (cpu + 1,
   * 0: no record), their CPUs, and whether it is one load rather than ownership requests. */
  guint64 rfo_arrive, rfo_start, rfo_before, rfo_busy_end;
  guint64 rfo_takers[FL_MAX_CPUS / 64];
  guint32 rfo_prev;
  guint8  rfo_load;
} FlLine;

typedef struct {
  guint64 clock;
  guint64 held_until;       /* the line it wrote last is still in its cache until then */
  guint64 wait_since;
  guint64 ipi_at;           /* when the latest pending TLB-flush IPI reached it */
  guint64 cursor;           /* address cursor of the program */
  guint32 held_line;        /* (fl-coherence.c: the hold; FL_LINE_NONE at first) */
  guint32 spf_vm_flags;     /* the VMA's flags when the speculative fault checked its range */
  /* Oracle bookkeeping of a lookup without mmap_sem (fl-oracle-walk.c), no cycles: the VMA
   * (reference) that held the address in the tree when the walk read the root, 0 when none
   * or no walk is under way; and the writer's tree change that took it out of the walk's
   * reach: the node the walk stood on, the node the change acted on, the writer's CPU + 1
   * (0: no change yet), its FlRbAction and step (from 1). Those five only explain a miss:
   * the explorer leaves them out of its states. */
  guint32 spf_walk_vma;
  guint32 spf_hidden_node;
  guint32 spf_hidden_subject;
  guint16 spf_hidden_cpu;
  guint16 spf_hidden_action;
  guint64 spf_hidden_step;
  guint32 wait_obj;         /* lock / line / page it is parked on */
  guint32 ticket;           /* ticket it spins for */
  guint32 op;               /* next program op */
  guint32 op_started;       /* op being executed (for events) */
  guint8  status;           /* FlCpuStatus */
  guint8  irqs_off;
  guint8  depth;
  guint8  nloops;
  guint8  ipi_pending;      /* TLB-flush IPIs wait for IRQs to be enabled (ipi_senders) */
  guint8  in_mm;            /* in mm_cpumask: targets of TLB flushes */
  guint8  writer;           /* inside an mmap_sem-writing or zapping operation */
  guint8  mmap_sem_held;    /* 1 read, 2 write */
  guint16 rcu_nesting;
  guint16 locks_held;       /* spinlocks held */
  guint32 rcu_since_step;   /* step of the outermost rcu_read_lock */
  guint32 rcu_ready;        /* callbacks it queued whose grace period is over */
  guint32 flush_left;       /* acknowledgements this CPU's own flush still waits for */
  guint64 ipi_senders[FL_MAX_CPUS / 64];  /* CPUs whose flush IPI is pending here */
  /* the patch's per-task counters, plus what the views add */
  guint64 flt_total, flt_spec, flt_err, flt_min, flt_maj, flt_retry, flt_locked;
  /* speculative lookups that ended without the VMA the tree held for their whole walk */
  guint64 flt_missed;
  /* the kernel's PGFAULT vm event: handle_mm_fault counts it, and v2's speculative fault
   * counts it again before trying, so a retried fault is counted twice */
  guint64 vm_pgfault;
  gint64  rss_file, rss_anon;     /* per-thread RSS caches (rss=per-thread) */
  guint32 pcp_count, pcp_head, pcp_tail; /* per-CPU free page list: hot first, cold last */
  guint32 pagevec;                /* pages waiting to join the LRU */
  guint32 memcg_stock;            /* memcg=on: pages charged ahead to this CPU's stock */
  guint32 memcg_batch;            /* memcg=on: pages uncharged by the zap under way */
  guint32 gather_head, gather_count; /* mmu_gather: pages to free once the TLB is flushed */
  guint32 barrier_gen;
} FlCpu;

/* A CPU's program loops and stack of frames (core's fl-state.h): what the step functions
 * read and write, which the views get decoded (fl-cpu-view.h). */
typedef struct _FlCpuStack FlCpuStack;

typedef enum { FL_OBJ_FREE, FL_OBJ_LIVE, FL_OBJ_UNLINKED, FL_OBJ_RCU_PENDING } FlObjState;

enum {
  FL_VM_READ = 1, FL_VM_WRITE = 2, FL_VM_EXEC = 4, FL_VM_SHARED = 8, FL_VM_FILE = 16,
};

typedef struct {
  guint64   start, end;
  FlRbNode  rb;
  guint32   next;           /* VMA list */
  guint32   flags;          /* FL_VM_* */
  guint32   seq;            /* vm_sequence */
  guint16   gen;            /* bumped when the slot is reused: stale references are caught */
  guint8    state;          /* FlObjState */
  guint8    ref_dying;      /* munmap/vma_adjust dropped its own hold (invalidate_vma_before_free) */
  guint32   file;           /* page-cache file id for file mappings */
  guint32   vm_file;        /* its struct file: a reference (id + generation) into FlGlobals.files */
  guint8    file_put;       /* remove_vma dropped that reference already (vm-file-put=immediate) */
  guint64   pgoff;
  guint32   anon_vma;       /* its anon_vma's id (anon_vma_prepare), 0 before the first anonymous page */
  gint32    refs;           /* references speculative faults hold (fault-path=speculative-refcount);
                             * the kernel's count is this plus the bias (fl-refcount.c) */
} FlVma;

/* A PTE value: kind in the low bits, then flags, page id in the high 32 bits. */
enum {
  FL_PTE_NONE = 0, FL_PTE_PRESENT = 1, FL_PTE_SWAP = 2, FL_PTE_MIGRATION = 3,
  FL_PTE_KIND_MASK = 3,
  FL_PTE_WRITE = 1 << 2, FL_PTE_DIRTY = 1 << 3, FL_PTE_YOUNG = 1 << 4, FL_PTE_SPECIAL = 1 << 5,
  /* PAGE_NONE: x86's _PAGE_PROTNONE without _PAGE_PRESENT; the page stays, no access goes */
  FL_PTE_PROTNONE = 1 << 6,
};
#define FL_PTE_PAGE(p)      ((guint32) ((p) >> 32))
#define FL_PTE_MAKE(page, bits) (((guint64) (page) << 32) | (bits))

typedef struct {
  guint8  level;            /* 4 pgd, 3 pud, 2 pmd, 1 pte */
  guint8  state;            /* FlObjState: FREE or LIVE (freed tables are caught on access) */
  guint16 gen;
  guint32 ptl_next, ptl_owner;  /* split PTE lock: ticket spinlock (PTE tables only) */
  gint32  ptl_holder;       /* CPU holding it, -1 */
  guint32 used;             /* non-empty entries */
  guint64 base;             /* first address the table maps */
} FlTable;

enum { FL_PAGE_ANON = 1, FL_PAGE_FILE = 2, FL_PAGE_ZERO = 4, FL_PAGE_TABLE = 8,
       FL_PAGE_LOCKED = 16, FL_PAGE_LRU = 32,
       FL_PAGE_MEMCG = 64, /* charged to the memory cgroup (memcg=on) */
       /* PG_buddy: the first page of a free block on the zone's free_area[order] */
       FL_PAGE_BUDDY = 128 };

typedef struct {
  gint32  count;            /* references */
  gint32  mapcount;         /* PTEs mapping it */
  gint32  ext_refs;         /* references held outside the mm: page cache, a forked child */
  gint32  ext_maps;         /* mappings outside the mm: a forked child's PTE */
  guint32 flags;
  guint32 next, prev;       /* page->lru: the per-CPU list, a buddy free list, the gather */
  guint16 line_owner;       /* CPU + 1 that last wrote the struct page, 0 = only in memory */
  guint16 pc_owner;         /* the same for its struct page_cgroup (memcg=on) */
  guint8  state;            /* FlObjState: FREE or LIVE */
  guint8  node;             /* the zone it belongs to */
  guint8  order;            /* a free block's size, 2^order pages (page_private with PG_buddy) */
  guint8  pad[5];           /* whole words: the explorer's hash sums each page on its own */
} FlPage;

G_STATIC_ASSERT (sizeof (FlPage) % 8 == 0);

typedef struct {
  guint32 file, pgoff, page;
} FlCacheEntry;

typedef enum { FL_RCU_CB_FREE_VMA } FlRcuCbKind;

typedef struct {
  guint32 obj;              /* vma id */
  guint32 cpu;              /* who queued it: it runs the callback */
  guint32 gp;               /* grace period it waits for; 0 = not yet assigned */
  guint32 queued_step;
  guint8  ready;
  guint8  kind;
} FlRcuCb;

typedef struct {
  guint32 gp;               /* completed grace periods */
  guint8  in_progress;
  guint64 qs_needed[FL_MAX_CPUS / 64];  /* CPUs that still owe a quiescent state */
  guint32 gp_started_step;
  /* Counts kept with the callback slots so the per-step checks need not scan them. */
  guint32 unassigned;       /* queued callbacks still waiting for a grace period to start */
  guint32 ready;            /* callbacks of all CPUs whose grace period is over */
} FlRcu;

/* mmap_sem: both designs' fields; the configuration says which are used. */
typedef struct {
  gint32  activity;         /* generic: readers > 0, writer -1 */
  guint32 wait_next, wait_owner; /* generic: wait_lock ticket spinlock */
  gint32  wait_holder;
  gint64  count;            /* xadd: active count + waiting bias */
  guint32 waiters[FL_MAX_CPUS];  /* FIFO of CPU + 1 with the kind in bit 31 (writer) */
  guint32 nwaiters;
} FlRwsem;

typedef struct {
  guint32 root;             /* rb root (vma id) */
  guint32 mmap;             /* first VMA of the list */
  guint32 mmap_cache;       /* vma id + (gen << 16) */
  guint32 map_count;
  guint32 pgd;              /* table id */
  guint32 ptl_next, ptl_owner; /* mm->page_table_lock */
  gint32  ptl_holder;
  guint32 anon_vmas;        /* anon_vma ids handed out: an identity, the objects are not modeled */
  gint64  rss_file, rss_anon;
  FlRwsem sem;
} FlMm;

/* The struct file of a file mapping: what vm_file points at. Its count is the VMAs that hold
 * it (the program closed its descriptor after mmap, as programs do): the last fput releases
 * it, and its address_space with it. A slot is used again with a new generation. */
#define FL_MAX_FILES 32u

typedef struct {
  gint16  count;            /* f_count: the VMAs holding it */
  guint16 gen;              /* bumped when the slot is released: stale references are caught */
  guint8  state;            /* FlObjState: FREE or LIVE */
  guint8  pad[3];
} FlFile;

/* With `numa=per-socket` each socket is a memory node with its zone, as on the Xeons of 2010:
 * its own free list, zone->lock and zone->lru_lock. Otherwise the machine has one zone. */
#define FL_MAX_NODES 8u

/* MAX_ORDER: the buddy allocator's blocks are 1 to 1024 pages, a block of 2^k pages aligned
 * on 2^k page frames (fl-buddy.c). */
#define FL_MAX_ORDER 11u

typedef struct {
  /* free_area[order]: the blocks of 2^order free pages, linked through their first page's
   * lru (next, prev), the last one freed first; nr_free of each */
  guint32 area_head[FL_MAX_ORDER];
  guint32 area_free[FL_MAX_ORDER];
  guint32 free_listed;      /* pages on all of them */
  /* each free_area's cache line is written only under zone->lock, by one CPU at a time: like
   * a struct page it has a single owner, CPU + 1 (0: only in memory) */
  guint16 area_owner[FL_MAX_ORDER];
  guint16 pad;
  guint32 lock_next, lock_owner;   /* zone->lock */
  gint32  lock_holder;
  guint32 lru_lock_next, lru_lock_owner;   /* zone->lru_lock */
  gint32  lru_lock_holder;
  guint32 lru_head;         /* page added to this zone's LRU last: the next add writes its links */
} FlZone;

typedef struct {
  guint64 step;
  guint64 now;              /* when the last step started: time never runs backwards */
  guint64 rng;
  FlZone  zones[FL_MAX_NODES];
  guint32 nodes;            /* zones in use: 1, or one per socket */
  guint32 zone_pages;       /* page ids below this exist or may be handed out; it grows when
                             * they run out */
  guint32 page_fresh;       /* first page id never handed out: a zone whose free lists are
                             * empty takes the next aligned block of 2^(FL_MAX_ORDER - 1)
                             * from here (its pages join that zone), and pages exist only
                             * once handed out */
  guint32 vmas_used, tables_used;   /* slots in use, which the limits count */
  guint32 vma_hint, table_hint;     /* no free slot below these: where allocation looks first */
  guint32 cache_used;       /* page-cache entries: they fill up in order and stay */
  guint64 page_transfers;   /* struct page lines moved between CPUs */
  guint64 memcg_usage;      /* memcg=on: pages the cgroup's res_counter holds charged */
  FlFile  files[FL_MAX_FILES];  /* the mappings' struct files (fl-vm-file.c) */
  guint32 files_used;
  guint32 barrier_count, barrier_gen;
  guint32 zero_page;
  guint32 sched_index;      /* scripted schedule position */
  guint64 sched_steps;      /* steps taken in the current scripted entry */
  guint8  finished;
  guint8  deadlocked;
  guint32 ipis_pending;     /* CPUs with a TLB-flush IPI not yet taken (fl-tlb.c) */
  /* CPUs whose status is FL_CPU_RUNNING, kept by fl_cpu_set_status: the scheduler looks only
   * at these instead of asking every CPU every step */
  guint64 running[FL_MAX_CPUS / 64];
  /* CPUs whose status is FL_CPU_SPIN, kept likewise: a lock's release looks only at these */
  guint64 spinning[FL_MAX_CPUS / 64];
  FlMm    mm;
  FlRcu   rcu;
} FlGlobals;

/* How many of each object the arrays hold now: they grow as the run allocates (ids stay
 * valid), so these are capacities, every slot below them zeroed or in use. `line_vmas` and
 * `line_tables` fix where the cache lines of VMAs and page tables lie (fl_line_of_*): set
 * once from the scenario, as the arrays were sized before they grew. */
typedef struct {
  guint ncpus, nlines, nvmas, ntables, npages, ncache, ncbs;
  guint line_vmas, line_tables;
  guint line_refs;          /* VMA refcount lines (line_vmas with speculative-refcount, else 0) */
  guint line_nodes;         /* zone->lock and lru_lock lines of nodes past the first: 2 each */
  guint line_memcg;         /* the memory cgroup's lines (memcg=on: FL_MEMCG_N_LINES, else 0) */
  guint ncache_index;       /* a power of two, at least twice the entries in use */
} FlStateSizes;

/* The most of each a run may have at once (docs/scenario-format.md, "Limits"). VMAs: the
 * oracle checks the whole tree at every step that visits it, so a run costs the square of
 * its VMAs (and their ids must fit the 16 bits references and frames give them). Page
 * tables (4 KiB of entries each) and pages: so a run, its checkpoints included, stays
 * within about a gigabyte. */
#define FL_MAX_VMAS   4096u
#define FL_MAX_TABLES 16384u
#define FL_MAX_PAGES  (1u << 21)

/* What is kept beside the lines, and beside the page tables' entries: not in the state (no
 * checkpoint holds it, no hash reads it), but what lets checkpoints, seeks and the explorer's
 * hash skip most of them unread (most lines are never touched, most tables hold no entries).
 * Exact because every write takes its pointer from fl_line_rw(), fl_table_entries_rw() or
 * fl_page_rw(), which set both bits of the slot (FlState.lines, FlState.pages and
 * fl_table_entries() are const, so the compiler holds every writer to them), and fl-state.c
 * sets them for the slots it writes. Struct pages are tracked too: a zone's blocks bring a
 * thousand page frames at once, few of which are ever touched. */
typedef struct {
  /* A bit per slot that may have been written since it was last known at rest: a line as
   * fl_state_line_at_rest() makes it, a table's entries all zero. A clear bit means it is.
   * A checkpoint keeps the slots not at rest, and a restore takes the bits from it. */
  guint64 *written;
  /* For fl_state_semantic_hash of the view it keeps (fl_state_semantic_hash_keep: the commute
   * view unless a search chose another): a bit per slot written since it last read it, and
   * what the slot added to it then; a clear bit means that is still what it adds. */
  guint64 *unhashed;
  guint64 *sum;
  /* A bit per word of those bitmaps whose bits changed since the hash last looked (a slot
   * marked unhashed, a written bit set or cleared): the hash looks at those words only. */
  guint64 *touched;
  /* A number per slot, a new one (from `next`) each time the slot is taken for writing, 0
   * at rest as made: the same number, the same bytes. A checkpoint keeps them, and a seek
   * copies a slot only when its number differs from the checkpoint's. */
  guint64 *version;
  guint64  next;
} FlTracked;

/* The arrays no FlTracked covers: the globals, the CPUs and their stacks, the VMAs, the
 * tables (their headers), the page cache and its index, the RCU callbacks. They are small
 * (about 7 KB at two CPUs) but a step writes only a few words of them, and the explorer asks
 * at every state it reaches what changed: while it does (`on`), the accessors that hand them
 * out for writing (fl_cpu_rw() and the others, core's fl-state.h) mark the 64-byte blocks
 * they hand out, and the hash reads again, and a step's journal keeps, only those. The
 * arrays are const in FlState, so the compiler holds every writer to the accessors. */
typedef enum {
  FL_PLAIN_GLOBALS, FL_PLAIN_CPUS, FL_PLAIN_STACKS, FL_PLAIN_VMAS, FL_PLAIN_TABLES,
  FL_PLAIN_CACHE, FL_PLAIN_CACHE_INDEX, FL_PLAIN_CBS, FL_PLAIN_N
} FlPlainArray;

#define FL_PLAIN_BLOCK 64u

typedef struct {
  gboolean on;
  guint64 *unhashed[FL_PLAIN_N];   /* a bit per block written since the hash last read it */
  guint    dirty;                  /* a bit per array with such a block */
  guint32 *journaled[FL_PLAIN_N];  /* per block, the journal that keeps it (`journal`: the open one) */
  guint32  journal;
  gsize    bytes[FL_PLAIN_N];      /* each array's size when the bitmaps were fitted */
} FlPlainMarks;

/* One array per kind of object, each grown on its own (fl-state.c); a checkpoint is their
 * bytes one after the other, the lines and page tables at rest left out (fl_state_save). */
typedef struct {
  FlStateSizes sizes;
  const FlGlobals *g;       /* this and the other plain arrays: see FlPlainMarks */
  const FlCpu *cpus;
  const FlCpuStack *stacks; /* per CPU, beside cpus */
  const FlLine *lines;      /* written only through fl_line_rw() */
  const FlVma *vmas;
  const FlTable *tables;
  guint64     *ptes;        /* ntables * 512, written only through fl_table_entries_rw() */
  const FlPage *pages;      /* written only through fl_page_rw() */
  const FlCacheEntry *cache;
  const guint32 *cache_index; /* open addressing over (file, pgoff): entry ids, 0 empty */
  const FlRcuCb *cbs;
  FlTracked    line_marks, pte_marks, page_marks;
  FlPlainMarks plain;
  guint64      identity;    /* whose versions those are: one number per state in a process */
  /* What the explorer's hash keeps of the other arrays as it last read them
   * (fl-semantic-hash-kept.c): not in the state either; fl_state_clear() frees it, NULL
   * until the first hash. */
  gpointer     plain_hash;
  /* While the explorer's states search takes a step: where the old contents of the lines,
   * pages and tables it writes go (fl-state-journal.c), so that going back costs what it
   * wrote. NULL otherwise. */
  struct _FlStateJournal *journal;
} FlState;

/* Lines of the VMAs and page tables the scenario was sized for come first, as the machine
 * was laid out before its arrays grew (events name lines by id); the lines of objects past
 * those come after, three per id: a VMA's, a table's, a table's PTE lock. Kamezawa's design
 * gives each VMA a second line, for its reference count (in vm_area_struct it lies two lines
 * past vm_start and vm_rb): those come after the PTE locks, and past them four per id. Other
 * designs have none, so their lines keep the ids they always had. */
/* Where the objects' lines start: after the fixed lines and, on a NUMA machine, the zone
 * lines of its nodes past the first (node 0 keeps FL_LINE_ZONE_LOCK and FL_LINE_LRU_LOCK, so
 * a one-zone machine keeps the ids it always had). */
static inline guint
fl_line_objects (const FlState *st)
{
  return FL_LINE_N_FIXED + st->sizes.line_nodes + st->sizes.line_memcg;
}

/* The memory cgroup's lines (memcg=on) come after the nodes' zone lines, so that without it
 * every line keeps the id it always had. */
enum {
  FL_MEMCG_LINE_CSS,        /* css.refcnt: taken by each charge, dropped by each uncharge */
  FL_MEMCG_LINE_RES,        /* res_counter: its spinlock, usage and max_usage */
  FL_MEMCG_LINE_ZONEINFO,   /* mem_cgroup_per_zone: the cgroup's LRU heads and counts */
  FL_MEMCG_N_LINES
};

static inline guint
fl_line_of_memcg (const FlState *st, guint which)
{
  return st->sizes.line_memcg ? FL_LINE_N_FIXED + st->sizes.line_nodes + which : FL_LINE_NONE;
}

static inline guint
fl_line_of_zone_lock (const FlState *st, guint node)
{
  return node == 0 ? FL_LINE_ZONE_LOCK : FL_LINE_N_FIXED + 2 * (node - 1);
}

static inline guint
fl_line_of_lru_lock (const FlState *st, guint node)
{
  return node == 0 ? FL_LINE_LRU_LOCK : FL_LINE_N_FIXED + 2 * (node - 1) + 1;
}

static inline guint
fl_line_stride (const FlState *st)
{
  return st->sizes.line_refs ? 4 : 3;
}

static inline guint
fl_line_extra (const FlState *st)
{
  return fl_line_objects (st) + st->sizes.line_vmas + 2 * st->sizes.line_tables + st->sizes.line_refs;
}

static inline guint
fl_line_of_vma (const FlState *st, guint32 vma)
{
  if (vma < st->sizes.line_vmas)
    return fl_line_objects (st) + vma;
  return fl_line_extra (st) + fl_line_stride (st) * (vma - st->sizes.line_vmas);
}

static inline guint
fl_line_of_table (const FlState *st, guint32 table)
{
  if (table < st->sizes.line_tables)
    return fl_line_objects (st) + st->sizes.line_vmas + table;
  return fl_line_extra (st) + fl_line_stride (st) * (table - st->sizes.line_tables) + 1;
}

static inline guint
fl_line_of_ptl (const FlState *st, guint32 table)
{
  if (table < st->sizes.line_tables)
    return fl_line_objects (st) + st->sizes.line_vmas + st->sizes.line_tables + table;
  return fl_line_extra (st) + fl_line_stride (st) * (table - st->sizes.line_tables) + 2;
}

/* The line of a VMA's reference count and wait queue; FL_LINE_NONE in other designs. */
static inline guint
fl_line_of_vma_ref (const FlState *st, guint32 vma)
{
  if (st->sizes.line_refs == 0)
    return FL_LINE_NONE;
  if (vma < st->sizes.line_refs)
    return fl_line_objects (st) + st->sizes.line_vmas + 2 * st->sizes.line_tables + vma;
  return fl_line_extra (st) + 4 * (vma - st->sizes.line_refs) + 3;
}

static inline const guint64 *
fl_table_entries (const FlState *st, guint32 table)
{
  return st->ptes + (gsize) table * FL_PTRS_PER_TABLE;
}

static inline gboolean
fl_tracked_bit (const guint64 *bits, guint slot)
{
  return (bits[slot / 64] >> (slot % 64)) & 1;
}

/* Whether @line may not be at rest: FALSE means it is as fl_state_line_at_rest() makes it. */
static inline gboolean
fl_line_maybe_written (const FlState *st, guint line)
{
  return fl_tracked_bit (st->line_marks.written, line);
}

/* Whether @table's entries may hold something: FALSE means all are zero. */
static inline gboolean
fl_table_maybe_written (const FlState *st, guint32 table)
{
  return fl_tracked_bit (st->pte_marks.written, table);
}

G_END_DECLS
