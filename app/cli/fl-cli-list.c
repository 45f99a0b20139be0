/* fl-cli-list.c — `list` and `show`: the built-in library and one scenario's text. */
#include "fl-cli.h"
#include "fl-cli-json.h"

#include <json-glib/json-glib.h>
#include <stdio.h>

int
fl_cli_list (int argc, char **argv)
{
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON", NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("- list the built-in scenarios");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!fl_cli_parse (context, &argc, &argv))
    return FL_EXIT_USAGE;
  if (argc > 1)
    return fl_cli_fail ("list takes no arguments (got '%s')", argv[1]);

  g_auto (GStrv) ids = fl_scenario_builtin_ids ();
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_array (b);
  for (guint i = 0; ids[i]; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (FlScenario) s = fl_scenario_load_builtin (ids[i], &error);
      if (s == NULL)
        return fl_cli_fail ("built-in scenario %s: %s", ids[i], error->message);
      if (json)
        {
          json_builder_begin_object (b);
          fl_cli_json_string (b, "id", ids[i]);
          fl_cli_json_string (b, "title", s->title);
          fl_cli_json_int (b, "cpus", s->config.cpus);
          fl_cli_json_string (b, "expect", s->expect);
          json_builder_end_object (b);
        }
      else
        printf ("%-22s %2u CPU%s  %s\n", ids[i], s->config.cpus, s->config.cpus == 1 ? " " : "s",
                s->title);
    }
  json_builder_end_array (b);
  if (json)
    {
      g_autoptr (JsonNode) root = json_builder_get_root (b);
      g_autofree char *text = json_to_string (root, TRUE);
      printf ("%s\n", text);
    }
  return FL_EXIT_OK;
}

int
fl_cli_show (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new ("SCENARIO - print a scenario as written");
  if (!fl_cli_parse (context, &argc, &argv))
    return FL_EXIT_USAGE;
  if (argc != 2)
    return fl_cli_fail ("show needs exactly one SCENARIO (a built-in id or a .fault path)");
  g_autoptr (FlScenario) s = fl_cli_load_scenario (argv[1]);
  if (s == NULL)
    return FL_EXIT_USAGE;
  fputs (s->text, stdout);
  return FL_EXIT_OK;
}
