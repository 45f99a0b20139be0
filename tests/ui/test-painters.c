/* test-painters.c — the painters without a display: every view draws something at every
 * step, exports are what the painter draws, vector exports are reproducible, and the lanes
 * of a 64-CPU run draw in bounded time. */
#include "fl-paint.h"
#include "fl-png.h"
#include "painter-test-helpers.h"
#include "fl-config.h"
#include "fl-loc.h"

#include <cairo.h>
#include <math.h>
#include <glib/gstdio.h>
#include <string.h>

#define WIDTH  1280
#define HEIGHT 720

typedef struct {
  FlSim     *sim;
  FlPalette  palette;
  FlViewport viewport;
  char      *tmp;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  f->sim = fl_test_sim_for ("spf-vs-munmap", NULL, NULL);
  fl_palette_init_light (&f->palette);
  f->viewport = (FlViewport) { .width = WIDTH, .height = HEIGHT, .font_scale = 1.0 };
  g_autoptr (GError) error = NULL;
  f->tmp = g_dir_make_tmp ("faultline-painters-XXXXXX", &error);
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  g_autoptr (GDir) dir = g_dir_open (f->tmp, 0, NULL);
  const char *name;
  while (dir && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (f->tmp, name, NULL);
      g_unlink (path);
    }
  g_rmdir (f->tmp);
  g_free (f->tmp);
  fl_sim_free (f->sim);
}

static guint32
pixel (cairo_surface_t *s, int x, int y)
{
  const guint8 *data = cairo_image_surface_get_data (s);
  return *(const guint32 *) (data + y * cairo_image_surface_get_stride (s) + x * 4);
}

/* Non-blank: a good share of pixels differ from the background and there are several
 * colours, not one flat fill. */
static void
assert_not_blank (cairo_surface_t *s, const char *what)
{
  cairo_surface_flush (s);
  int w = cairo_image_surface_get_width (s), h = cairo_image_surface_get_height (s);
  guint32 bg = pixel (s, w - 1, h - 1);
  g_autoptr (GHashTable) colours = g_hash_table_new (g_direct_hash, g_direct_equal);
  guint64 differ = 0;
  for (int y = 0; y < h; y += 2)
    for (int x = 0; x < w; x += 2)
      {
        guint32 p = pixel (s, x, y);
        if (p != bg)
          differ++;
        if (g_hash_table_size (colours) < 64)
          g_hash_table_add (colours, GUINT_TO_POINTER (p));
      }
  guint64 total = (guint64) ((w + 1) / 2) * ((h + 1) / 2);
  if (differ * 100 < total || g_hash_table_size (colours) < 4)
    g_error ("%s looks blank: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
             " pixels differ from the background, %u colours", what, differ, total,
             g_hash_table_size (colours));
}

static void
test_names (void)
{
  for (guint v = 0; v < FL_VIEW_N; v++)
    {
      const char *name = fl_view_name (v);
      g_assert_nonnull (name);
      g_assert_cmpint (fl_view_lookup (name), ==, v);
    }
  g_assert_cmpint (fl_view_lookup ("nope"), ==, FL_VIEW_N);
  g_assert_cmpint (fl_view_lookup (NULL), ==, FL_VIEW_N);
}

/* Every view, at the start, in the middle of the race and at the end, in both styles. */
static void
test_every_view_draws (Fixture *f, gconstpointer data)
{
  guint64 total = fl_sim_run (f->sim, 0);
  g_assert_cmpuint (total, >, 10);
  guint64 steps[] = { 0, total / 4, total / 2, 3 * total / 4, total };
  for (guint dark = 0; dark < 2; dark++)
    {
      FlPalette palette;
      if (dark)
        fl_palette_init_dark (&palette);
      else
        fl_palette_init_light (&palette);
      for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
        {
          /* seeking back leaves the rest of the run recorded: the lanes show it faded */
          g_assert_true (fl_sim_seek (f->sim, steps[i]));
          g_assert_cmpuint (fl_sim_get_step (f->sim), ==, steps[i]);
          for (guint v = 0; v < FL_VIEW_N; v++)
            {
              f->viewport.selected_cpu = i % 2;
              cairo_surface_t *s = fl_paint_view_image (v, fl_test_cursor (f->sim), &f->viewport, &palette);
              g_assert_cmpint (cairo_surface_status (s), ==, CAIRO_STATUS_SUCCESS);
              g_autofree char *what = g_strdup_printf ("%s view at step %" G_GUINT64_FORMAT "%s",
                                                       fl_view_name (v), steps[i], dark ? " (dark)" : "");
              assert_not_blank (s, what);
              cairo_surface_destroy (s);
              g_autofree char *text = fl_view_describe (v, fl_test_cursor (f->sim), &f->viewport);
              g_assert_nonnull (text);
              g_assert_cmpuint (strlen (text), >, 10);
            }
        }
    }
}

/* Drawing leaves the cursor, its run and the Cairo context as they were. */
static void
test_no_side_effects (Fixture *f, gconstpointer data)
{
  fl_sim_run (f->sim, 30);
  guint64 hash = fl_sim_get_state_hash (f->sim);
  g_autoptr (FlCursor) cursor = fl_test_cursor_of (f->sim);
  const FlRun *run = fl_cursor_get_run (cursor);
  guint64 events_hash = fl_run_get_hash (run);
  g_assert_cmpuint (fl_cursor_get_state_hash (cursor), ==, hash);
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 640, 360);
  cairo_t *cr = cairo_create (s);
  cairo_translate (cr, 3, 4);
  cairo_set_source_rgb (cr, 0.1, 0.2, 0.3);
  cairo_set_line_width (cr, 7);
  cairo_matrix_t before, after;
  cairo_get_matrix (cr, &before);
  FlViewport vp = { .width = 600, .height = 340, .font_scale = 1 };
  for (guint v = 0; v < FL_VIEW_N; v++)
    fl_paint_view (v, cr, cursor, &vp, &f->palette);
  cairo_get_matrix (cr, &after);
  g_assert_cmpmem (&before, sizeof before, &after, sizeof after);
  g_assert_cmpfloat (cairo_get_line_width (cr), ==, 7);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpuint (fl_cursor_get_step (cursor), ==, 30);
  g_assert_cmpuint (fl_cursor_get_state_hash (cursor), ==, hash);
  g_assert_cmpuint (fl_run_get_hash (run), ==, events_hash);
  g_assert_cmpuint (fl_run_get_total_steps (run), ==, 30);
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
export_to (Fixture *f, FlView view, const char *format, const char *path)
{
  g_autoptr (GError) error = NULL;
  g_assert_true (fl_export_view (view, fl_test_cursor (f->sim), &f->viewport, &f->palette, format, path, &error));
  g_assert_no_error (error);
}

/* PNG, SVG and PDF of every view; the vector ones identical when exported twice; the PNG
 * identical, pixel for pixel, to the painter's own image. */
static void
test_exports (Fixture *f, gconstpointer data)
{
  fl_sim_run (f->sim, 40);
  for (guint v = 0; v < FL_VIEW_N; v++)
    {
      const char *name = fl_view_name (v);
      static const char *const formats[] = { "png", "svg", "pdf" };
      static const char *const magic[] = { "\x89PNG", "<?xml", "%PDF" };
      for (guint k = 0; k < G_N_ELEMENTS (formats); k++)
        {
          g_autofree char *file1 = g_strdup_printf ("%s-1.%s", name, formats[k]);
          g_autofree char *file2 = g_strdup_printf ("%s-2.%s", name, formats[k]);
          g_autofree char *path1 = g_build_filename (f->tmp, file1, NULL);
          g_autofree char *path2 = g_build_filename (f->tmp, file2, NULL);
          export_to (f, v, formats[k], path1);
          export_to (f, v, formats[k], path2);
          g_autoptr (GBytes) a = read_file (path1);
          g_autoptr (GBytes) b = read_file (path2);
          gsize len = 0;
          const char *bytes = g_bytes_get_data (a, &len);
          g_assert_cmpuint (len, >, 1000);
          g_assert_true (len > strlen (magic[k]) && memcmp (bytes, magic[k], strlen (magic[k])) == 0);
          if (!g_bytes_equal (a, b))
            g_error ("%s export of the %s view differs between two exports", formats[k], name);
        }

      /* the PNG holds exactly what the painter draws */
      g_autofree char *png = g_strdup_printf ("%s/%s-1.png", f->tmp, name);
      cairo_surface_t *from_file = cairo_image_surface_create_from_png (png);
      cairo_surface_t *painted = fl_paint_view_image (v, fl_test_cursor (f->sim), &f->viewport, &f->palette);
      g_assert_cmpint (cairo_surface_status (from_file), ==, CAIRO_STATUS_SUCCESS);
      cairo_surface_flush (painted);
      int w = cairo_image_surface_get_width (painted), h = cairo_image_surface_get_height (painted);
      g_assert_cmpint (cairo_image_surface_get_width (from_file), ==, w);
      g_assert_cmpint (cairo_image_surface_get_height (from_file), ==, h);
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
          if (pixel (from_file, x, y) != pixel (painted, x, y))
            g_error ("%s: PNG pixel (%d, %d) is %08x, the painter drew %08x", name, x, y,
                     pixel (from_file, x, y), pixel (painted, x, y));
      cairo_surface_destroy (from_file);
      cairo_surface_destroy (painted);
    }
}

/* The PNG writer: an image with every alpha reads back as the same premultiplied pixels; an
 * opaque one is written as RGB; an image it cannot write is an error, not a crash. */
static void
test_png_encode (void)
{
  cairo_surface_t *image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 256, 40);
  cairo_t *cr = cairo_create (image);
  for (int a = 0; a < 256; a++)
    {
      cairo_set_source_rgba (cr, (a % 7) / 6.0, (a % 5) / 4.0, (a % 3) / 2.0, a / 255.0);
      cairo_rectangle (cr, a, 0, 1, 40);
      cairo_fill (cr);
    }
  cairo_destroy (cr);
  g_autoptr (GByteArray) bytes = g_byte_array_new ();
  g_autoptr (GError) error = NULL;
  g_assert_true (fl_png_encode (image, bytes, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (bytes->len, >, 26);
  g_assert_cmpuint (bytes->data[25], ==, 6);   /* IHDR colour type: RGB with alpha */
  g_autofree char *tmp = g_dir_make_tmp ("faultline-png-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (tmp, "alpha.png", NULL);
  g_assert_true (g_file_set_contents (path, (const char *) bytes->data, bytes->len, NULL));
  cairo_surface_t *back = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_surface_status (back), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_format (back), ==, CAIRO_FORMAT_ARGB32);
  cairo_surface_flush (image);
  for (int y = 0; y < 40; y++)
    for (int x = 0; x < 256; x++)
      if (pixel (back, x, y) != pixel (image, x, y))
        g_error ("PNG pixel (%d, %d) reads back as %08x, drawn %08x", x, y, pixel (back, x, y),
                 pixel (image, x, y));
  cairo_surface_destroy (back);
  g_unlink (path);
  g_rmdir (tmp);

  cr = cairo_create (image);
  cairo_set_source_rgb (cr, 0.2, 0.4, 0.6);
  cairo_paint (cr);
  cairo_destroy (cr);
  g_byte_array_set_size (bytes, 0);
  g_assert_true (fl_png_encode (image, bytes, &error));
  g_assert_cmpuint (bytes->data[25], ==, 2);   /* RGB */
  cairo_surface_destroy (image);

  /* refused, each an error with nothing kept: a 0-wide image by libpng itself (its error
   * comes back through the longjmp), an alpha-only one before it */
  cairo_surface_t *refused[] = { cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 0, 8),
                                 cairo_image_surface_create (CAIRO_FORMAT_A8, 8, 8) };
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_byte_array_set_size (bytes, 0);
      g_assert_false (fl_png_encode (refused[i], bytes, &error));
      g_assert_error (error, FL_EXPORT_ERROR, FL_EXPORT_ERROR_CAIRO);
      g_assert_cmpuint (bytes->len, ==, 0);
      g_clear_error (&error);
      cairo_surface_destroy (refused[i]);
    }
}

/* The text content of every <text> element, a line each. */
static void
collect_text (GMarkupParseContext *context, const char *text, gsize len, gpointer data,
              GError **error)
{
  if (g_strcmp0 (g_markup_parse_context_get_element (context), "text") == 0)
    {
      g_string_append_len (data, text, len);
      g_string_append_c (data, '\n');
    }
}

/* An SVG export is a well-formed document whose words are text, not only glyph outlines:
 * each view's title and labels can be selected and searched. */
static void
test_svg_text (Fixture *f, gconstpointer data)
{
  fl_sim_run (f->sim, 40);
  static const struct { FlView view; const char *words[3]; } cases[] = {
    { FL_VIEW_LANES, { "CPU lanes", "cpu0", "speculative fault" } },
    { FL_VIEW_VMA, { "VMA tree", "unlinked", "not yet freed" } },
    { FL_VIEW_LISTING, { "Listing", "Why:", NULL } },
    { FL_VIEW_ALL, { "Counters and findings", "RCU", "Cache lines" } },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_build_filename (f->tmp, "text.svg", NULL);
      export_to (f, cases[i].view, "svg", path);
      g_autoptr (GBytes) svg = read_file (path);
      gsize len = 0;
      const char *bytes = g_bytes_get_data (svg, &len);
      g_autoptr (GString) words = g_string_new (NULL);
      GMarkupParser parser = { .text = collect_text };
      g_autoptr (GMarkupParseContext) context = g_markup_parse_context_new (&parser, 0, words, NULL);
      g_autoptr (GError) error = NULL;
      g_assert_true (g_markup_parse_context_parse (context, bytes, (gssize) len, &error)
                     && g_markup_parse_context_end_parse (context, &error));
      g_assert_no_error (error);
      for (guint w = 0; w < G_N_ELEMENTS (cases[i].words) && cases[i].words[w]; w++)
        if (strstr (words->str, cases[i].words[w]) == NULL)
          g_error ("%s view's SVG: no text '%s' in:\n%s", fl_view_name (cases[i].view),
                   cases[i].words[w], words->str);
    }
}

static void
test_export_errors (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_build_filename (f->tmp, "x.gif", NULL);
  g_assert_false (fl_export_view (FL_VIEW_VMA, fl_test_cursor (f->sim), &f->viewport, &f->palette, "gif", path, &error));
  g_assert_error (error, FL_EXPORT_ERROR, FL_EXPORT_ERROR_FORMAT);
  g_clear_error (&error);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_autofree char *missing = g_build_filename (f->tmp, "no", "such", "dir.png", NULL);
  g_assert_false (fl_export_view (FL_VIEW_VMA, fl_test_cursor (f->sim), &f->viewport, &f->palette, "png", missing, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
  g_clear_error (&error);
  FlViewport empty = f->viewport;
  empty.width = 0;
  g_assert_false (fl_export_view (FL_VIEW_VMA, fl_test_cursor (f->sim), &empty, &f->palette, "png", path, &error));
  g_assert_error (error, FL_EXPORT_ERROR, FL_EXPORT_ERROR_SIZE);
}

/* A finding shows in the counters' description and still draws. */
static void
test_finding_views (void)
{
  g_autoptr (FlSim) sim = fl_test_sim_for ("spf-vs-munmap", "vma-free", "immediate");
  fl_sim_run (sim, 0);
  g_assert_cmpuint (fl_sim_get_findings (sim)->len, >, 0);
  FlPalette palette;
  fl_palette_init_light (&palette);
  FlViewport vp = { .width = WIDTH, .height = HEIGHT, .font_scale = 1 };
  g_autofree char *text = fl_view_describe (FL_VIEW_COUNTERS, fl_test_cursor (sim), &vp);
  g_assert_nonnull (strstr (text, "use-after-free"));
  for (guint v = 0; v < FL_VIEW_N; v++)
    {
      cairo_surface_t *s = fl_paint_view_image (v, fl_test_cursor (sim), &vp, &palette);
      assert_not_blank (s, fl_view_name (v));
      cairo_surface_destroy (s);
    }
}

/* Every built-in scenario, every view, small and large: nothing crashes or warns. */
static void
test_builtin_scenarios (void)
{
  g_auto (GStrv) ids = fl_scenario_builtin_ids ();
  FlPalette palette;
  fl_palette_init_dark (&palette);
  for (guint i = 0; ids[i]; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (FlScenario) scenario = fl_scenario_load_builtin (ids[i], &error);
      g_assert_no_error (error);
      g_autoptr (FlSim) sim = fl_sim_new (scenario, NULL, scenario->seed, &error);
      g_assert_no_error (error);
      fl_sim_run (sim, 2000);
      g_autoptr (FlCursor) cursor = fl_test_cursor_of (sim);
      static const double sizes[][2] = { { 320, 200 }, { 1920, 1080 } };
      for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
        for (guint v = 0; v < FL_VIEW_N; v++)
          {
            FlViewport vp = { .width = sizes[k][0], .height = sizes[k][1], .font_scale = 1 };
            cairo_surface_t *s = fl_paint_view_image (v, cursor, &vp, &palette);
            g_assert_cmpint (cairo_surface_status (s), ==, CAIRO_STATUS_SUCCESS);
            cairo_surface_destroy (s);
          }
    }
}

/* The number after `prefix` in `text` (0 when absent). */
static guint64
number_after (const char *text, const char *prefix)
{
  const char *at = strstr (text, prefix);
  return at ? g_ascii_strtoull (at + strlen (prefix), NULL, 10) : 0;
}

/* The VMAs the RCU view says a callback will free, as "1, 3"; the VMA tree's awaiting list
 * must be the same. */
static char *
rcu_callback_vmas (const char *rcu)
{
  GString *ids = g_string_new (NULL);
  const char *prefix = "Callback to free VMA ";
  for (const char *at = strstr (rcu, prefix); at; at = strstr (at + 1, prefix))
    g_string_append_printf (ids, "%s%" G_GUINT64_FORMAT, ids->len ? ", " : "",
                            g_ascii_strtoull (at + strlen (prefix), NULL, 10));
  return g_string_free (ids, FALSE);
}

static char *
vma_awaiting (const char *vma)
{
  const char *prefix = "Unlinked, awaiting RCU: VMA ";
  const char *at = strstr (vma, prefix);
  if (at == NULL)
    return g_strdup ("");
  at += strlen (prefix);
  return g_strndup (at, strcspn (at, "."));
}

/* At every step, the views that show the same number show the same value: the lanes' cursor
 * and the counters' cycles; the VMAs the tree says await their RCU callback and the
 * callbacks the RCU view lists (spf-vs-munmap at step 30: unlinked, call_rcu still ahead). */
static void
check_views_agree (FlSim *sim, const char *id)
{
  for (;;)
    {
      g_autoptr (FlCursor) cursor = fl_test_cursor_of (sim);
      g_autofree char *lanes = fl_view_describe (FL_VIEW_LANES, cursor, NULL);
      g_autofree char *counters = fl_view_describe (FL_VIEW_COUNTERS, cursor, NULL);
      g_autofree char *vma = fl_view_describe (FL_VIEW_VMA, cursor, NULL);
      g_autofree char *rcu = fl_view_describe (FL_VIEW_RCU, cursor, NULL);
      guint64 step = fl_sim_get_step (sim);
      if (step > 0 && number_after (lanes, "Cursor at cycle ") != number_after (counters, " errors; "))
        g_error ("%s step %" G_GUINT64_FORMAT ": lanes '%s', counters '%s'", id, step, lanes,
                 counters);
      g_autofree char *awaiting = vma_awaiting (vma);
      g_autofree char *callbacks = rcu_callback_vmas (rcu);
      if (strcmp (awaiting, callbacks) != 0)
        g_error ("%s step %" G_GUINT64_FORMAT ": VMA tree '%s', RCU '%s'", id, step, vma, rcu);
      if (step >= 1000 || !fl_sim_step (sim))
        break;
    }
  g_test_message ("%s: %" G_GUINT64_FORMAT " steps agree", id, fl_sim_get_step (sim));
}

static void
test_views_agree (void)
{
  g_auto (GStrv) ids = fl_scenario_builtin_ids ();
  for (guint i = 0; ids[i]; i++)
    {
      g_autoptr (FlSim) sim = fl_test_sim_for (ids[i], NULL, NULL);
      check_views_agree (sim, ids[i]);
    }
  g_autoptr (FlSim) immediate = fl_test_sim_for ("spf-vs-munmap", "vma-free", "immediate");
  check_views_agree (immediate, "spf-vs-munmap vma-free=immediate");

  /* the case of the report: unlinked, not awaiting a callback yet */
  g_autoptr (FlSim) munmap = fl_test_sim_for ("spf-vs-munmap", NULL, NULL);
  fl_sim_run (munmap, 30);
  g_assert_cmpuint (fl_sim_get_step (munmap), ==, 30);
  g_autofree char *vma = fl_view_describe (FL_VIEW_VMA, fl_test_cursor (munmap), NULL);
  g_assert_nonnull (strstr (vma, "Unlinked, not yet freed: VMA 1."));
}

static gboolean
pixel_is (guint32 px, const FlRgba *c)
{
  int r = (px >> 16) & 0xff, g = (px >> 8) & 0xff, b = px & 0xff;
  return ABS (r - (int) (c->r * 255 + 0.5)) <= 2 && ABS (g - (int) (c->g * 255 + 0.5)) <= 2
         && ABS (b - (int) (c->b * 255 + 0.5)) <= 2;
}

/* What fl_lanes_hit() finds under a point is what the painter drew there: a lane of that
 * CPU, in the colour of an activity; lanes go down in CPU order. */
static void
test_lanes_hit (Fixture *f, gconstpointer data)
{
  fl_sim_run (f->sim, 0);
  guint64 total = fl_sim_get_total_steps (f->sim);
  cairo_surface_t *s = fl_paint_view_image (FL_VIEW_LANES, fl_test_cursor (f->sim), &f->viewport, &f->palette);
  cairo_surface_flush (s);
  guint hits[2] = { 0, 0 };
  gint last_cpu = -1;
  for (int i = 2; i < 9; i++)
    for (int y = 0; y < HEIGHT; y++)
      {
        double x = WIDTH * i / 10.0;
        guint cpu = 99;
        guint64 step = 0;
        if (!fl_lanes_hit (fl_test_cursor (f->sim), &f->viewport, x, y + 0.5, &cpu, &step))
          continue;
        g_assert_cmpuint (cpu, <, 2);
        g_assert_cmpuint (step, >=, 1);
        g_assert_cmpuint (step, <=, total);
        if (i == 2)
          {
            g_assert_cmpint ((gint) cpu, >=, last_cpu);
            last_cpu = (gint) cpu;
          }
        guint32 px = pixel (s, (int) x, y);
        gboolean activity = FALSE;
        for (guint a = 0; a < FL_ACT_N; a++)
          activity |= pixel_is (px, &f->palette.activity[a]);
        if (activity)
          hits[cpu]++;
      }
  g_assert_cmpuint (hits[0], >, 0);
  g_assert_cmpuint (hits[1], >, 0);
  g_assert_false (fl_lanes_hit (fl_test_cursor (f->sim), &f->viewport, WIDTH / 2.0, 2, NULL, NULL));
  g_assert_false (fl_lanes_hit (fl_test_cursor (f->sim), &f->viewport, WIDTH / 2.0, HEIGHT - 2, NULL, NULL));
  cairo_surface_destroy (s);
}

/* The colour the lanes image has at a cycle, in the middle of a CPU's lane. */
static guint32
lane_pixel (FlSim *sim, cairo_surface_t *s, const FlViewport *vp, guint cpu, guint64 cycle)
{
  double x0, w;
  guint64 t0, t1;
  g_assert_true (fl_lanes_time_axis (fl_test_cursor (sim), vp, &x0, &w, &t0, &t1));
  double x = x0 + (double) (cycle - t0) / (double) (t1 - t0) * w;
  int top = -1, bottom = -1;
  for (int y = 0; y < (int) vp->height; y++)
    {
      guint hit = 99;
      if (fl_lanes_hit (fl_test_cursor (sim), vp, x, y + 0.5, &hit, NULL) && hit == cpu)
        {
          if (top < 0)
            top = y;
          bottom = y;
        }
    }
  g_assert_cmpint (top, >=, 0);
  return pixel (s, (int) x, (top + bottom) / 2);
}

/* The cases of the report, as drawn: cpu0 held back by the schedule while cpu1 unmaps is
 * waiting for its turn, not busy in its speculative fault; a speculative fault's exception
 * entry is speculative, not locked; the IPI handler cpu0 runs where it spins is not
 * spinning; and the legend names every mark the lanes draw. */
static void
test_lanes_report (Fixture *f, gconstpointer data)
{
  FlViewport vp = { .width = WIDTH, .height = 260, .font_scale = 1 };
  struct { const char *id; guint64 step; guint cpu; guint64 cycle; FlActivity want, not; } cases[] = {
    { "spf-mmap-cache-race", 55, 0, 5000, FL_ACT_TURN, FL_ACT_SPEC_FAULT },
    { "file-read-fault", 20, 0, 400, FL_ACT_SPEC_FAULT, FL_ACT_LOCKED_FAULT },
    /* cycle 0: 500 cycles before cpu0's flush_tlb_func ends (the handler takes 1500) */
    { "spf-tlb-ipi", 105, 0, 0, FL_ACT_IPI_HANDLER, FL_ACT_SPIN },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (FlSim) sim = fl_test_sim_for (cases[i].id, NULL, NULL);
      fl_sim_run (sim, 0);
      guint64 cycle = cases[i].cycle;
      for (gsize e = 0; cycle == 0 && e < fl_sim_get_n_events (sim); e++)
        {
          FlEvent ev = fl_sim_get_event (sim, e);
          if (ev.cpu == cases[i].cpu && ev.loc == FL_LOC_FLUSH_TLB_FUNC_ack)
            cycle = ev.cycle - 500;
        }
      g_assert_cmpuint (cycle, >, 0);
      g_assert_true (fl_sim_seek (sim, cases[i].step));
      cairo_surface_t *s = fl_paint_view_image (FL_VIEW_LANES, fl_test_cursor (sim), &vp, &f->palette);
      cairo_surface_flush (s);
      guint32 px = lane_pixel (sim, s, &vp, cases[i].cpu, cycle);
      if (!pixel_is (px, &f->palette.activity[cases[i].want])
          || pixel_is (px, &f->palette.activity[cases[i].not]))
        g_error ("%s step %" G_GUINT64_FORMAT ": cpu%u at cycle %" G_GUINT64_FORMAT
                 " is #%06x, not %s", cases[i].id, cases[i].step, cases[i].cpu, cycle,
                 px & 0xffffff, fl_activity_name (cases[i].want));
      cairo_surface_destroy (s);
    }

  g_autofree char *path = g_build_filename (f->tmp, "lanes.svg", NULL);
  g_autoptr (GError) error = NULL;
  fl_sim_run (f->sim, 0);
  g_assert_true (fl_export_view (FL_VIEW_LANES, fl_test_cursor (f->sim), &f->viewport, &f->palette, "svg", path,
                                 &error));
  g_assert_no_error (error);
  g_autofree char *svg = NULL;
  g_assert_true (g_file_get_contents (path, &svg, NULL, NULL));
  const char *marks[] = { "clock at this step", "waiting for its turn", "IPI handler",
                          "waiting for IPI acks", "finding", "TLB-flush IPI", "VM_FAULT_RETRY" };
  for (guint i = 0; i < G_N_ELEMENTS (marks); i++)
    if (strstr (svg, marks[i]) == NULL)
      g_error ("the lanes' legend has no \"%s\"", marks[i]);
}

/* CIE L*a*b* of an sRGB colour (D65), for distances as the eye sees them. */
static void
to_lab (const FlRgba *c, double lab[3])
{
  double rgb[3] = { c->r, c->g, c->b }, xyz[3];
  for (guint i = 0; i < 3; i++)
    rgb[i] = rgb[i] <= 0.04045 ? rgb[i] / 12.92 : pow ((rgb[i] + 0.055) / 1.055, 2.4);
  xyz[0] = (0.4124 * rgb[0] + 0.3576 * rgb[1] + 0.1805 * rgb[2]) / 0.95047;
  xyz[1] = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
  xyz[2] = (0.0193 * rgb[0] + 0.1192 * rgb[1] + 0.9505 * rgb[2]) / 1.08883;
  for (guint i = 0; i < 3; i++)
    xyz[i] = xyz[i] > 0.008856 ? cbrt (xyz[i]) : 7.787 * xyz[i] + 16.0 / 116;
  lab[0] = 116 * xyz[1] - 16;
  lab[1] = 500 * (xyz[0] - xyz[1]);
  lab[2] = 200 * (xyz[1] - xyz[2]);
}

static double
delta_e (const FlRgba *a, const FlRgba *b)
{
  double la[3], lb[3];
  to_lab (a, la);
  to_lab (b, lb);
  return sqrt ((la[0] - lb[0]) * (la[0] - lb[0]) + (la[1] - lb[1]) * (la[1] - lb[1])
               + (la[2] - lb[2]) * (la[2] - lb[2]));
}

/* CPU colours are not activity colours (cpu0 was the speculative blue, cpu1 the locked
 * orange): every one of 64 CPUs is far from every lane fill (a CIE76 distance of 18 and
 * more), in both styles; the first eight are far from each other; all 64 differ, and repeat
 * only past 64. */
static void
test_cpu_palette (void)
{
  for (guint style = 0; style < 2; style++)
    {
      FlPalette pal;
      if (style)
        fl_palette_init_dark (&pal);
      else
        fl_palette_init_light (&pal);
      for (guint c = 0; c < 64; c++)
        {
          for (guint a = 0; a < FL_ACT_N; a++)
            if (a != FL_ACT_DONE && delta_e (fl_palette_cpu (&pal, c), &pal.activity[a]) < 18)
              g_error ("%s style: cpu%u is %.1f from the colour of %s", style ? "dark" : "light",
                       c, delta_e (fl_palette_cpu (&pal, c), &pal.activity[a]),
                       fl_activity_name (a));
          /* and it reads as text on the view's background */
          g_assert_cmpfloat (delta_e (fl_palette_cpu (&pal, c), &pal.background), >, 40);
          /* the families apart; the shades of a family only differ: the label tells them */
          for (guint d = 0; d < c; d++)
            g_assert_cmpfloat (delta_e (fl_palette_cpu (&pal, c), fl_palette_cpu (&pal, d)), >,
                               c < FL_CPU_FAMILIES ? 15 : 1);
        }
      g_assert_true (fl_palette_cpu (&pal, 64) == fl_palette_cpu (&pal, 0));
    }
}

#define BIG_CPUS   64
#define BIG_FAULTS 400

/* 64 CPUs, each faulting in its own part of one mapping: a run of about a million steps. */
static char *
big_scenario_text (void)
{
  GString *s = g_string_new ("[scenario]\ntitle=64 CPUs fault in parallel\nseed=1\n\n"
                             "[config]\ncpus=64\nsockets=8\ncores-per-socket=8\n"
                             "fault-path=speculative\nrwsem=xadd\n\n[mm]\n");
  g_string_append_printf (s, "vma=0x7f0000000000-0x%" G_GINT64_MODIFIER "x rw- anon\n\n",
                          G_GUINT64_CONSTANT (0x7f0000000000) + (guint64) BIG_CPUS * 0x200000);
  for (guint c = 0; c < BIG_CPUS; c++)
    g_string_append_printf (s, "[cpu%u]\nbase=0x%" G_GINT64_MODIFIER "x\nops=repeat %u { fault +4096 write }\n\n",
                            c, G_GUINT64_CONSTANT (0x7f0000000000) + (guint64) c * 0x200000, BIG_FAULTS);
  return g_string_free (s, FALSE);
}

static void
test_lanes_64_cpus (void)
{
  g_autofree char *text = big_scenario_text ();
  g_autoptr (GError) error = NULL;
  g_autoptr (FlScenario) scenario = fl_scenario_parse (text, "64-cpus", &error);
  g_assert_no_error (error);
  g_autoptr (FlSim) sim = fl_sim_new (scenario, NULL, 1, &error);
  g_assert_no_error (error);
  gint64 t0 = g_get_monotonic_time ();
  guint64 steps = fl_sim_run (sim, 0);
  gint64 t1 = g_get_monotonic_time ();
  gsize n = 0;
  fl_sim_get_events (sim, &n);
  g_test_message ("64 CPUs: %" G_GUINT64_FORMAT " steps, %" G_GSIZE_FORMAT " events, simulated in %.2f s",
                  steps, n, (t1 - t0) / 1e6);

  FlPalette palette;
  fl_palette_init_light (&palette);
  FlViewport vp = { .width = WIDTH, .height = HEIGHT, .font_scale = 1 };
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (s);
  /* the run is made once; its lanes' pass over the events is made by the first frame */
  g_autoptr (FlCursor) cursor = fl_test_cursor_of (sim);
  double best = G_MAXDOUBLE;
  for (guint i = 0; i < 3; i++)
    {
      gint64 a = g_get_monotonic_time ();
      fl_paint_view (FL_VIEW_LANES, cr, cursor, &vp, &palette);
      cairo_surface_flush (s);
      best = MIN (best, (g_get_monotonic_time () - a) / 1e3);
    }
  g_test_message ("lanes of 64 CPUs and %" G_GSIZE_FORMAT " events at %dx%d: %.1f ms (best of 3)",
                  n, WIDTH, HEIGHT, best);
  assert_not_blank (s, "lanes of 64 CPUs");

  /* zoomed into a window of time: the same code path with wide segments */
  FlCounters k;
  fl_sim_get_counters (sim, &k);
  vp.time_start = k.cycles / 3;
  vp.time_end = vp.time_start + 20000;
  gint64 a = g_get_monotonic_time ();
  fl_paint_view (FL_VIEW_LANES, cr, cursor, &vp, &palette);
  cairo_surface_flush (s);
  g_test_message ("zoomed lanes: %.1f ms", (g_get_monotonic_time () - a) / 1e3);
  assert_not_blank (s, "zoomed lanes of 64 CPUs");

  /* and every other view of that machine */
  vp.time_start = vp.time_end = 0;
  for (guint v = 0; v < FL_VIEW_N; v++)
    {
      a = g_get_monotonic_time ();
      fl_paint_view (v, cr, cursor, &vp, &palette);
      cairo_surface_flush (s);
      g_test_message ("%s view of 64 CPUs: %.1f ms", fl_view_name (v), (g_get_monotonic_time () - a) / 1e3);
    }
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

/* The cache view's labels never overlap nor leave the view, at the presentation font scale
 * (fl-presentation.c: 1.6) and the normal one, from a small pane to a full screen: large
 * type shows fewer rows and shorter names, not text written over text. */
static void
test_cache_labels_apart (void)
{
  static const char *const ids[] = { "rwsem-generic-bounce", "multi-fault", "spf-vs-munmap" };
  static const double sizes[][2] = { { 360, 200 }, { 420, 300 }, { 640, 360 }, { 800, 450 },
                                     { 1280, 720 } };
  static const double scales[] = { 1.0, 1.6, 2.5 };
  guint checked = 0;

  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      g_autoptr (FlSim) sim = fl_test_sim_for (ids[i], NULL, NULL);
      fl_sim_run (sim, 0);
      guint64 total = fl_sim_get_total_steps (sim);
      for (guint64 step = 0; step <= total; step += MAX (total / 4, 1))
        {
          g_assert_true (fl_sim_seek (sim, step));
          for (guint z = 0; z < G_N_ELEMENTS (sizes); z++)
            for (guint f = 0; f < G_N_ELEMENTS (scales); f++)
              {
                FlViewport vp = { .width = sizes[z][0], .height = sizes[z][1],
                                  .font_scale = scales[f] };
                g_autoptr (GArray) boxes = fl_cache_label_boxes (fl_test_cursor (sim), &vp);
                /* up to the presentation's scale some rows always fit; beyond it, in a
                 * small pane, the legend may take what is left */
                if (vp.font_scale <= 1.6)
                  g_assert_cmpuint (boxes->len, >, 2);
                for (guint a = 0; a < boxes->len; a++)
                  {
                    const FlLabelBox *x = &g_array_index (boxes, FlLabelBox, a);
                    g_assert_cmpfloat (x->x, >=, -0.5);
                    g_assert_cmpfloat (x->y, >=, -0.5);
                    g_assert_cmpfloat (x->x + x->width, <=, vp.width + 0.5);
                    g_assert_cmpfloat (x->y + x->height, <=, vp.height + 0.5);
                    for (guint b = a + 1; b < boxes->len; b++)
                      {
                        const FlLabelBox *y = &g_array_index (boxes, FlLabelBox, b);
                        /* touching is fine ("cpu3" " → " "cpu4" are drawn in pieces) */
                        gboolean apart = x->x + x->width <= y->x + 0.5
                                         || y->x + y->width <= x->x + 0.5
                                         || x->y + x->height <= y->y + 0.5
                                         || y->y + y->height <= x->y + 0.5;
                        if (!apart)
                          g_error ("%s step %" G_GUINT64_FORMAT " at %gx%g, font scale %g: "
                                   "labels %u (%g,%g %gx%g) and %u (%g,%g %gx%g) overlap",
                                   ids[i], step, vp.width, vp.height, vp.font_scale, a, x->x,
                                   x->y, x->width, x->height, b, y->x, y->y, y->width,
                                   y->height);
                      }
                  }
                checked++;
              }
        }
    }
  g_test_message ("%u layouts checked", checked);

  /* the tooltip names a line in full */
  g_autoptr (FlSim) sim = fl_test_sim_for ("rwsem-generic-bounce", NULL, NULL);
  fl_sim_run (sim, 0);
  FlViewport small = { .width = 420, .height = 300, .font_scale = 1.6 };
  g_autoptr (GArray) boxes = fl_cache_label_boxes (fl_test_cursor (sim), &small);
  gboolean named = FALSE;
  for (guint a = 0; a < boxes->len; a++)
    {
      const FlLabelBox *x = &g_array_index (boxes, FlLabelBox, a);
      g_autofree char *text = x->line ? fl_cache_describe_line (fl_test_cursor (sim), x->line) : NULL;
      named |= text != NULL && g_str_has_prefix (text, "mmap_sem (wait_lock, activity): ");
    }
  g_assert_true (named);
}

/* Whether the view drew a text containing @needle. */
static gboolean
view_drew (FlView view, FlSim *sim, const FlViewport *vp, const char *needle)
{
  g_autoptr (GArray) texts = fl_view_texts (view, fl_test_cursor (sim), vp);
  for (guint i = 0; i < texts->len; i++)
    if (strstr (g_array_index (texts, FlElidedText, i).text, needle) != NULL)
      return TRUE;
  return FALSE;
}

/* At a lecture's text scale the VMA boxes never cut a range: when the whole range does not
 * fit, the digits every address shares go (and a note says what they were). At step 22 of
 * spf-vs-rotation three VMAs stand on two levels of a panel as wide as 1920x1080 gives it. */
static void
test_vma_ranges_whole (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FlScenario) scenario = fl_scenario_load_builtin ("spf-vs-rotation", &error);
  g_assert_no_error (error);
  g_autoptr (FlSim) sim = fl_sim_new (scenario, NULL, scenario->seed, &error);
  g_assert_no_error (error);
  fl_sim_run (sim, 22);
  FlPalette palette;
  fl_palette_init_light (&palette);
  static const double scales[] = { 1.0, 1.75, 2.5 };
  for (guint i = 0; i < G_N_ELEMENTS (scales); i++)
    {
      FlViewport vp = { .width = 576, .height = 330, .font_scale = scales[i] };
      cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 576, 330);
      cairo_t *cr = cairo_create (s);
      g_autoptr (GArray) elided = fl_elided_texts_new ();
      fl_paint_view_noting (FL_VIEW_VMA, cr, fl_test_cursor (sim), &vp, &palette, elided);
      for (guint k = 0; k < elided->len; k++)
        if (strstr (g_array_index (elided, FlElidedText, k).text, "–") != NULL)
          g_error ("at ×%.2f the VMA tree cut the range %s", scales[i],
                   g_array_index (elided, FlElidedText, k).text);
      cairo_destroy (cr);
      cairo_surface_destroy (s);
    }
}

/* spf-vs-rotation: the VMA tree marks the VMA a rotation moved out of cpu0's walk from the
 * rotation (step 21) to the range check that misses it (step 30), and then no more. */
static void
test_vma_missed (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FlScenario) scenario = fl_scenario_load_builtin ("spf-vs-rotation", &error);
  g_assert_no_error (error);
  g_autoptr (FlSim) sim = fl_sim_new (scenario, NULL, scenario->seed, &error);
  g_assert_no_error (error);
  fl_sim_run (sim, 0);
  FlViewport vp = { .width = 700, .height = 420, .font_scale = 1 };
  static const struct { guint64 step; gboolean reach, missed; } at[] = {
    { 20, FALSE, FALSE }, { 21, TRUE, FALSE }, { 29, TRUE, FALSE }, { 30, FALSE, TRUE },
    { 31, FALSE, FALSE },
  };
  for (guint i = 0; i < G_N_ELEMENTS (at); i++)
    {
      g_assert_true (fl_sim_seek (sim, at[i].step));
      g_assert_cmpint (view_drew (FL_VIEW_VMA, sim, &vp, "out of cpu0's reach"), ==, at[i].reach);
      g_assert_cmpint (view_drew (FL_VIEW_VMA, sim, &vp, "missed by cpu0"), ==, at[i].missed);
    }
}

/* spf-file-vs-munmap with the repair: from munmap's remove_vma until the VMA's callback runs,
 * the RCU view says the callback will also put the file, held open until then. */
static void
test_rcu_file_held (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FlScenario) scenario = fl_scenario_load_builtin ("spf-file-vs-munmap", &error);
  g_assert_no_error (error);
  g_autoptr (FlSim) sim = fl_sim_new (scenario, NULL, scenario->seed, &error);
  g_assert_no_error (error);
  fl_sim_run (sim, 0);
  gsize n;
  const FlEvent *ev = fl_sim_get_events (sim, &n);
  guint64 removed = 0;
  for (gsize i = 0; i < n && removed == 0; i++)
    if (ev[i].loc == FL_LOC_DO_MUNMAP_remove_vma)
      removed = ev[i].step + 1;
  g_assert_cmpuint (removed, >, 0);
  FlViewport vp = { .width = 700, .height = 420, .font_scale = 1 };
  g_assert_true (fl_sim_seek (sim, removed - 1));
  g_assert_false (view_drew (FL_VIEW_RCU, sim, &vp, "put its file"));
  g_assert_true (fl_sim_seek (sim, removed));
  g_assert_true (view_drew (FL_VIEW_RCU, sim, &vp, "put its file, held open until then"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ui/painters/names", test_names);
  g_test_add ("/ui/painters/every-view-draws", Fixture, NULL, fixture_set_up,
              test_every_view_draws, fixture_tear_down);
  g_test_add ("/ui/painters/no-side-effects", Fixture, NULL, fixture_set_up,
              test_no_side_effects, fixture_tear_down);
  g_test_add ("/ui/painters/exports", Fixture, NULL, fixture_set_up, test_exports,
              fixture_tear_down);
  g_test_add_func ("/ui/painters/png-encode", test_png_encode);
  g_test_add ("/ui/painters/svg-text", Fixture, NULL, fixture_set_up, test_svg_text,
              fixture_tear_down);
  g_test_add ("/ui/painters/export-errors", Fixture, NULL, fixture_set_up, test_export_errors,
              fixture_tear_down);
  g_test_add ("/ui/painters/lanes-hit", Fixture, NULL, fixture_set_up, test_lanes_hit,
              fixture_tear_down);
  g_test_add_func ("/ui/painters/findings", test_finding_views);
  g_test_add_func ("/ui/painters/builtin-scenarios", test_builtin_scenarios);
  g_test_add_func ("/ui/painters/views-agree", test_views_agree);
  g_test_add_func ("/ui/painters/lanes-64-cpus", test_lanes_64_cpus);
  g_test_add_func ("/ui/painters/cpu-palette", test_cpu_palette);
  g_test_add ("/ui/painters/lanes-report", Fixture, NULL, fixture_set_up, test_lanes_report,
              fixture_tear_down);
  g_test_add_func ("/ui/painters/cache-labels-apart", test_cache_labels_apart);
  g_test_add_func ("/ui/painters/vma-missed", test_vma_missed);
  g_test_add_func ("/ui/painters/vma-ranges-whole", test_vma_ranges_whole);
  g_test_add_func ("/ui/painters/rcu-file-held", test_rcu_file_held);
  return g_test_run ();
}
