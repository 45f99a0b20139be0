/* fl-paint-natural.c — how tall a view drawn alone needs to be. A view given the 720 pixels
 * of an export's default lays its content out from the top and its legend at the bottom, and
 * leaves the rest empty: 50 to 80% of the image for the VMA tree, the page tables, the
 * cache lines, RCU or the counters. The content's own height is found by drawing the view
 * tall and taking out the largest empty band, which is that slack; the views themselves
 * stay as they are, for the window, where they fill the panel they are given. */
#include "fl-paint-private.h"

#include <math.h>

#define TALL 2400   /* taller than any view's content at an export's width */

static guint32
rgb24 (const FlRgba *c)
{
  return ((guint32) lround (c->r * 255) << 16) | ((guint32) lround (c->g * 255) << 8)
         | (guint32) lround (c->b * 255);
}

/* Whether a pixel is the background or a rule in the grid colour, antialiased into it. */
static gboolean
is_blank (guint32 px, guint32 background, guint32 grid)
{
  for (int shift = 0; shift <= 16; shift += 8)
    {
      int v = (px >> shift) & 0xff, a = (background >> shift) & 0xff, b = (grid >> shift) & 0xff;
      if (v < MIN (a, b) - 1 || v > MAX (a, b) + 1)
        return FALSE;
    }
  return TRUE;
}

/* Whether a row of the image holds nothing: the background all across, but for rules in
 * the grid colour (a column's separator runs the whole height). */
static gboolean
row_is_blank (const guint8 *row, int width, guint32 background, guint32 grid)
{
  const guint32 *px = (const guint32 *) row;
  for (int x = 0; x < width; x++)
    if (!is_blank (px[x], background, grid))
      return FALSE;
  return TRUE;
}

/**
 * fl_view_natural_height:
 * @view: which view
 * @cur: a cursor at the step to draw
 * @viewport: the width and font scale the view gets (its height is ignored)
 *
 * Returns: the height at which @view shows all it has at this step and no empty band:
 *   the lanes' own (fl_lanes_natural_height()); for the whole window, @viewport's height
 */
double
fl_view_natural_height (FlView view, const FlCursor *cur, const FlViewport *viewport)
{
  g_return_val_if_fail ((guint) view < FL_VIEW_N && cur != NULL && viewport != NULL, 0);
  if (view == FL_VIEW_LANES)
    return fl_lanes_natural_height (cur, viewport);
  if (view == FL_VIEW_ALL)
    return viewport->height;
  FlViewport tall = *viewport;
  tall.height = TALL;
  tall.measuring = TRUE;
  FlPalette palette;
  fl_palette_init_light (&palette);
  cairo_surface_t *s = fl_paint_view_image (view, cur, &tall, &palette);
  if (cairo_surface_status (s) != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (s);
      return viewport->height;
    }
  cairo_surface_flush (s);
  const guint8 *data = cairo_image_surface_get_data (s);
  int stride = cairo_image_surface_get_stride (s);
  int width = cairo_image_surface_get_width (s);
  guint32 background = rgb24 (&palette.background), grid = rgb24 (&palette.grid);
  /* every band of blank rows wider than the view's own padding is slack the tall layout
   * spread out (between the content and the legend at the bottom, around a centred note):
   * the natural height keeps that padding of each */
  double keep = 13.0 * MAX (viewport->font_scale, 1.0) * 1.2;
  double content = TALL;
  int run = 0;
  for (int y = 0; y <= TALL; y++)
    {
      if (y < TALL && row_is_blank (data + (gsize) y * stride, width, background, grid))
        run++;
      else
        {
          if (run > keep)
            content -= run - keep;
          run = 0;
        }
    }
  cairo_surface_destroy (s);
  /* at least what the view needs not to be scaled down (fl_paint_fit_scale(), which asks
   * for more height as the text grows) */
  return ceil (MAX (content, 200.0 * MAX (viewport->font_scale, 1.0)));
}
