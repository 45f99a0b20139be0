#pragma once

/* Compare: one scenario under two configurations, A and B. Both runs' CPU lanes on one
 * time axis, a header per run naming the switches that differ, and a table of both runs'
 * counters and cache-line transfers at the same moment, each with which way is better and
 * what B against A means in words ("B is 2.9× faster"), under how long each whole run took.
 *
 * By default the axis is simulated cycles, the same for both runs: a run that is done in a
 * third of the time ends a third of the way across, and "the same moment" is the same
 * cycle. Two other axes are a choice: each run fitted to the width on its own, and aligned
 * by scenario operation. The alignment is a piecewise-linear time warp: every scenario operation that both runs
 * start (the k-th FL_EV_OP of a CPU in A and the k-th of the same CPU in B) is an anchor;
 * anchors whose order differs between the runs are dropped (the longest chain ordered in
 * both is kept), and between two anchors the shared axis runs as long as the slower run
 * took, so neither run is squeezed and the operations of both start at the same x. Each
 * run's ruler shows its own cycles, so the warp itself is visible in the tick spacing. */

#include <cairo.h>
#include <glib.h>
#include "fl-paint.h"

G_BEGIN_DECLS

typedef enum {
  FL_COMPARE_STACKED,   /* A's lanes above B's on one time axis, the table beside them */
  FL_COMPARE_SPLIT,     /* A's lanes left of B's, each on the aligned axis, the table below */
} FlCompareLayout;

/* What the shared axis measures; see above. */
typedef enum {
  FL_COMPARE_AXIS_CYCLES,     /* both runs in cycles on one scale: the default */
  FL_COMPARE_AXIS_FIT,        /* each run stretched to the whole width */
  FL_COMPARE_AXIS_OPERATIONS, /* aligned by scenario operation */
} FlCompareAxis;

/* Which way a row of the table is better. */
typedef enum {
  FL_BETTER_HIGHER,
  FL_BETTER_LOWER,
  FL_BETTER_NEITHER,          /* which path a fault took: a choice, not a score */
} FlBetter;

typedef struct _FlCompare FlCompare;

FlCompare       *fl_compare_new        (const FlRun *a, const FlRun *b);
void             fl_compare_free       (FlCompare *cmp);
const FlCursor  *fl_compare_get_cursor (FlCompare *cmp, guint run);
void             fl_compare_set_layout (FlCompare *cmp, FlCompareLayout layout);
FlCompareLayout  fl_compare_get_layout (FlCompare *cmp);
void             fl_compare_set_axis   (FlCompare *cmp, FlCompareAxis axis);
FlCompareAxis    fl_compare_get_axis   (FlCompare *cmp);
/* The cycles run `run` took from start to end: its whole length, whatever the step. */
guint64          fl_compare_run_cycles (FlCompare *cmp, guint run);
/* B against A in plain words, for a row or the whole runs: "B is 2.9× faster", "2.5× fewer:
 * better"; *verdict (optional) is 1 when B is better, -1 when worse, 0 for neither. */
char            *fl_compare_words      (FlBetter better, gboolean rate, guint64 a, guint64 b,
                                        int *verdict);
/* How the whole runs' lengths compare, in words: "B is done 2.7× sooner: faster". */
char            *fl_compare_finish_words (guint64 a, guint64 b, int *verdict);
char            *fl_compare_switches   (FlCompare *cmp, guint run);
guint64          fl_compare_map_step   (FlCompare *cmp, guint run, guint64 step);
gboolean         fl_compare_seek       (FlCompare *cmp, guint64 step);

/* One row of the comparison table: a counter, or one cache line's transfers, of both runs
 * at their current steps. */
typedef struct {
  char    *label;
  guint64  value[2];      /* A, B */
  gboolean line;          /* a cache line's transfers rather than a counter */
  FlBetter better;
  gboolean rate;          /* a rate (faults per simulated second): higher is faster */
} FlCompareRow;

GArray          *fl_compare_rows       (FlCompare *cmp);

void             fl_paint_compare      (cairo_t *cr, FlCompare *cmp, const FlViewport *viewport,
                                        const FlPalette *palette);
gboolean         fl_export_compare     (FlCompare *cmp, const FlViewport *viewport,
                                        const FlPalette *palette, const char *format,
                                        const char *path, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FlCompare, fl_compare_free)

G_END_DECLS
