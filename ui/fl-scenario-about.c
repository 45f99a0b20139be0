/* The scenario's description and expected outcome over the views. See fl-scenario-about.h.
 * Before, the description was a tooltip of the scenario menu and the expected outcome was
 * nowhere in the window; a run replayed from the store looked like a fresh one. */

#include "fl-scenario-about.h"

#include <glib/gi18n.h>
#include <string.h>

#define FL_ABOUT_KEY "fl-scenario-about"

typedef struct {
  FlSession *session;       /* not owned: the window's, which outlives its widgets */
  GtkWidget *box;
  GtkLabel  *description;
  GtkLabel  *expect;
  GtkLabel  *replay;
  char      *shown_text;    /* the scenario text whose strip was closed, or shown last */
  gboolean   closed;
  gboolean   presenting;    /* presentation mode: its captions tell the story */
} FlAbout;

static void
fl_about_free (gpointer data)
{
  FlAbout *about = data;

  g_signal_handlers_disconnect_by_data (about->session, about);
  g_free (about->shown_text);
  g_free (about);
}

static void
fl_about_set (GtkLabel *label, const char *markup_head, const char *text)
{
  g_autofree char *escaped = text ? g_markup_escape_text (text, -1) : NULL;
  g_autofree char *markup = text ? g_strdup_printf ("<b>%s</b> %s", markup_head, escaped) : NULL;

  gtk_label_set_markup (label, markup ? markup : "");
  gtk_widget_set_visible (GTK_WIDGET (label), text != NULL && text[0] != '\0');
}

static void
fl_about_update (FlAbout *about)
{
  const FlRun *run = fl_session_get_run (about->session);
  const FlScenario *scenario = run ? fl_run_get_scenario (run) : NULL;
  gboolean any;

  /* Translators: heads of the strip over the views: what the scenario is about, and what
   * running it is meant to show */
  fl_about_set (about->description, _("About this scenario:"),
                scenario ? scenario->description : NULL);
  gtk_widget_set_tooltip_text (GTK_WIDGET (about->description),
                               scenario ? scenario->description : NULL);
  fl_about_set (about->expect, _("Expected:"), scenario ? scenario->expect : NULL);
  any = gtk_widget_get_visible (GTK_WIDGET (about->description))
        || gtk_widget_get_visible (GTK_WIDGET (about->expect))
        || gtk_widget_get_visible (GTK_WIDGET (about->replay));
  gtk_widget_set_visible (about->box, any && !about->closed && !about->presenting);
}

static void
fl_about_loading_changed (FlSession *session, GParamSpec *pspec, FlAbout *about)
{
  const FlRun *run = fl_session_get_run (session);

  if (fl_session_is_loading (session))
    {
      /* whatever loads next is not the replay the strip speaks of */
      fl_about_set (about->replay, "", NULL);
      return;
    }
  /* another scenario opens the strip again; a re-run of the same one leaves it as it was */
  if (run != NULL && g_strcmp0 (about->shown_text, fl_run_get_scenario (run)->text) != 0)
    {
      g_free (about->shown_text);
      about->shown_text = g_strdup (fl_run_get_scenario (run)->text);
      about->closed = FALSE;
    }
  fl_about_update (about);
}

static void
fl_about_close (GtkButton *button, FlAbout *about)
{
  about->closed = TRUE;
  gtk_widget_set_visible (about->box, FALSE);
}

static GtkLabel *
fl_about_label (GtkWidget *column)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_set_visible (label, FALSE);
  gtk_box_append (GTK_BOX (column), label);
  return GTK_LABEL (label);
}

GtkWidget *
fl_scenario_about_new (FlSession *session)
{
  FlAbout *about = g_new0 (FlAbout, 1);
  GtkWidget *column = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *close = gtk_button_new_from_icon_name ("window-close-symbolic");

  g_return_val_if_fail (FL_IS_SESSION (session), NULL);
  about->session = session;
  about->box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_widget_add_css_class (about->box, "fl-scenario-about");
  gtk_widget_set_hexpand (column, TRUE);
  about->replay = fl_about_label (column);
  about->description = fl_about_label (column);
  /* a paragraph can be long: three lines, the rest in its tooltip */
  gtk_label_set_lines (about->description, 3);
  gtk_label_set_ellipsize (about->description, PANGO_ELLIPSIZE_END);
  about->expect = fl_about_label (column);
  gtk_box_append (GTK_BOX (about->box), column);
  gtk_widget_add_css_class (close, "flat");
  gtk_widget_set_valign (close, GTK_ALIGN_START);
  gtk_widget_set_tooltip_text (close, _("Hide until another scenario is opened"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (close), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Hide the scenario's description"), -1);
  g_signal_connect (close, "clicked", G_CALLBACK (fl_about_close), about);
  gtk_box_append (GTK_BOX (about->box), close);
  gtk_widget_set_visible (about->box, FALSE);
  g_object_set_data_full (G_OBJECT (about->box), FL_ABOUT_KEY, about, fl_about_free);
  g_signal_connect (session, "notify::loading", G_CALLBACK (fl_about_loading_changed), about);
  fl_about_loading_changed (session, NULL, about);
  return about->box;
}

void
fl_scenario_about_set_replay (GtkWidget *widget, const char *note)
{
  FlAbout *about = g_object_get_data (G_OBJECT (widget), FL_ABOUT_KEY);

  g_return_if_fail (about != NULL);
  /* Translators: head of the strip's line about a run opened from the store */
  fl_about_set (about->replay, _("Replay of a recorded run:"), note);
  about->closed = FALSE;
  fl_about_update (about);
}

void
fl_scenario_about_set_presenting (GtkWidget *widget, gboolean presenting)
{
  FlAbout *about = g_object_get_data (G_OBJECT (widget), FL_ABOUT_KEY);

  g_return_if_fail (about != NULL);
  about->presenting = presenting;
  fl_about_update (about);
}

char *
fl_scenario_about_get_text (GtkWidget *widget)
{
  FlAbout *about = g_object_get_data (G_OBJECT (widget), FL_ABOUT_KEY);
  GtkLabel *labels[3];
  GString *text;

  g_return_val_if_fail (about != NULL, NULL);
  if (!gtk_widget_get_visible (about->box))
    return NULL;
  labels[0] = about->replay;
  labels[1] = about->description;
  labels[2] = about->expect;
  text = g_string_new (NULL);
  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    if (gtk_widget_get_visible (GTK_WIDGET (labels[i])))
      g_string_append_printf (text, "%s\n", gtk_label_get_text (labels[i]));
  return g_string_free (text, FALSE);
}
