/* The corpus of hostile stores (tests/data/hostile) in the window: each opened in the store
 * browser as "a store from elsewhere" and, where it opens, its run opened in the window. A
 * refused store gives the browser's message with the case's own words; a stored text the
 * parser or the configuration check refuses gives "cannot be replayed" with them; nothing
 * crashes or hangs, no warning is printed, and the file is byte-identical afterwards. */

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "fl-scenario.h"
#include "fl-store-browser.h"
#include "fl-store-record.h"
#include "fl-store-rows.h"
#include "hostile-stores.h"
#include "ui-test-helpers.h"

static char *dir, *base_path;

static void
fl_make_base (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FlScenario) scenario = fl_scenario_load_builtin ("spf-vs-munmap", &error);
  g_autoptr(FlStore) store = NULL;
  g_autoptr(FlSim) sim = NULL;

  g_assert_no_error (error);
  sim = fl_sim_new (scenario, &scenario->config, scenario->seed, &error);
  g_assert_no_error (error);
  fl_sim_set_policy (sim, FL_SCHED_SCRIPT);
  fl_sim_run (sim, 0);
  store = fl_store_open (base_path, FL_STORE_OPEN_CREATE, &error);
  g_assert_no_error (error);
  g_assert_cmpint (fl_store_record_sim (store, sim, FALSE, &error), ==, 1);
  g_assert_no_error (error);
  g_clear_pointer (&store, fl_store_close);
  fl_hostile_prepare_base (base_path);
}

typedef struct {
  gboolean done;
} FlChecked;

static void
fl_on_run_checked (FlStoreBrowser *browser, gint64 run_id, gboolean matches,
                   const char *message, FlChecked *checked)
{
  checked->done = TRUE;
}

/* Opens the first run of the first scenario in the window, as a double click does. */
static void
fl_open_run (FlStoreBrowser *browser, FlWindow *window, const FlHostileCase *c)
{
  GActionGroup *actions = fl_store_browser_get_actions (browser);
  GtkSelectionModel *scenarios = fl_store_browser_get_scenarios (browser);
  GtkSelectionModel *runs = fl_store_browser_get_runs (browser);
  FlChecked checked = { 0 };
  gint64 deadline;
  gulong id;

  if (g_list_model_get_n_items (G_LIST_MODEL (scenarios)) == 0)
    return;
  g_assert_true (gtk_selection_model_select_item (scenarios, 0, TRUE));
  if (g_list_model_get_n_items (G_LIST_MODEL (runs)) == 0)
    return;
  g_assert_true (gtk_selection_model_select_item (runs, 0, TRUE));
  g_assert_true (g_action_group_get_action_enabled (actions, "open-run"));

  id = g_signal_connect (browser, "run-checked", G_CALLBACK (fl_on_run_checked), &checked);
  g_action_group_activate_action (actions, "open-run", NULL);
  if (c->kind == FL_HOSTILE_REPLAY)
    {
      /* refused before anything is simulated, with the parser's or the check's words */
      const char *message = fl_store_browser_get_message (browser);
      g_assert_nonnull (message);
      g_assert_nonnull (strstr (message, "cannot be replayed"));
      if (strstr (message, c->expect) == NULL)
        g_error ("%s: '%s' does not say '%s'", c->name, message, c->expect);
    }
  else
    {
      fl_test_wait_loaded (fl_window_get_session (window));
      deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
      while (!checked.done && g_get_monotonic_time () < deadline)
        g_main_context_iteration (NULL, FALSE);
      g_assert_true (checked.done);
    }
  g_signal_handler_disconnect (browser, id);
}

static void
fl_check_case (FlStoreBrowser *browser, FlWindow *window, const FlHostileCase *c)
{
  g_autofree char *path = fl_hostile_new_store (c, base_path, dir);
  g_autofree char *before = fl_hostile_digest (path);
  g_autofree char *after = NULL;
  g_autoptr(GError) error = NULL;
  gboolean opened;
  const char *message;

  g_test_message ("%s", c->name);
  opened = fl_store_browser_open_store (browser, path, &error);
  /* NULL until the browser has shown a message */
  message = fl_store_browser_get_message (browser);
  message = message ? message : "";
  if (fl_hostile_is_refused (c))
    {
      g_assert_false (opened);
      g_assert_nonnull (error);
      g_assert_nonnull (strstr (message, "cannot be shown"));
      if (strstr (message, c->expect) == NULL)
        g_error ("%s: '%s' does not say '%s'", c->name, message, c->expect);
    }
  else
    {
      g_assert_no_error (error);
      g_assert_true (opened);
      g_assert_true (fl_store_browser_is_read_only (browser));
      if (c->kind == FL_HOSTILE_NEWER)
        g_assert_nonnull (strstr (message, "written by a newer version of Faultline"));
      /* a bad value the browser reads (a scenario's or a run's) is named in its message */
      if (strstr (message, "never writes") != NULL || strstr (message, "ever writes") != NULL)
        g_assert_nonnull (strstr (message, c->expect));
      /* the 16 TiB VMA too: the state grows with what the run touches, not with the map */
      fl_open_run (browser, window, c);
    }
  /* drawn as the user sees it: a long message must not break the layout */
  gtk_test_widget_wait_for_draw (GTK_WIDGET (browser));
  after = fl_hostile_digest (path);
  g_assert_cmpstr (before, ==, after);
}

static void
fl_check_corpus (GtkApplication *app, GtkWindow *window, gpointer data)
{
  GPtrArray *cases = data;
  FlStoreBrowser *browser;

  g_action_group_activate_action (G_ACTION_GROUP (window), "browse-store", NULL);
  browser = fl_store_browser_find (FL_WINDOW (window));
  g_assert_nonnull (browser);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (browser));
  for (guint i = 0; i < cases->len; i++)
    fl_check_case (browser, FL_WINDOW (window), cases->pdata[i]);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (browser));
}

static void
test_corpus (void)
{
  g_autoptr(GPtrArray) cases = fl_hostile_cases (base_path);

  fl_test_run_application (fl_check_corpus, cases);
}

int
main (int argc, char *argv[])
{
  g_autofree char *data_home = NULL;
  int status;

  /* first: GTK must not look up the data folder before it is the test's own */
  data_home = fl_test_private_data_home ("store-hostile");
  fl_test_init_window_test (&argc, &argv);
  dir = g_build_filename (data_home, "hostile", NULL);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  base_path = g_build_filename (dir, "base.db", NULL);
  fl_make_base ();

  g_test_add_func ("/ui/store-browser/hostile-stores", test_corpus);
  status = g_test_run ();

  {
    g_autoptr(GDir) files = g_dir_open (dir, 0, NULL);

    for (const char *name; files != NULL && (name = g_dir_read_name (files)) != NULL;)
      {
        g_autofree char *file = g_build_filename (dir, name, NULL);
        g_remove (file);
      }
    g_rmdir (dir);
    fl_test_remove_data_home (data_home);
  }
  g_free (base_path);
  g_free (dir);
  return status;
}
