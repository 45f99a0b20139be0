/* fl-paint-compare-table.c — the compare view's table: how long each whole run took, then
 * both runs' counters and cache-line transfers at the same moment, grouped by which way is
 * better, with B against A in words, and the findings. */
#include "fl-paint-compare-private.h"

#include <math.h>
#include <string.h>

/* A count for the table: exact up to a million, then in millions, so the columns stay
 * narrow enough to read on a slide (the CLI prints the exact numbers). */
static void
format_value (guint64 v, char *buf, gsize size)
{
  if (v >= 10000000)
    g_snprintf (buf, size, "%.1f M", v / 1e6);
  else if (v >= 1000000)
    g_snprintf (buf, size, "%.2f M", v / 1e6);
  else
    fl_format_count (v, buf, size);
}

/* A row's label as drawn: the counters' are translated, the lines' are kernel names. */
static const char *
row_label (const FlCompareRow *row)
{
  return row->line ? row->label : _(row->label);
}

/* The head of each group of counters: which way is better, said once for its rows. */
static const char *
better_head (FlBetter better)
{
  switch (better)
    {
    case FL_BETTER_HIGHER:
      /* Translators: the head of the compare table's rows where more is better */
      return _("higher is better");
    case FL_BETTER_LOWER:
      /* Translators: the head of the compare table's rows where less is better */
      return _("lower is better");
    case FL_BETTER_NEITHER:
    default:
      /* Translators: the head of the compare table's rows that count which path faults
       * took: neither more nor less is better */
      return _("which path: neither is better");
    }
}

/**
 * fl_compare_table_width:
 * Returns: the width the table's columns take at their natural sizes
 */
double
fl_compare_table_width (FlPaintCtx *p, GArray *rows)
{
  double size = p->fs * 0.9;
  double label_w = fl_text_width (p, FL_FONT_BOLD, size, _("cache-line transfers"));
  double num_w = 0, words_w = 0;
  char buf[64];
  for (guint i = 0; i < rows->len; i++)
    {
      const FlCompareRow *r = &g_array_index (rows, FlCompareRow, i);
      label_w = MAX (label_w, fl_text_width (p, FL_FONT_SANS, size, row_label (r)) + size);
      for (guint c = 0; c < 2; c++)
        {
          format_value (r->value[c], buf, sizeof buf);
          num_w = MAX (num_w, fl_text_width (p, FL_FONT_BOLD, size, buf));
        }
      g_autofree char *words = fl_compare_words (r->better, r->rate, r->value[0], r->value[1],
                                                 NULL);
      words_w = MAX (words_w, fl_text_width (p, FL_FONT_BOLD, size, words));
    }
  return MIN (label_w, p->fs * 12) + 2 * (num_w + size * 0.9) + words_w + size * 0.9;
}

void
fl_compare_table_init (FlCompareTable *t, FlPaintCtx *p, GArray *rows, const FlCompareRect *r)
{
  t->p = p;
  t->r = *r;
  t->size = p->fs * 0.9;
  t->line = fl_text_height (p, FL_FONT_SANS, t->size);
  t->row_h = t->line * 1.3;
  t->y = r->y;
  t->shown = 0;
  double num_w = fl_text_width (p, FL_FONT_BOLD, t->size, "00.0 M"), words_w = 0;
  char buf[64];
  for (guint i = 0; i < rows->len; i++)
    {
      const FlCompareRow *row = &g_array_index (rows, FlCompareRow, i);
      for (guint c = 0; c < 2; c++)
        {
          format_value (row->value[c], buf, sizeof buf);
          num_w = MAX (num_w, fl_text_width (p, FL_FONT_BOLD, t->size, buf));
        }
      g_autofree char *words = fl_compare_words (row->better, row->rate, row->value[0],
                                                 row->value[1], NULL);
      words_w = MAX (words_w, fl_text_width (p, FL_FONT_BOLD, t->size, words));
    }
  num_w += t->size * 0.9;
  words_w += t->size * 0.9;
  /* the numbers and the words keep their width while they can; the labels take the rest */
  double cols = 2 * num_w + words_w;
  if (cols > r->w * 0.72)
    {
      num_w *= r->w * 0.72 / cols;
      words_w *= r->w * 0.72 / cols;
    }
  t->num_w = num_w;
  t->words_w = words_w;
  t->label_w = r->w - 2 * num_w - words_w;
}

static void
table_cells (FlCompareTable *t, FlFont font, const FlRgba *ink, const char *const cells[4],
             const FlRgba *const cell_ink[4], double indent)
{
  FlPaintCtx *p = t->p;
  double x = t->r.x + t->label_w;
  fl_text_draw (p, font, t->size, ink, t->r.x + indent, t->y, t->label_w - indent - t->size * 0.4,
                FL_ALIGN_LEFT, cells[0]);
  for (guint c = 1; c < 3; c++)
    fl_text_draw (p, font, t->size, cell_ink[c] ? cell_ink[c] : ink, x + t->num_w * c, t->y,
                  t->num_w - t->size * 0.3, FL_ALIGN_RIGHT, cells[c]);
  fl_text_draw (p, font, t->size, cell_ink[3] ? cell_ink[3] : ink, t->r.x + t->r.w, t->y,
                t->words_w - t->size * 0.3, FL_ALIGN_RIGHT, cells[3]);
  t->y += t->row_h;
}

/* The column titles, or a section's title over the first column. */
void
fl_compare_table_head (FlCompareTable *t, const char *title, gboolean columns)
{
  static const FlRgba *const none[4] = { NULL };
  /* Translators: the head of the compare table's column saying B against A in words */
  const char *head[4] = { title, "A", "B", _("B against A") };
  if (columns)
    table_cells (t, FL_FONT_BOLD, &t->p->pal->text_dim, head, none, 0);
  else
    {
      fl_text_draw (t->p, FL_FONT_BOLD, t->size, &t->p->pal->text_dim, t->r.x, t->y, t->r.w,
                    FL_ALIGN_LEFT, title);
      t->y += t->row_h;
    }
  fl_set_rgba (t->p->cr, &t->p->pal->grid);
  cairo_rectangle (t->p->cr, t->r.x, floor (t->y - t->row_h * 0.12), t->r.w, 1);
  cairo_fill (t->p->cr);
}

double
fl_compare_table_whole_height (FlCompareTable *t)
{
  return t->row_h * 2 + t->line * 0.3;
}

/* How long each whole run took, whatever the step: the one comparison a moment's counters
 * cannot make, and the one a faster design is about. */
void
fl_compare_table_whole (FlCompareTable *t, FlCompare *cmp)
{
  FlPaintCtx *p = t->p;
  const FlPalette *pal = p->pal;
  guint64 a = fl_compare_run_cycles (cmp, 0), b = fl_compare_run_cycles (cmp, 1);
  char ca[48], cb[48];
  format_value (a, ca, sizeof ca);
  format_value (b, cb, sizeof cb);
  /* Translators: how many simulated cycles each compared run took from start to end */
  g_autofree char *line = g_strdup_printf (_("Whole runs: A %s cycles · B %s cycles"), ca, cb);
  fl_text_draw (p, FL_FONT_BOLD, t->size, &pal->text, t->r.x, t->y, t->r.w, FL_ALIGN_LEFT, line);
  t->y += t->row_h;
  int verdict = 0;
  g_autofree char *words = fl_compare_finish_words (a, b, &verdict);
  fl_text_draw (p, FL_FONT_BOLD, t->size, verdict > 0 ? &pal->accent : verdict < 0 ? &pal->error
                                                                                   : &pal->text_dim,
                t->r.x, t->y, t->r.w, FL_ALIGN_LEFT, words);
  t->y += t->row_h + t->line * 0.3;
}

/* The counters (lines FALSE), grouped by which way is better, or the lines' transfers
 * (TRUE), as many as fit above `bottom`; a note says how many were left out. */
void
fl_compare_table_rows (FlCompareTable *t, GArray *rows, gboolean lines, double bottom)
{
  FlPaintCtx *p = t->p;
  const FlPalette *pal = p->pal;
  char a[48], b[48];
  guint total = 0, drawn = 0;
  for (guint i = 0; i < rows->len; i++)
    total += g_array_index (rows, FlCompareRow, i).line == lines;
  for (guint better = FL_BETTER_HIGHER; better <= FL_BETTER_NEITHER; better++)
    {
      gboolean headed = lines;   /* the lines' head already says it */
      for (guint i = 0; i < rows->len; i++)
        {
          const FlCompareRow *row = &g_array_index (rows, FlCompareRow, i);
          if (row->line != lines || row->better != better)
            continue;
          /* keep a row for the note when some would be left out */
          if (t->y + t->row_h * (drawn + 1 < total ? 2 : 1) + (headed ? 0 : t->row_h) > bottom)
            {
              g_snprintf (a, sizeof a, g_dngettext (NULL, "+%u more", "+%u more", total - drawn),
                          total - drawn);
              fl_text_draw (p, FL_FONT_ITALIC, t->size * 0.9, &pal->text_dim, t->r.x + t->size,
                            t->y, t->r.w, FL_ALIGN_LEFT, a);
              t->y += t->row_h;
              return;
            }
          if (!headed)
            {
              fl_text_draw (p, FL_FONT_ITALIC, t->size * 0.9, &pal->text_dim, t->r.x, t->y,
                            t->r.w, FL_ALIGN_LEFT, better_head (better));
              t->y += t->row_h * 0.9;
              headed = TRUE;
            }
          if (t->shown++ % 2 == 0)
            {
              fl_set_rgba_alpha (p->cr, &pal->surface, 0.9);
              cairo_rectangle (p->cr, t->r.x - t->size * 0.3, t->y - t->row_h * 0.12,
                               t->r.w + t->size * 0.3, t->row_h);
              cairo_fill (p->cr);
            }
          format_value (row->value[0], a, sizeof a);
          format_value (row->value[1], b, sizeof b);
          int verdict = 0;
          g_autofree char *words = fl_compare_words (row->better, row->rate, row->value[0],
                                                     row->value[1], &verdict);
          const char *cells[4] = { row_label (row), a, b, words };
          const FlRgba *ink[4] = { NULL };
          gboolean same = row->value[0] == row->value[1];
          ink[3] = same || verdict == 0 ? &pal->text_dim
                   : verdict > 0 ? &pal->accent : &pal->error;
          if (!lines && strcmp (row->label, "findings") == 0)
            {
              ink[1] = row->value[0] ? &pal->error : NULL;
              ink[2] = row->value[1] ? &pal->error : NULL;
            }
          table_cells (t, same ? FL_FONT_SANS : FL_FONT_BOLD, &pal->text, cells, ink,
                       t->size * 0.6);
          drawn++;
        }
    }
}

/* The height the findings take: a title and, per run, its findings (two at most) or
 * "none". */
double
fl_compare_table_findings_height (FlCompareTable *t, FlCompare *cmp)
{
  guint n = 0;
  for (guint run = 0; run < 2; run++)
    n += CLAMP (fl_compare_findings_so_far (cmp->cur[run]), 1u, 2u);
  return t->line * 0.5 + t->line * 1.15 * (n + 1);
}

void
fl_compare_table_findings (FlCompareTable *t, FlCompare *cmp)
{
  FlPaintCtx *p = t->p;
  cairo_t *cr = p->cr;
  const FlPalette *pal = p->pal;
  double line = t->line, size = t->size, bottom = t->r.y + t->r.h;
  t->y += line * 0.5;
  if (t->y + line * 2 > bottom)
    return;
  fl_text_draw (p, FL_FONT_BOLD, size, &pal->text_dim, t->r.x, t->y, t->r.w, FL_ALIGN_LEFT,
                _("Findings"));
  t->y += line * 1.15;
  for (guint run = 0; run < 2 && t->y + line <= bottom; run++)
    {
      const GPtrArray *all = fl_run_get_findings (fl_cursor_get_run (cmp->cur[run]));
      guint64 step = fl_cursor_get_step (cmp->cur[run]);
      guint total = fl_compare_findings_so_far (cmp->cur[run]), drawn = 0;
      double x = t->r.x + fl_text_draw (p, FL_FONT_BOLD, size, &pal->text, t->r.x, t->y, 0,
                                        FL_ALIGN_LEFT, run ? "B  " : "A  ");
      double room = t->r.x + t->r.w - x;
      if (total == 0)
        {
          /* Translators: a compared run without findings */
          fl_text_draw (p, FL_FONT_ITALIC, size, &pal->text_dim, x, t->y, room, FL_ALIGN_LEFT,
                        _("none"));
          t->y += line * 1.15;
          continue;
        }
      for (guint i = 0; all && i < all->len; i++)
        {
          const FlFinding *f = g_ptr_array_index (all, i);
          if (f->step > step)
            continue;
          g_autofree char *text = NULL;
          /* the last line that fits says how many more there are */
          if (drawn == 1 && total > 2)
            text = g_strdup_printf (g_dngettext (NULL, "+%u more", "+%u more", total - 1),
                                    total - 1);
          else
            /* Translators: a finding: its kind (e.g. use-after-free), its step and its CPU */
            text = g_strdup_printf (_("%s · step %" PRIu64 " · cpu%u"),
                                    fl_finding_kind_name (f->kind), f->step, f->cpu);
          fl_diamond (cr, x + line * 0.3, t->y + line * 0.5, line * 0.3);
          fl_set_rgba (cr, &pal->error);
          cairo_fill (cr);
          fl_text_draw (p, FL_FONT_SANS, size, &pal->error, x + line * 0.8, t->y,
                        room - line * 0.8, FL_ALIGN_LEFT, text);
          t->y += line * 1.15;
          if (++drawn == 2 || t->y + line > bottom)
            break;
        }
    }
}

