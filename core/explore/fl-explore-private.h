#pragma once

/* What the explorer's two searches share (fl-explore.c: preemption bounding; fl-explore-dpor.c:
 * dynamic partial-order reduction). Internal to the core. */

#include "fl-explore.h"
#include "fl-footprint.h"
#include "fl-sim-internal.h"

G_BEGIN_DECLS

/* A set of 64-bit keys (outcomes, states): open addressing, 0 standing for "empty", so its
 * memory is known and capped. */
typedef struct {
  guint64 *keys;
  gsize    size, used;
} FlKeySet;

/* @a at @len elements: cut back by its length alone (what g_array_set_size does for an array
 * with no clear function, not zero-terminated, as the searches' stacks are, without the two
 * calls: the searches resize them hundreds of thousands of times), grown by GLib. */
static inline void
fl_explore_resize (GArray *a, guint len)
{
  if (len <= a->len)
    a->len = len;
  else
    g_array_set_size (a, len);
}

/* 1 when @key is new, 0 when it was there, -1 when the set holds @max keys already. */
int      fl_key_set_add         (FlKeySet *set, guint64 key, gsize max);
/* Twice the room, the keys kept. */
void     fl_key_set_grow        (FlKeySet *set);
/* fl_key_set_add for threads adding at once (fl-explore-states.c): never grows the set, but
 * sets *@grow once it is half full, and the threads wait while one grows it. With more than
 * one thread it may hold a few more than @max keys. */
int      fl_key_set_add_shared  (FlKeySet *set, guint64 key, gsize max, gint *grow);
/* splitmix64's finalizer: spreads a hash (or a mask of kinds) over the whole key. */
guint64  fl_explore_mix         (guint64 x);

typedef struct {
  FlSim *sim;
  const FlExploreOptions *o;
  FlExploreResult *r;
  FlKeySet outcomes;
  gint64 started, deadline; /* g_get_monotonic_time() µs; deadline 0: none */
  guint64 budget;           /* steps per schedule; 0: none */
  guint ncpus;
  guint64 seed;             /* PCT: the seed of the run being taken (0: a systematic search) */
  guint64 unit;             /* the bounds: the unit of the schedule being taken */
  guint64 *shared_schedules;/* the bounds: schedules of every thread (atomic), for the limit and
                             * the progress line; NULL: r->schedules alone */
  guint64 checks;           /* calls of fl_explorer_out_of_budget, to look at the clock rarely */
  gint64  next_progress;    /* when the progress callback is due (µs) */
} FlExplorer;

guint64  fl_explorer_enabled    (FlExplorer *x);
/* A simulation of @scenario for a search (one per thread): stepped by the search alone. */
FlSim   *fl_explorer_new_sim    (const FlScenario *scenario, const FlConfig *config,
                                 GError **error);

/* Stepping `next` right after `prev` is a preemption when `prev` could still step: it is in
 * `enabled`, the CPUs that could step at that point (prev -1: the first step). */
static inline guint
fl_explore_preempts (gint prev, guint next, guint64 enabled)
{
  return prev >= 0 && (guint) prev != next && ((enabled >> prev) & 1);
}
/* Adds what @from found to @into (counts, outcomes, the better counterexample of each kind;
 * @from's findings are moved or freed). Outcome keys new to @into are appended to @new_keys
 * unless it is NULL. */
void     fl_explorer_merge      (FlExplorer *into, FlExplorer *from, GArray *new_keys);
/* A schedule ran to its end (or was cut): its findings and its outcome are kept. */
void     fl_explorer_leaf       (FlExplorer *x, const guint8 *choices, guint n, guint preemptions);
gboolean fl_explorer_out_of_budget (FlExplorer *x);
/* The progress callback of @main, called from the first of its threads: @main's counts so
 * far, with the schedules of every thread (@schedules, shared), @states, and the steps and
 * seconds of @own, that thread's. */
void     fl_explorer_progress_of_threads (FlExplorer *main, const FlExploreResult *own,
                                          const guint64 *schedules, guint64 states);
/* The explorer's memory at this moment, @own bytes of the search's own with the outcome set
 * and the counterexamples, kept in r->peak_bytes if it is the most so far. */
void     fl_explorer_note_peak  (FlExplorer *x, gsize own);

/* One step of @cpu with what it read and wrote in @fp (@snap: scratch space for the fields
 * compared before and after). FALSE when it could not step. */
gboolean fl_explore_step        (FlSim *sim, guint cpu, FlFootprint *fp,
                                 FlFootprintSnapshot *snap);

/* Bounds 0 .. options->preemptions in turn, each shared out to options->jobs threads
 * (fl-explore-bounds.c): TRUE when a bound cut no schedule, so every interleaving ran. */
gboolean fl_explore_bounds      (FlExplorer *x, const FlScenario *scenario);
/* Source-DPOR with sleep sets over every interleaving (fl-explore-dpor.c). */
void     fl_explore_dpor        (FlExplorer *x);
/* Depth first over every state once (fl-explore-states.c). */
void     fl_explore_states      (FlExplorer *x, const FlScenario *scenario);
/* PCT runs, seeds 1 .. options->pct_runs (fl-explore-pct.c). */
void     fl_explore_pct         (FlExplorer *x, const FlScenario *scenario);

G_END_DECLS
