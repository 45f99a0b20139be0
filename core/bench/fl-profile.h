#pragma once

/* Where a run's CPU time went, as a profiler would say it: the cycles of each step belong to
 * the function the step is in and to the most expensive cache line it touched. Time a CPU
 * spends parked (spinning, asleep) belongs to the step that ends the wait, as a sampling
 * profiler finds a spinner inside its lock function. */

#include "fl-sim.h"

G_BEGIN_DECLS

typedef struct {
  char    *name;
  guint64  cycles;
} FlProfileEntry;

struct _FlProfile {
  guint64  total;          /* CPU cycles summed over every CPU */
  GArray  *by_function;    /* FlProfileEntry: modeled functions, largest first */
  GArray  *by_line;        /* FlProfileEntry: shared lines, object lines by kind */
};
typedef struct _FlProfile FlProfile;

FlProfile *fl_profile_of_run (FlSim *sim);
void       fl_profile_free   (FlProfile *profile);
double     fl_profile_share  (const GArray *entries, guint64 total, const char *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FlProfile, fl_profile_free)

G_END_DECLS
