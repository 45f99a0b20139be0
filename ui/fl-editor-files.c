/* The scenario editor's files and store; see fl-editor-files.h. */

#include "fl-editor-files.h"

#include <glib/gi18n.h>
#include <string.h>

#include "fl-editor-window.h"
#include "fl-store.h"

/* The core refuses larger scenario files; the editor refuses to open them. */
#define FL_EDITOR_MAX_FILE (1024 * 1024)

char *
fl_editor_files_read (GFile *file, GError **error)
{
  g_autofree char *contents = NULL;
  gsize length = 0;

  g_return_val_if_fail (G_IS_FILE (file), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!g_file_load_contents (file, NULL, &contents, &length, NULL, error))
    return NULL;
  /* The text buffer takes only UTF-8 without NULs. */
  if (length > FL_EDITOR_MAX_FILE)
    {
      g_set_error_literal (error, FL_EDITOR_ERROR, FL_EDITOR_ERROR_NOT_TEXT,
                           _("it is larger than 1 MiB, the most a scenario file may be"));
      return NULL;
    }
  if (!g_utf8_validate_len (contents, length, NULL))
    {
      g_set_error_literal (error, FL_EDITOR_ERROR, FL_EDITOR_ERROR_NOT_TEXT,
                           _("it is not UTF-8 text"));
      return NULL;
    }
  return g_steal_pointer (&contents);
}

gboolean
fl_editor_files_write (GFile *file, const char *text, GError **error)
{
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  return g_file_replace_contents (file, text, strlen (text), NULL, FALSE, G_FILE_CREATE_NONE,
                                  NULL, NULL, error);
}

char *
fl_editor_files_name_of (GFile *file)
{
  char *base;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  base = g_file_get_basename (file);
  if (g_str_has_suffix (base, ".fault") && strlen (base) > strlen (".fault"))
    base[strlen (base) - strlen (".fault")] = '\0';
  return base;
}

gboolean
fl_editor_files_save_to_store (const char *name, const FlScenario *scenario, gint64 *out_id,
                               GError **error)
{
  g_autofree char *path = fl_store_default_path ();
  g_autoptr(FlStore) store = NULL;

  g_return_val_if_fail (name != NULL && scenario != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* Opened for this one save and closed: the window's bookmarks keep the long-lived
   * connection, and SQLite wants one writer at a time. */
  store = fl_store_open (path, FL_STORE_OPEN_CREATE, error);
  return store != NULL
    && fl_store_save_scenario (store, name, scenario->title,
                               (const char *const *) scenario->tags, scenario->text, out_id,
                               error);
}

GtkFileChooserNative *
fl_editor_files_chooser (GtkWindow *parent, GtkFileChooserAction action, GFile *near)
{
  gboolean save = action == GTK_FILE_CHOOSER_ACTION_SAVE;
  GtkFileChooserNative *native =
    gtk_file_chooser_native_new (save ? _("Save Scenario") : _("Open Scenario"), parent, action,
                                 save ? _("_Save") : _("_Open"), _("_Cancel"));
  g_autoptr(GtkFileFilter) scenarios = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) all = gtk_file_filter_new ();

  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  gtk_file_filter_set_name (scenarios, _("Faultline scenarios (*.fault)"));
  gtk_file_filter_add_suffix (scenarios, "fault");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (native), scenarios);
  gtk_file_filter_set_name (all, _("All files"));
  gtk_file_filter_add_pattern (all, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (native), all);
  gtk_file_chooser_set_filter (GTK_FILE_CHOOSER (native), scenarios);
  if (near != NULL)
    {
      g_autoptr(GFile) folder = g_file_get_parent (near);

      if (folder != NULL)
        gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (native), folder, NULL);
    }
  return native;
}
