/* Tests of the scenario format: the good and bad corpora in tests/data, round trips, the
 * limits, loading, and a mutation run that must never crash the parser. */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "fl-scenario.h"

/* ---- helpers ------------------------------------------------------------------------------ */

static char *
data_dir (const char *kind)
{
  /* tests/meson.build points G_TEST_SRCDIR at tests/; run by hand, the binary sits in
   * build/tests/core and the data is found next to the sources through G_TEST_DIST. */
  return g_test_build_filename (G_TEST_DIST, "data", kind, NULL);
}

static int
compare_paths (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* The .fault files of a corpus, sorted so failures read the same on every machine. */
static GPtrArray *
corpus (const char *kind)
{
  g_autofree char *dir = data_dir (kind);
  g_autoptr (GError) error = NULL;
  g_autoptr (GDir) handle = g_dir_open (dir, 0, &error);
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_no_error (error);
  while ((name = g_dir_read_name (handle)) != NULL)
    if (g_str_has_suffix (name, ".fault"))
      g_ptr_array_add (paths, g_build_filename (dir, name, NULL));
  g_ptr_array_sort (paths, compare_paths);
  return paths;
}

static FlScenario *
parse_ok (const char *text)
{
  g_autoptr (GError) error = NULL;
  FlScenario *s = fl_scenario_parse (text, "test.fault", &error);
  g_assert_no_error (error);
  g_assert_nonnull (s);
  return s;
}

/* Returns the message, asserting it starts with "test.fault:LINE: ". */
static char *
parse_fails_at (const char *text, guint line)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FlScenario) s = fl_scenario_parse (text, "test.fault", &error);
  g_autofree char *prefix = g_strdup_printf ("test.fault:%u: ", line);
  g_assert_null (s);
  g_assert_nonnull (error);
  g_assert_true (error->domain == FL_SCENARIO_ERROR);
  if (!g_str_has_prefix (error->message, prefix))
    g_error ("expected '%s…', got '%s'", prefix, error->message);
  return g_strdup (error->message);
}

static const FlOp *
op_at (const FlScenario *s, guint cpu, guint index)
{
  const FlProgram *program = g_ptr_array_index (s->programs, cpu);
  g_assert_cmpuint (index, <, program->ops->len);
  return &g_array_index (program->ops, FlOp, index);
}

static guint
ops_len (const FlScenario *s, guint cpu)
{
  return ((const FlProgram *) g_ptr_array_index (s->programs, cpu))->ops->len;
}

/* parse (to_text (s)) equals s, and writing it again gives the same bytes. */
static void
assert_round_trip (const FlScenario *s)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *text = fl_scenario_to_text (s);
  g_autoptr (FlScenario) again = fl_scenario_parse (text, "canonical.fault", &error);
  if (again == NULL)
    g_error ("canonical text does not parse: %s\n%s", error->message, text);
  g_assert_true (fl_scenario_equal (s, again));
  g_autofree char *text2 = fl_scenario_to_text (again);
  g_assert_cmpstr (text, ==, text2);
  g_assert_cmpstr (again->text, ==, text);
}

/* ---- the good corpus: what each file must hold ------------------------------------------ */

static void
check_spf_vs_munmap (const FlScenario *s)
{
  g_assert_cmpstr (s->title, ==, "munmap races a speculative fault");
  g_assert_true (g_str_has_prefix (s->description, "CPU 0 takes a speculative page fault"));
  /* Three description= lines joined with single spaces. */
  g_assert_nonnull (strstr (s->description, "unmaps it. The schedule"));
  g_assert_nonnull (strstr (s->description, "finish munmap, then resumes"));
  g_assert_cmpstr (s->expect, ==,
                   "The speculative fault finds its VMA unlinked and retries under mmap_sem.");
  g_assert_cmpuint (g_strv_length (s->tags), ==, 3);
  g_assert_cmpstr (s->tags[2], ==, "rcu");
  g_assert_cmpuint (s->seed, ==, 1);
  g_assert_cmpuint (s->config.cpus, ==, 2);
  g_assert_cmpint (s->config.rwsem, ==, FL_RWSEM_XADD);
  g_assert_cmpuint (g_strv_length (s->config_keys), ==, 3);
  g_assert_cmpstr (s->config_keys[1], ==, "fault-path");

  g_assert_cmpuint (s->vmas->len, ==, 2);
  const FlScenarioVma *hole = &g_array_index (s->vmas, FlScenarioVma, 1);
  g_assert_cmpuint (hole->start, ==, 0x7f0000010000);
  g_assert_cmpuint (hole->prot, ==, 0);
  g_assert_cmpuint (hole->line, ==, 18);
  const FlScenarioPte *pte = &g_array_index (s->ptes, FlScenarioPte, 0);
  g_assert_cmpuint (pte->addr, ==, 0x7f0000001000);
  g_assert_cmpint (pte->state, ==, FL_PTE_INIT_SWAP);

  g_assert_cmpuint (s->programs->len, ==, 2);
  g_assert_cmpuint (ops_len (s, 0), ==, 1);
  g_assert_true (op_at (s, 0, 0)->write);
  g_assert_cmpuint (ops_len (s, 1), ==, 4);
  const FlOp *repeat = op_at (s, 1, 1);
  g_assert_cmpint (repeat->kind, ==, FL_OP_REPEAT);
  g_assert_cmpuint (repeat->count, ==, 512);
  g_assert_cmpuint (repeat->body, ==, 1);
  g_assert_cmpint (op_at (s, 1, 2)->mode, ==, FL_ADDR_CURSOR);
  g_assert_cmpuint (op_at (s, 1, 2)->step, ==, 4096);
  g_assert_cmpint (op_at (s, 1, 3)->kind, ==, FL_OP_MADVISE_DONTNEED);
  g_assert_cmpint (op_at (s, 1, 3)->mode, ==, FL_ADDR_BASE);
  g_assert_cmpuint (op_at (s, 1, 3)->len, ==, 0x200000);

  g_assert_cmpuint (s->schedule->len, ==, 5);
  const FlScheduleStep *steps = (const FlScheduleStep *) s->schedule->data;
  g_assert_cmpint (steps[0].kind, ==, FL_UNTIL_FUNCTION);
  g_assert_cmpstr (steps[0].target, ==, "rcu_read_lock");
  g_assert_cmpint (steps[1].kind, ==, FL_UNTIL_END);
  g_assert_cmpuint (steps[1].cpu, ==, 1);
  g_assert_cmpint (steps[2].kind, ==, FL_UNTIL_STEPS);
  g_assert_cmpuint (steps[2].steps, ==, 10);
  g_assert_cmpint (steps[3].kind, ==, FL_UNTIL_LOCATION);
  g_assert_cmpstr (steps[3].target, ==, "pte_map_lock:trylock");
  g_assert_cmpuint (steps[3].line, ==, 31);
}

static void
check_every_op (const FlScenario *s)
{
  static const FlOpKind kinds[] = {
    FL_OP_FAULT, FL_OP_FAULT, FL_OP_FAULT, FL_OP_FAULT, FL_OP_MMAP, FL_OP_MMAP, FL_OP_MMAP,
    FL_OP_MUNMAP, FL_OP_MPROTECT, FL_OP_MPROTECT, FL_OP_MADVISE_DONTNEED, FL_OP_FORK_WP,
    FL_OP_SWAP_OUT, FL_OP_MIGRATE, FL_OP_SWAP_OUT, FL_OP_MIGRATE, FL_OP_BARRIER,
    FL_OP_REPEAT, FL_OP_FAULT, FL_OP_BARRIER,
  };
  const FlProgram *program = g_ptr_array_index (s->programs, 0);

  g_assert_cmpuint (s->seed, ==, 42);
  g_assert_cmpuint (program->base, ==, 0x600000000000);
  g_assert_cmpuint (program->ops->len, ==, G_N_ELEMENTS (kinds));
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    g_assert_cmpint (op_at (s, 0, i)->kind, ==, kinds[i]);

  /* The four address forms. */
  g_assert_cmpint (op_at (s, 0, 0)->mode, ==, FL_ADDR_ABSOLUTE);
  g_assert_false (op_at (s, 0, 0)->write);
  g_assert_cmpint (op_at (s, 0, 1)->mode, ==, FL_ADDR_BASE);
  g_assert_cmpuint (op_at (s, 0, 1)->addr, ==, 0);
  g_assert_cmpuint (op_at (s, 0, 2)->addr, ==, 0x1000);
  g_assert_cmpint (op_at (s, 0, 3)->mode, ==, FL_ADDR_CURSOR);

  /* Lengths in hex, decimal and with suffixes; permissions and kinds. */
  const FlOp *mmap_file = op_at (s, 0, 5);
  g_assert_cmpuint (mmap_file->len, ==, 64 * 1024);
  g_assert_cmpuint (mmap_file->prot, ==, FL_PROT_READ | FL_PROT_EXEC);
  g_assert_cmpint (mmap_file->map_kind, ==, FL_MAP_FILE);
  const FlOp *mmap_shared = op_at (s, 0, 6);
  g_assert_cmpint (mmap_shared->map_kind, ==, FL_MAP_SHARED);
  g_assert_cmpuint (mmap_shared->step, ==, 0x2000);
  g_assert_cmpuint (mmap_shared->len, ==, 8192);
  g_assert_cmpuint (op_at (s, 0, 8)->prot, ==, FL_PROT_READ);
  g_assert_cmpuint (op_at (s, 0, 9)->prot, ==, FL_PROT_READ | FL_PROT_WRITE | FL_PROT_EXEC);
  g_assert_cmpuint (op_at (s, 0, 9)->step, ==, 4096);
  g_assert_cmpuint (op_at (s, 0, 10)->len, ==, 2 * 1024 * 1024);
  g_assert_cmpuint (op_at (s, 0, 14)->step, ==, 0);
  g_assert_cmpuint (op_at (s, 0, 17)->body, ==, 2);
  g_assert_cmpuint (op_at (s, 0, 17)->count, ==, 3);
}

static void
check_nested_repeats (const FlScenario *s)
{
  /* repeat 4 { fault; repeat 2 { munmap; mmap } }; repeat 10000000 { fault } */
  g_assert_cmpuint (ops_len (s, 0), ==, 7);
  g_assert_cmpuint (op_at (s, 0, 0)->count, ==, 4);
  g_assert_cmpuint (op_at (s, 0, 0)->body, ==, 4);
  g_assert_cmpuint (op_at (s, 0, 0)->line, ==, 15);
  g_assert_cmpint (op_at (s, 0, 2)->kind, ==, FL_OP_REPEAT);
  g_assert_cmpuint (op_at (s, 0, 2)->count, ==, 2);
  g_assert_cmpuint (op_at (s, 0, 2)->body, ==, 2);
  g_assert_cmpuint (op_at (s, 0, 2)->line, ==, 17);
  g_assert_cmpint (op_at (s, 0, 4)->kind, ==, FL_OP_MMAP);
  g_assert_cmpuint (op_at (s, 0, 5)->count, ==, 10000000);
  g_assert_cmpuint (op_at (s, 0, 5)->body, ==, 1);

  /* The deepest nesting allowed: each body holds everything inside it. */
  g_assert_cmpuint (ops_len (s, 1), ==, FL_SCENARIO_MAX_DEPTH + 1);
  for (guint i = 0; i < FL_SCENARIO_MAX_DEPTH; i++)
    {
      g_assert_cmpint (op_at (s, 1, i)->kind, ==, FL_OP_REPEAT);
      g_assert_cmpuint (op_at (s, 1, i)->body, ==, FL_SCENARIO_MAX_DEPTH - i);
    }
  g_assert_cmpuint (op_at (s, 1, FL_SCENARIO_MAX_DEPTH - 1)->count, ==, 2);
}

static void
check_mappings (const FlScenario *s)
{
  static const FlPteInit states[] = {
    FL_PTE_INIT_PRESENT, FL_PTE_INIT_READONLY, FL_PTE_INIT_SWAP, FL_PTE_INIT_MIGRATION,
    FL_PTE_INIT_PRESENT, FL_PTE_INIT_MIGRATION,
  };
  const FlScenarioVma *vmas = (const FlScenarioVma *) s->vmas->data;

  g_assert_cmpuint (s->vmas->len, ==, 5);
  g_assert_cmpint (vmas[0].kind, ==, FL_MAP_ANON);
  g_assert_cmpuint (vmas[1].prot, ==, 0);
  g_assert_cmpint (vmas[2].kind, ==, FL_MAP_FILE);
  g_assert_cmpuint (vmas[2].prot, ==, FL_PROT_READ | FL_PROT_EXEC);
  g_assert_cmpint (vmas[3].kind, ==, FL_MAP_SHARED);
  g_assert_cmpuint (vmas[4].prot, ==, FL_PROT_READ | FL_PROT_WRITE | FL_PROT_EXEC);
  g_assert_cmpuint (vmas[4].end, ==, 0x7f3000001000);
  g_assert_cmpuint (s->ptes->len, ==, G_N_ELEMENTS (states));
  for (guint i = 0; i < G_N_ELEMENTS (states); i++)
    g_assert_cmpint (g_array_index (s->ptes, FlScenarioPte, i).state, ==, states[i]);

  g_assert_cmpint (s->config.vma_free, ==, FL_VMA_FREE_IMMEDIATE);
  g_assert_false (s->config.spf_seqcheck);
  g_assert_cmpuint (s->config.cost.ipi, ==, 2000);
  g_assert_cmpuint (g_strv_length (s->config_keys), ==, 4);
  /* Every key not set keeps its default. */
  g_assert_cmpint (s->config.rwsem, ==, FL_RWSEM_GENERIC);
  g_assert_cmpuint (s->programs->len, ==, 1);
}

static void
check_schedule (const FlScenario *s)
{
  static const struct { guint cpu; FlUntilKind kind; const char *target; } want[] = {
    { 0, FL_UNTIL_FUNCTION, "handle_speculative_fault" },
    { 1, FL_UNTIL_LOCATION, "vma_adjust:seq_begin" },
    { 3, FL_UNTIL_STEPS, NULL },
    { 0, FL_UNTIL_LOCATION, "do_anonymous_page:set_pte" },
    { 1, FL_UNTIL_END, NULL },
    { 2, FL_UNTIL_END, NULL },
    { 3, FL_UNTIL_END, NULL },
    { 0, FL_UNTIL_END, NULL },
  };

  g_assert_cmpuint (s->seed, ==, G_MAXUINT64);
  g_assert_cmpuint (s->programs->len, ==, 4);
  /* No [cpu2]: an empty program. */
  g_assert_cmpuint (ops_len (s, 2), ==, 0);
  g_assert_cmpuint (s->schedule->len, ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    {
      const FlScheduleStep *step = &g_array_index (s->schedule, FlScheduleStep, i);
      g_assert_cmpuint (step->cpu, ==, want[i].cpu);
      g_assert_cmpint (step->kind, ==, want[i].kind);
      g_assert_cmpstr (step->target, ==, want[i].target);
    }
  g_assert_cmpuint (g_array_index (s->schedule, FlScheduleStep, 2).steps, ==, 25);
  g_assert_cmpuint (g_array_index (s->schedule, FlScheduleStep, 7).line, ==, 28);
}

static void
check_will_it_scale (const FlScenario *s)
{
  g_assert_cmpuint (s->programs->len, ==, 4);
  g_assert_cmpuint (s->vmas->len, ==, 0);
  g_assert_cmpint (s->config.fault_path, ==, FL_FAULT_PATH_LOCKED);
  g_assert_cmpint (s->config.rss, ==, FL_RSS_PER_THREAD);
  for (guint cpu = 0; cpu < 4; cpu++)
    {
      const FlProgram *program = g_ptr_array_index (s->programs, cpu);
      guint64 base = 0x7f0000000000 + cpu * G_GUINT64_CONSTANT (0x1000000000);
      g_assert_cmpuint (program->base, ==, base);
      g_assert_cmpuint (program->ops->len, ==, 5);
      g_assert_cmpuint (op_at (s, cpu, 0)->body, ==, 4);
      g_assert_cmpuint (op_at (s, cpu, 1)->len, ==, 1024 * 1024);
      g_assert_cmpuint (op_at (s, cpu, 2)->count, ==, 256);
    }
}

static void
check_minimal (const FlScenario *s)
{
  FlConfig defaults;
  fl_config_init_defaults (&defaults);
  g_assert_cmpstr (s->title, ==, "Nothing but a title");
  g_assert_null (s->description);
  g_assert_null (s->expect);
  g_assert_nonnull (s->tags);
  g_assert_null (s->tags[0]);
  g_assert_null (s->config_keys[0]);
  g_assert_cmpuint (s->seed, ==, 0);
  g_assert_cmpuint (s->programs->len, ==, defaults.cpus);
  g_assert_cmpuint (s->schedule->len, ==, 0);
}

static void
check_layout (const FlScenario *s)
{
  g_assert_cmpstr (s->title, ==, "Layout the parser tolerates");
  g_assert_cmpstr (s->description, ==,
                   "#1: prose keeps its hash signs; and blank description lines are skipped.");
  g_assert_cmpstr (s->expect, ==, "Same scenario as the tidy version. # not a comment here");
  g_assert_cmpuint (g_strv_length (s->tags), ==, 3);
  g_assert_cmpuint (s->config.cpus, ==, 1);
  g_assert_cmpuint (g_array_index (s->vmas, FlScenarioVma, 0).start, ==, 0x7f0000000000);
  g_assert_cmpuint (ops_len (s, 0), ==, 2);
  g_assert_cmpuint (op_at (s, 0, 1)->line, ==, 18);
}

static const struct {
  const char *name;
  void (*check) (const FlScenario *s);
} good_checks[] = {
  { "spf-vs-munmap.fault", check_spf_vs_munmap },
  { "every-op.fault", check_every_op },
  { "nested-repeats.fault", check_nested_repeats },
  { "mappings.fault", check_mappings },
  { "schedule.fault", check_schedule },
  { "will-it-scale-pf1.fault", check_will_it_scale },
  { "minimal.fault", check_minimal },
  { "layout.fault", check_layout },
};

static void
test_good_corpus (void)
{
  g_autoptr (GPtrArray) paths = corpus ("good");
  guint checked = 0;

  g_assert_cmpuint (paths->len, >=, 6);
  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      g_autofree char *name = g_path_get_basename (path);
      g_autoptr (GError) error = NULL;
      g_autoptr (FlScenario) s = fl_scenario_load_file (path, &error);
      g_autofree char *contents = NULL;

      g_test_message ("%s", name);
      g_assert_no_error (error);
      g_assert_cmpstr (s->path, ==, path);
      g_assert_true (g_str_has_prefix (name, s->id));
      g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
      g_assert_cmpstr (s->text, ==, contents);
      g_assert_cmpuint (s->programs->len, ==, s->config.cpus);
      for (guint c = 0; c < G_N_ELEMENTS (good_checks); c++)
        if (strcmp (name, good_checks[c].name) == 0)
          {
            good_checks[c].check (s);
            checked++;
          }
      assert_round_trip (s);
    }
  /* Each checker found its file: renaming one must not silently skip its checks. */
  g_assert_cmpuint (checked, ==, G_N_ELEMENTS (good_checks));
}

/* ---- the bad corpus ----------------------------------------------------------------------- */

/* What the editor relies on: the line and the message come apart exactly, for the source
 * name the text was parsed under (here a file's path, with its slashes and digits). */
static void
assert_error_line (const GError *error, const char *source, guint expect_line)
{
  guint line = 0;
  const char *what = NULL;

  g_assert_true (fl_scenario_error_get_line (error, source, &line, &what));
  g_assert_cmpuint (line, ==, expect_line);
  g_assert_true (g_str_has_suffix (error->message, what));
  g_assert_false (g_str_has_prefix (what, " "));
  g_assert_cmpuint (strlen (what), >, 0);
  /* another source name is not this error's */
  g_assert_false (fl_scenario_error_get_line (error, "other.fault", NULL, NULL));
}

static void
test_error_line (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GError) other = g_error_new_literal (G_FILE_ERROR, G_FILE_ERROR_NOENT,
                                                  "<text>:3: looks alike");
  guint line = 0;
  const char *what = NULL;
  g_autoptr (FlScenario) s = fl_scenario_parse ("[scenario]\ntitle=t\n\n[cpu0]\n"
                                                "ops=fualt 0x1000 read\n", NULL, &error);

  g_assert_null (s);
  g_assert_true (fl_scenario_error_get_line (error, NULL, &line, &what));
  g_assert_cmpuint (line, ==, 5);
  g_assert_true (g_str_has_prefix (what, "unknown operation"));
  g_assert_false (fl_scenario_error_get_line (other, NULL, &line, NULL));
}

/* A misspelt stop point is refused at its line with the nearest valid names: accepted, it
 * would never be reached and the race it sets up would silently not happen. */
static void
test_unknown_stop_point (void)
{
  static const struct { const char *point, *nearest; } cases[] = {
    { "handle_pte_fualt", "the nearest are handle_pte_fault, " },
    { "do_wp_page:clear_flsh", "the nearest are do_wp_page:clear_flush, " },
    { "pte_map_lock:trylok", "the nearest are pte_map_lock:trylock, " },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *text = g_strdup_printf ("[scenario]\ntitle=t\n[config]\ncpus=2\n"
                                               "[cpu0]\nops=fault 0x1000 read\n[schedule]\n"
                                               "steps=cpu1 for 2;cpu0 until %s\n", cases[i].point);
      g_autoptr (FlScenario) s = fl_scenario_parse (text, NULL, &error);
      g_assert_null (s);
      g_autofree char *want = g_strdup_printf ("<text>:8: unknown stop point '%s' (expected a "
                                               "modeled function or listing location; %s",
                                               cases[i].point, cases[i].nearest);
      if (!g_str_has_prefix (error->message, want))
        g_error ("expected '%s…', got '%s'", want, error->message);
    }
  /* every form the listings have is accepted: a function, a bare tag, function:tag */
  const char *valid[] = { "handle_pte_fault", "rcu_read_lock", "pte_map_lock:trylock" };
  for (guint i = 0; i < G_N_ELEMENTS (valid); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *text = g_strdup_printf ("[scenario]\ntitle=t\n[cpu0]\nops=fault 0x1000 "
                                               "read\n[schedule]\nsteps=cpu0 until %s\n", valid[i]);
      g_autoptr (FlScenario) s = fl_scenario_parse (text, NULL, &error);
      g_assert_no_error (error);
    }
}

static void
test_bad_corpus (void)
{
  g_autoptr (GPtrArray) paths = corpus ("bad");

  g_assert_cmpuint (paths->len, >=, 30);
  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      g_autofree char *name = g_path_get_basename (path);
      g_autofree char *contents = NULL;
      g_autoptr (GError) error = NULL;
      guint expect_line = 1;   /* an empty file cannot say; its error is on line 1 */

      g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
      if (*contents != '\0')
        {
          g_assert_true (g_str_has_prefix (contents, "# expect-line: "));
          expect_line = (guint) g_ascii_strtoull (contents + strlen ("# expect-line: "), NULL, 10);
        }

      g_autoptr (FlScenario) s = fl_scenario_load_file (path, &error);
      g_autofree char *want = g_strdup_printf ("%s:%u: ", name, expect_line);
      if (s != NULL)
        g_error ("%s parsed, but it should fail on line %u", name, expect_line);
      g_assert_nonnull (error);
      g_test_message ("%s", error->message);
      g_assert_true (g_error_matches (error, FL_SCENARIO_ERROR, FL_SCENARIO_ERROR_PARSE)
                     || g_error_matches (error, FL_SCENARIO_ERROR, FL_SCENARIO_ERROR_INVALID));
      if (strstr (error->message, want) == NULL)
        g_error ("%s: expected '%s' in '%s'", name, want, error->message);
      /* Every message says what was expected (the design switches' own words: the valid
       * values, or what to raise). */
      g_assert_true (strstr (error->message, "expected") || strstr (error->message, "valid")
                     || strstr (error->message, "raise"));
      assert_error_line (error, path, expect_line);
    }
}

/* ---- the format in detail ----------------------------------------------------------------- */

static void
test_flattened_repeats (void)
{
  g_autoptr (FlScenario) s = parse_ok (
    "[scenario]\ntitle=t\n[config]\ncpus=1\n[cpu0]\nbase=0x10000\n"
    "ops=barrier; repeat 2 { fault +4096 read; repeat 3 { repeat 4 { barrier } }; barrier }\n"
    "ops=fault base write\n");

  /* barrier, R2, fault, R3, R4, barrier, barrier, fault */
  g_assert_cmpuint (ops_len (s, 0), ==, 8);
  g_assert_cmpuint (op_at (s, 0, 1)->body, ==, 5);
  g_assert_cmpuint (op_at (s, 0, 3)->body, ==, 2);
  g_assert_cmpuint (op_at (s, 0, 4)->body, ==, 1);
  g_assert_cmpuint (op_at (s, 0, 4)->count, ==, 4);
  g_assert_cmpint (op_at (s, 0, 6)->kind, ==, FL_OP_BARRIER);
  g_assert_cmpuint (op_at (s, 0, 7)->line, ==, 8);
  assert_round_trip (s);
}

static void
test_cursor_reach (void)
{
  /* 0x7f0000000000 + 2^20 pages of 4 KiB = 0x7f0100000000; well inside user space. */
  g_autoptr (FlScenario) s = parse_ok (
    "[scenario]\ntitle=t\n[cpu0]\nbase=0x7f0000000000\n"
    "ops=repeat 1024 { repeat 1024 { fault +4096 write } }\n");
  g_assert_nonnull (s);

  /* The last page of user space may be touched, not one byte beyond it. */
  g_autoptr (FlScenario) last = parse_ok (
    "[scenario]\ntitle=t\n[cpu0]\nbase=0x7fffffffe000\nops=repeat 2 { fault +4096 write }\n");
  g_free (parse_fails_at (
    "[scenario]\ntitle=t\n[cpu0]\nbase=0x7fffffffe000\nops=repeat 3 { fault +4096 write }\n", 5));

  /* An absolute address inside the body restarts each iteration: no runaway. */
  g_autoptr (FlScenario) reset = parse_ok (
    "[scenario]\ntitle=t\n[cpu0]\n"
    "ops=repeat 10000000 { fault 0x7ffffffff000 read; repeat 10000000 { fault +0 read } }\n");
  g_free (parse_fails_at (
    "[scenario]\ntitle=t\n[cpu0]\n"
    "ops=repeat 3 { fault 0x7fffffffe000 read; repeat 3 { fault +4096 read } }\n", 4));
}

/* A preset (spf) is written back as the keys it set, later keys winning as they did: the
 * canonical text reads back as the same scenario, and never says "spf=mixed". */
static void
test_preset_round_trips (void)
{
  const char *text = "[scenario]\ntitle=preset\n\n[config]\nspf=v2-as-posted\n"
                     "spf-mmap-cache=leave\n\n[mm]\nvma=0x7f0000000000-0x7f0000004000 rw- anon\n"
                     "\n[cpu0]\nops=fault 0x7f0000001000 write\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (FlScenario) s = fl_scenario_parse (text, "preset", &error);
  g_assert_no_error (error);
  g_autofree char *cache = fl_config_get (&s->config, "spf-mmap-cache");
  g_autofree char *order = fl_config_get (&s->config, "spf-find-vma");
  g_assert_cmpstr (cache, ==, "leave");
  g_assert_cmpstr (order, ==, "under-pte-lock");
  g_autofree char *canonical = fl_scenario_to_text (s);
  g_assert_null (strstr (canonical, "spf="));
  g_assert_nonnull (strstr (canonical, "spf-find-vma=under-pte-lock"));
  assert_round_trip (s);
}

static void
test_prose_wraps_and_round_trips (void)
{
  g_autoptr (FlScenario) s = parse_ok ("[scenario]\ntitle=t\n");
  g_autoptr (GString) long_text = g_string_new (NULL);

  for (guint i = 0; i < 80; i++)
    g_string_append_printf (long_text, "%sword%u", i ? " " : "", i);
  /* A run longer than a line, and a double space that must survive. */
  g_string_append (long_text, " Supercalifragilisticexpialidocious-and-then-some-more-"
                   "hyphenated-words-to-exceed-ninety-six-columns-in-one-piece  twice");
  s->description = g_strdup (long_text->str);
  s->expect = g_strdup ("short");

  g_autofree char *text = fl_scenario_to_text (s);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  guint description_lines = 0;
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "description="))
      description_lines++;
  g_assert_cmpuint (description_lines, >, 3);
  assert_round_trip (s);
}

static void
test_text_kept_and_ids (void)
{
  const char *text = "# hello\n[scenario]\ntitle=t   \n\n[config]\nrwsem=xadd\ncpus=1\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (FlScenario) s = fl_scenario_parse (text, "/some/dir/my-race.fault", &error);

  g_assert_no_error (error);
  g_assert_cmpstr (s->text, ==, text);
  g_assert_cmpstr (s->id, ==, "my-race");
  g_assert_null (s->path);
  g_assert_cmpstr (s->title, ==, "t");
  g_assert_cmpuint (g_strv_length (s->config_keys), ==, 2);
  g_assert_cmpstr (s->config_keys[0], ==, "rwsem");
  g_assert_cmpstr (s->config_keys[1], ==, "cpus");

  /* Only the keys the file set are written back, in its order. */
  g_autofree char *canonical = fl_scenario_to_text (s);
  g_assert_nonnull (strstr (canonical, "[config]\nrwsem=xadd\ncpus=1\n"));
  g_assert_null (strstr (canonical, "fault-path"));

  g_autoptr (FlScenario) anonymous = fl_scenario_parse (text, NULL, &error);
  g_assert_no_error (error);
  g_assert_null (anonymous->id);
}

static void
test_equal_sees_every_field (void)
{
  const char *text = "[scenario]\ntitle=t\ndescription=d\nexpect=e\ntags=a;b\nseed=3\n"
                     "[config]\ncpus=2\n[mm]\nvma=0x1000-0x3000 rw- anon\npte=0x1000 swap\n"
                     "[cpu0]\nbase=0x1000\nops=fault +4096 write; mmap base 0x1000 r-- file\n"
                     "[schedule]\nsteps=cpu0 until end\n";
  g_autoptr (FlScenario) a = parse_ok (text);
  FlOp *op;

#define DIFFERS(change) G_STMT_START {                                   \
    g_autoptr (FlScenario) b = parse_ok (text);                          \
    g_assert_true (fl_scenario_equal (a, b));                            \
    change;                                                              \
    g_assert_false (fl_scenario_equal (a, b));                           \
  } G_STMT_END

  DIFFERS (g_free (b->title); b->title = g_strdup ("u"));
  DIFFERS (g_free (b->description); b->description = NULL);
  DIFFERS (g_free (b->expect); b->expect = g_strdup ("f"));
  DIFFERS (g_free (b->tags[1]); b->tags[1] = NULL);
  DIFFERS (b->seed = 4);
  DIFFERS (b->config.rwsem = FL_RWSEM_XADD);
  DIFFERS (b->config.cost.dram++);
  DIFFERS (g_free (b->config_keys[0]); b->config_keys[0] = g_strdup ("sockets"));
  DIFFERS (g_array_index (b->vmas, FlScenarioVma, 0).prot = FL_PROT_READ);
  DIFFERS (g_array_index (b->vmas, FlScenarioVma, 0).kind = FL_MAP_SHARED);
  DIFFERS (g_array_index (b->ptes, FlScenarioPte, 0).state = FL_PTE_INIT_PRESENT);
  DIFFERS (((FlProgram *) g_ptr_array_index (b->programs, 0))->base = 0x2000);
  DIFFERS (op = (FlOp *) op_at (b, 0, 0); op->step = 8192);
  DIFFERS (op = (FlOp *) op_at (b, 0, 0); op->write = FALSE);
  DIFFERS (op = (FlOp *) op_at (b, 0, 1); op->map_kind = FL_MAP_ANON);
  DIFFERS (g_array_set_size (((FlProgram *) g_ptr_array_index (b->programs, 1))->ops, 1));
  DIFFERS (g_array_index (b->schedule, FlScheduleStep, 0).cpu = 1);
#undef DIFFERS

  /* Where things came from is not part of the scenario. */
  g_autoptr (FlScenario) c = parse_ok (text);
  g_free (c->id);
  c->id = g_strdup ("other");
  g_array_index (c->vmas, FlScenarioVma, 0).line = 99;
  g_assert_true (fl_scenario_equal (a, c));
}

static void
test_limits (void)
{
  /* Text larger than 4 MiB: refused, on the line where the limit falls. */
  g_autoptr (GString) big = g_string_new ("[scenario]\ntitle=big\n");
  while (big->len <= 4 * 1024 * 1024)
    g_string_append (big, "# padding padding padding padding padding padding padding\n");
  g_autoptr (GError) error = NULL;
  g_autoptr (FlScenario) s = fl_scenario_parse_data (big->str, big->len, "big.fault", &error);
  g_assert_null (s);
  g_assert_error (error, FL_SCENARIO_ERROR, FL_SCENARIO_ERROR_INVALID);
  g_assert_true (g_str_has_prefix (error->message, "big.fault:"));
  g_assert_nonnull (strstr (error->message, "4 MiB"));
  g_clear_error (&error);

  /* A NUL byte is reported, not taken as the end of the text. */
  static const char with_nul[] = "[scenario]\ntitle=t\n\0[cpu9]\n";
  g_autoptr (FlScenario) n = fl_scenario_parse_data (with_nul, sizeof with_nul - 1, "n", &error);
  g_assert_null (n);
  g_assert_true (g_str_has_prefix (error->message, "n:3: NUL byte"));
  g_clear_error (&error);

  /* Numbers that do not fit in 64 bits. */
  g_free (parse_fails_at ("[scenario]\ntitle=t\nseed=18446744073709551616\n", 3));
  g_free (parse_fails_at ("[scenario]\ntitle=t\n[mm]\nvma=0x10000000000000000-0x1 rw- anon\n", 4));
  g_free (parse_fails_at ("[scenario]\ntitle=t\n[cpu0]\nops=munmap 0x1000 99999999999999999999G\n",
                          4));
  /* A 1 MiB word quoted back in a message is shortened. */
  g_autoptr (GString) word = g_string_new ("[scenario]\ntitle=t\n[cpu0]\nops=");
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (word, 'x');
  g_autofree char *message = parse_fails_at (word->str, 4);
  g_assert_cmpuint (strlen (message), <, 300);
}

static void
test_crlf_and_bom (void)
{
  g_autoptr (FlScenario) s = parse_ok ("\xEF\xBB\xBF[scenario]\r\ntitle=t\r\n[cpu1]\r\n"
                                       "ops=barrier\r\n");
  g_assert_cmpstr (s->title, ==, "t");
  g_assert_cmpuint (ops_len (s, 1), ==, 1);
  /* A carriage return anywhere else is a control character. */
  g_free (parse_fails_at ("[scenario]\ntitle=t\r\r\n", 2));
}

/* ---- loading ------------------------------------------------------------------------------ */

static void
test_load (void)
{
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) ids = fl_scenario_builtin_ids ();

  /* Sorted, and each one loads. */
  g_assert_nonnull (ids);
  for (guint i = 0; ids[i] != NULL; i++)
    {
      if (i > 0)
        g_assert_cmpstr (ids[i - 1], <, ids[i]);
      g_autoptr (FlScenario) s = fl_scenario_load (ids[i], &error);
      g_assert_no_error (error);
      g_assert_cmpstr (s->id, ==, ids[i]);
      g_assert_true (g_str_has_prefix (s->path, "resource://"));
      assert_round_trip (s);
    }

  g_autoptr (FlScenario) none = fl_scenario_load ("no-such-scenario", &error);
  g_assert_null (none);
  g_assert_error (error, FL_SCENARIO_ERROR, FL_SCENARIO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "no-such-scenario"));
  if (ids[0] != NULL)
    g_assert_nonnull (strstr (error->message, ids[0]));
  g_clear_error (&error);

  /* A name ending in .fault is a path, and a missing file names it. */
  g_autoptr (FlScenario) missing = fl_scenario_load ("missing-file.fault", &error);
  g_assert_null (missing);
  g_assert_error (error, FL_SCENARIO_ERROR, FL_SCENARIO_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "missing-file.fault"));
  g_clear_error (&error);

  g_autofree char *dir = data_dir ("good");
  g_autoptr (FlScenario) directory = fl_scenario_load_file (dir, &error);
  g_assert_null (directory);
  g_assert_error (error, FL_SCENARIO_ERROR, FL_SCENARIO_ERROR_IO);
  g_clear_error (&error);

  g_autofree char *path = g_build_filename (dir, "minimal.fault", NULL);
  g_autoptr (FlScenario) by_path = fl_scenario_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (by_path->id, ==, "minimal");

  /* A file larger than the limit is refused without reading it all. */
  g_autofree char *tmp = g_dir_make_tmp ("fl-scenario-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *huge = g_build_filename (tmp, "huge.fault", NULL);
  g_autofree char *filler = g_strnfill (2 * 1024 * 1024, '#');
  g_assert_true (g_file_set_contents (huge, filler, -1, NULL));
  g_autoptr (FlScenario) too_big = fl_scenario_load_file (huge, &error);
  g_assert_null (too_big);
  g_assert_nonnull (strstr (error->message, "huge.fault:1: "));
  g_assert_nonnull (strstr (error->message, "1 MiB"));
  g_clear_error (&error);

  /* A file just under the limit whose canonical text is much longer (short
   * ops on one line, sizes with suffixes) still round-trips. */
  g_autoptr (GString) dense = g_string_new ("[scenario]\ntitle=dense\n[cpu0]\nops=");
  while (dense->len < 1024 * 1024 - 100)
    g_string_append (dense, "munmap +4K 1G;");
  g_string_append (dense, "barrier\n");
  g_assert_true (g_file_set_contents (huge, dense->str, -1, NULL));
  g_autoptr (FlScenario) near_limit = fl_scenario_load_file (huge, &error);
  g_assert_no_error (error);
  g_autofree char *canonical = fl_scenario_to_text (near_limit);
  g_assert_cmpuint (strlen (canonical), >, 3 * dense->len / 2);
  assert_round_trip (near_limit);
  g_assert_cmpint (g_remove (huge), ==, 0);
  g_assert_cmpint (g_rmdir (tmp), ==, 0);
}

/* ---- robustness --------------------------------------------------------------------------- */

static const char *const splices[] = {
  "{", "}", ";", "=", "[", "]", "\n", "#", "repeat 99999999 {", "repeat 8 {", "0x", "+", "base+",
  "[cpu1]\n", "[cpu7]\n", "[mm]\n", "[schedule]\nsteps=cpu1 until end\n", "vma=", "pte=",
  "ops=", "0xffffffffffffffff", "\xff", "\xc3", "\0", "\r", "cpu0 for ", "until ", " K",
};

/* One random change: overwrite a byte, cut, splice a token in, delete or repeat a stretch.
 * A GString holds the bytes because it keeps NULs when told their length. */
static void
mutate (GRand *rand, GString *bytes)
{
  gsize len = bytes->len;
  gsize at = len ? (gsize) g_rand_int_range (rand, 0, (gint32) len) : 0;

  switch (g_rand_int_range (rand, 0, 5))
    {
    case 0:
      if (len)
        bytes->str[at] = (char) g_rand_int_range (rand, 0, 256);
      break;
    case 1:
      g_string_truncate (bytes, at);
      break;
    case 2:
      {
        const char *s = splices[g_rand_int_range (rand, 0, G_N_ELEMENTS (splices))];
        g_string_insert_len (bytes, (gssize) at, s, *s ? (gssize) strlen (s) : 1);
      }
      break;
    case 3:
      if (len)
        g_string_erase (bytes, (gssize) at,
                        g_rand_int_range (rand, 1, (gint32) MIN (len - at, 40) + 1));
      break;
    default:
      {
        gsize n = MIN (len - at, (gsize) g_rand_int_range (rand, 1, 200));
        g_autofree char *copy = g_strndup (bytes->str + at, n);
        g_string_insert_len (bytes, (gssize) at, copy, (gssize) n);
      }
      break;
    }
}

static void
test_mutations_never_crash (void)
{
  g_autoptr (GPtrArray) paths = corpus ("good");
  g_autoptr (GRand) rand = g_rand_new_with_seed (20100107);
  g_autoptr (GRegex) message = g_regex_new ("^mutant\\.fault:([0-9]+): .", 0, 0, NULL);
  guint variants = g_test_thorough () ? 50000 : 4000, accepted = 0;

  for (guint v = 0; v < variants; v++)
    {
      g_autofree char *contents = NULL;
      gsize length;
      g_assert_true (g_file_get_contents (g_ptr_array_index (paths, v % paths->len), &contents,
                                          &length, NULL));
      g_autoptr (GString) bytes = g_string_new_len (contents, (gssize) length);
      for (gint32 n = g_rand_int_range (rand, 1, 4); n > 0; n--)
        mutate (rand, bytes);

      g_autoptr (GError) error = NULL;
      g_autoptr (FlScenario) s = fl_scenario_parse_data (bytes->str, bytes->len,
                                                         "mutant.fault", &error);
      if (s != NULL)
        {
          /* Whatever is accepted must also round-trip. */
          accepted++;
          assert_round_trip (s);
          continue;
        }
      g_autoptr (GMatchInfo) match = NULL;
      if (!g_regex_match (message, error->message, 0, &match))
        g_error ("variant %u: message without FILE:LINE: '%s'", v, error->message);
      g_autofree char *line = g_match_info_fetch (match, 1);
      guint lines = 1;
      for (gsize i = 0; i < bytes->len; i++)
        lines += bytes->str[i] == '\n';
      g_assert_cmpuint (g_ascii_strtoull (line, NULL, 10), >=, 1);
      g_assert_cmpuint (g_ascii_strtoull (line, NULL, 10), <=, lines);
    }
  g_test_message ("%u of %u variants accepted", accepted, variants);
  /* The mutations must exercise both outcomes, or the test proves little. */
  g_assert_cmpuint (accepted, >, variants / 50);
  g_assert_cmpuint (accepted, <, variants);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/scenario/good-corpus", test_good_corpus);
  g_test_add_func ("/core/scenario/bad-corpus", test_bad_corpus);
  g_test_add_func ("/core/scenario/error-line", test_error_line);
  g_test_add_func ("/core/scenario/unknown-stop-point", test_unknown_stop_point);
  g_test_add_func ("/core/scenario/flattened-repeats", test_flattened_repeats);
  g_test_add_func ("/core/scenario/cursor-reach", test_cursor_reach);
  g_test_add_func ("/core/scenario/prose-wraps", test_prose_wraps_and_round_trips);
  g_test_add_func ("/core/scenario/preset-round-trips", test_preset_round_trips);
  g_test_add_func ("/core/scenario/text-and-ids", test_text_kept_and_ids);
  g_test_add_func ("/core/scenario/equal", test_equal_sees_every_field);
  g_test_add_func ("/core/scenario/limits", test_limits);
  g_test_add_func ("/core/scenario/crlf-and-bom", test_crlf_and_bom);
  g_test_add_func ("/core/scenario/load", test_load);
  g_test_add_func ("/core/scenario/mutations", test_mutations_never_crash);
  return g_test_run ();
}
