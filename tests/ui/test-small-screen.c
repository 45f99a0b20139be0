/* The window at 1024×700, 1280×800 and 1920×1080 (issue 18 items 8 and 9): the header bar
 * fits the width and the scenario picker's name is whole (its label is not ellipsized); the
 * cache view keeps its "last" column; at 1024×700 and 1280×800 the panels become tabs
 * beside the listing, which then shows at least MIN_CODE_LINES lines of code, and the cache
 * view shows every row it has; at 1920×1080 they stay a grid. In presentation mode the
 * lanes keep their legend and the caption covers no view. What is checked is what GTK laid
 * out (sizes, bounds, Pango layouts) and what the painters drew (fl_view_texts). */

#include <math.h>
#include <string.h>

#include "fl-panels.h"
#include "fl-view-area.h"
#include "ui-test-helpers.h"

#define MIN_CODE_LINES 10
/* at a lecture's text scale (1.75) the code is fewer, larger lines under a larger step box */
#define MIN_LECTURE_LINES 5

static const int sizes[][2] = { { 1024, 700 }, { 1280, 800 }, { 1920, 1080 } };
/* the longest built-in id, the longest run (its step count is the header's widest text), and
 * two more */
static const char *const scenarios[] = {
  "rwsem-generic-bounce", "will-it-scale-pf1", "spf-vs-munmap", "cow-write-fault",
};

static gboolean
fl_is_scenario_label (GtkWidget *widget, gconstpointer data)
{
  return GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), data) == 0;
}

/* The painters' texts of a view as the window shows it, at the size asked for when the
 * screen is smaller (scale_w, scale_h). */
static GArray *
fl_texts_of (GtkWindow *window, const FlCursor *cursor, FlView view, double scale_w, double scale_h,
             FlViewport *viewport)
{
  fl_view_area_get_viewport (fl_test_show_view (window, view), viewport);
  viewport->width = floor (viewport->width * scale_w);
  viewport->height = floor (viewport->height * scale_h);
  g_assert_cmpfloat (viewport->width, >, 1);
  return fl_view_texts (view, cursor, viewport);
}

static gboolean
fl_texts_have (GArray *texts, const char *text)
{
  for (guint i = 0; i < texts->len; i++)
    if (g_strcmp0 (g_array_index (texts, FlElidedText, i).text, text) == 0)
      return TRUE;
  return FALSE;
}

/* Line numbers in the listing: texts of digits only. */
static guint
fl_count_code_lines (GArray *texts)
{
  guint n = 0;

  for (guint i = 0; i < texts->len; i++)
    {
      const char *t = g_array_index (texts, FlElidedText, i).text;
      if (t[0] != '\0' && strspn (t, "0123456789") == strlen (t))
        n++;
    }
  return n;
}

static guint
fl_count_cache_rows (const FlCursor *cursor, const FlViewport *viewport)
{
  g_autoptr(GArray) boxes = fl_cache_label_boxes (cursor, viewport);
  guint n = 0;

  for (guint i = 0; i < boxes->len; i++)
    if (g_array_index (boxes, FlLabelBox, i).line != 0)
      n++;
  return n;
}

static void
fl_check_sizes (GtkApplication *app, GtkWindow *window, gpointer data)
{
  FlSession *session = fl_window_get_session (FL_WINDOW (window));
  FlPanels *panels = fl_test_find_panels (window);

  fl_test_wait_loaded (session);
  for (guint k = 0; k < G_N_ELEMENTS (scenarios); k++)
    {
      const FlCursor *cursor;

      fl_window_set_scenario (FL_WINDOW (window), scenarios[k]);
      fl_test_wait_loaded (session);
      fl_session_seek (session, MIN (30, fl_session_get_total_steps (session)));
      cursor = fl_session_get_cursor (session);
      for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
        {
          double scale_w, scale_h;
          GtkWidget *label;
          FlViewport viewport, tall;
          g_autoptr(GArray) listing = NULL;
          g_autoptr(GArray) cache = NULL;
          guint lines;

          fl_test_fit_window_scaled (window, sizes[s][0], sizes[s][1], &scale_w, &scale_h);
          /* the header bar leaves the window the width asked for */
          if (sizes[s][0] <= 1280)
            g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), ==, sizes[s][0]);
          /* the picker says the whole name */
          label = fl_test_find_widget (gtk_window_get_titlebar (window), fl_is_scenario_label,
                                       scenarios[k]);
          g_assert_nonnull (label);
          g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (label))));

          listing = fl_texts_of (window, cursor, FL_VIEW_LISTING, scale_w, scale_h, &viewport);
          lines = fl_count_code_lines (listing);
          cache = fl_texts_of (window, cursor, FL_VIEW_CACHE, scale_w, scale_h, &viewport);
          g_test_message ("%s at %dx%d: %s, listing %u lines, cache %ux%.0f px", scenarios[k],
                          sizes[s][0], sizes[s][1],
                          fl_panels_is_compact (panels) ? "tabs" : "grid", lines,
                          (guint) viewport.width, viewport.height);
          g_assert_true (fl_texts_have (cache, "last"));
          if (sizes[s][0] > 1280)
            {
              g_assert_false (fl_panels_is_compact (panels));
              continue;
            }
          /* 1024×700 and 1280×800: tabs, a listing of the whole height, a cache view with
           * every row */
          g_assert_true (fl_panels_is_compact (panels));
          g_assert_cmpuint (lines, >=, MIN_CODE_LINES);
          tall = viewport;
          tall.height = 2000;
          g_assert_cmpuint (fl_count_cache_rows (cursor, &viewport), ==, fl_count_cache_rows (cursor, &tall));
        }
    }
}

static gboolean
fl_bounds_meet (const graphene_rect_t *a, const graphene_rect_t *b)
{
  graphene_rect_t both;

  return graphene_rect_intersection (a, b, &both) && both.size.width > 0.5
         && both.size.height > 0.5;
}

/* Presenting: the lanes' legend is drawn, and the caption shares no pixel with a view. */
static void
fl_check_presenting (GtkApplication *app, GtkWindow *window, gpointer data)
{
  FlSession *session = fl_window_get_session (FL_WINDOW (window));
  GtkWidget *caption = fl_window_get_caption (FL_WINDOW (window));
  g_autoptr(GError) error = NULL;

  fl_test_wait_loaded (session);
  fl_window_set_scenario (FL_WINDOW (window), "spf-vs-munmap");
  fl_test_wait_loaded (session);
  fl_session_seek (session, 30);
  g_assert_true (fl_window_add_bookmark (FL_WINDOW (window), "cpu1 unlinks the VMA",
                                         "cpu0 still holds it under RCU", &error));
  g_action_group_activate_action (G_ACTION_GROUP (window), "present", NULL);
  g_action_group_activate_action (G_ACTION_GROUP (window), "next-bookmark", NULL);
  g_assert_true (fl_window_is_presenting (FL_WINDOW (window)));

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      g_autoptr(GPtrArray) views = fl_test_find_views (GTK_WIDGET (window));
      g_autoptr(GArray) lanes = NULL;
      graphene_rect_t at;
      FlViewport viewport;
      double scale_w, scale_h;

      fl_test_fit_window_scaled (window, sizes[s][0], sizes[s][1], &scale_w, &scale_h);
      g_assert_true (gtk_widget_get_mapped (caption));
      g_assert_true (gtk_widget_compute_bounds (caption, GTK_WIDGET (window), &at));
      g_assert_cmpfloat (at.size.height, >, 20);
      for (guint i = 0; i < views->len; i++)
        {
          graphene_rect_t view;

          if (!gtk_widget_get_mapped (views->pdata[i]))
            continue;   /* a tab not shown */
          g_assert_true (gtk_widget_compute_bounds (views->pdata[i], GTK_WIDGET (window), &view));
          if (fl_bounds_meet (&at, &view))
            g_error ("at %dx%d the caption (%.0f,%.0f %.0fx%.0f) covers the %s view", sizes[s][0],
                     sizes[s][1], at.origin.x, at.origin.y, at.size.width, at.size.height,
                     fl_view_name (fl_view_area_get_view (views->pdata[i])));
        }
      lanes = fl_texts_of (window, fl_session_get_cursor (session), FL_VIEW_LANES, 1, 1, &viewport);
      g_test_message ("at %dx%d presenting: lanes %.0fx%.0f px, caption %.0f px tall", sizes[s][0],
                      sizes[s][1], viewport.width, viewport.height, at.size.height);
      g_assert_true (fl_texts_have (lanes, "finding"));
      g_assert_true (fl_texts_have (lanes, "the CPU's clock at this step"));
    }
  g_action_group_activate_action (G_ACTION_GROUP (window), "present", NULL);
  g_assert_false (gtk_widget_get_visible (caption));
}

/* A lecture at 1920×1080 with the text at 1.75: the grid's rows are too short for that type,
 * so the panels are tabs in two groups, and the tree, RCU and the listing are on screen
 * together (the screen of make test is 1600 wide: wide enough for two groups). */
static void
fl_check_lecture (GtkApplication *app, GtkWindow *window, gpointer data)
{
  FlSession *session = fl_window_get_session (FL_WINDOW (window));
  FlPanels *panels = fl_test_find_panels (window);
  double scale_w, scale_h;
  FlViewport viewport;
  g_autoptr(GArray) listing = NULL;
  g_autoptr(GArray) vma = NULL;

  fl_test_wait_loaded (session);
  fl_window_set_scenario (FL_WINDOW (window), "spf-vs-munmap");
  fl_test_wait_loaded (session);
  fl_session_seek (session, 30);
  for (int i = 0; i < 4; i++)
    g_action_group_activate_action (G_ACTION_GROUP (window), "text-larger", NULL);
  fl_test_fit_window_scaled (window, 1920, 1080, &scale_w, &scale_h);
  g_assert_true (fl_panels_is_compact (panels));
  fl_test_show_view (window, FL_VIEW_RCU);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (fl_test_find_view (GTK_WIDGET (window), FL_VIEW_VMA))));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (fl_test_find_view (GTK_WIDGET (window), FL_VIEW_RCU))));
  listing = fl_texts_of (window, fl_session_get_cursor (session), FL_VIEW_LISTING, 1, 1, &viewport);
  g_assert_cmpfloat (viewport.font_scale, ==, 1.75);
  g_assert_cmpuint (fl_count_code_lines (listing), >=, MIN_LECTURE_LINES);
  /* the box of the unlinked VMA: its range in type at least 1.75 times 13 px */
  vma = fl_texts_of (window, fl_session_get_cursor (session), FL_VIEW_VMA, 1, 1, &viewport);
  guint ranges = 0;
  for (guint i = 0; i < vma->len; i++)
    {
      const FlElidedText *t = &g_array_index (vma, FlElidedText, i);
      /* "7f0000000000–7f0000004000", or "…0000–…4000" under a note of the digits cut */
      if (strstr (t->text, "–") != NULL)
        {
          g_assert_cmpfloat (t->height, >=, 13 * 1.75);
          ranges++;
        }
    }
  g_assert_cmpuint (ranges, ==, 1);
  g_action_group_activate_action (G_ACTION_GROUP (window), "text-normal", NULL);
}

/* In tabs at 1024×700, jumping to a finding brings on screen the panel that marks it: the
 * page tables for spf-vs-mprotect's stale PTE (spf-seqcheck=off), from the VMA tree tab. */
static void
fl_check_finding_tab (GtkApplication *app, GtkWindow *window, gpointer data)
{
  FlSession *session = fl_window_get_session (FL_WINDOW (window));
  FlPanels *panels = fl_test_find_panels (window);

  fl_test_wait_loaded (session);
  fl_window_set_scenario (FL_WINDOW (window), "spf-vs-mprotect");
  fl_test_wait_loaded (session);
  g_assert_true (fl_session_set_switch (session, "spf-seqcheck", "off", NULL));
  fl_test_wait_loaded (session);
  fl_test_fit_window (window, 1024, 700);
  g_assert_true (fl_panels_is_compact (panels));
  fl_panels_set_tab (panels, 0);
  fl_test_settle ();
  g_assert_false (fl_panels_is_shown (panels, 1));
  g_assert_true (fl_session_next_finding (session));
  fl_test_settle ();
  g_assert_true (fl_panels_is_shown (panels, 1));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (fl_test_find_view (GTK_WIDGET (window),
                                                                       FL_VIEW_PGTABLE))));
}

static void
test_small_screen_finding_tab (void)
{
  fl_test_run_application (fl_check_finding_tab, NULL);
}

static void
test_small_screen_lecture (void)
{
  fl_test_run_application (fl_check_lecture, NULL);
}

static void
test_small_screen_sizes (void)
{
  fl_test_run_application (fl_check_sizes, NULL);
}

static void
test_small_screen_presenting (void)
{
  fl_test_run_application (fl_check_presenting, NULL);
}

int
main (int argc, char **argv)
{
  g_autofree char *data_home = fl_test_private_data_home ("small-screen");
  int status;

  fl_test_init_window_test (&argc, &argv);
  g_test_add_func ("/ui/small-screen/sizes", test_small_screen_sizes);
  g_test_add_func ("/ui/small-screen/presenting", test_small_screen_presenting);
  g_test_add_func ("/ui/small-screen/lecture", test_small_screen_lecture);
  g_test_add_func ("/ui/small-screen/finding-tab", test_small_screen_finding_tab);
  status = g_test_run ();
  fl_test_remove_data_home (data_home);
  return status;
}
