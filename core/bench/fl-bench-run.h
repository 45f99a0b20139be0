#pragma once

/* One row of the benchmark: a workload under one configuration of the 2010 table at one CPU
 * count, simulated to its end. What `faultline-cli bench` prints and the window charts. */

#include "fl-workload.h"

G_BEGIN_DECLS

typedef struct _FlProfile FlProfile;

typedef struct {
  const FlBenchConfig *config;
  guint   cpus;
  guint64 faults, cycles, steps;
  guint64 hash;             /* of the run's events: the same row, the same events */
  double  per_sec;          /* faults per simulated second */
  double  ratio;            /* to baseline at the same CPU count: set by the caller */
  guint   findings;
} FlBenchRow;

/* Called on the run's configuration after the bench configuration was applied, before the
 * run starts (the CLI's --set). FALSE stops the measurement without an error: the callback
 * has said why. */
typedef gboolean (*FlBenchAdjust) (FlConfig *config, gpointer user_data);

/* Measures row->config at row->cpus. FALSE with an error when the workload cannot be built
 * or simulated, or without one when `adjust` refused. */
gboolean fl_bench_measure (const char   *workload,
                           guint         rounds,
                           FlBenchAdjust adjust,
                           gpointer      adjust_data,
                           FlBenchRow   *row,
                           GError      **error);
gboolean fl_bench_measure_profile (const char   *workload,
                                   guint         rounds,
                                   FlBenchAdjust adjust,
                                   gpointer      adjust_data,
                                   FlBenchRow   *row,
                                   FlProfile   **profile,
                                   GError      **error);

G_END_DECLS
