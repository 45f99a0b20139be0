#pragma once

/* FlBenchWindow: the benchmark chart. Measures the 2010 table (multi-fault, one round, the
 * four configurations at each CPU count) in a worker with a progress bar, then draws
 * fl_paint_bench_chart(): the scaling lines and the bars with the published ratios; its
 * second page, fl_paint_bench_profile(): where each design's CPU time goes at 8 CPUs (or the
 * largest count measured), by modeled function and by cache line. */

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define FL_TYPE_BENCH_WINDOW (fl_bench_window_get_type ())
G_DECLARE_FINAL_TYPE (FlBenchWindow, fl_bench_window, FL, BENCH_WINDOW, GtkWindow)

/* The CPU counts the window measures by default: 1, 2, 4 and 8. */
GtkWidget *fl_bench_window_new        (GtkWindow     *parent);
/* The same with other CPU counts (tests measure fewer). Measuring starts at once. */
GtkWidget *fl_bench_window_new_full   (GtkWindow     *parent,
                                       const guint   *cpus,
                                       guint          n_cpus);
gboolean   fl_bench_window_is_running (FlBenchWindow *self);
/* The number of points measured, 0 while running or after a failure. */
guint      fl_bench_window_get_n_points (FlBenchWindow *self);
/* The chart's drawing widget, an image to assistive technologies. */
GtkWidget *fl_bench_window_get_area   (FlBenchWindow *self);
/* The profile's drawing widget, and how many designs it shows (0 until measured). */
GtkWidget *fl_bench_window_get_profile_area (FlBenchWindow *self);
guint      fl_bench_window_get_n_profiles   (FlBenchWindow *self);
/* What the profile shows in words: its accessible description ("" until measured). */
const char *fl_bench_window_get_profile_description (FlBenchWindow *self);
/* Shows the profile (TRUE) or the chart. */
void       fl_bench_window_show_profile     (FlBenchWindow *self,
                                             gboolean       profile);
/* The page in view (the chart or the profile) at 1280 × 720 to PNG, SVG or PDF. */
gboolean   fl_bench_window_export     (FlBenchWindow *self,
                                       const char    *format,
                                       const char    *path,
                                       GError       **error);

G_END_DECLS
