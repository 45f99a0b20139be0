/* fl-cli-explore-merge.c — `explore --merge A.json B.json ...`: the shards of one PCT
 * exploration (those of a systematic one go to fl-cli-explore-merge-bounds.c) (`explore --schedule pct --shard I/N --json`, run anywhere: GNU parallel over
 * ssh, a Slurm array, a Kubernetes indexed job) added up to what one process would have
 * printed: runs, runs with a finding, distinct outcomes, and per kind the hits and the run
 * kept (fewest preemptions, then steps, then the lowest seed). */
#include "fl-cli.h"
#include "fl-cli-explore.h"
#include "fl-explore.h"

#include <json-glib/json-glib.h>
#include <stdio.h>

typedef struct {
  char   *kind, *message, *schedule, *hash;
  gint64  hits, seed, preemptions, step, length;
} Kept;

static void
kept_free (gpointer data)
{
  Kept *k = data;
  g_free (k->kind);
  g_free (k->message);
  g_free (k->schedule);
  g_free (k->hash);
  g_free (k);
}

/* The fields every shard must agree on, as text: a shard of another exploration is refused. */
static char *
identity (JsonObject *o)
{
  return g_strdup_printf ("%s depth %" G_GINT64_FORMAT " runs %" G_GINT64_FORMAT " of %"
                          G_GINT64_FORMAT " shards, k %" G_GINT64_FORMAT,
                          json_object_get_string_member_with_default (o, "scenario", "?"),
                          json_object_get_int_member_with_default (o, "pct-depth", 0),
                          json_object_get_int_member_with_default (o, "pct-runs", 0),
                          json_object_get_int_member_with_default (o, "shards", 0),
                          json_object_get_int_member_with_default (o, "pct-steps", 0));
}

static gboolean
better (const Kept *a, const Kept *b)
{
  FlExploreFinding fa = { .preemptions = (guint) a->preemptions, .step = (guint64) a->step,
                          .seed = (guint64) a->seed };
  FlExploreFinding fb = { .preemptions = (guint) b->preemptions, .step = (guint64) b->step,
                          .seed = (guint64) b->seed };
  return fl_explore_kept_before (&fa, &fb);
}

static void
add_findings (GHashTable *kinds, JsonArray *findings)
{
  for (guint i = 0; findings && i < json_array_get_length (findings); i++)
    {
      JsonObject *f = json_array_get_object_element (findings, i);
      if (f == NULL)
        continue;
      Kept *k = g_new0 (Kept, 1);
      k->kind = g_strdup (json_object_get_string_member_with_default (f, "kind", "?"));
      k->message = g_strdup (json_object_get_string_member_with_default (f, "message", ""));
      k->schedule = g_strdup (json_object_get_string_member_with_default (f, "schedule", ""));
      k->hash = g_strdup (json_object_get_string_member_with_default (f, "hash", ""));
      k->hits = json_object_get_int_member_with_default (f, "hits", 0);
      k->seed = json_object_get_int_member_with_default (f, "seed", 0);
      k->preemptions = json_object_get_int_member_with_default (f, "preemptions", 0);
      k->step = json_object_get_int_member_with_default (f, "step", 0);
      k->length = json_object_get_int_member_with_default (f, "length", 0);
      Kept *old = g_hash_table_lookup (kinds, k->kind);
      if (old == NULL)
        {
          g_hash_table_insert (kinds, k->kind, k);
          continue;
        }
      gint64 hits = old->hits + k->hits;
      if (better (k, old))
        {
          k->hits = hits;
          g_hash_table_replace (kinds, k->kind, k);   /* frees old, and its key with it */
        }
      else
        {
          old->hits = hits;
          kept_free (k);
        }
    }
}

/* json-glib 1.6 (Debian 12) has no get_array_member_with_default */
static JsonArray *
array_member (JsonObject *o, const char *name)
{
  JsonNode *node = json_object_get_member (o, name);
  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

/* Whether @path holds the JSON of a shard of the systematic search. */
static gboolean
is_systematic (const char *path)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  if (!json_parser_load_from_file (parser, path, NULL))
    return FALSE;
  JsonNode *root = json_parser_get_root (parser);
  JsonObject *o = root && JSON_NODE_HOLDS_OBJECT (root) ? json_node_get_object (root) : NULL;
  return o && g_strcmp0 (json_object_get_string_member_with_default (o, "schedule", ""),
                         "systematic") == 0;
}

int
fl_cli_explore_merge (int argc, char **argv)
{
  /* --json and --record DB anywhere among the files: the merged result as explore --json
   * prints it; the merged exploration kept in a store */
  gboolean json = FALSE;
  const char *record = NULL;
  int files = 0;
  for (int i = 0; i < argc; i++)
    if (g_strcmp0 (argv[i], "--json") == 0)
      json = TRUE;
    else if (g_strcmp0 (argv[i], "--record") == 0 || g_str_has_prefix (argv[i], "--record="))
      {
        if (argv[i][8] == '=')
          record = argv[i] + 9;
        else if (i + 1 < argc)
          record = argv[++i];
        if (record == NULL || record[0] == '\0')
          return fl_cli_fail ("explore --merge --record: needs the path of a store (DB)");
      }
    else
      argv[files++] = argv[i];
  argc = files;
  if (argc < 1)
    return fl_cli_fail ("explore --merge needs the JSON files of the shards "
                        "(explore --shard I/N --json)");
  if (is_systematic (argv[0]))
    return fl_cli_explore_merge_bounds (argc, argv, json, record);
  if (json)
    return fl_cli_fail ("explore --merge --json: the shards of PCT runs merge to text only");
  if (record != NULL)
    return fl_cli_fail ("explore --merge --record: the shards of PCT runs merge to text only; "
                        "record a PCT exploration from one process (explore --schedule pct "
                        "--record DB)");
  g_autoptr (GHashTable) kinds = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, kept_free);
  g_autoptr (GHashTable) outcomes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *first = NULL;
  g_autofree gboolean *seen = NULL;
  gint64 shards = 0, schedules = 0, with = 0, depth = 0, k = 0;
  g_autofree char *scenario = NULL;
  for (int i = 0; i < argc; i++)
    {
      g_autoptr (JsonParser) parser = json_parser_new ();
      g_autoptr (GError) error = NULL;
      if (!json_parser_load_from_file (parser, argv[i], &error))
        return fl_cli_fail ("--merge %s: %s", argv[i], error->message);
      JsonNode *root = json_parser_get_root (parser);
      JsonObject *o = root && JSON_NODE_HOLDS_OBJECT (root) ? json_node_get_object (root) : NULL;
      if (o == NULL || json_object_get_int_member_with_default (o, "shards", 0) < 1)
        return fl_cli_fail ("--merge %s: not the JSON of an explore --schedule pct --shard run",
                            argv[i]);
      g_autofree char *id = identity (o);
      if (first == NULL)
        {
          first = g_strdup (id);
          shards = json_object_get_int_member (o, "shards");
          seen = g_new0 (gboolean, shards);
          depth = json_object_get_int_member_with_default (o, "pct-depth", 0);
          k = json_object_get_int_member_with_default (o, "pct-steps", 0);
          scenario = g_strdup (json_object_get_string_member_with_default (o, "scenario", "?"));
        }
      else if (g_strcmp0 (first, id) != 0)
        return fl_cli_fail ("--merge %s: a shard of another exploration (%s, not %s)", argv[i],
                            id, first);
      gint64 shard = json_object_get_int_member_with_default (o, "shard", -1);
      if (shard < 0 || shard >= shards || seen[shard])
        return fl_cli_fail ("--merge %s: shard %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT
                            " is %s", argv[i], shard, shards,
                            shard >= 0 && shard < shards ? "given twice" : "out of range");
      seen[shard] = TRUE;
      schedules += json_object_get_int_member_with_default (o, "schedules", 0);
      with += json_object_get_int_member_with_default (o, "with-findings", 0);
      JsonArray *keys = array_member (o, "outcome-keys");
      for (guint j = 0; keys && j < json_array_get_length (keys); j++)
        {
          const char *key = json_array_get_string_element (keys, j);
          if (key != NULL)
            g_hash_table_add (outcomes, g_strdup (key));
        }
      add_findings (kinds, array_member (o, "findings"));
    }
  for (gint64 s = 0; s < shards; s++)
    if (!seen[s])
      return fl_cli_fail ("--merge: shard %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT
                          " is missing", s, shards);

  printf ("Scenario   %s\nVerdict    %s: %" G_GINT64_FORMAT " PCT runs of depth %" G_GINT64_FORMAT
          ", %" G_GINT64_FORMAT " with a finding (%" G_GINT64_FORMAT " shards merged)\n",
          scenario, g_hash_table_size (kinds) ? "found" : "bounded", schedules, depth, with,
          shards);
  printf ("PCT        depth %" G_GINT64_FORMAT " over k = %" G_GINT64_FORMAT " steps\n", depth, k);
  printf ("Outcomes   %u distinct (finding kinds, final state without time)\n",
          g_hash_table_size (outcomes));
  if (g_hash_table_size (kinds) == 0)
    {
      printf ("Findings   none in %" G_GINT64_FORMAT " runs\n", schedules);
      return FL_EXIT_OK;
    }
  printf ("Findings   (the kept run of each kind)\n");
  g_autoptr (GList) names = g_list_sort (g_hash_table_get_keys (kinds), (GCompareFunc) g_strcmp0);
  for (GList *l = names; l; l = l->next)
    {
      const Kept *f = g_hash_table_lookup (kinds, l->data);
      printf ("  %s at step %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
              " preemptions: %s\n    in %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT " runs; the "
              "schedule below is run %" G_GINT64_FORMAT "'s (events hash %s)\n%s\n", f->kind,
              f->step, f->length, f->preemptions, f->message, f->hits, schedules, f->seed,
              f->hash, f->schedule);
    }
  return FL_EXIT_FINDINGS;
}
