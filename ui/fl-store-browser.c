/* The store browser: lists, search, opening runs and scenarios, import and export, other
 * stores. See fl-store-browser.h. */

#include "fl-store-browser-private.h"

#include <glib/gi18n.h>

#include "fl-application.h"
#include "fl-bookmarks.h"
#include "fl-file-chooser.h"
#include "fl-run-check.h"
#include "fl-store-record.h"


G_DEFINE_FINAL_TYPE (FlStoreBrowser, fl_store_browser, GTK_TYPE_WINDOW)

enum {
  SIGNAL_RUN_CHECKED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void fl_store_browser_refresh_runs (FlStoreBrowser *self);

/* ---- messages ---- */

static void
fl_store_browser_show_message (FlStoreBrowser *self, GtkMessageType type, const char *text)
{
  const char *icon = type == GTK_MESSAGE_ERROR ? "dialog-error-symbolic"
                   : type == GTK_MESSAGE_WARNING ? "dialog-warning-symbolic"
                   : "dialog-information-symbolic";

  gtk_image_set_from_icon_name (self->message_icon, icon);
  if (type == GTK_MESSAGE_ERROR || type == GTK_MESSAGE_WARNING)
    gtk_widget_add_css_class (self->message_bar, "fl-banner-error");
  else
    gtk_widget_remove_css_class (self->message_bar, "fl-banner-error");
  gtk_label_set_label (self->message_label, text);
  gtk_widget_set_visible (self->message_bar, TRUE);
}

void
fl_store_browser_hide_message (FlStoreBrowser *self)
{
  gtk_widget_set_visible (self->message_bar, FALSE);
}

/* `what` says what failed ("Could not import the file."), the store's error says where and
 * why; a busy store gets told apart, since trying again later is the fix. */
void
fl_store_browser_show_error (FlStoreBrowser *self, const char *what, const GError *error)
{
  g_autofree char *text = NULL;

  if (g_error_matches (error, FL_STORE_ERROR, FL_STORE_ERROR_BUSY))
    text = g_strdup_printf ("%s %s\n%s", what,
                            _("The store is busy: a run is being recorded or another "
                              "Faultline is writing to it. Try again in a moment."),
                            error->message);
  else
    text = g_strdup_printf ("%s\n%s", what, error->message);
  fl_store_browser_show_message (self, GTK_MESSAGE_ERROR, text);
}

/* ---- state of the window ---- */

FlScenarioItem *
fl_store_browser_selected_scenario (FlStoreBrowser *self)
{
  return gtk_single_selection_get_selected_item (self->scenario_selection);
}

FlRunItem *
fl_store_browser_selected_run (FlStoreBrowser *self)
{
  return gtk_single_selection_get_selected_item (self->run_selection);
}

static void
fl_store_browser_enable (FlStoreBrowser *self, const char *name, gboolean enabled)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self->actions), name);

  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), enabled);
}

static void
fl_store_browser_update_actions (FlStoreBrowser *self)
{
  gboolean open = self->store != NULL;
  gboolean writable = open && !fl_store_is_read_only (self->store);
  gboolean scenario = fl_store_browser_selected_scenario (self) != NULL;
  gboolean run = fl_store_browser_selected_run (self) != NULL;

  fl_store_browser_enable (self, "import", writable);
  fl_store_browser_enable (self, "export", scenario);
  fl_store_browser_enable (self, "delete-scenario", writable && scenario);
  fl_store_browser_enable (self, "delete-run", writable && run);
  fl_store_browser_enable (self, "open-scenario", scenario);
  fl_store_browser_enable (self, "open-run", run);
  fl_store_browser_enable (self, "my-store", !self->is_mine);
}

static void
fl_store_browser_update_title (FlStoreBrowser *self)
{
  g_autofree char *name = g_filename_display_basename (self->path);
  g_autofree char *display_path = g_filename_display_name (self->path);
  g_autofree char *title = NULL;

  if (self->is_mine)
    title = g_strdup (_("My Store"));
  else
    /* Translators: the store browser's title for a store file from elsewhere. */
    title = g_strdup_printf (_("%s (read-only)"), name);
  gtk_label_set_label (self->title_label, title);
  gtk_label_set_label (self->subtitle_label, display_path);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->subtitle_label), display_path);
  /* what the window list and the accessibility tree call it */
  {
    /* Translators: the store browser's window title; %s is "My Store" or a file's name. */
    g_autofree char *window_title = g_strdup_printf (_("Store — %s"), title);
    gtk_window_set_title (GTK_WINDOW (self), window_title);
  }

  if (!self->is_mine)
    {
      g_autofree char *banner =
        /* Translators: the banner over a store opened with "Open Another Store…". */
        g_strdup_printf (_("Showing “%s”, a store from elsewhere. It is read-only: nothing "
                           "can be imported into it or deleted from it."), name);
      gtk_label_set_label (self->store_bar_label, banner);
    }
  gtk_widget_set_visible (self->store_bar, !self->is_mine);
}

/* ---- the lists ---- */

static void
fl_store_browser_update_scenario_empty (FlStoreBrowser *self, const char *query)
{
  gboolean empty = g_list_model_get_n_items (G_LIST_MODEL (self->scenarios)) == 0;

  gtk_stack_set_visible_child_name (self->scenario_stack, empty ? "empty" : "list");
  if (!empty)
    return;
  if (self->store == NULL)
    {
      gtk_label_set_label (self->scenario_empty_title, _("The store could not be opened"));
      gtk_label_set_label (self->scenario_empty_label,
                           _("The message above says why. Open another store from the menu, "
                             "or go back to your own."));
    }
  else if (query != NULL && query[0] != '\0')
    {
      /* Translators: the scenario list's empty state after a search; %s is what was typed. */
      g_autofree char *title = g_strdup_printf (_("No scenario matches “%s”"), query);

      gtk_label_set_label (self->scenario_empty_title, title);
      gtk_label_set_label (self->scenario_empty_label,
                           _("The search looks in the names, titles, tags and text of the "
                             "scenarios."));
    }
  else
    {
      gtk_label_set_label (self->scenario_empty_title, _("No scenarios in this store yet"));
      gtk_label_set_label (self->scenario_empty_label,
                           self->is_mine
                           ? _("Import a .fault file, or record a run by adding a bookmark "
                               "(Ctrl+D) in the main window.")
                           : _("This store holds no scenarios."));
    }
}

static guint
fl_store_browser_find_scenario (FlStoreBrowser *self, gint64 id)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->scenarios));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(FlScenarioItem) item = g_list_model_get_item (G_LIST_MODEL (self->scenarios), i);
      if (fl_scenario_item_get (item)->id == id)
        return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

/* Lists the scenarios again (all, or those the search finds) and selects `select_id` or,
 * when 0, the one that was selected, if it is still there. */
static void
fl_store_browser_refresh_full (FlStoreBrowser *self, gint64 select_id)
{
  const char *query = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  FlScenarioItem *selected = fl_store_browser_selected_scenario (self);
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GError) error = NULL;
  guint position;

  if (select_id == 0 && selected != NULL)
    select_id = fl_scenario_item_get (selected)->id;
  if (self->store != NULL)
    {
      rows = query[0] != '\0' ? fl_store_search_scenarios (self->store, query, &error)
                              : fl_store_list_scenarios (self->store, &error);
      if (rows == NULL)
        fl_store_browser_show_error (self, _("Could not read the scenarios."), error);
      else
        {
          /* the items take the rows over */
          g_ptr_array_set_free_func (rows, NULL);
          for (guint i = 0; i < rows->len; i++)
            g_ptr_array_add (items, fl_scenario_item_new (g_ptr_array_index (rows, i)));
        }
    }
  /* One items-changed for the whole list, and the runs listed once at the end, not for each
   * step of the selection on the way: hundreds of rows in one go. */
  g_signal_handlers_block_by_func (self->scenario_selection, fl_store_browser_refresh_runs, self);
  g_list_store_splice (self->scenarios, 0,
                       g_list_model_get_n_items (G_LIST_MODEL (self->scenarios)),
                       items->pdata, items->len);
  position = fl_store_browser_find_scenario (self, select_id);
  gtk_single_selection_set_selected (self->scenario_selection, position);
  g_signal_handlers_unblock_by_func (self->scenario_selection, fl_store_browser_refresh_runs,
                                     self);
  fl_store_browser_update_scenario_empty (self, query);
  fl_store_browser_refresh_runs (self);
}

void
fl_store_browser_refresh (FlStoreBrowser *self)
{
  fl_store_browser_refresh_full (self, 0);
}

static void
fl_store_browser_refresh_runs (FlStoreBrowser *self)
{
  FlScenarioItem *selected = fl_store_browser_selected_scenario (self);
  FlRunItem *selected_run = fl_store_browser_selected_run (self);
  gint64 select_id = selected_run != NULL ? fl_run_item_get (selected_run)->id : 0;
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  guint position = GTK_INVALID_LIST_POSITION;

  if (selected != NULL && self->store != NULL)
    {
      const FlStoredScenario *scenario = fl_scenario_item_get (selected);
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) rows = fl_store_list_runs (self->store, scenario->id, &error);
      /* parsed once for all its runs: their rows show what each changed from it */
      g_autoptr(FlScenario) parsed = fl_scenario_parse (scenario->text, scenario->name, NULL);
      /* Translators: the heading of the run list; %s is the scenario's name. */
      g_autofree char *heading = g_strdup_printf (_("Runs of %s"), scenario->name);

      gtk_label_set_label (self->runs_heading, heading);
      if (rows == NULL)
        fl_store_browser_show_error (self, _("Could not read the runs."), error);
      else
        {
          g_ptr_array_set_free_func (rows, NULL);
          for (guint i = 0; i < rows->len; i++)
            {
              FlStoredRun *run = g_ptr_array_index (rows, i);

              if (run->id == select_id)
                position = i;
              g_ptr_array_add (items, fl_run_item_new (run, parsed));
            }
        }
      gtk_label_set_label (self->run_empty_label,
                           self->is_mine
                           ? _("No runs of this scenario yet. Open it and add a bookmark "
                               "(Ctrl+D): the run is recorded with it.")
                           : _("No runs of this scenario in this store."));
    }
  else
    {
      gtk_label_set_label (self->runs_heading, _("Runs"));
      gtk_label_set_label (self->run_empty_label, _("Select a scenario to see its runs."));
    }
  g_list_store_splice (self->runs, 0, g_list_model_get_n_items (G_LIST_MODEL (self->runs)),
                       items->pdata, items->len);
  gtk_single_selection_set_selected (self->run_selection, position);
  gtk_stack_set_visible_child_name (self->run_stack, items->len > 0 ? "list" : "empty");
  fl_store_browser_update_actions (self);
}

/* ---- switching stores ---- */

static void
fl_store_browser_set_store (FlStoreBrowser *self, FlStore *store, const char *path,
                            gboolean is_mine)
{
  g_clear_pointer (&self->store, fl_store_close);
  self->store = store;
  g_free (self->path);
  self->path = g_strdup (path);
  self->is_mine = is_mine;
  fl_store_browser_update_title (self);
  /* a search typed for the other store means nothing in this one */
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  gtk_single_selection_set_selected (self->scenario_selection, GTK_INVALID_LIST_POSITION);
  fl_store_browser_refresh (self);
}

gboolean
fl_store_browser_open_store (FlStoreBrowser *self, const char *path, GError **error)
{
  g_autoptr(GError) local = NULL;
  FlStore *store;

  g_return_val_if_fail (FL_IS_STORE_BROWSER (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  /* A file received from someone: checked in full, and never written, not even the WAL. */
  store = fl_store_open (path, FL_STORE_OPEN_READ_ONLY | FL_STORE_OPEN_UNTRUSTED, &local);
  if (store == NULL)
    {
      g_autofree char *name = g_filename_display_basename (path);
      /* Translators: %s is the file's name; the store's own error follows on a new line. */
      g_autofree char *what = g_strdup_printf (_("“%s” cannot be shown: it is not a Faultline "
                                                 "store, or it is damaged."), name);

      fl_store_browser_show_error (self, what, local);
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  fl_store_browser_hide_message (self);
  fl_store_browser_set_store (self, store, path, FALSE);
  /* said after the lists are filled: their own errors, if any, would hide it */
  if (fl_store_get_schema_version (store) > FL_STORE_SCHEMA_VERSION &&
      !gtk_widget_get_visible (self->message_bar))
    {
      g_autofree char *name = g_filename_display_basename (path);
      /* Translators: %s is the store file's name. */
      g_autofree char *note = g_strdup_printf (_("“%s” was written by a newer version of "
                                                 "Faultline: it is shown as far as this version "
                                                 "knows it, and cannot be changed here."), name);

      fl_store_browser_show_message (self, GTK_MESSAGE_INFO, note);
    }
  return TRUE;
}

gboolean
fl_store_browser_show_my_store (FlStoreBrowser *self, GError **error)
{
  g_autofree char *path = NULL;
  g_autoptr(GError) local = NULL;
  FlStore *store;

  g_return_val_if_fail (FL_IS_STORE_BROWSER (self), FALSE);

  path = fl_store_default_path ();
  store = fl_store_open (path, FL_STORE_OPEN_CREATE, &local);
  if (store == NULL)
    {
      fl_store_browser_set_store (self, NULL, path, TRUE);
      fl_store_browser_show_error (self, _("Your store could not be opened."), local);
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  fl_store_browser_hide_message (self);
  fl_store_browser_set_store (self, store, path, TRUE);
  return TRUE;
}

/* ---- import and export ---- */

gboolean
fl_store_browser_import_file (FlStoreBrowser *self, const char *path, GError **error)
{
  g_autoptr(GError) local = NULL;
  g_autofree char *name = NULL;
  g_autofree char *done = NULL;
  gint64 id = 0;

  g_return_val_if_fail (FL_IS_STORE_BROWSER (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  name = g_filename_display_basename (path);
  if (self->store == NULL)
    g_set_error (&local, FL_STORE_ERROR, FL_STORE_ERROR_IO, _("No store is open."));
  /* the parser's error names the file and the line */
  else if (fl_store_import_scenario (self->store, path, &id, &local))
    {
      /* the search would hide what was just imported */
      gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
      fl_store_browser_refresh_full (self, id);
      /* Translators: %s is the name of the imported .fault file. */
      done = g_strdup_printf (_("Imported “%s”."), name);
      fl_store_browser_show_message (self, GTK_MESSAGE_INFO, done);
      return TRUE;
    }
  {
    /* Translators: %s is the name of the .fault file. */
    g_autofree char *what = g_strdup_printf (_("Could not import “%s”."), name);
    fl_store_browser_show_error (self, what, local);
  }
  g_propagate_error (error, g_steal_pointer (&local));
  return FALSE;
}

gboolean
fl_store_browser_export_file (FlStoreBrowser *self, const char *path, GError **error)
{
  FlScenarioItem *item;
  const FlStoredScenario *scenario;
  g_autoptr(GError) local = NULL;
  g_autofree char *display = NULL;

  g_return_val_if_fail (FL_IS_STORE_BROWSER (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  item = fl_store_browser_selected_scenario (self);
  if (item == NULL || self->store == NULL)
    {
      g_set_error_literal (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_FOUND,
                           _("Select the scenario to export first."));
      return FALSE;
    }
  scenario = fl_scenario_item_get (item);
  display = g_filename_display_name (path);
  if (!fl_store_export_scenario (self->store, scenario->id, path, &local))
    {
      /* Translators: %s is the scenario's name. */
      g_autofree char *what = g_strdup_printf (_("Could not export “%s”."), scenario->name);

      fl_store_browser_show_error (self, what, local);
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  {
    /* Translators: the scenario's name, then the file it was written to. */
    g_autofree char *done = g_strdup_printf (_("Exported “%s” to %s."), scenario->name,
                                             display);
    fl_store_browser_show_message (self, GTK_MESSAGE_INFO, done);
  }
  return TRUE;
}

/* What the choosers do with the file chosen; the browser shows what went wrong itself. */
static void
fl_store_browser_import_chosen (gpointer self, const char *path)
{
  fl_store_browser_import_file (self, path, NULL);
}

static void
fl_store_browser_export_chosen (gpointer self, const char *path)
{
  fl_store_browser_export_file (self, path, NULL);
}

static void
fl_store_browser_store_chosen (gpointer self, const char *path)
{
  fl_store_browser_open_store (self, path, NULL);
}

static const char *const fl_fault_suffixes[] = { "fault", NULL };
static const char *const fl_store_suffixes[] = { "db", NULL };

/* ---- actions ---- */

static void
fl_store_browser_import_action (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  fl_file_chooser_show (user_data, _("Import a Scenario"), GTK_FILE_CHOOSER_ACTION_OPEN,
                        _("_Import"), _("Faultline scenarios (.fault)"), fl_fault_suffixes, NULL, NULL,
                        fl_store_browser_import_chosen, user_data);
}

static void
fl_store_browser_export_action (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  FlStoreBrowser *self = user_data;
  FlScenarioItem *item = fl_store_browser_selected_scenario (self);
  g_autofree char *name = NULL;

  if (item == NULL)
    return;
  name = g_strconcat (fl_scenario_item_get (item)->name, ".fault", NULL);
  fl_file_chooser_show (GTK_WINDOW (self), _("Export the Scenario"),
                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"),
                        _("Faultline scenarios (.fault)"), fl_fault_suffixes, name, NULL,
                        fl_store_browser_export_chosen, self);
}

static void
fl_store_browser_open_store_action (GSimpleAction *action, GVariant *parameter,
                                    gpointer user_data)
{
  fl_file_chooser_show (user_data, _("Open Another Store"), GTK_FILE_CHOOSER_ACTION_OPEN,
                        _("_Open"), _("Faultline stores (.db)"), fl_store_suffixes, NULL, NULL,
                        fl_store_browser_store_chosen, user_data);
}

static void
fl_store_browser_my_store_action (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  fl_store_browser_show_my_store (user_data, NULL);
}

static void
fl_store_browser_delete_scenario_action (GSimpleAction *action, GVariant *parameter,
                                         gpointer user_data)
{
  FlStoreBrowser *self = user_data;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->runs));

  if (fl_store_browser_selected_scenario (self) == NULL)
    return;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(FlRunItem) item = g_list_model_get_item (G_LIST_MODEL (self->runs), i);

      if (fl_store_browser_run_is_shown (self, fl_run_item_get (item)->id))
        {
          fl_store_browser_show_message (self, GTK_MESSAGE_WARNING,
                                         _("A run of this scenario is open in the main window "
                                           "with its bookmarks. Open another scenario there "
                                           "before deleting this one."));
          return;
        }
    }
  fl_store_browser_ask_delete (self, FL_DELETE_SCENARIO);
}

static void
fl_store_browser_delete_run_action (GSimpleAction *action, GVariant *parameter,
                                    gpointer user_data)
{
  FlStoreBrowser *self = user_data;
  FlRunItem *item = fl_store_browser_selected_run (self);

  if (item == NULL)
    return;
  if (fl_store_browser_run_is_shown (self, fl_run_item_get (item)->id))
    {
      fl_store_browser_show_message (self, GTK_MESSAGE_WARNING,
                                     _("This run is open in the main window with its "
                                       "bookmarks. Open another run there before deleting "
                                       "this one."));
      return;
    }
  fl_store_browser_ask_delete (self, FL_DELETE_RUN);
}

static void
fl_store_browser_open_scenario_action (GSimpleAction *action, GVariant *parameter,
                                       gpointer user_data)
{
  FlStoreBrowser *self = user_data;
  FlScenarioItem *item = fl_store_browser_selected_scenario (self);
  const FlStoredScenario *scenario;

  if (item == NULL || self->window == NULL)
    return;
  scenario = fl_scenario_item_get (item);
  fl_session_load_text (fl_window_get_session (self->window), scenario->name, scenario->text);
}

static void
fl_store_browser_run_checked (GObject *target, gint64 run_id, gboolean matches,
                              const char *message)
{
  FlStoreBrowser *self = FL_STORE_BROWSER (target);

  fl_store_browser_show_message (self, matches ? GTK_MESSAGE_INFO : GTK_MESSAGE_WARNING, message);
  g_signal_emit (self, signals[SIGNAL_RUN_CHECKED], 0, run_id, matches, message);
}

static void
fl_store_browser_open_run_action (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  FlStoreBrowser *self = user_data;
  FlRunItem *item = fl_store_browser_selected_run (self);
  const FlStoredRun *run;
  g_autoptr(GError) error = NULL;
  guint64 max_steps;

  if (item == NULL || self->window == NULL)
    return;
  run = fl_run_item_get (item);
  /* A finished run is simulated to its end as any load is; one recorded as stopped early
   * only as far as it went, as the store's replay takes it. */
  max_steps = g_strcmp0 (run->verdict, "stopped") == 0 ? run->steps : 0;
  if ((self->store != NULL && !fl_store_check_run_steps (self->store, run, &error))
      || !fl_session_load_run (fl_window_get_session (self->window), run->scenario_name,
                               run->scenario_text, run->config, run->seed, max_steps, &error))
    {
      g_autofree char *id = g_strdup_printf ("%" G_GINT64_FORMAT, run->id);
      /* Translators: %s is the run's number; the reason follows on a new line. */
      g_autofree char *what = g_strdup_printf (_("Run %s cannot be replayed by this version "
                                                 "of Faultline."), id);

      fl_store_browser_show_error (self, what, error);
      return;
    }
  fl_store_browser_show_message (self, GTK_MESSAGE_INFO, _("Replaying the run in the main "
                                                           "window…"));
  fl_run_check_start (self->window, run, G_OBJECT (self), fl_store_browser_run_checked);
}

static const GActionEntry fl_store_browser_actions[] = {
  { .name = "import", .activate = fl_store_browser_import_action },
  { .name = "export", .activate = fl_store_browser_export_action },
  { .name = "delete-scenario", .activate = fl_store_browser_delete_scenario_action },
  { .name = "delete-run", .activate = fl_store_browser_delete_run_action },
  { .name = "open-scenario", .activate = fl_store_browser_open_scenario_action },
  { .name = "open-run", .activate = fl_store_browser_open_run_action },
  { .name = "open-store", .activate = fl_store_browser_open_store_action },
  { .name = "my-store", .activate = fl_store_browser_my_store_action },
};

/* ---- GObject ---- */

static void
fl_store_browser_scenario_activated (FlStoreBrowser *self, guint position)
{
  gtk_single_selection_set_selected (self->scenario_selection, position);
  g_action_group_activate_action (G_ACTION_GROUP (self->actions), "open-scenario", NULL);
}

static void
fl_store_browser_run_activated (FlStoreBrowser *self, guint position)
{
  gtk_single_selection_set_selected (self->run_selection, position);
  g_action_group_activate_action (G_ACTION_GROUP (self->actions), "open-run", NULL);
}

static void
fl_store_browser_dispose (GObject *object)
{
  FlStoreBrowser *self = FL_STORE_BROWSER (object);

  if (self->window != NULL)
    {
      g_object_remove_weak_pointer (G_OBJECT (self->window), (gpointer *) &self->window);
      self->window = NULL;
    }
  if (self->confirmation != NULL)
    {
      g_object_remove_weak_pointer (G_OBJECT (self->confirmation),
                                    (gpointer *) &self->confirmation);
      self->confirmation = NULL;
    }
  /* closed with the window, on the thread that opened it */
  g_clear_pointer (&self->store, fl_store_close);
  gtk_widget_dispose_template (GTK_WIDGET (self), FL_TYPE_STORE_BROWSER);
  g_clear_object (&self->scenario_selection);
  g_clear_object (&self->run_selection);
  g_clear_object (&self->scenarios);
  g_clear_object (&self->runs);
  g_clear_object (&self->actions);
  G_OBJECT_CLASS (fl_store_browser_parent_class)->dispose (object);
}

static void
fl_store_browser_finalize (GObject *object)
{
  FlStoreBrowser *self = FL_STORE_BROWSER (object);

  g_free (self->path);
  G_OBJECT_CLASS (fl_store_browser_parent_class)->finalize (object);
}

static void
fl_store_browser_class_init (FlStoreBrowserClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fl_store_browser_dispose;
  object_class->finalize = fl_store_browser_finalize;

  signals[SIGNAL_RUN_CHECKED] =
    g_signal_new ("run-checked", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_INT64, G_TYPE_BOOLEAN, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               FL_RESOURCE_BASE "/ui/fl-store-browser.ui");
  gtk_widget_class_bind_template_child (widget_class, FlStoreBrowser, title_label);
  gtk_widget_class_bind_template_child (widget_class, FlStoreBrowser, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, FlStoreBrowser, store_bar);
  gtk_widget_class_bind_template_child (widget_class, FlStoreBrowser, store_bar_label);
  gtk_widget_class_bind_template_child (widget_class, FlStoreBrowser, message_bar);
  gtk_widget_class_bind_template_child (widget_class, FlStoreBrowser, message_icon);
  gtk_widget_class_bind_template_child (widget_class, FlStoreBrowser, message_label);
  gtk_widget_class_bind_template_child (widget_class, FlStoreBrowser, message_close);
  gtk_widget_class_bind_template_child (widget_class, FlStoreBrowser, search_entry);
  gtk_widget_class_bind_template_child (widget_class, FlStoreBrowser, scenario_stack);
  gtk_widget_class_bind_template_child (widget_class, FlStoreBrowser, scenario_view);
  gtk_widget_class_bind_template_child (widget_class, FlStoreBrowser, scenario_empty_title);
  gtk_widget_class_bind_template_child (widget_class, FlStoreBrowser, scenario_empty_label);
  gtk_widget_class_bind_template_child (widget_class, FlStoreBrowser, runs_heading);
  gtk_widget_class_bind_template_child (widget_class, FlStoreBrowser, run_stack);
  gtk_widget_class_bind_template_child (widget_class, FlStoreBrowser, run_view);
  gtk_widget_class_bind_template_child (widget_class, FlStoreBrowser, run_empty_label);

  /* Escape closes the browser, as it does a dialog. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
fl_store_browser_init (FlStoreBrowser *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->actions = g_simple_action_group_new ();
  g_action_map_add_action_entries (G_ACTION_MAP (self->actions), fl_store_browser_actions,
                                   G_N_ELEMENTS (fl_store_browser_actions), self);
  gtk_widget_insert_action_group (GTK_WIDGET (self), "browser", G_ACTION_GROUP (self->actions));

  self->scenarios = g_list_store_new (FL_TYPE_SCENARIO_ITEM);
  self->scenario_selection =
    gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->scenarios)));
  gtk_single_selection_set_autoselect (self->scenario_selection, FALSE);
  gtk_single_selection_set_can_unselect (self->scenario_selection, TRUE);
  self->runs = g_list_store_new (FL_TYPE_RUN_ITEM);
  self->run_selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->runs)));
  gtk_single_selection_set_autoselect (self->run_selection, FALSE);
  gtk_single_selection_set_can_unselect (self->run_selection, TRUE);
  gtk_column_view_set_model (self->scenario_view, GTK_SELECTION_MODEL (self->scenario_selection));
  gtk_column_view_set_model (self->run_view, GTK_SELECTION_MODEL (self->run_selection));
  fl_store_rows_add_scenario_columns (self->scenario_view);
  fl_store_rows_add_run_columns (self->run_view);

  g_signal_connect_swapped (self->scenario_selection, "notify::selected",
                            G_CALLBACK (fl_store_browser_refresh_runs), self);
  g_signal_connect_swapped (self->run_selection, "notify::selected",
                            G_CALLBACK (fl_store_browser_update_actions), self);
  g_signal_connect_swapped (self->scenario_view, "activate",
                            G_CALLBACK (fl_store_browser_scenario_activated), self);
  g_signal_connect_swapped (self->run_view, "activate",
                            G_CALLBACK (fl_store_browser_run_activated), self);
  g_signal_connect_swapped (self->search_entry, "search-changed",
                            G_CALLBACK (fl_store_browser_refresh), self);
  g_signal_connect_swapped (self->message_close, "clicked",
                            G_CALLBACK (fl_store_browser_hide_message), self);
  /* typing anywhere in the browser searches */
  gtk_search_entry_set_key_capture_widget (self->search_entry, GTK_WIDGET (self));
}

FlStoreBrowser *
fl_store_browser_find (FlWindow *window)
{
  g_autoptr(GListModel) toplevels = NULL;

  g_return_val_if_fail (FL_IS_WINDOW (window), NULL);

  toplevels = g_object_ref (gtk_window_get_toplevels ());
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) toplevel = g_list_model_get_item (toplevels, i);

      if (FL_IS_STORE_BROWSER (toplevel) && FL_STORE_BROWSER (toplevel)->window == window)
        return FL_STORE_BROWSER (toplevel);
    }
  return NULL;
}

/* The window's bookmarks changed: adding the first one records the run, so the user's
 * store may hold a new scenario or run. A store opened from elsewhere is never written. */
static void
fl_store_browser_window_recorded (FlStoreBrowser *self)
{
  if (!fl_store_browser_is_read_only (self))
    fl_store_browser_refresh (self);
}

FlStoreBrowser *
fl_store_browser_present (FlWindow *window)
{
  FlStoreBrowser *self;

  g_return_val_if_fail (FL_IS_WINDOW (window), NULL);

  self = fl_store_browser_find (window);
  if (self != NULL)
    /* the main window may have recorded runs since it was last shown */
    fl_store_browser_refresh (self);
  else
    {
      self = g_object_new (FL_TYPE_STORE_BROWSER, NULL);
      self->window = window;
      g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &self->window);
      gtk_window_set_transient_for (GTK_WINDOW (self), GTK_WINDOW (window));
      gtk_window_set_destroy_with_parent (GTK_WINDOW (self), TRUE);
      g_signal_connect_object (fl_bookmarks_get_model (fl_window_get_bookmarks (window)),
                               "items-changed", G_CALLBACK (fl_store_browser_window_recorded),
                               self, G_CONNECT_SWAPPED);
      fl_store_browser_show_my_store (self, NULL);
    }
  gtk_window_present (GTK_WINDOW (self));
  return self;
}

const char *
fl_store_browser_get_path (FlStoreBrowser *self)
{
  g_return_val_if_fail (FL_IS_STORE_BROWSER (self), NULL);
  return self->path;
}

gboolean
fl_store_browser_is_read_only (FlStoreBrowser *self)
{
  g_return_val_if_fail (FL_IS_STORE_BROWSER (self), TRUE);
  return self->store == NULL || fl_store_is_read_only (self->store);
}

GActionGroup *
fl_store_browser_get_actions (FlStoreBrowser *self)
{
  g_return_val_if_fail (FL_IS_STORE_BROWSER (self), NULL);
  return G_ACTION_GROUP (self->actions);
}

GtkEditable *
fl_store_browser_get_search (FlStoreBrowser *self)
{
  g_return_val_if_fail (FL_IS_STORE_BROWSER (self), NULL);
  return GTK_EDITABLE (self->search_entry);
}

GtkSelectionModel *
fl_store_browser_get_scenarios (FlStoreBrowser *self)
{
  g_return_val_if_fail (FL_IS_STORE_BROWSER (self), NULL);
  return GTK_SELECTION_MODEL (self->scenario_selection);
}

GtkSelectionModel *
fl_store_browser_get_runs (FlStoreBrowser *self)
{
  g_return_val_if_fail (FL_IS_STORE_BROWSER (self), NULL);
  return GTK_SELECTION_MODEL (self->run_selection);
}

GtkWidget *
fl_store_browser_get_confirmation (FlStoreBrowser *self)
{
  g_return_val_if_fail (FL_IS_STORE_BROWSER (self), NULL);
  return self->confirmation;
}

const char *
fl_store_browser_get_message (FlStoreBrowser *self)
{
  g_return_val_if_fail (FL_IS_STORE_BROWSER (self), NULL);
  if (!gtk_widget_get_visible (self->message_bar))
    return NULL;
  return gtk_label_get_label (self->message_label);
}
