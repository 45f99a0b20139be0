/* FlLanesArea: zoom, pan, seek and tooltips on the CPU lanes. Every gesture ends in a new
 * time window for the painter (fl_view_area_set_time_window) or a seek on the session; the
 * painter's own geometry (fl_lanes_time_axis, fl_lanes_hit) maps pixels to cycles and steps,
 * so what is under the pointer is what the eye sees there. */

#include "fl-lanes-area.h"
#include "fl-shortcuts.h"

#include <glib/gi18n.h>
#include <math.h>

/* The narrowest window: a handful of cycles still shows single steps apart. */
#define MIN_SPAN          16.0
#define WHEEL_ZOOM        1.25
#define WHEEL_PAN_PIXELS  48.0
#define WHEEL_LANES       3.0
#define DRAG_THRESHOLD    4.0

struct _FlLanesArea
{
  FlViewArea parent_instance;

  double   pointer_x;           /* last pointer position, for Ctrl+wheel zoom */
  guint64  drag_t0, drag_t1;    /* the window when a drag or a pinch began */
  double   zoom_x;              /* the pinch's centre */
  gboolean panning;
  double   lane_scroll;         /* smooth scrolling's fraction of a lane not yet moved */
  /* The whole run is shown because the user asked for it (F, a double click, zooming all
   * the way out); otherwise a long run's lanes follow the cursor. */
  gboolean whole_run;
};

G_DEFINE_FINAL_TYPE (FlLanesArea, fl_lanes_area, FL_TYPE_VIEW_AREA)

static const FlCursor *
fl_lanes_area_get_cursor (FlLanesArea *self)
{
  return fl_session_get_cursor (fl_view_area_get_session (FL_VIEW_AREA (self)));
}

/* The axis for the window [t0, t1] (0, 0: the default) at the current size, and the whole
 * run's extent. FALSE when there is nothing to zoom. */
static gboolean
fl_lanes_area_axis (FlLanesArea *self, guint64 t0, guint64 t1, double *x0, double *width,
                    guint64 *full0, guint64 *full1)
{
  const FlCursor *cur = fl_lanes_area_get_cursor (self);
  FlViewport viewport;

  if (cur == NULL)
    return FALSE;
  fl_view_area_get_viewport (FL_VIEW_AREA (self), &viewport);
  viewport.time_start = viewport.time_end = 0;
  if (!fl_lanes_time_axis (cur, &viewport, x0, width, full0, full1))
    return FALSE;
  return *width >= 1 && *full1 > *full0;
}

/* Shows [start, start + span] kept inside the run; the whole run again when it all fits. */
static void
fl_lanes_area_show (FlLanesArea *self, double start, double span, guint64 full0, guint64 full1)
{
  double full_span = (double) (full1 - full0);

  span = MAX (span, MIN_SPAN);
  self->whole_run = span >= full_span;
  if (self->whole_run)
    {
      fl_view_area_set_time_window (FL_VIEW_AREA (self), 0, 0);
      return;
    }
  start = CLAMP (start, (double) full0, (double) full1 - span);
  fl_view_area_set_time_window (FL_VIEW_AREA (self), (guint64) llround (start),
                                (guint64) llround (start + span));
}

static void
fl_lanes_area_current (FlLanesArea *self, guint64 full0, guint64 full1,
                       guint64 *t0, guint64 *t1)
{
  FlViewport viewport;

  fl_view_area_get_viewport (FL_VIEW_AREA (self), &viewport);
  *t0 = viewport.time_start;
  *t1 = viewport.time_end;
  if (*t1 <= *t0)
    {
      *t0 = full0;
      *t1 = full1;
    }
}

/* Zooms the window [t0, t1] by `factor` around the cycle under x. */
static void
fl_lanes_area_zoom_from (FlLanesArea *self, guint64 t0, guint64 t1, double factor, double x)
{
  double x0, width, frac, at, span;
  guint64 full0, full1;

  if (factor <= 0 || !fl_lanes_area_axis (self, 0, 0, &x0, &width, &full0, &full1))
    return;
  if (t1 <= t0)
    {
      t0 = full0;
      t1 = full1;
    }
  frac = CLAMP ((x - x0) / width, 0.0, 1.0);
  at = t0 + frac * (double) (t1 - t0);
  span = (double) (t1 - t0) / factor;
  fl_lanes_area_show (self, at - frac * span, span, full0, full1);
}

void
fl_lanes_area_zoom (FlLanesArea *self, double factor, double x)
{
  FlViewport viewport;

  g_return_if_fail (FL_IS_LANES_AREA (self));

  fl_view_area_get_viewport (FL_VIEW_AREA (self), &viewport);
  fl_lanes_area_zoom_from (self, viewport.time_start, viewport.time_end, factor, x);
}

/* Shows [t0, t1] moved by dx pixels' worth of time. */
static void
fl_lanes_area_pan_from (FlLanesArea *self, guint64 t0, guint64 t1, double dx)
{
  double x0, width;
  guint64 full0, full1;

  if (!fl_lanes_area_axis (self, 0, 0, &x0, &width, &full0, &full1) || t1 <= t0)
    return;   /* the whole run is on screen: there is nowhere to pan to */
  fl_lanes_area_show (self, t0 + dx / width * (double) (t1 - t0), (double) (t1 - t0),
                      full0, full1);
}

void
fl_lanes_area_pan (FlLanesArea *self, double dx)
{
  FlViewport viewport;

  g_return_if_fail (FL_IS_LANES_AREA (self));

  fl_view_area_get_viewport (FL_VIEW_AREA (self), &viewport);
  fl_lanes_area_pan_from (self, viewport.time_start, viewport.time_end, dx);
}

void
fl_lanes_area_reset (FlLanesArea *self)
{
  g_return_if_fail (FL_IS_LANES_AREA (self));
  self->whole_run = TRUE;
  fl_view_area_set_time_window (FL_VIEW_AREA (self), 0, 0);
}

/* The cursor leaves the window when it has gone this far across: the window then moves on,
 * the cursor a quarter of the way in, so what it has just done stays in sight. */
#define FOLLOW_RIGHT 0.85
#define FOLLOW_LEFT  0.25

/* A long run's lanes show a window around the cursor and move it on as the cursor moves
 * (playing, stepping, seeking); a window the user zoomed keeps its span. Nothing moves
 * while the whole run is shown or when a short run fits. */
static void
fl_lanes_area_follow (FlLanesArea *self)
{
  const FlCursor *cur = fl_lanes_area_get_cursor (self);
  FlViewport viewport;
  double x0, width;
  guint64 full0, full1, span, now, t0;

  if (cur == NULL || self->whole_run
      || !fl_lanes_area_axis (self, 0, 0, &x0, &width, &full0, &full1))
    return;
  fl_view_area_get_viewport (FL_VIEW_AREA (self), &viewport);
  now = fl_lanes_cursor_cycle (cur);
  if (viewport.time_end > viewport.time_start)
    {
      span = viewport.time_end - viewport.time_start;
      if (now >= viewport.time_start
          && (double) (now - viewport.time_start) <= FOLLOW_RIGHT * (double) span)
        return;
    }
  else if ((span = fl_lanes_follow_span (cur, &viewport)) == 0)
    return;
  t0 = now > span * FOLLOW_LEFT ? now - (guint64) (span * FOLLOW_LEFT) : 0;
  fl_lanes_area_show (self, (double) t0, (double) span, full0, full1);
}

void
fl_lanes_area_toggle_whole_run (FlLanesArea *self)
{
  g_return_if_fail (FL_IS_LANES_AREA (self));

  if (!self->whole_run)
    {
      fl_lanes_area_reset (self);
      return;
    }
  self->whole_run = FALSE;
  fl_view_area_set_time_window (FL_VIEW_AREA (self), 0, 0);
  fl_lanes_area_follow (self);
}

gboolean
fl_lanes_area_get_whole_run (FlLanesArea *self)
{
  FlViewport viewport;

  g_return_val_if_fail (FL_IS_LANES_AREA (self), FALSE);
  fl_view_area_get_viewport (FL_VIEW_AREA (self), &viewport);
  return viewport.time_end <= viewport.time_start;
}

/* How many lanes are on screen and the first of them; FALSE when all of them are. */
static gboolean
fl_lanes_area_scrolls (FlLanesArea *self, guint *first, guint *shown, guint *ncpus)
{
  const FlCursor *cur = fl_lanes_area_get_cursor (self);
  FlViewport viewport;

  if (cur == NULL)
    return FALSE;
  fl_view_area_get_viewport (FL_VIEW_AREA (self), &viewport);
  *ncpus = fl_cursor_get_state (cur)->sizes.ncpus;
  *shown = fl_lanes_shown (cur, &viewport, first);
  return *shown > 0 && *shown < *ncpus;
}

void
fl_lanes_area_scroll_lanes (FlLanesArea *self, int lanes)
{
  guint first, shown, ncpus;

  g_return_if_fail (FL_IS_LANES_AREA (self));

  if (!fl_lanes_area_scrolls (self, &first, &shown, &ncpus))
    return;
  fl_view_area_set_lane_first (FL_VIEW_AREA (self),
                               (guint) CLAMP ((gint64) first + lanes, 0, (gint64) (ncpus - shown)));
}

/* The selected CPU's lane stays on screen: choosing cpu40 (a finding's cause, a click in
 * another view) scrolls the lanes to it rather than leaving its lane out of sight. */
static void
fl_lanes_area_show_selected (FlLanesArea *self)
{
  FlSession *session = fl_view_area_get_session (FL_VIEW_AREA (self));
  guint cpu = fl_session_get_selected_cpu (session);
  guint first, shown, ncpus;

  if (!fl_lanes_area_scrolls (self, &first, &shown, &ncpus))
    return;
  if (cpu < first)
    fl_view_area_set_lane_first (FL_VIEW_AREA (self), cpu);
  else if (cpu >= first + shown)
    fl_view_area_set_lane_first (FL_VIEW_AREA (self), cpu - shown + 1);
}

/* ---- input ---- */

static void
fl_lanes_area_motion (GtkEventControllerMotion *controller, double x, double y,
                      FlLanesArea *self)
{
  self->pointer_x = x;
}

static gboolean
fl_lanes_area_scroll (GtkEventControllerScroll *controller, double dx, double dy,
                      FlLanesArea *self)
{
  GdkModifierType state =
    gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));

  if (fl_lanes_area_get_cursor (self) == NULL)
    return FALSE;
  if (state & GDK_CONTROL_MASK)
    {
      if (dy == 0)
        return FALSE;
      fl_lanes_area_zoom (self, pow (WHEEL_ZOOM, -dy), self->pointer_x);
      return TRUE;
    }
  /* The vertical wheel goes through the lanes when they do not all fit; otherwise, like
   * the horizontal wheel and Shift+wheel, it pans through time. */
  guint first, shown, ncpus;
  if (dy != 0 && dx == 0 && !(state & GDK_SHIFT_MASK)
      && fl_lanes_area_scrolls (self, &first, &shown, &ncpus))
    {
      self->lane_scroll += dy * WHEEL_LANES;
      int lanes = (int) trunc (self->lane_scroll);
      self->lane_scroll -= lanes;
      fl_lanes_area_scroll_lanes (self, lanes);
      return TRUE;
    }
  fl_lanes_area_pan (self, (dx + dy) * WHEEL_PAN_PIXELS);
  return TRUE;
}

static void
fl_lanes_area_drag_begin (GtkGestureDrag *gesture, double x, double y, FlLanesArea *self)
{
  double x0, width;
  guint64 full0, full1;

  self->panning = FALSE;
  if (!fl_lanes_area_axis (self, 0, 0, &x0, &width, &full0, &full1))
    return;
  fl_lanes_area_current (self, full0, full1, &self->drag_t0, &self->drag_t1);
}

static void
fl_lanes_area_drag_update (GtkGestureDrag *gesture, double dx, double dy, FlLanesArea *self)
{
  FlViewport viewport;

  fl_view_area_get_viewport (FL_VIEW_AREA (self), &viewport);
  if (!self->panning)
    {
      /* Below the threshold the press is still a click (seek); beyond it, a pan. */
      if (fabs (dx) < DRAG_THRESHOLD || viewport.time_end <= viewport.time_start)
        return;
      self->panning = TRUE;
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
    }
  fl_lanes_area_pan_from (self, self->drag_t0, self->drag_t1, -dx);
}

static void
fl_lanes_area_released (GtkGestureClick *gesture, int n_press, double x, double y,
                        FlLanesArea *self)
{
  FlSession *session = fl_view_area_get_session (FL_VIEW_AREA (self));
  const FlCursor *cur = fl_session_get_cursor (session);
  FlViewport viewport;
  guint cpu;
  guint64 step;

  if (cur == NULL || self->panning)
    return;
  if (n_press == 2)
    {
      fl_lanes_area_reset (self);
      return;
    }
  fl_view_area_get_viewport (FL_VIEW_AREA (self), &viewport);
  if (!fl_lanes_hit (cur, &viewport, x, y, &cpu, &step))
    return;
  fl_session_set_playing (session, FALSE);
  fl_session_select_cpu (session, cpu);
  fl_session_seek (session, step);
}

static void
fl_lanes_area_zoom_begin (GtkGesture *gesture, GdkEventSequence *sequence, FlLanesArea *self)
{
  double x0, width, y;
  guint64 full0, full1;

  if (!fl_lanes_area_axis (self, 0, 0, &x0, &width, &full0, &full1))
    return;
  fl_lanes_area_current (self, full0, full1, &self->drag_t0, &self->drag_t1);
  if (!gtk_gesture_get_bounding_box_center (gesture, &self->zoom_x, &y))
    self->zoom_x = x0 + width / 2;
}

static void
fl_lanes_area_zoom_changed (GtkGestureZoom *gesture, double scale, FlLanesArea *self)
{
  fl_lanes_area_zoom_from (self, self->drag_t0, self->drag_t1, scale, self->zoom_x);
}

/* The event of `cpu` that ended just before `step`: the one the lanes show there. */
static gboolean
fl_lanes_area_event (const FlRun *run, guint cpu, guint64 step, FlEvent *out)
{
  gsize n = fl_run_get_n_events (run);

  if (step == 0)
    return FALSE;
  for (gsize i = fl_run_find_step (run, step - 1); i < n; i++)
    {
      FlEvent e = fl_run_get_event (run, i);

      if (e.step != step - 1)
        break;
      if (e.cpu == cpu && e.kind != FL_EV_FINDING)
        {
          *out = e;
          return TRUE;
        }
    }
  return FALSE;
}

static gboolean
fl_lanes_area_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard_mode,
                             GtkTooltip *tooltip)
{
  FlLanesArea *self = FL_LANES_AREA (widget);
  const FlCursor *cur = fl_lanes_area_get_cursor (self);
  g_autofree char *what = NULL;
  g_autofree char *number = NULL;
  g_autofree char *markup = NULL;
  FlEvent event;
  FlViewport viewport;
  guint cpu;
  guint64 step;

  /* a shortened title or label first: FlViewArea shows it in full */
  if (GTK_WIDGET_CLASS (fl_lanes_area_parent_class)->query_tooltip (widget, x, y, keyboard_mode,
                                                                    tooltip))
    return TRUE;
  if (cur == NULL || keyboard_mode)
    return FALSE;
  fl_view_area_get_viewport (FL_VIEW_AREA (self), &viewport);
  if (!fl_lanes_hit (cur, &viewport, x, y, &cpu, &step))
    return FALSE;
  if (!fl_lanes_area_event (fl_cursor_get_run (cur), cpu, step, &event))
    return FALSE;

  what = fl_cursor_describe_event (cur, &event);
  /* the events of step N carry N - 1, the steps before them */
  number = g_strdup_printf ("%u", event.step + 1);
  /* Translators: a tooltip over the CPU lanes: the step's number, its CPU, and below it
   * what the step did, e.g. "call do_page_fault". */
  markup = g_markup_printf_escaped (_("<b>Step %s · cpu%u</b>\n%s"), number, cpu, what);
  gtk_tooltip_set_markup (tooltip, markup);
  return TRUE;
}

static void
fl_lanes_area_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                       int *minimum, int *natural, int *minimum_baseline, int *natural_baseline)
{
  const FlCursor *cur = fl_lanes_area_get_cursor (FL_LANES_AREA (widget));

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 240;
      *natural = 640;
      return;
    }
  *minimum = 110;
  *natural = 200;
  if (cur != NULL)
    {
      FlViewport viewport;

      /* at the type the lanes are drawn at: larger type, taller lanes, legend included */
      fl_view_area_get_viewport (FL_VIEW_AREA (widget), &viewport);
      viewport.width = for_size > 0 ? for_size : 1280;
      /* many CPUs get thinner lanes rather than most of the window */
      *natural = CLAMP ((int) fl_lanes_natural_height (cur, &viewport), *minimum,
                        (int) (360 * MAX (viewport.font_scale, 1.0)));
    }
}

/* F anywhere in the window, unless a text field wants the letter: as the window's other
 * single keys (fl-shortcuts.c) do. */
static gboolean
fl_lanes_area_whole_run_key (GtkWidget *widget, GVariant *args, gpointer user_data)
{
  FlLanesArea *self = user_data;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  if (root == NULL || !gtk_widget_is_drawable (GTK_WIDGET (self))
      || fl_shortcuts_focus_wants_keys (gtk_root_get_focus (root)))
    return FALSE;
  fl_lanes_area_toggle_whole_run (self);
  return TRUE;
}

static void
fl_lanes_area_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  GTK_WIDGET_CLASS (fl_lanes_area_parent_class)->size_allocate (widget, width, height, baseline);
  /* the run may have arrived before the lanes had a width to choose a window for */
  fl_lanes_area_follow (FL_LANES_AREA (widget));
}

static void
fl_lanes_area_run_changed (FlLanesArea *self)
{
  /* A new run (a scenario, a switch) has a time of its own: start from all of it, or from
   * around the cursor when it is long. The session tells n-cpus for every new run, not for
   * a CPU stepped alone. */
  self->whole_run = FALSE;
  fl_view_area_set_time_window (FL_VIEW_AREA (self), 0, 0);
  fl_view_area_set_lane_first (FL_VIEW_AREA (self), 0);
  fl_lanes_area_follow (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static void
fl_lanes_area_constructed (GObject *object)
{
  FlLanesArea *self = FL_LANES_AREA (object);
  FlSession *session;

  G_OBJECT_CLASS (fl_lanes_area_parent_class)->constructed (object);

  session = fl_view_area_get_session (FL_VIEW_AREA (self));
  g_signal_connect_object (session, "notify::n-cpus",
                           G_CALLBACK (fl_lanes_area_run_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::step",
                           G_CALLBACK (fl_lanes_area_follow), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::selected-cpu",
                           G_CALLBACK (fl_lanes_area_show_selected), self, G_CONNECT_SWAPPED);
}

static void
fl_lanes_area_class_init (FlLanesAreaClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = fl_lanes_area_constructed;
  widget_class->query_tooltip = fl_lanes_area_query_tooltip;
  widget_class->measure = fl_lanes_area_measure;
  widget_class->size_allocate = fl_lanes_area_size_allocate;
}

static void
fl_lanes_area_init (FlLanesArea *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkEventController *controller;
  GtkGesture *gesture;

  gtk_widget_set_has_tooltip (widget, TRUE);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (fl_lanes_area_motion), self);
  gtk_widget_add_controller (widget, controller);

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (controller, "scroll", G_CALLBACK (fl_lanes_area_scroll), self);
  gtk_widget_add_controller (widget, controller);

  gesture = gtk_gesture_drag_new ();
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (fl_lanes_area_drag_begin), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (fl_lanes_area_drag_update), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_click_new ();
  g_signal_connect (gesture, "released", G_CALLBACK (fl_lanes_area_released), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  controller = gtk_shortcut_controller_new ();
  gtk_event_controller_set_name (controller, "fl-lanes-shortcuts");
  gtk_shortcut_controller_set_scope (GTK_SHORTCUT_CONTROLLER (controller),
                                     GTK_SHORTCUT_SCOPE_GLOBAL);
  gtk_shortcut_controller_add_shortcut (
    GTK_SHORTCUT_CONTROLLER (controller),
    gtk_shortcut_new (gtk_alternative_trigger_new (gtk_keyval_trigger_new (GDK_KEY_f, 0),
                                                   gtk_keyval_trigger_new (GDK_KEY_F, 0)),
                      gtk_callback_action_new (fl_lanes_area_whole_run_key, self, NULL)));
  gtk_widget_add_controller (widget, controller);

  gesture = gtk_gesture_zoom_new ();
  g_signal_connect (gesture, "begin", G_CALLBACK (fl_lanes_area_zoom_begin), self);
  g_signal_connect (gesture, "scale-changed", G_CALLBACK (fl_lanes_area_zoom_changed), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));
}

GtkWidget *
fl_lanes_area_new (FlSession *session)
{
  g_return_val_if_fail (FL_IS_SESSION (session), NULL);

  return g_object_new (FL_TYPE_LANES_AREA, "session", session, "view", FL_VIEW_LANES, NULL);
}
