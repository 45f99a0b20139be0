#pragma once

#include <glib.h>
#include "fl-sim.h"

G_BEGIN_DECLS

/* The race explorer (issue 17): runs a scenario's interleavings at step granularity, the CPU
 * of every step chosen by the search instead of a schedule, with preemption bounding and
 * iterative deepening (Musuvathi & Qadeer, PLDI 2007). Switching away from a CPU that could
 * still step is a preemption; switching when it cannot (parked, done) is free. Bound 0 runs
 * every schedule without a preemption, bound 1 every one with at most one, and so on, so the
 * first counterexample has the fewest preemptions; within its bound, the fewest steps. When
 * the bounds find nothing and cut some schedules, the rest runs without a bound: every
 * reachable state once (fl-explore-states.c) or one schedule per class of equivalent orders
 * (fl-explore-dpor.c), time left out of both. PCT (fl-explore-pct.c) samples instead. */

typedef struct _FlExploreResult FlExploreResult;

typedef enum {
  FL_EXPLORE_COMPLETE,  /* every interleaving ran, or its state or its class of orders */
  FL_EXPLORE_BOUNDED,   /* every one with at most `bound` preemptions, or a budget ran out,
                         * or PCT's runs found nothing */
  FL_EXPLORE_FOUND,     /* a finding: the shortest schedule of each kind is in `findings` */
} FlExploreVerdict;

/* Why exploration stopped short of the next bound. */
typedef enum {
  FL_EXPLORE_STOP_NONE,       /* it did not */
  FL_EXPLORE_STOP_SCHEDULES,  /* max_schedules */
  FL_EXPLORE_STOP_TIME,       /* time_limit */
  FL_EXPLORE_STOP_MEMORY,     /* the outcome table reached FL_EXPLORE_MAX_OUTCOMES */
  FL_EXPLORE_STOP_CANCELLED,  /* *options->cancel became non-zero (the window's Cancel) */
  FL_EXPLORE_STOP_STATES,     /* the states search's table reached its limit (max_states) */
} FlExploreStop;

#define FL_EXPLORE_MAX_CPUS 64u             /* a choice point's alternatives are one word */
#define FL_EXPLORE_MAX_OUTCOMES (1u << 20)  /* distinct outcomes kept: memory stays bounded */
#define FL_EXPLORE_MAX_STATES (1u << 24)    /* states the remembering search keeps unless told
                                             * otherwise (256 MB) */
#define FL_EXPLORE_MAX_STATES_LIMIT (G_GUINT64_CONSTANT (1) << 32) /* told: at most (64 GB) */
#define FL_EXPLORE_PCT_MAX_DEPTH 16         /* PCT's d: ordering constraints of the bugs sought */
#define FL_EXPLORE_MAX_JOBS 64              /* threads of one exploration */
#define FL_EXPLORE_DPOR_MAX_STEPS 100000u   /* DPOR keeps a footprint and a clock per step (and
                                             * per CPU): a longer schedule is cut there */

/* What runs after the bounds when they found nothing and cut some schedules. */
typedef enum {
  FL_EXPLORE_REDUCTION_NONE,  /* nothing: the bounds only, every schedule within them run */
  FL_EXPLORE_REDUCTION_STATES,/* every reachable state once (a search that remembers them) */
  FL_EXPLORE_REDUCTION_DPOR,  /* one schedule of each class of equivalent orders, by
                               * source-DPOR with sleep sets (fl-explore-dpor.c) */
} FlExploreReduction;

typedef struct {
  guint   preemptions;    /* the largest bound tried (default 2) */
  FlExploreReduction reduction;
  gboolean all;           /* run the unbounded search after a finding too: every kind, every
                           * outcome (a finding's shortest schedule is still the bounds') */
  /* PCT instead of the systematic search when pct_runs > 0: that many randomized runs,
   * seeded 1, 2, ..., with pct_depth - 1 priority change points each */
  guint64 pct_runs;
  guint   pct_depth;
  guint   jobs;           /* cores to share the work out to (0 or 1: this thread): PCT's runs,
                           * or each bound's units (fl-explore-bounds.c) and the states search
                           * after the bounds (fl-explore-states.c); DPOR runs on one */
  guint   shard, shards;  /* only this share of the work; shards 0 or 1: all of it. PCT: the
                           * runs i (from 0) with i % shards == shard. Systematic: the units u
                           * of each bound with u % shards == shard, every bound up to
                           * `preemptions` run (a shard cannot know that the others cut
                           * nothing), no unbounded search. Shards share nothing, so other
                           * processes or machines run the others and fl-cli-explore-merge.c
                           * adds them up. */
  gboolean keep_outcomes; /* copy the outcome keys into the result (for merging shards) */
  gboolean match_lines;   /* the states search tells apart states that differ only in which
                           * caches hold which lines: more states, the same outcomes (the
                           * tests check that) */
  /* called about four times a second with the counts so far (seconds set), from the
   * exploring thread; NULL for none */
  void   (*progress) (const FlExploreResult *so_far, gpointer data);
  gpointer progress_data;
  const gint *cancel;     /* another thread sets it (g_atomic_int_set) to stop; NULL: none */
  guint64 max_schedules;  /* stop after this many new schedules (0: no limit) */
  guint64 max_states;     /* the states search keeps at most this many states, 16 bytes each
                           * (0: FL_EXPLORE_MAX_STATES); with N threads up to N - 1 more, each
                           * may add one before it sees the table full, and which states a
                           * full table holds then depends on the threads' speed */
  double  time_limit;     /* seconds of wall-clock time (0: no limit); the only input that
                           * can make two explorations of the same scenario differ (but for
                           * a table filled by threads, above) */
} FlExploreOptions;

/* The shortest schedule the search found for one kind of finding. */
typedef struct {
  FlFindingKind kind;
  guint   preemptions;
  guint64 step;           /* the step that found it (from 1) */
  guint64 length;         /* steps of the whole schedule: it runs to the end of the run */
  GArray *choices;        /* guint8: the CPU of each step */
  guint64 events_hash;    /* fl_sim_get_hash() at the end of that run */
  char   *message;
  guint64 hits;           /* schedules run that found this kind */
  guint64 seed;           /* PCT: the seed of the run kept (0 for the systematic search) */
  guint64 unit;           /* systematic: the unit of the bound's tree it was found in (the
                           * search meets units in increasing order, so threads and shards
                           * keep what one thread keeps) */
} FlExploreFinding;

/* What one bound of the systematic search added (the unbounded search not included). */
typedef struct {
  guint64  schedules, executions, cut_by_budget, with_findings, max_length;
  gboolean cut_by_bound;  /* a choice was left out because it needed one more preemption */
  guint64  hits[FL_FINDING_N_KINDS];
} FlExploreBoundCounts;

struct _FlExploreResult {
  FlExploreVerdict verdict;
  FlExploreStop stop;
  guint   bound;          /* the last bound explored in full (or being explored at a stop) */
  guint   bound_limit;    /* the largest bound allowed (options->preemptions) */
  gboolean all;           /* options->all: the search went on after a finding */
  guint64 schedules;      /* distinct schedules run to their end */
  guint64 executions;     /* leaves reached, the re-runs of lower bounds included */
  guint64 cut_by_budget;  /* schedules that hit the step budget or a limit of the machine */
  guint64 outcomes;       /* distinct (finding kinds, final-state hash) pairs */
  guint64 steps;          /* steps taken by the search */
  guint64 replayed;       /* steps replayed by seeks to a branch point */
  guint64 max_length;     /* the longest schedule */
  gsize   peak_bytes;     /* the explorer's own structures at their largest */
  double  seconds;
  GPtrArray *findings;    /* FlExploreFinding *, by kind */
  FlConfig config;        /* the configuration explored: the caller's, without the hold */
  /* the second phase, when the bounds left interleavings out and found nothing: which one
   * ran (NONE: none did) and what it did */
  FlExploreReduction unbounded;
  guint64 cut_unbounded;  /* its schedules that hit the step budget or a limit of the machine */
  guint64 dpor_schedules; /* DPOR: maximal schedules run, one or more per equivalence class */
  guint64 dpor_blocked;   /* DPOR: schedules stopped early, every CPU left asleep */
  guint64 dpor_races;     /* DPOR: races found and reversed */
  guint   dpor_max_preemptions; /* DPOR: the most preemptions of a schedule it ran */
  guint64 pct_steps;      /* PCT: k, the steps of the scenario's own run */
  guint   pct_depth;      /* PCT: d */
  guint64 pct_runs;       /* PCT: the runs of the whole exploration, all shards */
  guint   shard, shards;  /* PCT: which share this was (shards 0: all of it) */
  guint64 with_findings;  /* schedules run that found anything */
  GArray *outcome_keys;   /* guint64, with keep_outcomes; NULL otherwise */
  GArray *outcome_bounds; /* guint16 beside each outcome key: the systematic search's bound
                           * that first reached it, preemptions + 1 for the search beyond
                           * the bounds (NULL for PCT) */
  GArray *per_bound;      /* FlExploreBoundCounts, one per bound run (systematic) */
  guint64 states;         /* states: distinct states reached */
  guint64 max_states;     /* states: the most it could keep (options->max_states or the
                           * default) */
  guint64 states_pruned;  /* states: arrivals at a state already explored */
};

FlExploreResult *fl_explore_run          (const FlScenario       *scenario,
                                          const FlConfig         *config,
                                          const FlExploreOptions *options,
                                          GError                **error);
void             fl_explore_result_free  (FlExploreResult *result);
const char      *fl_explore_verdict_name (FlExploreVerdict verdict);
/* Which of two counterexamples of one kind is kept: fewer preemptions, then fewer steps to
 * the finding, then the lower unit, then the lower PCT seed (so shards and threads keep what
 * one thread keeps). Only those four fields are read. */
gboolean         fl_explore_kept_before  (const FlExploreFinding *a,
                                          const FlExploreFinding *b);
const char      *fl_explore_stop_name    (FlExploreStop stop);
const char      *fl_explore_reduction_name (FlExploreReduction reduction);
/* Adds @finding to @findings (ordered by kind, one per kind): the better of it and the one of
 * its kind is kept (the other freed), their hits added up. */
void             fl_explore_findings_add (GPtrArray *findings, FlExploreFinding *finding);
void             fl_explore_finding_free (FlExploreFinding *finding);

/* The dependence relation checked against the simulation (fl-explore-commute.c): along
 * @schedules random schedules from @seed, every adjacent pair of steps of different CPUs
 * whose footprints do not conflict is run in the other order and must give the same state,
 * time left out, and neither may enable or disable the other. Returns how many did not
 * (each described in @report), @checked the pairs tried; -1 with @error set when the
 * scenario cannot run. */
gint64           fl_explore_check_independence (const FlScenario *scenario,
                                                const FlConfig   *config,
                                                guint             schedules,
                                                guint64           seed,
                                                guint64          *checked,
                                                GString          *report,
                                                GError          **error);

/* The counterexample as a scenario (fl-explore-save.c): @scenario's text with its
 * [schedule] replaced by @choices as `cpuN for K` steps and the keys where @config differs
 * from the scenario's own written into [config], so `faultline-cli run` of the text alone
 * takes the same steps. */
char            *fl_explore_schedule_text (const GArray *choices);
char            *fl_explore_scenario_text (const FlScenario *scenario,
                                           const FlConfig   *config,
                                           const GArray     *choices,
                                           const char       *comment);
char            *fl_explore_counterexample_text (const FlScenario       *scenario,
                                                 const FlConfig         *config,
                                                 const FlExploreFinding *finding);
/* Runs @text as `run` would and checks it gives @finding's kind and events hash. */
FlSim           *fl_explore_replay        (const char             *text,
                                           const char             *name,
                                           const FlExploreFinding *finding,
                                           GError                **error);
gboolean         fl_explore_replay_check  (const char             *text,
                                           const FlExploreFinding *finding,
                                           GError                **error);
/* The search @options asks for, as `key=value` words (an exploration's bounds in the store):
 * what decides the result, not how it is shared out (jobs). */
char            *fl_explore_options_describe (const FlExploreOptions *options);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FlExploreResult, fl_explore_result_free)

G_END_DECLS
