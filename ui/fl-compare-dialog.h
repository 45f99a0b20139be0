#pragma once

/* The dialog win.compare opens: one design switch and its value for run B. Its Compare
 * button calls fl_window_start_compare(). */

#include "fl-window.h"

G_BEGIN_DECLS

void fl_compare_dialog_present (FlWindow *window);

G_END_DECLS
