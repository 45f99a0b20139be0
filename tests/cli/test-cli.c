/* faultline-cli as a user runs it: exit codes, summaries, JSON, traces, bad input. */
#include <json-glib/json-glib.h>
#include <string.h>

typedef struct {
  int   status;
  char *out;
  char *err;
} Result;

static void
result_clear (Result *r)
{
  g_free (r->out);
  g_free (r->err);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Result, result_clear)

static void
cli (Result *r, ...)
{
  va_list args;
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_ptr_array_add (argv, (char *) g_getenv ("FL_CLI"));
  va_start (args, r);
  for (const char *a = va_arg (args, const char *); a; a = va_arg (args, const char *))
    g_ptr_array_add (argv, (char *) a);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  int wait = 0;
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &r->out, &r->err, &wait, &error));
  g_assert_no_error (error);
  r->status = WIFEXITED (wait) ? WEXITSTATUS (wait) : -1;
}

static JsonObject *
parse_json (const char *text, JsonParser **keep)
{
  g_autoptr (GError) error = NULL;
  *keep = json_parser_new ();
  g_assert_true (json_parser_load_from_data (*keep, text, -1, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (*keep));
}

static gboolean
has_finding (JsonObject *run, const char *kind)
{
  JsonArray *findings = json_object_get_array_member (run, "findings");
  for (guint i = 0; i < json_array_get_length (findings); i++)
    if (strcmp (json_object_get_string_member (json_array_get_object_element (findings, i), "kind"),
                kind) == 0)
      return TRUE;
  return FALSE;
}

static void
test_list_has_the_library (void)
{
  g_auto (Result) r = { 0 };
  cli (&r, "list", NULL);
  g_assert_cmpint (r.status, ==, 0);
  static const char *const ids[] = {
    "locked-anon-fault", "spf-anon-fault", "file-read-fault", "cow-write-fault", "swap-in-fault",
    "spf-migration-retry", "spf-vs-munmap", "spf-vs-mprotect", "spf-tlb-ipi",
    "rwsem-generic-bounce", "rwsem-xadd-bounce", "multi-fault", "will-it-scale-pf1",
  };
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    g_assert_nonnull (strstr (r.out, ids[i]));
}

/* Every built-in scenario, as written, runs to its end without findings. */
static void
test_builtins_are_clean (void)
{
  g_auto (Result) list = { 0 };
  cli (&list, "list", "--json", NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_assert_true (json_parser_load_from_data (parser, list.out, -1, NULL));
  JsonArray *all = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < json_array_get_length (all); i++)
    {
      const char *id = json_object_get_string_member (json_array_get_object_element (all, i), "id");
      g_auto (Result) r = { 0 };
      cli (&r, "run", id, "--json", NULL);
      g_test_message ("%s: exit %d %s", id, r.status, r.err);
      g_assert_cmpint (r.status, ==, 0);
      g_autoptr (JsonParser) p = NULL;
      JsonObject *run = parse_json (r.out, &p);
      g_assert_true (json_object_get_boolean_member (run, "finished"));
      g_assert_cmpint (json_array_get_length (json_object_get_array_member (run, "findings")), ==, 0);
      g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (run, "faults"), "total"), >, 0);
    }
}

typedef struct {
  const char *scenario, *set, *kind;
} BrokenCase;

/* Each safeguard switched off shows its defect on the race that exposes it. */
static void
test_broken_designs_are_caught (void)
{
  static const BrokenCase cases[] = {
    { "spf-vs-munmap", "vma-free=immediate", "use-after-free" },
    { "spf-vs-mprotect", "spf-seqcheck=off", "stale-mapping" },
    { "spf-tlb-ipi", "pte-map-lock=spin-irqs-off", "deadlock" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto (Result) r = { 0 };
      cli (&r, "run", cases[i].scenario, "--set", cases[i].set, "--json", NULL);
      g_assert_cmpint (r.status, ==, 1);
      g_autoptr (JsonParser) p = NULL;
      JsonObject *run = parse_json (r.out, &p);
      g_assert_true (has_finding (run, cases[i].kind));
    }
}

/* The trace of spf-vs-munmap shows the speculative attempt, its retry and the locked path. */
static void
test_munmap_trace_shows_fallback (void)
{
  g_auto (Result) r = { 0 };
  cli (&r, "run", "spf-vs-munmap", "--trace", NULL);
  g_assert_cmpint (r.status, ==, 0);
  const char *spec = strstr (r.out, "handle_speculative_fault:");
  g_assert_nonnull (spec);
  const char *dead = strstr (spec, "pte_map_lock:");
  g_assert_nonnull (dead);
  const char *locked = strstr (dead, "__down_read_trylock:");
  g_assert_nonnull (locked);
  g_assert_nonnull (strstr (r.out, "retried 1, locked 1"));
}

static void
test_same_seed_same_hash (void)
{
  g_auto (Result) a = { 0 }, b = { 0 }, c = { 0 };
  cli (&a, "run", "spf-vs-munmap", "--schedule", "random", "--seed", "5", "--json", NULL);
  cli (&b, "run", "spf-vs-munmap", "--schedule", "random", "--seed", "5", "--json", NULL);
  g_autoptr (JsonParser) pa = NULL, pb = NULL;
  JsonObject *ra = parse_json (a.out, &pa), *rb = parse_json (b.out, &pb);
  g_assert_cmpstr (json_object_get_string_member (ra, "hash"), ==,
                   json_object_get_string_member (rb, "hash"));
  cli (&c, "run", "multi-fault", "--max-steps", "1000", NULL);
  g_assert_cmpint (c.status, ==, 0);
  g_assert_nonnull (strstr (c.out, "stopped by --max-steps"));
}

static void
test_bad_options (void)
{
  g_auto (Result) a = { 0 }, b = { 0 }, c = { 0 }, d = { 0 }, e = { 0 };
  cli (&a, "run", "spf-vs-munmap", "--set", "rwsem=spinlock", NULL);
  g_assert_cmpint (a.status, ==, 2);
  g_assert_nonnull (strstr (a.err, "generic, xadd"));
  cli (&b, "run", "spf-vs-munmap", "--set", "colour=blue", NULL);
  g_assert_cmpint (b.status, ==, 2);
  g_assert_nonnull (strstr (b.err, "fault-path"));
  cli (&c, "run", "no-such-scenario", NULL);
  g_assert_cmpint (c.status, ==, 2);
  g_assert_nonnull (strstr (c.err, "spf-vs-munmap"));
  cli (&d, "frobnicate", NULL);
  g_assert_cmpint (d.status, ==, 2);
  cli (&e, "run", "spf-vs-munmap", "--schedule", "sometimes", NULL);
  g_assert_cmpint (e.status, ==, 2);
  /* every error is one line */
  g_assert_cmpint (strchr (a.err, '\n') - a.err, ==, (gssize) strlen (a.err) - 1);
}

/* Every malformed file: exit 2, a message naming the file and its line, no crash. */
static void
test_bad_corpus (void)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "..", "data", "bad", NULL);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_assert_nonnull (d);
  guint n = 0;
  for (const char *name; (name = g_dir_read_name (d)) != NULL;)
    {
      if (!g_str_has_suffix (name, ".fault"))
        continue;
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *text = NULL;
      g_file_get_contents (path, &text, NULL, NULL);
      guint line = 1;
      const char *mark = text ? strstr (text, "expect-line:") : NULL;
      if (mark)
        line = (guint) g_ascii_strtoull (mark + 12, NULL, 10);
      g_auto (Result) r = { 0 };
      cli (&r, "run", path, NULL);
      g_autofree char *where = g_strdup_printf ("%s:%u:", name, line);
      if (r.status != 2 || strstr (r.err, where) == NULL)
        g_error ("%s: exit %d, stderr: %s (wanted %s)", name, r.status, r.err, where);
      n++;
    }
  g_assert_cmpuint (n, >=, 30);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/list", test_list_has_the_library);
  g_test_add_func ("/cli/run/builtins-clean", test_builtins_are_clean);
  g_test_add_func ("/cli/run/broken-designs", test_broken_designs_are_caught);
  g_test_add_func ("/cli/run/munmap-trace", test_munmap_trace_shows_fallback);
  g_test_add_func ("/cli/run/determinism", test_same_seed_same_hash);
  g_test_add_func ("/cli/run/bad-options", test_bad_options);
  g_test_add_func ("/cli/run/bad-corpus", test_bad_corpus);
  return g_test_run ();
}
