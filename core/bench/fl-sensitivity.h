#pragma once

/* How the 2010 table moves with the model's free constants: each of them at half, all and one
 * and a half of its value, the four designs measured at one CPU count. What `faultline-cli
 * bench --sensitivity` prints and draws, so a reviewer can see which conclusions a constant
 * decides. */

#include "fl-bench-run.h"

G_BEGIN_DECLS

/* The designs of the 2010 table, in its order: baseline, xadd, spf, xadd+spf. */
#define FL_SENSITIVITY_DESIGNS 4

typedef struct {
  const char *key;          /* the constant: "cost.step", "cost.occupancy", ... */
  guint       value;        /* what it was set to */
  guint       percent;      /* of the value the model uses: 50, 100, 150 */
  double      per_sec[FL_SENSITIVITY_DESIGNS];
  double      ratio[FL_SENSITIVITY_DESIGNS];   /* to the baseline of the same row */
  guint       findings;
} FlSensitivityRow;

const char *const *fl_sensitivity_keys (void);
GArray   *fl_sensitivity_measure (const char   *workload,
                                  guint         cpus,
                                  guint         rounds,
                                  FlBenchAdjust adjust,
                                  gpointer      adjust_data,
                                  GError      **error);
gboolean  fl_sensitivity_order_holds (const FlSensitivityRow *row, guint from, guint to);

G_END_DECLS
