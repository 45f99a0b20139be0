/* The main window. Its body is a GtkStack so each mode of the window (the welcome page, which
 * also tells why a load failed, and the views) is one page, and switching modes never
 * rebuilds the header bar. Every view listens to the one FlSession of the window; the window
 * itself keeps the header current; its actions (fl-window-actions.c) turn into session calls. */

#include "fl-window.h"
#include "fl-window-private.h"

#include <glib/gi18n.h>
#include <math.h>

#include "fl-bookmarks-button.h"
#include "fl-compare-page.h"
#include "fl-findings-list.h"
#include "fl-presentation.h"
#include "fl-lanes-area.h"
#include "fl-panels.h"
#include "fl-scenario-about.h"
#include "fl-scenario-button.h"
#include "fl-scrubber.h"
#include "fl-session.h"
#include "fl-shortcuts.h"
#include "fl-switches-button.h"
#include "fl-text-scale.h"
#include "fl-view-area.h"

/* The lanes take at most this share of the height between header and scrubber at first. */
#define LANES_SHARE 0.36
/* How long a one-line message stays. */
#define MESSAGE_SECONDS 8


G_DEFINE_FINAL_TYPE (FlWindow, fl_window, GTK_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_SCENARIO,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ---- header and pages ---- */

static void
fl_window_update_scenario_labels (FlWindow *self)
{
  const char *name = fl_session_get_name (self->session);
  const char *title = fl_session_get_title (self->session);
  g_autofree char *text = NULL;

  if (name == NULL || name[0] == '\0')
    {
      gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->scenario_label), FALSE);
      return;
    }

  /* Translators: %s is the short name of a scenario, e.g. "spf-vs-munmap". */
  text = g_strdup_printf (_("Scenario: %s"), name);
  gtk_label_set_label (self->scenario_label, text);
  gtk_widget_set_visible (GTK_WIDGET (self->scenario_label), TRUE);

  /* The scenario button names the scenario; the subtitle says what it is about. */
  gtk_label_set_label (self->subtitle_label, title[0] != '\0' ? title : name);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->subtitle_label),
                               self->scenario != NULL ? self->scenario : name);
  gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), TRUE);
}

static void
fl_window_update_step (FlWindow *self)
{
  guint64 total = fl_session_get_total_steps (self->session);
  g_autofree char *step = fl_count_text (fl_session_get_step (self->session));
  g_autofree char *of = fl_count_text (total);
  g_autofree char *text = NULL;
  g_autofree char *widest = NULL;
  const char *stopped;

  if (fl_session_get_run (self->session) == NULL)
    {
      gtk_label_set_label (self->step_label, "");
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->step_label), NULL);
      return;
    }
  /* Translators: the header's position, "step 1 234 / 5 678". */
  text = g_strdup_printf (_("step %s / %s"), step, of);
  /* a run that ended early says so where its length is shown, and why on hover */
  stopped = fl_run_get_stop_message (fl_session_get_run (self->session));
  if (stopped != NULL)
    {
      g_autofree char *plain = g_steal_pointer (&text);
      /* Translators: the header's position of a run cut short (budget, limit, Stop). */
      text = g_strdup_printf (_("%s (stopped)"), plain);
    }
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->step_label), stopped);
  /* room for the run's largest step, so the header does not shift while playing: as wide as
   * that text is (width-chars would count each narrow space as wide as a digit, which at
   * 2.9 million steps made the header too wide for a 1024-pixel screen) */
  widest = g_strdup_printf (_("step %s / %s"), of, of);
  if (g_strcmp0 (widest, self->step_widest) != 0)
    {
      int natural = 0;

      g_free (self->step_widest);
      self->step_widest = g_steal_pointer (&widest);
      gtk_label_set_label (self->step_label, self->step_widest);
      gtk_widget_set_size_request (GTK_WIDGET (self->step_label), -1, -1);
      gtk_widget_measure (GTK_WIDGET (self->step_label), GTK_ORIENTATION_HORIZONTAL, -1, NULL,
                          &natural, NULL, NULL);
      gtk_widget_set_size_request (GTK_WIDGET (self->step_label), natural, -1);
    }
  gtk_label_set_label (self->step_label, text);
}

static void
fl_window_update_actions (FlWindow *self)
{
  const FlRun *run = fl_session_get_run (self->session);
  guint64 step = fl_session_get_step (self->session);
  guint64 total = fl_session_get_total_steps (self->session);
  GActionMap *map = G_ACTION_MAP (self);
  guint n_bookmarks = self->bookmarks != NULL
    ? g_list_model_get_n_items (fl_bookmarks_get_model (self->bookmarks)) : 0;
  struct { const char *name; gboolean enabled; } states[] = {
    { "play", run != NULL && total > 0 },
    { "step-forward", run != NULL && step < total },
    { "step-back", run != NULL && step > 0 },
    { "step-cpu", run != NULL && step < total },
    { "start", run != NULL && step > 0 },
    { "end", run != NULL && step < total },
    { "next-finding", run != NULL && fl_run_get_findings (run)->len > 0 },
    { "previous-finding", run != NULL && fl_run_get_findings (run)->len > 0 },
    { "select-cpu", run != NULL },
    { "export", run != NULL },
    { "add-bookmark", run != NULL },
    { "present", run != NULL },
    { "next-bookmark", run != NULL && n_bookmarks > 0 },
    { "previous-bookmark", run != NULL && n_bookmarks > 0 },
    { "compare", run != NULL },
    /* a file that does not load is what most needs its editor */
    { "edit-scenario", run != NULL || self->failed_file != NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (states); i++)
    {
      GAction *action = g_action_map_lookup_action (map, states[i].name);
      if (action != NULL)
        g_simple_action_set_enabled (G_SIMPLE_ACTION (action), states[i].enabled);
    }
}

static void
fl_window_update_playing (FlWindow *self)
{
  gboolean playing = fl_session_is_playing (self->session);

  gtk_button_set_icon_name (self->play_button, playing ? "media-playback-pause-symbolic"
                                                       : "media-playback-start-symbolic");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->play_button),
                               playing ? _("Pause (Space)") : _("Play (Space)"));
}

static void
fl_window_session_changed (FlWindow *self)
{
  fl_window_update_step (self);
  fl_window_update_actions (self);
}

/* The lanes get the height their CPUs need, up to a share of the window, each new run. The
 * views page may not be laid out yet when the run arrives (it was hidden behind the welcome
 * page): wait for the frame that gives the paned a height, before that frame's layout. */
static gboolean
fl_window_place_paned (GtkWidget *paned, GdkFrameClock *clock, gpointer user_data)
{
  FlWindow *self = user_data;
  int height = gtk_widget_get_height (paned);
  int natural = 0;

  if (height <= 0)
    return G_SOURCE_CONTINUE;
  gtk_widget_measure (GTK_WIDGET (self->lanes), GTK_ORIENTATION_VERTICAL,
                      gtk_widget_get_width (paned), NULL, &natural, NULL, NULL);
  gtk_paned_set_position (self->paned, MIN (natural, (int) (height * LANES_SHARE)));
  self->place_paned_id = 0;
  return G_SOURCE_REMOVE;
}

/* Again, once the views' type changed size: larger lanes keep their legend. */
void
fl_window_fit_lanes (FlWindow *self)
{
  g_return_if_fail (FL_IS_WINDOW (self));

  if (self->place_paned_id == 0 && self->paned != NULL)
    self->place_paned_id = gtk_widget_add_tick_callback (GTK_WIDGET (self->paned),
                                                         fl_window_place_paned, self, NULL);
}

static void
fl_window_text_scale_changed (FlWindow *self)
{
  fl_presentation_set_text_scale (self->presentation,
                                  g_settings_get_double (self->settings, FL_TEXT_SCALE_KEY));
}

static void
fl_window_loading_changed (FlWindow *self)
{
  gboolean loading = fl_session_is_loading (self->session);
  const FlRun *run = fl_session_get_run (self->session);

  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), loading);
  gtk_widget_set_visible (self->stop_loading_button, loading);
  fl_window_update_actions (self);
  fl_window_update_scenario_labels (self);
  if (loading || run == NULL)
    return;
  if (fl_run_get_stop_message (run) != NULL)
    fl_window_show_message (self, fl_run_get_stop_message (run));

  gtk_widget_set_visible (GTK_WIDGET (self->error_title_label), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
  gtk_widget_set_visible (self->error_edit_button, FALSE);
  g_clear_pointer (&self->failed_file, g_free);
  gtk_stack_set_visible_child_name (self->stack, "views");
  fl_window_fit_lanes (self);
  fl_window_session_changed (self);

  /* A scenario that loaded is the one to open next time (text from elsewhere is not). */
  if (fl_session_get_scenario (self->session) != NULL)
    g_settings_set_string (self->settings, "last-scenario",
                           fl_session_get_scenario (self->session));
}

static void
fl_window_load_failed (FlWindow *self, const GError *error)
{
  const char *name = fl_session_get_name (self->session);
  /* Translators: %s is the scenario's name or path. */
  g_autofree char *title = g_strdup_printf (_("Could not open “%s”"), name ? name : "");

  gtk_label_set_label (self->error_title_label, title);
  /* The core's message says what and where (file:line: what is wrong). */
  gtk_label_set_label (self->error_label, error->message);
  gtk_widget_set_visible (GTK_WIDGET (self->error_title_label), TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
  /* A file the user wrote is fixed in the editor, at the line the error names; a built-in
   * scenario that does not load is this build's bug, not the user's to edit. */
  const char *scenario = fl_session_get_scenario (self->session);
  g_clear_pointer (&self->failed_file, g_free);
  if (scenario != NULL && g_path_is_absolute (scenario)
      && g_file_test (scenario, G_FILE_TEST_IS_REGULAR))
    self->failed_file = g_strdup (scenario);
  gtk_widget_set_visible (self->error_edit_button, self->failed_file != NULL);
  gtk_stack_set_visible_child_name (self->stack, "welcome");
  fl_window_update_step (self);
  fl_window_update_actions (self);
}

static void
fl_window_scenario_changed (FlWindow *self)
{
  const char *scenario = fl_session_get_scenario (self->session);

  fl_window_update_scenario_labels (self);
  if (g_strcmp0 (self->scenario, scenario) == 0)
    return;
  g_free (self->scenario);
  self->scenario = g_strdup (scenario);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SCENARIO]);
}

static void
fl_window_focus_changed (FlWindow *self)
{
  for (GtkWidget *w = gtk_root_get_focus (GTK_ROOT (self)); w != NULL; w = gtk_widget_get_parent (w))
    if (FL_IS_VIEW_AREA (w))
      {
        self->last_view = w;
        return;
      }
}

/* ---- speed ---- */

static gboolean
fl_speed_to_scale (GBinding *binding, const GValue *from, GValue *to, gpointer user_data)
{
  g_value_set_double (to, log10 (g_value_get_double (from)));
  return TRUE;
}

static gboolean
fl_speed_from_scale (GBinding *binding, const GValue *from, GValue *to, gpointer user_data)
{
  g_value_set_double (to, CLAMP (pow (10, g_value_get_double (from)), 0.25, 1000.0));
  return TRUE;
}

static char *
fl_window_format_speed (GtkScale *scale, double value, gpointer user_data)
{
  double speed = pow (10, value);
  g_autofree char *number = NULL;

  if (speed < 0.375)
    number = g_strdup ("¼");
  else if (speed < 0.75)
    number = g_strdup ("½");
  else
    number = g_strdup_printf ("%.0f", speed);
  /* Translators: playback speed next to its slider, in steps per second, e.g. "10/s". */
  return g_strdup_printf (_("%s/s"), number);
}

/* The slider's value, in its tooltip (the header bar has no room beside it at 1024 px). */
static void
fl_window_update_speed_tooltip (FlWindow *self)
{
  g_autofree char *speed = fl_window_format_speed (self->speed_scale,
                                                   gtk_adjustment_get_value (self->speed_adjustment),
                                                   NULL);
  /* Translators: the speed slider's tooltip; %s is the speed, e.g. "10/s" (steps a second) */
  g_autofree char *tip = g_strdup_printf (_("Playback speed: %s"), speed);

  gtk_widget_set_tooltip_text (GTK_WIDGET (self->speed_scale), tip);
}

/* ---- what the window reacts to ---- */

static void
fl_window_bookmarks_failed (FlWindow *self, const GError *error)
{
  fl_window_show_message (self, error->message);
}

static gboolean
fl_window_compare_escape (GtkWidget *widget, GVariant *args, gpointer user_data)
{
  FlWindow *self = FL_WINDOW (widget);

  if (fl_session_is_loading (self->session))
    {
      fl_session_stop_loading (self->session);
      return TRUE;
    }
  if (!fl_window_is_comparing (self))
    return FALSE;
  fl_window_leave_compare (self);
  return TRUE;
}

/* The views presentation mode gives larger type: every painter view of the window. */
static void
fl_window_collect_views (GtkWidget *widget, GPtrArray *views)
{
  if (FL_IS_VIEW_AREA (widget))
    g_ptr_array_add (views, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    fl_window_collect_views (child, views);
}

/* ---- GObject ---- */

static void
fl_window_dispose (GObject *object)
{
  FlWindow *self = FL_WINDOW (object);

  if (self->session != NULL)
    {
      /* a load may still finish after the window is gone: it must not reach the header */
      g_signal_handlers_disconnect_by_data (self->session, self);
      fl_session_set_playing (self->session, FALSE);
    }
  g_clear_handle_id (&self->message_id, g_source_remove);
  g_clear_handle_id (&self->header_id, g_source_remove);
  if (self->compare_page != NULL)
    fl_compare_page_stop (FL_COMPARE_PAGE (self->compare_page));
  self->compare_page = NULL;
  if (self->bookmarks != NULL)
    g_signal_handlers_disconnect_by_data (self->bookmarks, self);
  if (self->place_paned_id != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->paned), self->place_paned_id);
  self->place_paned_id = 0;
  gtk_widget_dispose_template (GTK_WIDGET (self), FL_TYPE_WINDOW);
  g_clear_object (&self->settings);
  g_clear_object (&self->presentation);
  g_clear_object (&self->bookmarks);
  self->last_view = NULL;

  G_OBJECT_CLASS (fl_window_parent_class)->dispose (object);
}

static void
fl_window_finalize (GObject *object)
{
  FlWindow *self = FL_WINDOW (object);

  g_clear_pointer (&self->scenario, g_free);
  g_clear_pointer (&self->failed_file, g_free);
  g_clear_pointer (&self->step_widest, g_free);

  G_OBJECT_CLASS (fl_window_parent_class)->finalize (object);
}

static void
fl_window_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
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
fl_window_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
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

/* The header bar's text follows the lecture's text scale only in a window wide enough for
 * it at the largest step (fl-text-scale.c): its buttons do not shrink, so at 1024 pixels a
 * larger text would widen the window past the screen. */
#define FL_WINDOW_HEADER_SCALES_WIDTH 1400

static gboolean
fl_window_size_header (gpointer data)
{
  FlWindow *self = FL_WINDOW (data);
  GtkWidget *header = gtk_window_get_titlebar (GTK_WINDOW (self));

  self->header_id = 0;
  if (header != NULL)
    {
      if (gtk_widget_get_width (GTK_WIDGET (self)) >= FL_WINDOW_HEADER_SCALES_WIDTH)
        gtk_widget_add_css_class (header, "fl-header-scaled");
      else if (gtk_widget_has_css_class (header, "fl-header-scaled"))
        {
          gtk_widget_remove_css_class (header, "fl-header-scaled");
          /* a window made narrower than the larger header allowed was held at the header's
           * width: with it back to normal, the window takes the size it was asked for */
          gtk_widget_queue_resize (GTK_WIDGET (self));
        }
    }
  return G_SOURCE_REMOVE;
}

static void
fl_window_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  FlWindow *self = FL_WINDOW (widget);
  GtkWidget *header = gtk_window_get_titlebar (GTK_WINDOW (self));

  GTK_WIDGET_CLASS (fl_window_parent_class)->size_allocate (widget, width, height, baseline);
  /* a style change inside an allocation would resize what is being allocated: after it,
   * but before the next frame's layout, so that a window being made narrower is not held
   * at the larger header's width for a frame */
  if (header != NULL && self->header_id == 0
      && gtk_widget_has_css_class (header, "fl-header-scaled")
         != (width >= FL_WINDOW_HEADER_SCALES_WIDTH))
    self->header_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, fl_window_size_header, self, NULL);
}

static void
fl_window_class_init (FlWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  widget_class->size_allocate = fl_window_size_allocate;

  object_class->dispose = fl_window_dispose;
  object_class->finalize = fl_window_finalize;
  object_class->get_property = fl_window_get_property;
  object_class->set_property = fl_window_set_property;

  properties[PROP_SCENARIO] =
    g_param_spec_string ("scenario", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (FL_TYPE_SESSION);
  g_type_ensure (FL_TYPE_VIEW_AREA);
  g_type_ensure (FL_TYPE_LANES_AREA);
  g_type_ensure (FL_TYPE_FINDINGS_LIST);
  g_type_ensure (FL_TYPE_SCRUBBER);
  g_type_ensure (FL_TYPE_PANELS);

  gtk_widget_class_set_template_from_resource (widget_class, FL_RESOURCE_BASE "/ui/fl-window.ui");
  gtk_widget_class_bind_template_child (widget_class, FlWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, FlWindow, panels);
  gtk_widget_class_bind_template_child (widget_class, FlWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, FlWindow, scenario_label);
  gtk_widget_class_bind_template_child (widget_class, FlWindow, error_title_label);
  gtk_widget_class_bind_template_child (widget_class, FlWindow, error_label);
  gtk_widget_class_bind_template_child (widget_class, FlWindow, error_edit_button);
  gtk_widget_class_bind_template_child (widget_class, FlWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, FlWindow, stop_loading_button);
  gtk_widget_class_bind_template_child (widget_class, FlWindow, scenario_box);
  gtk_widget_class_bind_template_child (widget_class, FlWindow, views_box);
  gtk_widget_class_bind_template_child (widget_class, FlWindow, play_button);
  gtk_widget_class_bind_template_child (widget_class, FlWindow, step_label);
  gtk_widget_class_bind_template_child (widget_class, FlWindow, speed_scale);
  gtk_widget_class_bind_template_child (widget_class, FlWindow, speed_adjustment);
  gtk_widget_class_bind_template_child (widget_class, FlWindow, paned);
  gtk_widget_class_bind_template_child (widget_class, FlWindow, lanes);
  gtk_widget_class_bind_template_child (widget_class, FlWindow, session);
  gtk_widget_class_bind_template_child (widget_class, FlWindow, message_label);
  gtk_widget_class_bind_template_child (widget_class, FlWindow, scrubber);
}

/* The panel tab (fl-panels.h: 0 VMA tree, 1 page tables, 2 cache lines, 3 RCU) that marks
 * what a finding names: its page table, PTE, lock or page first, else its VMA, and the RCU
 * view for a callback that ran too early. */
static guint
fl_window_tab_of_finding (const FlFinding *f)
{
  if (f->kind == FL_FINDING_RCU_EARLY_FREE)
    return 3;
  if (f->objects.table != 0 || f->objects.ptl)
    return 1;
  if (f->objects.vma != 0)
    return 0;
  return f->objects.page != 0 ? 1 : 0;
}

/* In tabs (a small window), a finding shown brings on screen the panel that marks it. */
static void
fl_window_finding_shown (FlWindow *self, guint index)
{
  const FlRun *run = fl_session_get_run (self->session);
  if (run == NULL || !fl_panels_is_compact (self->panels))
    return;
  const GPtrArray *findings = fl_run_get_findings (run);
  if (index >= findings->len)
    return;
  guint tab = fl_window_tab_of_finding (g_ptr_array_index (findings, index));
  if (!fl_panels_is_shown (self->panels, tab))
    fl_panels_set_tab (self->panels, tab);
}

static void
fl_window_init (FlWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = g_settings_new (FL_APP_ID);
  fl_window_add_actions (self);
  fl_shortcuts_install (GTK_WINDOW (self));

  gtk_box_append (self->scenario_box, fl_scenario_button_new (self->session));
  gtk_box_append (self->scenario_box, fl_switches_button_new (self->session));
  self->about = fl_scenario_about_new (self->session);
  gtk_box_prepend (self->views_box, self->about);

  /* Created before any load completes, so it sees the first run arrive. */
  self->bookmarks = fl_bookmarks_new (self->session);
  g_signal_connect_object (self->bookmarks, "failed",
                           G_CALLBACK (fl_window_bookmarks_failed), self, G_CONNECT_SWAPPED);
  self->bookmarks_button = fl_bookmarks_button_new (self->bookmarks, self->session);
  gtk_header_bar_pack_end (GTK_HEADER_BAR (gtk_window_get_titlebar (GTK_WINDOW (self))),
                           self->bookmarks_button);
  fl_scrubber_set_bookmarks (self->scrubber, fl_bookmarks_get_model (self->bookmarks));
  g_signal_connect_object (fl_bookmarks_get_model (self->bookmarks), "items-changed",
                           G_CALLBACK (fl_window_update_actions), self, G_CONNECT_SWAPPED);
  {
    g_autoptr(GPtrArray) views = g_ptr_array_new ();

    fl_window_collect_views (GTK_WIDGET (self->stack), views);
    self->presentation = fl_presentation_new (GTK_WINDOW (self), self->session,
                                              self->bookmarks, self->views_box,
                                              GTK_WIDGET (self->paned), views);
  }
  /* the text scale a lecturer chose last time, and each one chosen from now on */
  fl_text_scale_add_actions (G_ACTION_MAP (self), self->settings);
  g_signal_connect_object (self->settings, "changed::" FL_TEXT_SCALE_KEY,
                           G_CALLBACK (fl_window_text_scale_changed), self, G_CONNECT_SWAPPED);
  fl_window_text_scale_changed (self);

  /* Compare mode: a page of its own, added after the views were collected for presenting. */
  self->compare_page = fl_compare_page_new (self->session);
  gtk_stack_add_named (self->stack, self->compare_page, "compare");
  {
    GtkEventController *keys = gtk_shortcut_controller_new ();

    gtk_event_controller_set_name (keys, "fl-compare-shortcuts");
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (keys),
      gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Escape, 0),
                        gtk_callback_action_new (fl_window_compare_escape, NULL, NULL)));
    gtk_widget_add_controller (GTK_WIDGET (self), keys);
  }

  /* Speed: GSettings ⇄ session ⇄ slider (logarithmic, 0.25 to 1000 steps a second). */
  g_settings_bind (self->settings, "playback-speed", self->session, "speed",
                   G_SETTINGS_BIND_DEFAULT);
  g_object_bind_property_full (self->session, "speed", self->speed_adjustment, "value",
                               G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE,
                               fl_speed_to_scale, fl_speed_from_scale, NULL, NULL);
  gtk_scale_set_format_value_func (self->speed_scale, fl_window_format_speed, NULL, NULL);
  g_signal_connect_object (self->speed_adjustment, "value-changed",
                           G_CALLBACK (fl_window_update_speed_tooltip), self, G_CONNECT_SWAPPED);
  fl_window_update_speed_tooltip (self);

  g_object_bind_property (self->session, "progress", self->progress_bar, "fraction",
                          G_BINDING_SYNC_CREATE);
  g_signal_connect_object (self->session, "changed",
                           G_CALLBACK (fl_window_session_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::loading",
                           G_CALLBACK (fl_window_loading_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::playing",
                           G_CALLBACK (fl_window_update_playing), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::scenario",
                           G_CALLBACK (fl_window_scenario_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::title",
                           G_CALLBACK (fl_window_update_scenario_labels), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "load-failed",
                           G_CALLBACK (fl_window_load_failed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "finding-shown",
                           G_CALLBACK (fl_window_finding_shown), self, G_CONNECT_SWAPPED);
  g_signal_connect (self, "notify::focus-widget", G_CALLBACK (fl_window_focus_changed), NULL);

  fl_window_update_scenario_labels (self);
  fl_window_update_actions (self);
  fl_window_update_playing (self);
}

FlWindow *
fl_window_new (GtkApplication *application)
{
  g_return_val_if_fail (GTK_IS_APPLICATION (application), NULL);

  return g_object_new (FL_TYPE_WINDOW, "application", application, NULL);
}

void
fl_window_set_scenario (FlWindow *self, const char *scenario)
{
  g_return_if_fail (FL_IS_WINDOW (self));

  if (scenario == NULL || scenario[0] == '\0')
    return;
  /* The same scenario again is loaded again only when it failed last time (the file may have
   * been fixed since); the session tells back through notify::scenario. */
  if (g_strcmp0 (self->scenario, scenario) == 0
      && (fl_session_is_loading (self->session) || fl_session_get_run (self->session) != NULL))
    return;
  fl_session_load (self->session, scenario);
}

const char *
fl_window_get_scenario (FlWindow *self)
{
  g_return_val_if_fail (FL_IS_WINDOW (self), NULL);

  return self->scenario;
}

FlSession *
fl_window_get_session (FlWindow *self)
{
  g_return_val_if_fail (FL_IS_WINDOW (self), NULL);

  return self->session;
}

gboolean
fl_window_is_presenting (FlWindow *self)
{
  g_return_val_if_fail (FL_IS_WINDOW (self), FALSE);

  return fl_presentation_is_active (self->presentation);
}

FlBookmarks *
fl_window_get_bookmarks (FlWindow *self)
{
  g_return_val_if_fail (FL_IS_WINDOW (self), NULL);

  return self->bookmarks;
}

GtkListBox *
fl_window_get_bookmarks_list (FlWindow *self)
{
  g_return_val_if_fail (FL_IS_WINDOW (self), NULL);

  return fl_bookmarks_button_get_list (self->bookmarks_button);
}

gboolean
fl_window_add_bookmark (FlWindow *self, const char *title, const char *note, GError **error)
{
  g_autoptr(GError) local = NULL;

  g_return_val_if_fail (FL_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* The first bookmark records the whole run, which takes a moment on a long one. */
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "wait");
  if (!fl_bookmarks_add (self->bookmarks, title, note, &local))
    {
      gtk_widget_set_cursor (GTK_WIDGET (self), NULL);
      fl_window_show_message (self, local->message);
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  gtk_widget_set_cursor (GTK_WIDGET (self), NULL);
  return TRUE;
}

static gboolean
fl_window_hide_message (gpointer user_data)
{
  FlWindow *self = user_data;

  gtk_widget_set_visible (GTK_WIDGET (self->message_label), FALSE);
  self->message_id = 0;
  return G_SOURCE_REMOVE;
}

void
fl_window_show_message (FlWindow *self, const char *message)
{
  g_return_if_fail (FL_IS_WINDOW (self));

  gtk_label_set_label (self->message_label, message);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->message_label), message);
  gtk_widget_set_visible (GTK_WIDGET (self->message_label), TRUE);
  g_clear_handle_id (&self->message_id, g_source_remove);
  self->message_id = g_timeout_add_seconds (MESSAGE_SECONDS, fl_window_hide_message, self);
}

static const char *
fl_shown_text (GtkLabel *label)
{
  return gtk_widget_get_visible (GTK_WIDGET (label)) ? gtk_label_get_label (label) : NULL;
}

/* The one-line message shown now, NULL when none is. */
const char *
fl_window_get_message (FlWindow *self)
{
  g_return_val_if_fail (FL_IS_WINDOW (self), NULL);
  return fl_shown_text (self->message_label);
}

/* The strip with the scenario's description over the views (fl-scenario-about.h). */
GtkWidget *
fl_window_get_scenario_about (FlWindow *self)
{
  g_return_val_if_fail (FL_IS_WINDOW (self), NULL);
  return self->about;
}

const char *
fl_window_get_load_error (FlWindow *self)
{
  g_return_val_if_fail (FL_IS_WINDOW (self), NULL);
  return fl_shown_text (self->error_label);
}

gboolean
fl_window_start_compare (FlWindow *self, const char *key, const char *value, GError **error)
{
  g_return_val_if_fail (FL_IS_WINDOW (self), FALSE);

  if (!fl_compare_page_start (FL_COMPARE_PAGE (self->compare_page), key, value, error))
    return FALSE;
  if (fl_presentation_is_active (self->presentation))
    fl_presentation_leave (self->presentation);
  gtk_stack_set_visible_child (self->stack, self->compare_page);
  return TRUE;
}

void
fl_window_leave_compare (FlWindow *self)
{
  g_return_if_fail (FL_IS_WINDOW (self));

  fl_compare_page_stop (FL_COMPARE_PAGE (self->compare_page));
  if (fl_window_is_comparing (self))
    gtk_stack_set_visible_child_name (self->stack,
                                      fl_session_get_run (self->session) != NULL ? "views"
                                                                                 : "welcome");
}

gboolean
fl_window_is_comparing (FlWindow *self)
{
  g_return_val_if_fail (FL_IS_WINDOW (self), FALSE);

  return self->compare_page != NULL
    && gtk_stack_get_visible_child (self->stack) == self->compare_page;
}

GtkWidget *
fl_window_get_compare_page (FlWindow *self)
{
  g_return_val_if_fail (FL_IS_WINDOW (self), NULL);

  return self->compare_page;
}

GtkWidget *
fl_window_get_caption (FlWindow *self)
{
  g_return_val_if_fail (FL_IS_WINDOW (self), NULL);

  return fl_presentation_get_caption (self->presentation);
}
