/* The main window. Its body is a GtkStack so each mode of the window (the welcome page now,
 * the views grid later) is one page, and switching modes never rebuilds the header bar. */

#include "fl-window.h"

#include <glib/gi18n.h>

struct _FlWindow
{
  GtkApplicationWindow parent_instance;

  GtkStack *stack;   /* one page per mode; the views grid joins the welcome page here */
  GtkLabel *subtitle_label;
  GtkLabel *scenario_label;

  char *scenario;   /* a built-in scenario id or an absolute path, as given */
};

G_DEFINE_FINAL_TYPE (FlWindow, fl_window, GTK_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_SCENARIO,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* A path names the scenario by its file, without the directory and the `.fault` suffix, so the
 * header shows the same short name for a built-in scenario and for a copy of it on disk. */
static char *
fl_window_scenario_display_name (const char *scenario)
{
  g_autofree char *base = NULL;

  if (strchr (scenario, G_DIR_SEPARATOR) == NULL)
    return g_strdup (scenario);

  base = g_path_get_basename (scenario);
  if (g_str_has_suffix (base, ".fault"))
    base[strlen (base) - strlen (".fault")] = '\0';
  return g_steal_pointer (&base);
}

static void
fl_window_update_scenario_labels (FlWindow *self)
{
  g_autofree char *name = NULL;
  g_autofree char *text = NULL;

  if (self->scenario == NULL || self->scenario[0] == '\0')
    {
      gtk_label_set_label (self->subtitle_label, "");
      gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->scenario_label), FALSE);
      return;
    }

  name = fl_window_scenario_display_name (self->scenario);
  /* Translators: %s is the short name of a scenario, e.g. "spf-vs-munmap". */
  text = g_strdup_printf (_("Scenario: %s"), name);

  gtk_label_set_label (self->subtitle_label, name);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->subtitle_label), self->scenario);
  gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), TRUE);
  gtk_label_set_label (self->scenario_label, text);
  gtk_widget_set_visible (GTK_WIDGET (self->scenario_label), TRUE);
}

static void
fl_window_finalize (GObject *object)
{
  FlWindow *self = FL_WINDOW (object);

  g_clear_pointer (&self->scenario, g_free);

  G_OBJECT_CLASS (fl_window_parent_class)->finalize (object);
}

static void
fl_window_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  FlWindow *self = FL_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SCENARIO:
      g_value_set_string (value, self->scenario);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fl_window_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  FlWindow *self = FL_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SCENARIO:
      fl_window_set_scenario (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fl_window_class_init (FlWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = fl_window_finalize;
  object_class->get_property = fl_window_get_property;
  object_class->set_property = fl_window_set_property;

  properties[PROP_SCENARIO] =
    g_param_spec_string ("scenario", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, FL_RESOURCE_BASE "/ui/fl-window.ui");
  gtk_widget_class_bind_template_child (widget_class, FlWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, FlWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, FlWindow, scenario_label);
}

static void
fl_window_init (FlWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  fl_window_update_scenario_labels (self);
}

FlWindow *
fl_window_new (GtkApplication *application)
{
  g_return_val_if_fail (GTK_IS_APPLICATION (application), NULL);

  return g_object_new (FL_TYPE_WINDOW, "application", application, NULL);
}

void
fl_window_set_scenario (FlWindow   *self,
                        const char *scenario)
{
  g_return_if_fail (FL_IS_WINDOW (self));

  if (g_strcmp0 (self->scenario, scenario) == 0)
    return;

  g_free (self->scenario);
  self->scenario = g_strdup (scenario);
  fl_window_update_scenario_labels (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SCENARIO]);
}

const char *
fl_window_get_scenario (FlWindow *self)
{
  g_return_val_if_fail (FL_IS_WINDOW (self), NULL);

  return self->scenario;
}
