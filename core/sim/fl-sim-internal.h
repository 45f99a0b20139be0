#pragma once

/* Internal to the simulation: the FlSim object and the helpers every step function uses. */

#include "fl-sim.h"
#include "fl-state.h"
#include "fl-event-log.h"
#include "fl-footprint.h"
#include "fl-spare.h"

G_BEGIN_DECLS

typedef enum { FL_ACCESS_READ, FL_ACCESS_WRITE, FL_ACCESS_RMW } FlAccess;

typedef struct {
  guint64 step;
  FlStateSizes sizes;       /* the state's arrays grow: each copy has the sizes it had */
  gsize    bytes;
  guint8  *block;
  /* the run's hash of its events up to here, and how many: a new branch from a later step
   * hashes the kept events on from there, not from the first */
  gsize    events;
  guint64  hash;
} FlCheckpoint;

/* What a simulation records as it steps: a run in the making. The simulation that steps owns
 * it; a finished run (FlRun, fl-run.c) takes it over and never changes it again, and the
 * simulations its cursors replay with only read it (FlSim.borrowed: they replay, and
 * replaying records nothing). */
typedef struct {
  FlScenario   *scenario;
  guint64       seed;
  FlEventLog    events;         /* the whole run so far */
  GPtrArray    *findings;       /* FlFinding * */
  GArray       *unreached;      /* FlScheduleMiss: script points passed over (fl-sched.c) */
  GArray       *step_starts;    /* FlStepStart, by increasing event index */
  GArray       *pte_installs;   /* who installed which PTE, for findings' causes (fl-finding-cause.c) */
  GArray       *file_puts;      /* who put which file in remove_vma, likewise */
  GArray       *spf_misses;     /* FlSpfMiss: lookups without mmap_sem that missed (fl-oracle-walk.c) */
  guint64       hash;           /* of events[0 .. events->len) */
  /* checkpoints: every `checkpoint_every` steps a copy of the state */
  GArray       *checkpoints;    /* FlCheckpoint */
} FlRecord;

#define FL_SIM_RECENT 256

struct _FlSim {
  FlConfig      config;
  FlRecord     *rec;            /* what it recorded; a run's, only read, when `borrowed` */
  gboolean      borrowed;
  FlScenario   *scenario;       /* rec->scenario */
  guint64       seed;
  FlSchedPolicy policy;
  FlState       st;
  GString      *tree_why;       /* what the oracle's tree check found wrong (fl-oracle.c) */
  struct _FlOracleMappings *mappings;  /* what the stale-mapping check may skip (fl-oracle-mappings.c) */
  FlEvent       ev;             /* the event of the step being taken */
  guint         step_cpu;
  FlSparePool   dropped;        /* blocks of checkpoints dropped by seeks, for the next ones */
  guint64       checkpoint_every;
  gboolean      replaying;      /* re-stepping after a seek: events already recorded */
  gboolean      stepping;       /* inside fl_sim_take_step (findings number their step) */
  gboolean      completed;      /* the end was reached once: its findings are recorded */
  FlStopReason  stop;           /* why the run ended before its end (fl-sim-limits.c) */
  char         *stop_message;
  /* the topology as tables, from the configuration once: the coherence model asks which
   * socket a CPU is on for every sharer of every line it fetches */
  guint8        socket_of[FL_MAX_CPUS];
  guint64       socket_cpus[FL_MAX_SOCKETS][FL_MAX_CPUS / 64];
  gboolean      checkpoint_fixed; /* the explorer's spacing: not widened as the state grows */
  gboolean      checkpoint_paused;/* the explorer knows no seek will come back past here */
  guint64       replayed_steps; /* steps seeks have re-run since the simulation began */
  /* while the explorer runs: what the step being taken reads and writes (NULL otherwise) */
  FlFootprint  *footprint;
  /* The run's hash after each of its last events, by count of events mod FL_SIM_RECENT
   * (the explorer's simulations only: checkpoint_fixed): a new branch a few steps back takes
   * its hash from here instead of hashing again the events since the last checkpoint
   * (truncate_future). Valid where `count` matches. */
  struct { gsize count; guint64 hash; } recent[FL_SIM_RECENT];
};

/* the record (fl-record.c) */
FlRecord *fl_record_new        (const FlScenario *scenario, guint64 seed, GError **error);
FlRecord *fl_record_copy       (const FlRecord *rec, gsize events);
void      fl_record_free       (FlRecord *rec);
gsize     fl_record_find_step  (const FlRecord *rec, guint64 step);
gsize     fl_record_events_range (const FlRecord *rec, gsize first, gsize n, FlEvent *out);
guint64   fl_record_total_steps (const FlRecord *rec);
gboolean  fl_record_spf_miss   (const FlRecord *rec, guint64 step, guint cpu, FlSpfMiss *out);
char     *fl_record_explain_event (const FlRecord *rec, const FlEvent *event);
char     *fl_record_describe_unreached (const FlRecord *rec, const FlScheduleMiss *miss);

/* simulations over a finished run's record (fl-sim.c; fl-run.c, fl-cursor.c use them) */
FlSim    *fl_sim_new_replayer  (FlRecord *rec, const FlConfig *config, FlSchedPolicy policy,
                                FlStopReason stop);
FlSim    *fl_sim_copy_replayer (const FlSim *from);
FlSim    *fl_sim_new_branch    (const FlSim *from, guint64 checkpoint_every);

typedef void (*FlStepFn) (FlSim *sim, guint cpu, FlFrame *frame);

/* One step function per modeled function, in fl-*.c files. */
FlStepFn fl_step_fn_of (FlFn fn);
FlLoc    fl_frame_loc  (const FlFrame *frame);
FlFn     fl_fn_steps_of(FlFn fn);   /* the function whose step locations a variant uses */

/* frames */
FlFrame *fl_call     (FlSim *sim, guint cpu, FlFn fn, FlLoc resume_at, guint32 subject);
void     fl_return   (FlSim *sim, guint cpu, guint32 value);
FlFrame *fl_caller   (FlSim *sim, guint cpu);

/* time and cache lines */
gboolean fl_touch    (FlSim *sim, guint cpu, guint line, FlAccess access);
void     fl_charge   (FlSim *sim, guint cpu, guint64 cycles);
void     fl_touch_page (FlSim *sim, guint cpu, guint32 page);
gboolean fl_touch_owned (FlSim *sim, guint cpu, guint16 *owner);
/* the memory controller (memcg=on, fl-memcg.c); each does nothing with memcg=off */
void     fl_memcg_uncharge     (FlSim *sim, guint cpu, guint32 page);
void     fl_memcg_uncharge_end (FlSim *sim, guint cpu);
void     fl_memcg_lru          (FlSim *sim, guint cpu, guint pages);
void     fl_memcg_lru_link     (FlSim *sim, guint cpu, guint32 head);
FlMesi   fl_mesi     (const FlState *st, guint line, guint cpu);
guint64  fl_line_reload (FlSim *sim, guint line, guint cpu, guint64 at);
void     fl_line_reload_many (FlSim *sim, guint line, const guint *cpus, guint n, guint64 at,
                              guint64 *seen);

/* A CPU now holds a shared copy of the line (inline: every spinner's reload does this). */
static inline void
fl_line_add_sharer (FlState *st, guint line, guint cpu)
{
  fl_line_rw (st, line)->sharers[cpu / 64] |= G_GUINT64_CONSTANT (1) << (cpu % 64);
}

/* xorshift64*: the dice of the random schedule (its state in the machine state) and of the
 * explorer's independence check (its own). */
static inline guint64
fl_xorshift64star (guint64 *state)
{
  guint64 x = *state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *state = x;
  return x * 0x2545f4914f6cdd1dull;
}

/* The explorer's record of a step's reads and writes that no line access tells. */
static inline void
fl_note (FlSim *sim, guint32 key, gboolean write)
{
  if (G_UNLIKELY (sim->footprint != NULL))
    fl_footprint_add (sim->footprint, key, write);
}

/* A read of every CPU's group of fields (the oracle asking who is a writer, say). */
void fl_note_all_cpus (FlSim *sim, FlKeyKind group);
void fl_note_vma_list (FlSim *sim);
void fl_sim_fix_checkpoints (FlSim *sim, guint64 every);
/* For the explorer: no copies of the state are taken while @paused, since it knows it will
 * not seek back to any step taken meanwhile (a seek stays right: it replays from an earlier
 * copy, at worst the first). */
void fl_sim_pause_checkpoints (FlSim *sim, gboolean paused);
/* For the explorer: fl_sim_step_cpu() with @j keeping the state the step began from (and
 * what follows until the next such step or undo: finishing the run), and taking back the @n
 * steps of @journals (oldest first, the last the step taken last): the state a seek to the
 * first gives, the run past it dropped at the next step as after a seek. Returns: how many
 * were taken back, fewer when one grew an array (a seek goes the rest of the way). */
gboolean fl_sim_step_cpu_journaled (FlSim *sim, guint cpu, FlStateJournal *j);
guint    fl_sim_undo_steps         (FlSim *sim, FlStateJournal *const *journals, guint n);
/* The last journaled step's journal is closed: what follows is not kept in it. */
void     fl_sim_end_journal        (FlSim *sim);

/* events */
static inline void
fl_ev (FlSim *sim, FlEventKind kind, guint32 obj, guint32 val)
{
  sim->ev.kind = kind;
  sim->ev.obj = obj;
  sim->ev.val = val;
}

/* A new finding (its cause filled in by fl_finding_explain()), or NULL when it is not new */
FlFinding *fl_finding (FlSim *sim, guint cpu, FlFindingKind kind, guint32 obj,
                       const char *format, ...) G_GNUC_PRINTF (5, 6);

/* findings' causes (fl-finding-cause.c): what kind of defect a finding is decides which
 * switched-off safeguards its sentence names */
typedef enum {
  FL_DEFECT_NONE,
  FL_DEFECT_RACED_MPROTECT,   /* a fault installed a PTE while mprotect changed its VMA */
  FL_DEFECT_RACED_UNMAP,      /* ... while munmap removed it */
  FL_DEFECT_NO_ACCESS_CHECK,  /* a fault did what its VMA forbids */
  FL_DEFECT_VMA_FREED,        /* a VMA was freed under a reader */
  FL_DEFECT_TABLE_FREED,      /* a page table was freed under its lock's holder */
  FL_DEFECT_SPIN_IRQS_OFF,    /* a CPU spun with IRQs off while others sent it IPIs */
  FL_DEFECT_RCU,              /* an RCU reader slept or was not waited for */
  FL_DEFECT_FILE_PUT,         /* a file was put while a reader held its VMA */
} FlDefect;
void     fl_finding_explain   (FlSim *sim, FlFinding *f);
void     fl_finding_caused_by (FlSim *sim, FlFinding *f, guint cpu, guint64 step,
                               FlDefect defect, const char *format, ...) G_GNUC_PRINTF (6, 7);
void     fl_cause_init        (FlRecord *rec);
void     fl_cause_note_pte    (FlSim *sim, guint cpu, guint64 addr);
void     fl_cause_truncate    (FlSim *sim, guint64 step);
gboolean fl_cause_pte_installer (FlSim *sim, guint32 table, guint index, guint *cpu,
                                 guint64 *step);
void     fl_cause_note_file_put (FlSim *sim, guint cpu, guint32 file);
gboolean fl_cause_file_putter (FlSim *sim, guint32 file, guint *cpu, guint64 *step);

/* the mappings' struct files (fl-vm-file.c) */
guint32  fl_file_open       (FlSim *sim);
void     fl_file_get        (FlSim *sim, guint32 ref);
gboolean fl_vma_put_file    (FlSim *sim, guint cpu, guint32 vma, gboolean removing);
gboolean fl_check_vm_file   (FlSim *sim, guint cpu, guint32 vma);

/* parking and waking */
void     fl_park     (FlSim *sim, guint cpu, FlCpuStatus status, guint32 wait_obj);
void     fl_wake     (FlSim *sim, guint cpu, guint64 at);

/* spinlocks (ticket locks): the fields live in the owner object, the id names them */
typedef enum {
  FL_LOCK_WAIT_LOCK,      /* mmap_sem's wait_lock (generic rwsem) */
  FL_LOCK_PAGE_TABLE,     /* mm->page_table_lock */
  FL_LOCK_ZONE,           /* zone->lock */
  FL_LOCK_LRU,            /* zone->lru_lock */
  FL_LOCK_PTL,            /* split PTE lock of table `index` */
} FlLockKind;
#define FL_LOCK_ID(kind, index) (((guint32) (kind) << 24) | (index))
#define FL_LOCK_KIND(id)        ((FlLockKind) ((id) >> 24))
#define FL_LOCK_INDEX(id)       ((id) & 0xffffff)

guint    fl_lock_line   (FlSim *sim, guint32 lock);
gboolean fl_lock_try    (FlSim *sim, guint cpu, guint32 lock);
void     fl_lock_release(FlSim *sim, guint cpu, guint32 lock);
gint32   fl_lock_holder (FlSim *sim, guint32 lock);
const char *fl_lock_name(FlSim *sim, guint32 lock, char *buf, gsize size);

/* checks on objects a step touches: report use-after-free, return whether it is alive */
gboolean fl_check_vma   (FlSim *sim, guint cpu, guint32 vma_ref);
gboolean fl_check_table (FlSim *sim, guint cpu, guint32 table_ref);

static inline guint32 fl_ref_id  (guint32 ref) { return ref & 0xffff; }
static inline guint32 fl_vma_ref (const FlState *st, guint32 id)
{ return id ? id | ((guint32) st->vmas[id].gen << 16) : 0; }
static inline guint32 fl_table_ref (const FlState *st, guint32 id)
{ return id ? id | ((guint32) st->tables[id].gen << 16) : 0; }

/* memory objects (fl-mm.c) */
guint32  fl_vma_alloc    (FlSim *sim);
void     fl_vma_free_now (FlSim *sim, guint32 vma);
guint32  fl_table_alloc  (FlSim *sim, guint level, guint64 base);
void     fl_table_free   (FlSim *sim, guint cpu, guint32 table);
guint32  fl_page_take    (FlSim *sim);          /* from the zone: no steps, set-up only */
guint    fl_node_of      (FlSim *sim, guint cpu);
/* lists linked through struct page (fl-page-list.c); a @cpu of -1 is the set-up's */
typedef struct {
  guint32 *head;
  guint32 *tail;            /* NULL for a list that keeps none */
} FlPageList;
void     fl_page_list_insert (FlSim *sim, gint cpu, FlPageList list, guint32 prev, guint32 page);
void     fl_page_list_del    (FlSim *sim, gint cpu, FlPageList list, guint32 page);
/* the buddy allocator (fl-buddy.c); a @cpu of -1 is the set-up's, which costs nothing */
guint32  fl_zone_pop     (FlSim *sim, gint cpu, guint node);
void     fl_zone_push    (FlSim *sim, gint cpu, guint32 page);
guint32  fl_zone_free    (const FlState *st, guint node);
void     fl_zone_grow    (FlState *st);
guint64  fl_zone_room    (const FlState *st);
guint32  fl_page_cache_get (FlSim *sim, guint32 file, guint32 pgoff);
guint32  fl_walk_index   (guint level, guint64 addr);
guint32  fl_lookup_table (const FlState *st, guint64 addr, guint level);
FlRbAccess fl_vma_rb_access    (const FlState *st);
FlRbAccess fl_vma_rb_access_rw (FlState *st);
guint32  fl_vma_covering (const FlState *st, guint64 addr);
void     fl_rss_add      (FlSim *sim, guint cpu, gboolean anon, gint64 delta);
guint64  fl_rng_next     (FlState *st);

/* RCU (fl-rcu.c) */
void     fl_rcu_read_lock   (FlSim *sim, guint cpu);
void     fl_rcu_read_unlock (FlSim *sim, guint cpu);
void     fl_rcu_call        (FlSim *sim, guint cpu, guint32 vma);
void     fl_rcu_after_step  (FlSim *sim, guint cpu);
gboolean fl_rcu_has_ready   (FlSim *sim, guint cpu);
void     fl_rcu_do_batch    (FlSim *sim, guint cpu);
gboolean fl_rcu_idle        (FlSim *sim);
void     fl_rcu_may_sleep   (FlSim *sim, guint cpu, const char *what);
void     fl_rcu_sleep       (FlSim *sim, guint cpu, const char *what);

/* TLB flushes (fl-tlb.c) */
void     fl_tlb_take_ipi    (FlSim *sim, guint cpu);
gboolean fl_tlb_can_take_ipi (FlSim *sim, guint cpu);

/* the oracle (fl-oracle.c) */
void     fl_oracle_after_step (FlSim *sim, guint cpu);
/* fl-oracle-mappings.c: which PTE tables changed since the last stale-mapping check */
void     fl_oracle_pte_written      (FlSim *sim, guint32 table);
void     fl_oracle_mappings_step    (FlSim *sim);
gboolean fl_oracle_mappings_begin   (FlSim *sim);
gboolean fl_oracle_mappings_suspect (FlSim *sim, guint32 table);
void     fl_oracle_mappings_end     (FlSim *sim, gboolean clean);
void     fl_oracle_mappings_clear   (FlSim *sim);
void     fl_oracle_check_pte  (FlSim *sim, guint cpu, guint64 addr);
void     fl_oracle_full       (FlSim *sim, gboolean at_end);
gboolean fl_oracle_deadlock   (FlSim *sim, guint cpu);
void     fl_oracle_op_done    (FlSim *sim, guint cpu);
void     fl_oracle_fault_allowed (FlSim *sim, guint cpu, guint64 addr, guint32 fault_flags,
                                  guint32 vma_ref);
/* fl-oracle-walk.c: the VMA a lookup without mmap_sem should find, and whether it missed it */
void     fl_walk_truncate     (FlSim *sim, guint64 step);
void     fl_walk_begin        (FlSim *sim, guint cpu, guint64 addr);
void     fl_walk_tree_changed (FlSim *sim, guint cpu, const FlRbCursor *cur);
gboolean fl_walk_end          (FlSim *sim, guint cpu, guint64 addr, guint32 found);
void     fl_walk_describe     (FlSim *sim, const FlEvent *e, GString *s);

/* IRQs */
void     fl_irqs_off (FlSim *sim, guint cpu);
void     fl_irqs_on  (FlSim *sim, guint cpu);

#define FL_VM_FAULT_RETRY  0x400u
#define FL_VM_FAULT_SIGSEGV 0x1u
#define FL_VM_FAULT_MAJOR  0x4u
#define FL_VM_FAULT_REFAULT 0x800u  /* nothing mapped: the access will fault again */
#define FL_FAULT_WRITE     1u
#define FL_FAULT_SPEC      8u

/* The access check of do_page_fault: do a VMA's FL_VM_* flags allow a fault with these
 * FL_FAULT_* flags? */
static inline gboolean fl_vm_flags_allow (guint32 vm_flags, guint32 fault_flags)
{
  return (fault_flags & FL_FAULT_WRITE) ? (vm_flags & FL_VM_WRITE) != 0
                                        : (vm_flags & (FL_VM_READ | FL_VM_EXEC)) != 0;
}

static inline gboolean fl_vma_allows (const FlVma *vma, guint32 fault_flags)
{
  return fl_vm_flags_allow (vma->flags, fault_flags);
}

G_END_DECLS

G_BEGIN_DECLS
gboolean fl_spin_trylock        (FlSim *sim, guint cpu, guint32 lock);
void     fl_spin_wait_released  (FlSim *sim, guint cpu, guint32 lock);
G_END_DECLS

G_BEGIN_DECLS
typedef enum { FL_RWSEM_TRYLOCK, FL_RWSEM_DOWN_READ, FL_RWSEM_UP_READ, FL_RWSEM_DOWN_WRITE,
               FL_RWSEM_UP_WRITE } FlRwsemOp;
FlFn fl_rwsem_fn (FlSim *sim, FlRwsemOp op);
G_END_DECLS

G_BEGIN_DECLS
void fl_gather_page (FlSim *sim, guint cpu, guint32 page);
void fl_put_page    (FlSim *sim, guint cpu, guint32 page);
G_END_DECLS

/* a writer asleep until a VMA's references are gone waits on this (speculative-refcount) */
#define FL_VMA_REF_WAIT(vma) (0x20000000u | (guint32) (vma))
G_BEGIN_DECLS
guint fl_refcount_holders (const FlState *st, guint32 vma, guint *out);
G_END_DECLS

/* a CPU asleep on a migration entry waits on this object (migration_entry_wait) */
#define FL_MIGRATION_WAIT(table, index) (0x40000000u | ((guint32) (table) << 9) | (index))
/* a CPU asleep on mmap_sem's wait list waits on this object */
#define FL_RWSEM_WAIT 0x5e3u
/* a thread at the pthread barrier between the workload's phases waits on this object */
#define FL_BARRIER_WAIT 0xbabeu
