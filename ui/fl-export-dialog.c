/* Exporting a view: a save chooser, then fl_export_view(). The chooser offers the size and
 * the colours as choices because both are properties of the figure, not of the file name;
 * the format is the file name's extension, so what the user reads is what is written. */

#include "fl-export-dialog.h"

#include <glib/gi18n.h>

#include "fl-style.h"

typedef struct {
  const char *format;
  const char *suffix;
  const char *filter_name;   /* translatable */
} FlExportFormat;

static const FlExportFormat fl_export_formats[] = {
  { "png", ".png", N_("PNG image (*.png)") },
  { "svg", ".svg", N_("SVG image (*.svg)") },
  { "pdf", ".pdf", N_("PDF document (*.pdf)") },
};

/* Sizes for figures that are not a copy of the screen; text grows with the image as in
 * `faultline-cli export`, so a 4K figure reads like the window at 1280 × 720. */
static const struct { const char *id; int width, height; } fl_export_sizes[] = {
  { "1280x720",  1280,  720 },
  { "1920x1080", 1920, 1080 },
  { "3840x2160", 3840, 2160 },
};

#define FL_EXPORT_DEFAULT_SIZE "1920x1080"

typedef struct {
  FlSession     *session;
  GtkWindow     *parent;          /* may be NULL */
  FlView         view;
  FlViewport     shown;           /* the view as on screen */
  gboolean       have_shown;      /* FALSE: nothing laid out to copy the size of */
  GtkFileFilter *filters[G_N_ELEMENTS (fl_export_formats)];
  char          *path;
  FlViewport     viewport;        /* what to export, once chosen */
  FlPalette      palette;
} FlExportRequest;

static void
fl_export_request_free (FlExportRequest *request)
{
  g_clear_object (&request->session);
  g_clear_object (&request->parent);
  for (guint i = 0; i < G_N_ELEMENTS (request->filters); i++)
    g_clear_object (&request->filters[i]);
  g_free (request->path);
  g_free (request);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FlExportRequest, fl_export_request_free)

static const FlExportFormat *
fl_export_format_for_path (const char *path)
{
  g_autofree char *lower = g_ascii_strdown (path, -1);

  for (guint i = 0; i < G_N_ELEMENTS (fl_export_formats); i++)
    if (g_str_has_suffix (lower, fl_export_formats[i].suffix))
      return &fl_export_formats[i];
  return NULL;
}

char *
fl_export_dialog_default_name (FlSession  *session,
                               FlView      view,
                               const char *format)
{
  const char *name;

  g_return_val_if_fail (FL_IS_SESSION (session), NULL);
  g_return_val_if_fail ((guint) view < FL_VIEW_N && format != NULL, NULL);

  name = fl_session_get_name (session);
  if (name == NULL || name[0] == '\0')
    name = "faultline";
  return g_strdup_printf ("%s-step-%" G_GUINT64_FORMAT "-%s.%s", name,
                          fl_session_get_step (session), fl_view_name (view), format);
}

gboolean
fl_export_dialog_export_to (FlSession        *session,
                            FlView            view,
                            const FlViewport *viewport,
                            const FlPalette  *palette,
                            const char       *path,
                            GError          **error)
{
  const FlExportFormat *format;
  FlSim *sim;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (FL_IS_SESSION (session), FALSE);
  g_return_val_if_fail ((guint) view < FL_VIEW_N, FALSE);
  g_return_val_if_fail (viewport != NULL && palette != NULL && path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  format = fl_export_format_for_path (path);
  if (format == NULL)
    {
      g_set_error (error, FL_EXPORT_ERROR, FL_EXPORT_ERROR_FORMAT,
                   _("Cannot export to “%s”: the name must end in .png, .svg or .pdf"), path);
      return FALSE;
    }

  /* Replacing a folder would fail deep in g_file_set_contents() with a message about a
   * temporary file; say it plainly. */
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY,
                   _("Cannot export to “%s”: that is a folder"), path);
      return FALSE;
    }

  sim = fl_session_get_sim (session);
  if (sim == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PENDING,
                   _("Cannot export to “%s”: the scenario is still being simulated"), path);
      return FALSE;
    }

  if (fl_export_view (view, sim, viewport, palette, format->format, path, &local_error))
    return TRUE;

  /* The painters name the file when they cannot write it, not when drawing fails; the
   * message box shows this message alone, so it must say which file it is about. */
  if (strstr (local_error->message, path) == NULL)
    g_prefix_error (&local_error, _("Cannot export to “%s”: "), path);
  g_propagate_error (error, g_steal_pointer (&local_error));
  return FALSE;
}

/* ---- the dialog ---- */

static void
fl_export_show_error (GtkWindow  *parent,
                      const char *path,
                      GError     *error)
{
  g_autofree char *name = g_filename_display_basename (path);
  GtkWidget *dialog;

  dialog = gtk_message_dialog_new (parent, GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE,
                                   _("Could not export “%s”"), name);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", error->message);
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
fl_export_request_finish (FlExportRequest *request)
{
  g_autoptr(GError) error = NULL;

  if (!fl_export_dialog_export_to (request->session, request->view, &request->viewport,
                                   &request->palette, request->path, &error))
    fl_export_show_error (request->parent, request->path, error);
}

static void
fl_export_replace_response (GtkDialog       *dialog,
                            int              response,
                            FlExportRequest *request)
{
  g_autoptr(FlExportRequest) owned = request;

  gtk_window_destroy (GTK_WINDOW (dialog));
  if (response == GTK_RESPONSE_ACCEPT)
    fl_export_request_finish (request);
}

/* The chooser confirms replacing the name the user picked. When we add the extension
 * ourselves the name is a different one, so ask the same question before replacing it. */
static void
fl_export_confirm_replace (FlExportRequest *request)
{
  g_autofree char *name = g_filename_display_basename (request->path);
  GtkWidget *dialog;
  GtkWidget *replace;

  dialog = gtk_message_dialog_new (request->parent,
                                   GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE,
                                   _("Replace “%s”?"), name);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s",
                                            _("A file with this name already exists. "
                                              "Replacing it overwrites its contents."));
  gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL);
  replace = gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Replace"), GTK_RESPONSE_ACCEPT);
  gtk_widget_add_css_class (replace, "destructive-action");
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  g_signal_connect (dialog, "response", G_CALLBACK (fl_export_replace_response), request);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
fl_export_request_choose_viewport (FlExportRequest *request,
                                   GtkFileChooser  *chooser)
{
  const char *size = gtk_file_chooser_get_choice (chooser, "size");
  const char *colours = gtk_file_chooser_get_choice (chooser, "colours");

  request->viewport = request->shown;
  if (!request->have_shown || g_strcmp0 (size, "shown") != 0)
    {
      int width = 1920, height = 1080;

      for (guint i = 0; i < G_N_ELEMENTS (fl_export_sizes); i++)
        if (g_strcmp0 (size, fl_export_sizes[i].id) == 0)
          {
            width = fl_export_sizes[i].width;
            height = fl_export_sizes[i].height;
          }
      request->viewport.width = width;
      request->viewport.height = height;
      request->viewport.font_scale = MAX (1.0, MIN (width / 1280.0, height / 720.0));
    }

  if (g_strcmp0 (colours, "dark") == 0)
    fl_palette_init_dark (&request->palette);
  else
    fl_palette_init_light (&request->palette);
}

static void
fl_export_chooser_response (GtkNativeDialog *native,
                            int              response,
                            FlExportRequest *request)
{
  g_autoptr(FlExportRequest) owned = request;
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;

  if (response != GTK_RESPONSE_ACCEPT)
    goto out;

  file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
  path = file != NULL ? g_file_get_path (file) : NULL;
  if (path == NULL)
    goto out;

  fl_export_request_choose_viewport (request, GTK_FILE_CHOOSER (native));

  if (fl_export_format_for_path (path) != NULL)
    {
      request->path = g_steal_pointer (&path);
      fl_export_request_finish (request);
      goto out;
    }

  /* No known extension: the format of the filter the user picked decides, PNG if none. */
  {
    GtkFileFilter *filter = gtk_file_chooser_get_filter (GTK_FILE_CHOOSER (native));
    const FlExportFormat *format = &fl_export_formats[0];

    for (guint i = 0; i < G_N_ELEMENTS (fl_export_formats); i++)
      if (filter == request->filters[i])
        format = &fl_export_formats[i];
    request->path = g_strconcat (path, format->suffix, NULL);
  }

  if (g_file_test (request->path, G_FILE_TEST_EXISTS))
    fl_export_confirm_replace (g_steal_pointer (&owned));
  else
    fl_export_request_finish (request);

out:
  g_object_unref (native);
}

static void
fl_export_add_choices (GtkFileChooser  *chooser,
                       FlExportRequest *request)
{
  g_autofree char *shown_label = NULL;
  const char *size_ids[G_N_ELEMENTS (fl_export_sizes) + 2] = { NULL };
  const char *size_labels[G_N_ELEMENTS (fl_export_sizes) + 2] = { NULL };
  char *size_texts[G_N_ELEMENTS (fl_export_sizes)] = { NULL };
  const char *colour_ids[] = { "light", "dark", NULL };
  const char *colour_labels[] = { _("Light"), _("Dark"), NULL };
  guint n = 0;

  if (request->have_shown)
    {
      /* Translators: an export size choice; %d × %d is the view's size on screen in pixels. */
      shown_label = g_strdup_printf (_("As shown (%d × %d)"), (int) request->shown.width,
                                     (int) request->shown.height);
      size_ids[n] = "shown";
      size_labels[n++] = shown_label;
    }
  for (guint i = 0; i < G_N_ELEMENTS (fl_export_sizes); i++)
    {
      size_texts[i] = g_strdup_printf ("%d × %d", fl_export_sizes[i].width,
                                       fl_export_sizes[i].height);
      size_ids[n] = fl_export_sizes[i].id;
      size_labels[n++] = size_texts[i];
    }

  gtk_file_chooser_add_choice (chooser, "size", _("Size"), size_ids, size_labels);
  gtk_file_chooser_set_choice (chooser, "size",
                               request->have_shown ? "shown" : FL_EXPORT_DEFAULT_SIZE);

  gtk_file_chooser_add_choice (chooser, "colours", _("Colours"), colour_ids, colour_labels);
  /* The figure matches the window by default, since what is exported should be what is on
   * screen; light stays one choice away for print and slides on white. */
  gtk_file_chooser_set_choice (chooser, "colours", fl_style_is_dark () ? "dark" : "light");

  /* The chooser copied the labels. */
  for (guint i = 0; i < G_N_ELEMENTS (fl_export_sizes); i++)
    g_free (size_texts[i]);
}

void
fl_export_dialog_present (GtkWindow        *parent,
                          FlSession        *session,
                          FlView            view,
                          const FlViewport *viewport)
{
  FlExportRequest *request;
  GtkFileChooserNative *native;
  GtkFileChooser *chooser;
  g_autofree char *name = NULL;
  const char *pictures;

  g_return_if_fail (parent == NULL || GTK_IS_WINDOW (parent));
  g_return_if_fail (FL_IS_SESSION (session));
  g_return_if_fail ((guint) view < FL_VIEW_N);

  fl_session_set_playing (session, FALSE);

  request = g_new0 (FlExportRequest, 1);
  request->session = g_object_ref (session);
  request->parent = parent != NULL ? g_object_ref (parent) : NULL;
  request->view = view;
  if (viewport != NULL && viewport->width >= 1 && viewport->height >= 1)
    {
      request->shown = *viewport;
      request->have_shown = TRUE;
    }
  else
    request->shown.selected_cpu = fl_session_get_selected_cpu (session);
  if (request->shown.font_scale <= 0)
    request->shown.font_scale = 1.0;

  native = gtk_file_chooser_native_new (view == FL_VIEW_ALL ? _("Export Window")
                                                            : _("Export View"),
                                        parent, GTK_FILE_CHOOSER_ACTION_SAVE,
                                        _("_Export"), _("_Cancel"));
  chooser = GTK_FILE_CHOOSER (native);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);

  for (guint i = 0; i < G_N_ELEMENTS (fl_export_formats); i++)
    {
      GtkFileFilter *filter = gtk_file_filter_new ();

      gtk_file_filter_set_name (filter, _(fl_export_formats[i].filter_name));
      gtk_file_filter_add_suffix (filter, fl_export_formats[i].format);
      gtk_file_chooser_add_filter (chooser, filter);
      request->filters[i] = filter;
    }
  gtk_file_chooser_set_filter (chooser, request->filters[0]);

  pictures = g_get_user_special_dir (G_USER_DIRECTORY_PICTURES);
  if (pictures != NULL && g_file_test (pictures, G_FILE_TEST_IS_DIR))
    {
      g_autoptr(GFile) folder = g_file_new_for_path (pictures);

      gtk_file_chooser_set_current_folder (chooser, folder, NULL);
    }
  name = fl_export_dialog_default_name (session, view, "png");
  gtk_file_chooser_set_current_name (chooser, name);

  fl_export_add_choices (chooser, request);

  g_signal_connect (native, "response", G_CALLBACK (fl_export_chooser_response), request);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}
