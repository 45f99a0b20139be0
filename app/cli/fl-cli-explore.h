#pragma once

/* What the explore command's files share: the printing of a result (fl-cli-explore.c) and
 * the merge of systematic shards (fl-cli-explore-merge-bounds.c). */

#include <stdio.h>
#include "fl-explore.h"
#include "fl-store.h"

G_BEGIN_DECLS

/* The result as `explore` prints it: text, or JSON with --json. A shard's JSON also carries
 * the scenario's text (@scenario_text, NULL otherwise), so that its merge can record it. */
void     fl_cli_explore_print        (const char *scenario, const char *scenario_text,
                                      const FlExploreResult *r, gboolean json, FILE *out);
/* --record: the exploration and a run of each counterexample into @store (opened from
 * @path), and a line on standard error saying where; FALSE after saying why not. */
gboolean fl_cli_explore_record       (FlStore *store, const FlScenario *sc,
                                      const FlExploreOptions *search, const FlExploreResult *r,
                                      const char *path);
/* explore --merge of the shards of a systematic search: the @n JSON files @paths, and with
 * @record (a store's path, or NULL) the merged exploration recorded there. */
int      fl_cli_explore_merge_bounds (int n, char **paths, gboolean json, const char *record);

G_END_DECLS
