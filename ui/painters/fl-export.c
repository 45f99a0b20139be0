/* fl-export.c — a view to PNG, SVG or PDF through the same painter that draws the widget.
 * Vector exports are reproducible byte for byte: the same state gives the same file, so
 * figures can live in version control next to the slides that use them. */
#include "fl-paint-private.h"
#include "fl-export-range.h"

#include <math.h>

G_DEFINE_QUARK (fl-export-error-quark, fl_export_error)

static void
paint_into (cairo_surface_t *surface, FlView view, const FlCursor *cur, const FlViewport *viewport,
            const FlPalette *palette)
{
  cairo_t *cr = cairo_create (surface);
  fl_paint_view (view, cr, cur, viewport, palette);
  cairo_destroy (cr);
}

/**
 * fl_paint_view_image:
 * @view: which view
 * @cur: a cursor, drawn at its step
 * @viewport: size (rounded up to whole pixels) and the rest of the view's parameters
 * @palette: colours
 *
 * Draws a view on a new ARGB32 image surface, exactly as a PNG export of it would be.
 *
 * Returns: (transfer full): the image surface; check cairo_surface_status()
 */
cairo_surface_t *
fl_paint_view_image (FlView view, const FlCursor *cur, const FlViewport *viewport, const FlPalette *palette)
{
  g_return_val_if_fail ((guint) view < FL_VIEW_N && cur && viewport && palette, NULL);
  int w = (int) ceil (MAX (viewport->width, 1)), h = (int) ceil (MAX (viewport->height, 1));
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  if (cairo_surface_status (surface) == CAIRO_STATUS_SUCCESS)
    paint_into (surface, view, cur, viewport, palette);
  return surface;
}

typedef struct {
  FlView            view;
  const FlCursor            *cur;
  const FlViewport *viewport;
  const FlPalette  *palette;
} ViewDrawing;

static void
draw_view (cairo_t *cr, gpointer data)
{
  const ViewDrawing *d = data;
  fl_paint_view (d->view, cr, d->cur, d->viewport, d->palette);
}

/**
 * fl_export_view:
 * @view: which view
 * @cur: a cursor, drawn at its step
 * @viewport: size in pixels (PNG) or points (SVG, PDF), font scale, selected CPU
 * @palette: colours
 * @format: "png", "svg" or "pdf"
 * @path: the file to write (replaced atomically)
 * @error: return location for a #GError
 *
 * Returns: %TRUE when the file was written
 */
gboolean
fl_export_view (FlView view, const FlCursor *cur, const FlViewport *viewport, const FlPalette *palette,
                const char *format, const char *path, GError **error)
{
  g_return_val_if_fail ((guint) view < FL_VIEW_N, FALSE);
  g_return_val_if_fail (cur != NULL && viewport != NULL && palette != NULL, FALSE);
  g_return_val_if_fail (format != NULL && path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* one writer for every drawing (fl-export-range.c): the same bytes for the same state */
  ViewDrawing d = { view, cur, viewport, palette };
  /* Translators: the title of an exported SVG or PDF: the view's name as the command line
   * spells it (lanes, vma, ...) and the step */
  g_autofree char *title = g_strdup_printf (_("Faultline: %s at step %" PRIu64),
                                            fl_view_name (view), fl_cursor_get_step (cur));
  return fl_export_drawing (draw_view, &d, viewport->width, viewport->height, title, format,
                            path, error);
}
