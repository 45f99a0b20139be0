/* fl-scenario.c — the scenario value: allocation, comparison, and loading from files and
 * from the built-in library in the GResource. Parsing is in fl-scenario-parse.c, writing
 * in fl-scenario-write.c. */
#include "fl-scenario-private.h"

#include <gio/gio.h>
#include <string.h>

#include "fl-core-resources.h"

G_DEFINE_QUARK (fl-scenario-error-quark, fl_scenario_error)

#define BUILTIN_FOLDER FL_RESOURCE_BASE "/scenarios/"

static void
clear_schedule_step (gpointer data)
{
  FlScheduleStep *step = data;
  g_clear_pointer (&step->target, g_free);
}

FlProgram *
fl_program_new (void)
{
  FlProgram *program = g_new0 (FlProgram, 1);
  program->ops = g_array_new (FALSE, TRUE, sizeof (FlOp));
  return program;
}

void
fl_program_free (FlProgram *program)
{
  if (program == NULL)
    return;
  g_clear_pointer (&program->ops, g_array_unref);
  g_free (program);
}

/* Every container exists even when empty, so readers never test for NULL. */
FlScenario *
fl_scenario_new (void)
{
  FlScenario *s = g_new0 (FlScenario, 1);
  fl_config_init_defaults (&s->config);
  s->tags = g_new0 (char *, 1);
  s->config_keys = g_new0 (char *, 1);
  s->vmas = g_array_new (FALSE, TRUE, sizeof (FlScenarioVma));
  s->ptes = g_array_new (FALSE, TRUE, sizeof (FlScenarioPte));
  s->programs = g_ptr_array_new_with_free_func ((GDestroyNotify) fl_program_free);
  s->schedule = g_array_new (FALSE, TRUE, sizeof (FlScheduleStep));
  g_array_set_clear_func (s->schedule, clear_schedule_step);
  return s;
}

/**
 * fl_scenario_free:
 * @scenario: (nullable): a scenario
 *
 * Frees @scenario and everything it owns.
 */
void
fl_scenario_free (FlScenario *scenario)
{
  if (scenario == NULL)
    return;
  g_free (scenario->id);
  g_free (scenario->path);
  g_free (scenario->title);
  g_free (scenario->description);
  g_free (scenario->expect);
  g_strfreev (scenario->tags);
  g_strfreev (scenario->config_keys);
  g_clear_pointer (&scenario->vmas, g_array_unref);
  g_clear_pointer (&scenario->ptes, g_array_unref);
  g_clear_pointer (&scenario->programs, g_ptr_array_unref);
  g_clear_pointer (&scenario->schedule, g_array_unref);
  g_free (scenario->text);
  g_free (scenario);
}

const char *
fl_scenario_op_name (FlOpKind kind)
{
  static const char *const names[] = {
    [FL_OP_FAULT] = "fault", [FL_OP_MMAP] = "mmap", [FL_OP_MUNMAP] = "munmap",
    [FL_OP_MPROTECT] = "mprotect", [FL_OP_MADVISE_DONTNEED] = "madvise-dontneed",
    [FL_OP_FORK_WP] = "fork-wp", [FL_OP_SWAP_OUT] = "swap-out", [FL_OP_MIGRATE] = "migrate",
    [FL_OP_BARRIER] = "barrier", [FL_OP_REPEAT] = "repeat",
  };
  return (guint) kind < G_N_ELEMENTS (names) ? names[kind] : "?";
}

const char *
fl_scenario_map_kind_name (FlMapKind kind)
{
  static const char *const names[] = {
    [FL_MAP_ANON] = "anon", [FL_MAP_FILE] = "file", [FL_MAP_SHARED] = "shared",
  };
  return (guint) kind < G_N_ELEMENTS (names) ? names[kind] : "?";
}

const char *
fl_scenario_pte_init_name (FlPteInit state)
{
  static const char *const names[] = {
    [FL_PTE_INIT_PRESENT] = "present", [FL_PTE_INIT_READONLY] = "readonly",
    [FL_PTE_INIT_SWAP] = "swap", [FL_PTE_INIT_MIGRATION] = "migration",
  };
  return (guint) state < G_N_ELEMENTS (names) ? names[state] : "?";
}

/* The ls -l / /proc/PID/maps spelling: "rw-", "---" for a PROT_NONE hole. */
void
fl_scenario_append_prot (GString *out, guint prot)
{
  g_string_append_c (out, prot & FL_PROT_READ ? 'r' : '-');
  g_string_append_c (out, prot & FL_PROT_WRITE ? 'w' : '-');
  g_string_append_c (out, prot & FL_PROT_EXEC ? 'x' : '-');
}

/* ---- comparison ------------------------------------------------------------------------ */

static gboolean
ops_equal (const GArray *a, const GArray *b)
{
  if (a->len != b->len)
    return FALSE;
  for (guint i = 0; i < a->len; i++)
    {
      const FlOp *x = &g_array_index (a, FlOp, i);
      const FlOp *y = &g_array_index (b, FlOp, i);
      /* Source lines differ between a file and its canonical rewrite: not compared. */
      if (x->kind != y->kind || x->mode != y->mode || x->addr != y->addr || x->step != y->step
          || x->len != y->len || x->prot != y->prot || x->map_kind != y->map_kind
          || x->write != y->write || x->count != y->count || x->body != y->body)
        return FALSE;
    }
  return TRUE;
}

static gboolean
config_equal (const FlConfig *a, const FlConfig *b)
{
  /* Field by field through the key table, so padding and unused bits never matter. */
  for (const char *const *key = fl_config_keys (); *key != NULL; key++)
    {
      g_autofree char *x = fl_config_get (a, *key);
      g_autofree char *y = fl_config_get (b, *key);
      if (g_strcmp0 (x, y) != 0)
        return FALSE;
    }
  return TRUE;
}

static gboolean
strv_equal (const char *const *a, const char *const *b)
{
  if (a == NULL || b == NULL)
    return (a == NULL || *a == NULL) && (b == NULL || *b == NULL);
  return g_strv_equal (a, b);
}

/**
 * fl_scenario_equal:
 * @a: a scenario
 * @b: another scenario
 *
 * Compares what the scenarios describe: texts, tags, seed, configuration and the keys set,
 * mappings, programs and schedule. Where they came from (@id, @path, the original @text)
 * and the source line of each item are not compared, so a scenario equals its canonical
 * rewrite by fl_scenario_to_text().
 *
 * Returns: %TRUE when @a and @b describe the same scenario.
 */
gboolean
fl_scenario_equal (const FlScenario *a, const FlScenario *b)
{
  if (a == b)
    return TRUE;
  if (a == NULL || b == NULL)
    return FALSE;

  if (g_strcmp0 (a->title, b->title) != 0 || g_strcmp0 (a->description, b->description) != 0
      || g_strcmp0 (a->expect, b->expect) != 0 || a->seed != b->seed
      || !strv_equal ((const char *const *) a->tags, (const char *const *) b->tags)
      || !strv_equal ((const char *const *) a->config_keys,
                      (const char *const *) b->config_keys)
      || !config_equal (&a->config, &b->config))
    return FALSE;

  if (a->vmas->len != b->vmas->len || a->ptes->len != b->ptes->len
      || a->programs->len != b->programs->len || a->schedule->len != b->schedule->len)
    return FALSE;
  for (guint i = 0; i < a->vmas->len; i++)
    {
      const FlScenarioVma *x = &g_array_index (a->vmas, FlScenarioVma, i);
      const FlScenarioVma *y = &g_array_index (b->vmas, FlScenarioVma, i);
      if (x->start != y->start || x->end != y->end || x->prot != y->prot || x->kind != y->kind)
        return FALSE;
    }
  for (guint i = 0; i < a->ptes->len; i++)
    {
      const FlScenarioPte *x = &g_array_index (a->ptes, FlScenarioPte, i);
      const FlScenarioPte *y = &g_array_index (b->ptes, FlScenarioPte, i);
      if (x->addr != y->addr || x->state != y->state)
        return FALSE;
    }
  for (guint i = 0; i < a->programs->len; i++)
    {
      const FlProgram *x = g_ptr_array_index (a->programs, i);
      const FlProgram *y = g_ptr_array_index (b->programs, i);
      if (x->base != y->base || !ops_equal (x->ops, y->ops))
        return FALSE;
    }
  for (guint i = 0; i < a->schedule->len; i++)
    {
      const FlScheduleStep *x = &g_array_index (a->schedule, FlScheduleStep, i);
      const FlScheduleStep *y = &g_array_index (b->schedule, FlScheduleStep, i);
      if (x->cpu != y->cpu || x->kind != y->kind || x->steps != y->steps
          || g_strcmp0 (x->target, y->target) != 0)
        return FALSE;
    }
  return TRUE;
}

/* ---- loading --------------------------------------------------------------------------- */

/**
 * fl_scenario_load_file:
 * @path: a `.fault` file
 * @error: set to an %FL_SCENARIO_ERROR_IO error naming @path when it cannot be read, or to
 *   the parse error (`PATH:LINE: ...`)
 *
 * Reads and parses @path. The scenario's @id is the file name without `.fault`, its @path
 * is @path. Files larger than 1 MiB are refused without reading them whole.
 *
 * Returns: (transfer full) (nullable): the scenario, or %NULL on error.
 */
FlScenario *
fl_scenario_load_file (const char *path, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) io_error = NULL;
  g_autoptr (GFileInputStream) in = g_file_read (file, NULL, &io_error);
  /* One byte more than the limit tells "too large" apart from "exactly at the limit". */
  g_autofree char *data = g_malloc (FL_SCENARIO_MAX_BYTES + 1);
  gsize length = 0;

  if (in == NULL
      || !g_input_stream_read_all (G_INPUT_STREAM (in), data, FL_SCENARIO_MAX_BYTES + 1,
                                   &length, NULL, &io_error))
    {
      g_set_error (error, FL_SCENARIO_ERROR, FL_SCENARIO_ERROR_IO,
                   "%s: cannot read the scenario: %s", path, io_error->message);
      return NULL;
    }

  g_autoptr (FlScenario) scenario = fl_scenario_parse_limited (data, length, path,
                                                               FL_SCENARIO_MAX_BYTES, error);
  if (scenario == NULL)
    return NULL;
  g_free (scenario->path);
  scenario->path = g_strdup (path);
  return g_steal_pointer (&scenario);
}

static GResource *
core_resource (void)
{
  /* Referencing the generated getter keeps the resource object in the static library's
   * link, so the built-in scenarios are there in every program that links the core. */
  return fl_core_get_resource ();
}

static int
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/**
 * fl_scenario_builtin_ids:
 *
 * Lists the scenarios shipped in the GResource under `scenarios/`.
 *
 * Returns: (transfer full): the built-in ids, sorted; an empty vector when there are none.
 */
GStrv
fl_scenario_builtin_ids (void)
{
  g_auto (GStrv) names = g_resource_enumerate_children (core_resource (), BUILTIN_FOLDER,
                                                        G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
  g_autoptr (GPtrArray) ids = g_ptr_array_new ();

  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    if (g_str_has_suffix (names[i], ".fault"))
      g_ptr_array_add (ids, g_strndup (names[i], strlen (names[i]) - strlen (".fault")));
  g_ptr_array_sort (ids, compare_strings);
  g_ptr_array_add (ids, NULL);
  return (GStrv) g_ptr_array_free (g_steal_pointer (&ids), FALSE);
}

static void
set_not_found (GError **error, const char *id)
{
  g_auto (GStrv) ids = fl_scenario_builtin_ids ();
  g_autofree char *list = g_strjoinv (", ", ids);
  g_set_error (error, FL_SCENARIO_ERROR, FL_SCENARIO_ERROR_NOT_FOUND,
               "unknown scenario '%s' (%s%s; or give the path of a .fault file)", id,
               ids[0] != NULL ? "built-in scenarios: " : "there are no built-in scenarios",
               list);
}

/**
 * fl_scenario_load_builtin:
 * @id: a built-in scenario id, such as `spf-vs-munmap`
 * @error: set to %FL_SCENARIO_ERROR_NOT_FOUND, listing the built-in ids, when there is no
 *   such scenario
 *
 * Parses `scenarios/ID.fault` from the GResource. Parse errors name `ID.fault`, the file
 * in `data/scenarios/` to fix.
 *
 * Returns: (transfer full) (nullable): the scenario, or %NULL on error.
 */
FlScenario *
fl_scenario_load_builtin (const char *id, GError **error)
{
  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (*id == '\0' || strchr (id, '/') != NULL)
    {
      set_not_found (error, id);
      return NULL;
    }

  g_autofree char *resource = g_strconcat (BUILTIN_FOLDER, id, ".fault", NULL);
  g_autoptr (GBytes) bytes = g_resource_lookup_data (core_resource (), resource,
                                                     G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
  if (bytes == NULL)
    {
      set_not_found (error, id);
      return NULL;
    }

  gsize length = 0;
  const char *data = g_bytes_get_data (bytes, &length);
  g_autofree char *source = g_strconcat (id, ".fault", NULL);
  g_autoptr (FlScenario) scenario = fl_scenario_parse_limited (data, length, source,
                                                               FL_SCENARIO_MAX_BYTES, error);
  if (scenario == NULL)
    return NULL;
  g_free (scenario->path);
  scenario->path = g_strconcat ("resource://", resource, NULL);
  return g_steal_pointer (&scenario);
}

/**
 * fl_scenario_load:
 * @id_or_path: a built-in id, or a path
 * @error: return location for an error
 *
 * What the command line and the window's "open" call: @id_or_path is a path when it
 * contains '/' or ends in `.fault`, a built-in id otherwise.
 *
 * Returns: (transfer full) (nullable): the scenario, or %NULL on error.
 */
FlScenario *
fl_scenario_load (const char *id_or_path, GError **error)
{
  g_return_val_if_fail (id_or_path != NULL, NULL);

  if (strchr (id_or_path, '/') != NULL || g_str_has_suffix (id_or_path, ".fault"))
    return fl_scenario_load_file (id_or_path, error);
  return fl_scenario_load_builtin (id_or_path, error);
}
