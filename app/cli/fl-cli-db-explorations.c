/* fl-cli-db-explorations.c — `db explorations`, `db delete-exploration`: the searches
 * `explore --record` kept, with the runs of their counterexamples. */
#include "fl-cli-db.h"
#include "fl-cli-json.h"

static void
exploration_json (JsonBuilder *b, const FlStoredExploration *e, GArray *runs)
{
  json_builder_begin_object (b);
  fl_cli_json_int (b, "id", e->id);
  fl_cli_json_int (b, "scenario_id", e->scenario_id);
  fl_cli_json_string (b, "scenario", e->scenario_name);
  fl_cli_json_string (b, "config", e->config);
  fl_cli_json_string (b, "bounds", e->bounds);
  fl_cli_json_string (b, "verdict", e->verdict);
  fl_cli_json_string (b, "stopped-by", e->stopped_by);
  fl_cli_json_int (b, "bound", e->bound);
  fl_cli_json_int (b, "schedules", (gint64) e->schedules);
  fl_cli_json_int (b, "executions", (gint64) e->executions);
  fl_cli_json_int (b, "outcomes", (gint64) e->outcomes);
  fl_cli_json_int (b, "steps", (gint64) e->steps);
  fl_cli_json_int (b, "findings", e->findings);
  fl_cli_json_double (b, "seconds", e->seconds);
  fl_cli_json_int (b, "created", e->created);
  json_builder_set_member_name (b, "runs");
  json_builder_begin_array (b);
  for (guint i = 0; i < runs->len; i++)
    json_builder_add_int_value (b, g_array_index (runs, gint64, i));
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static void
exploration_text (const FlStoredExploration *e, GArray *runs)
{
  char seconds[32];
  g_autofree char *created = fl_cli_format_time (e->created);
  g_autofree char *scenario = g_strdup_printf ("%s (%" G_GINT64_FORMAT ")", e->scenario_name,
                                               e->scenario_id);
  GString *found = g_string_new (NULL);
  for (guint i = 0; i < runs->len; i++)
    g_string_append_printf (found, "%s%" G_GINT64_FORMAT, i ? "," : "",
                            g_array_index (runs, gint64, i));
  printf ("%5" G_GINT64_FORMAT "  %-16s  %-22s  %-8s %5u %10" G_GUINT64_FORMAT " %8"
          G_GUINT64_FORMAT " %8u %9s  %s\n", e->id, created, scenario, e->verdict, e->bound,
          e->schedules, e->outcomes, e->findings,
          fl_cli_decimal (e->seconds, 2, seconds, sizeof seconds), found->len ? found->str : "-");
  printf ("%5s  %s\n%5s  %s", "", e->bounds, "", e->config);
  if (g_strcmp0 (e->stopped_by, "none") != 0)
    printf ("; stopped by %s", e->stopped_by);
  printf ("\n");
  g_string_free (found, TRUE);
}

int
fl_cli_db_explorations (int argc, char **argv)
{
  g_auto (FlCliStoreOptions) o = { 0 };
  g_autoptr (GOptionContext) context =
    g_option_context_new ("[SCENARIO_ID] - list the recorded explorations");
  fl_cli_store_add_options (context, &o, TRUE);
  g_option_context_set_description (context,
    "The explorations `faultline-cli explore --record` kept, of one stored scenario or of\n"
    "all, oldest first: id, when, scenario, verdict, the preemption bound reached,\n"
    "schedules, distinct outcomes, kinds of finding, seconds, and the runs that replay the\n"
    "counterexamples (`db show RUN`, `replay`); then the search and the switches explored.\n"
    "Exit status: 0 listed, 2 usage or input error (such as an unknown scenario).");
  if (!fl_cli_parse (context, &argc, &argv))
    return FL_EXIT_USAGE;
  gint64 scenario_id = 0;
  g_autoptr (FlStore) store = fl_cli_db_open_for_scenario (&o, argc, argv, &scenario_id);
  if (store == NULL)
    return FL_EXIT_USAGE;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) list = fl_store_list_explorations (store, scenario_id, &error);
  if (list == NULL)
    return fl_cli_fail ("%s", error->message);

  g_autoptr (JsonBuilder) b = o.json ? json_builder_new () : NULL;
  if (b != NULL)
    json_builder_begin_array (b);
  else if (list->len == 0)
    printf ("No explorations recorded yet (`faultline-cli explore SCENARIO --record DB`).\n");
  else
    printf ("%5s  %-16s  %-22s  %-8s %5s %10s %8s %8s %9s  %s\n", "ID", "EXPLORED", "SCENARIO",
            "VERDICT", "BOUND", "SCHEDULES", "OUTCOMES", "FINDINGS", "SECONDS", "RUNS");
  for (guint i = 0; i < list->len; i++)
    {
      const FlStoredExploration *e = list->pdata[i];
      g_autoptr (GArray) found = fl_store_exploration_runs (store, e->id, &error);
      if (found == NULL)
        return fl_cli_fail ("%s", error->message);
      if (b != NULL)
        exploration_json (b, e, found);
      else
        exploration_text (e, found);
    }
  if (b != NULL)
    {
      json_builder_end_array (b);
      fl_cli_print_json_root (b, stdout);
    }
  return FL_EXIT_OK;
}

int
fl_cli_db_delete_exploration (int argc, char **argv)
{
  g_auto (FlCliStoreOptions) o = { 0 };
  g_autoptr (GOptionContext) context =
    g_option_context_new ("EXPLORATION_ID - delete a recorded exploration");
  fl_cli_store_add_options (context, &o, FALSE);
  g_option_context_set_description (context,
    "Deletes the exploration. The runs of its counterexamples stay (delete-run deletes\n"
    "one), no longer linked to it. `faultline-cli db explorations` shows the ids.\n"
    "Exit status: 0 deleted, 2 usage or input error (such as an unknown exploration).");
  if (!fl_cli_parse (context, &argc, &argv))
    return FL_EXIT_USAGE;
  if (argc != 2)
    return fl_cli_fail ("delete-exploration needs exactly one EXPLORATION_ID");
  gint64 id;
  if (!fl_cli_parse_id (argv[1], "exploration", &id))
    return FL_EXIT_USAGE;
  g_autoptr (FlStore) store = fl_cli_store_open_options (&o, FL_CLI_STORE_EDIT);
  if (store == NULL)
    return FL_EXIT_USAGE;
  g_autoptr (GError) error = NULL;
  if (!fl_store_delete_exploration (store, id, &error))
    return fl_cli_fail ("%s", error->message);
  printf ("Deleted exploration %" G_GINT64_FORMAT " (its runs are kept)\n", id);
  return FL_EXIT_OK;
}
