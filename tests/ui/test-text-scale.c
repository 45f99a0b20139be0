/* The text scale for lectures (issue 18 item 8): Ctrl+plus, Ctrl+minus and Ctrl+0 are the
 * window's accelerators, listed in the main menu; each step makes the painters' text larger
 * or smaller at 1024×700, 1280×800 and 1920×1080 (what is measured is the text the painters
 * drew, fl_view_texts), and an application started afresh opens at the scale chosen last. */

#include <math.h>
#include <string.h>

#include "fl-view-area.h"
#include "ui-test-helpers.h"

static const int sizes[][2] = { { 1024, 700 }, { 1280, 800 }, { 1920, 1080 } };

/* The views whose text is checked: the code and why, the lanes' labels and legend, the
 * tree, the page tables, cache lines and RCU. */
static const FlView checked[] = {
  FL_VIEW_LISTING, FL_VIEW_LANES, FL_VIEW_VMA, FL_VIEW_PGTABLE, FL_VIEW_CACHE, FL_VIEW_RCU,
};

static int
fl_compare_doubles (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* The median height of the lines of text a view drew, in the view's pixels: a title or a
 * legend more or less does not move it. The panel is taken as large as it would be at the
 * size asked for when the screen is smaller (scale_w, scale_h). */
static double
fl_text_height_of (GtkWindow *window, const FlCursor *cursor, FlView view, double scale_w, double scale_h)
{
  FlViewport viewport;
  g_autoptr(GArray) texts = NULL;
  g_autoptr(GArray) heights = g_array_new (FALSE, FALSE, sizeof (double));

  fl_view_area_get_viewport (fl_test_find_view (GTK_WIDGET (window), view), &viewport);
  viewport.width = floor (viewport.width * scale_w);
  viewport.height = floor (viewport.height * scale_h);
  texts = fl_view_texts (view, cursor, &viewport);
  for (guint i = 0; i < texts->len; i++)
    g_array_append_val (heights, g_array_index (texts, FlElidedText, i).height);
  g_assert_cmpuint (heights->len, >, 0);
  g_array_sort (heights, fl_compare_doubles);
  return g_array_index (heights, double, heights->len / 2);
}

static double
fl_font_scale_of (GtkWindow *window, FlView view)
{
  FlViewport viewport;

  fl_view_area_get_viewport (fl_test_find_view (GTK_WIDGET (window), view), &viewport);
  return viewport.font_scale;
}

/* Whether the main menu has an item for `action`, in any section. */
static gboolean
fl_menu_has_action (GMenuModel *menu, const char *action)
{
  for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autofree char *name = NULL;
      g_autoptr(GMenuModel) section = g_menu_model_get_item_link (menu, i, G_MENU_LINK_SECTION);

      if (g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_ACTION, "s", &name)
          && g_strcmp0 (name, action) == 0)
        return TRUE;
      if (section != NULL && fl_menu_has_action (section, action))
        return TRUE;
    }
  return FALSE;
}

static gboolean
fl_is_menu_button (GtkWidget *widget, gconstpointer data)
{
  return GTK_IS_MENU_BUTTON (widget) && gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (widget));
}

/* The keys a lecturer presses are the actions' accelerators, and the menu lists them. */
static void
fl_check_keys_and_menu (GtkApplication *app, GtkWindow *window)
{
  static const struct { const char *accel, *action; } keys[] = {
    { "<Control>plus", "win.text-larger" },
    { "<Control>equal", "win.text-larger" },
    { "<Control>minus", "win.text-smaller" },
    { "<Control>0", "win.text-normal" },
  };
  GtkWidget *titlebar = gtk_window_get_titlebar (window);
  GtkWidget *menu_button = fl_test_find_widget (titlebar, fl_is_menu_button, NULL);
  GMenuModel *menu;

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      g_auto(GStrv) actions = gtk_application_get_actions_for_accel (app, keys[i].accel);

      g_assert_true (g_strv_contains ((const char *const *) actions, keys[i].action));
    }
  g_assert_nonnull (menu_button);
  menu = gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (menu_button));
  g_assert_true (fl_menu_has_action (menu, "win.text-larger"));
  g_assert_true (fl_menu_has_action (menu, "win.text-smaller"));
  g_assert_true (fl_menu_has_action (menu, "win.text-normal"));
}

static void
fl_check_steps (GtkApplication *app, GtkWindow *window, gpointer data)
{
  FlSession *session = fl_window_get_session (FL_WINDOW (window));
  const FlCursor *cursor;

  fl_test_wait_loaded (session);
  fl_window_set_scenario (FL_WINDOW (window), "spf-vs-munmap");
  fl_test_wait_loaded (session);
  fl_session_seek (session, 30);
  cursor = fl_session_get_cursor (session);
  fl_check_keys_and_menu (app, window);
  g_assert_cmpfloat (fl_font_scale_of (window, FL_VIEW_LISTING), ==, 1.0);

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      double scale_w, scale_h;
      double normal[G_N_ELEMENTS (checked)];

      fl_test_fit_window_scaled (window, sizes[s][0], sizes[s][1], &scale_w, &scale_h);
      for (guint v = 0; v < G_N_ELEMENTS (checked); v++)
        normal[v] = fl_text_height_of (window, cursor, checked[v], scale_w, scale_h);
      /* two steps up: 1.25 times the type, in every view */
      g_action_group_activate_action (G_ACTION_GROUP (window), "text-larger", NULL);
      g_action_group_activate_action (G_ACTION_GROUP (window), "text-larger", NULL);
      fl_test_settle ();
      for (guint v = 0; v < G_N_ELEMENTS (checked); v++)
        {
          double larger = fl_text_height_of (window, cursor, checked[v], scale_w, scale_h);

          g_test_message ("%dx%d %s: text %.1f px, %.1f px at 1.25", sizes[s][0], sizes[s][1],
                          fl_view_name (checked[v]), normal[v], larger);
          g_assert_cmpfloat (fl_font_scale_of (window, checked[v]), ==, 1.25);
          g_assert_cmpfloat (larger, >=, normal[v] * 1.12);
        }
      /* one step down from normal: smaller */
      g_action_group_activate_action (G_ACTION_GROUP (window), "text-normal", NULL);
      g_action_group_activate_action (G_ACTION_GROUP (window), "text-smaller", NULL);
      fl_test_settle ();
      g_assert_cmpfloat (fl_font_scale_of (window, FL_VIEW_LISTING), ==, 0.9);
      g_assert_cmpfloat (fl_text_height_of (window, cursor, FL_VIEW_LISTING, scale_w, scale_h), <,
                         normal[0]);
      g_action_group_activate_action (G_ACTION_GROUP (window), "text-normal", NULL);
      fl_test_settle ();
      g_assert_cmpfloat (fl_font_scale_of (window, FL_VIEW_LISTING), ==, 1.0);
    }

  /* the largest step is as far as it goes: the menu item greys out */
  for (int i = 0; i < 12; i++)
    g_action_group_activate_action (G_ACTION_GROUP (window), "text-larger", NULL);
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "text-larger"));
  g_assert_cmpfloat (fl_font_scale_of (window, FL_VIEW_VMA), ==, 2.5);
  /* and what the next launch opens with: 1.5 */
  g_action_group_activate_action (G_ACTION_GROUP (window), "text-normal", NULL);
  for (int i = 0; i < 3; i++)
    g_action_group_activate_action (G_ACTION_GROUP (window), "text-larger", NULL);
  g_assert_cmpfloat (fl_font_scale_of (window, FL_VIEW_LISTING), ==, 1.5);
}

/* A new application (GSettings' memory backend lives as long as the test program) opens
 * with the scale chosen before it quit, in every view, and Ctrl+0 goes back to normal. */
static void
fl_check_remembered (GtkApplication *app, GtkWindow *window, gpointer data)
{
  g_autoptr(GPtrArray) views = fl_test_find_views (GTK_WIDGET (window));
  FlSession *session = fl_window_get_session (FL_WINDOW (window));
  double before;

  fl_test_wait_loaded (session);
  fl_test_settle ();
  for (guint i = 0; i < views->len; i++)
    {
      FlViewport viewport;

      fl_view_area_get_viewport (views->pdata[i], &viewport);
      g_assert_cmpfloat (viewport.font_scale, ==, 1.5);
    }
  before = fl_text_height_of (window, fl_session_get_cursor (session), FL_VIEW_LISTING, 1, 1);
  g_action_group_activate_action (G_ACTION_GROUP (window), "text-normal", NULL);
  fl_test_settle ();
  g_assert_cmpfloat (fl_font_scale_of (window, FL_VIEW_LISTING), ==, 1.0);
  g_assert_cmpfloat (fl_text_height_of (window, fl_session_get_cursor (session), FL_VIEW_LISTING,
                                        1, 1), <, before / 1.3);
}

static gboolean
fl_is_step_label (GtkWidget *widget, gconstpointer data)
{
  return GTK_IS_LABEL (widget) && gtk_widget_has_css_class (widget, "fl-step-label");
}

static int
fl_height_of (GtkWidget *widget)
{
  int natural = 0;

  gtk_widget_measure (widget, GTK_ORIENTATION_VERTICAL, -1, NULL, &natural, NULL, NULL);
  return natural;
}

/* The header bar's text (the step, the scenario, the title) grows with the text scale in a
 * window wide enough for it, and stays as it is at 1024 pixels, which it must not widen. */
static void
fl_check_header (GtkApplication *app, GtkWindow *window, gpointer data)
{
  GtkWidget *step = fl_test_find_widget (gtk_window_get_titlebar (window), fl_is_step_label,
                                         NULL);
  int normal;

  fl_test_wait_loaded (fl_window_get_session (FL_WINDOW (window)));
  g_assert_nonnull (step);
  fl_test_fit_window (window, 1500, 900);
  fl_test_settle ();
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), >=, 1400);
  normal = fl_height_of (step);
  for (int i = 0; i < 8; i++)   /* to the largest step, 2.5 */
    g_action_group_activate_action (G_ACTION_GROUP (window), "text-larger", NULL);
  fl_test_settle ();
  g_test_message ("step label %d px at 1.0, %d px at 2.5", normal, fl_height_of (step));
  g_assert_cmpint (fl_height_of (step), >=, normal * 2);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <=, 1500);

  fl_test_fit_window (window, 1024, 700);
  fl_test_settle ();
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), ==, 1024);
  g_assert_cmpint (fl_height_of (step), ==, normal);
  g_action_group_activate_action (G_ACTION_GROUP (window), "text-normal", NULL);
}

/* At a lecture's scale the line the CPU is at shows all its code, wrapped, where it is
 * wider than the listing: spf-vs-munmap's cpu0 at handle_pte_fault, at step 30, in a
 * listing of the size the grid gives it at 1920×1080. */
static void
fl_check_listing_wraps (GtkApplication *app, GtkWindow *window, gpointer data)
{
  FlSession *session = fl_window_get_session (FL_WINDOW (window));
  FlViewport viewport;
  gboolean continued = FALSE;

  fl_test_wait_loaded (session);
  fl_window_set_scenario (FL_WINDOW (window), "spf-vs-munmap");
  fl_test_wait_loaded (session);
  fl_session_seek (session, 30);
  fl_test_fit_window (window, 1500, 900);
  for (int i = 0; i < 4; i++)   /* 1.75 */
    g_action_group_activate_action (G_ACTION_GROUP (window), "text-larger", NULL);
  fl_test_settle ();
  fl_view_area_get_viewport (fl_test_find_view (GTK_WIDGET (window), FL_VIEW_LISTING), &viewport);
  /* the listing as the grid gives it at 1920×1080: a third of the width, under the lanes */
  viewport.width = 620;
  viewport.height = 540;
  g_assert_cmpfloat (viewport.font_scale, ==, 1.75);
  g_autoptr(GArray) texts = fl_view_texts (FL_VIEW_LISTING, fl_session_get_cursor (session),
                                           &viewport);
  for (guint i = 0; i < texts->len; i++)
    {
      const char *t = g_array_index (texts, FlElidedText, i).text;
      g_test_message ("listing: %s", t);
      /* the end of the call, on a row of its own: the line was wrapped, not cut */
      if (strstr (t, "seq);") != NULL && strstr (t, "handle_pte_fault") == NULL)
        continued = TRUE;
    }
  g_assert_true (continued);
  g_action_group_activate_action (G_ACTION_GROUP (window), "text-normal", NULL);
}

static void
test_text_scale_header (void)
{
  fl_test_run_application (fl_check_header, NULL);
}

static void
test_text_scale_listing_wraps (void)
{
  fl_test_run_application (fl_check_listing_wraps, NULL);
}

static void
test_text_scale_steps (void)
{
  fl_test_run_application (fl_check_steps, NULL);
}

static void
test_text_scale_remembered (void)
{
  fl_test_run_application (fl_check_remembered, NULL);
}

int
main (int argc, char **argv)
{
  fl_test_init_window_test (&argc, &argv);

  g_test_add_func ("/ui/text-scale/steps", test_text_scale_steps);
  /* after /steps, which leaves the scale at 1.5 */
  g_test_add_func ("/ui/text-scale/remembered", test_text_scale_remembered);
  g_test_add_func ("/ui/text-scale/header", test_text_scale_header);
  g_test_add_func ("/ui/text-scale/listing-wraps", test_text_scale_listing_wraps);
  return g_test_run ();
}
