#pragma once

/* Checking the scenario editor's text: the core parser's verdict turned into what the editor
 * shows, the line at fault and a translated one-line status. Pure GLib: no widgets. */

#include <glib.h>

#include "fl-scenario.h"

G_BEGIN_DECLS

/* Parses `text` with the core parser. Valid: returns the scenario, *out_line is 0 and
 * *out_status reads "Valid scenario: 2 CPUs, 3 operations". Invalid: returns NULL, *out_line
 * is the line the error names (1-based) and *out_status reads "Line 7: what is wrong". */
FlScenario *fl_editor_check_text (const char  *text,
                                  guint       *out_line,
                                  char       **out_status);

G_END_DECLS
