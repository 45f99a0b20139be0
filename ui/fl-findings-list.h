#pragma once

/* FlFindingsList: what the oracle found in the whole run, one compact row per finding;
 * activating a row seeks to it and selects its CPU. The row of the finding shown at the
 * current step is selected, so stepping onto a finding lights it up. Hidden while the run
 * has none. */

#include <gtk/gtk.h>

#include "fl-session.h"

G_BEGIN_DECLS

#define FL_TYPE_FINDINGS_LIST (fl_findings_list_get_type ())
G_DECLARE_FINAL_TYPE (FlFindingsList, fl_findings_list, FL, FINDINGS_LIST, GtkWidget)

GtkWidget *fl_findings_list_new (FlSession *session);

G_END_DECLS
