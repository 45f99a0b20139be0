/* Shared by the ui test programs; see ui-test-helpers.h. */

#include "ui-test-helpers.h"

#include <glib/gstdio.h>

#include "fl-view-area.h"

typedef struct {
  FlWindowCheck check;
  gpointer      data;
  gboolean      scheduled;
  gboolean      checked;
  gboolean      timed_out;
} FlAppRun;

static gboolean
fl_run_on_timeout (gpointer user_data)
{
  FlAppRun *run = user_data;

  run->timed_out = TRUE;
  g_application_quit (g_application_get_default ());
  return G_SOURCE_REMOVE;
}

static gboolean
fl_run_check_window (gpointer user_data)
{
  FlAppRun *run = user_data;
  GtkApplication *app = GTK_APPLICATION (g_application_get_default ());
  GtkWindow *window = gtk_application_get_active_window (app);

  g_assert_true (FL_IS_WINDOW (window));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  run->check (app, window, run->data);
  run->checked = TRUE;

  /* The check ends the run the way a user does; if app.quit did not, the timeout fails us. */
  g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
  return G_SOURCE_REMOVE;
}

static void
fl_run_on_window_added (GtkApplication *app,
                        GtkWindow      *window,
                        FlAppRun          *run)
{
  /* window-added comes from inside the window's construction; look once it is presented.
   * Only the first window is checked: others (the scenario editor) open during the check. */
  if (!run->scheduled)
    {
      run->scheduled = TRUE;
      g_idle_add_full (G_PRIORITY_LOW, fl_run_check_window, run, NULL);
    }
}

void
fl_test_run_application (FlWindowCheck check,
                         gpointer      data)
{
  g_autoptr(FlApplication) app = fl_application_new (G_APPLICATION_NON_UNIQUE);
  char *argv[] = { (char *) "faultline", NULL };
  FlAppRun run = { .check = check, .data = data };
  guint timeout_id;
  int status;

  g_signal_connect (app, "window-added", G_CALLBACK (fl_run_on_window_added), &run);
  timeout_id = g_timeout_add_seconds (100, fl_run_on_timeout, &run);

  status = g_application_run (G_APPLICATION (app), 1, argv);

  g_assert_false (run.timed_out);
  g_source_remove (timeout_id);
  g_assert_true (run.checked);
  g_assert_cmpint (status, ==, 0);
  g_assert_null (gtk_application_get_windows (GTK_APPLICATION (app)));
}

static void
fl_on_load_failed (FlSession *session, const GError *error, gpointer user_data)
{
  g_error ("loading %s failed: %s", fl_session_get_scenario (session), error->message);
}

void
fl_test_wait_loaded (FlSession *session)
{
  gulong id = g_signal_connect (session, "load-failed", G_CALLBACK (fl_on_load_failed), NULL);

  while (fl_session_is_loading (session))
    g_main_context_iteration (NULL, TRUE);
  g_signal_handler_disconnect (session, id);
  g_assert_nonnull (fl_session_get_run (session));
}

GdkTexture *
fl_test_render_widget (GtkWidget *widget)
{
  int width, height;
  g_autoptr(GdkPaintable) paintable = NULL;
  GtkSnapshot *snapshot;
  g_autoptr(GskRenderNode) node = NULL;
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));

  /* the session's changes queue draws: let them land before taking the picture */
  gtk_test_widget_wait_for_draw (gtk_widget_get_ancestor (widget, GTK_TYPE_WINDOW));
  width = gtk_widget_get_width (widget);
  height = gtk_widget_get_height (widget);
  g_assert_cmpint (width, >, 0);
  g_assert_cmpint (height, >, 0);

  paintable = gtk_widget_paintable_new (widget);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  g_assert_nonnull (renderer);

  return gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
}

static void
fl_collect_views (GtkWidget *widget, GPtrArray *views)
{
  if (FL_IS_VIEW_AREA (widget))
    g_ptr_array_add (views, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    fl_collect_views (child, views);
}

GPtrArray *
fl_test_find_views (GtkWidget *root)
{
  GPtrArray *views = g_ptr_array_new ();

  fl_collect_views (root, views);
  return views;
}

FlViewArea *
fl_test_find_view (GtkWidget *root, FlView view)
{
  g_autoptr(GPtrArray) views = fl_test_find_views (root);

  for (guint i = 0; i < views->len; i++)
    if (fl_view_area_get_view (g_ptr_array_index (views, i)) == view)
      return g_ptr_array_index (views, i);
  g_error ("no %s view in the window", fl_view_name (view));
}

static gboolean
fl_is_panels (GtkWidget *widget, gconstpointer data)
{
  return FL_IS_PANELS (widget);
}

FlPanels *
fl_test_find_panels (GtkWindow *window)
{
  GtkWidget *panels = fl_test_find_widget (GTK_WIDGET (window), fl_is_panels, NULL);

  g_assert_nonnull (panels);
  return FL_PANELS (panels);
}

FlViewArea *
fl_test_show_view (GtkWindow *window, FlView view)
{
  FlViewArea *area = fl_test_find_view (GTK_WIDGET (window), view);
  FlPanels *panels = fl_test_find_panels (window);
  int tab = fl_panels_tab_of (panels, GTK_WIDGET (area));

  if (tab >= 0 && !fl_panels_is_shown (panels, (guint) tab))
    {
      fl_panels_set_tab (panels, (guint) tab);
      gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
    }
  return area;
}

GtkWidget *
fl_test_find_widget (GtkWidget *root, FlWidgetMatch match, gconstpointer data)
{
  if (match (root, data))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = fl_test_find_widget (child, match, data);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static GLogWriterOutput
fl_fail_on_warnings_writer (GLogLevelFlags   log_level,
                            const GLogField *fields,
                            gsize            n_fields,
                            gpointer         user_data)
{
  if (log_level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING))
    {
      g_autofree char *text = g_log_writer_format_fields (log_level, fields, n_fields, FALSE);
      g_printerr ("%s\n", text);
      /* abort, not g_test_fail: a GTK warning usually leaves the window half broken */
      g_abort ();
    }
  return g_log_writer_default (log_level, fields, n_fields, user_data);
}

void
fl_test_fail_on_warnings (void)
{
  g_log_set_writer_func (fl_fail_on_warnings_writer, NULL, NULL);
}

void
fl_test_init_window_test (int *argc, char ***argv)
{
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_test_init (argc, argv, NULL);
  /* without one, GTK's warning that it could not reach it would end the run with no word of
   * why (warnings fail these tests) */
  if (g_getenv ("DBUS_SESSION_BUS_ADDRESS") == NULL)
    g_error ("no session bus: run the ui tests and screenshot-window under dbus-run-session "
             "(make test does; the README shows the screenshot command)");
  if (!gtk_init_check ())
    g_error ("no display: run the ui tests under a virtual X server (make test does)");
  fl_test_fail_on_warnings ();
}

char *
fl_test_private_data_home (const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *pattern = g_strdup_printf ("faultline-%s-XXXXXX", name);
  char *data_home = g_dir_make_tmp (pattern, &error);

  g_assert_no_error (error);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  return data_home;
}

void
fl_test_remove_data_home (const char *data_home)
{
  g_autofree char *dir = g_build_filename (data_home, "faultline", NULL);
  const char *names[] = { "faultline.db", "faultline.db-wal", "faultline.db-shm" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *file = g_build_filename (dir, names[i], NULL);
      g_remove (file);
    }
  g_rmdir (dir);
  {
    /* what GTK's file chooser notes there */
    g_autofree char *recent = g_build_filename (data_home, "recently-used.xbel", NULL);
    g_remove (recent);
  }
  g_rmdir (data_home);
}

static gboolean
fl_test_flag_set (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the main loop until the window's size holds for two looks 100 ms apart (at most two
 * seconds): a resize may take more than one frame, as when the window reacts to its new
 * width by changing what its minimum is (the header bar's text scale, fl-window.c), and on
 * a loaded machine the frames come late. */
static void
fl_test_wait_size_stable (GtkWindow *window)
{
  for (int look = 0; look < 20; look++)
    {
      int w = gtk_widget_get_width (GTK_WIDGET (window));
      int h = gtk_widget_get_height (GTK_WIDGET (window));
      gboolean done = FALSE;

      g_timeout_add (100, fl_test_flag_set, &done);
      while (!done)
        g_main_context_iteration (NULL, TRUE);
      if (w == gtk_widget_get_width (GTK_WIDGET (window))
          && h == gtk_widget_get_height (GTK_WIDGET (window)))
        return;
    }
}

/* The default size counts the frame around the window: grow it by what the frame takes, so
 * the window has the size asked for. Each attempt measures the window once it has settled:
 * a size read in the middle of a resize would make the next attempt overshoot. */
void
fl_test_fit_window (GtkWindow *window, int width, int height)
{
  for (int attempt = 0; attempt < 4; attempt++)
    {
      int dw = width - gtk_widget_get_width (GTK_WIDGET (window));
      int dh = height - gtk_widget_get_height (GTK_WIDGET (window));
      int w, h;

      if (dw == 0 && dh == 0)
        break;
      gtk_window_get_default_size (window, &w, &h);
      gtk_window_set_default_size (window, w + dw, h + dh);
      gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
      fl_test_wait_size_stable (window);
    }
}

void
fl_test_fit_window_scaled (GtkWindow *window, int width, int height, double *scale_w,
                           double *scale_h)
{
  fl_test_fit_window (window, width, height);
  fl_test_settle ();
  *scale_w = (double) width / gtk_widget_get_width (GTK_WIDGET (window));
  *scale_h = (double) height / gtk_widget_get_height (GTK_WIDGET (window));
  if (*scale_w > 1.001 || *scale_h > 1.001)
    g_test_message ("at %dx%d: the screen holds %dx%d; panels scaled by %.3f × %.3f", width,
                    height, gtk_widget_get_width (GTK_WIDGET (window)),
                    gtk_widget_get_height (GTK_WIDGET (window)), *scale_w, *scale_h);
}

void
fl_test_settle (void)
{
  gboolean done = FALSE;

  g_timeout_add (200, fl_test_flag_set, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}
