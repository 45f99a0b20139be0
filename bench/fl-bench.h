#pragma once

/* faultline-bench: the simulator's own speed, measured in one process and written up in
 * docs/performance.md. Each part measures one thing and adds its numbers to a FlBench. */

#include <glib.h>
#include "fl-sim.h"

G_BEGIN_DECLS

#define FL_BENCH_ERROR (fl_bench_error_quark ())
GQuark fl_bench_error_quark (void);
typedef enum {
  FL_BENCH_ERROR_NOT_DETERMINISTIC,  /* the same run twice gave two event streams */
  FL_BENCH_ERROR_SEEK,               /* a seek did not land on its step */
  FL_BENCH_ERROR_SQLITE,             /* the bare insert failed */
  FL_BENCH_ERROR_CAIRO,              /* no image to draw into */
  FL_BENCH_ERROR_SPIN,               /* spin, gcc or pan failed on a Promela peer */
} FlBenchError;

typedef enum {
  FL_GOAL_NONE,       /* reported for context, no target */
  FL_GOAL_AT_LEAST,   /* value >= target passes */
  FL_GOAL_AT_MOST,    /* value <= target passes */
} FlBenchGoal;

typedef struct {
  char        *section;
  char        *label;     /* unique: the smoke test looks lines up by it */
  double       value;
  char        *unit;
  FlBenchGoal  goal;
  double       target;
} FlBenchMetric;

typedef struct {
  gboolean   quick;       /* tiny sizes: proves every measurement runs, numbers mean nothing */
  GPtrArray *metrics;     /* FlBenchMetric, in the order measured */
  GPtrArray *sections;    /* char *: section titles, in order */
  GPtrArray *notes;       /* char *: what each section simulated (notes[i] is sections[i]'s) */
  GPtrArray *misses;      /* char *: one sentence per target missed */
  char      *current;     /* the section metrics are added to */
  gboolean   window;      /* the window's numbers were loaded (fl_bench_load_results) */
} FlBench;

/* fl-bench-report.c */
FlBench  *fl_bench_new       (gboolean quick);
void      fl_bench_free      (FlBench *bench);
void      fl_bench_section   (FlBench *bench, const char *title, const char *format, ...) G_GNUC_PRINTF (3, 4);
void      fl_bench_add       (FlBench *bench, const char *label, double value, const char *unit,
                              FlBenchGoal goal, double target);
gboolean  fl_bench_passed    (const FlBenchMetric *metric);
char     *fl_bench_format    (double value);
char     *fl_bench_target_text (const FlBenchMetric *metric);

/* fl-bench-clock.c */
guint64   fl_bench_now_ns    (void);
double    fl_bench_median    (double *values, guint n);
double    fl_bench_percentile(double *values, guint n, double p);
guint64   fl_bench_peak_rss_kib   (void);
gboolean  fl_bench_reset_peak_rss (void);
gsize     fl_bench_heap_in_use    (void);

/* fl-bench-steps.c: the workload every measurement simulates */
FlSim    *fl_bench_workload  (guint cpus, guint rounds, FlOracleMode oracle, GError **error);

/* one file per measurement */
gboolean  fl_bench_steps     (FlBench *bench, GError **error);
gboolean  fl_bench_long_run  (FlBench *bench, GError **error);
gboolean  fl_bench_record    (FlBench *bench, GError **error);
gboolean  fl_bench_paint     (FlBench *bench, GError **error);
gboolean  fl_bench_explore   (FlBench *bench, GError **error);
gboolean  fl_bench_spin      (FlBench *bench, GError **error);

/* fl-bench-machine.c: name, value, name, value, ... NULL */
GStrv     fl_bench_machine   (void);

/* fl-bench-results.c: the numbers of another program (faultline-bench-window), as a file */
gboolean  fl_bench_save_results (FlBench *bench, const char *path, GError **error);
gboolean  fl_bench_load_results (FlBench *bench, const char *path, GError **error);

/* fl-bench-doc.c */
gboolean  fl_bench_write_doc (FlBench *bench, const char *path, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FlBench, fl_bench_free)

G_END_DECLS
