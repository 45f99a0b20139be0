/* The machine grows with the run and stops at its limits: arrays grow as objects come and
 * seeking across the growth lands on the states stepping met; a run past a limit, or past
 * its budget, stops cleanly before the step, and stays stopped across seeks. */
#include "sim-helpers.h"
#include "fl-state.h"

#include <string.h>

static FlSim *
sim_of_text (const char *text, const char *const *sets, GError **error)
{
  g_autoptr (FlScenario) sc = fl_scenario_parse (text, "limits.fault", error);
  g_assert_nonnull (sc);
  FlConfig config = sc->config;
  for (guint i = 0; sets && sets[i]; i += 2)
    g_assert_true (fl_config_set (&config, sets[i], sets[i + 1], NULL));
  return fl_sim_new (sc, &config, sc->seed, error);
}

/* 1500 VMAs mapped and written one by one, 300 pages of a file read: every array grows. */
static const char growing[] =
  "[scenario]\ntitle=growing\n"
  "[mm]\nvma=0x200000000000-0x200000200000 r-- file\n"
  "[cpu0]\nbase=0x100000000000\nops=repeat 1500 { mmap +0 4096 rw- anon; fault +8192 write }\n"
  "[cpu1]\nbase=0x200000000000\nops=repeat 300 { fault +4096 read }\n";

static void
test_growth_and_seek (void)
{
  static const char *const sets[] = { "oracle", "at-end", NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (FlSim) walker = sim_of_text (growing, sets, &error);
  g_assert_no_error (error);
  const FlStateSizes start = fl_sim_get_state (walker)->sizes;

  enum { N = 12 };
  guint64 targets[N], hashes[N];
  g_autoptr (FlSim) full = sim_of_text (growing, sets, &error);
  fl_sim_run (full, 0);
  g_assert_true (fl_sim_is_finished (full));
  assert_no_findings (full);
  guint64 total = fl_sim_get_total_steps (full);
  const FlStateSizes *end = &fl_sim_get_state (full)->sizes;
  g_assert_cmpuint (end->nvmas, >, 1500);
  g_assert_cmpuint (end->npages, >, 1800);
  g_assert_cmpuint (end->ncache, >, 300);
  g_assert_cmpuint (end->nvmas, >, start.nvmas);
  g_assert_cmpuint (end->nlines, >, start.nlines);

  for (guint i = 0; i < N; i++)
    {
      targets[i] = total * i / (N - 1);
      if (targets[i] > fl_sim_get_step (walker))   /* 0 would mean "to the end" */
        fl_sim_run (walker, targets[i] - fl_sim_get_step (walker));
      g_assert_cmpuint (fl_sim_get_step (walker), ==, targets[i]);
      hashes[i] = fl_sim_get_state_hash (walker);
    }
  /* from the start, backwards, then forwards: each seek restores a checkpoint of another
   * size (the run that went to its end also ran the end's checks: seek away first) */
  g_assert_true (fl_sim_seek (full, 0));
  g_assert_cmpuint (fl_sim_get_state_hash (full), ==, hashes[0]);
  for (guint k = 0; k < 2 * N; k++)
    {
      guint i = k < N ? N - 1 - k : k - N;
      g_assert_true (fl_sim_seek (full, targets[i]));
      g_assert_cmpuint (fl_sim_get_state_hash (full), ==, hashes[i]);
    }

  /* a copy takes the sizes of what it copies */
  FlState copy;
  fl_state_init (&copy, &start);
  fl_state_copy (&copy, fl_sim_get_state (full));
  g_assert_cmpuint (copy.sizes.nvmas, ==, fl_sim_get_state (full)->sizes.nvmas);
  g_assert_cmpuint (fl_state_hash (&copy), ==, fl_sim_get_state_hash (full));
  fl_state_clear (&copy);
}

/* The five lines: more VMAs than a run may have at once. */
static const char mmap_loop[] =
  "[scenario]\ntitle=hostile\n[cpu0]\nbase=0x100000000000\n"
  "ops=repeat 100000 { mmap +8192 4096 rw- anon }\n";

static void
test_vma_limit_stops (void)
{
  static const char *const sets[] = { "oracle", "at-end", NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (FlSim) sim = sim_of_text (mmap_loop, sets, &error);
  g_assert_no_error (error);
  fl_sim_run (sim, 0);
  g_assert_false (fl_sim_is_finished (sim));
  g_assert_cmpint (fl_sim_get_stop_reason (sim), ==, FL_STOP_LIMIT);
  const char *why = fl_sim_get_stop_message (sim);
  g_assert_nonnull (why);
  g_assert_true (g_str_has_prefix (why, "stopped at "));
  g_assert_nonnull (strstr (why, "4096 VMAs"));
  guint64 stopped_at = fl_sim_get_step (sim);
  g_assert_cmpuint (stopped_at, ==, fl_sim_get_total_steps (sim));
  guint64 hash = fl_sim_get_state_hash (sim);

  /* the stop is the run's end: a seek back replays to it, and no further */
  g_assert_true (fl_sim_seek (sim, stopped_at / 3));
  g_assert_false (fl_sim_cpu_can_step (sim, 1));
  while (fl_sim_step (sim))
    ;
  g_assert_cmpuint (fl_sim_get_step (sim), ==, stopped_at);
  g_assert_cmpuint (fl_sim_get_state_hash (sim), ==, hash);
  g_assert_false (fl_sim_step (sim));
  g_assert_false (fl_sim_cpu_can_step (sim, 0));
  g_assert_cmpstr (fl_sim_get_stop_message (sim), ==, why);
}

static void
test_budget_stops (void)
{
  static const char *const sets[] = { "budget", "1000", NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (FlScenario) sc = fl_scenario_load_builtin ("multi-fault", &error);
  g_assert_no_error (error);
  FlConfig config = sc->config;
  g_assert_cmpuint (config.budget, ==, FL_DEFAULT_BUDGET);
  g_assert_true (fl_config_set (&config, sets[0], sets[1], &error));
  g_autoptr (FlSim) budgeted = fl_sim_new (sc, &config, sc->seed, &error);
  g_autoptr (FlSim) plain = fl_sim_new (sc, &config, sc->seed, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (fl_sim_run_in_budget (budgeted, 0), ==, 1000);
  g_assert_cmpint (fl_sim_get_stop_reason (budgeted), ==, FL_STOP_BUDGET);
  g_assert_cmpstr (fl_sim_get_stop_message (budgeted), ==, "stopped at 1000 steps (budget)");
  g_assert_false (fl_sim_step_in_budget (budgeted));

  /* a replay takes as many steps as were recorded, budget or not */
  g_assert_cmpuint (fl_sim_run (plain, 1500), ==, 1500);
  g_assert_cmpint (fl_sim_get_stop_reason (plain), ==, FL_STOP_NONE);
  g_assert_null (fl_sim_get_stop_message (plain));

  /* the budget is no design switch: a run's configuration text leaves it out */
  g_autofree char *described = fl_config_describe (&config);
  g_assert_null (strstr (described, "budget"));
}

static void
test_setup_limit_names_the_line (void)
{
  g_autoptr (GString) text = g_string_new ("[scenario]\ntitle=too many\n[mm]\n");
  for (guint64 i = 0; i < 4097; i++)
    g_string_append_printf (text, "vma=0x%" G_GINT64_MODIFIER "x-0x%" G_GINT64_MODIFIER "x rw- anon\n",
                            0x100000000000 + i * 0x2000, 0x100000000000 + i * 0x2000 + 0x1000);
  g_autoptr (GError) error = NULL;
  g_autoptr (FlSim) sim = sim_of_text (text->str, NULL, &error);
  g_assert_null (sim);
  g_assert_error (error, FL_SIM_ERROR, FL_SIM_ERROR_CAPACITY);
  g_assert_nonnull (strstr (error->message, ":4100: "));
  g_assert_nonnull (strstr (error->message, "4096 VMAs"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/limits/growth-and-seek", test_growth_and_seek);
  g_test_add_func ("/core/limits/vma-limit-stops", test_vma_limit_stops);
  g_test_add_func ("/core/limits/budget-stops", test_budget_stops);
  g_test_add_func ("/core/limits/setup-limit-names-the-line", test_setup_limit_names_the_line);
  return g_test_run ();
}
