#pragma once

/* Shared by `bench` and `bench --sensitivity`. */

#include <glib.h>
#include "fl-paint.h"

G_BEGIN_DECLS

const char *fl_cli_chart_format      (const char *path);
void        fl_cli_chart_style       (gboolean dark, FlPalette *palette, FlViewport *viewport);
int         fl_cli_bench_profile     (const char *workload, guint cpus, GPtrArray *configs,
                                      char **sets, guint rounds, gboolean json);
int         fl_cli_bench_sensitivity (const char *workload, guint cpus, char **sets, guint rounds,
                                      gboolean json, const char *chart, gboolean dark);

G_END_DECLS
