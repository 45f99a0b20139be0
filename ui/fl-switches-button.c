/* FlSwitchesButton: the "Design" menu. GtkMenuButton cannot be subclassed in GTK 4, so this
 * widget holds one; the popover is built in C because each row's control follows from what
 * fl_config_valid_values() says about its key (a switch, a drop-down or a spin button).
 *
 * The controls never hold state of their own: they show fl_session_get_switch() of the run
 * on screen and write through fl_session_set_switch(). While they are being updated from
 * the session, `syncing` keeps their change handlers from writing the values back. */

#include "fl-switches-button.h"

#include <glib/gi18n.h>

#include "fl-config.h"

typedef struct {
  const char *key;
  const char *label;         /* translatable, shown next to the control */
  guint       lower, upper;  /* numeric keys only: what the spin button offers */
} FlSwitchInfo;

/* The switches a user compares designs with, in the order the story meets them. The cost
 * table (cost.*) is calibration, not design, and `oracle` only changes when findings are
 * checked, so neither is offered here. The machine goes up to the core's FL_MAX_CPUS: the
 * lanes keep a readable height and scroll, the RCU and cache views label their CPUs. */
static const FlSwitchInfo fl_design_switches[] = {
  { "fault-path",      N_("Fault path") },
  { "spf-seqcheck",    N_("VMA sequence count check") },
  { "spf-mmap-cache",  N_("mmap_cache in speculative faults") },
  { "spf-find-vma",    N_("VMA lookup in speculative faults") },
  { "spf-access-check", N_("Access check in speculative faults") },
  { "mprotect-seqcount", N_("mprotect and the VMA sequence count") },
  { "rcu",             N_("RCU implementation") },
  { "vma-free",        N_("Freeing of unmapped VMAs") },
  { "pte-map-lock",    N_("PTE lock in speculative faults") },
  { "pin-page-tables", N_("Page-table pinning") },
  { "rwsem",           N_("mmap_sem implementation") },
  { "rss",             N_("RSS counters") },
};

static const FlSwitchInfo fl_machine_switches[] = {
  { "machine",          N_("Measured machine") },
  { "cpus",             N_("CPUs"),             1, FL_MAX_CPUS },
  { "sockets",          N_("Sockets"),          1, FL_MAX_SOCKETS },
  { "cores-per-socket", N_("Cores per socket"), 1, FL_MAX_CPUS },
};

#define FL_N_SWITCHES (G_N_ELEMENTS (fl_design_switches) + G_N_ELEMENTS (fl_machine_switches))

typedef struct _FlSwitchRow FlSwitchRow;

struct _FlSwitchesButton
{
  GtkWidget parent_instance;

  FlSession     *session;
  GtkMenuButton *menu_button;
  GtkLabel      *error_label;

  struct _FlSwitchRow {
    FlSwitchesButton   *self;
    const FlSwitchInfo *info;
    GtkWidget          *control;   /* GtkSwitch, GtkDropDown or GtkSpinButton */
    GStrv               values;    /* GtkDropDown: its items, as the configuration spells them */
  } rows[FL_N_SWITCHES];

  gboolean  syncing;
  gboolean  needs_sync;   /* a run started since the controls were last updated */
  /* The last switch set through this menu, so a run that then fails can say which. */
  char     *last_key;
  char     *last_value;
};

G_DEFINE_FINAL_TYPE (FlSwitchesButton, fl_switches_button, GTK_TYPE_WIDGET)

/* ---- errors, one line at the bottom of the popover ---- */

static void
fl_switches_button_show_error (FlSwitchesButton *self,
                               const char       *text)
{
  gtk_label_set_label (self->error_label, text != NULL ? text : "");
  /* The line is ellipsized to keep the popover narrow; the whole message stays readable. */
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->error_label), text);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), text != NULL);
}

static void
fl_switches_button_forget_last (FlSwitchesButton *self)
{
  g_clear_pointer (&self->last_key, g_free);
  g_clear_pointer (&self->last_value, g_free);
}

/* ---- session → controls ---- */

static void
fl_switch_row_show (FlSwitchRow *row,
                    const char  *value)
{
  if (GTK_IS_SWITCH (row->control))
    gtk_switch_set_active (GTK_SWITCH (row->control), g_strcmp0 (value, "on") == 0);
  else if (GTK_IS_DROP_DOWN (row->control))
    {
      /* none selected when no value matches (a machine whose costs were set by hand) */
      guint selected = GTK_INVALID_LIST_POSITION;
      for (guint i = 0; row->values[i] != NULL; i++)
        if (strcmp (row->values[i], value) == 0)
          selected = i;
      gtk_drop_down_set_selected (GTK_DROP_DOWN (row->control), selected);
    }
  else
    {
      GtkAdjustment *adjustment = gtk_spin_button_get_adjustment (GTK_SPIN_BUTTON (row->control));
      guint64 number = g_ascii_strtoull (value, NULL, 10);

      if (number > gtk_adjustment_get_upper (adjustment))
        gtk_adjustment_set_upper (adjustment, number);
      gtk_spin_button_set_value (GTK_SPIN_BUTTON (row->control), number);
    }
  /* what the value shown means, and what a scenario file or --set calls it */
  const char *about = fl_config_value_about (row->info->key, value);
  g_autofree char *tip = about != NULL
    ? g_strdup_printf ("%s=%s: %s", row->info->key, value, _(about))
    : g_strdup_printf ("%s=%s", row->info->key, value);
  gtk_widget_set_tooltip_text (row->control, tip);
}

static void
fl_switches_button_sync (FlSwitchesButton *self)
{
  const char *name = fl_session_get_name (self->session);
  gboolean have_run = fl_session_get_run (self->session) != NULL;

  /* Before anything is loaded there is no scenario to re-run. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->menu_button), name != NULL && name[0] != '\0');

  /* During a load there is no run to show; keep what the user just chose on screen. */
  if (fl_session_is_loading (self->session) || !have_run)
    return;

  self->syncing = TRUE;
  for (guint i = 0; i < FL_N_SWITCHES; i++)
    {
      g_autofree char *value = fl_session_get_switch (self->session, self->rows[i].info->key);

      if (value != NULL)
        fl_switch_row_show (&self->rows[i], value);
    }
  self->syncing = FALSE;
  self->needs_sync = FALSE;
}

static void
fl_switches_button_loading_changed (FlSwitchesButton *self)
{
  if (fl_session_is_loading (self->session))
    self->needs_sync = TRUE;
  else
    fl_switches_button_sync (self);
}

/* "changed" also fires for every step of playback: only a new run needs the controls. */
static void
fl_switches_button_session_changed (FlSwitchesButton *self)
{
  if (self->needs_sync)
    fl_switches_button_sync (self);
}

static void
fl_switches_button_scenario_changed (FlSwitchesButton *self)
{
  fl_switches_button_forget_last (self);
  fl_switches_button_show_error (self, NULL);
  self->needs_sync = TRUE;
  fl_switches_button_sync (self);
}

static void
fl_switches_button_load_failed (FlSwitchesButton *self,
                                GError           *error)
{
  if (self->last_key != NULL)
    {
      /* Translators: a re-run with a design switch failed, e.g. "Cannot run with cpus = 9:
       * 9 CPUs do not fit in 2 sockets × 4 cores". The reason comes from the simulation. */
      g_autofree char *text = g_strdup_printf (_("Cannot run with %s = %s: %s"),
                                               self->last_key, self->last_value,
                                               error->message);
      fl_switches_button_show_error (self, text);
    }
  fl_switches_button_sync (self);
}

/* ---- controls → session ---- */

static void
fl_switch_row_apply (FlSwitchRow *row,
                     const char  *value)
{
  FlSwitchesButton *self = row->self;
  g_autoptr(GError) error = NULL;
  g_autofree char *current = NULL;

  if (self->syncing)
    return;

  /* The value the run already has needs no re-run. This also absorbs the value-changed a
   * GtkSpinButton emits again after a refused value was put back from inside its handler. */
  current = fl_session_get_switch (self->session, row->info->key);
  if (g_strcmp0 (current, value) == 0)
    return;

  fl_switches_button_show_error (self, NULL);
  g_free (self->last_key);
  self->last_key = g_strdup (row->info->key);
  g_free (self->last_value);
  self->last_value = g_strdup (value);

  if (!fl_session_set_switch (self->session, row->info->key, value, &error))
    {
      /* Translators: e.g. "Cannot set cpus to 300: invalid value …". The reason comes from
       * the simulation's configuration. */
      g_autofree char *text = g_strdup_printf (_("Cannot set %s to %s: %s"),
                                               row->info->key, value, error->message);
      fl_switches_button_show_error (self, text);
      fl_switches_button_forget_last (self);
      /* Nothing was re-run: put the control back to the run on screen. */
      self->needs_sync = TRUE;
      fl_switches_button_sync (self);
    }
}

static void
fl_switch_row_switch_toggled (GtkSwitch   *control,
                              GParamSpec  *pspec,
                              FlSwitchRow *row)
{
  fl_switch_row_apply (row, gtk_switch_get_active (control) ? "on" : "off");
}

static void
fl_switch_row_selected (GtkDropDown *control,
                        GParamSpec  *pspec,
                        FlSwitchRow *row)
{
  guint selected = gtk_drop_down_get_selected (control);

  if (selected < g_strv_length (row->values))
    fl_switch_row_apply (row, row->values[selected]);
}

static void
fl_switch_row_spun (GtkSpinButton *control,
                    FlSwitchRow   *row)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  g_snprintf (text, sizeof text, "%d", gtk_spin_button_get_value_as_int (control));
  fl_switch_row_apply (row, text);
}

static void
fl_switches_button_reset (FlSwitchesButton *self)
{
  fl_switches_button_forget_last (self);
  fl_switches_button_show_error (self, NULL);
  fl_session_reset_switches (self->session);
}

/* ---- building the popover ---- */

static GtkWidget *
fl_switch_row_make_control (FlSwitchRow *row)
{
  const char *valid = fl_config_valid_values (row->info->key);

  if (g_strcmp0 (valid, "off|on") == 0)
    {
      GtkWidget *control = gtk_switch_new ();

      gtk_widget_set_halign (control, GTK_ALIGN_END);
      g_signal_connect (control, "notify::active",
                        G_CALLBACK (fl_switch_row_switch_toggled), row);
      return control;
    }

  if (valid != NULL && strchr (valid, '|') != NULL)
    {
      GtkWidget *control;

      row->values = g_strsplit (valid, "|", -1);
      /* The values as scenario files and faultline-cli spell them, so what the menu shows
       * can be typed into a [config] section as it is. */
      control = gtk_drop_down_new_from_strings ((const char *const *) row->values);
      g_signal_connect (control, "notify::selected", G_CALLBACK (fl_switch_row_selected), row);
      return control;
    }

  {
    GtkWidget *control = gtk_spin_button_new_with_range (row->info->lower, row->info->upper, 1);

    gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (control), TRUE);
    gtk_widget_set_halign (control, GTK_ALIGN_END);
    g_signal_connect (control, "value-changed", G_CALLBACK (fl_switch_row_spun), row);
    return control;
  }
}

static void
fl_switches_button_add_heading (GtkGrid    *grid,
                                const char *text,
                                int         line)
{
  GtkWidget *heading = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (heading), 0.0);
  gtk_widget_add_css_class (heading, "heading");
  if (line > 0)
    gtk_widget_set_margin_top (heading, 8);
  gtk_grid_attach (grid, heading, 0, line, 2, 1);
}

static int
fl_switches_button_add_rows (FlSwitchesButton   *self,
                             GtkGrid            *grid,
                             const FlSwitchInfo *infos,
                             guint               n_infos,
                             guint               first_row,
                             int                 line)
{
  for (guint i = 0; i < n_infos; i++)
    {
      FlSwitchRow *row = &self->rows[first_row + i];
      GtkWidget *label = gtk_label_new (_(infos[i].label));
      /* what the switch decides, under its name: a newcomer needs it more than the key */
      GtkWidget *about = gtk_label_new (_(fl_config_key_about (infos[i].key)));
      GtkWidget *names = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

      row->self = self;
      row->info = &infos[i];
      row->control = fl_switch_row_make_control (row);

      gtk_label_set_xalign (GTK_LABEL (label), 0.0);
      gtk_label_set_xalign (GTK_LABEL (about), 0.0);
      gtk_label_set_wrap (GTK_LABEL (about), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (about), 44);
      gtk_widget_add_css_class (about, "dim-label");
      gtk_widget_add_css_class (about, "caption");
      gtk_box_append (GTK_BOX (names), label);
      gtk_box_append (GTK_BOX (names), about);
      gtk_widget_set_hexpand (names, TRUE);
      /* The key is what scenario files and faultline-cli --set call the switch. */
      gtk_widget_set_tooltip_text (label, infos[i].key);
      gtk_widget_set_tooltip_text (row->control, infos[i].key);
      gtk_widget_set_valign (row->control, GTK_ALIGN_CENTER);
      gtk_accessible_update_relation (GTK_ACCESSIBLE (row->control),
                                      GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL, -1);
      gtk_accessible_update_relation (GTK_ACCESSIBLE (row->control),
                                      GTK_ACCESSIBLE_RELATION_DESCRIBED_BY, about, NULL, -1);

      gtk_grid_attach (grid, names, 0, line, 1, 1);
      gtk_grid_attach (grid, row->control, 1, line, 1, 1);
      line++;
    }
  return line;
}

static GtkWidget *
fl_switches_button_make_popover (FlSwitchesButton *self)
{
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 10);
  GtkWidget *grid = gtk_grid_new ();
  GtkWidget *error_label = gtk_label_new (NULL);
  GtkWidget *reset = gtk_button_new_with_mnemonic (_("_Reset to the Scenario’s Values"));
  int line = 0;

  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 18);

  fl_switches_button_add_heading (GTK_GRID (grid), _("Design"), line++);
  line = fl_switches_button_add_rows (self, GTK_GRID (grid), fl_design_switches,
                                      G_N_ELEMENTS (fl_design_switches), 0, line);
  fl_switches_button_add_heading (GTK_GRID (grid), _("Machine"), line++);
  fl_switches_button_add_rows (self, GTK_GRID (grid), fl_machine_switches,
                               G_N_ELEMENTS (fl_machine_switches),
                               G_N_ELEMENTS (fl_design_switches), line);

  gtk_label_set_xalign (GTK_LABEL (error_label), 0.0);
  gtk_label_set_single_line_mode (GTK_LABEL (error_label), TRUE);
  gtk_label_set_ellipsize (GTK_LABEL (error_label), PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (GTK_LABEL (error_label), 40);
  gtk_widget_add_css_class (error_label, "error");
  gtk_widget_set_visible (error_label, FALSE);

  gtk_widget_set_tooltip_text (reset, _("Forget the switches changed here and run the "
                                        "scenario with its own configuration"));
  g_signal_connect_object (reset, "clicked", G_CALLBACK (fl_switches_button_reset), self,
                           G_CONNECT_SWAPPED);

  gtk_box_append (GTK_BOX (box), grid);
  gtk_box_append (GTK_BOX (box), error_label);
  gtk_box_append (GTK_BOX (box), reset);
  gtk_popover_set_child (GTK_POPOVER (popover), box);

  self->error_label = GTK_LABEL (error_label);
  return popover;
}

/* ---- GObject ---- */

static void
fl_switches_button_dispose (GObject *object)
{
  FlSwitchesButton *self = FL_SWITCHES_BUTTON (object);

  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  if (self->menu_button != NULL)
    gtk_widget_unparent (GTK_WIDGET (self->menu_button));
  self->menu_button = NULL;
  self->error_label = NULL;

  G_OBJECT_CLASS (fl_switches_button_parent_class)->dispose (object);
}

static void
fl_switches_button_finalize (GObject *object)
{
  FlSwitchesButton *self = FL_SWITCHES_BUTTON (object);

  for (guint i = 0; i < FL_N_SWITCHES; i++)
    g_clear_pointer (&self->rows[i].values, g_strfreev);
  fl_switches_button_forget_last (self);

  G_OBJECT_CLASS (fl_switches_button_parent_class)->finalize (object);
}

static void
fl_switches_button_class_init (FlSwitchesButtonClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fl_switches_button_dispose;
  object_class->finalize = fl_switches_button_finalize;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "flswitchesbutton");
}

static void
fl_switches_button_init (FlSwitchesButton *self)
{
  GtkWidget *content = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  gtk_box_append (GTK_BOX (content), gtk_image_new_from_icon_name ("emblem-system-symbolic"));
  gtk_box_append (GTK_BOX (content), gtk_label_new (_("Design")));

  self->menu_button = GTK_MENU_BUTTON (gtk_menu_button_new ());
  gtk_menu_button_set_child (self->menu_button, content);
  gtk_menu_button_set_always_show_arrow (self->menu_button, TRUE);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->menu_button),
                               _("Design switches: re-run the scenario with another design"));
  gtk_widget_set_parent (GTK_WIDGET (self->menu_button), GTK_WIDGET (self));
  gtk_menu_button_set_popover (self->menu_button, fl_switches_button_make_popover (self));
}

GtkWidget *
fl_switches_button_new (FlSession *session)
{
  FlSwitchesButton *self;

  g_return_val_if_fail (FL_IS_SESSION (session), NULL);

  self = g_object_new (FL_TYPE_SWITCHES_BUTTON, NULL);
  self->session = g_object_ref (session);
  self->needs_sync = TRUE;

  g_signal_connect_object (session, "notify::loading",
                           G_CALLBACK (fl_switches_button_loading_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::scenario",
                           G_CALLBACK (fl_switches_button_scenario_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "changed",
                           G_CALLBACK (fl_switches_button_session_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "load-failed",
                           G_CALLBACK (fl_switches_button_load_failed), self,
                           G_CONNECT_SWAPPED);
  fl_switches_button_sync (self);
  return GTK_WIDGET (self);
}
