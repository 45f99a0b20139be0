/* fl-cli-db-list.c — `db list`, `db runs`, `db show`: what a store holds, as text or JSON. */
#include "fl-cli-db.h"
#include "fl-cli-json.h"

/* ---- list ---------------------------------------------------------------------------------- */

static void
scenario_json (JsonBuilder *b, const FlStoredScenario *s)
{
  json_builder_begin_object (b);
  fl_cli_json_int (b, "id", s->id);
  fl_cli_json_string (b, "name", s->name);
  fl_cli_json_string (b, "title", s->title);
  json_builder_set_member_name (b, "tags");
  json_builder_begin_array (b);
  for (guint t = 0; s->tags[t]; t++)
    json_builder_add_string_value (b, s->tags[t]);
  json_builder_end_array (b);
  fl_cli_json_int (b, "created", s->created);
  json_builder_end_object (b);
}

static void
scenario_line (const FlStoredScenario *s)
{
  g_autofree char *created = fl_cli_format_time (s->created);
  g_autofree char *tags = g_strjoinv (", ", s->tags);
  printf ("%5" G_GINT64_FORMAT "  %-16s  %-22s  %s", s->id, created, s->name, s->title);
  if (*tags != '\0')
    printf ("  [%s]", tags);
  printf ("\n");
}

int
fl_cli_db_list (int argc, char **argv)
{
  g_auto (FlCliStoreOptions) o = { 0 };
  g_autofree char *search = NULL;
  GOptionEntry entries[] = {
    { "search", 0, 0, G_OPTION_ARG_STRING, &search,
      "Only the scenarios whose name, title, tags or text contain TEXT", "TEXT" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("- list the stored scenarios");
  g_option_context_add_main_entries (context, entries, NULL);
  fl_cli_store_add_options (context, &o, TRUE);
  g_option_context_set_description (context,
    "One line per scenario: id, when it was stored, name, title and [tags]. The search\n"
    "ignores the case of ASCII letters; %% and _ are ordinary characters.\n"
    "Exit status: 0 listed (also when nothing matches), 2 usage or input error.");
  if (!fl_cli_parse (context, &argc, &argv))
    return FL_EXIT_USAGE;
  if (argc > 1)
    return fl_cli_fail ("list takes no arguments (got '%s'; --search TEXT filters)", argv[1]);

  g_autoptr (FlStore) store = fl_cli_store_open_options (&o, FL_CLI_STORE_READ);
  if (store == NULL)
    return FL_EXIT_USAGE;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) list = search ? fl_store_search_scenarios (store, search, &error)
                                      : fl_store_list_scenarios (store, &error);
  if (list == NULL)
    return fl_cli_fail ("%s", error->message);

  if (o.json)
    {
      g_autoptr (JsonBuilder) b = json_builder_new ();
      json_builder_begin_array (b);
      for (guint i = 0; i < list->len; i++)
        scenario_json (b, list->pdata[i]);
      json_builder_end_array (b);
      fl_cli_print_json_root (b, stdout);
    }
  else if (list->len == 0)
    {
      if (search)
        printf ("No stored scenario matches '%s'.\n", search);
      else
        printf ("No scenarios stored yet.\n");
    }
  else
    {
      printf ("%5s  %-16s  %-22s  %s\n", "ID", "STORED", "NAME", "TITLE [TAGS]");
      for (guint i = 0; i < list->len; i++)
        scenario_line (list->pdata[i]);
    }
  return FL_EXIT_OK;
}

/* ---- runs ---------------------------------------------------------------------------------- */

/**
 * fl_cli_db_open_for_scenario:
 * @o: the sub-command's store options
 * @argc: its arguments left after the options (argv[0] is the sub-command)
 * @argv: them
 * @out_id: (out): the SCENARIO_ID given, 0 for none (every scenario)
 *
 * For the sub-commands that take an optional SCENARIO_ID (`runs`, `explorations`): reads it
 * and opens the store read-only. An unknown scenario has nothing to list, but saying so would
 * hide the typo: it is an error.
 *
 * Returns: (transfer full) (nullable): the store, or %NULL after a one-line message.
 */
FlStore *
fl_cli_db_open_for_scenario (const FlCliStoreOptions *o, int argc, char **argv,
                             gint64 *out_id)
{
  *out_id = 0;
  if (argc > 2)
    {
      fl_cli_fail ("%s takes at most one SCENARIO_ID (got '%s' too)", argv[0], argv[2]);
      return NULL;
    }
  if (argc == 2 && !fl_cli_parse_id (argv[1], "scenario", out_id))
    return NULL;
  g_autoptr (FlStore) store = fl_cli_store_open_options (o, FL_CLI_STORE_READ);
  if (store == NULL || *out_id == 0)
    return g_steal_pointer (&store);
  g_autoptr (GError) error = NULL;
  g_autoptr (FlStoredScenario) scenario = fl_store_get_scenario (store, *out_id, &error);
  if (scenario == NULL)
    {
      fl_cli_fail ("%s", error->message);
      return NULL;
    }
  return g_steal_pointer (&store);
}

/* Everything of a run but its findings: a count in `runs`, the list itself in `show` (as in
 * `run --json`). */
static void
run_members (JsonBuilder *b, const FlStoredRun *r)
{
  fl_cli_json_int (b, "id", r->id);
  fl_cli_json_int (b, "scenario_id", r->scenario_id);
  fl_cli_json_string (b, "scenario", r->scenario_name);
  fl_cli_json_string (b, "config", r->config);
  fl_cli_json_int (b, "seed", (gint64) r->seed);
  fl_cli_json_int (b, "steps", (gint64) r->steps);
  fl_cli_json_int (b, "cycles", (gint64) r->cycles);
  fl_cli_json_string (b, "hash", r->hash);
  fl_cli_json_string (b, "verdict", r->verdict);
  fl_cli_json_int (b, "created", r->created);
  json_builder_set_member_name (b, "exploration");
  if (r->exploration_id > 0)
    json_builder_add_int_value (b, r->exploration_id);
  else
    json_builder_add_null_value (b);
}

int
fl_cli_db_runs (int argc, char **argv)
{
  g_auto (FlCliStoreOptions) o = { 0 };
  g_autoptr (GOptionContext) context =
    g_option_context_new ("[SCENARIO_ID] - list the recorded runs");
  fl_cli_store_add_options (context, &o, TRUE);
  g_option_context_set_description (context,
    "The runs of one stored scenario (`faultline-cli db list` shows the ids), or of all of\n"
    "them, oldest first: id, when it was recorded, scenario, seed, steps, findings, verdict and\n"
    "the hash a replay must reproduce.\n"
    "Exit status: 0 listed, 2 usage or input error (such as an unknown scenario).");
  if (!fl_cli_parse (context, &argc, &argv))
    return FL_EXIT_USAGE;
  gint64 scenario_id = 0;
  g_autoptr (FlStore) store = fl_cli_db_open_for_scenario (&o, argc, argv, &scenario_id);
  if (store == NULL)
    return FL_EXIT_USAGE;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) runs = fl_store_list_runs (store, scenario_id, &error);
  if (runs == NULL)
    return fl_cli_fail ("%s", error->message);

  if (o.json)
    {
      g_autoptr (JsonBuilder) b = json_builder_new ();
      json_builder_begin_array (b);
      for (guint i = 0; i < runs->len; i++)
        {
          const FlStoredRun *r = runs->pdata[i];
          json_builder_begin_object (b);
          run_members (b, r);
          fl_cli_json_int (b, "findings", r->findings);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      fl_cli_print_json_root (b, stdout);
      return FL_EXIT_OK;
    }
  if (runs->len == 0)
    {
      printf ("No runs recorded yet.\n");
      return FL_EXIT_OK;
    }
  printf ("%5s  %-16s  %-22s %10s %9s %8s  %-8s  %s\n", "RUN", "RECORDED", "SCENARIO", "SEED",
          "STEPS", "FINDINGS", "VERDICT", "HASH");
  for (guint i = 0; i < runs->len; i++)
    {
      const FlStoredRun *r = runs->pdata[i];
      g_autofree char *created = fl_cli_format_time (r->created);
      g_autofree char *scenario = g_strdup_printf ("%s (%" G_GINT64_FORMAT ")", r->scenario_name,
                                                   r->scenario_id);
      printf ("%5" G_GINT64_FORMAT "  %-16s  %-22s %10" G_GUINT64_FORMAT " %9" G_GUINT64_FORMAT
              " %8u  %-8s  %s\n", r->id, created, scenario, r->seed, r->steps, r->findings,
              r->verdict ? r->verdict : "", r->hash);
    }
  return FL_EXIT_OK;
}

/* ---- show ---------------------------------------------------------------------------------- */

static void
show_json (const FlStoredRun *run, const FlStoredScenario *scenario, GPtrArray *findings,
           guint bookmarks)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  run_members (b, run);
  fl_cli_json_string (b, "title", scenario->title);
  json_builder_set_member_name (b, "findings");
  json_builder_begin_array (b);
  for (guint i = 0; i < findings->len; i++)
    {
      const FlStoredFinding *f = findings->pdata[i];
      json_builder_begin_object (b);
      fl_cli_json_string (b, "kind", f->kind);
      fl_cli_json_int (b, "step", f->step);
      fl_cli_json_int (b, "cpu", f->cpu);
      fl_cli_json_string (b, "message", f->message);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  fl_cli_json_int (b, "bookmarks", bookmarks);
  json_builder_end_object (b);
  fl_cli_print_json_root (b, stdout);
}

static void
show_text (const FlStoredRun *run, const FlStoredScenario *scenario, GPtrArray *findings,
           guint bookmarks, const FlStoredExploration *found_by)
{
  g_autofree char *created = fl_cli_format_time (run->created);
  printf ("Run        %" G_GINT64_FORMAT ", recorded %s\n", run->id, created);
  printf ("Scenario   %" G_GINT64_FORMAT " %s — %s\n", run->scenario_id, run->scenario_name,
          scenario->title);
  printf ("Config     %s\n", run->config);
  printf ("Seed       %" G_GUINT64_FORMAT "\n", run->seed);
  printf ("Steps      %" G_GUINT64_FORMAT "\n", run->steps);
  printf ("Cycles     %" G_GUINT64_FORMAT "\n", run->cycles);
  printf ("Hash       %s\n", run->hash);
  printf ("Verdict    %s\n", run->verdict ? run->verdict : "");
  if (found_by != NULL)
    printf ("Found by   exploration %" G_GINT64_FORMAT " of %s (%" G_GINT64_FORMAT "): %s at "
            "bound %u, %" G_GUINT64_FORMAT " schedules; %s\n", found_by->id,
            found_by->scenario_name, found_by->scenario_id, found_by->verdict, found_by->bound,
            found_by->schedules, found_by->bounds);
  printf ("Bookmarks  %u\n", bookmarks);
  printf ("Findings   %u\n", findings->len);
  for (guint i = 0; i < findings->len; i++)
    {
      const FlStoredFinding *f = findings->pdata[i];
      printf ("  step %u cpu%u %s: %s\n", f->step, f->cpu, f->kind, f->message);
    }
}

int
fl_cli_db_show (int argc, char **argv)
{
  g_auto (FlCliStoreOptions) o = { 0 };
  g_autoptr (GOptionContext) context = g_option_context_new ("RUN_ID - describe a recorded run");
  fl_cli_store_add_options (context, &o, TRUE);
  g_option_context_set_description (context,
    "The run's scenario, configuration, seed, steps, cycles, hash and verdict, the\n"
    "exploration that found it (explore --record), how many bookmarks it has, and its\n"
    "findings with step and CPU.\n"
    "Exit status: 0 shown, 2 usage or input error (such as an unknown run).");
  if (!fl_cli_parse (context, &argc, &argv))
    return FL_EXIT_USAGE;
  if (argc != 2)
    return fl_cli_fail ("show needs exactly one RUN_ID (`faultline-cli db runs` lists them)");
  gint64 run_id;
  if (!fl_cli_parse_id (argv[1], "run", &run_id))
    return FL_EXIT_USAGE;

  g_autoptr (FlStore) store = fl_cli_store_open_options (&o, FL_CLI_STORE_READ);
  if (store == NULL)
    return FL_EXIT_USAGE;
  g_autoptr (GError) error = NULL;
  g_autoptr (FlStoredRun) run = fl_store_get_run (store, run_id, &error);
  if (run == NULL)
    return fl_cli_fail ("%s", error->message);
  g_autoptr (FlStoredScenario) scenario = fl_store_get_scenario (store, run->scenario_id, &error);
  g_autoptr (GPtrArray) findings = scenario ? fl_store_list_findings (store, run_id, &error) : NULL;
  g_autoptr (GPtrArray) bookmarks = findings ? fl_store_list_bookmarks (store, run_id, &error)
                                             : NULL;
  if (bookmarks == NULL)
    return fl_cli_fail ("%s", error->message);
  g_autoptr (FlStoredExploration) found_by = NULL;
  if (run->exploration_id > 0 && !o.json &&
      (found_by = fl_store_get_exploration (store, run->exploration_id, &error)) == NULL)
    return fl_cli_fail ("%s", error->message);
  if (o.json)
    show_json (run, scenario, findings, bookmarks->len);
  else
    show_text (run, scenario, findings, bookmarks->len, found_by);
  return FL_EXIT_OK;
}
