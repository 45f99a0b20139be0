/* Export of a bookmarked range from the window, under a virtual X server: the export
 * dialog (Ctrl+E) offers the range only once the run has two bookmarks; from bookmark to
 * bookmark as a PDF gives one page per step, as PNGs a folder of numbered images; the
 * worker never moves the window's step; Cancel leaves no file. The user's data directory is
 * a temporary one. Any warning or critical fails the run. */

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>

#include "fl-export-dialog.h"
#include "fl-export-range.h"
#include "fl-export-range-job.h"
#include "ui-test-helpers.h"

#define SCENARIO "spf-vs-munmap"
#define FIRST 5
#define LAST 12
#define WAIT_S 60

/* The same count as the CLI test: page objects, not the /Pages tree. */
static guint
fl_pdf_pages (const char *path)
{
  static const char key[] = "/Type /Page";
  g_autofree char *data = NULL;
  gsize len = 0, k = strlen (key);
  guint pages = 0;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  for (gsize i = 0; i + k < len; i++)
    pages += memcmp (data + i, key, k) == 0 && data[i + k] != 's';
  return pages;
}

/* A visible toplevel of @type, waiting for it a while; NULL when none comes. */
static GtkWindow *
fl_wait_toplevel (GType type)
{
  gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (g_get_monotonic_time () < end)
    {
      GListModel *toplevels = gtk_window_get_toplevels ();

      for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
        {
          g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);
          if (G_TYPE_CHECK_INSTANCE_TYPE (window, type)
              && gtk_widget_get_visible (GTK_WIDGET (window)))
            return window;
        }
      g_main_context_iteration (NULL, FALSE);
    }
  return NULL;
}

/* Picks the item labelled @label in the @nth drop-down of @root that offers it (GTK's
 * chooser shows its choices as drop-downs, in the order they were added); counts down @nth. */
static gboolean
fl_pick_nth (GtkWidget *root, const char *label, guint *nth)
{
  if (GTK_IS_DROP_DOWN (root))
    {
      GListModel *model = gtk_drop_down_get_model (GTK_DROP_DOWN (root));

      for (guint i = 0; model != NULL && i < g_list_model_get_n_items (model); i++)
        {
          g_autoptr(GObject) item = g_list_model_get_item (model, i);
          if (GTK_IS_STRING_OBJECT (item)
              && g_strcmp0 (gtk_string_object_get_string (GTK_STRING_OBJECT (item)), label) == 0)
            {
              if ((*nth)-- > 0)
                return FALSE;
              gtk_drop_down_set_selected (GTK_DROP_DOWN (root), i);
              return TRUE;
            }
        }
    }
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (fl_pick_nth (child, label, nth))
      return TRUE;
  return FALSE;
}

static gboolean
fl_pick_item (GtkWidget *root, const char *label, guint nth)
{
  return fl_pick_nth (root, label, &nth);
}

/* Opens the export dialog as Ctrl+E does; NULL when the chooser is a portal's. */
static GtkFileChooser *
fl_present_export (GtkWindow *window, const char *folder)
{
  FlSession *session = fl_window_get_session (FL_WINDOW (window));
  FlViewport shown = { .width = 640, .height = 360, .font_scale = 1.0 };
  g_autoptr(GFile) dir = g_file_new_for_path (folder);
  GtkWindow *dialog;

  fl_export_dialog_present (window, session, FL_VIEW_LANES, &shown);
  dialog = fl_wait_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG);
  if (dialog == NULL)
    return NULL;
  fl_test_settle ();
  g_assert_true (gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), dir, NULL));
  fl_test_settle ();
  return GTK_FILE_CHOOSER (dialog);
}

static void
fl_cancel_chooser (GtkFileChooser *chooser)
{
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_CANCEL);
  fl_test_settle ();
}

/* Keeps every toplevel that shows up: the progress window's title is set after GTK lists
 * it, so it is looked at later. */
static void
fl_toplevels_changed (GListModel *toplevels, guint position, guint removed, guint added,
                      GPtrArray *seen)
{
  for (guint i = position; i < position + added; i++)
    g_ptr_array_add (seen, g_list_model_get_item (toplevels, i));
}

/* Whether a progress window came and went since the last call. */
static gboolean
fl_progress_was_shown (GPtrArray *seen)
{
  gboolean shown = FALSE;

  for (guint i = 0; i < seen->len; i++)
    shown |= g_strcmp0 (gtk_window_get_title (g_ptr_array_index (seen, i)),
                        "Exporting Steps") == 0;
  g_ptr_array_set_size (seen, 0);
  return shown;
}

/* Waits until @path exists. */
static void
fl_wait_written (const char *path)
{
  gint64 end = g_get_monotonic_time () + WAIT_S * G_USEC_PER_SEC;

  while (!g_file_test (path, G_FILE_TEST_EXISTS) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
}

/* Waits for the range job's window over @window to come and go. */
static void
fl_wait_job (GtkWindow *window)
{
  gint64 end = g_get_monotonic_time () + WAIT_S * G_USEC_PER_SEC;

  while (fl_export_range_job_get_window (window) != NULL && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_assert_null (fl_export_range_job_get_window (window));
  fl_test_settle ();
}

typedef struct {
  gboolean done;
  GError  *error;
} FlJobResult;

static void
fl_job_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  FlJobResult *out = user_data;

  fl_export_range_job_finish (result, &out->error);
  out->done = TRUE;
}

static void
fl_check_export_range (GtkApplication *app, GtkWindow *window, gpointer data)
{
  FlSession *session = fl_window_get_session (FL_WINDOW (window));
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("faultline-range-XXXXXX", &error);
  g_autofree char *pdf = g_build_filename (dir, "range.pdf", NULL);
  g_autofree char *series = g_build_filename (dir, "slides.png", NULL);
  g_autofree char *series_dir = g_build_filename (dir, "slides", NULL);
  g_autofree char *cancelled = g_build_filename (dir, "cancelled.pdf", NULL);
  GtkFileChooser *chooser;
  guint64 shown_step;
  g_autoptr(GPtrArray) seen = g_ptr_array_new_with_free_func (g_object_unref);

  g_assert_no_error (error);
  g_signal_connect (gtk_window_get_toplevels (), "items-changed",
                    G_CALLBACK (fl_toplevels_changed), seen);
  fl_window_set_scenario (FL_WINDOW (window), SCENARIO);
  fl_test_wait_loaded (session);

  /* One bookmark: the dialog offers this step only, and says why. */
  fl_session_seek (session, LAST);
  g_assert_true (fl_window_add_bookmark (FL_WINDOW (window), "Unmap", "", &error));
  g_assert_no_error (error);
  chooser = fl_present_export (window, dir);
  if (chooser == NULL)
    {
      g_test_skip ("the file chooser is the platform's (a portal); nothing to drive");
      g_signal_handlers_disconnect_by_func (gtk_window_get_toplevels (), fl_toplevels_changed,
                                            seen);
      g_rmdir (dir);
      return;
    }
  g_assert_false (fl_pick_item (GTK_WIDGET (chooser), "From bookmark to bookmark", 0));
  g_assert_true (fl_pick_item (GTK_WIDGET (chooser),
                               "Step " G_STRINGIFY (LAST)
                               " (add two bookmarks to export a range)", 0));
  fl_cancel_chooser (chooser);

  /* Two bookmarks: from one to the other as a PDF, a page per step. */
  fl_session_seek (session, FIRST);
  g_assert_true (fl_window_add_bookmark (FL_WINDOW (window), "Fault", "", &error));
  g_assert_no_error (error);
  fl_session_seek (session, 30);
  shown_step = fl_session_get_step (session);
  chooser = fl_present_export (window, dir);
  g_assert_nonnull (chooser);
  g_assert_true (fl_pick_item (GTK_WIDGET (chooser), "From bookmark to bookmark", 0));
  /* each bookmark is in both lists, From and To; the later one first works too */
  g_assert_true (fl_pick_item (GTK_WIDGET (chooser), "Step " G_STRINGIFY (LAST) ": Unmap", 0));
  g_assert_true (fl_pick_item (GTK_WIDGET (chooser), "Step " G_STRINGIFY (FIRST) ": Fault", 1));
  g_assert_false (fl_pick_item (GTK_WIDGET (chooser), "Step " G_STRINGIFY (FIRST) ": Fault", 2));
  g_assert_cmpstr (gtk_file_chooser_get_choice (chooser, "from"), ==, "1");
  g_assert_cmpstr (gtk_file_chooser_get_choice (chooser, "to"), ==, "0");
  gtk_file_chooser_set_current_name (chooser, "range.pdf");
  fl_progress_was_shown (seen);
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_ACCEPT);
  /* the chooser answers once it checked the name; then the worker writes while the window
   * goes on, its progress window over it */
  fl_wait_written (pdf);
  fl_wait_job (window);
  g_assert_true (fl_progress_was_shown (seen));
  g_assert_true (g_file_test (pdf, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpuint (fl_pdf_pages (pdf), ==, LAST - FIRST + 1);
  /* the window's run was never moved */
  g_assert_cmpuint (fl_session_get_step (session), ==, shown_step);

  /* As PNGs: a folder named after the file, one numbered image per step. */
  chooser = fl_present_export (window, dir);
  g_assert_nonnull (chooser);
  g_assert_true (fl_pick_item (GTK_WIDGET (chooser), "From bookmark to bookmark", 0));
  gtk_file_chooser_set_current_name (chooser, "slides.png");
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_ACCEPT);
  {
    g_autofree char *prefix = fl_export_range_job_series_prefix (series);
    g_autofree char *last_file = fl_export_range_file_name (prefix, LAST, "png");

    fl_wait_written (last_file);
  }
  fl_wait_job (window);
  g_assert_true (fl_progress_was_shown (seen));
  g_assert_true (g_file_test (series_dir, G_FILE_TEST_IS_DIR));
  {
    g_autoptr(GDir) listing = g_dir_open (series_dir, 0, NULL);
    g_autofree char *prefix = fl_export_range_job_series_prefix (series);
    guint files = 0;

    while (g_dir_read_name (listing) != NULL)
      files++;
    g_assert_cmpuint (files, ==, LAST - FIRST + 1);
    for (guint64 step = FIRST; step <= LAST; step++)
      {
        g_autofree char *file = fl_export_range_file_name (prefix, step, "png");
        g_autoptr(GdkTexture) image = gdk_texture_new_from_filename (file, &error);

        g_assert_no_error (error);
        g_assert_cmpint (gdk_texture_get_width (image), ==, 640);
        g_assert_cmpint (g_remove (file), ==, 0);
      }
  }
  g_assert_cmpint (g_rmdir (series_dir), ==, 0);

  /* Cancel at once, over the whole run: nothing is written. */
  {
    FlJobResult result = { 0 };
    FlViewport viewport = { .width = 640, .height = 360, .font_scale = 1.0 };
    FlPalette palette;
    GtkWindow *progress;

    fl_palette_init_light (&palette);
    fl_export_range_job_start (window, session, FL_VIEW_ALL, &viewport, &palette, 0,
                               fl_session_get_total_steps (session), cancelled, fl_job_done,
                               &result);
    progress = fl_export_range_job_get_window (window);
    g_assert_nonnull (progress);
    /* the window's close button cancels, as Cancel does */
    gtk_window_close (progress);
    while (!result.done)
      g_main_context_iteration (NULL, TRUE);
    g_assert_error (result.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    g_clear_error (&result.error);
    g_assert_false (g_file_test (cancelled, G_FILE_TEST_EXISTS));
    g_assert_null (fl_export_range_job_get_window (window));
  }

  /* A bad name is refused with a message naming it, before any work. */
  {
    FlJobResult result = { 0 };
    FlViewport viewport = { .width = 640, .height = 360, .font_scale = 1.0 };
    FlPalette palette;

    fl_palette_init_light (&palette);
    fl_export_range_job_start (window, session, FL_VIEW_LANES, &viewport, &palette, FIRST,
                               LAST, "/tmp/slides.gif", fl_job_done, &result);
    g_assert_null (fl_export_range_job_get_window (window));
    while (!result.done)
      g_main_context_iteration (NULL, TRUE);
    g_assert_nonnull (result.error);
    g_assert_nonnull (strstr (result.error->message, "/tmp/slides.gif"));
    g_clear_error (&result.error);
  }

  g_signal_handlers_disconnect_by_func (gtk_window_get_toplevels (), fl_toplevels_changed,
                                        seen);
  g_assert_cmpint (g_remove (pdf), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static void
test_export_range (void)
{
  fl_test_run_application (fl_check_export_range, NULL);
}

int
main (int argc, char *argv[])
{
  g_autofree char *data_home = NULL;
  int status;

  /* first: GTK must not look up the data folder before it is the test's own */
  data_home = fl_test_private_data_home ("export-range");
  fl_test_init_window_test (&argc, &argv);

  g_test_add_func ("/ui/export-range/from-bookmark-to-bookmark", test_export_range);

  status = g_test_run ();
  fl_test_remove_data_home (data_home);
  return status;
}
