/* The store browser under a virtual X server, on a store the test prepares in a temporary
 * user data directory: a run of a built-in scenario recorded through the core (another
 * design switch, the random schedule and a seed of its own, so the window must take all
 * three from the store to replay it), and a .fault file imported through the browser. The
 * browser is opened through win.browse-store; search filters the scenarios, a scenario shows
 * its runs, opening the run replays it in the window with the recorded steps and hash,
 * export writes a .fault file that parses again, delete asks first, and a copy of the store
 * opened as another store is read-only with import and delete off. Any warning fails. */

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "fl-bookmarks.h"
#include "fl-scenario.h"
#include "fl-store-browser.h"
#include "fl-store-record.h"
#include "fl-store-rows.h"
#include "fl-scenario-about.h"
#include "ui-test-helpers.h"

#define RECORDED "spf-vs-munmap"
#define IMPORTED "bounce-copy"
#define SEED     7

typedef struct {
  char   *dir;            /* temporary files of the test */
  char   *fault_path;     /* IMPORTED.fault: a built-in scenario's text under another name */
  char   *broken_path;    /* a .fault file with an error on line 3 */
  char   *copy_path;      /* a copy of the prepared store: "a store from elsewhere" */
  gint64  run_id;
  char   *hash;
  guint64 steps;
} Fixture;

static Fixture fx;

/* The store as a user would have it after recording a run from the command line. */
static void
fl_prepare_store (void)
{
  g_autofree char *path = fl_store_default_path ();
  g_autoptr(GError) error = NULL;
  g_autoptr(FlScenario) scenario = fl_scenario_load_builtin (RECORDED, &error);
  g_autoptr(FlScenario) other = NULL;
  g_autoptr(FlStore) store = NULL;
  g_autoptr(FlSim) sim = NULL;
  g_autofree char *data = NULL;
  gsize length;
  FlConfig config;

  g_assert_no_error (error);
  config = scenario->config;
  g_assert_true (fl_config_set (&config, "rwsem", "xadd", &error));
  g_assert_no_error (error);
  sim = fl_sim_new (scenario, &config, SEED, &error);
  g_assert_no_error (error);
  fl_sim_set_policy (sim, FL_SCHED_RANDOM);
  fl_sim_run (sim, 0);
  g_assert_true (fl_sim_is_finished (sim));

  store = fl_store_open (path, FL_STORE_OPEN_CREATE, &error);
  g_assert_no_error (error);
  fx.run_id = fl_store_record_sim (store, sim, FALSE, &error);
  g_assert_no_error (error);
  g_assert_cmpint (fx.run_id, >, 0);
  fx.hash = fl_store_sim_hash_text (sim);
  fx.steps = fl_sim_get_step (sim);
  /* closing the only connection checkpoints the WAL: the file alone is the whole store */
  g_clear_pointer (&store, fl_store_close);
  g_assert_true (g_file_get_contents (path, &data, &length, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (fx.copy_path, data, (gssize) length, &error));
  g_assert_no_error (error);

  other = fl_scenario_load_builtin ("rwsem-generic-bounce", &error);
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (fx.fault_path, other->text, -1, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (fx.broken_path,
                                      "# a scenario with a mistake\n[scenario]\nno equals sign\n",
                                      -1, &error));
  g_assert_no_error (error);
}

static gboolean
fl_enabled (FlStoreBrowser *browser, const char *action)
{
  return g_action_group_get_action_enabled (fl_store_browser_get_actions (browser), action);
}

static void
fl_activate (FlStoreBrowser *browser, const char *action)
{
  g_assert_true (fl_enabled (browser, action));
  g_action_group_activate_action (fl_store_browser_get_actions (browser), action, NULL);
}

static guint
fl_n_items (GtkSelectionModel *model)
{
  return g_list_model_get_n_items (G_LIST_MODEL (model));
}

/* The search entry refreshes after its search delay: type, then wait for the list to follow. */
static void
fl_search (FlStoreBrowser *browser, const char *query, guint expected)
{
  GtkSelectionModel *scenarios = fl_store_browser_get_scenarios (browser);
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  gtk_editable_set_text (fl_store_browser_get_search (browser), query);
  while (fl_n_items (scenarios) != expected && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (fl_n_items (scenarios), ==, expected);
}

static guint
fl_find_scenario (FlStoreBrowser *browser, const char *name)
{
  GListModel *model = G_LIST_MODEL (fl_store_browser_get_scenarios (browser));

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(FlScenarioItem) item = g_list_model_get_item (model, i);
      if (g_strcmp0 (fl_scenario_item_get (item)->name, name) == 0)
        return i;
    }
  g_error ("no scenario %s in the browser", name);
  return 0;
}

static void
fl_select_scenario (FlStoreBrowser *browser, const char *name)
{
  guint position = fl_find_scenario (browser, name);

  g_assert_true (gtk_selection_model_select_item (fl_store_browser_get_scenarios (browser),
                                                  position, TRUE));
}

typedef struct {
  gboolean done;
  gint64   run_id;
  gboolean matches;
} FlChecked;

static void
fl_on_run_checked (FlStoreBrowser *browser, gint64 run_id, gboolean matches,
                   const char *message, FlChecked *checked)
{
  checked->done = TRUE;
  checked->run_id = run_id;
  checked->matches = matches;
}

static void
fl_check_import_and_search (FlStoreBrowser *browser)
{
  g_autoptr(GError) error = NULL;
  GtkSelectionModel *scenarios = fl_store_browser_get_scenarios (browser);
  g_autoptr(FlScenarioItem) selected = NULL;

  g_assert_cmpuint (fl_n_items (scenarios), ==, 1);
  g_assert_true (fl_enabled (browser, "import"));

  /* a file that does not parse: nothing is imported, the message names the file and line */
  g_assert_false (fl_store_browser_import_file (browser, fx.broken_path, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "broken.fault:3"));
  g_assert_nonnull (strstr (fl_store_browser_get_message (browser), "broken.fault:3"));
  g_clear_error (&error);
  g_assert_cmpuint (fl_n_items (scenarios), ==, 1);

  g_assert_true (fl_store_browser_import_file (browser, fx.fault_path, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (fl_n_items (scenarios), ==, 2);
  /* what was imported is selected */
  selected = g_object_ref (gtk_single_selection_get_selected_item (
    GTK_SINGLE_SELECTION (scenarios)));
  g_assert_cmpstr (fl_scenario_item_get (selected)->name, ==, IMPORTED);
  /* no runs yet: the run actions are off */
  g_assert_cmpuint (fl_n_items (fl_store_browser_get_runs (browser)), ==, 0);
  g_assert_false (fl_enabled (browser, "open-run"));

  fl_search (browser, "bounce-cop", 1);
  g_assert_cmpuint (fl_find_scenario (browser, IMPORTED), ==, 0);
  /* the text is searched too: only the recorded scenario unmaps */
  fl_search (browser, "munmap", 1);
  g_assert_cmpuint (fl_find_scenario (browser, RECORDED), ==, 0);
  fl_search (browser, "no-such-scenario-anywhere", 0);
  g_assert_false (fl_enabled (browser, "export"));
  fl_search (browser, "", 2);
}

static void
fl_check_open_run (FlStoreBrowser *browser, FlWindow *window)
{
  FlSession *session = fl_window_get_session (window);
  GtkSelectionModel *runs = fl_store_browser_get_runs (browser);
  FlChecked checked = { 0 };
  g_autoptr(FlRunItem) run = NULL;
  g_autofree char *hash = NULL;
  g_autofree char *rwsem = NULL;
  const FlRun *run_shown;
  gint64 deadline;
  gulong id;

  fl_select_scenario (browser, RECORDED);
  g_assert_cmpuint (fl_n_items (runs), ==, 1);
  run = g_list_model_get_item (G_LIST_MODEL (runs), 0);
  g_assert_cmpint (fl_run_item_get (run)->id, ==, fx.run_id);
  /* the row shows what the run changed from the scenario */
  g_assert_nonnull (strstr (fl_run_item_get_switches (run), "rwsem=xadd"));
  g_assert_nonnull (strstr (fl_run_item_get_switches (run), "schedule=random"));
  g_assert_false (fl_enabled (browser, "open-run"));
  g_assert_true (gtk_selection_model_select_item (runs, 0, TRUE));

  id = g_signal_connect (browser, "run-checked", G_CALLBACK (fl_on_run_checked), &checked);
  fl_activate (browser, "open-run");
  fl_test_wait_loaded (session);
  /* told when the load completes: a few iterations at most, a deadline all the same */
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (!checked.done && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  g_signal_handler_disconnect (browser, id);
  g_assert_true (checked.done);
  g_assert_cmpint (checked.run_id, ==, fx.run_id);
  g_assert_true (checked.matches);

  /* the window's run is the recorded one: seed, switches, steps and event stream */
  run_shown = fl_session_get_run (session);
  hash = fl_store_run_hash_text (run_shown);
  g_assert_cmpstr (hash, ==, fx.hash);
  g_assert_cmpuint (fl_run_get_total_steps (run_shown), ==, fx.steps);
  g_assert_cmpuint (fl_run_get_seed (run_shown), ==, SEED);
  g_assert_cmpint (fl_run_get_policy (run_shown), ==, FL_SCHED_RANDOM);
  rwsem = fl_session_get_switch (session, "rwsem");
  g_assert_cmpstr (rwsem, ==, "xadd");
  g_assert_cmpstr (fl_session_get_name (session), ==, RECORDED);
  /* so the window found the run in the store: its bookmarks are the run's */
  g_assert_cmpint (fl_bookmarks_get_run_id (fl_window_get_bookmarks (window)), ==, fx.run_id);
  g_assert_nonnull (strstr (fl_store_browser_get_message (browser), fx.hash));
  /* and the window says, for as long as it shows it, that this is a replay and of which run */
  g_autofree char *about = fl_scenario_about_get_text (fl_window_get_scenario_about (window));
  g_autofree char *replay = g_strdup_printf ("Replay of a recorded run: Run %" G_GINT64_FORMAT
                                             " replayed: identical to its recording", fx.run_id);
  g_assert_nonnull (about);
  g_assert_true (g_str_has_prefix (about, replay));
}

static void
fl_check_export_and_delete (FlStoreBrowser *browser, FlWindow *window)
{
  g_autofree char *out = g_build_filename (fx.dir, "exported.fault", NULL);
  g_autofree char *original = NULL;
  g_autofree char *written = NULL;
  g_autoptr(FlScenario) parsed = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *dialog;

  fl_select_scenario (browser, IMPORTED);
  g_assert_true (fl_enabled (browser, "export"));
  g_assert_true (fl_store_browser_export_file (browser, out, &error));
  g_assert_no_error (error);
  parsed = fl_scenario_load_file (out, &error);
  g_assert_no_error (error);
  g_assert_nonnull (parsed);
  g_assert_true (g_file_get_contents (fx.fault_path, &original, NULL, NULL));
  g_assert_true (g_file_get_contents (out, &written, NULL, NULL));
  g_assert_cmpstr (written, ==, original);

  /* deleting asks first; Cancel keeps the scenario */
  fl_activate (browser, "delete-scenario");
  dialog = fl_store_browser_get_confirmation (browser);
  g_assert_true (GTK_IS_DIALOG (dialog));
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  g_assert_null (fl_store_browser_get_confirmation (browser));
  g_assert_cmpuint (fl_n_items (fl_store_browser_get_scenarios (browser)), ==, 2);
  fl_activate (browser, "delete-scenario");
  dialog = fl_store_browser_get_confirmation (browser);
  g_assert_true (GTK_IS_DIALOG (dialog));
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
  g_assert_cmpuint (fl_n_items (fl_store_browser_get_scenarios (browser)), ==, 1);

  /* the run the window shows, with its bookmarks, is not deleted under its feet */
  fl_select_scenario (browser, RECORDED);
  g_assert_true (gtk_selection_model_select_item (fl_store_browser_get_runs (browser), 0, TRUE));
  fl_activate (browser, "delete-run");
  g_assert_null (fl_store_browser_get_confirmation (browser));
  g_assert_cmpuint (fl_n_items (fl_store_browser_get_runs (browser)), ==, 1);
  g_assert_cmpint (fl_bookmarks_get_run_id (fl_window_get_bookmarks (window)), ==, fx.run_id);
}

static void
fl_check_other_store (FlStoreBrowser *browser)
{
  g_autofree char *mine = fl_store_default_path ();
  g_autoptr(GError) error = NULL;
  GtkSelectionModel *runs = fl_store_browser_get_runs (browser);

  g_assert_true (fl_store_browser_open_store (browser, fx.copy_path, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (fl_store_browser_get_path (browser), ==, fx.copy_path);
  g_assert_true (fl_store_browser_is_read_only (browser));
  g_assert_nonnull (strstr (gtk_window_get_title (GTK_WINDOW (browser)), "copy.db"));
  g_assert_cmpuint (fl_n_items (fl_store_browser_get_scenarios (browser)), ==, 1);
  fl_select_scenario (browser, RECORDED);
  g_assert_true (gtk_selection_model_select_item (runs, 0, TRUE));
  g_assert_true (fl_enabled (browser, "open-run"));
  g_assert_true (fl_enabled (browser, "export"));
  g_assert_false (fl_enabled (browser, "import"));
  g_assert_false (fl_enabled (browser, "delete-scenario"));
  g_assert_false (fl_enabled (browser, "delete-run"));
  g_assert_true (fl_enabled (browser, "my-store"));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (browser));

  /* not a store: said so, naming the file; the store shown stays */
  g_assert_false (fl_store_browser_open_store (browser, fx.fault_path, &error));
  g_assert_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_A_STORE);
  g_assert_nonnull (strstr (fl_store_browser_get_message (browser), IMPORTED ".fault"));
  g_clear_error (&error);
  g_assert_cmpstr (fl_store_browser_get_path (browser), ==, fx.copy_path);

  fl_activate (browser, "my-store");
  g_assert_cmpstr (fl_store_browser_get_path (browser), ==, mine);
  g_assert_false (fl_store_browser_is_read_only (browser));
  g_assert_true (fl_enabled (browser, "import"));
  g_assert_false (fl_enabled (browser, "my-store"));
}

/* A bookmark added in the window records its run: the open browser lists it at once. */
static void
fl_check_follows_window (FlStoreBrowser *browser, FlWindow *window)
{
  FlSession *session = fl_window_get_session (window);
  g_autoptr(GError) error = NULL;
  GListModel *scenarios = G_LIST_MODEL (fl_store_browser_get_scenarios (browser));
  guint before = g_list_model_get_n_items (scenarios);

  fl_window_set_scenario (window, "cow-write-fault");
  fl_test_wait_loaded (session);
  fl_session_seek (session, 10);
  g_assert_true (fl_bookmarks_add (fl_window_get_bookmarks (window), "here", "", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (scenarios), ==, before + 1);
  fl_select_scenario (browser, "cow-write-fault");
  g_assert_cmpuint (fl_n_items (fl_store_browser_get_runs (browser)), ==, 1);
}

static void
fl_check_browser (GtkApplication *app, GtkWindow *window, gpointer data)
{
  FlStoreBrowser *browser;
  g_auto(GStrv) accels = gtk_application_get_accels_for_action (app, "win.browse-store");

  g_assert_cmpstr (accels[0], ==, "<Shift><Control>o");
  g_assert_null (fl_store_browser_find (FL_WINDOW (window)));
  g_action_group_activate_action (G_ACTION_GROUP (window), "browse-store", NULL);
  browser = fl_store_browser_find (FL_WINDOW (window));
  g_assert_nonnull (browser);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (browser)) == window);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (browser));
  g_assert_false (fl_store_browser_is_read_only (browser));

  fl_check_import_and_search (browser);
  fl_check_open_run (browser, FL_WINDOW (window));
  fl_check_export_and_delete (browser, FL_WINDOW (window));
  fl_check_other_store (browser);
  fl_check_follows_window (browser, FL_WINDOW (window));

  /* the action again shows the same browser */
  g_action_group_activate_action (G_ACTION_GROUP (window), "browse-store", NULL);
  g_assert_true (fl_store_browser_find (FL_WINDOW (window)) == browser);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (browser));
}

static void
test_store_browser (void)
{
  fl_test_run_application (fl_check_browser, NULL);
}

int
main (int argc, char *argv[])
{
  g_autofree char *data_home = NULL;
  int status;

  /* first: GTK must not look up the data folder before it is the test's own */
  data_home = fl_test_private_data_home ("store-browser");
  fl_test_init_window_test (&argc, &argv);
  fx.dir = g_build_filename (data_home, "files", NULL);
  g_assert_cmpint (g_mkdir_with_parents (fx.dir, 0700), ==, 0);
  fx.fault_path = g_build_filename (fx.dir, IMPORTED ".fault", NULL);
  fx.broken_path = g_build_filename (fx.dir, "broken.fault", NULL);
  fx.copy_path = g_build_filename (fx.dir, "copy.db", NULL);
  fl_prepare_store ();

  g_test_add_func ("/ui/store-browser/browse", test_store_browser);
  status = g_test_run ();

  /* everything the test made lives under data_home */
  {
    const char *in_files[] = { IMPORTED ".fault", "broken.fault", "exported.fault", "copy.db",
                               "copy.db-wal", "copy.db-shm" };

    for (guint i = 0; i < G_N_ELEMENTS (in_files); i++)
      {
        g_autofree char *file = g_build_filename (fx.dir, in_files[i], NULL);
        g_remove (file);
      }
    g_rmdir (fx.dir);
    fl_test_remove_data_home (data_home);
  }
  g_free (fx.dir);
  g_free (fx.fault_path);
  g_free (fx.broken_path);
  g_free (fx.copy_path);
  g_free (fx.hash);
  return status;
}
