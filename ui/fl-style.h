#pragma once

/* Which of the painters' palettes the widgets draw with: the dark one exactly while GTK draws
 * the dark style, whoever chose it (the app's setting, the desktop, the inspector). */

#include <gtk/gtk.h>

#include "fl-paint.h"

G_BEGIN_DECLS

gboolean fl_style_is_dark      (void);
void     fl_style_get_palette  (FlPalette *palette);
/* Calls `callback (user_data)` whenever the answer of fl_style_is_dark() may have changed,
 * for as long as `owner` lives. */
void     fl_style_connect      (GObject   *owner,
                                GCallback  callback);

G_END_DECLS
