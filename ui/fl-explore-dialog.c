/* The explore dialog (win.explore, Ctrl+Shift+X): the race explorer of core/explore/fl-explore.c on
 * the window's scenario and switches, in a worker thread, with a progress bar and Cancel;
 * then the verdict and each kind of finding with its shortest schedule, which Open loads into
 * the window at the step that found it, and Keep in Store records (as `explore --record`).
 * The window never waits for the search. */

#include "fl-explore-dialog.h"
#include "fl-explore.h"
#include "fl-paint.h"
#include "fl-store-explore.h"

#include <glib/gi18n.h>

typedef struct {
  gatomicrefcount refs;   /* the dialog and the worker */
  FlWindow       *window; /* weak: NULL once the window is gone */
  GtkWindow      *dialog; /* NULL once closed */
  GtkProgressBar *bar;
  GtkLabel       *status;
  GtkListBox     *results;
  GtkButton      *button; /* Cancel, then Close */
  GtkButton      *keep;   /* Keep in Store, once there is a result */
  guint           pulse;
  gint            cancel;
  FlScenario     *scenario;
  FlConfig        config;
  FlExploreOptions options; /* the search, as the store describes it */
  FlExploreResult *result;
  GMutex          lock;   /* guards the counts the worker reports */
  double          seconds;
  guint64         schedules, states;
  char           *name;
} Explore;

static void
explore_unref (Explore *x)
{
  if (!g_atomic_ref_count_dec (&x->refs))
    return;
  g_clear_weak_pointer (&x->window);
  fl_scenario_free (x->scenario);
  fl_explore_result_free (x->result);
  g_mutex_clear (&x->lock);
  g_free (x->name);
  g_free (x);
}

/* From the worker thread: only numbers, under the lock; the pulse shows them. */
static void
explore_progress (const FlExploreResult *so_far, gpointer data)
{
  Explore *x = data;
  g_mutex_lock (&x->lock);
  x->seconds = so_far->seconds;
  x->schedules = so_far->schedules;
  x->states = so_far->states;
  g_mutex_unlock (&x->lock);
}

static gboolean
explore_pulse (gpointer data)
{
  Explore *x = data;
  g_mutex_lock (&x->lock);
  g_autofree char *schedules = fl_count_text (x->schedules), *states = fl_count_text (x->states);
  g_autofree char *text = g_strdup_printf (_("%.1f s: %s schedules, %s states"), x->seconds,
                                           schedules, states);
  g_mutex_unlock (&x->lock);
  gtk_progress_bar_pulse (x->bar);
  gtk_progress_bar_set_text (x->bar, text);
  return G_SOURCE_CONTINUE;
}

static void
explore_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Explore *x = data;
  /* the bounds shared out to the machine's cores (the same result as one); the window's own
   * thread keeps drawing */
  FlExploreOptions options = x->options;
  options.progress = explore_progress;
  options.progress_data = x;
  options.cancel = &x->cancel;
  g_autoptr (GError) error = NULL;
  FlExploreResult *r = fl_explore_run (x->scenario, &x->config, &options, &error);
  if (r == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, r, (GDestroyNotify) fl_explore_result_free);
}

/* Open: the counterexample as a scenario of its own, at the step that found it. */
typedef struct {
  FlSession *session;
  gulong     handler;
  guint64    step;
} OpenAt;

static void
open_at_loaded (FlSession *session, GParamSpec *pspec, gpointer data)
{
  OpenAt *open = data;
  if (fl_session_is_loading (session))
    return;
  g_signal_handler_disconnect (session, open->handler);
  if (fl_session_get_run (session) != NULL)
    fl_session_seek (session, MIN (open->step, fl_session_get_total_steps (session)));
  g_free (open);
}

static void
explore_open (GtkButton *button, gpointer data)
{
  Explore *x = data;
  const FlExploreFinding *f = g_object_get_data (G_OBJECT (button), "finding");
  if (x->window == NULL || f == NULL)
    return;
  g_autofree char *text = fl_explore_counterexample_text (x->scenario, &x->result->config, f);
  g_autofree char *name = g_strdup_printf ("%s-%s", x->name, fl_finding_kind_name (f->kind));
  FlSession *session = fl_window_get_session (x->window);
  OpenAt *open = g_new0 (OpenAt, 1);
  open->session = session;
  open->step = f->step;
  open->handler = g_signal_connect (session, "notify::loading", G_CALLBACK (open_at_loaded), open);
  fl_session_load_text (session, name, text);
  gtk_window_present (GTK_WINDOW (x->window));
}

static GtkWidget *
finding_row (Explore *x, const FlExploreFinding *f)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  g_autofree char *step = fl_count_text (f->step);
  g_autofree char *title = g_strdup_printf (_("%s at step %s, %u preemptions"),
                                            fl_finding_kind_name (f->kind), step,
                                            f->preemptions);
  GtkWidget *head = gtk_label_new (title);
  GtkWidget *message = gtk_label_new (f->message);
  gtk_widget_add_css_class (head, "heading");
  gtk_label_set_xalign (GTK_LABEL (head), 0);
  gtk_label_set_xalign (GTK_LABEL (message), 0);
  gtk_label_set_wrap (GTK_LABEL (message), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (message), 60);
  gtk_box_append (GTK_BOX (text), head);
  gtk_box_append (GTK_BOX (text), message);
  gtk_widget_set_hexpand (text, TRUE);
  GtkWidget *open = gtk_button_new_with_mnemonic (_("_Open"));
  gtk_widget_set_valign (open, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (open, _("Load this schedule into the window at the finding"));
  g_object_set_data (G_OBJECT (open), "finding", (gpointer) f);
  g_signal_connect (open, "clicked", G_CALLBACK (explore_open), x);
  gtk_box_append (GTK_BOX (row), text);
  gtk_box_append (GTK_BOX (row), open);
  gtk_widget_set_margin_top (row, 6);
  gtk_widget_set_margin_bottom (row, 6);
  return row;
}

/* Why a search found nothing and is not complete, in words (the CLI's stopped-by names are
 * for scripts). */
static char *
why_bounded (const FlExploreResult *r)
{
  g_autofree char *states = fl_count_text (r->states);
  g_autofree char *cut = fl_count_text (r->cut_by_budget + r->cut_unbounded);
  switch (r->stop)
    {
    case FL_EXPLORE_STOP_STATES:
      return g_strdup_printf (_("beyond them the search filled its table of %s states"), states);
    case FL_EXPLORE_STOP_MEMORY:
      return g_strdup (_("the search filled its table of outcomes"));
    case FL_EXPLORE_STOP_TIME:
      return g_strdup (_("the search reached its time limit"));
    case FL_EXPLORE_STOP_SCHEDULES:
      return g_strdup (_("the search reached its limit of schedules"));
    default:
      /* it did not stop (a cancelled one is said before): some schedules were cut */
      return g_strdup_printf (_("%s schedules were cut short by a limit of the machine"), cut);
    }
}

static char *
verdict_text (const FlExploreResult *r)
{
  g_autofree char *schedules = fl_count_text (r->schedules), *states = fl_count_text (r->states);
  g_autofree char *outcomes = fl_count_text (r->outcomes);
  if (r->stop == FL_EXPLORE_STOP_CANCELLED)
    return g_strdup_printf (_("Cancelled after %s schedules."), schedules);
  if (r->verdict == FL_EXPLORE_FOUND)
    return g_strdup_printf (ngettext ("Found %u kind of finding, each with its shortest "
                                      "schedule:", "Found %u kinds of finding, each with its "
                                      "shortest schedule:", r->findings->len),
                            r->findings->len);
  if (r->verdict == FL_EXPLORE_COMPLETE)
    return g_strdup_printf (_("No finding in any interleaving: %s states, %s schedules, %s "
                              "distinct outcomes, %.1f s."), states, schedules, outcomes,
                            r->seconds);
  g_autofree char *why = why_bounded (r);
  return g_strdup_printf (_("No finding in %s schedules, among them every one with up to %u "
                            "preemptions; %s."), schedules, r->bound, why);
}

/* Keep in Store: the exploration and a run of each counterexample, in the window's store (the
 * one its bookmarks use), on this thread: a few replays of short schedules. */
static void
explore_keep (GtkButton *button, gpointer data)
{
  Explore *x = data;
  g_autoptr (GError) error = NULL;
  g_autofree char *path = fl_store_default_path ();
  g_autoptr (FlStore) store = fl_store_open (path, FL_STORE_OPEN_CREATE, &error);
  gint64 id = store ? fl_store_record_exploration (store, x->scenario, &x->options, x->result,
                                                   NULL, &error) : -1;
  if (id < 0)
    {
      /* Translators: %s is why the store could not record the exploration. */
      g_autofree char *message = g_strdup_printf (_("Could not keep the exploration: %s"),
                                                  error->message);
      gtk_label_set_text (x->status, message);
      return;
    }
  /* an id, as `faultline-cli db` takes it: its digits not grouped; translated strings take
   * numbers as %s (xgettext cannot read G_GINT64_FORMAT) */
  g_autofree char *number = g_strdup_printf ("%" G_GINT64_FORMAT, id);
  g_autofree char *kept = g_strdup_printf (_("Kept as exploration %s"), number);
  gtk_button_set_label (button, kept);
  gtk_widget_set_sensitive (GTK_WIDGET (button), FALSE);
  gtk_widget_set_tooltip_text (GTK_WIDGET (button), path);
}

static void
explore_done (GObject *source, GAsyncResult *result, gpointer data)
{
  Explore *x = data;
  g_autoptr (GError) error = NULL;
  x->result = g_task_propagate_pointer (G_TASK (result), &error);
  if (x->dialog != NULL)
    {
      g_clear_handle_id (&x->pulse, g_source_remove);
      gtk_progress_bar_set_fraction (x->bar, 1);
      gtk_progress_bar_set_text (x->bar, NULL);
      gtk_button_set_label (x->button, _("_Close"));
      if (x->result == NULL)
        gtk_label_set_text (x->status, error->message);
      else
        {
          g_autofree char *verdict = verdict_text (x->result);
          gtk_label_set_text (x->status, verdict);
          for (guint i = 0; i < x->result->findings->len; i++)
            gtk_list_box_append (x->results,
                                 finding_row (x, g_ptr_array_index (x->result->findings, i)));
          gtk_widget_set_visible (GTK_WIDGET (x->results), x->result->findings->len > 0);
          /* a cancelled search has no verdict worth keeping */
          gtk_widget_set_visible (GTK_WIDGET (x->keep),
                                  x->result->stop != FL_EXPLORE_STOP_CANCELLED);
        }
    }
  explore_unref (x);
}

static void
explore_button (GtkButton *button, gpointer data)
{
  Explore *x = data;
  if (x->result == NULL)
    g_atomic_int_set (&x->cancel, 1);   /* the worker stops at its next schedule */
  else
    gtk_window_destroy (x->dialog);
}

static void
explore_destroyed (GtkWidget *widget, gpointer data)
{
  Explore *x = data;
  g_atomic_int_set (&x->cancel, 1);
  g_clear_handle_id (&x->pulse, g_source_remove);
  x->dialog = NULL;
  explore_unref (x);
}

void
fl_explore_dialog_present (FlWindow *window)
{
  FlSession *session = fl_window_get_session (window);
  const FlRun *run = fl_session_get_run (session);
  if (run == NULL)
    return;
  Explore *x = g_new0 (Explore, 1);
  g_atomic_ref_count_init (&x->refs);
  g_mutex_init (&x->lock);
  g_set_weak_pointer (&x->window, window);
  /* the worker explores its own copy: the window may load another scenario meanwhile */
  g_autofree char *text = fl_scenario_to_text (fl_run_get_scenario (run));
  x->scenario = fl_scenario_parse (text, fl_session_get_name (session), NULL);
  x->config = *fl_run_get_config (run);
  /* the bounds shared out to the machine's cores (the same result as one); the window's own
   * thread keeps drawing */
  x->options = (FlExploreOptions) { .preemptions = 2, .reduction = FL_EXPLORE_REDUCTION_STATES,
                                    .jobs = CLAMP (g_get_num_processors (), 1, 8) };
  x->name = g_strdup (fl_session_get_name (session));
  if (x->scenario == NULL)
    {
      explore_unref (x);
      return;
    }

  GtkWidget *dialog = gtk_window_new ();
  x->dialog = GTK_WINDOW (dialog);
  g_autofree char *title = g_strdup_printf (_("Explore %s"), x->name);
  gtk_window_set_title (x->dialog, title);
  gtk_window_set_transient_for (x->dialog, GTK_WINDOW (window));
  gtk_window_set_default_size (x->dialog, 560, -1);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_widget_set_margin_start (box, 18);
  gtk_widget_set_margin_end (box, 18);
  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 18);
  GtkWidget *intro = gtk_label_new (_("Every interleaving of the scenario's CPUs with the "
                                      "window's switches, its schedule ignored: first those "
                                      "with the fewest preemptions, then every reachable "
                                      "state."));
  gtk_label_set_wrap (GTK_LABEL (intro), TRUE);
  gtk_label_set_xalign (GTK_LABEL (intro), 0);
  x->bar = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  gtk_progress_bar_set_show_text (x->bar, TRUE);
  gtk_progress_bar_set_text (x->bar, _("Starting…"));
  x->status = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (x->status, TRUE);
  gtk_label_set_xalign (x->status, 0);
  x->results = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (x->results, GTK_SELECTION_NONE);
  gtk_widget_add_css_class (GTK_WIDGET (x->results), "boxed-list");
  gtk_widget_set_visible (GTK_WIDGET (x->results), FALSE);
  x->button = GTK_BUTTON (gtk_button_new_with_mnemonic (_("_Cancel")));
  g_signal_connect (x->button, "clicked", G_CALLBACK (explore_button), x);
  x->keep = GTK_BUTTON (gtk_button_new_with_mnemonic (_("_Keep in Store")));
  gtk_widget_set_tooltip_text (GTK_WIDGET (x->keep),
                               _("Record the exploration and a run of each counterexample in "
                                 "the store, as faultline-cli explore --record does"));
  gtk_widget_set_visible (GTK_WIDGET (x->keep), FALSE);
  g_signal_connect (x->keep, "clicked", G_CALLBACK (explore_keep), x);
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_halign (buttons, GTK_ALIGN_END);
  gtk_box_append (GTK_BOX (buttons), GTK_WIDGET (x->keep));
  gtk_box_append (GTK_BOX (buttons), GTK_WIDGET (x->button));
  gtk_box_append (GTK_BOX (box), intro);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (x->bar));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (x->status));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (x->results));
  gtk_box_append (GTK_BOX (box), buttons);
  gtk_window_set_child (x->dialog, box);
  g_signal_connect (dialog, "destroy", G_CALLBACK (explore_destroyed), x);
  x->pulse = g_timeout_add (250, explore_pulse, x);

  g_atomic_ref_count_inc (&x->refs);   /* the worker's */
  g_autoptr (GTask) task = g_task_new (NULL, NULL, explore_done, x);
  g_task_set_task_data (task, x, NULL);
  g_task_run_in_thread (task, explore_thread);
  gtk_window_present (x->dialog);
}
