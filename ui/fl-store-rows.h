#pragma once

/* The rows of the store browser's lists: a scenario or a run of the store as a GObject for a
 * GListModel, and the columns of labels that show them. */

#include <gtk/gtk.h>

#include "fl-scenario.h"
#include "fl-store.h"

G_BEGIN_DECLS

#define FL_TYPE_SCENARIO_ITEM (fl_scenario_item_get_type ())
G_DECLARE_FINAL_TYPE (FlScenarioItem, fl_scenario_item, FL, SCENARIO_ITEM, GObject)

/* Takes `scenario`. */
FlScenarioItem         *fl_scenario_item_new   (FlStoredScenario *scenario);
const FlStoredScenario *fl_scenario_item_get   (FlScenarioItem   *self);

#define FL_TYPE_RUN_ITEM (fl_run_item_get_type ())
G_DECLARE_FINAL_TYPE (FlRunItem, fl_run_item, FL, RUN_ITEM, GObject)

/* Takes `run`. `scenario` is the run's scenario parsed (NULL when it no longer parses): the
 * switches column shows what the run changed from the scenario's own configuration. */
FlRunItem         *fl_run_item_new          (FlStoredRun      *run,
                                             const FlScenario *scenario);
const FlStoredRun *fl_run_item_get          (FlRunItem        *self);
/* "rwsem=xadd  schedule=random", or "As in the scenario" when the run changed nothing. */
const char        *fl_run_item_get_switches (FlRunItem        *self);

/* The columns of the browser's lists: name, title, tags and date of a scenario; number,
 * date, switches (the whole configuration and seed as tooltip), steps, findings and verdict
 * of a run. Numbers are right-aligned; an ellipsized text shows in full as tooltip. */
void fl_store_rows_add_scenario_columns (GtkColumnView *view);
void fl_store_rows_add_run_columns      (GtkColumnView *view);

G_END_DECLS
