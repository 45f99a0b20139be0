#pragma once

/* What the compare view's two files share: the runs, the operation alignment and the
 * drawing of one run's lanes on the aligned axis. */

#include "fl-paint-compare.h"
#include "fl-paint-private.h"

G_BEGIN_DECLS

typedef struct {
  guint64 t[2];     /* the same moment in run A's cycles and run B's */
  double  s;        /* where it lies on the shared axis */
} FlCompareAnchor;

struct _FlCompare {
  FlCursor        *cur[2];       /* the comparison's own: A's step, and B's at that moment */
  FlCompareLayout  layout;
  FlCompareAxis    axis;
  GArray          *anchors;       /* FlCompareAnchor, t[0], t[1] and s all nondecreasing */
};

void    fl_compare_align     (FlCompare *cmp);
double  fl_compare_s_of      (FlCompare *cmp, guint run, guint64 t);
guint64 fl_compare_t_of      (FlCompare *cmp, guint run, double s);
double  fl_compare_s_end     (FlCompare *cmp);
guint64 fl_compare_now       (const FlCursor *cur);

/* One run's lanes (its FlPaintCtx), drawn in (x, y, w, lanes_h) for the shared axis from
 * s0 to s1, with its own cycles as the ruler under them. */
typedef struct {
  double  x, y, w;
  double  lane_h;
  double  s0, s1;
  double  label_w;    /* room left of x for the CPU names */
} FlCompareLanesBox;

void    fl_compare_paint_lanes  (FlPaintCtx *p, FlCompare *cmp, guint run,
                                 const FlCompareLanesBox *box);
double  fl_compare_ruler_height (FlPaintCtx *p);
guint   fl_compare_legend_items (FlPaintCtx *p, FlLegendItem *items, guint max);

guint   fl_compare_findings_so_far (const FlCursor *cur);

/* The table (fl-paint-compare-table.c): laid out in a rectangle, then drawn a part at a
 * time from the top. */
typedef struct {
  double x, y, w, h;
} FlCompareRect;

typedef struct {
  FlPaintCtx    *p;
  FlCompareRect  r;
  double         label_w, num_w, words_w;
  double         size, line, row_h;
  double         y;
  guint          shown;        /* rows drawn, for the stripes */
} FlCompareTable;

double  fl_compare_table_width           (FlPaintCtx *p, GArray *rows);
void    fl_compare_table_init            (FlCompareTable *t, FlPaintCtx *p, GArray *rows,
                                          const FlCompareRect *r);
void    fl_compare_table_head            (FlCompareTable *t, const char *title,
                                          gboolean columns);
double  fl_compare_table_whole_height    (FlCompareTable *t);
void    fl_compare_table_whole           (FlCompareTable *t, FlCompare *cmp);
void    fl_compare_table_rows            (FlCompareTable *t, GArray *rows, gboolean lines,
                                          double bottom);
double  fl_compare_table_findings_height (FlCompareTable *t, FlCompare *cmp);
void    fl_compare_table_findings        (FlCompareTable *t, FlCompare *cmp);

G_END_DECLS
