/* test-charts.c — the teaching painters without a display: the benchmark charts, the compare
 * view and its operation alignment, and range exports (a page or a file per step, walked by
 * the export's own cursor: the caller's stays where it was). */
#include "fl-export-range.h"
#include "fl-paint-chart.h"
#include "fl-paint-compare-private.h"
#include "fl-paint-sensitivity.h"
#include "painter-test-helpers.h"

#include <cairo.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#define WIDTH  1280
#define HEIGHT 720

/* What `bench --cpus 1,2,4,8 --rounds 1` measured, rounded. */
static const FlBenchPoint bench_points[] = {
  { "multi-fault", "baseline", 1, 403815, 1.00, 0 },
  { "multi-fault", "xadd", 1, 404508, 1.00, 0 },
  { "multi-fault", "spf", 1, 391444, 0.97, 0 },
  { "multi-fault", "xadd+spf", 1, 391447, 0.97, 0 },
  { "multi-fault", "baseline", 2, 742023, 1.00, 0 },
  { "multi-fault", "xadd", 2, 742945, 1.00, 0 },
  { "multi-fault", "spf", 2, 733972, 0.99, 0 },
  { "multi-fault", "xadd+spf", 2, 734035, 0.99, 0 },
  { "multi-fault", "baseline", 4, 1375163, 1.00, 0 },
  { "multi-fault", "xadd", 4, 1374877, 1.00, 0 },
  { "multi-fault", "spf", 4, 1449027, 1.05, 0 },
  { "multi-fault", "xadd+spf", 4, 1449318, 1.05, 0 },
  { "multi-fault", "baseline", 8, 715331, 1.00, 1.00 },
  { "multi-fault", "xadd", 8, 2082490, 2.91, 3.10 },
  { "multi-fault", "spf", 8, 2470909, 3.45, 3.36 },
  { "multi-fault", "xadd+spf", 8, 2509458, 3.51, 3.55 },
};

static guint32
pixel (cairo_surface_t *s, int x, int y)
{
  const guint8 *data = cairo_image_surface_get_data (s);
  return *(const guint32 *) (data + y * cairo_image_surface_get_stride (s) + x * 4);
}

/* Distinct colours that cover at least a few pixels: antialiasing alone does not count. */
static guint
solid_colours (cairo_surface_t *s)
{
  int w = cairo_image_surface_get_width (s), h = cairo_image_surface_get_height (s);
  g_autoptr (GHashTable) count = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        gpointer key = GUINT_TO_POINTER (pixel (s, x, y));
        g_hash_table_insert (count, key,
                             GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (count, key)) + 1));
      }
  guint solid = 0;
  GHashTableIter it;
  gpointer value;
  g_hash_table_iter_init (&it, count);
  while (g_hash_table_iter_next (&it, NULL, &value))
    solid += GPOINTER_TO_UINT (value) >= 40;
  return solid;
}

/* Non-blank: a good share of pixels differ from the background, and more than `min`
 * colours each cover a patch of the image. */
static void
assert_drawn (cairo_surface_t *s, guint min, const char *what)
{
  cairo_surface_flush (s);
  int w = cairo_image_surface_get_width (s), h = cairo_image_surface_get_height (s);
  guint32 bg = pixel (s, w - 1, h - 1);
  guint64 differ = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      differ += pixel (s, x, y) != bg;
  guint colours = solid_colours (s);
  g_test_message ("%s: %" G_GUINT64_FORMAT " of %d pixels drawn, %u colours", what, differ,
                  w * h, colours);
  if (differ * 50 < (guint64) w * h || colours <= min)
    g_error ("%s looks blank: %" G_GUINT64_FORMAT " of %d pixels differ from the background, "
             "%u colours", what, differ, w * h, colours);
}

/* The share of pixels (in %) that differ between two images of one size. */
static double
differ_percent (cairo_surface_t *a, cairo_surface_t *b)
{
  int w = cairo_image_surface_get_width (a), h = cairo_image_surface_get_height (a);
  guint64 n = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      n += pixel (a, x, y) != pixel (b, x, y);
  return 100.0 * n / ((double) w * h);
}

static gboolean
has_colour (cairo_surface_t *s, const FlRgba *c)
{
  guint32 want = 0xff000000u | ((guint32) (c->r * 255 + 0.5) << 16)
                 | ((guint32) (c->g * 255 + 0.5) << 8) | (guint32) (c->b * 255 + 0.5);
  int w = cairo_image_surface_get_width (s), h = cairo_image_surface_get_height (s);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      if (pixel (s, x, y) == want)
        return TRUE;
  return FALSE;
}

typedef void (*ChartFn) (cairo_t *, const FlBenchPoint *, guint, const FlViewport *,
                         const FlPalette *);

static cairo_surface_t *
chart_image (ChartFn fn, const FlBenchPoint *pts, guint n, gboolean dark)
{
  FlPalette pal;
  if (dark)
    fl_palette_init_dark (&pal);
  else
    fl_palette_init_light (&pal);
  FlViewport vp = { .width = WIDTH, .height = HEIGHT, .font_scale = 1.0 };
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (s);
  fn (cr, pts, n, &vp, &pal);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_flush (s);
  return s;
}

/* Each chart draws, in both styles, with every configuration's colour on it. */
static void
test_bench_charts (void)
{
  static const struct { const char *name; ChartFn fn; } charts[] = {
    { "scaling", fl_paint_bench_scaling },
    { "bars", fl_paint_bench_bars },
    { "both", fl_paint_bench_chart },
  };
  FlPalette light;
  fl_palette_init_light (&light);
  for (guint i = 0; i < G_N_ELEMENTS (charts); i++)
    {
      cairo_surface_t *l = chart_image (charts[i].fn, bench_points, G_N_ELEMENTS (bench_points), FALSE);
      cairo_surface_t *d = chart_image (charts[i].fn, bench_points, G_N_ELEMENTS (bench_points), TRUE);
      assert_drawn (l, 6, charts[i].name);
      assert_drawn (d, 6, charts[i].name);
      double diff = differ_percent (l, d);
      g_test_message ("%s: light and dark differ in %.0f%% of pixels", charts[i].name, diff);
      g_assert_cmpfloat (diff, >, 50);
      /* the four configurations' colours: grey, orange, blue, green */
      for (guint c = 0; c < G_N_ELEMENTS (light.series); c++)
        if (!has_colour (l, &light.series[c]))
          g_error ("%s: the colour of configuration %u is not drawn", charts[i].name, c);
      cairo_surface_destroy (l);
      cairo_surface_destroy (d);
    }
}

/* No rows, one CPU count, no published figures, a tiny viewport: drawn, never crashed. */
static void
test_bench_charts_edge_cases (void)
{
  cairo_surface_t *s = chart_image (fl_paint_bench_chart, NULL, 0, FALSE);
  cairo_surface_destroy (s);
  static const FlBenchPoint one[] = {
    { "will-it-scale-pf1", "baseline", 4, 1000, 1.0, 0 },
    { "will-it-scale-pf1", "xadd", 4, 2000, 2.0, 0 },
  };
  s = chart_image (fl_paint_bench_chart, one, G_N_ELEMENTS (one), FALSE);
  assert_drawn (s, 4, "one CPU count");
  cairo_surface_destroy (s);

  FlPalette pal;
  fl_palette_init_light (&pal);
  FlViewport tiny = { .width = 90, .height = 50, .font_scale = 1.0 };
  s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 90, 50);
  cairo_t *cr = cairo_create (s);
  fl_paint_bench_chart (cr, bench_points, G_N_ELEMENTS (bench_points), &tiny, &pal);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

static GBytes *
read_file (const char *path)
{
  g_autoptr (GError) error = NULL;
  char *data = NULL;
  gsize len = 0;
  g_assert_true (g_file_get_contents (path, &data, &len, &error));
  g_assert_no_error (error);
  return g_bytes_new_take (data, len);
}

static void
remove_dir (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  while (d && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_unlink (path);
    }
  g_rmdir (dir);
}

/* The chart's exports: each format's magic, the vector ones the same bytes twice, an
 * unknown format refused. */
static void
test_bench_chart_export (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("faultline-charts-XXXXXX", NULL);
  FlPalette pal;
  fl_palette_init_light (&pal);
  FlViewport vp = { .width = WIDTH, .height = HEIGHT, .font_scale = 1.0 };
  static const char *const formats[] = { "png", "svg", "pdf" };
  static const char *const magic[] = { "\x89PNG", "<?xml", "%PDF" };
  for (guint k = 0; k < G_N_ELEMENTS (formats); k++)
    {
      g_autoptr (GBytes) first = NULL;
      for (guint round = 0; round < 2; round++)
        {
          g_autofree char *file = g_strdup_printf ("chart-%u.%s", round, formats[k]);
          g_autofree char *path = g_build_filename (tmp, file, NULL);
          g_autoptr (GError) error = NULL;
          g_assert_true (fl_export_bench_chart (bench_points, G_N_ELEMENTS (bench_points), &vp,
                                                &pal, formats[k], path, &error));
          g_assert_no_error (error);
          GBytes *bytes = read_file (path);
          gsize len = 0;
          const char *data = g_bytes_get_data (bytes, &len);
          g_assert_cmpuint (len, >, 1000);
          g_assert_true (memcmp (data, magic[k], strlen (magic[k])) == 0);
          if (round == 0)
            first = bytes;
          else
            {
              g_assert_true (g_bytes_equal (first, bytes));
              g_bytes_unref (bytes);
            }
        }
    }
  g_autoptr (GError) error = NULL;
  g_autofree char *bad = g_build_filename (tmp, "chart.gif", NULL);
  g_assert_false (fl_export_bench_chart (bench_points, 1, &vp, &pal, "gif", bad, &error));
  g_assert_error (error, FL_EXPORT_ERROR, FL_EXPORT_ERROR_FORMAT);
  remove_dir (tmp);
}

/* What `bench --sensitivity --rounds 1` measured, rounded. */
static const FlSensitivityRow sensitivity_rows[] = {
  { "cost.step", 65, 50, { 0 }, { 1.00, 2.81, 4.19, 4.18 }, 0 },
  { "cost.step", 130, 100, { 0 }, { 1.00, 2.72, 3.30, 3.33 }, 0 },
  { "cost.step", 195, 150, { 0 }, { 1.00, 2.25, 2.64, 2.66 }, 0 },
  { "cost.occupancy", 50, 50, { 0 }, { 1.00, 1.33, 1.51, 1.50 }, 0 },
  { "cost.occupancy", 100, 100, { 0 }, { 1.00, 2.72, 3.30, 3.33 }, 0 },
  { "cost.occupancy", 150, 150, { 0 }, { 1.00, 2.67, 4.89, 4.90 }, 0 },
  { "cost.hold", 22, 50, { 0 }, { 1.00, 2.72, 3.30, 3.33 }, 0 },
  { "cost.hold", 44, 100, { 0 }, { 1.00, 2.72, 3.30, 3.33 }, 0 },
  { "cost.hold", 66, 150, { 0 }, { 1.00, 2.73, 3.32, 3.31 }, 0 },
  { "cost.crossing", 45, 50, { 0 }, { 1.00, 2.71, 3.63, 3.63 }, 0 },
  { "cost.crossing", 90, 100, { 0 }, { 1.00, 2.76, 3.53, 3.66 }, 0 },
  { "cost.crossing", 135, 150, { 0 }, { 1.00, 2.87, 3.59, 3.57 }, 0 },
};

static cairo_surface_t *
sensitivity_image (const FlSensitivityRow *rows, guint n, const FlViewport *vp, gboolean dark)
{
  FlPalette pal;
  if (dark)
    fl_palette_init_dark (&pal);
  else
    fl_palette_init_light (&pal);
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) vp->width,
                                                   (int) vp->height);
  cairo_t *cr = cairo_create (s);
  fl_paint_sensitivity (cr, rows, n, 8, vp, &pal);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_flush (s);
  return s;
}

/* The tornado chart draws in both styles, a wider spread draws a longer bar, and no rows or
 * a tiny image draw nothing wrong. */
static void
test_sensitivity_chart (void)
{
  FlViewport vp = { .width = WIDTH, .height = HEIGHT, .font_scale = 1.0 };
  for (int dark = 0; dark < 2; dark++)
    {
      cairo_surface_t *s = sensitivity_image (sensitivity_rows, G_N_ELEMENTS (sensitivity_rows),
                                              &vp, dark);
      assert_drawn (s, 4, dark ? "sensitivity (dark)" : "sensitivity");
      cairo_surface_destroy (s);
    }
  /* narrowing cost.occupancy's spread changes the picture */
  FlSensitivityRow narrow[G_N_ELEMENTS (sensitivity_rows)];
  memcpy (narrow, sensitivity_rows, sizeof narrow);
  narrow[3] = narrow[4];
  narrow[3].percent = 50;
  cairo_surface_t *a = sensitivity_image (sensitivity_rows, G_N_ELEMENTS (sensitivity_rows), &vp,
                                          FALSE);
  cairo_surface_t *b = sensitivity_image (narrow, G_N_ELEMENTS (narrow), &vp, FALSE);
  g_assert_cmpfloat (differ_percent (a, b), >, 0.5);
  cairo_surface_destroy (a);
  cairo_surface_destroy (b);

  cairo_surface_t *none = sensitivity_image (NULL, 0, &vp, FALSE);
  cairo_surface_destroy (none);
  FlViewport tiny = { .width = 40, .height = 30, .font_scale = 1.0 };
  cairo_surface_t *small = sensitivity_image (sensitivity_rows, G_N_ELEMENTS (sensitivity_rows),
                                              &tiny, FALSE);
  cairo_surface_destroy (small);
}

static cairo_surface_t *
compare_image (FlCompare *cmp, gboolean dark)
{
  FlPalette pal;
  if (dark)
    fl_palette_init_dark (&pal);
  else
    fl_palette_init_light (&pal);
  FlViewport vp = { .width = WIDTH, .height = HEIGHT, .font_scale = 1.0 };
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (s);
  fl_paint_compare (cr, cmp, &vp, &pal);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_flush (s);
  return s;
}

/* spf-vs-munmap with RCU-freed VMAs against immediately freed ones: both runs drawn, the
 * switches named, the finding counted only in B, and the painter leaves both runs as they
 * were. */
static void
test_compare_view (void)
{
  g_autoptr (FlRun) a = fl_test_run_for ("spf-vs-munmap", "vma-free", "rcu", 0);
  g_autoptr (FlRun) b = fl_test_run_for ("spf-vs-munmap", "vma-free", "immediate", 0);
  g_autoptr (FlCompare) cmp = fl_compare_new (a, b);
  /* both runs at their ends */
  g_assert_true (fl_compare_seek (cmp, fl_run_get_total_steps (a)));
  g_autofree char *sa = fl_compare_switches (cmp, 0);
  g_autofree char *sb = fl_compare_switches (cmp, 1);
  g_assert_cmpstr (sa, ==, "vma-free=rcu");
  g_assert_cmpstr (sb, ==, "vma-free=immediate");

  g_autoptr (GArray) rows = fl_compare_rows (cmp);
  gboolean findings = FALSE, lines = FALSE;
  for (guint i = 0; i < rows->len; i++)
    {
      const FlCompareRow *r = &g_array_index (rows, FlCompareRow, i);
      if (!r->line && strcmp (r->label, "findings") == 0)
        {
          g_assert_cmpuint (r->value[0], ==, 0);
          g_assert_cmpuint (r->value[1], >=, 1);
          findings = TRUE;
        }
      lines |= r->line;
    }
  g_assert_true (findings && lines);

  const FlCursor *ca = fl_compare_get_cursor (cmp, 0), *cb = fl_compare_get_cursor (cmp, 1);
  guint64 step_a = fl_cursor_get_step (ca), step_b = fl_cursor_get_step (cb);
  guint64 hash_a = fl_cursor_get_state_hash (ca), hash_b = fl_cursor_get_state_hash (cb);
  g_assert_cmpuint (step_b, ==, fl_run_get_total_steps (b));
  for (guint layout = 0; layout < 2; layout++)
    {
      fl_compare_set_layout (cmp, layout ? FL_COMPARE_SPLIT : FL_COMPARE_STACKED);
      cairo_surface_t *l = compare_image (cmp, FALSE);
      cairo_surface_t *d = compare_image (cmp, TRUE);
      assert_drawn (l, 8, layout ? "compare, split" : "compare, stacked");
      assert_drawn (d, 8, layout ? "compare, split, dark" : "compare, stacked, dark");
      g_assert_cmpfloat (differ_percent (l, d), >, 50);
      /* the finding's diamond, only in B */
      FlPalette light;
      fl_palette_init_light (&light);
      g_assert_true (has_colour (l, &light.error));
      g_assert_true (has_colour (l, &light.activity[FL_ACT_SPEC_FAULT]));
      cairo_surface_destroy (l);
      cairo_surface_destroy (d);
    }
  g_assert_cmpuint (fl_cursor_get_step (ca), ==, step_a);
  g_assert_cmpuint (fl_cursor_get_step (cb), ==, step_b);
  g_assert_cmpuint (fl_cursor_get_state_hash (ca), ==, hash_a);
  g_assert_cmpuint (fl_cursor_get_state_hash (cb), ==, hash_b);
}

typedef struct {
  guint  total, exact, near;
  double worst;
} Alignment;

/* Where the k-th operation of each CPU lies on the shared axis in A and in B. */
static void
measure_alignment (FlCompare *cmp, Alignment *out)
{
  const FlRun *run_of[2] = { fl_cursor_get_run (fl_compare_get_cursor (cmp, 0)),
                             fl_cursor_get_run (fl_compare_get_cursor (cmp, 1)) };
  guint ncpus = fl_run_get_config (run_of[0])->cpus;
  g_autoptr (GPtrArray) ops = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  for (guint i = 0; i < 2 * ncpus; i++)
    g_ptr_array_add (ops, g_array_new (FALSE, FALSE, sizeof (guint64)));
  for (guint run = 0; run < 2; run++)
    {
      gsize n = 0;
      const FlEvent *ev = fl_run_get_events (run_of[run], &n);
      for (gsize i = 0; i < n; i++)
        if (ev[i].kind == FL_EV_OP)
          g_array_append_val (g_ptr_array_index (ops, run * ncpus + ev[i].cpu), ev[i].cycle);
    }
  memset (out, 0, sizeof *out);
  double end = fl_compare_s_end (cmp);
  for (guint c = 0; c < ncpus; c++)
    {
      GArray *oa = g_ptr_array_index (ops, c), *ob = g_ptr_array_index (ops, ncpus + c);
      g_assert_cmpuint (oa->len, ==, ob->len);
      for (guint k = 0; k < oa->len; k++)
        {
          double d = fabs (fl_compare_s_of (cmp, 0, g_array_index (oa, guint64, k))
                           - fl_compare_s_of (cmp, 1, g_array_index (ob, guint64, k)));
          out->total++;
          out->exact += d < 1.0;
          out->near += d < end * 0.01;
          out->worst = MAX (out->worst, d / end);
        }
    }
  g_test_message ("%u of %u operations aligned exactly, %u within 1%% of the axis, worst %.1f%%",
                  out->exact, out->total, out->near, out->worst * 100);
}

/* Operations line up: every one in a race (two CPUs keeping their order in both runs);
 * where CPUs overtake each other differently in the two runs (multi-fault under the
 * generic rwsem against xadd: which CPU wins the line differs from fault to fault) one axis
 * per run cannot line up all of them: how many do depends on the model's interleavings, so
 * the bounds are loose: half of them within 1% of the axis and none far off.
 * The cursor maps through the alignment: start to start, end to end, in order. */
static void
test_compare_alignment (void)
{
  Alignment al;
  g_autoptr (FlRun) ra = fl_test_run_for ("spf-vs-munmap", "vma-free", "rcu", 0);
  g_autoptr (FlRun) rb = fl_test_run_for ("spf-vs-munmap", "vma-free", "immediate", 0);
  g_autoptr (FlCompare) race = fl_compare_new (ra, rb);
  /* the alignment by operation, which is a choice: the default axis is cycles */
  fl_compare_set_axis (race, FL_COMPARE_AXIS_OPERATIONS);
  measure_alignment (race, &al);
  g_assert_cmpuint (al.total, >=, 2);
  g_assert_cmpuint (al.exact, ==, al.total);

  g_autoptr (FlRun) a = fl_test_run_for ("multi-fault", "rwsem", "generic", 0);
  g_autoptr (FlRun) b = fl_test_run_for ("multi-fault", "rwsem", "xadd", 0);
  g_autoptr (FlCompare) cmp = fl_compare_new (a, b);
  fl_compare_set_axis (cmp, FL_COMPARE_AXIS_OPERATIONS);
  measure_alignment (cmp, &al);
  g_assert_cmpuint (al.total, >, 1000);
  g_assert_cmpuint (al.exact * 100, >=, al.total * 10);
  g_assert_cmpuint (al.near * 100, >=, al.total * 50);
  g_assert_cmpfloat (al.worst, <, 0.08);

  guint64 ta = fl_run_get_total_steps (a), tb = fl_run_get_total_steps (b);
  g_assert_cmpuint (fl_compare_map_step (cmp, 0, 0), ==, 0);
  g_assert_cmpuint (fl_compare_map_step (cmp, 0, ta), ==, tb);
  g_assert_cmpuint (fl_compare_map_step (cmp, 1, tb), ==, ta);
  guint64 previous = 0;
  for (guint64 s = 0; s <= ta; s += ta / 20)
    {
      guint64 m = fl_compare_map_step (cmp, 0, s);
      g_assert_cmpuint (m, >=, previous);
      previous = m;
    }
  /* a seek moves B's cursor to A's moment */
  g_assert_true (fl_compare_seek (cmp, ta / 3));
  g_assert_cmpuint (fl_cursor_get_step (fl_compare_get_cursor (cmp, 0)), ==, ta / 3);
  g_assert_cmpuint (fl_cursor_get_step (fl_compare_get_cursor (cmp, 1)), ==,
                    fl_compare_map_step (cmp, 0, ta / 3));
}

static guint
count_pages (GBytes *pdf)
{
  gsize len = 0;
  const char *data = g_bytes_get_data (pdf, &len);
  guint pages = 0;
  static const char key[] = "/Type /Page";
  /* byte by byte, not strstr: a PDF's streams hold NUL bytes */
  gsize k = strlen (key);
  for (gsize i = 0; i + k < len; i++)
    pages += memcmp (data + i, key, k) == 0 && data[i + k] != 's';
  return pages;
}

static gboolean
stop_after_two (guint64 done, guint64 total, gpointer data)
{
  return done < 2;
}

/* A range as one PDF with a page per step and as a numbered PNG or SVG series; the export
 * walks a cursor of its own: one the caller holds on the same run stays where it was,
 * whatever happened. */
static void
test_range_export (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("faultline-range-XXXXXX", NULL);
  g_autoptr (FlRun) run = fl_test_run_for ("spf-vs-munmap", NULL, NULL, 0);
  g_autoptr (FlCursor) cursor = fl_cursor_new (run);
  g_assert_true (fl_cursor_seek (cursor, 17));
  guint64 hash = fl_cursor_get_state_hash (cursor);
  FlPalette pal;
  fl_palette_init_light (&pal);
  FlViewport vp = { .width = 800, .height = 450, .font_scale = 1.0 };
  g_autoptr (GError) error = NULL;

  g_autofree char *pdf = g_build_filename (tmp, "range.pdf", NULL);
  g_assert_true (fl_export_range (FL_VIEW_LANES, run, 0, 5, &vp, &pal, "pdf", pdf, NULL, NULL,
                                  &error));
  g_assert_no_error (error);
  g_assert_cmpuint (fl_cursor_get_step (cursor), ==, 17);
  g_assert_cmpuint (fl_cursor_get_state_hash (cursor), ==, hash);
  g_autoptr (GBytes) bytes = read_file (pdf);
  g_assert_cmpuint (count_pages (bytes), ==, 6);
  /* reproducible: the same range gives the same bytes */
  g_assert_true (fl_export_range (FL_VIEW_LANES, run, 0, 5, &vp, &pal, "pdf", pdf, NULL, NULL,
                                  &error));
  g_autoptr (GBytes) again = read_file (pdf);
  g_assert_true (g_bytes_equal (bytes, again));

  static const char *const series[] = { "png", "svg" };
  for (guint k = 0; k < G_N_ELEMENTS (series); k++)
    {
      g_autofree char *name = g_strdup_printf ("slide.%s", series[k]);
      g_autofree char *prefix = g_build_filename (tmp, name, NULL);
      g_assert_true (fl_export_range (FL_VIEW_COUNTERS, run, 40, 47, &vp, &pal, series[k], prefix,
                                      NULL, NULL, &error));
      g_assert_no_error (error);
      for (guint64 step = 39; step <= 48; step++)
        {
          g_autofree char *file = fl_export_range_file_name (prefix, step, series[k]);
          g_assert_true (g_str_has_suffix (file, series[k]));
          g_assert_cmpint (g_file_test (file, G_FILE_TEST_EXISTS), ==, step >= 40 && step <= 47);
        }
      g_assert_cmpuint (fl_cursor_get_step (cursor), ==, 17);
    }
  /* the PNG series, drawn and encoded on several cores, holds the bytes of exporting each
   * step alone; a cancel after two leaves two files, a file that cannot be written stops
   * the series there, and neither touches a later one */
  g_autofree char *png_prefix = g_build_filename (tmp, "slide.png", NULL);
  for (guint64 step = 40; step <= 47; step++)
    {
      g_autofree char *file = fl_export_range_file_name (png_prefix, step, "png");
      g_autofree char *alone = g_build_filename (tmp, "alone.png", NULL);
      g_assert_true (fl_cursor_seek (cursor, step));
      g_assert_true (fl_export_view (FL_VIEW_COUNTERS, cursor, &vp, &pal, "png", alone, &error));
      g_autoptr (GBytes) series_bytes = read_file (file);
      g_autoptr (GBytes) alone_bytes = read_file (alone);
      if (!g_bytes_equal (series_bytes, alone_bytes))
        g_error ("%s differs from the export of step %" G_GUINT64_FORMAT " alone", file, step);
    }
  g_assert_true (fl_cursor_seek (cursor, 17));
  g_autofree char *stopped = g_build_filename (tmp, "stopped.png", NULL);
  g_assert_false (fl_export_range (FL_VIEW_COUNTERS, run, 40, 47, &vp, &pal, "png", stopped,
                                   stop_after_two, NULL, &error));
  g_assert_error (error, FL_EXPORT_RANGE_ERROR, FL_EXPORT_RANGE_ERROR_CANCELLED);
  g_clear_error (&error);
  for (guint64 step = 40; step <= 47; step++)
    {
      g_autofree char *file = fl_export_range_file_name (stopped, step, "png");
      g_assert_cmpint (g_file_test (file, G_FILE_TEST_EXISTS), ==, step < 42);
    }
  g_autofree char *blocked = g_build_filename (tmp, "blocked.png", NULL);
  g_autofree char *in_the_way = fl_export_range_file_name (blocked, 43, "png");
  g_assert_cmpint (g_mkdir (in_the_way, 0700), ==, 0);
  g_assert_false (fl_export_range (FL_VIEW_COUNTERS, run, 40, 47, &vp, &pal, "png", blocked,
                                   NULL, NULL, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "blocked-000043.png"));
  g_clear_error (&error);
  for (guint64 step = 40; step <= 47; step++)
    {
      g_autofree char *file = fl_export_range_file_name (blocked, step, "png");
      g_assert_cmpint (g_file_test (file, G_FILE_TEST_IS_REGULAR), ==, step < 43);
    }
  g_assert_cmpint (g_rmdir (in_the_way), ==, 0);
  g_assert_cmpuint (fl_cursor_get_step (cursor), ==, 17);

  g_autofree char *named = fl_export_range_file_name ("/x/race.png", 123, "png");
  g_assert_cmpstr (named, ==, "/x/race-000123.png");

  /* refused: backwards, past the end, cancelled (and still back at step 17) */
  g_assert_false (fl_export_range (FL_VIEW_LANES, run, 5, 2, &vp, &pal, "pdf", pdf, NULL, NULL,
                                   &error));
  g_assert_error (error, FL_EXPORT_RANGE_ERROR, FL_EXPORT_RANGE_ERROR_RANGE);
  g_clear_error (&error);
  g_assert_false (fl_export_range (FL_VIEW_LANES, run, 0, 100000, &vp, &pal, "pdf", pdf, NULL,
                                   NULL, &error));
  g_assert_error (error, FL_EXPORT_RANGE_ERROR, FL_EXPORT_RANGE_ERROR_RANGE);
  g_clear_error (&error);
  g_assert_false (fl_export_range (FL_VIEW_LANES, run, 0, 5, &vp, &pal, "gif", pdf, NULL, NULL,
                                   &error));
  g_assert_error (error, FL_EXPORT_ERROR, FL_EXPORT_ERROR_FORMAT);
  g_clear_error (&error);
  g_autofree char *cancelled = g_build_filename (tmp, "cancelled.pdf", NULL);
  g_assert_false (fl_export_range (FL_VIEW_LANES, run, 0, 5, &vp, &pal, "pdf", cancelled,
                                   stop_after_two, NULL, &error));
  g_assert_error (error, FL_EXPORT_RANGE_ERROR, FL_EXPORT_RANGE_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_false (g_file_test (cancelled, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (fl_cursor_get_step (cursor), ==, 17);
  g_assert_cmpuint (fl_cursor_get_state_hash (cursor), ==, hash);

  /* too many pages: refused before drawing any */
  g_autoptr (FlRun) big = fl_test_run_for ("multi-fault", NULL, NULL, 6000);
  g_assert_false (fl_export_range (FL_VIEW_LANES, big, 0, 5500, &vp, &pal, "pdf", pdf, NULL,
                                   NULL, &error));
  g_assert_error (error, FL_EXPORT_RANGE_ERROR, FL_EXPORT_RANGE_ERROR_TOO_MANY);
  remove_dir (tmp);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ui/charts/bench", test_bench_charts);
  g_test_add_func ("/ui/charts/bench-edge-cases", test_bench_charts_edge_cases);
  g_test_add_func ("/ui/charts/bench-export", test_bench_chart_export);
  g_test_add_func ("/ui/charts/sensitivity", test_sensitivity_chart);
  g_test_add_func ("/ui/charts/compare", test_compare_view);
  g_test_add_func ("/ui/charts/compare-alignment", test_compare_alignment);
  g_test_add_func ("/ui/charts/range-export", test_range_export);
  return g_test_run ();
}
