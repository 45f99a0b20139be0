/* The views of the window under a virtual X server: every built-in scenario opens; stepping
 * through the window's actions moves the step and every view's accessible description; a
 * finding seeks to its step and selects its CPU; each view widget shows what its painter
 * draws, pixel for pixel; the lanes zoom and pan; single-key shortcuts leave text fields
 * alone. Any warning or critical fails the run. */

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "fl-lanes-area.h"
#include "fl-paint.h"
#include "fl-shortcuts.h"
#include "fl-view-area.h"
#include "ui-test-helpers.h"

static FlSession *
fl_open (GtkWindow *window, const char *scenario)
{
  FlSession *session = fl_window_get_session (FL_WINDOW (window));

  fl_window_set_scenario (FL_WINDOW (window), scenario);
  fl_test_wait_loaded (session);
  g_assert_cmpstr (fl_window_get_scenario (FL_WINDOW (window)), ==, scenario);
  return session;
}

static void
fl_activate (GtkWindow *window, const char *action)
{
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), action));
  g_action_group_activate_action (G_ACTION_GROUP (window), action, NULL);
}

static char *
fl_describe_widget (FlViewArea *area, const FlCursor *cursor)
{
  FlViewport viewport;

  fl_view_area_get_viewport (area, &viewport);
  return fl_view_describe (fl_view_area_get_view (area), cursor, &viewport);
}

/* The widget tells assistive technologies what its painter says about this state. */
static void
fl_assert_described (FlViewArea *area, const FlCursor *cursor)
{
  g_autofree char *expected = fl_describe_widget (area, cursor);
  g_autofree char *mismatch =
    gtk_test_accessible_check_property (GTK_ACCESSIBLE (area),
                                        GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, expected);

  if (mismatch != NULL)
    g_error ("%s view: %s", fl_view_name (fl_view_area_get_view (area)), mismatch);
  g_assert_true (gtk_test_accessible_has_role (GTK_ACCESSIBLE (area), GTK_ACCESSIBLE_ROLE_IMG));
  g_assert_true (gtk_test_accessible_has_property (GTK_ACCESSIBLE (area),
                                                   GTK_ACCESSIBLE_PROPERTY_LABEL));
}

/* ---- /ui/views/builtins ---- */

static void
fl_check_builtins (GtkApplication *app, GtkWindow *window, gpointer data)
{
  g_auto(GStrv) ids = fl_scenario_builtin_ids ();
  g_autoptr(GPtrArray) views = fl_test_find_views (GTK_WIDGET (window));

  /* the lanes, the five grid views and the counters */
  g_assert_cmpuint (views->len, ==, 7);
  g_assert_cmpuint (g_strv_length (ids), >, 0);
  for (guint i = 0; ids[i] != NULL; i++)
    {
      FlSession *session = fl_open (window, ids[i]);
      const FlCursor *cursor = fl_session_get_cursor (session);

      g_test_message ("%s: %" G_GUINT64_FORMAT " steps", ids[i],
                      fl_session_get_total_steps (session));
      g_assert_cmpuint (fl_session_get_total_steps (session), >, 0);
      g_assert_cmpuint (fl_session_get_step (session), ==, 0);
      g_assert_cmpstr (fl_session_get_title (session), !=, "");
      g_assert_cmpuint (fl_session_get_n_cpus (session), ==, fl_run_get_config (fl_cursor_get_run (cursor))->cpus);
      gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
      for (guint v = 0; v < views->len; v++)
        fl_assert_described (g_ptr_array_index (views, v), cursor);
    }
}

static void
test_views_builtins (void)
{
  fl_test_run_application (fl_check_builtins, NULL);
}

/* ---- /ui/views/step-actions ---- */

static void
fl_check_step_actions (GtkApplication *app, GtkWindow *window, gpointer data)
{
  FlSession *session = fl_open (window, "spf-vs-munmap");
  const FlCursor *cursor = fl_session_get_cursor (session);
  g_autoptr(GPtrArray) views = fl_test_find_views (GTK_WIDGET (window));
  g_autoptr(GPtrArray) at_start = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) last = NULL;
  g_autofree guint *changes = NULL;
  guint64 total = fl_session_get_total_steps (session);

  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "step-back"));
  for (guint v = 0; v < views->len; v++)
    {
      fl_assert_described (g_ptr_array_index (views, v), cursor);
      g_ptr_array_add (at_start, fl_describe_widget (g_ptr_array_index (views, v), cursor));
    }

  /* forward through the whole run, one action at a time: every view's words follow */
  changes = g_new0 (guint, views->len);
  last = g_ptr_array_new_with_free_func (g_free);
  for (guint v = 0; v < views->len; v++)
    g_ptr_array_add (last, g_strdup (g_ptr_array_index (at_start, v)));
  for (guint64 s = 1; s <= total; s++)
    {
      fl_activate (window, "step-forward");
      g_assert_cmpuint (fl_session_get_step (session), ==, s);
      for (guint v = 0; v < views->len; v++)
        {
          FlViewArea *area = g_ptr_array_index (views, v);
          char *now = fl_describe_widget (area, cursor);

          fl_assert_described (area, cursor);
          if (g_strcmp0 (now, g_ptr_array_index (last, v)) != 0)
            changes[v]++;
          g_free (g_ptr_array_index (last, v));
          g_ptr_array_index (last, v) = now;
        }
    }
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "step-forward"));
  for (guint v = 0; v < views->len; v++)
    {
      FlViewArea *area = g_ptr_array_index (views, v);

      g_test_message ("%s: described differently %u times", fl_view_name (fl_view_area_get_view (area)),
                      changes[v]);
      /* the fault, munmap and the grace period reach every view */
      g_assert_cmpuint (changes[v], >, 0);
    }

  /* and back */
  for (guint64 s = total; s > 0; s--)
    {
      fl_activate (window, "step-back");
      g_assert_cmpuint (fl_session_get_step (session), ==, s - 1);
    }
  for (guint v = 0; v < views->len; v++)
    {
      g_autofree char *now = fl_describe_widget (g_ptr_array_index (views, v), cursor);

      fl_assert_described (g_ptr_array_index (views, v), cursor);
      g_assert_cmpstr (now, ==, g_ptr_array_index (at_start, v));
    }

  fl_activate (window, "end");
  g_assert_cmpuint (fl_session_get_step (session), ==, total);
  fl_activate (window, "start");
  g_assert_cmpuint (fl_session_get_step (session), ==, 0);

  /* 1–9 select CPUs; the listing follows the selected CPU */
  g_action_group_activate_action (G_ACTION_GROUP (window), "select-cpu", g_variant_new_uint32 (1));
  g_assert_cmpuint (fl_session_get_selected_cpu (session), ==, 1);
  for (guint v = 0; v < views->len; v++)
    fl_assert_described (g_ptr_array_index (views, v), cursor);

  /* Shift+Right: cpu1 alone takes a step; the rest of the run is simulated again */
  fl_activate (window, "step-cpu");
  fl_test_wait_loaded (session);
  cursor = fl_session_get_cursor (session);
  g_assert_cmpuint (fl_session_get_step (session), ==, 1);
  g_assert_cmpuint (fl_run_get_events (fl_cursor_get_run (cursor), NULL)[0].cpu, ==, 1);
  g_assert_cmpuint (fl_session_get_total_steps (session), ==, fl_run_get_total_steps (fl_cursor_get_run (cursor)));
  g_assert_cmpuint (fl_session_get_total_steps (session), >, 1);
  fl_activate (window, "end");
  g_assert_cmpuint (fl_session_get_step (session), ==, fl_run_get_total_steps (fl_cursor_get_run (cursor)));
  for (guint v = 0; v < views->len; v++)
    fl_assert_described (g_ptr_array_index (views, v), cursor);
}

static void
test_views_step_actions (void)
{
  fl_test_run_application (fl_check_step_actions, NULL);
}

/* ---- /ui/views/finding ---- */

static void fl_collect_labels (GtkWidget *widget, GString *text);

static void
fl_check_finding (GtkApplication *app, GtkWindow *window, gpointer data)
{
  FlSession *session = fl_open (window, "spf-vs-munmap");
  g_autoptr(GError) error = NULL;
  g_autofree char *value = NULL;
  const FlFinding *finding;
  const GPtrArray *findings;

  g_assert_cmpuint (fl_run_get_findings (fl_session_get_run (session))->len, ==, 0);
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "next-finding"));

  /* without RCU the VMA munmap frees is gone under the speculative fault */
  g_assert_true (fl_session_set_switch (session, "vma-free", "immediate", &error));
  g_assert_no_error (error);
  fl_test_wait_loaded (session);
  value = fl_session_get_switch (session, "vma-free");
  g_assert_cmpstr (value, ==, "immediate");
  findings = fl_run_get_findings (fl_session_get_run (session));
  g_assert_cmpuint (findings->len, >, 0);
  finding = g_ptr_array_index (findings, 0);

  /* select another CPU first, so the finding's own selection shows */
  fl_session_select_cpu (session, finding->cpu == 0 ? 1 : 0);
  fl_activate (window, "next-finding");
  g_assert_cmpuint (fl_session_get_step (session), ==, finding->step);
  g_assert_cmpuint (fl_session_get_selected_cpu (session), ==, finding->cpu);
  /* one number for the step: the header and the finding's row say the finding's own step */
  {
    g_autoptr(GString) shown = g_string_new (NULL);
    g_autofree char *header = g_strdup_printf ("step %" G_GUINT64_FORMAT " / %" G_GUINT64_FORMAT
                                               "\n", finding->step,
                                               fl_session_get_total_steps (session));
    g_autofree char *row = g_strdup_printf ("step %" G_GUINT64_FORMAT " · cpu%u\n",
                                            finding->step, finding->cpu);
    gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
    fl_collect_labels (GTK_WIDGET (window), shown);
    g_test_message ("shown: %s", shown->str);
    g_assert_nonnull (strstr (shown->str, header));
    g_assert_nonnull (strstr (shown->str, row));
  }

  fl_activate (window, "end");
  fl_session_select_cpu (session, finding->cpu == 0 ? 1 : 0);
  fl_activate (window, "previous-finding");
  g_assert_cmpuint (fl_session_get_step (session), ==,
                    ((const FlFinding *) g_ptr_array_index (findings, findings->len - 1))->step);

  /* a bad switch is the caller's error and leaves the run alone */
  g_assert_false (fl_session_set_switch (session, "vma-free", "sometimes", &error));
  g_assert_error (error, FL_CONFIG_ERROR, FL_CONFIG_ERROR_BAD_VALUE);
  g_assert_false (fl_session_is_loading (session));
  fl_session_reset_switches (session);
  fl_test_wait_loaded (session);
  g_assert_cmpuint (fl_run_get_findings (fl_session_get_run (session))->len, ==, 0);
}

static void
test_views_finding (void)
{
  fl_test_run_application (fl_check_finding, NULL);
}

/* ---- /ui/views/pixels ---- */

static void
fl_compare_view (FlViewArea *area, const FlCursor *cursor)
{
  g_autoptr(GdkTexture) texture = fl_test_render_widget (GTK_WIDGET (area));
  int width = gdk_texture_get_width (texture), height = gdk_texture_get_height (texture);
  g_autofree guint8 *shown = g_malloc ((gsize) width * height * 4);
  cairo_surface_t *painted;
  FlViewport viewport;
  FlPalette palette;
  const guint8 *expected;
  int stride;
  guint64 differ = 0;
  int worst = 0;

  fl_view_area_get_viewport (area, &viewport);
  fl_view_area_get_palette (area, &palette);
  g_assert_cmpint ((int) viewport.width, ==, width);
  g_assert_cmpint ((int) viewport.height, ==, height);

  /* both are premultiplied BGRA in memory on this little-endian machine: cairo's ARGB32 */
  gdk_texture_download (texture, shown, (gsize) width * 4);
  painted = fl_paint_view_image (fl_view_area_get_view (area), cursor, &viewport, &palette);
  g_assert_cmpint (cairo_surface_status (painted), ==, CAIRO_STATUS_SUCCESS);
  cairo_surface_flush (painted);
  expected = cairo_image_surface_get_data (painted);
  stride = cairo_image_surface_get_stride (painted);

  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      {
        const guint8 *a = shown + ((gsize) y * width + x) * 4;
        const guint8 *b = expected + (gsize) y * stride + x * 4;
        int d = 0;

        for (int c = 0; c < 4; c++)
          d = MAX (d, ABS (a[c] - b[c]));
        worst = MAX (worst, d);
        differ += d > 8;
      }
  g_test_message ("%s: %d×%d, %" G_GUINT64_FORMAT " pixels differ, worst by %d",
                  fl_view_name (fl_view_area_get_view (area)), width, height, differ, worst);
  /* Antialiasing may round differently when GSK replays the recording: a few stray pixels,
   * never a shifted or different picture. */
  g_assert_cmpfloat ((double) differ / ((double) width * height), <, 0.002);
  cairo_surface_destroy (painted);
}

static void
fl_check_pixels (GtkApplication *app, GtkWindow *window, gpointer data)
{
  FlSession *session = fl_open (window, "spf-vs-munmap");
  g_autoptr(GPtrArray) views = fl_test_find_views (GTK_WIDGET (window));

  fl_session_seek (session, 60);
  fl_session_select_cpu (session, 1);
  /* each on screen: at the default 1280×800 the panels are tabs (fl-panels.h) */
  for (guint v = 0; v < views->len; v++)
    fl_compare_view (fl_test_show_view (window, fl_view_area_get_view (views->pdata[v])),
                     fl_session_get_cursor (session));
}

static void
test_views_pixels (void)
{
  fl_test_run_application (fl_check_pixels, NULL);
}

/* ---- /ui/views/elided ---- */

/* Paints `view` at `viewport` into a surface, `dx`, `dy` from its corner, noting what it
 * shortens. */
static GArray *
fl_paint_noting (const FlCursor *cursor, FlView view, const FlViewport *viewport, double dx, double dy)
{
  GArray *elided = fl_elided_texts_new ();
  FlPalette palette;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1700, 900);
  cairo_t *cr = cairo_create (surface);

  fl_palette_init_light (&palette);
  cairo_translate (cr, dx, dy);
  fl_paint_view_noting (view, cr, cursor, viewport, &palette, elided);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return elided;
}

static void
fl_check_elided (GtkApplication *app, GtkWindow *window, gpointer data)
{
  FlSession *session = fl_open (window, "spf-vs-munmap");
  const FlCursor *cursor = fl_session_get_cursor (session);
  /* narrower than the listing is laid out for: drawn scaled down, and its titles shortened */
  FlViewport narrow = { .width = 240, .height = 200, .font_scale = 1 };
  FlViewport wide = { .width = 1600, .height = 800, .font_scale = 1 };
  g_autoptr(GArray) at_corner = NULL;
  g_autoptr(GArray) moved = NULL;
  g_autoptr(GArray) roomy = NULL;

  fl_session_seek (session, 40);
  at_corner = fl_paint_noting (cursor, FL_VIEW_LISTING, &narrow, 0, 0);
  moved = fl_paint_noting (cursor, FL_VIEW_LISTING, &narrow, 37, 11);
  roomy = fl_paint_noting (cursor, FL_VIEW_LISTING, &wide, 0, 0);

  g_assert_cmpuint (at_corner->len, >, 0);
  /* boxes in the view's own units, wherever the view is drawn on the surface */
  g_assert_cmpuint (moved->len, ==, at_corner->len);
  for (guint i = 0; i < at_corner->len; i++)
    {
      const FlElidedText *e = &g_array_index (at_corner, FlElidedText, i);
      const FlElidedText *m = &g_array_index (moved, FlElidedText, i);

      g_assert_cmpstr (e->text, ==, m->text);
      g_assert_cmpfloat_with_epsilon (e->x, m->x, 1e-6);
      g_assert_cmpfloat_with_epsilon (e->y, m->y, 1e-6);
      g_assert_cmpfloat_with_epsilon (e->width, m->width, 1e-6);
      g_assert_cmpfloat (e->width, >, 0);
      g_assert_cmpfloat (e->height, >, 0);
      g_assert_cmpfloat (e->x, >=, 0);
      g_assert_cmpfloat (e->x + e->width, <=, narrow.width + 1e-6);
      g_assert_cmpfloat (e->y + e->height, <=, narrow.height + 1e-6);
      g_assert_true (fl_elided_texts_at (at_corner, e->x + e->width / 2,
                                         e->y + e->height / 2) != NULL);
      /* with room, the same text is drawn whole */
      for (guint j = 0; j < roomy->len; j++)
        g_assert_cmpstr (g_array_index (roomy, FlElidedText, j).text, !=, e->text);
    }
  g_assert_null (fl_elided_texts_at (at_corner, -5, -5));
}

static void
test_views_elided (void)
{
  fl_test_run_application (fl_check_elided, NULL);
}

/* ---- /ui/views/lanes ---- */

static FlLanesArea *
fl_find_lanes (GtkWindow *window)
{
  g_autoptr(GPtrArray) views = fl_test_find_views (GTK_WIDGET (window));

  for (guint v = 0; v < views->len; v++)
    if (FL_IS_LANES_AREA (g_ptr_array_index (views, v)))
      return g_ptr_array_index (views, v);
  g_assert_not_reached ();
}

static void
fl_check_lanes (GtkApplication *app, GtkWindow *window, gpointer data)
{
  FlSession *session = fl_open (window, "spf-vs-munmap");
  FlLanesArea *lanes = fl_find_lanes (window);
  FlViewport before, zoomed, panned, back;
  double x0, width;
  guint64 t0, t1;

  fl_view_area_get_viewport (FL_VIEW_AREA (lanes), &before);
  g_assert_cmpuint (before.time_end, ==, 0);
  g_assert_true (fl_lanes_time_axis (fl_session_get_cursor (session), &before, &x0, &width,
                                     &t0, &t1));

  /* zoom in around the middle: the cycle under the pointer stays put */
  fl_lanes_area_zoom (lanes, 4.0, x0 + width / 2);
  fl_view_area_get_viewport (FL_VIEW_AREA (lanes), &zoomed);
  g_assert_cmpuint (zoomed.time_end, >, zoomed.time_start);
  g_assert_cmpfloat (fabs ((double) (zoomed.time_end - zoomed.time_start) - (t1 - t0) / 4.0),
                     <, 2.0);
  g_assert_cmpfloat (fabs ((zoomed.time_start + zoomed.time_end) / 2.0 - (t0 + t1) / 2.0), <, 2.0);

  /* pan later by a quarter of the lanes' width */
  fl_lanes_area_pan (lanes, width / 4);
  fl_view_area_get_viewport (FL_VIEW_AREA (lanes), &panned);
  g_assert_cmpuint (panned.time_start, >, zoomed.time_start);
  g_assert_cmpuint (panned.time_end - panned.time_start, ==, zoomed.time_end - zoomed.time_start);

  /* zooming out past the whole run shows the whole run */
  fl_lanes_area_zoom (lanes, 0.01, x0);
  fl_view_area_get_viewport (FL_VIEW_AREA (lanes), &back);
  g_assert_cmpuint (back.time_start, ==, 0);
  g_assert_cmpuint (back.time_end, ==, 0);

  fl_lanes_area_zoom (lanes, 3.0, x0);
  fl_lanes_area_reset (lanes);
  fl_view_area_get_viewport (FL_VIEW_AREA (lanes), &back);
  g_assert_cmpuint (back.time_end, ==, 0);
}

static void
test_views_lanes (void)
{
  fl_test_run_application (fl_check_lanes, NULL);
}

/* ---- /ui/views/load-failed ---- */

static void
fl_collect_labels (GtkWidget *widget, GString *text)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_is_visible (widget))
    g_string_append_printf (text, "%s\n", gtk_label_get_label (GTK_LABEL (widget)));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    fl_collect_labels (child, text);
}

static void
fl_on_failed (FlSession *session, const GError *error, gboolean *failed)
{
  *failed = TRUE;
}

static void
fl_check_load_failed (GtkApplication *app, GtkWindow *window, gpointer data)
{
  FlSession *session = fl_open (window, "spf-vs-munmap");
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("faultline-ui-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "broken.fault", NULL);
  g_autoptr(GString) shown = g_string_new (NULL);
  g_autofree char *where = NULL;
  gboolean failed = FALSE;

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, "[scenario]\ntitle = broken\nno setting here\n", -1,
                                      &error));
  g_signal_connect (session, "load-failed", G_CALLBACK (fl_on_failed), &failed);

  fl_window_set_scenario (FL_WINDOW (window), path);
  while (fl_session_is_loading (session))
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (failed);
  g_assert_null (fl_session_get_run (session));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "step-forward"));

  /* the window says what went wrong and where: the file and the line */
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  fl_collect_labels (GTK_WIDGET (window), shown);
  where = g_strdup_printf ("%s:3:", path);
  g_test_message ("shown: %s", shown->str);
  g_assert_nonnull (strstr (shown->str, "broken"));
  g_assert_nonnull (strstr (shown->str, where));

  /* the last scenario that loaded stays the one to open next time */
  {
    g_autoptr(GSettings) settings = g_settings_new ("io.github.faultline.Faultline");
    g_autofree char *last = g_settings_get_string (settings, "last-scenario");
    g_assert_cmpstr (last, ==, "spf-vs-munmap");
  }

  /* and a good scenario brings the views back */
  fl_open (window, "spf-anon-fault");
  g_assert_cmpuint (g_unlink (path), ==, 0);
  g_assert_cmpuint (g_rmdir (dir), ==, 0);
}

static void
test_views_load_failed (void)
{
  fl_test_run_application (fl_check_load_failed, NULL);
}

/* ---- /ui/views/unreached ---- */

/* A schedule point the run never reaches is said under the findings, with its line: the race
 * it was to set up did not happen, and the window must not look as if it had been safe. */
static void
fl_check_unreached (GtkApplication *app, GtkWindow *window, gpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("faultline-ui-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "unreached.fault", NULL);
  g_autoptr(GString) shown = g_string_new (NULL);
  /* an anonymous fault never calls __do_fault, the file-page handler */
  const char *text = "[scenario]\ntitle=Waits for a file fault\n[config]\ncpus=2\n"
                     "[mm]\nvma=0x7f0000000000-0x7f0000004000 rw- anon\n"
                     "[cpu0]\nops=fault 0x7f0000001000 write\n"
                     "[cpu1]\nops=munmap 0x7f0000000000 0x4000\n"
                     "[schedule]\nsteps=cpu0 until __do_fault; cpu1 until end\n";

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, text, -1, &error));
  FlSession *session = fl_open (window, path);
  g_assert_cmpuint (fl_run_get_unreached (fl_session_get_run (session))->len, ==, 1);

  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  fl_collect_labels (GTK_WIDGET (window), shown);
  g_test_message ("shown: %s", shown->str);
  g_assert_nonnull (strstr (shown->str, "schedule point 'cpu0 until __do_fault' (line 12) was "
                                        "never reached"));
  g_assert_nonnull (strstr (shown->str, "line 12\n"));

  /* a scenario whose points are all reached shows no such row */
  fl_open (window, "spf-vs-munmap");
  g_string_truncate (shown, 0);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  fl_collect_labels (GTK_WIDGET (window), shown);
  g_assert_null (strstr (shown->str, "never reached"));
  g_assert_cmpuint (g_unlink (path), ==, 0);
  g_assert_cmpuint (g_rmdir (dir), ==, 0);
}

static void
test_views_unreached (void)
{
  fl_test_run_application (fl_check_unreached, NULL);
}

/* ---- /ui/views/play ---- */

static void
fl_check_play (GtkApplication *app, GtkWindow *window, gpointer data)
{
  FlSession *session = fl_open (window, "spf-vs-munmap");
  guint64 total = fl_session_get_total_steps (session);
  g_autoptr(GSettings) settings = g_settings_new ("io.github.faultline.Faultline");

  /* the speed follows the setting both ways */
  g_settings_set_double (settings, "playback-speed", 1000.0);
  g_assert_cmpfloat (fl_session_get_speed (session), ==, 1000.0);
  fl_session_set_speed (session, 500.0);
  g_assert_cmpfloat (g_settings_get_double (settings, "playback-speed"), ==, 500.0);

  /* play runs to the end of the run and stops there */
  fl_activate (window, "play");
  g_assert_true (fl_session_is_playing (session));
  while (fl_session_is_playing (session))
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (fl_session_get_step (session), ==, total);

  /* play at the end starts over; play again pauses */
  fl_activate (window, "play");
  g_assert_cmpuint (fl_session_get_step (session), <, total);
  fl_activate (window, "play");
  g_assert_false (fl_session_is_playing (session));
}

static void
test_views_play (void)
{
  fl_test_run_application (fl_check_play, NULL);
}

/* ---- /ui/views/progress ---- */

static GtkWidget *
fl_find_type (GtkWidget *widget, GType type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = fl_find_type (child, type);
      if (found != NULL)
        return found;
    }
  return NULL;
}


static void
fl_on_progress (FlSession *session, GParamSpec *pspec, GArray *seen)
{
  double progress = fl_session_get_progress (session);
  g_array_append_val (seen, progress);
}

/* A long run loads in a worker: the main loop keeps running and the progress climbs. */
static void
fl_check_progress (GtkApplication *app, GtkWindow *window, gpointer data)
{
  FlSession *session = fl_open (window, "spf-vs-munmap");
  g_autoptr(GArray) seen = g_array_new (FALSE, FALSE, sizeof (double));
  GtkWidget *bar = fl_find_type (GTK_WIDGET (window), GTK_TYPE_PROGRESS_BAR);
  gboolean bar_shown = FALSE;
  guint between = 0;

  g_signal_connect (session, "notify::progress", G_CALLBACK (fl_on_progress), seen);
  fl_window_set_scenario (FL_WINDOW (window), "will-it-scale-pf1");
  g_assert_true (fl_session_is_loading (session));
  g_assert_null (fl_session_get_run (session));
  while (fl_session_is_loading (session))
    {
      bar_shown |= gtk_widget_get_visible (bar);
      g_main_context_iteration (NULL, TRUE);
    }
  g_signal_handlers_disconnect_by_data (session, seen);

  for (guint i = 0; i < seen->len; i++)
    {
      double p = g_array_index (seen, double, i);
      g_assert_cmpfloat (p, >=, i > 0 ? g_array_index (seen, double, i - 1) : 0.0);
      between += p > 0 && p < 1;
    }
  g_test_message ("%u progress values, %u between 0 and 1", seen->len, between);
  g_assert_true (bar_shown);
  g_assert_cmpuint (between, >, 0);
  g_assert_cmpfloat (fl_session_get_progress (session), ==, 1.0);
  g_assert_false (gtk_widget_get_visible (bar));
  g_assert_nonnull (fl_session_get_run (session));
}

static void
test_views_progress (void)
{
  fl_test_run_application (fl_check_progress, NULL);
}

/* ---- /ui/views/menu-keeps-keys ---- */

/* An open menu navigates with the arrows and activates with Space: the window's single-key
 * shortcuts must leave those keys to it. */
static void
fl_check_menu_keeps_keys (GtkApplication *app, GtkWindow *window, gpointer data)
{
  GtkWidget *button;

  fl_open (window, "spf-vs-munmap");
  /* the header bar's first menu button: the scenario chooser */
  button = fl_find_type (gtk_window_get_titlebar (window), GTK_TYPE_MENU_BUTTON);
  g_assert_nonnull (button);
  gtk_menu_button_popup (GTK_MENU_BUTTON (button));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  g_test_message ("focus in the open menu: %s",
                  G_OBJECT_TYPE_NAME (gtk_root_get_focus (GTK_ROOT (window))));
  g_assert_true (fl_shortcuts_focus_wants_keys (gtk_root_get_focus (GTK_ROOT (window))));
  gtk_menu_button_popdown (GTK_MENU_BUTTON (button));
}

static void
test_views_menu_keeps_keys (void)
{
  fl_test_run_application (fl_check_menu_keeps_keys, NULL);
}

/* ---- /ui/views/shortcuts-yield ---- */

static void
test_views_shortcuts_yield (void)
{
  GtkWidget *entry = g_object_ref_sink (gtk_entry_new ());
  GtkWidget *spin = g_object_ref_sink (gtk_spin_button_new_with_range (0, 10, 1));
  GtkWidget *scale = g_object_ref_sink (gtk_scale_new_with_range (GTK_ORIENTATION_HORIZONTAL,
                                                                  0, 1, 0.1));
  GtkWidget *button = g_object_ref_sink (gtk_button_new_with_label ("x"));

  /* the key goes to the text (the GtkText inside an entry is what has the focus) */
  g_assert_true (fl_shortcuts_focus_wants_keys (gtk_widget_get_first_child (entry)));
  g_assert_true (fl_shortcuts_focus_wants_keys (entry));
  g_assert_true (fl_shortcuts_focus_wants_keys (spin));
  g_assert_true (fl_shortcuts_focus_wants_keys (scale));
  /* but Space on a focused button plays, as in a media player */
  g_assert_false (fl_shortcuts_focus_wants_keys (button));
  g_assert_false (fl_shortcuts_focus_wants_keys (NULL));

  g_object_unref (entry);
  g_object_unref (spin);
  g_object_unref (scale);
  g_object_unref (button);
}

int
main (int argc, char *argv[])
{
  fl_test_init_window_test (&argc, &argv);

  g_test_add_func ("/ui/views/builtins", test_views_builtins);
  g_test_add_func ("/ui/views/step-actions", test_views_step_actions);
  g_test_add_func ("/ui/views/finding", test_views_finding);
  g_test_add_func ("/ui/views/pixels", test_views_pixels);
  g_test_add_func ("/ui/views/elided", test_views_elided);
  g_test_add_func ("/ui/views/lanes", test_views_lanes);
  g_test_add_func ("/ui/views/load-failed", test_views_load_failed);
  g_test_add_func ("/ui/views/unreached", test_views_unreached);
  g_test_add_func ("/ui/views/play", test_views_play);
  g_test_add_func ("/ui/views/progress", test_views_progress);
  g_test_add_func ("/ui/views/menu-keeps-keys", test_views_menu_keeps_keys);
  g_test_add_func ("/ui/views/shortcuts-yield", test_views_shortcuts_yield);

  return g_test_run ();
}
