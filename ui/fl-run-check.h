#pragma once

/* After a recorded run was loaded into the window's session (fl_session_load_run()): once the
 * load is over, compare the replayed event stream with the recording, the way the store's
 * replay does (fl_store_sim_hash_text(), the step count), and tell the user the result in the
 * window. The check outlives whoever started it; a newer check on the same session, or a
 * load of something else, replaces it silently. */

#include "fl-store.h"
#include "fl-window.h"

G_BEGIN_DECLS

/* Called when the check is over, on `target` if it still exists. */
typedef void (*FlRunCheckFunc) (GObject    *target,
                                gint64      run_id,
                                gboolean    matches,
                                const char *message);

void fl_run_check_start (FlWindow          *window,
                         const FlStoredRun *run,
                         GObject           *target,
                         FlRunCheckFunc     func);

G_END_DECLS
