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
 * @a: run A
 * @b: run B, the same scenario under other switches
 *
 * The comparison holds both runs and moves cursors of its own over them, at step 0 to
 * begin with (fl_compare_seek()).
 *
 * Returns: (transfer full): the comparison
 */
FlCompare *
fl_compare_new (const FlRun *a, const FlRun *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, NULL);
  FlCompare *cmp = g_new0 (FlCompare, 1);
  cmp->cur[0] = fl_cursor_new (a);
  cmp->cur[1] = fl_cursor_new (b);
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
  fl_cursor_free (cmp->cur[0]);
  fl_cursor_free (cmp->cur[1]);
  g_free (cmp);
}

/**
 * fl_compare_get_cursor:
 * @cmp: a comparison
 * @run: 0 for A, 1 for B
 *
 * Returns: (transfer none): the comparison's cursor on that run
 */
const FlCursor *
fl_compare_get_cursor (FlCompare *cmp, guint run)
{
  g_return_val_if_fail (cmp != NULL && run < 2, NULL);
  return cmp->cur[run];
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
  const FlConfig *mine = fl_run_get_config (fl_cursor_get_run (cmp->cur[run]));
  const FlConfig *other = fl_run_get_config (fl_cursor_get_run (cmp->cur[1 - run]));
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
 * fl_compare_seek:
 * @cmp: a comparison
 * @step: a step of run A
 *
 * Moves A's cursor to @step and B's to the moment that step shows (fl_compare_map_step()):
 * the two cursors move together.
 *
 * Returns: %TRUE when both could be moved there
 */
gboolean
fl_compare_seek (FlCompare *cmp, guint64 step)
{
  g_return_val_if_fail (cmp != NULL, FALSE);
  if (!fl_cursor_seek (cmp->cur[0], step))
    return FALSE;
  return fl_cursor_seek (cmp->cur[1], fl_compare_map_step (cmp, 0, step));
}

guint
fl_compare_findings_so_far (const FlCursor *cur)
{
  const GPtrArray *all = fl_run_get_findings (fl_cursor_get_run (cur));
  guint64 step = fl_cursor_get_step (cur);
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
  fl_cursor_get_counters (cmp->cur[0], &k[0]);
  fl_cursor_get_counters (cmp->cur[1], &k[1]);
  /* The counters' labels stay untranslated here (the table tells "findings" by its label);
   * row_label() translates them where they are drawn. */
  guint64 rate[2];
  for (guint run = 0; run < 2; run++)
    {
      /* faults per simulated second so far: what the 2010 numbers compare */
      guint mhz = fl_run_get_config (fl_cursor_get_run (cmp->cur[run]))->cost.mhz;
      rate[run] = k[run].cycles ? (guint64) ((double) k[run].total * mhz * 1e6
                                             / (double) k[run].cycles)
                                : 0;
    }
  const struct {
    const char *label;
    guint64 a, b;
    FlBetter better;
    gboolean rate, if_any;
  } counters[] = {
    /* Translators: the counters compared in the comparison table, one row each ("faults/s":
     * faults per simulated second) */
    { N_("faults"), k[0].total, k[1].total, FL_BETTER_HIGHER, FALSE, FALSE },
    { N_("faults/s"), rate[0], rate[1], FL_BETTER_HIGHER, TRUE, TRUE },
    { N_("speculative"), k[0].speculative, k[1].speculative, FL_BETTER_NEITHER, FALSE, FALSE },
    { N_("retried"), k[0].retried, k[1].retried, FL_BETTER_LOWER, FALSE, FALSE },
    /* Translators: in the comparison table, the retried faults whose walk of the VMA tree
     * without mmap_sem missed a VMA the tree held (shown only when a run has one) */
    { N_("missed VMA lookups"), k[0].missed, k[1].missed, FL_BETTER_LOWER, FALSE, TRUE },
    { N_("locked"), k[0].locked, k[1].locked, FL_BETTER_NEITHER, FALSE, FALSE },
    { N_("errors"), k[0].errors, k[1].errors, FL_BETTER_LOWER, FALSE, FALSE },
    { N_("cycles"), k[0].cycles, k[1].cycles, FL_BETTER_LOWER, FALSE, FALSE },
    { N_("transfers"), k[0].transfers, k[1].transfers, FL_BETTER_LOWER, FALSE, FALSE },
    { N_("findings"), fl_compare_findings_so_far (cmp->cur[0]),
      fl_compare_findings_so_far (cmp->cur[1]), FL_BETTER_LOWER, FALSE, FALSE },
  };
  for (guint i = 0; i < G_N_ELEMENTS (counters); i++)
    {
      /* a row that says nothing when both are 0: the rate before any time passed, a rare
       * race's count where neither run met it */
      if (counters[i].if_any && counters[i].a == 0 && counters[i].b == 0)
        continue;
      FlCompareRow row = { g_strdup (counters[i].label), { counters[i].a, counters[i].b }, FALSE,
                           counters[i].better, counters[i].rate };
      g_array_append_val (rows, row);
    }

  /* lines: fixed ones by id (both runs have them), object lines by name */
  g_autoptr (GArray) lines = g_array_new (FALSE, TRUE, sizeof (FlCompareRow));
  g_array_set_clear_func (lines, row_clear);
  g_autoptr (GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);
  char buf[64], other[64];
  for (guint run = 0; run < 2; run++)
    {
      const FlCursor *cur = cmp->cur[run];
      const FlState *st = fl_cursor_get_state (cur);
      for (guint l = 1; l < st->sizes.nlines; l++)
        {
          if (st->lines[l].transfers == 0)
            continue;
          char *label;
          if (l < FL_LINE_N_FIXED)
            label = line_label (fl_cursor_line_name (cmp->cur[0], l, buf, sizeof buf),
                                fl_cursor_line_name (cmp->cur[1], l, other, sizeof other));
          else
            label = g_strdup (fl_cursor_line_name (cur, l, buf, sizeof buf));
          gpointer found = NULL;
          if (g_hash_table_lookup_extended (by_name, label, NULL, &found))
            {
              g_array_index (lines, FlCompareRow, GPOINTER_TO_UINT (found)).value[run]
                += st->lines[l].transfers;
              g_free (label);
              continue;
            }
          FlCompareRow row = { label, { 0, 0 }, TRUE, FL_BETTER_LOWER, FALSE };
          row.value[run] = st->lines[l].transfers;
          g_hash_table_insert (by_name, label, GUINT_TO_POINTER (lines->len));
          g_array_append_val (lines, row);
        }
    }
  guint64 pages[2] = { fl_cursor_get_state (cmp->cur[0])->g->page_transfers,
                       fl_cursor_get_state (cmp->cur[1])->g->page_transfers };
  if (pages[0] || pages[1])
    {
      FlCompareRow row = { g_strdup (STRUCT_PAGES), { pages[0], pages[1] }, TRUE,
                           FL_BETTER_LOWER, FALSE };
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

  const FlCursor *cur = cmp->cur[run];
  char s1[48], s2[48];
  fl_format_count (fl_cursor_get_step (cur), s1, sizeof s1);
  fl_format_count (fl_cursor_get_total_steps (cur), s2, sizeof s2);
  guint nf = fl_compare_findings_so_far (cur);
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

typedef FlCompareRect Rect;
typedef FlCompareTable Table;

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
  const FlScenario *sc = fl_run_get_scenario (fl_cursor_get_run (cmp->cur[0]));
  g_autofree char *title = g_strdup_printf (_("Compare · %s"), sc && sc->id ? sc->id
                                                                             : _("scenario"));
  const char *axis = cmp->axis == FL_COMPARE_AXIS_CYCLES
    /* Translators: the compare view's subtitle: what its time axis measures */
    ? _("one time axis: both runs in cycles")
    : cmp->axis == FL_COMPARE_AXIS_FIT ? _("each run fitted to the width: not one time")
                                       : _("lanes aligned by scenario operation");
  double top = fl_paint_header (p, title, axis);
  double pad = p->fs * 0.6;
  guint nc[2] = { MAX (p->st->sizes.ncpus, 1u), MAX (v->p[1]->st->sizes.ncpus, 1u) };

  double natural_w = fl_compare_table_width (p, v->rows);
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
      double table_w = CLAMP (natural_w, p->w * 0.3, p->w * 0.47);
      table = (Rect) { p->w - pad - table_w, top, table_w, avail_h };
      lanes = (Rect) { pad, top, p->w - table_w - 4 * pad, avail_h };
    }
  else
    {
      /* the table under the lanes in two columns: counters and findings, then the lines */
      table = (Rect) { pad, 0, p->w - 2 * pad, 0 };
      fl_compare_table_init (&t, p, v->rows, &table);
      guint counters = 0;
      for (guint i = 0; i < v->rows->len; i++)
        counters += !g_array_index (v->rows, FlCompareRow, i).line;
      /* the counters under their heads of which way is better, and the whole runs */
      table.h = MIN (avail_h * 0.55, t.row_h * (counters + 4) + fl_compare_table_whole_height (&t)
                                     + fl_compare_table_findings_height (&t, cmp));
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

      fl_compare_table_init (&t, p, v->rows, &table);
      fl_compare_table_whole (&t, cmp);
      fl_compare_table_head (&t, "", TRUE);
      fl_compare_table_rows (&t, v->rows, FALSE, table.y + table.h);
      t.y += t.row_h * 0.3;
      fl_compare_table_head (&t, _("cache-line transfers: lower is better"), FALSE);
      fl_compare_table_rows (&t, v->rows, TRUE,
                             table.y + table.h - fl_compare_table_findings_height (&t, cmp));
      fl_compare_table_findings (&t, cmp);
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
      fl_compare_table_init (&t, p, v->rows, &left);
      fl_compare_table_whole (&t, cmp);
      fl_compare_table_head (&t, "", TRUE);
      fl_compare_table_rows (&t, v->rows, FALSE, left.y + left.h);
      fl_compare_table_findings (&t, cmp);
      fl_compare_table_init (&t, p, v->rows, &right);
      /* the title across the column, the heads under it: the title is too long for the
       * labels' column */
      fl_compare_table_head (&t, _("cache-line transfers: lower is better"), FALSE);
      fl_compare_table_head (&t, "", TRUE);
      fl_compare_table_rows (&t, v->rows, TRUE, right.y + right.h);
    }
}

/**
 * fl_paint_compare:
 * @cr: where to draw: the view fills (0, 0, width, height)
 * @cmp: the comparison; each run is drawn at its current step (see fl_compare_seek())
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
  FlViewport vp;
  if (!fl_paint_scaled_begin (cr, viewport, 960.0, 540.0, &vp))
    return;
  FlPaintCtx pa, pb;
  fl_paint_ctx_init (&pa, cr, cmp->cur[0], &vp, palette);
  fl_paint_ctx_init (&pb, cr, cmp->cur[1], &vp, palette);
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
  const FlScenario *sc = fl_run_get_scenario (fl_cursor_get_run (cmp->cur[0]));
  /* Translators: the title of an exported comparison; %s is the scenario's id */
  g_autofree char *title = g_strdup_printf (_("Faultline: compare %s"), sc ? sc->id : "");
  return fl_export_drawing (draw_compare, &d, viewport->width, viewport->height, title, format,
                            path, error);
}
