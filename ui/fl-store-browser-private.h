#pragma once

/* What the files of the store browser share and nobody else sees: the window's fields and
 * the helpers the delete question (fl-store-browser-delete.c) calls back. */

#include "fl-store-browser.h"
#include "fl-store-rows.h"

G_BEGIN_DECLS

struct _FlStoreBrowser
{
  GtkWindow parent_instance;

  FlWindow           *window;        /* weak: the main window, which the browser is transient for */
  FlStore            *store;         /* NULL when the store could not be opened */
  gboolean            is_mine;       /* the user's store, not one from elsewhere */
  char               *path;          /* of the store shown, even when opening it failed */

  GListStore         *scenarios;
  GtkSingleSelection *scenario_selection;
  GListStore         *runs;
  GtkSingleSelection *run_selection;
  GSimpleActionGroup *actions;
  GtkWidget          *confirmation;  /* weak: the delete question being asked */

  /* template children */
  GtkLabel           *title_label;
  GtkLabel           *subtitle_label;
  GtkWidget          *store_bar;
  GtkLabel           *store_bar_label;
  GtkWidget          *message_bar;
  GtkImage           *message_icon;
  GtkLabel           *message_label;
  GtkButton          *message_close;
  GtkSearchEntry     *search_entry;
  GtkStack           *scenario_stack;
  GtkColumnView      *scenario_view;
  GtkLabel           *scenario_empty_title;
  GtkLabel           *scenario_empty_label;
  GtkLabel           *runs_heading;
  GtkStack           *run_stack;
  GtkColumnView      *run_view;
  GtkLabel           *run_empty_label;
};

FlScenarioItem *fl_store_browser_selected_scenario (FlStoreBrowser *self);
FlRunItem      *fl_store_browser_selected_run      (FlStoreBrowser *self);
void            fl_store_browser_refresh           (FlStoreBrowser *self);
void            fl_store_browser_show_error        (FlStoreBrowser *self,
                                                    const char     *what,
                                                    const GError   *error);
void            fl_store_browser_hide_message      (FlStoreBrowser *self);

/* fl-store-browser-delete.c: deleting, after asking */
typedef enum { FL_DELETE_SCENARIO, FL_DELETE_RUN } FlDeleteKind;

gboolean        fl_store_browser_run_is_shown      (FlStoreBrowser *self,
                                                    gint64          run_id);
/* Asks whether to delete the selected scenario or run, and does it on "Delete". */
void            fl_store_browser_ask_delete        (FlStoreBrowser *self,
                                                    FlDeleteKind    kind);

G_END_DECLS
