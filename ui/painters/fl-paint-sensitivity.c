/* fl-paint-sensitivity.c — a tornado chart of the 2010 table's sensitivity. For each of the
 * three fixes, one bar per free constant spans the ratios it gives between 50% and 150% of
 * its value; a dot marks the model's value, a dashed line the published ratio. A bar that
 * crosses another design's dashed line, or the next design's bars, is a conclusion that the
 * constant, not a mechanism, decides. */
#include "fl-paint-sensitivity.h"
#include "fl-export-range.h"
#include "fl-paint-private.h"
#include "fl-workload.h"

#include <math.h>
#include <string.h>

typedef struct {
  double lo, hi, at;        /* the ratios at the ends of the range, and at 100% */
  guint  lo_percent, hi_percent;
} Span;

static gboolean
span_of (const FlSensitivityRow *rows, guint n, const char *key, guint design, Span *s)
{
  gboolean any = FALSE;
  for (guint i = 0; i < n; i++)
    {
      const FlSensitivityRow *r = &rows[i];
      if (strcmp (r->key, key) != 0)
        continue;
      double v = r->ratio[design];
      if (!any || v < s->lo)
        s->lo = v, s->lo_percent = r->percent;
      if (!any || v > s->hi)
        s->hi = v, s->hi_percent = r->percent;
      if (r->percent == 100)
        s->at = v;
      any = TRUE;
    }
  return any;
}

static void
paint (FlPaintCtx *p, const FlSensitivityRow *rows, guint n, guint cpus)
{
  cairo_t *cr = p->cr;
  const FlPalette *pal = p->pal;
  fl_set_rgba (cr, &pal->background);
  cairo_paint (cr);
  double pad = p->fs, size = p->fs, small = p->fs * 0.85;
  double line = fl_text_height (p, FL_FONT_SANS, size);
  char buf[96];

  /* Translators: the title of the sensitivity chart; %u is a CPU count */
  g_snprintf (buf, sizeof buf, _("How the %u-CPU ratios move with the model's free constants"),
              cpus);
  fl_text_draw (p, FL_FONT_BOLD, size * 1.25, &pal->text, pad, pad, p->w - 2 * pad,
                FL_ALIGN_LEFT, buf);
  double top = pad + fl_text_height (p, FL_FONT_BOLD, size * 1.25) + pad * 0.3;
  fl_text_draw (p, FL_FONT_SANS, small, &pal->text_dim, pad, top, p->w - 2 * pad, FL_ALIGN_LEFT,
                _("Each bar: one constant from half to one and a half times its value, the "
                  "others as they are. Dot: the model. Dashed: published (Zijlstra, 2010)."));
  top += fl_text_height (p, FL_FONT_SANS, small) + pad;

  const char *const *keys = fl_sensitivity_keys ();
  guint nkeys = g_strv_length ((char **) keys);
  guint nconfigs = 0;
  const FlBenchConfig *configs = fl_bench_configs (&nconfigs);

  double vmax = 1;
  for (guint i = 0; i < n; i++)
    for (guint d = 1; d < FL_SENSITIVITY_DESIGNS; d++)
      vmax = MAX (vmax, rows[i].ratio[d]);
  for (guint d = 1; d < nconfigs && d < FL_SENSITIVITY_DESIGNS; d++)
    vmax = MAX (vmax, configs[d].published);
  vmax = ceil (vmax * 1.1);

  double label_w = 0;
  for (guint k = 0; k < nkeys; k++)
    label_w = MAX (label_w, fl_text_width (p, FL_FONT_MONO, small, keys[k]));
  for (guint d = 1; d < FL_SENSITIVITY_DESIGNS; d++)
    label_w = MAX (label_w, fl_text_width (p, FL_FONT_BOLD, size, configs[d].name));
  /* room left of the axis for a bar's low end, right of it for its high end */
  double end_w = fl_text_width (p, FL_FONT_SANS, small, "0.00 (150 %)") + small * 0.6;
  double x0 = pad * 2 + label_w + end_w, x1 = p->w - pad - end_w;
  double axis_h = line * 1.6;
  double bottom = p->h - pad - axis_h;
  guint slots = (FL_SENSITIVITY_DESIGNS - 1) * (nkeys + 1);
  double slot = (bottom - top) / MAX (slots, 1u);
  if (slot < small * 1.2 || x1 - x0 < p->fs * 8)
    return;
  #define X_OF(v) (x0 + ((v) - 1.0) / (vmax - 1.0) * (x1 - x0))

  /* the value axis: whole ratios, and 1× the baseline */
  cairo_set_line_width (cr, 1);
  for (double v = 1; v <= vmax + 1e-9; v += vmax > 8 ? 2 : 1)
    {
      double x = floor (X_OF (v)) + 0.5;
      fl_set_rgba_alpha (cr, &pal->text_dim, 0.25);
      cairo_move_to (cr, x, top);
      cairo_line_to (cr, x, bottom);
      cairo_stroke (cr);
      g_snprintf (buf, sizeof buf, "%.0f×", v);
      fl_text_draw (p, FL_FONT_SANS, small, &pal->text_dim, x, bottom + line * 0.3, size * 4,
                    FL_ALIGN_CENTER, buf);
    }

  double y = top;
  for (guint d = 1; d < FL_SENSITIVITY_DESIGNS; d++)
    {
      /* the benchmark's configurations in their charts' colours */
      const FlRgba *color = &pal->series[d % G_N_ELEMENTS (pal->series)];
      fl_text_draw (p, FL_FONT_BOLD, size, &pal->text, pad, y + (slot - line) / 2, label_w,
                    FL_ALIGN_LEFT, d < nconfigs ? configs[d].name : "");
      double group_top = y;
      y += slot;
      for (guint k = 0; k < nkeys; k++, y += slot)
        {
          Span s = { 0 };
          fl_text_draw (p, FL_FONT_MONO, small, &pal->text_dim, pad * 1.5, y + (slot - line) / 2,
                        label_w, FL_ALIGN_LEFT, keys[k]);
          if (!span_of (rows, n, keys[k], d, &s))
            continue;
          double bh = slot * 0.55, by = y + (slot - bh) / 2;
          double lx = X_OF (s.lo), hx = X_OF (s.hi);
          fl_rounded_rect (cr, lx, by, MAX (hx - lx, 2.0), bh, MIN (3.0, bh / 3));
          fl_set_rgba_alpha (cr, color, 0.75);
          cairo_fill (cr);
          cairo_arc (cr, X_OF (s.at), by + bh / 2, bh * 0.32, 0, 2 * G_PI);
          fl_set_rgba (cr, &pal->text);
          cairo_fill (cr);
          /* each end says which way the constant went */
          g_snprintf (buf, sizeof buf, "%.2f (%u %%)", s.lo, s.lo_percent);
          /* clear of the dot, which sits at an end when the bar is short */
          double gap = bh * 0.32 + small * 0.3;
          fl_text_draw (p, FL_FONT_SANS, small, &pal->text, lx - gap,
                        y + (slot - line) / 2, lx - x0 + end_w, FL_ALIGN_RIGHT, buf);
          g_snprintf (buf, sizeof buf, "%.2f (%u %%)", s.hi, s.hi_percent);
          fl_text_draw (p, FL_FONT_SANS, small, &pal->text, hx + gap,
                        y + (slot - line) / 2, x1 - hx + end_w, FL_ALIGN_LEFT, buf);
        }
      if (d < nconfigs && configs[d].published > 0)
        {
          double px = floor (X_OF (configs[d].published)) + 0.5;
          double dash[] = { 5, 4 };
          cairo_set_dash (cr, dash, 2, 0);
          cairo_set_line_width (cr, 2);
          fl_set_rgba (cr, color);
          cairo_move_to (cr, px, group_top + slot * 0.6);
          cairo_line_to (cr, px, y - slot * 0.1);
          cairo_stroke (cr);
          cairo_set_dash (cr, NULL, 0, 0);
        }
    }
  #undef X_OF
}

/**
 * fl_paint_sensitivity:
 * @cr: where to draw: the chart fills (0, 0, width, height)
 * @rows: (array length=n_rows): fl_sensitivity_measure()'s rows
 * @n_rows: how many
 * @cpus: the CPU count they were measured at
 * @viewport: size and font scale
 * @palette: colours
 *
 * The tornado chart of the rows. Leaves @cr as it found it.
 */
void
fl_paint_sensitivity (cairo_t *cr, const FlSensitivityRow *rows, guint n_rows, guint cpus,
                      const FlViewport *viewport, const FlPalette *palette)
{
  g_return_if_fail (cr != NULL && viewport != NULL && palette != NULL);
  g_return_if_fail (rows != NULL || n_rows == 0);
  if (viewport->width < 1 || viewport->height < 1)
    return;
  FlPaintCtx p;
  fl_paint_ctx_init_bare (&p, cr, viewport, palette);
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, p.w, p.h);
  cairo_clip (cr);
  paint (&p, rows, n_rows, cpus);
  cairo_restore (cr);
}

typedef struct {
  const FlSensitivityRow *rows;
  guint                   n, cpus;
  const FlViewport       *viewport;
  const FlPalette        *palette;
} ExportData;

static void
draw_chart (cairo_t *cr, gpointer data)
{
  ExportData *d = data;
  fl_paint_sensitivity (cr, d->rows, d->n, d->cpus, d->viewport, d->palette);
}

/**
 * fl_export_sensitivity_chart:
 * @rows: (array length=n_rows): the measured rows
 * @n_rows: how many
 * @cpus: the CPU count they were measured at
 * @viewport: size in pixels (PNG) or points (SVG, PDF) and font scale
 * @palette: colours
 * @format: "png", "svg" or "pdf"
 * @path: the file to write (replaced atomically)
 * @error: return location for a #GError
 *
 * Returns: %TRUE when the file was written
 */
gboolean
fl_export_sensitivity_chart (const FlSensitivityRow *rows, guint n_rows, guint cpus,
                             const FlViewport *viewport, const FlPalette *palette,
                             const char *format, const char *path, GError **error)
{
  g_return_val_if_fail (rows != NULL || n_rows == 0, FALSE);
  ExportData d = { rows, n_rows, cpus, viewport, palette };
  return fl_export_drawing (draw_chart, &d, viewport->width, viewport->height,
                            _("Faultline: sensitivity of the 2010 table"), format, path, error);
}
