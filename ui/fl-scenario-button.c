/* FlScenarioButton: the scenario chooser of the header bar. GtkMenuButton cannot be
 * subclassed in GTK 4, so this widget holds one and fills its popover in C: the rows come
 * from the scenarios compiled into the core, not from a fixed template. */

#include "fl-scenario-button.h"

#include <glib/gi18n.h>

#include "fl-file-chooser.h"
#include "fl-scenario.h"

struct _FlScenarioButton
{
  GtkWidget parent_instance;

  FlSession     *session;
  GtkMenuButton *menu_button;
  GtkLabel      *label;        /* the open scenario's short name */
  GtkPopover    *popover;
  GtkListBox    *list;
};

G_DEFINE_FINAL_TYPE (FlScenarioButton, fl_scenario_button, GTK_TYPE_WIDGET)

/* Rows remember their scenario id (what fl_session_load() takes) and the mark that shows
 * which one is open. */
#define FL_ROW_ID_KEY    "fl-scenario-id"
#define FL_ROW_CHECK_KEY "fl-scenario-check"

/* A description is a paragraph; a tooltip reads better as its first sentence. */
static char *
fl_first_sentence (const char *text)
{
  const char *end;

  if (text == NULL)
    return NULL;
  end = strstr (text, ". ");
  return end != NULL ? g_strndup (text, end - text + 1) : g_strdup (text);
}

/* ---- opening a file ---- */

static void
fl_scenario_open_file_chosen (gpointer session, const char *path)
{
  fl_session_load (session, path);
}

void
fl_scenario_open_file (GtkWindow *parent,
                       FlSession *session)
{
  static const char *const suffixes[] = { "fault", NULL };

  g_return_if_fail (parent == NULL || GTK_IS_WINDOW (parent));
  g_return_if_fail (FL_IS_SESSION (session));

  /* Start next to the scenario on screen when it came from a file: its siblings are the
   * likeliest next choice. */
  fl_file_chooser_show (parent, _("Open Scenario"), GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"),
                        _("Faultline scenarios (*.fault)"), suffixes, NULL,
                        fl_session_get_scenario (session), fl_scenario_open_file_chosen,
                        session);
}

/* ---- the button ---- */

static void
fl_scenario_button_sync (FlScenarioButton *self)
{
  const char *scenario = fl_session_get_scenario (self->session);
  const char *name = fl_session_get_name (self->session);
  const char *title = fl_session_get_title (self->session);
  g_autoptr(GString) tip = g_string_new (NULL);

  if (name == NULL || name[0] == '\0')
    {
      gtk_label_set_label (self->label, _("Scenario"));
      gtk_label_set_ellipsize (self->label, PANGO_ELLIPSIZE_NONE);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->menu_button), _("Choose a scenario"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->menu_button),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, _("Choose a scenario"),
                                      -1);
    }
  else
    {
      g_autofree char *accessible = NULL;

      gtk_label_set_label (self->label, name);
      /* a built-in's id (20 characters at most) is never cut: at 1024 pixels the header's
       * title gives way instead; only a longer file name shrinks, to about 20 */
      gboolean long_name = g_utf8_strlen (name, -1) > 20;
      gtk_label_set_ellipsize (self->label, long_name ? PANGO_ELLIPSIZE_MIDDLE : PANGO_ELLIPSIZE_NONE);
      gtk_label_set_width_chars (self->label, long_name ? 20 : -1);
      /* The title says what the run shows; the scenario as given (a path, maybe) is the name
       * in full, which the label may have to ellipsize. */
      if (title != NULL && title[0] != '\0')
        g_string_append_printf (tip, "%s\n", title);
      g_string_append (tip, scenario != NULL ? scenario : name);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->menu_button), tip->str);

      /* Translators: %s is the short name of a scenario, e.g. "spf-vs-munmap". */
      accessible = g_strdup_printf (_("Scenario: %s"), name);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->menu_button),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, accessible, -1);
    }

  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->list));
       row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      const char *id = g_object_get_data (G_OBJECT (row), FL_ROW_ID_KEY);
      GtkWidget *check = g_object_get_data (G_OBJECT (row), FL_ROW_CHECK_KEY);

      if (id != NULL && check != NULL)
        gtk_widget_set_opacity (check, g_strcmp0 (id, scenario) == 0 ? 1.0 : 0.0);
    }
}

static void
fl_scenario_button_row_activated (FlScenarioButton *self,
                                  GtkListBoxRow    *row)
{
  const char *id = g_object_get_data (G_OBJECT (row), FL_ROW_ID_KEY);

  gtk_popover_popdown (self->popover);
  if (id != NULL)
    fl_session_load (self->session, id);
}

static void
fl_scenario_button_open_clicked (FlScenarioButton *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  gtk_popover_popdown (self->popover);
  fl_scenario_open_file (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, self->session);
}

static GtkWidget *
fl_scenario_button_make_row (const char *id)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FlScenario) scenario = fl_scenario_load_builtin (id, &error);
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *check = gtk_image_new_from_icon_name ("object-select-symbolic");
  GtkWidget *title_label;
  GtkWidget *id_label = gtk_label_new (id);
  g_autofree char *sentence = NULL;

  /* A built-in that does not parse is a bug the data tests catch; the row still lets the
   * user pick it and see the session's error rather than silently vanishing. */
  title_label = gtk_label_new (scenario != NULL ? scenario->title : error->message);
  sentence = scenario != NULL ? fl_first_sentence (scenario->description) : NULL;

  gtk_label_set_xalign (GTK_LABEL (title_label), 0.0);
  gtk_label_set_ellipsize (GTK_LABEL (title_label), PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (GTK_LABEL (title_label), 48);
  gtk_label_set_xalign (GTK_LABEL (id_label), 0.0);
  gtk_widget_add_css_class (id_label, "dim-label");
  gtk_widget_add_css_class (id_label, "caption");
  gtk_widget_add_css_class (id_label, "monospace");

  /* Hidden by opacity, not visibility, so every row keeps the same indent. */
  gtk_widget_set_opacity (check, 0.0);
  gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
  gtk_accessible_update_property (GTK_ACCESSIBLE (check),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Current scenario"), -1);

  gtk_box_append (GTK_BOX (text), title_label);
  gtk_box_append (GTK_BOX (text), id_label);
  gtk_box_append (GTK_BOX (box), check);
  gtk_box_append (GTK_BOX (box), text);
  gtk_widget_set_margin_top (box, 4);
  gtk_widget_set_margin_bottom (box, 4);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);

  if (sentence != NULL)
    {
      gtk_widget_set_tooltip_text (row, sentence);
      gtk_accessible_update_property (GTK_ACCESSIBLE (row),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, sentence, -1);
    }
  g_object_set_data_full (G_OBJECT (row), FL_ROW_ID_KEY, g_strdup (id), g_free);
  g_object_set_data (G_OBJECT (row), FL_ROW_CHECK_KEY, check);
  return row;
}

static GtkWidget *
fl_scenario_button_make_popover (FlScenarioButton *self)
{
  g_auto(GStrv) ids = fl_scenario_builtin_ids ();
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *heading = gtk_label_new (_("Built-in Scenarios"));
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *list = gtk_list_box_new ();
  GtkWidget *open = gtk_button_new_with_mnemonic (_("_Open File…"));

  gtk_label_set_xalign (GTK_LABEL (heading), 0.0);
  gtk_widget_add_css_class (heading, "heading");

  for (guint i = 0; ids[i] != NULL; i++)
    gtk_list_box_append (GTK_LIST_BOX (list), fl_scenario_button_make_row (ids[i]));
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_list_box_set_activate_on_single_click (GTK_LIST_BOX (list), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (list),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Built-in Scenarios"), -1);
  g_signal_connect_object (list, "row-activated",
                           G_CALLBACK (fl_scenario_button_row_activated), self,
                           G_CONNECT_SWAPPED);

  /* Thirteen scenarios and counting: scroll rather than run off a 720-pixel projector. */
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled),
                                  GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_width (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 540);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), list);

  gtk_widget_add_css_class (open, "flat");
  gtk_widget_set_tooltip_text (open, _("Open a .fault file"));
  g_signal_connect_object (open, "clicked", G_CALLBACK (fl_scenario_button_open_clicked),
                           self, G_CONNECT_SWAPPED);

  gtk_box_append (GTK_BOX (box), heading);
  gtk_box_append (GTK_BOX (box), scrolled);
  gtk_box_append (GTK_BOX (box), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));
  gtk_box_append (GTK_BOX (box), open);
  gtk_popover_set_child (GTK_POPOVER (popover), box);

  self->list = GTK_LIST_BOX (list);
  return popover;
}

static void
fl_scenario_button_dispose (GObject *object)
{
  FlScenarioButton *self = FL_SCENARIO_BUTTON (object);

  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  if (self->menu_button != NULL)
    gtk_widget_unparent (GTK_WIDGET (self->menu_button));
  self->menu_button = NULL;
  self->label = NULL;
  self->popover = NULL;
  self->list = NULL;

  G_OBJECT_CLASS (fl_scenario_button_parent_class)->dispose (object);
}

static void
fl_scenario_button_class_init (FlScenarioButtonClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fl_scenario_button_dispose;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "flscenariobutton");
}

static void
fl_scenario_button_init (FlScenarioButton *self)
{
  /* A file's name can be long; the header bar must still fit a 1024-pixel screen, so a long
   * name gives way (ellipsized in the middle, whole in the tooltip) before the window does;
   * what is kept whole is set with the name (fl_scenario_button_sync()). */
  self->label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_ellipsize (self->label, PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (self->label, 28);
  gtk_label_set_single_line_mode (self->label, TRUE);

  self->menu_button = GTK_MENU_BUTTON (gtk_menu_button_new ());
  gtk_menu_button_set_child (self->menu_button, GTK_WIDGET (self->label));
  gtk_menu_button_set_always_show_arrow (self->menu_button, TRUE);
  gtk_widget_set_parent (GTK_WIDGET (self->menu_button), GTK_WIDGET (self));

  self->popover = GTK_POPOVER (fl_scenario_button_make_popover (self));
  gtk_menu_button_set_popover (self->menu_button, GTK_WIDGET (self->popover));
}

GtkWidget *
fl_scenario_button_new (FlSession *session)
{
  FlScenarioButton *self;

  g_return_val_if_fail (FL_IS_SESSION (session), NULL);

  self = g_object_new (FL_TYPE_SCENARIO_BUTTON, NULL);
  self->session = g_object_ref (session);

  g_signal_connect_object (session, "notify::scenario",
                           G_CALLBACK (fl_scenario_button_sync), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::name",
                           G_CALLBACK (fl_scenario_button_sync), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::title",
                           G_CALLBACK (fl_scenario_button_sync), self, G_CONNECT_SWAPPED);
  fl_scenario_button_sync (self);
  return GTK_WIDGET (self);
}
