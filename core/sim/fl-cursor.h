#pragma once

/* FlCursor: the state of a run (fl-run.h) at one of its steps. Cheap to make, copy and move:
 * each cursor replays the run from its nearest checkpoint on its own copy of the state, and
 * never changes the run, so the window's cursor, a bookmark's, an export's and a comparison's
 * move independently over one run. A cursor belongs to one thread at a time; its run is
 * shared. Getters take a const cursor: drawing a state cannot move it. */

#include <glib.h>
#include "fl-cpu-view.h"
#include "fl-run.h"

G_BEGIN_DECLS

typedef struct _FlCursor FlCursor;

FlCursor       *fl_cursor_new             (const FlRun *run);
FlCursor       *fl_cursor_copy            (const FlCursor *cursor);
void            fl_cursor_free            (FlCursor *cursor);
gboolean        fl_cursor_seek            (FlCursor *cursor, guint64 step);

const FlRun    *fl_cursor_get_run         (const FlCursor *cursor);
guint64         fl_cursor_get_step        (const FlCursor *cursor);
guint64         fl_cursor_get_total_steps (const FlCursor *cursor);
const FlState  *fl_cursor_get_state       (const FlCursor *cursor);
guint64         fl_cursor_get_state_hash  (const FlCursor *cursor);
void            fl_cursor_get_counters    (const FlCursor *cursor, FlCounters *counters);
void            fl_cursor_get_cpu_view    (const FlCursor *cursor, guint cpu, FlCpuView *out);
gboolean        fl_cursor_cpu_can_step    (const FlCursor *cursor, guint cpu);
const char     *fl_cursor_line_name       (const FlCursor *cursor, guint line, char *buf,
                                           gsize size);
char           *fl_cursor_describe_event  (const FlCursor *cursor, const FlEvent *event);

FlSim          *fl_cursor_branch          (const FlCursor *cursor, guint cpu);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FlCursor, fl_cursor_free)

G_END_DECLS
