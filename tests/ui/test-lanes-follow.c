/* Long runs show the present (issue 18 item 5): will-it-scale-pf1's lanes open on a window
 * around the cursor, not on 160 M cycles of mostly future, and move on with it while the
 * run plays or jumps; F shows the whole run and F again follows the cursor once more; a
 * short run still shows all of itself. Checked through what the lanes say to assistive
 * technologies ("Showing cycles A to B") and where the painter puts the cursor, at
 * 1024×700, 1280×800 and the largest the test's screen holds. */

#include <string.h>

#include "fl-lanes-area.h"
#include "fl-view-area.h"
#include "ui-test-helpers.h"

static FlLanesArea *
fl_find_lanes (GtkWindow *window)
{
  g_autoptr(GPtrArray) views = fl_test_find_views (GTK_WIDGET (window));

  for (guint i = 0; i < views->len; i++)
    if (FL_IS_LANES_AREA (views->pdata[i]))
      return views->pdata[i];
  g_assert_not_reached ();
}

/* The whole run's span, as the lanes show it when zoomed to fit. */
static guint64
fl_run_cycles (FlLanesArea *lanes, const FlCursor *cursor)
{
  FlViewport viewport;
  guint64 t1 = 0;

  fl_view_area_get_viewport (FL_VIEW_AREA (lanes), &viewport);
  viewport.time_start = viewport.time_end = 0;
  g_assert_true (fl_lanes_time_axis (cursor, &viewport, NULL, NULL, NULL, &t1));
  return t1;
}

static char *
fl_lanes_description (FlLanesArea *lanes, const FlCursor *cursor)
{
  FlViewport viewport;

  fl_view_area_get_viewport (FL_VIEW_AREA (lanes), &viewport);
  return fl_view_describe (FL_VIEW_LANES, cursor, &viewport);
}

/* The cursor is on screen, inside the lanes and not at their far edge, and the words say
 * which window of time is shown. */
static void
fl_assert_follows (FlLanesArea *lanes, const FlCursor *cursor, const char *where)
{
  FlViewport viewport;
  guint64 now = fl_lanes_cursor_cycle (cursor);
  g_autofree char *description = fl_lanes_description (lanes, cursor);
  g_autofree char *showing = NULL;

  fl_view_area_get_viewport (FL_VIEW_AREA (lanes), &viewport);
  if (viewport.time_end <= viewport.time_start)
    g_error ("%s: the lanes show the whole run (%" G_GUINT64_FORMAT " cycles) at cycle %"
             G_GUINT64_FORMAT, where, fl_run_cycles (lanes, cursor), now);
  g_assert_cmpuint (now, >=, viewport.time_start);
  g_assert_cmpuint (now, <=, viewport.time_end);
  /* a window of at most a few percent of the run, not most of it */
  g_assert_cmpuint (viewport.time_end - viewport.time_start, <,
                    fl_run_cycles (lanes, cursor) / 20);
  showing = g_strdup_printf ("Showing cycles %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT,
                             viewport.time_start, viewport.time_end);
  if (strstr (description, showing) == NULL)
    g_error ("%s: the description does not say \"%s\": %s", where, showing, description);
}

typedef struct {
  FlLanesArea *lanes;
  const FlCursor       *cursor;
  guint        steps;
} Playing;

static void
fl_on_step (FlSession *session, GParamSpec *pspec, Playing *playing)
{
  /* connected after the lanes: they have moved on when this runs */
  fl_assert_follows (playing->lanes, playing->cursor, "while playing");
  playing->steps++;
}

static void
fl_check_follow (GtkApplication *app, GtkWindow *window, gpointer data)
{
  static const int sizes[][2] = { { 1024, 700 }, { 1280, 800 }, { 1920, 1080 } };
  FlSession *session = fl_window_get_session (FL_WINDOW (window));
  FlLanesArea *lanes;
  const FlCursor *cursor;
  Playing playing = { 0 };
  gulong handler;

  fl_window_set_scenario (FL_WINDOW (window), "will-it-scale-pf1");
  fl_test_wait_loaded (session);
  cursor = fl_session_get_cursor (session);
  lanes = fl_find_lanes (window);
  g_assert_cmpuint (fl_session_get_total_steps (session), >, 1000000);

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      g_autofree char *where = g_strdup_printf ("at %dx%d", sizes[s][0], sizes[s][1]);

      fl_test_fit_window (window, sizes[s][0], sizes[s][1]);
      fl_session_seek (session, 40);
      fl_test_settle ();
      fl_assert_follows (lanes, cursor, where);
      /* a jump far ahead takes the window along */
      fl_session_seek (session, 1500000);
      fl_test_settle ();
      fl_assert_follows (lanes, cursor, where);
    }

  /* on through the run as playing goes (a seek per frame): at every step the cursor is in
   * the window */
  playing.lanes = lanes;
  playing.cursor = cursor;
  handler = g_signal_connect (session, "notify::step", G_CALLBACK (fl_on_step), &playing);
  fl_session_seek (session, 2000000);
  for (guint i = 0; i < 3000; i++)
    fl_session_seek (session, fl_session_get_step (session) + 97);
  g_signal_handler_disconnect (session, handler);
  g_assert_cmpuint (playing.steps, >=, 3000);

  /* F: the whole run, which stays while the cursor moves; F again: following once more */
  fl_lanes_area_toggle_whole_run (lanes);
  g_assert_true (fl_lanes_area_get_whole_run (lanes));
  fl_session_seek (session, 100);
  fl_test_settle ();
  g_assert_true (fl_lanes_area_get_whole_run (lanes));
  {
    g_autofree char *description = fl_lanes_description (lanes, cursor);

    g_assert_null (strstr (description, "Showing cycles"));
  }
  fl_lanes_area_toggle_whole_run (lanes);
  fl_assert_follows (lanes, cursor, "after F twice");

  /* a short run shows all of itself at every step */
  fl_window_set_scenario (FL_WINDOW (window), "spf-vs-munmap");
  fl_test_wait_loaded (session);
  for (guint64 step = 0; step <= fl_session_get_total_steps (session); step += 7)
    {
      fl_session_seek (session, step);
      g_assert_true (fl_lanes_area_get_whole_run (lanes));
    }
}

/* F is listed in the shortcuts window, under the lanes. */
static void
test_lanes_follow_listed (void)
{
  g_autoptr(GBytes) bytes = g_resources_lookup_data (FL_RESOURCE_BASE "/gtk/help-overlay.ui",
                                                     0, NULL);
  const char *text;

  g_assert_nonnull (bytes);
  text = g_bytes_get_data (bytes, NULL);
  g_assert_nonnull (g_strstr_len (text, g_bytes_get_size (bytes),
                                  "Whole Run or Follow the Cursor</property>\n"
                                  "                <property name=\"accelerator\">f</property>"));
}

static void
test_lanes_follow (void)
{
  fl_test_run_application (fl_check_follow, NULL);
}

int
main (int argc, char **argv)
{
  fl_test_init_window_test (&argc, &argv);

  g_test_add_func ("/ui/lanes-follow/long-run", test_lanes_follow);
  g_test_add_func ("/ui/lanes-follow/listed", test_lanes_follow_listed);
  return g_test_run ();
}
