/* FlSession: the open scenario's run, its current step, the selected CPU and playback.
 * Loading and the design switches are in fl-session-source.c.
 *
 * A load parses the scenario and simulates the whole run in a GTask worker on an FlSim of its
 * own; the worker publishes how far it got through atomics that a main-loop timeout polls,
 * so the window shows progress without the worker ever touching a GObject. When the worker
 * is done it hands over the finished FlRun, and the session moves one FlCursor over it: every
 * step, back or forth, is a seek on the run's checkpoints. Stepping one CPU alone makes a new
 * run (fl_cursor_branch), which a worker simulates to its end the same way, so total-steps
 * stays the run's real length. */

#include "fl-session.h"

#include "fl-session-private.h"

G_DEFINE_FINAL_TYPE (FlSession, fl_session, G_TYPE_OBJECT)

enum {
  SIGNAL_CHANGED,
  SIGNAL_LOAD_FAILED,
  SIGNAL_FINDING_SHOWN,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

void
fl_session_notify (FlSession *self, guint prop)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

void
fl_session_emit_changed (FlSession *self)
{
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

void
fl_session_emit_load_failed (FlSession *self, const GError *error)
{
  g_signal_emit (self, signals[SIGNAL_LOAD_FAILED], 0, error);
}

/* ---- step and selection ---- */

/* Everything that follows the step, told once after the simulation moved. */
static void
fl_session_step_moved (FlSession *self)
{
  fl_session_notify (self, PROP_STEP);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

guint64
fl_session_get_step (FlSession *self)
{
  g_return_val_if_fail (FL_IS_SESSION (self), 0);
  return self->cursor ? fl_cursor_get_step (self->cursor) : 0;
}

guint64
fl_session_get_total_steps (FlSession *self)
{
  g_return_val_if_fail (FL_IS_SESSION (self), 0);
  return self->run ? fl_run_get_total_steps (self->run) : 0;
}

void
fl_session_seek (FlSession *self, guint64 step)
{
  g_return_if_fail (FL_IS_SESSION (self));

  if (self->run == NULL)
    return;
  step = MIN (step, fl_run_get_total_steps (self->run));
  if (step == fl_cursor_get_step (self->cursor))
    return;
  fl_cursor_seek (self->cursor, step);
  fl_session_step_moved (self);
}

gboolean
fl_session_step_forward (FlSession *self)
{
  g_return_val_if_fail (FL_IS_SESSION (self), FALSE);

  if (self->run == NULL || fl_session_get_step (self) >= fl_run_get_total_steps (self->run))
    return FALSE;
  fl_session_seek (self, fl_session_get_step (self) + 1);
  return TRUE;
}

gboolean
fl_session_step_back (FlSession *self)
{
  g_return_val_if_fail (FL_IS_SESSION (self), FALSE);

  if (self->run == NULL || fl_session_get_step (self) == 0)
    return FALSE;
  fl_session_seek (self, fl_session_get_step (self) - 1);
  return TRUE;
}

/* The CPU the recorded run lets take the next step, or -1 at its end. */
static int
fl_session_recorded_cpu (FlSession *self)
{
  guint64 step = fl_cursor_get_step (self->cursor);
  gsize i = fl_run_find_step (self->run, step);
  FlEvent event;

  if (i >= fl_run_get_n_events (self->run))
    return -1;
  event = fl_run_get_event (self->run, i);
  return event.step == step ? (int) event.cpu : -1;
}

gboolean
fl_session_step_selected_cpu (FlSession *self)
{
  guint64 step;
  FlSim *branch;

  g_return_val_if_fail (FL_IS_SESSION (self), FALSE);

  if (self->run == NULL)
    return FALSE;
  /* The recorded run already steps this CPU next: no new branch, nothing to simulate. */
  if (fl_session_recorded_cpu (self) == (int) self->selected_cpu)
    return fl_session_step_forward (self);
  step = fl_cursor_get_step (self->cursor);
  /* Another choice than the recorded one is a new run: the branch has the run's past and
   * this step, and the worker simulates it to its end, so the lanes, the scrubber and
   * total-steps show the run this choice leads to. The old run is dropped as it was. */
  branch = fl_cursor_branch (self->cursor, self->selected_cpu);
  if (branch == NULL)
    return FALSE;
  fl_session_set_playing (self, FALSE);
  fl_session_start_job (self, fl_load_job_new_continue (branch, step + 1));
  return TRUE;
}

guint
fl_session_get_n_cpus (FlSession *self)
{
  g_return_val_if_fail (FL_IS_SESSION (self), 0);
  return self->n_cpus;
}

guint
fl_session_get_selected_cpu (FlSession *self)
{
  g_return_val_if_fail (FL_IS_SESSION (self), 0);
  return self->selected_cpu;
}

void
fl_session_select_cpu (FlSession *self, guint cpu)
{
  g_return_if_fail (FL_IS_SESSION (self));

  if (self->n_cpus > 0)
    cpu = MIN (cpu, self->n_cpus - 1);
  if (cpu == self->selected_cpu)
    return;
  self->selected_cpu = cpu;
  fl_session_notify (self, PROP_SELECTED_CPU);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

/* ---- findings ---- */

/* A finding carries the number of its step, which is the state that shows what it found. */
static guint64
fl_finding_shown_at (const FlFinding *finding)
{
  return finding->step;
}

void
fl_session_show_finding (FlSession *self, guint index)
{
  const GPtrArray *findings;
  const FlFinding *finding;

  g_return_if_fail (FL_IS_SESSION (self));

  if (self->run == NULL)
    return;
  findings = fl_run_get_findings (self->run);
  g_return_if_fail (index < findings->len);

  finding = g_ptr_array_index (findings, index);
  fl_session_set_playing (self, FALSE);
  /* the CPU whose action is the defect, not the one whose step noticed it */
  fl_session_select_cpu (self, finding->cause_cpu);
  fl_session_seek (self, fl_finding_shown_at (finding));
  g_signal_emit (self, signals[SIGNAL_FINDING_SHOWN], 0, index);
}

gboolean
fl_session_next_finding (FlSession *self)
{
  const GPtrArray *findings;
  guint64 step;

  g_return_val_if_fail (FL_IS_SESSION (self), FALSE);

  if (self->run == NULL)
    return FALSE;
  findings = fl_run_get_findings (self->run);
  step = fl_session_get_step (self);
  for (guint i = 0; i < findings->len; i++)
    if (fl_finding_shown_at (g_ptr_array_index (findings, i)) > step)
      {
        fl_session_show_finding (self, i);
        return TRUE;
      }
  return FALSE;
}

gboolean
fl_session_previous_finding (FlSession *self)
{
  const GPtrArray *findings;
  guint64 step;

  g_return_val_if_fail (FL_IS_SESSION (self), FALSE);

  if (self->run == NULL)
    return FALSE;
  findings = fl_run_get_findings (self->run);
  step = fl_session_get_step (self);
  for (guint i = findings->len; i > 0; i--)
    if (fl_finding_shown_at (g_ptr_array_index (findings, i - 1)) < step)
      {
        fl_session_show_finding (self, i - 1);
        return TRUE;
      }
  return FALSE;
}

/* ---- playback ---- */

static gboolean
fl_session_play_tick (gpointer user_data)
{
  FlSession *self = user_data;
  guint64 due, target, total;

  if (self->run == NULL)
    return G_SOURCE_CONTINUE;   /* a re-run is loading: play on once it is back */

  /* Steps follow the clock, not the ticks: a late tick catches up instead of slowing down. */
  due = (guint64) ((g_get_monotonic_time () - self->play_started) * self->speed / G_USEC_PER_SEC);
  if (due <= self->play_taken)
    return G_SOURCE_CONTINUE;

  total = fl_run_get_total_steps (self->run);
  target = MIN (fl_session_get_step (self) + (due - self->play_taken), total);
  self->play_taken = due;
  fl_session_seek (self, target);
  if (target >= total)
    {
      self->play_id = 0;
      fl_session_set_playing (self, FALSE);
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

void
fl_session_restart_timer (FlSession *self)
{
  g_clear_handle_id (&self->play_id, g_source_remove);
  if (!self->playing)
    return;
  self->play_started = g_get_monotonic_time ();
  self->play_taken = 0;
  self->play_id = g_timeout_add (MAX (PLAY_FRAME_MS, (guint) (1000.0 / self->speed / 2)),
                                 fl_session_play_tick, self);
}

gboolean
fl_session_is_playing (FlSession *self)
{
  g_return_val_if_fail (FL_IS_SESSION (self), FALSE);
  return self->playing;
}

void
fl_session_set_playing (FlSession *self, gboolean playing)
{
  g_return_if_fail (FL_IS_SESSION (self));

  playing = !!playing;
  if (playing && self->run == NULL)
    return;
  if (playing == self->playing)
    return;
  /* Play at the end of the run starts it over, as a media player does. */
  if (playing && fl_session_get_step (self) >= fl_run_get_total_steps (self->run))
    fl_session_seek (self, 0);
  self->playing = playing;
  fl_session_restart_timer (self);
  fl_session_notify (self, PROP_PLAYING);
}

double
fl_session_get_speed (FlSession *self)
{
  g_return_val_if_fail (FL_IS_SESSION (self), 1.0);
  return self->speed;
}

void
fl_session_set_speed (FlSession *self, double steps_per_second)
{
  g_return_if_fail (FL_IS_SESSION (self));

  steps_per_second = CLAMP (steps_per_second, 0.25, 1000.0);
  if (steps_per_second == self->speed)
    return;
  self->speed = steps_per_second;
  fl_session_restart_timer (self);
  fl_session_notify (self, PROP_SPEED);
}

/* ---- getters ---- */

const FlRun *
fl_session_get_run (FlSession *self)
{
  g_return_val_if_fail (FL_IS_SESSION (self), NULL);
  return self->run;
}

const FlCursor *
fl_session_get_cursor (FlSession *self)
{
  g_return_val_if_fail (FL_IS_SESSION (self), NULL);
  return self->cursor;
}

const char *
fl_session_get_scenario (FlSession *self)
{
  g_return_val_if_fail (FL_IS_SESSION (self), NULL);
  return self->scenario;
}

const char *
fl_session_get_name (FlSession *self)
{
  g_return_val_if_fail (FL_IS_SESSION (self), NULL);
  return self->name;
}

const char *
fl_session_get_title (FlSession *self)
{
  g_return_val_if_fail (FL_IS_SESSION (self), "");
  return self->title;
}

gboolean
fl_session_is_loading (FlSession *self)
{
  g_return_val_if_fail (FL_IS_SESSION (self), FALSE);
  return self->job != NULL;
}

double
fl_session_get_progress (FlSession *self)
{
  g_return_val_if_fail (FL_IS_SESSION (self), 0.0);
  return self->progress;
}

/* ---- GObject ---- */

static void
fl_session_dispose (GObject *object)
{
  FlSession *self = FL_SESSION (object);

  /* The worker's callback holds a reference, so disposal means no job is left. */
  g_clear_handle_id (&self->play_id, g_source_remove);
  g_clear_handle_id (&self->progress_id, g_source_remove);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->cursor, fl_cursor_free);
  g_clear_pointer (&self->run, fl_run_unref);

  G_OBJECT_CLASS (fl_session_parent_class)->dispose (object);
}

static void
fl_session_finalize (GObject *object)
{
  FlSession *self = FL_SESSION (object);

  g_free (self->scenario);
  g_free (self->name);
  g_free (self->text);
  g_free (self->title);
  g_hash_table_unref (self->switches);

  G_OBJECT_CLASS (fl_session_parent_class)->finalize (object);
}

static void
fl_session_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  FlSession *self = FL_SESSION (object);

  switch (prop_id)
    {
    case PROP_SCENARIO:
      g_value_set_string (value, self->scenario);
      break;
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_LOADING:
      g_value_set_boolean (value, fl_session_is_loading (self));
      break;
    case PROP_PROGRESS:
      g_value_set_double (value, self->progress);
      break;
    case PROP_STEP:
      g_value_set_uint64 (value, fl_session_get_step (self));
      break;
    case PROP_TOTAL_STEPS:
      g_value_set_uint64 (value, fl_session_get_total_steps (self));
      break;
    case PROP_SELECTED_CPU:
      g_value_set_uint (value, self->selected_cpu);
      break;
    case PROP_N_CPUS:
      g_value_set_uint (value, self->n_cpus);
      break;
    case PROP_PLAYING:
      g_value_set_boolean (value, self->playing);
      break;
    case PROP_SPEED:
      g_value_set_double (value, self->speed);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fl_session_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  FlSession *self = FL_SESSION (object);

  switch (prop_id)
    {
    case PROP_STEP:
      fl_session_seek (self, g_value_get_uint64 (value));
      break;
    case PROP_SELECTED_CPU:
      fl_session_select_cpu (self, g_value_get_uint (value));
      break;
    case PROP_PLAYING:
      fl_session_set_playing (self, g_value_get_boolean (value));
      break;
    case PROP_SPEED:
      fl_session_set_speed (self, g_value_get_double (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fl_session_class_init (FlSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = fl_session_dispose;
  object_class->finalize = fl_session_finalize;
  object_class->get_property = fl_session_get_property;
  object_class->set_property = fl_session_set_property;

  properties[PROP_SCENARIO] = g_param_spec_string ("scenario", NULL, NULL, NULL, ro);
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, ro);
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, "", ro);
  properties[PROP_LOADING] = g_param_spec_boolean ("loading", NULL, NULL, FALSE, ro);
  properties[PROP_PROGRESS] = g_param_spec_double ("progress", NULL, NULL, 0.0, 1.0, 0.0, ro);
  properties[PROP_STEP] = g_param_spec_uint64 ("step", NULL, NULL, 0, G_MAXUINT64, 0, rw);
  properties[PROP_TOTAL_STEPS] =
    g_param_spec_uint64 ("total-steps", NULL, NULL, 0, G_MAXUINT64, 0, ro);
  properties[PROP_SELECTED_CPU] =
    g_param_spec_uint ("selected-cpu", NULL, NULL, 0, FL_MAX_CPUS - 1, 0, rw);
  properties[PROP_N_CPUS] = g_param_spec_uint ("n-cpus", NULL, NULL, 0, FL_MAX_CPUS, 0, ro);
  properties[PROP_PLAYING] = g_param_spec_boolean ("playing", NULL, NULL, FALSE, rw);
  properties[PROP_SPEED] = g_param_spec_double ("speed", NULL, NULL, 0.25, 1000.0, 10.0, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SIGNAL_CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_LOAD_FAILED] =
    g_signal_new ("load-failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_ERROR);
  signals[SIGNAL_FINDING_SHOWN] =
    g_signal_new ("finding-shown", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
fl_session_init (FlSession *self)
{
  self->switches = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->title = g_strdup ("");
  self->speed = 10.0;
  fl_config_init_defaults (&self->base_config);
}

FlSession *
fl_session_new (void)
{
  return g_object_new (FL_TYPE_SESSION, NULL);
}
