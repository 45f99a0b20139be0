/* The scenario editor under a virtual X server, driven through its actions: it opens on the
 * scenario on screen; a mistake on line 7 is reported at line 7 (status, highlight,
 * accessible description) and refused by Run; the fixed text runs in the main window, is
 * saved to a file and read back, and saved to the user's store (a temporary data directory)
 * where a search finds it; closing with unsaved changes asks, and Cancel keeps the text.
 * Any warning or critical fails the run. */

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>

#include "fl-editor-check.h"
#include "fl-editor-window.h"
#include "fl-store.h"
#include "ui-test-helpers.h"

#define SCENARIO "spf-vs-munmap"

/* Eleven lines, the operation of cpu0 on line 7. */
#define FL_TEXT_HEAD \
  "[scenario]\n" \
  "title=Edited in the editor\n" \
  "tags=editor-test\n" \
  "[config]\n" \
  "cpus=2\n" \
  "[cpu0]\n"
#define FL_TEXT_TAIL \
  "[cpu1]\n" \
  "ops=munmap 0x7f0000000000 0x4000\n" \
  "[mm]\n" \
  "vma=0x7f0000000000-0x7f0000004000 rw- anon\n"

static const char fl_valid_text[] = FL_TEXT_HEAD "ops=fault 0x7f0000001000 write\n" FL_TEXT_TAIL;
static const char fl_broken_text[] = FL_TEXT_HEAD "ops=fualt 0x7f0000001000 write\n" FL_TEXT_TAIL;

static FlEditorWindow *
fl_find_editor (GtkApplication *app)
{
  FlEditorWindow *found = NULL;

  for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
    if (FL_IS_EDITOR_WINDOW (l->data))
      {
        g_assert_null (found);   /* one editor per main window */
        found = l->data;
      }
  return found;
}

static void
fl_activate (gpointer group, const char *action)
{
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (group), action));
  g_action_group_activate_action (G_ACTION_GROUP (group), action, NULL);
}

static char *
fl_buffer_text (FlEditorWindow *editor)
{
  GtkTextBuffer *buffer = fl_editor_window_get_buffer (editor);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

/* Replaces the text as a user does (select all, paste: gtk_text_buffer_set_text() would not
 * count as a change to save) and waits for the check after the pause. */
static void
fl_type_and_wait (FlEditorWindow *editor, const char *text)
{
  GtkTextBuffer *buffer = fl_editor_window_get_buffer (editor);
  GtkTextIter start, end;

  gtk_text_buffer_begin_user_action (buffer);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_text_buffer_delete_interactive (buffer, &start, &end, TRUE);
  gtk_text_buffer_insert_interactive_at_cursor (buffer, text, -1, TRUE);
  gtk_text_buffer_end_user_action (buffer);
  g_assert_true (gtk_text_buffer_get_modified (buffer));
  g_assert_true (fl_editor_window_is_check_pending (editor));
  while (fl_editor_window_is_check_pending (editor))
    g_main_context_iteration (NULL, TRUE);
}

/* Whether the error highlight covers the 1-based line, from its start to its end. */
static gboolean
fl_line_marked (FlEditorWindow *editor, int line)
{
  GtkTextBuffer *buffer = fl_editor_window_get_buffer (editor);
  GtkTextTag *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer),
                                               "fl-error");
  GtkTextIter start, end;

  g_assert_nonnull (tag);
  gtk_text_buffer_get_iter_at_line (buffer, &start, line - 1);
  end = start;
  gtk_text_iter_forward_to_line_end (&end);
  gtk_text_iter_backward_char (&end);
  return gtk_text_iter_has_tag (&start, tag) && gtk_text_iter_has_tag (&end, tag);
}

static gboolean
fl_any_marked (FlEditorWindow *editor)
{
  GtkTextBuffer *buffer = fl_editor_window_get_buffer (editor);
  GtkTextTag *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer),
                                               "fl-error");
  GtkTextIter iter;

  gtk_text_buffer_get_start_iter (buffer, &iter);
  return gtk_text_iter_has_tag (&iter, tag) || gtk_text_iter_forward_to_tag_toggle (&iter, tag);
}

static GtkTextView *
fl_find_text_view (GtkWidget *widget)
{
  if (GTK_IS_TEXT_VIEW (widget))
    return GTK_TEXT_VIEW (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkTextView *view = fl_find_text_view (child);
      if (view != NULL)
        return view;
    }
  return NULL;
}

static void
fl_assert_described (FlEditorWindow *editor, const char *status)
{
  GtkTextView *view = fl_find_text_view (GTK_WIDGET (editor));
  g_autofree char *mismatch = NULL;

  g_assert_nonnull (view);
  g_assert_true (fl_editor_window_get_buffer (editor) == gtk_text_view_get_buffer (view));
  mismatch = gtk_test_accessible_check_property (GTK_ACCESSIBLE (view),
                                                 GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, status);
  if (mismatch != NULL)
    g_error ("editor text: %s", mismatch);
}

/* The question a close with unsaved changes asks, or NULL. */
static GtkDialog *
fl_find_question (FlEditorWindow *editor)
{
  GListModel *toplevels = gtk_window_get_toplevels ();   /* owned by GTK */
  GtkDialog *found = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (GTK_IS_MESSAGE_DIALOG (window)
          && gtk_window_get_transient_for (window) == GTK_WINDOW (editor)
          && gtk_widget_get_visible (GTK_WIDGET (window)))
        found = GTK_DIALOG (window);
    }
  return found;
}

static void
fl_assert_file_text (GFile *file, const char *expected)
{
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_load_contents (file, NULL, &contents, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (contents, ==, expected);
}

static void
fl_check_editor (GtkApplication *app, GtkWindow *window, gpointer data)
{
  const char *tmp = data;
  FlSession *session = fl_window_get_session (FL_WINDOW (window));
  FlEditorWindow *editor;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = g_file_new_build_filename (tmp, "edited.fault", NULL);
  g_autoptr(GFile) not_text = g_file_new_build_filename (tmp, "binary.fault", NULL);
  g_autofree char *text = NULL;
  g_autofree char *edited = NULL;
  g_autofree char *store_path = NULL;
  g_autofree char **accels = NULL;
  g_autoptr(FlStore) store = NULL;
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(FlScenario) builtin = NULL;
  g_autoptr(FlScenario) valid = NULL;
  const char *status;

  /* nothing to edit before a run is on screen */
  if (fl_session_get_run (session) == NULL)
    g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "edit-scenario"));
  fl_window_set_scenario (FL_WINDOW (window), SCENARIO);
  fl_test_wait_loaded (session);
  accels = gtk_application_get_accels_for_action (app, "win.edit-scenario");
  g_assert_cmpstr (accels[0], ==, "<Shift><Control>e");
  /* the editor's keys: its own actions, so they reach no other window */
  {
    const char *keys[][2] = {
      { "<Control>Return", "win.run" },
      { "<Control>s", "win.save" },
      { "<Shift><Control>s", "win.save-as" },
      { "<Control>o", "win.open" },
      { "<Control>w", "window.close" },   /* asks about unsaved text: close_request */
    };

    for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
      {
        g_auto(GStrv) actions = gtk_application_get_actions_for_accel (app, keys[i][0]);

        g_assert_true (g_strv_contains ((const char *const *) actions, keys[i][1]));
        g_assert_cmpuint (g_strv_length (actions), ==, 1);
      }
  }

  /* opens on the scenario on screen, checked */
  fl_activate (window, "edit-scenario");
  editor = fl_find_editor (app);
  g_assert_nonnull (editor);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (editor)) == window);
  /* as written (the simulation keeps a canonical rewrite), and the same scenario */
  text = fl_buffer_text (editor);
  builtin = fl_scenario_load_builtin (SCENARIO, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (text, ==, builtin->text);
  g_assert_true (fl_scenario_equal (builtin, fl_run_get_scenario (fl_session_get_run (session))));
  g_assert_cmpstr (fl_editor_window_get_name (editor), ==, SCENARIO);
  g_assert_null (fl_editor_window_get_file (editor));   /* a built-in is never overwritten */
  g_assert_cmpuint (fl_editor_window_get_error_line (editor), ==, 0);
  g_assert_cmpstr (fl_editor_window_get_status (editor), ==,
                   "Valid scenario: 2 CPUs, 2 operations");
  g_assert_false (gtk_text_buffer_get_modified (fl_editor_window_get_buffer (editor)));
  /* Ctrl+? there lists the editor's keys, without a warning from the shortcuts window */
  {
    GtkShortcutsWindow *overlay =
      gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (editor));
    g_autofree char *section = NULL;

    g_assert_nonnull (overlay);
    g_object_get (overlay, "section-name", &section, NULL);
    g_assert_cmpstr (section, ==, "editor");
    fl_activate (editor, "show-help-overlay");
    gtk_test_widget_wait_for_draw (GTK_WIDGET (overlay));
    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (overlay)));
    gtk_window_close (GTK_WINDOW (overlay));
  }
  /* again: the same editor comes back */
  fl_activate (window, "edit-scenario");
  g_assert_true (fl_find_editor (app) == editor);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (editor));

  /* a mistake on line 7: reported there, highlighted there only, and described */
  fl_type_and_wait (editor, fl_broken_text);
  status = fl_editor_window_get_status (editor);
  g_test_message ("%s", status);
  g_assert_cmpuint (fl_editor_window_get_error_line (editor), ==, 7);
  g_assert_true (g_str_has_prefix (status, "Line 7: unknown operation 'fualt'"));
  g_assert_true (fl_line_marked (editor, 7));
  g_assert_false (fl_line_marked (editor, 6));
  g_assert_false (fl_line_marked (editor, 8));
  fl_assert_described (editor, status);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (editor));

  /* Run refuses it, saying why; the run on screen stays */
  g_action_group_activate_action (G_ACTION_GROUP (editor), "run", NULL);
  g_assert_false (fl_session_is_loading (session));
  g_assert_nonnull (fl_editor_window_get_message (editor));
  g_assert_nonnull (strstr (fl_editor_window_get_message (editor), "Line 7: "));
  g_assert_true (fl_scenario_equal (builtin, fl_run_get_scenario (fl_session_get_run (session))));
  g_assert_false (fl_editor_window_run (editor, &error));
  g_assert_error (error, FL_EDITOR_ERROR, FL_EDITOR_ERROR_INVALID);
  g_clear_error (&error);

  /* fixed: valid, nothing marked; Run shows it in the main window */
  fl_type_and_wait (editor, fl_valid_text);
  g_assert_cmpuint (fl_editor_window_get_error_line (editor), ==, 0);
  g_assert_cmpstr (fl_editor_window_get_status (editor), ==,
                   "Valid scenario: 2 CPUs, 2 operations");
  g_assert_false (fl_any_marked (editor));
  fl_assert_described (editor, fl_editor_window_get_status (editor));
  fl_activate (editor, "run");
  g_assert_true (fl_session_is_loading (session));
  fl_test_wait_loaded (session);
  valid = fl_scenario_parse (fl_valid_text, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (fl_scenario_equal (valid, fl_run_get_scenario (fl_session_get_run (session))));
  g_assert_cmpstr (fl_session_get_title (session), ==, "Edited in the editor");
  g_assert_cmpstr (fl_session_get_name (session), ==, SCENARIO);

  /* saved to a file and read back; Save then writes to the same file */
  g_assert_true (gtk_text_buffer_get_modified (fl_editor_window_get_buffer (editor)));
  g_assert_true (fl_editor_window_save_to_file (editor, file, &error));
  g_assert_no_error (error);
  fl_assert_file_text (file, fl_valid_text);
  g_assert_false (gtk_text_buffer_get_modified (fl_editor_window_get_buffer (editor)));
  g_assert_true (g_file_equal (fl_editor_window_get_file (editor), file));
  g_assert_cmpstr (fl_editor_window_get_name (editor), ==, "edited");
  edited = g_strconcat (fl_valid_text, "# the lecture's version\n", NULL);
  fl_type_and_wait (editor, edited);
  fl_activate (editor, "save");
  fl_assert_file_text (file, edited);
  g_assert_false (gtk_text_buffer_get_modified (fl_editor_window_get_buffer (editor)));

  /* saved to the user's store, where a search finds it */
  fl_activate (editor, "save-to-store");
  g_assert_nonnull (fl_editor_window_get_message (editor));
  g_assert_nonnull (strstr (fl_editor_window_get_message (editor), "store"));
  store_path = fl_store_default_path ();
  g_assert_true (g_str_has_prefix (store_path, g_get_user_data_dir ()));
  store = fl_store_open (store_path, FL_STORE_OPEN_READ_ONLY, &error);
  g_assert_no_error (error);
  found = fl_store_search_scenarios (store, "Edited in the editor", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (found->len, ==, 1);
  {
    FlStoredScenario *row = g_ptr_array_index (found, 0);

    g_assert_cmpstr (row->name, ==, "edited");
    g_assert_cmpstr (row->title, ==, "Edited in the editor");
    g_assert_cmpstr (row->text, ==, edited);
    g_assert_cmpstr (row->tags[0], ==, "editor-test");
  }
  g_clear_pointer (&found, g_ptr_array_unref);

  /* the store takes only valid scenarios, and says why not */
  fl_type_and_wait (editor, fl_broken_text);
  g_assert_false (fl_editor_window_save_to_store (editor, NULL, &error));
  g_assert_error (error, FL_EDITOR_ERROR, FL_EDITOR_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_nonnull (strstr (fl_editor_window_get_message (editor), "Line 7: "));
  found = fl_store_search_scenarios (store, "fualt", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (found->len, ==, 0);

  /* opening a file that is not text leaves the text as it is */
  g_assert_true (g_file_replace_contents (not_text, "[scenario]\n\xff\xfe", 13, NULL, FALSE,
                                          G_FILE_CREATE_NONE, NULL, NULL, &error));
  g_assert_false (fl_editor_window_open_file (editor, not_text, &error));
  g_assert_error (error, FL_EDITOR_ERROR, FL_EDITOR_ERROR_NOT_TEXT);
  g_clear_error (&error);
  g_clear_pointer (&text, g_free);
  text = fl_buffer_text (editor);
  g_assert_cmpstr (text, ==, fl_broken_text);
  g_assert_true (g_file_delete (not_text, NULL, NULL));

  /* closing with unsaved changes asks; Cancel keeps the editor and its text */
  g_assert_true (gtk_text_buffer_get_modified (fl_editor_window_get_buffer (editor)));
  gtk_window_close (GTK_WINDOW (editor));
  g_assert_true (fl_find_editor (app) == editor);
  g_assert_nonnull (fl_find_question (editor));
  gtk_dialog_response (fl_find_question (editor), GTK_RESPONSE_CANCEL);
  g_assert_null (fl_find_question (editor));
  g_assert_true (fl_find_editor (app) == editor);

  /* opening the saved file: its text, unmodified, once Discard answered the question */
  fl_activate (editor, "edit-current");
  g_assert_nonnull (fl_find_question (editor));
  gtk_dialog_response (fl_find_question (editor), GTK_RESPONSE_REJECT);
  g_clear_pointer (&text, g_free);
  text = fl_buffer_text (editor);
  g_assert_cmpstr (text, ==, fl_valid_text);   /* the run on screen, as it was typed */
  g_assert_true (fl_editor_window_open_file (editor, file, &error));
  g_assert_no_error (error);
  g_clear_pointer (&text, g_free);
  text = fl_buffer_text (editor);
  g_assert_cmpstr (text, ==, edited);
  g_assert_false (gtk_text_buffer_get_modified (fl_editor_window_get_buffer (editor)));

  /* with nothing unsaved, closing asks nothing */
  gtk_window_close (GTK_WINDOW (editor));
  g_assert_null (fl_find_editor (app));
  g_assert_true (g_file_delete (file, NULL, NULL));
}

static void
test_editor (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp = g_dir_make_tmp ("faultline-editor-files-XXXXXX", &error);

  g_assert_no_error (error);
  fl_test_run_application (fl_check_editor, tmp);
  g_rmdir (tmp);
}

/* app.quit while the editor holds unsaved text: the editor asks, and the application stays
 * until the question is answered. */
static void
fl_check_quit (GtkApplication *app, GtkWindow *window, gpointer data)
{
  FlSession *session = fl_window_get_session (FL_WINDOW (window));
  FlEditorWindow *editor;

  fl_window_set_scenario (FL_WINDOW (window), SCENARIO);
  fl_test_wait_loaded (session);
  fl_activate (window, "edit-scenario");
  editor = fl_find_editor (app);
  fl_type_and_wait (editor, fl_valid_text);

  g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
  /* the main window went; the editor stayed, asking, and cannot run anywhere now */
  g_assert_true (fl_find_editor (app) == editor);
  g_assert_nonnull (fl_find_question (editor));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (editor), "run"));
  gtk_dialog_response (fl_find_question (editor), GTK_RESPONSE_REJECT);
  g_assert_null (gtk_application_get_windows (app));
}

static void
test_editor_quit (void)
{
  fl_test_run_application (fl_check_quit, NULL);
}

/* A misspelt stop point is the editor's error at its line, not "Valid scenario": the race
 * it sets up would never happen. */
static void
test_editor_stop_point (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FlScenario) builtin = fl_scenario_load_builtin ("spf-vs-munmap", &error);
  g_assert_no_error (error);
  g_autoptr(GString) text = g_string_new (builtin->text);
  g_assert_cmpuint (g_string_replace (text, "until handle_pte_fault", "until handle_pte_fualt", 1),
                    ==, 1);
  guint line = 0;
  g_autofree char *status = NULL;
  g_autoptr(FlScenario) checked = fl_editor_check_text (text->str, &line, &status);
  g_assert_null (checked);
  g_assert_cmpuint (line, >, 0);
  g_autofree char *want = g_strdup_printf ("Line %u: unknown stop point 'handle_pte_fualt' "
                                           "(expected a modeled function or listing location; "
                                           "the nearest are handle_pte_fault, ", line);
  g_assert_true (g_str_has_prefix (status, want));
}

/* Run refuses broken text with a banner; once the text is fixed, the banner saying it cannot
 * run goes, and only "Valid scenario" is left. */
static void
fl_check_banner (GtkApplication *app, GtkWindow *window, gpointer data)
{
  FlSession *session = fl_window_get_session (FL_WINDOW (window));
  fl_window_set_scenario (FL_WINDOW (window), SCENARIO);
  fl_test_wait_loaded (session);
  fl_activate (window, "edit-scenario");
  FlEditorWindow *editor = fl_find_editor (app);
  fl_type_and_wait (editor, fl_broken_text);
  g_autoptr(GError) error = NULL;
  g_assert_false (fl_editor_window_run (editor, &error));
  g_assert_error (error, FL_EDITOR_ERROR, FL_EDITOR_ERROR_INVALID);
  g_assert_true (g_str_has_prefix (fl_editor_window_get_message (editor),
                                   "This is not a valid scenario"));
  fl_type_and_wait (editor, fl_valid_text);
  g_assert_true (g_str_has_prefix (fl_editor_window_get_status (editor), "Valid scenario"));
  g_assert_null (fl_editor_window_get_message (editor));
  gtk_window_destroy (GTK_WINDOW (editor));
}

static void
test_editor_banner (void)
{
  fl_test_run_application (fl_check_banner, NULL);
}

/* A visible button that activates the action named by `data`. */
static gboolean
fl_is_action_button (GtkWidget *widget, gconstpointer data)
{
  return GTK_IS_BUTTON (widget) && gtk_widget_get_visible (widget)
         && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), data) == 0;
}

/* A .fault file that does not load: its error page offers the editor, and the editor opens on
 * the file's text with the line at fault marked, not on the run that was on screen. */
static void
fl_check_failed_file (GtkApplication *app, GtkWindow *window, gpointer data)
{
  const char *path = data;
  FlSession *session = fl_window_get_session (FL_WINDOW (window));
  fl_window_set_scenario (FL_WINDOW (window), path);
  while (fl_session_is_loading (session) || fl_window_get_load_error (FL_WINDOW (window)) == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (strstr (fl_window_get_load_error (FL_WINDOW (window)), ":7:"));
  GtkButton *button = GTK_BUTTON (fl_test_find_widget (GTK_WIDGET (window), fl_is_action_button,
                                                      "win.edit-scenario"));
  g_assert_nonnull (button);
  g_assert_cmpstr (gtk_button_get_label (button), ==, "Edit in the Scenario Editor");
  g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (button)));
  fl_activate (window, "edit-scenario");
  FlEditorWindow *editor = fl_find_editor (app);
  g_assert_nonnull (editor);
  g_autofree char *text = fl_buffer_text (editor);
  g_assert_cmpstr (text, ==, fl_broken_text);
  g_assert_cmpuint (fl_editor_window_get_error_line (editor), ==, 7);
  g_assert_true (fl_line_marked (editor, 7));
  g_autofree char *opened = g_file_get_path (fl_editor_window_get_file (editor));
  g_assert_cmpstr (opened, ==, path);
  gtk_window_destroy (GTK_WINDOW (editor));
}

static void
test_editor_failed_file (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp = g_dir_make_tmp ("faultline-editor-failed-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *path = g_build_filename (tmp, "broken.fault", NULL);
  g_assert_true (g_file_set_contents (path, fl_broken_text, -1, &error));
  fl_test_run_application (fl_check_failed_file, path);
  g_unlink (path);
  g_rmdir (tmp);
}

int
main (int argc, char *argv[])
{
  g_autofree char *data_home = NULL;
  int status;

  /* first: GTK must not look up the data folder before it is the test's own */
  data_home = fl_test_private_data_home ("editor");
  fl_test_init_window_test (&argc, &argv);

  g_test_add_func ("/ui/editor/edit-run-save", test_editor);
  g_test_add_func ("/ui/editor/quit-asks", test_editor_quit);
  g_test_add_func ("/ui/editor/stop-point", test_editor_stop_point);
  g_test_add_func ("/ui/editor/banner-after-fix", test_editor_banner);
  g_test_add_func ("/ui/editor/failed-file", test_editor_failed_file);

  status = g_test_run ();
  fl_test_remove_data_home (data_home);
  return status;
}
