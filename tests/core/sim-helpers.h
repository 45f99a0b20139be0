#pragma once

/* Helpers shared by the simulation tests: run a scenario with overrides, look at results. */

#include <string.h>
#include "fl-sim.h"
#include "fl-workload.h"

static inline FlSim *
run_builtin (const char *id, const char *const *sets, guint64 max_steps)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FlScenario) sc = fl_scenario_load_builtin (id, &error);
  g_assert_no_error (error);
  FlConfig config = sc->config;
  for (guint i = 0; sets && sets[i]; i += 2)
    {
      g_assert_true (fl_config_set (&config, sets[i], sets[i + 1], &error));
      g_assert_no_error (error);
    }
  FlSim *sim = fl_sim_new (sc, &config, sc->seed, &error);
  g_assert_no_error (error);
  g_assert_nonnull (sim);
  fl_sim_run (sim, max_steps);
  return sim;
}

/* A bench workload (fl-workload.c) run to its end with overrides ("key", "value", ...,
 * NULL): it must finish clean. */
static inline FlSim *
run_workload (const char *id, guint cpus, guint rounds, const char *const *sets)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FlScenario) sc = fl_workload_build (id, cpus, rounds, &error);
  g_assert_no_error (error);
  FlConfig config = sc->config;
  for (guint i = 0; sets && sets[i]; i += 2)
    g_assert_true (fl_config_set (&config, sets[i], sets[i + 1], NULL));
  FlSim *sim = fl_sim_new (sc, &config, 1, &error);
  g_assert_no_error (error);
  fl_sim_run (sim, 0);
  g_assert_true (fl_sim_is_finished (sim));
  g_assert_cmpuint (fl_sim_get_findings (sim)->len, ==, 0);
  return sim;
}

static inline guint
count_findings (FlSim *sim, FlFindingKind kind)
{
  GPtrArray *findings = fl_sim_get_findings (sim);
  guint n = 0;
  for (guint i = 0; i < findings->len; i++)
    n += ((FlFinding *) g_ptr_array_index (findings, i))->kind == kind;
  return n;
}

static inline void
assert_no_findings (FlSim *sim)
{
  GPtrArray *findings = fl_sim_get_findings (sim);
  for (guint i = 0; i < findings->len; i++)
    {
      const FlFinding *f = g_ptr_array_index (findings, i);
      g_test_message ("unexpected finding: %s: %s", fl_finding_kind_name (f->kind), f->message);
    }
  g_assert_cmpuint (findings->len, ==, 0);
}

/* Number of events of a kind in one function (FL_FN_N: any). */
static inline guint
count_events (FlSim *sim, FlFn fn, gint kind)
{
  gsize n;
  const FlEvent *ev = fl_sim_get_events (sim, &n);
  guint count = 0;
  for (gsize i = 0; i < n; i++)
    if ((fn == FL_FN_N || fl_loc_fn (ev[i].loc) == fn) && (kind < 0 || ev[i].kind == kind))
      count++;
  return count;
}
