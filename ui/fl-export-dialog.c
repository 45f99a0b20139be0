/* Exporting a view: a save chooser, then fl_export_view(). The chooser offers the size and
 * the colours as choices because both are properties of the figure, not of the file name;
 * the format is the file name's extension, so what the user reads is what is written.
 * Which steps is a choice too: this step, or every step between two of the run's bookmarks
 * (written by fl_export_range_job_start() in a worker, with a progress window). */

#include "fl-export-dialog.h"

#include <glib/gi18n.h>

#include "fl-export-range.h"
#include "fl-export-range-job.h"
#include "fl-style.h"
#include "fl-window.h"

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
  GPtrArray     *marks;           /* FlBookmark, in step order, as when the dialog opened */
  gboolean       range;           /* every step from `first` to `last`, not this one */
  guint64        first, last;
  char          *proposed;        /* the name the chooser was opened with */
} FlExportRequest;

static void
fl_export_request_free (FlExportRequest *request)
{
  g_clear_object (&request->session);
  g_clear_object (&request->parent);
  for (guint i = 0; i < G_N_ELEMENTS (request->filters); i++)
    g_clear_object (&request->filters[i]);
  g_free (request->path);
  g_clear_pointer (&request->marks, g_ptr_array_unref);
  g_free (request->proposed);
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
  const FlCursor *cur;
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

  cur = fl_session_get_cursor (session);
  if (cur == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PENDING,
                   _("Cannot export to “%s”: the scenario is still being simulated"), path);
      return FALSE;
    }

  if (fl_export_view (view, cur, viewport, palette, format->format, path, &local_error))
    return TRUE;

  /* The painters name the file when they cannot write it, not when drawing fails; the
   * message box shows this message alone, so it must say which file it is about. */
  if (strstr (local_error->message, path) == NULL)
    g_prefix_error (&local_error, _("Cannot export to “%s”: "), path);
  g_propagate_error (error, g_steal_pointer (&local_error));
  return FALSE;
}

char *
fl_export_dialog_range_name (FlSession  *session,
                             FlView      view,
                             guint64     first,
                             guint64     last,
                             const char *format)
{
  const char *name;

  g_return_val_if_fail (FL_IS_SESSION (session), NULL);
  g_return_val_if_fail ((guint) view < FL_VIEW_N && format != NULL, NULL);

  name = fl_session_get_name (session);
  if (name == NULL || name[0] == '\0')
    name = "faultline";
  return g_strdup_printf ("%s-steps-%" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT "-%s.%s", name,
                          MIN (first, last), MAX (first, last), fl_view_name (view), format);
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
fl_export_range_done (GObject      *source,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(FlExportRequest) request = user_data;
  g_autoptr(GError) error = NULL;

  if (!fl_export_range_job_finish (result, &error)
      && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    fl_export_show_error (request->parent, request->path, error);
}

/* Takes the request when it exports a range: it lives until the worker is done. */
static void
fl_export_request_finish (FlExportRequest *request)
{
  g_autoptr(GError) error = NULL;

  if (request->range)
    {
      FlExportRequest *copy = g_new0 (FlExportRequest, 1);

      /* the chooser's callers free theirs; the job's callback frees this one */
      copy->parent = request->parent != NULL ? g_object_ref (request->parent) : NULL;
      copy->path = g_strdup (request->path);
      fl_export_range_job_start (request->parent, request->session, request->view,
                                 &request->viewport, &request->palette, request->first,
                                 request->last, request->path, fl_export_range_done, copy);
      return;
    }
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
 * ourselves, or the range gets its own name or folder, the name is a different one, so ask
 * the same question before replacing it. */
static void
fl_export_confirm_replace (FlExportRequest *request,
                           const char      *question,
                           const char      *explanation)
{
  GtkWidget *dialog;
  GtkWidget *replace;

  dialog = gtk_message_dialog_new (request->parent,
                                   GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE, "%s", question);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", explanation);
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

static guint64
fl_export_mark_step (FlExportRequest *request,
                     const char      *id)
{
  guint64 index = 0;

  if (id == NULL || !g_ascii_string_to_unsigned (id, 10, 0, request->marks->len - 1, &index,
                                                 NULL))
    index = 0;
  return fl_bookmark_get_step (g_ptr_array_index (request->marks, index));
}

static void
fl_export_request_choose_steps (FlExportRequest *request,
                                GtkFileChooser  *chooser)
{
  guint64 from, to;

  request->range = request->marks->len >= 2
                   && g_strcmp0 (gtk_file_chooser_get_choice (chooser, "steps"), "range") == 0;
  if (!request->range)
    return;
  from = fl_export_mark_step (request, gtk_file_chooser_get_choice (chooser, "from"));
  to = fl_export_mark_step (request, gtk_file_chooser_get_choice (chooser, "to"));
  request->first = MIN (from, to);
  request->last = MAX (from, to);
}

/* The name proposed for this step promises one step; when a range was chosen and the name
 * is still the one proposed, the range's own name is used instead, in the same folder. */
static void
fl_export_request_name_range (FlExportRequest *request,
                              const char      *proposed)
{
  g_autofree char *base = g_path_get_basename (request->path);
  g_autofree char *dir = NULL;
  g_autofree char *name = NULL;
  const FlExportFormat *format = fl_export_format_for_path (request->path);

  if (g_strcmp0 (base, proposed) != 0 || format == NULL)
    return;
  dir = g_path_get_dirname (request->path);
  name = fl_export_dialog_range_name (request->session, request->view, request->first,
                                      request->last, format->format);
  g_free (request->path);
  request->path = g_build_filename (dir, name, NULL);
}

/* Whether writing the request replaces anything: the file, or for a series any numbered
 * file already in its folder. */
static gboolean
fl_export_request_replaces (FlExportRequest *request)
{
  g_autofree char *prefix = NULL;
  const FlExportFormat *format = fl_export_format_for_path (request->path);

  if (!request->range || format == NULL || g_str_equal (format->format, "pdf"))
    return g_file_test (request->path, G_FILE_TEST_EXISTS);
  prefix = fl_export_range_job_series_prefix (request->path);
  for (guint64 step = request->first; step <= request->last; step++)
    {
      g_autofree char *file = fl_export_range_file_name (prefix, step, format->format);

      if (g_file_test (file, G_FILE_TEST_EXISTS))
        return TRUE;
    }
  return FALSE;
}

static void
fl_export_request_confirm (FlExportRequest *request)
{
  g_autofree char *name = g_filename_display_basename (request->path);
  g_autofree char *prefix = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *question = NULL;

  prefix = request->range ? fl_export_range_job_series_prefix (request->path) : NULL;
  if (prefix == NULL)
    {
      question = g_strdup_printf (_("Replace “%s”?"), name);
      fl_export_confirm_replace (request, question,
                                 _("A file with this name already exists. "
                                   "Replacing it overwrites its contents."));
      return;
    }
  folder = g_path_get_dirname (prefix);
  g_free (name);
  name = g_filename_display_basename (folder);
  question = g_strdup_printf (_("Replace the images in “%s”?"), name);
  fl_export_confirm_replace (request, question,
                             _("The folder already holds numbered images of some of these "
                               "steps. Replacing them overwrites their contents."));
}

static void
fl_export_chooser_response (GtkNativeDialog *native,
                            int              response,
                            FlExportRequest *request)
{
  g_autoptr(FlExportRequest) owned = request;
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;
  gboolean confirmed;

  if (response != GTK_RESPONSE_ACCEPT)
    goto out;

  file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
  path = file != NULL ? g_file_get_path (file) : NULL;
  if (path == NULL)
    goto out;

  fl_export_request_choose_viewport (request, GTK_FILE_CHOOSER (native));
  fl_export_request_choose_steps (request, GTK_FILE_CHOOSER (native));

  /* The chooser asked before replacing the name the user picked, and only that name. */
  confirmed = fl_export_format_for_path (path) != NULL;
  if (confirmed)
    request->path = g_steal_pointer (&path);
  else
    {
      /* No known extension: the format of the filter the user picked decides, PNG if none. */
      GtkFileFilter *filter = gtk_file_chooser_get_filter (GTK_FILE_CHOOSER (native));
      const FlExportFormat *format = &fl_export_formats[0];

      for (guint i = 0; i < G_N_ELEMENTS (fl_export_formats); i++)
        if (filter == request->filters[i])
          format = &fl_export_formats[i];
      request->path = g_strconcat (path, format->suffix, NULL);
    }

  if (request->range)
    {
      g_autofree char *picked = g_strdup (request->path);
      g_autofree char *series = NULL;

      fl_export_request_name_range (request, request->proposed);
      series = fl_export_range_job_series_prefix (request->path);
      if (series != NULL || g_strcmp0 (picked, request->path) != 0)
        confirmed = FALSE;
    }

  if (!confirmed && fl_export_request_replaces (request))
    fl_export_request_confirm (g_steal_pointer (&owned));
  else
    fl_export_request_finish (request);

out:
  g_object_unref (native);
}

/* "Steps": this step, or every step from one bookmark to another (a PDF page or a numbered
 * image each). With fewer than two bookmarks the range is not offered, and the only entry
 * says why, since a chooser's choices cannot be greyed out. */
static void
fl_export_add_step_choices (GtkFileChooser  *chooser,
                            FlExportRequest *request)
{
  char step[32];
  g_autofree char *this_step = NULL;
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);

  g_snprintf (step, sizeof step, "%" G_GUINT64_FORMAT, fl_session_get_step (request->session));
  if (request->marks->len < 2)
    {
      /* Translators: the only "Steps" choice of the export dialog while the run has fewer
       * than two bookmarks; %s is the current step. */
      const char *only_ids[] = { "step", NULL };
      const char *only_labels[] = { NULL, NULL };

      this_step = g_strdup_printf (_("Step %s (add two bookmarks to export a range)"), step);
      only_labels[0] = this_step;
      gtk_file_chooser_add_choice (chooser, "steps", _("Steps"), only_ids, only_labels);
      gtk_file_chooser_set_choice (chooser, "steps", "step");
      return;
    }

  {
    const char *step_ids[] = { "step", "range", NULL };
    const char *step_labels[] = { NULL, _("From bookmark to bookmark"), NULL };

    /* Translators: an export choice: only the step shown now; %s is its number. */
    this_step = g_strdup_printf (_("This step (%s)"), step);
    step_labels[0] = this_step;
    gtk_file_chooser_add_choice (chooser, "steps", _("Steps"), step_ids, step_labels);
    gtk_file_chooser_set_choice (chooser, "steps", "step");
  }

  /* "From" lists the bookmarks from the first, "To" from the last: GTK 4.8's own chooser
   * looks a default up among the labels, not the ids, and so opens on the first entry; the
   * order makes the whole bookmarked stretch the range offered. The ids are the bookmarks'. */
  for (guint k = 0; k < 2 * request->marks->len; k++)
    {
      guint i = k < request->marks->len ? k : 2 * request->marks->len - 1 - k;
      FlBookmark *mark = g_ptr_array_index (request->marks, i);
      char at[32];

      g_snprintf (at, sizeof at, "%" G_GUINT64_FORMAT, fl_bookmark_get_step (mark));
      g_ptr_array_add (ids, g_strdup_printf ("%u", i));
      /* Translators: a bookmark in the export dialog's From and To choices: its step, its
       * title. */
      g_ptr_array_add (labels, g_strdup_printf (_("Step %s: %s"), at,
                                                fl_bookmark_get_title (mark)));
      if (k == request->marks->len - 1)
        {
          g_ptr_array_add (ids, NULL);
          g_ptr_array_add (labels, NULL);
        }
    }
  g_ptr_array_add (ids, NULL);
  g_ptr_array_add (labels, NULL);
  gtk_file_chooser_add_choice (chooser, "from", _("From"), (const char **) ids->pdata,
                               (const char **) labels->pdata);
  gtk_file_chooser_add_choice (chooser, "to", _("To"),
                               (const char **) ids->pdata + request->marks->len + 1,
                               (const char **) labels->pdata + request->marks->len + 1);
  gtk_file_chooser_set_choice (chooser, "from", "0");
  gtk_file_chooser_set_choice (chooser, "to", g_ptr_array_index (ids, request->marks->len + 1));
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

  fl_export_add_step_choices (chooser, request);
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

  /* The window's bookmarks, as they are now: the choices list them. */
  request->marks = g_ptr_array_new_with_free_func (g_object_unref);
  if (parent != NULL && FL_IS_WINDOW (parent))
    {
      GListModel *model = fl_bookmarks_get_model (fl_window_get_bookmarks (FL_WINDOW (parent)));

      for (guint i = 0; i < g_list_model_get_n_items (model); i++)
        g_ptr_array_add (request->marks, g_list_model_get_item (model, i));
    }

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
  request->proposed = g_strdup (name);

  fl_export_add_choices (chooser, request);

  g_signal_connect (native, "response", G_CALLBACK (fl_export_chooser_response), request);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}
