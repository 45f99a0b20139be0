#pragma once

/* Painters: pure Cairo + Pango functions that draw one view of a run at a cursor's step (a
 * const FlCursor: drawing cannot move it). No GTK, no side effects: the window's widgets,
 * `faultline-cli export` and the tests all draw through them, so what is exported is what
 * is on screen. */

#include <cairo.h>
#include <glib.h>
#include "fl-cursor.h"

G_BEGIN_DECLS

typedef enum {
  FL_VIEW_LANES,      /* CPU lanes over simulated time */
  FL_VIEW_VMA,        /* the VMA red-black tree */
  FL_VIEW_PGTABLE,    /* pgd → pud → pmd → PTE pages, PTE locks */
  FL_VIEW_CACHE,      /* hot cache lines × CPUs, MESI */
  FL_VIEW_RCU,        /* grace period, readers, callbacks */
  FL_VIEW_LISTING,    /* the selected CPU's function, current line, why */
  FL_VIEW_COUNTERS,   /* faults, cycles, transfers, findings */
  FL_VIEW_ALL,        /* every view in the window's layout */
  FL_VIEW_N
} FlView;

typedef struct { double r, g, b, a; } FlRgba;

/* One palette for every view; the widgets take it from CSS, exports from light/dark. */
#define FL_CPU_FAMILIES 8     /* hue families of the CPU colours */
#define FL_PALETTE_CPUS 64    /* CPUs with a colour of their own */

typedef struct {
  FlRgba background, surface, text, text_dim, grid, accent, warning, error;
  FlRgba rb_red, rb_black, ghost;
  FlRgba mesi[4];                 /* I, S, E, M */
  FlRgba activity[FL_ACT_N];      /* lane colours per FlActivity */
  FlRgba cpu[FL_PALETTE_CPUS];    /* each CPU's colour (fl-palette.c), cycled beyond */
  FlRgba series[4];               /* the benchmark's four configurations, in its charts */
} FlPalette;

/* What a widget keeps of a view from one frame to the next: what depends on the run and
 * the viewport but not on the step (the lanes' pixel columns, most of their work). The
 * widget owns it and hands it over in FlViewport.cache; without one a view works it out
 * for the frame. It holds a reference to the run it was made for and is made again for
 * another run (fl_run_same) or another viewport. One widget's, on one thread. */
typedef struct _FlViewCache FlViewCache;

FlViewCache *fl_view_cache_new  (void);
void         fl_view_cache_free (FlViewCache *cache);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FlViewCache, fl_view_cache_free)

typedef struct {
  double   width, height;         /* in device units (pixels for PNG) */
  double   font_scale;            /* 1.0 normal, larger for presentation */
  guint    selected_cpu;
  /* lanes: visible window of simulated time, in cycles; 0/0 = the whole run so far */
  guint64  time_start, time_end;
  /* lanes: the first CPU shown when the lanes do not all fit at a readable height (the
   * view scrolls through them rather than squeezing 64 lanes into unreadable stripes) */
  guint    lane_first;
  /* set by fl_view_natural_height() while it lays a view out tall to find its content's
   * height: views that grow to fill a roomy panel (the VMA tree, the page tables) do not */
  gboolean measuring;
  /* the drawing widget's (see FlViewCache), NULL for none: exports and tests draw without */
  FlViewCache *cache;
} FlViewport;

void        fl_palette_init_light (FlPalette *palette);
void        fl_palette_init_dark  (FlPalette *palette);
const FlRgba *fl_palette_cpu      (const FlPalette *palette, guint cpu);

void        fl_paint_view   (FlView view, cairo_t *cr, const FlCursor *cur,
                             const FlViewport *viewport, const FlPalette *palette);

/* A text a view drew shortened with an ellipsis: the box it took, in the view's units
 * (0, 0 at the view's corner), and the text in full, for a tooltip. */
typedef struct {
  double  x, y, width, height;
  char   *text;
} FlElidedText;

/* An array of FlElidedText that frees their texts. */
GArray     *fl_elided_texts_new  (void);
/* fl_paint_view(), noting in `elided` (from fl_elided_texts_new(), emptied first) every text
 * it had to shorten. */
void        fl_paint_view_noting (FlView view, cairo_t *cr, const FlCursor *cur,
                                  const FlViewport *viewport, const FlPalette *palette,
                                  GArray *elided);
/* Added for layout tests: every text the view draws (shortened or not), with its box. */
GArray     *fl_view_texts        (FlView view, const FlCursor *cur, const FlViewport *viewport);
/* The shortened text under (x, y), in the view's units, or NULL. */
const FlElidedText *fl_elided_texts_at (GArray *elided, double x, double y);
/* "12 345 678": a count with its digits grouped by narrow no-break spaces, as every view,
 * the window's header and its dialogs print counts. Free with g_free(). */
char       *fl_count_text   (guint64 value);
const char *fl_view_name    (FlView view);      /* "lanes", "vma", ... as the CLI spells it */
FlView      fl_view_lookup  (const char *name); /* FL_VIEW_N when unknown */
char       *fl_view_describe(FlView view, const FlCursor *cur, const FlViewport *viewport);

gboolean    fl_export_view  (FlView view, const FlCursor *cur, const FlViewport *viewport,
                             const FlPalette *palette, const char *format, const char *path,
                             GError **error);

/* Added by the painters: the image a PNG export holds, for widgets and tests; what the
 * lanes show under a point (click to seek, tooltips); export errors. */
cairo_surface_t *fl_paint_view_image (FlView view, const FlCursor *cur, const FlViewport *viewport,
                                      const FlPalette *palette);
gboolean    fl_lanes_hit    (const FlCursor *cur, const FlViewport *viewport, double x, double y,
                             guint *cpu, guint64 *step);
/* Added for the lanes widget's zoom and pan: where the lanes lie across the view (x0 and
 * width in the view's units) and the simulated time they show (t0..t1 cycles, the default
 * window when the viewport's is 0/0); and the height at which every lane is comfortable. */
gboolean    fl_lanes_time_axis (const FlCursor *cur, const FlViewport *viewport, double *x0,
                                double *width, guint64 *t0, guint64 *t1);
double      fl_lanes_natural_height (const FlCursor *cur, const FlViewport *viewport);
/* Added for the lanes' vertical scrolling and its tests: how many lanes the view shows at
 * once and the first of them (the viewport's lane_first, kept in range), and where the lane
 * of `cpu` lies (FALSE when it is scrolled out of view). */
guint       fl_lanes_shown (const FlCursor *cur, const FlViewport *viewport, guint *first);
gboolean    fl_lanes_lane_box (const FlCursor *cur, const FlViewport *viewport, guint cpu, double *y,
                               double *height);
/* Added for long runs: how much simulated time (cycles) the lanes show around the cursor
 * when the whole run, at this width, would crowd thousands of steps into each pixel; 0
 * when the whole run reads; and the cycle the cursor stands at. */
guint64     fl_lanes_follow_span (const FlCursor *cur, const FlViewport *viewport);
guint64     fl_lanes_cursor_cycle (const FlCursor *cur);
/* Added for single-view exports sized to their content, not to 720 pixels of mostly white. */
double      fl_view_natural_height (FlView view, const FlCursor *cur, const FlViewport *viewport);
/* Added for the lanes' test against the CPUs' status: what a lane shows at one instant. */
int         fl_lanes_shown_at (const FlCursor *cur, guint cpu, guint64 cycle, gboolean *done);
/* Added for the cache view's tooltip and its layout test: the box of each label as drawn
 * (the line it is about, 0 for column heads), and one line's full name and moves. */
typedef struct {
  double x, y, width, height;
  guint  line;
} FlLabelBox;
GArray     *fl_cache_label_boxes   (const FlCursor *cur, const FlViewport *viewport);
char       *fl_cache_describe_line (const FlCursor *cur, guint line);

#define FL_EXPORT_ERROR (fl_export_error_quark ())
GQuark fl_export_error_quark (void);
typedef enum {
  FL_EXPORT_ERROR_FORMAT,   /* not png, svg or pdf */
  FL_EXPORT_ERROR_SIZE,     /* width or height out of range */
  FL_EXPORT_ERROR_CAIRO,    /* Cairo could not draw or encode it */
} FlExportError;

G_END_DECLS
