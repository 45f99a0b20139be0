/* fl-paint-compare-lanes.c — one run's CPU lanes on the compare view's aligned axis. The
 * colours and their meaning are the lanes view's (fl-paint-lanes.c): each pixel column
 * shows what covered most of its time, the run's future after its cursor is faded, findings
 * are diamonds and retries rings. What differs is the axis: each column is a span of the
 * shared axis, turned into this run's cycles through the operation alignment. */
#include "fl-paint-compare-private.h"
#include "fl-lane-track.h"

#include <math.h>
#include <string.h>

#define MAX_EXACT 24     /* intervals in a column weighed exactly; beyond, sampled */
#define SAMPLES   12

/* Each CPU's lane as the lanes view builds it (fl-lane-track.c), in one pass over the
 * run's packed events. */
static FlLane *
lanes_build (const FlRun *run, guint ncpus)
{
  FlLane *lanes = g_new0 (FlLane, ncpus);
  FlLaneBuilder builder;
  fl_lane_builder_init (&builder, run, ncpus);
  FlEventReader r;
  fl_event_reader_init (&r, run);
  for (const FlEvent *e; (e = fl_event_reader_next (&r)) != NULL;)
    if (e->cpu < ncpus && e->kind != FL_EV_FINDING)
      {
        FlLaneSegment seg[4];
        guint n = fl_lane_builder_step (&builder, fl_event_reader_index (&r), e, seg);
        for (guint k = 0; k < n; k++)
          fl_lane_push (&lanes[e->cpu], seg[k].from, seg[k].act, e->step);
      }
  for (guint c = 0; c < ncpus; c++)
    if (lanes[c].m > 0)
      fl_lane_push (&lanes[c], builder.end[c], FL_ACT_DONE, G_MAXUINT32);
  fl_lane_builder_clear (&builder);
  return lanes;
}

static void
lanes_free (FlLane *lanes, guint ncpus)
{
  for (guint c = 0; c < ncpus; c++)
    fl_lane_clear (&lanes[c]);
  g_free (lanes);
}

/* What covered most of [ta, tb) on one CPU, as the lanes view decides it: interval k runs
 * from cycle(k-1) to cycle(k), segment k-1 of the lane. -1 for nothing; `first` is the
 * first interval, to tell the past from the future. */
static int
column_activity (const FlLane *l, guint64 ta, guint64 tb, guint *first)
{
  guint m = l->m;
  if (m < 2)
    return -1;
  guint lo = fl_lane_first_after (l, 1, m, ta);
  if (lo >= m || l->cyc[lo - 1] >= tb)
    return -1;
  guint last = MIN (fl_lane_first_after (l, lo, m, tb - 1), m - 1);
  *first = lo;
  double weight[FL_ACT_N] = { 0 };
  if (last - lo < MAX_EXACT)
    for (guint k = lo; k <= last; k++)
      {
        guint64 a = MAX (ta, l->cyc[k - 1]), b = MIN (tb, l->cyc[k]);
        guint act = l->act[k - 1];
        if (act < FL_ACT_N)
          weight[act] += b > a ? (double) (b - a) : 0.01;
      }
  else
    for (guint s = 0; s < SAMPLES; s++)
      {
        guint64 at = ta + (guint64) ((double) (tb - ta) * (s + 0.5) / SAMPLES);
        guint k = fl_lane_first_after (l, lo, last + 1, at);
        if (k > 0 && k <= last && l->act[k - 1] < FL_ACT_N)
          weight[l->act[k - 1]] += 1;
      }
  int best = -1;
  for (guint a = 0; a < FL_ACT_N; a++)
    if (weight[a] > 0 && (best < 0 || weight[a] > weight[best]))
      best = (int) a;
  return best;
}

static guint64
nice_cycles (double raw)
{
  if (raw < 1)
    return 1;
  double e = pow (10, floor (log10 (raw)));
  double f = raw / e;
  return (guint64) ((f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * e);
}

double
fl_compare_ruler_height (FlPaintCtx *p)
{
  double small = p->fs * 0.8;
  return small * 0.45 + fl_text_height (p, FL_FONT_SANS, small) + 2;
}

guint
fl_compare_legend_items (FlPaintCtx *p, FlLegendItem *items, guint max)
{
  const FlPalette *pal = p->pal;
  guint n = 0;
  for (guint a = 0; a < FL_ACT_N && n < max; a++)
    if (a != FL_ACT_DONE)
      items[n++] = (FlLegendItem) { pal->activity[a], _(fl_activity_name (a)),
                                    a == FL_ACT_TURN ? FL_LEGEND_LINE : FL_LEGEND_BOX };
  if (n + 4 <= max)
    {
      /* Translators: legend entries of the compared lanes: a diamond marks a finding, a
       * ring a fault that had to be retried */
      items[n++] = (FlLegendItem) { pal->error, _("finding"), FL_LEGEND_DIAMOND };
      items[n++] = (FlLegendItem) { pal->warning, _("retry"), FL_LEGEND_RING };
      /* the lanes view's words for the same mark, here under the lane's top edge */
      items[n++] = (FlLegendItem) { pal->text, _("the CPU's clock at this step"),
                                    FL_LEGEND_TRIANGLE_UP };
      /* Translators: legend entry of the compared lanes: the tick where each scenario
       * operation starts, which the two runs are aligned by */
      items[n++] = (FlLegendItem) { pal->text, _("an operation starts"), FL_LEGEND_TRIANGLE };
    }
  return n;
}

/* This run's own cycles under its lanes: ticks where its round numbers fall on the shared
 * axis, bunched where the run went faster than the other. */
static void
draw_ruler (FlPaintCtx *p, FlCompare *cmp, guint run, const FlCompareLanesBox *b, double y)
{
  cairo_t *cr = p->cr;
  double small = p->fs * 0.8;
  double span = b->s1 - b->s0;
  guint64 t0 = fl_compare_t_of (cmp, run, b->s0), t1 = fl_compare_t_of (cmp, run, b->s1);
  char buf[48];
  fl_format_count (MAX (t1, 1), buf, sizeof buf);
  double label_w = fl_text_width (p, FL_FONT_SANS, small, buf) + small * 2;
  guint64 step = nice_cycles (label_w / b->w * (double) (t1 - t0) * 1.5);
  fl_set_rgba (cr, &p->pal->grid);
  cairo_rectangle (cr, b->x, y, b->w, 1);
  cairo_fill (cr);
  fl_text_draw (p, FL_FONT_SANS, small, &p->pal->text_dim, b->x - p->fs * 0.6, y + small * 0.3,
                /* Translators: the unit beside a compared run's ruler of simulated cycles */
                b->label_w, FL_ALIGN_RIGHT, _("cycles"));
  double last_right = -1e9;
  for (guint64 t = (t0 + step - 1) / step * step; t <= t1; t += step)
    {
      double x = floor (b->x + (fl_compare_s_of (cmp, run, t) - b->s0) / span * b->w) + 0.5;
      fl_set_rgba (cr, &p->pal->text_dim);
      cairo_rectangle (cr, x - 0.5, y, 1, small * 0.4);
      cairo_fill (cr);
      fl_format_count (t, buf, sizeof buf);
      double tw = fl_text_width (p, FL_FONT_SANS, small, buf);
      double left = CLAMP (x - tw / 2, b->x - 2, b->x + b->w - tw);
      if (left > last_right + small * 0.6)
        {
          fl_text_draw (p, FL_FONT_SANS, small, &p->pal->text_dim, left, y + small * 0.45, 0,
                        FL_ALIGN_LEFT, buf);
          last_right = left + tw;
        }
      if (t > G_MAXUINT64 - step)
        break;
    }
}

typedef struct {
  GArray *rects[2 * FL_ACT_N];
} Batches;

static void
batch_add (Batches *bt, guint key, double x, double y, double w, double h)
{
  if (bt->rects[key] == NULL)
    bt->rects[key] = g_array_new (FALSE, FALSE, sizeof (double));
  double r[4] = { x, y, w, h };
  g_array_append_vals (bt->rects[key], r, 4);
}

static void
batch_fill (FlPaintCtx *p, Batches *bt)
{
  for (guint key = 0; key < 2 * FL_ACT_N; key++)
    {
      if (bt->rects[key] == NULL)
        continue;
      const double *r = (const double *) bt->rects[key]->data;
      for (guint i = 0; i + 3 < bt->rects[key]->len; i += 4)
        cairo_rectangle (p->cr, r[i], r[i + 1], r[i + 2], r[i + 3]);
      fl_set_rgba_alpha (p->cr, &p->pal->activity[key % FL_ACT_N], key >= FL_ACT_N ? 0.3 : 1.0);
      cairo_fill (p->cr);
      g_clear_pointer (&bt->rects[key], g_array_unref);
    }
}

/* Findings and retries, at most one marker per pixel column of a lane. */
static void
draw_markers (FlPaintCtx *p, FlCompare *cmp, guint run, const FlCompareLanesBox *b)
{
  cairo_t *cr = p->cr;
  guint ncpus = p->st->sizes.ncpus;
  guint lw = (guint) ceil (b->w);
  g_autofree guint8 *seen = g_malloc0 ((gsize) ncpus * lw / 8 + 1);
  double r = MIN (p->fs * 0.45, MAX (b->lane_h * 0.42, 2.5));
  FlEventReader reader;
  for (int pass = 0; pass < 2; pass++)
    for (fl_event_reader_init (&reader, p->run);;)
      {
        const FlEvent *e = fl_event_reader_next (&reader);
        if (e == NULL)
          break;
        gboolean finding = e->kind == FL_EV_FINDING;
        gboolean retry = e->kind == FL_EV_CHECK && e->loc == FL_LOC_DO_PAGE_FAULT_spec_result
                         && e->val == 0;
        if ((pass == 0 && !retry) || (pass == 1 && !finding) || e->cpu >= ncpus)
          continue;
        double x = b->x + (fl_compare_s_of (cmp, run, e->cycle) - b->s0) / (b->s1 - b->s0) * b->w;
        gint col = (gint) floor (x - b->x);
        if (col < 0 || (guint) col >= lw)
          continue;
        gsize bit = (gsize) e->cpu * lw + (guint) col;
        if (seen[bit / 8] & (1u << (bit % 8)))
          continue;
        seen[bit / 8] |= 1u << (bit % 8);
        double y = b->y + (e->cpu + 0.5) * b->lane_h;
        double alpha = e->step >= p->step ? 0.45 : 1.0;
        if (finding)
          {
            fl_diamond (cr, x, y, r * 1.3);
            fl_set_rgba_alpha (cr, &p->pal->error, alpha);
            cairo_fill_preserve (cr);
            fl_set_rgba_alpha (cr, &p->pal->text, alpha);
            cairo_set_line_width (cr, 1.5);
            cairo_stroke (cr);
          }
        else
          {
            cairo_new_sub_path (cr);
            cairo_arc (cr, x, y, r * 0.8, 0, 2 * G_PI);
            fl_set_rgba_alpha (cr, &p->pal->background, alpha);
            cairo_fill_preserve (cr);
            fl_set_rgba_alpha (cr, &p->pal->warning, alpha);
            cairo_set_line_width (cr, MAX (1.5, r * 0.35));
            cairo_stroke (cr);
          }
      }
}

/* Where each operation starts, a tick at the top of its lane: what the alignment lines up.
 * Left out when they would be closer than a few pixels. */
static void
draw_op_ticks (FlPaintCtx *p, FlCompare *cmp, guint run, const FlCompareLanesBox *b)
{
  guint ncpus = p->st->sizes.ncpus;
  g_autoptr (GArray) ops = g_array_new (FALSE, FALSE, sizeof (FlEvent));
  FlEventReader reader;
  fl_event_reader_init (&reader, p->run);
  for (const FlEvent *e; (e = fl_event_reader_next (&reader)) != NULL;)
    if (e->kind == FL_EV_OP)
      g_array_append_val (ops, *e);
  if (ops->len == 0 || (double) ops->len / MAX (ncpus, 1u) > b->w / 6)
    return;
  cairo_t *cr = p->cr;
  double h = MIN (b->lane_h * 0.35, p->fs * 0.5);
  for (guint i = 0; i < ops->len; i++)
    if (g_array_index (ops, FlEvent, i).cpu < ncpus)
      {
        const FlEvent *e = &g_array_index (ops, FlEvent, i);
        double x = b->x + (fl_compare_s_of (cmp, run, e->cycle) - b->s0) / (b->s1 - b->s0) * b->w;
        double y = b->y + e->cpu * b->lane_h;
        cairo_move_to (cr, x - h * 0.45, y);
        cairo_line_to (cr, x + h * 0.45, y);
        cairo_line_to (cr, x, y + h);
        cairo_close_path (cr);
      }
  fl_set_rgba (cr, &p->pal->text);
  cairo_fill (cr);
}

void
fl_compare_paint_lanes (FlPaintCtx *p, FlCompare *cmp, guint run, const FlCompareLanesBox *b)
{
  cairo_t *cr = p->cr;
  const FlPalette *pal = p->pal;
  guint ncpus = p->st->sizes.ncpus;
  if (ncpus == 0 || b->w < 2 || b->s1 <= b->s0)
    return;
  double lanes_h = b->lane_h * ncpus;
  double pad = p->fs * 0.6;

  /* names in each CPU's colour, every k-th when the lanes are thin */
  double label_size = MIN (p->fs * 0.9, MAX (b->lane_h * 0.78, 9.0));
  double label_h = fl_text_height (p, FL_FONT_BOLD, label_size);
  guint stride = MAX ((guint) ceil (label_h * 1.05 / b->lane_h), 1u);
  char name[32];
  for (guint c = 0; c < ncpus; c++)
    {
      double y = b->y + c * b->lane_h;
      if (c % 2 == 1 && b->lane_h >= 4)
        {
          fl_set_rgba_alpha (cr, &pal->surface, 0.8);
          cairo_rectangle (cr, b->x, y, b->w, b->lane_h);
          cairo_fill (cr);
        }
      if (c % stride == 0)
        {
          g_snprintf (name, sizeof name, "cpu%u", c);
          fl_text_draw (p, FL_FONT_BOLD, label_size, fl_palette_cpu (pal, c), b->x - pad * 0.5,
                        y + (b->lane_h - label_h) / 2, b->label_w, FL_ALIGN_RIGHT, name);
        }
    }

  FlLane *lanes = lanes_build (p->run, ncpus);
  Batches bt = { { NULL } };
  guint lw = (guint) ceil (b->w);
  guint64 now = fl_compare_now (p->cur);
  double inset = b->lane_h >= 6 ? MAX (1.0, b->lane_h * 0.14) : 0;
  for (guint c = 0; c < ncpus; c++)
    {
      const FlLane *l = &lanes[c];
      /* the CPU's steps taken so far, and what it has been doing since the last one */
      guint boundary = fl_lane_boundary (l, p->step);
      FlLaneOngoing ongoing;
      fl_lane_ongoing (l, boundary, p->st, c, now, &ongoing);
      double y = b->y + c * b->lane_h + inset, h = b->lane_h - 2 * inset;
      int run_key = -1;
      guint run_start = 0;
      for (guint col = 0; col <= lw; col++)
        {
          int key = -1;
          if (col < lw)
            {
              double sa = b->s0 + (b->s1 - b->s0) * col / lw;
              double sb = b->s0 + (b->s1 - b->s0) * (col + 1) / lw;
              guint64 ta = fl_compare_t_of (cmp, run, sa);
              guint64 tb = MAX (fl_compare_t_of (cmp, run, sb), ta + 1);
              guint first = 0;
              int act = column_activity (l, ta, tb, &first);
              gboolean future = act >= 0 && first > boundary;
              act = fl_lane_shown (l, &ongoing, ta, act, &future);
              if (act >= 0 && act != FL_ACT_DONE)
                key = act + (future ? FL_ACT_N : 0);
            }
          if (key != run_key)
            {
              /* waiting for its turn is not running: a thin line, as the lanes view draws it */
              if (run_key >= 0 && run_key % FL_ACT_N == FL_ACT_TURN)
                batch_add (&bt, (guint) run_key, b->x + run_start, y + h * 0.4, col - run_start,
                           MAX (h * 0.2, 1.0));
              else if (run_key >= 0)
                batch_add (&bt, (guint) run_key, b->x + run_start, y, col - run_start, h);
              run_key = key;
              run_start = col;
            }
        }
    }
  lanes_free (lanes, ncpus);

  cairo_save (cr);
  cairo_rectangle (cr, b->x - p->fs, b->y - 1, b->w + 2 * p->fs, lanes_h + 2);
  cairo_clip (cr);
  batch_fill (p, &bt);
  draw_op_ticks (p, cmp, run, b);
  draw_markers (p, cmp, run, b);
  /* where each CPU's own clock stands, under the lane's top edge, as the lanes view marks it */
  if (b->lane_h >= 8)
    for (guint c = 0; c < ncpus; c++)
      {
        double x = b->x + (fl_compare_s_of (cmp, run, p->st->cpus[c].clock) - b->s0)
                   / (b->s1 - b->s0) * b->w;
        double y = b->y + (c + 1) * b->lane_h - inset;
        double s = MIN (b->lane_h * 0.3, p->fs * 0.4);
        fl_set_rgba (cr, &pal->text);
        cairo_move_to (cr, x, y - s);
        cairo_line_to (cr, x + s * 0.7, y);
        cairo_line_to (cr, x - s * 0.7, y);
        cairo_close_path (cr);
        cairo_fill (cr);
      }
  cairo_restore (cr);

  /* the cursor: where this run's last step taken ended */
  if (p->step > 0)
    {
      double x = floor (b->x + (fl_compare_s_of (cmp, run, now) - b->s0) / (b->s1 - b->s0) * b->w)
                 + 0.5;
      fl_set_rgba (cr, &pal->accent);
      cairo_set_line_width (cr, 2);
      cairo_move_to (cr, x, b->y - 2);
      cairo_line_to (cr, x, b->y + lanes_h + 4);
      cairo_stroke (cr);
    }
  draw_ruler (p, cmp, run, b, b->y + lanes_h + 2);
}
