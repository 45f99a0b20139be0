/* faultline-cli explore as a user runs it: the exit status says whether a race was found,
 * --save writes a scenario that `run` replays to the same finding and events hash, the safe
 * design finds nothing, and bad input gets a one-line message and status 2. */
#include <json-glib/json-glib.h>
#include "cli-run.h"

static void
test_explore_save_replays (void)
{
  g_autofree char *dir = make_tmp ();
  g_autofree char *path = g_build_filename (dir, "uaf.fault", NULL);
  g_auto (Result) r = { 0 };
  cli (&r, "explore", "spf-vs-munmap", "--set", "vma-free=immediate", "--json", "--save", path,
       NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_autoptr (JsonParser) p = NULL;
  JsonObject *explored = parse_json (r.out, &p);
  g_assert_cmpstr (json_object_get_string_member (explored, "verdict"), ==, "found");
  g_assert_true (has_finding (explored, "use-after-free"));
  JsonObject *uaf = json_array_get_object_element (
    json_object_get_array_member (explored, "findings"), 0);
  const char *hash = json_object_get_string_member (uaf, "hash");

  /* the saved file alone: no --set, its own [schedule] */
  g_auto (Result) run = { 0 };
  cli (&run, "run", path, "--json", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_autoptr (JsonParser) q = NULL;
  JsonObject *replayed = parse_json (run.out, &q);
  g_assert_true (has_finding (replayed, "use-after-free"));
  g_assert_cmpstr (json_object_get_string_member (replayed, "hash"), ==, hash);

  /* with --all the search goes on past the bound that found it: the verdict still says
   * which bound that was, not that the search beyond the bounds found it */
  g_auto (Result) all = { 0 };
  cli (&all, "explore", "spf-vs-munmap", "--set", "vma-free=immediate", "--all", NULL);
  g_assert_cmpint (all.status, ==, 1);
  g_assert_nonnull (strstr (all.out, "Verdict    found at 2 preemptions; with --all"));
  g_assert_null (strstr (all.out, "found beyond"));
  remove_tree (dir);
}

static void
test_explore_safe (void)
{
  g_auto (Result) r = { 0 };
  cli (&r, "explore", "spf-tlb-ipi", "--preemptions", "1", "--reduction", "none", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "bounded: complete up to 1 preemption"));
  g_assert_nonnull (strstr (r.out, "Findings   none"));
  g_assert_nonnull (strstr (r.out, "schedules/s"));

  /* beyond the bound, every reachable state: the verdict is complete */
  g_auto (Result) all = { 0 };
  cli (&all, "explore", "spf-tlb-ipi", "--preemptions", "1", NULL);
  g_assert_cmpint (all.status, ==, 0);
  g_assert_nonnull (strstr (all.out, "complete: every reachable state"));
  g_assert_nonnull (strstr (all.out, "Findings   none"));
  g_assert_nonnull (strstr (all.out, "States  "));

  /* a table too small for it: bounded, stopped at exactly that many states */
  g_auto (Result) small = { 0 };
  cli (&small, "explore", "spf-tlb-ipi", "--preemptions", "1", "--max-states", "1000",
       "--json", NULL);
  g_assert_cmpint (small.status, ==, 0);
  g_assert_nonnull (strstr (small.out, "\"verdict\" : \"bounded\""));
  g_assert_nonnull (strstr (small.out, "\"stopped-by\" : \"state table full\""));
  g_assert_nonnull (strstr (small.out, "\"states\" : 1000,"));
  g_assert_nonnull (strstr (small.out, "\"max-states\" : 1000,"));
  g_auto (Result) said = { 0 };
  cli (&said, "explore", "spf-tlb-ipi", "--preemptions", "1", "--max-states", "1000", NULL);
  g_assert_nonnull (strstr (said.out, "stopped by state table full at 1000 states "
                                      "(--max-states N keeps more)"));
}

static void
test_explore_pct (void)
{
  g_auto (Result) r = { 0 };
  cli (&r, "explore", "spf-vs-munmap", "--set", "vma-free=immediate", "--schedule", "pct",
       "--depth", "2", "--runs", "200", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.out, "PCT runs of depth 2"));
  g_assert_nonnull (strstr (r.out, "with probability at least"));
  g_assert_nonnull (strstr (r.out, " of 200 runs ("));
  g_assert_nonnull (strstr (r.out, "use-after-free at step"));
}

/* Three shards of a PCT exploration, merged, say what the whole exploration says. */
static void
test_explore_shards (void)
{
  g_autofree char *dir = make_tmp ();
  g_auto (Result) whole = { 0 };
  cli (&whole, "explore", "spf-vs-munmap", "--set", "vma-free=immediate", "--schedule", "pct",
       "--depth", "2", "--runs", "300", NULL);
  g_assert_cmpint (whole.status, ==, 1);
  char *paths[3];
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *shard = g_strdup_printf ("%u/3", i);
      g_auto (Result) r = { 0 };
      cli (&r, "explore", "spf-vs-munmap", "--set", "vma-free=immediate", "--schedule", "pct",
           "--depth", "2", "--runs", "300", "--shard", shard, "--json", NULL);
      g_assert_cmpint (r.status, <=, 1);
      paths[i] = g_strdup_printf ("%s/shard%u.json", dir, i);
      g_assert_true (g_file_set_contents (paths[i], r.out, -1, NULL));
    }
  g_auto (Result) merged = { 0 };
  cli (&merged, "explore", "--merge", paths[0], paths[1], paths[2], NULL);
  g_assert_cmpint (merged.status, ==, 1);
  /* the same counts, the same run kept, the same schedule */
  const char *lines[] = { "Outcomes   ", "    in ", "steps=" };
  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    {
      const char *a = strstr (whole.out, lines[i]), *b = strstr (merged.out, lines[i]);
      g_assert_nonnull (a);
      g_assert_nonnull (b);
      g_autofree char *line_a = g_strndup (a, strcspn (a, "\n(;"));
      g_autofree char *line_b = g_strndup (b, strcspn (b, "\n(;"));
      g_assert_cmpstr (g_strchomp (line_a), ==, g_strchomp (line_b));
    }
  g_assert_nonnull (strstr (merged.out, "300 PCT runs of depth 2"));
  g_auto (Result) recorded = { 0 };
  cli (&recorded, "explore", "--merge", paths[0], paths[1], paths[2], "--record", "x.db", NULL);
  g_assert_cmpint (recorded.status, ==, 2);
  assert_one_line (recorded.err);
  g_assert_nonnull (strstr (recorded.err, "record a PCT exploration from one process"));
  g_assert_false (g_file_test ("x.db", G_FILE_TEST_EXISTS));
  /* a shard missing, or given twice: refused */
  g_auto (Result) missing = { 0 };
  cli (&missing, "explore", "--merge", paths[0], paths[1], NULL);
  g_assert_cmpint (missing.status, ==, 2);
  g_assert_nonnull (strstr (missing.err, "shard 2 of 3 is missing"));
  g_auto (Result) twice = { 0 };
  cli (&twice, "explore", "--merge", paths[0], paths[0], paths[1], NULL);
  g_assert_cmpint (twice.status, ==, 2);
  g_assert_nonnull (strstr (twice.err, "given twice"));
  for (guint i = 0; i < 3; i++)
    g_free (paths[i]);
  remove_tree (dir);
}

/* The text without the lines that measure the work (steps, time, memory): those differ
 * between one process and shards, the rest must not. */
static char *
without_work (const char *out)
{
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  GString *kept = g_string_new (NULL);
  for (guint i = 0; lines[i] != NULL; i++)
    if (!g_str_has_prefix (lines[i], "Steps ") && !g_str_has_prefix (lines[i], "Time ")
        && !g_str_has_prefix (lines[i], "Memory "))
      g_string_append_printf (kept, "%s\n", lines[i]);
  return g_string_free (kept, FALSE);
}

/* Three shards of the systematic search, merged, print what one process prints with
 * --reduction none: verdict, counts, outcomes and the same shortest schedules. */
static void
test_explore_systematic_shards (void)
{
  static const char *const sets[] = { "vma-free=immediate", "vma-free=rcu" };
  g_autofree char *dir = make_tmp ();
  for (guint s = 0; s < G_N_ELEMENTS (sets); s++)
    {
      g_auto (Result) whole = { 0 };
      cli (&whole, "explore", "spf-vs-munmap", "--set", sets[s], "--reduction", "none", NULL);
      g_assert_cmpint (whole.status, <=, 1);
      char *paths[3];
      for (guint i = 0; i < 3; i++)
        {
          g_autofree char *shard = g_strdup_printf ("%u/3", i);
          g_auto (Result) r = { 0 };
          cli (&r, "explore", "spf-vs-munmap", "--set", sets[s], "--shard", shard, "--json",
               NULL);
          g_assert_cmpint (r.status, <=, 1);
          paths[i] = g_strdup_printf ("%s/shard%u.json", dir, i);
          g_assert_true (g_file_set_contents (paths[i], r.out, -1, NULL));
        }
      g_auto (Result) merged = { 0 };
      cli (&merged, "explore", "--merge", paths[2], paths[0], paths[1], NULL);
      g_assert_cmpint (merged.status, ==, whole.status);
      g_autofree char *a = without_work (whole.out), *b = without_work (merged.out);
      g_assert_cmpstr (a, ==, b);
      g_assert_nonnull (strstr (merged.err, "Merged 3 shards"));
      /* one shard's part alone is no verdict */
      g_auto (Result) part = { 0 };
      cli (&part, "explore", "spf-vs-munmap", "--set", sets[s], "--shard", "1/3", NULL);
      g_assert_nonnull (strstr (part.out, "shard 1 of 3"));
      /* a shard of another exploration, or one missing: refused */
      g_auto (Result) missing = { 0 };
      cli (&missing, "explore", "--merge", paths[0], paths[2], NULL);
      g_assert_cmpint (missing.status, ==, 2);
      g_assert_nonnull (strstr (missing.err, "shard 1 of 3 is missing"));
      for (guint i = 0; i < 3; i++)
        g_free (paths[i]);
    }
  g_autofree char *other = g_strdup_printf ("%s/other.json", dir);
  g_auto (Result) o = { 0 };
  cli (&o, "explore", "spf-vs-mprotect", "--shard", "0/3", "--json", NULL);
  g_assert_true (g_file_set_contents (other, o.out, -1, NULL));
  g_autofree char *mine = g_strdup_printf ("%s/shard0.json", dir);
  g_auto (Result) mixed = { 0 };
  cli (&mixed, "explore", "--merge", mine, other, NULL);
  g_assert_cmpint (mixed.status, ==, 2);
  g_assert_nonnull (strstr (mixed.err, "a shard of another exploration"));
  /* hand-edited shards: one line naming the file and what is wrong, never a crash */
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr (JsonParser) parser = json_parser_new ();
      g_assert_true (json_parser_load_from_file (parser, mine, NULL));
      JsonObject *root = json_node_get_object (json_parser_get_root (parser));
      if (i == 0)
        json_array_add_int_element (json_object_get_array_member (root, "per-bound"), 7);
      else if (i == 1)
        json_object_set_string_member (root, "shard", "zero");
      else
        json_object_set_int_member (root, "shards", G_GINT64_CONSTANT (1) << 50);
      if (i == 0)
        {
          /* the extra bound is past the ones merged: make it the first, of the only shard */
          json_object_set_int_member (root, "shards", 1);
          JsonArray *bounds = json_object_get_array_member (root, "per-bound");
          json_array_remove_element (bounds, 0);
          json_array_remove_element (bounds, 0);
          json_array_remove_element (bounds, 0);
        }
      g_autoptr (JsonGenerator) gen = json_generator_new ();
      json_generator_set_root (gen, json_parser_get_root (parser));
      g_autofree char *edited = g_strdup_printf ("%s/edited%u.json", dir, i);
      g_assert_true (json_generator_to_file (gen, edited, NULL));
      g_auto (Result) r = { 0 };
      cli (&r, "explore", "--merge", edited, NULL);
      g_assert_cmpint (r.status, ==, 2);
      assert_one_line (r.err);
      g_assert_nonnull (strstr (r.err, edited));
    }
  remove_tree (dir);
}

/* explore --record keeps the exploration and a run of its counterexample that replays; the
 * store's commands show both, and deleting the exploration keeps the run. */
static void
test_explore_record (void)
{
  g_autofree char *dir = make_tmp ();
  g_autofree char *db = g_build_filename (dir, "explored.db", NULL);
  g_auto (Result) found = { 0 };
  cli (&found, "explore", "spf-vs-munmap", "--set", "vma-free=immediate", "--record", db, NULL);
  g_assert_cmpint (found.status, ==, 1);
  g_autofree char *said = g_strdup_printf ("Recorded as exploration 1 in %s, its "
                                           "counterexample as run 1\n", db);
  g_assert_nonnull (strstr (found.err, said));
  g_auto (Result) safe = { 0 };
  cli (&safe, "explore", "spf-tlb-ipi", "--preemptions", "1", "--reduction", "none", "--record",
       db, NULL);
  g_assert_cmpint (safe.status, ==, 0);
  g_autofree char *said_safe = g_strdup_printf ("Recorded as exploration 2 in %s\n", db);
  g_assert_nonnull (strstr (safe.err, said_safe));

  g_auto (Result) listed = { 0 };
  cli (&listed, "db", "explorations", "--db", db, "--json", NULL);
  g_assert_cmpint (listed.status, ==, 0);
  g_autoptr (JsonParser) p = json_parser_new ();
  g_assert_true (json_parser_load_from_data (p, listed.out, -1, NULL));
  JsonArray *all = json_node_get_array (json_parser_get_root (p));
  g_assert_cmpuint (json_array_get_length (all), ==, 2);
  JsonObject *uaf = json_array_get_object_element (all, 0);
  g_assert_cmpstr (json_object_get_string_member (uaf, "scenario"), ==, "spf-vs-munmap");
  g_assert_cmpstr (json_object_get_string_member (uaf, "verdict"), ==, "found");
  g_assert_nonnull (strstr (json_object_get_string_member (uaf, "config"),
                            "vma-free=immediate"));
  g_assert_nonnull (strstr (json_object_get_string_member (uaf, "bounds"),
                            "schedule=systematic preemptions=2 reduction=states"));
  g_assert_cmpint (json_object_get_int_member (uaf, "findings"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (uaf, "schedules"), >, 0);
  JsonArray *runs = json_object_get_array_member (uaf, "runs");
  g_assert_cmpuint (json_array_get_length (runs), ==, 1);
  g_assert_cmpint (json_array_get_int_element (runs, 0), ==, 1);
  JsonObject *bounded = json_array_get_object_element (all, 1);
  g_assert_cmpstr (json_object_get_string_member (bounded, "verdict"), ==, "bounded");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (bounded, "runs")), ==, 0);

  /* the run: its own scenario (the counterexample's text), linked, and it replays */
  g_auto (Result) shown = { 0 };
  cli (&shown, "db", "show", "1", "--db", db, "--json", NULL);
  g_assert_cmpint (shown.status, ==, 0);
  g_autoptr (JsonParser) q = NULL;
  JsonObject *run = parse_json (shown.out, &q);
  g_assert_cmpint (json_object_get_int_member (run, "exploration"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (run, "scenario"), ==,
                   "spf-vs-munmap-use-after-free");
  g_assert_true (has_finding (run, "use-after-free"));
  g_auto (Result) text = { 0 };
  cli (&text, "db", "show", "1", "--db", db, NULL);
  g_assert_nonnull (strstr (text.out, "Found by   exploration 1 of spf-vs-munmap"));
  g_auto (Result) replayed = { 0 };
  cli (&replayed, "replay", db, "1", NULL);
  g_assert_cmpint (replayed.status, ==, 0);
  g_assert_nonnull (strstr (replayed.out, "Result     identical"));
  g_auto (Result) checked = { 0 };
  cli (&checked, "db", "check", "--db", db, NULL);
  g_assert_cmpint (checked.status, ==, 0);

  g_auto (Result) deleted = { 0 };
  cli (&deleted, "db", "delete-exploration", "1", "--db", db, NULL);
  g_assert_cmpint (deleted.status, ==, 0);
  g_auto (Result) again = { 0 };
  cli (&again, "db", "show", "1", "--db", db, "--json", NULL);
  g_assert_cmpint (again.status, ==, 0);
  g_autoptr (JsonParser) r = NULL;
  g_assert_true (json_object_get_null_member (parse_json (again.out, &r), "exploration"));
  g_auto (Result) twice = { 0 };
  cli (&twice, "db", "delete-exploration", "1", "--db", db, NULL);
  g_assert_cmpint (twice.status, ==, 2);
  assert_one_line (twice.err);
  g_assert_nonnull (strstr (twice.err, "no exploration 1"));

  /* a file that is not a store is refused whole and left as it was */
  g_autofree char *notes = g_build_filename (dir, "notes.txt", NULL);
  g_assert_true (g_file_set_contents (notes, "my notes, not a database\n", -1, NULL));
  g_auto (Result) refused = { 0 };
  cli (&refused, "explore", "spf-vs-munmap", "--set", "vma-free=immediate", "--record", notes,
       NULL);
  g_assert_cmpint (refused.status, ==, 2);
  g_assert_nonnull (strstr (refused.err, notes));
  g_autofree char *kept = NULL;
  g_assert_true (g_file_get_contents (notes, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, "my notes, not a database\n");
  remove_tree (dir);
}

/* `db COMMAND --db DB --json`'s array of rows (kept alive by @keep). */
static JsonArray *
db_rows (const char *command, const char *db, JsonParser **keep)
{
  g_auto (Result) r = { 0 };
  cli (&r, "db", command, "--db", db, "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  *keep = json_parser_new ();
  g_assert_true (json_parser_load_from_data (*keep, r.out, -1, NULL));
  return json_node_get_array (json_parser_get_root (*keep));
}

/* The shards of a systematic search, merged with --record, keep what one process's
 * `explore --reduction none --record` keeps: the same exploration row, and a run of the
 * same counterexample scenario (the configuration explored, the hold off, carried by the
 * shards); a shard of another text of the scenario is refused. */
static void
test_explore_merge_record (void)
{
  g_autofree char *dir = make_tmp ();
  g_autofree char *db = g_build_filename (dir, "merged.db", NULL);
  char *paths[2];
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *shard = g_strdup_printf ("%u/2", i);
      g_auto (Result) r = { 0 };
      cli (&r, "explore", "spf-vs-munmap", "--set", "vma-free=immediate", "--shard", shard,
           "--json", NULL);
      g_assert_cmpint (r.status, <=, 1);
      paths[i] = g_strdup_printf ("%s/shard%u.json", dir, i);
      g_assert_true (g_file_set_contents (paths[i], r.out, -1, NULL));
    }
  g_auto (Result) merged = { 0 };
  cli (&merged, "explore", "--merge", paths[1], "--record", db, paths[0], NULL);
  g_assert_cmpint (merged.status, ==, 1);
  g_autofree char *said = g_strdup_printf ("Recorded as exploration 1 in %s, its "
                                           "counterexample as run 1\n", db);
  g_assert_nonnull (strstr (merged.err, said));
  g_auto (Result) whole = { 0 };
  cli (&whole, "explore", "spf-vs-munmap", "--set", "vma-free=immediate", "--reduction", "none",
       "--record", db, NULL);
  g_assert_cmpint (whole.status, ==, 1);

  g_autoptr (JsonParser) p = NULL;
  JsonArray *all = db_rows ("explorations", db, &p);
  g_assert_cmpuint (json_array_get_length (all), ==, 2);
  JsonObject *a = json_array_get_object_element (all, 0), *b = json_array_get_object_element (all, 1);
  static const char *const same[] = { "scenario", "verdict", "config", "bounds" };
  for (guint i = 0; i < G_N_ELEMENTS (same); i++)
    g_assert_cmpstr (json_object_get_string_member (a, same[i]), ==,
                     json_object_get_string_member (b, same[i]));
  static const char *const counts[] = { "bound", "schedules", "executions", "outcomes",
                                        "findings" };
  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    g_assert_cmpint (json_object_get_int_member (a, counts[i]), ==,
                     json_object_get_int_member (b, counts[i]));
  /* one counterexample scenario, replayed by both runs */
  g_autoptr (JsonParser) q = NULL;
  JsonArray *rows = db_rows ("runs", db, &q);
  g_assert_cmpuint (json_array_get_length (rows), ==, 2);
  JsonObject *r0 = json_array_get_object_element (rows, 0), *r1 = json_array_get_object_element (rows, 1);
  g_assert_cmpint (json_object_get_int_member (r0, "scenario_id"), ==,
                   json_object_get_int_member (r1, "scenario_id"));
  g_assert_cmpstr (json_object_get_string_member (r0, "hash"), ==,
                   json_object_get_string_member (r1, "hash"));
  g_auto (Result) replayed = { 0 };
  cli (&replayed, "replay", db, "1", NULL);
  g_assert_cmpint (replayed.status, ==, 0);
  g_assert_nonnull (strstr (replayed.out, "Result     identical"));

  /* a shard of an edited copy of the scenario does not merge with the others */
  g_autoptr (JsonParser) edit = json_parser_new ();
  g_assert_true (json_parser_load_from_file (edit, paths[1], NULL));
  JsonObject *root = json_node_get_object (json_parser_get_root (edit));
  g_autofree char *text = g_strconcat (json_object_get_string_member (root, "scenario-text"),
                                       "# edited\n", NULL);
  json_object_set_string_member (root, "scenario-text", text);
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  json_generator_set_root (gen, json_parser_get_root (edit));
  g_assert_true (json_generator_to_file (gen, paths[1], NULL));
  g_auto (Result) mixed = { 0 };
  cli (&mixed, "explore", "--merge", paths[0], paths[1], "--record", db, NULL);
  g_assert_cmpint (mixed.status, ==, 2);
  assert_one_line (mixed.err);
  g_assert_nonnull (strstr (mixed.err, "explored another text or configuration"));
  g_autoptr (JsonParser) t = NULL;
  g_assert_cmpuint (json_array_get_length (db_rows ("explorations", db, &t)), ==, 2);
  for (guint i = 0; i < 2; i++)
    g_free (paths[i]);
  remove_tree (dir);
}

static void
test_explore_bad_input (void)
{
  static const char *const bad[][4] = {
    { "explore", NULL },
    { "explore", "no-such-scenario", NULL },
    { "explore", "spf-vs-munmap", "--preemptions=-1", NULL },
    { "explore", "spf-vs-munmap", "--set", "vma-free=sometimes" },
    { "explore", "spf-vs-munmap", "--reduction", "clever" },
    { "explore", "spf-vs-munmap", "--schedule", "lucky" },
    { "explore", "spf-vs-munmap", "--depth", "0" },
    { "explore", "spf-vs-munmap", "--max-states", "0" },
    { "explore", "spf-vs-munmap", "--max-states", "4294967297" },
    { "explore", "spf-vs-munmap", "--shard", "3/3" },
    { "explore", "spf-vs-munmap", "--shard=0/2", "--reduction=dpor" },
    { "explore", "spf-vs-munmap", "--shard=0/2", "--time-limit=5" },
    { "explore", "spf-vs-munmap", "--shard=0/2", "--record=/nonexistent/x.db" },
    { "explore", "--merge", "/nonexistent.json", NULL },
    { "explore", "--merge", "/nonexistent.json", "--record" },
    { "explore", "--merge", "/nonexistent.json", "--record=/nonexistent/x.db" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_auto (Result) r = { 0 };
      const char *args[5] = { bad[i][0], bad[i][1], bad[i][2], bad[i][3], NULL };
      cli_strv (&r, args);
      g_assert_cmpint (r.status, ==, 2);
      assert_one_line (r.err);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/explore/save-replays", test_explore_save_replays);
  g_test_add_func ("/cli/explore/safe", test_explore_safe);
  g_test_add_func ("/cli/explore/pct", test_explore_pct);
  g_test_add_func ("/cli/explore/shards", test_explore_shards);
  g_test_add_func ("/cli/explore/systematic-shards", test_explore_systematic_shards);
  g_test_add_func ("/cli/explore/record", test_explore_record);
  g_test_add_func ("/cli/explore/merge-record", test_explore_merge_record);
  g_test_add_func ("/cli/explore/bad-input", test_explore_bad_input);
  return g_test_run ();
}
