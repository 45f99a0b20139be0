/* Line numbers for a text view's gutter; see fl-line-numbers.h. */

#include "fl-line-numbers.h"

/* Space between the numbers and the text, and before the numbers. */
#define FL_GUTTER_PAD_END   10
#define FL_GUTTER_PAD_START 8

struct _FlLineNumbers
{
  GtkWidget parent_instance;

  GtkTextView   *view;        /* weak: the view owns the gutter */
  GtkTextBuffer *buffer;      /* the view's buffer, while connected */
  GtkAdjustment *vadjustment; /* the scrolled window's, while connected */
  guint          digits;      /* of the highest line number: the width depends on it */
  guint          error_line;
};

G_DEFINE_FINAL_TYPE (FlLineNumbers, fl_line_numbers, GTK_TYPE_WIDGET)

static PangoLayout *
fl_line_numbers_layout (FlLineNumbers *self, guint line, gboolean bold)
{
  char text[16];
  PangoLayout *layout;

  g_snprintf (text, sizeof text, "%u", line);
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
  /* The view's font, so numbers and lines share a baseline. */
  pango_layout_set_font_description (layout,
    pango_context_get_font_description (gtk_widget_get_pango_context (GTK_WIDGET (self->view))));
  if (bold)
    {
      PangoAttrList *attrs = pango_attr_list_new ();

      pango_attr_list_insert (attrs, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
      pango_layout_set_attributes (layout, attrs);
      pango_attr_list_unref (attrs);
    }
  return layout;
}

static void
fl_line_numbers_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                         int *minimum, int *natural, int *minimum_baseline,
                         int *natural_baseline)
{
  FlLineNumbers *self = FL_LINE_NUMBERS (widget);
  int width = 0;

  if (orientation == GTK_ORIENTATION_HORIZONTAL && self->view != NULL)
    {
      /* Widest digit times the digits of the last line (at least two, so the gutter does not
       * jump as a file grows past line 9). */
      g_autoptr(PangoLayout) layout = fl_line_numbers_layout (self, 0, TRUE);
      int digit = 0;

      pango_layout_get_pixel_size (layout, &digit, NULL);
      width = FL_GUTTER_PAD_START + digit * (int) MAX (self->digits, 2) + FL_GUTTER_PAD_END;
    }
  *minimum = *natural = width;
}

static void
fl_line_numbers_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  FlLineNumbers *self = FL_LINE_NUMBERS (widget);
  int width = gtk_widget_get_width (widget);
  GdkRectangle visible;
  GtkTextIter iter;
  GdkRGBA color, dim;
  /* The error colour of the dark and the light style alike. */
  const GdkRGBA error = { 0.88, 0.11, 0.14, 1.0 };

  if (self->view == NULL)
    return;
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &color);
  dim = color;
  dim.alpha *= 0.55;

  gtk_text_view_get_visible_rect (self->view, &visible);
  gtk_text_view_get_line_at_y (self->view, &iter, visible.y, NULL);
  for (;;)
    {
      int y, height, wx, wy, text_width;
      guint line = (guint) gtk_text_iter_get_line (&iter) + 1;
      gboolean at_fault = line == self->error_line;
      g_autoptr(PangoLayout) layout = NULL;

      gtk_text_view_get_line_yrange (self->view, &iter, &y, &height);
      if (y > visible.y + visible.height)
        break;
      gtk_text_view_buffer_to_window_coords (self->view, GTK_TEXT_WINDOW_LEFT, 0, y, &wx, &wy);
      layout = fl_line_numbers_layout (self, line, at_fault);
      pango_layout_get_pixel_size (layout, &text_width, NULL);

      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot,
                              &GRAPHENE_POINT_INIT (width - FL_GUTTER_PAD_END - text_width, wy));
      gtk_snapshot_append_layout (snapshot, layout, at_fault ? &error : &dim);
      gtk_snapshot_restore (snapshot);

      if (!gtk_text_iter_forward_line (&iter))
        break;
    }
}

static void
fl_line_numbers_buffer_changed (FlLineNumbers *self)
{
  guint lines = (guint) gtk_text_buffer_get_line_count (self->buffer);
  guint digits = 1;

  while (lines >= 10)
    {
      lines /= 10;
      digits++;
    }
  if (digits != self->digits)
    {
      self->digits = digits;
      gtk_widget_queue_resize (GTK_WIDGET (self));
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
fl_line_numbers_connect_buffer (FlLineNumbers *self)
{
  if (self->buffer != NULL)
    g_signal_handlers_disconnect_by_data (self->buffer, self);
  g_clear_object (&self->buffer);
  if (self->view != NULL)
    self->buffer = g_object_ref (gtk_text_view_get_buffer (self->view));
  if (self->buffer == NULL)
    return;
  g_signal_connect_swapped (self->buffer, "changed",
                            G_CALLBACK (fl_line_numbers_buffer_changed), self);
  fl_line_numbers_buffer_changed (self);
}

static void
fl_line_numbers_connect_vadjustment (FlLineNumbers *self)
{
  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->vadjustment, self);
  g_clear_object (&self->vadjustment);
  if (self->view == NULL)
    return;
  g_object_get (self->view, "vadjustment", &self->vadjustment, NULL);
  if (self->vadjustment != NULL)
    g_signal_connect_swapped (self->vadjustment, "value-changed",
                              G_CALLBACK (gtk_widget_queue_draw), self);
}

static void
fl_line_numbers_dispose (GObject *object)
{
  FlLineNumbers *self = FL_LINE_NUMBERS (object);

  if (self->buffer != NULL)
    g_signal_handlers_disconnect_by_data (self->buffer, self);
  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->vadjustment, self);
  if (self->view != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->view, self);
      g_object_remove_weak_pointer (G_OBJECT (self->view), (gpointer *) &self->view);
      self->view = NULL;
    }
  g_clear_object (&self->buffer);
  g_clear_object (&self->vadjustment);

  G_OBJECT_CLASS (fl_line_numbers_parent_class)->dispose (object);
}

static void
fl_line_numbers_class_init (FlLineNumbersClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fl_line_numbers_dispose;
  widget_class->measure = fl_line_numbers_measure;
  widget_class->snapshot = fl_line_numbers_snapshot;
  gtk_widget_class_set_css_name (widget_class, "fllinenumbers");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_PRESENTATION);
}

static void
fl_line_numbers_init (FlLineNumbers *self)
{
}

GtkWidget *
fl_line_numbers_new (GtkTextView *view)
{
  FlLineNumbers *self;

  g_return_val_if_fail (GTK_IS_TEXT_VIEW (view), NULL);

  self = g_object_new (FL_TYPE_LINE_NUMBERS, NULL);
  self->view = view;
  g_object_add_weak_pointer (G_OBJECT (view), (gpointer *) &self->view);
  g_signal_connect_swapped (view, "notify::buffer",
                            G_CALLBACK (fl_line_numbers_connect_buffer), self);
  /* The scrolled window hands the view its adjustment when the view is put inside it. */
  g_signal_connect_swapped (view, "notify::vadjustment",
                            G_CALLBACK (fl_line_numbers_connect_vadjustment), self);
  fl_line_numbers_connect_buffer (self);
  fl_line_numbers_connect_vadjustment (self);
  gtk_text_view_set_gutter (view, GTK_TEXT_WINDOW_LEFT, GTK_WIDGET (self));
  return GTK_WIDGET (self);
}

void
fl_line_numbers_set_error_line (FlLineNumbers *self, guint line)
{
  g_return_if_fail (FL_IS_LINE_NUMBERS (self));

  if (self->error_line == line)
    return;
  self->error_line = line;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
