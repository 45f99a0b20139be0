/* The range export's worker and its progress window; see fl-export-range-job.h. */

#include "fl-export-range-job.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <errno.h>
#include <string.h>

#include "fl-export-range.h"

#define FL_RANGE_JOB_KEY "fl-export-range-job"
typedef struct {
  /* read by the worker */
  FlRun      *run;         /* the session's run when the export began (a reference) */
  guint64     first, last;
  FlView      view;
  FlViewport  viewport;
  FlPalette   palette;
  char       *format;      /* "pdf", "png" or "svg" */
  char       *path;        /* as given, for messages */
  char       *target;      /* the PDF, or the series' prefix */
  char       *folder;      /* the series' folder, NULL for a PDF */
  gboolean    made_folder;

  /* written by the worker, read by the progress window */
  gint        pages;       /* pages written so far */

  /* the main thread's */
  GtkWindow          *parent;
  GtkWindow          *window;
  GtkProgressBar     *bar;
  GtkWidget          *cancel;
  guint               poll;
  GAsyncReadyCallback callback;
  gpointer            user_data;
} FlRangeJob;

static void
fl_range_job_free (FlRangeJob *job)
{
  g_clear_pointer (&job->run, fl_run_unref);
  g_free (job->format);
  g_free (job->path);
  g_free (job->target);
  g_free (job->folder);
  g_clear_handle_id (&job->poll, g_source_remove);
  g_clear_object (&job->parent);
  g_free (job);
}

char *
fl_export_range_job_series_prefix (const char *path)
{
  g_autofree char *lower = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *stem = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  lower = g_ascii_strdown (path, -1);
  if (!g_str_has_suffix (lower, ".png") && !g_str_has_suffix (lower, ".svg"))
    return NULL;
  folder = g_strndup (path, strlen (path) - 4);
  stem = g_path_get_basename (folder);
  return g_build_filename (folder, stem, NULL);
}

static const char *
fl_range_job_format (const char *path)
{
  g_autofree char *lower = g_ascii_strdown (path, -1);

  if (g_str_has_suffix (lower, ".pdf"))
    return "pdf";
  if (g_str_has_suffix (lower, ".png"))
    return "png";
  if (g_str_has_suffix (lower, ".svg"))
    return "svg";
  return NULL;
}

/* Numbers go into translated text as strings: a G_GUINT64_FORMAT inside _() would not reach
 * the catalogue whole. */
static const char *
fl_num (char buf[32], guint64 value)
{
  g_snprintf (buf, 32, "%" G_GUINT64_FORMAT, value);
  return buf;
}

/* ---- the worker ---- */

static gboolean
fl_range_job_progress (guint64 done, guint64 total, gpointer user_data)
{
  GTask *task = user_data;
  FlRangeJob *job = g_task_get_task_data (task);

  g_atomic_int_set (&job->pages, (gint) MIN (done, G_MAXINT));
  return !g_cancellable_is_cancelled (g_task_get_cancellable (task));
}

/* A cancelled series leaves nothing: the files this job wrote go, and the folder when the
 * job made it. */
static void
fl_range_job_remove_series (FlRangeJob *job)
{
  guint pages = (guint) g_atomic_int_get (&job->pages);

  for (guint64 step = job->first; step < job->first + pages && step <= job->last; step++)
    {
      g_autofree char *file = fl_export_range_file_name (job->target, step, job->format);
      g_remove (file);
    }
  if (job->made_folder)
    g_rmdir (job->folder);
}

static void
fl_range_job_run (GTask        *task,
                  gpointer      source,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  FlRangeJob *job = task_data;
  g_autoptr(GError) error = NULL;

  /* The run never changes and the export walks it with a cursor of its own, so the window
   * goes on stepping, or loads another run, while this thread draws. */
  if (job->folder != NULL && !g_file_test (job->folder, G_FILE_TEST_IS_DIR))
    {
      if (g_mkdir_with_parents (job->folder, 0777) != 0)
        {
          int saved = errno;
          g_task_return_new_error (task, G_IO_ERROR, g_io_error_from_errno (saved),
                                   _("Cannot make the folder “%s”: %s"), job->folder,
                                   g_strerror (saved));
          return;
        }
      job->made_folder = TRUE;
    }

  if (fl_export_range (job->view, job->run, job->first, job->last, &job->viewport,
                       &job->palette, job->format, job->target, fl_range_job_progress, task,
                       &error))
    {
      g_task_return_boolean (task, TRUE);
      return;
    }
  if (g_error_matches (error, FL_EXPORT_RANGE_ERROR, FL_EXPORT_RANGE_ERROR_CANCELLED))
    {
      if (job->folder != NULL)
        fl_range_job_remove_series (job);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s", error->message);
      return;
    }
  if (strstr (error->message, job->path) == NULL && strstr (error->message, job->target) == NULL)
    g_prefix_error (&error, _("Cannot export to “%s”: "), job->path);
  g_task_return_error (task, g_steal_pointer (&error));
}

/* ---- the progress window ---- */

static gboolean
fl_range_job_poll (gpointer user_data)
{
  FlRangeJob *job = user_data;
  guint64 pages = job->last - job->first + 1;
  gint done = g_atomic_int_get (&job->pages);
  g_autofree char *text = NULL;
  char a[32], b[32];

  /* Translators: progress of a range export: pages (steps) written of all. */
  text = g_strdup_printf (_("Page %s of %s"), fl_num (a, (guint64) done), fl_num (b, pages));
  gtk_progress_bar_set_fraction (job->bar, done / (double) pages);
  if (gtk_widget_get_sensitive (job->cancel))
    gtk_progress_bar_set_text (job->bar, text);
  return G_SOURCE_CONTINUE;
}

static void
fl_range_job_cancel (GTask *task)
{
  FlRangeJob *job = g_task_get_task_data (task);

  g_cancellable_cancel (g_task_get_cancellable (task));
  /* The worker stops after the page it is drawing. */
  gtk_widget_set_sensitive (job->cancel, FALSE);
  gtk_progress_bar_set_text (job->bar, _("Cancelling…"));
}

static gboolean
fl_range_job_close_request (GtkWindow *window,
                            GTask     *task)
{
  fl_range_job_cancel (task);
  return TRUE;   /* the window goes when the worker is done */
}

static void
fl_range_job_build_window (FlRangeJob *job,
                           GTask      *task)
{
  g_autofree char *heading = NULL;
  g_autofree char *name = g_filename_display_basename (job->folder != NULL ? job->folder
                                                                           : job->path);
  GtkWidget *box, *title, *detail, *buttons;
  char a[32], b[32];

  job->window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_title (job->window, _("Exporting Steps"));
  gtk_window_set_modal (job->window, TRUE);
  gtk_window_set_resizable (job->window, FALSE);
  gtk_window_set_default_size (job->window, 420, -1);
  if (job->parent != NULL)
    {
      gtk_window_set_transient_for (job->window, job->parent);
      gtk_window_set_destroy_with_parent (job->window, TRUE);
    }

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 18);
  gtk_widget_set_margin_start (box, 18);
  gtk_widget_set_margin_end (box, 18);

  /* Translators: heading of the range export's progress window; %s are step numbers. */
  heading = g_strdup_printf (_("Steps %s to %s"), fl_num (a, job->first), fl_num (b, job->last));
  title = gtk_label_new (heading);
  gtk_widget_add_css_class (title, "heading");
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  detail = gtk_label_new (name);
  gtk_widget_add_css_class (detail, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (detail), 0);
  gtk_label_set_ellipsize (GTK_LABEL (detail), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_set_tooltip_text (detail, job->folder != NULL ? job->folder : job->path);

  job->bar = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  gtk_progress_bar_set_show_text (job->bar, TRUE);

  buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_halign (buttons, GTK_ALIGN_END);
  job->cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  g_signal_connect_swapped (job->cancel, "clicked", G_CALLBACK (fl_range_job_cancel), task);
  gtk_box_append (GTK_BOX (buttons), job->cancel);

  gtk_box_append (GTK_BOX (box), title);
  gtk_box_append (GTK_BOX (box), detail);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (job->bar));
  gtk_box_append (GTK_BOX (box), buttons);
  gtk_window_set_child (job->window, box);
  g_signal_connect (job->window, "close-request", G_CALLBACK (fl_range_job_close_request),
                    task);
  if (job->parent != NULL)
    g_object_set_data (G_OBJECT (job->parent), FL_RANGE_JOB_KEY, job->window);
  fl_range_job_poll (job);
  gtk_window_present (job->window);
}

static void
fl_range_job_done (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  FlRangeJob *job = g_task_get_task_data (G_TASK (result));

  g_clear_handle_id (&job->poll, g_source_remove);
  if (job->parent != NULL
      && g_object_get_data (G_OBJECT (job->parent), FL_RANGE_JOB_KEY) == job->window)
    g_object_set_data (G_OBJECT (job->parent), FL_RANGE_JOB_KEY, NULL);
  if (job->window != NULL)
    {
      g_signal_handlers_disconnect_by_func (job->window, fl_range_job_close_request,
                                            result);
      gtk_window_destroy (job->window);
      job->window = NULL;
    }
  if (job->callback != NULL)
    job->callback (source, result, job->user_data);
}

/* ---- starting ---- */

void
fl_export_range_job_start (GtkWindow          *parent,
                           FlSession          *session,
                           FlView              view,
                           const FlViewport   *viewport,
                           const FlPalette    *palette,
                           guint64             first,
                           guint64             last,
                           const char         *path,
                           GAsyncReadyCallback callback,
                           gpointer            user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  FlRangeJob *job;
  const char *format;
  const FlRun *run;
  char a[32], b[32];

  g_return_if_fail (parent == NULL || GTK_IS_WINDOW (parent));
  g_return_if_fail (FL_IS_SESSION (session));
  g_return_if_fail ((guint) view < FL_VIEW_N);
  g_return_if_fail (viewport != NULL && palette != NULL && path != NULL);

  job = g_new0 (FlRangeJob, 1);
  job->parent = parent != NULL ? g_object_ref (parent) : NULL;
  job->callback = callback;
  job->user_data = user_data;
  job->first = MIN (first, last);
  job->last = MAX (first, last);
  job->view = view;
  job->viewport = *viewport;
  job->palette = *palette;
  job->path = g_strdup (path);
  task = g_task_new (NULL, cancellable, fl_range_job_done, NULL);
  g_task_set_source_tag (task, fl_export_range_job_start);
  g_task_set_task_data (task, job, (GDestroyNotify) fl_range_job_free);

  format = fl_range_job_format (path);
  run = fl_session_get_run (session);
  if (format == NULL)
    {
      g_task_return_new_error (task, FL_EXPORT_ERROR, FL_EXPORT_ERROR_FORMAT,
                               _("Cannot export to “%s”: the name must end in .png, .svg or "
                                 ".pdf"), path);
      return;
    }
  if (run == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_PENDING,
                               _("Cannot export to “%s”: the scenario is still being "
                                 "simulated"), path);
      return;
    }
  if (job->last > fl_run_get_total_steps (run))
    {
      g_task_return_new_error (task, FL_EXPORT_RANGE_ERROR, FL_EXPORT_RANGE_ERROR_RANGE,
                               _("Cannot export step %s to “%s”: the run ends at step %s"),
                               fl_num (a, job->last), path,
                               fl_num (b, fl_run_get_total_steps (run)));
      return;
    }
  if (job->last - job->first >= FL_EXPORT_RANGE_MAX_PAGES)
    {
      g_task_return_new_error (task, FL_EXPORT_RANGE_ERROR, FL_EXPORT_RANGE_ERROR_TOO_MANY,
                               _("Cannot export %s steps to “%s”: at most %d at once"),
                               fl_num (a, job->last - job->first + 1), path,
                               FL_EXPORT_RANGE_MAX_PAGES);
      return;
    }
  job->format = g_strdup (format);
  if (g_str_equal (format, "pdf"))
    job->target = g_strdup (path);
  else
    {
      job->target = fl_export_range_job_series_prefix (path);
      job->folder = g_path_get_dirname (job->target);
    }

  job->run = fl_run_ref (run);

  fl_range_job_build_window (job, task);
  job->poll = g_timeout_add (100, fl_range_job_poll, job);
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, fl_range_job_run);
}

gboolean
fl_export_range_job_finish (GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == fl_export_range_job_start,
                        FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

GtkWindow *
fl_export_range_job_get_window (GtkWindow *parent)
{
  g_return_val_if_fail (GTK_IS_WINDOW (parent), NULL);
  return g_object_get_data (G_OBJECT (parent), FL_RANGE_JOB_KEY);
}
