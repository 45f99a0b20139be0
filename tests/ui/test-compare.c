/* Also the benchmark chart: measured with two CPU counts, drawn, exported. */

/* Compare mode under a virtual X server: spf-vs-munmap against itself with vma-free=immediate
 * shows the compare page once run B is simulated, describes both runs and the finding only B
 * reports, follows the step keys, and Escape's action returns to the views. */

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>

#include "fl-bench-window.h"
#include "fl-compare-page.h"
#include "fl-workload.h"
#include "ui-test-helpers.h"

/* More than one colour in the texture: something was drawn. */
static gboolean
fl_texture_has_ink (GdkTexture *texture)
{
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  g_autofree guchar *pixels = g_malloc ((gsize) width * height * 4);
  guint32 first;

  gdk_texture_download (texture, pixels, (gsize) width * 4);
  memcpy (&first, pixels, 4);
  for (gsize i = 1; i < (gsize) width * height; i++)
    if (memcmp (&first, pixels + i * 4, 4) != 0)
      return TRUE;
  return FALSE;
}

static void
fl_assert_exported (const char *path)
{
  g_autofree char *contents = NULL;
  gsize length = 0;

  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  g_assert_cmpuint (length, >, 1000);
  g_assert_cmpmem (contents, 4, "\x89PNG", 4);
  g_unlink (path);
}

static void
fl_wait_compare_loaded (FlComparePage *page)
{
  while (fl_compare_page_is_loading (page))
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (fl_compare_page_get_compare (page));
}

static void
fl_assert_described (FlComparePage *page)
{
  GtkWidget *area = fl_compare_page_get_area (page);
  g_autofree char *mismatch =
    gtk_test_accessible_check_property (GTK_ACCESSIBLE (area),
                                        GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                        fl_compare_page_get_description (page));

  if (mismatch != NULL)
    g_error ("compare area: %s", mismatch);
  g_assert_true (gtk_test_accessible_has_role (GTK_ACCESSIBLE (area), GTK_ACCESSIBLE_ROLE_IMG));
  g_assert_true (gtk_test_accessible_has_property (GTK_ACCESSIBLE (area),
                                                   GTK_ACCESSIBLE_PROPERTY_LABEL));
}

static void
fl_check_compare (GtkApplication *app, GtkWindow *window, gpointer data)
{
  FlWindow *win = FL_WINDOW (window);
  FlSession *session = fl_window_get_session (win);
  FlComparePage *page = FL_COMPARE_PAGE (fl_window_get_compare_page (win));
  g_autoptr(GError) error = NULL;
  g_autofree char *before = NULL;
  g_autoptr(GdkTexture) texture = NULL;

  fl_window_set_scenario (win, "spf-vs-munmap");
  fl_test_wait_loaded (session);
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "compare"));

  /* win.compare opens the dialog that chooses B's switch, over the window */
  g_action_group_activate_action (G_ACTION_GROUP (window), "compare", NULL);
  {
    GListModel *toplevels = gtk_window_get_toplevels ();   /* owned by GTK */
    GtkWindow *dialog = NULL;

    while (g_main_context_iteration (NULL, FALSE))
      ;
    for (guint i = 0; i < g_list_model_get_n_items (toplevels) && dialog == NULL; i++)
      {
        g_autoptr(GtkWindow) w = g_list_model_get_item (toplevels, i);

        if (gtk_window_get_transient_for (w) == window && gtk_window_get_modal (w))
          dialog = w;
      }
    g_assert_nonnull (dialog);
    gtk_window_destroy (dialog);
  }

  /* a value the switch does not take is refused, and nothing changes */
  g_assert_false (fl_window_start_compare (win, "vma-free", "sometimes", &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_false (fl_window_is_comparing (win));

  g_assert_true (fl_window_start_compare (win, "vma-free", "immediate", &error));
  g_assert_no_error (error);
  fl_wait_compare_loaded (page);
  g_assert_true (fl_window_is_comparing (win));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (page)));
  fl_assert_described (page);
  g_test_message ("%s", fl_compare_page_get_description (page));
  g_assert_nonnull (strstr (fl_compare_page_get_description (page), "only in B"));
  g_assert_null (strstr (fl_compare_page_get_description (page), "only in A"));

  /* the page draws something */
  texture = fl_test_render_widget (fl_compare_page_get_area (page));
  g_assert_nonnull (texture);
  g_assert_true (fl_texture_has_ink (texture));
  {
    g_autofree char *path = g_build_filename (g_get_tmp_dir (), "fl-test-compare.png", NULL);

    g_assert_true (fl_compare_page_export (page, "png", path, &error));
    g_assert_no_error (error);
    fl_assert_exported (path);
  }

  /* stepping moves both runs and the words */
  before = g_strdup (fl_compare_page_get_description (page));
  for (guint i = 0; i < 5; i++)
    g_action_group_activate_action (G_ACTION_GROUP (window), "step-forward", NULL);
  g_assert_cmpuint (fl_session_get_step (session), ==, 5);
  g_assert_cmpuint (fl_cursor_get_step (fl_compare_get_cursor (fl_compare_page_get_compare (page),
                                                          1)), >, 0);
  g_assert_cmpstr (fl_compare_page_get_description (page), !=, before);
  fl_assert_described (page);

  /* leaving returns to the views */
  g_action_group_activate_action (G_ACTION_GROUP (window), "leave-compare", NULL);
  g_assert_false (fl_window_is_comparing (win));
  g_assert_null (fl_compare_page_get_compare (page));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (page)));
}

static void
fl_check_bench (GtkApplication *app, GtkWindow *window, gpointer data)
{
  static const guint cpus[] = { 1, 2 };
  FlBenchWindow *bench;
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "fl-test-bench.png", NULL);

  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (window), "bench"));
  bench = FL_BENCH_WINDOW (fl_bench_window_new_full (window, cpus, G_N_ELEMENTS (cpus)));
  gtk_window_present (GTK_WINDOW (bench));
  while (fl_bench_window_is_running (bench))
    g_main_context_iteration (NULL, TRUE);
  /* the four configurations at each CPU count */
  /* every design of the table (the 2010 four and Kamezawa's) at every CPU count */
  guint n_designs = 0;
  fl_bench_configs (&n_designs);
  g_assert_cmpuint (n_designs, ==, 5);
  g_assert_cmpuint (fl_bench_window_get_n_points (bench), ==, n_designs * G_N_ELEMENTS (cpus));

  texture = fl_test_render_widget (fl_bench_window_get_area (bench));
  g_assert_nonnull (texture);
  g_assert_true (fl_texture_has_ink (texture));
  g_assert_true (gtk_test_accessible_has_role (GTK_ACCESSIBLE (fl_bench_window_get_area (bench)),
                                               GTK_ACCESSIBLE_ROLE_IMG));

  g_assert_true (fl_bench_window_export (bench, "png", path, &error));
  g_assert_no_error (error);
  fl_assert_exported (path);

  /* where the time goes: a profile per design at the largest count measured, on a page of
   * its own that says in words what it draws, and that Export writes when it is in view */
  g_assert_cmpuint (fl_bench_window_get_n_profiles (bench), ==, n_designs);
  fl_bench_window_show_profile (bench, TRUE);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_clear_object (&texture);
  texture = fl_test_render_widget (fl_bench_window_get_profile_area (bench));
  g_assert_nonnull (texture);
  g_assert_true (fl_texture_has_ink (texture));
  const char *said = fl_bench_window_get_profile_description (bench);
  g_test_message ("profile: %s", said);
  for (guint i = 0; i < n_designs; i++)
    {
      g_autofree char *design = g_strdup_printf ("%s: most time in ",
                                                 fl_bench_configs (&n_designs)[i].name);
      const char *at = strstr (said, design);
      g_assert_nonnull (at);
      g_assert_nonnull (strstr (at, "; dearest shared line "));
    }
  g_autofree char *mismatch =
    gtk_test_accessible_check_property (GTK_ACCESSIBLE (fl_bench_window_get_profile_area (bench)),
                                        GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, said);
  g_assert_null (mismatch);
  /* Export writes the page in view: the profile now, the chart again once it is back */
  g_autofree char *profile_path = g_build_filename (g_get_tmp_dir (), "fl-test-profile.png", NULL);
  g_assert_true (fl_bench_window_export (bench, "png", profile_path, &error));
  g_assert_no_error (error);
  fl_bench_window_show_profile (bench, FALSE);
  g_assert_true (fl_bench_window_export (bench, "png", path, &error));
  g_autofree char *chart = NULL, *profile = NULL;
  gsize chart_len = 0, profile_len = 0;
  g_assert_true (g_file_get_contents (path, &chart, &chart_len, NULL));
  g_assert_true (g_file_get_contents (profile_path, &profile, &profile_len, NULL));
  g_assert_false (chart_len == profile_len && memcmp (chart, profile, chart_len) == 0);
  fl_assert_exported (profile_path);
  fl_assert_exported (path);
  gtk_window_destroy (GTK_WINDOW (bench));
}

static void
test_compare_bench (void)
{
  fl_test_run_application (fl_check_bench, NULL);
}

static void
test_compare_page (void)
{
  fl_test_run_application (fl_check_compare, NULL);
}

int
main (int argc, char *argv[])
{
  fl_test_init_window_test (&argc, &argv);

  g_test_add_func ("/ui/compare/page", test_compare_page);
  g_test_add_func ("/ui/compare/bench", test_compare_bench);

  return g_test_run ();
}
