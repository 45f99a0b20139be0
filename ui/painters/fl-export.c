/* fl-export.c — a view to PNG, SVG or PDF through the same painter that draws the widget.
 * Vector exports are reproducible byte for byte: the same state gives the same file, so
 * figures can live in version control next to the slides that use them. */
#include "fl-paint-private.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

/* Any fixed date: PDFs otherwise carry the time they were written. This one is the week
 * the speculative page fault patch was posted. */
#define FIXED_DATE "2010-01-04T00:00:00Z"

G_DEFINE_QUARK (fl-export-error-quark, fl_export_error)

static cairo_status_t
append_bytes (void *closure, const unsigned char *data, unsigned int length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

static void
paint_into (cairo_surface_t *surface, FlView view, FlSim *sim, const FlViewport *viewport,
            const FlPalette *palette)
{
  cairo_t *cr = cairo_create (surface);
  fl_paint_view (view, cr, sim, viewport, palette);
  cairo_destroy (cr);
}

/**
 * fl_paint_view_image:
 * @view: which view
 * @sim: the simulation, drawn at its current step
 * @viewport: size (rounded up to whole pixels) and the rest of the view's parameters
 * @palette: colours
 *
 * Draws a view on a new ARGB32 image surface, exactly as a PNG export of it would be.
 *
 * Returns: (transfer full): the image surface; check cairo_surface_status()
 */
cairo_surface_t *
fl_paint_view_image (FlView view, FlSim *sim, const FlViewport *viewport, const FlPalette *palette)
{
  g_return_val_if_fail ((guint) view < FL_VIEW_N && sim && viewport && palette, NULL);
  int w = (int) ceil (MAX (viewport->width, 1)), h = (int) ceil (MAX (viewport->height, 1));
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  if (cairo_surface_status (surface) == CAIRO_STATUS_SUCCESS)
    paint_into (surface, view, sim, viewport, palette);
  return surface;
}

/* Cairo names SVG groups after a process-wide surface counter ("surface42"), so a second
 * export of the same view would differ. Renumber them in order of appearance. */
static GByteArray *
renumber_svg_surfaces (GByteArray *svg)
{
  g_autoptr (GHashTable) ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GByteArray *out = g_byte_array_sized_new (svg->len);
  const char *p = (const char *) svg->data, *end = p + svg->len;
  static const char key[] = "surface";
  while (p < end)
    {
      const char *hit = g_strstr_len (p, end - p, key);
      if (hit == NULL)
        {
          g_byte_array_append (out, (const guint8 *) p, end - p);
          break;
        }
      const char *digits = hit + strlen (key), *q = digits;
      while (q < end && g_ascii_isdigit (*q))
        q++;
      g_byte_array_append (out, (const guint8 *) p, digits - p);
      if (q > digits)
        {
          char *old = g_strndup (digits, q - digits);
          guint id = GPOINTER_TO_UINT (g_hash_table_lookup (ids, old));
          if (id == 0)
            {
              id = g_hash_table_size (ids) + 1;
              g_hash_table_insert (ids, old, GUINT_TO_POINTER (id));
            }
          else
            g_free (old);
          char num[16];
          g_snprintf (num, sizeof num, "%u", id);
          g_byte_array_append (out, (const guint8 *) num, strlen (num));
        }
      p = q;
    }
  return out;
}

/**
 * fl_export_view:
 * @view: which view
 * @sim: the simulation, drawn at its current step
 * @viewport: size in pixels (PNG) or points (SVG, PDF), font scale, selected CPU
 * @palette: colours
 * @format: "png", "svg" or "pdf"
 * @path: the file to write (replaced atomically)
 * @error: return location for a #GError
 *
 * Returns: %TRUE when the file was written
 */
gboolean
fl_export_view (FlView view, FlSim *sim, const FlViewport *viewport, const FlPalette *palette,
                const char *format, const char *path, GError **error)
{
  g_return_val_if_fail ((guint) view < FL_VIEW_N, FALSE);
  g_return_val_if_fail (sim != NULL && viewport != NULL && palette != NULL, FALSE);
  g_return_val_if_fail (format != NULL && path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (viewport->width < 1 || viewport->height < 1 || viewport->width > 32767
      || viewport->height > 32767)
    {
      g_set_error (error, FL_EXPORT_ERROR, FL_EXPORT_ERROR_SIZE,
                   "Cannot export a %g×%g image: sizes go from 1 to 32767", viewport->width,
                   viewport->height);
      return FALSE;
    }

  g_autoptr (GByteArray) bytes = g_byte_array_new ();
  cairo_surface_t *surface = NULL;
  double w = viewport->width, h = viewport->height;
  if (g_ascii_strcasecmp (format, "png") == 0)
    {
      surface = fl_paint_view_image (view, sim, viewport, palette);
      if (cairo_surface_status (surface) == CAIRO_STATUS_SUCCESS)
        cairo_surface_write_to_png_stream (surface, append_bytes, bytes);
    }
  else if (g_ascii_strcasecmp (format, "svg") == 0)
    {
      surface = cairo_svg_surface_create_for_stream (append_bytes, bytes, w, h);
      cairo_svg_surface_set_document_unit (surface, CAIRO_SVG_UNIT_PX);
      paint_into (surface, view, sim, viewport, palette);
    }
  else if (g_ascii_strcasecmp (format, "pdf") == 0)
    {
      surface = cairo_pdf_surface_create_for_stream (append_bytes, bytes, w, h);
      g_autofree char *title = g_strdup_printf ("Faultline: %s at step %" G_GUINT64_FORMAT,
                                                fl_view_name (view), fl_sim_get_step (sim));
      cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_TITLE, title);
      cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "Faultline");
      cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATE_DATE, FIXED_DATE);
      cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_MOD_DATE, FIXED_DATE);
      paint_into (surface, view, sim, viewport, palette);
    }
  else
    {
      g_set_error (error, FL_EXPORT_ERROR, FL_EXPORT_ERROR_FORMAT,
                   "Unknown export format “%s”: expected png, svg or pdf", format);
      return FALSE;
    }

  /* finishing flushes the vector formats into `bytes` */
  cairo_surface_finish (surface);
  cairo_status_t status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, FL_EXPORT_ERROR, FL_EXPORT_ERROR_CAIRO, "Cannot draw the %s view as %s: %s",
                   fl_view_name (view), format, cairo_status_to_string (status));
      return FALSE;
    }
  if (g_ascii_strcasecmp (format, "svg") == 0)
    {
      GByteArray *fixed = renumber_svg_surfaces (bytes);
      g_byte_array_unref (bytes);
      bytes = fixed;
    }
  /* say which file could not be written, not which temporary file */
  g_autofree char *dir = g_path_get_dirname (path);
  if (g_access (dir, W_OK) != 0)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "Cannot write “%s”: %s",
                   path, g_strerror (saved));
      return FALSE;
    }
  return g_file_set_contents (path, (const char *) bytes->data, bytes->len, error);
}
