/* fl-text-scale.c — the steps of the views' text scale and the actions that take them; see
 * fl-text-scale.h. The views get the scale from FlPresentation, the one place that sets
 * their type (presentation mode multiplies it). */

#include "fl-text-scale.h"

#include <math.h>

/* Steps a browser's zoom would take: small ones near normal, where a lecturer fine-tunes,
 * larger ones up to what a back row reads on a projector. */
static const double fl_text_scale_steps[] = { 0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0, 2.5 };

double
fl_text_scale_step (double scale, int direction)
{
  guint n = G_N_ELEMENTS (fl_text_scale_steps);

  if (direction == 0)
    return 1.0;
  if (direction > 0)
    {
      for (guint i = 0; i < n; i++)
        if (fl_text_scale_steps[i] > scale + 1e-6)
          return fl_text_scale_steps[i];
      return fl_text_scale_steps[n - 1];
    }
  for (guint i = n; i-- > 0;)
    if (fl_text_scale_steps[i] < scale - 1e-6)
      return fl_text_scale_steps[i];
  return fl_text_scale_steps[0];
}

static void
fl_text_scale_activate (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  GSettings *settings = user_data;
  const char *name = g_action_get_name (G_ACTION (action));
  int direction = g_str_equal (name, "text-larger") ? 1 : g_str_equal (name, "text-smaller") ? -1 : 0;
  double scale = g_settings_get_double (settings, FL_TEXT_SCALE_KEY);

  g_settings_set_double (settings, FL_TEXT_SCALE_KEY, fl_text_scale_step (scale, direction));
}

/* At the largest or smallest step, the key that cannot go further is greyed out in the menu. */
static void
fl_text_scale_update (GSettings *settings, const char *key, GActionMap *map)
{
  double scale = g_settings_get_double (settings, FL_TEXT_SCALE_KEY);
  guint n = G_N_ELEMENTS (fl_text_scale_steps);

  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, "text-larger")),
                               scale < fl_text_scale_steps[n - 1] - 1e-6);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, "text-smaller")),
                               scale > fl_text_scale_steps[0] + 1e-6);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, "text-normal")),
                               fabs (scale - 1.0) > 1e-6);
}

void
fl_text_scale_add_actions (GActionMap *map, GSettings *settings)
{
  static const char *const names[] = { "text-larger", "text-smaller", "text-normal" };

  g_return_if_fail (G_IS_ACTION_MAP (map) && G_IS_SETTINGS (settings));

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(GSimpleAction) action = g_simple_action_new (names[i], NULL);

      g_signal_connect_object (action, "activate", G_CALLBACK (fl_text_scale_activate), settings,
                               0);
      g_action_map_add_action (map, G_ACTION (action));
    }
  g_signal_connect_object (settings, "changed::" FL_TEXT_SCALE_KEY,
                           G_CALLBACK (fl_text_scale_update), map, 0);
  fl_text_scale_update (settings, FL_TEXT_SCALE_KEY, map);
}

void
fl_text_scale_apply_css (GdkDisplay *display, double scale, double presenting)
{
  static GtkCssProvider *provider;
  g_autofree char *css = NULL;

  g_return_if_fail (GDK_IS_DISPLAY (display));

  if (provider == NULL)
    {
      provider = gtk_css_provider_new ();
      /* above the application's style.css, which sizes some of the same labels */
      gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (provider),
                                                  GTK_STYLE_PROVIDER_PRIORITY_APPLICATION + 1);
    }
  /* .fl-views is the views page (data/ui/fl-window.ui), .fl-header-scaled the window's
   * header bar (its scenario, design, title and step, read from the back of the room too)
   * when the window is wide enough for it (fl-window.c); a percentage of the size each
   * inherits */
  css = g_strdup_printf (".fl-views, .fl-header-scaled { font-size: %d%%; } "
                         ".fl-views.fl-presenting { font-size: %d%%; }",
                         (int) lround (scale * 100), (int) lround (scale * presenting * 100));
  gtk_css_provider_load_from_data (provider, css, -1);
}
