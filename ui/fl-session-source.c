/* FlSession's loading half: where a run comes from (a built-in id, a file, text), the design
 * switches applied to it, and the worker that simulates it. See fl-session.c for the rest. */

#include "fl-session-private.h"

#include "fl-store-record.h"

static void
fl_session_set_progress (FlSession *self, double progress)
{
  if (progress == self->progress)
    return;
  self->progress = progress;
  fl_session_notify (self, PROP_PROGRESS);
}

static gboolean
fl_session_poll_progress (gpointer user_data)
{
  FlSession *self = user_data;

  fl_session_set_progress (self, fl_load_job_get_progress (self->job));
  return G_SOURCE_CONTINUE;
}

static void
fl_session_job_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr(FlSession) self = user_data;
  FlLoadJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autoptr(FlRun) run = g_task_propagate_pointer (G_TASK (result), &error);
  gboolean new_run;
  guint64 step;

  /* A cancelled job was replaced by a newer one, which owns the session's state now. */
  if (job != self->job)
    return;

  self->job = NULL;
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->progress_id, g_source_remove);

  if (run == NULL)
    {
      fl_session_set_progress (self, 0.0);
      fl_session_notify (self, PROP_LOADING);
      fl_session_emit_load_failed (self, error);
      return;
    }

  new_run = !fl_load_job_is_continuation (job);
  if (new_run)
    {
      const FlScenario *scenario = fl_run_get_scenario (run);

      self->base_config = *fl_load_job_get_base_config (job);
      self->have_base = TRUE;
      g_free (self->title);
      self->title = g_strdup (scenario->title ? scenario->title : "");
      self->n_cpus = fl_run_get_config (run)->cpus;
      if (self->selected_cpu >= self->n_cpus)
        {
          self->selected_cpu = 0;
          fl_session_notify (self, PROP_SELECTED_CPU);
        }
    }

  /* A re-run keeps the step it was asked for when the new run reaches it. */
  step = MIN (fl_load_job_get_return_step (job), fl_run_get_total_steps (run));
  self->cursor = fl_cursor_new (run);
  fl_cursor_seek (self->cursor, step);
  self->run = g_steal_pointer (&run);

  fl_session_set_progress (self, 1.0);
  g_object_freeze_notify (G_OBJECT (self));
  if (new_run)
    {
      fl_session_notify (self, PROP_TITLE);
      fl_session_notify (self, PROP_N_CPUS);
    }
  fl_session_notify (self, PROP_LOADING);
  fl_session_notify (self, PROP_TOTAL_STEPS);
  fl_session_notify (self, PROP_STEP);
  g_object_thaw_notify (G_OBJECT (self));
  fl_session_emit_changed (self);
  if (self->playing)
    fl_session_restart_timer (self);
}

/* Cancels whatever runs and hands `job` to a worker; the current run goes away meanwhile, as
 * the contract says: fl_session_get_run() is NULL while a load runs. */
void
fl_session_start_job (FlSession *self, FlLoadJob *job)
{
  g_autoptr(GTask) task = NULL;
  gboolean was_loading = self->job != NULL;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->cursor, fl_cursor_free);
  g_clear_pointer (&self->run, fl_run_unref);

  self->cancellable = g_cancellable_new ();
  self->job = job;
  task = g_task_new (NULL, self->cancellable, fl_session_job_done, g_object_ref (self));
  g_task_set_source_tag (task, fl_session_start_job);
  g_task_set_task_data (task, job, (GDestroyNotify) fl_load_job_free);
  g_task_run_in_thread (task, fl_load_job_run);

  if (self->progress_id == 0)
    self->progress_id = g_timeout_add (PROGRESS_INTERVAL_MS, fl_session_poll_progress, self);
  fl_session_set_progress (self, 0.0);
  if (!was_loading)
    fl_session_notify (self, PROP_LOADING);
}

void
fl_session_stop_loading (FlSession *self)
{
  g_return_if_fail (FL_IS_SESSION (self));

  if (self->job != NULL)
    fl_load_job_stop (self->job);
}

/* The switches in a fixed order (the configuration's own), so a re-run is reproducible. */
static GStrv
fl_session_switch_list (FlSession *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (const char *const *key = fl_config_keys (); *key != NULL; key++)
    {
      const char *value = g_hash_table_lookup (self->switches, *key);
      if (value != NULL)
        {
          g_strv_builder_add (builder, *key);
          g_strv_builder_add (builder, value);
        }
    }
  return g_strv_builder_end (builder);
}

static void
fl_session_rerun (FlSession *self, guint64 keep_step)
{
  g_auto(GStrv) switches = fl_session_switch_list (self);
  FlLoadJob *job;

  if (self->scenario == NULL && self->text == NULL)
    return;
  job = fl_load_job_new (self->scenario, self->name, self->text,
                         (const char *const *) switches, keep_step);
  if (self->recorded)
    fl_load_job_set_recorded (job, self->recorded_seed, self->recorded_policy,
                              self->recorded_steps);
  fl_session_start_job (self, job);
}

/* A new source is not the recorded run any more, unless fl_session_load_run() says so after. */
static void
fl_session_set_source (FlSession *self, const char *scenario, const char *name, const char *text,
                       gboolean recorded)
{
  self->recorded = recorded;
  g_free (self->scenario);
  self->scenario = g_strdup (scenario);
  g_free (self->name);
  self->name = g_strdup (name);
  g_free (self->text);
  self->text = g_strdup (text);
  g_free (self->title);
  self->title = g_strdup ("");
  self->have_base = FALSE;

  fl_session_set_playing (self, FALSE);
  g_object_freeze_notify (G_OBJECT (self));
  fl_session_notify (self, PROP_SCENARIO);
  fl_session_notify (self, PROP_NAME);
  fl_session_notify (self, PROP_TITLE);
  fl_session_rerun (self, 0);
  g_object_thaw_notify (G_OBJECT (self));
}

/* A path names the scenario by its file, without the directory and the `.fault` suffix, so
 * the header shows the same short name for a built-in scenario and for a copy of it on disk. */
static char *
fl_session_display_name (const char *scenario)
{
  g_autofree char *base = NULL;

  if (strchr (scenario, G_DIR_SEPARATOR) == NULL)
    return g_strdup (scenario);

  base = g_path_get_basename (scenario);
  if (g_str_has_suffix (base, ".fault"))
    base[strlen (base) - strlen (".fault")] = '\0';
  return g_steal_pointer (&base);
}

void
fl_session_load (FlSession *self, const char *scenario)
{
  g_autofree char *name = NULL;

  g_return_if_fail (FL_IS_SESSION (self));
  g_return_if_fail (scenario != NULL);

  name = fl_session_display_name (scenario);
  fl_session_set_source (self, scenario, name, NULL, FALSE);
}

void
fl_session_load_text (FlSession *self, const char *name, const char *text)
{
  g_return_if_fail (FL_IS_SESSION (self));
  g_return_if_fail (name != NULL && text != NULL);

  fl_session_set_source (self, NULL, name, text, FALSE);
}

gboolean
fl_session_load_run (FlSession *self, const char *name, const char *text, const char *config,
                     guint64 seed, guint64 max_steps, GError **error)
{
  g_autoptr(FlScenario) scenario = NULL;
  g_auto(GStrv) switches = NULL;
  FlConfig run_config;
  FlSchedPolicy policy;

  g_return_val_if_fail (FL_IS_SESSION (self), FALSE);
  g_return_val_if_fail (name != NULL && text != NULL && config != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* Parsed here as well as in the worker: the switches are the run's differences from the
   * scenario's own configuration, so the switches popover shows what the run changed. The
   * store's own check, so that the window trusts a stored run no more than a file. */
  scenario = fl_store_run_prepare (name, text, config, &run_config, &policy, &switches, error);
  if (scenario == NULL)
    return FALSE;

  g_hash_table_remove_all (self->switches);
  for (guint i = 0; switches[i] != NULL; i += 2)
    {
      g_autofree char *own = fl_config_get (&scenario->config, switches[i]);
      g_autofree char *value = fl_config_get (&run_config, switches[i]);

      if (g_strcmp0 (own, value) != 0)
        g_hash_table_insert (self->switches, g_strdup (switches[i]), g_steal_pointer (&value));
    }
  self->recorded_seed = seed;
  self->recorded_policy = policy;
  self->recorded_steps = max_steps;
  fl_session_set_source (self, NULL, name, text, TRUE);
  return TRUE;
}

/* The configuration the next run gets: the scenario's own (or the defaults before it was
 * parsed) with every switch applied. */
static gboolean
fl_session_build_config (FlSession *self, FlConfig *config, GError **error)
{
  g_auto(GStrv) switches = fl_session_switch_list (self);

  if (self->have_base)
    *config = self->base_config;
  else
    fl_config_init_defaults (config);
  for (guint i = 0; switches[i] != NULL; i += 2)
    if (!fl_config_set (config, switches[i], switches[i + 1], error))
      return FALSE;
  return TRUE;
}

gboolean
fl_session_set_switch (FlSession *self, const char *key, const char *value, GError **error)
{
  g_autofree char *old = NULL;
  FlConfig config;

  g_return_val_if_fail (FL_IS_SESSION (self), FALSE);
  g_return_val_if_fail (key != NULL && value != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* A preset (spf, machine) is the switches it sets: kept as those, so one of them set
   * afterwards wins as it does in a scenario file, and the run is built from known keys only. */
  if (g_strv_contains (fl_config_presets (), key))
    {
      g_auto (GStrv) preset = fl_config_preset_keys (key, value);
      FlConfig probe;
      fl_config_init_defaults (&probe);
      if (!fl_config_set (&probe, key, value, error))
        return FALSE;
      for (guint i = 0; preset[i] != NULL; i++)
        g_hash_table_insert (self->switches, g_strdup (preset[i]),
                             fl_config_get (&probe, preset[i]));
      fl_session_rerun (self, fl_session_get_step (self));
      return TRUE;
    }

  old = g_strdup (g_hash_table_lookup (self->switches, key));
  g_hash_table_insert (self->switches, g_strdup (key), g_strdup (value));
  /* Checked here, not in the worker, so a bad value is the caller's error and the run on
   * screen stays as it is. */
  if (!fl_session_build_config (self, &config, error)
      || (self->have_base && !fl_config_validate (&config, error)))
    {
      if (old != NULL)
        g_hash_table_insert (self->switches, g_strdup (key), g_steal_pointer (&old));
      else
        g_hash_table_remove (self->switches, key);
      return FALSE;
    }
  fl_session_rerun (self, fl_session_get_step (self));
  return TRUE;
}

char *
fl_session_get_switch (FlSession *self, const char *key)
{
  FlConfig config;

  g_return_val_if_fail (FL_IS_SESSION (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  if (self->run != NULL)
    return fl_config_get (fl_run_get_config (self->run), key);
  if (!fl_session_build_config (self, &config, NULL))
    return NULL;
  return fl_config_get (&config, key);
}

void
fl_session_reset_switches (FlSession *self)
{
  g_return_if_fail (FL_IS_SESSION (self));

  if (g_hash_table_size (self->switches) == 0)
    return;
  g_hash_table_remove_all (self->switches);
  fl_session_rerun (self, fl_session_get_step (self));
}
