#pragma once

/* What a CPU's lane shows between its steps, shared by the lanes view and the compare view's
 * lanes: the events say where each step ended and what the CPU was doing after it, the step
 * starts (fl_run_get_step_starts()) where a step began when that was not where the CPU's
 * last one ended. From both, each step's stretch of time becomes up to four segments: the
 * wait it ended (spinning, asleep, its turn under the schedule, an IPI not yet arrived) and
 * the step's own work, in the colour of what that work is. */

#include "fl-run.h"

G_BEGIN_DECLS

typedef struct {
  guint64 from;             /* the segment runs from here to the next one's start */
  guint8  act;              /* FlActivity */
} FlLaneSegment;

typedef struct {
  guint    ncpus;
  const GArray *starts;     /* the run's FlStepStart, by event index */
  guint    next_start;
  guint64 *end;             /* per CPU: where its last step ended */
  guint8  *after;           /* per CPU: its activity after that step, as the event says,
                             * FL_ACT_N before its first */
  guint8  *drawn;           /* per CPU: the colour that step's work was drawn in */
  gboolean *spec;           /* per CPU: inside a fault's speculative attempt */
} FlLaneBuilder;

void  fl_lane_builder_init  (FlLaneBuilder *b, const FlRun *run, guint ncpus);
guint fl_lane_builder_step  (FlLaneBuilder *b, gsize index, const FlEvent *e,
                             FlLaneSegment out[4]);
void  fl_lane_builder_clear (FlLaneBuilder *b);

/* One CPU's lane as drawn: the segments in order, the cycle each starts at, its activity
 * and the step number of the event it leads up to; a last one closes the lane where its last
 * step ended, with no step's number (G_MAXUINT32): segment k runs from cyc[k] to cyc[k + 1]. */
typedef struct {
  guint64 *cyc;
  guint8  *act;
  guint32 *step;
  guint    m, cap;
} FlLane;

void  fl_lane_push          (FlLane *l, guint64 cycle, guint8 act, guint32 step);
void  fl_lane_clear         (FlLane *l);
guint fl_lane_first_after   (const FlLane *l, guint lo, guint hi, guint64 t);
guint fl_lane_boundary      (const FlLane *l, guint64 step_now);

/* What a lane shows as having happened beyond its CPU's last step taken, up to where the
 * current step stands, where its own segments there lie in the future (fl_lane_ongoing). */
typedef struct {
  guint64 from, to;
  int     act;              /* an activity, -1 for nothing, or FL_LANE_EACH_OWN */
  guint   first, last;      /* with FL_LANE_EACH_OWN: segments [first, last), as they are */
} FlLaneOngoing;

#define FL_LANE_EACH_OWN (-2)

void  fl_lane_ongoing       (const FlLane *l, guint boundary, const FlState *st, guint cpu,
                             guint64 until, FlLaneOngoing *o);
int   fl_lane_shown         (const FlLane *l, const FlLaneOngoing *o, guint64 t, int act,
                             gboolean *future);

gboolean fl_lane_is_waiting (guint act);

G_END_DECLS
