/* The scenario editor; see fl-editor-window.h. The check runs on the main thread: the parser
 * takes well under a millisecond for a hand-written scenario, and a pause in typing is what
 * it waits for, not the work. */

#include "fl-editor-window.h"

#include <glib/gi18n.h>

#include "fl-editor-check.h"
#include "fl-editor-files.h"
#include "fl-line-numbers.h"
#include "fl-run.h"

/* How long typing must pause before the text is checked. */
#define FL_EDITOR_CHECK_MS 300
/* Where the main window keeps its editor, so a second Ctrl+Shift+E brings back the same one. */
#define FL_EDITOR_KEY "fl-editor-window"

G_DEFINE_QUARK (fl-editor-error-quark, fl_editor_error)

/* What to do once unsaved changes are saved or discarded: close, open a file, take the run's
 * text. */
typedef void (*FlEditorThen) (FlEditorWindow *self);

struct _FlEditorWindow
{
  GtkApplicationWindow parent_instance;

  GtkLabel      *subtitle_label;
  GtkInfoBar    *message_bar;
  GtkLabel      *message_label;
  GtkTextView   *view;
  GtkImage      *status_icon;
  GtkLabel      *status_label;
  GtkLabel      *position_label;
  GtkWidget     *line_numbers;
  GtkTextTag    *error_tag;

  FlSession     *session;
  GtkWindow     *main_window;   /* not owned: NULL once it is closed, and Run with it */
  GFile         *file;
  char          *name;
  char          *ran_text;      /* what Run last handed to the session, as typed */
  guint          check_id;
  guint          error_line;
  char          *status;
  gboolean       message_shown;
  gboolean       message_is_verdict; /* the message refused invalid text: a fix ends it */
  GFile         *pending_file;  /* to open once unsaved changes are saved or discarded */

  FlEditorThen   then;          /* waiting on the unsaved-changes question or Save As */
  GtkWidget     *question;
  GtkNativeDialog *chooser;
  gboolean       may_close;     /* the changes were saved or discarded: close at once */
};

G_DEFINE_FINAL_TYPE (FlEditorWindow, fl_editor_window, GTK_TYPE_APPLICATION_WINDOW)

static void fl_editor_window_open_dialog (FlEditorWindow *self);
static void fl_editor_window_save_as_dialog (FlEditorWindow *self);

/* ---- messages and title ---- */

static void
fl_editor_window_show_message (FlEditorWindow *self, GtkMessageType type, const char *text)
{
  gtk_info_bar_set_message_type (self->message_bar, type);
  gtk_label_set_label (self->message_label, text);
  gtk_info_bar_set_revealed (self->message_bar, TRUE);
  self->message_shown = TRUE;
  self->message_is_verdict = FALSE;
  if (type == GTK_MESSAGE_ERROR)
    gtk_widget_error_bell (GTK_WIDGET (self));
}

static void
fl_editor_window_hide_message (FlEditorWindow *self)
{
  gtk_info_bar_set_revealed (self->message_bar, FALSE);
  self->message_shown = FALSE;
}

/* The info bar's close button. */
static void
fl_editor_window_message_response (FlEditorWindow *self, int response)
{
  fl_editor_window_hide_message (self);
}

static GtkTextBuffer *
fl_editor_window_buffer (FlEditorWindow *self)
{
  return gtk_text_view_get_buffer (self->view);
}

static char *
fl_editor_window_text (FlEditorWindow *self)
{
  GtkTextBuffer *buffer = fl_editor_window_buffer (self);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static void
fl_editor_window_update_title (FlEditorWindow *self)
{
  gboolean modified = gtk_text_buffer_get_modified (fl_editor_window_buffer (self));
  g_autofree char *shown = NULL;
  g_autofree char *title = NULL;

  if (self->file != NULL)
    shown = g_file_get_basename (self->file);
  else
    shown = g_strdup (self->name);
  /* An asterisk marks unsaved changes, as GNOME's editors do. */
  if (modified)
    {
      char *marked = g_strconcat ("*", shown, NULL);
      g_free (shown);
      shown = marked;
    }
  gtk_label_set_label (self->subtitle_label, shown);
  if (self->file != NULL)
    {
      g_autofree char *path = g_file_get_parse_name (self->file);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->subtitle_label), path);
    }
  else
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->subtitle_label), NULL);
  /* Translators: the editor window's title, %s the scenario's name or file. */
  title = g_strdup_printf (_("%s — Scenario Editor"), shown);
  gtk_window_set_title (GTK_WINDOW (self), title);
}

static void
fl_editor_window_update_actions (FlEditorWindow *self)
{
  const FlRun *shown = self->session != NULL ? fl_session_get_run (self->session) : NULL;
  GAction *run = g_action_map_lookup_action (G_ACTION_MAP (self), "run");
  GAction *current = g_action_map_lookup_action (G_ACTION_MAP (self), "edit-current");

  g_simple_action_set_enabled (G_SIMPLE_ACTION (run), self->main_window != NULL);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (current),
                               self->main_window != NULL && shown != NULL);
}

static void
fl_editor_window_update_position (FlEditorWindow *self)
{
  GtkTextBuffer *buffer = fl_editor_window_buffer (self);
  GtkTextIter cursor;
  g_autofree char *text = NULL;

  gtk_text_buffer_get_iter_at_mark (buffer, &cursor, gtk_text_buffer_get_insert (buffer));
  /* Translators: the cursor's place in the editor's status line, "Ln 7, Col 12". */
  text = g_strdup_printf (_("Ln %d, Col %d"), gtk_text_iter_get_line (&cursor) + 1,
                          gtk_text_iter_get_line_offset (&cursor) + 1);
  gtk_label_set_label (self->position_label, text);
}

/* ---- checking ---- */

static void
fl_editor_window_mark_line (FlEditorWindow *self, guint line)
{
  GtkTextBuffer *buffer = fl_editor_window_buffer (self);
  GtkTextIter start, end;
  int lines = gtk_text_buffer_get_line_count (buffer);

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_text_buffer_remove_tag (buffer, self->error_tag, &start, &end);
  if (line == 0)
    return;
  /* A whole-file error may name the line after the last (an unclosed block at the end). */
  line = MIN (line, (guint) lines);
  gtk_text_buffer_get_iter_at_line (buffer, &start, (int) line - 1);
  end = start;
  /* through the line end, so the whole row is tinted even when the line is empty */
  if (!gtk_text_iter_forward_line (&end))
    gtk_text_iter_forward_to_end (&end);
  gtk_text_buffer_apply_tag (buffer, self->error_tag, &start, &end);
}

static void
fl_editor_window_set_status (FlEditorWindow *self, guint line, const char *status, gboolean valid)
{
  g_free (self->status);
  self->status = g_strdup (status);
  self->error_line = line;

  gtk_label_set_label (self->status_label, status);
  gtk_image_set_from_icon_name (self->status_icon, valid ? "object-select-symbolic"
                                                         : "dialog-error-symbolic");
  if (valid)
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->status_icon), "error");
      gtk_widget_add_css_class (GTK_WIDGET (self->status_icon), "success");
    }
  else
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->status_icon), "success");
      gtk_widget_add_css_class (GTK_WIDGET (self->status_icon), "error");
    }
  fl_editor_window_mark_line (self, line);
  fl_line_numbers_set_error_line (FL_LINE_NUMBERS (self->line_numbers), line);
  /* A screen reader hears the verdict with the text, and it follows every check. */
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->view),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, status, -1);
}

/* Checks the text, shows the verdict, and hands back the scenario when it is valid. */
static FlScenario *
fl_editor_window_check_text (FlEditorWindow *self)
{
  g_autofree char *text = fl_editor_window_text (self);
  g_autofree char *status = NULL;
  guint line = 0;
  FlScenario *scenario;

  g_clear_handle_id (&self->check_id, g_source_remove);
  scenario = fl_editor_check_text (text, &line, &status);
  fl_editor_window_set_status (self, line, status, scenario != NULL);
  /* "cannot run" beside "Valid scenario" would contradict the status line */
  if (scenario != NULL && self->message_shown && self->message_is_verdict)
    fl_editor_window_hide_message (self);
  return scenario;
}

/* Only the verdict on screen matters here, not the scenario. */
static void
fl_editor_window_recheck (FlEditorWindow *self)
{
  fl_scenario_free (fl_editor_window_check_text (self));
}

static gboolean
fl_editor_window_check_timeout (gpointer user_data)
{
  FlEditorWindow *self = user_data;

  self->check_id = 0;
  fl_editor_window_recheck (self);
  return G_SOURCE_REMOVE;
}

static void
fl_editor_window_text_changed (FlEditorWindow *self)
{
  g_clear_handle_id (&self->check_id, g_source_remove);
  self->check_id = g_timeout_add (FL_EDITOR_CHECK_MS, fl_editor_window_check_timeout, self);
  /* "Saved" or "Running" no longer describe the text; an error still may. */
  if (self->message_shown && gtk_info_bar_get_message_type (self->message_bar) != GTK_MESSAGE_ERROR)
    fl_editor_window_hide_message (self);
  fl_editor_window_update_position (self);
}

/* Puts text in the editor as its unmodified starting point, checked at once. */
static void
fl_editor_window_set_text (FlEditorWindow *self, const char *text)
{
  GtkTextBuffer *buffer = fl_editor_window_buffer (self);
  GtkTextIter start;

  /* Undo should not go back past the text as opened. */
  gtk_text_buffer_begin_irreversible_action (buffer);
  gtk_text_buffer_set_text (buffer, text, -1);
  gtk_text_buffer_end_irreversible_action (buffer);
  gtk_text_buffer_get_start_iter (buffer, &start);
  gtk_text_buffer_place_cursor (buffer, &start);
  gtk_text_buffer_set_modified (buffer, FALSE);
  fl_editor_window_hide_message (self);
  fl_editor_window_recheck (self);
  fl_editor_window_update_title (self);
}

/* The run's scenario as its author wrote it, comments and layout included: the simulation
 * keeps only a canonical rewrite. That is the file or built-in the run came from, or the text
 * this editor last ran, as long as it still reads as the same scenario; else the rewrite. */
static const char *
fl_editor_window_written_text (FlEditorWindow *self, const FlScenario *running,
                               FlScenario **loaded)
{
  const char *scenario = fl_session_get_scenario (self->session);

  if (scenario != NULL)
    *loaded = fl_scenario_load (scenario, NULL);
  else if (self->ran_text != NULL)
    *loaded = fl_scenario_parse (self->ran_text, NULL, NULL);
  if (*loaded != NULL && fl_scenario_equal (*loaded, running))
    return (*loaded)->text;
  return running->text;
}

/* The text of the run on screen; FALSE when there is none. */
static gboolean
fl_editor_window_take_current (FlEditorWindow *self)
{
  const FlRun *run = fl_session_get_run (self->session);
  const char *scenario = fl_session_get_scenario (self->session);
  const char *name = fl_session_get_name (self->session);
  g_autoptr(FlScenario) loaded = NULL;

  if (run == NULL)
    return FALSE;
  g_clear_object (&self->file);
  /* A scenario opened from a file is saved back to it; a built-in one never is. */
  if (scenario != NULL && g_path_is_absolute (scenario))
    self->file = g_file_new_for_path (scenario);
  g_free (self->name);
  self->name = g_strdup (name != NULL && name[0] != '\0' ? name : _("untitled"));
  fl_editor_window_set_text (self, fl_editor_window_written_text (self, fl_run_get_scenario (run),
                                                                  &loaded));
  return TRUE;
}

/* ---- unsaved changes ---- */

static void
fl_editor_window_continue (FlEditorWindow *self)
{
  FlEditorThen then = self->then;

  self->then = NULL;
  if (then != NULL)
    then (self);
}

/* Saves to the file the text has; FALSE (and a message) when there is none or it failed. */
static gboolean
fl_editor_window_save_in_place (FlEditorWindow *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;

  if (self->file == NULL)
    return FALSE;
  file = g_object_ref (self->file);
  return fl_editor_window_save_to_file (self, file, &error);
}

static void
fl_editor_window_question_response (FlEditorWindow *self, int response, GtkDialog *dialog)
{
  /* The answer may close the editor while the emission still holds the dialog: GTK 4.8 would
   * then let the dialog go after its parent and touch the parent on the way. */
  gtk_window_set_transient_for (GTK_WINDOW (dialog), NULL);
  gtk_window_destroy (GTK_WINDOW (dialog));
  self->question = NULL;

  switch (response)
    {
    case GTK_RESPONSE_ACCEPT:
      if (self->file == NULL)
        fl_editor_window_save_as_dialog (self);   /* continues once saved */
      else if (fl_editor_window_save_in_place (self))
        fl_editor_window_continue (self);
      else
        self->then = NULL;                        /* the message says why */
      break;
    case GTK_RESPONSE_REJECT:
      fl_editor_window_continue (self);
      break;
    default:
      self->then = NULL;
      break;
    }
}

/* Runs `then` at once when nothing is unsaved, else after asking Save / Discard / Cancel. */
static void
fl_editor_window_confirm (FlEditorWindow *self, FlEditorThen then)
{
  GtkWidget *dialog;
  GtkWidget *discard;
  g_autofree char *shown = self->file != NULL ? g_file_get_basename (self->file)
                                              : g_strdup (self->name);

  if (!gtk_text_buffer_get_modified (fl_editor_window_buffer (self)))
    {
      then (self);
      return;
    }
  if (self->question != NULL)
    {
      gtk_window_present (GTK_WINDOW (self->question));
      return;
    }
  self->then = then;
  dialog = gtk_message_dialog_new (GTK_WINDOW (self),
                                   GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE,
                                   /* Translators: %s is the scenario's name or file. */
                                   _("Save the changes to “%s”?"), shown);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s",
                                            _("The changes are lost if you do not save them."));
  gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL);
  discard = gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Discard"), GTK_RESPONSE_REJECT);
  gtk_widget_add_css_class (discard, "destructive-action");
  gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Save"), GTK_RESPONSE_ACCEPT);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
  g_signal_connect_object (dialog, "response", G_CALLBACK (fl_editor_window_question_response),
                           self, G_CONNECT_SWAPPED);
  self->question = dialog;
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
fl_editor_window_close_now (FlEditorWindow *self)
{
  self->may_close = TRUE;
  gtk_window_close (GTK_WINDOW (self));
}

static gboolean
fl_editor_window_close_request (GtkWindow *window)
{
  FlEditorWindow *self = FL_EDITOR_WINDOW (window);

  if (self->may_close || !gtk_text_buffer_get_modified (fl_editor_window_buffer (self)))
    {
      GtkWindowClass *parent_class = GTK_WINDOW_CLASS (fl_editor_window_parent_class);
      return parent_class->close_request != NULL && parent_class->close_request (window);
    }
  fl_editor_window_confirm (self, fl_editor_window_close_now);
  return TRUE;
}

/* ---- file choosers ---- */

static void
fl_editor_window_open_response (FlEditorWindow *self, int response, GtkNativeDialog *native)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
  self->chooser = NULL;
  gtk_native_dialog_destroy (native);
  g_object_unref (native);
  if (file != NULL)
    fl_editor_window_open_file (self, file, &error);   /* the message bar says what failed */
}

static void
fl_editor_window_open_dialog (FlEditorWindow *self)
{
  GtkFileChooserNative *native;

  if (self->chooser != NULL)
    return;
  native = fl_editor_files_chooser (GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN, self->file);
  self->chooser = GTK_NATIVE_DIALOG (native);
  g_signal_connect_object (native, "response", G_CALLBACK (fl_editor_window_open_response), self,
                           G_CONNECT_SWAPPED);
  gtk_native_dialog_show (self->chooser);
}

static void
fl_editor_window_save_as_response (FlEditorWindow *self, int response, GtkNativeDialog *native)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
  self->chooser = NULL;
  gtk_native_dialog_destroy (native);
  g_object_unref (native);
  if (file != NULL && fl_editor_window_save_to_file (self, file, &error))
    fl_editor_window_continue (self);
  else
    self->then = NULL;   /* cancelled, or the message bar says what failed */
}

static void
fl_editor_window_save_as_dialog (FlEditorWindow *self)
{
  GtkFileChooserNative *native;
  g_autofree char *name = g_strconcat (self->name, ".fault", NULL);

  if (self->chooser != NULL)
    return;
  native = fl_editor_files_chooser (GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE, self->file);
  self->chooser = GTK_NATIVE_DIALOG (native);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), name);
  g_signal_connect_object (native, "response", G_CALLBACK (fl_editor_window_save_as_response),
                           self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (self->chooser);
}

/* ---- actions ---- */

static void
fl_editor_window_run_action (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  g_autoptr(GError) error = NULL;

  fl_editor_window_run (FL_EDITOR_WINDOW (user_data), &error);
}

static void
fl_editor_window_save_action (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  FlEditorWindow *self = user_data;

  if (self->file == NULL)
    fl_editor_window_save_as_dialog (self);
  else
    fl_editor_window_save_in_place (self);
}

static void
fl_editor_window_save_as_action (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  fl_editor_window_save_as_dialog (FL_EDITOR_WINDOW (user_data));
}

static void
fl_editor_window_save_to_store_action (GSimpleAction *action, GVariant *parameter,
                                       gpointer user_data)
{
  g_autoptr(GError) error = NULL;

  fl_editor_window_save_to_store (FL_EDITOR_WINDOW (user_data), NULL, &error);
}

static void
fl_editor_window_open_action (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  fl_editor_window_confirm (FL_EDITOR_WINDOW (user_data), fl_editor_window_open_dialog);
}

static void
fl_editor_window_take_current_then (FlEditorWindow *self)
{
  fl_editor_window_take_current (self);
}

static void
fl_editor_window_edit_current_action (GSimpleAction *action, GVariant *parameter,
                                      gpointer user_data)
{
  fl_editor_window_confirm (FL_EDITOR_WINDOW (user_data), fl_editor_window_take_current_then);
}

static const GActionEntry fl_editor_window_actions[] = {
  { .name = "run", .activate = fl_editor_window_run_action },
  { .name = "save", .activate = fl_editor_window_save_action },
  { .name = "save-as", .activate = fl_editor_window_save_as_action },
  { .name = "save-to-store", .activate = fl_editor_window_save_to_store_action },
  { .name = "open", .activate = fl_editor_window_open_action },
  { .name = "edit-current", .activate = fl_editor_window_edit_current_action },
};

/* ---- GObject ---- */

/* The main window is going while the editor stays (asking about unsaved text): let go of it
 * while it is still alive, as GTK 4.8 keeps a transient parent pointer past its end. */
static void
fl_editor_window_main_window_destroyed (FlEditorWindow *self, GtkWindow *main_window)
{
  g_signal_handlers_disconnect_by_data (main_window, self);
  gtk_window_set_transient_for (GTK_WINDOW (self), NULL);
  self->main_window = NULL;
  fl_editor_window_update_actions (self);
}

static void
fl_editor_window_dispose (GObject *object)
{
  FlEditorWindow *self = FL_EDITOR_WINDOW (object);

  g_clear_handle_id (&self->check_id, g_source_remove);
  if (self->chooser != NULL)
    {
      GtkNativeDialog *chooser = self->chooser;

      self->chooser = NULL;
      g_signal_handlers_disconnect_by_data (chooser, self);
      gtk_native_dialog_destroy (chooser);
      g_object_unref (chooser);
    }
  if (self->main_window != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->main_window, self);
      if (g_object_get_data (G_OBJECT (self->main_window), FL_EDITOR_KEY) == self)
        g_object_set_data (G_OBJECT (self->main_window), FL_EDITOR_KEY, NULL);
      self->main_window = NULL;
    }
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  g_clear_object (&self->file);
  g_clear_object (&self->pending_file);
  gtk_widget_dispose_template (GTK_WIDGET (self), FL_TYPE_EDITOR_WINDOW);

  G_OBJECT_CLASS (fl_editor_window_parent_class)->dispose (object);
}

static void
fl_editor_window_finalize (GObject *object)
{
  FlEditorWindow *self = FL_EDITOR_WINDOW (object);

  g_free (self->name);
  g_free (self->ran_text);
  g_free (self->status);

  G_OBJECT_CLASS (fl_editor_window_parent_class)->finalize (object);
}

static void
fl_editor_window_class_init (FlEditorWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = fl_editor_window_dispose;
  object_class->finalize = fl_editor_window_finalize;
  window_class->close_request = fl_editor_window_close_request;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               FL_RESOURCE_BASE "/ui/fl-editor-window.ui");
  gtk_widget_class_bind_template_child (widget_class, FlEditorWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, FlEditorWindow, message_bar);
  gtk_widget_class_bind_template_child (widget_class, FlEditorWindow, message_label);
  gtk_widget_class_bind_template_child (widget_class, FlEditorWindow, view);
  gtk_widget_class_bind_template_child (widget_class, FlEditorWindow, status_icon);
  gtk_widget_class_bind_template_child (widget_class, FlEditorWindow, status_label);
  gtk_widget_class_bind_template_child (widget_class, FlEditorWindow, position_label);
  gtk_widget_class_bind_template_callback (widget_class, fl_editor_window_message_response);
}

static void
fl_editor_window_init (FlEditorWindow *self)
{
  GtkTextBuffer *buffer;

  gtk_widget_init_template (GTK_WIDGET (self));
  g_action_map_add_action_entries (G_ACTION_MAP (self), fl_editor_window_actions,
                                   G_N_ELEMENTS (fl_editor_window_actions), self);
  self->name = g_strdup (_("untitled"));

  self->line_numbers = fl_line_numbers_new (self->view);
  buffer = fl_editor_window_buffer (self);
  /* A tint that reads on the light and the dark style, and the squiggle text editors use. */
  self->error_tag = gtk_text_buffer_create_tag (buffer, "fl-error",
                                                "paragraph-background", "rgba(224,27,36,0.16)",
                                                "underline", PANGO_UNDERLINE_ERROR,
                                                NULL);
  g_signal_connect_object (buffer, "changed", G_CALLBACK (fl_editor_window_text_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (buffer, "modified-changed",
                           G_CALLBACK (fl_editor_window_update_title), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (buffer, "mark-set", G_CALLBACK (fl_editor_window_update_position),
                           self, G_CONNECT_SWAPPED);
  fl_editor_window_update_position (self);
}

/* ---- public ---- */

FlEditorWindow *
fl_editor_window_show (GtkWindow *parent, FlSession *session)
{
  FlEditorWindow *self;

  g_return_val_if_fail (GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (FL_IS_SESSION (session), NULL);

  self = g_object_get_data (G_OBJECT (parent), FL_EDITOR_KEY);
  if (self != NULL)
    {
      gtk_window_present (GTK_WINDOW (self));
      return self;
    }

  self = g_object_new (FL_TYPE_EDITOR_WINDOW,
                       "application", gtk_window_get_application (parent),
                       "transient-for", parent,
                       NULL);
  self->session = g_object_ref (session);
  self->main_window = parent;
  g_signal_connect_object (parent, "destroy", G_CALLBACK (fl_editor_window_main_window_destroyed),
                           self, G_CONNECT_SWAPPED);
  g_object_set_data (G_OBJECT (parent), FL_EDITOR_KEY, self);
  g_signal_connect_object (session, "notify::loading",
                           G_CALLBACK (fl_editor_window_update_actions), self, G_CONNECT_SWAPPED);

  /* Ctrl+? in the editor opens the shortcuts window on the editor's keys (help-overlay.ui). */
  if (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (self)) != NULL)
    g_object_set (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (self)),
                  "section-name", "editor", NULL);

  if (!fl_editor_window_take_current (self))
    fl_editor_window_set_text (self, "");
  fl_editor_window_update_actions (self);
  gtk_window_present (GTK_WINDOW (self));
  gtk_widget_grab_focus (GTK_WIDGET (self->view));
  return self;
}

static void
fl_editor_window_open_pending (FlEditorWindow *self)
{
  g_autoptr(GFile) file = g_steal_pointer (&self->pending_file);

  if (file != NULL)
    fl_editor_window_open_file (self, file, NULL);   /* the message bar says what failed */
}

/**
 * fl_editor_window_show_file:
 * @parent: the main window
 * @session: its session
 * @file: a `.fault` file, typically one that failed to load
 *
 * The editor of @parent, presented on @file's text, checked: a file that does not parse
 * shows its error at its line. Unsaved changes in an open editor are asked about first.
 *
 * Returns: (transfer none): the editor
 */
FlEditorWindow *
fl_editor_window_show_file (GtkWindow *parent, FlSession *session, GFile *file)
{
  FlEditorWindow *self;

  g_return_val_if_fail (G_IS_FILE (file), NULL);
  self = fl_editor_window_show (parent, session);
  if (self->file != NULL && g_file_equal (self->file, file)
      && !gtk_text_buffer_get_modified (fl_editor_window_buffer (self)))
    fl_editor_window_recheck (self);
  else
    {
      g_set_object (&self->pending_file, file);
      fl_editor_window_confirm (self, fl_editor_window_open_pending);
    }
  return self;
}

GtkTextBuffer *
fl_editor_window_get_buffer (FlEditorWindow *self)
{
  g_return_val_if_fail (FL_IS_EDITOR_WINDOW (self), NULL);
  return fl_editor_window_buffer (self);
}

const char *
fl_editor_window_get_name (FlEditorWindow *self)
{
  g_return_val_if_fail (FL_IS_EDITOR_WINDOW (self), NULL);
  return self->name;
}

GFile *
fl_editor_window_get_file (FlEditorWindow *self)
{
  g_return_val_if_fail (FL_IS_EDITOR_WINDOW (self), NULL);
  return self->file;
}

gboolean
fl_editor_window_is_check_pending (FlEditorWindow *self)
{
  g_return_val_if_fail (FL_IS_EDITOR_WINDOW (self), FALSE);
  return self->check_id != 0;
}

guint
fl_editor_window_get_error_line (FlEditorWindow *self)
{
  g_return_val_if_fail (FL_IS_EDITOR_WINDOW (self), 0);
  return self->error_line;
}

const char *
fl_editor_window_get_status (FlEditorWindow *self)
{
  g_return_val_if_fail (FL_IS_EDITOR_WINDOW (self), NULL);
  return self->status;
}

const char *
fl_editor_window_get_message (FlEditorWindow *self)
{
  g_return_val_if_fail (FL_IS_EDITOR_WINDOW (self), NULL);
  return self->message_shown ? gtk_label_get_label (self->message_label) : NULL;
}

gboolean
fl_editor_window_run (FlEditorWindow *self, GError **error)
{
  g_autoptr(FlScenario) scenario = NULL;
  g_autofree char *text = NULL;
  g_autofree char *message = NULL;

  g_return_val_if_fail (FL_IS_EDITOR_WINDOW (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->main_window == NULL)
    {
      g_set_error_literal (error, FL_EDITOR_ERROR, FL_EDITOR_ERROR_NO_WINDOW,
                           _("The main window is closed: there is nowhere to run the scenario."));
      fl_editor_window_show_message (self, GTK_MESSAGE_ERROR, (*error)->message);
      return FALSE;
    }
  /* Checked now, not by the last pause in typing: what runs is exactly what was checked. */
  scenario = fl_editor_window_check_text (self);
  if (scenario == NULL)
    {
      /* Translators: %s says what is wrong, "Line 7: unknown operation ...". */
      message = g_strdup_printf (_("This is not a valid scenario, so it cannot run. %s"),
                                 self->status);
      g_set_error_literal (error, FL_EDITOR_ERROR, FL_EDITOR_ERROR_INVALID, self->status);
      fl_editor_window_show_message (self, GTK_MESSAGE_ERROR, message);
      self->message_is_verdict = TRUE;
      return FALSE;
    }
  text = fl_editor_window_text (self);
  fl_session_load_text (self->session, self->name, text);
  g_free (self->ran_text);
  self->ran_text = g_steal_pointer (&text);
  /* Translators: %s is the scenario's name. */
  message = g_strdup_printf (_("Running “%s” in the main window."), self->name);
  fl_editor_window_show_message (self, GTK_MESSAGE_INFO, message);
  return TRUE;
}

/* The text now comes from `file`, or goes to it: Save writes there, runs and the store use
 * its name. */
static void
fl_editor_window_set_file (FlEditorWindow *self, GFile *file)
{
  g_set_object (&self->file, file);
  g_free (self->name);
  self->name = fl_editor_files_name_of (file);
}

gboolean
fl_editor_window_open_file (FlEditorWindow *self, GFile *file, GError **error)
{
  g_autofree char *contents = NULL;
  g_autoptr(GError) local = NULL;

  g_return_val_if_fail (FL_IS_EDITOR_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  contents = fl_editor_files_read (file, &local);
  if (contents == NULL)
    {
      g_autofree char *shown = g_file_get_parse_name (file);
      /* Translators: the first %s is a file, the second why it could not be opened. */
      g_autofree char *message = g_strdup_printf (_("Could not open “%s”: %s"), shown,
                                                  local->message);

      fl_editor_window_show_message (self, GTK_MESSAGE_ERROR, message);
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  fl_editor_window_set_file (self, file);
  fl_editor_window_set_text (self, contents);
  return TRUE;
}

gboolean
fl_editor_window_save_to_file (FlEditorWindow *self, GFile *file, GError **error)
{
  g_autofree char *text = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *message = NULL;
  g_autoptr(GError) local = NULL;

  g_return_val_if_fail (FL_IS_EDITOR_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  text = fl_editor_window_text (self);
  shown = g_file_get_parse_name (file);
  if (!fl_editor_files_write (file, text, &local))
    {
      /* Translators: the first %s is a file, the second why it could not be written. */
      message = g_strdup_printf (_("Could not save “%s”: %s"), shown, local->message);
      fl_editor_window_show_message (self, GTK_MESSAGE_ERROR, message);
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }

  if (self->file == NULL || !g_file_equal (self->file, file))
    fl_editor_window_set_file (self, file);
  gtk_text_buffer_set_modified (fl_editor_window_buffer (self), FALSE);
  fl_editor_window_update_title (self);
  /* Translators: %s is the file the scenario was written to. */
  message = g_strdup_printf (_("Saved to %s."), shown);
  fl_editor_window_show_message (self, GTK_MESSAGE_INFO, message);
  return TRUE;
}

gboolean
fl_editor_window_save_to_store (FlEditorWindow *self, gint64 *out_id, GError **error)
{
  g_autoptr(FlScenario) scenario = NULL;
  g_autoptr(GError) local = NULL;
  g_autofree char *message = NULL;

  g_return_val_if_fail (FL_IS_EDITOR_WINDOW (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* The store keeps scenarios that replay: its title and tags come from the parsed text. */
  scenario = fl_editor_window_check_text (self);
  if (scenario == NULL)
    {
      /* Translators: %s says what is wrong, "Line 7: unknown operation ...". */
      message = g_strdup_printf (_("Only a valid scenario can be saved to the store. %s"),
                                 self->status);
      g_set_error_literal (error, FL_EDITOR_ERROR, FL_EDITOR_ERROR_INVALID, self->status);
      fl_editor_window_show_message (self, GTK_MESSAGE_ERROR, message);
      self->message_is_verdict = TRUE;
      return FALSE;
    }
  if (!fl_editor_files_save_to_store (self->name, scenario, out_id, &local))
    {
      /* Translators: %s is the store's own message, naming the file and what failed. */
      message = g_strdup_printf (_("Could not save to the store: %s"), local->message);
      fl_editor_window_show_message (self, GTK_MESSAGE_ERROR, message);
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }

  /* The text is kept there: closing the editor now loses nothing. */
  gtk_text_buffer_set_modified (fl_editor_window_buffer (self), FALSE);
  fl_editor_window_update_title (self);
  /* Translators: %s is the name the scenario has in the store. */
  message = g_strdup_printf (_("Saved to the store as “%s”."), self->name);
  fl_editor_window_show_message (self, GTK_MESSAGE_INFO, message);
  return TRUE;
}
