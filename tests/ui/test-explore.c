/* The Explore action under a virtual X server: on spf-vs-munmap with vma-free=immediate the
 * dialog runs the explorer without blocking the window, lists the use-after-free with its
 * shortest schedule, Keep in Store records it as `explore --record` does, and Open loads that
 * schedule into the window at the finding; on the safe design it says no interleaving has a
 * finding. */

#include <gtk/gtk.h>
#include <string.h>

#include "ui-test-helpers.h"
#include "fl-explore.h"
#include "fl-paint.h"
#include "fl-store.h"

/* Transient for the window and titled "Explore …" (the shortcuts window is transient too). */
static gboolean
is_dialog_of (GtkWidget *widget, gconstpointer parent)
{
  if (!GTK_IS_WINDOW (widget) || gtk_window_get_transient_for (GTK_WINDOW (widget)) != parent)
    return FALSE;
  const char *title = gtk_window_get_title (GTK_WINDOW (widget));
  return title != NULL && g_str_has_prefix (title, "Explore ");
}

/* The explore dialog. */
static GtkWindow *
find_dialog (GtkWindow *window)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWidget) w = g_list_model_get_item (toplevels, i);
      if (is_dialog_of (w, window))
        return GTK_WINDOW (w);
    }
  return NULL;
}

static gboolean
is_button_labelled (GtkWidget *widget, gconstpointer label)
{
  return GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0;
}

static gboolean
is_label_containing (GtkWidget *widget, gconstpointer text)
{
  return GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), text) != NULL;
}

/* Iterates until the dialog's button says Close: the search is over. */
static void
wait_done (GtkWindow *dialog)
{
  gint64 until = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
  while (fl_test_find_widget (GTK_WIDGET (dialog), is_button_labelled, "_Close") == NULL)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, until);
      g_main_context_iteration (NULL, TRUE);
    }
}

/* Loads `scenario` (with `key`=`value` when not NULL) and opens the explore dialog on it. */
static GtkWindow *
open_explore (GtkWindow *window, const char *scenario, const char *key, const char *value)
{
  FlSession *session = fl_window_get_session (FL_WINDOW (window));
  fl_window_set_scenario (FL_WINDOW (window), scenario);
  fl_test_wait_loaded (session);
  if (key != NULL)
    {
      g_assert_true (fl_session_set_switch (session, key, value, NULL));
      fl_test_wait_loaded (session);
    }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.explore", NULL));
  GtkWindow *dialog = find_dialog (window);
  g_assert_nonnull (dialog);
  return dialog;
}

static void
check_found (GtkApplication *app, GtkWindow *window, gpointer data)
{
  FlSession *session = fl_window_get_session (FL_WINDOW (window));
  GtkWindow *dialog = open_explore (window, "spf-vs-munmap", "vma-free", "immediate");
  /* the window answers while the worker explores */
  g_assert_nonnull (fl_test_find_widget (GTK_WIDGET (dialog), is_button_labelled, "_Cancel"));
  fl_session_seek (session, 3);
  g_assert_cmpuint (fl_session_get_step (session), ==, 3);
  wait_done (dialog);
  g_assert_nonnull (fl_test_find_widget (GTK_WIDGET (dialog), is_label_containing,
                                         "use-after-free at step"));

  /* Keep in Store: the exploration and its counterexample's run in the window's store */
  GtkWidget *keep = fl_test_find_widget (GTK_WIDGET (dialog), is_button_labelled,
                                         "_Keep in Store");
  g_assert_nonnull (keep);
  g_assert_true (gtk_widget_get_visible (keep));
  g_signal_emit_by_name (keep, "clicked");
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (keep)), ==, "Kept as exploration 1");
  g_assert_false (gtk_widget_get_sensitive (keep));
  {
    g_autoptr (GError) error = NULL;
    g_autofree char *path = fl_store_default_path ();
    g_autoptr (FlStore) store = fl_store_open (path, FL_STORE_OPEN_READ_ONLY, &error);
    g_assert_no_error (error);
    g_autoptr (FlStoredExploration) e = fl_store_get_exploration (store, 1, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (e->scenario_name, ==, "spf-vs-munmap");
    g_assert_cmpstr (e->verdict, ==, "found");
    g_assert_nonnull (strstr (e->config, "vma-free=immediate"));
    g_autoptr (GPtrArray) runs = fl_store_list_runs (store, 0, &error);
    g_assert_cmpuint (runs->len, ==, 1);
    g_assert_cmpint (((FlStoredRun *) runs->pdata[0])->exploration_id, ==, 1);
  }

  GtkWidget *open = fl_test_find_widget (GTK_WIDGET (dialog), is_button_labelled, "_Open");
  g_assert_nonnull (open);
  g_signal_emit_by_name (open, "clicked");
  fl_test_wait_loaded (session);
  fl_test_settle ();
  g_assert_true (g_str_has_suffix (fl_session_get_name (session), "use-after-free"));
  /* at the step that found it: the finding is there, at this step */
  const GPtrArray *findings = fl_run_get_findings (fl_session_get_run (session));
  g_assert_cmpuint (findings->len, >, 0);
  const FlFinding *f = g_ptr_array_index (findings, 0);
  g_assert_cmpint (f->kind, ==, FL_FINDING_USE_AFTER_FREE);
  g_assert_cmpuint (fl_session_get_step (session), ==, f->step);
  gtk_window_destroy (dialog);
}

static void
check_safe (GtkApplication *app, GtkWindow *window, gpointer data)
{
  GtkWindow *dialog = open_explore (window, "spf-tlb-ipi", NULL, NULL);
  wait_done (dialog);
  g_assert_nonnull (fl_test_find_widget (GTK_WIDGET (dialog), is_label_containing,
                                         "No finding in any interleaving"));
  /* with the counts the explorer gives on the window's run, grouped as the window prints
   * them: its states and its distinct outcomes */
  const FlRun *run = fl_session_get_run (fl_window_get_session (FL_WINDOW (window)));
  FlExploreOptions options = { .preemptions = 2, .reduction = FL_EXPLORE_REDUCTION_STATES };
  g_autoptr (GError) error = NULL;
  FlExploreResult *r = fl_explore_run (fl_run_get_scenario (run), fl_run_get_config (run),
                                       &options, &error);
  g_assert_no_error (error);
  g_assert_cmpint (r->verdict, ==, FL_EXPLORE_COMPLETE);
  g_autofree char *states = fl_count_text (r->states), *outcomes = fl_count_text (r->outcomes);
  g_autofree char *counts = g_strdup_printf ("%s states", states);
  g_autofree char *distinct = g_strdup_printf ("%s distinct outcomes", outcomes);
  g_assert_nonnull (fl_test_find_widget (GTK_WIDGET (dialog), is_label_containing, counts));
  g_assert_nonnull (fl_test_find_widget (GTK_WIDGET (dialog), is_label_containing, distinct));
  fl_explore_result_free (r);
  g_assert_null (fl_test_find_widget (GTK_WIDGET (dialog), is_button_labelled, "_Open"));
  gtk_window_destroy (dialog);
}

/* Closing the dialog while it explores cancels the search; nothing is left running. */
static void
check_cancel (GtkApplication *app, GtkWindow *window, gpointer data)
{
  /* nothing to keep of a cancelled search */
  GtkWindow *dialog = open_explore (window, "spf-vs-munmap", NULL, NULL);
  GtkWidget *cancel = fl_test_find_widget (GTK_WIDGET (dialog), is_button_labelled, "_Cancel");
  g_signal_emit_by_name (cancel, "clicked");
  wait_done (dialog);
  g_assert_nonnull (fl_test_find_widget (GTK_WIDGET (dialog), is_label_containing,
                                         "Cancelled after"));
  g_assert_false (gtk_widget_get_visible (
    fl_test_find_widget (GTK_WIDGET (dialog), is_button_labelled, "_Keep in Store")));
  gtk_window_destroy (dialog);
}

static void
test_found (void)
{
  fl_test_run_application (check_found, NULL);
}

static void
test_safe (void)
{
  fl_test_run_application (check_safe, NULL);
}

static void
test_cancel (void)
{
  fl_test_run_application (check_cancel, NULL);
}

int
main (int argc, char *argv[])
{
  fl_test_init_window_test (&argc, &argv);
  g_autofree char *data_home = fl_test_private_data_home ("explore");
  g_test_add_func ("/ui/explore/found-and-open", test_found);
  g_test_add_func ("/ui/explore/safe", test_safe);
  g_test_add_func ("/ui/explore/cancel", test_cancel);
  int status = g_test_run ();
  fl_test_remove_data_home (data_home);
  return status;
}
