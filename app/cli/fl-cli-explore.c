/* fl-cli-explore.c — `explore`: every interleaving of a scenario within a preemption bound,
 * a verdict, and the shortest schedule of each kind of finding (core/explore/fl-explore.c). */
#include "fl-cli.h"
#include "fl-cli-explore.h"
#include "fl-cli-json.h"
#include "fl-cli-store.h"
#include "fl-store-explore.h"

#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

typedef struct {
  char   **sets;
  gint     preemptions;
  gint64   max_schedules;
  double   time_limit;
  gint64   max_states;
  gboolean json;
  char    *save;
  char    *record;
  char    *reduction;
  gboolean all;
  char    *schedule;
  gint     depth;
  gint64   runs;
  gint     jobs;
  char    *shard;
} ExploreOptions;

/* The process's peak resident size in KiB: the simulation's event log and checkpoints with the
 * explorer's own structures. */
static glong
peak_rss_kib (void)
{
  struct rusage usage;
  return getrusage (RUSAGE_SELF, &usage) == 0 ? usage.ru_maxrss : 0;
}

static double
per_second (guint64 n, double seconds)
{
  return seconds > 0 ? n / seconds : 0;
}

/* On a terminal: one line on standard error, rewritten in place while the search runs. */
static void
show_progress (const FlExploreResult *r, gpointer data)
{
  (void) data;
  guint64 found = 0;
  for (guint i = 0; i < r->findings->len; i++)
    found += ((const FlExploreFinding *) g_ptr_array_index (r->findings, i))->hits > 0;
  fprintf (stderr, "\r  %.1f s: %" G_GUINT64_FORMAT " schedules (%.0f/s), %" G_GUINT64_FORMAT
           " states, %" G_GUINT64_FORMAT " outcomes, %" G_GUINT64_FORMAT " kind%s of finding "
           "\033[K", r->seconds, r->schedules, per_second (r->schedules, r->seconds),
           r->states, r->outcomes, found, found == 1 ? "" : "s");
  fflush (stderr);
}

/* The counterexample --save writes: fewest preemptions, then fewest steps, over all kinds. */
static const FlExploreFinding *
first_finding (const FlExploreResult *r)
{
  const FlExploreFinding *best = NULL;
  for (guint i = 0; i < r->findings->len; i++)
    {
      const FlExploreFinding *f = g_ptr_array_index (r->findings, i);
      if (best == NULL || f->preemptions < best->preemptions
          || (f->preemptions == best->preemptions && f->step < best->step))
        best = f;
    }
  return best;
}

/* The first bound whose schedules found something, or -1 when none did (the finding came
 * from the search beyond the bounds). */
static gint
first_bound_found (const FlExploreResult *r)
{
  for (guint i = 0; r->per_bound != NULL && i < r->per_bound->len; i++)
    if (g_array_index (r->per_bound, FlExploreBoundCounts, i).with_findings > 0)
      return (gint) i;
  return -1;
}

static char *
verdict_sentence (const FlExploreResult *r)
{
  if (r->shards > 1 && r->pct_depth == 0)
    return g_strdup_printf ("shard %u of %u: its part of bounds 0 to %u; the verdict is the "
                            "merge's (explore --merge of every shard's --json)", r->shard,
                            r->shards, r->bound);
  if (r->pct_depth > 0)
    return g_strdup_printf ("%s: %" G_GUINT64_FORMAT " PCT runs of depth %u, %" G_GUINT64_FORMAT
                            " with a finding", r->verdict == FL_EXPLORE_FOUND ? "found"
                            : "bounded", r->schedules, r->pct_depth, r->with_findings);
  if (r->verdict == FL_EXPLORE_COMPLETE && r->unbounded == FL_EXPLORE_REDUCTION_DPOR)
    return g_strdup_printf ("complete: every interleaving, beyond %u preemption%s one of each "
                            "class of equivalent orders (DPOR)", r->bound,
                            r->bound == 1 ? "" : "s");
  if (r->verdict == FL_EXPLORE_COMPLETE && r->unbounded == FL_EXPLORE_REDUCTION_STATES)
    return g_strdup_printf ("complete: every reachable state, beyond %u preemption%s each "
                            "explored once", r->bound, r->bound == 1 ? "" : "s");
  if (r->verdict == FL_EXPLORE_COMPLETE)
    return g_strdup_printf ("complete: every interleaving ran, none needed more than %u "
                            "preemption%s", r->bound, r->bound == 1 ? "" : "s");
  gint found_at = r->verdict == FL_EXPLORE_FOUND ? first_bound_found (r) : -1;
  if (found_at >= 0 && r->unbounded != FL_EXPLORE_REDUCTION_NONE)
    /* --all: the search went on past the bound that found it */
    return g_strdup_printf ("found at %d preemption%s; with --all the bounds up to %u and the "
                            "unbounded search (%s) went on to every kind", found_at,
                            found_at == 1 ? "" : "s", r->bound,
                            fl_explore_reduction_name (r->unbounded));
  if (r->verdict == FL_EXPLORE_FOUND && r->unbounded != FL_EXPLORE_REDUCTION_NONE)
    return g_strdup_printf ("found beyond %u preemptions, by the unbounded search (%s)",
                            r->bound, fl_explore_reduction_name (r->unbounded));
  if (r->unbounded != FL_EXPLORE_REDUCTION_NONE && r->stop != FL_EXPLORE_STOP_NONE)
    {
      /* a full table says how big it was and how to have a bigger one */
      g_autofree char *full = r->stop == FL_EXPLORE_STOP_STATES
        ? g_strdup_printf (" at %" G_GUINT64_FORMAT " states (--max-states N keeps more)",
                           r->states)
        : g_strdup ("");
      return g_strdup_printf ("bounded: complete up to %u preemption%s; the unbounded search "
                              "(%s) stopped by %s%s", r->bound, r->bound == 1 ? "" : "s",
                              fl_explore_reduction_name (r->unbounded),
                              fl_explore_stop_name (r->stop), full);
    }
  if (r->verdict == FL_EXPLORE_FOUND)
    return g_strdup_printf ("found at %u preemption%s", r->bound, r->bound == 1 ? "" : "s");
  if (r->stop != FL_EXPLORE_STOP_NONE)
    return g_strdup_printf ("bounded: stopped by %s while exploring %u preemption%s",
                            fl_explore_stop_name (r->stop), r->bound, r->bound == 1 ? "" : "s");
  if (r->cut_by_budget > 0)
    return g_strdup_printf ("bounded: complete up to %u preemption%s, but %" G_GUINT64_FORMAT
                            " schedules hit the step budget", r->bound,
                            r->bound == 1 ? "" : "s", r->cut_by_budget);
  return g_strdup_printf ("bounded: complete up to %u preemption%s", r->bound,
                          r->bound == 1 ? "" : "s");
}

static void
print_text (const char *scenario, const FlExploreResult *r, FILE *out)
{
  char a[32], b[32], c[32];
  g_autofree char *verdict = verdict_sentence (r);
  fprintf (out, "Scenario   %s\nVerdict    %s\n", scenario, verdict);
  fprintf (out, "Schedules  %" G_GUINT64_FORMAT " run to their end (%" G_GUINT64_FORMAT
           " executions with the re-runs of lower bounds), longest %" G_GUINT64_FORMAT " steps\n",
           r->schedules, r->executions, r->max_length);
  if (r->pct_depth > 0)
    {
      /* Burckhardt et al.'s bound for one run: 1 / (n k^(d-1)) */
      double bound = 1.0 / r->config.cpus;
      for (guint i = 1; i < r->pct_depth; i++)
        bound /= (double) r->pct_steps;
      fprintf (out, "PCT        depth %u over k = %" G_GUINT64_FORMAT " steps (the scenario's "
               "own run), %u CPUs: a bug of depth %u is found by one run with probability "
               "at least %.3g\n", r->pct_depth, r->pct_steps, r->config.cpus, r->pct_depth,
               bound);
    }
  if (r->unbounded == FL_EXPLORE_REDUCTION_DPOR)
    fprintf (out, "DPOR       %" G_GUINT64_FORMAT " schedules beyond the bound, %" G_GUINT64_FORMAT
             " races reversed, %" G_GUINT64_FORMAT " stopped asleep, up to %u preemptions\n",
             r->dpor_schedules, r->dpor_races, r->dpor_blocked, r->dpor_max_preemptions);
  if (r->unbounded == FL_EXPLORE_REDUCTION_STATES)
    fprintf (out, "States     %" G_GUINT64_FORMAT " distinct beyond the bound (time left out), "
             "%" G_GUINT64_FORMAT " arrivals at one already explored\n", r->states,
             r->states_pruned);
  fprintf (out, "Outcomes   %" G_GUINT64_FORMAT " distinct (finding kinds, final state without "
           "time)\n", r->outcomes);
  fprintf (out, "Steps      %" G_GUINT64_FORMAT " stepped, %" G_GUINT64_FORMAT
           " replayed by seeks to a branch point\n", r->steps, r->replayed);
  fprintf (out, "Time       %s s: %s schedules/s, %s steps/s (replays included)\n",
           fl_cli_decimal (r->seconds, 3, a, sizeof a),
           fl_cli_decimal (per_second (r->executions, r->seconds), 0, b, sizeof b),
           fl_cli_decimal (per_second (r->steps + r->replayed, r->seconds), 0, c, sizeof c));
  fprintf (out, "Memory     %" G_GSIZE_FORMAT " KiB explorer peak, %ld KiB process peak\n",
           (r->peak_bytes + 1023) / 1024, peak_rss_kib ());
  if (r->findings->len == 0)
    {
      fprintf (out, "Findings   none in %" G_GUINT64_FORMAT " interleavings\n", r->schedules);
      return;
    }
  fprintf (out, "Findings   (the shortest schedule of each kind)\n");
  for (guint i = 0; i < r->findings->len; i++)
    {
      const FlExploreFinding *f = g_ptr_array_index (r->findings, i);
      g_autofree char *steps = fl_explore_schedule_text (f->choices);
      fprintf (out, "  %s at step %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT ", %u preemption%s: "
               "%s\n", fl_finding_kind_name (f->kind), f->step, f->length, f->preemptions,
               f->preemptions == 1 ? "" : "s", f->message);
      if (r->pct_depth > 0)
        fprintf (out, "    in %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " runs (%.1f%%); "
                 "the schedule below is run %" G_GUINT64_FORMAT "'s\n", f->hits, r->schedules,
                 r->schedules ? 100.0 * f->hits / r->schedules : 0, f->seed);
      fputs (steps, out);
    }
}

/* What a merge needs of each bound of a systematic search (fl-cli-explore-merge-bounds.c). */
static void
json_per_bound (JsonBuilder *b, const FlExploreResult *r)
{
  json_builder_set_member_name (b, "per-bound");
  json_builder_begin_array (b);
  for (guint i = 0; i < r->per_bound->len; i++)
    {
      const FlExploreBoundCounts *c = &g_array_index (r->per_bound, FlExploreBoundCounts, i);
      json_builder_begin_object (b);
      fl_cli_json_int (b, "schedules", (gint64) c->schedules);
      fl_cli_json_int (b, "executions", (gint64) c->executions);
      fl_cli_json_int (b, "cut-by-budget", (gint64) c->cut_by_budget);
      fl_cli_json_int (b, "with-findings", (gint64) c->with_findings);
      fl_cli_json_int (b, "longest", (gint64) c->max_length);
      json_builder_set_member_name (b, "cut-by-bound");
      json_builder_add_boolean_value (b, c->cut_by_bound);
      json_builder_set_member_name (b, "hits");
      json_builder_begin_object (b);
      for (guint k = 0; k < FL_FINDING_N_KINDS; k++)
        if (c->hits[k] > 0)
          fl_cli_json_int (b, fl_finding_kind_name ((FlFindingKind) k), (gint64) c->hits[k]);
      json_builder_end_object (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
print_json (const char *scenario, const char *scenario_text, const FlExploreResult *r, FILE *out)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  fl_cli_json_string (b, "scenario", scenario);
  if (scenario_text != NULL)
    {
      fl_cli_json_string (b, "scenario-text", scenario_text);
      /* every key, costs included: the merge rebuilds the configuration explored exactly */
      g_autofree char *explored = fl_config_describe_all (&r->config);
      fl_cli_json_string (b, "explored-config", explored);
    }
  fl_cli_json_string (b, "schedule", r->pct_depth > 0 ? "pct" : "systematic");
  fl_cli_json_int (b, "preemptions", r->bound_limit);
  json_builder_set_member_name (b, "all");
  json_builder_add_boolean_value (b, r->all);
  g_autofree char *config = fl_config_describe (&r->config);
  fl_cli_json_string (b, "config", config);
  fl_cli_json_string (b, "verdict", fl_explore_verdict_name (r->verdict));
  fl_cli_json_string (b, "stopped-by", fl_explore_stop_name (r->stop));
  fl_cli_json_int (b, "bound", r->bound);
  fl_cli_json_string (b, "unbounded", fl_explore_reduction_name (r->unbounded));
  fl_cli_json_int (b, "dpor-schedules", (gint64) r->dpor_schedules);
  fl_cli_json_int (b, "dpor-races", (gint64) r->dpor_races);
  fl_cli_json_int (b, "dpor-blocked", (gint64) r->dpor_blocked);
  fl_cli_json_int (b, "states", (gint64) r->states);
  fl_cli_json_int (b, "max-states", (gint64) r->max_states);
  fl_cli_json_int (b, "pct-depth", r->pct_depth);
  fl_cli_json_int (b, "pct-steps", (gint64) r->pct_steps);
  fl_cli_json_int (b, "pct-runs", (gint64) r->pct_runs);
  fl_cli_json_int (b, "shard", r->shard);
  fl_cli_json_int (b, "shards", r->shards);
  fl_cli_json_int (b, "with-findings", (gint64) r->with_findings);
  if (r->outcome_keys != NULL)
    {
      /* a shard's outcomes, so that a merge counts the distinct ones of all shards */
      json_builder_set_member_name (b, "outcome-keys");
      json_builder_begin_array (b);
      for (guint i = 0; i < r->outcome_keys->len; i++)
        {
          g_autofree char *key = g_strdup_printf ("%016" G_GINT64_MODIFIER "x",
                                                  g_array_index (r->outcome_keys, guint64, i));
          json_builder_add_string_value (b, key);
        }
      json_builder_end_array (b);
    }
  if (r->outcome_bounds != NULL)
    {
      /* beside each key, the bound that first reached it */
      json_builder_set_member_name (b, "outcome-bounds");
      json_builder_begin_array (b);
      for (guint i = 0; i < r->outcome_bounds->len; i++)
        json_builder_add_int_value (b, g_array_index (r->outcome_bounds, guint16, i));
      json_builder_end_array (b);
    }
  if (r->per_bound != NULL)
    json_per_bound (b, r);
  fl_cli_json_int (b, "states-pruned", (gint64) r->states_pruned);
  fl_cli_json_int (b, "schedules", (gint64) r->schedules);
  fl_cli_json_int (b, "executions", (gint64) r->executions);
  fl_cli_json_int (b, "cut-by-budget", (gint64) r->cut_by_budget);
  fl_cli_json_int (b, "outcomes", (gint64) r->outcomes);
  fl_cli_json_int (b, "steps", (gint64) r->steps);
  fl_cli_json_int (b, "replayed", (gint64) r->replayed);
  fl_cli_json_int (b, "longest", (gint64) r->max_length);
  fl_cli_json_double (b, "seconds", r->seconds);
  fl_cli_json_double (b, "schedules-per-second", per_second (r->executions, r->seconds));
  fl_cli_json_double (b, "steps-per-second", per_second (r->steps + r->replayed, r->seconds));
  fl_cli_json_int (b, "peak-bytes", (gint64) r->peak_bytes);
  json_builder_set_member_name (b, "findings");
  json_builder_begin_array (b);
  for (guint i = 0; i < r->findings->len; i++)
    {
      const FlExploreFinding *f = g_ptr_array_index (r->findings, i);
      g_autofree char *steps = fl_explore_schedule_text (f->choices);
      g_autofree char *hash = g_strdup_printf ("%016" G_GINT64_MODIFIER "x", f->events_hash);
      json_builder_begin_object (b);
      fl_cli_json_string (b, "kind", fl_finding_kind_name (f->kind));
      fl_cli_json_int (b, "preemptions", f->preemptions);
      fl_cli_json_int (b, "hits", (gint64) f->hits);
      fl_cli_json_int (b, "seed", (gint64) f->seed);
      fl_cli_json_int (b, "unit", (gint64) f->unit);
      fl_cli_json_int (b, "step", (gint64) f->step);
      fl_cli_json_int (b, "length", (gint64) f->length);
      fl_cli_json_string (b, "message", f->message);
      fl_cli_json_string (b, "schedule", g_strstrip (steps));
      fl_cli_json_string (b, "hash", hash);
      /* the CPU of every step, for a merge to print the schedule as this run does */
      GString *cpus = g_string_sized_new (2 * f->choices->len);
      for (guint j = 0; j < f->choices->len; j++)
        g_string_append_printf (cpus, "%s%u", j ? "," : "", g_array_index (f->choices, guint8, j));
      fl_cli_json_string (b, "choices", cpus->str);
      g_string_free (cpus, TRUE);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  fl_cli_print_json_root (b, out);
}

void
fl_cli_explore_print (const char *scenario, const char *scenario_text, const FlExploreResult *r,
                      gboolean json, FILE *out)
{
  if (json)
    print_json (scenario, scenario_text, r, out);
  else
    print_text (scenario, r, out);
}

/* Writes the first counterexample, after checking it replays as `run` would. */
static gboolean
save_counterexample (const FlScenario *sc, const FlConfig *config, const FlExploreResult *r,
                     const char *path)
{
  const FlExploreFinding *f = first_finding (r);
  if (f == NULL)
    {
      fprintf (stderr, "faultline-cli: --save %s: no finding, nothing written\n", path);
      return TRUE;
    }
  g_autofree char *text = fl_explore_counterexample_text (sc, config, f);
  g_autoptr (GError) error = NULL;
  if (!fl_explore_replay_check (text, f, &error))
    {
      fl_cli_fail ("--save %s: %s", path, error->message);
      return FALSE;
    }
  if (!g_file_set_contents (path, text, -1, &error))
    {
      fl_cli_fail ("--save: %s", error->message);
      return FALSE;
    }
  fprintf (stderr, "Saved the %s counterexample to %s (it replays: same finding, events hash "
           "%016" G_GINT64_MODIFIER "x)\n", fl_finding_kind_name (f->kind), path, f->events_hash);
  return TRUE;
}

gboolean
fl_cli_explore_record (FlStore *store, const FlScenario *sc, const FlExploreOptions *search,
                       const FlExploreResult *r, const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) runs = g_array_new (FALSE, FALSE, sizeof (gint64));
  gint64 id = fl_store_record_exploration (store, sc, search, r, runs, &error);
  if (id < 0)
    {
      fl_cli_fail ("--record %s: %s", path, error->message);
      return FALSE;
    }
  GString *line = g_string_new (NULL);
  g_string_printf (line, "Recorded as exploration %" G_GINT64_FORMAT " in %s", id, path);
  for (guint i = 0; i < runs->len; i++)
    g_string_append_printf (line, "%s%" G_GINT64_FORMAT, i == 0 ? (runs->len == 1
                            ? ", its counterexample as run " : ", its counterexamples as runs ")
                            : ", ", g_array_index (runs, gint64, i));
  fprintf (stderr, "%s\n", line->str);
  g_string_free (line, TRUE);
  return TRUE;
}

static int
explore_scenario (gconstpointer options_, const char *id)
{
  const ExploreOptions *o = options_;
  if (o->preemptions < 0 || o->preemptions > 1000)
    return fl_cli_fail ("--preemptions %d: expected a bound from 0 to 1000", o->preemptions);
  if (o->max_schedules < 0)
    return fl_cli_fail ("--max-schedules %" G_GINT64_FORMAT ": expected 0 or more (0: no limit)",
                        o->max_schedules);
  if (!(o->time_limit >= 0))
    return fl_cli_fail ("--time-limit %g: expected seconds, 0 or more (0: no limit)",
                        o->time_limit);
  if (o->max_states < 1 || (guint64) o->max_states > FL_EXPLORE_MAX_STATES_LIMIT)
    return fl_cli_fail ("--max-states %" G_GINT64_FORMAT ": expected 1 to %" G_GUINT64_FORMAT
                        " (each state kept takes 16 bytes of memory)", o->max_states,
                        FL_EXPLORE_MAX_STATES_LIMIT);
  FlConfig config;
  g_autoptr (FlScenario) scenario = fl_cli_load_with_sets (id, o->sets, &config);
  if (scenario == NULL)
    return FL_EXIT_USAGE;
  FlExploreReduction reduction = FL_EXPLORE_REDUCTION_STATES;
  if (o->reduction != NULL)
    {
      guint i = FL_EXPLORE_REDUCTION_NONE;
      while (i <= FL_EXPLORE_REDUCTION_DPOR
             && g_strcmp0 (o->reduction, fl_explore_reduction_name ((FlExploreReduction) i)))
        i++;
      if (i > FL_EXPLORE_REDUCTION_DPOR)
        return fl_cli_fail ("--reduction %s: expected dpor, states or none", o->reduction);
      reduction = (FlExploreReduction) i;
    }
  gboolean pct = FALSE;
  if (o->schedule != NULL && !(pct = g_strcmp0 (o->schedule, "pct") == 0)
      && g_strcmp0 (o->schedule, "systematic") != 0)
    return fl_cli_fail ("--schedule %s: expected systematic or pct", o->schedule);
  if (o->depth < 1 || o->depth > FL_EXPLORE_PCT_MAX_DEPTH)
    return fl_cli_fail ("--depth %d: expected 1 to %u", o->depth, FL_EXPLORE_PCT_MAX_DEPTH);
  if (o->runs < 1)
    return fl_cli_fail ("--runs %" G_GINT64_FORMAT ": expected 1 or more", o->runs);
  if (o->jobs < 1 || o->jobs > FL_EXPLORE_MAX_JOBS)
    return fl_cli_fail ("--jobs %d: expected 1 to %u", o->jobs, FL_EXPLORE_MAX_JOBS);
  guint shard = 0, shards = 0;
  if (o->shard != NULL)
    {
      char *end = NULL;
      guint64 i = g_ascii_strtoull (o->shard, &end, 10), n = 0;
      if (end != o->shard && *end == '/')
        {
          const char *rest = end + 1;
          n = g_ascii_strtoull (rest, &end, 10);
          if (end == rest || *end != '\0')
            n = 0;
        }
      if (n < 1 || n > 100000 || i >= n)
        return fl_cli_fail ("--shard %s: expected I/N with 0 <= I < N <= 100000", o->shard);
      shard = (guint) i;
      shards = (guint) n;
    }
  if (shards > 0 && !pct)
    {
      /* a shard of the systematic search runs its units of every bound in full, and the
       * search beyond the bounds is not shared out: the merge gives --reduction none's */
      if (o->reduction != NULL && reduction != FL_EXPLORE_REDUCTION_NONE)
        return fl_cli_fail ("--shard %s: the search beyond the bounds is not sharded; use "
                            "--reduction none (the default with --shard)", o->shard);
      if (o->max_schedules > 0 || o->time_limit > 0)
        return fl_cli_fail ("--shard %s: a shard runs its part in full, so that the merge "
                            "is the whole search's; limit its time in the batch system",
                            o->shard);
      if (o->record != NULL)
        return fl_cli_fail ("--shard %s: a shard has no verdict of its own to record; "
                            "record the whole exploration (without --shard)", o->shard);
      reduction = FL_EXPLORE_REDUCTION_NONE;
    }
  FlExploreOptions search = {
    .pct_runs = pct ? (guint64) o->runs : 0,
    .pct_depth = (guint) o->depth,
    .jobs = (guint) o->jobs,
    .shard = shard, .shards = shards, .keep_outcomes = shards > 0,
    .preemptions = (guint) o->preemptions,
    .reduction = reduction,
    .all = o->all,
    .max_schedules = (guint64) o->max_schedules,
    .time_limit = o->time_limit,
    .max_states = (guint64) o->max_states,
  };
  g_autoptr (GError) error = NULL;
  /* the store first: a file that cannot take the result is said before the search, not
   * after minutes of it */
  g_autoptr (FlStore) store = NULL;
  if (o->record && (store = fl_cli_store_open (o->record, FALSE, FL_CLI_STORE_CREATE)) == NULL)
    return FL_EXIT_USAGE;
  gboolean tty = isatty (fileno (stderr));
  if (tty)
    search.progress = show_progress;
  g_autoptr (FlExploreResult) r = fl_explore_run (scenario, &config, &search, &error);
  if (tty)
    fprintf (stderr, "\r\033[K");
  if (r == NULL)
    return fl_cli_fail ("%s", error->message);
  /* a shard carries the text it explored: the merge checks the shards agree, and records it */
  g_autofree char *canonical = shards > 0 && scenario->text == NULL
                               ? fl_scenario_to_text (scenario) : NULL;
  fl_cli_explore_print (scenario->id, shards == 0 ? NULL
                        : scenario->text ? scenario->text : canonical, r, o->json, stdout);
  /* the counterexample carries the configuration explored (the hold off) */
  if (o->save && !save_counterexample (scenario, &r->config, r, o->save))
    return FL_EXIT_USAGE;
  if (store != NULL && !fl_cli_explore_record (store, scenario, &search, r, o->record))
    return FL_EXIT_USAGE;
  return r->findings->len > 0 ? FL_EXIT_FINDINGS : FL_EXIT_OK;
}

int
fl_cli_explore (int argc, char **argv)
{
  if (argc >= 2 && g_strcmp0 (argv[1], "--merge") == 0)
    return fl_cli_explore_merge (argc - 2, argv + 2);
  ExploreOptions o = { .preemptions = 2, .depth = 3, .runs = 1000, .jobs = 1,
                       .max_states = FL_EXPLORE_MAX_STATES };
  GOptionEntry entries[] = {
    { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o.sets, "Override a switch of the scenario", "KEY=VALUE" },
    { "preemptions", 0, 0, G_OPTION_ARG_INT, &o.preemptions, "The largest preemption bound tried (default 2)", "N" },
    { "max-schedules", 0, 0, G_OPTION_ARG_INT64, &o.max_schedules, "Stop after N schedules (0: no limit)", "N" },
    { "time-limit", 0, 0, G_OPTION_ARG_DOUBLE, &o.time_limit, "Stop after S seconds (0: no limit)", "S" },
    { "max-states", 0, 0, G_OPTION_ARG_INT64, &o.max_states, "Beyond the bound, keep at most N states, 16 bytes each (default 16777216)", "N" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &o.json, "Print the result as JSON", NULL },
    { "save", 0, 0, G_OPTION_ARG_FILENAME, &o.save, "Write the first counterexample as a scenario", "FILE" },
    { "record", 0, 0, G_OPTION_ARG_FILENAME, &o.record, "Record the exploration and a run of each counterexample in a store", "DB" },
    { "schedule", 0, 0, G_OPTION_ARG_STRING, &o.schedule, "systematic (default) or pct: randomized runs with priority changes", "HOW" },
    { "depth", 0, 0, G_OPTION_ARG_INT, &o.depth, "PCT: the bug depth sought, d - 1 change points per run (default 3)", "D" },
    { "runs", 0, 0, G_OPTION_ARG_INT64, &o.runs, "PCT: runs, seeded 1 to N (default 1000)", "N" },
    { "jobs", 0, 0, G_OPTION_ARG_INT, &o.jobs, "Share the work out to N cores (the same result)", "N" },
    { "shard", 0, 0, G_OPTION_ARG_STRING, &o.shard, "Only part I of N, for other machines to do the rest (--json, then explore --merge)", "I/N" },
    { "all", 0, 0, G_OPTION_ARG_NONE, &o.all, "Go on after a finding: every kind, every outcome", NULL },
    { "reduction", 0, 0, G_OPTION_ARG_STRING, &o.reduction, "Beyond the bound: states (default), dpor or none", "HOW" },
    { NULL }
  };
  g_autoptr (GOptionContext) context =
    g_option_context_new ("SCENARIO - run every interleaving within a preemption bound");
  g_option_context_add_main_entries (context, entries, NULL);
  int status = fl_cli_on_one_scenario (context,
    "SCENARIO is a built-in id (see `faultline-cli list`) or a path to a .fault file; its\n"
    "[schedule], if any, is ignored. Bounds 0, 1, ... N are explored in turn, so the first\n"
    "counterexample has the fewest preemptions. With nothing found, the rest is explored\n"
    "without a bound: --reduction states (default) visits every reachable state once,\n"
    "dpor runs one schedule of each class of equivalent orders (source-DPOR with sleep\n"
    "sets), none stops at the bound. --schedule pct runs --runs randomized schedules instead\n"
    "(PCT, Burckhardt et al. 2010: random priorities, --depth - 1 change points). The\n"
    "verdict is complete, bounded or found. --save writes the first counterexample\n"
    "as a scenario that `faultline-cli run` replays; --record DB keeps the exploration and\n"
    "a run of each kind of finding's counterexample in a store (`db explorations`).\n"
    "--jobs N runs each bound, the states search (or PCT's runs) on N threads, the result\n"
    "unchanged.\n"
    "--shard I/N --json runs part I of N only; `explore --merge [--json] [--record DB]\n"
    "FILE...` adds the parts up to what one process prints (for the systematic search:\n"
    "with --reduction none, which a shard implies) and, with --record, keeps it as one\n"
    "process's --record would (systematic shards only: each carries its scenario's text).\n"
    "Exit status: 0 no finding, 1 a finding, 2 usage or input error.",
    argc, argv, explore_scenario, &o);
  g_strfreev (o.sets);
  g_free (o.save);
  g_free (o.record);
  g_free (o.reduction);
  g_free (o.schedule);
  g_free (o.shard);
  return status;
}
