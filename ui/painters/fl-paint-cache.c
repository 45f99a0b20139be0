/* fl-paint-cache.c — the hot cache lines × CPUs: a MESI letter in a coloured cell per CPU,
 * how often the line moved, and where it went last. The lines that bounce are the story of
 * the 2010 numbers: mmap_sem's count or wait_lock, mmap_cache, the RSS counters. */
#include "fl-paint-private.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_ROWS 12

static const char mesi_letters[] = "ISEM";
/* Translators: the MESI cache-line states, each shown after its letter I, S, E or M (which
 * stay as they are) in the cache view's legend. */
static const char *const mesi_names[] = { N_("invalid"), N_("shared"), N_("exclusive"),
                                          N_("modified") };

static FlMesi
mesi_of (const FlLine *l, guint cpu)
{
  if (l->owner == (gint) cpu)
    return l->owner_state <= FL_MESI_M ? l->owner_state : FL_MESI_M;
  if (cpu < FL_MAX_CPUS && ((l->sharers[cpu / 64] >> (cpu % 64)) & 1))
    return FL_MESI_S;
  return FL_MESI_I;
}

static gboolean
anyone_holds (const FlLine *l)
{
  if (l->owner >= 0)
    return TRUE;
  for (guint w = 0; w < FL_MAX_CPUS / 64; w++)
    if (l->sharers[w])
      return TRUE;
  return FALSE;
}

typedef struct {
  guint   line;
  guint32 transfers;
} Ranked;

static gint
by_transfers (gconstpointer a, gconstpointer b)
{
  const Ranked *x = a, *y = b;
  if (x->transfers != y->transfers)
    return x->transfers < y->transfers ? 1 : -1;
  return x->line < y->line ? -1 : x->line > y->line;
}

/* The line the last step touched, 0 if none; in *event (when asked) the event that names it:
 * which CPU, and how it got the line. */
static guint
last_touch (const FlCursor *cur, FlEvent *event)
{
  const FlRun *run = fl_cursor_get_run (cur);
  guint64 step = fl_cursor_get_step (cur);
  if (step == 0)
    return 0;
  for (gsize i = fl_run_find_step (run, step); i-- > 0;)
    {
      FlEvent e = fl_run_get_event (run, i);
      if (e.step != step - 1)
        break;
      if (e.line)
        {
          if (event)
            *event = e;
          return e.line;
        }
    }
  return 0;
}

static guint
last_line (const FlCursor *cur)
{
  return last_touch (cur, NULL);
}

/**
 * fl_cache_rows:
 * The rows of the cache view: the fixed hot lines, then the lines that moved most, then
 * lines someone holds; the line the last step touched is always among them.
 *
 * Returns: how many ids were stored in @rows
 */
guint
fl_cache_rows (const FlCursor *cur, guint *rows, guint max_rows)
{
  const FlState *st = fl_cursor_get_state (cur);
  guint n = 0;
  for (guint l = FL_LINE_MM_MMAP; l <= FL_LINE_TLB_FLUSH && l < st->sizes.nlines && n < max_rows; l++)
    rows[n++] = l;
  g_autoptr (GArray) ranked = g_array_new (FALSE, FALSE, sizeof (Ranked));
  for (guint l = FL_LINE_TLB_FLUSH + 1; l < st->sizes.nlines; l++)
    if (st->lines[l].transfers)
      g_array_append_val (ranked, ((Ranked) { l, st->lines[l].transfers }));
  g_array_sort (ranked, by_transfers);
  for (guint i = 0; i < ranked->len && n < max_rows; i++)
    rows[n++] = g_array_index (ranked, Ranked, i).line;
  for (guint l = FL_LINE_TLB_FLUSH + 1; l < st->sizes.nlines && n < max_rows; l++)
    if (!st->lines[l].transfers && anyone_holds (&st->lines[l]) && l != FL_LINE_BARRIER)
      rows[n++] = l;
  guint touched = last_line (cur);
  if (touched && touched < st->sizes.nlines && n > 0)
    {
      gboolean present = FALSE;
      for (guint i = 0; i < n; i++)
        present |= rows[i] == touched;
      if (!present)
        {
          if (n < max_rows)
            rows[n++] = touched;
          else
            rows[n - 1] = touched;
        }
    }
  return n;
}

/* Draws a label and, when asked, notes the box it took. */
static double
label (FlPaintCtx *p, GArray *boxes, guint line, FlFont font, double size, const FlRgba *color,
       double x, double y, double max_width, FlAlign align, const char *text)
{
  double w = fl_text_draw (p, font, size, color, x, y, max_width, align, text);
  if (boxes != NULL && w > 0)
    {
      double left = align == FL_ALIGN_CENTER ? x - w / 2 : align == FL_ALIGN_RIGHT ? x - w : x;
      FlLabelBox box = { left, y, w, fl_text_height (p, font, size), line };
      g_array_append_val (boxes, box);
    }
  return w;
}

/* Keeps @keep of the rows, in their order: the line the last step touched and the lines of
 * what this step's findings name, then lines that moved before lines that did not (a cut
 * shows the story, not the quiet fixed lines). */
static guint
keep_rows (const FlPaintCtx *p, guint *rows, guint n, guint keep, guint touched)
{
  const FlState *st = p->st;
  if (keep >= n)
    return n;
  gboolean kept[MAX_ROWS] = { FALSE };
  guint have = 0;
  for (guint pass = 0; pass < 3; pass++)
    for (guint i = 0; i < n && have < keep; i++)
      {
        gboolean wanted = pass == 0 ? rows[i] == touched || fl_marks_line (p, rows[i])
                          : pass == 1 ? st->lines[rows[i]].transfers > 0 : TRUE;
        if (!kept[i] && wanted)
          {
            kept[i] = TRUE;
            have++;
          }
      }
  guint out = 0;
  for (guint i = 0; i < n; i++)
    if (kept[i])
      rows[out++] = rows[i];
  return out;
}

/* What the CPUs without a column hold of one line: "S×37", or a dim dot when nothing. */
static void
draw_others (FlPaintCtx *p, const FlLine *l, const guint *col_cpu, guint ncols, double x,
             double y, double w, double size)
{
  guint ncpus = p->st->sizes.ncpus, count[4] = { 0 };
  for (guint c = 0, i = 0; c < ncpus; c++)
    {
      while (i < ncols && col_cpu[i] < c)
        i++;
      if (i < ncols && col_cpu[i] == c)
        continue;
      count[mesi_of (l, c)]++;
    }
  GString *s = g_string_new (NULL);
  for (guint m = FL_MESI_M; m > FL_MESI_I; m--)
    if (count[m])
      g_string_append_printf (s, "%s%c×%u", s->len ? " " : "", mesi_letters[m], count[m]);
  fl_text_draw (p, FL_FONT_SANS, size, s->len ? &p->pal->text : &p->pal->text_dim, x + w / 2, y,
                w, FL_ALIGN_CENTER, s->len ? s->str : "·");
  g_string_free (s, TRUE);
}

static void
paint_cache (FlPaintCtx *p, GArray *boxes)
{
  cairo_t *cr = p->cr;
  const FlPalette *pal = p->pal;
  const FlState *st = p->st;
  guint ncpus = st->sizes.ncpus;
  guint rows[MAX_ROWS];
  guint nrows = fl_cache_rows (p->cur, rows, MAX_ROWS);
  FlEvent touch = { 0 };
  guint touched = last_touch (p->cur, &touch);
  /* served by the hold: the writer's own copy, before the requests queued for the line */
  gint own_copy_cpu = touched && touch.xfer == FL_XFER_OWN_COPY ? (gint) touch.cpu : -1;
  FlCounters k;
  fl_cursor_get_counters (p->cur, &k);

  fl_paint_panel_background (p);
  g_autofree char *subtitle =
    g_strdup_printf (g_dngettext (NULL, "%" PRIu64 " transfer between CPUs",
                                  "%" PRIu64 " transfers between CPUs", k.transfers),
                     k.transfers);
  double top = fl_paint_header (p, _("Cache lines"), subtitle);
  double pad = p->fs * 0.6;

  FlLegendItem legend[5];
  char labels[4][32];
  for (guint m = 0; m < 4; m++)
    {
      g_snprintf (labels[m], sizeof labels[m], "%c %s", mesi_letters[m], _(mesi_names[m]));
      legend[m] = (FlLegendItem) { pal->mesi[m], labels[m], FL_LEGEND_BOX };
    }
  /* Translators: the cache view's legend for a dashed cell: the CPU's access was served by
   * the copy it had just written, before the requests other CPUs had queued for the line
   * ("the hold" of docs/model.md); keep it short, the legend shares one line */
  legend[4] = (FlLegendItem) { pal->text, _("own copy"), FL_LEGEND_OUTLINE };

  double size = p->fs * 0.9;
  double small = p->fs * 0.8;
  double line_th = MAX (fl_text_height (p, FL_FONT_SANS, size),
                        fl_text_height (p, FL_FONT_BOLD, size));
  double header_h = fl_text_height (p, FL_FONT_BOLD, small) + 4;
  /* As many rows as their text fits in, not more: large type shows fewer lines rather than
   * lines written over each other. */
  double min_row_h = line_th + 2;
  /* The dashed cell and its legend entry come together, and only when a cell is drawn so
   * and the longer legend still leaves room for the rows that tell the story. */
  guint nlegend = own_copy_cpu >= 0 ? 5 : 4;
  double legend_h, bottom, room;
  guint fit;
  for (;;)
    {
      legend_h = fl_paint_legend (p, pad, 0, p->w - 2 * pad, legend, nlegend, FALSE);
      bottom = p->h - pad - legend_h - pad * 0.5;
      room = bottom - top - header_h;
      fit = room > 0 ? (guint) floor (room / min_row_h) : 0;
      if (nlegend == 4 || fit >= MIN (nrows, 3u))
        break;
      nlegend = 4;
      own_copy_cpu = -1;
    }
  nrows = keep_rows (p, rows, nrows, fit, touched);
  if (ncpus == 0 || nrows == 0)
    {
      fl_paint_legend (p, pad, p->h - pad - legend_h, p->w - 2 * pad, legend, nlegend, TRUE);
      return;
    }

  char buf[64], name[64], from_buf[32], to_buf[32];
  double name_w = 0;
  guint32 most = 0;
  for (guint i = 0; i < nrows; i++)
    {
      name_w = MAX (name_w, fl_text_width (p, FL_FONT_SANS, size,
                                           fl_cursor_line_name (p->cur, rows[i], buf, sizeof buf)));
      most = MAX (most, st->lines[rows[i]].transfers);
    }
  /* the count column holds its head and its widest number */
  g_snprintf (buf, sizeof buf, "%u", most);
  /* Translators: the head of the cache view's column of how often each line moved */
  const char *transfers_head = _("transfers");
  /* Translators: the head of the cache view's column of where each line moved last */
  const char *last_head = _("last");
  double count_w = MAX (fl_text_width (p, FL_FONT_SANS, small, transfers_head),
                        fl_text_width (p, FL_FONT_SANS, size, buf)) + pad;
  /* "cpuA → cpuB" as drawn: the source plain, the arrow, the destination bold */
  g_snprintf (from_buf, sizeof from_buf, "cpu%u", ncpus - 1);
  double last_w = fl_text_width (p, FL_FONT_SANS, size, from_buf)
                  + fl_text_width (p, FL_FONT_SANS, size, " → ")
                  + fl_text_width (p, FL_FONT_BOLD, size, from_buf) + pad;
  last_w = MAX (last_w, fl_text_width (p, FL_FONT_SANS, small, last_head) + pad);
  /* A column is never narrower than its head's number and a letter: past that, the CPUs
   * that hold or moved the lines shown keep theirs and the others are counted in one. */
  g_snprintf (buf, sizeof buf, "%u", ncpus - 1);
  double cw_min = MAX (p->fs * 1.4, fl_text_width (p, FL_FONT_BOLD, small, buf) + 6);
  /* Names come first, then the cells at a readable size, then the "last" column: where a
   * line went last is also the outlined cell, so that column goes before a name is cut. */
  double cells_min = MIN (ncpus, 8u) * cw_min;
  double name_need = name_w + pad;
  double room_w = p->w - 2 * pad - count_w;
  if (room_w - last_w - cells_min < name_need)
    last_w = 0;
  name_w = MIN (name_need, MAX (room_w - last_w - cells_min, p->w * 0.3));
  double cells_x = pad + name_w;
  double cells_w = p->w - pad - cells_x - count_w - last_w;
  g_autofree guint *col_cpu = g_new (guint, ncpus);
  guint ncols = ncpus;
  double others_w = 0;
  char others_head[48];
  for (guint c = 0; c < ncpus; c++)
    col_cpu[c] = c;
  if (ncpus * cw_min > cells_w)
    {
      g_snprintf (others_head, sizeof others_head,
                  g_dngettext (NULL, "+%u more", "+%u more", ncpus), ncpus);
      g_snprintf (buf, sizeof buf, "S×%u", ncpus);
      double w = MAX (fl_text_width (p, FL_FONT_SANS, small, others_head),
                      fl_text_width (p, FL_FONT_SANS, size, buf)) + pad;
      guint fit_cols = (guint) floor ((cells_w - w) / cw_min);
      /* in a view too small for even two columns, all of them, narrow, as before */
      if (fit_cols >= 2)
        {
          others_w = w;
          ncols = fl_cache_columns (p, rows, nrows, touched ? (gint) touch.cpu : -1, fit_cols,
                                    col_cpu);
          g_snprintf (others_head, sizeof others_head,
                      g_dngettext (NULL, "+%u more", "+%u more", ncpus - ncols), ncpus - ncols);
        }
    }
  double cw = MIN ((cells_w - others_w) / ncols, p->fs * 3.2);
  double row_h = MIN (room / nrows, p->fs * 1.9);
  double cell_h = MAX (row_h - 3, 2.0);
  double others_x = cells_x + ncols * cw;
  double cells_end = others_x + others_w;

  /* column heads: each CPU in its colour; numbers only, or every k-th, when narrow */
  g_snprintf (buf, sizeof buf, "cpu%u", ncpus - 1);
  gboolean words = fl_text_width (p, FL_FONT_BOLD, small, buf) + 4 <= cw;
  g_snprintf (buf, sizeof buf, "%u", ncpus - 1);
  guint stride = words ? 1 : (guint) ceil ((fl_text_width (p, FL_FONT_BOLD, small, buf) + 4) / cw);
  for (guint i = 0; i < ncols; i += MAX (stride, 1u))
    {
      g_snprintf (buf, sizeof buf, words ? "cpu%u" : "%u", col_cpu[i]);
      double head_w = fl_text_width (p, FL_FONT_BOLD, small, buf);
      /* a head wider than its column stays clear of the next head */
      if (cells_x + (i + 0.5) * cw + head_w / 2 > others_x + pad * 0.5)
        continue;
      label (p, boxes, 0, FL_FONT_BOLD, small, fl_palette_cpu (pal, col_cpu[i]),
             cells_x + (i + 0.5) * cw, top, 0, FL_ALIGN_CENTER, buf);
    }
  if (others_w > 0)
    /* the CPUs without a column of their own, counted */
    label (p, boxes, 0, FL_FONT_SANS, small, &pal->text_dim, others_x + others_w / 2, top,
           others_w, FL_ALIGN_CENTER, others_head);
  double count_x = cells_end + pad * 0.5;
  label (p, boxes, 0, FL_FONT_SANS, small, &pal->text_dim, count_x + count_w - pad * 0.5, top,
         count_w - pad, FL_ALIGN_RIGHT, transfers_head);
  if (last_w > 0)
    label (p, boxes, 0, FL_FONT_SANS, small, &pal->text_dim, count_x + count_w + pad * 0.5, top,
           last_w - pad * 0.5, FL_ALIGN_LEFT, last_head);

  double letter = MIN (size, cell_h * 0.75);
  for (guint i = 0; i < nrows; i++)
    {
      const FlLine *l = &st->lines[rows[i]];
      double y = top + header_h + i * row_h;
      if (rows[i] == touched)
        {
          /* the line the last step touched */
          fl_set_rgba_alpha (cr, &pal->accent, 0.14);
          cairo_rectangle (cr, pad * 0.3, y, p->w - pad * 0.6, row_h);
          cairo_fill (cr);
        }
      if (fl_marks_line (p, rows[i]))
        fl_mark_ring (p, pad * 0.3 + 2, y + 1, p->w - pad * 0.6 - 4, row_h - 2, 3);
      const char *line_name = fl_cursor_line_name (p->cur, rows[i], name, sizeof name);
      double ty = y + (row_h - line_th) / 2;
      label (p, boxes, rows[i], rows[i] == touched ? FL_FONT_BOLD : FL_FONT_SANS, size,
             &pal->text, pad, ty, name_w - pad * 0.5, FL_ALIGN_LEFT, line_name);
      gint last_to = (gint) l->last_to - 1, last_from = (gint) l->last_from - 1;
      for (guint col = 0; col < ncols; col++)
        {
          guint c = col_cpu[col];
          FlMesi m = mesi_of (l, c);
          double x = cells_x + col * cw;
          double g = cw >= 6 ? 1.5 : 0;
          cairo_rectangle (cr, x + g, y + (row_h - cell_h) / 2, cw - 2 * g, cell_h);
          fl_set_rgba (cr, &pal->mesi[m]);
          cairo_fill (cr);
          if ((gint) c == last_to && l->transfers)
            {
              fl_set_rgba (cr, fl_palette_cpu (pal, c));
              cairo_set_line_width (cr, MAX (1.5, MIN (3.0, cw * 0.12)));
              cairo_rectangle (cr, x + g + 1, y + (row_h - cell_h) / 2 + 1, cw - 2 * g - 2, cell_h - 2);
              cairo_stroke (cr);
            }
          if (rows[i] == touched && (gint) c == own_copy_cpu)
            {
              double dash[] = { 3, 2 };
              cairo_set_dash (cr, dash, 2, 0);
              fl_set_rgba (cr, &pal->text);
              cairo_set_line_width (cr, MAX (1.5, MIN (2.5, cw * 0.1)));
              cairo_rectangle (cr, x + g + 2.5, y + (row_h - cell_h) / 2 + 2.5, cw - 2 * g - 5,
                               cell_h - 5);
              cairo_stroke (cr);
              cairo_set_dash (cr, NULL, 0, 0);
            }
          if (letter >= p->fs * 0.6 && cw >= letter)
            {
              char s[2] = { mesi_letters[m], 0 };
              double lh = fl_text_height (p, FL_FONT_BOLD, letter);
              fl_text_draw (p, FL_FONT_BOLD, letter, fl_rgba_text_on (pal, &pal->mesi[m]),
                            x + cw / 2, y + (row_h - lh) / 2, cw, FL_ALIGN_CENTER, s);
            }
        }
      if (others_w > 0)
        draw_others (p, l, col_cpu, ncols, others_x, ty, others_w, size);
      g_snprintf (buf, sizeof buf, "%u", l->transfers);
      label (p, boxes, rows[i], FL_FONT_SANS, size, l->transfers ? &pal->text : &pal->text_dim,
             count_x + count_w - pad * 0.5, ty, count_w - pad, FL_ALIGN_RIGHT, buf);
      if (last_w > 0 && last_to >= 0 && (guint) last_to < ncpus)
        {
          double x = count_x + count_w + pad * 0.5;
          double end = p->w - pad * 0.5;
          if (last_from >= 0 && (guint) last_from < ncpus)
            {
              g_snprintf (from_buf, sizeof from_buf, "cpu%d", last_from);
              x += label (p, boxes, rows[i], FL_FONT_SANS, size,
                          fl_palette_cpu (pal, (guint) last_from), x, ty, end - x, FL_ALIGN_LEFT,
                          from_buf);
            }
          x += label (p, boxes, rows[i], FL_FONT_SANS, size, &pal->text_dim, x, ty, end - x,
                      FL_ALIGN_LEFT, last_from >= 0 ? " → " : "→ ");
          g_snprintf (to_buf, sizeof to_buf, "cpu%d", last_to);
          label (p, boxes, rows[i], FL_FONT_BOLD, size, fl_palette_cpu (pal, (guint) last_to), x,
                 ty, end - x, FL_ALIGN_LEFT, to_buf);
        }
    }
  fl_paint_legend (p, pad, p->h - pad - legend_h, p->w - 2 * pad, legend, nlegend, TRUE);
}

void
fl_paint_cache (FlPaintCtx *p)
{
  paint_cache (p, NULL);
}

/**
 * fl_cache_label_boxes:
 * @cur: a cursor at the step to lay out
 * @viewport: the cache view's size and font scale
 *
 * Where the cache view puts its text: one box per label (a row's name, count and last move,
 * a column head) in the view's coordinates, as fl_paint_view() draws it, with the cache line
 * the label is about (0 for the heads). For a tooltip that names an ellipsized line in full,
 * and for tests that check no two labels overlap.
 *
 * Returns: (transfer full) (element-type FlLabelBox): the boxes, in drawing order
 */
GArray *
fl_cache_label_boxes (const FlCursor *cur, const FlViewport *viewport)
{
  g_return_val_if_fail (cur != NULL && viewport != NULL, NULL);
  GArray *boxes = g_array_new (FALSE, FALSE, sizeof (FlLabelBox));
  if (viewport->width < 1 || viewport->height < 1)
    return boxes;
  /* laid out exactly as fl_paint_view() does: at the fitted size, then scaled */
  double scale = fl_paint_fit_scale (fl_paint_cache, FALSE, viewport);
  FlViewport vp = *viewport;
  vp.width /= scale;
  vp.height /= scale;
  FlPalette pal;
  fl_palette_init_light (&pal);
  cairo_surface_t *surface = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, NULL);
  cairo_t *cr = cairo_create (surface);
  FlPaintCtx p;
  fl_paint_ctx_init (&p, cr, cur, &vp, &pal);
  paint_cache (&p, boxes);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  for (guint i = 0; i < boxes->len; i++)
    {
      FlLabelBox *b = &g_array_index (boxes, FlLabelBox, i);
      b->x *= scale;
      b->y *= scale;
      b->width *= scale;
      b->height *= scale;
    }
  return boxes;
}

/**
 * fl_cache_describe_line:
 * @cur: a cursor
 * @line: a cache line id
 *
 * Returns: (transfer full): the line's full name, how often it moved and where it went last,
 *   as one sentence (the cache view's tooltip)
 */
char *
fl_cache_describe_line (const FlCursor *cur, guint line)
{
  g_return_val_if_fail (cur != NULL, NULL);
  const FlState *st = fl_cursor_get_state (cur);
  char name[64];
  if (line >= st->sizes.nlines)
    return NULL;
  const FlLine *l = &st->lines[line];
  GString *s = g_string_new (fl_cursor_line_name (cur, line, name, sizeof name));
  /* Translators: after a cache line's name, how often it moved between CPUs */
  g_string_append_printf (s, g_dngettext (NULL, ": %u transfer", ": %u transfers", l->transfers),
                          l->transfers);
  if (l->last_to)
    {
      if (l->last_from)
        /* Translators: where a cache line moved last, from one CPU to another */
        g_string_append_printf (s, _(", last cpu%u → cpu%u"), l->last_from - 1, l->last_to - 1);
      else
        /* Translators: where a cache line moved last, when it came from memory */
        g_string_append_printf (s, _(", last to cpu%u"), l->last_to - 1);
    }
  if (l->own_copy)
    /* Translators: after a cache line's transfers: accesses the writer's own copy served
     * before the requests other CPUs had queued for the line */
    g_string_append_printf (s, g_dngettext (NULL, ", %u access served by the writer's own copy "
                                            "ahead of the queue",
                                            ", %u accesses served by the writer's own copy "
                                            "ahead of the queue", l->own_copy), l->own_copy);
  return g_string_free (s, FALSE);
}
