/* fl-paint-chart.c — the benchmark as a lecturer shows it: faults per simulated second
 * against CPU count, one line per configuration on a log2 axis, and the four-configuration
 * bars of the 2010 table with the published ratios hatched beside the simulated ones.
 *
 * Each configuration keeps one colour and one marker shape in both charts, so a line and
 * its bar are the same thing to the eye, and the lines stay apart on a projector that
 * washes colours out. */
#include "fl-paint-chart.h"
#include "fl-export-range.h"
#include "fl-paint-private.h"
#include "fl-store.h"
#include "fl-workload.h"

#include <math.h>
#include <string.h>

#define MAX_SERIES 12

typedef enum { MARK_CIRCLE, MARK_SQUARE, MARK_TRIANGLE, MARK_DIAMOND, MARK_N } Mark;

typedef struct {
  const char *name;
  FlRgba      color;
  Mark        mark;
} Series;

typedef struct {
  FlPaintCtx         p;          /* only cr, vp, pal, w, h and fs: there is no simulation */
  const FlBenchPoint *pts;
  guint               n;
  Series              series[MAX_SERIES];
  guint               nseries;
  const char         *workload;
} Chart;

typedef struct { double x, y, w, h; } Box;

/* The 2010 configurations in the table's order, with colours that read as "worse to
 * better": grey baseline, then the three fixes. */

static void
series_collect (Chart *c)
{
  guint nknown = 0;
  const FlBenchConfig *known = fl_bench_configs (&nknown);
  /* known configurations first, in the table's order; others after, as they come */
  for (guint k = 0; k < nknown; k++)
    for (guint i = 0; i < c->n; i++)
      if (g_strcmp0 (c->pts[i].config, known[k].name) == 0 && c->nseries < MAX_SERIES)
        {
          c->series[c->nseries++] = (Series) { known[k].name,
                                               c->p.pal->series[k % 4],
                                               (Mark) (k % MARK_N) };
          break;
        }
  for (guint i = 0; i < c->n; i++)
    {
      const char *name = c->pts[i].config;
      gboolean seen = name == NULL;
      for (guint s = 0; s < c->nseries && !seen; s++)
        seen = strcmp (c->series[s].name, name) == 0;
      if (!seen && c->nseries < MAX_SERIES)
        {
          guint s = c->nseries;
          c->series[c->nseries++] = (Series) { name, *fl_palette_cpu (c->p.pal, 3 + s),
                                               (Mark) (s % MARK_N) };
        }
    }
}

static void
chart_init (Chart *c, cairo_t *cr, const FlBenchPoint *pts, guint n, const FlViewport *vp,
            const FlPalette *pal)
{
  memset (c, 0, sizeof *c);
  fl_paint_ctx_init_bare (&c->p, cr, vp, pal);
  c->pts = pts;
  c->n = n;
  c->workload = n ? pts[0].workload : NULL;
  series_collect (c);
}

static double
nice_step (double raw)
{
  if (raw <= 0)
    return 1;
  double e = pow (10, floor (log10 (raw)));
  double f = raw / e;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * e;
}

/* "2.5 M", "750 k", "12": rates with an SI prefix chosen from the axis' largest value. */
static void
format_rate (double v, double unit_of, double step, char *buf, gsize size)
{
  const char *prefix = "";
  double div = 1;
  if (unit_of >= 1e9)
    prefix = " G", div = 1e9;
  else if (unit_of >= 1e6)
    prefix = " M", div = 1e6;
  else if (unit_of >= 1e3)
    prefix = " k", div = 1e3;
  double s = step / div;
  int decimals = s >= 1 || s == 0 ? 0 : s >= 0.1 ? 1 : 2;
  g_snprintf (buf, size, "%.*f%s", decimals, v / div, v == 0 ? "" : prefix);
}

static void
mark_path (cairo_t *cr, Mark mark, double x, double y, double r)
{
  switch (mark)
    {
    case MARK_SQUARE:
      cairo_rectangle (cr, x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7);
      break;
    case MARK_TRIANGLE:
      cairo_move_to (cr, x, y - r * 1.1);
      cairo_line_to (cr, x + r, y + r * 0.7);
      cairo_line_to (cr, x - r, y + r * 0.7);
      cairo_close_path (cr);
      break;
    case MARK_DIAMOND:
      fl_diamond (cr, x, y, r * 1.15);
      break;
    case MARK_CIRCLE:
    default:
      cairo_new_sub_path (cr);
      cairo_arc (cr, x, y, r, 0, 2 * G_PI);
      break;
    }
}

static void
draw_mark (Chart *c, const Series *s, double x, double y, double r)
{
  cairo_t *cr = c->p.cr;
  mark_path (cr, s->mark, x, y, r);
  fl_set_rgba (cr, &s->color);
  cairo_fill_preserve (cr);
  fl_set_rgba (cr, &c->p.pal->background);
  cairo_set_line_width (cr, MAX (1.0, r * 0.3));
  cairo_stroke (cr);
}

/* Diagonal stripes in `color` across a rectangle: the published bars. */
static void
hatch (cairo_t *cr, double x, double y, double w, double h, double gap, const FlRgba *color)
{
  cairo_save (cr);
  cairo_rectangle (cr, x, y, w, h);
  cairo_clip (cr);
  for (double d = -h; d < w; d += gap)
    {
      cairo_move_to (cr, x + d, y + h);
      cairo_line_to (cr, x + d + h, y);
    }
  fl_set_rgba (cr, color);
  cairo_set_line_width (cr, MAX (1.0, gap * 0.28));
  cairo_stroke (cr);
  cairo_restore (cr);
}

static void
no_data (Chart *c, const char *title, const char *why)
{
  FlPaintCtx *p = &c->p;
  fl_paint_panel_background (p);
  double top = fl_paint_header (p, title, NULL);
  fl_text_draw (p, FL_FONT_ITALIC, p->fs, &p->pal->text_dim, p->w / 2, top + (p->h - top) / 2.5,
                p->w * 0.9, FL_ALIGN_CENTER, why);
}

/* A horizontal axis with grid lines, labels right-aligned left of the plot. Returns the
 * axis maximum. */
static double
value_axis (Chart *c, const Box *plot, double vmax, gboolean ratio, double *step_out)
{
  FlPaintCtx *p = &c->p;
  cairo_t *cr = p->cr;
  double size = p->fs * 0.9;
  double line = fl_text_height (p, FL_FONT_SANS, size);
  guint max_ticks = MAX (2u, (guint) floor (plot->h / (line * 1.8)));
  double step = nice_step (vmax / MIN (max_ticks, 6u));
  double top = ceil (vmax / step - 1e-9) * step;
  if (top <= 0)
    top = step;
  char buf[64];
  for (double v = 0; v <= top + step * 1e-6; v += step)
    {
      double y = floor (plot->y + plot->h - v / top * plot->h) + 0.5;
      fl_set_rgba (cr, &p->pal->grid);
      cairo_set_line_width (cr, 1);
      cairo_move_to (cr, plot->x, y);
      cairo_line_to (cr, plot->x + plot->w, y);
      cairo_stroke (cr);
      if (ratio)
        g_snprintf (buf, sizeof buf, step < 1 ? "%.1f×" : "%.0f×", v);
      else
        format_rate (v, top, step, buf, sizeof buf);
      fl_text_draw (p, FL_FONT_SANS, size, &p->pal->text_dim, plot->x - size * 0.5,
                    y - line / 2, plot->x, FL_ALIGN_RIGHT, buf);
    }
  if (step_out)
    *step_out = step;
  return top;
}

/* The width of the widest label value_axis() would draw. */
static double
value_axis_width (Chart *c, double vmax, gboolean ratio)
{
  double size = c->p.fs * 0.9;
  char buf[64];
  double step = nice_step (vmax / 5), top = ceil (vmax / step) * step;
  if (ratio)
    g_snprintf (buf, sizeof buf, "%.1f×", top);
  else
    format_rate (top * 0.999, top, step, buf, sizeof buf);
  return fl_text_width (&c->p, FL_FONT_SANS, size, buf) + size * 1.2;
}

/* Line, marker and name per configuration, flowing in rows; returns the height used. */
static double
series_legend (Chart *c, double x, double y, double width, gboolean draw)
{
  FlPaintCtx *p = &c->p;
  double size = p->fs * 0.95;
  double line = fl_text_height (p, FL_FONT_BOLD, size);
  double sw = size * 2.2, gap = size * 0.45, spacing = size * 1.6;
  double cx = x, cy = y;
  for (guint s = 0; s < c->nseries; s++)
    {
      double iw = sw + gap + fl_text_width (p, FL_FONT_BOLD, size, c->series[s].name);
      if (cx > x && cx + iw > x + width)
        {
          cx = x;
          cy += line * 1.3;
        }
      if (draw)
        {
          cairo_t *cr = p->cr;
          fl_set_rgba (cr, &c->series[s].color);
          cairo_set_line_width (cr, MAX (2.0, p->fs * 0.2));
          cairo_move_to (cr, cx, cy + line / 2);
          cairo_line_to (cr, cx + sw, cy + line / 2);
          cairo_stroke (cr);
          draw_mark (c, &c->series[s], cx + sw / 2, cy + line / 2, size * 0.38);
          fl_text_draw (p, FL_FONT_BOLD, size, &c->series[s].color, cx + sw + gap, cy, 0,
                        FL_ALIGN_LEFT, c->series[s].name);
        }
      cx += iw + spacing;
    }
  return c->nseries ? cy - y + line : 0;
}

static int
compare_uint (gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;
  return x < y ? -1 : x > y;
}

static int
by_cpus (gconstpointer a, gconstpointer b)
{
  const FlBenchPoint *x = *(const FlBenchPoint *const *) a, *y = *(const FlBenchPoint *const *) b;
  return x->cpus < y->cpus ? -1 : x->cpus > y->cpus;
}

static void
paint_scaling (Chart *c)
{
  FlPaintCtx *p = &c->p;
  cairo_t *cr = p->cr;
  const FlPalette *pal = p->pal;
  /* Translators: the scaling chart's title; %s is the workload, e.g. multi-fault */
  g_autofree char *title = g_strdup_printf (_("%s: faults per simulated second"),
                                            c->workload ? c->workload : _("benchmark"));
  guint cmin = G_MAXUINT, cmax = 0;
  double vmax = 0;
  for (guint i = 0; i < c->n; i++)
    if (c->pts[i].cpus > 0)
      {
        cmin = MIN (cmin, c->pts[i].cpus);
        cmax = MAX (cmax, c->pts[i].cpus);
        vmax = MAX (vmax, c->pts[i].faults_per_sec);
      }
  if (cmax == 0 || vmax <= 0)
    {
      no_data (c, title, _("No measurements: run faultline-cli bench --cpus 1,2,4,8"));
      return;
    }
  fl_paint_panel_background (p);
  double top = fl_paint_header (p, title, _("by CPU count · higher is better"));
  double pad = p->fs * 0.6;
  double small = p->fs * 0.9;
  double small_h = fl_text_height (p, FL_FONT_SANS, small);

  /* legend under the header, then the y unit, the plot, the CPU labels and the axis title */
  double legend_h = series_legend (c, pad * 2, top, p->w - pad * 4, FALSE);
  series_legend (c, pad * 2, top, p->w - pad * 4, TRUE);
  double unit_y = top + legend_h + pad;
  Box plot;
  plot.x = pad + value_axis_width (c, vmax, FALSE);
  plot.y = unit_y + small_h + pad * 0.8;
  plot.w = p->w - plot.x - pad * 2.5;
  plot.h = p->h - plot.y - pad - small_h * 2.4;
  if (plot.h < small_h * 3 || plot.w < p->fs * 6)
    return;
  fl_text_draw (p, FL_FONT_SANS, small, &pal->text_dim, pad, unit_y, 0, FL_ALIGN_LEFT,
                /* Translators: the unit of the scaling chart's value axis */
                _("faults / simulated second"));

  double step;
  double ytop = value_axis (c, &plot, vmax * 1.05, FALSE, &step);

  /* log2 CPU axis, half an octave of margin so the end markers clear the frame */
  double l0 = log2 (cmin) - 0.35, l1 = log2 (cmax) + 0.35;
  if (cmin == cmax)
    l0 -= 0.65, l1 += 0.65;
  #define X_OF(cpus) (plot.x + (log2 (cpus) - l0) / (l1 - l0) * plot.w)
  #define Y_OF(v) (plot.y + plot.h - (v) / ytop * plot.h)

  fl_set_rgba (cr, &pal->text_dim);
  cairo_set_line_width (cr, 1.5);
  cairo_move_to (cr, plot.x, plot.y);
  cairo_line_to (cr, plot.x, plot.y + plot.h);
  cairo_line_to (cr, plot.x + plot.w, plot.y + plot.h);
  cairo_stroke (cr);

  /* ticks at every power of two and at every measured count; labels that would collide
   * are left out, never the measured ones next to a power of two */
  GArray *ticks = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint v = 1; v <= cmax * 2 && v != 0; v *= 2)
    if (log2 (v) >= l0 && log2 (v) <= l1)
      g_array_append_val (ticks, v);
  for (guint i = 0; i < c->n; i++)
    {
      guint v = c->pts[i].cpus;
      gboolean have = FALSE;
      for (guint t = 0; t < ticks->len && !have; t++)
        have = g_array_index (ticks, guint, t) == v;
      if (!have && v)
        g_array_append_val (ticks, v);
    }
  g_array_sort (ticks, compare_uint);
  double last_right = -1e9;
  char buf[32];
  for (guint t = 0; t < ticks->len; t++)
    {
      guint v = g_array_index (ticks, guint, t);
      double x = floor (X_OF (v)) + 0.5;
      fl_set_rgba (cr, &pal->grid);
      cairo_set_line_width (cr, 1);
      cairo_move_to (cr, x, plot.y);
      cairo_line_to (cr, x, plot.y + plot.h);
      cairo_stroke (cr);
      fl_set_rgba (cr, &pal->text_dim);
      cairo_move_to (cr, x, plot.y + plot.h);
      cairo_line_to (cr, x, plot.y + plot.h + small * 0.35);
      cairo_stroke (cr);
      g_snprintf (buf, sizeof buf, "%u", v);
      double tw = fl_text_width (p, FL_FONT_SANS, small, buf);
      if (x - tw / 2 > last_right + small * 0.5)
        {
          fl_text_draw (p, FL_FONT_SANS, small, &pal->text, x, plot.y + plot.h + small * 0.4, 0,
                        FL_ALIGN_CENTER, buf);
          last_right = x + tw / 2;
        }
    }
  g_array_unref (ticks);
  fl_text_draw (p, FL_FONT_SANS, small, &pal->text_dim, plot.x + plot.w / 2,
                plot.y + plot.h + small * 0.4 + small_h, 0, FL_ALIGN_CENTER,
                /* Translators: the title of the scaling chart's CPU-count axis */
                _("CPUs (log scale)"));

  /* one line per configuration, markers on top */
  double r = MAX (3.0, p->fs * 0.33);
  for (int pass = 0; pass < 2; pass++)
    for (guint s = 0; s < c->nseries; s++)
      {
        g_autoptr (GPtrArray) mine = g_ptr_array_new ();
        for (guint i = 0; i < c->n; i++)
          if (g_strcmp0 (c->pts[i].config, c->series[s].name) == 0 && c->pts[i].cpus)
            g_ptr_array_add (mine, (gpointer) &c->pts[i]);
        g_ptr_array_sort (mine, by_cpus);
        for (guint i = 0; i < mine->len; i++)
          {
            const FlBenchPoint *pt = g_ptr_array_index (mine, i);
            double x = X_OF (pt->cpus), y = Y_OF (pt->faults_per_sec);
            if (pass == 0)
              {
                if (i == 0)
                  cairo_move_to (cr, x, y);
                else
                  cairo_line_to (cr, x, y);
              }
            else
              draw_mark (c, &c->series[s], x, y, r);
          }
        if (pass == 0 && mine->len > 1)
          {
            fl_set_rgba (cr, &c->series[s].color);
            cairo_set_line_width (cr, MAX (2.0, p->fs * 0.2));
            cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
            cairo_stroke (cr);
          }
        cairo_new_path (cr);
      }
  #undef X_OF
  #undef Y_OF
}

/* The CPU count of the bars: the 2010 table's when it was measured, else the largest. */
static guint
bars_cpus (const Chart *c)
{
  guint largest = 0;
  for (guint i = 0; i < c->n; i++)
    {
      if (c->pts[i].cpus == FL_BENCH_TABLE_CPUS)
        return FL_BENCH_TABLE_CPUS;
      largest = MAX (largest, c->pts[i].cpus);
    }
  return largest;
}

static void
paint_bars (Chart *c)
{
  FlPaintCtx *p = &c->p;
  cairo_t *cr = p->cr;
  const FlPalette *pal = p->pal;
  guint cpus = bars_cpus (c);
  /* Translators: the speed-up chart's title; %s is the workload, e.g. multi-fault. The
   * count is at least 2 in practice, but take the plural form that fits it. */
  g_autofree char *title = g_strdup_printf (g_dngettext (NULL,
                                                         "%s at %u CPU: speed-up over baseline",
                                                         "%s at %u CPUs: speed-up over baseline",
                                                         cpus),
                                            c->workload ? c->workload : _("benchmark"), cpus);
  /* the point of each configuration at that count */
  const FlBenchPoint *at[MAX_SERIES] = { NULL };
  double vmax = 0;
  gboolean published = FALSE;
  for (guint i = 0; i < c->n; i++)
    if (c->pts[i].cpus == cpus)
      for (guint s = 0; s < c->nseries; s++)
        if (g_strcmp0 (c->series[s].name, c->pts[i].config) == 0)
          {
            at[s] = &c->pts[i];
            vmax = MAX (vmax, MAX (c->pts[i].ratio, c->pts[i].published));
            published |= c->pts[i].published > 0;
          }
  if (vmax <= 0)
    {
      no_data (c, title, _("No ratios: measure the baseline with the other configurations"));
      return;
    }
  fl_paint_panel_background (p);
  double top = fl_paint_header (p, title,
                                published
                                ? _("simulated, and as published on 8 Jan 2010")
                                : _("simulated · no published figures for this workload"));
  double pad = p->fs * 0.6;
  double size = p->fs * 0.95, small = p->fs * 0.9;
  double line = fl_text_height (p, FL_FONT_BOLD, size);
  double small_h = fl_text_height (p, FL_FONT_SANS, small);

  /* legend: what filled and hatched mean */
  double sw = size * 1.3, lx = pad * 2, ly = top;
  FlRgba neutral = pal->text_dim;
  fl_rounded_rect (cr, lx, ly + (line - sw * 0.75) / 2, sw, sw * 0.75, 2);
  fl_set_rgba (cr, &neutral);
  cairo_fill (cr);
  lx += sw + size * 0.45;
  lx += fl_text_draw (p, FL_FONT_SANS, size, &pal->text, lx, ly, 0, FL_ALIGN_LEFT,
                      _("simulated (this model)")) + size * 1.6;
  if (published)
    {
      hatch (cr, lx, ly + (line - sw * 0.75) / 2, sw, sw * 0.75, size * 0.3, &neutral);
      fl_set_rgba (cr, &neutral);
      cairo_set_line_width (cr, 1.5);
      cairo_rectangle (cr, lx + 0.75, ly + (line - sw * 0.75) / 2 + 0.75, sw - 1.5,
                       sw * 0.75 - 1.5);
      cairo_stroke (cr);
      lx += sw + size * 0.45;
      fl_text_draw (p, FL_FONT_SANS, size, &pal->text, lx, ly, 0, FL_ALIGN_LEFT,
                    _("published (Zijlstra, 2 × 4 cores)"));
    }

  Box plot;
  plot.x = pad + value_axis_width (c, vmax * 1.2, TRUE);
  plot.y = top + line + pad * 1.2 + small_h;
  plot.w = p->w - plot.x - pad * 2.5;
  plot.h = p->h - plot.y - pad - line * 1.3;
  if (plot.h < small_h * 3 || plot.w < p->fs * 6)
    return;
  fl_text_draw (p, FL_FONT_SANS, small, &pal->text_dim, pad, top + line + pad * 0.6, 0,
                /* Translators: the unit of the speed-up chart's value axis */
                FL_ALIGN_LEFT, _("faults per second ÷ baseline's"));
  /* room above the tallest bar for its number */
  double ytop = value_axis (c, &plot, vmax * 1.12, TRUE, NULL);
  #define Y_OF(v) (plot.y + plot.h - (v) / ytop * plot.h)

  /* the baseline: 1× */
  double y1 = floor (Y_OF (1.0)) + 0.5;
  fl_set_rgba (cr, &pal->text_dim);
  cairo_set_line_width (cr, 1.5);
  double dash[] = { 6, 4 };
  cairo_set_dash (cr, dash, 2, 0);
  cairo_move_to (cr, plot.x, y1);
  cairo_line_to (cr, plot.x + plot.w, y1);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
  cairo_move_to (cr, plot.x, plot.y + plot.h);
  cairo_line_to (cr, plot.x + plot.w, plot.y + plot.h);
  cairo_stroke (cr);

  guint groups = 0;
  for (guint s = 0; s < c->nseries; s++)
    groups += at[s] != NULL;
  double gw = plot.w / MAX (groups, 1u);
  double bw = MIN (gw * (published ? 0.32 : 0.45), p->fs * 5);
  char buf[32];
  guint g = 0;
  for (guint s = 0; s < c->nseries; s++)
    {
      const FlBenchPoint *pt = at[s];
      if (pt == NULL)
        continue;
      const Series *se = &c->series[s];
      double cx = plot.x + gw * (g++ + 0.5);
      double bx = published ? cx - bw - bw * 0.06 : cx - bw / 2;
      double by = Y_OF (pt->ratio);
      fl_rounded_rect (cr, bx, by, bw, plot.y + plot.h - by, MIN (4.0, bw * 0.08));
      fl_set_rgba (cr, &se->color);
      cairo_fill (cr);
      g_snprintf (buf, sizeof buf, "%.2f", pt->ratio);
      fl_text_draw (p, FL_FONT_BOLD, size, &pal->text, bx + bw / 2, by - line - 2, bw * 2,
                    FL_ALIGN_CENTER, buf);
      if (published && pt->published > 0)
        {
          double px = cx + bw * 0.06, py = Y_OF (pt->published);
          hatch (cr, px, py, bw, plot.y + plot.h - py, size * 0.42, &se->color);
          fl_set_rgba (cr, &se->color);
          cairo_set_line_width (cr, 2);
          cairo_rectangle (cr, px + 1, py + 1, bw - 2, plot.y + plot.h - py - 1);
          cairo_stroke (cr);
          g_snprintf (buf, sizeof buf, "%.2f", pt->published);
          fl_text_draw (p, FL_FONT_SANS, size, &pal->text_dim, px + bw / 2, py - line - 2,
                        bw * 2, FL_ALIGN_CENTER, buf);
        }
      /* the name under the group, a marker in the scaling chart's shape before it */
      double nw = fl_text_width (p, FL_FONT_BOLD, size, se->name);
      double mr = size * 0.32;
      double ny = plot.y + plot.h + pad * 0.5;
      draw_mark (c, se, cx - nw / 2 - mr * 1.8, ny + line / 2, mr);
      fl_text_draw (p, FL_FONT_BOLD, size, &pal->text, cx + mr, ny, gw - mr * 3,
                    FL_ALIGN_CENTER, se->name);
    }
  #undef Y_OF
}

/* Below the size the charts are laid out for they are drawn at that size, scaled down. */
typedef void (*ChartFn) (Chart *c);

static void
paint_fitted (ChartFn fn, cairo_t *cr, const FlBenchPoint *pts, guint n,
              const FlViewport *viewport, const FlPalette *palette, double min_w, double min_h)
{
  FlViewport vp;
  if (!fl_paint_scaled_begin (cr, viewport, min_w, min_h, &vp))
    return;
  Chart c;
  chart_init (&c, cr, pts, n, &vp, palette);
  fn (&c);
  cairo_restore (cr);
}

/**
 * fl_paint_bench_scaling:
 * @cr: where to draw: the chart fills (0, 0, width, height)
 * @points: (array length=n_points): the measurements, any order
 * @n_points: how many
 * @viewport: size and font scale (the rest is ignored)
 * @palette: colours
 *
 * Faults per simulated second against CPU count, one line per configuration, on a log2
 * CPU axis. Leaves @cr as it found it.
 */
void
fl_paint_bench_scaling (cairo_t *cr, const FlBenchPoint *points, guint n_points,
                        const FlViewport *viewport, const FlPalette *palette)
{
  g_return_if_fail (cr != NULL && viewport != NULL && palette != NULL);
  g_return_if_fail (points != NULL || n_points == 0);
  paint_fitted (paint_scaling, cr, points, n_points, viewport, palette, 560, 320);
}

/**
 * fl_paint_bench_bars:
 * @cr: where to draw
 * @points: (array length=n_points): the measurements
 * @n_points: how many
 * @viewport: size and font scale
 * @palette: colours
 *
 * The configurations' ratios to baseline at %FL_BENCH_TABLE_CPUS CPUs (else at the largest
 * count measured) as filled bars, each with its published ratio hatched beside it.
 */
void
fl_paint_bench_bars (cairo_t *cr, const FlBenchPoint *points, guint n_points,
                     const FlViewport *viewport, const FlPalette *palette)
{
  g_return_if_fail (cr != NULL && viewport != NULL && palette != NULL);
  g_return_if_fail (points != NULL || n_points == 0);
  paint_fitted (paint_bars, cr, points, n_points, viewport, palette, 560, 320);
}

/**
 * fl_paint_bench_chart:
 * @cr: where to draw
 * @points: (array length=n_points): the measurements
 * @n_points: how many
 * @viewport: size and font scale
 * @palette: colours
 *
 * Both charts, the scaling lines above the bars of the 2010 table.
 */
void
fl_paint_bench_chart (cairo_t *cr, const FlBenchPoint *points, guint n_points,
                      const FlViewport *viewport, const FlPalette *palette)
{
  g_return_if_fail (cr != NULL && viewport != NULL && palette != NULL);
  g_return_if_fail (points != NULL || n_points == 0);
  if (viewport->width < 1 || viewport->height < 1)
    return;
  /* each half is a chart of its own: the text size follows the whole image, not the half */
  FlViewport half = *viewport;
  half.height = viewport->height / 2;
  double by_size = CLAMP (MIN (viewport->width / 800.0, viewport->height / 450.0), 1.0, 1.5);
  half.font_scale = MAX (viewport->font_scale, by_size);
  fl_paint_bench_scaling (cr, points, n_points, &half, palette);
  cairo_save (cr);
  cairo_translate (cr, 0, half.height);
  fl_paint_bench_bars (cr, points, n_points, &half, palette);
  cairo_restore (cr);
}

/**
 * fl_bench_points_from_store:
 * @stored_rows: (element-type FlStoredBench): rows from fl_store_list_bench()
 *
 * The store's benchmark rows as chart points, with the published 2010 ratios filled in
 * for multi-fault at %FL_BENCH_TABLE_CPUS CPUs.
 *
 * Returns: (transfer full) (element-type FlBenchPoint): points borrowing the rows' strings;
 *   keep @stored_rows alive while they are used
 */
GArray *
fl_bench_points_from_store (GPtrArray *stored_rows)
{
  GArray *points = g_array_new (FALSE, TRUE, sizeof (FlBenchPoint));
  for (guint i = 0; stored_rows && i < stored_rows->len; i++)
    {
      const FlStoredBench *row = g_ptr_array_index (stored_rows, i);
      const FlBenchConfig *known = fl_bench_config (row->config);
      FlBenchPoint pt = {
        .workload = row->workload, .config = row->config, .cpus = row->cpus,
        .faults_per_sec = row->faults_per_sec, .ratio = row->ratio,
        .published = known && row->cpus == FL_BENCH_TABLE_CPUS
                     && g_strcmp0 (row->workload, "multi-fault") == 0 ? known->published : 0,
      };
      g_array_append_val (points, pt);
    }
  return points;
}

typedef struct {
  const FlBenchPoint *points;
  guint               n;
  const FlViewport   *viewport;
  const FlPalette    *palette;
} ExportData;

static void
draw_chart (cairo_t *cr, gpointer data)
{
  ExportData *d = data;
  fl_paint_bench_chart (cr, d->points, d->n, d->viewport, d->palette);
}

/**
 * fl_export_bench_chart:
 * @points: (array length=n_points): the measurements
 * @n_points: how many
 * @viewport: size in pixels (PNG) or points (SVG, PDF) and font scale
 * @palette: colours
 * @format: "png", "svg" or "pdf"
 * @path: the file to write (replaced atomically)
 * @error: return location for a #GError
 *
 * Both charts (fl_paint_bench_chart()) to a file, reproducibly.
 *
 * Returns: %TRUE when the file was written
 */
gboolean
fl_export_bench_chart (const FlBenchPoint *points, guint n_points, const FlViewport *viewport,
                       const FlPalette *palette, const char *format, const char *path,
                       GError **error)
{
  g_return_val_if_fail (points != NULL || n_points == 0, FALSE);
  g_return_val_if_fail (viewport != NULL && palette != NULL, FALSE);
  ExportData d = { points, n_points, viewport, palette };
  /* Translators: the title of an exported chart; %s is the workload, e.g. multi-fault */
  g_autofree char *title = g_strdup_printf (_("Faultline: %s benchmark"),
                                            n_points ? points[0].workload : "");
  return fl_export_drawing (draw_chart, &d, viewport->width, viewport->height, title, format,
                            path, error);
}
