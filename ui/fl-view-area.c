/* FlViewArea: a painter view as a widget. The picture is painted once per change (a new
 * step, CPU, size, time window or style) into a texture that every other frame reuses, so an
 * idle window, a resize of a neighbour or a tooltip costs no painting. */

#include "fl-view-area.h"

#include <glib/gi18n.h>
#include <math.h>

#include "fl-style.h"

typedef struct
{
  FlSession     *session;
  FlView         view;
  guint64        time_start, time_end;
  guint          lane_first;    /* the lanes' first CPU on screen, when they scroll */
  double         font_scale;    /* 1 in the window; larger in presentation mode */

  GskRenderNode *picture;       /* the view as last painted; NULL when it must be repainted */
  int            picture_width, picture_height;
  GArray        *elided;        /* FlElidedText: what the picture shows shortened */
  FlViewCache   *cache;         /* what the painter keeps between frames (the lanes' columns) */
} FlViewAreaPrivate;

G_DEFINE_TYPE_WITH_PRIVATE (FlViewArea, fl_view_area, GTK_TYPE_WIDGET)

/* Nicks are the painters' view names, so a .ui file says <property name="view">vma</property>. */
static const GEnumValue fl_view_values[] = {
  { FL_VIEW_LANES, "FL_VIEW_LANES", "lanes" },
  { FL_VIEW_VMA, "FL_VIEW_VMA", "vma" },
  { FL_VIEW_PGTABLE, "FL_VIEW_PGTABLE", "pgtable" },
  { FL_VIEW_CACHE, "FL_VIEW_CACHE", "cache" },
  { FL_VIEW_RCU, "FL_VIEW_RCU", "rcu" },
  { FL_VIEW_LISTING, "FL_VIEW_LISTING", "listing" },
  { FL_VIEW_COUNTERS, "FL_VIEW_COUNTERS", "counters" },
  { FL_VIEW_ALL, "FL_VIEW_ALL", "all" },
  { 0, NULL, NULL }
};

GType
fl_view_get_type (void)
{
  static gsize type_id = 0;

  if (g_once_init_enter (&type_id))
    g_once_init_leave (&type_id, g_enum_register_static (g_intern_static_string ("FlView"),
                                                         fl_view_values));
  return type_id;
}

enum {
  PROP_0,
  PROP_SESSION,
  PROP_VIEW,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

const char *
fl_view_get_title (FlView view)
{
  switch (view)
    {
    case FL_VIEW_LANES:
      return _("CPU lanes");
    case FL_VIEW_VMA:
      return _("VMA tree");
    case FL_VIEW_PGTABLE:
      return _("Page tables");
    case FL_VIEW_CACHE:
      return _("Cache lines");
    case FL_VIEW_RCU:
      return _("RCU");
    case FL_VIEW_LISTING:
      return _("Listing");
    case FL_VIEW_COUNTERS:
      return _("Counters");
    case FL_VIEW_ALL:
    case FL_VIEW_N:
    default:
      return _("All views");
    }
}

void
fl_view_area_get_viewport (FlViewArea *self, FlViewport *viewport)
{
  FlViewAreaPrivate *priv = fl_view_area_get_instance_private (self);

  g_return_if_fail (FL_IS_VIEW_AREA (self));

  *viewport = (FlViewport) {
    .width = gtk_widget_get_width (GTK_WIDGET (self)),
    .height = gtk_widget_get_height (GTK_WIDGET (self)),
    .font_scale = priv->font_scale,
    .selected_cpu = priv->session ? fl_session_get_selected_cpu (priv->session) : 0,
    .time_start = priv->time_start,
    .time_end = priv->time_end,
    .lane_first = priv->lane_first,
  };
}

void
fl_view_area_get_palette (FlViewArea *self, FlPalette *palette)
{
  g_return_if_fail (FL_IS_VIEW_AREA (self));
  fl_style_get_palette (palette);
}

static void
fl_view_area_update_description (FlViewArea *self)
{
  FlViewAreaPrivate *priv = fl_view_area_get_instance_private (self);
  const FlCursor *cur = priv->session ? fl_session_get_cursor (priv->session) : NULL;
  g_autofree char *description = NULL;
  FlViewport viewport;

  if (cur == NULL)
    return;   /* loading: the last run's words stay until the new run is on screen */
  fl_view_area_get_viewport (self, &viewport);
  description = fl_view_describe (priv->view, cur, &viewport);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description,
                                  -1);
}

/* Something the picture shows changed: paint it again at the next frame. */
static void
fl_view_area_invalidate (FlViewArea *self)
{
  FlViewAreaPrivate *priv = fl_view_area_get_instance_private (self);

  g_clear_pointer (&priv->picture, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
fl_view_area_set_font_scale (FlViewArea *self, double font_scale)
{
  FlViewAreaPrivate *priv = fl_view_area_get_instance_private (self);

  g_return_if_fail (FL_IS_VIEW_AREA (self));
  g_return_if_fail (font_scale > 0);

  if (priv->font_scale == font_scale)
    return;
  priv->font_scale = font_scale;
  fl_view_area_invalidate (self);
  /* the painters' natural sizes grow with the type */
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static void
fl_view_area_session_changed (FlViewArea *self)
{
  fl_view_area_invalidate (self);
  fl_view_area_update_description (self);
}

void
fl_view_area_set_time_window (FlViewArea *self, guint64 start, guint64 end)
{
  FlViewAreaPrivate *priv = fl_view_area_get_instance_private (self);

  g_return_if_fail (FL_IS_VIEW_AREA (self));

  if (end <= start)
    start = end = 0;
  if (start == priv->time_start && end == priv->time_end)
    return;
  priv->time_start = start;
  priv->time_end = end;
  fl_view_area_invalidate (self);
  fl_view_area_update_description (self);
}

void
fl_view_area_set_lane_first (FlViewArea *self, guint lane_first)
{
  FlViewAreaPrivate *priv = fl_view_area_get_instance_private (self);

  g_return_if_fail (FL_IS_VIEW_AREA (self));

  if (lane_first == priv->lane_first)
    return;
  priv->lane_first = lane_first;
  fl_view_area_invalidate (self);
  fl_view_area_update_description (self);
}

/* The view rasterized once into an image the size of the widget in device pixels, wrapped in
 * a Cairo render node that only paints that image. A node holding the drawing itself would
 * keep it as a recording that the renderer plays back, rasterizing it again, on every frame
 * that shows it; a GdkTexture costs the Cairo renderer of GTK 4.8 a format conversion per
 * frame. An image in a Cairo node is a plain copy. */
static GskRenderNode *
fl_view_area_paint (FlViewArea *self, int width, int height)
{
  FlViewAreaPrivate *priv = fl_view_area_get_instance_private (self);
  const FlCursor *cur = priv->session ? fl_session_get_cursor (priv->session) : NULL;
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  cairo_surface_t *image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32,
                                                       width * scale, height * scale);
  GskRenderNode *node = gsk_cairo_node_new (&GRAPHENE_RECT_INIT (0, 0, width, height));
  cairo_t *cr;
  FlViewport viewport;
  FlPalette palette;

  cairo_surface_set_device_scale (image, scale, scale);
  cr = cairo_create (image);
  fl_view_area_get_viewport (self, &viewport);
  viewport.cache = priv->cache;
  fl_view_area_get_palette (self, &palette);
  if (cur != NULL)
    fl_paint_view_noting (priv->view, cr, cur, &viewport, &palette, priv->elided);
  else
    {
      /* between runs: the canvas without content, never a half-built picture */
      cairo_set_source_rgba (cr, palette.background.r, palette.background.g,
                             palette.background.b, palette.background.a);
      cairo_paint (cr);
      g_array_set_size (priv->elided, 0);
    }
  cairo_destroy (cr);

  cr = gsk_cairo_node_get_draw_context (node);
  cairo_set_source_surface (cr, image, 0, 0);
  cairo_paint (cr);
  cairo_destroy (cr);
  cairo_surface_destroy (image);
  return node;
}

static void
fl_view_area_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  FlViewArea *self = FL_VIEW_AREA (widget);
  FlViewAreaPrivate *priv = fl_view_area_get_instance_private (self);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);

  if (width < 1 || height < 1)
    return;
  /* While a run loads there is nothing new to show: keep the last picture rather than
   * flashing an empty canvas for the few milliseconds a re-run takes. */
  if (priv->picture != NULL
      && (priv->picture_width != width || priv->picture_height != height)
      && (priv->session == NULL || fl_session_get_run (priv->session) != NULL))
    g_clear_pointer (&priv->picture, gsk_render_node_unref);
  if (priv->picture == NULL)
    {
      priv->picture = fl_view_area_paint (self, width, height);
      priv->picture_width = width;
      priv->picture_height = height;
    }
  gtk_snapshot_append_node (snapshot, priv->picture);
}

/* A text the picture shows shortened, in full: whatever the painters had to ellipsize to
 * keep a view uncluttered is one hover away. */
static gboolean
fl_view_area_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard_mode,
                            GtkTooltip *tooltip)
{
  FlViewAreaPrivate *priv = fl_view_area_get_instance_private (FL_VIEW_AREA (widget));
  const FlElidedText *elided;

  if (keyboard_mode || priv->picture == NULL)
    return FALSE;
  elided = fl_elided_texts_at (priv->elided, x, y);
  if (elided == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, elided->text);
  gtk_tooltip_set_tip_area (tooltip, &(GdkRectangle) { (int) floor (elided->x),
                                                       (int) floor (elided->y),
                                                       (int) ceil (elided->width),
                                                       (int) ceil (elided->height) });
  return TRUE;
}

/* Below 360 × 200 the painters draw at that size and scale down, so that is a view's natural
 * size; smaller still works, only smaller. */
static void
fl_view_area_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                      int *minimum, int *natural, int *minimum_baseline, int *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 120;
      *natural = 360;
    }
  else
    {
      *minimum = 80;
      *natural = 200;
    }
}

static void
fl_view_area_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  FlViewArea *self = FL_VIEW_AREA (widget);

  /* The description mentions what fits; the picture is repainted when its size differs. */
  GTK_WIDGET_CLASS (fl_view_area_parent_class)->size_allocate (widget, width, height, baseline);
  fl_view_area_update_description (self);
}

/* The cache view shortens long line names to keep its columns apart: hovering a row gives
 * the name in full, with how often the line moved and where it went last. */
static gboolean
fl_view_area_cache_tooltip (GtkWidget  *widget,
                            int         x,
                            int         y,
                            gboolean    keyboard,
                            GtkTooltip *tooltip,
                            FlViewArea *self)
{
  FlViewAreaPrivate *priv = fl_view_area_get_instance_private (self);
  const FlCursor *cur = priv->session ? fl_session_get_cursor (priv->session) : NULL;
  g_autoptr(GArray) boxes = NULL;
  FlViewport viewport;

  if (cur == NULL || keyboard)
    return FALSE;
  fl_view_area_get_viewport (self, &viewport);
  boxes = fl_cache_label_boxes (cur, &viewport);
  for (guint i = 0; i < boxes->len; i++)
    {
      const FlLabelBox *box = &g_array_index (boxes, FlLabelBox, i);

      /* anywhere along the row's text: its name, its count, its last move */
      if (box->line != 0 && y >= box->y && y < box->y + box->height)
        {
          g_autofree char *text = fl_cache_describe_line (cur, box->line);
          GdkRectangle area = { 0, (int) box->y, gtk_widget_get_width (widget),
                                (int) ceil (box->height) };

          gtk_tooltip_set_text (tooltip, text);
          gtk_tooltip_set_tip_area (tooltip, &area);
          return text != NULL;
        }
    }
  return FALSE;
}

static void
fl_view_area_constructed (GObject *object)
{
  FlViewArea *self = FL_VIEW_AREA (object);
  FlViewAreaPrivate *priv = fl_view_area_get_instance_private (self);

  G_OBJECT_CLASS (fl_view_area_parent_class)->constructed (object);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, fl_view_get_title (priv->view),
                                  -1);
  gtk_widget_add_css_class (GTK_WIDGET (self), fl_view_name (priv->view));
  fl_style_connect (object, G_CALLBACK (fl_view_area_invalidate));
  /* runs before the class handler: a cache row says more than its name in full */
  if (priv->view == FL_VIEW_CACHE)
    g_signal_connect (self, "query-tooltip", G_CALLBACK (fl_view_area_cache_tooltip), self);
  if (priv->session != NULL)
    {
      g_signal_connect_object (priv->session, "changed",
                               G_CALLBACK (fl_view_area_session_changed), self,
                               G_CONNECT_SWAPPED);
      fl_view_area_update_description (self);
    }
}

static void
fl_view_area_dispose (GObject *object)
{
  FlViewAreaPrivate *priv = fl_view_area_get_instance_private (FL_VIEW_AREA (object));

  g_clear_pointer (&priv->picture, gsk_render_node_unref);
  g_clear_pointer (&priv->elided, g_array_unref);
  g_clear_pointer (&priv->cache, fl_view_cache_free);
  g_clear_object (&priv->session);

  G_OBJECT_CLASS (fl_view_area_parent_class)->dispose (object);
}

static void
fl_view_area_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  FlViewAreaPrivate *priv = fl_view_area_get_instance_private (FL_VIEW_AREA (object));

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, priv->session);
      break;
    case PROP_VIEW:
      g_value_set_enum (value, priv->view);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fl_view_area_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  FlViewAreaPrivate *priv = fl_view_area_get_instance_private (FL_VIEW_AREA (object));

  switch (prop_id)
    {
    case PROP_SESSION:
      priv->session = g_value_dup_object (value);
      break;
    case PROP_VIEW:
      priv->view = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fl_view_area_class_init (FlViewAreaClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = fl_view_area_constructed;
  object_class->dispose = fl_view_area_dispose;
  object_class->get_property = fl_view_area_get_property;
  object_class->set_property = fl_view_area_set_property;
  widget_class->snapshot = fl_view_area_snapshot;
  widget_class->size_allocate = fl_view_area_size_allocate;
  widget_class->measure = fl_view_area_measure;
  widget_class->query_tooltip = fl_view_area_query_tooltip;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, FL_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_VIEW] =
    g_param_spec_enum ("view", NULL, NULL, FL_TYPE_VIEW, FL_VIEW_LANES,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "flview");
  /* GtkDrawingArea's generic role says nothing to a screen reader: a view is an image. */
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

/* A click on a view makes it the focused one, so Export (Ctrl+E) means the view clicked last. */
static void
fl_view_area_pressed (GtkGestureClick *gesture, int n_press, double x, double y,
                      FlViewArea *self)
{
  gtk_widget_grab_focus (GTK_WIDGET (self));
}

static void
fl_view_area_init (FlViewArea *self)
{
  FlViewAreaPrivate *priv = fl_view_area_get_instance_private (self);
  GtkGesture *gesture = gtk_gesture_click_new ();

  priv->font_scale = 1.0;
  priv->elided = fl_elided_texts_new ();
  priv->cache = fl_view_cache_new ();
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (gesture, "pressed", G_CALLBACK (fl_view_area_pressed), self);
  /* capture: the lanes' own click and drag gestures still get the press */
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (gesture), GTK_PHASE_CAPTURE);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  /* Focusable so the keyboard reaches each view (its description is read out) and so the
   * window knows which view Export means. */
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_focus_on_click (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
}

GtkWidget *
fl_view_area_new (FlSession *session, FlView view)
{
  g_return_val_if_fail (FL_IS_SESSION (session), NULL);
  g_return_val_if_fail ((guint) view < FL_VIEW_N, NULL);

  return g_object_new (FL_TYPE_VIEW_AREA, "session", session, "view", view, NULL);
}

FlSession *
fl_view_area_get_session (FlViewArea *self)
{
  FlViewAreaPrivate *priv = fl_view_area_get_instance_private (self);

  g_return_val_if_fail (FL_IS_VIEW_AREA (self), NULL);
  return priv->session;
}

FlView
fl_view_area_get_view (FlViewArea *self)
{
  FlViewAreaPrivate *priv = fl_view_area_get_instance_private (self);

  g_return_val_if_fail (FL_IS_VIEW_AREA (self), FL_VIEW_LANES);
  return priv->view;
}
