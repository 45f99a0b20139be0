/* fl-paint.c — the painters' entry point: view names, dispatch, and the chrome every view
 * shares (background, title row, legends). */
#include "fl-paint-private.h"

#include <math.h>
#include <string.h>

static const char *const view_names[FL_VIEW_N] = {
  [FL_VIEW_LANES] = "lanes",
  [FL_VIEW_VMA] = "vma",
  [FL_VIEW_PGTABLE] = "pgtable",
  [FL_VIEW_CACHE] = "cache",
  [FL_VIEW_RCU] = "rcu",
  [FL_VIEW_LISTING] = "listing",
  [FL_VIEW_COUNTERS] = "counters",
  [FL_VIEW_ALL] = "all",
};

static const FlPaintFn painters[FL_VIEW_N] = {
  [FL_VIEW_LANES] = fl_paint_lanes,
  [FL_VIEW_VMA] = fl_paint_vma,
  [FL_VIEW_PGTABLE] = fl_paint_pgtable,
  [FL_VIEW_CACHE] = fl_paint_cache,
  [FL_VIEW_RCU] = fl_paint_rcu,
  [FL_VIEW_LISTING] = fl_paint_listing,
  [FL_VIEW_COUNTERS] = fl_paint_counters,
  [FL_VIEW_ALL] = fl_paint_all,
};

/**
 * fl_view_name:
 * @view: a view
 *
 * Returns: the view's name as the CLI spells it ("lanes", "vma", ...), or %NULL
 */
const char *
fl_view_name (FlView view)
{
  return (guint) view < FL_VIEW_N ? view_names[view] : NULL;
}

/**
 * fl_view_lookup:
 * @name: a view's name
 *
 * Returns: the view called @name, or %FL_VIEW_N when there is none
 */
FlView
fl_view_lookup (const char *name)
{
  for (guint v = 0; name && v < FL_VIEW_N; v++)
    if (strcmp (name, view_names[v]) == 0)
      return (FlView) v;
  return FL_VIEW_N;
}

/* A view shown alone on a projector grows its text with its size, up to half as big again;
 * a presentation's or the user's text scale wins when it asks for more, and a text scale
 * below 1 (Ctrl+minus) shrinks whatever the size gave. */
static double
font_size (const FlViewport *vp)
{
  double scale = vp->font_scale > 0 ? vp->font_scale : 1.0;
  double by_size = CLAMP (MIN (vp->width / 800.0, vp->height / 450.0), 1.0, 1.5);
  return 13.0 * (scale < 1.0 ? scale * by_size : MAX (scale, by_size));
}

/* A context without a simulation, for the benchmark's charts: the text helpers need only
 * the Cairo context, the size and the font size, which grows with the image as a view's. */
void
fl_paint_ctx_init_bare (FlPaintCtx *p, cairo_t *cr, const FlViewport *vp, const FlPalette *pal)
{
  memset (p, 0, sizeof *p);
  cairo_matrix_init_identity (&p->view_matrix);
  p->cr = cr;
  p->vp = vp;
  p->pal = pal;
  p->w = vp->width;
  p->h = vp->height;
  p->fs = font_size (vp);
}

/* Below the size a drawing is laid out for (min_w × min_h), it is drawn at that size and
 * scaled down. Saves @cr, clips it to @viewport and scales it; @out is the viewport to lay
 * out in. FALSE (and nothing saved) for an empty viewport; else the caller restores @cr. */
gboolean
fl_paint_scaled_begin (cairo_t *cr, const FlViewport *viewport, double min_w, double min_h,
                       FlViewport *out)
{
  if (viewport->width < 1 || viewport->height < 1)
    return FALSE;
  double scale = MIN (1.0, MIN (viewport->width / min_w, viewport->height / min_h));
  *out = *viewport;
  out->width /= scale;
  out->height /= scale;
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, viewport->width, viewport->height);
  cairo_clip (cr);
  cairo_scale (cr, scale, scale);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  return TRUE;
}

void
fl_paint_ctx_init (FlPaintCtx *p, cairo_t *cr, const FlCursor *cur, const FlViewport *vp,
                   const FlPalette *pal)
{
  memset (p, 0, sizeof *p);
  cairo_matrix_init_identity (&p->view_matrix);
  p->cr = cr;
  p->cur = cur;
  p->run = fl_cursor_get_run (cur);
  p->st = fl_cursor_get_state (cur);
  p->config = fl_run_get_config (p->run);
  p->vp = vp;
  p->pal = pal;
  p->w = vp->width;
  p->h = vp->height;
  p->fs = font_size (vp);
  p->step = fl_cursor_get_step (cur);
  guint ncpus = MAX (p->st->sizes.ncpus, 1u);
  p->selected = MIN (vp->selected_cpu, ncpus - 1);
  fl_paint_ctx_find_marks (p);
}

/**
 * fl_paint_view:
 * @view: which view
 * @cr: where to draw: the view fills (0, 0, width, height) of its user space
 * @cur: the run, drawn at the cursor's step
 * @viewport: size, font scale, selected CPU, time window of the lanes
 * @palette: colours
 *
 * Draws one view. Leaves @cr as it found it and @cur untouched, so the same call draws the
 * widget, the export and the test image.
 */
void
fl_paint_view (FlView view, cairo_t *cr, const FlCursor *cur, const FlViewport *viewport,
               const FlPalette *palette)
{
  fl_paint_view_noting (view, cr, cur, viewport, palette, NULL);
}

static void
elided_text_clear (gpointer data)
{
  g_free (((FlElidedText *) data)->text);
}

GArray *
fl_elided_texts_new (void)
{
  GArray *elided = g_array_new (FALSE, FALSE, sizeof (FlElidedText));
  g_array_set_clear_func (elided, elided_text_clear);
  return elided;
}

/**
 * fl_paint_view_noting:
 * @elided: (nullable): where to note the texts drawn shortened; emptied first
 *
 * fl_paint_view(), and what a widget needs to show a shortened text in full on hover.
 */
static void
paint_view_noting (FlView view, cairo_t *cr, const FlCursor *cur, const FlViewport *viewport,
                   const FlPalette *palette, GArray *elided, gboolean note_all)
{
  g_return_if_fail ((guint) view < FL_VIEW_N);
  g_return_if_fail (cr != NULL && cur != NULL && viewport != NULL && palette != NULL);
  if (elided != NULL)
    g_array_set_size (elided, 0);
  if (viewport->width < 1 || viewport->height < 1)
    return;

  cairo_matrix_t view_matrix;
  cairo_get_matrix (cr, &view_matrix);
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, viewport->width, viewport->height);
  cairo_clip (cr);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  fl_paint_fitted (painters[view], view == FL_VIEW_ALL, cr, cur, viewport, palette, elided,
                   note_all, &view_matrix);
  cairo_restore (cr);
}

void
fl_paint_view_noting (FlView view, cairo_t *cr, const FlCursor *cur, const FlViewport *viewport,
                      const FlPalette *palette, GArray *elided)
{
  paint_view_noting (view, cr, cur, viewport, palette, elided, FALSE);
}

/**
 * fl_view_texts:
 * @view: which view
 * @cur: a cursor at the step to draw
 * @viewport: the view's size, font scale, selection, time window and first lane
 *
 * Every text @view draws, where it draws it: for tests that a label sits on what it names
 * and is large enough to read, without reading pixels back.
 *
 * Returns: (transfer full) (element-type FlElidedText): the texts in drawing order, each
 *   in full, with its box in the view's units
 */
GArray *
fl_view_texts (FlView view, const FlCursor *cur, const FlViewport *viewport)
{
  g_return_val_if_fail ((guint) view < FL_VIEW_N && cur != NULL && viewport != NULL, NULL);
  GArray *texts = fl_elided_texts_new ();
  FlPalette palette;
  fl_palette_init_light (&palette);
  cairo_surface_t *surface = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, NULL);
  cairo_t *cr = cairo_create (surface);
  paint_view_noting (view, cr, cur, viewport, &palette, texts, TRUE);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return texts;
}

const FlElidedText *
fl_elided_texts_at (GArray *elided, double x, double y)
{
  if (elided == NULL)
    return NULL;
  /* the last drawn is on top */
  for (guint i = elided->len; i-- > 0;)
    {
      const FlElidedText *e = &g_array_index (elided, FlElidedText, i);
      if (x >= e->x && x < e->x + e->width && y >= e->y && y < e->y + e->height)
        return e;
    }
  return NULL;
}

/* Below the size a view is laid out for, it is drawn at that size and scaled down: smaller,
 * but never overlapping. The window's layout needs 1280×720, a single view much less; a
 * view's text larger than normal (Ctrl+plus, presentation mode) needs as many more lines'
 * height, so in a panel too short for it the text grows only as far as it fits (across,
 * the views shorten their texts instead). */
double
fl_paint_fit_scale (FlPaintFn paint, gboolean whole_window, const FlViewport *viewport)
{
  double min_w = whole_window ? 1280 : 360, min_h = whole_window ? 720 : 200;
  double larger = whole_window ? 1.0 : MAX (viewport->font_scale, 1.0);
  if (paint == fl_paint_lanes)
    min_h = 110;
  /* the tiles fit in less; the findings below them are left out when there is no room */
  else if (paint == fl_paint_counters)
    min_h = 165;
  return MIN (1.0, MIN (viewport->width / min_w, viewport->height / (min_h * larger)));
}

void
fl_paint_fitted (FlPaintFn paint, gboolean whole_window, cairo_t *cr, const FlCursor *cur,
                 const FlViewport *viewport, const FlPalette *palette, GArray *elided,
                 gboolean note_all, const cairo_matrix_t *view_matrix)
{
  double scale = fl_paint_fit_scale (paint, whole_window, viewport);
  FlViewport vp = *viewport;
  vp.width /= scale;
  vp.height /= scale;
  FlPaintCtx p;
  fl_paint_ctx_init (&p, cr, cur, &vp, palette);
  p.elided = elided;
  p.note_all = note_all;
  if (view_matrix != NULL)
    p.view_matrix = *view_matrix;
  cairo_save (cr);
  cairo_scale (cr, scale, scale);
  paint (&p);
  cairo_restore (cr);
}

/* "12 345 678": digits grouped with narrow no-break spaces, as a slide would print them. */
char *
fl_count_text (guint64 value)
{
  char digits[32];
  g_snprintf (digits, sizeof digits, "%" G_GUINT64_FORMAT, value);
  GString *s = g_string_new (NULL);
  gsize len = strlen (digits);
  for (gsize i = 0; i < len; i++)
    {
      if (i > 0 && (len - i) % 3 == 0)
        g_string_append (s, "\u202f");
      g_string_append_c (s, digits[i]);
    }
  return g_string_free (s, FALSE);
}

void
fl_format_count (guint64 value, char *buf, gsize size)
{
  g_autofree char *text = fl_count_text (value);
  g_strlcpy (buf, text, size);
}

void
fl_rounded_rect (cairo_t *cr, double x, double y, double w, double h, double r)
{
  r = MIN (r, MIN (w, h) / 2);
  if (r <= 0.5)
    {
      cairo_rectangle (cr, x, y, w, h);
      return;
    }
  cairo_new_sub_path (cr);
  cairo_arc (cr, x + w - r, y + r, r, -G_PI / 2, 0);
  cairo_arc (cr, x + w - r, y + h - r, r, 0, G_PI / 2);
  cairo_arc (cr, x + r, y + h - r, r, G_PI / 2, G_PI);
  cairo_arc (cr, x + r, y + r, r, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
}

/* The path of fl_rounded_rect() run the other way round: inside one run forwards, a hole. */
static void
rounded_rect_reversed (cairo_t *cr, double x, double y, double w, double h, double r)
{
  r = MIN (r, MIN (w, h) / 2);
  cairo_new_sub_path (cr);
  if (r <= 0.5)
    {
      cairo_move_to (cr, x, y);
      cairo_line_to (cr, x, y + h);
      cairo_line_to (cr, x + w, y + h);
      cairo_line_to (cr, x + w, y);
      cairo_close_path (cr);
      return;
    }
  cairo_arc_negative (cr, x + r, y + r, r, 3 * G_PI / 2, G_PI);
  cairo_arc_negative (cr, x + r, y + h - r, r, G_PI, G_PI / 2);
  cairo_arc_negative (cr, x + w - r, y + h - r, r, G_PI / 2, 0);
  cairo_arc_negative (cr, x + w - r, y + r, r, 0, -G_PI / 2);
  cairo_close_path (cr);
}

/* What stroking fl_rounded_rect (x, y, w, h, r) with a line `width` wide covers, as a path
 * to fill: the rounded rectangle grown by half the width, less the one shrunk by half. Cairo
 * fills it for a fraction of what a stroke costs (the stroker turns each arc into polygons
 * with joins), which at 64 CPUs is most of a view drawn outline by outline. */
void
fl_rounded_outline (cairo_t *cr, double x, double y, double w, double h, double r, double width)
{
  double half = width / 2;
  fl_rounded_rect (cr, x - half, y - half, w + width, h + width, r + half);
  if (w > width && h > width)
    rounded_rect_reversed (cr, x + half, y + half, w - width, h - width, MAX (r - half, 0));
}

/* Fills the path with Cairo's 4 × 4-sample rasterizer rather than its default: for many
 * small shapes in one path (outlines a pixel wide, chips) the edges cannot be told apart at
 * a glance, and the fill costs about half as much. Vector targets ignore it. */
void
fl_fill_fast (cairo_t *cr)
{
  cairo_save (cr);
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_FAST);
  cairo_fill (cr);
  cairo_restore (cr);
}

void
fl_diamond (cairo_t *cr, double x, double y, double r)
{
  cairo_move_to (cr, x, y - r);
  cairo_line_to (cr, x + r, y);
  cairo_line_to (cr, x, y + r);
  cairo_line_to (cr, x - r, y);
  cairo_close_path (cr);
}

void
fl_paint_panel_background (FlPaintCtx *p)
{
  fl_set_rgba (p->cr, &p->pal->background);
  cairo_paint (p->cr);
}

/* How much room fl_paint_header() takes. */
double
fl_paint_header_height (FlPaintCtx *p)
{
  double pad = p->fs * 0.6;
  return pad + fl_text_height (p, FL_FONT_BOLD, p->fs * 1.1) + pad * 0.6 + pad * 0.8;
}

/* The view's title on the left, what it shows at this step on the right, a rule below.
 * Returns where the content starts. */
double
fl_paint_header (FlPaintCtx *p, const char *title, const char *subtitle)
{
  double pad = p->fs * 0.6;
  double size = p->fs * 1.1;
  double line = fl_text_height (p, FL_FONT_BOLD, size);
  double tw = fl_text_draw (p, FL_FONT_BOLD, size, &p->pal->text, pad, pad, p->w * 0.6,
                            FL_ALIGN_LEFT, title);
  if (subtitle && *subtitle)
    {
      double room = p->w - 3 * pad - tw - p->fs;
      double sub_line = fl_text_height (p, FL_FONT_SANS, p->fs);
      fl_text_draw (p, FL_FONT_SANS, p->fs, &p->pal->text_dim, p->w - pad,
                    pad + (line - sub_line) / 2, room, FL_ALIGN_RIGHT, subtitle);
    }
  double y = pad + line + pad * 0.6;
  fl_set_rgba (p->cr, &p->pal->grid);
  cairo_rectangle (p->cr, pad, floor (y), p->w - 2 * pad, 1);
  cairo_fill (p->cr);
  return y + pad * 0.8;
}

double
fl_paint_legend (FlPaintCtx *p, double x, double y, double width, const FlLegendItem *items,
                 guint n, gboolean draw)
{
  double size = p->fs * 0.9;
  double line = fl_text_height (p, FL_FONT_SANS, size);
  double sw = size * 0.95, gap = size * 0.4, spacing = size * 1.2;
  double cx = x, cy = y;
  for (guint i = 0; i < n; i++)
    {
      double tw = fl_text_width (p, FL_FONT_SANS, size, items[i].label);
      double iw = sw + gap + tw;
      if (cx > x && cx + iw > x + width)
        {
          cx = x;
          cy += line * 1.25;
        }
      if (draw)
        {
          cairo_t *cr = p->cr;
          double sy = cy + (line - sw) / 2;
          const FlRgba *c = &items[i].color;
          switch (items[i].shape)
            {
            case FL_LEGEND_OUTLINE:
              {
                /* dashed, as the views draw what it stands for (a ghost VMA, the hold) */
                double dash[] = { MAX (2.0, sw * 0.22), MAX (1.5, sw * 0.14) };
                fl_rounded_rect (cr, cx + 0.5, sy + 0.5, sw - 1, sw - 1, sw * 0.2);
                fl_set_rgba (cr, c);
                cairo_set_line_width (cr, MAX (1.5, sw * 0.15));
                cairo_set_dash (cr, dash, 2, 0);
                cairo_stroke (cr);
                cairo_set_dash (cr, NULL, 0, 0);
              }
              break;
            case FL_LEGEND_DIAMOND:
              fl_diamond (cr, cx + sw / 2, sy + sw / 2, sw * 0.6);
              fl_set_rgba (cr, c);
              cairo_fill_preserve (cr);
              fl_set_rgba (cr, &p->pal->text);
              cairo_set_line_width (cr, 1.2);
              cairo_stroke (cr);
              break;
            case FL_LEGEND_RING:
              cairo_new_sub_path (cr);
              cairo_arc (cr, cx + sw / 2, sy + sw / 2, sw * 0.38, 0, 2 * G_PI);
              fl_set_rgba (cr, c);
              cairo_set_line_width (cr, MAX (1.5, sw * 0.18));
              cairo_stroke (cr);
              break;
            case FL_LEGEND_ARROW:
              fl_set_rgba (cr, c);
              cairo_set_line_width (cr, 1.5);
              cairo_move_to (cr, cx, sy + sw * 0.8);
              cairo_line_to (cr, cx + sw * 0.75, sy + sw * 0.25);
              cairo_stroke (cr);
              cairo_move_to (cr, cx + sw, sy);
              cairo_line_to (cr, cx + sw * 0.45, sy + sw * 0.15);
              cairo_line_to (cr, cx + sw * 0.85, sy + sw * 0.55);
              cairo_close_path (cr);
              cairo_fill (cr);
              break;
            case FL_LEGEND_LINE:
              fl_set_rgba (cr, c);
              cairo_rectangle (cr, cx, sy + sw * 0.4, sw, MAX (sw * 0.2, 1.0));
              cairo_fill (cr);
              break;
            case FL_LEGEND_TRIANGLE:
            case FL_LEGEND_TRIANGLE_UP:
              {
                /* as the views draw it: pointing down onto the lane, or up from its edge */
                double tip = items[i].shape == FL_LEGEND_TRIANGLE ? 0.75 : 0.25;
                fl_set_rgba (cr, c);
                cairo_move_to (cr, cx + sw / 2, sy + sw * tip);
                cairo_line_to (cr, cx + sw * 0.9, sy + sw * (1.0 - tip));
                cairo_line_to (cr, cx + sw * 0.1, sy + sw * (1.0 - tip));
                cairo_close_path (cr);
                cairo_fill (cr);
              }
              break;
            case FL_LEGEND_BOX:
            default:
              fl_rounded_rect (cr, cx + 0.5, sy + 0.5, sw - 1, sw - 1, sw * 0.2);
              fl_set_rgba (cr, c);
              cairo_fill_preserve (cr);
              fl_set_rgba_alpha (cr, &p->pal->text, 0.25);
              cairo_set_line_width (cr, 1);
              cairo_stroke (cr);
              break;
            }
          fl_text_draw (p, FL_FONT_SANS, size, &p->pal->text_dim, cx + sw + gap, cy,
                        x + width - (cx + sw + gap), FL_ALIGN_LEFT, items[i].label);
        }
      cx += iw + spacing;
    }
  return n ? cy - y + line : 0;
}
