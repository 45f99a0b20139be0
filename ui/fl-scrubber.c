/* FlScrubber: drawn in C from the painters' palette so its marks have the colours the lanes
 * give findings and the cursor. Seeking is immediate (checkpoints in the core), so a drag
 * simply seeks at every motion. */

#include "fl-scrubber.h"

#include <glib/gi18n.h>
#include <math.h>

#include "fl-bookmarks.h"
#include "fl-style.h"

#define PAD        14.0   /* room for the thumb at either end */
#define TRACK      6.0
#define THUMB      8.0
#define MARK       5.0
#define PAGE_SHARE 10     /* Page Up/Down move a tenth of the run */

struct _FlScrubber
{
  GtkWidget  parent_instance;

  FlSession  *session;
  GListModel *bookmarks;   /* FlBookmark items, or NULL */
};

G_DEFINE_FINAL_TYPE (FlScrubber, fl_scrubber, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static double
fl_scrubber_x_of (FlScrubber *self, guint64 step, guint64 total)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self)) - 2 * PAD;

  return PAD + (total > 0 ? (double) step / total * width : 0);
}

guint64
fl_scrubber_step_at (FlScrubber *self, double x)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self)) - 2 * PAD;
  guint64 total;

  g_return_val_if_fail (FL_IS_SCRUBBER (self), 0);

  total = fl_session_get_total_steps (self->session);
  if (width <= 0 || total == 0)
    return 0;
  return (guint64) llround (CLAMP ((x - PAD) / width, 0.0, 1.0) * total);
}

static char *
fl_scrubber_step_text (guint64 step, guint64 total)
{
  g_autofree char *a = g_strdup_printf ("%" G_GUINT64_FORMAT, step);
  g_autofree char *b = g_strdup_printf ("%" G_GUINT64_FORMAT, total);

  /* Translators: the scrubber's value, read out by a screen reader and in its tooltip. */
  return g_strdup_printf (_("Step %s of %s"), a, b);
}

static void
fl_set_source (cairo_t *cr, const FlRgba *c, double alpha)
{
  cairo_set_source_rgba (cr, c->r, c->g, c->b, c->a * alpha);
}

static void
fl_scrubber_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  FlScrubber *self = FL_SCRUBBER (widget);
  const FlRun *run = fl_session_get_run (self->session);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  guint64 total = fl_session_get_total_steps (self->session);
  guint64 step = fl_session_get_step (self->session);
  double cy = height / 2.0 + MARK / 2;
  double x;
  FlPalette palette;
  cairo_t *cr;

  if (width < 2 * PAD || height < 1)
    return;
  fl_style_get_palette (&palette);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));

  fl_set_source (cr, &palette.background, 1.0);
  cairo_paint (cr);

  /* the track, and the steps taken as its filled part */
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  cairo_set_line_width (cr, TRACK);
  fl_set_source (cr, &palette.grid, 1.0);
  cairo_move_to (cr, PAD, cy);
  cairo_line_to (cr, width - PAD, cy);
  cairo_stroke (cr);
  x = fl_scrubber_x_of (self, step, total);
  if (run != NULL && step > 0)
    {
      fl_set_source (cr, &palette.accent, 0.85);
      cairo_move_to (cr, PAD, cy);
      cairo_line_to (cr, x, cy);
      cairo_stroke (cr);
    }

  /* findings: a downward triangle above the track where each shows */
  if (run != NULL)
    {
      const GPtrArray *findings = fl_run_get_findings (run);

      for (guint i = 0; i < findings->len; i++)
        {
          const FlFinding *finding = g_ptr_array_index (findings, i);
          double fx = fl_scrubber_x_of (self, MIN (finding->step, total), total);
          double top = cy - TRACK / 2 - 2 - 2 * MARK;

          cairo_move_to (cr, fx - MARK, top);
          cairo_line_to (cr, fx + MARK, top);
          cairo_line_to (cr, fx, top + 2 * MARK);
          cairo_close_path (cr);
        }
      fl_set_source (cr, &palette.error, 1.0);
      cairo_fill (cr);
    }

  /* bookmarks: an upward triangle below the track, in the text colour */
  if (run != NULL && self->bookmarks != NULL)
    {
      guint n = g_list_model_get_n_items (self->bookmarks);

      for (guint i = 0; i < n; i++)
        {
          g_autoptr(FlBookmark) bookmark = g_list_model_get_item (self->bookmarks, i);
          double bx = fl_scrubber_x_of (self, MIN (fl_bookmark_get_step (bookmark), total),
                                        total);
          double bottom = cy + TRACK / 2 + 2 + 2 * MARK;

          cairo_move_to (cr, bx - MARK, bottom);
          cairo_line_to (cr, bx + MARK, bottom);
          cairo_line_to (cr, bx, bottom - 2 * MARK);
          cairo_close_path (cr);
        }
      fl_set_source (cr, &palette.text, 0.8);
      cairo_fill (cr);
    }

  /* the thumb at the current step */
  if (run != NULL)
    {
      cairo_new_sub_path (cr);
      cairo_arc (cr, x, cy, THUMB, 0, 2 * G_PI);
      fl_set_source (cr, &palette.accent, 1.0);
      cairo_fill_preserve (cr);
      cairo_set_line_width (cr, 2);
      fl_set_source (cr, &palette.background, 1.0);
      cairo_stroke (cr);
    }
  cairo_destroy (cr);
}

static void
fl_scrubber_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                     int *minimum, int *natural, int *minimum_baseline, int *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = *natural = (int) (4 * PAD);
  else
    *minimum = *natural = (int) (2 * THUMB + 2 * MARK + 14);
}

static void
fl_scrubber_changed (FlScrubber *self)
{
  guint64 step = fl_session_get_step (self->session);
  guint64 total = fl_session_get_total_steps (self->session);
  g_autofree char *text = fl_scrubber_step_text (step, total);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_MIN, 0.0,
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_MAX, (double) total,
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_NOW, (double) step,
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_TEXT, text,
                                  -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
fl_scrubber_seek_to (FlScrubber *self, double x)
{
  if (fl_session_get_run (self->session) == NULL)
    return;
  fl_session_set_playing (self->session, FALSE);
  fl_session_seek (self->session, fl_scrubber_step_at (self, x));
}

static void
fl_scrubber_drag_begin (GtkGestureDrag *gesture, double x, double y, FlScrubber *self)
{
  gtk_widget_grab_focus (GTK_WIDGET (self));
  fl_scrubber_seek_to (self, x);
}

static void
fl_scrubber_drag_update (GtkGestureDrag *gesture, double dx, double dy, FlScrubber *self)
{
  double x, y;

  if (gtk_gesture_drag_get_start_point (gesture, &x, &y))
    fl_scrubber_seek_to (self, x + dx);
}

static gboolean
fl_scrubber_key_pressed (GtkEventControllerKey *controller, guint keyval, guint keycode,
                         GdkModifierType state, FlScrubber *self)
{
  guint64 total = fl_session_get_total_steps (self->session);
  guint64 step = fl_session_get_step (self->session);
  guint64 page = MAX (total / PAGE_SHARE, 1);

  if (fl_session_get_run (self->session) == NULL)
    return FALSE;
  if (keyval == GDK_KEY_Page_Down || keyval == GDK_KEY_KP_Page_Down)
    fl_session_seek (self->session, MIN (step + page, total));
  else if (keyval == GDK_KEY_Page_Up || keyval == GDK_KEY_KP_Page_Up)
    fl_session_seek (self->session, step > page ? step - page : 0);
  else
    return FALSE;
  return TRUE;
}

static gboolean
fl_scrubber_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard_mode,
                           GtkTooltip *tooltip)
{
  FlScrubber *self = FL_SCRUBBER (widget);
  g_autofree char *text = NULL;

  if (fl_session_get_run (self->session) == NULL)
    return FALSE;
  text = fl_scrubber_step_text (keyboard_mode ? fl_session_get_step (self->session)
                                              : fl_scrubber_step_at (self, x),
                                fl_session_get_total_steps (self->session));
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
fl_scrubber_constructed (GObject *object)
{
  FlScrubber *self = FL_SCRUBBER (object);

  G_OBJECT_CLASS (fl_scrubber_parent_class)->constructed (object);

  g_return_if_fail (FL_IS_SESSION (self->session));
  g_signal_connect_object (self->session, "changed", G_CALLBACK (fl_scrubber_changed), self,
                           G_CONNECT_SWAPPED);
  fl_scrubber_changed (self);
}

static void
fl_scrubber_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  FlScrubber *self = FL_SCRUBBER (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fl_scrubber_set_property (GObject *object, guint prop_id, const GValue *value,
                          GParamSpec *pspec)
{
  FlScrubber *self = FL_SCRUBBER (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      self->session = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fl_scrubber_dispose (GObject *object)
{
  FlScrubber *self = FL_SCRUBBER (object);

  fl_scrubber_set_bookmarks (self, NULL);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (fl_scrubber_parent_class)->dispose (object);
}

static void
fl_scrubber_class_init (FlScrubberClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = fl_scrubber_constructed;
  object_class->dispose = fl_scrubber_dispose;
  object_class->get_property = fl_scrubber_get_property;
  object_class->set_property = fl_scrubber_set_property;
  widget_class->snapshot = fl_scrubber_snapshot;
  widget_class->measure = fl_scrubber_measure;
  widget_class->query_tooltip = fl_scrubber_query_tooltip;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, FL_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "flscrubber");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_SLIDER);
}

static void
fl_scrubber_init (FlScrubber *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkGesture *gesture;
  GtkEventController *controller;

  gtk_widget_set_focusable (widget, TRUE);
  gtk_widget_set_has_tooltip (widget, TRUE);
  gtk_widget_set_hexpand (widget, TRUE);

  gesture = gtk_gesture_drag_new ();
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (fl_scrubber_drag_begin), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (fl_scrubber_drag_update), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  controller = gtk_event_controller_key_new ();
  g_signal_connect (controller, "key-pressed", G_CALLBACK (fl_scrubber_key_pressed), self);
  gtk_widget_add_controller (widget, controller);

  fl_style_connect (G_OBJECT (self), G_CALLBACK (gtk_widget_queue_draw));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Position in the run"),
                                  -1);
}

GtkWidget *
fl_scrubber_new (FlSession *session)
{
  g_return_val_if_fail (FL_IS_SESSION (session), NULL);

  return g_object_new (FL_TYPE_SCRUBBER, "session", session, NULL);
}

void
fl_scrubber_set_bookmarks (FlScrubber *self, GListModel *bookmarks)
{
  g_return_if_fail (FL_IS_SCRUBBER (self));
  g_return_if_fail (bookmarks == NULL || G_IS_LIST_MODEL (bookmarks));

  if (self->bookmarks != NULL)
    g_signal_handlers_disconnect_by_data (self->bookmarks, self);
  g_set_object (&self->bookmarks, bookmarks);
  if (bookmarks != NULL)
    g_signal_connect_swapped (bookmarks, "items-changed", G_CALLBACK (gtk_widget_queue_draw),
                              self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
