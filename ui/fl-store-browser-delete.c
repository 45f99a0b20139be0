/* fl-store-browser-delete.c — the store browser deletes a scenario or a run only after
 * asking, saying what goes with it (runs, events, findings, bookmarks). */

#include "fl-store-browser-private.h"

#include <glib/gi18n.h>

#include "fl-bookmarks.h"

typedef struct {
  FlStoreBrowser *self;
  FlDeleteKind    kind;
  gint64          id;
  char           *name;
} FlDeleteRequest;

static void
fl_delete_request_free (gpointer data)
{
  FlDeleteRequest *request = data;

  g_object_unref (request->self);
  g_free (request->name);
  g_free (request);
}

static void
fl_store_browser_delete_response (GtkDialog *dialog, int response, FlDeleteRequest *request)
{
  FlStoreBrowser *self = request->self;
  g_autoptr(GError) error = NULL;
  gboolean done = TRUE;

  if (response == GTK_RESPONSE_ACCEPT && self->store != NULL)
    {
      if (request->kind == FL_DELETE_RUN)
        done = fl_store_delete_run (self->store, request->id, &error);
      else
        done = fl_store_delete_scenario (self->store, request->id, &error);
      if (!done)
        {
          /* Translators: %s is a run ("run 4") or a scenario's name. */
          g_autofree char *what = g_strdup_printf (_("Could not delete %s."), request->name);
          fl_store_browser_show_error (self, what, error);
        }
      else
        fl_store_browser_hide_message (self);
      fl_store_browser_refresh (self);
    }
  /* destroying the dialog frees the request */
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* The run the main window shows has its bookmarks open there: deleting it under their feet
 * would lose the next bookmark added, so it is refused until another run is loaded. */
gboolean
fl_store_browser_run_is_shown (FlStoreBrowser *self, gint64 run_id)
{
  return self->is_mine && self->window != NULL
    && fl_bookmarks_get_run_id (fl_window_get_bookmarks (self->window)) == run_id;
}

void
fl_store_browser_ask_delete (FlStoreBrowser *self, FlDeleteKind kind)
{
  FlDeleteRequest *request = g_new0 (FlDeleteRequest, 1);
  g_autofree char *question = NULL;
  g_autofree char *detail = NULL;
  GtkWidget *dialog, *button;

  request->self = g_object_ref (self);
  request->kind = kind;
  if (kind == FL_DELETE_RUN)
    {
      const FlStoredRun *run = fl_run_item_get (fl_store_browser_selected_run (self));
      g_autoptr(GPtrArray) bookmarks = fl_store_list_bookmarks (self->store, run->id, NULL);
      guint n = bookmarks != NULL ? bookmarks->len : 0;

      g_autofree char *id = g_strdup_printf ("%" G_GINT64_FORMAT, run->id);

      request->id = run->id;
      /* Translators: how a run is named in messages; %s is its number. */
      request->name = g_strdup_printf (_("run %s"), id);
      /* Translators: the run ("run 4"), then the scenario's name. */
      question = g_strdup_printf (_("Delete %s of %s?"), request->name, run->scenario_name);
      detail = g_strdup_printf (ngettext ("Its events, findings and %u bookmark are deleted "
                                          "from the store. This cannot be undone.",
                                          "Its events, findings and %u bookmarks are deleted "
                                          "from the store. This cannot be undone.", n), n);
    }
  else
    {
      const FlStoredScenario *scenario =
        fl_scenario_item_get (fl_store_browser_selected_scenario (self));
      guint n = g_list_model_get_n_items (G_LIST_MODEL (self->runs));

      request->id = scenario->id;
      request->name = g_strdup_printf ("“%s”", scenario->name);
      /* Translators: %s is the scenario's name in quotes. */
      question = g_strdup_printf (_("Delete the scenario %s?"), request->name);
      detail = g_strdup_printf (ngettext ("Its %u recorded run is deleted with it, with the "
                                          "run's events, findings and bookmarks. This cannot "
                                          "be undone.",
                                          "Its %u recorded runs are deleted with it, with "
                                          "their events, findings and bookmarks. This cannot "
                                          "be undone.", n), n);
    }

  dialog = gtk_message_dialog_new (GTK_WINDOW (self),
                                   GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE, "%s", question);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", detail);
  gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL);
  button = gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Delete"), GTK_RESPONSE_ACCEPT);
  gtk_widget_add_css_class (button, "destructive-action");
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  g_object_set_data_full (G_OBJECT (dialog), "fl-delete-request", request,
                          fl_delete_request_free);
  g_signal_connect (dialog, "response", G_CALLBACK (fl_store_browser_delete_response), request);
  self->confirmation = dialog;
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &self->confirmation);
  gtk_window_present (GTK_WINDOW (dialog));
}
