/* fl-cli-common.c — what every faultline-cli command shares: errors on one line, loading a
 * scenario, --set overrides. */
#include "fl-cli.h"

#include <stdio.h>
#include <string.h>

/* A number with `decimals` digits after a point, whatever the user's locale: the commands'
 * texts are English sentences and tables (and the trace files JSON), so "12.6 µs", never
 * "12,6 µs". The drawings of `export` follow the user's language instead. */
const char *
fl_cli_decimal (double value, guint decimals, char *buf, gsize size)
{
  char format[16];
  g_snprintf (format, sizeof format, "%%.%uf", MIN (decimals, 9u));
  return g_ascii_formatd (buf, (int) size, format, value);
}

/* Print one line to stderr and return the usage/input exit code. */
int
fl_cli_fail (const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_autofree char *text = g_strdup_vprintf (format, args);
  va_end (args);
  fprintf (stderr, "faultline-cli: %s\n", text);
  return FL_EXIT_USAGE;
}

gboolean
fl_cli_parse (GOptionContext *context, int *argc, char ***argv)
{
  g_autoptr (GError) error = NULL;
  if (!g_option_context_parse (context, argc, argv, &error))
    {
      fl_cli_fail ("%s (see --help)", error->message);
      return FALSE;
    }
  return TRUE;
}

FlScenario *
fl_cli_load_scenario (const char *id_or_path)
{
  g_autoptr (GError) error = NULL;
  FlScenario *scenario = fl_scenario_load (id_or_path, &error);
  if (scenario == NULL)
    fl_cli_fail ("%s", error->message);
  return scenario;
}

/* Apply --set KEY=VALUE overrides in order; the first bad one is reported. */
gboolean
fl_cli_apply_sets (FlConfig *config, char **sets)
{
  for (guint i = 0; sets && sets[i]; i++)
    {
      g_autoptr (GError) error = NULL;
      const char *eq = strchr (sets[i], '=');
      if (eq == NULL)
        {
          fl_cli_fail ("--set '%s': expected KEY=VALUE", sets[i]);
          return FALSE;
        }
      g_autofree char *key = g_strndup (sets[i], eq - sets[i]);
      if (!fl_config_set (config, key, eq + 1, &error))
        {
          fl_cli_fail ("--set: %s", error->message);
          return FALSE;
        }
    }
  g_autoptr (GError) error = NULL;
  if (!fl_config_validate (config, &error))
    {
      fl_cli_fail ("%s", error->message);
      return FALSE;
    }
  return TRUE;
}

gboolean
fl_cli_parse_policy (const char *name, FlSchedPolicy *policy)
{
  if (g_strcmp0 (name, "time") == 0)
    *policy = FL_SCHED_TIME;
  else if (g_strcmp0 (name, "script") == 0)
    *policy = FL_SCHED_SCRIPT;
  else if (g_strcmp0 (name, "random") == 0)
    *policy = FL_SCHED_RANDOM;
  else
    {
      fl_cli_fail ("--schedule '%s': expected time, script or random", name);
      return FALSE;
    }
  return TRUE;
}

/* What --help says after the options of a command with --set: every switch with what it
 * decides and what each of its values means (the core's table), the costs by name only. */
char *
fl_cli_switches_help (void)
{
  GString *out = g_string_new ("Switches for --set KEY=VALUE (also a scenario's [config]):\n");
  const char *const *keys = fl_config_keys ();
  g_autoptr (GPtrArray) costs = g_ptr_array_new ();
  for (guint pass = 0; pass < 2; pass++)
    for (const char *const *k = pass ? keys : fl_config_presets (); *k != NULL; k++)
      {
        if (g_str_has_prefix (*k, "cost."))
          {
            g_ptr_array_add (costs, (gpointer) *k);
            continue;
          }
        g_string_append_printf (out, "  %-18s %s\n", *k, fl_config_key_about (*k));
        const char *valid = fl_config_valid_values (*k);
        g_auto (GStrv) values = strchr (valid, '|') ? g_strsplit (valid, "|", -1) : NULL;
        for (guint i = 0; values && values[i]; i++)
          g_string_append_printf (out, "    %-16s %s\n", values[i],
                                  fl_config_value_about (*k, values[i]));
      }
  g_ptr_array_add (costs, NULL);
  g_autofree char *names = g_strjoinv (", ", (char **) costs->pdata);
  g_string_append_printf (out, "  Cycle costs of the coherence model (docs/model.md): %s", names);
  return g_string_free (out, FALSE);
}

/* The tail of a command that takes one SCENARIO and --set: its --help closes with the switches,
 * then the arguments are parsed and exactly one scenario is insisted on. */
int
fl_cli_on_one_scenario (GOptionContext *context, const char *about, int argc, char **argv,
                        int (*body) (gconstpointer options, const char *id),
                        gconstpointer options)
{
  g_autofree char *switches = fl_cli_switches_help ();
  g_autofree char *description = g_strconcat (about, "\n\n", switches, NULL);
  g_option_context_set_description (context, description);
  if (!fl_cli_parse (context, &argc, &argv))
    return FL_EXIT_USAGE;
  if (argc != 2)
    return fl_cli_fail ("%s needs exactly one SCENARIO (a built-in id or a .fault path)",
                        g_get_prgname ());
  return body (options, argv[1]);
}

/* A scenario and its configuration with the --set overrides applied; NULL (reported) on bad
 * input. */
FlScenario *
fl_cli_load_with_sets (const char *id_or_path, char **sets, FlConfig *out_config)
{
  FlScenario *scenario = fl_cli_load_scenario (id_or_path);
  if (scenario == NULL)
    return NULL;
  *out_config = scenario->config;
  if (!fl_cli_apply_sets (out_config, sets))
    g_clear_pointer (&scenario, fl_scenario_free);
  return scenario;
}
