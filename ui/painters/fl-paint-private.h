#pragma once

/* What the painters share and the rest of the program does not: the drawing context handed
 * to every view, text through Pango, small Cairo helpers. */

/* Every painter's text goes through gettext; 64-bit counts use PRIu64, which xgettext
 * understands inside a translatable format (G_GUINT64_FORMAT it does not). */
#include <glib/gi18n.h>
#include <inttypes.h>
#include <pango/pangocairo.h>
#include "fl-cpu-view.h"
#include "fl-paint.h"

G_BEGIN_DECLS

/* Everything one view needs to draw itself into the rectangle (0, 0, w, h) of `cr`. */
typedef struct {
  cairo_t          *cr;
  const FlCursor   *cur;        /* what is drawn: the run at one step */
  const FlRun      *run;        /* the cursor's run */
  const FlState    *st;
  const FlConfig   *config;
  const FlViewport *vp;
  const FlPalette  *pal;
  double            w, h;       /* the view's size in user units */
  double            fs;         /* base font size in user units */
  guint64           step;       /* the cursor's step */
  guint             selected;   /* the selected CPU, clamped to the machine */
  /* Where fl_text_draw() and fl_text_paragraph() note the texts they shorten
   * (FlElidedText), for fl_paint_view_noting(); NULL when nobody asked. */
  GArray           *elided;
  gboolean          note_all;   /* note every text there, not only the shortened ones */
  cairo_matrix_t    view_matrix; /* the view's own user space, where the notes are given */
  /* the findings of the current step, whose objects every view marks (fl-paint-finding.c) */
  const FlFinding  *marks[4];
  guint             n_marks;
} FlPaintCtx;

void  fl_paint_ctx_init_bare (FlPaintCtx *p, cairo_t *cr, const FlViewport *vp,
                              const FlPalette *pal);
gboolean fl_paint_scaled_begin (cairo_t *cr, const FlViewport *viewport, double min_w,
                                double min_h, FlViewport *out);
void  fl_paint_ctx_init (FlPaintCtx *p, cairo_t *cr, const FlCursor *cur, const FlViewport *vp,
                         const FlPalette *pal);

typedef void (*FlPaintFn) (FlPaintCtx *p);
double fl_paint_fit_scale (FlPaintFn paint, gboolean whole_window, const FlViewport *viewport);
void  fl_paint_fitted   (FlPaintFn paint, gboolean whole_window, cairo_t *cr, const FlCursor *cur,
                         const FlViewport *viewport, const FlPalette *palette,
                         GArray *elided, gboolean note_all,
                         const cairo_matrix_t *view_matrix);

/* the current step's findings and the objects they name (fl-paint-finding.c) */
void     fl_paint_ctx_find_marks (FlPaintCtx *p);
typedef enum {
  FL_MARK_VMA,                /* id: the VMA */
  FL_MARK_TABLE,              /* id: a page-table page */
  FL_MARK_PTE,                /* id: the PTE page, index: the slot */
  FL_MARK_PTL,                /* id: the PTE page whose lock */
  FL_MARK_PAGE,               /* id: a page frame */
} FlMark;
gboolean fl_marks       (const FlPaintCtx *p, FlMark what, guint32 id, guint index);
gboolean fl_marks_line  (const FlPaintCtx *p, guint line);
void     fl_mark_ring   (FlPaintCtx *p, double x, double y, double w, double h, double radius);

/* the cache view's columns when not every CPU fits (fl-paint-cache-columns.c) */
gboolean fl_cache_holds   (const FlLine *l, guint cpu);
guint    fl_cache_columns (const FlPaintCtx *p, const guint *rows, guint nrows, gint touch_cpu,
                           guint max, guint *cpus);

/* counts in progress (fl-paint-counters.c) */
guint    fl_faults_in_progress (const FlState *st, guint *in_fault);

/* text (fl-paint-text.c) */
typedef enum { FL_FONT_SANS, FL_FONT_BOLD, FL_FONT_MONO, FL_FONT_MONO_BOLD, FL_FONT_ITALIC } FlFont;
typedef enum { FL_ALIGN_LEFT, FL_ALIGN_CENTER, FL_ALIGN_RIGHT } FlAlign;

PangoLayout *fl_text_layout    (FlPaintCtx *p, FlFont font, double size, const char *text,
                                double max_width, int max_lines);
/* fl-svg-text.c: the text of an SVG export as text over its glyph paths */
GArray     *fl_svg_text_sink_new (void);
void        fl_svg_text_attach  (cairo_t *cr, GArray *texts);
void        fl_svg_text_note    (cairo_t *cr, PangoLayout *layout, double x, double y);
GByteArray *fl_svg_text_layer   (GByteArray *svg, GArray *texts);

double       fl_text_draw      (FlPaintCtx *p, FlFont font, double size, const FlRgba *color,
                                double x, double y, double max_width, FlAlign align,
                                const char *text);
double       fl_text_width     (FlPaintCtx *p, FlFont font, double size, const char *text);
double       fl_text_height    (FlPaintCtx *p, FlFont font, double size);
double       fl_text_paragraph (FlPaintCtx *p, FlFont font, double size, const FlRgba *color,
                                double x, double y, double width, int max_lines,
                                const char *text);

/* shapes and colours (fl-palette.c, fl-paint.c) */
void         fl_set_rgba       (cairo_t *cr, const FlRgba *c);
void         fl_set_rgba_alpha (cairo_t *cr, const FlRgba *c, double alpha);
FlRgba       fl_rgba_mix       (const FlRgba *a, const FlRgba *b, double t);
const FlRgba *fl_rgba_text_on  (const FlPalette *pal, const FlRgba *background);
void         fl_format_count   (guint64 value, char *buf, gsize size);
void         fl_rounded_rect   (cairo_t *cr, double x, double y, double w, double h, double r);
void         fl_fill_fast      (cairo_t *cr);
void         fl_rounded_outline (cairo_t *cr, double x, double y, double w, double h, double r,
                                double width);
void         fl_diamond        (cairo_t *cr, double x, double y, double r);
double       fl_paint_header   (FlPaintCtx *p, const char *title, const char *subtitle);
double       fl_paint_header_height (FlPaintCtx *p);
void         fl_paint_panel_background (FlPaintCtx *p);

/* PTE states as the page-table view and its legend show them */
typedef enum {
  FL_PTE_STATE_NONE, FL_PTE_STATE_RO, FL_PTE_STATE_RW, FL_PTE_STATE_ZERO, FL_PTE_STATE_SWAP,
  FL_PTE_STATE_MIGRATION, FL_PTE_STATE_N
} FlPteState;
FlPteState   fl_pte_state      (const FlState *st, guint64 pte);
FlRgba       fl_palette_pte    (const FlPalette *pal, FlPteState state);
const char  *fl_pte_state_name (FlPteState state);
const char  *fl_pte_state_code (FlPteState state);

/* A legend: swatches and words flowing in rows within `width`. Returns the height used;
 * with `draw` FALSE it only measures. */
typedef enum {
  FL_LEGEND_BOX,                /* a filled square */
  FL_LEGEND_OUTLINE,            /* an empty square with a dashed border in the colour */
  FL_LEGEND_DIAMOND,            /* the lanes' finding marker */
  FL_LEGEND_RING,               /* the lanes' retry marker */
  FL_LEGEND_ARROW,              /* the lanes' IPI arrow */
  FL_LEGEND_LINE,               /* a thin bar: the lanes' waiting for its turn */
  FL_LEGEND_TRIANGLE,           /* the lanes' mark of a CPU's clock (pointing down) */
  FL_LEGEND_TRIANGLE_UP,        /* the compared lanes' mark of a CPU's clock */
} FlLegendShape;

typedef struct {
  FlRgba        color;
  const char   *label;
  FlLegendShape shape;
} FlLegendItem;
double       fl_paint_legend   (FlPaintCtx *p, double x, double y, double width,
                                const FlLegendItem *items, guint n, gboolean draw);

/* Small questions about the state that several views ask (fl-paint-cpu.c); what a CPU is
 * doing is core's (fl-cpu-view.h). */
gboolean     fl_vma_is_ghost   (const FlState *st, guint32 id);
/* the step box under the listing (fl-paint-step.c) */
gboolean     fl_step_event     (const FlRun *run, guint64 step, FlEvent *out);
const char  *fl_loc_why        (FlLoc loc, const FlConfig *config);
char        *fl_cpu_wait_sentence (const FlState *st, const FlCpuView *v);
double       fl_paint_step_box (FlPaintCtx *p, const FlCpuView *v, double x, double w);
guint32      fl_table_child    (const FlState *st, guint32 table, guint64 address);
guint        fl_table_index    (guint level, guint64 address);
guint64      fl_last_cycle     (const FlRun *run);

/* The views (one file each) */
void  fl_paint_lanes     (FlPaintCtx *p);
double fl_lanes_preferred_height (FlPaintCtx *p);
guint64 fl_lanes_now      (FlPaintCtx *p);
void  fl_paint_vma       (FlPaintCtx *p);
void  fl_paint_pgtable   (FlPaintCtx *p);
void  fl_paint_cache     (FlPaintCtx *p);
void  fl_paint_rcu       (FlPaintCtx *p);
void  fl_paint_listing   (FlPaintCtx *p);
void  fl_paint_counters  (FlPaintCtx *p);
void  fl_paint_all       (FlPaintCtx *p);

/* The cache view's rows, shared with its description */
guint fl_cache_rows      (const FlCursor *cur, guint *rows, guint max_rows);

/* Reading a run's events in order a batch at a time from its packed log, without the
 * decoded copy of the whole run (fl_run_get_events()):
 *   FlEventReader r;
 *   fl_event_reader_init (&r, run);
 *   for (const FlEvent *e; (e = fl_event_reader_next (&r)) != NULL;) ...
 * fl_event_reader_index() is the index of the event last handed out. */
typedef struct {
  const FlRun *run;
  gsize   n;              /* events in the run when the reader started */
  gsize   first, len;     /* the batch: events [first, first + len) */
  gsize   next;           /* the index of the next event to hand out */
  FlEvent batch[512];
} FlEventReader;

static inline void
fl_event_reader_init (FlEventReader *r, const FlRun *run)
{
  r->run = run;
  r->n = fl_run_get_n_events (run);
  r->first = r->len = r->next = 0;
}

static inline const FlEvent *
fl_event_reader_next (FlEventReader *r)
{
  if (r->next >= r->n)
    return NULL;
  if (r->next >= r->first + r->len)
    {
      r->first = r->next;
      r->len = fl_run_get_events_range (r->run, r->first, G_N_ELEMENTS (r->batch), r->batch);
      if (r->len == 0)
        return NULL;
    }
  return &r->batch[r->next++ - r->first];
}

static inline gsize
fl_event_reader_index (const FlEventReader *r)
{
  return r->next - 1;
}

G_END_DECLS
