/* Presentation mode; see fl-presentation.h.
 *
 * The walk goes by index into the bookmark list, not by step: two bookmarks on one step are
 * two slides, and stepping with the arrows between slides keeps the caption of the slide the
 * presenter is talking about. Index -1 is the title slide: the start of the run and the
 * scenario's title. */

#include "fl-presentation.h"

#include <glib/gi18n.h>

#include "fl-scenario-about.h"
#include "fl-text-scale.h"
#include "fl-view-area.h"
#include "fl-window.h"

/* How much larger the views' type is when presenting: readable from the back of a room. */
#define PRESENT_FONT_SCALE 1.6

struct _FlPresentation
{
  GObject parent_instance;

  GtkWindow   *window;      /* weak: the window owns this */
  FlSession   *session;
  FlBookmarks *bookmarks;
  GPtrArray   *views;       /* FlViewArea, borrowed from the window's tree */
  GtkWidget   *box;         /* the views page, marked fl-presenting while presenting */
  GtkWidget   *caption;
  GtkLabel    *title;
  GtkLabel    *note;
  double       text_scale;  /* the user's (fl-text-scale.h); presenting multiplies it */
  gboolean     active;
  gboolean     was_fullscreen;
  int          index;
};

G_DEFINE_FINAL_TYPE (FlPresentation, fl_presentation, G_TYPE_OBJECT)

static void
fl_presentation_show_caption (FlPresentation *self)
{
  GListModel *model = fl_bookmarks_get_model (self->bookmarks);
  g_autoptr(FlBookmark) bookmark = NULL;

  if (self->index >= 0 && (guint) self->index < g_list_model_get_n_items (model))
    bookmark = g_list_model_get_item (model, (guint) self->index);
  if (bookmark != NULL)
    {
      gtk_label_set_label (self->title, fl_bookmark_get_title (bookmark));
      gtk_label_set_label (self->note, fl_bookmark_get_note (bookmark));
    }
  else
    {
      gtk_label_set_label (self->title, fl_session_get_title (self->session));
      /* Translators: the caption of presentation mode's first slide. */
      gtk_label_set_label (self->note, _("PageDown shows the first bookmark, Escape leaves."));
    }
  gtk_widget_set_visible (GTK_WIDGET (self->note), gtk_label_get_label (self->note)[0] != '\0');
  gtk_widget_set_visible (self->caption, self->active);
}

static void
fl_presentation_go (FlPresentation *self, int index)
{
  GListModel *model = fl_bookmarks_get_model (self->bookmarks);
  guint64 step = 0;

  self->index = index;
  if (index >= 0)
    {
      g_autoptr(FlBookmark) bookmark = g_list_model_get_item (model, (guint) index);
      step = fl_bookmark_get_step (bookmark);
    }
  fl_session_set_playing (self->session, FALSE);
  fl_session_seek (self->session, step);
  fl_presentation_show_caption (self);
}

/* The views' type: the user's text scale, larger while presenting; GTK's text in the views
 * page (the tabs, the findings list) follows. The lanes' natural height grows with it, so
 * the window gives them room again (their legend stays). */
static void
fl_presentation_apply_font_scale (FlPresentation *self)
{
  double scale = self->text_scale * (self->active ? PRESENT_FONT_SCALE : 1.0);

  for (guint i = 0; i < self->views->len; i++)
    fl_view_area_set_font_scale (g_ptr_array_index (self->views, i), scale);
  if (self->active)
    gtk_widget_add_css_class (self->box, "fl-presenting");
  else
    gtk_widget_remove_css_class (self->box, "fl-presenting");
  fl_text_scale_apply_css (gtk_widget_get_display (self->box), self->text_scale,
                           PRESENT_FONT_SCALE);
  if (FL_IS_WINDOW (self->window))
    fl_window_fit_lanes (FL_WINDOW (self->window));
}

void
fl_presentation_set_text_scale (FlPresentation *self, double scale)
{
  g_return_if_fail (FL_IS_PRESENTATION (self));
  g_return_if_fail (scale > 0);

  if (self->text_scale == scale)
    return;
  self->text_scale = scale;
  fl_presentation_apply_font_scale (self);
}

GtkWidget *
fl_presentation_get_caption (FlPresentation *self)
{
  g_return_val_if_fail (FL_IS_PRESENTATION (self), NULL);
  return self->caption;
}

gboolean
fl_presentation_enter (FlPresentation *self)
{
  g_return_val_if_fail (FL_IS_PRESENTATION (self), FALSE);

  if (self->active)
    return TRUE;
  if (g_list_model_get_n_items (fl_bookmarks_get_model (self->bookmarks)) == 0 ||
      fl_session_get_run (self->session) == NULL)
    return FALSE;
  self->active = TRUE;
  self->was_fullscreen = gtk_window_is_fullscreen (self->window);
  gtk_window_fullscreen (self->window);
  fl_presentation_apply_font_scale (self);
  /* the views need the room: the captions tell the story */
  if (FL_IS_WINDOW (self->window))
    fl_scenario_about_set_presenting (fl_window_get_scenario_about (FL_WINDOW (self->window)),
                                      TRUE);
  fl_presentation_go (self, -1);
  return TRUE;
}

void
fl_presentation_leave (FlPresentation *self)
{
  g_return_if_fail (FL_IS_PRESENTATION (self));

  if (!self->active)
    return;
  self->active = FALSE;
  gtk_widget_set_visible (self->caption, FALSE);
  fl_presentation_apply_font_scale (self);
  if (FL_IS_WINDOW (self->window))
    fl_scenario_about_set_presenting (fl_window_get_scenario_about (FL_WINDOW (self->window)),
                                      FALSE);
  if (!self->was_fullscreen)
    gtk_window_unfullscreen (self->window);
}

gboolean
fl_presentation_is_active (FlPresentation *self)
{
  g_return_val_if_fail (FL_IS_PRESENTATION (self), FALSE);
  return self->active;
}

gboolean
fl_presentation_next (FlPresentation *self)
{
  guint n;

  g_return_val_if_fail (FL_IS_PRESENTATION (self), FALSE);

  n = g_list_model_get_n_items (fl_bookmarks_get_model (self->bookmarks));
  if (!self->active || self->index + 1 >= (int) n)
    return FALSE;
  fl_presentation_go (self, self->index + 1);
  return TRUE;
}

gboolean
fl_presentation_previous (FlPresentation *self)
{
  g_return_val_if_fail (FL_IS_PRESENTATION (self), FALSE);

  if (!self->active || self->index < 0)
    return FALSE;
  fl_presentation_go (self, self->index - 1);
  return TRUE;
}

/* The list changed under the walk (a bookmark deleted, a new run): start over rather than
 * point at a slide that moved. */
static void
fl_presentation_bookmarks_changed (FlPresentation *self)
{
  if (!self->active)
    return;
  if (g_list_model_get_n_items (fl_bookmarks_get_model (self->bookmarks)) == 0)
    fl_presentation_leave (self);
  else
    {
      self->index = -1;
      fl_presentation_show_caption (self);
    }
}

static gboolean
fl_presentation_escape (GtkWidget *widget, GVariant *args, gpointer user_data)
{
  FlPresentation *self = user_data;

  if (!self->active)
    return FALSE;
  fl_presentation_leave (self);
  return TRUE;
}

static void
fl_presentation_dispose (GObject *object)
{
  FlPresentation *self = FL_PRESENTATION (object);

  if (self->bookmarks != NULL)
    g_signal_handlers_disconnect_by_data (fl_bookmarks_get_model (self->bookmarks), self);
  g_clear_object (&self->bookmarks);
  g_clear_object (&self->session);
  g_clear_pointer (&self->views, g_ptr_array_unref);
  G_OBJECT_CLASS (fl_presentation_parent_class)->dispose (object);
}

static void
fl_presentation_class_init (FlPresentationClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = fl_presentation_dispose;
}

static void
fl_presentation_init (FlPresentation *self)
{
  self->index = -1;
  self->text_scale = 1.0;
}

FlPresentation *
fl_presentation_new (GtkWindow *window, FlSession *session, FlBookmarks *bookmarks,
                     GtkBox *box, GtkWidget *sibling, GPtrArray *views)
{
  FlPresentation *self = g_object_new (FL_TYPE_PRESENTATION, NULL);

  self->window = window;
  self->session = g_object_ref (session);
  self->bookmarks = g_object_ref (bookmarks);
  self->views = g_ptr_array_ref (views);
  self->box = GTK_WIDGET (box);

  /* the caption: a dark band across the window under the views, which give it its room:
   * over them it would hide whatever panel lies at the bottom centre (RCU) */
  self->caption = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  self->title = GTK_LABEL (gtk_label_new (NULL));
  self->note = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->title, TRUE);
  gtk_label_set_wrap (self->note, TRUE);
  gtk_label_set_max_width_chars (self->note, 80);
  gtk_label_set_justify (self->title, GTK_JUSTIFY_CENTER);
  gtk_label_set_justify (self->note, GTK_JUSTIFY_CENTER);
  gtk_widget_add_css_class (GTK_WIDGET (self->title), "fl-caption-title");
  gtk_widget_add_css_class (GTK_WIDGET (self->note), "fl-caption-note");
  gtk_widget_add_css_class (self->caption, "fl-caption");
  gtk_box_append (GTK_BOX (self->caption), GTK_WIDGET (self->title));
  gtk_box_append (GTK_BOX (self->caption), GTK_WIDGET (self->note));
  gtk_widget_set_can_target (self->caption, FALSE);
  gtk_widget_set_visible (self->caption, FALSE);
  gtk_box_insert_child_after (box, self->caption, sibling);

  /* Escape leaves; when not presenting it goes on to whoever else wants it. */
  {
    GtkEventController *keys = gtk_shortcut_controller_new ();

    gtk_event_controller_set_name (keys, "fl-presentation-shortcuts");
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (keys),
      gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Escape, 0),
                        gtk_callback_action_new (fl_presentation_escape, self, NULL)));
    gtk_widget_add_controller (GTK_WIDGET (window), keys);
  }

  g_signal_connect_swapped (fl_bookmarks_get_model (bookmarks), "items-changed",
                            G_CALLBACK (fl_presentation_bookmarks_changed), self);
  return self;
}
