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

/* What the pass over the events finds: the lanes, the IPIs and markers, the findings and
 * the latest cycle. It depends on the run alone, so the run keeps it (fl_run_get_index):
 * only what depends on the current step is worked out per frame. */
typedef struct {
  Lane   *lanes;
  guint   ncpus;
  guint64 last;
  GArray *arrows_at, *retries_at, *findings;
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

const LanePool *fl_lanes_pool_get (const FlRun *run, guint ncpus);
guint     fl_lanes_legend_items (FlPaintCtx *p, FlLegendItem *legend);
void      fl_lanes_layout       (FlPaintCtx *p, Layout *g, const FlLegendItem *legend, guint nl,
                                 guint64 last);
guint64   fl_lanes_last_end     (const FlRun *run, guint64 step);
/* The top of the lane of `cpu` in the layout (above or below the lanes area when it is
 * scrolled out of view), and whether it is on screen. */
double    fl_lanes_y            (const Layout *g, guint cpu);
gboolean  fl_lanes_on_screen    (const Layout *g, guint cpu);

G_END_DECLS
