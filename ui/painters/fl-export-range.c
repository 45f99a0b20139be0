/* fl-export-range.c — every step of a range as slides: a numbered PNG or SVG series, or one
 * PDF with a page per step; and any drawing (charts, the compare view) to a file with the
 * reproducibility rules of fl_export_view(): fixed PDF dates, renumbered SVG ids. */
#include "fl-export-private.h"
#include "fl-png.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

/* the same fixed date as fl-export.c: the week the speculative page fault patch was posted */
#define FIXED_DATE "2010-01-04T00:00:00Z"

G_DEFINE_QUARK (fl-export-range-error-quark, fl_export_range_error)

static cairo_status_t
append_bytes (void *closure, const unsigned char *data, unsigned int length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

static gboolean
known_format (const char *format, GError **error)
{
  if (format && (g_ascii_strcasecmp (format, "png") == 0 || g_ascii_strcasecmp (format, "svg") == 0
                 || g_ascii_strcasecmp (format, "pdf") == 0))
    return TRUE;
  g_set_error (error, FL_EXPORT_ERROR, FL_EXPORT_ERROR_FORMAT,
               _("Unknown export format “%s”: expected png, svg or pdf"), format ? format : "");
  return FALSE;
}

static gboolean
check_size (double width, double height, GError **error)
{
  if (width >= 1 && height >= 1 && width <= 32767 && height <= 32767)
    return TRUE;
  g_set_error (error, FL_EXPORT_ERROR, FL_EXPORT_ERROR_SIZE,
               _("Cannot export a %g×%g image: sizes go from 1 to 32767"), width, height);
  return FALSE;
}

/* Cairo names SVG groups after a process-wide surface counter, so a second export of the
 * same drawing would differ: renumber them in order of appearance. */
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

/* Say which file could not be written, not which temporary file. */
gboolean
fl_export_write_bytes (GByteArray *bytes, const char *path, GError **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  if (g_access (dir, W_OK) != 0)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("Cannot write “%s”: %s"), path, g_strerror (saved));
      return FALSE;
    }
  return g_file_set_contents (path, (const char *) bytes->data, bytes->len, error);
}

static cairo_surface_t *
pdf_surface (GByteArray *bytes, double width, double height, const char *title)
{
  cairo_surface_t *surface = cairo_pdf_surface_create_for_stream (append_bytes, bytes, width,
                                                                  height);
  if (title)
    cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_TITLE, title);
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "Faultline");
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATE_DATE, FIXED_DATE);
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_MOD_DATE, FIXED_DATE);
  return surface;
}

static gboolean
finish_surface (cairo_surface_t *surface, const char *format, GError **error)
{
  cairo_surface_finish (surface);
  cairo_status_t status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    return TRUE;
  g_set_error (error, FL_EXPORT_ERROR, FL_EXPORT_ERROR_CAIRO, _("Cannot draw as %s: %s"), format,
               cairo_status_to_string (status));
  return FALSE;
}

/**
 * fl_export_drawing:
 * @draw: draws into (0, 0, @width, @height) of the context it is given
 * @data: passed to @draw
 * @width: size in pixels (PNG) or points (SVG, PDF)
 * @height: the height
 * @title: (nullable): the PDF's title
 * @format: "png", "svg" or "pdf"
 * @path: the file to write (replaced atomically)
 * @error: return location for a #GError
 *
 * Writes any painter's drawing as fl_export_view() writes a view: the same bytes for the
 * same drawing.
 *
 * Returns: %TRUE when the file was written
 */
gboolean
fl_export_drawing (FlExportDrawFn draw, gpointer data, double width, double height,
                   const char *title, const char *format, const char *path, GError **error)
{
  g_return_val_if_fail (draw != NULL && path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  if (!known_format (format, error) || !check_size (width, height, error))
    return FALSE;

  g_autoptr (GByteArray) bytes = g_byte_array_new ();
  g_autoptr (GArray) texts = fl_svg_text_sink_new ();
  cairo_surface_t *surface;
  gboolean png = g_ascii_strcasecmp (format, "png") == 0;
  gboolean svg = g_ascii_strcasecmp (format, "svg") == 0;
  if (png)
    surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) ceil (width),
                                          (int) ceil (height));
  else if (svg)
    {
      surface = cairo_svg_surface_create_for_stream (append_bytes, bytes, width, height);
      cairo_svg_surface_set_document_unit (surface, CAIRO_SVG_UNIT_PX);
    }
  else
    surface = pdf_surface (bytes, width, height, title);
  if (cairo_surface_status (surface) == CAIRO_STATUS_SUCCESS)
    {
      cairo_t *cr = cairo_create (surface);
      if (svg)
        fl_svg_text_attach (cr, texts);
      draw (cr, data);
      cairo_destroy (cr);
    }
  if (png && cairo_surface_status (surface) == CAIRO_STATUS_SUCCESS
      && !fl_png_encode (surface, bytes, error))
    {
      cairo_surface_destroy (surface);
      return FALSE;
    }
  if (!finish_surface (surface, format, error))
    return FALSE;
  if (svg)
    {
      GByteArray *fixed = renumber_svg_surfaces (bytes);
      g_byte_array_unref (bytes);
      bytes = fl_svg_text_layer (fixed, texts);
      g_byte_array_unref (fixed);
    }
  return fl_export_write_bytes (bytes, path, error);
}

/**
 * fl_export_range_file_name:
 * @prefix: where the series goes, e.g. "slides/race"; an extension equal to @format is
 *   moved after the number ("race.png" gives "race-000012.png")
 * @step: the step of this file
 * @format: "png" or "svg"
 *
 * Returns: (transfer full): the file of @step in a numbered series: zero-padded to six
 *   digits so the files sort in step order
 */
char *
fl_export_range_file_name (const char *prefix, guint64 step, const char *format)
{
  g_return_val_if_fail (prefix != NULL && format != NULL, NULL);
  g_autofree char *ext = g_strconcat (".", format, NULL);
  g_autofree char *stem = g_strdup (prefix);
  gsize len = strlen (stem), elen = strlen (ext);
  if (len > elen && g_ascii_strcasecmp (stem + len - elen, ext) == 0)
    stem[len - elen] = '\0';
  return g_strdup_printf ("%s-%06" G_GUINT64_FORMAT "%s", stem, step, ext);
}

static gboolean
range_pdf (FlView view, FlCursor *cur, guint64 first, guint64 last, const FlViewport *viewport,
           const FlPalette *palette, const char *path, FlExportProgress progress,
           gpointer user_data, GError **error)
{
  g_autoptr (GByteArray) bytes = g_byte_array_new ();
  /* Translators: the title of an exported PDF: the view's name as the command line spells it
   * (lanes, vma, ...), the first and the last step */
  g_autofree char *title = g_strdup_printf (_("Faultline: %s, steps %" PRIu64 "–%" PRIu64),
                                            fl_view_name (view), first, last);
  cairo_surface_t *surface = pdf_surface (bytes, viewport->width, viewport->height, title);
  cairo_t *cr = cairo_create (surface);
  gboolean cancelled = FALSE;
  for (guint64 step = first; step <= last; step++)
    {
      fl_cursor_seek (cur, step);
      fl_paint_view (view, cr, cur, viewport, palette);
      cairo_show_page (cr);
      if (progress && !progress (step - first + 1, last - first + 1, user_data))
        {
          cancelled = TRUE;
          break;
        }
    }
  cairo_destroy (cr);
  if (!finish_surface (surface, "pdf", error))
    return FALSE;
  if (cancelled)
    {
      g_set_error (error, FL_EXPORT_RANGE_ERROR, FL_EXPORT_RANGE_ERROR_CANCELLED,
                   _("The export of “%s” was cancelled"), path);
      return FALSE;
    }
  return fl_export_write_bytes (bytes, path, error);
}

/* A numbered SVG series: a file per step, one after another (PNGs: fl-export-png-series.c). */
static gboolean
range_svg (FlView view, FlCursor *cur, guint64 first, guint64 last, const FlViewport *viewport,
           const FlPalette *palette, const char *prefix, FlExportProgress progress,
           gpointer user_data, GError **error)
{
  for (guint64 step = first; step <= last; step++)
    {
      g_autofree char *path = fl_export_range_file_name (prefix, step, "svg");
      fl_cursor_seek (cur, step);
      if (!fl_export_view (view, cur, viewport, palette, "svg", path, error))
        return FALSE;
      if (progress && !progress (step - first + 1, last - first + 1, user_data))
        {
          g_set_error (error, FL_EXPORT_RANGE_ERROR, FL_EXPORT_RANGE_ERROR_CANCELLED,
                       _("The export was cancelled after “%s”"), path);
          return FALSE;
        }
    }
  return TRUE;
}

/**
 * fl_export_range:
 * @view: which view
 * @run: the run; a cursor of the export's own walks it
 * @first: the first step (the state after that many steps)
 * @last: the last step, at most the run's total steps
 * @viewport: size in pixels (PNG) or points (SVG, PDF) and the rest of the view's parameters
 * @palette: colours
 * @format: "pdf" for one file with a page per step; "png" or "svg" for one file per step
 * @path_or_prefix: the PDF file, or the prefix of the series (see
 *   fl_export_range_file_name())
 * @progress: (nullable): called after each page
 * @user_data: for @progress
 * @error: return location for a #GError
 *
 * Every step from @first to @last, for slides. Refuses more than
 * %FL_EXPORT_RANGE_MAX_PAGES pages.
 *
 * Returns: %TRUE when every file was written
 */
gboolean
fl_export_range (FlView view, const FlRun *run, guint64 first, guint64 last,
                 const FlViewport *viewport, const FlPalette *palette, const char *format,
                 const char *path_or_prefix, FlExportProgress progress, gpointer user_data,
                 GError **error)
{
  g_return_val_if_fail ((guint) view < FL_VIEW_N, FALSE);
  g_return_val_if_fail (run != NULL && viewport != NULL && palette != NULL, FALSE);
  g_return_val_if_fail (path_or_prefix != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  if (!known_format (format, error) || !check_size (viewport->width, viewport->height, error))
    return FALSE;
  guint64 total = fl_run_get_total_steps (run);
  if (first > last)
    {
      g_set_error (error, FL_EXPORT_RANGE_ERROR, FL_EXPORT_RANGE_ERROR_RANGE,
                   _("Cannot export steps %" PRIu64 " to %" PRIu64
                     ": the first step is after the last"), first, last);
      return FALSE;
    }
  if (last > total)
    {
      g_set_error (error, FL_EXPORT_RANGE_ERROR, FL_EXPORT_RANGE_ERROR_RANGE,
                   _("Cannot export step %" PRIu64 ": the run ends at step %" PRIu64), last,
                   total);
      return FALSE;
    }
  if (last - first >= FL_EXPORT_RANGE_MAX_PAGES)
    {
      g_set_error (error, FL_EXPORT_RANGE_ERROR, FL_EXPORT_RANGE_ERROR_TOO_MANY,
                   _("Cannot export %" PRIu64 " steps at once: at most %d pages"),
                   last - first + 1, FL_EXPORT_RANGE_MAX_PAGES);
      return FALSE;
    }

  g_autoptr (FlCursor) cur = fl_cursor_new (run);
  gboolean ok;
  if (g_ascii_strcasecmp (format, "pdf") == 0)
    ok = range_pdf (view, cur, first, last, viewport, palette, path_or_prefix, progress,
                    user_data, error);
  else if (g_ascii_strcasecmp (format, "png") == 0)
    ok = fl_export_png_series (view, cur, first, last, viewport, palette, path_or_prefix,
                               progress, user_data, error);
  else
    ok = range_svg (view, cur, first, last, viewport, palette, path_or_prefix, progress,
                    user_data, error);
  return ok;
}
