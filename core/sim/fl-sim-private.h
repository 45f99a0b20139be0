#pragma once

/* Between the files of the simulation's driver: set-up, scheduling, checkpoints. */

#include "fl-sim-internal.h"

G_BEGIN_DECLS

void     fl_sim_sizes_for    (const FlScenario *sc, const FlConfig *config, FlStateSizes *z,
                              guint32 *zone_pages);
gboolean fl_sim_setup        (FlSim *sim, guint32 zone_pages, GError **error);
gboolean fl_sim_room_for     (FlSim *sim, guint vmas, guint tables, guint line, GError **error);
guint32  fl_sim_vm_flags     (guint prot, FlMapKind kind);
void     fl_sim_link_vma_now (FlSim *sim, guint32 id);

gboolean fl_sim_runnable     (FlSim *sim, guint cpu);
gint     fl_sched_pick       (FlSim *sim);
gboolean fl_sched_reached    (FlSim *sim, const FlScheduleStep *s);
void     fl_sim_take_step    (FlSim *sim, guint cpu);
void     fl_user_step        (FlSim *sim, guint cpu);

/* limits and the budget (fl-sim-limits.c) */
gboolean fl_sim_room_for_step (FlSim *sim);
void     fl_sim_clear_stop    (FlSim *sim);

G_END_DECLS
