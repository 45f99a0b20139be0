/* The bookmarks button and its list; see fl-bookmarks-button.h. A GtkMenuButton with a
 * GtkListBox bound to the FlBookmarks model, so the rows follow the store without the
 * button knowing when it changes. */

#include "fl-bookmarks-button.h"

#include <glib/gi18n.h>

#include "fl-bookmark-dialog.h"
#include "fl-window.h"

#define FL_LIST_KEY     "fl-bookmarks-list"
#define FL_BOOKMARK_KEY "fl-bookmark"

typedef struct {
  FlBookmarks *bookmarks;
  FlSession   *session;
  GtkWidget   *button;
} FlBookmarksButton;

static void
fl_bookmarks_button_free (FlBookmarksButton *b)
{
  g_clear_object (&b->bookmarks);
  g_clear_object (&b->session);
  g_free (b);
}

static void
fl_bookmarks_button_edit (GtkButton *edit, FlBookmarksButton *b)
{
  FlBookmark *bookmark = g_object_get_data (G_OBJECT (edit), FL_BOOKMARK_KEY);

  gtk_menu_button_popdown (GTK_MENU_BUTTON (b->button));
  fl_bookmark_dialog_present (GTK_WINDOW (gtk_widget_get_root (b->button)), b->bookmarks,
                              bookmark, fl_bookmark_get_step (bookmark));
}

static void
fl_bookmarks_button_delete (GtkButton *delete, FlBookmarksButton *b)
{
  FlBookmark *bookmark = g_object_get_data (G_OBJECT (delete), FL_BOOKMARK_KEY);
  g_autoptr(GError) error = NULL;

  if (!fl_bookmarks_remove (b->bookmarks, bookmark, &error))
    fl_window_show_message (FL_WINDOW (gtk_widget_get_root (b->button)), error->message);
}

static GtkWidget *
fl_bookmarks_button_row (gpointer item, gpointer user_data)
{
  FlBookmarksButton *b = user_data;
  FlBookmark *bookmark = item;
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *step, *title, *edit, *delete;
  g_autofree char *step_text = g_strdup_printf ("%" G_GUINT64_FORMAT,
                                                fl_bookmark_get_step (bookmark));

  step = gtk_label_new (step_text);
  gtk_widget_add_css_class (step, "numeric");
  gtk_widget_add_css_class (step, "dim-label");
  gtk_label_set_width_chars (GTK_LABEL (step), 6);
  gtk_label_set_xalign (GTK_LABEL (step), 1);
  title = gtk_label_new (fl_bookmark_get_title (bookmark));
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (GTK_LABEL (title), 32);
  gtk_widget_set_hexpand (title, TRUE);
  if (fl_bookmark_get_note (bookmark)[0] != '\0')
    gtk_widget_set_tooltip_text (row, fl_bookmark_get_note (bookmark));

  edit = gtk_button_new_from_icon_name ("document-edit-symbolic");
  gtk_widget_set_tooltip_text (edit, _("Edit Bookmark"));
  delete = gtk_button_new_from_icon_name ("user-trash-symbolic");
  gtk_widget_set_tooltip_text (delete, _("Delete Bookmark"));
  for (GtkWidget **w = (GtkWidget *[]) { edit, delete, NULL }; *w != NULL; w++)
    {
      gtk_widget_add_css_class (*w, "flat");
      g_object_set_data_full (G_OBJECT (*w), FL_BOOKMARK_KEY, g_object_ref (bookmark),
                              g_object_unref);
    }
  g_signal_connect (edit, "clicked", G_CALLBACK (fl_bookmarks_button_edit), b);
  g_signal_connect (delete, "clicked", G_CALLBACK (fl_bookmarks_button_delete), b);

  gtk_box_append (GTK_BOX (box), step);
  gtk_box_append (GTK_BOX (box), title);
  gtk_box_append (GTK_BOX (box), edit);
  gtk_box_append (GTK_BOX (box), delete);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  g_object_set_data_full (G_OBJECT (row), FL_BOOKMARK_KEY, g_object_ref (bookmark),
                          g_object_unref);
  return row;
}

static void
fl_bookmarks_button_activated (GtkListBox *list, GtkListBoxRow *row, FlBookmarksButton *b)
{
  FlBookmark *bookmark = g_object_get_data (G_OBJECT (row), FL_BOOKMARK_KEY);

  gtk_menu_button_popdown (GTK_MENU_BUTTON (b->button));
  fl_session_set_playing (b->session, FALSE);
  fl_session_seek (b->session, fl_bookmark_get_step (bookmark));
}

GtkWidget *
fl_bookmarks_button_new (FlBookmarks *bookmarks, FlSession *session)
{
  FlBookmarksButton *b = g_new0 (FlBookmarksButton, 1);
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *list = gtk_list_box_new ();
  GtkWidget *empty = gtk_label_new (_("No bookmarks yet: Ctrl+D adds one at the current step."));
  GtkWidget *add = gtk_button_new_with_mnemonic (_("_Add Bookmark…"));

  b->bookmarks = g_object_ref (bookmarks);
  b->session = g_object_ref (session);
  b->button = gtk_menu_button_new ();
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (b->button), "user-bookmarks-symbolic");
  gtk_widget_set_tooltip_text (b->button, _("Bookmarks"));

  gtk_label_set_wrap (GTK_LABEL (empty), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (empty), 30);
  gtk_widget_add_css_class (empty, "dim-label");
  gtk_list_box_set_placeholder (GTK_LIST_BOX (list), empty);
  gtk_list_box_bind_model (GTK_LIST_BOX (list), fl_bookmarks_get_model (bookmarks),
                           fl_bookmarks_button_row, b, NULL);
  g_signal_connect (list, "row-activated", G_CALLBACK (fl_bookmarks_button_activated), b);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 400);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), list);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (add), "win.add-bookmark");

  gtk_box_append (GTK_BOX (box), scrolled);
  gtk_box_append (GTK_BOX (box), add);
  gtk_popover_set_child (GTK_POPOVER (popover), box);
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (b->button), popover);

  g_object_set_data (G_OBJECT (b->button), FL_LIST_KEY, list);
  g_object_set_data_full (G_OBJECT (b->button), "fl-bookmarks-button", b,
                          (GDestroyNotify) fl_bookmarks_button_free);
  return b->button;
}

GtkListBox *
fl_bookmarks_button_get_list (GtkWidget *button)
{
  return g_object_get_data (G_OBJECT (button), FL_LIST_KEY);
}
