/* fl-bench-paint.c — the painters drawing a 64-CPU state into a full-HD image, view by view
 * and all views at once, as `faultline-cli export` and the window's widgets draw them; and a
 * range of steps exported as numbered PNGs, drawn, encoded and written. */
#include "fl-bench.h"
#include "fl-export-range.h"
#include "fl-paint.h"

#include <glib/gstdio.h>

#define WIDTH  1920
#define HEIGHT 1080

/* One frame: a new context on the same surface (as a widget gets each frame), and the flush
 * that makes Cairo finish rasterizing before the clock stops. */
static double
frame_ms (cairo_surface_t *surface, FlView view, const FlCursor *cursor, const FlViewport *vp,
          const FlPalette *palette)
{
  guint64 t0 = fl_bench_now_ns ();
  cairo_t *cr = cairo_create (surface);
  fl_paint_view (view, cr, cursor, vp, palette);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return (double) (fl_bench_now_ns () - t0) / 1e6;
}

/* `faultline-cli export --view all --from --to` of the last steps, as slides for a lecture:
 * the time per file, the series' wall-clock time over its frames (the encoders run on every
 * core). */
static gboolean
export_series (FlBench *bench, const FlRun *run, guint64 last, const FlViewport *vp,
               const FlPalette *palette, GError **error)
{
  guint frames = bench->quick ? 2 : 24;
  g_autofree char *dir = g_dir_make_tmp ("faultline-bench-XXXXXX", error);
  if (dir == NULL)
    return FALSE;
  g_autofree char *prefix = g_build_filename (dir, "slide.png", NULL);
  guint64 t0 = fl_bench_now_ns ();
  gboolean ok = fl_export_range (FL_VIEW_ALL, run, last - frames + 1, last, vp, palette, "png",
                                 prefix, NULL, NULL, error);
  double ms = (double) (fl_bench_now_ns () - t0) / 1e6 / frames;
  for (guint64 step = last - frames + 1; step <= last; step++)
    {
      g_autofree char *file = fl_export_range_file_name (prefix, step, "png");
      g_unlink (file);
    }
  g_rmdir (dir);
  if (!ok)
    return FALSE;
  g_autofree char *label = g_strdup_printf ("export view 'all' as numbered PNGs, per step "
                                            "(%u steps, %u cores)", frames,
                                            g_get_num_processors ());
  fl_bench_add (bench, label, ms, "ms", FL_GOAL_NONE, 0);
  return TRUE;
}

gboolean
fl_bench_paint (FlBench *bench, GError **error)
{
  guint64 steps = bench->quick ? 5000 : 500000;
  guint frames = bench->quick ? 1 : 21;
  FlSim *sim = fl_bench_workload (64, 1, FL_ORACLE_AT_END, error);
  if (sim == NULL)
    return FALSE;
  fl_sim_run (sim, steps);
  g_autoptr (FlRun) run = fl_run_new_from_sim (sim);
  g_autoptr (FlCursor) cursor = fl_cursor_new (run);
  fl_cursor_seek (cursor, fl_run_get_total_steps (run));
  fl_bench_section (bench, "Rendering with the painters",
                    "multi-fault at 64 CPUs stopped at step %" G_GUINT64_FORMAT " (every CPU "
                    "mid-loop, the lanes holding all of its events), drawn into a %dx%d ARGB32 "
                    "image with the light palette; median of %u frames after one warm-up frame",
                    fl_cursor_get_step (cursor), WIDTH, HEIGHT, frames);

  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  if (cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, FL_BENCH_ERROR, FL_BENCH_ERROR_CAIRO, "cannot create a %dx%d image: %s",
                   WIDTH, HEIGHT, cairo_status_to_string (cairo_surface_status (surface)));
      cairo_surface_destroy (surface);
      return FALSE;
    }
  FlPalette palette;
  fl_palette_init_light (&palette);
  FlViewport vp = { .width = WIDTH, .height = HEIGHT, .font_scale = 1.0 };
  g_autofree double *ms = g_new (double, frames);
  for (FlView view = 0; view < FL_VIEW_N; view++)
    {
      frame_ms (surface, view, cursor, &vp, &palette);
      for (guint i = 0; i < frames; i++)
        ms[i] = frame_ms (surface, view, cursor, &vp, &palette);
      g_autofree char *label = g_strdup_printf ("render view '%s'%s", fl_view_name (view),
                                                view == FL_VIEW_ALL ? " (every view, one image)" : "");
      /* the 16 ms frame budget belongs to the whole window; 'all' is its layout */
      fl_bench_add (bench, label, fl_bench_median (ms, frames), "ms",
                    view == FL_VIEW_ALL ? FL_GOAL_AT_MOST : FL_GOAL_NONE, 16);
    }
  cairo_surface_destroy (surface);
  return export_series (bench, run, fl_cursor_get_step (cursor), &vp, &palette, error);
}
