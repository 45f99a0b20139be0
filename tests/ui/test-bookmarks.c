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

/* The CPU the run stepped at @step: the first event of each step is the step itself. */
static guint
fl_recorded_cpu (const FlRun *run, guint64 step)
{
  for (gsize i = 0; i < fl_run_get_n_events (run); i++)
    {
      FlEvent event = fl_run_get_event (run, i);

      if (event.step == step)
        return event.cpu;
    }
  g_assert_not_reached ();
}

/* Shift+Right with another CPU than the run took re-simulates the rest: a branched run, with
 * the same scenario, switches and seed but other events. It has bookmarks of its own, kept in
 * a run of its own; the original run keeps its bookmarks and gets them back. */
static void
fl_check_branch (GtkApplication *app, GtkWindow *window, gpointer data)
{
  FlSession *session = fl_open (window);
  FlBookmarks *bookmarks = fl_window_get_bookmarks (FL_WINDOW (window));
  GListModel *model = fl_bookmarks_get_model (bookmarks);
  gint64 original = fl_bookmarks_get_run_id (bookmarks);
  g_autofree char *path = fl_store_default_path ();
  g_autoptr(GError) error = NULL;
  guint64 at = 0;
  gboolean branched = FALSE;
  gint64 branch;

  g_assert_cmpint (original, >, 0);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, G_N_ELEMENTS (fl_marks));

  /* the first step where another CPU than the recorded one can go */
  for (guint64 step = 1; step < fl_session_get_total_steps (session) && !branched; step++)
    {
      const FlCursor *cursor = fl_session_get_cursor (session);

      fl_session_seek (session, step);
      for (guint cpu = 0; cpu < fl_session_get_n_cpus (session) && !branched; cpu++)
        if (cpu != fl_recorded_cpu (fl_cursor_get_run (cursor), step)
            && fl_cursor_cpu_can_step (cursor, cpu))
          {
            fl_session_select_cpu (session, cpu);
            at = step;
            branched = TRUE;
          }
    }
  g_assert_true (branched);
  fl_activate (window, "step-cpu");
  fl_test_wait_loaded (session);
  g_assert_cmpuint (fl_session_get_step (session), ==, at + 1);

  /* not the original run's bookmarks */
  g_assert_cmpint (fl_bookmarks_get_run_id (bookmarks), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 0);

  /* a bookmark on the branch records the branch, not the original */
  g_assert_true (fl_window_add_bookmark (FL_WINDOW (window), "The branch", "", &error));
  g_assert_no_error (error);
  branch = fl_bookmarks_get_run_id (bookmarks);
  g_assert_cmpint (branch, >, 0);
  g_assert_cmpint (branch, !=, original);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);
  {
    g_autoptr(FlStore) store = fl_store_open (path, FL_STORE_OPEN_READ_ONLY, &error);
    g_autoptr(GPtrArray) of_original = NULL;
    g_autoptr(GPtrArray) of_branch = NULL;
    g_autoptr(FlStoredRun) stored_original = NULL;
    g_autoptr(FlStoredRun) stored_branch = NULL;

    g_assert_no_error (error);
    of_original = fl_store_list_bookmarks (store, original, &error);
    of_branch = fl_store_list_bookmarks (store, branch, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (of_original->len, ==, G_N_ELEMENTS (fl_marks));
    g_assert_cmpuint (of_branch->len, ==, 1);
    stored_original = fl_store_get_run (store, original, &error);
    stored_branch = fl_store_get_run (store, branch, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (stored_original->config, ==, stored_branch->config);
    g_assert_cmpuint (stored_original->seed, ==, stored_branch->seed);
    g_assert_cmpstr (stored_original->hash, !=, stored_branch->hash);
  }

  /* the original run again: its own bookmarks, not the branch's */
  fl_session_load (session, SCENARIO);
  fl_test_wait_loaded (session);
  g_assert_cmpint (fl_bookmarks_get_run_id (bookmarks), ==, original);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, G_N_ELEMENTS (fl_marks));
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

static void
test_bookmarks_branch (void)
{
  fl_test_run_application (fl_check_branch, NULL);
}

int
main (int argc, char *argv[])
{
  g_autofree char *data_home = NULL;
  int status;

  /* first: GTK must not look up the data folder before it is the test's own */
  data_home = fl_test_private_data_home ("bookmarks");
  fl_test_init_window_test (&argc, &argv);

  g_test_add_func ("/ui/bookmarks/restart", test_bookmarks_restart);
  /* runs after /restart, on the bookmarks it left in the store */
  g_test_add_func ("/ui/bookmarks/present", test_bookmarks_present);
  /* after /present, which counts on the original run's bookmarks alone */
  g_test_add_func ("/ui/bookmarks/branch", test_bookmarks_branch);

  status = g_test_run ();
  fl_test_remove_data_home (data_home);
  return status;
}
