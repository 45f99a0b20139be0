/* The hostile corpus opened in the window (tests/cli/test-hostile.c runs it in the CLI): a
 * file the parser refuses puts its FILE:LINE message on the welcome page, a run that stops
 * early says why in the message and the header, and the window stays usable after each;
 * a long load stops where it stands when asked, and shows the run as far as it got. */

#include <string.h>

#include "ui-test-helpers.h"

typedef struct {
  const char *file;
  const char *says;     /* part of what the window must show; NULL: the run just ends */
  gboolean    refused;
} Case;

static const Case cases[] = {
  { "cpus-zero.fault", ":4: ", TRUE },
  { "cpus-100000.fault", ":4: ", TRUE },
  { "cpu-section-100000.fault", ":3: ", TRUE },
  { "binary-garbage.fault", ":3: NUL byte", TRUE },
  { "invalid-utf8.fault", ":2: invalid UTF-8", TRUE },
  { "repeat-too-deep.fault", ":4: ", TRUE },
  { "schedule-missing-cpu.fault", ":8: ", TRUE },
  { "vma-16tib.fault", NULL, FALSE },
  { "until-never.fault", NULL, FALSE },
  { "vma-whole-space.fault", "page tables", FALSE },
  { "mmap-loop.fault", "VMAs", FALSE },
  { "mprotect-split-loop.fault", "VMAs", FALSE },
  { "munmap-split-loop.fault", "VMAs", FALSE },
  { "costs-huge.fault", "(budget)", FALSE },
};

static char *
hostile_path (const char *file)
{
  return g_test_build_filename (G_TEST_DIST, "..", "data", "hostile", file, NULL);
}

static void
wait_not_loading (FlSession *session)
{
  while (fl_session_is_loading (session))
    g_main_context_iteration (NULL, TRUE);
}

static void
fl_check_corpus (GtkApplication *app, GtkWindow *window, gpointer data)
{
  FlWindow *win = FL_WINDOW (window);
  FlSession *session = fl_window_get_session (win);

  fl_test_wait_loaded (session);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const Case *c = &cases[i];
      g_autofree char *path = hostile_path (c->file);
      const FlRun *run_shown;

      g_test_message ("opening %s", c->file);
      fl_session_load (session, path);
      wait_not_loading (session);
      fl_test_settle ();
      run_shown = fl_session_get_run (session);
      if (c->refused)
        {
          const char *error = fl_window_get_load_error (win);
          g_autofree char *where = g_strconcat (path, c->says, NULL);

          g_assert_null (run_shown);
          g_assert_nonnull (error);
          g_assert_nonnull (strstr (error, where));
        }
      else if (c->says == NULL)
        {
          /* shown from its first step: over, with nothing that stopped it */
          g_assert_nonnull (run_shown);
          g_assert_cmpuint (fl_run_get_total_steps (run_shown), >, 0);
          g_assert_null (fl_run_get_stop_message (run_shown));
          g_assert_null (fl_window_get_load_error (win));
        }
      else
        {
          g_assert_nonnull (run_shown);
          g_assert_nonnull (fl_run_get_stop_message (run_shown));
          g_assert_nonnull (fl_window_get_message (win));
          g_assert_nonnull (strstr (fl_window_get_message (win), "stopped at "));
          g_assert_nonnull (strstr (fl_window_get_message (win), c->says));
        }
      /* still alive: it draws, and the next file opens in it */
      g_object_unref (fl_test_render_widget (GTK_WIDGET (window)));
    }
}

static void
test_corpus (void)
{
  fl_test_run_application (fl_check_corpus, NULL);
}

/* A long load ends where it stands on win.stop-loading; the run shown says so. */
static void
fl_check_stop_loading (GtkApplication *app, GtkWindow *window, gpointer data)
{
  FlWindow *win = FL_WINDOW (window);
  FlSession *session = fl_window_get_session (win);
  g_autofree char *path = hostile_path ("repeat-nested-huge.fault");
  const FlRun *run_shown;

  fl_test_wait_loaded (session);
  fl_session_load (session, path);
  g_assert_true (fl_session_is_loading (session));
  g_action_group_activate_action (G_ACTION_GROUP (window), "stop-loading", NULL);
  wait_not_loading (session);
  fl_test_settle ();

  run_shown = fl_session_get_run (session);
  g_assert_nonnull (run_shown);
  g_assert_cmpint (fl_run_get_stop_reason (run_shown), ==, FL_STOP_INTERRUPTED);
  g_assert_cmpuint (fl_run_get_total_steps (run_shown), <, 10000000);
  g_assert_nonnull (fl_window_get_message (win));
  g_assert_nonnull (strstr (fl_window_get_message (win), "(interrupted)"));
}

static void
test_stop_loading (void)
{
  fl_test_run_application (fl_check_stop_loading, NULL);
}

int
main (int argc, char **argv)
{
  fl_test_init_window_test (&argc, &argv);
  g_test_add_func ("/ui/hostile/corpus", test_corpus);
  g_test_add_func ("/ui/hostile/stop-loading", test_stop_loading);
  return g_test_run ();
}
