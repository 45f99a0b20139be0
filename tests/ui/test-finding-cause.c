/* A finding shows its cause in the window: jumping to it selects the CPU that caused it, every
 * view marks (in pixels of the finding colour, and in its accessible description) the objects
 * the finding names, the step panel says what caused it, a freed page table whose lock is held
 * is drawn, and the counters say which faults are still in progress. */

#include <gtk/gtk.h>
#include <string.h>

#include "fl-paint.h"
#include "fl-view-area.h"
#include "ui-test-helpers.h"

static FlSession *
fl_open_with (GtkWindow *window, const char *scenario, const char *key, const char *value)
{
  FlSession *session = fl_window_get_session (FL_WINDOW (window));
  g_autoptr(GError) error = NULL;

  fl_window_set_scenario (FL_WINDOW (window), scenario);
  fl_test_wait_loaded (session);
  if (key != NULL)
    {
      g_assert_true (fl_session_set_switch (session, key, value, &error));
      g_assert_no_error (error);
      fl_test_wait_loaded (session);
    }
  return session;
}

/* The run's findings, of which there must be `n`. */
static const GPtrArray *
fl_findings (FlSession *session, guint n)
{
  const GPtrArray *findings = fl_run_get_findings (fl_session_get_run (session));
  g_assert_cmpuint (findings->len, ==, n);
  return findings;
}

/* The view's accessible description must hold `needle`. */
static void
fl_assert_says (GtkWindow *window, FlSession *session, FlView view, const char *needle)
{
  FlViewArea *area = fl_test_show_view (window, view);
  FlViewport viewport;
  fl_view_area_get_viewport (area, &viewport);
  g_autofree char *text = fl_view_describe (view, fl_session_get_cursor (session), &viewport);
  g_autofree char *mismatch =
    gtk_test_accessible_check_property (GTK_ACCESSIBLE (area),
                                        GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text);
  if (mismatch != NULL)
    g_error ("%s view: %s", fl_view_name (view), mismatch);
  if (strstr (text, needle) == NULL)
    g_error ("%s view does not say '%s': %s", fl_view_name (view), needle, text);
}

/* Pixels of the view in the palette's finding colour (within a small tolerance). */
static guint
fl_finding_pixels (GtkWindow *window, FlView view)
{
  FlViewArea *area = fl_test_show_view (window, view);
  g_autoptr(GdkTexture) texture = fl_test_render_widget (GTK_WIDGET (area));
  int width = gdk_texture_get_width (texture), height = gdk_texture_get_height (texture);
  g_autofree guint8 *px = g_malloc ((gsize) width * height * 4);
  FlPalette palette;
  guint n = 0;

  fl_view_area_get_palette (area, &palette);
  gdk_texture_download (texture, px, (gsize) width * 4);
  for (gsize i = 0; i < (gsize) width * height; i++)
    {
      /* BGRA, opaque: the views paint their own background */
      const guint8 *p = px + i * 4;
      if (ABS (p[2] - (int) (palette.error.r * 255)) <= 12
          && ABS (p[1] - (int) (palette.error.g * 255)) <= 12
          && ABS (p[0] - (int) (palette.error.b * 255)) <= 12)
        n++;
    }
  return n;
}

/* spf-vs-mprotect with the sequence check off: cpu1's mprotect notices the stale writable
 * PTE, cpu0's speculative fault put it there. */
static void
fl_check_mprotect (GtkApplication *app, GtkWindow *window, gpointer data)
{
  FlSession *session = fl_open_with (window, "spf-vs-mprotect", "spf-seqcheck", "off");
  const FlFinding *finding = g_ptr_array_index (fl_findings (session, 1), 0);
  g_assert_cmpuint (finding->cpu, ==, 1);

  /* before it: nothing is marked */
  fl_session_seek (session, finding->step - 1);
  guint vma_before = fl_finding_pixels (window, FL_VIEW_VMA);
  guint pte_before = fl_finding_pixels (window, FL_VIEW_PGTABLE);
  guint cache_before = fl_finding_pixels (window, FL_VIEW_CACHE);

  fl_session_select_cpu (session, 1);
  g_action_group_activate_action (G_ACTION_GROUP (window), "next-finding", NULL);
  fl_test_settle ();
  g_assert_cmpuint (fl_session_get_step (session), ==, finding->step);
  /* the cause's CPU, not the one whose step found it */
  g_assert_cmpuint (fl_session_get_selected_cpu (session), ==, 0);

  fl_assert_says (window, session, FL_VIEW_LISTING,
                  "Cause: cpu0 installed a writable PTE after cpu1's mprotect made VMA 1 "
                  "read-only, because the speculative fault's sequence check was off");
  fl_assert_says (window, session, FL_VIEW_LISTING, "(spf-seqcheck=off)");
  fl_assert_says (window, session, FL_VIEW_VMA, "Marked by the finding: VMA 1.");
  fl_assert_says (window, session, FL_VIEW_PGTABLE, "Marked by the finding: PTE 1 of page-table page");
  fl_assert_says (window, session, FL_VIEW_CACHE, "Marked by the finding: VMA 1.");
  fl_assert_says (window, session, FL_VIEW_COUNTERS, "Caused by cpu0: cpu0 installed");

  /* and in pixels: the marks are drawn in the finding colour where nothing was before */
  guint vma = fl_finding_pixels (window, FL_VIEW_VMA);
  guint pte = fl_finding_pixels (window, FL_VIEW_PGTABLE);
  guint cache = fl_finding_pixels (window, FL_VIEW_CACHE);
  g_test_message ("finding-coloured pixels before/at: vma %u/%u, page tables %u/%u, cache %u/%u",
                  vma_before, vma, pte_before, pte, cache_before, cache);
  g_assert_cmpuint (vma, >, vma_before + 200);
  g_assert_cmpuint (pte, >, pte_before + 200);
  g_assert_cmpuint (cache, >, cache_before + 200);
}

static void
test_finding_cause_mprotect (void)
{
  fl_test_run_application (fl_check_mprotect, NULL);
}

/* spf-ptl-vs-munmap as v2 posted it: munmap frees the page table whose lock cpu0 holds; the
 * page-table view draws that freed table, and the unlock's use-after-free names cpu1. */
static void
fl_check_freed_table (GtkApplication *app, GtkWindow *window, gpointer data)
{
  FlSession *session = fl_open_with (window, "spf-ptl-vs-munmap", "spf", "v2-as-posted");
  const GPtrArray *findings = fl_findings (session, 2);
  const FlFinding *freed = g_ptr_array_index (findings, 0);
  const FlFinding *unlock = g_ptr_array_index (findings, 1);
  g_assert_cmpint (freed->kind, ==, FL_FINDING_FREED_WHILE_LOCKED);

  fl_session_show_finding (session, 0);
  fl_test_settle ();
  g_autofree char *held = g_strdup_printf ("cpu0 holds the PTE lock of page-table page %u, "
                                           "which is freed.", freed->obj);
  fl_assert_says (window, session, FL_VIEW_PGTABLE, held);
  fl_assert_says (window, session, FL_VIEW_CACHE, "Marked by the finding: PTE lock");
  g_assert_cmpuint (fl_finding_pixels (window, FL_VIEW_PGTABLE), >, 200);

  /* a speculative fault is under way: counted among the faults, not yet as speculative */
  fl_assert_says (window, session, FL_VIEW_COUNTERS, "1 more speculative fault in progress.");

  /* the use-after-free of the unlock: its cause is cpu1's free, so cpu1 is selected */
  fl_session_show_finding (session, 1);
  fl_test_settle ();
  g_assert_cmpuint (unlock->cpu, ==, 0);
  g_assert_cmpuint (fl_session_get_selected_cpu (session), ==, 1);
  fl_assert_says (window, session, FL_VIEW_LISTING, "Cause: cpu1 freed page-table page");
}

static void
test_finding_cause_freed_table (void)
{
  fl_test_run_application (fl_check_freed_table, NULL);
}

int
main (int argc, char *argv[])
{
  fl_test_init_window_test (&argc, &argv);
  g_test_add_func ("/ui/finding-cause/mprotect", test_finding_cause_mprotect);
  g_test_add_func ("/ui/finding-cause/freed-table", test_finding_cause_freed_table);
  return g_test_run ();
}
