#pragma once

/* What the explore command's files share: the printing of a result (fl-cli-explore.c) and
 * the merge of systematic shards (fl-cli-explore-merge-bounds.c). */

#include <stdio.h>
#include "fl-explore.h"

G_BEGIN_DECLS

/* The result as `explore` prints it: text, or JSON with --json. */
void fl_cli_explore_print        (const char *scenario, const FlExploreResult *r, gboolean json,
                                  FILE *out);
/* explore --merge of the shards of a systematic search: the @n JSON files @paths. */
int  fl_cli_explore_merge_bounds (int n, char **paths, gboolean json);

G_END_DECLS
