#pragma once

/* FlPanels: the window's panels under the lanes. Where there is room, a grid of three
 * columns and two rows (VMA tree, page tables, listing; cache lines, RCU, counters); on a
 * small screen (1024×700), or when the text scale leaves a row too short for its type, the
 * listing keeps a column of the whole height and the other panels become tabs beside it,
 * each shown at the size it needs instead of shrunk to "…"; a wide window (a projector's
 * 1920 pixels at a large text scale) has two groups of tabs, the VMA tree and page tables,
 * and cache lines, RCU and counters. In a .ui file the listing is the
 * child of type "side"; the others, in order, are the tabs. */

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define FL_TYPE_PANELS (fl_panels_get_type ())
G_DECLARE_FINAL_TYPE (FlPanels, fl_panels, FL, PANELS, GtkWidget)

/* Whether the panels are tabs now (as last laid out). */
gboolean   fl_panels_is_compact   (FlPanels  *self);
/* Whether tab `tab` (0 the first child) is on screen now, and choosing it (as a click on its
 * tab does). */
gboolean   fl_panels_is_shown     (FlPanels  *self,
                                   guint      tab);
void       fl_panels_set_tab      (FlPanels  *self,
                                   guint      tab);
/* The tab that holds `widget` (a panel or a widget inside one), or -1. */
int        fl_panels_tab_of       (FlPanels  *self,
                                   GtkWidget *widget);

G_END_DECLS
