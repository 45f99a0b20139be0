/* faultline-bench-window — the GTK window's own speed (issue 7): time from launch to the first
 * frame with the views loaded, and whole frames (snapshot + render to texture with the Cairo
 * renderer) of the window and of each view for a 64-CPU multi-fault state. Needs a display
 * (make bench starts Xvfb when there is none). Prints the numbers as faultline-bench does;
 * --results FILE keeps them for `faultline-bench --window-results FILE --write-doc …`.
 *
 *   faultline-bench-window [--quick] [--results FILE]
 */
#include "fl-bench.h"

#include <glib/gstdio.h>
#include <locale.h>
#include <stdio.h>

#include "fl-application.h"
#include "fl-scenario.h"
#include "fl-session.h"
#include "fl-view-area.h"
#include "fl-window.h"
#include "fl-workload.h"

#define WIDTH  1920
#define HEIGHT 1080
#define CPUS   64
#define ROUNDS 1          /* multi-fault at 64 CPUs, one round per thread: about 1.4 M steps */
#define FRAME_TARGET_MS 16.0

typedef struct {
  FlBench  *bench;
  char     *scenario;     /* the 64-CPU .fault file */
  guint     frames;       /* per measurement; the median is reported */
  gint64    launch_ns;    /* before g_application_run */
  gint64    first_frame_ns;
  GError   *error;
  gboolean  done;
} Run;

/* ---- waiting ---- */

static void
on_load_failed (FlSession *session, const GError *error, Run *run)
{
  if (run->error == NULL)
    run->error = g_error_copy (error);
}

static gboolean
wait_loaded (FlSession *session, Run *run)
{
  gulong id = g_signal_connect (session, "load-failed", G_CALLBACK (on_load_failed), run);
  while (fl_session_is_loading (session) && run->error == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_signal_handler_disconnect (session, id);
  if (run->error == NULL && fl_session_get_run (session) == NULL)
    g_set_error (&run->error, FL_BENCH_ERROR, FL_BENCH_ERROR_CAIRO, "the session has no run");
  return run->error == NULL;
}

/* The first paint after the session holds a run is the first frame with the views loaded:
 * a finished load queues the views' redraw, and loads finish between frames. */
static void
on_after_paint (GdkFrameClock *clock, Run *run)
{
  GtkApplication *app = GTK_APPLICATION (g_application_get_default ());
  GtkWindow *window = gtk_application_get_active_window (app);
  if (run->first_frame_ns != 0 || !FL_IS_WINDOW (window))
    return;
  FlSession *session = fl_window_get_session (FL_WINDOW (window));
  if (!fl_session_is_loading (session) && fl_session_get_run (session) != NULL)
    run->first_frame_ns = (gint64) fl_bench_now_ns ();
}

static void
on_window_realize (GtkWidget *window, Run *run)
{
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint",
                    G_CALLBACK (on_after_paint), run);
}

/* ---- frames ---- */

static void
invalidate_all (GtkWidget *widget)
{
  gtk_widget_queue_draw (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    invalidate_all (child);
}

/* One whole frame of `widget`, in ms: for the window its layout, then its snapshot (GTK snapshots again exactly the widgets
 * whose draw was queued, as in a frame of the window) and the render of the nodes to a
 * texture by the window's renderer. The window has no parent to snapshot it: its class's
 * snapshot does what GTK's frame does inside the window's own node. */
static double
frame_ms (GtkWidget *widget, GskRenderer *renderer)
{
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  GtkWidget *parent = gtk_widget_get_parent (widget);
  graphene_rect_t bounds;
  guint64 t0 = fl_bench_now_ns ();
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  if (parent == NULL)
    {
      /* the layout of the frame, as GTK lays the window out in its surface: what the step
       * resized (the header's labels) */
      GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (widget));
      gtk_widget_allocate (widget, gdk_surface_get_width (surface),
                           gdk_surface_get_height (surface), -1, NULL);
      GTK_WIDGET_GET_CLASS (widget)->snapshot (widget, snapshot);
    }
  else if (gtk_widget_compute_bounds (widget, parent, &bounds))
    {
      /* snapshot_child draws the child where it sits in its parent: bring it to 0, 0 */
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (-bounds.origin.x, -bounds.origin.y));
      gtk_widget_snapshot_child (parent, widget, snapshot);
    }
  g_autoptr (GskRenderNode) node = gtk_snapshot_free_to_node (snapshot);
  g_autoptr (GdkTexture) texture = NULL;
  if (node != NULL)
    texture = gsk_renderer_render_texture (renderer, node,
                                           &GRAPHENE_RECT_INIT (0, 0, width, height));
  guint64 t1 = fl_bench_now_ns ();
  return (double) (t1 - t0) / 1e6;
}

/* The frame as the ui tests take pictures: a paintable of the render nodes GTK drew last,
 * snapshot, render to a texture. Nothing is snapshot again: this is the render alone. */
static double
paintable_frame_ms (GtkWidget *widget, GskRenderer *renderer)
{
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  guint64 t0 = fl_bench_now_ns ();
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  g_autoptr (GskRenderNode) node = gtk_snapshot_free_to_node (snapshot);
  g_autoptr (GdkTexture) texture = NULL;
  if (node != NULL)
    texture = gsk_renderer_render_texture (renderer, node,
                                           &GRAPHENE_RECT_INIT (0, 0, width, height));
  guint64 t1 = fl_bench_now_ns ();
  return (double) (t1 - t0) / 1e6;
}

typedef enum { REDRAW_ALL, REDRAW_NONE, REDRAW_STEP } Redraw;

/* The median frame; with REDRAW_STEP also the median seek in `seek_ms`. */
static double
median_frame_ms (Run *run, GtkWidget *widget, GskRenderer *renderer, FlSession *session,
                 Redraw redraw, double *seek_ms)
{
  g_autofree double *ms = g_new (double, run->frames);
  g_autofree double *seeks = g_new0 (double, run->frames);
  /* from a frame GTK drew itself: every render node current */
  gtk_test_widget_wait_for_draw (gtk_widget_get_ancestor (widget, GTK_TYPE_WINDOW));
  if (redraw == REDRAW_NONE)
    paintable_frame_ms (widget, renderer);   /* warm-up */
  else
    {
      g_signal_emit_by_name (session, "changed");
      invalidate_all (widget);
      frame_ms (widget, renderer);           /* warm-up: fonts, glyph caches */
    }
  for (guint i = 0; i < run->frames; i++)
    {
      if (redraw == REDRAW_ALL)
        {
          /* as for a new step of the same run: every view paints its picture again (not timed:
           * the stepping frames count the session's handlers) */
          g_signal_emit_by_name (session, "changed");
          invalidate_all (widget);
          ms[i] = frame_ms (widget, renderer);
        }
      else if (redraw == REDRAW_STEP)
        {
          /* playback: the step and every handler of the session's "changed" (which queue
           * the draws of what changed), then the frame */
          guint64 t0 = fl_bench_now_ns ();
          fl_session_seek (session, fl_session_get_step (session) + 1);
          seeks[i] = (double) (fl_bench_now_ns () - t0) / 1e6;
          ms[i] = seeks[i] + frame_ms (widget, renderer);
        }
      else
        ms[i] = paintable_frame_ms (widget, renderer);
    }
  if (seek_ms != NULL)
    *seek_ms = fl_bench_median (seeks, run->frames);
  return fl_bench_median (ms, run->frames);
}

static gboolean
measure (GtkWindow *window, Run *run)
{
  FlBench *bench = run->bench;
  FlSession *session = fl_window_get_session (FL_WINDOW (window));
  GtkWidget *widget = GTK_WIDGET (window);
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (window));

  if (!wait_loaded (session, run))
    return FALSE;
  while (run->first_frame_ns == 0)
    g_main_context_iteration (NULL, TRUE);

  fl_window_set_scenario (FL_WINDOW (window), run->scenario);
  guint64 t0 = fl_bench_now_ns ();
  if (!wait_loaded (session, run))
    return FALSE;
  double load_s = (double) (fl_bench_now_ns () - t0) / 1e9;
  guint64 total = fl_session_get_total_steps (session);
  fl_session_seek (session, total / 2);
  gtk_test_widget_wait_for_draw (widget);

  fl_bench_section (bench, "The window",
                    "faultline-bench-window: the application started non-unique with memory "
                    "GSettings, window %d×%d (drawn %d×%d), renderer %s; then multi-fault at %u "
                    "CPUs, %u round per thread (%" G_GUINT64_FORMAT " steps, loaded in %.1f s) "
                    "opened through the window and shown at step %" G_GUINT64_FORMAT "; "
                    "a frame is the widget's snapshot (gtk_widget_snapshot_child, or for the "
                    "window gtk_widget_allocate at its size and the window class's snapshot), gtk_snapshot_free_to_node and "
                    "gsk_renderer_render_texture, median of %u after one warm-up; \"every "
                    "widget redrawn\" emits the session's \"changed\" (every view paints its "
                    "picture again, as for a new step of the same run) and queues a draw on every widget first, so all "
                    "of it is snapshot again; \"render nodes cached\" is gtk_widget_paintable_new, "
                    "gdk_paintable_snapshot and the render of what GTK drew last (the render "
                    "alone); \"stepping\" seeks one step forward before each frame, counts the "
                    "seek and snapshots again what the step changed%s",
                    WIDTH, HEIGHT, gtk_widget_get_width (widget), gtk_widget_get_height (widget),
                    G_OBJECT_TYPE_NAME (renderer), CPUS, ROUNDS, total, load_s,
                    fl_session_get_step (session), run->frames,
                    bench->quick ? " (--quick: 3 frames)" : "");

  fl_bench_add (bench, "launch to the first frame with the views loaded",
                (double) (run->first_frame_ns - run->launch_ns) / 1e6, "ms", FL_GOAL_NONE, 0);
  fl_bench_add (bench, "frame, whole window, every widget redrawn",
                median_frame_ms (run, widget, renderer, session, REDRAW_ALL, NULL), "ms",
                FL_GOAL_AT_MOST, FRAME_TARGET_MS);
  fl_bench_add (bench, "frame, whole window, render nodes cached",
                median_frame_ms (run, widget, renderer, session, REDRAW_NONE, NULL), "ms",
                FL_GOAL_NONE, 0);

  g_autoptr (GPtrArray) views = g_ptr_array_new ();
  GPtrArray *stack = g_ptr_array_new ();
  g_ptr_array_add (stack, widget);
  while (stack->len > 0)
    {
      GtkWidget *w = g_ptr_array_steal_index (stack, stack->len - 1);
      if (FL_IS_VIEW_AREA (w))
        g_ptr_array_add (views, w);
      for (GtkWidget *c = gtk_widget_get_last_child (w); c; c = gtk_widget_get_prev_sibling (c))
        g_ptr_array_add (stack, c);
    }
  g_ptr_array_unref (stack);
  for (guint i = 0; i < views->len; i++)
    {
      GtkWidget *view = g_ptr_array_index (views, i);
      const char *title = fl_view_get_title (fl_view_area_get_view (FL_VIEW_AREA (view)));
      if (!gtk_widget_get_mapped (view) || gtk_widget_get_width (view) <= 0)
        continue;
      g_autofree char *label = g_strdup_printf ("frame, view '%s' (%d×%d)", title,
                                                gtk_widget_get_width (view),
                                                gtk_widget_get_height (view));
      fl_bench_add (bench, label, median_frame_ms (run, view, renderer, session, REDRAW_ALL, NULL),
                    "ms", FL_GOAL_NONE, 0);
    }

  double seek_ms = 0;
  fl_bench_add (bench, "frame while stepping (seek +1, whole window)",
                median_frame_ms (run, widget, renderer, session, REDRAW_STEP, &seek_ms), "ms",
                FL_GOAL_AT_MOST, FRAME_TARGET_MS);
  fl_bench_add (bench, "of which the seek +1 and the session's handlers", seek_ms, "ms",
                FL_GOAL_NONE, 0);
  return TRUE;
}

static gboolean
run_measurements (gpointer data)
{
  Run *run = data;
  GtkApplication *app = GTK_APPLICATION (g_application_get_default ());
  GtkWindow *window = gtk_application_get_active_window (app);
  if (!FL_IS_WINDOW (window))
    g_set_error (&run->error, FL_BENCH_ERROR, FL_BENCH_ERROR_CAIRO, "no window");
  else
    run->done = measure (window, run);
  g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
  return G_SOURCE_REMOVE;
}

static void
on_window_added (GtkApplication *app, GtkWindow *window, Run *run)
{
  static gboolean started;
  g_signal_connect (window, "realize", G_CALLBACK (on_window_realize), run);
  if (!started)
    g_idle_add_full (G_PRIORITY_LOW, run_measurements, run, NULL);
  started = TRUE;
}

/* ---- setup ---- */

/* Run from the build tree the schema is not installed; the build compiled it into data/. */
static void
use_build_tree_schemas (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  if (exe == NULL || g_getenv ("GSETTINGS_SCHEMA_DIR") != NULL)
    return;
  g_autofree char *dir = g_path_get_dirname (exe);
  g_autofree char *data = g_build_filename (dir, "..", "data", NULL);
  g_autofree char *compiled = g_build_filename (data, "gschemas.compiled", NULL);
  if (g_file_test (compiled, G_FILE_TEST_IS_REGULAR))
    g_setenv ("GSETTINGS_SCHEMA_DIR", data, TRUE);
}

/* The temporary directory: the scenario, and whatever the window kept in its data home. */
static void
remove_tree (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static char *
write_scenario (const char *dir, GError **error)
{
  g_autoptr (FlScenario) sc = fl_workload_build ("multi-fault", CPUS, ROUNDS, error);
  if (sc == NULL)
    return NULL;
  g_autofree char *text = fl_scenario_to_text (sc);
  char *path = g_build_filename (dir, "multi-fault-64.fault", NULL);
  if (!g_file_set_contents (path, text, -1, error))
    g_clear_pointer (&path, g_free);
  return path;
}

int
main (int argc, char **argv)
{
  gboolean quick = FALSE;
  g_autofree char *results = NULL;
  GOptionEntry entries[] = {
    { "quick", 0, 0, G_OPTION_ARG_NONE, &quick,
      "3 frames per measurement: check that everything runs (the numbers mean little)", NULL },
    { "results", 0, 0, G_OPTION_ARG_FILENAME, &results,
      "Keep the numbers in FILE for faultline-bench --window-results", "FILE" },
    { NULL }
  };
  setlocale (LC_ALL, "C");
  g_autoptr (GOptionContext) context =
    g_option_context_new ("- time the window's frames (needs a display)");
  g_option_context_add_main_entries (context, entries, NULL);
  g_autoptr (GError) error = NULL;
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("faultline-bench-window: %s\n", error->message);
      return 2;
    }

  /* The renderer the target is stated for; never the user's settings nor their store. */
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_autofree char *dir = g_dir_make_tmp ("faultline-bench-window-XXXXXX", &error);
  if (dir == NULL)
    {
      g_printerr ("faultline-bench-window: %s\n", error->message);
      return 1;
    }
  g_autofree char *data_home = g_build_filename (dir, "data", NULL);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  use_build_tree_schemas ();

  Run run = { .frames = quick ? 3 : 21 };
  run.scenario = write_scenario (dir, &error);
  if (run.scenario == NULL)
    {
      g_printerr ("faultline-bench-window: %s\n", error->message);
      return 1;
    }
  if (!gtk_init_check ())
    {
      g_printerr ("faultline-bench-window: no display (run it under xvfb-run)\n");
      return 1;
    }
  printf ("faultline-bench-window%s\n", quick ? " --quick (3 frames each)" : "");
  g_autoptr (GSettings) settings = g_settings_new ("io.github.faultline.Faultline");
  g_settings_set_int (settings, "window-width", WIDTH);
  g_settings_set_int (settings, "window-height", HEIGHT);

  g_autoptr (FlBench) bench = fl_bench_new (quick);
  run.bench = bench;
  g_autoptr (FlApplication) app = fl_application_new (G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "window-added", G_CALLBACK (on_window_added), &run);
  char *app_argv[] = { argv[0], NULL };
  run.launch_ns = (gint64) fl_bench_now_ns ();
  int status = g_application_run (G_APPLICATION (app), 1, app_argv);

  g_unlink (run.scenario);
  g_free (run.scenario);
  remove_tree (dir);
  if (run.error != NULL || !run.done || status != 0)
    {
      g_printerr ("faultline-bench-window: %s\n",
                  run.error ? run.error->message : "the application ended early");
      g_clear_error (&run.error);
      return 1;
    }
  if (results && !fl_bench_save_results (bench, results, &error))
    {
      g_printerr ("faultline-bench-window: cannot write %s: %s\n", results, error->message);
      return 1;
    }
  if (results)
    printf ("wrote %s\n", results);
  return 0;
}
