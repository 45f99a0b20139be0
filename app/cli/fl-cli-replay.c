/* fl-cli-replay.c — `replay`: simulate a recorded run again and check it against its hash. */
#include "fl-cli.h"
#include "fl-cli-json.h"
#include "fl-cli-store.h"
#include "fl-store-record.h"

/* The store counts an event's step from 0 (the steps before it); shown, the first differing
 * step is numbered as everywhere else: step N is the one after which the state is N. */
static gint64
step_number (const FlReplayResult *r)
{
  return r->first_difference + 1;
}

static void
print_text (const FlStoredRun *run, const FlReplayResult *r)
{
  printf ("Run        %" G_GINT64_FORMAT " of %s (scenario %" G_GINT64_FORMAT ")\n", run->id,
          run->scenario_name, run->scenario_id);
  printf ("Config     %s\n", run->config);
  printf ("Seed       %" G_GUINT64_FORMAT "\n", run->seed);
  printf ("Steps      stored %" G_GUINT64_FORMAT ", replayed %" G_GUINT64_FORMAT "\n",
          run->steps, r->steps);
  printf ("Hash       stored %s, replayed %s\n", r->stored_hash, r->hash);
  if (r->matches)
    printf ("Result     identical\n");
  else
    printf ("Result     differs: first differing step %" G_GINT64_FORMAT "\n",
            step_number (r));
}

static void
print_json (const FlStoredRun *run, const FlReplayResult *r)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  fl_cli_json_int (b, "run", run->id);
  fl_cli_json_string (b, "scenario", run->scenario_name);
  fl_cli_json_int (b, "scenario_id", run->scenario_id);
  fl_cli_json_int (b, "stored_steps", (gint64) run->steps);
  fl_cli_json_int (b, "steps", (gint64) r->steps);
  fl_cli_json_string (b, "stored_hash", r->stored_hash);
  fl_cli_json_string (b, "hash", r->hash);
  fl_cli_json_bool (b, "identical", r->matches);
  json_builder_set_member_name (b, "first_difference");
  if (r->matches)
    json_builder_add_null_value (b);
  else
    json_builder_add_int_value (b, step_number (r));
  json_builder_end_object (b);
  fl_cli_print_json_root (b, stdout);
}

static int
replay (const char *path, const char *id_text, gboolean untrusted, gboolean json)
{
  gint64 run_id;
  if (!fl_cli_parse_id (id_text, "run", &run_id))
    return FL_EXIT_USAGE;
  g_autoptr (FlStore) store = fl_cli_store_open (path, untrusted, FL_CLI_STORE_READ);
  if (store == NULL)
    return FL_EXIT_USAGE;
  g_autoptr (GError) error = NULL;
  g_autoptr (FlStoredRun) run = fl_store_get_run (store, run_id, &error);
  if (run == NULL)
    return fl_cli_fail ("%s", error->message);
  FlReplayResult result;
  if (!fl_store_replay_run (store, run_id, &result, &error))
    return fl_cli_fail ("cannot replay run %" G_GINT64_FORMAT " of '%s': %s", run_id, path,
                        error->message);
  if (json)
    print_json (run, &result);
  else
    print_text (run, &result);
  return result.matches ? FL_EXIT_OK : FL_EXIT_DIFFERS;
}

int
fl_cli_replay (int argc, char **argv)
{
  gboolean json = FALSE, untrusted = FALSE;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print the result as JSON", NULL },
    { "untrusted", 0, 0, G_OPTION_ARG_NONE, &untrusted,
      "A file received from someone: integrity_check of every page and index", NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context =
    g_option_context_new ("DB RUN_ID - simulate a recorded run again and compare");
  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context,
    "Re-simulates run RUN_ID of the store DB from its scenario text, configuration and seed,\n"
    "and compares the event stream with the one recorded (`faultline-cli db runs` lists runs).\n"
    "The store is opened read-only. The stored text is parsed with the limits of a .fault\n"
    "file and the configuration checked as `run` checks --set: a stored run is trusted no\n"
    "more than a file.\n"
    "Exit status: 0 identical, 1 the replay differs, 2 usage or input error.");
  if (!fl_cli_parse (context, &argc, &argv))
    return FL_EXIT_USAGE;
  if (argc != 3)
    return fl_cli_fail ("replay needs a store and a run id: replay DB RUN_ID");
  return replay (argv[1], argv[2], untrusted, json);
}
