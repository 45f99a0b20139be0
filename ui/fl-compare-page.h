#pragma once

/* FlComparePage: the window's compare mode. Run A is the session's run; run B is the same
 * scenario with one design switch changed, simulated in a worker. The page paints
 * fl_paint_compare() at the session's step (B synced to A through the painter's alignment)
 * and tells assistive technologies both runs' counters and their difference in words. */

#include <gtk/gtk.h>

#include "fl-paint-compare.h"
#include "fl-session.h"

G_BEGIN_DECLS

#define FL_TYPE_COMPARE_PAGE (fl_compare_page_get_type ())
G_DECLARE_FINAL_TYPE (FlComparePage, fl_compare_page, FL, COMPARE_PAGE, GtkWidget)

GtkWidget  *fl_compare_page_new        (FlSession     *session);
/* Starts simulating B: the session's run with `key` set to `value`. FALSE with an error when
 * there is no run or the switch is not valid; the page then keeps what it showed. */
gboolean    fl_compare_page_start      (FlComparePage *self,
                                        const char    *key,
                                        const char    *value,
                                        GError       **error);
/* Drops both the comparison and a B still being simulated. */
void        fl_compare_page_stop       (FlComparePage *self);
gboolean    fl_compare_page_is_loading (FlComparePage *self);
/* NULL while B is simulated or after stop. */
FlCompare  *fl_compare_page_get_compare(FlComparePage *self);
/* The drawing widget: an image to assistive technologies. */
GtkWidget  *fl_compare_page_get_area   (FlComparePage *self);
/* The area's accessible description, as last set. */
const char *fl_compare_page_get_description (FlComparePage *self);
/* The compare image as drawn at the area's size, to PNG, SVG or PDF. */
gboolean    fl_compare_page_export     (FlComparePage *self,
                                        const char    *format,
                                        const char    *path,
                                        GError       **error);
/* A save dialog, then fl_compare_page_export() with the format of the chosen name. */
void        fl_compare_page_export_dialog (FlComparePage *self,
                                           GtkWindow     *parent);

G_END_DECLS
