/* fl-paint-text.c — text for the painters through Pango: one place that picks fonts, sizes
 * them in user units and ellipsizes what does not fit, so no view ever cuts a word without
 * an ellipsis. */
#include "fl-paint-private.h"

#include <math.h>
#include <string.h>

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
/* Laid-out lines, kept from frame to frame: shaping the same strings again (titles, labels,
 * numbers) was most of the cost of text. A layout belongs to the context it was made in, so
 * there is one context per Cairo transformation the painters draw under (each sub-view of
 * the whole window has its own), each with the layouts made in it. A context is brought up
 * to date with the Cairo context only when it is made: pango_cairo_update_context() marks it
 * changed every time, and a changed context lays its layouts out anew. */
#define LAYOUT_SLOTS     16
#define LAYOUTS_PER_SLOT 1024

typedef struct {
  PangoContext *context;
  cairo_matrix_t matrix;      /* the Cairo transformation it was brought up to date with */
  cairo_font_options_t *target_options;   /* and its target's font options */
  GHashTable   *layouts;      /* the set of Laid, each its own key */
  guint64       used;
} LayoutSlot;

/* A layout and what it was made from, which is also how it is found: looking one up costs a
 * hash of the text and no allocation (the painters ask for thousands a frame at 64 CPUs). */
typedef struct {
  guint          hash;
  FlFont         font;
  int            max_lines;
  double         size, max_width;
  char          *text;
  PangoLayout   *layout;
  PangoRectangle logical;
} Laid;

typedef struct {
  PangoContext         *context;
  PangoFontDescription *desc[G_N_ELEMENTS (families)];
  LayoutSlot            slots[LAYOUT_SLOTS];
  guint64               clock;
  /* the slot found last and what found it: a painter draws on one target under one
   * transformation for many texts in a row, so most look-ups need not ask Cairo for the
   * target's font options (an allocation each) */
  LayoutSlot           *last;
  cairo_surface_t      *last_target;
  cairo_surface_type_t  last_type;
} TextCache;

static void
laid_free (gpointer data)
{
  Laid *l = data;
  g_clear_object (&l->layout);
  g_free (l->text);
  g_free (l);
}

static guint
laid_hash (gconstpointer data)
{
  return ((const Laid *) data)->hash;
}

static gboolean
laid_equal (gconstpointer a, gconstpointer b)
{
  const Laid *x = a, *y = b;
  return x->hash == y->hash && x->font == y->font && x->max_lines == y->max_lines
         && x->size == y->size && x->max_width == y->max_width && strcmp (x->text, y->text) == 0;
}

/* The hash of what a layout is made from: the text's, mixed with the rest. */
static guint
laid_key_hash (const Laid *l)
{
  guint64 bits[2];
  memcpy (&bits[0], &l->size, sizeof bits[0]);
  memcpy (&bits[1], &l->max_width, sizeof bits[1]);
  guint64 h = g_str_hash (l->text) ^ ((guint64) l->font << 56) ^ ((guint64) l->max_lines << 48);
  h = (h ^ bits[0]) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
  h = (h ^ bits[1]) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
  return (guint) (h ^ (h >> 32));
}

static void
text_cache_free (gpointer data)
{
  TextCache *tc = data;
  for (guint i = 0; i < LAYOUT_SLOTS; i++)
    {
      g_clear_pointer (&tc->slots[i].layouts, g_hash_table_unref);
      g_clear_pointer (&tc->slots[i].target_options, cairo_font_options_destroy);
      g_clear_object (&tc->slots[i].context);
    }
  g_clear_object (&tc->context);
  for (guint i = 0; i < G_N_ELEMENTS (tc->desc); i++)
    g_clear_pointer (&tc->desc[i], pango_font_description_free);
  g_free (tc);
}

static GPrivate text_cache_key = G_PRIVATE_INIT (text_cache_free);

static PangoContext *
new_context (void)
{
  PangoContext *context = pango_font_map_create_context (pango_cairo_font_map_get_default ());
  /* Unhinted metrics: the same text takes the same room on an image, in SVG and in
   * PDF, so an export is laid out exactly as the window is. */
  cairo_font_options_t *options = cairo_font_options_create ();
  cairo_font_options_set_hint_metrics (options, CAIRO_HINT_METRICS_OFF);
  cairo_font_options_set_hint_style (options, CAIRO_HINT_STYLE_NONE);
  cairo_font_options_set_antialias (options, CAIRO_ANTIALIAS_GRAY);
  pango_cairo_context_set_font_options (context, options);
  cairo_font_options_destroy (options);
  return context;
}

static TextCache *
text_cache (void)
{
  TextCache *tc = g_private_get (&text_cache_key);
  if (tc == NULL)
    {
      tc = g_new0 (TextCache, 1);
      tc->context = new_context ();
      for (guint i = 0; i < G_N_ELEMENTS (families); i++)
        tc->desc[i] = pango_font_description_from_string (families[i]);
      g_private_set (&text_cache_key, tc);
    }
  return tc;
}

/* A layout made in `context`, as fl_text_layout() describes. */
static PangoLayout *
make_layout (TextCache *tc, PangoContext *context, FlFont font, double size, const char *text,
             double max_width, int max_lines)
{
  PangoLayout *layout = pango_layout_new (context);

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
  return make_layout (tc, tc->context, font, size, text, max_width, max_lines);
}

/* The context for p's Cairo context as it stands, brought up to date with it. */
static LayoutSlot *
layout_slot (TextCache *tc, cairo_t *cr)
{
  cairo_matrix_t m;
  cairo_get_matrix (cr, &m);
  cairo_surface_t *target = cairo_get_target (cr);
  /* the same target as last time (its kind too, should another surface have taken its
   * address) under the same transformation: the same slot */
  if (tc->last != NULL && tc->last_target == target
      && tc->last_type == cairo_surface_get_type (target)
      && memcmp (&tc->last->matrix, &m, sizeof m) == 0)
    {
      tc->last->used = ++tc->clock;
      return tc->last;
    }
  cairo_font_options_t *options = cairo_font_options_create ();
  cairo_surface_get_font_options (cairo_get_target (cr), options);
  LayoutSlot *slot = NULL, *oldest = &tc->slots[0];
  for (guint i = 0; i < LAYOUT_SLOTS; i++)
    {
      LayoutSlot *s = &tc->slots[i];
      if (s->context && memcmp (&s->matrix, &m, sizeof m) == 0
          && cairo_font_options_equal (s->target_options, options))
        {
          slot = s;
          break;
        }
      if (s->context == NULL || (oldest->context && s->used < oldest->used))
        oldest = s;
    }
  if (slot == NULL)
    {
      slot = oldest;
      if (slot->context == NULL)
        {
          slot->context = new_context ();
          slot->layouts = g_hash_table_new_full (laid_hash, laid_equal, laid_free, NULL);
        }
      else
        g_hash_table_remove_all (slot->layouts);
      g_clear_pointer (&slot->target_options, cairo_font_options_destroy);
      slot->target_options = g_steal_pointer (&options);
      slot->matrix = m;
      pango_cairo_update_context (cr, slot->context);
    }
  g_clear_pointer (&options, cairo_font_options_destroy);
  slot->used = ++tc->clock;
  tc->last = slot;
  tc->last_target = target;
  tc->last_type = cairo_surface_get_type (target);
  return slot;
}

/* A one-line (max_lines 0) or wrapped layout for p, made once and kept; not to be changed. */
static const Laid *
cached_layout (FlPaintCtx *p, FlFont font, double size, const char *text, double max_width,
               int max_lines)
{
  TextCache *tc = text_cache ();
  LayoutSlot *slot = layout_slot (tc, p->cr);
  if (max_width <= 0)
    max_width = 0, max_lines = 0;
  Laid key = { .font = font, .max_lines = max_lines, .size = size, .max_width = max_width,
               .text = (char *) (text ? text : "") };
  key.hash = laid_key_hash (&key);
  Laid *l = g_hash_table_lookup (slot->layouts, &key);
  if (l == NULL)
    {
      if (g_hash_table_size (slot->layouts) >= LAYOUTS_PER_SLOT)
        g_hash_table_remove_all (slot->layouts);
      l = g_new (Laid, 1);
      *l = key;
      l->text = g_strdup (key.text);
      l->layout = make_layout (tc, slot->context, font, size, text, max_width, max_lines);
      pango_layout_get_pixel_extents (l->layout, NULL, &l->logical);
      g_hash_table_add (slot->layouts, l);
    }
  return l;
}

/* A text drawn shortened in the box (x, y, w, h) of the current user space: noted in the
 * view's own units, where a widget's pointer is, when the caller collects them. */
static void
note_elided (FlPaintCtx *p, double x, double y, double w, double h, const char *text)
{
  if (p->elided == NULL || p->cr == NULL)
    return;
  double x0 = x, y0 = y, x1 = x + w, y1 = y + h;
  cairo_matrix_t to_view = p->view_matrix;
  cairo_user_to_device (p->cr, &x0, &y0);
  cairo_user_to_device (p->cr, &x1, &y1);
  if (cairo_matrix_invert (&to_view) != CAIRO_STATUS_SUCCESS)
    return;
  cairo_matrix_transform_point (&to_view, &x0, &y0);
  cairo_matrix_transform_point (&to_view, &x1, &y1);
  FlElidedText e = { MIN (x0, x1), MIN (y0, y1), fabs (x1 - x0), fabs (y1 - y0),
                     g_strdup (text) };
  g_array_append_val (p->elided, e);
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
  const Laid *laid = cached_layout (p, font, size, text, max_width, 0);
  PangoLayout *layout = laid->layout;
  PangoRectangle logical = laid->logical;
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
  fl_svg_text_note (p->cr, layout, left - logical.x, y);
  if (p->note_all || pango_layout_is_ellipsized (layout))
    note_elided (p, left, y, w, logical.height, text);
  return w;
}

double
fl_text_width (FlPaintCtx *p, FlFont font, double size, const char *text)
{
  return cached_layout (p, font, size, text, 0, 0)->logical.width;
}

/* The height of one line in this face and size. */
double
fl_text_height (FlPaintCtx *p, FlFont font, double size)
{
  return cached_layout (p, font, size, "Ag", 0, 0)->logical.height;
}

/* Word-wrapped text in at most `max_lines` lines, the last ellipsized. Returns its height. */
double
fl_text_paragraph (FlPaintCtx *p, FlFont font, double size, const FlRgba *color, double x,
                   double y, double width, int max_lines, const char *text)
{
  if (text == NULL || *text == '\0' || width < size * 2 || max_lines <= 0)
    return 0;
  const Laid *laid = cached_layout (p, font, size, text, width, max_lines);
  PangoLayout *layout = laid->layout;
  PangoRectangle logical = laid->logical;
  fl_set_rgba (p->cr, color);
  cairo_move_to (p->cr, x, y);
  pango_cairo_show_layout (p->cr, layout);
  fl_svg_text_note (p->cr, layout, x, y);
  if (p->note_all || pango_layout_is_ellipsized (layout))
    note_elided (p, x, y, width, logical.height, text);
  return logical.height;
}
