#pragma once

/* Benchmark charts: what `faultline-cli bench` measures, drawn for a slide. Pure Cairo +
 * Pango like every painter: the window, `bench --chart` and the tests draw through the
 * same functions. */

#include <cairo.h>
#include <glib.h>
#include "fl-paint.h"

G_BEGIN_DECLS

/* One measured point: a workload under one configuration at one CPU count. Strings are
 * borrowed; the chart never keeps them. */
typedef struct {
  const char *workload;        /* "multi-fault" */
  const char *config;          /* "baseline", "xadd", "spf", "xadd+spf" */
  guint       cpus;
  double      faults_per_sec;  /* per simulated second */
  double      ratio;           /* to baseline at the same CPU count; 0 when unknown */
  double      published;       /* the ratio measured in 2010; 0 when none */
} FlBenchPoint;

/* The CPU count of the 2010 table (2 sockets × 4 cores): the bar chart's default. */
#define FL_BENCH_TABLE_CPUS 8

void     fl_paint_bench_scaling (cairo_t *cr, const FlBenchPoint *points, guint n_points,
                                 const FlViewport *viewport, const FlPalette *palette);
void     fl_paint_bench_bars    (cairo_t *cr, const FlBenchPoint *points, guint n_points,
                                 const FlViewport *viewport, const FlPalette *palette);
void     fl_paint_bench_chart   (cairo_t *cr, const FlBenchPoint *points, guint n_points,
                                 const FlViewport *viewport, const FlPalette *palette);

GArray  *fl_bench_points_from_store (GPtrArray *stored_rows);
gboolean fl_export_bench_chart  (const FlBenchPoint *points, guint n_points,
                                 const FlViewport *viewport, const FlPalette *palette,
                                 const char *format, const char *path, GError **error);

G_END_DECLS
