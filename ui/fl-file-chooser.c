/* fl-file-chooser.c — the app's file choosers and export paths (see fl-file-chooser.h). */
#include "fl-file-chooser.h"

#include <glib/gi18n.h>
#include <string.h>

const char *const fl_picture_suffixes[] = { "png", "svg", "pdf", NULL };

static void
fl_file_chooser_response (GtkNativeDialog *dialog, int response, gpointer target)
{
  FlFileChosen chosen = g_object_get_data (G_OBJECT (dialog), "fl-chosen");

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;

      if (path != NULL)
        chosen (target, path);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
  g_object_unref (target);
}

void
fl_file_chooser_show (GtkWindow *parent, const char *title, GtkFileChooserAction mode,
                      const char *accept, const char *filter_name,
                      const char *const *suffixes, const char *current_name,
                      const char *near, FlFileChosen chosen, gpointer target)
{
  GtkFileChooserNative *dialog =
    gtk_file_chooser_native_new (title, parent, mode, accept, _("_Cancel"));
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) all = gtk_file_filter_new ();

  g_return_if_fail (G_IS_OBJECT (target) && chosen != NULL);

  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_file_filter_set_name (filter, filter_name);
  for (guint i = 0; suffixes[i] != NULL; i++)
    gtk_file_filter_add_suffix (filter, suffixes[i]);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  gtk_file_filter_set_name (all, _("All files"));
  gtk_file_filter_add_pattern (all, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), all);
  gtk_file_chooser_set_filter (GTK_FILE_CHOOSER (dialog), filter);
  if (current_name != NULL)
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), current_name);
  if (near != NULL && g_path_is_absolute (near))
    {
      g_autofree char *dir = g_path_get_dirname (near);
      g_autoptr(GFile) folder = g_file_new_for_path (dir);

      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), folder, NULL);
    }
  g_object_set_data (G_OBJECT (dialog), "fl-chosen", chosen);
  g_signal_connect (dialog, "response", G_CALLBACK (fl_file_chooser_response),
                    g_object_ref (target));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

const char *
fl_picture_format_of (const char *path, char **out_path)
{
  const char *dot = strrchr (path, '.');

  if (dot != NULL && strchr (dot, '/') == NULL)
    for (guint i = 0; fl_picture_suffixes[i] != NULL; i++)
      if (g_ascii_strcasecmp (dot + 1, fl_picture_suffixes[i]) == 0)
        {
          *out_path = g_strdup (path);
          return fl_picture_suffixes[i];
        }
  *out_path = g_strconcat (path, ".png", NULL);
  return "png";
}
