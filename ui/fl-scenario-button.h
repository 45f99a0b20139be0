#pragma once

/* The header bar's scenario chooser: a menu button labelled with the open scenario's short
 * name whose popover lists the built-in scenarios and offers "Open File…". */

#include <gtk/gtk.h>

#include "fl-session.h"

G_BEGIN_DECLS

#define FL_TYPE_SCENARIO_BUTTON (fl_scenario_button_get_type ())
G_DECLARE_FINAL_TYPE (FlScenarioButton, fl_scenario_button, FL, SCENARIO_BUTTON, GtkWidget)

GtkWidget *fl_scenario_button_new      (FlSession  *session);

/* Asks for a `.fault` file (GtkFileChooserNative, modal for @parent) and loads it into
 * @session; cancelling changes nothing. */
void       fl_scenario_open_file       (GtkWindow  *parent,
                                        FlSession  *session);

G_END_DECLS
