/* The compare page: a header naming B's switch with a spinner while B is simulated, the
 * compare picture, and a scrubber that moves the session's step (and with it both runs). */

#include "fl-compare-page.h"

#include <glib/gi18n.h>
#include <inttypes.h>

#include "fl-file-chooser.h"
#include <string.h>

#include "fl-scrubber.h"
#include "fl-style.h"
#include "fl-text-scale.h"

struct _FlComparePage
{
  GtkWidget parent_instance;

  FlSession    *session;
  GtkWidget    *box;
  GtkLabel     *title;
  GtkSpinner   *spinner;
  GtkLabel     *message;      /* why the last export failed */
  GtkWidget    *area;
  GtkWidget    *axis[3];      /* toggles for FlCompareAxis: one time axis, fitted, aligned */

  GCancellable *cancellable;   /* the worker simulating B */
  FlRun        *a;             /* the session's run B was made from */
  FlRun        *b;
  FlCompare    *cmp;
  char         *description;  /* what the area tells assistive technologies */
  GSettings    *settings;     /* the text scale the compare painters draw at */
};

G_DEFINE_FINAL_TYPE (FlComparePage, fl_compare_page, GTK_TYPE_WIDGET)

/* ---- the words ---- */

static char *
fl_compare_delta (guint64 a, guint64 b)
{
  gint64 delta = (gint64) b - (gint64) a;

  return g_strdup_printf ("%+" G_GINT64_FORMAT, delta);
}

static gboolean
fl_compare_has_kind (const FlRun *run, FlFindingKind kind)
{
  const GPtrArray *all = fl_run_get_findings (run);

  for (guint i = 0; all != NULL && i < all->len; i++)
    if (((const FlFinding *) g_ptr_array_index (all, i))->kind == kind)
      return TRUE;
  return FALSE;
}

/* The kinds of finding of `run` that the other run never reports, comma separated. */
static char *
fl_compare_only_in (const FlRun *run, const FlRun *other)
{
  const GPtrArray *all = fl_run_get_findings (run);
  GString *s = g_string_new (NULL);

  for (guint i = 0; all != NULL && i < all->len; i++)
    {
      const FlFinding *f = g_ptr_array_index (all, i);
      const char *name = fl_finding_kind_name (f->kind);

      if (fl_compare_has_kind (other, f->kind) || strstr (s->str, name) != NULL)
        continue;
      if (s->len > 0)
        g_string_append (s, ", ");
      g_string_append (s, name);
    }
  return g_string_free (s, FALSE);
}

static void
fl_compare_page_set_description (FlComparePage *self, const char *text)
{
  g_free (self->description);
  self->description = g_strdup (text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->area),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

static char *
fl_compare_count (guint64 value)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT, value);
}

/* The words the table says about speed: how long each whole run took, and the faults per
 * simulated second at this moment, each with which way is better. */
static void
fl_compare_page_describe_whole (FlCompare *cmp, GString *text)
{
  g_autoptr(GArray) rows = fl_compare_rows (cmp);
  guint64 whole[2] = { fl_compare_run_cycles (cmp, 0), fl_compare_run_cycles (cmp, 1) };
  g_autofree char *finish = fl_compare_finish_words (whole[0], whole[1], NULL);

  g_string_append_c (text, ' ');
  /* Translators: how many cycles each whole compared run took, then how they compare in
   * words, e.g. "B is done 2.7× sooner: faster." */
  g_string_append_printf (text, _("Whole runs: A %" PRIu64 " cycles, B %" PRIu64 " cycles: %s"), whole[0], whole[1], finish);
  for (guint i = 0; i < rows->len; i++)
    {
      const FlCompareRow *row = &g_array_index (rows, FlCompareRow, i);
      g_autofree char *words = NULL;

      if (!row->rate)
        continue;
      words = fl_compare_words (row->better, row->rate, row->value[0], row->value[1], NULL);
      g_string_append_c (text, ' ');
      /* Translators: faults per simulated second of run A and run B so far (higher is
       * better), then B against A in words, e.g. "B is 2.7× faster" */
      g_string_append_printf (text, _("Faults per second, higher is better: A %" PRIu64 ", B %" PRIu64
                                      ": %s."),
                              row->value[0], row->value[1], words);
    }
}

static void
fl_compare_page_describe (FlComparePage *self)
{
  FlCounters k[2];
  g_autofree char *sa = NULL, *sb = NULL, *step_a = NULL, *step_b = NULL;
  g_autofree char *only_a = NULL, *only_b = NULL;
  g_autofree char *fa = NULL, *fb = NULL, *df = NULL;
  g_autofree char *ta = NULL, *tb = NULL, *dt = NULL;
  g_autofree char *ca = NULL, *cb = NULL, *dc = NULL;
  GString *text;

  if (self->cmp == NULL)
    return;
  fl_cursor_get_counters (fl_compare_get_cursor (self->cmp, 0), &k[0]);
  fl_cursor_get_counters (fl_compare_get_cursor (self->cmp, 1), &k[1]);
  sa = fl_compare_switches (self->cmp, 0);
  sb = fl_compare_switches (self->cmp, 1);
  step_a = fl_compare_count (fl_cursor_get_step (fl_compare_get_cursor (self->cmp, 0)));
  step_b = fl_compare_count (fl_cursor_get_step (fl_compare_get_cursor (self->cmp, 1)));
  fa = fl_compare_count (k[0].total);
  fb = fl_compare_count (k[1].total);
  df = fl_compare_delta (k[0].total, k[1].total);
  ta = fl_compare_count (k[0].transfers);
  tb = fl_compare_count (k[1].transfers);
  dt = fl_compare_delta (k[0].transfers, k[1].transfers);
  ca = fl_compare_count (k[0].cycles);
  cb = fl_compare_count (k[1].cycles);
  dc = fl_compare_delta (k[0].cycles, k[1].cycles);
  only_a = fl_compare_only_in (self->a, self->b);
  only_b = fl_compare_only_in (self->b, self->a);

  text = g_string_new (NULL);
  /* Translators: the compare view in words: the switches of run A and its step, then the
   * switches of run B and its step. */
  g_string_append_printf (text, _("Run A (%s) at step %s, run B (%s) at step %s."),
                          sa, step_a, sb, step_b);
  g_string_append_c (text, ' ');
  /* Translators: faults of run A and run B, then B minus A. */
  g_string_append_printf (text, _("Faults: A %s, B %s, difference %s."), fa, fb, df);
  g_string_append_c (text, ' ');
  /* Translators: cache-line transfers of run A and run B, then B minus A. */
  g_string_append_printf (text, _("Cache-line transfers: A %s, B %s, difference %s."),
                          ta, tb, dt);
  g_string_append_c (text, ' ');
  /* Translators: simulated cycles of run A and run B, then B minus A. */
  g_string_append_printf (text, _("Cycles: A %s, B %s, difference %s."), ca, cb, dc);
  fl_compare_page_describe_whole (self->cmp, text);
  if (only_a[0] != '\0')
    {
      g_string_append_c (text, ' ');
      /* Translators: %s lists kinds of finding, e.g. "use-after-free". */
      g_string_append_printf (text, _("Found only in A: %s."), only_a);
    }
  if (only_b[0] != '\0')
    {
      g_string_append_c (text, ' ');
      /* Translators: %s lists kinds of finding, e.g. "use-after-free". */
      g_string_append_printf (text, _("Found only in B: %s."), only_b);
    }
  if (only_a[0] == '\0' && only_b[0] == '\0')
    {
      g_string_append_c (text, ' ');
      g_string_append (text, _("Both runs report the same kinds of finding."));
    }
  fl_compare_page_set_description (self, text->str);
  g_string_free (text, TRUE);
}

/* Whether the session still shows the run A is: runs are told apart by what they are
 * (fl_run_same), never by where they lie in memory. */
static gboolean
fl_compare_page_shows_session (FlComparePage *self)
{
  const FlRun *shown = fl_session_get_run (self->session);

  return self->a != NULL && shown != NULL && fl_run_same (shown, self->a);
}

/* ---- drawing ---- */

static void
fl_compare_page_viewport (FlComparePage *self, FlViewport *viewport)
{
  *viewport = (FlViewport) {
    .width = gtk_widget_get_width (self->area),
    .height = gtk_widget_get_height (self->area),
    /* the lecture's text scale, as the window's views (fl-text-scale.h) */
    .font_scale = g_settings_get_double (self->settings, FL_TEXT_SCALE_KEY),
    .selected_cpu = fl_session_get_selected_cpu (self->session),
  };
}

static void
fl_compare_page_draw (GtkDrawingArea *area, cairo_t *cr, int width, int height,
                      gpointer user_data)
{
  FlComparePage *self = user_data;
  FlViewport viewport;
  FlPalette palette;

  if (self->cmp == NULL || !fl_compare_page_shows_session (self))
    return;
  fl_compare_page_viewport (self, &viewport);
  viewport.width = width;
  viewport.height = height;
  fl_style_get_palette (&palette);
  fl_paint_compare (cr, self->cmp, &viewport, &palette);
}

static void
fl_compare_page_session_changed (FlComparePage *self)
{
  if (self->cmp == NULL)
    return;
  if (!fl_compare_page_shows_session (self))
    {
      /* A's run was replaced (a switch, a new scenario): this comparison is over. */
      fl_compare_page_stop (self);
      gtk_widget_activate_action (GTK_WIDGET (self), "win.leave-compare", NULL);
      return;
    }
  fl_compare_seek (self->cmp, fl_session_get_step (self->session));
  fl_compare_page_describe (self);
  gtk_widget_queue_draw (self->area);
}

/* The axis the toggles choose; B moves to the same moment on it. */
static void
fl_compare_page_apply_axis (FlComparePage *self)
{
  FlCompareAxis axis = FL_COMPARE_AXIS_CYCLES;

  for (guint i = 0; i < 3; i++)
    if (self->axis[i] != NULL && gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->axis[i])))
      axis = (FlCompareAxis) i;
  fl_compare_set_axis (self->cmp, axis);
  fl_compare_seek (self->cmp, fl_session_get_step (self->session));
  fl_compare_page_describe (self);
  gtk_widget_queue_draw (self->area);
}

/* ---- B's worker ---- */

/* Steps between two looks at the cancellable. */
#define B_BATCH 4096

/* Within the budget of its configuration, as run A was loaded; a compare left early stops
 * the worker at its next batch. */
static void
fl_compare_page_run_b (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  while (!g_cancellable_is_cancelled (cancellable)
         && fl_sim_run_in_budget (task_data, B_BATCH) == B_BATCH)
    ;
  g_task_return_pointer (task, fl_run_new_from_sim (task_data), (GDestroyNotify) fl_run_unref);
}

static void
fl_compare_page_b_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  FlComparePage *self = FL_COMPARE_PAGE (source);
  GTask *task = G_TASK (result);
  FlRun *b = g_task_propagate_pointer (task, NULL);

  if (g_task_get_cancellable (task) != self->cancellable)
    {
      /* stopped or superseded: nobody wants this run */
      g_clear_pointer (&b, fl_run_unref);
      return;
    }
  g_clear_object (&self->cancellable);
  gtk_spinner_stop (self->spinner);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), FALSE);
  if (!fl_compare_page_shows_session (self))
    {
      fl_run_unref (b);
      fl_compare_page_stop (self);
      gtk_widget_activate_action (GTK_WIDGET (self), "win.leave-compare", NULL);
      return;
    }
  self->b = b;
  self->cmp = fl_compare_new (self->a, self->b);
  fl_compare_page_apply_axis (self);
  fl_compare_page_describe (self);
  gtk_widget_queue_draw (self->area);
}

gboolean
fl_compare_page_start (FlComparePage *self, const char *key, const char *value, GError **error)
{
  const FlRun *a;
  FlConfig config;
  FlSim *b;
  g_autoptr(GTask) task = NULL;
  g_autofree char *title = NULL;

  g_return_val_if_fail (FL_IS_COMPARE_PAGE (self), FALSE);
  g_return_val_if_fail (key != NULL && value != NULL, FALSE);

  a = fl_session_get_run (self->session);
  if (a == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                           _("There is no run to compare yet."));
      return FALSE;
    }
  config = *fl_run_get_config (a);
  if (!fl_config_set (&config, key, value, error) || !fl_config_validate (&config, error))
    return FALSE;
  b = fl_sim_new (fl_run_get_scenario (a), &config, fl_run_get_seed (a), error);
  if (b == NULL)
    return FALSE;

  fl_compare_page_stop (self);
  self->a = fl_run_ref (a);
  self->cancellable = g_cancellable_new ();
  /* Translators: the compare page's header, e.g. "A: this run — B: vma-free=immediate". */
  title = g_strdup_printf (_("A: this run — B: %s=%s"), key, value);
  gtk_label_set_label (self->title, title);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), TRUE);
  gtk_spinner_start (self->spinner);
  fl_compare_page_set_description (self, _("Run B is being simulated."));
  gtk_widget_queue_draw (self->area);

  task = g_task_new (self, self->cancellable, fl_compare_page_b_done, NULL);
  g_task_set_source_tag (task, fl_compare_page_start);
  /* the worker hands B back as the task's result; until then it is the worker's alone */
  g_task_set_task_data (task, b, NULL);
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, fl_compare_page_run_b);
  return TRUE;
}

void
fl_compare_page_stop (FlComparePage *self)
{
  g_return_if_fail (FL_IS_COMPARE_PAGE (self));

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->cmp, fl_compare_free);
  g_clear_pointer (&self->b, fl_run_unref);
  g_clear_pointer (&self->a, fl_run_unref);
  gtk_spinner_stop (self->spinner);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), FALSE);
  gtk_widget_queue_draw (self->area);
}

gboolean
fl_compare_page_is_loading (FlComparePage *self)
{
  g_return_val_if_fail (FL_IS_COMPARE_PAGE (self), FALSE);
  return self->cancellable != NULL;
}

FlCompare *
fl_compare_page_get_compare (FlComparePage *self)
{
  g_return_val_if_fail (FL_IS_COMPARE_PAGE (self), NULL);
  return self->cmp;
}

GtkWidget *
fl_compare_page_get_area (FlComparePage *self)
{
  g_return_val_if_fail (FL_IS_COMPARE_PAGE (self), NULL);
  return self->area;
}

const char *
fl_compare_page_get_description (FlComparePage *self)
{
  g_return_val_if_fail (FL_IS_COMPARE_PAGE (self), NULL);
  return self->description;
}

/* ---- export ---- */

gboolean
fl_compare_page_export (FlComparePage *self, const char *format, const char *path, GError **error)
{
  FlViewport viewport;
  FlPalette palette;

  g_return_val_if_fail (FL_IS_COMPARE_PAGE (self), FALSE);

  if (self->cmp == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PENDING,
                           _("Run B is still being simulated."));
      return FALSE;
    }
  fl_compare_page_viewport (self, &viewport);
  if (viewport.width <= 0 || viewport.height <= 0)
    {
      viewport.width = 1280;
      viewport.height = 720;
    }
  fl_style_get_palette (&palette);
  return fl_export_compare (self->cmp, &viewport, &palette, format, path, error);
}

/* The chooser's answer: the picture, in the format its name asks for (PNG when none). */
static void
fl_compare_page_export_chosen (gpointer target, const char *chosen)
{
  FlComparePage *self = target;
  g_autofree char *path = NULL;
  const char *format = fl_picture_format_of (chosen, &path);
  g_autoptr(GError) error = NULL;

  if (!fl_compare_page_export (self, format, path, &error))
    {
      gtk_label_set_label (self->message, error->message);
      gtk_widget_set_visible (GTK_WIDGET (self->message), TRUE);
    }
}

void
fl_compare_page_export_dialog (FlComparePage *self, GtkWindow *parent)
{
  g_return_if_fail (FL_IS_COMPARE_PAGE (self));

  gtk_widget_set_visible (GTK_WIDGET (self->message), FALSE);
  fl_file_chooser_show (parent, _("Export the Comparison"), GTK_FILE_CHOOSER_ACTION_SAVE,
                        _("_Export"), _("PNG, SVG or PDF"), fl_picture_suffixes, "compare.png", NULL,
                        fl_compare_page_export_chosen, self);
}

/* ---- GObject ---- */

static void
fl_compare_page_dispose (GObject *object)
{
  FlComparePage *self = FL_COMPARE_PAGE (object);

  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  if (self->spinner != NULL)
    fl_compare_page_stop (self);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  self->spinner = NULL;
  g_clear_object (&self->session);
  g_clear_pointer (&self->description, g_free);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (fl_compare_page_parent_class)->dispose (object);
}

static void
fl_compare_page_class_init (FlComparePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fl_compare_page_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
fl_compare_page_axis_toggled (GtkToggleButton *button, FlComparePage *self)
{
  if (!gtk_toggle_button_get_active (button) || self->cmp == NULL)
    return;
  fl_compare_page_apply_axis (self);
}

/* What the lanes' time axis measures: one time for both runs by default, so that a faster
 * run ends sooner on screen; each run fitted to the width, or aligned by operation, when
 * the shapes of the runs matter more than their lengths. */
static GtkWidget *
fl_compare_page_axis_buttons (FlComparePage *self)
{
  static const struct { const char *label, *tooltip; } axes[3] = {
    /* Translators: the compare view's choice of time axis */
    { N_("One Time Axis"), N_("Both runs in cycles on one scale: a faster run ends sooner") },
    { N_("Each Fitted"), N_("Each run stretched to the whole width: shapes, not lengths") },
    { N_("By Operation"), N_("The runs stretched so that each scenario operation starts at the "
                             "same place in both") },
  };
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);

  gtk_widget_add_css_class (box, "linked");
  for (guint i = 0; i < 3; i++)
    {
      self->axis[i] = gtk_toggle_button_new_with_label (_(axes[i].label));
      gtk_widget_set_tooltip_text (self->axis[i], _(axes[i].tooltip));
      if (i > 0)
        gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (self->axis[i]),
                                     GTK_TOGGLE_BUTTON (self->axis[0]));
      g_signal_connect (self->axis[i], "toggled", G_CALLBACK (fl_compare_page_axis_toggled),
                        self);
      gtk_box_append (GTK_BOX (box), self->axis[i]);
    }
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->axis[0]), TRUE);
  return box;
}

static void
fl_compare_page_init (FlComparePage *self)
{
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *leave = gtk_button_new_with_mnemonic (_("_Leave Compare"));

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  gtk_widget_set_margin_start (header, 12);
  gtk_widget_set_margin_end (header, 12);
  gtk_widget_set_margin_top (header, 6);
  self->title = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_ellipsize (self->title, PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (GTK_WIDGET (self->title), TRUE);
  gtk_label_set_xalign (self->title, 0.0);
  gtk_widget_add_css_class (GTK_WIDGET (self->title), "heading");
  self->spinner = GTK_SPINNER (gtk_spinner_new ());
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), FALSE);
  self->message = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_ellipsize (self->message, PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (GTK_WIDGET (self->message), "error");
  gtk_widget_set_visible (GTK_WIDGET (self->message), FALSE);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (leave), "win.leave-compare");
  gtk_widget_set_tooltip_text (leave, _("Back to the views (Escape)"));
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->title));
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->message));
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->spinner));
  gtk_box_append (GTK_BOX (header), fl_compare_page_axis_buttons (self));
  gtk_box_append (GTK_BOX (header), leave);
  gtk_box_append (GTK_BOX (self->box), header);

  self->area = g_object_new (GTK_TYPE_DRAWING_AREA,
                             "accessible-role", GTK_ACCESSIBLE_ROLE_IMG,
                             "hexpand", TRUE, "vexpand", TRUE, NULL);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->area), fl_compare_page_draw, self, NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->area),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Comparison of two designs"),
                                  -1);
  gtk_box_append (GTK_BOX (self->box), self->area);

  self->settings = g_settings_new (FL_APP_ID);
  g_signal_connect_object (self->settings, "changed::" FL_TEXT_SCALE_KEY,
                           G_CALLBACK (gtk_widget_queue_draw), self->area, G_CONNECT_SWAPPED);
}

GtkWidget *
fl_compare_page_new (FlSession *session)
{
  FlComparePage *self;

  g_return_val_if_fail (FL_IS_SESSION (session), NULL);

  self = g_object_new (FL_TYPE_COMPARE_PAGE, NULL);
  self->session = g_object_ref (session);
  gtk_box_append (GTK_BOX (self->box), fl_scrubber_new (session));
  g_signal_connect_object (session, "changed",
                           G_CALLBACK (fl_compare_page_session_changed), self, G_CONNECT_SWAPPED);
  return GTK_WIDGET (self);
}
