/* Bookmarks in the window, under a virtual X server: a bookmark added through the window
 * (what the dialog's Add button calls) is in the user's store, and comes back, in the list,
 * after restarting the application on the same scenario; presentation mode visits every
 * bookmark in order and leaves as it came. The user's data directory is a
 * temporary one. Any warning or critical fails the run. */

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "fl-store.h"
#include "ui-test-helpers.h"

#define SCENARIO "spf-vs-munmap"

typedef struct {
  guint64 step;
  const char *title;
  const char *note;
} FlMark;

/* Added out of step order on purpose: the list and the walk go by step. */
static const FlMark fl_marks[] = {
  { 12, "The unmap starts", "munmap takes mmap_lock for writing" },
  { 5, "Speculative fault", "the fault reads the VMA under RCU" },
};

static FlSession *
fl_open (GtkWindow *window)
{
  FlSession *session = fl_window_get_session (FL_WINDOW (window));

  fl_window_set_scenario (FL_WINDOW (window), SCENARIO);
  fl_test_wait_loaded (session);
  return session;
}

static void
fl_check_add (GtkApplication *app, GtkWindow *window, gpointer data)
{
  FlSession *session = fl_open (window);
  FlBookmarks *bookmarks = fl_window_get_bookmarks (FL_WINDOW (window));
  g_autofree char *path = fl_store_default_path ();
  g_autoptr(FlStore) store = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (g_list_model_get_n_items (fl_bookmarks_get_model (bookmarks)), ==, 0);
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "add-bookmark"));
  /* nothing to present yet: the window says so and stays as it is */
  g_action_group_activate_action (G_ACTION_GROUP (window), "present", NULL);
  g_assert_false (fl_window_is_presenting (FL_WINDOW (window)));
  for (guint i = 0; i < G_N_ELEMENTS (fl_marks); i++)
    {
      fl_session_seek (session, fl_marks[i].step);
      g_assert_true (fl_window_add_bookmark (FL_WINDOW (window), fl_marks[i].title,
                                             fl_marks[i].note, &error));
      g_assert_no_error (error);
      /* recording the run must not move the window's step */
      g_assert_cmpuint (fl_session_get_step (session), ==, fl_marks[i].step);
    }
  g_assert_cmpint (fl_bookmarks_get_run_id (bookmarks), >, 0);
  g_assert_cmpuint (g_list_model_get_n_items (fl_bookmarks_get_model (bookmarks)), ==, 2);

  /* in the store, read through a connection of our own */
  g_assert_true (g_str_has_prefix (path, g_get_user_data_dir ()));
  store = fl_store_open (path, FL_STORE_OPEN_READ_ONLY, &error);
  g_assert_no_error (error);
  rows = fl_store_list_bookmarks (store, fl_bookmarks_get_run_id (bookmarks), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, 2);
  for (guint i = 0; i < rows->len; i++)
    {
      FlStoredBookmark *row = g_ptr_array_index (rows, i);
      gboolean found = FALSE;

      for (guint m = 0; m < G_N_ELEMENTS (fl_marks); m++)
        if (row->step == fl_marks[m].step)
          {
            g_assert_cmpstr (row->title, ==, fl_marks[m].title);
            g_assert_cmpstr (row->note, ==, fl_marks[m].note);
            found = TRUE;
          }
      g_assert_true (found);
    }
}

/* A fresh application on the same scenario: the run is found again, its bookmarks listed. */
static void
fl_check_restored (GtkApplication *app, GtkWindow *window, gpointer data)
{
  FlBookmarks *bookmarks;
  GListModel *model;
  GtkListBox *list;

  fl_open (window);
  bookmarks = fl_window_get_bookmarks (FL_WINDOW (window));
  model = fl_bookmarks_get_model (bookmarks);
  list = fl_window_get_bookmarks_list (FL_WINDOW (window));
  g_assert_cmpint (fl_bookmarks_get_run_id (bookmarks), >, 0);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(FlBookmark) item = g_list_model_get_item (model, i);
      GtkListBoxRow *row = gtk_list_box_get_row_at_index (list, (int) i);
      FlBookmark *shown;

      g_assert_nonnull (row);
      shown = g_object_get_data (G_OBJECT (row), "fl-bookmark");
      g_assert_true (shown == item);
      /* step order */
      g_assert_cmpuint (fl_bookmark_get_step (item), ==, fl_marks[1 - i].step);
      g_assert_cmpstr (fl_bookmark_get_title (item), ==, fl_marks[1 - i].title);
    }
  g_assert_null (gtk_list_box_get_row_at_index (list, 2));
}

static void
fl_activate (GtkWindow *window, const char *action)
{
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), action));
  g_action_group_activate_action (G_ACTION_GROUP (window), action, NULL);
}

/* Presentation mode walks every bookmark in step order, then leaves as it came. */
static void
fl_check_present (GtkApplication *app, GtkWindow *window, gpointer data)
{
  FlSession *session;
  GListModel *model;
  guint n;

  fl_check_restored (app, window, data);
  session = fl_window_get_session (FL_WINDOW (window));
  model = fl_bookmarks_get_model (fl_window_get_bookmarks (FL_WINDOW (window)));
  n = g_list_model_get_n_items (model);
  fl_session_seek (session, 40);

  fl_activate (window, "present");
  g_assert_true (fl_window_is_presenting (FL_WINDOW (window)));
  /* the title slide: the start of the run */
  g_assert_cmpuint (fl_session_get_step (session), ==, 0);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(FlBookmark) bookmark = g_list_model_get_item (model, i);

      fl_activate (window, "next-bookmark");
      g_assert_cmpuint (fl_session_get_step (session), ==, fl_bookmark_get_step (bookmark));
      gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
    }
  /* past the last slide nothing moves; the arrows still step */
  fl_activate (window, "next-bookmark");
  g_assert_cmpuint (fl_session_get_step (session), ==, fl_marks[0].step);
  fl_activate (window, "step-forward");
  g_assert_cmpuint (fl_session_get_step (session), ==, fl_marks[0].step + 1);
  fl_activate (window, "previous-bookmark");
  g_assert_cmpuint (fl_session_get_step (session), ==, fl_marks[1].step);

  fl_activate (window, "present");
  g_assert_false (fl_window_is_presenting (FL_WINDOW (window)));
  g_assert_false (gtk_window_is_fullscreen (window));
}

static void
test_bookmarks_restart (void)
{
  fl_test_run_application (fl_check_add, NULL);
  fl_test_run_application (fl_check_restored, NULL);
}

static void
test_bookmarks_present (void)
{
  fl_test_run_application (fl_check_present, NULL);
}

int
main (int argc, char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *data_home = NULL;
  int status;

  /* Never read or write the user's settings or store, whoever runs the test. */
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  data_home = g_dir_make_tmp ("faultline-bookmarks-XXXXXX", &error);
  g_assert_no_error (error);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);

  g_test_init (&argc, &argv, NULL);

  if (!gtk_init_check ())
    {
      g_test_skip ("no display: run under xvfb-run (make test does)");
      return g_test_run ();
    }
  fl_test_fail_on_warnings ();

  g_test_add_func ("/ui/bookmarks/restart", test_bookmarks_restart);
  /* runs after /restart, on the bookmarks it left in the store */
  g_test_add_func ("/ui/bookmarks/present", test_bookmarks_present);

  status = g_test_run ();
  {
    g_autofree char *dir = g_build_filename (data_home, "faultline", NULL);
    const char *names[] = { "faultline.db", "faultline.db-wal", "faultline.db-shm" };

    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      {
        g_autofree char *file = g_build_filename (dir, names[i], NULL);
        g_remove (file);
      }
    g_rmdir (dir);
    g_rmdir (data_home);
  }
  return status;
}
