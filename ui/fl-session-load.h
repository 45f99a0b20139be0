#pragma once

/* What FlSession's worker does, apart from the session: parse the scenario, build its
 * configuration with the switches applied, and simulate the whole run on an FlSim of its own
 * (or finish a branch the session hands over) into an FlRun. Plain data and atomics only, so the worker never
 * touches a GObject the main thread uses. */

#include <gio/gio.h>
#include "fl-run.h"

G_BEGIN_DECLS

typedef struct _FlLoadJob FlLoadJob;

/* A new run of `scenario` (an id or a path) or, when `text` is given, of that text named
 * `name`; `switches` alternates keys and values. The run is shown at `return_step`, or at
 * its end when it is shorter. */
FlLoadJob      *fl_load_job_new              (const char        *scenario,
                                              const char        *name,
                                              const char        *text,
                                              const char *const *switches,
                                              guint64            return_step);
/* A recorded run taken again (the store browser): its seed and schedule policy instead of the
 * scenario's, and, when `max_steps` is not 0, only as many steps as it was recorded with. */
void            fl_load_job_set_recorded     (FlLoadJob         *job,
                                              guint64            seed,
                                              FlSchedPolicy      policy,
                                              guint64            max_steps);
/* Simulates `sim` (taken: a branch, fl_cursor_branch()) from where it stands to the end of
 * its run. */
FlLoadJob      *fl_load_job_new_continue     (FlSim             *sim,
                                              guint64            return_step);
void            fl_load_job_free             (FlLoadJob         *job);
/* Safe from any thread: the worker ends the run where it stands (fl_sim_interrupt) and
 * hands it over as it is. */
void            fl_load_job_stop             (FlLoadJob         *job);

/* GTaskThreadFunc: the task's data is the job; returns the finished FlRun. */
void            fl_load_job_run              (GTask             *task,
                                              gpointer           source_object,
                                              gpointer           task_data,
                                              GCancellable      *cancellable);

/* Safe from any thread while the worker runs: 0..1, an estimate from the operations the
 * CPUs have started against those the scenario's programs hold. */
double          fl_load_job_get_progress     (FlLoadJob         *job);
gboolean        fl_load_job_is_continuation  (FlLoadJob         *job);
guint64         fl_load_job_get_return_step  (FlLoadJob         *job);
/* The scenario's own configuration, before the switches; valid after a new run loaded. */
const FlConfig *fl_load_job_get_base_config  (FlLoadJob         *job);


G_END_DECLS
