#pragma once

#include <stdio.h>
#include "fl-sim.h"

G_BEGIN_DECLS

gsize    fl_cli_print_trace        (FlSim *sim, gsize from, FILE *out);
void     fl_cli_print_summary      (FlSim *sim, guint64 seed, FlSchedPolicy policy,
                                    gboolean hit_limit, FILE *out);
void     fl_cli_print_json         (FlSim *sim, guint64 seed, gboolean hit_limit, FILE *out);
gboolean fl_cli_write_chrome_trace (FlSim *sim, const char *path);

G_END_DECLS
