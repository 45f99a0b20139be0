/* fl-paint-text.c — text for the painters through Pango: one place that picks fonts, sizes
 * them in user units and ellipsizes what does not fit, so no view ever cuts a word without
 * an ellipsis. */
#include "fl-paint-private.h"

static const char *const families[] = {
  [FL_FONT_SANS] = "Sans",
  [FL_FONT_BOLD] = "Sans Bold",
  [FL_FONT_MONO] = "Monospace",
  [FL_FONT_MONO_BOLD] = "Monospace Bold",
  [FL_FONT_ITALIC] = "Sans Italic",
};

/**
 * fl_text_layout:
 * @p: the drawing context
 * @font: which face
 * @size: the font size in user units
 * @text: UTF-8 text
 * @max_width: ellipsize at the end beyond this width; <= 0 for no limit
 * @max_lines: 0 for one line; N > 0 wraps at words into at most N lines, the last one
 *   ellipsized
 *
 * Returns: (transfer full): a layout for @p's Cairo context
 */
/* One Pango context per thread, reused for every string: creating a context per string
 * made text the painters' largest cost. Its font options are set once; each layout brings
 * it up to date with the Cairo context it draws on (transformation, target's options), as
 * pango_cairo_create_layout() would. The font descriptions are parsed once too. */
typedef struct {
  PangoContext         *context;
  PangoFontDescription *desc[G_N_ELEMENTS (families)];
} TextCache;

static void
text_cache_free (gpointer data)
{
  TextCache *tc = data;
  g_clear_object (&tc->context);
  for (guint i = 0; i < G_N_ELEMENTS (tc->desc); i++)
    g_clear_pointer (&tc->desc[i], pango_font_description_free);
  g_free (tc);
}

static GPrivate text_cache_key = G_PRIVATE_INIT (text_cache_free);

static TextCache *
text_cache (void)
{
  TextCache *tc = g_private_get (&text_cache_key);
  if (tc == NULL)
    {
      tc = g_new0 (TextCache, 1);
      tc->context = pango_font_map_create_context (pango_cairo_font_map_get_default ());
      /* Unhinted metrics: the same text takes the same room on an image, in SVG and in
       * PDF, so an export is laid out exactly as the window is. */
      cairo_font_options_t *options = cairo_font_options_create ();
      cairo_font_options_set_hint_metrics (options, CAIRO_HINT_METRICS_OFF);
      cairo_font_options_set_hint_style (options, CAIRO_HINT_STYLE_NONE);
      cairo_font_options_set_antialias (options, CAIRO_ANTIALIAS_GRAY);
      pango_cairo_context_set_font_options (tc->context, options);
      cairo_font_options_destroy (options);
      for (guint i = 0; i < G_N_ELEMENTS (families); i++)
        tc->desc[i] = pango_font_description_from_string (families[i]);
      g_private_set (&text_cache_key, tc);
    }
  return tc;
}

/**
 * fl_text_layout:
 * @p: the drawing context
 * @font: which face
 * @size: the font size in user units
 * @text: UTF-8 text
 * @max_width: ellipsize at the end beyond this width; <= 0 for no limit
 * @max_lines: 0 for one line; N > 0 wraps at words into at most N lines, the last one
 *   ellipsized
 *
 * Returns: (transfer full): a layout for @p's Cairo context
 */
PangoLayout *
fl_text_layout (FlPaintCtx *p, FlFont font, double size, const char *text, double max_width,
                int max_lines)
{
  TextCache *tc = text_cache ();
  pango_cairo_update_context (p->cr, tc->context);
  PangoLayout *layout = pango_layout_new (tc->context);

  PangoFontDescription *desc = tc->desc[font];
  pango_font_description_set_absolute_size (desc, MAX (size, 1.0) * PANGO_SCALE);
  pango_layout_set_font_description (layout, desc);

  if (max_width > 0)
    {
      pango_layout_set_width (layout, (int) (max_width * PANGO_SCALE));
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
      if (max_lines > 0)
        {
          pango_layout_set_wrap (layout, PANGO_WRAP_WORD);
          pango_layout_set_height (layout, -max_lines);
        }
    }
  pango_layout_set_text (layout, text ? text : "", -1);
  return layout;
}

/* Draws one line of text with its top at `y`. Returns the width it took. */
double
fl_text_draw (FlPaintCtx *p, FlFont font, double size, const FlRgba *color, double x, double y,
              double max_width, FlAlign align, const char *text)
{
  if (text == NULL || *text == '\0')
    return 0;
  /* Nothing runs off the view: without a limit, the view's edge is the limit. */
  double edge = align == FL_ALIGN_LEFT ? p->w - x
                : align == FL_ALIGN_RIGHT ? x
                : 2 * MIN (x, p->w - x);
  if (max_width <= 0 || max_width > edge)
    max_width = edge;
  if (max_width < size * 0.8)
    return 0;    /* no room for even an ellipsis */
  g_autoptr (PangoLayout) layout = fl_text_layout (p, font, size, text, max_width, 0);
  PangoRectangle logical;
  pango_layout_get_pixel_extents (layout, NULL, &logical);
  double w = logical.width;
  if (max_width > 0 && w > max_width)
    w = max_width;
  double left = x;
  if (align == FL_ALIGN_CENTER)
    left = x - w / 2;
  else if (align == FL_ALIGN_RIGHT)
    left = x - w;
  fl_set_rgba (p->cr, color);
  cairo_move_to (p->cr, left - logical.x, y);
  pango_cairo_show_layout (p->cr, layout);
  return w;
}

double
fl_text_width (FlPaintCtx *p, FlFont font, double size, const char *text)
{
  g_autoptr (PangoLayout) layout = fl_text_layout (p, font, size, text, 0, 0);
  PangoRectangle logical;
  pango_layout_get_pixel_extents (layout, NULL, &logical);
  return logical.width;
}

/* The height of one line in this face and size. */
double
fl_text_height (FlPaintCtx *p, FlFont font, double size)
{
  g_autoptr (PangoLayout) layout = fl_text_layout (p, font, size, "Ag", 0, 0);
  PangoRectangle logical;
  pango_layout_get_pixel_extents (layout, NULL, &logical);
  return logical.height;
}

/* Word-wrapped text in at most `max_lines` lines, the last ellipsized. Returns its height. */
double
fl_text_paragraph (FlPaintCtx *p, FlFont font, double size, const FlRgba *color, double x,
                   double y, double width, int max_lines, const char *text)
{
  if (text == NULL || *text == '\0' || width < size * 2 || max_lines <= 0)
    return 0;
  g_autoptr (PangoLayout) layout = fl_text_layout (p, font, size, text, width, max_lines);
  PangoRectangle logical;
  pango_layout_get_pixel_extents (layout, NULL, &logical);
  fl_set_rgba (p->cr, color);
  cairo_move_to (p->cr, x, y);
  pango_cairo_show_layout (p->cr, layout);
  return logical.height;
}
