#pragma once

/* Benchmark workloads as scenarios, for any number of CPUs, and the configurations the 2010
 * table compares. */

#include "fl-scenario.h"

G_BEGIN_DECLS

typedef struct {
  const char *name;         /* "baseline", "xadd", "spf", "xadd+spf" */
  const char *fault_path;
  const char *rwsem;
  const char *spf;          /* the speculative path as measured: "v2-as-posted" (fl-config.c) */
  double      published;    /* Zijlstra's ratio to baseline, 8 Jan 2010; 0 when none */
  const char *vma_refcount; /* Kamezawa's design as measured: "as-posted" (v3); NULL: default */
  double      published_split; /* Kamezawa's ratio on multi-fault-all-split, 25 Dec 2009; 0 none */
} FlBenchConfig;

const FlBenchConfig *fl_bench_configs     (guint *n);
const FlBenchConfig *fl_bench_config      (const char *name);
void                 fl_bench_config_apply(const FlBenchConfig *bench, FlConfig *config);
double               fl_bench_published   (const FlBenchConfig *bench, const char *workload);
const char          *fl_bench_published_by (const char *workload);
const char *fl_workload_kernel (const char *id);
GStrv                fl_workload_ids      (void);
FlScenario          *fl_workload_build    (const char *id, guint cpus, guint rounds, GError **error);

G_END_DECLS
