/* test-view-cache.c — what a widget keeps of a view between frames (FlViewCache, the lanes'
 * pixel columns) changes nothing drawn: at one step and the next, in the lanes and in the
 * whole window's layout, zoomed in or not, and for another run drawn through the same cache
 * (one view shows whatever run the session has). */
#include "fl-paint.h"
#include "painter-test-helpers.h"

#include <string.h>

#define WIDTH  1280
#define HEIGHT 720

/* The pixels of `view` of `cursor`, drawn with the widget's cache or without, over the
 * lanes' first `cycles` (0: the whole run). */
static cairo_surface_t *
drawn_with (FlView view, const FlCursor *cursor, FlViewCache *cache, const FlPalette *palette,
            guint64 cycles)
{
  FlViewport vp = { .width = WIDTH, .height = HEIGHT, .font_scale = 1, .cache = cache,
                    .time_start = 0, .time_end = cycles };
  cairo_surface_t *s = fl_paint_view_image (view, cursor, &vp, palette);
  cairo_surface_flush (s);
  return s;
}

static void
assert_same_pixels (cairo_surface_t *a, cairo_surface_t *b, const char *what)
{
  int h = cairo_image_surface_get_height (a), stride = cairo_image_surface_get_stride (a);
  g_assert_cmpint (cairo_image_surface_get_height (b), ==, h);
  g_assert_cmpint (cairo_image_surface_get_stride (b), ==, stride);
  const guint8 *pa = cairo_image_surface_get_data (a), *pb = cairo_image_surface_get_data (b);
  for (int y = 0; y < h; y++)
    if (memcmp (pa + y * stride, pb + y * stride, stride) != 0)
      g_error ("%s: row %d differs with the widget's cache from without", what, y);
}

static void
test_view_cache (void)
{
  FlPalette palette;
  fl_palette_init_light (&palette);
  g_autoptr (FlRun) a = fl_test_run_for ("spf-vs-munmap", NULL, NULL, 0);
  /* another scenario of as many CPUs: over the same window of time, only the run tells
   * its columns from the first's */
  g_autoptr (FlRun) b = fl_test_run_for ("spf-vs-mprotect", NULL, NULL, 0);
  g_assert_false (fl_run_same (a, b));
  g_autoptr (FlCursor) ca = fl_cursor_new (a);
  g_autoptr (FlCursor) cb = fl_cursor_new (b);
  g_autoptr (FlViewCache) cache = fl_view_cache_new ();
  static const FlView views[] = { FL_VIEW_LANES, FL_VIEW_ALL };
  guint64 window = MIN (fl_run_get_last_cycle (a), fl_run_get_last_cycle (b)) / 2;
  for (guint v = 0; v < G_N_ELEMENTS (views); v++)
    for (guint k = 0; k < 6; k++)
      {
        FlCursor *cursor = k % 3 == 2 ? cb : ca;
        guint64 cycles = k < 3 ? window : 0;
        g_assert_true (fl_cursor_seek (cursor, 10 + 7 * (k % 3)));
        cairo_surface_t *kept = drawn_with (views[v], cursor, cache, &palette, cycles);
        cairo_surface_t *fresh = drawn_with (views[v], cursor, NULL, &palette, cycles);
        g_autofree char *what = g_strdup_printf ("%s view, frame %u", fl_view_name (views[v]), k);
        assert_same_pixels (kept, fresh, what);
        cairo_surface_destroy (kept);
        cairo_surface_destroy (fresh);
      }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ui/view-cache/same-pixels", test_view_cache);
  return g_test_run ();
}
