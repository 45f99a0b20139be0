/* fl-window-actions.c — what the window's actions do: each turns into a session call, a
 * dialog or another window. The header and the views follow the session on their own. */
#include "fl-window-private.h"

#include <glib/gi18n.h>

#include "fl-bench-window.h"
#include "fl-bookmark-dialog.h"
#include "fl-compare-dialog.h"
#include "fl-explore-dialog.h"
#include "fl-compare-page.h"
#include "fl-editor-window.h"
#include "fl-export-dialog.h"
#include "fl-scenario-button.h"
#include "fl-store-browser.h"


static void
fl_window_play (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  FlWindow *self = user_data;
  fl_session_set_playing (self->session, !fl_session_is_playing (self->session));
}

static void
fl_window_step_forward (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  FlWindow *self = user_data;
  fl_session_set_playing (self->session, FALSE);
  fl_session_step_forward (self->session);
}

static void
fl_window_step_back (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  FlWindow *self = user_data;
  fl_session_set_playing (self->session, FALSE);
  fl_session_step_back (self->session);
}

static void
fl_window_step_cpu (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  FlWindow *self = user_data;
  fl_session_step_selected_cpu (self->session);
}

static void
fl_window_start (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  FlWindow *self = user_data;
  fl_session_set_playing (self->session, FALSE);
  fl_session_seek (self->session, 0);
}

static void
fl_window_end (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  FlWindow *self = user_data;
  fl_session_set_playing (self->session, FALSE);
  fl_session_seek (self->session, fl_session_get_total_steps (self->session));
}

static void
fl_window_next_finding (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  FlWindow *self = user_data;
  if (!fl_session_next_finding (self->session))
    gtk_widget_error_bell (GTK_WIDGET (self));
}

static void
fl_window_previous_finding (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  FlWindow *self = user_data;
  if (!fl_session_previous_finding (self->session))
    gtk_widget_error_bell (GTK_WIDGET (self));
}

static void
fl_window_select_cpu (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  FlWindow *self = user_data;
  guint cpu = g_variant_get_uint32 (parameter);

  if (cpu < fl_session_get_n_cpus (self->session))
    fl_session_select_cpu (self->session, cpu);
  else
    gtk_widget_error_bell (GTK_WIDGET (self));
}

static void
fl_window_open (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  FlWindow *self = user_data;
  fl_scenario_open_file (GTK_WINDOW (self), self->session);
}

static void
fl_window_export (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  FlWindow *self = user_data;
  FlViewport viewport;
  FlView view = FL_VIEW_ALL;

  if (fl_window_is_comparing (self))
    {
      fl_compare_page_export_dialog (FL_COMPARE_PAGE (self->compare_page), GTK_WINDOW (self));
      return;
    }
  if (self->last_view != NULL)
    {
      view = fl_view_area_get_view (FL_VIEW_AREA (self->last_view));
      fl_view_area_get_viewport (FL_VIEW_AREA (self->last_view), &viewport);
    }
  else
    {
      viewport = (FlViewport) {
        .width = gtk_widget_get_width (GTK_WIDGET (self)),
        .height = gtk_widget_get_height (GTK_WIDGET (self)),
        .font_scale = 1.0,
        .selected_cpu = fl_session_get_selected_cpu (self->session),
      };
    }
  fl_export_dialog_present (GTK_WINDOW (self), self->session, view, &viewport);
}

static void
fl_window_add_bookmark_action (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  FlWindow *self = user_data;

  gtk_menu_button_popdown (GTK_MENU_BUTTON (self->bookmarks_button));
  fl_session_set_playing (self->session, FALSE);
  fl_bookmark_dialog_present (GTK_WINDOW (self), self->bookmarks, NULL,
                              fl_session_get_step (self->session));
}

static void
fl_window_present (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  FlWindow *self = user_data;

  if (fl_presentation_is_active (self->presentation))
    fl_presentation_leave (self->presentation);
  else if (!fl_presentation_enter (self->presentation))
    fl_window_show_message (self, _("This run has no bookmarks to present: "
                                    "Ctrl+D adds one at the current step."));
}

/* PageDown/PageUp: the walk's next slide when presenting, else the next bookmark by step. */
static void
fl_window_walk_bookmarks (FlWindow *self, gboolean forward)
{
  gboolean moved;

  if (fl_presentation_is_active (self->presentation))
    moved = forward ? fl_presentation_next (self->presentation)
                    : fl_presentation_previous (self->presentation);
  else
    {
      guint64 step = fl_session_get_step (self->session);
      int i = forward ? fl_bookmarks_next_after (self->bookmarks, step)
                      : fl_bookmarks_previous_before (self->bookmarks, step);
      moved = i >= 0;
      if (moved)
        {
          g_autoptr(FlBookmark) bookmark =
            g_list_model_get_item (fl_bookmarks_get_model (self->bookmarks), (guint) i);
          fl_session_set_playing (self->session, FALSE);
          fl_session_seek (self->session, fl_bookmark_get_step (bookmark));
        }
    }
  if (!moved)
    gtk_widget_error_bell (GTK_WIDGET (self));
}

static void
fl_window_next_bookmark (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  fl_window_walk_bookmarks (user_data, TRUE);
}

static void
fl_window_previous_bookmark (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  fl_window_walk_bookmarks (user_data, FALSE);
}

static void
fl_window_compare (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  FlWindow *self = user_data;

  fl_session_set_playing (self->session, FALSE);
  fl_compare_dialog_present (self);
}

static void
fl_window_explore (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  FlWindow *self = user_data;

  fl_session_set_playing (self->session, FALSE);
  fl_explore_dialog_present (self);
}

static void
fl_window_edit_scenario (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  FlWindow *self = user_data;

  if (self->failed_file != NULL)
    {
      g_autoptr(GFile) file = g_file_new_for_path (self->failed_file);
      fl_editor_window_show_file (GTK_WINDOW (self), self->session, file);
    }
  else
    fl_editor_window_show (GTK_WINDOW (self), self->session);
}

static void
fl_window_browse_store (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  fl_store_browser_present (FL_WINDOW (user_data));
}

static void
fl_window_bench (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  gtk_window_present (GTK_WINDOW (fl_bench_window_new (GTK_WINDOW (user_data))));
}

static void
fl_window_leave_compare_action (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  fl_window_leave_compare (FL_WINDOW (user_data));
}

static void
fl_window_stop_loading (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  FlWindow *self = user_data;
  fl_session_stop_loading (self->session);
}

/* Escape stops a load, or leaves compare mode; otherwise it goes on to whoever else wants it. */
static const GActionEntry fl_window_actions[] = {
  { .name = "play", .activate = fl_window_play },
  { .name = "step-forward", .activate = fl_window_step_forward },
  { .name = "step-back", .activate = fl_window_step_back },
  { .name = "step-cpu", .activate = fl_window_step_cpu },
  { .name = "start", .activate = fl_window_start },
  { .name = "end", .activate = fl_window_end },
  { .name = "next-finding", .activate = fl_window_next_finding },
  { .name = "previous-finding", .activate = fl_window_previous_finding },
  { .name = "select-cpu", .activate = fl_window_select_cpu, .parameter_type = "u" },
  { .name = "open", .activate = fl_window_open },
  { .name = "export", .activate = fl_window_export },
  { .name = "add-bookmark", .activate = fl_window_add_bookmark_action },
  { .name = "present", .activate = fl_window_present },
  { .name = "next-bookmark", .activate = fl_window_next_bookmark },
  { .name = "previous-bookmark", .activate = fl_window_previous_bookmark },
  { .name = "compare", .activate = fl_window_compare },
  { .name = "explore", .activate = fl_window_explore },
  { .name = "leave-compare", .activate = fl_window_leave_compare_action },
  { .name = "bench", .activate = fl_window_bench },
  { .name = "edit-scenario", .activate = fl_window_edit_scenario },
  { .name = "browse-store", .activate = fl_window_browse_store },
  { .name = "stop-loading", .activate = fl_window_stop_loading },
};


void
fl_window_add_actions (FlWindow *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), fl_window_actions,
                                   G_N_ELEMENTS (fl_window_actions), self);
}
