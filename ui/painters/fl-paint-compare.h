#pragma once

/* Compare: one scenario under two configurations, A and B. Both runs' CPU lanes on one
 * time axis aligned by scenario operation, a header per run naming the switches that
 * differ, and a table of both runs' counters and cache-line transfers with B − A and B / A.
 *
 * The alignment is a piecewise-linear time warp: every scenario operation that both runs
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

typedef struct _FlCompare FlCompare;

FlCompare       *fl_compare_new        (FlSim *a, FlSim *b);
void             fl_compare_free       (FlCompare *cmp);
FlSim           *fl_compare_get_sim    (FlCompare *cmp, guint run);
void             fl_compare_set_layout (FlCompare *cmp, FlCompareLayout layout);
FlCompareLayout  fl_compare_get_layout (FlCompare *cmp);
char            *fl_compare_switches   (FlCompare *cmp, guint run);
guint64          fl_compare_map_step   (FlCompare *cmp, guint run, guint64 step);
gboolean         fl_compare_sync       (FlCompare *cmp);

/* One row of the comparison table: a counter, or one cache line's transfers, of both runs
 * at their current steps. */
typedef struct {
  char    *label;
  guint64  value[2];      /* A, B */
  gboolean line;          /* a cache line's transfers rather than a counter */
} FlCompareRow;

GArray          *fl_compare_rows       (FlCompare *cmp);

void             fl_paint_compare      (cairo_t *cr, FlCompare *cmp, const FlViewport *viewport,
                                        const FlPalette *palette);
gboolean         fl_export_compare     (FlCompare *cmp, const FlViewport *viewport,
                                        const FlPalette *palette, const char *format,
                                        const char *path, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FlCompare, fl_compare_free)

G_END_DECLS
