/* fl-svg-text.c — the text of an SVG export as text. Cairo's SVG surface writes every glyph
 * as a path: the figure looks right but its words cannot be selected, searched or read by a
 * screen reader. While an SVG is drawn, the painters' text calls note each line they show
 * (where, how big, how wide, in SVG coordinates); the export then adds those lines as
 * transparent <text> over the glyphs, each stretched to the width of what it covers, as a
 * scanned PDF carries its words. The picture stays the painters' own, byte for byte. */
#include "fl-paint-private.h"

#include <math.h>
#include <string.h>

typedef struct {
  char    *text;
  double   x, y;       /* the baseline's start */
  double   size, width;
  gboolean mono;
} FlSvgText;

static const cairo_user_data_key_t sink_key;

static void
svg_text_clear (gpointer data)
{
  g_free (((FlSvgText *) data)->text);
}

/**
 * fl_svg_text_sink_new:
 *
 * Returns: (transfer full): where fl_svg_text_attach() collects the lines
 */
GArray *
fl_svg_text_sink_new (void)
{
  GArray *texts = g_array_new (FALSE, FALSE, sizeof (FlSvgText));
  g_array_set_clear_func (texts, svg_text_clear);
  return texts;
}

/* From now on the text drawn on `cr` is noted in `texts`. */
void
fl_svg_text_attach (cairo_t *cr, GArray *texts)
{
  cairo_set_user_data (cr, &sink_key, texts, NULL);
}

/**
 * fl_svg_text_note:
 * @cr: the context the layout was just shown on
 * @layout: the layout
 * @x: where its top left was, in @cr's user space
 * @y: the same
 *
 * Notes each line of @layout when @cr draws an SVG (fl_svg_text_attach()); nothing else.
 */
void
fl_svg_text_note (cairo_t *cr, PangoLayout *layout, double x, double y)
{
  GArray *texts = cairo_get_user_data (cr, &sink_key);
  if (texts == NULL)
    return;
  const char *all = pango_layout_get_text (layout);
  const PangoFontDescription *desc = pango_layout_get_font_description (layout);
  PangoLayoutIter *iter = pango_layout_get_iter (layout);
  do
    {
      PangoLayoutLine *line = pango_layout_iter_get_line_readonly (iter);
      if (line->length <= 0)
        continue;
      /* leading blanks (a listing's indentation) are left out: the text starts where its
       * first visible character does */
      int start = line->start_index, end = line->start_index + line->length;
      while (start < end && all[start] == ' ')
        start++;
      if (start == end)
        continue;
      PangoRectangle logical;
      pango_layout_iter_get_line_extents (iter, NULL, &logical);
      int indent = 0;
      pango_layout_line_index_to_x (line, start, FALSE, &indent);
      double ux = x + (double) (logical.x + indent) / PANGO_SCALE;
      double uy = y + (double) pango_layout_iter_get_baseline (iter) / PANGO_SCALE;
      double w = (double) (logical.width - indent) / PANGO_SCALE, w_y = 0;
      double s_x = 0, s = desc ? (double) pango_font_description_get_size (desc) / PANGO_SCALE
                               : (double) logical.height / PANGO_SCALE / 1.2;
      cairo_user_to_device (cr, &ux, &uy);
      cairo_user_to_device_distance (cr, &w, &w_y);
      cairo_user_to_device_distance (cr, &s_x, &s);
      const char *family = desc ? pango_font_description_get_family (desc) : NULL;
      FlSvgText t = { g_strndup (all + start, end - start), ux, uy, hypot (s_x, s), hypot (w, w_y),
                      family && g_str_has_prefix (family, "Monospace") };
      g_array_append_val (texts, t);
    }
  while (pango_layout_iter_next_line (iter));
  pango_layout_iter_free (iter);
}

static void
append_number (GString *out, const char *name, double value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_string_append_printf (out, " %s=\"%s\"", name, g_ascii_formatd (buf, sizeof buf, "%.2f", value));
}

/**
 * fl_svg_text_layer:
 * @svg: an SVG document as cairo wrote it
 * @texts: the lines noted while it was drawn
 *
 * Returns: (transfer full): @svg with a last group of transparent <text>, one per line
 */
GByteArray *
fl_svg_text_layer (GByteArray *svg, GArray *texts)
{
  g_autoptr (GString) layer = g_string_new ("<g id=\"text\" fill-opacity=\"0\" stroke=\"none\" "
                                            "font-family=\"sans-serif\">\n");
  for (guint i = 0; i < texts->len; i++)
    {
      const FlSvgText *t = &g_array_index (texts, FlSvgText, i);
      g_autofree char *escaped = g_markup_escape_text (t->text, -1);
      g_string_append (layer, "<text");
      append_number (layer, "x", t->x);
      append_number (layer, "y", t->y);
      append_number (layer, "font-size", t->size);
      if (t->mono)
        g_string_append (layer, " font-family=\"monospace\"");
      if (t->width > 0)
        {
          append_number (layer, "textLength", t->width);
          g_string_append (layer, " lengthAdjust=\"spacingAndGlyphs\"");
        }
      g_string_append_printf (layer, " xml:space=\"preserve\">%s</text>\n", escaped);
    }
  g_string_append (layer, "</g>\n");

  /* the layer goes last, over everything, just before the document's end */
  const char *data = (const char *) svg->data;
  gsize at = svg->len;
  static const char end[] = "</svg>";
  for (gsize i = svg->len >= strlen (end) ? svg->len - strlen (end) + 1 : 0; i-- > 0;)
    if (memcmp (data + i, end, strlen (end)) == 0)
      {
        at = i;
        break;
      }
  GByteArray *out = g_byte_array_sized_new (svg->len + layer->len);
  g_byte_array_append (out, svg->data, at);
  g_byte_array_append (out, (const guint8 *) layer->str, layer->len);
  g_byte_array_append (out, svg->data + at, svg->len - at);
  return out;
}
