#pragma once

/* Where each design's CPU time goes, as the benchmark window shows it beside its chart: per
 * design, the modeled functions and the cache lines that took the largest shares of every
 * CPU's cycles (core/bench/fl-profile.h) — the view that made Linus look at the rwsem. Pure Cairo
 * and Pango like every painter. */

#include <cairo.h>
#include <glib.h>
#include "fl-paint.h"
#include "fl-profile.h"

G_BEGIN_DECLS

/* One design's profile. Borrowed; the painter keeps nothing. */
typedef struct {
  const char      *config;     /* "baseline", "xadd", ... */
  guint            cpus;
  guint64          faults;
  const FlProfile *profile;
} FlBenchProfile;

void     fl_paint_bench_profile  (cairo_t *cr, const char *workload,
                                  const FlBenchProfile *profiles, guint n_profiles,
                                  const FlViewport *viewport, const FlPalette *palette);
gboolean fl_export_bench_profile (const char *workload, const FlBenchProfile *profiles,
                                  guint n_profiles, const FlViewport *viewport,
                                  const FlPalette *palette, const char *format,
                                  const char *path, GError **error);

G_END_DECLS
