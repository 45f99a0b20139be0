/* faultline-cli as a user runs it: exit codes, summaries, JSON, traces, bad input, exports and
 * compare. The benchmark and the store have programs of their own (test-cli-bench.c,
 * test-cli-store.c). */
#include "cli-run.h"

static void
test_list_has_the_library (void)
{
  g_auto (Result) r = { 0 };
  cli (&r, "list", NULL);
  g_assert_cmpint (r.status, ==, 0);
  static const char *const ids[] = {
    "locked-anon-fault", "spf-anon-fault", "file-read-fault", "cow-write-fault", "swap-in-fault",
    "spf-migration-retry", "spf-vs-munmap", "spf-vs-mprotect", "spf-vs-merge", "spf-vs-split", "spf-tlb-ipi",
    "spf-mmap-cache-race", "spf-ptl-vs-munmap", "spf-rcu-classic", "spf-write-readonly", "rwsem-generic-bounce", "rwsem-xadd-bounce", "multi-fault", "will-it-scale-pf1",
    "refcount-shared-vma", "refcount-split-vmas", "refcount-vs-munmap", "spf-two-vs-munmap",
    "spf-vs-mprotect-munmap", "spf-vs-rotation", "spf-file-vs-munmap",
  };
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    g_assert_nonnull (strstr (r.out, ids[i]));
}

/* The ids `list --json` gives: every built-in scenario. */
static GStrv
builtin_ids (void)
{
  g_auto (Result) list = { 0 };
  cli (&list, "list", "--json", NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_assert_true (json_parser_load_from_data (parser, list.out, -1, NULL));
  JsonArray *all = json_node_get_array (json_parser_get_root (parser));
  GStrvBuilder *ids = g_strv_builder_new ();
  for (guint i = 0; i < json_array_get_length (all); i++)
    g_strv_builder_add (ids, json_object_get_string_member (json_array_get_object_element (all, i),
                                                            "id"));
  GStrv out = g_strv_builder_end (ids);
  g_strv_builder_unref (ids);
  g_assert_cmpuint (g_strv_length (out), >=, 14);
  return out;
}

/* Every built-in scenario, as written, runs to its end without findings. */
static void
test_builtins_are_clean (void)
{
  g_auto (GStrv) ids = builtin_ids ();
  for (guint i = 0; ids[i]; i++)
    {
      const char *id = ids[i];
      g_auto (Result) r = { 0 };
      cli (&r, "run", id, "--json", NULL);
      g_test_message ("%s: exit %d %s", id, r.status, r.err);
      g_assert_cmpint (r.status, ==, 0);
      g_autoptr (JsonParser) p = NULL;
      JsonObject *run = parse_json (r.out, &p);
      g_assert_true (json_object_get_boolean_member (run, "finished"));
      g_assert_cmpint (json_array_get_length (json_object_get_array_member (run, "findings")), ==, 0);
      /* every stop point of its schedule is reached: the race it sets up happens */
      g_assert_cmpint (json_array_get_length (json_object_get_array_member (run, "unreached")), ==, 0);
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
    { "spf-mmap-cache-race", "spf-mmap-cache=update", "stale-mapping" },
    { "spf-ptl-vs-munmap", "spf-find-vma=under-pte-lock", "freed-while-locked" },
    { "spf-ptl-vs-munmap", "spf=v2-as-posted", "use-after-free" },
    { "spf-write-readonly", "spf-access-check=off", "missed-sigsegv" },
    { "spf-vs-mprotect", "mprotect-seqcount=unbracketed", "stale-mapping" },
    { "spf-rcu-classic", "rcu=classic", "sleep-in-rcu" },
    { "spf-rcu-classic", "rcu=classic", "rcu-early-free" },
    { "spf-write-readonly", "spf=v2-as-posted", "stale-mapping" },
    { "spf-vs-merge", "vma-free=immediate", "use-after-free" },
    { "spf-vs-split", "spf-seqcheck=off", "stale-mapping" },
    /* Kamezawa's v3 as posted: vma_put wakes at 1, munmap waits for 0 */
    { "refcount-vs-munmap", "vma-refcount=as-posted", "deadlock" },
    { "refcount-vs-munmap", "vma-refcount=no-wait", "use-after-free" },
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

/* The number of the step a --trace row belongs to (the first column). */
static guint64
trace_row_step (const char *row)
{
  return g_ascii_strtoull (row, NULL, 10);
}

/* One run three ways: the summary's "Steps", its findings' "at step S", the JSON and the
 * trace give one number for each step; the trace's last row is the run's last step; a
 * finding's trace row (FINDING kind) has its step. With --max-steps N, N steps. */
static void
assert_steps_agree (const char *id, const char *set, const char *max_steps)
{
  g_auto (Result) text = { 0 }, json = { 0 }, trace = { 0 };
  const char *args[8] = { "run", id };
  guint n = 2;
  if (set)
    {
      args[n++] = "--set";
      args[n++] = set;
    }
  if (max_steps)
    {
      args[n++] = "--max-steps";
      args[n++] = max_steps;
    }
  cli_strv (&text, args);
  args[n] = "--json";
  cli_strv (&json, args);
  args[n] = "--trace";
  cli_strv (&trace, args);
  g_test_message ("%s %s %s", id, set ? set : "", max_steps ? max_steps : "");
  g_assert_cmpint (text.status, <=, 1);

  g_autoptr (JsonParser) p = NULL;
  JsonObject *run = parse_json (json.out, &p);
  gint64 steps = json_object_get_int_member (run, "steps");
  g_autofree char *steps_line = g_strdup_printf ("\nSteps      %" G_GINT64_FORMAT, steps);
  g_assert_nonnull (strstr (text.out, steps_line));
  if (max_steps)
    g_assert_cmpint (steps, ==, g_ascii_strtoll (max_steps, NULL, 10));

  /* the trace: rows in step order, the last one the run's last step */
  g_auto (GStrv) rows = g_strsplit (trace.out, "\n", -1);
  guint64 last = 0;
  for (guint i = 0; rows[i] && g_ascii_isspace (rows[i][0]); i++)
    {
      guint64 row_step = trace_row_step (rows[i]);
      if (row_step == 0)
        continue;   /* not a step row */
      g_assert_cmpuint (row_step, >=, last);
      last = row_step;
    }
  g_assert_cmpuint (last, ==, (guint64) steps);

  JsonArray *findings = json_object_get_array_member (run, "findings");
  for (guint i = 0; i < json_array_get_length (findings); i++)
    {
      JsonObject *f = json_array_get_object_element (findings, i);
      gint64 at = json_object_get_int_member (f, "step");
      const char *kind = json_object_get_string_member (f, "kind");
      g_autofree char *said = g_strdup_printf ("%s at step %" G_GINT64_FORMAT " on cpu%" G_GINT64_FORMAT,
                                               kind, at, json_object_get_int_member (f, "cpu"));
      g_assert_nonnull (strstr (text.out, said));
      g_assert_cmpint (at, >=, 1);
      g_assert_cmpint (at, <=, steps);
      gboolean in_trace = FALSE;
      g_autofree char *mark = g_strdup_printf ("FINDING %s", kind);
      for (guint r = 0; rows[r] && !in_trace; r++)
        in_trace = strstr (rows[r], mark) != NULL && trace_row_step (rows[r]) == (guint64) at;
      if (!in_trace)
        g_error ("%s: no trace row of step %" G_GINT64_FORMAT " says '%s'", id, at, mark);
    }
}

static void
test_step_numbers_agree (void)
{
  g_auto (GStrv) ids = builtin_ids ();
  for (guint i = 0; ids[i]; i++)
    {
      const char *id = ids[i];
      /* the long ones up to a limit: the trace of millions of steps is not the point */
      gboolean long_run = strcmp (id, "multi-fault") == 0 || strcmp (id, "will-it-scale-pf1") == 0;
      assert_steps_agree (id, NULL, long_run ? "5000" : NULL);
      assert_steps_agree (id, NULL, "30");
    }
  /* and runs with findings: found during a step, and at the end (the deadlock) */
  assert_steps_agree ("spf-vs-munmap", "vma-free=immediate", NULL);
  assert_steps_agree ("spf-vs-mprotect", "spf-seqcheck=off", NULL);
  assert_steps_agree ("spf-tlb-ipi", "pte-map-lock=spin-irqs-off", NULL);
  assert_steps_agree ("spf-mmap-cache-race", "spf-mmap-cache=update", NULL);
}

/* The summary's transfer total is the sum of its rows (the lines past the eighth in one
 * "N more lines" row), and of the JSON's per-line counts; compare's "transfers" row is the
 * sum of its cache-line rows, for A and for B. */
static void
test_totals_are_sums (void)
{
  g_auto (GStrv) ids = builtin_ids ();
  guint with_more = 0;
  for (guint i = 0; ids[i]; i++)
    {
      gboolean long_run = strcmp (ids[i], "will-it-scale-pf1") == 0;
      g_auto (Result) text = { 0 }, json = { 0 };
      cli (&text, "run", ids[i], "--max-steps", long_run ? "20000" : "0", NULL);
      cli (&json, "run", ids[i], "--json", "--max-steps", long_run ? "20000" : "0", NULL);
      const char *at = strstr (text.out, "\nTransfers  ");
      g_assert_nonnull (at);
      guint64 total = g_ascii_strtoull (at + strlen ("\nTransfers  "), NULL, 10);
      g_auto (GStrv) rows = g_strsplit (strchr (at + 1, '\n') + 1, "\n", -1);
      guint64 sum = 0;
      for (guint r = 0; rows[r] && g_str_has_prefix (rows[r], "           "); r++)
        {
          sum += g_ascii_strtoull (rows[r], NULL, 10);
          with_more += strstr (rows[r], " more line") != NULL;
        }
      g_test_message ("%s: %" G_GUINT64_FORMAT " transfers, rows sum to %" G_GUINT64_FORMAT,
                      ids[i], total, sum);
      g_assert_cmpuint (sum, ==, total);

      g_autoptr (JsonParser) p = NULL;
      JsonObject *lines = json_object_get_object_member (parse_json (json.out, &p), "transfers");
      g_autoptr (GList) names = json_object_get_members (lines);
      guint64 json_sum = 0;
      for (GList *l = names; l; l = l->next)
        json_sum += (guint64) json_object_get_int_member (lines, l->data);
      g_assert_cmpuint (json_sum, ==, total);
    }
  /* spf-vs-munmap moves nine lines: the ninth is counted in the last row */
  g_assert_cmpuint (with_more, >=, 1);

  g_auto (Result) cmp = { 0 };
  cli (&cmp, "compare", "spf-vs-munmap", "--a", "vma-free=rcu", "--b", "vma-free=immediate",
       "--json", NULL);
  g_assert_cmpint (cmp.status, <=, 1);
  g_autoptr (JsonParser) cp = NULL;
  JsonObject *root = parse_json (cmp.out, &cp);
  const char *const runs[] = { "a", "b" };
  for (guint r = 0; r < G_N_ELEMENTS (runs); r++)
    {
      JsonObject *run = json_object_get_object_member (root, runs[r]);
      JsonObject *lines = json_object_get_object_member (run, "transfers");
      g_autoptr (GList) names = json_object_get_members (lines);
      gint64 sum = 0;
      for (GList *l = names; l; l = l->next)
        sum += json_object_get_int_member (lines, l->data);
      g_assert_cmpint (sum, ==, json_object_get_int_member (json_object_get_object_member (run,
                                                                                     "counters"),
                                                          "transfers"));
    }
}

/* --trace has a header over its columns; a check says what it tests (its listing line), a
 * free what it frees, a CPU that parks what it waits for. */
static void
test_trace_says_what (void)
{
  g_auto (Result) rcu = { 0 }, now = { 0 }, ipi = { 0 }, rwsem = { 0 };
  cli (&rcu, "run", "spf-vs-munmap", "--trace", NULL);
  cli (&now, "run", "spf-vs-munmap", "--trace", "--set", "vma-free=immediate", NULL);
  cli (&ipi, "run", "spf-tlb-ipi", "--trace", "--set", "pte-map-lock=spin-irqs-off", NULL);
  cli (&rwsem, "run", "spf-vs-mprotect-munmap", "--trace", NULL);
  g_assert_nonnull (strstr (ipi.out, "flush_tlb_others:wait                    wait for 1 "
                                     "TLB-flush acknowledgement\n"));
  g_assert_nonnull (strstr (rwsem.out, "__down_write:queue                       sleep on "
                                       "mmap_sem's wait list"));
  g_assert_true (g_str_has_prefix (rcu.out, "    step        cycle  cpu    function:tag"));
  g_assert_nonnull (strstr (rcu.out, "find_vma:cache                           check failed: "
                                     "if (v && v->vm_start <= addr && addr < v->vm_end)"));
  g_assert_nonnull (strstr (rcu.out, "free VMA 1 through call_rcu, after a grace period"));
  g_assert_nonnull (strstr (rcu.out, "free page table 4"));
  g_assert_nonnull (strstr (now.out, "free VMA 1 at once"));
  g_auto (GStrv) rows = g_strsplit (rcu.out, "\n", -1);
  for (guint i = 0; rows[i]; i++)
    {
      g_assert_false (g_str_has_suffix (rows[i], "check passed"));
      g_assert_false (g_str_has_suffix (rows[i], "check failed"));
      g_assert_null (strstr (rows[i], " #"));
    }
}

/* faultline-cli's texts are English: their numbers keep a decimal point under a German
 * locale (built with localedef from the `locales` package into a folder of the test's),
 * and the Trace Event file stays JSON. */
static void
test_numbers_in_english (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("faultline-locale-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *locale = g_build_filename (dir, "de_DE.UTF-8", NULL);
  const char *localedef[] = { "localedef", "-i", "de_DE", "-f", "UTF-8", locale, NULL };
  int wait = 0;
  g_assert_true (g_spawn_sync (NULL, (char **) localedef, NULL, G_SPAWN_SEARCH_PATH
                               | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL, NULL,
                               NULL, NULL, NULL, &wait, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (wait, NULL))
    g_error ("localedef could not build de_DE.UTF-8: is the Debian package 'locales' installed "
             "(build-aux/debian-packages)?");
  g_auto (GStrv) env = g_get_environ ();
  env = g_environ_setenv (env, "LOCPATH", dir, TRUE);
  env = g_environ_setenv (env, "LC_ALL", "de_DE.UTF-8", TRUE);
  g_autofree char *trace = g_build_filename (dir, "trace.json", NULL);

  g_auto (Result) run = { 0 }, bench = { 0 }, cmp = { 0 };
  const char *run_args[] = { "run", "spf-vs-munmap", "--chrome-trace", trace, NULL };
  const char *bench_args[] = { "bench", "--workload", "multi-fault", "--cpus", "8", "--rounds",
                               "1", NULL };
  const char *cmp_args[] = { "compare", "spf-vs-munmap", "--a", "vma-free=rcu", "--b",
                             "vma-free=immediate", NULL };
  cli_env (&run, env, run_args);
  cli_env (&bench, env, bench_args);
  cli_env (&cmp, env, cmp_args);
  g_test_message ("%s%s%s", run.out, bench.out, cmp.out);
  g_assert_true (g_regex_match_simple ("\nCycles     [0-9]+ \\([0-9]+\\.[0-9] µs at [0-9]+ MHz\\)\n",
                                       run.out, 0, 0));
  g_assert_true (g_regex_match_simple ("\nxadd +8 +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]\\.[0-9][0-9]  3\\.10"
                                       " \\(model [-+][0-9]+%\\)\n", bench.out, 0, 0));
  g_assert_true (g_regex_match_simple ("\nfaults +1 +1 +\\+0 +1\\.00\n", cmp.out, 0, 0));
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_assert_true (json_parser_load_from_file (parser, trace, &error));
  g_assert_no_error (error);

  g_assert_cmpint (g_unlink (trace), ==, 0);
  const char *rm[] = { "rm", "-r", locale, NULL };
  g_assert_true (g_spawn_sync (NULL, (char **) rm, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL,
                               NULL, &wait, NULL));
  g_assert_cmpint (g_rmdir (dir), ==, 0);
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

/* spf-vs-rotation: the walk a rotation misleads is counted in the summary and the JSON
 * ("missed", among the retried), explained in the trace, and is no finding; the locked path
 * and a built-in without a writer count none. */
static void
test_rotation_miss_counted (void)
{
  g_auto (Result) text = { 0 }, json = { 0 }, trace = { 0 }, locked = { 0 }, other = { 0 };
  cli (&text, "run", "spf-vs-rotation", NULL);
  g_assert_cmpint (text.status, ==, 0);
  g_assert_nonnull (strstr (text.out, "retried 1, locked 1"));
  g_assert_nonnull (strstr (text.out, "; missed VMA lookups 1\n"));
  cli (&json, "run", "spf-vs-rotation", "--json", NULL);
  g_assert_cmpint (json.status, ==, 0);
  g_autoptr (JsonParser) p = NULL;
  JsonObject *run = parse_json (json.out, &p);
  JsonObject *faults = json_object_get_object_member (run, "faults");
  g_assert_cmpint (json_object_get_int_member (faults, "missed"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (faults, "retried"), ==, 1);
  g_assert_cmpint (json_array_get_length (json_object_get_array_member (run, "findings")), ==, 0);
  cli (&trace, "run", "spf-vs-rotation", "--trace", NULL);
  g_assert_nonnull (strstr (trace.out, "handle_speculative_fault:check_range     check failed: "));
  g_assert_nonnull (strstr (trace.out, "the walk missed VMA 2, which the tree held: cpu1's "
                                       "rotate-left at VMA 1"));
  cli (&locked, "run", "spf-vs-rotation", "--set", "fault-path=locked", "--json", NULL);
  g_autoptr (JsonParser) q = NULL;
  run = parse_json (locked.out, &q);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (run, "faults"),
                                               "missed"), ==, 0);
  cli (&other, "run", "spf-vs-munmap", NULL);
  g_assert_nonnull (strstr (other.out, "; missed VMA lookups 0\n"));
}

/* A stop point spelt wrong is refused at its line with the nearest names; one spelt right that
 * the run never reaches is said after the run, in the summary and the JSON. */
static void
test_schedule_points (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("faultline-cli-XXXXXX", &error);
  g_autofree char *misspelt = g_build_filename (dir, "misspelt.fault", NULL);
  g_autofree char *unreached = g_build_filename (dir, "unreached.fault", NULL);
#define SCHEDULE_TEXT(point) "[scenario]\ntitle=t\n[config]\ncpus=2\n" \
                     "[mm]\nvma=0x7f0000000000-0x7f0000004000 rw- anon\n" \
                     "[cpu0]\nops=fault 0x7f0000001000 write\n" \
                     "[cpu1]\nops=munmap 0x7f0000000000 0x4000\n" \
                     "[schedule]\nsteps=cpu0 until " point "; cpu1 until end\n"
  const char *bad = SCHEDULE_TEXT ("handle_pte_fualt");
  const char *never = SCHEDULE_TEXT ("__do_fault");
#undef SCHEDULE_TEXT
  g_assert_true (g_file_set_contents (misspelt, bad, -1, NULL));
  g_assert_true (g_file_set_contents (unreached, never, -1, NULL));

  g_auto (Result) a = { 0 }, b = { 0 }, c = { 0 };
  cli (&a, "run", misspelt, NULL);
  g_assert_cmpint (a.status, ==, 2);
  g_assert_nonnull (strstr (a.err, "misspelt.fault:12: unknown stop point 'handle_pte_fualt'"));
  g_assert_nonnull (strstr (a.err, "the nearest are handle_pte_fault, "));

  const char *sentence = "schedule point 'cpu0 until __do_fault' (line 12) was never reached";
  cli (&b, "run", unreached, NULL);
  g_assert_cmpint (b.status, ==, 0);
  g_assert_nonnull (strstr (b.out, "Warning    "));
  g_assert_nonnull (strstr (b.out, sentence));
  cli (&c, "run", unreached, "--json", NULL);
  g_autoptr (JsonParser) p = NULL;
  JsonArray *missed = json_object_get_array_member (parse_json (c.out, &p), "unreached");
  g_assert_cmpuint (json_array_get_length (missed), ==, 1);
  JsonObject *m = json_array_get_object_element (missed, 0);
  g_assert_cmpstr (json_object_get_string_member (m, "point"), ==, "cpu0 until __do_fault");
  g_assert_cmpint (json_object_get_int_member (m, "line"), ==, 12);
  g_assert_nonnull (strstr (json_object_get_string_member (m, "message"), sentence));
  g_assert_cmpint (g_unlink (misspelt), ==, 0);
  g_assert_cmpint (g_unlink (unreached), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
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
  /* a seed out of range is refused, not taken for "no --seed" */
  g_auto (Result) f = { 0 }, g = { 0 };
  cli (&f, "run", "spf-vs-munmap", "--seed=-1", NULL);
  g_assert_cmpint (f.status, ==, 2);
  g_assert_nonnull (strstr (f.err, "--seed -1: expected a whole number from 0"));
  cli (&g, "run", "spf-vs-munmap", "--seed=-1", "--schedule", "random", NULL);
  g_assert_cmpint (g.status, ==, 2);
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

/* ---- teaching: export of a range, compare ---------------------------------------------- */


static guint
pdf_pages (const char *path)
{
  g_autofree char *data = NULL;
  gsize len = 0;
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  static const char key[] = "/Type /Page";
  gsize k = strlen (key);
  guint pages = 0;
  for (gsize i = 0; i + k < len; i++)
    pages += memcmp (data + i, key, k) == 0 && data[i + k] != 's';
  return pages;
}

/* --from/--to: one PDF page or one numbered file per step; bad ranges refused. */
static void
test_export_range (void)
{
  g_autofree char *tmp = make_tmp ();
  g_autofree char *pdf = g_build_filename (tmp, "range.pdf", NULL);
  g_autofree char *prefix = g_build_filename (tmp, "slide", NULL);
  g_auto (Result) a = { 0 }, b = { 0 }, c = { 0 }, d = { 0 }, e = { 0 }, f = { 0 };
  cli (&a, "export", "spf-vs-munmap", "--view", "lanes", "--from", "0", "--to", "5", "--format",
       "pdf", "-o", pdf, NULL);
  g_assert_cmpint (a.status, ==, 0);
  g_assert_cmpuint (pdf_pages (pdf), ==, 6);
  cli (&b, "export", "spf-vs-munmap", "--view", "counters", "--from", "40", "--to", "42",
       "--format", "png", "-o", prefix, NULL);
  g_assert_cmpint (b.status, ==, 0);
  for (guint step = 39; step <= 43; step++)
    {
      g_autofree char *file = g_strdup_printf ("%s-%06u.png", prefix, step);
      g_assert_cmpint (g_file_test (file, G_FILE_TEST_EXISTS), ==, step >= 40 && step <= 42);
    }
  cli (&c, "export", "spf-vs-munmap", "--view", "lanes", "--from", "5", "--to", "2", "-o", pdf,
       NULL);
  g_assert_cmpint (c.status, ==, 2);
  g_assert_nonnull (strstr (c.err, "--from 5 --to 2"));
  assert_one_line (c.err);
  cli (&d, "export", "spf-vs-munmap", "--view", "lanes", "--from", "1", "--step", "3", "-o", pdf,
       NULL);
  g_assert_cmpint (d.status, ==, 2);
  g_assert_nonnull (strstr (d.err, "--step"));
  assert_one_line (d.err);
  cli (&e, "export", "spf-vs-munmap", "--view", "lanes", "--from", "0", "--to", "100000", "-o",
       pdf, NULL);
  g_assert_cmpint (e.status, ==, 2);
  assert_one_line (e.err);
  /* the single step still works */
  cli (&f, "export", "spf-vs-munmap", "--view", "lanes", "--step", "40", "-o", pdf, NULL);
  g_assert_cmpint (f.status, ==, 0);
  g_assert_cmpuint (pdf_pages (pdf), ==, 1);
  remove_tree (tmp);
}

/* The height in a PNG's header. */
static guint32
png_height (const char *path)
{
  g_autofree guchar *bytes = NULL;
  gsize len = 0;
  g_assert_true (g_file_get_contents (path, (char **) &bytes, &len, NULL));
  g_assert_cmpuint (len, >, 24);
  return (guint32) bytes[20] << 24 | (guint32) bytes[21] << 16 | (guint32) bytes[22] << 8
         | bytes[23];
}

/* --step N draws the step of the whole run, as the window and the range export do (not a run
 * cut short at N: "step 30 of 30"), so both give the same image; a missing --view or -o is
 * said as missing. */
static void
test_export_step (void)
{
  g_autofree char *tmp = make_tmp ();
  g_autofree char *single = g_build_filename (tmp, "single.png", NULL);
  g_autofree char *prefix = g_build_filename (tmp, "range", NULL);
  g_autofree char *ranged = g_build_filename (tmp, "range-000030.png", NULL);
  const char *views[] = { "lanes", "all" };
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      g_auto (Result) a = { 0 }, b = { 0 };
      cli (&a, "export", "spf-vs-munmap", "--view", views[i], "--step", "30", "-o", single, NULL);
      cli (&b, "export", "spf-vs-munmap", "--view", views[i], "--from", "30", "--to", "30",
           "--format", "png", "-o", prefix, NULL);
      g_assert_cmpint (a.status, ==, 0);
      g_assert_cmpint (b.status, ==, 0);
      g_autofree char *one = NULL, *other = NULL;
      gsize n_one = 0, n_other = 0;
      g_assert_true (g_file_get_contents (single, &one, &n_one, NULL));
      g_assert_true (g_file_get_contents (ranged, &other, &n_other, NULL));
      g_assert_true (n_one == n_other && memcmp (one, other, n_one) == 0);
      g_unlink (ranged);
    }
  /* the lanes are a strip: without --height as tall as they need, not 720 with half blank */
  g_auto (Result) strip = { 0 }, tall = { 0 }, zero = { 0 };
  cli (&strip, "export", "spf-vs-munmap", "--view", "lanes", "-o", single, NULL);
  g_assert_cmpint (strip.status, ==, 0);
  g_assert_cmpuint (png_height (single), <, 360);
  g_assert_cmpuint (png_height (single), >, 100);
  cli (&tall, "export", "spf-vs-munmap", "--view", "lanes", "--height", "720", "-o", single, NULL);
  g_assert_cmpint (tall.status, ==, 0);
  g_assert_cmpuint (png_height (single), ==, 720);
  cli (&zero, "export", "spf-vs-munmap", "--view", "lanes", "--height", "0", "-o", single, NULL);
  g_assert_cmpint (zero.status, ==, 2);
  g_assert_nonnull (strstr (zero.err, "--height 0: expected"));

  /* So is every view drawn alone: the tree, the tables, the lines, RCU and the counters of
   * step 30 fill a fraction of 720 pixels (the rest was blank, issue 19); the listing fills
   * them; an asked height is kept */
  const struct { const char *view; guint max; } alone[] = {
    { "vma", 400 }, { "pgtable", 360 }, { "cache", 640 }, { "rcu", 360 }, { "counters", 300 },
    { "listing", 760 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (alone); i++)
    {
      g_auto (Result) r = { 0 }, asked = { 0 };
      cli (&r, "export", "spf-vs-munmap", "--view", alone[i].view, "--step", "30", "-o", single,
           NULL);
      g_assert_cmpint (r.status, ==, 0);
      if (png_height (single) > alone[i].max || png_height (single) < 200)
        g_error ("--view %s: %u pixels tall", alone[i].view, png_height (single));
      cli (&asked, "export", "spf-vs-munmap", "--view", alone[i].view, "--step", "30",
           "--height", "720", "-o", single, NULL);
      g_assert_cmpint (asked.status, ==, 0);
      g_assert_cmpuint (png_height (single), ==, 720);
    }

  g_auto (Result) no_view = { 0 }, no_file = { 0 }, no_ending = { 0 };
  cli (&no_view, "export", "spf-vs-munmap", "-o", single, NULL);
  g_assert_cmpint (no_view.status, ==, 2);
  g_assert_nonnull (strstr (no_view.err, "export needs --view VIEW"));
  cli (&no_file, "export", "spf-vs-munmap", "--view", "lanes", NULL);
  g_assert_cmpint (no_file.status, ==, 2);
  g_assert_nonnull (strstr (no_file.err, "export needs -o FILE"));
  cli (&no_ending, "export", "spf-vs-munmap", "--view", "lanes", "-o", prefix, NULL);
  g_assert_cmpint (no_ending.status, ==, 2);
  g_assert_nonnull (strstr (no_ending.err, "has no .png, .svg or .pdf ending"));
  remove_tree (tmp);
}

/* --set's help says what every switch decides and what each value means, from the core's
 * table; a bad value's error says it too. */
static void
test_switches_described (void)
{
  g_auto (Result) help = { 0 }, bad = { 0 };
  cli (&help, "run", "--help", NULL);
  g_assert_cmpint (help.status, ==, 0);
  g_assert_nonnull (strstr (help.out, "Switches for --set KEY=VALUE"));
  g_assert_nonnull (strstr (help.out, "  rwsem              How mmap_sem is built\n"
                                      "    generic          a spinlock guarding a count and a "
                                      "wait list, as x86-64 used in 2.6.32\n"));
  g_assert_nonnull (strstr (help.out, "    v2-as-posted     the patch as posted, with its bugs"));
  cli (&bad, "run", "spf-vs-munmap", "--set", "vma-free=later", NULL);
  g_assert_cmpint (bad.status, ==, 2);
  g_assert_nonnull (strstr (bad.err, "(valid: rcu, immediate). When munmap frees an unlinked "
                                     "VMA; rcu: after an RCU grace period"));
}

/* Both runs, their difference, and the finding only B has; bad switches named. */
static void
test_compare (void)
{
  g_autofree char *tmp = make_tmp ();
  g_autofree char *png = g_build_filename (tmp, "cmp.png", NULL);
  g_auto (Result) r = { 0 }, text = { 0 }, key = { 0 }, value = { 0 }, none = { 0 }, fmt = { 0 };
  cli (&r, "compare", "spf-vs-munmap", "--a", "vma-free=rcu", "--b", "vma-free=immediate",
       "--json", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_autoptr (JsonParser) p = NULL;
  JsonObject *root = parse_json (r.out, &p);
  g_assert_cmpstr (json_object_get_string_member (root, "scenario"), ==, "spf-vs-munmap");
  JsonObject *a = json_object_get_object_member (root, "a");
  JsonObject *b = json_object_get_object_member (root, "b");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (a, "switches"),
                                                  "vma-free"), ==, "rcu");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (b, "switches"),
                                                  "vma-free"), ==, "immediate");
  g_assert_false (has_finding (a, "use-after-free"));
  g_assert_true (has_finding (b, "use-after-free"));
  JsonObject *finding = json_array_get_object_element (json_object_get_array_member (b, "findings"), 0);
  g_assert_true (json_object_get_boolean_member (finding, "only_here"));
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (a, "counters"), "faults"),
                   >, 0);
  JsonObject *diff = json_object_get_object_member (root, "difference");
  JsonObject *findings = json_object_get_object_member (diff, "findings");
  g_assert_cmpint (json_object_get_int_member (findings, "delta"), >=, 1);

  cli (&text, "compare", "spf-vs-munmap", "--a", "vma-free=rcu", "--b", "vma-free=immediate",
       "-o", png, NULL);
  g_assert_cmpint (text.status, ==, 1);
  g_assert_nonnull (strstr (text.out, "only in B"));
  g_assert_true (g_file_test (png, G_FILE_TEST_EXISTS));

  cli (&key, "compare", "spf-vs-munmap", "--a", "colour=blue", "--b", "vma-free=immediate", NULL);
  g_assert_cmpint (key.status, ==, 2);
  g_assert_nonnull (strstr (key.err, "--a"));
  g_assert_nonnull (strstr (key.err, "colour"));
  assert_one_line (key.err);
  cli (&value, "compare", "spf-vs-munmap", "--a", "vma-free=rcu", "--b", "rwsem=spinlock", NULL);
  g_assert_cmpint (value.status, ==, 2);
  g_assert_nonnull (strstr (value.err, "--b"));
  assert_one_line (value.err);
  cli (&none, "compare", "spf-vs-munmap", "--a", "vma-free=rcu", NULL);
  g_assert_cmpint (none.status, ==, 2);
  assert_one_line (none.err);
  cli (&fmt, "compare", "spf-vs-munmap", "--a", "vma-free=rcu", "--b", "vma-free=immediate", "-o",
       "x.bmp", NULL);
  g_assert_cmpint (fmt.status, ==, 2);
  assert_one_line (fmt.err);
  remove_tree (tmp);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/list", test_list_has_the_library);
  g_test_add_func ("/cli/run/builtins-clean", test_builtins_are_clean);
  g_test_add_func ("/cli/run/broken-designs", test_broken_designs_are_caught);
  g_test_add_func ("/cli/run/munmap-trace", test_munmap_trace_shows_fallback);
  g_test_add_func ("/cli/run/rotation-miss", test_rotation_miss_counted);
  g_test_add_func ("/cli/run/step-numbers", test_step_numbers_agree);
  g_test_add_func ("/cli/run/totals-are-sums", test_totals_are_sums);
  g_test_add_func ("/cli/run/trace-says-what", test_trace_says_what);
  g_test_add_func ("/cli/numbers-in-english", test_numbers_in_english);
  g_test_add_func ("/cli/run/determinism", test_same_seed_same_hash);
  g_test_add_func ("/cli/run/schedule-points", test_schedule_points);
  g_test_add_func ("/cli/run/bad-options", test_bad_options);
  g_test_add_func ("/cli/run/bad-corpus", test_bad_corpus);
  g_test_add_func ("/cli/export/range", test_export_range);
  g_test_add_func ("/cli/export/step", test_export_step);
  g_test_add_func ("/cli/switches-described", test_switches_described);
  g_test_add_func ("/cli/compare", test_compare);
  return g_test_run ();
}
