/* fl-paint-lanes-query.c — what the lanes view shows at a point or a time, worked out as the
 * painter draws it: click to seek, tooltips, zoom and pan, the window's layout, the tests. */
#include "fl-paint-lanes-private.h"

#include <math.h>

/* A context for measuring as the lanes were drawn, at the size they were drawn: below the
 * fitted size the painter draws larger and scales down, so this works in that space. */
typedef struct {
  cairo_surface_t *surface;
  cairo_t         *cr;
  FlPalette        palette;
  FlViewport       vp;
  FlPaintCtx       p;
  double           scale;
} Measure;

static void
measure_init (Measure *m, const FlCursor *cur, const FlViewport *viewport)
{
  m->scale = fl_paint_fit_scale (fl_paint_lanes, FALSE, viewport);
  m->vp = *viewport;
  m->vp.width /= m->scale;
  m->vp.height /= m->scale;
  m->surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  m->cr = cairo_create (m->surface);
  fl_palette_init_light (&m->palette);
  fl_paint_ctx_init (&m->p, m->cr, cur, &m->vp, &m->palette);
}

static void
measure_clear (Measure *m)
{
  cairo_destroy (m->cr);
  cairo_surface_destroy (m->surface);
}

/**
 * fl_lanes_hit:
 * @cur: the cursor, as drawn
 * @viewport: the viewport the lanes view was drawn with
 * @x: a point of the view, in its user units
 * @y: the point's vertical position
 * @cpu: (out) (optional): the CPU whose lane is under the point
 * @step: (out) (optional): the step to seek to for the CPU's event under the point: one
 *   past that event's number, so the state shows it done
 *
 * What the lanes view shows under a point, for click-to-seek and tooltips.
 *
 * Returns: %TRUE when the point is on a lane that has events
 */
gboolean
fl_lanes_hit (const FlCursor *cur, const FlViewport *viewport, double x, double y, guint *cpu,
              guint64 *step)
{
  g_return_val_if_fail (cur != NULL && viewport != NULL, FALSE);
  if (viewport->width < 1 || viewport->height < 1)
    return FALSE;
  Measure ms;
  measure_init (&ms, cur, viewport);
  FlPaintCtx p = ms.p;
  x /= ms.scale;
  y /= ms.scale;
  gboolean hit = FALSE;
  guint ncpus = p.st->sizes.ncpus;
  if (ncpus > 0)
    {
      FlLegendItem legend[FL_ACT_N + 4];
      guint nl = fl_lanes_legend_items (&p, legend);
      Layout g;
      fl_lanes_layout (&p, &g, legend, nl, fl_last_cycle (fl_cursor_get_run (cur)));
      if (y >= g.lanes_y && y < g.lanes_y + g.lanes_h && x >= g.m.x0 && x <= g.m.x0 + g.m.w)
        {
          guint c = MIN (g.first + (guint) ((y - g.lanes_y) / g.lane_h), ncpus - 1);
          guint64 t = g.m.t0 + (guint64) ((x - g.m.x0) / g.m.w * (double) (g.m.t1 - g.m.t0));
          /* the segment under t, or the nearest: it leads up to the step that ends it; the
           * lane's last segment only closes it */
          const Lane *l = &fl_lanes_pool_get (fl_cursor_get_run (cur), ncpus)->lanes[c];
          if (l->m > 1)
            {
              guint k = fl_lane_first_after (l, 0, l->m, t);
              guint found = CLAMP (k, 1u, l->m - 1) - 1;
              hit = TRUE;
              if (cpu)
                *cpu = c;
              if (step)
                *step = (guint64) l->step[found] + 1;
            }
        }
    }
  measure_clear (&ms);
  return hit;
}

/**
 * fl_lanes_time_axis:
 * @cur: the cursor, as drawn
 * @viewport: the viewport the lanes view is drawn with
 * @x0: (out) (optional): where the lanes start, in the view's units
 * @width: (out) (optional): how wide they are
 * @t0: (out) (optional): the simulated time (cycles) at @x0
 * @t1: (out) (optional): the simulated time at @x0 + @width
 *
 * The lanes' time axis, for zooming around the pointer and panning by a drag.
 *
 * Returns: %FALSE when the viewport is empty
 */
gboolean
fl_lanes_time_axis (const FlCursor *cur, const FlViewport *viewport, double *x0, double *width,
                    guint64 *t0, guint64 *t1)
{
  g_return_val_if_fail (cur != NULL && viewport != NULL, FALSE);
  if (viewport->width < 1 || viewport->height < 1)
    return FALSE;
  Measure m;
  measure_init (&m, cur, viewport);
  FlLegendItem legend[FL_ACT_N + 4];
  guint nl = fl_lanes_legend_items (&m.p, legend);
  Layout g;
  fl_lanes_layout (&m.p, &g, legend, nl, fl_last_cycle (fl_cursor_get_run (cur)));
  if (x0)
    *x0 = g.m.x0 * m.scale;
  if (width)
    *width = g.m.w * m.scale;
  if (t0)
    *t0 = g.m.t0;
  if (t1)
    *t1 = g.m.t1;
  measure_clear (&m);
  return TRUE;
}

/* The layout the lanes are drawn with, measured as they are drawn; FALSE for no CPUs. */
static gboolean
measure_layout (const FlCursor *cur, const FlViewport *viewport, Layout *g, double *scale)
{
  if (viewport->width < 1 || viewport->height < 1 || fl_cursor_get_state (cur)->sizes.ncpus == 0)
    return FALSE;
  Measure m;
  measure_init (&m, cur, viewport);
  FlLegendItem legend[FL_ACT_N + 4];
  guint nl = fl_lanes_legend_items (&m.p, legend);
  fl_lanes_layout (&m.p, g, legend, nl, fl_last_cycle (fl_cursor_get_run (cur)));
  *scale = m.scale;
  measure_clear (&m);
  return TRUE;
}

/**
 * fl_lanes_shown:
 * @cur: the cursor, as drawn
 * @viewport: the viewport the lanes view is drawn with
 * @first: (out) (optional): the first CPU whose lane is on screen
 *
 * Returns: how many lanes the view shows at once: all CPUs when they fit at a readable
 *   height, else as many as do, from @viewport's lane_first kept in range
 */
guint
fl_lanes_shown (const FlCursor *cur, const FlViewport *viewport, guint *first)
{
  g_return_val_if_fail (cur != NULL && viewport != NULL, 0);
  Layout g;
  double scale;
  if (!measure_layout (cur, viewport, &g, &scale))
    {
      if (first)
        *first = 0;
      return 0;
    }
  if (first)
    *first = g.first;
  return g.shown;
}

/**
 * fl_lanes_lane_box:
 * @cur: the cursor, as drawn
 * @viewport: the viewport the lanes view is drawn with
 * @cpu: a CPU
 * @y: (out) (optional): the top of its lane, in the view's units
 * @height: (out) (optional): the lane's height
 *
 * Returns: %TRUE when the lane of @cpu is on screen
 */
gboolean
fl_lanes_lane_box (const FlCursor *cur, const FlViewport *viewport, guint cpu, double *y,
                   double *height)
{
  g_return_val_if_fail (cur != NULL && viewport != NULL, FALSE);
  Layout g;
  double scale;
  if (!measure_layout (cur, viewport, &g, &scale) || !fl_lanes_on_screen (&g, cpu))
    return FALSE;
  if (y)
    *y = fl_lanes_y (&g, cpu) * scale;
  if (height)
    *height = g.lane_h * scale;
  return TRUE;
}

/* A run longer than this many steps per pixel column of the lanes is long: its whole span
 * shows where it goes, not what a fault is. Around the cursor the lanes then show this many
 * steps per column, at the run's average pace: a fault of a few dozen steps spans tens of
 * pixels. */
#define LONG_STEPS_PER_COLUMN   200
#define FOLLOW_STEPS_PER_COLUMN 2

/**
 * fl_lanes_follow_span:
 * @cur: the cursor, as drawn
 * @viewport: the viewport the lanes view is drawn with (its time window is ignored)
 *
 * Returns: the cycles of the window the lanes open on around the cursor of a long run, or
 *   0 when the whole run reads at this width
 */
guint64
fl_lanes_follow_span (const FlCursor *cur, const FlViewport *viewport)
{
  g_return_val_if_fail (cur != NULL && viewport != NULL, 0);
  FlViewport whole = *viewport;
  whole.time_start = whole.time_end = 0;
  Layout g;
  double scale;
  if (!measure_layout (cur, &whole, &g, &scale))
    return 0;
  guint64 total = fl_cursor_get_total_steps (cur);
  double columns = MAX (g.m.w, 1.0);
  if ((double) total <= columns * LONG_STEPS_PER_COLUMN)
    return 0;
  double span = (double) (g.m.t1 - g.m.t0) * columns * FOLLOW_STEPS_PER_COLUMN / (double) total;
  return MAX ((guint64) span, 16);
}

/**
 * fl_lanes_cursor_cycle:
 * @cur: a cursor
 *
 * Returns: the simulated time of the current step, where the lanes draw their cursor
 */
guint64
fl_lanes_cursor_cycle (const FlCursor *cur)
{
  g_return_val_if_fail (cur != NULL, 0);
  Measure m;
  FlViewport vp = { .width = 1, .height = 1, .font_scale = 1 };
  measure_init (&m, cur, &vp);
  guint64 now = fl_lanes_now (&m.p);
  measure_clear (&m);
  return now;
}

/**
 * fl_lanes_natural_height:
 * @cur: a cursor
 * @viewport: the width the lanes get (the height is ignored)
 *
 * Returns: the height at which every lane of @cur's machine is comfortable and nothing is
 *   left empty, as the window's layout gives the lanes
 */
double
fl_lanes_natural_height (const FlCursor *cur, const FlViewport *viewport)
{
  g_return_val_if_fail (cur != NULL && viewport != NULL, 0);
  /* Tall enough that only the width decides whether the painter scales down, and no
   * taller: past 450 the painters' text grows with the height. */
  FlViewport vp = *viewport;
  vp.height = 450;
  vp.width = MAX (vp.width, 1);
  Measure m;
  measure_init (&m, cur, &vp);
  double h = fl_lanes_preferred_height (&m.p) * m.scale;
  measure_clear (&m);
  return ceil (h);
}

/**
 * fl_lanes_shown_at:
 * @cur: a cursor at the step drawn
 * @cpu: a CPU
 * @cycle: a simulated time
 * @done: (out) (optional): whether the lanes show it as having happened by this step, not
 *   faded as what lies ahead
 *
 * What the lane of @cpu shows at @cycle, decided as the painter decides each pixel column
 * but for one instant.
 *
 * Returns: an FlActivity, or -1 where the lane shows nothing
 */
int
fl_lanes_shown_at (const FlCursor *cur, guint cpu, guint64 cycle, gboolean *done)
{
  g_return_val_if_fail (cur != NULL, -1);
  const FlState *st = fl_cursor_get_state (cur);
  guint ncpus = st->sizes.ncpus;
  g_return_val_if_fail (cpu < ncpus, -1);
  guint64 step = fl_cursor_get_step (cur);
  const FlRun *run = fl_cursor_get_run (cur);
  const Lane *l = &fl_lanes_pool_get (run, ncpus)->lanes[cpu];
  guint boundary = fl_lane_boundary (l, step);
  int act = -1;
  gboolean future = FALSE;
  guint k = fl_lane_first_after (l, 0, l->m, cycle);
  /* segment k - 1 holds the cycle, unless it is the lane's closing one */
  if (k > 0 && k < l->m)
    {
      act = l->act[k - 1];
      future = k - 1 >= boundary;
    }
  FlLaneOngoing ongoing;
  fl_lane_ongoing (l, boundary, st, cpu, fl_lanes_last_end (run, step), &ongoing);
  act = fl_lane_shown (l, &ongoing, cycle, act, &future);
  if (act == FL_ACT_DONE)
    act = -1;
  if (done)
    *done = act >= 0 && !future;
  return act;
}
