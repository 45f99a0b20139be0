/* fl-cli-explore-merge-bounds.c — `explore --merge` of the shards of a systematic search
 * (`explore SCENARIO --shard I/N --json`). Each shard ran its units of every bound (core/
 * fl-explore-bounds.c) and wrote what each bound added; the merge applies the rule one
 * process applies after every bound — stop at the first bound that finds something (unless
 * --all) or that cuts no schedule — to the sums, so it prints what `explore --reduction none`
 * prints: the verdict, the counts, and per kind the same shortest schedule. */
#include "fl-cli.h"
#include "fl-cli-explore.h"
#include "fl-cli-store.h"

#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

typedef struct {
  const char *path;
  JsonParser *parser;
  JsonObject *o;
  JsonArray  *per_bound, *findings;
} Shard;

/* json-glib 1.6 (Debian 12) has no get_array_member_with_default */
static JsonArray *
array_member (JsonObject *o, const char *name)
{
  JsonNode *node = json_object_get_member (o, name);
  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

/* The element @i of @a when it is an object (a hand-edited file may hold anything) */
static JsonObject *
object_at (JsonArray *a, guint i)
{
  JsonNode *node = a && i < json_array_get_length (a) ? json_array_get_element (a, i) : NULL;
  return node && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

static const char *
string_at (JsonArray *a, guint i)
{
  JsonNode *node = json_array_get_element (a, i);
  return node && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING
         ? json_node_get_string (node) : NULL;
}

static gint64
int_at (JsonArray *a, guint i)
{
  JsonNode *node = json_array_get_element (a, i);
  return node && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64
         ? json_node_get_int (node) : G_MAXINT64;
}

static gint64
int_member (JsonObject *o, const char *name)
{
  return o ? json_object_get_int_member_with_default (o, name, 0) : 0;
}

/* The fields every shard must agree on, as text: a shard of another exploration is refused. */
static char *
identity (JsonObject *o)
{
  return g_strdup_printf ("%s, up to %" G_GINT64_FORMAT " preemptions%s, %" G_GINT64_FORMAT
                          " shards, %s",
                          json_object_get_string_member_with_default (o, "scenario", "?"),
                          int_member (o, "preemptions"),
                          json_object_get_boolean_member_with_default (o, "all", FALSE)
                            ? " (--all)" : "", int_member (o, "shards"),
                          json_object_get_string_member_with_default (o, "config", "?"));
}

static gboolean
kind_by_name (const char *name, FlFindingKind *kind)
{
  for (guint k = 0; k < FL_FINDING_N_KINDS; k++)
    if (g_strcmp0 (fl_finding_kind_name ((FlFindingKind) k), name) == 0)
      {
        *kind = (FlFindingKind) k;
        return TRUE;
      }
  return FALSE;
}

/* A shard's counterexample as the explorer keeps it; NULL (with a message) when it is not one. */
static FlExploreFinding *
finding_from_json (const Shard *s, JsonObject *f)
{
  FlFindingKind kind;
  const char *name = json_object_get_string_member_with_default (f, "kind", "?");
  if (!kind_by_name (name, &kind))
    {
      fl_cli_fail ("--merge %s: '%s' is not a kind of finding", s->path, name);
      return NULL;
    }
  FlExploreFinding *e = g_new0 (FlExploreFinding, 1);
  e->kind = kind;
  e->preemptions = (guint) int_member (f, "preemptions");
  e->step = (guint64) int_member (f, "step");
  e->length = (guint64) int_member (f, "length");
  e->unit = (guint64) int_member (f, "unit");
  e->message = g_strdup (json_object_get_string_member_with_default (f, "message", ""));
  e->events_hash = g_ascii_strtoull (json_object_get_string_member_with_default (f, "hash", "0"),
                                     NULL, 16);
  e->choices = g_array_new (FALSE, FALSE, sizeof (guint8));
  g_auto (GStrv) cpus = g_strsplit (json_object_get_string_member_with_default (f, "choices", ""),
                                    ",", -1);
  for (guint i = 0; cpus[i] != NULL && cpus[i][0] != '\0'; i++)
    {
      guint64 cpu = g_ascii_strtoull (cpus[i], NULL, 10);
      if (cpu >= FL_EXPLORE_MAX_CPUS)
        {
          fl_cli_fail ("--merge %s: step %u of the %s schedule names CPU %s", s->path, i + 1,
                       name, cpus[i]);
          fl_explore_finding_free (e);
          return NULL;
        }
      guint8 c = (guint8) cpu;
      g_array_append_val (e->choices, c);
    }
  return e;
}

/* The configuration the shards explored, back from its description (printing needs it; a
 * shard's explored-config has every key, the cost table's too, its config the switches). */
static void
config_from_text (FlConfig *config, const char *text)
{
  fl_config_init_defaults (config);
  g_auto (GStrv) pairs = g_strsplit (text ? text : "", " ", -1);
  for (guint i = 0; pairs[i] != NULL; i++)
    {
      char *eq = strchr (pairs[i], '=');
      if (eq == NULL)
        continue;
      *eq = '\0';
      fl_config_set (config, pairs[i], eq + 1, NULL);
    }
}

static gboolean
load (Shard *s, const char *path)
{
  g_autoptr (GError) error = NULL;
  s->path = path;
  s->parser = json_parser_new ();
  if (!json_parser_load_from_file (s->parser, path, &error))
    {
      fl_cli_fail ("--merge %s: %s", path, error->message);
      return FALSE;
    }
  JsonNode *root = json_parser_get_root (s->parser);
  s->o = root && JSON_NODE_HOLDS_OBJECT (root) ? json_node_get_object (root) : NULL;
  if (s->o == NULL || int_member (s->o, "shards") < 1
      || g_strcmp0 (json_object_get_string_member_with_default (s->o, "schedule", ""),
                    "systematic") != 0
      || (s->per_bound = array_member (s->o, "per-bound")) == NULL)
    {
      fl_cli_fail ("--merge %s: not the JSON of an explore --shard I/N run", path);
      return FALSE;
    }
  const char *stop = json_object_get_string_member_with_default (s->o, "stopped-by", "none");
  if (g_strcmp0 (stop, "none") != 0)
    {
      fl_cli_fail ("--merge %s: this shard stopped early (%s), so a merge would not be the "
                   "whole search", path, stop);
      return FALSE;
    }
  s->findings = array_member (s->o, "findings");
  return TRUE;
}

/* A string member of a shard; NULL from a faultline-cli that did not write it. */
static const char *
string_member (const Shard *s, const char *name)
{
  JsonNode *node = json_object_get_member (s->o, name);
  return node && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING
         ? json_node_get_string (node) : NULL;
}

/* The text of the scenario a shard explored. */
static const char *
scenario_text (const Shard *s)
{
  return string_member (s, "scenario-text");
}

/* --record: the merged exploration into the store at @path, the scenario parsed back from
 * the text the shards carry, recorded as one process's `explore --reduction none` would be. */
static gboolean
record_merged (FlStore *store, const Shard *s, const FlExploreResult *r, const char *path)
{
  const char *text = scenario_text (s);
  const char *name = json_object_get_string_member_with_default (s->o, "scenario", "scenario");
  if (text == NULL)
    {
      fl_cli_fail ("--merge %s: the shard does not carry its scenario's text (an older "
                   "faultline-cli wrote it), so --record cannot keep the exploration; run the "
                   "shards again", s->path);
      return FALSE;
    }
  g_autoptr (GError) error = NULL;
  g_autoptr (FlScenario) sc = fl_scenario_parse (text, name, &error);
  if (sc == NULL)
    {
      fl_cli_fail ("--merge %s: the scenario it carries does not parse: %s", s->path,
                   error->message);
      return FALSE;
    }
  FlExploreOptions search = { .preemptions = r->bound_limit, .all = r->all,
                              .reduction = FL_EXPLORE_REDUCTION_NONE };
  return fl_cli_explore_record (store, sc, &search, r, path);
}

/* Checks that the shards are the N parts of one exploration, each once. */
static gboolean
check_shards (Shard *shards, int n)
{
  g_autofree char *first = identity (shards[0].o);
  gint64 total = int_member (shards[0].o, "shards");
  if (total > 100000)
    {
      fl_cli_fail ("--merge %s: %" G_GINT64_FORMAT " shards: at most 100000", shards[0].path,
                   total);
      return FALSE;
    }
  g_autofree gboolean *seen = g_new0 (gboolean, total);
  for (int i = 0; i < n; i++)
    {
      g_autofree char *id = identity (shards[i].o);
      if (g_strcmp0 (first, id) != 0)
        {
          fl_cli_fail ("--merge %s: a shard of another exploration (%s, not %s)",
                       shards[i].path, id, first);
          return FALSE;
        }
      JsonNode *node = json_object_get_member (shards[i].o, "shard");
      gint64 shard = node && JSON_NODE_HOLDS_VALUE (node)
                     && json_node_get_value_type (node) == G_TYPE_INT64
                     ? json_node_get_int (node) : -1;
      if (shard < 0 || shard >= total || seen[shard])
        {
          fl_cli_fail ("--merge %s: shard %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT
                       " is %s", shards[i].path, shard, total,
                       shard >= 0 && shard < total ? "given twice" : "out of range");
          return FALSE;
        }
      seen[shard] = TRUE;
      /* shards of one scenario's text: the same name could be two versions of a file */
      if (g_strcmp0 (scenario_text (&shards[i]), scenario_text (&shards[0])) != 0
          || g_strcmp0 (string_member (&shards[i], "explored-config"),
                        string_member (&shards[0], "explored-config")) != 0)
        {
          fl_cli_fail ("--merge %s: explored another text or configuration of scenario '%s' "
                       "than %s did", shards[i].path,
                       json_object_get_string_member_with_default (shards[i].o, "scenario", "?"),
                       shards[0].path);
          return FALSE;
        }
    }
  for (gint64 s = 0; s < total; s++)
    if (!seen[s])
      {
        fl_cli_fail ("--merge: shard %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT
                     " is missing", s, total);
        return FALSE;
      }
  return TRUE;
}

/* Adds bound @b of every shard to @r; FALSE (with a message) when a shard lacks it. */
static gboolean
add_bound (FlExploreResult *r, Shard *shards, int n, guint b, gboolean *cut)
{
  FlExploreBoundCounts c = { 0 };
  for (int i = 0; i < n; i++)
    {
      if (b >= json_array_get_length (shards[i].per_bound))
        {
          fl_cli_fail ("--merge %s: it stops before bound %u, which the merged search "
                       "needs", shards[i].path, b);
          return FALSE;
        }
      JsonObject *o = object_at (shards[i].per_bound, b);
      if (o == NULL)
        {
          fl_cli_fail ("--merge %s: per-bound[%u] is not an object", shards[i].path, b);
          return FALSE;
        }
      c.schedules += (guint64) int_member (o, "schedules");
      c.executions += (guint64) int_member (o, "executions");
      c.cut_by_budget += (guint64) int_member (o, "cut-by-budget");
      c.with_findings += (guint64) int_member (o, "with-findings");
      c.max_length = MAX (c.max_length, (guint64) int_member (o, "longest"));
      c.cut_by_bound |= json_object_get_boolean_member_with_default (o, "cut-by-bound", FALSE);
      JsonNode *hits = json_object_get_member (o, "hits");
      for (guint k = 0; hits && JSON_NODE_HOLDS_OBJECT (hits) && k < FL_FINDING_N_KINDS; k++)
        c.hits[k] += (guint64) int_member (json_node_get_object (hits),
                                           fl_finding_kind_name ((FlFindingKind) k));
    }
  r->schedules += c.schedules;
  r->executions += c.executions;
  r->cut_by_budget += c.cut_by_budget;
  r->with_findings += c.with_findings;
  r->max_length = MAX (r->max_length, c.max_length);
  g_array_append_val (r->per_bound, c);
  *cut = c.cut_by_bound;
  return TRUE;
}

static gboolean
found_by (Shard *shards, int n, guint b)
{
  for (int i = 0; i < n; i++)
    for (guint j = 0; shards[i].findings && j < json_array_get_length (shards[i].findings); j++)
      if (object_at (shards[i].findings, j) != NULL
          && int_member (object_at (shards[i].findings, j), "preemptions") <= (gint64) b)
        return TRUE;
  return FALSE;
}

/* The outcomes reached by bound @b: the distinct keys whose first bound is no later. */
static guint64
count_outcomes (Shard *shards, int n, guint b)
{
  g_autoptr (GHashTable) keys = g_hash_table_new (g_str_hash, g_str_equal);
  for (int i = 0; i < n; i++)
    {
      JsonArray *k = array_member (shards[i].o, "outcome-keys");
      JsonArray *at = array_member (shards[i].o, "outcome-bounds");
      guint len = k && at ? MIN (json_array_get_length (k), json_array_get_length (at)) : 0;
      for (guint j = 0; j < len; j++)
        if (int_at (at, j) <= (gint64) b && string_at (k, j) != NULL)
          g_hash_table_add (keys, (gpointer) string_at (k, j));
    }
  return g_hash_table_size (keys);
}

/* The merged search: bound after bound, the rule of fl_explore_bounds. */
static gboolean
merge (FlExploreResult *r, Shard *shards, int n)
{
  guint limit = (guint) int_member (shards[0].o, "preemptions");
  gboolean all = json_object_get_boolean_member_with_default (shards[0].o, "all", FALSE);
  gboolean complete = FALSE;
  for (guint b = 0; b <= limit; b++)
    {
      gboolean cut;
      r->bound = b;
      if (!add_bound (r, shards, n, b, &cut))
        return FALSE;
      if (found_by (shards, n, b) && !all)
        break;
      if (!cut)
        {
          complete = TRUE;
          break;
        }
    }
  for (int i = 0; i < n; i++)
    {
      r->steps += (guint64) int_member (shards[i].o, "steps");
      r->replayed += (guint64) int_member (shards[i].o, "replayed");
      r->peak_bytes = MAX (r->peak_bytes, (gsize) int_member (shards[i].o, "peak-bytes"));
      r->seconds = MAX (r->seconds, json_object_get_double_member_with_default (shards[i].o,
                                                                                "seconds", 0));
      for (guint j = 0; shards[i].findings && j < json_array_get_length (shards[i].findings); j++)
        {
          JsonObject *f = object_at (shards[i].findings, j);
          if (f == NULL || int_member (f, "preemptions") > (gint64) r->bound)
            continue;
          FlExploreFinding *e = finding_from_json (&shards[i], f);
          if (e == NULL)
            return FALSE;
          fl_explore_findings_add (r->findings, e);
        }
    }
  /* a kind's hits are those of the bounds the merged search ran */
  for (guint i = 0; i < r->findings->len; i++)
    {
      FlExploreFinding *e = g_ptr_array_index (r->findings, i);
      e->hits = 0;
      for (guint b = 0; b < r->per_bound->len; b++)
        e->hits += g_array_index (r->per_bound, FlExploreBoundCounts, b).hits[e->kind];
    }
  r->outcomes = count_outcomes (shards, n, r->bound);
  if (r->findings->len > 0)
    r->verdict = FL_EXPLORE_FOUND;
  else if (complete && r->cut_by_budget == 0)
    r->verdict = FL_EXPLORE_COMPLETE;
  else
    r->verdict = FL_EXPLORE_BOUNDED;
  r->bound_limit = limit;
  r->all = all;
  const char *explored = json_object_get_string_member_with_default (shards[0].o,
                                                                     "explored-config", NULL);
  config_from_text (&r->config, explored ? explored
                    : json_object_get_string_member_with_default (shards[0].o, "config", ""));
  return TRUE;
}

int
fl_cli_explore_merge_bounds (int n, char **paths, gboolean json, const char *record)
{
  /* the store first: a path that cannot take the result is said before the merge */
  g_autoptr (FlStore) store = NULL;
  if (record != NULL && (store = fl_cli_store_open (record, FALSE, FL_CLI_STORE_CREATE)) == NULL)
    return FL_EXIT_USAGE;
  Shard *shards = g_new0 (Shard, n);
  int status = FL_EXIT_USAGE;
  int loaded = 0;
  while (loaded < n && load (&shards[loaded], paths[loaded]))
    loaded++;
  g_autoptr (FlExploreResult) r = g_new0 (FlExploreResult, 1);
  r->findings = g_ptr_array_new ();
  r->per_bound = g_array_new (FALSE, FALSE, sizeof (FlExploreBoundCounts));
  if (loaded == n && check_shards (shards, n) && merge (r, shards, n))
    {
      const char *scenario = json_object_get_string_member_with_default (shards[0].o,
                                                                        "scenario", "?");
      fl_cli_explore_print (scenario, NULL, r, json, stdout);
      fprintf (stderr, "Merged %d shards of %s\n", n, scenario);
      if (store == NULL || record_merged (store, &shards[0], r, record))
        status = r->findings->len > 0 ? FL_EXIT_FINDINGS : FL_EXIT_OK;
    }
  for (int i = 0; i < n; i++)
    if (shards[i].parser != NULL)
      g_object_unref (shards[i].parser);
  g_free (shards);
  return status;
}
