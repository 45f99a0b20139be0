/* Compare mode tells which design is faster (issue 18 item 7). multi-fault under the
 * generic rwsem (A) against xadd (B): B's whole run takes 7 M cycles against A's 19 M. On
 * the default axis, one time for both runs, B's lanes end left of A's cursor, at 1024×700,
 * 1280×800 and the largest the test's screen holds; with "Each Fitted" they fill the width
 * again, B at the same share of its run as A. The words say which way is better and what B against A means: "B is done 2.6×
 * sooner: faster", "B is 2.6× faster". */

#include <string.h>

#include "fl-compare-page.h"
#include "fl-style.h"
#include "ui-test-helpers.h"

typedef struct {
  int a_right;    /* the rightmost column of A's lanes in the spinning colour: A's cursor */
  int b_right;    /* the rightmost column of B's lanes in the locked-fault colour: B's end */
} Extents;

static gboolean
fl_pixel_is (const guchar *px, const FlRgba *c)
{
  /* BGRA, opaque: the lanes' fills are drawn without alpha in the past */
  return abs (px[2] - (int) (c->r * 255 + 0.5)) <= 2 && abs (px[1] - (int) (c->g * 255 + 0.5)) <= 2
         && abs (px[0] - (int) (c->b * 255 + 0.5)) <= 2;
}

/* A's lanes are above B's (the stacked layout): rows with A's spinning red are A's; the
 * locked-fault orange below them is B's (and the legend's swatch, further left). */
static void
fl_measure (GtkWidget *area, Extents *e)
{
  g_autoptr(GdkTexture) texture = fl_test_render_widget (area);
  int width = gdk_texture_get_width (texture), height = gdk_texture_get_height (texture);
  g_autofree guchar *pixels = g_malloc ((gsize) width * height * 4);
  FlPalette palette;
  int a_bottom = -1;

  fl_style_get_palette (&palette);
  gdk_texture_download (texture, pixels, (gsize) width * 4);
  e->a_right = e->b_right = -1;
  /* A's band: the first rows with red, gaps between lanes allowed, not the legend's
   * swatch far below */
  for (int y = 0; y < height && (a_bottom < 0 || y - a_bottom < 12); y++)
    for (int x = 0; x < width; x++)
      if (fl_pixel_is (pixels + ((gsize) y * width + x) * 4, &palette.activity[FL_ACT_SPIN]))
        {
          e->a_right = MAX (e->a_right, x);
          a_bottom = y;
        }
  for (int y = a_bottom + 1; y < height; y++)
    for (int x = 0; x < width; x++)
      if (fl_pixel_is (pixels + ((gsize) y * width + x) * 4,
                       &palette.activity[FL_ACT_LOCKED_FAULT]))
        e->b_right = MAX (e->b_right, x);
  g_test_message ("A's cursor at x %d, B's end at x %d of %d", e->a_right, e->b_right, width);
  g_assert_cmpint (e->a_right, >, 0);
  g_assert_cmpint (e->b_right, >, 0);
}

static gboolean
fl_is_toggle_labelled (GtkWidget *widget, gconstpointer label)
{
  return GTK_IS_TOGGLE_BUTTON (widget)
         && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0;
}

static void
fl_assert_says (const char *description, const char *words)
{
  if (strstr (description, words) == NULL)
    g_error ("the comparison does not say \"%s\": %s", words, description);
}

/* "B is done N× sooner: faster" and "B is N× faster", one N, and xadd clearly ahead: more
 * than twice as fast (the model's figure moves with the model; the direction is what the
 * words must get right) */
static void
fl_assert_sooner (const char *description)
{
  const char *done = strstr (description, "B is done ");
  g_assert_nonnull (done);
  double n = g_ascii_strtod (done + strlen ("B is done "), NULL);
  g_autofree char *sooner = g_strdup_printf ("B is done %.1f× sooner: faster", n);
  g_autofree char *faster = g_strdup_printf ("B is %.1f× faster", n);
  g_assert_cmpfloat (n, >, 2.0);
  fl_assert_says (description, sooner);
  fl_assert_says (description, faster);
}

static void
fl_check_axis (GtkApplication *app, GtkWindow *window, gpointer data)
{
  static const int sizes[][2] = { { 1024, 700 }, { 1280, 800 }, { 1920, 1080 } };
  FlSession *session = fl_window_get_session (FL_WINDOW (window));
  FlComparePage *page = FL_COMPARE_PAGE (fl_window_get_compare_page (FL_WINDOW (window)));
  g_autoptr(GError) error = NULL;
  GtkWidget *fitted, *one_axis;
  Extents e;

  fl_window_set_scenario (FL_WINDOW (window), "multi-fault");
  fl_test_wait_loaded (session);
  /* three quarters into A's run: B's whole run is over by then (it takes 2/5 of A's time) */
  fl_session_seek (session, fl_session_get_total_steps (session) * 3 / 4);
  g_assert_true (fl_window_start_compare (FL_WINDOW (window), "rwsem", "xadd", &error));
  g_assert_no_error (error);
  while (fl_compare_page_is_loading (page))
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (fl_compare_get_axis (fl_compare_page_get_compare (page)), ==,
                    FL_COMPARE_AXIS_CYCLES);

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      fl_test_fit_window (window, sizes[s][0], sizes[s][1]);
      fl_test_settle ();
      fl_measure (fl_compare_page_get_area (page), &e);
      /* B is over before A is halfway: on one time axis its lanes stop short */
      g_assert_cmpint (e.b_right, <, e.a_right);
    }

  fl_assert_sooner (fl_compare_page_get_description (page));
  fl_assert_says (fl_compare_page_get_description (page),
                  "Faults per second, higher is better: A ");

  /* each fitted: B's lanes stretched to the width, and B moved to the same share of its
   * run as A, so both cursors (the ends of what is drawn as done) stand together */
  fitted = fl_test_find_widget (GTK_WIDGET (page), fl_is_toggle_labelled, "Each Fitted");
  one_axis = fl_test_find_widget (GTK_WIDGET (page), fl_is_toggle_labelled, "One Time Axis");
  g_assert_nonnull (fitted);
  g_assert_nonnull (one_axis);
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (one_axis)));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (fitted), TRUE);
  fl_test_settle ();
  g_assert_cmpuint (fl_compare_get_axis (fl_compare_page_get_compare (page)), ==,
                    FL_COMPARE_AXIS_FIT);
  fl_measure (fl_compare_page_get_area (page), &e);
  g_assert_cmpint (ABS (e.b_right - e.a_right), <=, 3);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (one_axis), TRUE);
  fl_test_settle ();
  fl_measure (fl_compare_page_get_area (page), &e);
  g_assert_cmpint (e.b_right, <, e.a_right);
}

static void
test_compare_axis (void)
{
  fl_test_run_application (fl_check_axis, NULL);
}

/* Which way is better, in words, for every kind of row. */
static void
test_compare_words (void)
{
  static const struct {
    FlBetter better;
    gboolean rate;
    guint64  a, b;
    const char *words;
    int verdict;
  } cases[] = {
    { FL_BETTER_HIGHER, TRUE, 1000, 2900, "B is 2.9× faster", 1 },
    { FL_BETTER_HIGHER, TRUE, 2900, 1000, "B is 2.9× slower", -1 },
    { FL_BETTER_LOWER, FALSE, 100, 249, "2.5× more: worse", -1 },
    { FL_BETTER_LOWER, FALSE, 249, 100, "2.5× fewer: better", 1 },
    { FL_BETTER_HIGHER, FALSE, 100, 200, "2.0× more: better", 1 },
    { FL_BETTER_NEITHER, FALSE, 100, 200, "2.0× more", 0 },
    { FL_BETTER_LOWER, FALSE, 0, 3, "only B: worse", -1 },
    { FL_BETTER_LOWER, FALSE, 3, 0, "none in B: better", 1 },
    { FL_BETTER_LOWER, FALSE, 7, 7, "same", 0 },
    { FL_BETTER_LOWER, FALSE, 100, 104, "1.04× more: worse", -1 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      int verdict = 2;
      g_autofree char *words = fl_compare_words (cases[i].better, cases[i].rate, cases[i].a,
                                                 cases[i].b, &verdict);

      g_assert_cmpstr (words, ==, cases[i].words);
      g_assert_cmpint (verdict, ==, cases[i].verdict);
    }
  {
    int verdict = 0;
    g_autofree char *sooner = fl_compare_finish_words (20000000, 7000000, &verdict);
    g_autofree char *later = fl_compare_finish_words (7000000, 20000000, NULL);

    g_assert_cmpstr (sooner, ==, "B is done 2.9× sooner: faster");
    g_assert_cmpint (verdict, ==, 1);
    g_assert_cmpstr (later, ==, "B takes 2.9× as long: slower");
    /* spf-vs-munmap, rcu against immediate: 27 209 and 27 098 cycles are no verdict */
    g_autofree char *close = fl_compare_finish_words (27209, 27098, &verdict);
    g_assert_cmpstr (close, ==, "Both runs take about as long.");
    g_assert_cmpint (verdict, ==, 0);
    g_autofree char *rate = fl_compare_words (FL_BETTER_HIGHER, TRUE, 1000, 1005, &verdict);
    g_assert_cmpstr (rate, ==, "same speed");
  }
}

int
main (int argc, char **argv)
{
  fl_test_init_window_test (&argc, &argv);

  g_test_add_func ("/ui/compare-axis/words", test_compare_words);
  g_test_add_func ("/ui/compare-axis/one-time-axis", test_compare_axis);
  return g_test_run ();
}
