/* The light/dark question, asked the same way by the application (for the CSS palette) and
 * by every drawing widget (for the painters' palette), so both always agree. */

#include "fl-style.h"

gboolean
fl_style_is_dark (void)
{
  GtkSettings *settings = gtk_settings_get_default ();
  g_autofree char *theme_name = NULL;
  gboolean prefer_dark = FALSE;

  if (settings == NULL)
    return FALSE;
  g_object_get (settings,
                "gtk-application-prefer-dark-theme", &prefer_dark,
                "gtk-theme-name", &theme_name,
                NULL);
  /* A theme can be dark by itself ("Adwaita-dark") whatever the preference says. */
  return prefer_dark || (theme_name != NULL && g_str_has_suffix (theme_name, "-dark"));
}

void
fl_style_get_palette (FlPalette *palette)
{
  if (fl_style_is_dark ())
    fl_palette_init_dark (palette);
  else
    fl_palette_init_light (palette);
}

void
fl_style_connect (GObject   *owner,
                  GCallback  callback)
{
  GtkSettings *settings = gtk_settings_get_default ();

  g_signal_connect_object (settings, "notify::gtk-application-prefer-dark-theme",
                           callback, owner, G_CONNECT_SWAPPED);
  g_signal_connect_object (settings, "notify::gtk-theme-name",
                           callback, owner, G_CONNECT_SWAPPED);
}
