#pragma once

/* Between the lanes painter (fl-paint-lanes.c) and what asks it about a point or a time
 * (fl-paint-lanes-query.c): the one pass over the events both read, and the layout they
 * share so that a click lands where the eye sees. */

#include "fl-paint-private.h"
#include "fl-lane-track.h"

G_BEGIN_DECLS

typedef FlLane Lane;

typedef struct {
  double x0, w;             /* lane area, in user units */
  guint64 t0, t1;           /* visible simulated time */
} TimeMap;

/* An IPI from its send to its acknowledgement, and a retry, by cycle and step. */
typedef struct { guint64 ca, cb; guint sender, target; guint32 step; } ArrowAt;
typedef struct { guint64 cycle; guint cpu; guint32 step; } MarkAt;

/* What the pass over the events finds, kept per thread from one frame to the next: the
 * lanes, the IPIs and markers, the findings and the latest cycle. A frame of the same events
 * (same simulation, as many events, same hash over all of them) reuses it; only what
 * depends on the current step is worked out again. */
typedef struct {
  Lane   *lanes;
  guint   n;
  FlSim  *sim;              /* what the pass was over; NULL when nothing is kept */
  gsize   n_events;
  guint64 hash;
  guint   ncpus;
  guint64 last;
  GArray *arrows_at, *retries_at, *findings;
  /* What each pixel column of each lane shows, for the last time window and width: it does
   * not depend on the step, so stepping only decides which columns are past or future. */
  guint64 col_t0, col_t1;
  guint   col_lw;           /* columns per lane; 0 when nothing is kept */
  gint8   *col_act;         /* [cpu * col_lw + col]: activity, -1 for nothing */
  guint32 *col_first;       /* [cpu * col_lw + col]: the column's first interval */
  guint64 *col_ta;          /* [col]: where the column's time span starts */
} LanePool;

/* Where everything goes; painting and hit-testing share it so a click lands where the
 * eye sees. */
typedef struct {
  double  top;              /* under the header */
  double  lanes_y, lanes_h, lane_h;
  double  ruler_y, ruler_h;
  double  legend_y, legend_h;
  double  label_size, label_h, label_w, swatch;
  guint   stride;           /* every stride-th lane is named */
  guint   first, shown;     /* the lanes on screen: first .. first + shown - 1 */
  TimeMap m;
  guint   lw;               /* pixel columns */
} Layout;

LanePool *fl_lanes_pool_get     (FlSim *sim, guint ncpus);
guint     fl_lanes_legend_items (FlPaintCtx *p, FlLegendItem *legend);
void      fl_lanes_layout       (FlPaintCtx *p, Layout *g, const FlLegendItem *legend, guint nl,
                                 guint64 last);
guint64   fl_lanes_last_end     (FlSim *sim, guint64 step);
/* The top of the lane of `cpu` in the layout (above or below the lanes area when it is
 * scrolled out of view), and whether it is on screen. */
double    fl_lanes_y            (const Layout *g, guint cpu);
gboolean  fl_lanes_on_screen    (const Layout *g, guint cpu);

G_END_DECLS
