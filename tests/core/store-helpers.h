#pragma once

/* Shared by the store tests: temporary folders, file digests, synthetic event streams.
 * Header-only (static inline) because each test program is built from one source file. */

#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>
#include "fl-store.h"

typedef struct {
  char *dir;
  char *db;     /* dir/test.db */
} FlStoreFixture;

static inline void
fl_store_fixture_set_up (FlStoreFixture *fx, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  fx->dir = g_dir_make_tmp ("faultline-store-XXXXXX", &error);
  g_assert_no_error (error);
  fx->db = g_build_filename (fx->dir, "test.db", NULL);
}

static inline void
fl_store_test_remove_tree (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  if (dir != NULL)
    {
      const char *name;
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);
          fl_store_test_remove_tree (child);
        }
      g_dir_close (dir);
      g_rmdir (path);
    }
  else
    {
      g_chmod (path, 0644);
      g_unlink (path);
    }
}

static inline void
fl_store_fixture_tear_down (FlStoreFixture *fx, gconstpointer data)
{
  fl_store_test_remove_tree (fx->dir);
  g_free (fx->db);
  g_free (fx->dir);
}

static inline char *
fl_store_test_sha256 (const char *path)
{
  g_autofree char *contents = NULL;
  gsize length = 0;
  g_autoptr (GError) error = NULL;
  g_file_get_contents (path, &contents, &length, &error);
  g_assert_no_error (error);
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) contents, length);
}

/* A plausible stream: one event per step with every field exercised over its whole range,
 * and now and then a second event (a finding) at the same step. Deterministic in @seed. */
static inline GArray *
fl_store_test_events (guint32 first_step, gsize n, guint32 seed)
{
  GArray *events = g_array_sized_new (FALSE, TRUE, sizeof (FlEvent), n);
  GRand *rand = g_rand_new_with_seed (seed);
  guint32 step = first_step;
  guint64 cycle = (guint64) seed << 20;
  for (gsize i = 0; i < n; i++)
    {
      FlEvent e = { 0 };
      gboolean finding = i > 0 && g_rand_int_range (rand, 0, 50) == 0;
      if (i > 0 && !finding)
        step++;
      cycle += g_rand_int_range (rand, 1, 400);
      e.step = step;
      e.cycle = i % 9973 == 0 ? G_MAXUINT64 - i : cycle;   /* the top bit must survive */
      e.cpu = (guint16) g_rand_int_range (rand, 0, 256);
      e.loc = (guint16) g_rand_int (rand);
      e.kind = finding ? FL_EV_FINDING : (guint8) g_rand_int_range (rand, 0, FL_EV_N_KINDS);
      e.xfer = (guint8) g_rand_int_range (rand, 0, 6);
      e.mesi = (guint8) g_rand_int_range (rand, 0, 4);
      e.activity = (guint8) g_rand_int_range (rand, 0, 8);
      e.line = (guint16) g_rand_int (rand);
      e.obj = g_rand_int (rand);
      e.val = i % 7 == 0 ? G_MAXUINT32 : g_rand_int (rand);
      g_array_append_val (events, e);
    }
  g_rand_free (rand);
  return events;
}

static inline void
fl_store_test_assert_events_equal (const FlEvent *a, const FlEvent *b, gsize n)
{
  for (gsize i = 0; i < n; i++)
    if (memcmp (&a[i], &b[i], sizeof (FlEvent)) != 0)
      g_error ("event %" G_GSIZE_FORMAT " differs: step %u/%u cycle %" G_GUINT64_FORMAT "/%"
               G_GUINT64_FORMAT " kind %u/%u obj %u/%u", i, a[i].step, b[i].step, a[i].cycle,
               b[i].cycle, a[i].kind, b[i].kind, a[i].obj, b[i].obj);
}

static inline gint64
fl_store_test_save_scenario (FlStore *store, const char *name)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *text = g_strdup_printf ("[scenario]\ntitle=%s\ncpus=2\n", name);
  const char *tags[] = { "test", NULL };
  gint64 id = 0;
  g_assert_true (fl_store_save_scenario (store, name, name, tags, text, &id, &error));
  g_assert_no_error (error);
  return id;
}

/* Records @events as one complete run, in batches of @batch. */
static inline gint64
fl_store_test_record (FlStore *store, gint64 scenario_id, const GArray *events, gsize batch)
{
  g_autoptr (GError) error = NULL;
  FlStoreRunInfo info = { .config = "rwsem=xadd", .seed = 42, .created = 1000 };
  gint64 run_id = 0;
  g_assert_true (fl_store_begin_run (store, scenario_id, &info, &run_id, &error));
  g_assert_no_error (error);
  for (gsize at = 0; at < events->len; at += batch)
    {
      gsize n = MIN (batch, events->len - at);
      g_assert_true (fl_store_add_events (store, run_id, &g_array_index (events, FlEvent, at), n,
                                          &error));
      g_assert_no_error (error);
    }
  guint32 last = events->len ? g_array_index (events, FlEvent, events->len - 1).step : 0;
  g_assert_true (fl_store_finish_run (store, run_id, last + 1, 12345, "c0ffee", 0, "safe",
                                      &error));
  g_assert_no_error (error);
  return run_id;
}

static inline void
fl_store_test_assert_run_events (FlStore *store, gint64 run_id, const GArray *events)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) back = g_array_new (FALSE, TRUE, sizeof (FlEvent));
  g_assert_true (fl_store_load_events (store, run_id, 0, G_MAXUINT32, back, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (back->len, ==, events->len);
  fl_store_test_assert_events_equal ((const FlEvent *) back->data,
                                     (const FlEvent *) events->data, events->len);
}
