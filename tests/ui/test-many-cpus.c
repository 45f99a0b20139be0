/* The window at 2, 8, 64 and 256 CPUs (issue 18 item 4), at 1024×700, 1280×800 and
 * 1920×1080: every lane shown is named by a label that sits on it, in readable type, and a
 * lane scrolled out of view comes back when its CPU is selected; the RCU view names the
 * CPUs of its grid; the cache view's columns are wide enough for their heads, and the CPUs
 * without a column are counted. What is checked is what the painters drew: their texts and
 * boxes (fl_view_texts), and what a click lands on (fl_lanes_hit). */

#include <stdlib.h>
#include <string.h>

#include "fl-lanes-area.h"
#include "fl-view-area.h"
#include "ui-test-helpers.h"

/* The smallest text a label may be drawn at, in pixels of its line. */
#define READABLE_LINE 10.0
/* The narrowest a cache column may be: its head's number and a letter. */
#define READABLE_COLUMN 14.0

typedef struct {
  guint       ncpus;
  const char *sets[4][2];
} Machine;

static const Machine machines[] = {
  { 2, { { "cpus", "2" } } },
  { 8, { { "cpus", "8" } } },
  { 64, { { "sockets", "2" }, { "cores-per-socket", "32" }, { "cpus", "64" } } },
  { 256, { { "sockets", "8" }, { "cores-per-socket", "32" }, { "cpus", "256" } } },
};

static const int sizes[][2] = { { 1024, 700 }, { 1280, 800 }, { 1920, 1080 } };

/* A panel below 360×200 is drawn at that size and shrunk (fl_paint_fit_scale()): at
 * 1024×700 the RCU and cache panels are about 120 px tall, so their type shrinks with them
 * (the small-screen layout is issue 18 item 9). */
static double
fl_fit (const FlViewport *viewport)
{
  return MIN (1.0, MIN (viewport->width / 360, viewport->height / 200));
}

/* The window's panel for `view`, as the painters get it. The test's X screen may be smaller
 * than the size asked for (make test's is 1600×1000): the panel is then taken as large as
 * it would be, scaled by what the window lacks, and checked on the painters at that size. */
static double scale_w = 1, scale_h = 1;

static void
fl_get_viewport (FlViewArea *area, FlViewport *viewport)
{
  fl_view_area_get_viewport (area, viewport);
  viewport->width = floor (viewport->width * scale_w);
  viewport->height = floor (viewport->height * scale_h);
}

/* The CPU a text names when it is exactly "cpuN", else -1. */
static int
fl_cpu_named (const char *text)
{
  char *end;
  long n;

  if (!g_str_has_prefix (text, "cpu") || !g_ascii_isdigit (text[3]))
    return -1;
  n = strtol (text + 3, &end, 10);
  return *end == '\0' ? (int) n : -1;
}

static void fl_check_lanes_at (const FlCursor *cursor, const FlViewport *viewport, guint ncpus,
                               const char *where);

static void
fl_check_lanes (const FlCursor *cursor, FlViewArea *lanes, guint ncpus, const char *where)
{
  FlViewport viewport;

  fl_get_viewport (lanes, &viewport);
  fl_check_lanes_at (cursor, &viewport, ncpus, where);
  /* and at every height the paned may give them, from its least up */
  for (double height = 110; height <= viewport.height; height += 3)
    {
      FlViewport shorter = viewport;
      g_autofree char *at = g_strdup_printf ("%s, lanes %.0f px tall", where, height);

      shorter.height = height;
      fl_check_lanes_at (cursor, &shorter, ncpus, at);
    }
}

static void
fl_check_lanes_at (const FlCursor *cursor, const FlViewport *at, guint ncpus, const char *where)
{
  FlViewport viewport = *at;
  g_autoptr(GArray) texts = NULL;
  g_autofree gboolean *named = g_new0 (gboolean, ncpus);
  double x0, width;
  guint first, shown;

  g_assert_true (fl_lanes_time_axis (cursor, &viewport, &x0, &width, NULL, NULL));
  shown = fl_lanes_shown (cursor, &viewport, &first);
  if (viewport.height == at->height && strstr (where, "tall") == NULL)
    g_test_message ("%s: lanes %ux%u px show cpu%u..cpu%u", where, (guint) viewport.width,
                    (guint) viewport.height, first, first + shown - 1);
  /* two at the least the lanes widget is given (110 px), more from there */
  g_assert_cmpuint (shown, >=, MIN (ncpus, viewport.height >= 140 ? 3u : 2u));

  texts = fl_view_texts (FL_VIEW_LANES, cursor, &viewport);
  for (guint i = 0; i < texts->len; i++)
    {
      const FlElidedText *t = &g_array_index (texts, FlElidedText, i);
      int cpu = fl_cpu_named (t->text);
      double y = t->y + t->height / 2;
      guint hit_cpu = G_MAXUINT;

      if (cpu < 0 || t->x >= x0)
        continue;
      /* a label left of the lanes names the lane at its height: a click there lands on
       * it (a lane without events takes no clicks) */
      if (fl_lanes_hit (cursor, &viewport, x0 + 1, y, &hit_cpu, NULL) && hit_cpu != (guint) cpu)
        g_error ("%s: the label %s at y %.1f lies on the lane of cpu%u", where, t->text, y,
                 hit_cpu);
      double top, height;
      g_assert_true (fl_lanes_lane_box (cursor, &viewport, (guint) cpu, &top, &height));
      g_assert_cmpfloat (y, >=, top);
      g_assert_cmpfloat (y, <=, top + height);
      g_assert_cmpfloat (t->height, >=, READABLE_LINE);
      named[cpu] = TRUE;
    }
  for (guint c = first; c < first + shown; c++)
    if (!named[c])
      g_error ("%s: the lane of cpu%u has no label", where, c);
}

/* Every CPU is named in the RCU view: by a chip of its own, or by the row of the grid it
 * is in, whose label ("cpu32") sits on that row. */
static void
fl_check_rcu (const FlCursor *cursor, FlViewArea *rcu, guint ncpus, const char *where)
{
  FlViewport viewport;
  g_autoptr(GArray) texts = NULL;
  g_autoptr(GArray) labels = g_array_new (FALSE, FALSE, sizeof (int));

  fl_get_viewport (rcu, &viewport);
  texts = fl_view_texts (FL_VIEW_RCU, cursor, &viewport);
  for (guint i = 0; i < texts->len; i++)
    {
      const FlElidedText *t = &g_array_index (texts, FlElidedText, i);
      int cpu = fl_cpu_named (t->text);

      if (cpu < 0)
        continue;
      g_assert_cmpint (cpu, <, (int) ncpus);
      g_assert_cmpfloat (t->height, >=, READABLE_LINE * 0.9 * fl_fit (&viewport));
      g_array_append_val (labels, cpu);
    }
  g_test_message ("%s: RCU %ux%u px names %u CPUs or rows", where, (guint) viewport.width,
                  (guint) viewport.height, labels->len);
  g_assert_cmpuint (labels->len, >, 0);
  /* cpu0, then evenly spaced: each label is where its row of CPUs starts */
  g_assert_cmpint (g_array_index (labels, int, 0), ==, 0);
  int stride = labels->len > 1 ? g_array_index (labels, int, 1) : (int) ncpus;
  g_assert_cmpint (stride, >, 0);
  for (guint i = 1; i < labels->len; i++)
    g_assert_cmpint (g_array_index (labels, int, i), ==, (int) i * stride);
  g_assert_cmpint (g_array_index (labels, int, labels->len - 1) + stride, >=, (int) ncpus);
}

/* The cache view's column heads (the CPU numbers in its first row) stand a readable
 * column apart, and when some CPUs have no column, the view says how many. */
static void
fl_check_cache (const FlCursor *cursor, FlViewArea *cache, guint ncpus, const char *where)
{
  FlViewport viewport;
  g_autoptr(GArray) texts = NULL;
  g_autoptr(GArray) heads = g_array_new (FALSE, FALSE, sizeof (FlElidedText));
  double head_y = G_MAXDOUBLE;
  g_autofree char *more = NULL;
  gboolean counted = FALSE;
  guint distinct = 0;

  fl_get_viewport (cache, &viewport);
  texts = fl_view_texts (FL_VIEW_CACHE, cursor, &viewport);
  for (guint i = 0; i < texts->len; i++)
    {
      const FlElidedText *t = &g_array_index (texts, FlElidedText, i);
      const char *digits = g_str_has_prefix (t->text, "cpu") ? t->text + 3 : t->text;

      if (*digits != '\0' && strspn (digits, "0123456789") == strlen (digits))
        head_y = MIN (head_y, t->y);
    }
  for (guint i = 0; i < texts->len; i++)
    {
      const FlElidedText *t = &g_array_index (texts, FlElidedText, i);
      const char *digits = g_str_has_prefix (t->text, "cpu") ? t->text + 3 : t->text;

      if (t->y > head_y + 0.5)
        continue;
      if (*digits != '\0' && strspn (digits, "0123456789") == strlen (digits))
        g_array_append_val (heads, *t);
    }
  for (guint i = 0; i < heads->len; i++)
    {
      const FlElidedText *h = &g_array_index (heads, FlElidedText, i);
      const char *digits = g_str_has_prefix (h->text, "cpu") ? h->text + 3 : h->text;

      distinct += (guint) atoi (digits) < ncpus;
      if (i > 0)
        {
          const FlElidedText *prev = &g_array_index (heads, FlElidedText, i - 1);
          double apart = (h->x + h->width / 2) - (prev->x + prev->width / 2);

          if (apart < READABLE_COLUMN * fl_fit (&viewport))
            g_error ("%s: cache columns %s and %s are %.1f px apart", where, prev->text,
                     h->text, apart);
        }
    }
  g_test_message ("%s: cache %ux%u px, %u column heads of %u CPUs", where,
                  (guint) viewport.width, (guint) viewport.height, heads->len, ncpus);
  g_assert_cmpuint (heads->len, >, 0);
  g_assert_cmpuint (distinct, ==, heads->len);
  if (heads->len == ncpus)
    return;
  /* the others are counted where their columns would be */
  more = g_strdup_printf ("+%u more", ncpus - heads->len);
  for (guint i = 0; i < texts->len; i++)
    counted |= g_strcmp0 (g_array_index (texts, FlElidedText, i).text, more) == 0;
  if (!counted)
    g_error ("%s: %u CPUs have no cache column and nothing says \"%s\"", where,
             ncpus - heads->len, more);
}

static void
fl_check_machine (GtkApplication *app, GtkWindow *window, gpointer data)
{
  const Machine *machine = data;
  FlSession *session = fl_window_get_session (FL_WINDOW (window));
  const FlCursor *cursor;

  fl_window_set_scenario (FL_WINDOW (window), "multi-fault");
  fl_test_wait_loaded (session);
  for (guint i = 0; i < G_N_ELEMENTS (machine->sets) && machine->sets[i][0] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_true (fl_session_set_switch (session, machine->sets[i][0], machine->sets[i][1],
                                            &error));
      g_assert_no_error (error);
      fl_test_wait_loaded (session);
    }
  {
    g_autoptr(GError) error = NULL;

    /* speculative faults: RCU readers to name */
    g_assert_true (fl_session_set_switch (session, "fault-path", "speculative", &error));
    fl_test_wait_loaded (session);
  }
  cursor = fl_session_get_cursor (session);
  g_assert_cmpuint (fl_cursor_get_state (cursor)->sizes.ncpus, ==, machine->ncpus);
  fl_session_seek (session, MIN (3000, fl_session_get_total_steps (session)));

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      g_autofree char *where = g_strdup_printf ("%u CPUs at %dx%d", machine->ncpus,
                                                sizes[s][0], sizes[s][1]);

      fl_test_fit_window_scaled (window, sizes[s][0], sizes[s][1], &scale_w, &scale_h);
      fl_check_lanes (cursor, fl_test_find_view (GTK_WIDGET (window), FL_VIEW_LANES), machine->ncpus, where);
      fl_check_rcu (cursor, fl_test_show_view (window, FL_VIEW_RCU), machine->ncpus, where);
      fl_check_cache (cursor, fl_test_show_view (window, FL_VIEW_CACHE), machine->ncpus, where);
    }

  /* a CPU chosen out of sight brings its lane on screen, named */
  scale_w = scale_h = 1;
  {
    FlViewArea *lanes = fl_test_find_view (GTK_WIDGET (window), FL_VIEW_LANES);
    FlViewport viewport;
    guint last = machine->ncpus - 1;

    fl_session_select_cpu (session, last);
    fl_test_settle ();
    fl_view_area_get_viewport (lanes, &viewport);
    g_assert_true (fl_lanes_lane_box (cursor, &viewport, last, NULL, NULL));
    fl_check_lanes (cursor, lanes, machine->ncpus, "after selecting the last CPU");
    fl_session_select_cpu (session, 0);
    fl_test_settle ();
    fl_view_area_get_viewport (lanes, &viewport);
    g_assert_true (fl_lanes_lane_box (cursor, &viewport, 0, NULL, NULL));
  }
}

static void
test_many_cpus (gconstpointer data)
{
  fl_test_run_application (fl_check_machine, (gpointer) data);
}

int
main (int argc, char **argv)
{
  fl_test_init_window_test (&argc, &argv);

  for (guint i = 0; i < G_N_ELEMENTS (machines); i++)
    {
      g_autofree char *path = g_strdup_printf ("/ui/many-cpus/%u", machines[i].ncpus);

      g_test_add_data_func (path, &machines[i], test_many_cpus);
    }
  return g_test_run ();
}
