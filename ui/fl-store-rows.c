/* The store browser's rows and columns; see fl-store-rows.h. */

#include "fl-store-rows.h"

#include <glib/gi18n.h>
#include <string.h>

#include "fl-store-record.h"

/* ---- FlScenarioItem ---- */

struct _FlScenarioItem
{
  GObject parent_instance;

  FlStoredScenario *scenario;
};

G_DEFINE_FINAL_TYPE (FlScenarioItem, fl_scenario_item, G_TYPE_OBJECT)

static void
fl_scenario_item_finalize (GObject *object)
{
  FlScenarioItem *self = FL_SCENARIO_ITEM (object);

  g_clear_pointer (&self->scenario, fl_stored_scenario_free);
  G_OBJECT_CLASS (fl_scenario_item_parent_class)->finalize (object);
}

static void
fl_scenario_item_class_init (FlScenarioItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fl_scenario_item_finalize;
}

static void
fl_scenario_item_init (FlScenarioItem *self)
{
}

FlScenarioItem *
fl_scenario_item_new (FlStoredScenario *scenario)
{
  FlScenarioItem *self;

  g_return_val_if_fail (scenario != NULL, NULL);

  self = g_object_new (FL_TYPE_SCENARIO_ITEM, NULL);
  self->scenario = scenario;
  return self;
}

const FlStoredScenario *
fl_scenario_item_get (FlScenarioItem *self)
{
  g_return_val_if_fail (FL_IS_SCENARIO_ITEM (self), NULL);
  return self->scenario;
}

/* ---- FlRunItem ---- */

struct _FlRunItem
{
  GObject parent_instance;

  FlStoredRun *run;
  char        *switches;
};

G_DEFINE_FINAL_TYPE (FlRunItem, fl_run_item, G_TYPE_OBJECT)

static void
fl_run_item_finalize (GObject *object)
{
  FlRunItem *self = FL_RUN_ITEM (object);

  g_clear_pointer (&self->run, fl_stored_run_free);
  g_free (self->switches);
  G_OBJECT_CLASS (fl_run_item_parent_class)->finalize (object);
}

static void
fl_run_item_class_init (FlRunItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fl_run_item_finalize;
}

static void
fl_run_item_init (FlRunItem *self)
{
}

/* The config column names every switch; a row shows only those the run changed, which is
 * what tells two runs of one scenario apart. */
static char *
fl_run_item_summarize (const FlStoredRun *run, const FlScenario *scenario)
{
  FlConfig config;
  FlSchedPolicy policy, own_policy;
  g_auto(GStrv) tokens = NULL;
  GString *out;

  if (scenario == NULL)
    return g_strdup (run->config);
  config = scenario->config;
  if (!fl_store_run_config_apply (run->config, &config, &policy, NULL, NULL))
    return g_strdup (run->config);
  own_policy = scenario->schedule->len > 0 ? FL_SCHED_SCRIPT : FL_SCHED_TIME;

  out = g_string_new (NULL);
  tokens = g_strsplit (run->config, " ", -1);
  for (guint i = 0; tokens[i] != NULL; i++)
    {
      const char *eq = strchr (tokens[i], '=');
      g_autofree char *key = NULL;
      gboolean changed;

      if (eq == NULL)
        continue;
      key = g_strndup (tokens[i], eq - tokens[i]);
      if (strcmp (key, "schedule") == 0)
        changed = policy != own_policy;
      else
        {
          g_autofree char *own = fl_config_get (&scenario->config, key);
          changed = g_strcmp0 (own, eq + 1) != 0;
        }
      if (changed)
        g_string_append_printf (out, "%s%s", out->len > 0 ? "  " : "", tokens[i]);
    }
  if (run->exploration_id > 0)
    {
      g_autofree char *id = g_strdup_printf ("%" G_GINT64_FORMAT, run->exploration_id);
      /* Translators: a run recorded by `faultline-cli explore --record`; %s is its number. */
      g_string_prepend (out, out->len > 0 ? "  " : "");
      g_autofree char *found = g_strdup_printf (_("Counterexample of exploration %s"), id);
      g_string_prepend (out, found);
    }
  if (out->len == 0)
    g_string_append (out, _("As in the scenario"));
  return g_string_free (out, FALSE);
}

FlRunItem *
fl_run_item_new (FlStoredRun *run, const FlScenario *scenario)
{
  FlRunItem *self;

  g_return_val_if_fail (run != NULL, NULL);

  self = g_object_new (FL_TYPE_RUN_ITEM, NULL);
  self->run = run;
  self->switches = fl_run_item_summarize (run, scenario);
  return self;
}

const FlStoredRun *
fl_run_item_get (FlRunItem *self)
{
  g_return_val_if_fail (FL_IS_RUN_ITEM (self), NULL);
  return self->run;
}

const char *
fl_run_item_get_switches (FlRunItem *self)
{
  g_return_val_if_fail (FL_IS_RUN_ITEM (self), NULL);
  return self->switches;
}

/* ---- columns ---- */

/* A column's text for one item of the list (newly allocated). */
typedef char *(*FlStoreRowText) (gpointer item);

typedef struct {
  FlStoreRowText text;
  FlStoreRowText tooltip;
  gboolean       numeric;
} FlColumnFuncs;

static void
fl_store_rows_setup (GtkSignalListItemFactory *factory, GtkListItem *item, FlColumnFuncs *funcs)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_single_line_mode (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), funcs->numeric ? 1.0 : 0.0);
  if (funcs->numeric)
    gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (item, label);
}

static void
fl_store_rows_bind (GtkSignalListItemFactory *factory, GtkListItem *item, FlColumnFuncs *funcs)
{
  GtkWidget *label = gtk_list_item_get_child (item);
  gpointer row = gtk_list_item_get_item (item);
  g_autofree char *text = funcs->text (row);
  g_autofree char *tooltip = funcs->tooltip != NULL ? funcs->tooltip (row) : NULL;

  gtk_label_set_label (GTK_LABEL (label), text);
  /* Without an own tooltip, an ellipsized text is still readable in full. */
  gtk_widget_set_tooltip_text (label, tooltip != NULL ? tooltip : text);
}

static GtkColumnViewColumn *
fl_store_rows_column (const char *title, FlStoreRowText text, FlStoreRowText tooltip,
                      gboolean expand, gboolean numeric)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  FlColumnFuncs *funcs = g_new0 (FlColumnFuncs, 1);
  GtkColumnViewColumn *column;

  funcs->text = text;
  funcs->tooltip = tooltip;
  funcs->numeric = numeric;
  g_signal_connect (factory, "setup", G_CALLBACK (fl_store_rows_setup), funcs);
  g_signal_connect (factory, "bind", G_CALLBACK (fl_store_rows_bind), funcs);
  g_object_set_data_full (G_OBJECT (factory), "fl-column-funcs", funcs, g_free);

  column = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_expand (column, expand);
  gtk_column_view_column_set_resizable (column, TRUE);
  return column;
}

/* "2026-12-03 14:05" in local time. */
static char *
fl_store_rows_format_date (gint64 unix_seconds)
{
  g_autoptr(GDateTime) time = g_date_time_new_from_unix_local (unix_seconds);

  if (time == NULL)
    return g_strdup ("—");
  return g_date_time_format (time, "%Y-%m-%d %H:%M");
}

/* A run's verdict in words ("clean" → "Clean"). */
static const char *
fl_store_rows_verdict (const char *verdict)
{
  if (g_strcmp0 (verdict, "clean") == 0)
    /* Translators: a recorded run's verdict: the oracle found nothing. */
    return _("Clean");
  if (g_strcmp0 (verdict, "findings") == 0)
    /* Translators: a recorded run's verdict: the oracle reported findings. */
    return _("Findings");
  if (g_strcmp0 (verdict, "stopped") == 0)
    /* Translators: a recorded run's verdict: the run was cut short before its end. */
    return _("Stopped early");
  return verdict != NULL ? verdict : "";
}

/* ---- the columns of the two lists ---- */

static char *
fl_scenario_name_text (gpointer item)
{
  return g_strdup (fl_scenario_item_get (item)->name);
}

static char *
fl_scenario_title_text (gpointer item)
{
  return g_strdup (fl_scenario_item_get (item)->title);
}

static char *
fl_scenario_tags_text (gpointer item)
{
  return g_strjoinv (", ", fl_scenario_item_get (item)->tags);
}

static char *
fl_scenario_date_text (gpointer item)
{
  return fl_store_rows_format_date (fl_scenario_item_get (item)->created);
}

static char *
fl_run_id_text (gpointer item)
{
  return g_strdup_printf ("%" G_GINT64_FORMAT, fl_run_item_get (item)->id);
}

static char *
fl_run_date_text (gpointer item)
{
  return fl_store_rows_format_date (fl_run_item_get (item)->created);
}

static char *
fl_run_switches_text (gpointer item)
{
  return g_strdup (fl_run_item_get_switches (item));
}

static char *
fl_run_config_text (gpointer item)
{
  const FlStoredRun *run = fl_run_item_get (item);
  g_autofree char *seed = g_strdup_printf ("%" G_GUINT64_FORMAT, run->seed);

  /* Translators: tooltip of a run's switches: its whole configuration, then its seed. */
  return g_strdup_printf (_("%s\nseed %s"), run->config, seed);
}

static char *
fl_run_steps_text (gpointer item)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT, fl_run_item_get (item)->steps);
}

static char *
fl_run_findings_text (gpointer item)
{
  return g_strdup_printf ("%u", fl_run_item_get (item)->findings);
}

static char *
fl_run_verdict_text (gpointer item)
{
  return g_strdup (fl_store_rows_verdict (fl_run_item_get (item)->verdict));
}

typedef struct {
  const char     *title;
  FlStoreRowText  text, tooltip;
  gboolean        expand, numeric;
} FlColumnSpec;

static void
fl_store_rows_add_columns (GtkColumnView *view, const FlColumnSpec *specs, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      GtkColumnViewColumn *column =
        fl_store_rows_column (specs[i].title, specs[i].text, specs[i].tooltip, specs[i].expand,
                              specs[i].numeric);

      gtk_column_view_append_column (view, column);
      g_object_unref (column);
    }
}

void
fl_store_rows_add_scenario_columns (GtkColumnView *view)
{
  const FlColumnSpec specs[] = {
    { _("Name"), fl_scenario_name_text, NULL, FALSE, FALSE },
    { _("Title"), fl_scenario_title_text, NULL, TRUE, FALSE },
    { _("Tags"), fl_scenario_tags_text, NULL, FALSE, FALSE },
    { _("Added"), fl_scenario_date_text, NULL, FALSE, TRUE },
  };

  g_return_if_fail (GTK_IS_COLUMN_VIEW (view));
  fl_store_rows_add_columns (view, specs, G_N_ELEMENTS (specs));
}

void
fl_store_rows_add_run_columns (GtkColumnView *view)
{
  const FlColumnSpec specs[] = {
    /* Translators: column of the run list: the run's number in the store. */
    { _("Run"), fl_run_id_text, NULL, FALSE, TRUE },
    { _("Recorded"), fl_run_date_text, NULL, FALSE, TRUE },
    { _("Switches"), fl_run_switches_text, fl_run_config_text, TRUE, FALSE },
    { _("Steps"), fl_run_steps_text, NULL, FALSE, TRUE },
    { _("Findings"), fl_run_findings_text, NULL, FALSE, TRUE },
    { _("Verdict"), fl_run_verdict_text, NULL, FALSE, FALSE },
  };

  g_return_if_fail (GTK_IS_COLUMN_VIEW (view));
  fl_store_rows_add_columns (view, specs, G_N_ELEMENTS (specs));
}
