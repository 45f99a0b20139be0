/* fl-cli-run.c — `run`: simulate a scenario headless and report what happened. */
#include "fl-cli.h"
#include "fl-cli-report.h"
#include "fl-store-record.h"

#include <stdio.h>

typedef struct {
  char   **sets;
  char    *seed;       /* as typed: NULL for the scenario's */
  char    *schedule;
  gint64   max_steps;
  gint64   budget;
  gboolean trace;
  gboolean json;
  char    *record;
  char    *chrome_trace;
} RunOptions;

static gboolean
record_run (FlSim *sim, const char *path, gboolean hit_limit)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FlStore) store = fl_store_open (path, FL_STORE_OPEN_CREATE, &error);
  if (store == NULL)
    {
      fl_cli_fail ("--record: %s", error->message);
      return FALSE;
    }
  gint64 run_id = fl_store_record_sim (store, sim, hit_limit, &error);
  if (run_id < 0)
    {
      fl_cli_fail ("--record: %s", error->message);
      return FALSE;
    }
  fprintf (stderr, "Recorded as run %" G_GINT64_FORMAT " in %s\n", run_id, path);
  return TRUE;
}

static int
run_scenario (const RunOptions *o, const char *id)
{
  if (o->max_steps < 0)
    return fl_cli_fail ("--max-steps %" G_GINT64_FORMAT ": expected a number of steps, 0 or more "
                        "(0: no limit)", o->max_steps);
  guint64 given_seed = 0;
  if (o->seed && !g_ascii_string_to_unsigned (o->seed, 10, 0, G_MAXUINT64, &given_seed, NULL))
    return fl_cli_fail ("--seed %s: expected a whole number from 0 to %" G_GUINT64_FORMAT
                        " (without --seed, the scenario's seed)", o->seed, G_MAXUINT64);
  if (o->budget < -1)
    return fl_cli_fail ("--budget %" G_GINT64_FORMAT ": expected a number of steps, 0 or more "
                        "(0: no budget)", o->budget);
  if (o->budget > G_MAXUINT32)
    return fl_cli_fail ("--budget %" G_GINT64_FORMAT ": at most %u steps (0: no budget)",
                        o->budget, G_MAXUINT32);
  g_autoptr (FlScenario) scenario = fl_cli_load_scenario (id);
  if (scenario == NULL)
    return FL_EXIT_USAGE;
  FlConfig config = scenario->config;
  if (!fl_cli_apply_sets (&config, o->sets))
    return FL_EXIT_USAGE;
  if (o->budget >= 0)
    config.budget = (guint) o->budget;
  guint64 seed = o->seed ? given_seed : scenario->seed;
  FlSchedPolicy policy = scenario->schedule->len ? FL_SCHED_SCRIPT : FL_SCHED_TIME;
  if (o->schedule && !fl_cli_parse_policy (o->schedule, &policy))
    return FL_EXIT_USAGE;
  if (policy == FL_SCHED_SCRIPT && scenario->schedule->len == 0)
    return fl_cli_fail ("--schedule script: scenario '%s' has no [schedule] section", scenario->id);

  g_autoptr (GError) error = NULL;
  g_autoptr (FlSim) sim = fl_sim_new (scenario, &config, seed, &error);
  if (sim == NULL)
    return fl_cli_fail ("%s", error->message);
  fl_sim_set_policy (sim, policy);
  gsize traced = 0;
  while (o->max_steps == 0 || fl_sim_get_step (sim) < (guint64) o->max_steps)
    {
      gboolean more = fl_sim_step_in_budget (sim);
      if (o->trace)
        traced = fl_cli_print_trace (sim, traced, stdout);
      if (!more)
        break;
    }
  gboolean hit_limit = !fl_sim_is_finished (sim);

  if (o->chrome_trace && !fl_cli_write_chrome_trace (sim, o->chrome_trace))
    return FL_EXIT_USAGE;
  if (o->record && !record_run (sim, o->record, hit_limit))
    return FL_EXIT_USAGE;
  if (o->json)
    fl_cli_print_json (sim, seed, hit_limit, stdout);
  else
    fl_cli_print_summary (sim, seed, policy, hit_limit, stdout);
  return fl_sim_get_findings (sim)->len > 0 ? FL_EXIT_FINDINGS : FL_EXIT_OK;
}

int
fl_cli_run (int argc, char **argv)
{
  RunOptions o = { .max_steps = 0, .budget = -1 };
  GOptionEntry entries[] = {
    { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o.sets, "Override a switch of the scenario", "KEY=VALUE" },
    { "seed", 0, 0, G_OPTION_ARG_STRING, &o.seed, "Seed of the random schedule (default: the scenario's)", "N" },
    { "schedule", 0, 0, G_OPTION_ARG_STRING, &o.schedule, "time, script or random", "POLICY" },
    { "max-steps", 0, 0, G_OPTION_ARG_INT64, &o.max_steps, "Stop after N steps (reported, not an error)", "N" },
    { "budget", 0, 0, G_OPTION_ARG_INT64, &o.budget, "Step budget, as --set budget=N (default 10000000, 0 none)", "N" },
    { "trace", 0, 0, G_OPTION_ARG_NONE, &o.trace, "Print one line per step", NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &o.json, "Print the summary as JSON", NULL },
    { "record", 0, 0, G_OPTION_ARG_FILENAME, &o.record, "Record the run in a store", "DB" },
    { "chrome-trace", 0, 0, G_OPTION_ARG_FILENAME, &o.chrome_trace, "Write a Trace Event Format file", "FILE" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("SCENARIO - simulate a scenario");
  g_option_context_add_main_entries (context, entries, NULL);
  g_autofree char *switches = fl_cli_switches_help ();
  g_autofree char *description = g_strconcat (
    "SCENARIO is a built-in id (see `faultline-cli list`) or a path to a .fault file.\n"
    "Exit status: 0 no findings, 1 findings, 2 usage or input error.",
    "\n\n", switches, NULL);
  g_option_context_set_description (context, description);
  int status;
  if (!fl_cli_parse (context, &argc, &argv))
    status = FL_EXIT_USAGE;
  else if (argc != 2)
    status = fl_cli_fail ("run needs exactly one SCENARIO (a built-in id or a .fault path)");
  else
    status = run_scenario (&o, argv[1]);
  g_strfreev (o.sets);
  g_free (o.seed);
  g_free (o.schedule);
  g_free (o.record);
  g_free (o.chrome_trace);
  return status;
}
