#pragma once

/* FlLanesArea: the CPU lanes view with the hands on it. Ctrl+wheel and pinch zoom around the
 * pointer, a drag or a scroll pans (the vertical wheel goes through the lanes when more CPUs
 * than fit), a click seeks to the step under the pointer and selects that CPU, a double
 * click shows the whole run again, and hovering names the step. */

#include "fl-view-area.h"

G_BEGIN_DECLS

#define FL_TYPE_LANES_AREA (fl_lanes_area_get_type ())
G_DECLARE_FINAL_TYPE (FlLanesArea, fl_lanes_area, FL, LANES_AREA, FlViewArea)

GtkWidget *fl_lanes_area_new      (FlSession   *session);

/* Shows `factor` times less time (more for factor < 1) with the cycle under `x` (in the
 * widget's coordinates) staying where it is. */
void       fl_lanes_area_zoom     (FlLanesArea *self,
                                   double       factor,
                                   double       x);
/* Moves the visible time by `dx` pixels' worth (positive: later). */
void       fl_lanes_area_pan      (FlLanesArea *self,
                                   double       dx);
/* Moves the lanes on screen by `lanes` CPUs (positive: later ones) when they do not all fit
 * at a readable height. */
void       fl_lanes_area_scroll_lanes (FlLanesArea *self,
                                       int          lanes);
/* Back to the whole run (it stays until the user zooms or presses F again). */
void       fl_lanes_area_reset    (FlLanesArea *self);
/* F: the whole run, or back to following the cursor (a long run's default: a window around
 * the cursor that moves on with it while playing). */
void       fl_lanes_area_toggle_whole_run (FlLanesArea *self);
/* Whether the whole run is on screen. */
gboolean   fl_lanes_area_get_whole_run    (FlLanesArea *self);

G_END_DECLS
