/* screenshot-window: the README's screenshots, taken from the app itself. Starts the
 * application, opens a scenario with optional switches, goes to a step, and saves the
 * window as it is drawn to a PNG. Run under a display (make screenshot, or xvfb-run):
 *
 *   screenshot-window [--size 1280x800] [--step N | --finding] [--cpu N] [--set KEY=VALUE]…
 *                     [--compare KEY=VALUE] [--bookmark STEP:TITLE:NOTE… --present [--slide K]]
 *                     [--bench-window [--profile]] [--explore] [--dark] [--text-scale S]
 *                     [--tab N] SCENARIO FILE.png
 *
 * --bookmark adds bookmarks in a store of the tool's own (a temporary XDG_DATA_HOME, removed
 * at the end: never the user's); --present then shows presentation mode (F5) on slide K
 * (default 1, the first bookmark). --bench-window saves the benchmark chart window (Ctrl+B)
 * once it has measured, instead of the main window (with --profile, its page "Where the
 * Time Goes"). --explore saves the Explore dialog (Ctrl+Shift+X) once its search has ended.
 * --text-scale is what Ctrl+plus and Ctrl+minus set (0.8 to 2.5); --tab chooses the panel
 * tab shown when the window is too small for the grid (0 VMA tree, 1 page tables, 2 cache
 * lines, 3 RCU, 4 counters).
 */

#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>

#include "fl-bench-window.h"
#include "fl-compare-page.h"
#include "fl-panels.h"
#include "ui-test-helpers.h"

typedef struct {
  char    *scenario;
  char    *output;
  char   **sets;
  char    *compare;      /* KEY=VALUE of run B: the window's compare mode */
  char   **bookmarks;    /* STEP:TITLE:NOTE, added before presenting */
  gboolean present;
  gint     slide;
  gboolean bench_window;
  gboolean profile;
  gboolean explore;
  gint64   step;
  gboolean finding;
  gint     cpu;
  int      width, height;
  gboolean dark;
  double   text_scale;
  gint     tab;
  gboolean saved;
} Shot;

/* Each --bookmark STEP:TITLE:NOTE, as Ctrl+D adds one: into the tool's own store. */
static void
fl_add_bookmarks (Shot *shot, GtkWindow *window)
{
  FlSession *session = fl_window_get_session (FL_WINDOW (window));
  guint64 step = fl_session_get_step (session);

  for (guint i = 0; shot->bookmarks != NULL && shot->bookmarks[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;
      g_auto(GStrv) parts = g_strsplit (shot->bookmarks[i], ":", 3);
      guint64 at = 0;

      if (g_strv_length (parts) < 2
          || !g_ascii_string_to_unsigned (parts[0], 10, 0, fl_session_get_total_steps (session),
                                          &at, NULL))
        g_error ("--bookmark %s: expected STEP:TITLE[:NOTE] with a step of the run",
                 shot->bookmarks[i]);
      fl_session_seek (session, at);
      if (!fl_window_add_bookmark (FL_WINDOW (window), parts[1], parts[2] ? parts[2] : "",
                                   &error))
        g_error ("--bookmark %s: %s", shot->bookmarks[i], error->message);
    }
  fl_session_seek (session, step);
}

static gboolean
fl_is_button_labelled (GtkWidget *widget, gconstpointer label)
{
  return GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0;
}

/* The Explore dialog of @window, once its search has ended (its button says Close). */
static GtkWindow *
fl_explore_and_wait (GtkWindow *window)
{
  GtkWindow *dialog = NULL;
  if (!gtk_widget_activate_action (GTK_WIDGET (window), "win.explore", NULL))
    g_error ("--explore: the window has no explore action");
  GListModel *toplevels = gtk_window_get_toplevels ();
  for (guint i = 0; dialog == NULL && i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWidget) w = g_list_model_get_item (toplevels, i);
      const char *title = GTK_IS_WINDOW (w) ? gtk_window_get_title (GTK_WINDOW (w)) : NULL;
      if (title != NULL && g_str_has_prefix (title, "Explore ")
          && gtk_window_get_transient_for (GTK_WINDOW (w)) == window)
        dialog = GTK_WINDOW (w);
    }
  if (dialog == NULL)
    g_error ("--explore: no Explore dialog opened");
  while (fl_test_find_widget (GTK_WIDGET (dialog), fl_is_button_labelled, "_Close") == NULL)
    g_main_context_iteration (NULL, TRUE);
  return dialog;
}

static void
fl_show_tab (GtkWindow *window, guint tab)
{
  FlPanels *panels = fl_test_find_panels (window);

  if (!fl_panels_is_compact (panels))
    g_printerr ("--tab %u: the panels are a grid at this size; no tab to choose\n", tab);
  else
    fl_panels_set_tab (panels, tab);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
}

static void
fl_take_screenshot (GtkApplication *app, GtkWindow *window, gpointer data)
{
  Shot *shot = data;
  FlSession *session = fl_window_get_session (FL_WINDOW (window));
  g_autoptr(GdkTexture) texture = NULL;

  fl_test_wait_loaded (session);
  for (guint i = 0; shot->sets != NULL && shot->sets[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;
      g_auto(GStrv) kv = g_strsplit (shot->sets[i], "=", 2);

      if (kv[1] == NULL || !fl_session_set_switch (session, kv[0], kv[1], &error))
        g_error ("--set %s: %s", shot->sets[i], error ? error->message : "expected KEY=VALUE");
    }
  fl_window_set_scenario (FL_WINDOW (window), shot->scenario);
  fl_test_wait_loaded (session);

  if (shot->finding)
    g_action_group_activate_action (G_ACTION_GROUP (window), "next-finding", NULL);
  else if (shot->step >= 0)
    fl_session_seek (session, (guint64) shot->step);
  if (shot->cpu >= 0)
    fl_session_select_cpu (session, (guint) shot->cpu);
  if (shot->compare != NULL)
    {
      g_autoptr(GError) error = NULL;
      g_auto(GStrv) kv = g_strsplit (shot->compare, "=", 2);
      FlComparePage *page = FL_COMPARE_PAGE (fl_window_get_compare_page (FL_WINDOW (window)));

      if (kv[1] == NULL || !fl_window_start_compare (FL_WINDOW (window), kv[0], kv[1], &error))
        g_error ("--compare %s: %s", shot->compare, error ? error->message : "expected KEY=VALUE");
      while (fl_compare_page_is_loading (page))
        g_main_context_iteration (NULL, TRUE);
    }
  fl_add_bookmarks (shot, window);
  if (shot->present)
    {
      g_action_group_activate_action (G_ACTION_GROUP (window), "present", NULL);
      if (!fl_window_is_presenting (FL_WINDOW (window)))
        g_error ("--present: presentation mode did not start (add bookmarks with --bookmark)");
      for (int i = 0; i < shot->slide; i++)
        g_action_group_activate_action (G_ACTION_GROUP (window), "next-bookmark", NULL);
    }

  if (shot->bench_window)
    {
      GtkWindow *bench = GTK_WINDOW (fl_bench_window_new (window));

      gtk_window_set_default_size (bench, shot->width, shot->height);
      gtk_window_present (bench);
      /* the chart is measured in a worker: wait for it */
      while (fl_bench_window_is_running (FL_BENCH_WINDOW (bench)))
        g_main_context_iteration (NULL, TRUE);
      if (fl_bench_window_get_n_points (FL_BENCH_WINDOW (bench)) == 0)
        g_error ("--bench-window: the benchmark measured nothing");
      fl_bench_window_show_profile (FL_BENCH_WINDOW (bench), shot->profile);
      window = bench;
    }

  if (shot->explore)
    {
      /* the dialog at its own size: the size asked is the window's */
      window = fl_explore_and_wait (window);
      gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
    }
  else
    fl_test_fit_window (window, shot->width, shot->height);
  if (shot->tab >= 0 && !shot->bench_window && !shot->explore)
    fl_show_tab (window, (guint) shot->tab);
  texture = fl_test_render_widget (GTK_WIDGET (window));
  if (!gdk_texture_save_to_png (texture, shot->output))
    g_error ("could not write %s", shot->output);
  if (shot->explore)
    g_print ("%s: the Explore dialog on %s, %d×%d\n", shot->output, shot->scenario,
             gdk_texture_get_width (texture), gdk_texture_get_height (texture));
  else if (shot->bench_window)
    g_print ("%s: the benchmark chart, %d×%d\n", shot->output, gdk_texture_get_width (texture),
             gdk_texture_get_height (texture));
  else
    g_print ("%s: %s at step %" G_GUINT64_FORMAT ", %d×%d\n", shot->output, shot->scenario,
             fl_session_get_step (session), gdk_texture_get_width (texture),
             gdk_texture_get_height (texture));
  if (shot->bench_window)
    gtk_window_destroy (window);
  shot->saved = TRUE;
}

/* Run from the build tree the schema is not installed; the build compiled it into data/. */
static void
fl_use_build_tree_schemas (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = NULL;
  g_autofree char *data = NULL;
  g_autofree char *compiled = NULL;

  if (exe == NULL || g_getenv ("GSETTINGS_SCHEMA_DIR") != NULL)
    return;
  dir = g_path_get_dirname (exe);
  data = g_build_filename (dir, "..", "..", "data", NULL);
  compiled = g_build_filename (data, "gschemas.compiled", NULL);
  if (g_file_test (compiled, G_FILE_TEST_IS_REGULAR))
    g_setenv ("GSETTINGS_SCHEMA_DIR", data, TRUE);
}

int
main (int argc, char *argv[])
{
  Shot shot = { .step = -1, .cpu = -1, .slide = 1, .tab = -1 };
  g_autofree char *data_home = NULL;
  g_autofree char *size = NULL;
  int width = 1280, height = 800;
  g_autoptr(GError) error = NULL;
  g_autoptr(GOptionContext) context = g_option_context_new ("SCENARIO FILE.png");
  GOptionEntry entries[] = {
    { "size", 0, 0, G_OPTION_ARG_STRING, &size, "Window size (default 1280x800)", "WxH" },
    { "step", 0, 0, G_OPTION_ARG_INT64, &shot.step, "Step to show", "N" },
    { "finding", 0, 0, G_OPTION_ARG_NONE, &shot.finding, "Show the first finding", NULL },
    { "cpu", 0, 0, G_OPTION_ARG_INT, &shot.cpu, "CPU to select", "N" },
    { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &shot.sets, "Set a design switch", "KEY=VALUE" },
    { "compare", 0, 0, G_OPTION_ARG_STRING, &shot.compare, "Compare with run B", "KEY=VALUE" },
    { "bookmark", 0, 0, G_OPTION_ARG_STRING_ARRAY, &shot.bookmarks,
      "Bookmark a step (in a temporary store)", "STEP:TITLE:NOTE" },
    { "present", 0, 0, G_OPTION_ARG_NONE, &shot.present, "Presentation mode (F5)", NULL },
    { "slide", 0, 0, G_OPTION_ARG_INT, &shot.slide, "Slide to show (default 1)", "K" },
    { "bench-window", 0, 0, G_OPTION_ARG_NONE, &shot.bench_window,
      "The benchmark chart window, once measured", NULL },
    { "profile", 0, 0, G_OPTION_ARG_NONE, &shot.profile,
      "With --bench-window: its profile page", NULL },
    { "explore", 0, 0, G_OPTION_ARG_NONE, &shot.explore,
      "The Explore dialog (Ctrl+Shift+X), once its search has ended", NULL },
    { "dark", 0, 0, G_OPTION_ARG_NONE, &shot.dark, "Use the dark style", NULL },
    { "text-scale", 0, 0, G_OPTION_ARG_DOUBLE, &shot.text_scale,
      "Text size, as Ctrl+plus sets it (0.8 to 2.5)", "S" },
    { "tab", 0, 0, G_OPTION_ARG_INT, &shot.tab, "Panel tab to show when the panels are tabs", "N" },
    { NULL }
  };
  g_autoptr(GSettings) settings = NULL;

  /* never the user's settings: the window opens at the size and in the style asked; nor the
   * user's store: the window looks bookmarks up there, and --bookmark writes */
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  fl_use_build_tree_schemas ();
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 3
      || (size != NULL && sscanf (size, "%dx%d", &width, &height) != 2))
    {
      g_printerr ("%s\n", error ? error->message : "usage: screenshot-window [OPTION…] SCENARIO FILE.png");
      return EXIT_FAILURE;
    }
  shot.scenario = argv[1];
  shot.width = width;
  shot.height = height;
  shot.output = argv[2];
  /* a store of the tool's own: the bookmarks it adds never reach the user's */
  data_home = fl_test_private_data_home ("screenshot");

  /* GTK warns when it finds no session bus, and warnings end this helper: say why first */
  if (g_getenv ("DBUS_SESSION_BUS_ADDRESS") == NULL)
    {
      g_printerr ("screenshot-window: no session bus: run it under dbus-run-session, as the "
                  "README's command does\n");
      fl_test_remove_data_home (data_home);
      return EXIT_FAILURE;
    }
  gtk_init ();
  fl_test_fail_on_warnings ();
  settings = g_settings_new ("io.github.faultline.Faultline");
  g_settings_set_int (settings, "window-width", width);
  g_settings_set_int (settings, "window-height", height);
  g_settings_set_string (settings, "theme", shot.dark ? "dark" : "light");
  if (shot.text_scale != 0 && !g_settings_set_double (settings, "text-scale", shot.text_scale))
    {
      g_printerr ("--text-scale %g: out of range (0.8 to 2.5)\n", shot.text_scale);
      return EXIT_FAILURE;
    }

  fl_test_run_application (fl_take_screenshot, &shot);
  fl_test_remove_data_home (data_home);
  g_strfreev (shot.sets);
  g_strfreev (shot.bookmarks);
  g_free (shot.compare);
  return shot.saved ? EXIT_SUCCESS : EXIT_FAILURE;
}
