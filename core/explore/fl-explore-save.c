/* fl-explore-save.c — a counterexample of the explorer as a scenario: the text the user wrote,
 * its [schedule] replaced by the schedule found and [config] carrying the switches the
 * exploration set, so the file alone replays it. */
#include "fl-explore.h"

#include <string.h>

/* Steps per `steps=` line: long schedules stay readable and diffable. */
#define STEPS_PER_LINE 8

/**
 * fl_explore_schedule_text:
 * @choices: (element-type guint8): the CPU of each step
 *
 * Returns: (transfer full): `steps=` lines of `cpuN for K` runs, one run per CPU switch.
 * Under the script policy each run takes exactly its K steps, since its CPU could step at each
 * of them when the search chose it.
 */
char *
fl_explore_schedule_text (const GArray *choices)
{
  GString *out = g_string_new (NULL);
  guint runs = 0;
  for (guint i = 0; i < choices->len;)
    {
      guint8 cpu = g_array_index (choices, guint8, i);
      guint n = 0;
      while (i < choices->len && g_array_index (choices, guint8, i) == cpu)
        i++, n++;
      if (runs % STEPS_PER_LINE == 0)
        g_string_append (out, runs ? "\nsteps=" : "steps=");
      else
        g_string_append (out, "; ");
      g_string_append_printf (out, "cpu%u for %u", cpu, n);
      runs++;
    }
  if (runs > 0)
    g_string_append_c (out, '\n');
  return g_string_free (out, FALSE);
}

/* The configuration keys whose value @config changed from the scenario's own. */
static GPtrArray *
changed_keys (const FlScenario *scenario, const FlConfig *config)
{
  GPtrArray *keys = g_ptr_array_new_with_free_func (g_free);
  for (const char *const *k = fl_config_keys (); *k != NULL; k++)
    {
      g_autofree char *was = fl_config_get (&scenario->config, *k);
      g_autofree char *now = fl_config_get (config, *k);
      if (g_strcmp0 (was, now) != 0)
        g_ptr_array_add (keys, g_strdup_printf ("%s=%s", *k, now ? now : ""));
    }
  return keys;
}

static gboolean
line_sets_key (const char *line, GPtrArray *assignments)
{
  const char *eq = strchr (line, '=');
  if (eq == NULL)
    return FALSE;
  g_autofree char *key = g_strstrip (g_strndup (line, eq - line));
  for (guint i = 0; i < assignments->len; i++)
    {
      const char *a = g_ptr_array_index (assignments, i);
      if (strncmp (a, key, strlen (key)) == 0 && a[strlen (key)] == '=')
        return TRUE;
    }
  return FALSE;
}

/* The changed keys close [config] (after a preset such as spf=, which they override). */
static void
append_assignments (GString *out, GPtrArray *assignments)
{
  while (out->len >= 2 && out->str[out->len - 1] == '\n' && out->str[out->len - 2] == '\n')
    g_string_truncate (out, out->len - 1);
  for (guint i = 0; i < assignments->len; i++)
    g_string_append_printf (out, "%s\n", (const char *) g_ptr_array_index (assignments, i));
}

/**
 * fl_explore_scenario_text:
 * @scenario: the explored scenario
 * @config: the configuration it was explored under
 * @choices: (element-type guint8): the schedule
 * @comment: (nullable): a line for the [schedule] section's comment
 *
 * Returns: (transfer full): the scenario's text (comments and layout kept) without its
 * [schedule], with the changed keys in [config] and the new [schedule] at the end.
 */
char *
fl_explore_scenario_text (const FlScenario *scenario, const FlConfig *config,
                          const GArray *choices, const char *comment)
{
  g_autofree char *canonical = scenario->text ? NULL : fl_scenario_to_text (scenario);
  g_auto (GStrv) lines = g_strsplit (scenario->text ? scenario->text : canonical, "\n", -1);
  g_autoptr (GPtrArray) assignments = changed_keys (scenario, config);
  GString *out = g_string_new (NULL);
  g_autofree char *section = NULL;
  gboolean wrote_config = FALSE;
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (lines[i + 1] == NULL && lines[i][0] == '\0')
        break;  /* the empty piece after the final newline */
      g_autofree char *trimmed = g_strstrip (g_strdup (lines[i]));
      if (trimmed[0] == '[')
        {
          if (g_strcmp0 (section, "config") == 0)
            {
              append_assignments (out, assignments);
              g_string_append_c (out, '\n');
              wrote_config = TRUE;
            }
          const char *end = strchr (trimmed, ']');
          g_free (section);
          section = end ? g_strndup (trimmed + 1, end - trimmed - 1) : g_strdup ("");
        }
      if (g_strcmp0 (section, "schedule") == 0)
        continue;
      if (g_strcmp0 (section, "config") == 0 && trimmed[0] != '#' && trimmed[0] != '['
          && line_sets_key (trimmed, assignments))
        continue;
      g_string_append_printf (out, "%s\n", lines[i]);
    }
  if (g_strcmp0 (section, "config") == 0)
    {
      append_assignments (out, assignments);
      wrote_config = TRUE;
    }
  if (!wrote_config && assignments->len > 0)
    {
      g_string_append (out, "\n[config]\n");
      append_assignments (out, assignments);
    }
  while (out->len >= 2 && out->str[out->len - 1] == '\n' && out->str[out->len - 2] == '\n')
    g_string_truncate (out, out->len - 1);
  g_string_append (out, "\n[schedule]\n");
  if (comment != NULL)
    g_string_append_printf (out, "# %s\n", comment);
  g_autofree char *steps = fl_explore_schedule_text (choices);
  g_string_append (out, steps);
  return g_string_free (out, FALSE);
}

/**
 * fl_explore_counterexample_text:
 * @scenario: the explored scenario
 * @config: the configuration it was explored under
 * @finding: one of the exploration's findings
 *
 * Returns: (transfer full): fl_explore_scenario_text() of @finding's schedule, its
 *   [schedule] saying what it finds (in English, as the rest of the file): what --save
 *   writes, the store keeps and the window opens.
 */
char *
fl_explore_counterexample_text (const FlScenario *scenario, const FlConfig *config,
                                const FlExploreFinding *finding)
{
  g_autofree char *comment = g_strdup_printf (
    "found by the explorer: %s at step %" G_GUINT64_FORMAT ", %u preemption%s",
    fl_finding_kind_name (finding->kind), finding->step, finding->preemptions,
    finding->preemptions == 1 ? "" : "s");
  return fl_explore_scenario_text (scenario, config, finding->choices, comment);
}

/**
 * fl_explore_replay:
 * @text: a counterexample from fl_explore_scenario_text()
 * @name: the scenario's id in the run (as a file's stem would be)
 * @finding: what it was found to give
 * @error: where a mismatch is described
 *
 * Runs @text as `faultline-cli run` does (its own configuration, its [schedule], the step
 * budget) and compares.
 *
 * Returns: (transfer full) (nullable): the finished simulation when it ends with @finding's
 *   kind among its findings and the same events hash, or %NULL with @error set.
 */
FlSim *
fl_explore_replay (const char *text, const char *name, const FlExploreFinding *finding,
                   GError **error)
{
  g_autoptr (FlScenario) sc = fl_scenario_parse (text, name, error);
  if (sc == NULL)
    return NULL;
  g_autoptr (FlSim) sim = fl_sim_new (sc, &sc->config, sc->seed, error);
  if (sim == NULL)
    return NULL;
  fl_sim_run_in_budget (sim, 0);
  GPtrArray *findings = fl_sim_get_findings (sim);
  gboolean has = FALSE;
  for (guint i = 0; i < findings->len && !has; i++)
    has = ((FlFinding *) g_ptr_array_index (findings, i))->kind == finding->kind;
  if (!has || fl_sim_get_hash (sim) != finding->events_hash)
    {
      g_set_error (error, FL_SIM_ERROR, FL_SIM_ERROR_SCENARIO,
                   "the counterexample does not replay: %s, events hash %016" G_GINT64_MODIFIER
                   "x instead of %016" G_GINT64_MODIFIER "x",
                   has ? "same finding" : "finding missing", fl_sim_get_hash (sim),
                   finding->events_hash);
      return NULL;
    }
  return g_steal_pointer (&sim);
}

/**
 * fl_explore_replay_check:
 * @text: a counterexample from fl_explore_scenario_text()
 * @finding: what it was found to give
 * @error: where a mismatch is described
 *
 * Returns: %TRUE when fl_explore_replay() reproduces @finding.
 */
gboolean
fl_explore_replay_check (const char *text, const FlExploreFinding *finding, GError **error)
{
  g_autoptr (FlSim) sim = fl_explore_replay (text, "counterexample", finding, error);
  return sim != NULL;
}
