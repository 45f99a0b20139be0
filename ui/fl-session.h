#pragma once

/* FlSession: the one object every view of the window listens to. It owns the run of the
 * open scenario (an FlRun) and the cursor at its current step (an FlCursor), the selected
 * CPU and the playback state; views read both through const pointers and never move them
 * themselves (what needs another step makes a cursor of its own). Loading a scenario
 * simulates the whole run in a worker thread (the window shows progress) and then seeks to
 * step 0, so stepping back and scrubbing are seeks on the run's checkpoints. */

#include <glib-object.h>
#include "fl-config.h"
#include "fl-cursor.h"

G_BEGIN_DECLS

#define FL_TYPE_SESSION (fl_session_get_type ())
G_DECLARE_FINAL_TYPE (FlSession, fl_session, FL, SESSION, GObject)

/* Properties (all notify):
 *   "scenario"      string   built-in id or path, as given to fl_session_load()
 *   "name"          string   the short name the header shows: the id, the file's name
 *                            without ".fault", or the name given to fl_session_load_text()
 *   "title"         string   the scenario's title, "" before a load
 *   "loading"       boolean  a worker is simulating the run
 *   "progress"      double   0..1 while loading (steps done / max steps), 1 after
 *   "step"          guint64  current step, 0..total-steps
 *   "total-steps"   guint64  steps of the whole run
 *   "selected-cpu"  guint    the CPU the listing follows and Shift+Right steps
 *   "n-cpus"        guint
 *   "playing"       boolean
 *   "speed"         double   steps per second while playing (0.25..1000)
 * Signals:
 *   "changed"       ()               the state shown changed: new step, new run, new CPU
 *   "load-failed"   (GError *error)  the scenario or configuration could not be loaded
 *   "finding-shown" (guint index)    fl_session_show_finding() moved to that finding
 */

FlSession      *fl_session_new              (void);

/* Load a scenario (built-in id or path) with its own configuration, overridden by the
 * switches set with fl_session_set_switch(). Asynchronous: "loading" goes TRUE, then
 * "changed" fires at step 0, or "load-failed". A load in progress is cancelled. */
void            fl_session_load             (FlSession *self, const char *scenario);
/* Load from scenario text (the editor, the store); `name` is what the header shows. */
void            fl_session_load_text        (FlSession *self, const char *name, const char *text);
/* Load a run recorded in a store: its scenario text, its configuration (the config column,
 * fl_store_sim_config_text()) and seed, and, when `max_steps` is not 0, only that many steps
 * (a run recorded as stopped early). The switches become those of the run (where it differs
 * from the scenario's own configuration); the seed and schedule stay for re-runs with other
 * switches until another scenario is loaded. FALSE, loading nothing, with an FL_SCENARIO_ERROR
 * or FL_CONFIG_ERROR when the text or the configuration cannot be used by this build. */
gboolean        fl_session_load_run         (FlSession *self, const char *name,
                                             const char *text, const char *config,
                                             guint64 seed, guint64 max_steps,
                                             GError **error);
/* Set one configuration switch (fl_config_keys()) and re-run the scenario, keeping the step
 * when the new run is long enough. FALSE with an FL_CONFIG_ERROR for a bad key or value. */
gboolean        fl_session_set_switch       (FlSession *self, const char *key,
                                             const char *value, GError **error);
/* The switch's value in the current run's configuration (newly allocated), NULL if unknown. */
char           *fl_session_get_switch       (FlSession *self, const char *key);
/* Forget the switches set by fl_session_set_switch() and re-run with the scenario's own. */
void            fl_session_reset_switches   (FlSession *self);

/* NULL before the first load completes and while a load runs; owned by the session. A
 * caller that keeps the run takes a reference (fl_run_ref()); the cursor moves with the
 * session's step, so one that needs a step of its own copies it (fl_cursor_copy()). */
const FlRun    *fl_session_get_run          (FlSession *self);
const FlCursor *fl_session_get_cursor       (FlSession *self);
const char     *fl_session_get_scenario     (FlSession *self);
const char     *fl_session_get_name         (FlSession *self);
const char     *fl_session_get_title        (FlSession *self);
gboolean        fl_session_is_loading       (FlSession *self);
/* While a load runs: end the run where the worker stands and show it as far as it got,
 * "stopped at N steps (interrupted)" (fl_run_get_stop_message). */
void            fl_session_stop_loading     (FlSession *self);
double          fl_session_get_progress     (FlSession *self);

guint64         fl_session_get_step         (FlSession *self);
guint64         fl_session_get_total_steps  (FlSession *self);
void            fl_session_seek             (FlSession *self, guint64 step);
gboolean        fl_session_step_forward     (FlSession *self);
gboolean        fl_session_step_back        (FlSession *self);
/* Step only the selected CPU: unless the run steps it next anyway, a new run (a branch of
 * this one from here) replaces the run, simulated in a worker as a load is. */
gboolean        fl_session_step_selected_cpu(FlSession *self);

guint           fl_session_get_n_cpus       (FlSession *self);
guint           fl_session_get_selected_cpu (FlSession *self);
void            fl_session_select_cpu       (FlSession *self, guint cpu);

/* Seek to the next / previous finding after / before the current step and select the CPU
 * that caused it (FlFinding.cause_cpu). FALSE when there is none in that direction. */
gboolean        fl_session_next_finding     (FlSession *self);
gboolean        fl_session_previous_finding (FlSession *self);
/* Seek to the finding (index into fl_run_get_findings()) and select the CPU that caused it. */
void            fl_session_show_finding     (FlSession *self, guint index);

gboolean        fl_session_is_playing       (FlSession *self);
void            fl_session_set_playing      (FlSession *self, gboolean playing);
double          fl_session_get_speed        (FlSession *self);
void            fl_session_set_speed        (FlSession *self, double steps_per_second);

G_END_DECLS
