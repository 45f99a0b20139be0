/* FlApplication: command line, app actions, settings, CSS and the style preference.
 * Everything that outlives one window lives here; the window itself is FlWindow. */

#include "fl-application.h"

#include <glib/gi18n.h>

#include "fl-style.h"
#include "fl-window.h"
#include "fl-ui-resources.h"

/* Values of the schema's io.github.faultline.Faultline.Theme enum. */
typedef enum {
  FL_THEME_SYSTEM,
  FL_THEME_LIGHT,
  FL_THEME_DARK,
} FlTheme;

struct _FlApplication
{
  GtkApplication parent_instance;

  GSettings      *settings;
  GtkCssProvider *css;        /* style.css: the rules and the light palette */
  GtkCssProvider *css_dark;   /* style-dark.css: the dark palette, on the display only when dark */
  gboolean        css_dark_added;
  gboolean        system_prefers_dark;  /* GtkSettings' value before we changed it */
};

G_DEFINE_FINAL_TYPE (FlApplication, fl_application, GTK_TYPE_APPLICATION)

static const GOptionEntry fl_application_options[] = {
  { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Print the version and exit"), NULL },
  { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, NULL, NULL, NULL },
  { NULL }
};

/* ---- window state ---- */

static gboolean
fl_application_window_close_request (GtkWindow     *window,
                                     FlApplication *self)
{
  int width, height;

  /* In GTK 4 the default size follows the user's resizes but not maximizing: it is the size
   * to come back to when the window is later unmaximized. */
  gtk_window_get_default_size (window, &width, &height);

  g_settings_set_int (self->settings, "window-width", width);
  g_settings_set_int (self->settings, "window-height", height);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));

  return GDK_EVENT_PROPAGATE;
}

static FlWindow *
fl_application_create_window (FlApplication *self)
{
  FlWindow *window = fl_window_new (GTK_APPLICATION (self));

  gtk_window_set_default_size (GTK_WINDOW (window),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (window));

  g_signal_connect_object (window, "close-request",
                           G_CALLBACK (fl_application_window_close_request), self, 0);
  return window;
}

static void
fl_application_show_scenario (FlApplication *self,
                              const char    *scenario)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (!FL_IS_WINDOW (window))
    window = GTK_WINDOW (fl_application_create_window (self));

  fl_window_set_scenario (FL_WINDOW (window), scenario);
  gtk_window_present (window);
}

/* ---- style ---- */

/* Keeps the dark palette on the display exactly while GTK draws the dark style, whoever
 * switched it: our setting, the desktop, or the GTK inspector. */
static void
fl_application_sync_palette (FlApplication *self)
{
  GdkDisplay *display = gdk_display_get_default ();
  gboolean dark = fl_style_is_dark ();

  if (dark == self->css_dark_added)
    return;

  if (dark)
    gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (self->css_dark),
                                                GTK_STYLE_PROVIDER_PRIORITY_APPLICATION + 1);
  else
    gtk_style_context_remove_provider_for_display (display, GTK_STYLE_PROVIDER (self->css_dark));
  self->css_dark_added = dark;
}

static void
fl_application_apply_theme (FlApplication *self)
{
  gboolean dark;

  switch ((FlTheme) g_settings_get_enum (self->settings, "theme"))
    {
    case FL_THEME_LIGHT:
      dark = FALSE;
      break;
    case FL_THEME_DARK:
      dark = TRUE;
      break;
    case FL_THEME_SYSTEM:
    default:
      dark = self->system_prefers_dark;
      break;
    }

  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", dark, NULL);
  fl_application_sync_palette (self);
}

static void
fl_application_setup_style (FlApplication *self)
{
  GtkSettings *gtk_settings = gtk_settings_get_default ();

  self->css = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (self->css, FL_RESOURCE_BASE "/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (),
                                              GTK_STYLE_PROVIDER (self->css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);

  self->css_dark = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (self->css_dark, FL_RESOURCE_BASE "/style-dark.css");

  g_object_get (gtk_settings, "gtk-application-prefer-dark-theme",
                &self->system_prefers_dark, NULL);

  g_signal_connect_object (gtk_settings, "notify::gtk-application-prefer-dark-theme",
                           G_CALLBACK (fl_application_sync_palette), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (gtk_settings, "notify::gtk-theme-name",
                           G_CALLBACK (fl_application_sync_palette), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::theme",
                           G_CALLBACK (fl_application_apply_theme), self, G_CONNECT_SWAPPED);
  fl_application_apply_theme (self);
}

/* ---- actions ---- */

static void
fl_application_about (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);
  static const char *authors[] = { "The Faultline developers", NULL };

  gtk_show_about_dialog (gtk_application_get_active_window (app),
                         "program-name", _("Faultline"),
                         "logo-icon-name", FL_APP_ID,
                         "version", FL_VERSION,
                         "comments", _("Step through Linux page faults and the races around them"),
                         "website", "https://github.com/faultline/faultline",
                         "copyright", "© 2026 The Faultline developers",
                         "license-type", GTK_LICENSE_GPL_2_0,   /* "version 2 or later" */
                         "authors", authors,
                         /* Translators: your name and e-mail, one translator per line. */
                         "translator-credits", _("translator-credits"),
                         NULL);
}

static void
fl_application_quit (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       user_data)
{
  GApplication *app = G_APPLICATION (user_data);
  g_autoptr(GList) windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (app)));

  /* Closing (rather than only quitting) lets every window save its state on the way out. */
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (GTK_WINDOW (l->data));

  /* A window that stays open is asking about unsaved changes (the scenario editor): the
   * application ends when the last window closes, not under that question. */
  if (gtk_application_get_windows (GTK_APPLICATION (app)) == NULL)
    g_application_quit (app);
}

static const GActionEntry fl_application_actions[] = {
  { .name = "about", .activate = fl_application_about },
  { .name = "quit", .activate = fl_application_quit },
};

/* Accelerators that no text field needs. Space, the arrows, Home/End and 1–9 are the
 * window's own (fl-shortcuts.c): they must yield to a focused text field, which
 * application accelerators never do. */
static const struct {
  const char *action;
  const char *accels[4];
} fl_application_accels[] = {
  { "app.quit", { "<Control>q", NULL } },
  /* GtkWindow's own action: the editor, the store browser, any window (the editor asks
   * about unsaved text first) */
  { "window.close", { "<Control>w", NULL } },
  { "win.open", { "<Control>o", NULL } },
  { "win.export", { "<Control>e", NULL } },
  { "win.add-bookmark", { "<Control>d", NULL } },
  { "win.present", { "F5", NULL } },
  { "win.compare", { "<Control>k", NULL } },
  { "win.explore", { "<Control><Shift>x", NULL } },
  { "win.edit-scenario", { "<Control><Shift>e", NULL } },
  { "win.browse-store", { "<Control><Shift>o", NULL } },
  /* the scenario editor's own (FlEditorWindow); win.open above opens a file into it */
  { "win.run", { "<Control>Return", NULL } },
  { "win.save", { "<Control>s", NULL } },
  { "win.save-as", { "<Control><Shift>s", NULL } },
  { "win.next-finding", { "F8", NULL } },
  { "win.previous-finding", { "<Shift>F8", NULL } },
  /* the views' text scale (fl-text-scale.c), as a browser's zoom: "plus" is Shift+equal on
   * most keyboards, so Ctrl+= too, and the keypad's */
  { "win.text-larger", { "<Control>plus", "<Control>equal", "<Control>KP_Add", NULL } },
  { "win.text-smaller", { "<Control>minus", "<Control>KP_Subtract", NULL } },
  { "win.text-normal", { "<Control>0", "<Control>KP_0", NULL } },
};

/* ---- GApplication ---- */

static void
fl_application_startup (GApplication *app)
{
  FlApplication *self = FL_APPLICATION (app);
  g_autoptr(GAction) theme_action = NULL;

  G_APPLICATION_CLASS (fl_application_parent_class)->startup (app);

  self->settings = g_settings_new (FL_APP_ID);

  g_action_map_add_action_entries (G_ACTION_MAP (app), fl_application_actions,
                                   G_N_ELEMENTS (fl_application_actions), app);
  theme_action = g_settings_create_action (self->settings, "theme");
  g_action_map_add_action (G_ACTION_MAP (app), theme_action);
  for (guint i = 0; i < G_N_ELEMENTS (fl_application_accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), fl_application_accels[i].action,
                                           fl_application_accels[i].accels);

  fl_application_setup_style (self);
}

static void
fl_application_activate (GApplication *app)
{
  FlApplication *self = FL_APPLICATION (app);
  g_autofree char *scenario = g_settings_get_string (self->settings, "last-scenario");

  fl_application_show_scenario (self, scenario);
}

static int
fl_application_handle_local_options (GApplication *app,
                                     GVariantDict *options)
{
  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("faultline %s\n", FL_VERSION);
      return EXIT_SUCCESS;
    }

  return -1;   /* carry on: register, then command_line in the primary instance */
}

/* A built-in scenario is named by its id; anything that looks like a file is a path, made
 * absolute against the caller's directory, since the primary instance may run elsewhere. */
static char *
fl_application_resolve_scenario (GApplicationCommandLine *cmdline,
                                 const char              *arg)
{
  g_autoptr(GFile) file = NULL;

  if (strchr (arg, G_DIR_SEPARATOR) == NULL && !g_str_has_suffix (arg, ".fault"))
    return g_strdup (arg);

  file = g_application_command_line_create_file_for_arg (cmdline, arg);
  return g_file_get_path (file);
}

static int
fl_application_command_line (GApplication            *app,
                             GApplicationCommandLine *cmdline)
{
  FlApplication *self = FL_APPLICATION (app);
  GVariantDict *options = g_application_command_line_get_options_dict (cmdline);
  g_auto(GStrv) args = NULL;
  g_autofree char *scenario = NULL;

  g_variant_dict_lookup (options, G_OPTION_REMAINING, "^aay", &args);

  if (args == NULL || args[0] == NULL)
    {
      g_application_activate (app);
      return EXIT_SUCCESS;
    }

  if (args[1] != NULL)
    {
      g_application_command_line_printerr (cmdline, "%s\n",
                                           _("Give at most one scenario, by name or by path."));
      return EXIT_FAILURE;
    }

  scenario = fl_application_resolve_scenario (cmdline, args[0]);
  g_settings_set_string (self->settings, "last-scenario", scenario);
  fl_application_show_scenario (self, scenario);
  return EXIT_SUCCESS;
}

static void
fl_application_dispose (GObject *object)
{
  FlApplication *self = FL_APPLICATION (object);

  g_clear_object (&self->settings);
  g_clear_object (&self->css);
  g_clear_object (&self->css_dark);

  G_OBJECT_CLASS (fl_application_parent_class)->dispose (object);
}

static void
fl_application_class_init (FlApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->dispose = fl_application_dispose;
  app_class->startup = fl_application_startup;
  app_class->activate = fl_application_activate;
  app_class->handle_local_options = fl_application_handle_local_options;
  app_class->command_line = fl_application_command_line;

  /* Registered by hand (--manual-register): a constructor in a static library's object would
   * be dropped by the linker, since nothing else references that object. */
  fl_ui_register_resource ();
}

static void
fl_application_init (FlApplication *self)
{
  g_application_add_main_option_entries (G_APPLICATION (self), fl_application_options);
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[SCENARIO]"));
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            _("Opens a built-in scenario by its name "
                                              "(such as spf-vs-munmap) or a .fault file "
                                              "by its path."));
}

FlApplication *
fl_application_new (GApplicationFlags extra_flags)
{
  return g_object_new (FL_TYPE_APPLICATION,
                       "application-id", FL_APP_ID,
                       "flags", G_APPLICATION_HANDLES_COMMAND_LINE | extra_flags,
                       NULL);
}
