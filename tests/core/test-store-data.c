/* Tests of what the store keeps: scenarios, runs with their events and findings, bookmarks,
 * benchmark rows, and the .fault export and import. */
#include "store-helpers.h"

/* A valid scenario written the way people write them: a CRLF line, spaces around '=', an
 * empty tag, no final newline. Stored and exported byte for byte. */
static const char spf_text[] =
  "# munmap races a speculative fault\r\n"
  "[scenario]\n"
  "title = munmap races a speculative fault\n"
  "tags=race; munmap ;;rcu\n"
  "\n"
  "[config]\n"
  "cpus=2\n"
  "\n"
  "[mm]\n"
  "vma=0x7f0000000000-0x7f0000004000 rw- anon\n"
  "\n"
  "[cpu0]\n"
  "ops=fault 0x7f0000001000 write  # the racing fault";

static FlStore *
open_store (FlStoreFixture *fx)
{
  g_autoptr (GError) error = NULL;
  FlStore *store = fl_store_open (fx->db, FL_STORE_OPEN_CREATE, &error);
  g_assert_no_error (error);
  return store;
}

static const FlStoredScenario *
nth (GPtrArray *list, guint i)
{
  g_assert_cmpuint (i, <, list->len);
  return list->pdata[i];
}

/* ---- scenarios ------------------------------------------------------------------------------ */

static void
test_scenarios (FlStoreFixture *fx, gconstpointer data)
{
  g_autoptr (FlStore) store = open_store (fx);
  g_autoptr (GError) error = NULL;
  const char *race_tags[] = { "race", "munmap", NULL };
  const char *bench_tags[] = { "bench", "50%_off", NULL };
  gint64 a = 0, b = 0, c = 0, again = 0, changed = 0;

  g_assert_true (fl_store_save_scenario (store, "spf-vs-munmap", "munmap races a fault",
                                         race_tags, spf_text, &a, &error));
  g_assert_true (fl_store_save_scenario (store, "page-fault1", "will-it-scale page_fault1",
                                         bench_tags, "[scenario]\ncpus=8\n", &b, &error));
  g_assert_true (fl_store_save_scenario (store, "empty", "Nothing", NULL, "", &c, &error));
  g_assert_no_error (error);
  g_assert_cmpint (a, >, 0);
  g_assert_cmpint (b, !=, a);

  /* Same name and text: the same scenario, retitled. A new text: a new scenario. */
  g_assert_true (fl_store_save_scenario (store, "spf-vs-munmap", "Munmap vs SPF", race_tags,
                                         spf_text, &again, &error));
  g_assert_cmpint (again, ==, a);
  g_assert_true (fl_store_save_scenario (store, "spf-vs-munmap", "Munmap vs SPF", race_tags,
                                         "[scenario]\ncpus=4\n", &changed, &error));
  g_assert_cmpint (changed, !=, a);

  g_autoptr (GPtrArray) all = fl_store_list_scenarios (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (all->len, ==, 4);
  g_assert_cmpstr (nth (all, 0)->name, ==, "empty");
  g_assert_cmpuint (g_strv_length (nth (all, 0)->tags), ==, 0);
  g_assert_cmpstr (nth (all, 1)->name, ==, "page-fault1");
  g_assert_cmpstr (nth (all, 2)->title, ==, "Munmap vs SPF");
  g_assert_cmpstr (nth (all, 2)->text, ==, spf_text);
  g_assert_cmpuint (g_strv_length (nth (all, 2)->tags), ==, 2);
  g_assert_cmpstr (nth (all, 2)->tags[1], ==, "munmap");
  g_assert_cmpint (nth (all, 2)->created, >, 1600000000);

  struct { const char *query; guint n; } searches[] = {
    { "munmap", 2 },           /* title, tag or name */
    { "MUNMAP", 2 },           /* ASCII case does not matter */
    { "0x7f0000001000", 1 },   /* the text */
    { "bench", 1 },            /* a tag */
    { "50%_", 1 },             /* % and _ are characters, not wildcards */
    { "5_%", 0 },
    { "%", 1 },
    { "nowhere", 0 },
    { "", 4 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (searches); i++)
    {
      g_autoptr (GPtrArray) found = fl_store_search_scenarios (store, searches[i].query, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (found->len, ==, searches[i].n);
    }

  g_autoptr (FlStoredScenario) got = fl_store_get_scenario (store, b, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (got->tags[1], ==, "50%_off");

  /* Tags are ';'-joined, so a tag may not hold a ';'. */
  const char *bad_tags[] = { "a;b", NULL };
  g_assert_false (fl_store_save_scenario (store, "x", "x", bad_tags, "", NULL, &error));
  g_assert_error (error, FL_STORE_ERROR, FL_STORE_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (fl_store_save_scenario (store, "x", "x", NULL, "\xff\xfe", NULL, &error));
  g_assert_error (error, FL_STORE_ERROR, FL_STORE_ERROR_INVALID);
  g_clear_error (&error);

  g_assert_true (fl_store_delete_scenario (store, b, &error));
  g_assert_no_error (error);
  g_assert_null (fl_store_get_scenario (store, b, &error));
  g_assert_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_false (fl_store_delete_scenario (store, b, &error));
  g_assert_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_autoptr (GPtrArray) left = fl_store_list_scenarios (store, NULL);
  g_assert_cmpuint (left->len, ==, 3);
}

/* Deleting a scenario takes its runs, their events, findings and bookmarks along. */
static void
test_scenario_delete_cascades (FlStoreFixture *fx, gconstpointer data)
{
  g_autoptr (FlStore) store = open_store (fx);
  g_autoptr (GError) error = NULL;
  gint64 doomed = fl_store_test_save_scenario (store, "doomed");
  gint64 kept = fl_store_test_save_scenario (store, "kept");
  g_autoptr (GArray) events = fl_store_test_events (0, 2000, 3);
  gint64 run1 = fl_store_test_record (store, doomed, events, 500);
  gint64 run2 = fl_store_test_record (store, kept, events, 500);
  gint64 mark1 = 0;
  g_assert_true (fl_store_add_bookmark (store, run1, 10, "gone", NULL, &mark1, &error));
  g_assert_true (fl_store_add_bookmark (store, run2, 10, "stays", NULL, NULL, &error));
  g_assert_no_error (error);

  g_assert_true (fl_store_delete_scenario (store, doomed, &error));
  g_assert_no_error (error);
  g_assert_null (fl_store_get_run (store, run1, &error));
  g_assert_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_null (fl_store_get_bookmark (store, mark1, &error));
  g_assert_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_autoptr (GArray) none = g_array_new (FALSE, TRUE, sizeof (FlEvent));
  g_assert_true (fl_store_load_events (store, run1, 0, G_MAXUINT32, none, &error));
  g_assert_cmpuint (none->len, ==, 0);
  fl_store_test_assert_run_events (store, run2, events);
  g_autoptr (GPtrArray) marks = fl_store_list_bookmarks (store, run2, &error);
  g_assert_cmpuint (marks->len, ==, 1);

  g_assert_true (fl_store_delete_run (store, run2, &error));
  g_assert_no_error (error);
  g_assert_true (fl_store_load_events (store, run2, 0, G_MAXUINT32, none, &error));
  g_assert_cmpuint (none->len, ==, 0);
  g_autoptr (GPtrArray) no_marks = fl_store_list_bookmarks (store, run2, &error);
  g_assert_cmpuint (no_marks->len, ==, 0);
  g_assert_false (fl_store_delete_run (store, run2, &error));
  g_assert_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_FOUND);
}

static void
test_export_import (FlStoreFixture *fx, gconstpointer data)
{
  g_autoptr (FlStore) store = open_store (fx);
  g_autoptr (GError) error = NULL;
  gint64 id = 0, imported = 0, twice = 0;
  g_assert_true (fl_store_save_scenario (store, "spf-vs-munmap", "t", NULL, spf_text, &id,
                                         &error));

  g_autofree char *path = g_build_filename (fx->dir, "race.fault", NULL);
  g_assert_true (fl_store_export_scenario (store, id, path, &error));
  g_assert_no_error (error);
  g_autofree char *written = NULL;
  gsize length = 0;
  g_assert_true (g_file_get_contents (path, &written, &length, NULL));
  g_assert_cmpuint (length, ==, strlen (spf_text));
  g_assert_cmpmem (written, length, spf_text, strlen (spf_text));

  g_assert_true (fl_store_import_scenario (store, path, &imported, &error));
  g_assert_no_error (error);
  g_assert_cmpint (imported, !=, id);   /* another name: the file stem */
  g_autoptr (FlStoredScenario) got = fl_store_get_scenario (store, imported, &error);
  g_assert_cmpstr (got->name, ==, "race");
  g_assert_cmpstr (got->title, ==, "munmap races a speculative fault");
  g_assert_cmpstr (got->text, ==, spf_text);
  g_assert_cmpuint (g_strv_length (got->tags), ==, 3);
  g_assert_cmpstr (got->tags[0], ==, "race");
  g_assert_cmpstr (got->tags[1], ==, "munmap");
  g_assert_cmpstr (got->tags[2], ==, "rcu");
  g_assert_true (fl_store_import_scenario (store, path, &twice, &error));
  g_assert_cmpint (twice, ==, imported);

  /* Extra tags join the file's own, once each. */
  const char *extra[] = { "review", "rcu", NULL };
  gint64 tagged = 0;
  g_assert_true (fl_store_import_scenario_tagged (store, path, extra, &tagged, &error));
  g_assert_no_error (error);
  g_assert_cmpint (tagged, ==, imported);
  g_autoptr (FlStoredScenario) retagged = fl_store_get_scenario (store, tagged, &error);
  g_assert_cmpuint (g_strv_length (retagged->tags), ==, 4);
  g_assert_cmpstr (retagged->tags[3], ==, "review");
  g_autofree char *missing = g_build_filename (fx->dir, "missing.fault", NULL);
  g_assert_false (fl_store_import_scenario (store, missing, NULL, &error));
  g_assert_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_autofree char *binary = g_build_filename (fx->dir, "binary.fault", NULL);
  g_assert_true (g_file_set_contents (binary, "[scenario]\ntitle=x\0\n", 19, NULL));
  g_assert_false (fl_store_import_scenario (store, binary, NULL, &error));
  g_assert_error (error, FL_STORE_ERROR, FL_STORE_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "binary.fault:2: NUL byte"));
  g_clear_error (&error);
  g_autofree char *nowhere = g_build_filename (fx->dir, "no", "such", "dir.fault", NULL);
  g_assert_false (fl_store_export_scenario (store, id, nowhere, &error));
  g_assert_nonnull (strstr (error->message, nowhere));
}

/* A file the scenario parser refuses is refused with the parser's FILE:LINE: message, and
 * the store does not change. */
static void
test_import_refuses_bad_scenarios (FlStoreFixture *fx, gconstpointer data)
{
  g_autoptr (FlStore) store = open_store (fx);
  g_autoptr (GError) error = NULL;
  fl_store_test_save_scenario (store, "kept");
  static const struct { const char *text; const char *where; } cases[] = {
    { "[mm]\nvma=0x1000-0x2000 rw- anon\n", ":1: no [scenario] section" },
    { "[scenario]\ntitle=t\n\n[cpu0]\nops=fault 0x1000 sideways\n", ":5: " },
    { "[scenario]\ntitle=t\ncpus=2\n", ":3: configuration key 'cpus' in [scenario]" },
    { "[scenario]\ntitle=t\ntitle=again\n", ":3: duplicate key 'title'" },
    { "[scenario]\ntitle=t\n[config]\ncpus=99999\n", ":4: " },
    { "[scenario]\ntitle=\xff\xfe\n", ":2: invalid UTF-8" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("bad%u.fault", i);
      g_autofree char *path = g_build_filename (fx->dir, name, NULL);
      g_assert_true (g_file_set_contents (path, cases[i].text, -1, NULL));
      gint64 id = -7;
      g_assert_false (fl_store_import_scenario (store, path, &id, &error));
      g_assert_error (error, FL_STORE_ERROR, FL_STORE_ERROR_INVALID);
      g_test_message ("%s", error->message);
      g_autofree char *where = g_strdup_printf ("%s%s", path, cases[i].where);
      g_assert_nonnull (strstr (error->message, where));
      g_assert_cmpint (id, ==, -7);
      g_clear_error (&error);
    }
  g_autoptr (GPtrArray) all = fl_store_list_scenarios (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (all->len, ==, 1);
  g_assert_cmpstr (nth (all, 0)->name, ==, "kept");
}

/* ---- runs and events ---------------------------------------------------------------------- */

/* 100k events in one run, read back whole and by ranges: the same bytes as written. */
static void
test_events_by_range (FlStoreFixture *fx, gconstpointer data)
{
  g_autoptr (FlStore) store = open_store (fx);
  g_autoptr (GError) error = NULL;
  gint64 scenario = fl_store_test_save_scenario (store, "range");
  g_autoptr (GArray) events = fl_store_test_events (0, 100000, 5);
  gint64 run = fl_store_test_record (store, scenario, events, 7919);
  g_autoptr (GArray) other = fl_store_test_events (0, 1000, 6);
  fl_store_test_record (store, scenario, other, 1000);

  fl_store_test_assert_run_events (store, run, events);

  const FlEvent *all = (const FlEvent *) events->data;
  guint32 last_step = all[events->len - 1].step;
  GRand *rand = g_rand_new_with_seed (17);
  for (guint trial = 0; trial < 200; trial++)
    {
      guint32 first = g_rand_int_range (rand, 0, last_step + 10);
      guint32 last = first + g_rand_int_range (rand, 0, trial % 10 == 0 ? 20000 : 300);
      if (trial == 0)
        first = 0, last = 0;
      /* What the range should hold: the stream is in step order. */
      gsize lo = 0, hi;
      while (lo < events->len && all[lo].step < first)
        lo++;
      for (hi = lo; hi < events->len && all[hi].step <= last; hi++)
        ;
      g_autoptr (GArray) back = g_array_new (FALSE, FALSE, sizeof (FlEvent));
      FlEvent sentinel = { .step = 4242, .obj = 1 };
      g_array_append_val (back, sentinel);   /* appended to, never replaced */
      g_assert_true (fl_store_load_events (store, run, first, last, back, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (back->len, ==, 1 + hi - lo);
      g_assert_cmpuint (g_array_index (back, FlEvent, 0).step, ==, 4242);
      fl_store_test_assert_events_equal (&g_array_index (back, FlEvent, 1), all + lo, hi - lo);
    }
  g_rand_free (rand);
}

static void
test_runs (FlStoreFixture *fx, gconstpointer data)
{
  g_autoptr (FlStore) store = open_store (fx);
  g_autoptr (GError) error = NULL;
  gint64 s1 = fl_store_test_save_scenario (store, "one");
  gint64 s2 = fl_store_test_save_scenario (store, "two");
  g_autoptr (GArray) events = fl_store_test_events (0, 300, 8);

  FlStoreRunInfo info = { .config = "fault-path=locked", .seed = G_MAXUINT64, .created = 77 };
  gint64 run = 0;
  g_assert_true (fl_store_begin_run (store, s1, &info, &run, &error));
  g_assert_true (fl_store_is_recording (store));
  g_assert_true (fl_store_add_events (store, run, (const FlEvent *) events->data, 100, &error));
  g_assert_true (fl_store_add_finding (store, run, 40, 1, "use-after-free",
                                       "cpu1 read vma 3 after it was freed", &error));
  g_assert_true (fl_store_add_finding (store, run, 12, 0, "stale-mapping", "pte 5", &error));
  g_assert_true (fl_store_add_events (store, run, &g_array_index (events, FlEvent, 100), 200,
                                      &error));
  g_assert_no_error (error);

  /* While recording, the unfinished run is invisible and other writes wait their turn. */
  g_autoptr (GPtrArray) during = fl_store_list_runs (store, s1, &error);
  g_assert_cmpuint (during->len, ==, 0);
  g_assert_false (fl_store_save_scenario (store, "x", "x", NULL, "", NULL, &error));
  g_assert_error (error, FL_STORE_ERROR, FL_STORE_ERROR_BUSY);
  g_clear_error (&error);
  g_assert_false (fl_store_begin_run (store, s1, &info, NULL, &error));
  g_assert_error (error, FL_STORE_ERROR, FL_STORE_ERROR_BUSY);
  g_clear_error (&error);

  g_assert_true (fl_store_finish_run (store, run, 300, G_MAXUINT64 - 1, "deadbeef", 2, "broken",
                                      &error));
  g_assert_no_error (error);
  g_assert_false (fl_store_is_recording (store));

  g_autoptr (FlStoredRun) got = fl_store_get_run (store, run, &error);
  g_assert_no_error (error);
  g_assert_cmpint (got->scenario_id, ==, s1);
  g_assert_cmpstr (got->scenario_name, ==, "one");
  g_assert_nonnull (strstr (got->scenario_text, "title=one"));
  g_assert_cmpstr (got->config, ==, "fault-path=locked");
  g_assert_cmpuint (got->seed, ==, G_MAXUINT64);
  g_assert_cmpuint (got->steps, ==, 300);
  g_assert_cmpuint (got->cycles, ==, G_MAXUINT64 - 1);
  g_assert_cmpstr (got->hash, ==, "deadbeef");
  g_assert_cmpuint (got->findings, ==, 2);
  g_assert_cmpstr (got->verdict, ==, "broken");
  g_assert_cmpint (got->created, ==, 77);
  fl_store_test_assert_run_events (store, run, events);

  g_autoptr (GPtrArray) findings = fl_store_list_findings (store, run, &error);
  g_assert_cmpuint (findings->len, ==, 2);
  FlStoredFinding *f0 = findings->pdata[0], *f1 = findings->pdata[1];
  g_assert_cmpuint (f0->step, ==, 12);
  g_assert_cmpstr (f0->kind, ==, "stale-mapping");
  g_assert_cmpuint (f1->cpu, ==, 1);
  g_assert_cmpstr (f1->message, ==, "cpu1 read vma 3 after it was freed");

  /* An aborted run leaves nothing, not even its id in the lists. */
  gint64 aborted = 0;
  g_assert_true (fl_store_begin_run (store, s2, &info, &aborted, &error));
  g_assert_true (fl_store_add_events (store, aborted, (const FlEvent *) events->data, 300,
                                      &error));
  fl_store_abort_run (store, aborted);
  g_assert_false (fl_store_is_recording (store));
  g_assert_false (fl_store_add_events (store, aborted, (const FlEvent *) events->data, 1, &error));
  g_assert_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  gint64 run2 = fl_store_test_record (store, s2, events, 64);

  g_autoptr (GPtrArray) of_s1 = fl_store_list_runs (store, s1, &error);
  g_autoptr (GPtrArray) of_s2 = fl_store_list_runs (store, s2, &error);
  g_autoptr (GPtrArray) of_all = fl_store_list_runs (store, 0, &error);
  g_assert_cmpuint (of_s1->len, ==, 1);
  g_assert_cmpuint (of_s2->len, ==, 1);
  g_assert_cmpint (((FlStoredRun *) of_s2->pdata[0])->id, ==, run2);
  g_assert_cmpuint (of_all->len, ==, 2);

  /* A run of a scenario that does not exist. */
  g_assert_false (fl_store_begin_run (store, 999, &info, NULL, &error));
  g_assert_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_FOUND);
  g_assert_false (fl_store_is_recording (store));
}

/* Steps never go back within a stream: a batch that does ends the recording. */
static void
test_events_out_of_order (FlStoreFixture *fx, gconstpointer data)
{
  g_autoptr (FlStore) store = open_store (fx);
  g_autoptr (GError) error = NULL;
  gint64 scenario = fl_store_test_save_scenario (store, "order");
  FlStoreRunInfo info = { .config = "" };
  gint64 run = 0;
  FlEvent events[3] = { { .step = 5 }, { .step = 5 }, { .step = 4 } };
  g_assert_true (fl_store_begin_run (store, scenario, &info, &run, &error));
  g_assert_true (fl_store_add_events (store, run, events, 2, &error));
  g_assert_false (fl_store_add_events (store, run, events + 2, 1, &error));
  g_assert_error (error, FL_STORE_ERROR, FL_STORE_ERROR_CONSTRAINT);
  g_assert_false (fl_store_is_recording (store));
  g_autoptr (GPtrArray) runs = fl_store_list_runs (store, 0, NULL);
  g_assert_cmpuint (runs->len, ==, 0);
}

/* Closing in the middle of a recording drops the run. */
static void
test_close_while_recording (FlStoreFixture *fx, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) events = fl_store_test_events (0, 5000, 4);
  gint64 kept;
  {
    g_autoptr (FlStore) store = open_store (fx);
    gint64 scenario = fl_store_test_save_scenario (store, "close");
    kept = fl_store_test_record (store, scenario, events, 5000);
    FlStoreRunInfo info = { .config = "" };
    gint64 run = 0;
    g_assert_true (fl_store_begin_run (store, scenario, &info, &run, &error));
    g_assert_true (fl_store_add_events (store, run, (const FlEvent *) events->data, 5000, &error));
  }
  g_autoptr (FlStore) store = open_store (fx);
  g_autoptr (GPtrArray) runs = fl_store_list_runs (store, 0, &error);
  g_assert_cmpuint (runs->len, ==, 1);
  fl_store_test_assert_run_events (store, kept, events);
}

/* ---- bookmarks and benchmark rows ---------------------------------------------------------- */

static void
test_bookmarks (FlStoreFixture *fx, gconstpointer data)
{
  g_autoptr (FlStore) store = open_store (fx);
  g_autoptr (GError) error = NULL;
  gint64 scenario = fl_store_test_save_scenario (store, "marks");
  g_autoptr (GArray) events = fl_store_test_events (0, 100, 9);
  gint64 run = fl_store_test_record (store, scenario, events, 100);
  gint64 other = fl_store_test_record (store, scenario, events, 100);

  gint64 late = 0, early = 0, same = 0, elsewhere = 0;
  g_assert_true (fl_store_add_bookmark (store, run, 80, "grace period ends",
                                        "the VMA is freed only now", &late, &error));
  g_assert_true (fl_store_add_bookmark (store, run, 3, "rcu_read_lock", NULL, &early, &error));
  g_assert_true (fl_store_add_bookmark (store, run, 80, "same step, later", "ü ✓", &same,
                                        &error));
  g_assert_true (fl_store_add_bookmark (store, other, 1, "other run", "", &elsewhere, &error));
  g_assert_no_error (error);

  g_autoptr (GPtrArray) list = fl_store_list_bookmarks (store, run, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (list->len, ==, 3);
  FlStoredBookmark *m0 = list->pdata[0], *m1 = list->pdata[1], *m2 = list->pdata[2];
  g_assert_cmpint (m0->id, ==, early);
  g_assert_cmpstr (m0->note, ==, "");
  g_assert_cmpint (m1->id, ==, late);
  g_assert_cmpstr (m1->title, ==, "grace period ends");
  g_assert_cmpstr (m1->note, ==, "the VMA is freed only now");
  g_assert_cmpint (m1->run_id, ==, run);
  g_assert_cmpuint (m1->step, ==, 80);
  g_assert_cmpint (m1->updated, ==, m1->created);
  g_assert_cmpint (m2->id, ==, same);
  g_assert_cmpstr (m2->note, ==, "ü ✓");

  g_assert_true (fl_store_edit_bookmark (store, late, 2, "moved", "first now", &error));
  g_assert_no_error (error);
  g_autoptr (FlStoredBookmark) edited = fl_store_get_bookmark (store, late, &error);
  g_assert_cmpstr (edited->title, ==, "moved");
  g_assert_cmpstr (edited->note, ==, "first now");
  g_assert_cmpuint (edited->step, ==, 2);
  g_assert_cmpint (edited->updated, >=, edited->created);
  g_autoptr (GPtrArray) reordered = fl_store_list_bookmarks (store, run, &error);
  g_assert_cmpint (((FlStoredBookmark *) reordered->pdata[0])->id, ==, late);

  g_assert_true (fl_store_delete_bookmark (store, early, &error));
  g_assert_false (fl_store_delete_bookmark (store, early, &error));
  g_assert_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_false (fl_store_edit_bookmark (store, early, 1, "x", NULL, &error));
  g_assert_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_false (fl_store_add_bookmark (store, 12345, 1, "no run", NULL, NULL, &error));
  g_assert_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);

  g_autoptr (GPtrArray) final = fl_store_list_bookmarks (store, run, &error);
  g_assert_cmpuint (final->len, ==, 2);
  g_autoptr (GPtrArray) others = fl_store_list_bookmarks (store, other, &error);
  g_assert_cmpuint (others->len, ==, 1);
  g_assert_cmpint (((FlStoredBookmark *) others->pdata[0])->id, ==, elsewhere);
}

static void
test_bench (FlStoreFixture *fx, gconstpointer data)
{
  g_autoptr (FlStore) store = open_store (fx);
  g_autoptr (GError) error = NULL;
  for (guint cpus = 8; cpus >= 1; cpus /= 2)
    {
      FlStoredBench row = { .workload = "page-fault1", .config = "rwsem=xadd", .cpus = cpus,
                            .faults = cpus * 1000, .cycles = G_MAXUINT64 / cpus,
                            .faults_per_sec = 1e6 / cpus, .ratio = 1.0 / cpus, .created = 5 };
      g_assert_true (fl_store_add_bench (store, &row, NULL, &error));
      g_assert_no_error (error);
    }
  FlStoredBench other = { .workload = "mmap-munmap", .config = "", .cpus = 2 };
  gint64 other_id = 0;
  g_assert_true (fl_store_add_bench (store, &other, &other_id, &error));

  g_autoptr (GPtrArray) rows = fl_store_list_bench (store, "page-fault1", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, 4);
  FlStoredBench *first = rows->pdata[0];
  g_assert_cmpuint (first->cpus, ==, 1);
  g_assert_cmpuint (first->cycles, ==, G_MAXUINT64);
  g_assert_cmpfloat (first->faults_per_sec, ==, 1e6);
  g_assert_cmpfloat (((FlStoredBench *) rows->pdata[3])->ratio, ==, 0.125);
  g_assert_cmpint (first->created, ==, 5);
  g_autoptr (GPtrArray) all = fl_store_list_bench (store, NULL, &error);
  g_assert_cmpuint (all->len, ==, 5);
  g_assert_cmpint (((FlStoredBench *) all->pdata[0])->id, ==, other_id);
  g_assert_cmpint (((FlStoredBench *) all->pdata[0])->created, >, 1600000000);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, fn) \
  g_test_add ("/core/store/" path, FlStoreFixture, NULL, fl_store_fixture_set_up, fn, \
              fl_store_fixture_tear_down)
  ADD ("scenarios/save-list-search-delete", test_scenarios);
  ADD ("scenarios/delete-cascades", test_scenario_delete_cascades);
  ADD ("scenarios/export-import", test_export_import);
  ADD ("scenarios/import-refuses-bad", test_import_refuses_bad_scenarios);
  ADD ("runs/events-by-range", test_events_by_range);
  ADD ("runs/record-list-get", test_runs);
  ADD ("runs/out-of-order", test_events_out_of_order);
  ADD ("runs/close-while-recording", test_close_while_recording);
  ADD ("bookmarks/round-trip", test_bookmarks);
  ADD ("bench/round-trip", test_bench);
#undef ADD
  return g_test_run ();
}
