/* fl-store-record.c — a finished simulation into the store, and replaying one back. */
#include "fl-store-record.h"
#include "fl-scenario-private.h"
#include "fl-store-private.h"

#include <string.h>

#define BATCH 65536

static const char *const policy_names[] = { "time", "script", "random", "external" };

static char *
config_text (const FlConfig *config, FlSchedPolicy policy)
{
  FlConfig defaults;
  fl_config_init_defaults (&defaults);
  GString *out = g_string_new (NULL);
  g_autofree char *base = fl_config_describe (config);
  g_string_append (out, base);
  for (const char *const *key = fl_config_keys (); *key; key++)
    {
      if (!g_str_has_prefix (*key, "cost."))
        continue;
      g_autofree char *value = fl_config_get (config, *key);
      g_autofree char *standard = fl_config_get (&defaults, *key);
      if (strcmp (value, standard) != 0)
        g_string_append_printf (out, " %s=%s", *key, value);
    }
  g_string_append_printf (out, " schedule=%s", policy_names[policy]);
  return g_string_free (out, FALSE);
}

static char *
hash_text (guint64 hash)
{
  return g_strdup_printf ("%016" G_GINT64_MODIFIER "x", hash);
}

/**
 * fl_store_sim_config_text:
 * @sim: a simulation
 *
 * Every switch, the cost-table entries that differ from the defaults, and the schedule
 * policy: everything a replay needs to take the same steps, as a run's config column holds it.
 *
 * Returns: (transfer full): the text
 */
char *
fl_store_sim_config_text (FlSim *sim)
{
  return config_text (fl_sim_get_config (sim), fl_sim_get_policy (sim));
}

/**
 * fl_store_run_config_text:
 * @run: a run
 *
 * Returns: (transfer full): fl_store_sim_config_text() of the simulation that made @run
 */
char *
fl_store_run_config_text (const FlRun *run)
{
  g_return_val_if_fail (run != NULL, NULL);
  return config_text (fl_run_get_config (run), fl_run_get_policy (run));
}

/**
 * fl_store_sim_hash_text:
 * @sim: a simulation
 *
 * Returns: (transfer full): the hash of the simulation's event stream as the run's hash
 *   column holds it, so a recorded run and a replay compare as text.
 */
char *
fl_store_sim_hash_text (FlSim *sim)
{
  return hash_text (fl_sim_get_hash (sim));
}

/**
 * fl_store_run_hash_text:
 * @run: a run
 *
 * Returns: (transfer full): the hash of @run's event stream as the hash column holds it
 */
char *
fl_store_run_hash_text (const FlRun *run)
{
  g_return_val_if_fail (run != NULL, NULL);
  return hash_text (fl_run_get_hash (run));
}

/**
 * fl_store_run_config_apply:
 * @config_text: a run's config column (fl_store_sim_config_text())
 * @config: (inout): the configuration to set each switch on, usually the scenario's own
 * @out_policy: (out): the schedule policy the run used
 * @out_switches: (out) (optional): the switches, alternating keys and values, in text order
 * @error: an %FL_CONFIG_ERROR for a key or value this build does not know
 *
 * Reads a run's configuration back: what a replay and the window need to take the same steps.
 *
 * Returns: %TRUE when every switch was set.
 */
gboolean
fl_store_run_config_apply (const char *config_text, FlConfig *config, FlSchedPolicy *out_policy,
                           GStrv *out_switches, GError **error)
{
  g_auto (GStrv) pairs = g_strsplit (config_text, " ", -1);
  g_autoptr (GStrvBuilder) switches = g_strv_builder_new ();
  *out_policy = FL_SCHED_TIME;
  for (guint i = 0; pairs[i]; i++)
    {
      char *eq = strchr (pairs[i], '=');
      if (eq == NULL)
        continue;
      *eq = '\0';
      if (strcmp (pairs[i], "schedule") == 0)
        {
          for (guint p = 0; p < G_N_ELEMENTS (policy_names); p++)
            if (strcmp (eq + 1, policy_names[p]) == 0)
              *out_policy = p;
          continue;
        }
      if (!fl_config_set (config, pairs[i], eq + 1, error))
        return FALSE;
      g_strv_builder_add (switches, pairs[i]);
      g_strv_builder_add (switches, eq + 1);
    }
  if (out_switches != NULL)
    *out_switches = g_strv_builder_end (switches);
  return TRUE;
}

/**
 * fl_store_run_prepare:
 * @name: the stored scenario's name
 * @text: its stored text
 * @config_text: the run's config column
 * @out_config: (out): the configuration the run used
 * @out_policy: (out): its schedule policy
 * @out_switches: (out) (optional): its switches (see fl_store_run_config_apply())
 * @error: the parser's `NAME:LINE: what`, or an %FL_CONFIG_ERROR
 *
 * A stored run is trusted no more than a file on disk: its text goes through the parser with
 * the limits of fl_scenario_load_file() (a .fault file's size, and whatever the parser and the
 * simulation refuse in a file), and its configuration is validated as `faultline-cli run`
 * validates the switches on its command line. Replays, in the CLI and in the window, start
 * here.
 *
 * Returns: (transfer full) (nullable): the scenario, named @name, or %NULL with @error set.
 */
FlScenario *
fl_store_run_prepare (const char *name, const char *text, const char *config_text,
                      FlConfig *out_config, FlSchedPolicy *out_policy, GStrv *out_switches,
                      GError **error)
{
  g_return_val_if_fail (name != NULL && text != NULL && config_text != NULL, NULL);
  g_autoptr (FlScenario) scenario = fl_scenario_parse_limited (text, strlen (text), name,
                                                               FL_SCENARIO_MAX_BYTES, error);
  if (scenario == NULL)
    return NULL;
  g_free (scenario->id);
  scenario->id = g_strdup (name);
  *out_config = scenario->config;
  if (!fl_store_run_config_apply (config_text, out_config, out_policy, out_switches, error) ||
      !fl_config_validate (out_config, error))
    {
      if (out_switches != NULL)
        g_clear_pointer (out_switches, g_strfreev);
      return NULL;
    }
  return g_steal_pointer (&scenario);
}

/**
 * fl_store_record_sim:
 * @store: a writable store
 * @sim: a simulation that has run (to its end, or stopped early)
 * @stopped_early: the run was cut short (e.g. by --max-steps)
 * @error: set when recording fails; the store then holds no trace of the run
 *
 * Saves the scenario text (once), the run, its events in one transaction, and its findings.
 *
 * Returns: the run's id, or -1.
 */
gint64
fl_store_record_sim (FlStore *store, FlSim *sim, gboolean stopped_early, GError **error)
{
  return fl_store_record_found (store, sim, stopped_early, 0, error);
}

/**
 * fl_store_record_found:
 * @store: a writable store
 * @sim: a simulation that has run
 * @stopped_early: the run was cut short
 * @exploration_id: the exploration whose counterexample @sim replays, 0 for none
 * @error: set when recording fails; the store then holds no trace of the run
 *
 * fl_store_record_sim(), with the run linked to the exploration that found it.
 *
 * Returns: the run's id, or -1.
 */
/* What recording reads of a run, from a simulation or a finished FlRun. */
typedef struct {
  const FlScenario *scenario;
  char             *config;
  guint64           seed;
  gsize             n_events;
  gsize           (*events) (gconstpointer source, gsize first, gsize n, FlEvent *out);
  gconstpointer     source;
  const GPtrArray  *findings;
  guint64           steps;
  guint64           cycles;
  char             *hash;
} RecordFrom;

static gsize
sim_events (gconstpointer source, gsize first, gsize n, FlEvent *out)
{
  return fl_sim_get_events_range ((FlSim *) source, first, n, out);
}

static gsize
run_events (gconstpointer source, gsize first, gsize n, FlEvent *out)
{
  return fl_run_get_events_range (source, first, n, out);
}

static gint64
record (FlStore *store, const RecordFrom *from, gboolean stopped_early, gint64 exploration_id,
        GError **error)
{
  const FlScenario *sc = from->scenario;
  gint64 scenario_id = 0, run_id = 0;
  if (!fl_store_save_scenario (store, sc->id, sc->title, (const char *const *) sc->tags,
                               sc->text, &scenario_id, error))
    return -1;
  FlStoreRunInfo info = { .config = from->config, .seed = from->seed,
                          .exploration_id = exploration_id };
  if (!fl_store_begin_run (store, scenario_id, &info, &run_id, error))
    return -1;
  /* batch by batch from the packed log: never a decoded copy of the whole run */
  gsize n = from->n_events;
  g_autofree FlEvent *batch = g_new (FlEvent, MIN (BATCH, MAX (n, 1)));
  for (gsize i = 0; i < n; i += BATCH)
    {
      gsize got = from->events (from->source, i, MIN (BATCH, n - i), batch);
      if (!fl_store_add_events (store, run_id, batch, got, error))
        {
          fl_store_abort_run (store, run_id);
          return -1;
        }
    }
  const GPtrArray *findings = from->findings;
  for (guint i = 0; i < findings->len; i++)
    {
      const FlFinding *f = g_ptr_array_index (findings, i);
      if (!fl_store_add_finding (store, run_id, (guint32) f->step, f->cpu,
                                 fl_finding_kind_name (f->kind), f->message, error))
        {
          fl_store_abort_run (store, run_id);
          return -1;
        }
    }
  const char *verdict = stopped_early ? "stopped" : findings->len ? "findings" : "clean";
  if (!fl_store_finish_run (store, run_id, from->steps, from->cycles, from->hash,
                            findings->len, verdict, error))
    return -1;
  return run_id;
}

gint64
fl_store_record_found (FlStore *store, FlSim *sim, gboolean stopped_early,
                       gint64 exploration_id, GError **error)
{
  FlCounters k;
  fl_sim_get_counters (sim, &k);
  g_autofree char *config = fl_store_sim_config_text (sim);
  g_autofree char *hash = fl_store_sim_hash_text (sim);
  RecordFrom from = { fl_sim_get_scenario (sim), config, fl_sim_get_seed (sim),
                      fl_sim_get_n_events (sim), sim_events, sim, fl_sim_get_findings (sim),
                      fl_sim_get_step (sim), k.cycles, hash };
  return record (store, &from, stopped_early, exploration_id, error);
}

/**
 * fl_store_record_run:
 * @store: a writable store
 * @run: a finished run
 * @stopped_early: the run was cut short
 * @error: set when recording fails; the store then holds no trace of the run
 *
 * fl_store_record_sim() of a finished run: its whole length, its counters at its end.
 *
 * Returns: the run's id, or -1.
 */
gint64
fl_store_record_run (FlStore *store, const FlRun *run, gboolean stopped_early, GError **error)
{
  g_return_val_if_fail (store != NULL && run != NULL, -1);
  FlCounters k;
  fl_run_get_counters (run, &k);
  g_autofree char *config = fl_store_run_config_text (run);
  g_autofree char *hash = fl_store_run_hash_text (run);
  RecordFrom from = { fl_run_get_scenario (run), config, fl_run_get_seed (run),
                      fl_run_get_n_events (run), run_events, run, fl_run_get_findings (run),
                      fl_run_get_total_steps (run), k.cycles, hash };
  return record (store, &from, stopped_early, 0, error);
}

/**
 * fl_store_check_run_steps:
 * @store: a store
 * @run: a run read from it
 * @error: set (FL_STORE_ERROR_BAD_VALUE) when the run's step count is impossible
 *
 * Every step records an event: a run that claims more steps than its events hold is a value
 * Faultline never writes, and replaying it to that count could run for minutes.
 *
 * Returns: %TRUE when the run's last step has its events
 */
gboolean
fl_store_check_run_steps (FlStore *store, const FlStoredRun *run, GError **error)
{
  g_return_val_if_fail (store != NULL && run != NULL, FALSE);
  if (run->steps == 0)
    return TRUE;
  g_autoptr (GArray) last = g_array_new (FALSE, FALSE, sizeof (FlEvent));
  guint32 final = (guint32) MIN (run->steps - 1, (guint64) G_MAXUINT32);
  if (!fl_store_load_events (store, run->id, final, final, last, error))
    return FALSE;
  if (last->len > 0)
    return TRUE;
  g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_BAD_VALUE,
               "'%s': table run, row %" G_GINT64_FORMAT ", column steps: %" G_GUINT64_FORMAT
               " steps, but the run's events end before step %" G_GUINT64_FORMAT " (Faultline "
               "records an event for every step)", store->path, run->id, run->steps, run->steps);
  return FALSE;
}

/**
 * fl_store_replay_run:
 * @store: a store
 * @run_id: a recorded run
 * @out: (out): what the replay found
 * @error: set when the run cannot be re-simulated (missing, or its scenario no longer parses)
 *
 * Re-simulates the run from its stored scenario text, configuration and seed, and compares
 * the event-stream hash and, event by event, the stored events.
 *
 * Returns: %TRUE when the replay could be made (whether or not it matched).
 */
gboolean
fl_store_replay_run (FlStore *store, gint64 run_id, FlReplayResult *out, GError **error)
{
  memset (out, 0, sizeof *out);
  g_autoptr (FlStoredRun) run = fl_store_get_run (store, run_id, error);
  if (run == NULL)
    return FALSE;
  if (!fl_store_check_run_steps (store, run, error))
    return FALSE;
  FlConfig config;
  FlSchedPolicy policy;
  g_autoptr (FlScenario) scenario = fl_store_run_prepare (run->scenario_name, run->scenario_text,
                                                          run->config, &config, &policy, NULL,
                                                          error);
  if (scenario == NULL)
    return FALSE;
  g_autoptr (FlSim) sim = fl_sim_new (scenario, &config, run->seed, error);
  if (sim == NULL)
    return FALSE;
  fl_sim_set_policy (sim, policy);
  fl_sim_run (sim, run->steps);
  out->steps = fl_sim_get_step (sim);
  g_autofree char *hash = fl_store_sim_hash_text (sim);
  g_strlcpy (out->hash, hash, sizeof out->hash);
  g_strlcpy (out->stored_hash, run->hash, sizeof out->stored_hash);
  out->matches = strcmp (out->hash, run->hash) == 0 && out->steps == run->steps;
  out->first_difference = -1;
  if (!out->matches)
    {
      /* find the first step whose events differ, reading the stored run in windows */
      gsize n;
      const FlEvent *mine = fl_sim_get_events (sim, &n);
      g_autoptr (GArray) theirs = g_array_new (FALSE, FALSE, sizeof (FlEvent));
      gsize i = 0;
      for (guint32 first = 0; out->first_difference < 0 && first <= run->steps; first += 4096)
        {
          g_array_set_size (theirs, 0);
          if (!fl_store_load_events (store, run_id, first, first + 4095, theirs, error))
            return FALSE;
          for (guint j = 0; j < theirs->len; j++, i++)
            {
              const FlEvent *t = &g_array_index (theirs, FlEvent, j);
              if (i >= n || memcmp (&mine[i], t, sizeof *t) != 0)
                {
                  out->first_difference = t->step;
                  break;
                }
            }
        }
      /* Every stored event matched: the replay went on past the stored stream (its first
       * extra event is where they part), or only the step counts differ. */
      if (out->first_difference < 0)
        out->first_difference = i < n ? (gint64) mine[i].step
                                      : (gint64) MIN (out->steps, run->steps);
    }
  return TRUE;
}
