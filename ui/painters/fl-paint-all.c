/* fl-paint-all.c — every view in the window's layout, in one image: a line naming the
 * scenario and its design switches, the CPU lanes across the top, then VMA tree, page tables
 * and listing over cache lines, RCU and counters. */
#include "fl-paint-private.h"

#include <math.h>

static void
sub_view (FlPaintCtx *p, FlPaintFn paint, double x, double y, double w, double h)
{
  if (w < 2 || h < 2)
    return;
  FlViewport vp = *p->vp;
  vp.width = w;
  vp.height = h;
  cairo_save (p->cr);
  cairo_translate (p->cr, x, y);
  cairo_rectangle (p->cr, 0, 0, w, h);
  cairo_clip (p->cr);
  fl_paint_fitted (paint, FALSE, p->cr, p->cur, &vp, p->pal, p->elided, p->note_all, &p->view_matrix);
  cairo_restore (p->cr);
}

void
fl_paint_all (FlPaintCtx *p)
{
  cairo_t *cr = p->cr;
  const FlPalette *pal = p->pal;
  fl_set_rgba (cr, &pal->grid);
  cairo_paint (cr);

  /* the scenario and its switches */
  const FlScenario *sc = fl_run_get_scenario (p->run);
  g_autofree char *config = fl_config_describe (p->config);
  /* the bar reads like the panels' titles, not like a view shown alone */
  p->fs = 13.0 * MAX (p->vp->font_scale, 1.0) * 1.1;
  double pad = p->fs * 0.6;
  double bar_h = fl_text_height (p, FL_FONT_BOLD, p->fs * 1.05) + pad;
  fl_set_rgba (cr, &pal->surface);
  cairo_rectangle (cr, 0, 0, p->w, bar_h);
  cairo_fill (cr);
  g_autofree char *title = g_strdup_printf ("%s — %s", sc && sc->id ? sc->id : _("scenario"),
                                            sc && sc->title ? sc->title : "");
  double tw = fl_text_draw (p, FL_FONT_BOLD, p->fs * 1.05, &pal->text, pad, pad / 2, p->w * 0.55,
                            FL_ALIGN_LEFT, title);
  fl_text_draw (p, FL_FONT_SANS, p->fs * 0.85, &pal->text_dim, p->w - pad,
                pad / 2 + p->fs * 0.12, p->w - tw - 4 * pad, FL_ALIGN_RIGHT, config);

  double gap = 1;
  double y = bar_h + gap;
  /* the lanes take up to 30 % of the height, less when a few CPUs need less */
  double lanes_h = floor ((p->h - y) * 0.3);
  {
    FlViewport vp = *p->vp;
    vp.width = p->w;
    vp.height = lanes_h;
    FlPaintCtx lanes;
    fl_paint_ctx_init (&lanes, p->cr, p->cur, &vp, p->pal);
    lanes_h = MIN (lanes_h, ceil (fl_lanes_preferred_height (&lanes)));
  }
  sub_view (p, fl_paint_lanes, 0, y, p->w, lanes_h);
  y += lanes_h + gap;
  double row_h = floor ((p->h - y - gap) / 2);
  double col_w[3];
  col_w[0] = floor ((p->w - 2 * gap) * 0.34);
  col_w[1] = floor ((p->w - 2 * gap) * 0.31);
  col_w[2] = p->w - 2 * gap - col_w[0] - col_w[1];
  static const FlPaintFn grid[2][3] = {
    { fl_paint_vma, fl_paint_pgtable, fl_paint_listing },
    { fl_paint_cache, fl_paint_rcu, fl_paint_counters },
  };
  for (guint r = 0; r < 2; r++)
    {
      double x = 0;
      double h = r == 0 ? row_h : p->h - y;
      for (guint c = 0; c < 3; c++)
        {
          sub_view (p, grid[r][c], x, y, col_w[c], h);
          x += col_w[c] + gap;
        }
      y += row_h + gap;
    }
}
