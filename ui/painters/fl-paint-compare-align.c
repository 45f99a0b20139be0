/* fl-paint-compare-align.c — the time warp that lines two runs of one scenario up by
 * operation (see fl-paint-compare.h for the choice), and the step mapping the compare
 * view's cursor moves through. */
#include "fl-paint-compare-private.h"

#include <math.h>
#include <string.h>

/* Per CPU, the cycles at which the CPU started each scenario operation, in order. */
static GArray **
op_starts (const FlRun *run, guint ncpus)
{
  GArray **out = g_new (GArray *, ncpus);
  for (guint c = 0; c < ncpus; c++)
    out[c] = g_array_new (FALSE, FALSE, sizeof (guint64));
  FlEventReader r;
  fl_event_reader_init (&r, run);
  for (const FlEvent *e; (e = fl_event_reader_next (&r)) != NULL;)
    if (e->kind == FL_EV_OP && e->cpu < ncpus)
      g_array_append_val (out[e->cpu], e->cycle);
  return out;
}

static void
op_starts_free (GArray **starts, guint ncpus)
{
  for (guint c = 0; c < ncpus; c++)
    g_array_unref (starts[c]);
  g_free (starts);
}

static int
by_a_then_b (gconstpointer x, gconstpointer y)
{
  const FlCompareAnchor *a = x, *b = y;
  if (a->t[0] != b->t[0])
    return a->t[0] < b->t[0] ? -1 : 1;
  return a->t[1] < b->t[1] ? -1 : a->t[1] > b->t[1];
}

/* The longest chain of anchors ordered by A's time (they are sorted so) whose B times do
 * not go back: operations that two CPUs started in one order in A and the other in B
 * cannot both line up on one axis. */
static GArray *
monotone_chain (GArray *sorted)
{
  guint n = sorted->len;
  const FlCompareAnchor *a = (const FlCompareAnchor *) sorted->data;
  g_autofree guint *tails = g_new (guint, n + 1);
  g_autofree guint *prev = g_new (guint, n);
  guint len = 0;
  for (guint i = 0; i < n; i++)
    {
      /* first tail whose B time is after this one's: it becomes this anchor */
      guint lo = 0, hi = len;
      while (lo < hi)
        {
          guint mid = (lo + hi) / 2;
          if (a[tails[mid]].t[1] > a[i].t[1])
            hi = mid;
          else
            lo = mid + 1;
        }
      prev[i] = lo > 0 ? tails[lo - 1] : G_MAXUINT;
      tails[lo] = i;
      if (lo == len)
        len++;
    }
  GArray *chain = g_array_sized_new (FALSE, FALSE, sizeof (FlCompareAnchor), len);
  g_array_set_size (chain, len);
  guint k = len ? tails[len - 1] : G_MAXUINT;
  for (guint j = len; j-- > 0 && k != G_MAXUINT; k = prev[k])
    g_array_index (chain, FlCompareAnchor, j) = a[k];
  return chain;
}

/**
 * fl_compare_align:
 * @cmp: a comparison
 *
 * Builds the operation alignment the first time; the runs never change, so it holds.
 */
void
fl_compare_align (FlCompare *cmp)
{
  if (cmp->anchors != NULL)
    return;

  guint ncpus[2] = { fl_cursor_get_state (cmp->cur[0])->sizes.ncpus,
                     fl_cursor_get_state (cmp->cur[1])->sizes.ncpus };
  GArray **ops[2] = { op_starts (fl_cursor_get_run (cmp->cur[0]), ncpus[0]),
                      op_starts (fl_cursor_get_run (cmp->cur[1]), ncpus[1]) };
  g_autoptr (GArray) all = g_array_new (FALSE, FALSE, sizeof (FlCompareAnchor));
  FlCompareAnchor start = { { 0, 0 }, 0 };
  g_array_append_val (all, start);
  for (guint c = 0; c < MIN (ncpus[0], ncpus[1]); c++)
    for (guint k = 0; k < MIN (ops[0][c]->len, ops[1][c]->len); k++)
      {
        FlCompareAnchor a = { { g_array_index (ops[0][c], guint64, k),
                                g_array_index (ops[1][c], guint64, k) }, 0 };
        g_array_append_val (all, a);
      }
  FlCompareAnchor end = { { fl_last_cycle (fl_cursor_get_run (cmp->cur[0])), fl_last_cycle (fl_cursor_get_run (cmp->cur[1])) }, 0 };
  g_array_append_val (all, end);
  op_starts_free (ops[0], ncpus[0]);
  op_starts_free (ops[1], ncpus[1]);

  g_array_sort (all, by_a_then_b);
  cmp->anchors = monotone_chain (all);
  /* between anchors, the axis runs as long as the slower of the two runs took */
  FlCompareAnchor *a = (FlCompareAnchor *) cmp->anchors->data;
  for (guint i = 1; i < cmp->anchors->len; i++)
    a[i].s = a[i - 1].s + (double) MAX (a[i].t[0] - a[i - 1].t[0], a[i].t[1] - a[i - 1].t[1]);
}

void
fl_compare_set_axis (FlCompare *cmp, FlCompareAxis axis)
{
  g_return_if_fail (cmp != NULL);
  cmp->axis = axis;
}

FlCompareAxis
fl_compare_get_axis (FlCompare *cmp)
{
  g_return_val_if_fail (cmp != NULL, FL_COMPARE_AXIS_CYCLES);
  return cmp->axis;
}

guint64
fl_compare_run_cycles (FlCompare *cmp, guint run)
{
  g_return_val_if_fail (cmp != NULL && run < 2, 0);
  return fl_last_cycle (fl_cursor_get_run (cmp->cur[run]));
}

/* The longer run's cycles: the cycle axis' length, and the length each run is stretched to
 * when each is fitted. */
static double
longest (FlCompare *cmp)
{
  return (double) MAX (MAX (fl_last_cycle (fl_cursor_get_run (cmp->cur[0])), fl_last_cycle (fl_cursor_get_run (cmp->cur[1]))), 1u);
}

/* The shared axis' end: where both runs are over. */
double
fl_compare_s_end (FlCompare *cmp)
{
  if (cmp->axis != FL_COMPARE_AXIS_OPERATIONS)
    return longest (cmp);
  fl_compare_align (cmp);
  const GArray *an = cmp->anchors;
  return an->len ? g_array_index (an, FlCompareAnchor, an->len - 1).s : 0;
}

/* Where a moment of one run lies on the shared axis. */
double
fl_compare_s_of (FlCompare *cmp, guint run, guint64 t)
{
  if (cmp->axis == FL_COMPARE_AXIS_CYCLES)
    return (double) t;
  if (cmp->axis == FL_COMPARE_AXIS_FIT)
    return (double) t * longest (cmp) / (double) MAX (fl_last_cycle (fl_cursor_get_run (cmp->cur[run])), 1u);
  fl_compare_align (cmp);
  const FlCompareAnchor *a = (const FlCompareAnchor *) cmp->anchors->data;
  guint n = cmp->anchors->len;
  /* the last anchor at or before t */
  guint lo = 0, hi = n;
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      if (a[mid].t[run] <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return 0;
  guint i = lo - 1;
  if (i + 1 >= n)
    return a[i].s + (double) (t - a[i].t[run]);
  double span = (double) (a[i + 1].t[run] - a[i].t[run]);
  return a[i].s + (a[i + 1].s - a[i].s) * (double) (t - a[i].t[run]) / span;
}

/* The moment of one run at a point of the shared axis. */
guint64
fl_compare_t_of (FlCompare *cmp, guint run, double s)
{
  if (s <= 0)
    return 0;
  if (cmp->axis == FL_COMPARE_AXIS_CYCLES)
    return (guint64) llround (s);
  if (cmp->axis == FL_COMPARE_AXIS_FIT)
    return (guint64) llround (s * (double) MAX (fl_last_cycle (fl_cursor_get_run (cmp->cur[run])), 1u)
                              / longest (cmp));
  fl_compare_align (cmp);
  const FlCompareAnchor *a = (const FlCompareAnchor *) cmp->anchors->data;
  guint n = cmp->anchors->len;
  if (n == 0 || s <= 0)
    return 0;
  guint lo = 0, hi = n;
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      if (a[mid].s <= s)
        lo = mid + 1;
      else
        hi = mid;
    }
  guint i = lo - 1;
  if (i + 1 >= n)
    return a[i].t[run] + (guint64) (s - a[i].s);
  double span = a[i + 1].s - a[i].s;
  if (span <= 0)
    return a[i].t[run];
  return a[i].t[run] + (guint64) llround ((double) (a[i + 1].t[run] - a[i].t[run])
                                          * (s - a[i].s) / span);
}

/* A run's moment after `step` steps: the furthest any CPU's clock had reached. Unlike the
 * clock of the CPU that stepped last it never goes back, so the two runs' cursors can be
 * lined up and move forward together. */
static guint64
moment_of (const FlRun *run, guint64 step)
{
  FlEventReader r;
  guint64 t = 0;
  fl_event_reader_init (&r, run);
  for (const FlEvent *e; (e = fl_event_reader_next (&r)) != NULL && e->step < step;)
    if (e->kind != FL_EV_FINDING)
      t = MAX (t, e->cycle);
  return t;
}

/* The compare view's cursor: the run's moment at its current step. */
guint64
fl_compare_now (const FlCursor *cur)
{
  return moment_of (fl_cursor_get_run (cur), fl_cursor_get_step (cur));
}

/**
 * fl_compare_map_step:
 * @cmp: a comparison
 * @run: 0 for A, 1 for B: the run @step belongs to
 * @step: a step of that run
 *
 * The other run's step at the same moment: the moment of @step (the furthest any CPU's
 * clock had reached), through the axis (the same cycle, the same share of the run, or the
 * operation alignment) to the other run's time, and there the step whose moment is
 * nearest. Nondecreasing in @step.
 *
 * Returns: a step of the other run, at most its total steps
 */
guint64
fl_compare_map_step (FlCompare *cmp, guint run, guint64 step)
{
  g_return_val_if_fail (cmp != NULL && run < 2, 0);
  const FlRun *from = fl_cursor_get_run (cmp->cur[run]), *to = fl_cursor_get_run (cmp->cur[1 - run]);
  if (step == 0)
    return 0;
  guint64 total = fl_run_get_total_steps (to);
  if (step >= fl_run_get_total_steps (from))
    return total;
  guint64 other = fl_compare_t_of (cmp, 1 - run, fl_compare_s_of (cmp, run, moment_of (from, step)));
  FlEventReader r;
  guint64 reached = 0, count = 0;
  fl_event_reader_init (&r, to);
  for (const FlEvent *e; (e = fl_event_reader_next (&r)) != NULL;)
    {
      if (e->kind == FL_EV_FINDING)
        continue;
      guint64 before = reached;
      reached = MAX (reached, e->cycle);
      if (reached > other)
        {
          /* one step can take long (an IPI, a page from swap): the nearer side wins */
          if (reached - other < other - before)
            count++;
          break;
        }
      count++;
    }
  return MIN (count, total);
}
