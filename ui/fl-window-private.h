/* fl-window-private.h — the window's fields, shared by fl-window.c (building it, keeping the
 * header current) and fl-window-actions.c (its actions). Private to ui/. */
#pragma once

#include "fl-panels.h"

#include <gtk/gtk.h>

#include "fl-bookmarks.h"
#include "fl-presentation.h"
#include "fl-scrubber.h"
#include "fl-session.h"
#include "fl-view-area.h"
#include "fl-window.h"

G_BEGIN_DECLS

struct _FlWindow
{
  GtkApplicationWindow parent_instance;

  GtkStack       *stack;
  GtkLabel       *subtitle_label;
  GtkLabel       *scenario_label;
  GtkLabel       *error_title_label;
  GtkLabel       *error_label;
  GtkWidget      *error_edit_button;
  char           *failed_file; /* the .fault file whose load failed last, NULL after a load */
  GtkProgressBar *progress_bar;
  GtkWidget      *stop_loading_button;
  GtkBox         *scenario_box;
  GtkBox         *views_box;
  GtkWidget      *about;       /* the scenario's description over the views */
  GtkButton      *play_button;
  GtkLabel       *step_label;
  guint           header_id;   /* idle that sizes the header bar's text to the window's width */
  char           *step_widest; /* the text the step label is sized for */
  GtkScale       *speed_scale;
  GtkAdjustment  *speed_adjustment;
  GtkPaned       *paned;
  FlPanels       *panels;
  FlScrubber     *scrubber;
  FlViewArea     *lanes;
  FlSession      *session;
  GtkLabel       *message_label;
  FlBookmarks    *bookmarks;
  GtkWidget      *bookmarks_button;
  FlPresentation *presentation;
  GtkWidget      *compare_page;
  guint           message_id;

  GSettings      *settings;
  GtkWidget      *last_view;   /* the view Export means: the one focused or clicked last */
  guint           place_paned_id;
  char           *scenario;    /* a built-in scenario id or an absolute path, as given */
};

/* The window's actions ("win.play", "win.export", …), added to its action map. */
void fl_window_add_actions (FlWindow *self);

G_END_DECLS
