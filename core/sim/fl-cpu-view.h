#pragma once

#include <glib.h>

#include "fl-config.h"
#include "fl-listing.h"
#include "fl-loc.h"
#include "fl-sim.h"
#include "fl-state-view.h"

G_BEGIN_DECLS

/* What a CPU is doing at one step, decoded once from the state: its stack of functions with
 * where each stands in its listing, where it goes next, and, when it waits, the line it waits
 * at, what for and on whom. The frames' locals are the step functions' (core/sim/fl-frame-locals.h);
 * this is the one place outside them that reads them, so views and tests never do.
 * Plain data: a view is filled in place, holds no pointers into the state, and stays valid
 * after the simulation moves on. */

typedef enum {
  FL_CPU_WAIT_NONE,
  FL_CPU_WAIT_LOCK,           /* its ticket of a spinlock to come up (spin_lock) */
  FL_CPU_WAIT_LOCK_RELEASE,   /* a busy lock to be released, to try again (a trylock loop) */
  FL_CPU_WAIT_RWSEM,          /* mmap_sem, asleep on its wait list */
  FL_CPU_WAIT_TLB_ACK,        /* the acknowledgements of the TLB-flush IPIs it sent */
  FL_CPU_WAIT_MIGRATION,      /* a page migration to finish (migration_entry_wait) */
  FL_CPU_WAIT_BARRIER,        /* the other threads to reach a pthread barrier */
  FL_CPU_WAIT_SCHEDULE,       /* its turn in the scenario's scripted schedule */
  FL_CPU_WAIT_VMA_REFS,       /* the speculative faults' references to a VMA to be dropped */
  FL_CPU_WAIT_N
} FlCpuWait;

typedef struct {
  FlFn  fn;
  /* the top frame: its current line (see FlCpuView.loc); an outer frame: the line it goes on
   * at when its callee returns, FL_LOC_NONE when it tail-called (it returns with the callee) */
  FlLoc loc;
} FlCpuViewFrame;

/* The objects a CPU's fault works on, for the VMA and page-table views. Ids, not
 * references; 0 when none. */
typedef struct {
  gboolean in_fault;
  gboolean speculative;
  guint64  address;             /* the faulting address when in_fault */
  guint32  visiting_vma;        /* find_vma's current node */
  guint32  held_vma;            /* the VMA the fault works on */
  guint32  walk_table;          /* the page table the walk stands on */
  gboolean at_pte;              /* past the walk: working on the PTE */
  guint32  spin_table;          /* the page table whose PTE lock it spins on */
  /* a lookup without mmap_sem under way: the VMA that holds its address, which a writer's
   * tree change (a rotation) has moved out of the walk's reach, so that the walk will miss
   * it; 0 when none. hidden_by is that writer's CPU. */
  guint32  hidden_vma;
  guint    hidden_by;
} FlCpuFault;

typedef struct {
  guint           cpu;
  FlCpuStatus     status;
  gboolean        irqs_off;
  guint           depth;        /* frames in use; 0 in user space */
  FlCpuViewFrame  frames[FL_MAX_DEPTH];
  FlFn            fn;           /* the function it is in: the top frame's, FL_FN_USER outside */
  /* its current line, always a location of `fn`: where it waits when it waits, otherwise
   * the line its next step runs */
  FlLoc           loc;
  /* the line of `fn` its next step runs: `loc` for a running CPU, where it goes on once
   * woken for a waiting one */
  FlLoc           next;
  gboolean        ipi_first;    /* a TLB-flush IPI is pending with IRQs on: taken first */
  FlCpuWait       wait;         /* FL_CPU_WAIT_NONE when it can step */
  guint32         wait_obj;     /* the lock (FL_CPU_WAIT_LOCK*), the migration entry */
  gint            holder;       /* the CPU holding what it waits for (the scripted CPU), -1 */
  guint64         waits_on[FL_MAX_CPUS / 64];   /* every CPU it waits on, holder included */
  char            wait_name[48];  /* "PTE lock of table 4", "mmap_sem"; "" when not waiting */
  guint           script_entry; /* FL_CPU_WAIT_SCHEDULE: the [schedule] entry that runs */
  FlCpuFault      fault;
} FlCpuView;

void      fl_cpu_view_decode     (const FlState *st, guint cpu, FlCpuView *out);
void      fl_sim_get_cpu_view    (FlSim *sim, guint cpu, FlCpuView *out);
void      fl_cpu_fault_decode    (const FlState *st, guint cpu, FlCpuFault *out);

gboolean  fl_cpu_view_is_waiting (const FlCpuView *view);
gboolean  fl_cpu_view_waits_on   (const FlCpuView *view, guint cpu);
guint     fl_cpu_view_n_waits_on (const FlCpuView *view);
FlListing *fl_cpu_view_listing   (const FlCpuView *view, const FlConfig *config);
gint      fl_cpu_view_line       (const FlCpuView *view, const FlConfig *config);
const char *fl_cpu_wait_name     (FlCpuWait wait);
int       fl_cpu_parked_activity (const FlState *st, guint cpu);

/* Does an id a view found name an object still there (a VMA not freed, a live table)? */
gboolean  fl_state_vma_in_use    (const FlState *st, guint32 id);
gboolean  fl_state_table_live    (const FlState *st, guint32 id);
gboolean  fl_state_vma_holds_file (const FlState *st, guint32 id);

G_END_DECLS
