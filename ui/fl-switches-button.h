#pragma once

/* The header bar's "Design" menu: one control per design switch of the configuration
 * (fault path, rwsem, VMA freeing, …, and the machine's CPUs and sockets). Changing one
 * re-runs the scenario with it through the session; the controls always show the
 * configuration of the run on screen. */

#include <gtk/gtk.h>

#include "fl-session.h"

G_BEGIN_DECLS

#define FL_TYPE_SWITCHES_BUTTON (fl_switches_button_get_type ())
G_DECLARE_FINAL_TYPE (FlSwitchesButton, fl_switches_button, FL, SWITCHES_BUTTON, GtkWidget)

GtkWidget *fl_switches_button_new (FlSession *session);

G_END_DECLS
