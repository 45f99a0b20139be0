#pragma once

/* What the two halves of FlSession share (fl-session.c: steps, selection, playback, the
 * GObject; fl-session-source.c: loading and switches). Nothing outside them includes this. */

#include "fl-session.h"
#include "fl-session-load.h"

G_BEGIN_DECLS

/* How often the main loop looks at a running worker, and how fast playback ticks at most. */
#define PROGRESS_INTERVAL_MS 50
#define PLAY_FRAME_MS        16

struct _FlSession
{
  GObject parent_instance;

  char       *scenario;       /* id or path given to fl_session_load(); NULL for text */
  char       *name;           /* what the header shows */
  char       *text;           /* the text of fl_session_load_text(), for re-runs */
  char       *title;
  GHashTable *switches;       /* key → value set by fl_session_set_switch() */
  /* fl_session_load_run(): the recorded run's seed and schedule, kept for its re-runs */
  gboolean    recorded;
  guint64     recorded_seed;
  FlSchedPolicy recorded_policy;
  guint64     recorded_steps; /* 0: to the run's natural end */
  FlConfig    base_config;    /* the scenario's own configuration, once parsed */
  gboolean    have_base;

  FlRun      *run;            /* the run shown; NULL while a load runs */
  FlCursor   *cursor;         /* the step shown, on `run` */
  guint       n_cpus;
  guint       selected_cpu;

  FlLoadJob  *job;            /* the running worker's shared counters; NULL when idle */
  GCancellable *cancellable;
  guint       progress_id;
  double      progress;

  gboolean    playing;
  double      speed;
  guint       play_id;
  gint64      play_started;   /* monotonic µs when the current playback began */
  guint64     play_taken;     /* steps played since then */
};

enum {
  PROP_0,
  PROP_SCENARIO,
  PROP_NAME,
  PROP_TITLE,
  PROP_LOADING,
  PROP_PROGRESS,
  PROP_STEP,
  PROP_TOTAL_STEPS,
  PROP_SELECTED_CPU,
  PROP_N_CPUS,
  PROP_PLAYING,
  PROP_SPEED,
  N_PROPS
};

void fl_session_notify            (FlSession *self, guint prop);
void fl_session_emit_changed      (FlSession *self);
void fl_session_emit_load_failed  (FlSession *self, const GError *error);
void fl_session_restart_timer     (FlSession *self);
void fl_session_start_job         (FlSession *self, FlLoadJob *job);

G_END_DECLS
