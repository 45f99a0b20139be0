/* The benchmark window: a header bar with Export and a progress bar, and two pages: the
 * chart, and where each design's CPU time goes (the profile, at the 2010 table's CPU count,
 * or the largest measured). The worker measures row after row with fl_bench_measure(), as
 * `faultline-cli bench` does, profiling the rows of that one count; the main thread polls how
 * many rows are done. */

#include "fl-bench-window.h"

#include <glib/gi18n.h>

#include "fl-file-chooser.h"
#include <string.h>

#include "fl-bench-run.h"
#include "fl-paint-chart.h"
#include "fl-paint-profile.h"
#include "fl-profile.h"
#include "fl-style.h"

#define FL_BENCH_WORKLOAD "multi-fault"
#define FL_BENCH_ROUNDS   1

struct _FlBenchWindow
{
  GtkWindow parent_instance;

  GtkWidget      *area;
  GtkWidget      *profile_area;
  GtkStack       *pages;
  GtkProgressBar *progress;
  GtkWidget      *export_button;
  GtkLabel       *message;

  GArray       *cpus;        /* guint */
  GCancellable *cancellable;
  gint          done;        /* atomic: rows measured by the worker */
  guint         total;
  guint         poll_id;
  GArray       *rows;        /* FlBenchRow, after the worker finished */
  GArray       *points;      /* FlBenchPoint, borrowing the rows' names */
  GPtrArray    *profiles;    /* FlProfile, one per design at the profiled CPU count */
  GArray       *shown;       /* FlBenchProfile, borrowing the rows and profiles */
  char         *profile_text; /* what the profile shows, in words, for assistive technologies */
};

G_DEFINE_FINAL_TYPE (FlBenchWindow, fl_bench_window, GTK_TYPE_WINDOW)

/* ---- the worker ---- */

typedef struct {
  GArray *cpus;
  gint   *done;
} FlBenchJob;

/* What the worker hands back: every row, and the profiles of the profiled count's rows. */
typedef struct {
  GArray    *rows;       /* FlBenchRow */
  GPtrArray *profiles;   /* FlProfile */
  guint      profiled;   /* that CPU count */
} FlBenchResult;

static void
fl_bench_job_free (gpointer data)
{
  FlBenchJob *job = data;

  g_array_unref (job->cpus);
  g_free (job);
}

static void
fl_bench_result_free (gpointer data)
{
  FlBenchResult *result = data;

  g_clear_pointer (&result->rows, g_array_unref);
  g_clear_pointer (&result->profiles, g_ptr_array_unref);
  g_free (result);
}

/* The CPU count whose rows are profiled: the 2010 table's when measured, else the largest. */
static guint
fl_bench_profiled_cpus (GArray *cpus)
{
  guint largest = 0;

  for (guint c = 0; c < cpus->len; c++)
    {
      guint n = g_array_index (cpus, guint, c);
      if (n == FL_BENCH_TABLE_CPUS)
        return n;
      largest = MAX (largest, n);
    }
  return largest;
}

static void
fl_bench_window_measure (GTask *task, gpointer source, gpointer task_data,
                         GCancellable *cancellable)
{
  FlBenchJob *job = task_data;
  guint n_configs = 0;
  const FlBenchConfig *configs = fl_bench_configs (&n_configs);
  FlBenchResult *result = g_new0 (FlBenchResult, 1);
  GArray *rows = result->rows = g_array_new (FALSE, TRUE, sizeof (FlBenchRow));

  result->profiles = g_ptr_array_new_with_free_func ((GDestroyNotify) fl_profile_free);
  result->profiled = fl_bench_profiled_cpus (job->cpus);
  for (guint c = 0; c < job->cpus->len; c++)
    {
      double base = 0;
      guint cpus = g_array_index (job->cpus, guint, c);
      /* the profiled count once: a list that names it twice is measured twice */
      gboolean profile = cpus == result->profiled && result->profiles->len == 0;

      for (guint i = 0; i < n_configs; i++)
        {
          FlBenchRow row = { .config = &configs[i], .cpus = cpus };
          FlProfile *measured = NULL;
          GError *error = NULL;

          if (g_cancellable_set_error_if_cancelled (cancellable, &error)
              || !(profile ? fl_bench_measure_profile (FL_BENCH_WORKLOAD, FL_BENCH_ROUNDS, NULL,
                                                       NULL, &row, &measured, &error)
                           : fl_bench_measure (FL_BENCH_WORKLOAD, FL_BENCH_ROUNDS, NULL, NULL,
                                               &row, &error)))
            {
              fl_bench_result_free (result);
              g_task_return_error (task, error);
              return;
            }
          if (measured != NULL)
            g_ptr_array_add (result->profiles, measured);
          if (strcmp (row.config->name, "baseline") == 0)
            base = row.per_sec;
          g_array_append_val (rows, row);
          g_atomic_int_inc (job->done);
        }
      for (guint i = rows->len - n_configs; i < rows->len; i++)
        {
          FlBenchRow *r = &g_array_index (rows, FlBenchRow, i);
          r->ratio = base > 0 ? r->per_sec / base : 0;
        }
    }
  g_task_return_pointer (task, result, fl_bench_result_free);
}

static void
fl_bench_window_update_progress (FlBenchWindow *self)
{
  guint done = (guint) g_atomic_int_get (&self->done);
  /* Translators: the benchmark's progress, "3 of 16 runs". */
  g_autofree char *text = g_strdup_printf (_("%u of %u runs"), done, self->total);

  gtk_progress_bar_set_fraction (self->progress, self->total ? (double) done / self->total : 0);
  gtk_progress_bar_set_text (self->progress, text);
}

static gboolean
fl_bench_window_poll (gpointer user_data)
{
  fl_bench_window_update_progress (user_data);
  return G_SOURCE_CONTINUE;
}

static void
fl_bench_window_describe (FlBenchWindow *self)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < self->points->len; i++)
    {
      const FlBenchPoint *p = &g_array_index (self->points, FlBenchPoint, i);

      if (text->len > 0)
        g_string_append (text, " ");
      /* Translators: one measured point of the benchmark chart: configuration, CPU count,
       * faults per simulated second (a number), ratio to baseline. */
      g_string_append_printf (text, _("%s on %u CPUs: %.0f faults per second, %.2f × baseline."),
                              p->config, p->cpus, p->faults_per_sec, p->ratio);
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->area),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text->str, -1);
  g_string_truncate (text, 0);
  for (guint i = 0; i < self->shown->len; i++)
    {
      const FlBenchProfile *d = &g_array_index (self->shown, FlBenchProfile, i);
      const GArray *lines = d->profile->by_line, *fns = d->profile->by_function;
      guint line = 0;

      /* the dearest shared line: "(no shared line)" is the time no line was fought over */
      while (line < lines->len && g_array_index (lines, FlProfileEntry, line).name[0] == '(')
        line++;
      if (line == lines->len || fns->len == 0 || d->profile->total == 0)
        continue;
      if (text->len > 0)
        g_string_append (text, " ");
      /* Translators: one design of the profile, for screen readers: the design, the function
       * and the cache line that took the largest shares of CPU time, with their shares */
      g_string_append_printf (text, _("%s: most time in %s (%.0f%%); dearest shared line %s "
                                      "(%.0f%%)."),
                              d->config, g_array_index (fns, FlProfileEntry, 0).name,
                              100.0 * g_array_index (fns, FlProfileEntry, 0).cycles / d->profile->total,
                              g_array_index (lines, FlProfileEntry, line).name,
                              100.0 * g_array_index (lines, FlProfileEntry, line).cycles / d->profile->total);
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->profile_area),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text->str, -1);
  g_free (self->profile_text);
  self->profile_text = g_string_free (text, FALSE);
}

static void
fl_bench_window_measured (GObject *source, GAsyncResult *result, gpointer user_data)
{
  FlBenchWindow *self = FL_BENCH_WINDOW (source);
  g_autoptr(GError) error = NULL;
  FlBenchResult *measured = g_task_propagate_pointer (G_TASK (result), &error);
  GArray *rows = measured ? g_steal_pointer (&measured->rows) : NULL;

  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->poll_id, g_source_remove);
  if (rows == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          gtk_label_set_label (self->message, error->message);
          gtk_widget_set_visible (GTK_WIDGET (self->message), TRUE);
        }
      gtk_widget_set_visible (GTK_WIDGET (self->progress), FALSE);
      return;
    }
  self->rows = rows;
  for (guint i = 0; i < rows->len; i++)
    {
      const FlBenchRow *r = &g_array_index (rows, FlBenchRow, i);
      FlBenchPoint point = {
        .workload = FL_BENCH_WORKLOAD, .config = r->config->name, .cpus = r->cpus,
        .faults_per_sec = r->per_sec, .ratio = r->ratio,
        .published = r->cpus == FL_BENCH_TABLE_CPUS ? r->config->published : 0,
      };
      g_array_append_val (self->points, point);
    }
  self->profiles = g_steal_pointer (&measured->profiles);
  for (guint i = 0, k = 0; i < rows->len && k < self->profiles->len; i++)
    {
      const FlBenchRow *r = &g_array_index (rows, FlBenchRow, i);
      if (r->cpus != measured->profiled)
        continue;
      FlBenchProfile shown = { .config = r->config->name, .cpus = r->cpus, .faults = r->faults,
                               .profile = g_ptr_array_index (self->profiles, k++) };
      g_array_append_val (self->shown, shown);
    }
  fl_bench_result_free (measured);
  fl_bench_window_update_progress (self);
  gtk_widget_set_visible (GTK_WIDGET (self->progress), FALSE);
  gtk_widget_set_sensitive (self->export_button, TRUE);
  fl_bench_window_describe (self);
  gtk_widget_queue_draw (self->area);
  gtk_widget_queue_draw (self->profile_area);
}

static void
fl_bench_window_start (FlBenchWindow *self)
{
  FlBenchJob *job = g_new0 (FlBenchJob, 1);
  g_autoptr(GTask) task = NULL;
  guint n_configs = 0;

  fl_bench_configs (&n_configs);
  self->total = self->cpus->len * n_configs;
  job->cpus = g_array_ref (self->cpus);
  job->done = &self->done;
  self->cancellable = g_cancellable_new ();
  fl_bench_window_update_progress (self);
  self->poll_id = g_timeout_add (100, fl_bench_window_poll, self);

  task = g_task_new (self, self->cancellable, fl_bench_window_measured, NULL);
  g_task_set_source_tag (task, fl_bench_window_start);
  g_task_set_task_data (task, job, fl_bench_job_free);
  g_task_run_in_thread (task, fl_bench_window_measure);
}

/* ---- drawing and export ---- */

/* Both pages: the chart's area draws the chart, the profile's the profile. */
static void
fl_bench_window_draw (GtkDrawingArea *area, cairo_t *cr, int width, int height,
                      gpointer user_data)
{
  FlBenchWindow *self = user_data;
  FlViewport viewport = { .width = width, .height = height, .font_scale = 1.0 };
  FlPalette palette;

  if (self->points->len == 0)
    return;
  fl_style_get_palette (&palette);
  if (GTK_WIDGET (area) == self->profile_area)
    fl_paint_bench_profile (cr, FL_BENCH_WORKLOAD, (const FlBenchProfile *) self->shown->data,
                            self->shown->len, &viewport, &palette);
  else
    fl_paint_bench_chart (cr, (const FlBenchPoint *) self->points->data, self->points->len,
                          &viewport, &palette);
}

/* Whether the profile is the page in view (Export writes the page in view). */
static gboolean
fl_bench_window_showing_profile (FlBenchWindow *self)
{
  return gtk_stack_get_visible_child (self->pages) == self->profile_area;
}

gboolean
fl_bench_window_export (FlBenchWindow *self, const char *format, const char *path, GError **error)
{
  FlViewport viewport = { .width = 1280, .height = 720, .font_scale = 1.0 };
  FlPalette palette;

  g_return_val_if_fail (FL_IS_BENCH_WINDOW (self), FALSE);

  if (self->points->len == 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PENDING,
                           _("The benchmark has not been measured yet."));
      return FALSE;
    }
  fl_style_get_palette (&palette);
  if (fl_bench_window_showing_profile (self))
    return fl_export_bench_profile (FL_BENCH_WORKLOAD, (const FlBenchProfile *) self->shown->data,
                                    self->shown->len, &viewport, &palette, format, path, error);
  return fl_export_bench_chart ((const FlBenchPoint *) self->points->data, self->points->len,
                                &viewport, &palette, format, path, error);
}

/* The chooser's answer: the picture, in the format its name asks for (PNG when none). */
static void
fl_bench_window_export_chosen (gpointer target, const char *chosen)
{
  FlBenchWindow *self = target;
  g_autofree char *path = NULL;
  const char *format = fl_picture_format_of (chosen, &path);
  g_autoptr(GError) error = NULL;

  if (!fl_bench_window_export (self, format, path, &error))
    {
      gtk_label_set_label (self->message, error->message);
      gtk_widget_set_visible (GTK_WIDGET (self->message), TRUE);
    }
}

static void
fl_bench_window_export_clicked (FlBenchWindow *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->message), FALSE);
  gboolean profile = fl_bench_window_showing_profile (self);

  fl_file_chooser_show (GTK_WINDOW (self), profile ? _("Export the Profile") : _("Export the Chart"),
                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("PNG, SVG or PDF"),
                        fl_picture_suffixes, profile ? "bench-profile.png" : "bench.png", NULL,
                        fl_bench_window_export_chosen, self);
}

/* ---- GObject ---- */

gboolean
fl_bench_window_is_running (FlBenchWindow *self)
{
  g_return_val_if_fail (FL_IS_BENCH_WINDOW (self), FALSE);
  return self->cancellable != NULL;
}

guint
fl_bench_window_get_n_points (FlBenchWindow *self)
{
  g_return_val_if_fail (FL_IS_BENCH_WINDOW (self), 0);
  return self->points->len;
}

GtkWidget *
fl_bench_window_get_area (FlBenchWindow *self)
{
  g_return_val_if_fail (FL_IS_BENCH_WINDOW (self), NULL);
  return self->area;
}

GtkWidget *
fl_bench_window_get_profile_area (FlBenchWindow *self)
{
  g_return_val_if_fail (FL_IS_BENCH_WINDOW (self), NULL);
  return self->profile_area;
}

const char *
fl_bench_window_get_profile_description (FlBenchWindow *self)
{
  g_return_val_if_fail (FL_IS_BENCH_WINDOW (self), NULL);
  return self->profile_text ? self->profile_text : "";
}

guint
fl_bench_window_get_n_profiles (FlBenchWindow *self)
{
  g_return_val_if_fail (FL_IS_BENCH_WINDOW (self), 0);
  return self->shown->len;
}

void
fl_bench_window_show_profile (FlBenchWindow *self, gboolean profile)
{
  g_return_if_fail (FL_IS_BENCH_WINDOW (self));
  gtk_stack_set_visible_child (self->pages, profile ? self->profile_area : self->area);
}

static void
fl_bench_window_dispose (GObject *object)
{
  FlBenchWindow *self = FL_BENCH_WINDOW (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->poll_id, g_source_remove);

  G_OBJECT_CLASS (fl_bench_window_parent_class)->dispose (object);
}

static void
fl_bench_window_finalize (GObject *object)
{
  FlBenchWindow *self = FL_BENCH_WINDOW (object);

  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->cpus, g_array_unref);
  g_clear_pointer (&self->points, g_array_unref);
  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->shown, g_array_unref);
  g_clear_pointer (&self->profiles, g_ptr_array_unref);
  g_clear_pointer (&self->profile_text, g_free);

  G_OBJECT_CLASS (fl_bench_window_parent_class)->finalize (object);
}

static void
fl_bench_window_class_init (FlBenchWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = fl_bench_window_dispose;
  object_class->finalize = fl_bench_window_finalize;
}

static void
fl_bench_window_init (FlBenchWindow *self)
{
  GtkWidget *header = gtk_header_bar_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  self->points = g_array_new (FALSE, TRUE, sizeof (FlBenchPoint));
  self->shown = g_array_new (FALSE, TRUE, sizeof (FlBenchProfile));
  self->cpus = g_array_new (FALSE, FALSE, sizeof (guint));

  gtk_window_set_title (GTK_WINDOW (self), _("Benchmark Chart"));
  gtk_window_set_default_size (GTK_WINDOW (self), 1100, 700);
  self->export_button = gtk_button_new_with_mnemonic (_("_Export…"));
  gtk_widget_set_tooltip_text (self->export_button,
                               _("Export the page in view as PNG, SVG or PDF"));
  gtk_widget_set_sensitive (self->export_button, FALSE);
  g_signal_connect_swapped (self->export_button, "clicked",
                            G_CALLBACK (fl_bench_window_export_clicked), self);
  gtk_header_bar_pack_end (GTK_HEADER_BAR (header), self->export_button);
  gtk_window_set_titlebar (GTK_WINDOW (self), header);

  self->progress = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  gtk_progress_bar_set_show_text (self->progress, TRUE);
  gtk_widget_set_margin_start (GTK_WIDGET (self->progress), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (self->progress), 12);
  gtk_widget_set_margin_top (GTK_WIDGET (self->progress), 6);
  self->message = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->message, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->message), "error");
  gtk_widget_set_visible (GTK_WIDGET (self->message), FALSE);
  self->area = g_object_new (GTK_TYPE_DRAWING_AREA,
                             "accessible-role", GTK_ACCESSIBLE_ROLE_IMG,
                             "hexpand", TRUE, "vexpand", TRUE, NULL);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->area), fl_bench_window_draw, self, NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->area),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Faults per simulated second by CPU count and design"),
                                  -1);
  self->profile_area = g_object_new (GTK_TYPE_DRAWING_AREA,
                                     "accessible-role", GTK_ACCESSIBLE_ROLE_IMG,
                                     "hexpand", TRUE, "vexpand", TRUE, NULL);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->profile_area),
                                  fl_bench_window_draw, self, NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->profile_area),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Where each design's CPU time goes, by function and by cache line"),
                                  -1);
  self->pages = GTK_STACK (gtk_stack_new ());
  gtk_stack_add_titled (self->pages, self->area, "chart", _("Chart"));
  gtk_stack_add_titled (self->pages, self->profile_area, "profile", _("Where the Time Goes"));
  GtkWidget *switcher = gtk_stack_switcher_new ();
  gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (switcher), self->pages);
  gtk_header_bar_set_title_widget (GTK_HEADER_BAR (header), switcher);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->progress));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->message));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->pages));
  gtk_window_set_child (GTK_WINDOW (self), box);
}

GtkWidget *
fl_bench_window_new_full (GtkWindow *parent, const guint *cpus, guint n_cpus)
{
  FlBenchWindow *self;

  g_return_val_if_fail (cpus != NULL && n_cpus > 0, NULL);

  self = g_object_new (FL_TYPE_BENCH_WINDOW, NULL);
  if (parent != NULL)
    {
      gtk_window_set_transient_for (GTK_WINDOW (self), parent);
      gtk_window_set_destroy_with_parent (GTK_WINDOW (self), TRUE);
    }
  g_array_append_vals (self->cpus, cpus, n_cpus);
  fl_bench_window_start (self);
  return GTK_WIDGET (self);
}

GtkWidget *
fl_bench_window_new (GtkWindow *parent)
{
  static const guint cpus[] = { 1, 2, 4, 8 };

  return fl_bench_window_new_full (parent, cpus, G_N_ELEMENTS (cpus));
}
