#pragma once

/* Between the store and the explorer: an exploration and the runs of its counterexamples. */

#include "fl-store.h"
#include "fl-explore.h"

G_BEGIN_DECLS

gint64 fl_store_record_exploration (FlStore                *store,
                                    const FlScenario       *scenario,
                                    const FlExploreOptions *options,
                                    const FlExploreResult  *result,
                                    GArray                 *out_run_ids,
                                    GError                **error);

G_END_DECLS
