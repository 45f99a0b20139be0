/* fl-paint-cache.c — the hot cache lines × CPUs: a MESI letter in a coloured cell per CPU,
 * how often the line moved, and where it went last. The lines that bounce are the story of
 * the 2010 numbers: mmap_sem's count or wait_lock, mmap_cache, the RSS counters. */
#include "fl-paint-private.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_ROWS 12

static const char mesi_letters[] = "ISEM";
static const char *const mesi_names[] = { "invalid", "shared", "exclusive", "modified" };

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

/* The line the last step touched, 0 if none. */
static guint
last_line (FlSim *sim)
{
  guint64 step = fl_sim_get_step (sim);
  gsize n = 0;
  const FlEvent *ev = fl_sim_get_events (sim, &n);
  if (step == 0 || n == 0)
    return 0;
  gsize lo = 0, hi = n;
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      if (ev[mid].step < step)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (gsize i = lo; i-- > 0 && ev[i].step == step - 1;)
    if (ev[i].line)
      return ev[i].line;
  return 0;
}

/**
 * fl_cache_rows:
 * The rows of the cache view: the fixed hot lines, then the lines that moved most, then
 * lines someone holds; the line the last step touched is always among them.
 *
 * Returns: how many ids were stored in @rows
 */
guint
fl_cache_rows (FlSim *sim, guint *rows, guint max_rows)
{
  const FlState *st = fl_sim_get_state (sim);
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
  guint touched = last_line (sim);
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

void
fl_paint_cache (FlPaintCtx *p)
{
  cairo_t *cr = p->cr;
  const FlPalette *pal = p->pal;
  const FlState *st = p->st;
  guint ncpus = st->sizes.ncpus;
  guint rows[MAX_ROWS];
  guint nrows = fl_cache_rows (p->sim, rows, MAX_ROWS);
  guint touched = last_line (p->sim);
  FlCounters k;
  fl_sim_get_counters (p->sim, &k);

  fl_paint_panel_background (p);
  g_autofree char *subtitle = g_strdup_printf ("%" G_GUINT64_FORMAT " transfers between CPUs",
                                               k.transfers);
  double top = fl_paint_header (p, "Cache lines", subtitle);
  double pad = p->fs * 0.6;

  FlLegendItem legend[4];
  char labels[4][32];
  for (guint m = 0; m < 4; m++)
    {
      g_snprintf (labels[m], sizeof labels[m], "%c %s", mesi_letters[m], mesi_names[m]);
      legend[m] = (FlLegendItem) { pal->mesi[m], labels[m], FL_LEGEND_BOX };
    }
  double legend_h = fl_paint_legend (p, pad, 0, p->w - 2 * pad, legend, 4, FALSE);
  double bottom = p->h - pad - legend_h - pad * 0.5;
  if (ncpus == 0 || nrows == 0)
    {
      fl_paint_legend (p, pad, p->h - pad - legend_h, p->w - 2 * pad, legend, 4, TRUE);
      return;
    }

  double size = p->fs * 0.9;
  double small = p->fs * 0.8;
  char buf[64], name[64];
  double name_w = 0;
  for (guint i = 0; i < nrows; i++)
    name_w = MAX (name_w, fl_text_width (p, FL_FONT_SANS, size,
                                         fl_sim_line_name (p->sim, rows[i], buf, sizeof buf)));
  double count_w = fl_text_width (p, FL_FONT_SANS, small, "transfers") + pad;
  g_snprintf (buf, sizeof buf, "cpu%u→cpu%u", ncpus - 1, ncpus - 1);
  double last_w = fl_text_width (p, FL_FONT_SANS, size, buf) + pad;
  /* names get what the cells (at a readable size) and the counts leave */
  double cells_min = ncpus * MIN (p->fs * 2.2, MAX (4.0, (p->w * 0.5) / ncpus));
  name_w = MIN (name_w + pad, MAX (p->w - 2 * pad - count_w - last_w - cells_min, p->w * 0.3));
  double cells_x = pad + name_w;
  double cells_w = p->w - pad - cells_x - count_w - last_w;
  if (cells_w < ncpus * 4)
    {
      /* too narrow for the "last" column: the marked cell says it */
      last_w = 0;
      cells_w = p->w - pad - cells_x - count_w;
    }
  double cw = MIN (cells_w / ncpus, p->fs * 3.2);
  double header_h = fl_text_height (p, FL_FONT_BOLD, small) + 4;
  double row_h = MIN ((bottom - top - header_h) / nrows, p->fs * 1.9);
  double cell_h = MAX (row_h - 3, 2.0);

  /* column heads: each CPU in its colour; numbers only, or every k-th, when narrow */
  g_snprintf (buf, sizeof buf, "cpu%u", ncpus - 1);
  gboolean words = fl_text_width (p, FL_FONT_BOLD, small, buf) + 4 <= cw;
  g_snprintf (buf, sizeof buf, "%u", ncpus - 1);
  guint stride = words ? 1 : (guint) ceil ((fl_text_width (p, FL_FONT_BOLD, small, buf) + 4) / cw);
  for (guint c = 0; c < ncpus; c += MAX (stride, 1u))
    {
      g_snprintf (buf, sizeof buf, words ? "cpu%u" : "%u", c);
      fl_text_draw (p, FL_FONT_BOLD, small, fl_palette_cpu (pal, c), cells_x + (c + 0.5) * cw, top,
                    0, FL_ALIGN_CENTER, buf);
    }
  double count_x = cells_x + ncpus * cw + pad * 0.5;
  fl_text_draw (p, FL_FONT_SANS, small, &pal->text_dim, count_x + count_w - pad * 0.5, top, 0,
                FL_ALIGN_RIGHT, "transfers");
  if (last_w > 0)
    fl_text_draw (p, FL_FONT_SANS, small, &pal->text_dim, count_x + count_w + pad * 0.5, top,
                  last_w, FL_ALIGN_LEFT, "last");

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
      const char *line_name = fl_sim_line_name (p->sim, rows[i], name, sizeof name);
      double line_th = fl_text_height (p, FL_FONT_SANS, size);
      fl_text_draw (p, rows[i] == touched ? FL_FONT_BOLD : FL_FONT_SANS, size, &pal->text, pad,
                    y + (row_h - line_th) / 2, name_w - pad * 0.5, FL_ALIGN_LEFT, line_name);
      gint last_to = (gint) l->last_to - 1, last_from = (gint) l->last_from - 1;
      for (guint c = 0; c < ncpus; c++)
        {
          FlMesi m = mesi_of (l, c);
          double x = cells_x + c * cw;
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
          if (letter >= p->fs * 0.6 && cw >= letter)
            {
              char s[2] = { mesi_letters[m], 0 };
              double lh = fl_text_height (p, FL_FONT_BOLD, letter);
              fl_text_draw (p, FL_FONT_BOLD, letter, fl_rgba_text_on (pal, &pal->mesi[m]),
                            x + cw / 2, y + (row_h - lh) / 2, cw, FL_ALIGN_CENTER, s);
            }
        }
      g_snprintf (buf, sizeof buf, "%u", l->transfers);
      fl_text_draw (p, FL_FONT_SANS, size, l->transfers ? &pal->text : &pal->text_dim,
                    count_x + count_w - pad * 0.5, y + (row_h - line_th) / 2, 0, FL_ALIGN_RIGHT, buf);
      if (last_w > 0 && last_to >= 0 && (guint) last_to < ncpus)
        {
          double x = count_x + count_w + pad * 0.5;
          double ty = y + (row_h - line_th) / 2;
          if (last_from >= 0 && (guint) last_from < ncpus)
            {
              g_snprintf (buf, sizeof buf, "cpu%d", last_from);
              x += fl_text_draw (p, FL_FONT_SANS, size, fl_palette_cpu (pal, (guint) last_from), x,
                                 ty, 0, FL_ALIGN_LEFT, buf);
            }
          x += fl_text_draw (p, FL_FONT_SANS, size, &pal->text_dim, x, ty, 0, FL_ALIGN_LEFT,
                             last_from >= 0 ? " → " : "→ ");
          g_snprintf (buf, sizeof buf, "cpu%d", last_to);
          fl_text_draw (p, FL_FONT_BOLD, size, fl_palette_cpu (pal, (guint) last_to), x, ty, 0,
                        FL_ALIGN_LEFT, buf);
        }
    }
  fl_paint_legend (p, pad, p->h - pad - legend_h, p->w - 2 * pad, legend, 4, TRUE);
}
