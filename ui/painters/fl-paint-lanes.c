/* fl-paint-lanes.c — one lane per CPU over simulated time, coloured by what the CPU does.
 *
 * A run can have a million events and 64 CPUs, so nothing here is drawn per event: each
 * pixel column of each lane asks which activity covered most of its time span (a binary
 * search by cycle in that CPU's events, then a handful of samples when the column holds many
 * events), equal neighbouring columns merge into one rectangle, and the rectangles of one
 * colour are filled as one path. Markers and arrows are thinned to one per pixel column. */
#include "fl-paint-lanes-private.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_EXACT      24     /* intervals in a column weighed exactly; beyond, sampled */
#define SAMPLES        12
#define MAX_ARROWS     256
#define IPI_ACK_WINDOW 4096   /* events searched for an IPI's acknowledgement */



static double
x_of (const TimeMap *m, guint64 t)
{
  if (t <= m->t0)
    return m->x0 - (double) (m->t0 - t) / (double) (m->t1 - m->t0) * m->w;
  return m->x0 + (double) (t - m->t0) / (double) (m->t1 - m->t0) * m->w;
}



static void
lane_pool_free (gpointer data)
{
  LanePool *pool = data;
  for (guint c = 0; c < pool->ncpus; c++)
    fl_lane_clear (&pool->lanes[c]);
  g_free (pool->lanes);
  g_clear_pointer (&pool->arrows_at, g_array_unref);
  g_clear_pointer (&pool->retries_at, g_array_unref);
  g_clear_pointer (&pool->findings, g_array_unref);
  g_free (pool);
}

static gboolean is_retry (const FlEvent *e);

/* The pass over the run's events for `ncpus` lanes (fl_run_get_index: made once per run),
 * reading the events a batch at a time from the run's packed log. */
static gpointer
lane_pool_build (const FlRun *run, gpointer data)
{
  guint ncpus = GPOINTER_TO_UINT (data);
  gsize n = fl_run_get_n_events (run);
  LanePool *pool = g_new0 (LanePool, 1);
  pool->arrows_at = g_array_new (FALSE, FALSE, sizeof (ArrowAt));
  pool->retries_at = g_array_new (FALSE, FALSE, sizeof (MarkAt));
  pool->findings = g_array_new (FALSE, FALSE, sizeof (FlEvent));
  pool->lanes = g_new0 (Lane, ncpus);
  pool->ncpus = ncpus;
  Lane *lanes = pool->lanes;

  FlLaneBuilder builder;
  fl_lane_builder_init (&builder, run, ncpus);
  g_autofree gsize *last_send = g_new (gsize, ncpus);
  g_autofree guint64 *last_send_cycle = g_new (guint64, ncpus);
  for (guint c = 0; c < ncpus; c++)
    last_send[c] = G_MAXSIZE;
  guint64 last = 0;
  enum { BATCH = 4096 };
  g_autofree FlEvent *batch = g_new (FlEvent, BATCH);
  gsize batch_first = 0, batch_len = 0;
  for (gsize i = 0; i < n; i++)
    {
      if (i >= batch_first + batch_len)
        {
          batch_first = i;
          batch_len = fl_run_get_events_range (run, i, BATCH, batch);
        }
      const FlEvent *e = &batch[i - batch_first];
      last = MAX (last, e->cycle);
      if (e->cpu >= ncpus)
        continue;
      if (e->kind == FL_EV_FINDING)
        {
          g_array_append_val (pool->findings, *e);
          continue;
        }
      FlLaneSegment seg[4];
      guint ns = fl_lane_builder_step (&builder, i, e, seg);
      for (guint k = 0; k < ns; k++)
        fl_lane_push (&lanes[e->cpu], seg[k].from, seg[k].act, e->step);
      if (e->kind == FL_EV_IPI_SEND)
        {
          last_send[e->cpu] = i;
          last_send_cycle[e->cpu] = e->cycle;
        }
      else if (e->kind == FL_EV_IPI_ACK && e->obj < ncpus)
        {
          /* An IPI_ACK names its sender; the send is the sender's last IPI_SEND before
           * it, within a window. */
          guint sender = e->obj;
          gsize j = last_send[sender];
          if (j != G_MAXSIZE && j < i && i - j < IPI_ACK_WINDOW)
            {
              ArrowAt ar = { last_send_cycle[sender], e->cycle, sender, e->cpu, e->step };
              g_array_append_val (pool->arrows_at, ar);
            }
        }
      else if (is_retry (e))
        {
          MarkAt mk = { e->cycle, e->cpu, e->step };
          g_array_append_val (pool->retries_at, mk);
        }
    }
  for (guint c = 0; c < ncpus; c++)
    if (lanes[c].m > 0)
      /* no step's: the cursor never passes it */
      fl_lane_push (&lanes[c], builder.end[c], FL_ACT_DONE, G_MAXUINT32);
  fl_lane_builder_clear (&builder);
  pool->last = last;
  return pool;
}

/* The lanes of `run`'s `ncpus` CPUs: the run keeps them, so every frame, thread and cursor
 * over it shares one pass over its events. */
const LanePool *
fl_lanes_pool_get (const FlRun *run, guint ncpus)
{
  static const char key;
  const LanePool *pool = fl_run_get_index (run, &key, lane_pool_build, GUINT_TO_POINTER (ncpus),
                                           lane_pool_free);
  g_assert (pool->ncpus == ncpus);
  return pool;
}

/* Where a lane's walk over its columns stands: time only moves forward across a lane, so
 * the searches of column_activity() advance instead of starting over. */
typedef struct {
  guint lo;     /* first k >= 1 with cycle(k) > ta */
  guint g;      /* first k >= 1 with cycle(k) > tb - 1 */
} LaneWalk;

/* What covered most of [ta, tb) on this CPU: an activity, or -1 for nothing. Interval k runs
 * from cycle(k-1) to cycle(k): segment k-1, in its activity. Columns must come in order of
 * time. */
static int
column_activity (const Lane *l, LaneWalk *w, guint64 ta, guint64 tb, guint *first_interval)
{
  guint m = l->m;
  if (m < 2)
    return -1;
  const guint64 *cyc = l->cyc;
  while (w->lo < m && cyc[w->lo] <= ta)
    w->lo++;
  guint lo = w->lo;
  if (lo >= m)
    return -1;
  guint64 tl = tb > 0 ? tb - 1 : 0;
  while (w->g < m && cyc[w->g] <= tl)
    w->g++;
  guint hi = MAX (lo, w->g);
  guint last = MIN (hi, m - 1);
  *first_interval = lo;
  if (cyc[lo - 1] >= tb)
    return -1;

  double weight[FL_ACT_N] = { 0 };
  if (last - lo < MAX_EXACT)
    {
      for (guint k = lo; k <= last; k++)
        {
          guint64 a = MAX (ta, cyc[k - 1]), b = MIN (tb, cyc[k]);
          guint act = l->act[k - 1];
          if (b > a && act < FL_ACT_N)
            weight[act] += (double) (b - a);
          else if (b == a && act < FL_ACT_N)
            weight[act] += 0.01;    /* an instant step still shows */
        }
    }
  else
    {
      for (guint s = 0; s < SAMPLES; s++)
        {
          guint64 t = ta + (guint64) ((double) (tb - ta) * (s + 0.5) / SAMPLES);
          guint k = fl_lane_first_after (l, lo, last + 1, t);
          if (k == 0 || k > last)
            continue;
          guint act = l->act[k - 1];
          if (act < FL_ACT_N)
            weight[act] += 1;
        }
    }
  int best = -1;
  for (guint a = 0; a < FL_ACT_N; a++)
    if (weight[a] > 0 && (best < 0 || weight[a] > weight[best]))
      best = (int) a;
  return best;
}

/* What each pixel column of each lane shows, for one time window and width: most of the
 * lanes' work, and a step changes none of it, so a widget keeps it (FlViewCache). Column
 * `col` spans [ta[col], ta[col + 1]), at least one cycle. */
typedef struct {
  gint8   *act;             /* [cpu * lw + col]: activity, -1 for nothing */
  guint32 *first;           /* [cpu * lw + col]: the column's first interval */
  guint64 *ta;              /* [col]: where the column's time span starts */
} Columns;

static void
lane_columns (const LanePool *pool, guint ncpus, guint64 t0, guint64 t1, guint lw, Columns *out)
{
  out->act = g_new (gint8, (gsize) ncpus * lw);
  out->first = g_new (guint32, (gsize) ncpus * lw);
  out->ta = g_new (guint64, lw + 1);
  for (guint col = 0; col <= lw; col++)
    out->ta[col] = t0 + (guint64) ((double) (t1 - t0) * col / lw);
  for (guint c = 0; c < ncpus; c++)
    {
      LaneWalk walk = { 1, 1 };
      gint8 *act = out->act + (gsize) c * lw;
      guint32 *first = out->first + (gsize) c * lw;
      for (guint col = 0; col < lw; col++)
        {
          guint64 ta = out->ta[col];
          guint64 tb = MAX (out->ta[col + 1], ta + 1);
          guint f = 0;
          act[col] = (gint8) column_activity (&pool->lanes[c], &walk, ta, tb, &f);
          first[col] = f;
        }
    }
}

static void
columns_clear (Columns *c)
{
  g_clear_pointer (&c->act, g_free);
  g_clear_pointer (&c->first, g_free);
  g_clear_pointer (&c->ta, g_free);
}

/* The lanes' part of a widget's FlViewCache: the columns of the last frame, and what they
 * were worked out for. */
struct _FlViewCache {
  FlRun   *run;             /* a reference; NULL when nothing is kept */
  guint    ncpus, lw;
  guint64  t0, t1;
  Columns  cols;
};

FlViewCache *
fl_view_cache_new (void)
{
  return g_new0 (FlViewCache, 1);
}

void
fl_view_cache_free (FlViewCache *cache)
{
  if (cache == NULL)
    return;
  columns_clear (&cache->cols);
  g_clear_pointer (&cache->run, fl_run_unref);
  g_free (cache);
}

/* The columns for this frame: the widget's kept ones when they were worked out for the same
 * run, CPUs, time window and width (a step changes none of it), else made now, into the
 * cache when there is one, else into `own` (the caller clears it). */
static const Columns *
frame_columns (const FlPaintCtx *p, const LanePool *pool, guint ncpus, guint64 t0, guint64 t1,
               guint lw, Columns *own)
{
  FlViewCache *vc = p->vp->cache;
  if (vc == NULL)
    {
      lane_columns (pool, ncpus, t0, t1, lw, own);
      return own;
    }
  if (vc->run == NULL || !fl_run_same (vc->run, p->run) || vc->ncpus != ncpus || vc->lw != lw
      || vc->t0 != t0 || vc->t1 != t1)
    {
      columns_clear (&vc->cols);
      g_clear_pointer (&vc->run, fl_run_unref);
      lane_columns (pool, ncpus, t0, t1, lw, &vc->cols);
      vc->run = fl_run_ref (p->run);
      vc->ncpus = ncpus;
      vc->lw = lw;
      vc->t0 = t0;
      vc->t1 = t1;
    }
  return &vc->cols;
}

typedef struct {
  GArray *rects[2 * FL_ACT_N];   /* x, y, w, h per activity, past then future */
} Batches;

static void
batch_add (Batches *b, guint key, double x, double y, double w, double h)
{
  if (b->rects[key] == NULL)
    b->rects[key] = g_array_new (FALSE, FALSE, sizeof (double));
  double r[4] = { x, y, w, h };
  g_array_append_vals (b->rects[key], r, 4);
}

static void
batch_fill (FlPaintCtx *p, Batches *b)
{
  for (guint key = 0; key < 2 * FL_ACT_N; key++)
    {
      if (b->rects[key] == NULL)
        continue;
      const double *r = (const double *) b->rects[key]->data;
      for (guint i = 0; i + 3 < b->rects[key]->len; i += 4)
        cairo_rectangle (p->cr, r[i], r[i + 1], r[i + 2], r[i + 3]);
      /* the future (after a seek back) is shown, faded */
      fl_set_rgba_alpha (p->cr, &p->pal->activity[key % FL_ACT_N], key >= FL_ACT_N ? 0.3 : 1.0);
      cairo_fill (p->cr);
      g_array_unref (b->rects[key]);
      b->rects[key] = NULL;
    }
}

/* An IPI arrow as drawn: from x `xa` on the sender's lane to `xb` on the target's, in the
 * sender's colour, faded when it lies ahead of the current step. */
typedef struct { double xa, xb; guint sender, target; double alpha; guint order; } Arrow;

/* By sender, then shade, then the order the events came in: one path per colour. */
static int
arrow_by_colour (gconstpointer pa, gconstpointer pb)
{
  const Arrow *a = pa, *b = pb;
  if (a->sender != b->sender)
    return a->sender < b->sender ? -1 : 1;
  if (a->alpha != b->alpha)
    return a->alpha < b->alpha ? -1 : 1;
  return a->order < b->order ? -1 : a->order > b->order;
}

static guint64
nice_step (double raw)
{
  if (raw < 1)
    return 1;
  double e = pow (10, floor (log10 (raw)));
  double f = raw / e;
  double n = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
  return (guint64) (n * e);
}

static void
fmt_us (double us, guint64 step_cycles, guint mhz, char *buf, gsize size)
{
  double step_us = (double) step_cycles / mhz;
  int decimals = step_us >= 1 ? 0 : step_us >= 0.1 ? 1 : step_us >= 0.01 ? 2 : 3;
  g_snprintf (buf, size, "%.*f", decimals, us);
}

/* The time ruler under the lanes: ticks with cycles, and microseconds under them. */
static void
draw_ruler (FlPaintCtx *p, const TimeMap *m, double y, double label_x, double size)
{
  cairo_t *cr = p->cr;
  guint mhz = p->config->cost.mhz;
  double line = fl_text_height (p, FL_FONT_SANS, size);
  char a[48], b[48];
  fl_format_count (m->t1, a, sizeof a);
  double label_w = fl_text_width (p, FL_FONT_SANS, size, a) + size * 2.5;
  guint64 step = nice_step (label_w / m->w * (double) (m->t1 - m->t0));
  fl_set_rgba (cr, &p->pal->grid);
  cairo_rectangle (cr, m->x0, y, m->w, 1);
  cairo_fill (cr);
  fl_text_draw (p, FL_FONT_SANS, size, &p->pal->text_dim, label_x, y + 4, m->x0 - label_x - 4,
                /* Translators: the unit of the lanes' upper time ruler, simulated cycles */
                FL_ALIGN_LEFT, _("cycles"));
  if (mhz)
    fl_text_draw (p, FL_FONT_SANS, size, &p->pal->text_dim, label_x, y + 4 + line,
                  /* Translators: the unit of the lanes' lower time ruler, microseconds */
                  m->x0 - label_x - 4, FL_ALIGN_LEFT, _("µs"));
  for (guint64 t = (m->t0 + step - 1) / step * step; t <= m->t1; t += step)
    {
      double x = floor (x_of (m, t)) + 0.5;
      fl_set_rgba (cr, &p->pal->text_dim);
      cairo_rectangle (cr, x - 0.5, y, 1, size * 0.4);
      cairo_fill (cr);
      fl_format_count (t, a, sizeof a);
      /* the last label must not run off the right edge */
      FlAlign align = x + fl_text_width (p, FL_FONT_SANS, size, a) / 2 > p->w - 2
                      ? FL_ALIGN_RIGHT : FL_ALIGN_CENTER;
      double ax = align == FL_ALIGN_RIGHT ? p->w - 2 : x;
      if (t == m->t0 && x - fl_text_width (p, FL_FONT_SANS, size, a) / 2 < m->x0 - 2)
        {
          align = FL_ALIGN_LEFT;
          ax = x;
        }
      fl_text_draw (p, FL_FONT_SANS, size, &p->pal->text_dim, ax, y + size * 0.45, 0, align, a);
      if (mhz)
        {
          fmt_us ((double) t / mhz, step, mhz, b, sizeof b);
          fl_text_draw (p, FL_FONT_SANS, size, &p->pal->text_dim, ax, y + size * 0.45 + line, 0,
                        align, b);
        }
      if (t > G_MAXUINT64 - step)
        break;
    }
}

static gboolean
mark_once (guint8 *seen, guint lw, guint cpu, double x, double x0)
{
  gint col = (gint) floor (x - x0);
  if (col < 0 || (guint) col >= lw)
    return FALSE;
  gsize bit = (gsize) cpu * lw + (guint) col;
  if (seen[bit / 8] & (1u << (bit % 8)))
    return FALSE;
  seen[bit / 8] |= 1u << (bit % 8);
  return TRUE;
}

static gboolean
is_retry (const FlEvent *e)
{
  return e->kind == FL_EV_CHECK && e->loc == FL_LOC_DO_PAGE_FAULT_spec_result && e->val == 0;
}

guint
fl_lanes_legend_items (FlPaintCtx *p, FlLegendItem *legend)
{
  const FlPalette *pal = p->pal;
  guint nl = 0;
  for (guint a = 0; a < FL_ACT_N; a++)
    if (a != FL_ACT_DONE)
      legend[nl++] = (FlLegendItem) { pal->activity[a], _(fl_activity_name (a)),
                                      a == FL_ACT_TURN ? FL_LEGEND_LINE : FL_LEGEND_BOX };
  /* Translators: legend entries of the lanes: a diamond marks a finding, a ring a fault
   * retried (VM_FAULT_RETRY is the kernel's name, keep it), an arrow an inter-processor
   * interrupt asking for a TLB flush */
  legend[nl++] = (FlLegendItem) { pal->error, _("finding"), FL_LEGEND_DIAMOND };
  legend[nl++] = (FlLegendItem) { pal->warning, _("retry (VM_FAULT_RETRY)"), FL_LEGEND_RING };
  legend[nl++] = (FlLegendItem) { pal->text_dim, _("TLB-flush IPI"), FL_LEGEND_ARROW };
  /* Translators: legend entry of the lanes: the small triangle over each lane */
  legend[nl++] = (FlLegendItem) { pal->text, _("the CPU's clock at this step"),
                                  FL_LEGEND_TRIANGLE };
  return nl;
}

static double
ruler_height (FlPaintCtx *p)
{
  double small = p->fs * 0.85;
  return small * 0.45 + fl_text_height (p, FL_FONT_SANS, small) * (p->config->cost.mhz ? 2 : 1) + 2;
}

/* The smallest lane height whose name still reads: below it, the view shows fewer lanes
 * and scrolls through them (lane_first) instead of squeezing every lane into a stripe that
 * no label can be matched with. */
#define LABEL_MIN_SIZE 10.5

static double
readable_lane_height (FlPaintCtx *p)
{
  return ceil (fl_text_height (p, FL_FONT_BOLD, MAX (LABEL_MIN_SIZE, p->fs * 0.8)) * 1.15);
}

double
fl_lanes_y (const Layout *g, guint cpu)
{
  return g->lanes_y + ((double) cpu - (double) g->first) * g->lane_h;
}

gboolean
fl_lanes_on_screen (const Layout *g, guint cpu)
{
  return cpu >= g->first && cpu < g->first + g->shown;
}

/* The height at which every lane is comfortable and nothing is left empty: what the
 * window's layout gives the lanes when the machine has few CPUs. */
double
fl_lanes_preferred_height (FlPaintCtx *p)
{
  FlLegendItem legend[FL_ACT_N + 4];
  guint nl = fl_lanes_legend_items (p, legend);
  double pad = p->fs * 0.6;
  double legend_h = fl_paint_legend (p, pad, 0, p->w - 2 * pad, legend, nl, FALSE);
  guint ncpus = MAX (p->st->sizes.ncpus, 1u);
  /* a few CPUs get roomy lanes; many get the readable minimum each, so an export of 256
   * CPUs shows every lane named rather than growing to metres */
  double lane = ncpus <= 16 ? p->fs * 2.2 : readable_lane_height (p);
  return fl_paint_header_height (p) + ncpus * lane + 2 + ruler_height (p) + pad * 0.8
         + legend_h + pad;
}


/* `last`: the latest cycle any event reached (fl_last_cycle()). */
void
fl_lanes_layout (FlPaintCtx *p, Layout *g, const FlLegendItem *legend, guint nl, guint64 last)
{
  guint ncpus = MAX (p->st->sizes.ncpus, 1u);
  double pad = p->fs * 0.6;

  g->top = fl_paint_header_height (p);
  /* legend at the bottom, ruler above it, lanes take the rest */
  g->legend_h = fl_paint_legend (p, pad, 0, p->w - 2 * pad, legend, nl, FALSE);
  g->ruler_h = ruler_height (p);
  g->lanes_y = g->top;
  g->lanes_h = p->h - pad - g->legend_h - pad * 0.8 - g->ruler_h - 2 - g->lanes_y;
  if (g->lanes_h < MIN (ncpus, 3u) * readable_lane_height (p))
    {
      /* too small for everything: lanes first */
      g->legend_h = 0;
      g->lanes_h = MAX (p->h - g->ruler_h - 2 - g->lanes_y, 1.0);
    }
  /* a few CPUs get comfortable lanes, not the whole height; many get at least a readable
   * height each, as many as fit, from lane_first on */
  double readable = readable_lane_height (p);
  g->shown = ncpus;
  if (g->lanes_h / ncpus < readable)
    g->shown = CLAMP ((guint) floor (g->lanes_h / readable), 1u, ncpus);
  g->first = MIN (p->vp->lane_first, ncpus - g->shown);
  if (g->shown == ncpus)
    g->lane_h = MIN (g->lanes_h / ncpus, MAX (p->fs * 2.6, g->lanes_h / 6));
  else
    g->lane_h = g->lanes_h / g->shown;
  g->lanes_h = g->lane_h * g->shown;
  g->ruler_y = g->lanes_y + g->lanes_h + 2;
  g->legend_y = g->ruler_y + g->ruler_h + pad * 0.8;

  /* labels in each CPU's colour, as large as the lane allows down to a still legible size;
   * when lanes are thinner than that, every k-th is named */
  g->label_size = MIN (p->fs, MAX (g->lane_h * 0.78, 9.5));
  g->label_h = fl_text_height (p, FL_FONT_BOLD, g->label_size);
  /* a name a little smaller rather than every other lane unnamed (line heights come in
   * steps, so a step at a time) */
  while (g->label_h * 1.05 > g->lane_h && g->label_size > LABEL_MIN_SIZE)
    {
      g->label_size = MAX (LABEL_MIN_SIZE, g->label_size - 0.5);
      g->label_h = fl_text_height (p, FL_FONT_BOLD, g->label_size);
    }
  char name[32];
  g_snprintf (name, sizeof name, "cpu%u", ncpus - 1);
  g->label_w = fl_text_width (p, FL_FONT_BOLD, g->label_size, name);
  g->swatch = MIN (g->lane_h * 0.7, p->fs * 0.5);
  g->stride = MAX ((guint) ceil (g->label_h * 1.05 / g->lane_h), 1u);

  g->m.x0 = pad + g->swatch + pad * 0.5 + g->label_w + pad;
  /* lanes that scroll keep room on the right for the bar that says where they are */
  g->m.w = MAX (p->w - g->m.x0 - pad - (g->shown < ncpus ? pad : 0), 1.0);
  if (p->vp->time_end > p->vp->time_start)
    {
      g->m.t0 = p->vp->time_start;
      g->m.t1 = p->vp->time_end;
    }
  else
    {
      g->m.t0 = 0;
      g->m.t1 = last > 0 ? last + last / 50 + 1 : 1000;
    }
  g->lw = (guint) ceil (g->m.w);
}

/* Where the cursor stands and the subtitle's cycle: the simulated time of this step, the
 * furthest any CPU's clock has got — the cycles of Counters and of `run` — which can lie past
 * where the last step ended, when that step was taken by a CPU behind in time. */
guint64
fl_lanes_now (FlPaintCtx *p)
{
  FlCounters counters;
  if (p->step == 0)
    return 0;
  fl_cursor_get_counters (p->cur, &counters);
  return counters.cycles;
}

/* Where the last step taken ended: what a CPU has been doing since its own last step is
 * drawn up to there. */
guint64
fl_lanes_last_end (const FlRun *run, guint64 step)
{
  if (step == 0)
    return 0;
  gsize lo = fl_run_find_step (run, step);
  return lo > 0 ? fl_run_get_event (run, lo - 1).cycle : 0;
}

/* Where one socket's CPUs end and the next's begin: a rule across the lanes, so that the
 * cross-socket transfers the costs come from can be told apart from the near ones. */
static void
draw_sockets (FlPaintCtx *p, const Layout *g)
{
  guint per = p->config->cores_per_socket, ncpus = p->st->sizes.ncpus;
  if (p->config->sockets < 2 || per == 0 || per >= ncpus || g->lane_h < 4)
    return;
  fl_set_rgba (p->cr, &p->pal->text_dim);
  for (guint c = MAX (g->first, 1u); c < g->first + g->shown; c++)
    if (c % per == 0)
      {
        cairo_rectangle (p->cr, p->fs * 0.3, floor (fl_lanes_y (g, c)) - 0.5,
                         g->m.x0 + g->m.w - p->fs * 0.3, 1.5);
        cairo_fill (p->cr);
      }
}

void
fl_paint_lanes (FlPaintCtx *p)
{
  cairo_t *cr = p->cr;
  const FlPalette *pal = p->pal;
  guint ncpus = p->st->sizes.ncpus;
  guint64 total = fl_cursor_get_total_steps (p->cur);
  guint mhz = p->config->cost.mhz;

  fl_paint_panel_background (p);
  char s1[48], s2[48], s3[48];
  fl_format_count (p->step, s1, sizeof s1);
  fl_format_count (total, s2, sizeof s2);
  g_autofree char *subtitle = NULL;
  guint64 now = fl_lanes_now (p);
  /* where the last step ended: what a CPU has been doing since its own last step is drawn
   * up to there */
  guint64 last_end = fl_lanes_last_end (p->run, p->step);
  fl_format_count (now, s3, sizeof s3);
  if (mhz)
    /* Translators: the lanes' subtitle: the step, the run's steps, the simulated cycle and
     * the time it stands for in microseconds */
    subtitle = g_strdup_printf (_("step %s of %s · cycle %s (%.2f µs)"), s1, s2, s3,
                                (double) now / mhz);
  else
    subtitle = g_strdup_printf (_("step %s of %s · cycle %s"), s1, s2, s3);
  if (ncpus == 0)
    {
      fl_paint_header (p, _("CPU lanes"), subtitle);
      return;
    }

  /* One forward pass over the events (or the last frame's, for the same events): each
   * CPU's steps for its lane, the latest cycle of the run (what fl_last_cycle() finds,
   * which the time axis needs), and the IPI arrows and markers to draw over the segments,
   * kept by cycle until the axis is known. */
  const LanePool *pool = fl_lanes_pool_get (p->run, ncpus);
  const Lane *lanes = pool->lanes;
  const GArray *arrows_at = pool->arrows_at, *retries_at = pool->retries_at;
  const GArray *findings = pool->findings;
  guint64 last = pool->last;
  guint64 step_now = p->step;
  /* how many of each lane's segments lie before the current step */
  g_autofree guint *boundary = g_new (guint, ncpus);
  for (guint c = 0; c < ncpus; c++)
    boundary[c] = fl_lane_boundary (&lanes[c], step_now);
  typedef struct { double x, y, alpha; } Mark;
  g_autoptr (GArray) arrow_list = g_array_new (FALSE, FALSE, sizeof (Arrow));
  g_autoptr (GArray) retries = g_array_new (FALSE, FALSE, sizeof (Mark));

  double pad = p->fs * 0.6;
  double small = p->fs * 0.85;
  FlLegendItem legend[FL_ACT_N + 4];
  guint nl = fl_lanes_legend_items (p, legend);
  Layout g;
  fl_lanes_layout (p, &g, legend, nl, last);
  if (g.shown < ncpus)
    {
      /* the picture says it shows part of the machine, and which part */
      g_autofree char *part = g_strdup_printf (
        /* Translators: the lanes' subtitle when only some lanes fit: the first and last CPU
         * shown, how many there are, then the step and cycle */
        _("cpu%u–cpu%u of %u · %s"), g.first, g.first + g.shown - 1, ncpus, subtitle);
      g_free (subtitle);
      subtitle = g_steal_pointer (&part);
    }
  fl_paint_header (p, _("CPU lanes"), subtitle);
  double lanes_y = g.lanes_y, lanes_h = g.lanes_h, lane_h = g.lane_h;
  double ruler_y = g.ruler_y, legend_y = g.legend_y, legend_h = g.legend_h;
  double label_size = g.label_size, label_h = g.label_h, label_w = g.label_w;
  double swatch = g.swatch;
  guint stride = g.stride, lw = g.lw;
  TimeMap m = g.m;
  char name[32];

  for (guint c = g.first; c < g.first + g.shown; c++)
    {
      double y = fl_lanes_y (&g, c);
      if (c % 2 == 1 && lane_h >= 4)
        {
          fl_set_rgba_alpha (cr, &pal->surface, 0.8);
          cairo_rectangle (cr, m.x0, y, m.w, lane_h);
          cairo_fill (cr);
        }
      fl_set_rgba (cr, fl_palette_cpu (pal, c));
      cairo_rectangle (cr, pad, y + (lane_h - swatch) / 2, swatch, swatch);
      cairo_fill (cr);
      if (c % stride == 0)
        {
          g_snprintf (name, sizeof name, "cpu%u", c);
          double ly = y + (lane_h - label_h) / 2;
          ly = CLAMP (ly, lanes_y - label_h * 0.2, lanes_y + lanes_h - label_h * 0.8);
          fl_text_draw (p, FL_FONT_BOLD, label_size, fl_palette_cpu (pal, c),
                        pad + swatch + pad * 0.5, ly, label_w + 2, FL_ALIGN_LEFT, name);
        }
    }
  draw_sockets (p, &g);
  if (g.shown < ncpus)
    {
      /* where the lanes on screen lie among all of them, as a scroll bar would show it */
      double track_x = m.x0 + m.w + pad * 0.25, track_w = MAX (pad * 0.45, 3.0);
      fl_set_rgba (cr, &pal->grid);
      fl_rounded_rect (cr, track_x, lanes_y, track_w, lanes_h, track_w / 2);
      cairo_fill (cr);
      double thumb_h = MAX (lanes_h * g.shown / ncpus, track_w * 2);
      double thumb_y = lanes_y + (lanes_h - thumb_h) * g.first / (ncpus - g.shown);
      fl_set_rgba (cr, &pal->text_dim);
      fl_rounded_rect (cr, track_x, thumb_y, track_w, thumb_h, track_w / 2);
      cairo_fill (cr);
    }

  /* arrows and retry markers, thinned to one per pixel column of a lane, in event order */
  gsize bits = (gsize) ncpus * lw;
  g_autofree guint8 *seen_arrow = g_malloc0 (bits / 8 + 1);
  g_autofree guint8 *seen_mark = g_malloc0 (bits / 8 + 1);
  for (guint k = 0; k < arrows_at->len && arrow_list->len < MAX_ARROWS; k++)
    {
      const ArrowAt *a = &g_array_index (arrows_at, ArrowAt, k);
      Arrow ar = { x_of (&m, a->ca), x_of (&m, a->cb), a->sender, a->target,
                   a->step >= step_now ? 0.35 : 0.95, arrow_list->len };
      if (!fl_lanes_on_screen (&g, a->sender) && !fl_lanes_on_screen (&g, a->target))
        continue;
      if (mark_once (seen_arrow, lw, a->target, ar.xb, m.x0))
        g_array_append_val (arrow_list, ar);
    }
  for (guint k = 0; k < retries_at->len; k++)
    {
      const MarkAt *a = &g_array_index (retries_at, MarkAt, k);
      Mark mk = { x_of (&m, a->cycle), fl_lanes_y (&g, a->cpu) + 0.5 * lane_h,
                  a->step >= step_now ? 0.45 : 1.0 };
      if (fl_lanes_on_screen (&g, a->cpu) && mark_once (seen_mark, lw, a->cpu, mk.x, m.x0))
        g_array_append_val (retries, mk);
    }

  /* the segments */
  Columns own = { NULL, NULL, NULL };
  const Columns *cols = frame_columns (p, pool, ncpus, m.t0, m.t1, lw, &own);
  Batches batches = { { NULL } };
  double inset = lane_h >= 6 ? MAX (1.0, lane_h * 0.14) : 0;
  for (guint c = g.first; c < g.first + g.shown; c++)
    {
      const Lane *l = &lanes[c];
      FlLaneOngoing ongoing;
      fl_lane_ongoing (l, boundary[c], p->st, c, last_end, &ongoing);
      double y = fl_lanes_y (&g, c) + inset;
      double h = lane_h - 2 * inset;
      int run_key = -1;
      guint run_start = 0;
      const gint8 *col_act = cols->act + (gsize) c * lw;
      const guint32 *col_first = cols->first + (gsize) c * lw;
      for (guint col = 0; col <= lw; col++)
        {
          int key = -1;
          if (col < lw)
            {
              guint64 ta = cols->ta[col];
              int act = col_act[col];
              gboolean future = act >= 0 && col_first[col] > boundary[c];
              act = fl_lane_shown (l, &ongoing, ta, act, &future);
              if (act >= 0 && act != FL_ACT_DONE)
                key = act + (future ? FL_ACT_N : 0);
            }
          if (key != run_key)
            {
              /* waiting for its turn is not running: a thin line, not a busy bar */
              if (run_key >= 0 && run_key % FL_ACT_N == FL_ACT_TURN)
                batch_add (&batches, (guint) run_key, m.x0 + run_start, y + h * 0.4,
                           col - run_start, MAX (h * 0.2, 1.0));
              else if (run_key >= 0)
                batch_add (&batches, (guint) run_key, m.x0 + run_start, y, col - run_start, h);
              run_key = key;
              run_start = col;
            }
        }
    }
  columns_clear (&own);
  cairo_save (cr);
  cairo_rectangle (cr, m.x0, lanes_y, m.w, lanes_h);
  cairo_clip (cr);
  batch_fill (p, &batches);

  /* IPIs: from the sender's send to the target's acknowledgement. The arrows of one sender
   * and one shade are one path, stroked and filled once: a stroke per arrow was half of a
   * 64-CPU frame. */
  cairo_set_line_width (cr, MAX (1.0, p->fs * 0.1));
  g_array_sort (arrow_list, arrow_by_colour);
  double head = MIN (p->fs * 0.5, MAX (lane_h * 0.5, 3.0));
  for (guint a = 0; a < arrow_list->len;)
    {
      const Arrow *first = &g_array_index (arrow_list, Arrow, a);
      guint end = a;
      while (end < arrow_list->len
             && g_array_index (arrow_list, Arrow, end).sender == first->sender
             && g_array_index (arrow_list, Arrow, end).alpha == first->alpha)
        end++;
      fl_set_rgba_alpha (cr, fl_palette_cpu (pal, first->sender), first->alpha);
      for (guint k = a; k < end; k++)
        {
          const Arrow *ar = &g_array_index (arrow_list, Arrow, k);
          cairo_move_to (cr, ar->xa, fl_lanes_y (&g, ar->sender) + 0.5 * lane_h);
          cairo_line_to (cr, ar->xb, fl_lanes_y (&g, ar->target)
                                     + (ar->target > ar->sender ? 0.2 : 0.8) * lane_h);
        }
      cairo_stroke (cr);
      for (guint k = a; k < end; k++)
        {
          const Arrow *ar = &g_array_index (arrow_list, Arrow, k);
          double ya = fl_lanes_y (&g, ar->sender) + 0.5 * lane_h;
          double xb = ar->xb;
          double yb = fl_lanes_y (&g, ar->target)
                      + (ar->target > ar->sender ? 0.2 : 0.8) * lane_h;
          double ang = atan2 (yb - ya, xb - ar->xa);
          cairo_move_to (cr, xb, yb);
          cairo_line_to (cr, xb - head * cos (ang - 0.45), yb - head * sin (ang - 0.45));
          cairo_line_to (cr, xb - head * cos (ang + 0.45), yb - head * sin (ang + 0.45));
          cairo_close_path (cr);
        }
      cairo_fill (cr);
      a = end;
    }

  /* retries, then findings, one marker per pixel column of a lane */
  double r = MIN (p->fs * 0.42, MAX (lane_h * 0.42, 2.5));
  for (guint k = 0; k < retries->len; k++)
    {
      const Mark *mk = &g_array_index (retries, Mark, k);
      cairo_new_sub_path (cr);
      cairo_arc (cr, mk->x, mk->y, r * 0.8, 0, 2 * G_PI);
      fl_set_rgba_alpha (cr, &pal->background, mk->alpha);
      cairo_fill_preserve (cr);
      fl_set_rgba_alpha (cr, &pal->warning, mk->alpha);
      cairo_set_line_width (cr, MAX (1.5, r * 0.35));
      cairo_stroke (cr);
    }
  for (guint k = 0; k < findings->len; k++)
    {
      const FlEvent *e = &g_array_index (findings, FlEvent, k);
      double x = x_of (&m, e->cycle);
      if (!fl_lanes_on_screen (&g, e->cpu) || !mark_once (seen_mark, lw, e->cpu, x, m.x0))
        continue;
      double y = fl_lanes_y (&g, e->cpu) + 0.5 * lane_h;
      double alpha = e->step >= p->step ? 0.45 : 1.0;
      /* a dark rim: a finding while spinning must not vanish in a red lane */
      fl_diamond (cr, x, y, r * 1.3);
      fl_set_rgba_alpha (cr, &pal->error, alpha);
      cairo_fill_preserve (cr);
      fl_set_rgba_alpha (cr, &pal->text, alpha);
      cairo_set_line_width (cr, 1.5);
      cairo_stroke (cr);
    }

  /* where each CPU's clock stands at this step */
  if (lane_h >= 8)
    for (guint c = g.first; c < g.first + g.shown; c++)
      {
        double x = x_of (&m, p->st->cpus[c].clock);
        double y = fl_lanes_y (&g, c) + inset;
        double s = MIN (lane_h * 0.3, p->fs * 0.4);
        fl_set_rgba (cr, &pal->text);
        cairo_move_to (cr, x, y + s);
        cairo_line_to (cr, x + s * 0.7, y);
        cairo_line_to (cr, x - s * 0.7, y);
        cairo_close_path (cr);
        cairo_fill (cr);
      }
  cairo_restore (cr);

  /* the cursor at the current step */
  if (p->step > 0)
    {
      double x = floor (x_of (&m, now)) + 0.5;
      if (x >= m.x0 - 1 && x <= m.x0 + m.w + 1)
        {
          fl_set_rgba (cr, &pal->accent);
          cairo_set_line_width (cr, 2);
          cairo_move_to (cr, x, lanes_y - 2);
          cairo_line_to (cr, x, ruler_y + 2);
          cairo_stroke (cr);
        }
    }

  draw_ruler (p, &m, ruler_y, pad, small);
  if (legend_h > 0)
    fl_paint_legend (p, pad, legend_y, p->w - 2 * pad, legend, nl, TRUE);
}
