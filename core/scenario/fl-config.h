#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Every design choice of the 2010 story is one switch, so one scenario runs under each. */

/* speculative: Zijlstra's v2 (a sequence count per VMA, RCU-freed VMAs); speculative-refcount:
 * Kamezawa's v3 (Dec 2009), a VMA found by an RCU walk of the tree and pinned by a reference
 * count that munmap waits on. */
typedef enum { FL_FAULT_PATH_LOCKED, FL_FAULT_PATH_SPECULATIVE,
               FL_FAULT_PATH_SPECULATIVE_REFCOUNT } FlFaultPath;
typedef enum { FL_RWSEM_GENERIC, FL_RWSEM_XADD } FlRwsemKind;
typedef enum { FL_VMA_FREE_RCU, FL_VMA_FREE_IMMEDIATE } FlVmaFree;
/* When munmap drops the VMA's reference to its file (vm_file): with the VMA, after the
 * grace period (the repair), or at once in remove_vma, as v2 did while only the VMA waited
 * for RCU: a speculative file fault may then read a file already put. */
typedef enum { FL_VM_FILE_PUT_RCU, FL_VM_FILE_PUT_IMMEDIATE } FlVmFilePut;
typedef enum { FL_PTE_MAP_LOCK_TRYLOCK_LOOP, FL_PTE_MAP_LOCK_SPIN_IRQS_OFF } FlPteMapLock;
typedef enum { FL_PIN_PAGE_TABLES_IRQS_OFF, FL_PIN_PAGE_TABLES_NONE } FlPinPageTables;
typedef enum { FL_RSS_SHARED_ATOMIC, FL_RSS_PER_THREAD } FlRss;
/* Whether the speculative find_vma leaves mm->mmap_cache alone (later SPF versions) or
 * updates it without mmap_sem, as the v2 patch did (and races with munmap doing so). */
typedef enum { FL_SPF_MMAP_CACHE_LEAVE, FL_SPF_MMAP_CACHE_UPDATE } FlSpfMmapCache;
/* Whether the speculative fault looks its VMA up before taking the PTE lock (the repair:
 * the lock is then taken with the VMA known and re-checked under it) or, as v2 did, takes the
 * PTE lock first and calls find_vma holding it with IRQs back on, so that munmap's TLB flush
 * completes and the page table can be freed under the held lock. */
typedef enum { FL_SPF_FIND_VMA_BEFORE_PTE_LOCK, FL_SPF_FIND_VMA_UNDER_PTE_LOCK } FlSpfFindVma;
/* Whether mprotect_fixup changes vm_flags and the PTEs inside a write section of the VMA's
 * sequence count (later SPF versions) or outside it, as v2 did: v2 bracketed only vma_adjust,
 * so an mprotect that needs no split is invisible to a speculative fault. */
typedef enum { FL_MPROTECT_SEQCOUNT_BRACKETED, FL_MPROTECT_SEQCOUNT_UNBRACKETED } FlMprotectSeqcount;
/* The RCU a kernel is built with. The patch selects TREE_PREEMPT_RCU, where a reader that
 * blocks keeps the grace period waiting; under classic (TREE_RCU) readers run with
 * preemption off, so sleeping in a read-side section is a bug, and the context switch it
 * causes is a quiescent state that can end the grace period under the reader. */
typedef enum { FL_RCU_PREEMPTIBLE, FL_RCU_CLASSIC } FlRcuKind;
/* The VMA reference count of Kamezawa's design: biased (his fix of 5 Jan 2010: munmap
 * subtracts a large bias and waits for the count to come back to minus the bias, the last
 * vma_put wakes it), as-posted (v3 of 25 Dec 2009: munmap drops the base reference and waits
 * for zero, but vma_put wakes it only when the count falls to one — the wake-up for the last
 * reference is lost), or no-wait (munmap does not wait at all: the safety switched off). */
typedef enum { FL_VMA_REFCOUNT_BIASED, FL_VMA_REFCOUNT_AS_POSTED,
               FL_VMA_REFCOUNT_NO_WAIT } FlVmaRefcount;
typedef enum { FL_ORACLE_EVERY_STEP, FL_ORACLE_AT_END } FlOracleMode;
typedef enum { FL_NUMA_OFF, FL_NUMA_PER_SOCKET } FlNuma;

/* Cycle costs of the coherence model; one table for every design (REFERENCE.md). */
typedef struct {
  guint32 l1_hit;          /* line already held in a usable state */
  guint32 llc;             /* a read served by the socket's shared last-level cache */
  guint32 local_load;      /* transfer from a core of the same socket: load / store / atomic */
  guint32 local_store;
  guint32 local_rmw;
  guint32 remote_load;     /* transfer from the other socket (one hop) */
  guint32 remote_store;
  guint32 remote_rmw;
  guint32 dram;            /* line held by nobody: memory */
  guint32 locked_rmw;      /* uncontended locked instruction on a line we own */
  guint32 invalidate_extra;/* each further sharer a store or atomic must invalidate */
  guint32 exception;       /* fault entry + exit (exception frame, iret) */
  guint32 zero_page;       /* clearing one 4 KiB page */
  guint32 ipi;             /* sending and taking one inter-processor interrupt */
  guint32 swap_io;         /* reading one page back from swap (a major fault sleeps this long) */
  guint32 op_overhead;     /* the user-space instructions between two operations */
  guint32 step;            /* the instructions of one modeled step beyond its memory access */
  guint32 occupancy;       /* % of a transfer's latency the line stays busy for the next one */
  guint32 hold;            /* how long a writer's next access is served by its own copy */
  guint32 crossing;        /* a request's one-way trip to the socket that holds the line */
  guint32 mhz;             /* simulated clock, for "per second" figures */
} FlCostTable;

typedef struct {
  guint         cpus;
  guint         sockets;
  guint         cores_per_socket;
  guint         topology_given;
  FlNuma        numa;           /* one zone, or a memory node (and zone) per socket */ /* FL_TOPOLOGY_*_GIVEN: which of the two were set, not derived */
  FlFaultPath   fault_path;
  FlRwsemKind   rwsem;
  FlVmaFree     vma_free;
  FlVmFilePut   vm_file_put;
  gboolean      spf_seqcheck;
  FlSpfMmapCache spf_mmap_cache;
  FlSpfFindVma  spf_find_vma;
  gboolean      spf_access_check;  /* the speculative path checks the VMA allows the access */
  FlMprotectSeqcount mprotect_seqcount;
  FlRcuKind     rcu;
  FlPteMapLock  pte_map_lock;
  FlPinPageTables pin_page_tables;
  FlRss         rss;
  FlVmaRefcount vma_refcount;
  gboolean      memcg;         /* pages charged to a memory cgroup (2.6.33's memcg, fl-memcg.c) */
  FlOracleMode  oracle;
  FlCostTable   cost;
  guint         budget;        /* steps a run may take before it stops (0: no budget) */
} FlConfig;

/* A topology key nobody set follows `cpus` (fl_config_set); one that was set stays. */
#define FL_TOPOLOGY_SOCKETS_GIVEN 1u
#define FL_TOPOLOGY_CORES_GIVEN   2u

#define FL_MAX_CPUS 256
#define FL_MAX_SOCKETS 64
#define FL_CONFIG_MAX_NODES 8u  /* memory nodes of numa=per-socket (FL_MAX_NODES in the state) */
/* The step budget when nothing sets one: about 300 MB of events and checkpoints
 * (docs/performance.md), seconds of simulation. */
#define FL_DEFAULT_BUDGET 10000000u

#define FL_CONFIG_ERROR (fl_config_error_quark ())
GQuark fl_config_error_quark (void);
typedef enum { FL_CONFIG_ERROR_UNKNOWN_KEY, FL_CONFIG_ERROR_BAD_VALUE } FlConfigError;

void         fl_config_init_defaults (FlConfig *config);
gboolean     fl_config_set           (FlConfig   *config,
                                      const char *key,
                                      const char *value,
                                      GError    **error);
char        *fl_config_get           (const FlConfig *config,
                                      const char     *key);
const char *const *fl_config_keys    (void);
const char *const *fl_config_presets (void);
GStrv        fl_config_preset_keys   (const char *key,
                                      const char *value);
const char  *fl_config_valid_values  (const char *key);
const char  *fl_config_key_about     (const char *key);
const char  *fl_config_value_about   (const char *key,
                                      const char *value);
gboolean     fl_config_validate      (const FlConfig *config,
                                      GError        **error);
char        *fl_config_describe      (const FlConfig *config);
char        *fl_config_describe_all  (const FlConfig *config);
guint        fl_config_socket_of     (const FlConfig *config,
                                      guint           cpu);

G_END_DECLS
