/* The bookmark dialog: a plain modal GtkWindow built in C (GTK 4.8 has no AdwDialog or
 * GtkAlertDialog); see fl-bookmark-dialog.h. */

#include "fl-bookmark-dialog.h"

#include <glib/gi18n.h>

#include "fl-window.h"

typedef struct {
  GtkWindow   *dialog;
  GtkWindow   *parent;
  FlBookmarks *bookmarks;
  FlBookmark  *bookmark;   /* NULL when adding */
  GtkEntry    *title;
  GtkTextView *note;
  GtkLabel    *error;
  GtkWidget   *ok;
} FlBookmarkDialog;

static void
fl_bookmark_dialog_free (FlBookmarkDialog *d)
{
  g_clear_object (&d->bookmarks);
  g_clear_object (&d->bookmark);
  g_free (d);
}

static char *
fl_bookmark_dialog_note (FlBookmarkDialog *d)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (d->note);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static void
fl_bookmark_dialog_ok (FlBookmarkDialog *d)
{
  const char *title = gtk_editable_get_text (GTK_EDITABLE (d->title));
  g_autofree char *note = fl_bookmark_dialog_note (d);
  g_autoptr(GError) error = NULL;
  gboolean done;

  if (title[0] == '\0')
    return;
  if (d->bookmark == NULL)
    done = fl_window_add_bookmark (FL_WINDOW (d->parent), title, note, &error);
  else
    done = fl_bookmarks_edit (d->bookmarks, d->bookmark, title, note, &error);
  if (!done)
    {
      /* the store's message names the file */
      gtk_label_set_label (d->error, error->message);
      gtk_widget_set_visible (GTK_WIDGET (d->error), TRUE);
      return;
    }
  gtk_window_destroy (d->dialog);
}

static void
fl_bookmark_dialog_title_changed (FlBookmarkDialog *d)
{
  const char *title = gtk_editable_get_text (GTK_EDITABLE (d->title));

  gtk_widget_set_sensitive (d->ok, title[0] != '\0');
}

void
fl_bookmark_dialog_present (GtkWindow *parent, FlBookmarks *bookmarks, FlBookmark *bookmark,
                            guint64 step)
{
  FlBookmarkDialog *d = g_new0 (FlBookmarkDialog, 1);
  GtkWidget *header = gtk_header_bar_new ();
  GtkWidget *cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *title_label, *note_label;
  g_autofree char *window_title = NULL;
  g_autofree char *step_text = NULL;

  g_return_if_fail (FL_IS_WINDOW (parent));

  d->parent = parent;
  d->bookmarks = g_object_ref (bookmarks);
  d->bookmark = bookmark != NULL ? g_object_ref (bookmark) : NULL;
  d->dialog = GTK_WINDOW (gtk_window_new ());
  if (bookmark != NULL)
    step = fl_bookmark_get_step (bookmark);
  step_text = g_strdup_printf ("%" G_GUINT64_FORMAT, step);
  /* Translators: the bookmark dialog's title; %s is a step number. */
  window_title = g_strdup_printf (bookmark != NULL ? _("Edit Bookmark at Step %s")
                                                   : _("Add Bookmark at Step %s"), step_text);
  gtk_window_set_title (d->dialog, window_title);
  gtk_window_set_transient_for (d->dialog, parent);
  gtk_window_set_modal (d->dialog, TRUE);
  gtk_window_set_destroy_with_parent (d->dialog, TRUE);
  gtk_window_set_default_size (d->dialog, 420, -1);

  d->ok = gtk_button_new_with_mnemonic (bookmark != NULL ? _("_Save") : _("_Add"));
  gtk_widget_add_css_class (d->ok, "suggested-action");
  gtk_header_bar_set_show_title_buttons (GTK_HEADER_BAR (header), FALSE);
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), cancel);
  gtk_header_bar_pack_end (GTK_HEADER_BAR (header), d->ok);
  gtk_window_set_titlebar (d->dialog, header);
  gtk_window_set_default_widget (d->dialog, d->ok);

  title_label = gtk_label_new_with_mnemonic (_("_Title"));
  d->title = GTK_ENTRY (gtk_entry_new ());
  gtk_entry_set_activates_default (d->title, TRUE);
  gtk_label_set_mnemonic_widget (GTK_LABEL (title_label), GTK_WIDGET (d->title));
  note_label = gtk_label_new_with_mnemonic (_("_Note"));
  d->note = GTK_TEXT_VIEW (gtk_text_view_new ());
  gtk_text_view_set_wrap_mode (d->note, GTK_WRAP_WORD_CHAR);
  gtk_label_set_mnemonic_widget (GTK_LABEL (note_label), GTK_WIDGET (d->note));
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (d->note));
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scrolled), 100);
  gtk_widget_add_css_class (scrolled, "frame");
  d->error = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (d->error, TRUE);
  gtk_label_set_selectable (d->error, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (d->error), "error");
  gtk_widget_set_visible (GTK_WIDGET (d->error), FALSE);
  for (GtkWidget **w = (GtkWidget *[]) { title_label, note_label, NULL }; *w != NULL; w++)
    gtk_widget_set_halign (*w, GTK_ALIGN_START);

  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 12);
  gtk_widget_set_margin_bottom (box, 12);
  gtk_box_append (GTK_BOX (box), title_label);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (d->title));
  gtk_box_append (GTK_BOX (box), note_label);
  gtk_box_append (GTK_BOX (box), scrolled);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (d->error));
  gtk_window_set_child (d->dialog, box);

  if (bookmark != NULL)
    {
      gtk_editable_set_text (GTK_EDITABLE (d->title), fl_bookmark_get_title (bookmark));
      gtk_text_buffer_set_text (gtk_text_view_get_buffer (d->note),
                                fl_bookmark_get_note (bookmark), -1);
    }
  fl_bookmark_dialog_title_changed (d);

  g_signal_connect_swapped (d->title, "changed", G_CALLBACK (fl_bookmark_dialog_title_changed), d);
  g_signal_connect_swapped (d->ok, "clicked", G_CALLBACK (fl_bookmark_dialog_ok), d);
  g_signal_connect_swapped (cancel, "clicked", G_CALLBACK (gtk_window_destroy), d->dialog);
  /* the dialog's data lives as long as its window */
  g_object_set_data_full (G_OBJECT (d->dialog), "fl-bookmark-dialog", d,
                          (GDestroyNotify) fl_bookmark_dialog_free);
  gtk_window_present (d->dialog);
}
