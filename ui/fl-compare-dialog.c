/* The compare dialog: a drop-down of the switches with named values (fl_config_keys() minus
 * the cost table and the oracle, which are calibration rather than design) and one of the
 * values the chosen switch takes, preset to one the current run does not use. */

#include "fl-compare-dialog.h"

#include <glib/gi18n.h>
#include <string.h>

typedef struct {
  FlWindow    *window;
  GtkWindow   *dialog;
  GtkDropDown *keys;
  GtkDropDown *values;
  GtkLabel    *error;
  GStrv        key_list;
  GStrv        value_list;
} FlCompareDialog;

static void
fl_compare_dialog_free (gpointer data)
{
  FlCompareDialog *d = data;

  g_strfreev (d->key_list);
  g_strfreev (d->value_list);
  g_free (d);
}

static GStrv
fl_compare_dialog_keys (void)
{
  GStrvBuilder *builder = g_strv_builder_new ();
  const char *const *keys = fl_config_keys ();
  GStrv result;

  for (guint i = 0; keys[i] != NULL; i++)
    {
      const char *values = fl_config_valid_values (keys[i]);

      if (g_str_has_prefix (keys[i], "cost.") || strcmp (keys[i], "oracle") == 0
          || values == NULL || strchr (values, '|') == NULL)
        continue;
      g_strv_builder_add (builder, keys[i]);
    }
  result = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return result;
}

static void
fl_compare_dialog_key_changed (FlCompareDialog *d)
{
  guint selected = gtk_drop_down_get_selected (d->keys);
  const char *key;
  g_autofree char *current = NULL;
  g_autoptr(GtkStringList) model = NULL;

  if (selected == GTK_INVALID_LIST_POSITION || d->key_list[selected] == NULL)
    return;
  key = d->key_list[selected];
  g_strfreev (d->value_list);
  d->value_list = g_strsplit (fl_config_valid_values (key), "|", -1);
  model = gtk_string_list_new ((const char *const *) d->value_list);
  gtk_drop_down_set_model (d->values, G_LIST_MODEL (model));
  current = fl_session_get_switch (fl_window_get_session (d->window), key);
  for (guint i = 0; d->value_list[i] != NULL; i++)
    if (g_strcmp0 (d->value_list[i], current) != 0)
      {
        gtk_drop_down_set_selected (d->values, i);
        break;
      }
}

static void
fl_compare_dialog_ok (FlCompareDialog *d)
{
  guint k = gtk_drop_down_get_selected (d->keys);
  guint v = gtk_drop_down_get_selected (d->values);
  g_autoptr(GError) error = NULL;

  if (k == GTK_INVALID_LIST_POSITION || v == GTK_INVALID_LIST_POSITION)
    return;
  if (!fl_window_start_compare (d->window, d->key_list[k], d->value_list[v], &error))
    {
      gtk_label_set_label (d->error, error->message);
      gtk_widget_set_visible (GTK_WIDGET (d->error), TRUE);
      return;
    }
  gtk_window_destroy (d->dialog);
}

void
fl_compare_dialog_present (FlWindow *window)
{
  FlCompareDialog *d = g_new0 (FlCompareDialog, 1);
  GtkWidget *grid = gtk_grid_new ();
  GtkWidget *header = gtk_header_bar_new ();
  GtkWidget *cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  GtkWidget *ok = gtk_button_new_with_mnemonic (_("_Compare"));
  GtkWidget *key_label = gtk_label_new_with_mnemonic (_("_Switch"));
  GtkWidget *value_label = gtk_label_new_with_mnemonic (_("_Value in run B"));
  GtkWidget *intro = gtk_label_new (_("Run A is the run on screen. Run B is the same scenario "
                                      "with one design switch changed."));

  d->window = window;
  d->key_list = fl_compare_dialog_keys ();
  d->dialog = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_title (d->dialog, _("Compare Two Designs"));
  gtk_window_set_transient_for (d->dialog, GTK_WINDOW (window));
  gtk_window_set_modal (d->dialog, TRUE);
  gtk_window_set_destroy_with_parent (d->dialog, TRUE);
  gtk_window_set_resizable (d->dialog, FALSE);
  g_object_set_data_full (G_OBJECT (d->dialog), "fl-compare-dialog", d, fl_compare_dialog_free);

  gtk_header_bar_set_show_title_buttons (GTK_HEADER_BAR (header), FALSE);
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), cancel);
  gtk_header_bar_pack_end (GTK_HEADER_BAR (header), ok);
  gtk_widget_add_css_class (ok, "suggested-action");
  gtk_window_set_titlebar (d->dialog, header);
  gtk_window_set_default_widget (d->dialog, ok);

  d->keys = GTK_DROP_DOWN (gtk_drop_down_new_from_strings ((const char *const *) d->key_list));
  d->values = GTK_DROP_DOWN (gtk_drop_down_new (NULL, NULL));
  d->error = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (d->error, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (d->error), "error");
  gtk_widget_set_visible (GTK_WIDGET (d->error), FALSE);
  gtk_label_set_wrap (GTK_LABEL (intro), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (intro), 40);
  gtk_label_set_xalign (GTK_LABEL (intro), 0.0);
  gtk_label_set_mnemonic_widget (GTK_LABEL (key_label), GTK_WIDGET (d->keys));
  gtk_label_set_mnemonic_widget (GTK_LABEL (value_label), GTK_WIDGET (d->values));
  gtk_widget_set_halign (key_label, GTK_ALIGN_END);
  gtk_widget_set_halign (value_label, GTK_ALIGN_END);

  gtk_grid_set_row_spacing (GTK_GRID (grid), 12);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_widget_set_margin_start (grid, 18);
  gtk_widget_set_margin_end (grid, 18);
  gtk_widget_set_margin_top (grid, 18);
  gtk_widget_set_margin_bottom (grid, 18);
  gtk_grid_attach (GTK_GRID (grid), intro, 0, 0, 2, 1);
  gtk_grid_attach (GTK_GRID (grid), key_label, 0, 1, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (d->keys), 1, 1, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), value_label, 0, 2, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (d->values), 1, 2, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (d->error), 0, 3, 2, 1);
  gtk_window_set_child (d->dialog, grid);

  g_signal_connect_swapped (d->keys, "notify::selected",
                            G_CALLBACK (fl_compare_dialog_key_changed), d);
  g_signal_connect_swapped (cancel, "clicked", G_CALLBACK (gtk_window_destroy), d->dialog);
  g_signal_connect_swapped (ok, "clicked", G_CALLBACK (fl_compare_dialog_ok), d);
  fl_compare_dialog_key_changed (d);
  gtk_window_present (d->dialog);
}
