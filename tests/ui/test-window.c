/* The window under a virtual X server (make test provides one): the application starts with
 * only argv[0], the window draws a first frame that is not blank, its size goes to GSettings,
 * the menu's dialogs open, and app.quit ends the run. */

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include <string.h>

#include "fl-scenario-about.h"
#include "ui-test-helpers.h"

/* ---- /ui/window/first-frame ---- */

static void
fl_check_first_frame (GtkApplication *app,
                      GtkWindow      *window,
                      gpointer        data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GHashTable) colours = g_hash_table_new (NULL, NULL);
  g_autofree char *dir = NULL;
  g_autofree char *png = NULL;
  g_autofree guint32 *pixels = NULL;
  GHashTableIter iter;
  gpointer key, value;
  guint background_count = 0;
  gsize width, height, n;
  double foreground_share;

  /* Started without arguments, the window shows the last scenario: the schema default. */
  g_assert_cmpstr (fl_window_get_scenario (FL_WINDOW (window)), ==, "spf-vs-munmap");
  fl_test_wait_loaded (fl_window_get_session (FL_WINDOW (window)));

  texture = fl_test_render_widget (GTK_WIDGET (window));
  width = gdk_texture_get_width (texture);
  height = gdk_texture_get_height (texture);
  g_assert_cmpuint (width, >=, 320);
  g_assert_cmpuint (height, >=, 240);

  dir = g_dir_make_tmp ("faultline-ui-XXXXXX", &error);
  g_assert_no_error (error);
  png = g_build_filename (dir, "window.png", NULL);
  g_assert_true (gdk_texture_save_to_png (texture, png));
  g_assert_true (g_file_test (png, G_FILE_TEST_IS_REGULAR));
  g_test_message ("window image: %s (%zu×%zu)", png, width, height);

  n = width * height;
  pixels = g_new (guint32, n);
  gdk_texture_download (texture, (guchar *) pixels, width * 4);

  for (gsize i = 0; i < n; i++)
    {
      gpointer count = g_hash_table_lookup (colours, GUINT_TO_POINTER (pixels[i]));
      g_hash_table_insert (colours, GUINT_TO_POINTER (pixels[i]),
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (count) + 1));
    }

  /* The most frequent colour is the background; everything else is something drawn. */
  g_hash_table_iter_init (&iter, colours);
  while (g_hash_table_iter_next (&iter, &key, &value))
    background_count = MAX (background_count, GPOINTER_TO_UINT (value));
  foreground_share = 1.0 - (double) background_count / n;

  g_test_message ("%u distinct colours, %.1f%% of the pixels not background",
                  g_hash_table_size (colours), 100.0 * foreground_share);
  /* Header bar, icon and antialiased text give hundreds of colours and several percent of the
   * area; a blank or background-only frame gives one colour and nothing else. */
  g_assert_cmpuint (g_hash_table_size (colours), >, 16);
  g_assert_cmpfloat (foreground_share, >, 0.03);

  /* Kept on request (FL_TEST_KEEP_IMAGES=1), e.g. to refresh docs/screenshots/window.png. */
  if (g_getenv ("FL_TEST_KEEP_IMAGES") == NULL)
    {
      g_assert_cmpint (g_unlink (png), ==, 0);
      g_assert_cmpint (g_rmdir (dir), ==, 0);
    }
}

static void
test_window_first_frame (void)
{
  fl_test_run_application (fl_check_first_frame, NULL);
}

/* ---- /ui/window/size-saved ---- */

static void
fl_check_resize (GtkApplication *app,
                 GtkWindow      *window,
                 gpointer        data)
{
  int width, height;

  /* Restored from the settings the test wrote before starting. */
  gtk_window_get_default_size (window, &width, &height);
  g_assert_cmpint (width, ==, 1024);
  g_assert_cmpint (height, ==, 700);

  gtk_window_set_default_size (window, 1100, 760);
}

static void
test_window_size_saved (void)
{
  g_autoptr(GSettings) settings = g_settings_new ("io.github.faultline.Faultline");

  /* the smallest size the window is laid out for (issue 18): its header bar keeps the
   * scenario's name whole, so it is not made narrower */
  g_settings_set_int (settings, "window-width", 1024);
  g_settings_set_int (settings, "window-height", 700);

  fl_test_run_application (fl_check_resize, NULL);

  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 1100);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 760);
  g_assert_false (g_settings_get_boolean (settings, "window-maximized"));
}

/* ---- /ui/window/dialogs ---- */

static GtkWindow *
fl_find_toplevel (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels ();   /* owned by GTK */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (window, type) && gtk_widget_get_visible (GTK_WIDGET (window)))
        return window;
    }
  return NULL;
}

static void
fl_check_dialogs (GtkApplication *app,
                  GtkWindow      *window,
                  gpointer        data)
{
  GtkWindow *about, *shortcuts;

  /* The menu's entries: each opens a window that draws (a broken .ui would abort here). */
  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
  about = fl_find_toplevel (GTK_TYPE_ABOUT_DIALOG);
  g_assert_nonnull (about);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (about));
  g_assert_cmpstr (gtk_about_dialog_get_version (GTK_ABOUT_DIALOG (about)), ==, FL_VERSION);
  g_assert_cmpint (gtk_about_dialog_get_license_type (GTK_ABOUT_DIALOG (about)), ==,
                   GTK_LICENSE_GPL_2_0);
  gtk_window_close (about);

  g_action_group_activate_action (G_ACTION_GROUP (window), "show-help-overlay", NULL);
  shortcuts = fl_find_toplevel (GTK_TYPE_SHORTCUTS_WINDOW);
  g_assert_nonnull (shortcuts);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (shortcuts));
  gtk_window_close (shortcuts);
}

static void
test_window_dialogs (void)
{
  fl_test_run_application (fl_check_dialogs, NULL);
}

/* ---- /ui/window/scenario-about ---- */

static gboolean
fl_is_close_button (GtkWidget *widget, gconstpointer data)
{
  return GTK_IS_BUTTON (widget)
         && g_strcmp0 (gtk_button_get_icon_name (GTK_BUTTON (widget)), "window-close-symbolic") == 0;
}

/* A newcomer sees what the scenario is about and what it should show, over the views, not in
 * a tooltip; closed, it stays closed for that scenario and opens again for the next. */
static void
fl_check_scenario_about (GtkApplication *app, GtkWindow *window, gpointer data)
{
  FlSession *session = fl_window_get_session (FL_WINDOW (window));
  GtkWidget *about = fl_window_get_scenario_about (FL_WINDOW (window));

  fl_window_set_scenario (FL_WINDOW (window), "spf-mmap-cache-race");
  fl_test_wait_loaded (session);
  g_autofree char *text = fl_scenario_about_get_text (about);
  g_assert_nonnull (text);
  g_assert_true (g_str_has_prefix (text, "About this scenario: find_vma first looks at "
                                         "mm->mmap_cache"));
  g_assert_nonnull (strstr (text, "\nExpected: The speculative fault retries; the locked retry "
                                  "gets SIGSEGV; no findings."));
  g_assert_true (gtk_widget_is_drawable (about));

  g_signal_emit_by_name (fl_test_find_widget (about, fl_is_close_button, NULL), "clicked");
  g_assert_null (fl_scenario_about_get_text (about));
  fl_window_set_scenario (FL_WINDOW (window), "spf-vs-munmap");
  fl_test_wait_loaded (session);
  g_autofree char *next = fl_scenario_about_get_text (about);
  g_assert_nonnull (next);
  g_assert_nonnull (strstr (next, "Expected: "));
}

static void
test_window_scenario_about (void)
{
  fl_test_run_application (fl_check_scenario_about, NULL);
}

int
main (int   argc,
      char *argv[])
{
  fl_test_init_window_test (&argc, &argv);

  g_test_add_func ("/ui/window/first-frame", test_window_first_frame);
  g_test_add_func ("/ui/window/size-saved", test_window_size_saved);
  g_test_add_func ("/ui/window/dialogs", test_window_dialogs);
  g_test_add_func ("/ui/window/scenario-about", test_window_scenario_about);

  return g_test_run ();
}
