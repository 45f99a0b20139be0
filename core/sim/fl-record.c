/* fl-record.c — what a simulation records as it steps (FlRecord): made with the simulation,
 * handed to the run that finishes it (fl-run.c), copied for a branch of that run. */
#include "fl-sim-internal.h"
#include "fl-spare.h"

#include <string.h>

static void
finding_free (gpointer data)
{
  FlFinding *f = data;
  g_free (f->message);
  g_free (f->cause);
  g_free (f);
}

static gpointer
finding_copy (gconstpointer data, gpointer user_data)
{
  const FlFinding *f = data;
  FlFinding *copy = g_memdup2 (f, sizeof *f);
  copy->message = g_strdup (f->message);
  copy->cause = g_strdup (f->cause);
  return copy;
}

/* The copy was parsed from the canonical text: its items keep the lines of the file the
 * scenario came from, which messages name. Both describe the same items in the same order. */
static void
keep_lines (FlScenario *copy, const FlScenario *from)
{
  for (guint i = 0; i < copy->vmas->len && i < from->vmas->len; i++)
    g_array_index (copy->vmas, FlScenarioVma, i).line = g_array_index (from->vmas, FlScenarioVma, i).line;
  for (guint i = 0; i < copy->ptes->len && i < from->ptes->len; i++)
    g_array_index (copy->ptes, FlScenarioPte, i).line = g_array_index (from->ptes, FlScenarioPte, i).line;
  /* messages about the schedule name the line the user wrote, not one of the copy */
  for (guint i = 0; i < copy->schedule->len && i < from->schedule->len; i++)
    g_array_index (copy->schedule, FlScheduleStep, i).line =
      g_array_index (from->schedule, FlScheduleStep, i).line;
}

static FlScenario *
copy_scenario (const FlScenario *scenario, GError **error)
{
  g_autofree char *text = fl_scenario_to_text (scenario);
  FlScenario *copy = fl_scenario_parse (text, scenario->id ? scenario->id : "scenario", error);
  if (copy != NULL)
    {
      g_free (copy->id);
      copy->id = g_strdup (scenario->id);
      copy->path = g_strdup (scenario->path);   /* messages name the file */
      keep_lines (copy, scenario);
    }
  return copy;
}

/* An empty record of @scenario (copied: the caller may free its own) run with @seed; NULL
 * when the copy cannot be made. */
FlRecord *
fl_record_new (const FlScenario *scenario, guint64 seed, GError **error)
{
  FlScenario *copy = copy_scenario (scenario, error);
  if (copy == NULL)
    return NULL;
  FlRecord *rec = g_new0 (FlRecord, 1);
  rec->scenario = copy;
  rec->seed = seed;
  fl_event_log_init (&rec->events);
  rec->findings = g_ptr_array_new_with_free_func (finding_free);
  rec->unreached = g_array_new (FALSE, FALSE, sizeof (FlScheduleMiss));
  rec->step_starts = g_array_new (FALSE, FALSE, sizeof (FlStepStart));
  rec->spf_misses = g_array_new (FALSE, FALSE, sizeof (FlSpfMiss));
  fl_cause_init (rec);
  rec->checkpoints = g_array_new (FALSE, FALSE, sizeof (FlCheckpoint));
  rec->hash = 0x84222325cbf29ce4ull;
  return rec;
}

void
fl_record_free (FlRecord *rec)
{
  if (rec == NULL)
    return;
  for (guint i = 0; i < rec->checkpoints->len; i++)
    {
      FlCheckpoint *cp = &g_array_index (rec->checkpoints, FlCheckpoint, i);
      fl_spare_free (cp->block, cp->bytes);
    }
  g_array_unref (rec->checkpoints);
  fl_event_log_clear (&rec->events);
  g_ptr_array_unref (rec->findings);
  g_array_unref (rec->unreached);
  g_array_unref (rec->step_starts);
  g_array_unref (rec->spf_misses);
  g_array_unref (rec->pte_installs);
  g_array_unref (rec->file_puts);
  fl_scenario_free (rec->scenario);
  g_free (rec);
}

/* A deep copy of @rec, everything but its events past the first @events (a branch drops
 * them anyway, fl_sim_step_cpu: what else lies past the branch point it drops likewise). */
FlRecord *
fl_record_copy (const FlRecord *rec, gsize events)
{
  FlRecord *copy = g_new0 (FlRecord, 1);
  /* the same text parses to the same scenario: it parsed once already */
  copy->scenario = copy_scenario (rec->scenario, NULL);
  g_assert (copy->scenario != NULL);
  copy->seed = rec->seed;
  fl_event_log_init (&copy->events);
  fl_event_log_copy (&copy->events, &rec->events, events);
  copy->findings = g_ptr_array_copy (rec->findings, finding_copy, NULL);
  g_ptr_array_set_free_func (copy->findings, finding_free);
  copy->unreached = g_array_copy (rec->unreached);
  copy->step_starts = g_array_copy (rec->step_starts);
  copy->spf_misses = g_array_copy (rec->spf_misses);
  copy->pte_installs = g_array_copy (rec->pte_installs);
  copy->file_puts = g_array_copy (rec->file_puts);
  copy->hash = rec->hash;
  copy->checkpoints = g_array_new (FALSE, FALSE, sizeof (FlCheckpoint));
  for (guint i = 0; i < rec->checkpoints->len; i++)
    {
      FlCheckpoint cp = g_array_index (rec->checkpoints, FlCheckpoint, i);
      const guint8 *from = cp.block;
      cp.block = fl_spare_alloc (cp.bytes);
      memcpy (cp.block, from, cp.bytes);
      g_array_append_val (copy->checkpoints, cp);
    }
  return copy;
}
