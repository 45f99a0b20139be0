#pragma once

/* FlRun: one recorded run of a scenario — its events, findings, checkpoints, counters and
 * hash — finished and never changed again, so any number of cursors (fl-cursor.h), on any
 * threads, read it at once. A run is made by finishing a simulation (fl_run_new_from_sim:
 * the simulation records, the run keeps what it recorded) and shared by reference. */

#include <glib.h>
#include "fl-sim.h"

G_BEGIN_DECLS

typedef struct _FlRun FlRun;

FlRun            *fl_run_new              (const FlScenario *scenario,
                                           const FlConfig   *config,
                                           guint64           seed,
                                           guint64           max_steps,
                                           GError          **error);
FlRun            *fl_run_new_from_sim     (FlSim *sim);
FlRun            *fl_run_new_snapshot     (FlSim *sim);
FlRun            *fl_run_ref              (const FlRun *run);
void              fl_run_unref            (FlRun *run);

const FlScenario *fl_run_get_scenario     (const FlRun *run);
const FlConfig   *fl_run_get_config       (const FlRun *run);
guint64           fl_run_get_seed         (const FlRun *run);
FlSchedPolicy     fl_run_get_policy       (const FlRun *run);
guint64           fl_run_get_hash         (const FlRun *run);
gboolean          fl_run_same             (const FlRun *a, const FlRun *b);
gboolean          fl_run_is_finished      (const FlRun *run);
FlStopReason      fl_run_get_stop_reason  (const FlRun *run);
const char       *fl_run_get_stop_message (const FlRun *run);
guint64           fl_run_get_total_steps  (const FlRun *run);
guint64           fl_run_get_last_cycle   (const FlRun *run);
void              fl_run_get_counters     (const FlRun *run, FlCounters *counters);

gsize             fl_run_get_n_events     (const FlRun *run);
FlEvent           fl_run_get_event        (const FlRun *run, gsize index);
gsize             fl_run_get_events_range (const FlRun *run, gsize first, gsize n, FlEvent *out);
const FlEvent    *fl_run_get_events       (const FlRun *run, gsize *n_events);
gsize             fl_run_find_step        (const FlRun *run, guint64 step);

const GPtrArray  *fl_run_get_findings     (const FlRun *run);
const GArray     *fl_run_get_unreached    (const FlRun *run);
const GArray     *fl_run_get_step_starts  (const FlRun *run);
const GArray     *fl_run_get_spf_misses   (const FlRun *run);
gboolean          fl_run_get_spf_miss     (const FlRun *run, guint64 step, guint cpu,
                                           FlSpfMiss *out);
char             *fl_run_describe_unreached (const FlRun *run, const FlScheduleMiss *miss);
char             *fl_run_explain_event    (const FlRun *run, const FlEvent *event);

/* What is worked out once from a whole run and then only read (the lanes' pass over the
 * events, say): built by the first caller that asks for its key, kept by the run and freed
 * with it, so it is never stale and never rebuilt per thread or per frame. */
typedef gpointer (*FlRunIndexBuild) (const FlRun *run, gpointer user_data);
gconstpointer     fl_run_get_index        (const FlRun     *run,
                                           gconstpointer    key,
                                           FlRunIndexBuild  build,
                                           gpointer         user_data,
                                           GDestroyNotify   free_index);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FlRun, fl_run_unref)

G_END_DECLS
