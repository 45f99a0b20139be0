#pragma once

/* Between the files that decode a CPU (fl-cpu-view.c, fl-cpu-wait.c, fl-cpu-fault.c). */

#include "fl-cpu-view.h"

G_BEGIN_DECLS

/* Fills the wait of a decoded CPU (its `wait`, `loc`, `holder`, `waits_on`, `wait_name`)
 * from @c's status and the place its top frame parked at. */
void fl_cpu_wait_decode (const FlState *st, const FlCpu *c, FlCpuView *view);

G_END_DECLS
