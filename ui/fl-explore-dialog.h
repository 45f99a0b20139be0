#pragma once

/* The dialog win.explore opens: the race explorer on the window's scenario in a worker, its
 * progress and Cancel, then each kind of finding with an Open button. */

#include "fl-window.h"

G_BEGIN_DECLS

void fl_explore_dialog_present (FlWindow *window);

G_END_DECLS
