/* fl-paint-compare.c — the compare view: one scenario under two configurations, their lanes
 * aligned by operation (fl-paint-compare-align.c, fl-paint-compare-lanes.c), a header per
 * run naming the switches that differ, and a table of both runs' counters and cache-line
 * transfers with B − A and B / A. */
#include "fl-paint-compare-private.h"
#include "fl-export-range.h"

#include <math.h>
#include <string.h>

/* Transfers of the struct page lines, counted together as the run summary does. */
#define STRUCT_PAGES "struct pages"

/**
 * fl_compare_new:
 * @a: run A (borrowed: it must outlive the comparison)
 * @b: run B, the same scenario under other switches
 *
 * Both runs should have been run to their end (fl_sim_run()) so every operation can be
 * aligned; the alignment is built again whenever either run records more events.
 *
 * Returns: (transfer full): the comparison
 */
FlCompare *
fl_compare_new (FlSim *a, FlSim *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, NULL);
  FlCompare *cmp = g_new0 (FlCompare, 1);
  cmp->sim[0] = a;
  cmp->sim[1] = b;
  cmp->layout = FL_COMPARE_STACKED;
  fl_compare_align (cmp);
  return cmp;
}

void
fl_compare_free (FlCompare *cmp)
{
  if (cmp == NULL)
    return;
  g_clear_pointer (&cmp->anchors, g_array_unref);
  g_free (cmp);
}

FlSim *
fl_compare_get_sim (FlCompare *cmp, guint run)
{
  g_return_val_if_fail (cmp != NULL && run < 2, NULL);
  return cmp->sim[run];
}

void
fl_compare_set_layout (FlCompare *cmp, FlCompareLayout layout)
{
  g_return_if_fail (cmp != NULL);
  cmp->layout = layout;
}

FlCompareLayout
fl_compare_get_layout (FlCompare *cmp)
{
  g_return_val_if_fail (cmp != NULL, FL_COMPARE_STACKED);
  return cmp->layout;
}

/**
 * fl_compare_switches:
 * @cmp: a comparison
 * @run: 0 for A, 1 for B
 *
 * Returns: (transfer full): the switches of @run that differ from the other run's, as
 *   "key=value" joined by ", ", or "same switches" when none do
 */
char *
fl_compare_switches (FlCompare *cmp, guint run)
{
  g_return_val_if_fail (cmp != NULL && run < 2, NULL);
  const FlConfig *mine = fl_sim_get_config (cmp->sim[run]);
  const FlConfig *other = fl_sim_get_config (cmp->sim[1 - run]);
  GString *s = g_string_new (NULL);
  for (const char *const *key = fl_config_keys (); *key; key++)
    {
      g_autofree char *v = fl_config_get (mine, *key);
      g_autofree char *w = fl_config_get (other, *key);
      if (g_strcmp0 (v, w) != 0)
        g_string_append_printf (s, "%s%s=%s", s->len ? ", " : "", *key, v ? v : "");
    }
  if (s->len == 0)
    /* Translators: in place of the switches that differ, when the two runs share all */
    g_string_append (s, _("same switches"));
  return g_string_free (s, FALSE);
}

/**
 * fl_compare_sync:
 * @cmp: a comparison
 *
 * Seeks run B to the moment run A's current step shows (fl_compare_map_step()): the two
 * cursors move together.
 *
 * Returns: %TRUE when B could be seeked there
 */
gboolean
fl_compare_sync (FlCompare *cmp)
{
  g_return_val_if_fail (cmp != NULL, FALSE);
  guint64 step = fl_compare_map_step (cmp, 0, fl_sim_get_step (cmp->sim[0]));
  return fl_sim_seek (cmp->sim[1], step);
}

static guint
findings_so_far (FlSim *sim)
{
  GPtrArray *all = fl_sim_get_findings (sim);
  guint64 step = fl_sim_get_step (sim);
  guint n = 0;
  for (guint i = 0; all && i < all->len; i++)
    n += ((const FlFinding *) g_ptr_array_index (all, i))->step <= step;
  return n;
}

/* Two names of one fixed line (the rwsem's line is named after its layout): the part
 * before the parenthesis when they share it. */
static char *
line_label (const char *a, const char *b)
{
  if (strcmp (a, b) == 0)
    return g_strdup (a);
  const char *pa = strstr (a, " ("), *pb = strstr (b, " (");
  gsize la = pa ? (gsize) (pa - a) : strlen (a), lb = pb ? (gsize) (pb - b) : strlen (b);
  if (la == lb && strncmp (a, b, la) == 0)
    return g_strndup (a, la);
  return g_strdup_printf ("%s / %s", a, b);
}

static void
row_clear (gpointer data)
{
  g_free (((FlCompareRow *) data)->label);
}

static int
by_transfers (gconstpointer x, gconstpointer y)
{
  const FlCompareRow *a = x, *b = y;
  guint64 ma = MAX (a->value[0], a->value[1]), mb = MAX (b->value[0], b->value[1]);
  if (ma != mb)
    return ma > mb ? -1 : 1;
  return g_strcmp0 (a->label, b->label);
}

/**
 * fl_compare_rows:
 * @cmp: a comparison
 *
 * The table of the compare view: faults (total, speculative, retried, locked, errors),
 * cycles, transfers and findings of both runs at their current steps, then the transfers
 * of each cache line that moved in either run, busiest first.
 *
 * Returns: (transfer full) (element-type FlCompareRow): the rows; freeing the array frees
 *   their labels
 */
GArray *
fl_compare_rows (FlCompare *cmp)
{
  g_return_val_if_fail (cmp != NULL, NULL);
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (FlCompareRow));
  g_array_set_clear_func (rows, row_clear);
  FlCounters k[2];
  fl_sim_get_counters (cmp->sim[0], &k[0]);
  fl_sim_get_counters (cmp->sim[1], &k[1]);
  /* The counters' labels stay untranslated here (the table tells "findings" by its label);
   * row_label() translates them where they are drawn. */
  const struct { const char *label; guint64 a, b; } counters[] = {
    /* Translators: the counters compared in the comparison table, one row each */
    { N_("faults"), k[0].total, k[1].total },
    { N_("speculative"), k[0].speculative, k[1].speculative },
    { N_("retried"), k[0].retried, k[1].retried },
    { N_("locked"), k[0].locked, k[1].locked },
    { N_("errors"), k[0].errors, k[1].errors },
    { N_("cycles"), k[0].cycles, k[1].cycles },
    { N_("transfers"), k[0].transfers, k[1].transfers },
    { N_("findings"), findings_so_far (cmp->sim[0]), findings_so_far (cmp->sim[1]) },
  };
  for (guint i = 0; i < G_N_ELEMENTS (counters); i++)
    {
      FlCompareRow row = { g_strdup (counters[i].label), { counters[i].a, counters[i].b }, FALSE };
      g_array_append_val (rows, row);
    }

  /* lines: fixed ones by id (both runs have them), object lines by name */
  g_autoptr (GArray) lines = g_array_new (FALSE, TRUE, sizeof (FlCompareRow));
  g_array_set_clear_func (lines, row_clear);
  g_autoptr (GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);
  char buf[64], other[64];
  for (guint run = 0; run < 2; run++)
    {
      FlSim *sim = cmp->sim[run];
      const FlState *st = fl_sim_get_state (sim);
      for (guint l = 1; l < st->sizes.nlines; l++)
        {
          if (st->lines[l].transfers == 0)
            continue;
          char *label;
          if (l < FL_LINE_N_FIXED)
            label = line_label (fl_sim_line_name (cmp->sim[0], l, buf, sizeof buf),
                                fl_sim_line_name (cmp->sim[1], l, other, sizeof other));
          else
            label = g_strdup (fl_sim_line_name (sim, l, buf, sizeof buf));
          gpointer found = NULL;
          if (g_hash_table_lookup_extended (by_name, label, NULL, &found))
            {
              g_array_index (lines, FlCompareRow, GPOINTER_TO_UINT (found)).value[run]
                += st->lines[l].transfers;
              g_free (label);
              continue;
            }
          FlCompareRow row = { label, { 0, 0 }, TRUE };
          row.value[run] = st->lines[l].transfers;
          g_hash_table_insert (by_name, label, GUINT_TO_POINTER (lines->len));
          g_array_append_val (lines, row);
        }
    }
  guint64 pages[2] = { fl_sim_get_state (cmp->sim[0])->g->page_transfers,
                       fl_sim_get_state (cmp->sim[1])->g->page_transfers };
  if (pages[0] || pages[1])
    {
      FlCompareRow row = { g_strdup (STRUCT_PAGES), { pages[0], pages[1] }, TRUE };
      g_array_append_val (lines, row);
    }
  g_hash_table_remove_all (by_name);
  g_array_sort (lines, by_transfers);
  /* the labels move to `rows`; `lines` must not free them */
  g_array_set_clear_func (lines, NULL);
  g_array_append_vals (rows, lines->data, lines->len);
  return rows;
}

/* ---- drawing ---------------------------------------------------------------------------- */

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

static void
format_delta (guint64 a, guint64 b, char *buf, gsize size)
{
  char num[48];
  if (a == b)
    {
      g_strlcpy (buf, "0", size);
      return;
    }
  format_value (b > a ? b - a : a - b, num, sizeof num);
  g_snprintf (buf, size, "%s%s", b > a ? "+" : "−", num);
}

static void
format_ratio (guint64 a, guint64 b, char *buf, gsize size)
{
  if (a == 0)
    /* Translators: the ratio B / A of a count that was zero in run A */
    g_strlcpy (buf, b == 0 ? "—" : _("new"), size);
  else
    {
      double r = (double) b / (double) a;
      g_snprintf (buf, size, r >= 100 ? "%.0f×" : r >= 10 ? "%.1f×" : "%.2f×", r);
    }
}

typedef struct {
  double x, y, w, h;
} Rect;

/* A row's label as drawn: the counters' are translated, the lines' are kernel names. */
static const char *
row_label (const FlCompareRow *row)
{
  return row->line ? row->label : _(row->label);
}

/* The number columns' natural width, and the labels' (capped: long names are ellipsized). */
static void
table_widths (FlPaintCtx *p, GArray *rows, double *label_w, double *num_w)
{
  double size = p->fs * 0.9;
  *label_w = fl_text_width (p, FL_FONT_BOLD, size, _("cache-line transfers"));
  *num_w = fl_text_width (p, FL_FONT_BOLD, size, "B − A");
  char buf[64];
  for (guint i = 0; i < rows->len; i++)
    {
      const FlCompareRow *r = &g_array_index (rows, FlCompareRow, i);
      *label_w = MAX (*label_w, fl_text_width (p, FL_FONT_SANS, size, row_label (r)) + size);
      for (guint c = 0; c < 2; c++)
        {
          format_value (r->value[c], buf, sizeof buf);
          *num_w = MAX (*num_w, fl_text_width (p, FL_FONT_BOLD, size, buf));
        }
      format_delta (r->value[0], r->value[1], buf, sizeof buf);
      *num_w = MAX (*num_w, fl_text_width (p, FL_FONT_BOLD, size, buf));
    }
  *label_w = MIN (*label_w, p->fs * 12);
  *num_w += size * 0.9;
}

typedef struct {
  FlPaintCtx *p;
  Rect        r;
  double      label_w, num_w;
  double      size, line, row_h;
  double      y;
  guint       shown;        /* rows drawn, for the stripes */
} Table;

static void
table_init (Table *t, FlPaintCtx *p, GArray *rows, const Rect *r)
{
  t->p = p;
  t->r = *r;
  t->size = p->fs * 0.9;
  t->line = fl_text_height (p, FL_FONT_SANS, t->size);
  t->row_h = t->line * 1.3;
  t->y = r->y;
  t->shown = 0;
  double label_w, num_w;
  table_widths (p, rows, &label_w, &num_w);
  /* numbers keep their width while they can; the labels take the rest */
  if (4 * num_w > r->w * 0.72)
    num_w = r->w * 0.72 / 4;
  t->num_w = num_w;
  t->label_w = r->w - 4 * num_w;
}

static void
table_cells (Table *t, FlFont font, const FlRgba *ink, const char *const cells[5],
             const FlRgba *const cell_ink[5], double indent)
{
  FlPaintCtx *p = t->p;
  fl_text_draw (p, font, t->size, ink, t->r.x + indent, t->y, t->label_w - indent - t->size * 0.4,
                FL_ALIGN_LEFT, cells[0]);
  for (guint c = 1; c < 5; c++)
    fl_text_draw (p, font, t->size, cell_ink[c] ? cell_ink[c] : ink,
                  t->r.x + t->label_w + t->num_w * c, t->y, t->num_w - t->size * 0.3,
                  FL_ALIGN_RIGHT, cells[c]);
  t->y += t->row_h;
}

/* The column titles, or a section's title over the first column. */
static void
table_head (Table *t, const char *title, gboolean columns)
{
  static const FlRgba *const none[5] = { NULL };
  const char *head[5] = { title, "A", "B", "B − A", "B / A" };
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

/* The counters (lines FALSE) or the lines' transfers (TRUE), as many as fit above
 * `bottom`; a note says how many were left out. */
static void
table_rows (Table *t, GArray *rows, gboolean lines, double bottom)
{
  FlPaintCtx *p = t->p;
  const FlPalette *pal = p->pal;
  char a[48], b[48], d[48], r[48];
  guint total = 0, drawn = 0;
  for (guint i = 0; i < rows->len; i++)
    total += g_array_index (rows, FlCompareRow, i).line == lines;
  for (guint i = 0; i < rows->len; i++)
    {
      const FlCompareRow *row = &g_array_index (rows, FlCompareRow, i);
      if (row->line != lines)
        continue;
      /* keep a row for the note when some would be left out */
      if (t->y + t->row_h * (drawn + 1 < total ? 2 : 1) > bottom)
        {
          g_snprintf (a, sizeof a, g_dngettext (NULL, "+%u more", "+%u more", total - drawn),
                      total - drawn);
          fl_text_draw (p, FL_FONT_ITALIC, t->size * 0.9, &pal->text_dim, t->r.x + t->size,
                        t->y, t->r.w, FL_ALIGN_LEFT, a);
          t->y += t->row_h;
          return;
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
      format_delta (row->value[0], row->value[1], d, sizeof d);
      format_ratio (row->value[0], row->value[1], r, sizeof r);
      const char *cells[5] = { row_label (row), a, b, d, r };
      const FlRgba *ink[5] = { NULL };
      gboolean same = row->value[0] == row->value[1];
      ink[3] = ink[4] = same ? &pal->text_dim : NULL;
      if (!lines && strcmp (row->label, "findings") == 0)
        {
          ink[1] = row->value[0] ? &pal->error : NULL;
          ink[2] = row->value[1] ? &pal->error : NULL;
        }
      table_cells (t, same ? FL_FONT_SANS : FL_FONT_BOLD, &pal->text, cells, ink,
                   lines ? t->size * 0.6 : 0);
      drawn++;
    }
}

/* The height the findings take: a title and, per run, its findings (two at most) or
 * "none". */
static double
findings_height (Table *t, FlCompare *cmp)
{
  guint n = 0;
  for (guint run = 0; run < 2; run++)
    n += CLAMP (findings_so_far (cmp->sim[run]), 1u, 2u);
  return t->line * 0.5 + t->line * 1.15 * (n + 1);
}

static void
table_findings (Table *t, FlCompare *cmp)
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
      GPtrArray *all = fl_sim_get_findings (cmp->sim[run]);
      guint64 step = fl_sim_get_step (cmp->sim[run]);
      guint total = findings_so_far (cmp->sim[run]), drawn = 0;
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

/* A run's title line: a badge with its letter, the switches that make it differ, and its
 * step and findings on the right. Returns its height. */
static double
run_header (FlPaintCtx *p, FlCompare *cmp, guint run, double x, double y, double w)
{
  cairo_t *cr = p->cr;
  const FlPalette *pal = p->pal;
  double size = p->fs;
  double line = fl_text_height (p, FL_FONT_BOLD, size);
  const char *letter = run ? "B" : "A";
  double bw = line * 1.15;
  fl_rounded_rect (cr, x, y, bw, line, line * 0.2);
  fl_set_rgba (cr, run ? &pal->text : &pal->accent);
  cairo_fill (cr);
  fl_text_draw (p, FL_FONT_BOLD, size, run ? &pal->background : fl_rgba_text_on (pal, &pal->accent),
                x + bw / 2, y, bw, FL_ALIGN_CENTER, letter);

  FlSim *sim = cmp->sim[run];
  char s1[48], s2[48];
  fl_format_count (fl_sim_get_step (sim), s1, sizeof s1);
  fl_format_count (fl_sim_get_total_steps (sim), s2, sizeof s2);
  guint nf = findings_so_far (sim);
  g_autofree char *right = g_strdup_printf (_("step %s / %s"), s1, s2);
  g_autofree char *found = nf ? g_strdup_printf (g_dngettext (NULL, "%u finding", "%u findings",
                                                              nf), nf)
                              : g_strdup (_("no findings"));
  double small = p->fs * 0.85;
  double fw = fl_text_draw (p, FL_FONT_BOLD, small, nf ? &pal->error : &pal->text_dim, x + w,
                            y + (line - fl_text_height (p, FL_FONT_SANS, small)) / 2, w * 0.3,
                            FL_ALIGN_RIGHT, found);
  double rw = fl_text_draw (p, FL_FONT_SANS, small, &pal->text_dim, x + w - fw - small,
                            y + (line - fl_text_height (p, FL_FONT_SANS, small)) / 2, w * 0.4,
                            FL_ALIGN_RIGHT, right);
  g_autofree char *switches = fl_compare_switches (cmp, run);
  fl_text_draw (p, FL_FONT_BOLD, size, &pal->text, x + bw + size * 0.5, y,
                w - bw - size * 1.5 - fw - rw - small, FL_ALIGN_LEFT, switches);
  return line;
}

typedef struct {
  FlPaintCtx *p[2];
  GArray     *rows;
} View;

static double
block_height (FlPaintCtx *p, guint ncpus, double lane_h)
{
  return fl_text_height (p, FL_FONT_BOLD, p->fs) + p->fs * 0.5 + ncpus * lane_h + 2
         + fl_compare_ruler_height (p);
}

/* One run: its title line, its lanes and its own cycles under them. */
static void
paint_block (View *v, FlCompare *cmp, guint run, const Rect *r, double lane_h, double label_w)
{
  FlPaintCtx *p = v->p[run];
  double pad = p->fs * 0.6;
  double y = r->y + run_header (p, cmp, run, r->x, r->y, r->w) + p->fs * 0.5;
  FlCompareLanesBox box = {
    .x = r->x + label_w + pad, .y = y, .w = r->w - label_w - pad, .lane_h = lane_h,
    .s0 = 0, .s1 = fl_compare_s_end (cmp) * 1.02 + 1, .label_w = label_w,
  };
  fl_compare_paint_lanes (p, cmp, run, &box);
}

static void
paint_compare (View *v, FlCompare *cmp)
{
  FlPaintCtx *p = v->p[0];
  cairo_t *cr = p->cr;
  const FlPalette *pal = p->pal;
  fl_paint_panel_background (p);
  const FlScenario *sc = fl_sim_get_scenario (cmp->sim[0]);
  g_autofree char *title = g_strdup_printf (_("Compare · %s"), sc && sc->id ? sc->id
                                                                             : _("scenario"));
  double top = fl_paint_header (p, title, _("lanes aligned by scenario operation"));
  double pad = p->fs * 0.6;
  guint nc[2] = { MAX (p->st->sizes.ncpus, 1u), MAX (v->p[1]->st->sizes.ncpus, 1u) };

  double label_w = 0, num_w = 0;
  table_widths (p, v->rows, &label_w, &num_w);
  char name[32];
  g_snprintf (name, sizeof name, "cpu%u", MAX (nc[0], nc[1]) - 1);
  double cpu_w = fl_text_width (p, FL_FONT_BOLD, p->fs * 0.9, name) + pad;
  FlLegendItem legend[FL_ACT_N + 4];
  guint nl = fl_compare_legend_items (p, legend, G_N_ELEMENTS (legend));

  Rect lanes, table;
  double avail_h = p->h - top - pad;
  Table t;
  if (cmp->layout == FL_COMPARE_STACKED)
    {
      double table_w = CLAMP (label_w + 4 * num_w, p->w * 0.3, p->w * 0.47);
      table = (Rect) { p->w - pad - table_w, top, table_w, avail_h };
      lanes = (Rect) { pad, top, p->w - table_w - 4 * pad, avail_h };
    }
  else
    {
      /* the table under the lanes in two columns: counters and findings, then the lines */
      table = (Rect) { pad, 0, p->w - 2 * pad, 0 };
      table_init (&t, p, v->rows, &table);
      guint counters = 0;
      for (guint i = 0; i < v->rows->len; i++)
        counters += !g_array_index (v->rows, FlCompareRow, i).line;
      table.h = MIN (avail_h * 0.55, t.row_h * (counters + 1) + findings_height (&t, cmp));
      table.y = p->h - pad - table.h;
      lanes = (Rect) { pad, top, p->w - 2 * pad, avail_h - table.h - pad * 1.5 };
    }
  double legend_h = fl_paint_legend (p, lanes.x, 0, lanes.w, legend, nl, FALSE);
  double room = lanes.h - legend_h - pad;

  /* lanes as tall as the room allows, up to comfortable */
  double fixed = block_height (p, 0, 0);
  double lane_h;
  if (cmp->layout == FL_COMPARE_STACKED)
    lane_h = (room - 2 * fixed - pad * 1.5) / (nc[0] + nc[1]);
  else
    lane_h = (room - fixed) / MAX (nc[0], nc[1]);
  lane_h = CLAMP (lane_h, 2.0, p->fs * 3.2);

  if (cmp->layout == FL_COMPARE_STACKED)
    {
      Rect a = { lanes.x, lanes.y, lanes.w, block_height (p, nc[0], lane_h) };
      Rect b = { lanes.x, a.y + a.h + pad * 1.5, lanes.w, block_height (p, nc[1], lane_h) };
      paint_block (v, cmp, 0, &a, lane_h, cpu_w);
      fl_set_rgba (cr, &pal->grid);
      cairo_rectangle (cr, lanes.x, floor (b.y - pad * 0.75), lanes.w, 1);
      cairo_fill (cr);
      paint_block (v, cmp, 1, &b, lane_h, cpu_w);
      fl_paint_legend (p, lanes.x, b.y + b.h + pad, lanes.w, legend, nl, TRUE);
      fl_set_rgba (cr, &pal->grid);
      cairo_rectangle (cr, table.x - 1.5 * pad, top, 1, avail_h);
      cairo_fill (cr);

      table_init (&t, p, v->rows, &table);
      table_head (&t, "", TRUE);
      table_rows (&t, v->rows, FALSE, table.y + table.h);
      t.y += t.row_h * 0.3;
      table_head (&t, _("cache-line transfers"), FALSE);
      table_rows (&t, v->rows, TRUE, table.y + table.h - findings_height (&t, cmp));
      table_findings (&t, cmp);
    }
  else
    {
      double half = (lanes.w - 2 * pad) / 2;
      double bh = block_height (p, MAX (nc[0], nc[1]), lane_h);
      Rect a = { lanes.x, lanes.y, half, bh };
      Rect b = { lanes.x + half + 2 * pad, lanes.y, half, bh };
      paint_block (v, cmp, 0, &a, lane_h, cpu_w);
      paint_block (v, cmp, 1, &b, lane_h, cpu_w);
      fl_set_rgba (cr, &pal->grid);
      cairo_rectangle (cr, lanes.x + half + pad, lanes.y, 1, bh);
      cairo_fill (cr);
      fl_paint_legend (p, lanes.x, lanes.y + bh + pad, lanes.w, legend, nl, TRUE);
      /* the table right under the legend when the lanes left room */
      table.y = MIN (table.y, lanes.y + bh + pad + legend_h + pad * 2);
      table.h = p->h - pad - table.y;

      Rect left = { table.x, table.y, half, table.h };
      Rect right = { table.x + half + 2 * pad, table.y, half, table.h };
      table_init (&t, p, v->rows, &left);
      table_head (&t, "", TRUE);
      table_rows (&t, v->rows, FALSE, left.y + left.h);
      table_findings (&t, cmp);
      table_init (&t, p, v->rows, &right);
      table_head (&t, _("cache-line transfers"), TRUE);
      table_rows (&t, v->rows, TRUE, right.y + right.h);
    }
}

/**
 * fl_paint_compare:
 * @cr: where to draw: the view fills (0, 0, width, height)
 * @cmp: the comparison; each run is drawn at its current step (see fl_compare_sync())
 * @viewport: size and font scale
 * @palette: colours
 *
 * Draws the compare view. Leaves @cr as it found it and both runs untouched.
 */
void
fl_paint_compare (cairo_t *cr, FlCompare *cmp, const FlViewport *viewport,
                  const FlPalette *palette)
{
  g_return_if_fail (cr != NULL && cmp != NULL && viewport != NULL && palette != NULL);
  if (viewport->width < 1 || viewport->height < 1)
    return;
  /* below the size it is laid out for, drawn at that size and scaled down */
  double scale = MIN (1.0, MIN (viewport->width / 960.0, viewport->height / 540.0));
  FlViewport vp = *viewport;
  vp.width /= scale;
  vp.height /= scale;
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, viewport->width, viewport->height);
  cairo_clip (cr);
  cairo_scale (cr, scale, scale);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  FlPaintCtx pa, pb;
  fl_paint_ctx_init (&pa, cr, cmp->sim[0], &vp, palette);
  fl_paint_ctx_init (&pb, cr, cmp->sim[1], &vp, palette);
  g_autoptr (GArray) rows = fl_compare_rows (cmp);
  View v = { { &pa, &pb }, rows };
  paint_compare (&v, cmp);
  cairo_restore (cr);
}

typedef struct {
  FlCompare        *cmp;
  const FlViewport *viewport;
  const FlPalette  *palette;
} ExportData;

static void
draw_compare (cairo_t *cr, gpointer data)
{
  ExportData *d = data;
  fl_paint_compare (cr, d->cmp, d->viewport, d->palette);
}

/**
 * fl_export_compare:
 * @cmp: the comparison, drawn at both runs' current steps
 * @viewport: size in pixels (PNG) or points (SVG, PDF) and font scale
 * @palette: colours
 * @format: "png", "svg" or "pdf"
 * @path: the file to write (replaced atomically)
 * @error: return location for a #GError
 *
 * Returns: %TRUE when the file was written
 */
gboolean
fl_export_compare (FlCompare *cmp, const FlViewport *viewport, const FlPalette *palette,
                   const char *format, const char *path, GError **error)
{
  g_return_val_if_fail (cmp != NULL && viewport != NULL && palette != NULL, FALSE);
  ExportData d = { cmp, viewport, palette };
  const FlScenario *sc = fl_sim_get_scenario (cmp->sim[0]);
  /* Translators: the title of an exported comparison; %s is the scenario's id */
  g_autofree char *title = g_strdup_printf (_("Faultline: compare %s"), sc ? sc->id : "");
  return fl_export_drawing (draw_compare, &d, viewport->width, viewport->height, title, format,
                            path, error);
}
