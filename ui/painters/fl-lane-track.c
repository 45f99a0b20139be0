/* fl-lane-track.c — each step's stretch of a CPU's lane as segments coloured by what the CPU
 * did in them. An event says where its step ended and the CPU's activity after it; drawing
 * the time up to a step in the activity after the previous one (as the lanes did) paints a
 * CPU held back by the schedule as busy in whatever it was doing, an IPI handler run where a
 * CPU spins as spinning, and the start of a speculative fault in the locked colour. */
#include "fl-lane-track.h"

#include "fl-config.h"
#include "fl-cpu-view.h"
#include "fl-loc.h"

#include <string.h>

void
fl_lane_builder_init (FlLaneBuilder *b, const FlRun *run, guint ncpus)
{
  b->ncpus = ncpus;
  b->starts = fl_run_get_step_starts (run);
  b->next_start = 0;
  b->end = g_new0 (guint64, ncpus);
  b->after = g_new (guint8, ncpus);
  b->drawn = g_new (guint8, ncpus);
  b->spec = g_new0 (gboolean, ncpus);
  memset (b->after, FL_ACT_N, ncpus);
  memset (b->drawn, FL_ACT_N, ncpus);
}

void
fl_lane_builder_clear (FlLaneBuilder *b)
{
  g_clear_pointer (&b->end, g_free);
  g_clear_pointer (&b->after, g_free);
  g_clear_pointer (&b->drawn, g_free);
  g_clear_pointer (&b->spec, g_free);
}

/* Parked: the CPU does not run its program until something wakes it. */
gboolean
fl_lane_is_waiting (guint act)
{
  return act == FL_ACT_SPIN || act == FL_ACT_BLOCKED || act == FL_ACT_IPI;
}

/* What the step's own work was. The event's activity is the CPU's after the step, which is
 * the step's for most: a step into handle_speculative_fault is speculative, one that parks
 * the CPU is the attempt that made it spin. Not for these: the IPI handler (the CPU may be
 * parked again after it), the flushing CPU's wait for its acknowledgements (it need not
 * park: the handlers may have run before it looks), the user instruction that starts an operation (the fault's frame
 * is there after it), an RCU callback (run from the scheduler tick, outside any frame), and
 * do_page_fault's own lines around the speculative attempt, which are that attempt. */
static guint8
work_of (FlLaneBuilder *b, const FlEvent *e)
{
  guint c = e->cpu;
  if (e->kind == FL_EV_IPI_ACK)
    return FL_ACT_IPI_HANDLER;
  if (e->kind == FL_EV_OP)
    return FL_ACT_USER;
  if (fl_loc_fn (e->loc) == FL_FN_RCU_DO_BATCH)
    return FL_ACT_SYSCALL;
  /* the sender spins on the flush mask until the targets acknowledged, parked or not */
  if (e->loc == FL_LOC_FLUSH_TLB_OTHERS_wait)
    return FL_ACT_IPI;
  /* the entry's check carries the fault path it takes */
  if (e->loc == FL_LOC_DO_PAGE_FAULT_entry)
    b->spec[c] = e->val == FL_FAULT_PATH_SPECULATIVE;
  guint8 act = e->activity;
  if (act == FL_ACT_LOCKED_FAULT && b->spec[c])
    act = FL_ACT_SPEC_FAULT;
  if (e->loc == FL_LOC_DO_PAGE_FAULT_spec_result)
    b->spec[c] = FALSE;
  return act;
}

/**
 * fl_lane_builder_step:
 * @b: the builder, fed every event of the run in order
 * @index: the event's index
 * @e: the event, not a finding
 * @out: (out caller-allocates): the segments of @e's CPU from where its last step ended up
 *   to where @e's ended, in order
 *
 * Returns: how many segments (1 to 4)
 */
guint
fl_lane_builder_step (FlLaneBuilder *b, gsize index, const FlEvent *e, FlLaneSegment out[4])
{
  guint c = e->cpu;
  g_assert (c < b->ncpus && e->kind != FL_EV_FINDING);
  const FlStepStart *s = NULL;
  while (b->next_start < b->starts->len
         && g_array_index (b->starts, FlStepStart, b->next_start).index < index)
    b->next_start++;
  if (b->next_start < b->starts->len
      && g_array_index (b->starts, FlStepStart, b->next_start).index == index)
    s = &g_array_index (b->starts, FlStepStart, b->next_start);

  /* until the step began the CPU went on with what it did: its wait if it was parked */
  guint8 before = fl_lane_is_waiting (b->after[c]) ? b->after[c] : b->drawn[c];
  if (before == FL_ACT_N)
    before = FL_ACT_DONE;   /* nothing before its first step */
  guint8 work = work_of (b, e);
  guint n = 0;
  guint64 p = b->end[c];
  if (s == NULL)
    /* began where the last ended; a parked CPU's step is the one that ends its wait */
    out[n++] = (FlLaneSegment) { p, fl_lane_is_waiting (b->after[c]) ? before : work };
  else if (s->parked)
    {
      /* an IPI handler run where the CPU waits: it waits until the IPI arrives */
      out[n++] = (FlLaneSegment) { p, before };
      out[n++] = (FlLaneSegment) { MAX (p, s->work), work };
    }
  else
    {
      if (s->ready > p)
        out[n++] = (FlLaneSegment) { p, before };   /* woken, or its flush acknowledged */
      if (s->begun > s->ready)
        /* held back while another CPU's time moved on; a CPU whose program is over only
         * waits for nothing */
        out[n++] = (FlLaneSegment) { MAX (p, s->ready),
                                     b->after[c] == FL_ACT_DONE ? FL_ACT_DONE : FL_ACT_TURN };
      if (s->work > s->begun)
        out[n++] = (FlLaneSegment) { MAX (p, s->begun), before };   /* the IPI on its way */
      out[n++] = (FlLaneSegment) { MAX (p, s->work), work };
    }
  b->end[c] = e->cycle;
  b->after[c] = e->activity;
  b->drawn[c] = work;
  return n;
}

void
fl_lane_push (FlLane *l, guint64 cycle, guint8 act, guint32 step)
{
  if (l->m == l->cap)
    {
      l->cap = MAX (l->cap * 2, 256u);
      l->cyc = g_renew (guint64, l->cyc, l->cap);
      l->act = g_renew (guint8, l->act, l->cap);
      l->step = g_renew (guint32, l->step, l->cap);
    }
  l->cyc[l->m] = cycle;
  l->act[l->m] = act;
  l->step[l->m] = step;
  l->m++;
}

void
fl_lane_clear (FlLane *l)
{
  g_clear_pointer (&l->cyc, g_free);
  g_clear_pointer (&l->act, g_free);
  g_clear_pointer (&l->step, g_free);
  l->m = l->cap = 0;
}

/* First k in [lo, hi) with cyc[k] > t; hi if none. */
guint
fl_lane_first_after (const FlLane *l, guint lo, guint hi, guint64 t)
{
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (l->cyc[mid] > t)
        hi = mid;
      else
        lo = mid + 1;
    }
  return lo;
}

/* The segments come in order of step: those before the current step are a prefix, and
 * this is its length. */
guint
fl_lane_boundary (const FlLane *l, guint64 step_now)
{
  guint lo = 0, hi = l->m;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (l->step[mid] < step_now)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/**
 * fl_lane_ongoing:
 * @l: a CPU's lane
 * @b: its fl_lane_boundary() at the current step
 * @st: the state at the current step
 * @cpu: the lane's CPU
 * @until: where the current step ended
 * @o: (out): what the lane shows as happened after the CPU's last step
 *
 * A parked CPU's wait, from its status now; for a running CPU held back by the schedule, its
 * wait for its turn as far as it has gone. A running CPU's next work is not shown as done:
 * it has not happened.
 */
void
fl_lane_ongoing (const FlLane *l, guint b, const FlState *st, guint cpu, guint64 until,
                 FlLaneOngoing *o)
{
  *o = (FlLaneOngoing) { 0, 0, -1, 0, 0 };
  if (l->m == 0 || b >= l->m)
    return;
  o->from = l->cyc[b];
  o->to = until;
  o->act = fl_cpu_parked_activity (st, cpu);
  if (o->act >= 0 || st->cpus[cpu].status != FL_CPU_RUNNING)
    return;
  /* up to the end of its turn: the segments before it have happened too (it was woken,
   * its flush acknowledged); an IPI not yet arrived is not known at this step */
  guint turn = b;
  while (turn + 1 < l->m && l->step[turn + 1] == l->step[b] && l->act[turn] != FL_ACT_TURN)
    turn++;
  if (l->act[turn] != FL_ACT_TURN || turn + 1 >= l->m)
    return;
  o->act = FL_LANE_EACH_OWN;
  o->first = b;
  o->last = turn + 1;
  o->to = MIN (until, l->cyc[turn + 1]);
}

/**
 * fl_lane_shown:
 * @l: a CPU's lane
 * @o: its fl_lane_ongoing()
 * @t: a cycle
 * @act: what the lane's segments show at @t, -1 for nothing
 * @future: (inout): whether that lies after the current step; FALSE when it is what happened
 *
 * Returns: what the lane draws at @t, -1 for nothing
 */
int
fl_lane_shown (const FlLane *l, const FlLaneOngoing *o, guint64 t, int act, gboolean *future)
{
  if (o->act == -1 || t < o->from || t >= o->to || (act >= 0 && !*future))
    return act;
  *future = FALSE;
  if (o->act >= 0)
    return o->act;
  guint k = fl_lane_first_after (l, o->first, o->last, t);
  return l->act[k > o->first ? k - 1 : o->first];
}
