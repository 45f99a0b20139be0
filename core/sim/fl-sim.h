#pragma once

#include <glib.h>
#include "fl-config.h"
#include "fl-event.h"
#include "fl-loc.h"
#include "fl-scenario.h"
#include "fl-state-view.h"

G_BEGIN_DECLS

/* The public face of the simulation, which steps and records: what the CLI, the store, the
 * explorer and the benchmarks drive. What it recorded becomes a run (fl-run.h), which the
 * window and the painters read through cursors (fl-cursor.h). */

typedef struct _FlSim FlSim;

typedef enum {
  FL_SCHED_TIME,      /* discrete-event: smallest clock steps next, ties by CPU id */
  FL_SCHED_SCRIPT,    /* the scenario's [schedule], then discrete-event */
  FL_SCHED_RANDOM,    /* seeded random choice among the CPUs that can step */
  FL_SCHED_EXTERNAL,  /* the caller picks (fl_sim_step_cpu) */
} FlSchedPolicy;

typedef enum {
  FL_FINDING_USE_AFTER_FREE,
  FL_FINDING_STALE_MAPPING,
  FL_FINDING_DEADLOCK,
  FL_FINDING_RCU_EARLY_FREE,
  FL_FINDING_TREE_INVARIANT,
  FL_FINDING_REFCOUNT,
  FL_FINDING_RSS_IMBALANCE,
  FL_FINDING_LOCK_IMBALANCE,
  FL_FINDING_FREED_WHILE_LOCKED,
  FL_FINDING_MISSED_SIGSEGV,
  FL_FINDING_SLEEP_IN_RCU,
  FL_FINDING_N_KINDS
} FlFindingKind;

/* Why a run ended before every CPU was done (or stuck). */
typedef enum {
  FL_STOP_NONE,       /* it did not: it runs on, or it is over */
  FL_STOP_BUDGET,     /* the step budget (the `budget` key) ran out */
  FL_STOP_LIMIT,      /* it outgrew a limit of the machine (docs/scenario-format.md) */
  FL_STOP_INTERRUPTED,/* whoever ran it stopped it (fl_sim_interrupt: the window's Stop) */
} FlStopReason;

/* The objects a finding names, as the model knew them when it raised it: what the views mark.
 * 0 (or -1) where it names none. */
typedef struct {
  guint32 vma;
  guint32 table;              /* a page-table page */
  gint32  pte;                /* index of the PTE in `table` */
  guint32 page;               /* a page frame */
  gboolean ptl;               /* the PTE lock of `table`, which lives in that page */
  gint32  holder;             /* the CPU holding that lock */
} FlFindingObjects;

typedef struct {
  FlFindingKind kind;
  guint64 step;               /* the step that found it, from 1: the state after it shows it */
  guint   cpu;                /* the CPU whose step found it */
  guint32 obj;
  char   *message;            /* what is wrong */
  /* what made it wrong: the CPU whose action is the defect (it installed the stale PTE, freed
   * the locked table, spun with IRQs off), the step of that action (from 1), and a sentence
   * linking cause and effect, naming the switch whose unsafe value let it happen */
  guint   cause_cpu;
  guint64 cause_step;
  char   *cause;
  FlFindingObjects objects;
} FlFinding;

/* A point of the scenario's [schedule] the script moved past without its CPU reaching it:
 * the CPU's program ended (or it got stuck) first, so the interleaving it was to set up did
 * not happen. */
typedef struct {
  guint   index;              /* into the scenario's schedule */
  guint64 step;               /* the step after which the script gave it up */
  gboolean stuck;             /* its CPU was stuck rather than done */
} FlScheduleMiss;

/* When a step began, for a step that did not begin where its CPU's last one ended (kept
 * beside the events, never in them: the events and their hash are the run's identity). The
 * lanes draw the gaps: time a running CPU was held back by the schedule script or the dice
 * is "waiting for its turn", not what it was doing before. */
typedef struct {
  gsize    index;             /* the step's event */
  guint64  ready;             /* the CPU's clock when it was picked: its last step's end, or
                               * when it was woken */
  guint64  begun;             /* when it could start: later than ready when it was held back
                               * while another CPU's time moved on */
  guint64  work;              /* when its work began: later than begun for a TLB-flush IPI
                               * taken before it reached the CPU */
  gboolean parked;            /* the CPU was parked (spinning, asleep, waiting for IPI
                               * acknowledgements) when it took the step: an IPI handler */
} FlStepStart;

typedef struct {
  guint64 total, speculative, retried, locked, errors, minor, major;
  guint64 pgfault;            /* the PGFAULT vm event as the kernel counts it (see FlCpu) */
  guint64 missed;             /* speculative lookups that missed a VMA the tree held all along
                               * (a rotation moved it out of the walk's way): each retried */
  guint64 cycles;             /* the largest CPU clock: simulated time of the run */
  guint64 transfers;          /* cache-line transfers between CPUs, all lines */
} FlCounters;

/* A speculative lookup that ended without the VMA that contained its address in the tree
 * from the walk's first read of the root to its end: the rb-tree is not RCU-safe, and a
 * writer's rotation can move a node out from under a walker (docs/model.md, "Linus's
 * objection: a walk that misses its VMA"). */
typedef struct {
  guint64 step;               /* the step that found it, at the range check (from 1) */
  guint   cpu;                /* the CPU whose walk missed */
  guint32 vma;                /* the VMA it missed */
  gint    cause_cpu;          /* the writer whose tree change hid it; -1 when none was seen */
  guint64 cause_step;         /* that change's step (from 1) */
  guint   cause_action;       /* FlRbAction of that change */
  guint32 cause_subject;      /* the node that change acted on (a rotation's pivot) */
  guint32 node;               /* the node the walk stood on, which the VMA left */
} FlSpfMiss;

#define FL_SIM_ERROR (fl_sim_error_quark ())
GQuark fl_sim_error_quark (void);
typedef enum { FL_SIM_ERROR_CONFIG, FL_SIM_ERROR_SCENARIO, FL_SIM_ERROR_CAPACITY } FlSimError;

FlSim          *fl_sim_new              (const FlScenario *scenario,
                                         const FlConfig   *config,
                                         guint64           seed,
                                         GError          **error);
void            fl_sim_free             (FlSim *sim);
void            fl_sim_set_policy       (FlSim *sim, FlSchedPolicy policy);
FlSchedPolicy   fl_sim_get_policy       (FlSim *sim);
gboolean        fl_sim_step             (FlSim *sim);
gboolean        fl_sim_step_cpu         (FlSim *sim, guint cpu);
gboolean        fl_sim_cpu_can_step     (FlSim *sim, guint cpu);
guint64         fl_sim_run              (FlSim *sim, guint64 max_steps);
gboolean        fl_sim_step_in_budget   (FlSim *sim);
guint64         fl_sim_run_in_budget    (FlSim *sim, guint64 max_steps);
void            fl_sim_interrupt        (FlSim *sim);
FlStopReason    fl_sim_get_stop_reason  (FlSim *sim);
const char     *fl_sim_get_stop_message (FlSim *sim);
gboolean        fl_sim_is_finished      (FlSim *sim);
guint64         fl_sim_get_step         (FlSim *sim);
guint64         fl_sim_get_total_steps  (FlSim *sim);
gboolean        fl_sim_seek             (FlSim *sim, guint64 step);
const FlEvent  *fl_sim_get_events       (FlSim *sim, gsize *n_events);
gsize           fl_sim_get_n_events     (FlSim *sim);
FlEvent         fl_sim_get_event        (FlSim *sim, gsize index);
gsize           fl_sim_get_events_range (FlSim *sim, gsize first, gsize n, FlEvent *out);
gsize           fl_sim_find_step        (FlSim *sim, guint64 step);
guint64         fl_sim_get_last_cycle   (FlSim *sim);
/* Finished simulations leave their big blocks (events, checkpoints; up to 96 MB) for the
 * next one in the process; this gives them back. */
void            fl_sim_release_spare_memory (void);
const FlState  *fl_sim_get_state        (FlSim *sim);
const FlConfig *fl_sim_get_config       (FlSim *sim);
const FlScenario *fl_sim_get_scenario   (FlSim *sim);
guint64         fl_sim_get_hash         (FlSim *sim);
guint64         fl_sim_get_seed         (FlSim *sim);
guint64         fl_sim_get_state_hash   (FlSim *sim);
GPtrArray      *fl_sim_get_findings     (FlSim *sim);
GArray         *fl_sim_get_unreached    (FlSim *sim);
GArray         *fl_sim_get_step_starts  (FlSim *sim);
char           *fl_sim_describe_unreached (FlSim *sim, const FlScheduleMiss *miss);
void            fl_sim_get_counters     (FlSim *sim, FlCounters *counters);
char           *fl_sim_describe_event   (FlSim *sim, const FlEvent *event);
char           *fl_sim_explain_event    (FlSim *sim, const FlEvent *event);
gboolean        fl_sim_get_spf_miss     (FlSim *sim, guint64 step, guint cpu, FlSpfMiss *out);
GArray         *fl_sim_get_spf_misses   (FlSim *sim);
const char     *fl_sim_line_name        (FlSim *sim, guint line, char *buf, gsize size);

const char     *fl_finding_kind_name    (FlFindingKind kind);
const char     *fl_event_kind_name      (FlEventKind kind);
const char     *fl_activity_name        (FlActivity activity);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FlSim, fl_sim_free)

G_END_DECLS
