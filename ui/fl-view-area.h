#pragma once

/* FlViewArea: one painter view of the session's run at its cursor, drawn through fl_paint_view() so
 * the widget shows exactly what an export of the view holds. An image to assistive
 * technologies, labelled with the view's name and described by fl_view_describe(), kept
 * current with every step. The lanes widget derives from it to add zoom, pan and seeking. */

#include <gtk/gtk.h>

#include "fl-paint.h"
#include "fl-session.h"

G_BEGIN_DECLS

#define FL_TYPE_VIEW (fl_view_get_type ())
GType fl_view_get_type (void);

#define FL_TYPE_VIEW_AREA (fl_view_area_get_type ())
G_DECLARE_DERIVABLE_TYPE (FlViewArea, fl_view_area, FL, VIEW_AREA, GtkWidget)

struct _FlViewAreaClass
{
  GtkWidgetClass parent_class;

  gpointer padding[4];
};

GtkWidget  *fl_view_area_new             (FlSession        *session,
                                          FlView            view);
FlSession  *fl_view_area_get_session     (FlViewArea       *self);
FlView      fl_view_area_get_view        (FlViewArea       *self);
/* The view's translated name, its accessible label ("CPU lanes", "VMA tree", …). */
const char *fl_view_get_title            (FlView            view);

/* The viewport the view is drawn with at its current size: what exports and tests need to
 * draw the same picture. */
void        fl_view_area_get_viewport    (FlViewArea       *self,
                                          FlViewport       *viewport);
void        fl_view_area_get_palette     (FlViewArea       *self,
                                          FlPalette        *palette);
/* The lanes' visible window of simulated time in cycles; 0, 0 shows the whole run. */
void        fl_view_area_set_time_window (FlViewArea       *self,
                                          guint64           start,
                                          guint64           end);
/* The first CPU the lanes show when they do not all fit (the painter keeps it in range). */
void        fl_view_area_set_lane_first  (FlViewArea       *self,
                                          guint             lane_first);
/* Scales the views' type (presentation mode); 1 is the window's normal size. */
void        fl_view_area_set_font_scale  (FlViewArea       *self,
                                          double            font_scale);

G_END_DECLS
