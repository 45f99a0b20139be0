/* The header bar's controls against a real session: the scenario button lists every built-in
 * and loads the one chosen; the design switches re-run the session with the value chosen
 * through the widget, show errors inline, reset, and follow reloads without starting runs of
 * their own; the export helper the dialog uses writes what fl_export_view() writes and names
 * the file in its errors. */

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "fl-config.h"
#include "fl-export-dialog.h"
#include "fl-file-chooser.h"
#include "fl-scenario-button.h"
#include "fl-scenario.h"
#include "fl-session.h"
#include "fl-switches-button.h"
#include "ui-test-helpers.h"

#define FL_TEST_SCENARIO "spf-vs-munmap"
#define FL_LOAD_TIMEOUT_S 60

/* ---- waiting for the session ---- */

typedef struct {
  guint    loads;        /* how often "loading" went TRUE */
  guint    failures;
  gboolean was_loading;
} FlLoadLog;

static void
fl_load_log_notify (FlSession *session, GParamSpec *pspec, FlLoadLog *log)
{
  gboolean loading = fl_session_is_loading (session);

  if (loading && !log->was_loading)
    log->loads++;
  log->was_loading = loading;
}

static void
fl_load_log_failed (FlSession *session, GError *error, FlLoadLog *log)
{
  g_test_message ("load failed: %s", error->message);
  log->failures++;
}

static gboolean
fl_flag_set (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Iterates the main context until the worker's run has arrived; a hang fails the test. */
static void
fl_wait_loaded (FlSession *session)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add_seconds (FL_LOAD_TIMEOUT_S, fl_flag_set, &timed_out);

  while (fl_session_is_loading (session) && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (timed_out);
  g_source_remove (id);
}

static FlSession *
fl_session_new_loaded (const char *scenario, FlLoadLog *log)
{
  FlSession *session = fl_session_new ();

  g_signal_connect (session, "notify::loading", G_CALLBACK (fl_load_log_notify), log);
  g_signal_connect (session, "load-failed", G_CALLBACK (fl_load_log_failed), log);
  fl_session_load (session, scenario);
  g_assert_true (fl_session_is_loading (session));
  fl_wait_loaded (session);
  g_assert_cmpuint (log->failures, ==, 0);
  g_assert_nonnull (fl_session_get_run (session));
  return session;
}

/* ---- finding what a user sees ---- */

static GtkPopover *
fl_menu_popover (GtkWidget *control)
{
  GtkWidget *button = gtk_widget_get_first_child (control);

  g_assert_true (GTK_IS_MENU_BUTTON (button));
  return GTK_POPOVER (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button)));
}

static gboolean
fl_is_label_with_text (GtkWidget *widget, gconstpointer text)
{
  return GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0;
}

static gboolean
fl_is_list_box (GtkWidget *widget, gconstpointer data)
{
  return GTK_IS_LIST_BOX (widget);
}

/* Each switch's control carries its configuration key in its tooltip: "key=value: what it
 * means". */
static gboolean
fl_is_control_for_key (GtkWidget *widget, gconstpointer key)
{
  const char *tip = gtk_widget_get_tooltip_text (widget);
  gsize n = strlen (key);
  return (GTK_IS_DROP_DOWN (widget) || GTK_IS_SWITCH (widget) || GTK_IS_SPIN_BUTTON (widget))
         && tip != NULL && strncmp (tip, key, n) == 0 && (tip[n] == '\0' || tip[n] == '=');
}

static gboolean
fl_is_button_labelled (GtkWidget *widget, gconstpointer label)
{
  return GTK_IS_BUTTON (widget) && !GTK_IS_TOGGLE_BUTTON (widget)
         && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0;
}

static gboolean
fl_is_error_label (GtkWidget *widget, gconstpointer data)
{
  return GTK_IS_LABEL (widget) && gtk_widget_has_css_class (widget, "error");
}

static GtkWidget *
fl_switch_control (GtkWidget *switches, const char *key)
{
  GtkWidget *control = fl_test_find_widget (GTK_WIDGET (fl_menu_popover (switches)),
                                       fl_is_control_for_key, key);

  g_assert_nonnull (control);
  return control;
}

static char *
fl_control_value (GtkWidget *control)
{
  if (GTK_IS_SWITCH (control))
    return g_strdup (gtk_switch_get_active (GTK_SWITCH (control)) ? "on" : "off");
  if (GTK_IS_SPIN_BUTTON (control))
    return g_strdup_printf ("%d", gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (control)));
  return g_strdup (gtk_string_object_get_string (
    GTK_STRING_OBJECT (gtk_drop_down_get_selected_item (GTK_DROP_DOWN (control)))));
}

/* Picks @value in a drop-down the way a click on its item does. */
static void
fl_drop_down_choose (GtkWidget *control, const char *value)
{
  GListModel *model = gtk_drop_down_get_model (GTK_DROP_DOWN (control));

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GtkStringObject) item = g_list_model_get_item (model, i);
      if (g_strcmp0 (gtk_string_object_get_string (item), value) == 0)
        {
          gtk_drop_down_set_selected (GTK_DROP_DOWN (control), i);
          return;
        }
    }
  g_assert_not_reached ();
}

/* Widgets live in a window in the app: popovers look up their root when they close. */
static GtkWidget *
fl_in_window (GtkWidget *widget)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_child (GTK_WINDOW (window), widget);
  return window;
}

/* ---- scenario button ---- */

static void
test_scenario_button_lists_builtins (void)
{
  FlLoadLog log = { 0 };
  g_autoptr(FlSession) session = fl_session_new_loaded (FL_TEST_SCENARIO, &log);
  GtkWidget *button = fl_scenario_button_new (session);
  GtkWidget *window = fl_in_window (button);
  GtkWidget *menu_button = gtk_widget_get_first_child (button);
  GtkWidget *list = fl_test_find_widget (GTK_WIDGET (fl_menu_popover (button)), fl_is_list_box, NULL);
  g_auto(GStrv) ids = fl_scenario_builtin_ids ();
  guint n_rows = 0;

  g_assert_nonnull (fl_test_find_widget (menu_button, fl_is_label_with_text, FL_TEST_SCENARIO));
  g_assert_nonnull (list);
  g_assert_cmpuint (g_strv_length (ids), >, 0);

  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    n_rows++;
  g_assert_cmpuint (n_rows, ==, g_strv_length (ids));

  for (guint i = 0; ids[i] != NULL; i++)
    {
      g_autoptr(FlScenario) scenario = fl_scenario_load_builtin (ids[i], NULL);
      GtkListBoxRow *row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (list), (int) i);

      /* Sorted like the ids, each row naming its id and its title. */
      g_assert_nonnull (scenario);
      g_assert_nonnull (fl_test_find_widget (GTK_WIDGET (row), fl_is_label_with_text, ids[i]));
      g_assert_nonnull (fl_test_find_widget (GTK_WIDGET (row), fl_is_label_with_text,
                                        scenario->title));
      g_assert_nonnull (gtk_widget_get_tooltip_text (GTK_WIDGET (row)));
    }

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_scenario_button_loads_choice (void)
{
  FlLoadLog log = { 0 };
  g_autoptr(FlSession) session = fl_session_new_loaded (FL_TEST_SCENARIO, &log);
  GtkWidget *button = fl_scenario_button_new (session);
  GtkWidget *window = fl_in_window (button);
  GtkWidget *menu_button = gtk_widget_get_first_child (button);
  GtkWidget *list = fl_test_find_widget (GTK_WIDGET (fl_menu_popover (button)), fl_is_list_box, NULL);
  g_auto(GStrv) ids = fl_scenario_builtin_ids ();
  const char *other = g_strcmp0 (ids[0], FL_TEST_SCENARIO) != 0 ? ids[0] : ids[1];
  guint index = g_strcmp0 (ids[0], FL_TEST_SCENARIO) != 0 ? 0 : 1;
  GtkListBoxRow *row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (list), (int) index);

  g_signal_emit_by_name (row, "activate");
  g_assert_true (fl_session_is_loading (session));
  fl_wait_loaded (session);

  g_assert_cmpuint (log.failures, ==, 0);
  g_assert_cmpstr (fl_session_get_scenario (session), ==, other);
  g_assert_nonnull (fl_test_find_widget (menu_button, fl_is_label_with_text, other));
  g_assert_true (g_str_has_prefix (gtk_widget_get_tooltip_text (menu_button),
                                   fl_session_get_title (session)));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* ---- design switches ---- */

typedef struct {
  const char *key;
  const char *value;
} FlSwitchChoice;

static void
test_switches_set_through_widget (void)
{
  FlLoadLog log = { 0 };
  g_autoptr(FlSession) session = fl_session_new_loaded (FL_TEST_SCENARIO, &log);
  GtkWidget *switches = fl_switches_button_new (session);
  GtkWidget *window = fl_in_window (switches);
  const char *keys[] = { "fault-path", "rwsem", "vma-free", "spf-seqcheck", "spf-mmap-cache",
                         "spf-find-vma", "spf-access-check", "mprotect-seqcount", "rcu",
                         "pte-map-lock", "pin-page-tables", "rss", "cpus", "sockets",
                         "cores-per-socket" };

  /* Every design switch has its control, showing the run's value; calibration does not. */
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      g_autofree char *expected = fl_session_get_switch (session, keys[i]);
      g_autofree char *shown = fl_control_value (fl_switch_control (switches, keys[i]));

      g_assert_cmpstr (shown, ==, expected);
    }
  g_assert_null (fl_test_find_widget (GTK_WIDGET (fl_menu_popover (switches)),
                                 fl_is_control_for_key, "cost.dram"));
  /* each says what it decides, and its control what the value shown means */
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      const char *about = fl_config_key_about (keys[i]);
      g_autofree char *value = fl_session_get_switch (session, keys[i]);
      const char *value_about = fl_config_value_about (keys[i], value);
      g_autofree char *tip = value_about ? g_strdup_printf ("%s=%s: %s", keys[i], value, value_about)
                                         : g_strdup_printf ("%s=%s", keys[i], value);
      const char *shown_tip = gtk_widget_get_tooltip_text (fl_switch_control (switches,
                                                                                   keys[i]));
      g_assert_nonnull (about);
      g_assert_nonnull (fl_test_find_widget (GTK_WIDGET (fl_menu_popover (switches)),
                                             fl_is_label_with_text, about));
      g_assert_cmpstr (shown_tip, ==, tip);
    }
  g_assert_nonnull (fl_test_find_widget (GTK_WIDGET (fl_menu_popover (switches)),
                                         fl_is_label_with_text, "How mmap_sem is built"));

  {
    g_autofree char *before = fl_session_get_switch (session, "fault-path");
    const char *chosen = g_strcmp0 (before, "locked") == 0 ? "speculative" : "locked";
    guint loads = log.loads;
    g_autofree char *after = NULL;

    fl_drop_down_choose (fl_switch_control (switches, "fault-path"), chosen);
    g_assert_true (fl_session_is_loading (session));
    fl_wait_loaded (session);
    after = fl_session_get_switch (session, "fault-path");
    g_assert_cmpstr (after, ==, chosen);
    fl_test_settle ();
    /* One choice, one run: updating the controls from the new run starts none. */
    g_assert_cmpuint (log.loads, ==, loads + 1);
  }

  {
    GtkWidget *control = fl_switch_control (switches, "spf-seqcheck");
    gboolean active = gtk_switch_get_active (GTK_SWITCH (control));
    g_autofree char *after = NULL;

    gtk_switch_set_active (GTK_SWITCH (control), !active);
    fl_wait_loaded (session);
    after = fl_session_get_switch (session, "spf-seqcheck");
    g_assert_cmpstr (after, ==, active ? "off" : "on");
  }

  {
    GtkWidget *control = fl_switch_control (switches, "cpus");
    g_autofree char *after = NULL;

    gtk_spin_button_set_value (GTK_SPIN_BUTTON (control), 4);
    fl_wait_loaded (session);
    after = fl_session_get_switch (session, "cpus");
    g_assert_cmpstr (after, ==, "4");
    g_assert_cmpuint (fl_session_get_n_cpus (session), ==, 4);
  }

  g_assert_cmpuint (log.failures, ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The spf preset sets every repair of v2 in the run, and a repair set afterwards wins over it,
 * as in a scenario file; the controls show each switch as the run has it. */
static void
test_switches_preset (void)
{
  FlLoadLog log = { 0 };
  g_autoptr(FlSession) session = fl_session_new_loaded (FL_TEST_SCENARIO, &log);
  GtkWidget *switches = fl_switches_button_new (session);
  GtkWidget *window = fl_in_window (switches);
  g_autoptr(GError) error = NULL;

  g_assert_false (fl_session_set_switch (session, "spf", "v3", &error));
  g_assert_error (error, FL_CONFIG_ERROR, FL_CONFIG_ERROR_BAD_VALUE);
  g_assert_true (fl_session_set_switch (session, "spf", "v2-as-posted", NULL));
  fl_wait_loaded (session);
  {
    g_autofree char *preset = fl_session_get_switch (session, "spf");
    g_autofree char *order = fl_session_get_switch (session, "spf-find-vma");
    g_autofree char *shown = fl_control_value (fl_switch_control (switches, "spf-find-vma"));
    g_assert_cmpstr (preset, ==, "v2-as-posted");
    g_assert_cmpstr (order, ==, "under-pte-lock");
    g_assert_cmpstr (shown, ==, "under-pte-lock");
  }
  g_assert_true (fl_session_set_switch (session, "spf-access-check", "on", NULL));
  fl_wait_loaded (session);
  {
    g_autofree char *preset = fl_session_get_switch (session, "spf");
    g_autofree char *check = fl_session_get_switch (session, "spf-access-check");
    g_assert_cmpstr (preset, ==, "mixed");
    g_assert_cmpstr (check, ==, "on");
  }

  /* The machine is a preset too: its costs and, for a named box, its topology. */
  g_assert_true (fl_session_set_switch (session, "machine", "nehalem-ep", NULL));
  fl_wait_loaded (session);
  {
    g_autofree char *machine = fl_session_get_switch (session, "machine");
    g_autofree char *mhz = fl_session_get_switch (session, "cost.mhz");
    g_autofree char *shown = fl_control_value (fl_switch_control (switches, "machine"));
    g_assert_cmpstr (machine, ==, "nehalem-ep");
    g_assert_cmpstr (mhz, ==, "2930");
    g_assert_cmpstr (shown, ==, "nehalem-ep");
  }
  /* back to the default machine: its costs and its one zone */
  g_assert_true (fl_session_set_switch (session, "machine", "westmere-ex", NULL));
  fl_wait_loaded (session);
  {
    g_autofree char *numa = fl_session_get_switch (session, "numa");
    g_autofree char *llc = fl_session_get_switch (session, "cost.llc");
    g_assert_cmpstr (numa, ==, "off");
    g_assert_cmpstr (llc, ==, "44");
  }
  g_assert_cmpuint (log.failures, ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_switches_error_inline (void)
{
  FlLoadLog log = { 0 };
  g_autoptr(FlSession) session = fl_session_new_loaded (FL_TEST_SCENARIO, &log);
  GtkWidget *switches = fl_switches_button_new (session);
  GtkWidget *window = fl_in_window (switches);
  GtkWidget *error_label = fl_test_find_widget (GTK_WIDGET (fl_menu_popover (switches)),
                                           fl_is_error_label, NULL);
  GtkWidget *cpus = fl_switch_control (switches, "cpus");
  /* A topology nobody set follows the CPUs; one that was set holds them or refuses them. */
  g_assert_true (fl_session_set_switch (session, "sockets", "1", NULL));
  g_assert_true (fl_session_set_switch (session, "cores-per-socket", "2", NULL));
  fl_wait_loaded (session);
  g_autofree char *before = fl_session_get_switch (session, "cpus");
  g_autofree char *shown = NULL;
  g_autofree char *too_many = NULL;
  guint loads = log.loads;
  int limit = 1 * 2;

  g_assert_nonnull (error_label);
  g_assert_false (gtk_widget_get_visible (error_label));

  /* More CPUs than sockets × cores: refused before any run, said in the popover. */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (cpus), limit + 1);
  too_many = g_strdup_printf ("%d", limit + 1);
  g_assert_false (fl_session_is_loading (session));
  g_assert_cmpuint (log.loads, ==, loads);
  g_assert_true (gtk_widget_get_visible (error_label));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (error_label)), "cpus"));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (error_label)), too_many));
  g_assert_true (gtk_label_get_single_line_mode (GTK_LABEL (error_label)));

  /* The control goes back to the run on screen, which did not change. */
  shown = fl_control_value (cpus);
  g_assert_cmpstr (shown, ==, before);
  fl_test_settle ();
  g_assert_cmpuint (log.loads, ==, loads);

  /* A good value clears the error. */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (cpus), 1);
  g_assert_false (gtk_widget_get_visible (error_label));
  fl_wait_loaded (session);

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_switches_reset_and_follow (void)
{
  FlLoadLog log = { 0 };
  g_autoptr(FlSession) session = fl_session_new_loaded (FL_TEST_SCENARIO, &log);
  GtkWidget *switches = fl_switches_button_new (session);
  GtkWidget *window = fl_in_window (switches);
  GtkWidget *reset = fl_test_find_widget (GTK_WIDGET (fl_menu_popover (switches)),
                                     fl_is_button_labelled, "_Reset to the Scenario’s Values");
  GtkWidget *vma_free = fl_switch_control (switches, "vma-free");
  GtkWidget *rwsem = fl_switch_control (switches, "rwsem");
  g_autofree char *vma_free_own = fl_session_get_switch (session, "vma-free");
  g_autofree char *rwsem_own = fl_session_get_switch (session, "rwsem");
  const char *vma_free_other = g_strcmp0 (vma_free_own, "rcu") == 0 ? "immediate" : "rcu";
  const char *rwsem_other = g_strcmp0 (rwsem_own, "xadd") == 0 ? "generic" : "xadd";
  g_autofree char *value = NULL;
  g_autofree char *shown = NULL;
  guint loads;

  g_assert_nonnull (reset);

  fl_drop_down_choose (vma_free, vma_free_other);
  fl_wait_loaded (session);
  fl_drop_down_choose (rwsem, rwsem_other);
  fl_wait_loaded (session);
  value = fl_session_get_switch (session, "rwsem");
  g_assert_cmpstr (value, ==, rwsem_other);
  g_clear_pointer (&value, g_free);

  loads = log.loads;
  g_signal_emit_by_name (reset, "clicked");
  g_assert_true (fl_session_is_loading (session));
  fl_wait_loaded (session);
  fl_test_settle ();
  g_assert_cmpuint (log.loads, ==, loads + 1);

  value = fl_session_get_switch (session, "vma-free");
  g_assert_cmpstr (value, ==, vma_free_own);
  g_clear_pointer (&value, g_free);
  value = fl_session_get_switch (session, "rwsem");
  g_assert_cmpstr (value, ==, rwsem_own);
  shown = fl_control_value (vma_free);
  g_assert_cmpstr (shown, ==, vma_free_own);
  g_clear_pointer (&shown, g_free);
  shown = fl_control_value (rwsem);
  g_assert_cmpstr (shown, ==, rwsem_own);
  g_clear_pointer (&shown, g_free);

  /* Another scenario, another configuration: the controls follow the session. */
  fl_session_load (session, "locked-anon-fault");
  fl_wait_loaded (session);
  g_assert_cmpuint (log.failures, ==, 0);
  {
    const char *keys[] = { "fault-path", "cpus", "rwsem", "spf-seqcheck" };

    for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
      {
        g_autofree char *expected = fl_session_get_switch (session, keys[i]);
        g_autofree char *now = fl_control_value (fl_switch_control (switches, keys[i]));
        g_assert_cmpstr (now, ==, expected);
      }
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The widgets in a window, their popovers open: they lay out and draw without a warning. */
static void
test_controls_draw (void)
{
  FlLoadLog log = { 0 };
  g_autoptr(FlSession) session = fl_session_new_loaded (FL_TEST_SCENARIO, &log);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *scenarios = fl_scenario_button_new (session);
  GtkWidget *switches = fl_switches_button_new (session);

  gtk_box_append (GTK_BOX (box), scenarios);
  gtk_box_append (GTK_BOX (box), switches);
  gtk_window_set_child (GTK_WINDOW (window), box);
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 600);
  gtk_window_present (GTK_WINDOW (window));
  gtk_test_widget_wait_for_draw (window);

  g_assert_true (gtk_widget_get_sensitive (gtk_widget_get_first_child (switches)));
  for (guint i = 0; i < 2; i++)
    {
      GtkWidget *control = i == 0 ? scenarios : switches;
      GtkMenuButton *button = GTK_MENU_BUTTON (gtk_widget_get_first_child (control));
      GtkPopover *popover = fl_menu_popover (control);

      gtk_menu_button_popup (button);
      gtk_test_widget_wait_for_draw (GTK_WIDGET (popover));
      g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (popover)));
      gtk_menu_button_popdown (button);
    }

  gtk_window_destroy (GTK_WINDOW (window));
}

/* ---- export ---- */

static GBytes *
fl_read_bytes (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *contents = NULL;
  gsize length = 0;

  g_file_get_contents (path, &contents, &length, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (contents, length);
}

static void
test_export_matches_painters (void)
{
  FlLoadLog log = { 0 };
  g_autoptr(FlSession) session = fl_session_new_loaded (FL_TEST_SCENARIO, &log);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("faultline-export-XXXXXX", &error);
  static const struct { const char *format; const char *magic; } formats[] = {
    { "png", "\x89PNG\r\n" },
    { "svg", "<?xml" },
    { "pdf", "%PDF-" },
  };
  const FlView views[] = { FL_VIEW_LANES, FL_VIEW_ALL };
  FlViewport viewport = { .width = 900, .height = 540, .font_scale = 1.0 };
  FlPalette palette;
  guint64 step;

  g_assert_no_error (error);
  fl_palette_init_light (&palette);

  /* Somewhere inside the run, so the views have something to show. */
  step = fl_session_get_total_steps (session) / 2;
  fl_session_seek (session, step);
  g_assert_cmpuint (fl_session_get_step (session), ==, step);

  for (guint v = 0; v < G_N_ELEMENTS (views); v++)
    for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
      {
        g_autofree char *name = fl_export_dialog_default_name (session, views[v],
                                                               formats[f].format);
        g_autofree char *expected_name = g_strdup_printf ("%s-step-%" G_GUINT64_FORMAT "-%s.%s",
                                                          FL_TEST_SCENARIO, step,
                                                          views[v] == FL_VIEW_ALL ? "all"
                                                                                  : "lanes",
                                                          formats[f].format);
        g_autofree char *path = g_build_filename (dir, name, NULL);
        g_autofree char *reference = g_strdup_printf ("%s/reference.%s", dir, formats[f].format);
        g_autoptr(GBytes) written = NULL;
        g_autoptr(GBytes) expected = NULL;

        g_assert_cmpstr (name, ==, expected_name);
        g_assert_true (fl_export_dialog_export_to (session, views[v], &viewport, &palette,
                                                   path, &error));
        g_assert_no_error (error);
        g_assert_true (fl_export_view (views[v], fl_session_get_cursor (session), &viewport,
                                       &palette, formats[f].format, reference, &error));
        g_assert_no_error (error);

        written = fl_read_bytes (path);
        expected = fl_read_bytes (reference);
        g_assert_cmpuint (g_bytes_get_size (written), >, strlen (formats[f].magic));
        g_assert_cmpmem (g_bytes_get_data (written, NULL), strlen (formats[f].magic),
                         formats[f].magic, strlen (formats[f].magic));
        g_assert_true (g_bytes_equal (written, expected));

        g_assert_cmpint (g_remove (path), ==, 0);
        g_assert_cmpint (g_remove (reference), ==, 0);
      }

  {
    /* The extension decides the format, whatever its case. */
    g_autofree char *upper = g_build_filename (dir, "figure.PNG", NULL);
    g_autoptr(GBytes) written = NULL;

    g_assert_true (fl_export_dialog_export_to (session, FL_VIEW_VMA, &viewport, &palette,
                                               upper, &error));
    g_assert_no_error (error);
    written = fl_read_bytes (upper);
    g_assert_cmpmem (g_bytes_get_data (written, NULL), 4, "\x89PNG", 4);
    g_assert_cmpint (g_remove (upper), ==, 0);
  }

  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static void
test_export_errors_name_the_file (void)
{
  FlLoadLog log = { 0 };
  g_autoptr(FlSession) session = fl_session_new_loaded (FL_TEST_SCENARIO, &log);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("faultline-export-XXXXXX", &error);
  g_autofree char *missing = g_build_filename (dir, "no-such-folder", "lanes.png", NULL);
  g_autofree char *unknown = g_build_filename (dir, "lanes.jpeg", NULL);
  g_autofree char *huge = g_build_filename (dir, "huge.png", NULL);
  FlViewport viewport = { .width = 640, .height = 360, .font_scale = 1.0 };
  FlViewport too_big = { .width = 40000, .height = 360, .font_scale = 1.0 };
  FlPalette palette;

  g_assert_no_error (error);
  fl_palette_init_dark (&palette);

  g_assert_false (fl_export_dialog_export_to (session, FL_VIEW_LANES, &viewport, &palette,
                                              missing, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, missing));
  g_assert_false (g_file_test (missing, G_FILE_TEST_EXISTS));
  g_clear_error (&error);

  g_assert_false (fl_export_dialog_export_to (session, FL_VIEW_LANES, &viewport, &palette,
                                              unknown, &error));
  g_assert_error (error, FL_EXPORT_ERROR, FL_EXPORT_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, unknown));
  g_clear_error (&error);

  /* An error of the painters' own (the size) is still about a file: it says which. */
  g_assert_false (fl_export_dialog_export_to (session, FL_VIEW_LANES, &too_big, &palette,
                                              huge, &error));
  g_assert_error (error, FL_EXPORT_ERROR, FL_EXPORT_ERROR_SIZE);
  g_assert_nonnull (strstr (error->message, huge));
  g_clear_error (&error);

  /* While a run is being simulated there is nothing to draw. */
  fl_session_load (session, FL_TEST_SCENARIO);
  g_assert_false (fl_export_dialog_export_to (session, FL_VIEW_LANES, &viewport, &palette,
                                              huge, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, huge));
  g_clear_error (&error);
  fl_wait_loaded (session);

  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* ---- the export dialog, driven through GTK's own chooser ---- */

/* Iterates the main context until a toplevel of @type shows up (NULL after a while). */
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
          if (G_TYPE_CHECK_INSTANCE_TYPE (window, type) && gtk_widget_get_visible (GTK_WIDGET (window)))
            return window;
        }
      g_main_context_iteration (NULL, FALSE);
    }
  return NULL;
}

static void
fl_wait_file (const char *path)
{
  gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (!g_file_test (path, G_FILE_TEST_EXISTS) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
}

/* Picks the item labelled @label in whichever drop-down of @root offers it: the chooser
 * shows its choices as drop-downs. */
static gboolean
fl_pick_item (GtkWidget *root, const char *label)
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
              gtk_drop_down_set_selected (GTK_DROP_DOWN (root), i);
              return TRUE;
            }
        }
    }
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (fl_pick_item (child, label))
      return TRUE;
  return FALSE;
}

/* Presents the export dialog and returns GTK's chooser dialog, or NULL when the platform's
 * own chooser (a portal) is in use, which a test cannot answer. */
static GtkFileChooser *
fl_present_export (GtkWindow *parent, FlSession *session, const FlViewport *viewport,
                   const char *folder)
{
  GtkWindow *dialog;
  g_autoptr(GFile) dir = g_file_new_for_path (folder);

  fl_export_dialog_present (parent, session, FL_VIEW_LANES, viewport);
  dialog = fl_wait_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG);
  if (dialog == NULL)
    return NULL;
  /* The chooser sets itself up asynchronously (its folder, its list): let it finish before
   * it is told where to save, and again before a name is typed. */
  fl_test_settle ();
  g_assert_true (gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), dir, NULL));
  fl_test_settle ();
  return GTK_FILE_CHOOSER (dialog);
}

static GBytes *
fl_painted (FlSession *session, const FlViewport *viewport, gboolean dark, const char *format,
            const char *folder)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_strdup_printf ("%s/reference.%s", folder, format);
  FlPalette palette;
  GBytes *bytes;

  if (dark)
    fl_palette_init_dark (&palette);
  else
    fl_palette_init_light (&palette);
  g_assert_true (fl_export_view (FL_VIEW_LANES, fl_session_get_cursor (session), viewport, &palette,
                                 format, path, &error));
  g_assert_no_error (error);
  bytes = fl_read_bytes (path);
  g_assert_cmpint (g_remove (path), ==, 0);
  return bytes;
}

static void
test_export_dialog_driven (void)
{
  FlLoadLog log = { 0 };
  g_autoptr(FlSession) session = fl_session_new_loaded (FL_TEST_SCENARIO, &log);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("faultline-export-XXXXXX", &error);
  g_autofree char *svg = g_build_filename (dir, "lanes.svg", NULL);
  g_autofree char *figure = g_build_filename (dir, "figure.png", NULL);
  g_autofree char *folder_png = g_build_filename (dir, "folder.png", NULL);
  GtkWidget *window = gtk_window_new ();
  GtkMessageType type = GTK_MESSAGE_OTHER;
  FlViewport shown = { .width = 700, .height = 400, .font_scale = 1.0 };
  GtkFileChooser *chooser;
  GtkWindow *message;
  g_autofree char *default_name = NULL;
  g_autofree char *secondary = NULL;

  g_assert_no_error (error);
  gtk_window_present (GTK_WINDOW (window));
  fl_session_seek (session, 3);
  fl_session_set_playing (session, TRUE);

  /* A name with an extension: that format, the size shown, the style's colours (light). */
  chooser = fl_present_export (GTK_WINDOW (window), session, &shown, dir);
  if (chooser == NULL)
    {
      g_test_skip ("the file chooser is the platform's (a portal); nothing to drive");
      gtk_window_destroy (GTK_WINDOW (window));
      g_assert_cmpint (g_rmdir (dir), ==, 0);
      return;
    }
  /* The file name promises the step: playback stops so it stays the step drawn. */
  g_assert_false (fl_session_is_playing (session));
  default_name = gtk_file_chooser_get_current_name (chooser);
  g_assert_cmpstr (default_name, ==, FL_TEST_SCENARIO "-step-3-lanes.png");
  gtk_file_chooser_set_current_name (chooser, "lanes.svg");
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_ACCEPT);
  fl_wait_file (svg);
  {
    g_autoptr(GBytes) written = fl_read_bytes (svg);
    g_autoptr(GBytes) expected = fl_painted (session, &shown, FALSE, "svg", dir);
    g_assert_true (g_bytes_equal (written, expected));
  }

  /* No extension: the PNG filter's, and since that names a file the chooser did not check,
   * the dialog asks before replacing it. Cancel keeps the file as it was. */
  g_assert_true (g_file_set_contents (figure, "keep", -1, NULL));
  chooser = fl_present_export (GTK_WINDOW (window), session, &shown, dir);
  g_assert_nonnull (chooser);
  gtk_file_chooser_set_current_name (chooser, "figure");
  g_assert_true (fl_pick_item (GTK_WIDGET (chooser), "1280 × 720"));
  g_assert_true (fl_pick_item (GTK_WIDGET (chooser), "Dark"));
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_ACCEPT);
  message = fl_wait_toplevel (GTK_TYPE_MESSAGE_DIALOG);
  g_assert_nonnull (message);
  gtk_dialog_response (GTK_DIALOG (message), GTK_RESPONSE_CANCEL);
  fl_test_settle ();
  {
    g_autoptr(GBytes) kept = fl_read_bytes (figure);
    g_assert_cmpmem (g_bytes_get_data (kept, NULL), g_bytes_get_size (kept), "keep", 4);
  }

  /* …and Replace writes the figure at the size and in the colours chosen. */
  chooser = fl_present_export (GTK_WINDOW (window), session, &shown, dir);
  g_assert_nonnull (chooser);
  gtk_file_chooser_set_current_name (chooser, "figure");
  g_assert_true (fl_pick_item (GTK_WIDGET (chooser), "1280 × 720"));
  g_assert_true (fl_pick_item (GTK_WIDGET (chooser), "Dark"));
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_ACCEPT);
  message = fl_wait_toplevel (GTK_TYPE_MESSAGE_DIALOG);
  g_assert_nonnull (message);
  gtk_dialog_response (GTK_DIALOG (message), GTK_RESPONSE_ACCEPT);
  fl_test_settle ();
  {
    FlViewport chosen = { .width = 1280, .height = 720, .font_scale = 1.0 };
    g_autoptr(GBytes) written = fl_read_bytes (figure);
    g_autoptr(GBytes) expected = fl_painted (session, &chosen, TRUE, "png", dir);
    g_assert_true (g_bytes_equal (written, expected));
  }

  /* A failure is a modal message that names the file: here the name the PNG filter
   * completes is a folder, which the chooser could not know. */
  g_assert_cmpint (g_mkdir (folder_png, 0700), ==, 0);
  chooser = fl_present_export (GTK_WINDOW (window), session, &shown, dir);
  g_assert_nonnull (chooser);
  gtk_file_chooser_set_current_name (chooser, "folder");
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_ACCEPT);
  message = fl_wait_toplevel (GTK_TYPE_MESSAGE_DIALOG);
  g_assert_nonnull (message);
  gtk_dialog_response (GTK_DIALOG (message), GTK_RESPONSE_ACCEPT);
  message = fl_wait_toplevel (GTK_TYPE_MESSAGE_DIALOG);
  g_assert_nonnull (message);
  g_object_get (message, "message-type", &type, "secondary-text", &secondary, NULL);
  g_test_message ("export error shown: %s", secondary);
  g_assert_cmpint (type, ==, GTK_MESSAGE_ERROR);
  g_assert_true (gtk_window_get_modal (message));
  g_assert_nonnull (strstr (secondary, folder_png));
  gtk_dialog_response (GTK_DIALOG (message), GTK_RESPONSE_CLOSE);
  fl_test_settle ();
  g_assert_true (g_file_test (folder_png, G_FILE_TEST_IS_DIR));
  g_assert_cmpint (g_rmdir (folder_png), ==, 0);

  g_assert_cmpint (g_remove (svg), ==, 0);
  g_assert_cmpint (g_remove (figure), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* An export path names its format by its suffix, in any case; without one it is a PNG and
 * gets ".png", and a dot in a folder's name is no suffix. */
static void
test_picture_format_of (void)
{
  const struct { const char *path, *format, *written; } cases[] = {
    { "/tmp/a.svg", "svg", "/tmp/a.svg" },
    { "/tmp/a.PDF", "pdf", "/tmp/a.PDF" },
    { "/tmp/a.png", "png", "/tmp/a.png" },
    { "/tmp/a", "png", "/tmp/a.png" },
    { "/tmp/v1.2/a", "png", "/tmp/v1.2/a.png" },
    { "/tmp/a.jpeg", "png", "/tmp/a.jpeg.png" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *written = NULL;

      g_assert_cmpstr (fl_picture_format_of (cases[i].path, &written), ==, cases[i].format);
      g_assert_cmpstr (written, ==, cases[i].written);
    }
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  /* GTK's chooser records saved files as recently used: not from a test. */
  g_object_set (gtk_settings_get_default (), "gtk-recent-files-enabled", FALSE, NULL);

  g_test_add_func ("/ui/controls/scenario-button/lists-builtins",
                   test_scenario_button_lists_builtins);
  g_test_add_func ("/ui/controls/scenario-button/loads-choice", test_scenario_button_loads_choice);
  g_test_add_func ("/ui/controls/switches/set-through-widget", test_switches_set_through_widget);
  g_test_add_func ("/ui/controls/switches/error-inline", test_switches_error_inline);
  g_test_add_func ("/ui/controls/switches/preset", test_switches_preset);
  g_test_add_func ("/ui/controls/switches/reset-and-follow", test_switches_reset_and_follow);
  g_test_add_func ("/ui/controls/draw", test_controls_draw);
  g_test_add_func ("/ui/controls/export/matches-painters", test_export_matches_painters);
  g_test_add_func ("/ui/controls/export/errors-name-the-file", test_export_errors_name_the_file);
  g_test_add_func ("/ui/controls/export/dialog-driven", test_export_dialog_driven);
  g_test_add_func ("/ui/controls/export/picture-format", test_picture_format_of);

  return g_test_run ();
}
