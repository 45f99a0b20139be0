/* FlFindingsList: rows are rebuilt only when the run changes (a new load, a CPU stepped
 * alone); a step merely moves the selection. Under the findings, the schedule's stop points
 * the run never reached: without them a misspent schedule looks like a race that is safe.
 * Hidden while the run has neither. */

#include "fl-findings-list.h"

#include <glib/gi18n.h>

struct _FlFindingsList
{
  GtkWidget   parent_instance;

  FlSession  *session;
  GtkListBox *list_box;

  /* what the rows were built from */
  FlRun      *shown_run;      /* the run the rows are of (a reference) */
  guint       shown_len;
  guint       shown_unreached;
  guint64     shown_total;
};

G_DEFINE_FINAL_TYPE (FlFindingsList, fl_findings_list, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static GtkWidget *
fl_findings_list_row_new (const char *what, const char *where, const char *text)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *kind = gtk_label_new (what);
  GtkWidget *where_label = gtk_label_new (where);
  GtkWidget *message = gtk_label_new (text);
  GtkWidget *row = gtk_list_box_row_new ();

  gtk_widget_add_css_class (kind, "fl-finding-kind");
  gtk_widget_add_css_class (where_label, "numeric");
  /* the message as far as it fits; all of it in the tooltip and to a screen reader */
  gtk_label_set_xalign (GTK_LABEL (message), 0);
  gtk_label_set_ellipsize (GTK_LABEL (message), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (message, TRUE);
  gtk_widget_add_css_class (message, "dim-label");
  gtk_box_append (GTK_BOX (box), kind);
  gtk_box_append (GTK_BOX (box), where_label);
  gtk_box_append (GTK_BOX (box), message);
  gtk_widget_add_css_class (box, "fl-finding");

  gtk_widget_set_tooltip_text (row, text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text,
                                  -1);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  return row;
}

static GtkWidget *
fl_findings_list_finding_row_new (const FlFinding *finding)
{
  g_autofree char *step = g_strdup_printf ("%" G_GUINT64_FORMAT, finding->step);
  g_autofree char *where = NULL;
  g_autofree char *text = NULL;
  if (finding->cause_cpu != finding->cpu)
    /* Translators: where a finding happened and which CPU caused it,
     * e.g. "step 76 · cpu1 · caused by cpu0". */
    where = g_strdup_printf (_("step %s · cpu%u · caused by cpu%u"), step, finding->cpu,
                             finding->cause_cpu);
  else
    /* Translators: where a finding happened, e.g. "step 59 · cpu0". */
    where = g_strdup_printf (_("step %s · cpu%u"), step, finding->cpu);
  /* what is wrong, then why: the tooltip and the screen reader get both */
  if (finding->cause != NULL && finding->cause[0] != '\0')
    text = g_strdup_printf ("%s. %s", finding->message, finding->cause);
  else
    text = g_strdup (finding->message);
  return fl_findings_list_row_new (fl_finding_kind_name (finding->kind), where, text);
}

static GtkWidget *
fl_findings_list_unreached_row_new (const FlRun *run, const FlScheduleMiss *miss)
{
  const FlScenario *scenario = fl_run_get_scenario (run);
  const FlScheduleStep *s = &g_array_index (scenario->schedule, FlScheduleStep, miss->index);
  g_autofree char *text = fl_run_describe_unreached (run, miss);
  /* Translators: where a schedule point is written in the scenario, e.g. "line 23". */
  g_autofree char *where = g_strdup_printf (_("line %u"), s->line);
  /* Translators: the kind of a row that says a schedule point was never reached. */
  GtkWidget *row = fl_findings_list_row_new (_("schedule"), where, text);
  /* nothing happened there to jump to */
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_list_box_row_set_selectable (GTK_LIST_BOX_ROW (row), FALSE);
  return row;
}

static void
fl_findings_list_rebuild (FlFindingsList *self, const FlRun *run)
{
  const GPtrArray *findings = fl_run_get_findings (run);
  const GArray *unreached = fl_run_get_unreached (run);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list_box))) != NULL)
    gtk_list_box_remove (self->list_box, child);

  g_clear_pointer (&self->shown_run, fl_run_unref);
  self->shown_run = fl_run_ref (run);
  self->shown_len = findings->len;
  self->shown_unreached = unreached->len;
  self->shown_total = fl_run_get_total_steps (run);

  for (guint i = 0; i < self->shown_len; i++)
    gtk_list_box_append (self->list_box,
                         fl_findings_list_finding_row_new (g_ptr_array_index (findings, i)));
  for (guint i = 0; i < self->shown_unreached; i++)
    gtk_list_box_append (self->list_box,
                         fl_findings_list_unreached_row_new (run, &g_array_index (unreached,
                                                                                  FlScheduleMiss, i)));
  /* nothing to say, nothing shown: the counters above say "no findings" */
  gtk_widget_set_visible (GTK_WIDGET (self), self->shown_len + self->shown_unreached > 0);
}

static void
fl_findings_list_changed (FlFindingsList *self)
{
  const FlRun *run = fl_session_get_run (self->session);
  guint64 step = fl_session_get_step (self->session);
  GtkListBoxRow *selected = NULL;
  const GPtrArray *findings;

  if (run == NULL)
    return;   /* loading: the last run's findings stay until the new run is on screen */
  findings = fl_run_get_findings (run);
  if (self->shown_run == NULL || !fl_run_same (run, self->shown_run)
      || findings->len != self->shown_len
      || fl_run_get_unreached (run)->len != self->shown_unreached
      || fl_run_get_total_steps (run) != self->shown_total)
    fl_findings_list_rebuild (self, run);

  for (guint i = 0; i < findings->len && selected == NULL; i++)
    {
      const FlFinding *finding = g_ptr_array_index (findings, i);
      if (finding->step == step)
        selected = gtk_list_box_get_row_at_index (self->list_box, (int) i);
    }
  if (selected != NULL)
    gtk_list_box_select_row (self->list_box, selected);
  else
    gtk_list_box_unselect_all (self->list_box);
}

static void
fl_findings_list_row_activated (FlFindingsList *self, GtkListBoxRow *row)
{
  int index = gtk_list_box_row_get_index (row);
  const FlRun *run = fl_session_get_run (self->session);

  if (run != NULL && index >= 0 && (guint) index < fl_run_get_findings (run)->len)
    fl_session_show_finding (self->session, (guint) index);
}

static void
fl_findings_list_constructed (GObject *object)
{
  FlFindingsList *self = FL_FINDINGS_LIST (object);

  G_OBJECT_CLASS (fl_findings_list_parent_class)->constructed (object);

  g_return_if_fail (FL_IS_SESSION (self->session));
  g_signal_connect_object (self->session, "changed", G_CALLBACK (fl_findings_list_changed),
                           self, G_CONNECT_SWAPPED);
  fl_findings_list_changed (self);
}

static void
fl_findings_list_dispose (GObject *object)
{
  FlFindingsList *self = FL_FINDINGS_LIST (object);
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (self), FL_TYPE_FINDINGS_LIST);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->session);
  g_clear_pointer (&self->shown_run, fl_run_unref);

  G_OBJECT_CLASS (fl_findings_list_parent_class)->dispose (object);
}

static void
fl_findings_list_get_property (GObject *object, guint prop_id, GValue *value,
                               GParamSpec *pspec)
{
  FlFindingsList *self = FL_FINDINGS_LIST (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fl_findings_list_set_property (GObject *object, guint prop_id, const GValue *value,
                               GParamSpec *pspec)
{
  FlFindingsList *self = FL_FINDINGS_LIST (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      self->session = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fl_findings_list_class_init (FlFindingsListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = fl_findings_list_constructed;
  object_class->dispose = fl_findings_list_dispose;
  object_class->get_property = fl_findings_list_get_property;
  object_class->set_property = fl_findings_list_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, FL_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               FL_RESOURCE_BASE "/ui/fl-findings-list.ui");
  gtk_widget_class_bind_template_child (widget_class, FlFindingsList, list_box);
  gtk_widget_class_bind_template_callback (widget_class, fl_findings_list_row_activated);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "flfindings");
}

static void
fl_findings_list_init (FlFindingsList *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

GtkWidget *
fl_findings_list_new (FlSession *session)
{
  g_return_val_if_fail (FL_IS_SESSION (session), NULL);

  return g_object_new (FL_TYPE_FINDINGS_LIST, "session", session, NULL);
}
