/* fl-sim.c — the simulation object: creation, one step at a time, events, seeking. */
#include "fl-cpu-view.h"
#include "fl-sim-internal.h"
#include "fl-sim-private.h"
#include "fl-spare.h"

#include <string.h>

G_DEFINE_QUARK (fl-sim-error-quark, fl_sim_error)

#define CHECKPOINT_FIRST_EVERY 4096   /* a power of two, and only ever doubled */
/* A checkpoint copies the whole state; spacing them at least bytes / this many steps apart
 * bounds what the copies cost per step, whatever the size of the machine and however far the
 * run has grown it (multi-fault: 85 KB at the start and 310 KB at the end at 8 CPUs, 2.5 MB
 * at the end at 64). */
#define CHECKPOINT_BYTES_PER_STEP 64
#define CHECKPOINT_MAX         256
#define CHECKPOINT_BUDGET      (256u << 20)   /* bytes of state copies kept for seeking */
/* Past the first few, the copies may cost this many bytes per step of the run: with 24-byte
 * events a long run then stays within 32 bytes per event in all. Seeking replays at most the
 * spacing this gives (state bytes / 6 steps), a few milliseconds. */
#define CHECKPOINT_BYTES_PER_EVENT 6
#define CHECKPOINT_FREE_COUNT  16

static void
add_checkpoint (FlSim *sim)
{
  /* into a block an earlier checkpoint or simulation left (fl-spare.h): fresh memory for
   * every copy was a tenth of a 64-CPU run */
  FlCheckpoint cp = { sim->st.g->step, sim->st.sizes, fl_state_bytes (&sim->st.sizes), NULL,
                      sim->rec->events.len, sim->rec->hash };
  cp.block = fl_spare_pool_take (&sim->dropped, cp.bytes);
  fl_state_save (&sim->st, cp.block);
  g_array_append_val (sim->rec->checkpoints, cp);
  /* the state grows with the run: copies of a bigger one are spaced wider (unless the
   * explorer fixed the spacing: it seeks back a few steps thousands of times a second) */
  while (!sim->checkpoint_fixed && sim->checkpoint_every * CHECKPOINT_BYTES_PER_STEP < cp.bytes)
    sim->checkpoint_every *= 2;
  /* Keep memory bounded: when there are too many, drop every other one and space them wider. */
  gsize kept_bytes = 0;
  for (guint i = 0; i < sim->rec->checkpoints->len; i++)
    kept_bytes += g_array_index (sim->rec->checkpoints, FlCheckpoint, i).bytes;
  if (sim->rec->checkpoints->len > CHECKPOINT_MAX || kept_bytes > CHECKPOINT_BUDGET
      || (!sim->checkpoint_fixed && sim->rec->checkpoints->len > CHECKPOINT_FREE_COUNT
          && kept_bytes > CHECKPOINT_BYTES_PER_EVENT * sim->rec->events.len))
    {
      guint kept = 1;
      for (guint i = 1; i < sim->rec->checkpoints->len; i++)
        {
          FlCheckpoint *c = &g_array_index (sim->rec->checkpoints, FlCheckpoint, i);
          if (i % 2 == 0)
            g_array_index (sim->rec->checkpoints, FlCheckpoint, kept++) = *c;
          else
            fl_spare_pool_give (&sim->dropped, c->block, c->bytes);
        }
      g_array_set_size (sim->rec->checkpoints, kept);
      sim->checkpoint_every *= 2;
    }
}

/* A simulation of @rec (taken, or borrowed by the caller's choice) under @config, its state
 * not made yet. */
static FlSim *
new_over (FlRecord *rec, const FlConfig *config, FlSchedPolicy policy)
{
  FlSim *sim = g_new0 (FlSim, 1);
  sim->config = *config;
  sim->seed = rec->seed;
  sim->policy = policy;
  for (guint c = 0; c < FL_MAX_CPUS; c++)
    {
      guint socket = fl_config_socket_of (&sim->config, c);
      sim->socket_of[c] = (guint8) socket;
      sim->socket_cpus[socket][c / 64] |= G_GUINT64_CONSTANT (1) << (c % 64);
    }
  sim->rec = rec;
  sim->scenario = rec->scenario;
  sim->tree_why = g_string_new (NULL);
  sim->checkpoint_every = CHECKPOINT_FIRST_EVERY;
  return sim;
}

/**
 * fl_sim_new:
 * @scenario: the scenario to simulate (copied)
 * @config: (nullable): the configuration; %NULL for the scenario's own
 * @seed: seed of the random scheduling policy
 * @error: set when the configuration or the scenario cannot be simulated
 *
 * Returns: (transfer full): a simulation at step 0, or %NULL.
 */
FlSim *
fl_sim_new (const FlScenario *scenario, const FlConfig *config, guint64 seed, GError **error)
{
  g_return_val_if_fail (scenario != NULL, NULL);

  const FlConfig *cfg = config ? config : &scenario->config;
  g_autoptr (GError) local = NULL;
  if (!fl_config_validate (cfg, &local))
    {
      g_set_error_literal (error, FL_SIM_ERROR, FL_SIM_ERROR_CONFIG, local->message);
      return NULL;
    }

  FlRecord *rec = fl_record_new (scenario, seed, error);
  if (rec == NULL)
    return NULL;
  FlSim *sim = new_over (rec, cfg, rec->scenario->schedule->len > 0 ? FL_SCHED_SCRIPT
                                                                    : FL_SCHED_TIME);

  FlStateSizes sizes;
  guint32 zone_pages;
  fl_sim_sizes_for (sim->scenario, &sim->config, &sizes, &zone_pages);
  fl_state_init (&sim->st, &sizes);
  if (!fl_sim_setup (sim, zone_pages, error))
    {
      fl_sim_free (sim);
      return NULL;
    }
  add_checkpoint (sim);
  return sim;
}

void
fl_sim_free (FlSim *sim)
{
  if (sim == NULL)
    return;
  fl_spare_pool_clear (&sim->dropped);
  g_free (sim->stop_message);
  if (!sim->borrowed)
    fl_record_free (sim->rec);
  g_string_free (sim->tree_why, TRUE);
  fl_oracle_mappings_clear (sim);
  fl_state_clear (&sim->st);
  g_free (sim);
}

/* ---- simulations over a finished run's record (fl-run.c, fl-cursor.c) ---- */


/* A simulation that only replays @rec (borrowed: the run that owns it outlives this) at
 * step 0. It records nothing: past the recorded steps it does not step (fl_cursor_seek
 * never asks it to), and before them replaying records nothing by design. */
FlSim *
fl_sim_new_replayer (FlRecord *rec, const FlConfig *config, FlSchedPolicy policy,
                     FlStopReason stop)
{
  FlSim *sim = new_over (rec, config, policy);
  sim->borrowed = TRUE;
  sim->stop = stop;
  const FlCheckpoint *first = &g_array_index (rec->checkpoints, FlCheckpoint, 0);
  g_assert (first->step == 0);
  fl_state_restore (&sim->st, &first->sizes, first->block);
  sim->replaying = fl_sim_get_total_steps (sim) > 0;
  return sim;
}

/* Another replayer of the same record, at the same step. */
FlSim *
fl_sim_copy_replayer (const FlSim *from)
{
  g_assert (from->borrowed);
  FlSim *sim = new_over (from->rec, &from->config, from->policy);
  sim->borrowed = TRUE;
  sim->stop = from->stop;
  fl_state_copy (&sim->st, &from->st);
  sim->replaying = from->replaying;
  return sim;
}

/* A simulation that owns a copy of the record @from replays, stands where @from stands and
 * can take a different step than the recorded one there (fl_sim_step_cpu drops the copied
 * future, as it does in a simulation that recorded it). */
FlSim *
fl_sim_new_branch (const FlSim *from, guint64 checkpoint_every)
{
  g_assert (from->borrowed);
  gsize keep = fl_record_find_step (from->rec, from->st.g->step);
  FlSim *sim = new_over (fl_record_copy (from->rec, keep), &from->config, from->policy);
  sim->checkpoint_every = checkpoint_every;
  fl_state_copy (&sim->st, &from->st);
  sim->replaying = TRUE;
  return sim;
}

static guint64
mix_event (guint64 h, const FlEvent *e)
{
  const guint64 *w = (const guint64 *) e;
  for (guint i = 0; i < sizeof *e / 8; i++)
    {
      h ^= w[i];
      h *= 0x9e3779b97f4a7c15ull;
      h ^= h >> 31;
    }
  return h;
}

static FlActivity
activity_of (const FlState *st, guint c)
{
  const FlCpu *cpu = &st->cpus[c];
  const FlFrame *frames = fl_cpu_stack (st, c)->frames;
  int parked = fl_cpu_parked_activity (st, c);
  if (parked >= 0)
    return (FlActivity) parked;
  if (cpu->status == FL_CPU_DONE || cpu->status == FL_CPU_STUCK)
    return FL_ACT_DONE;
  if (cpu->irqs_off)
    return FL_ACT_IRQS_OFF;
  gboolean fault = FALSE;
  for (guint i = 0; i < cpu->depth; i++)
    {
      const FlFrame *f = &frames[i];
      guint kinds = fl_fn_kinds (f->fn);
      /* a fault under a VMA reference (speculative-refcount) holds no mmap_sem */
      if ((kinds & FL_FN_KIND_SPECULATIVE)
          || (f->fn == FL_FN_DO_PAGE_FAULT && f->l.do_page_fault.by_reference))
        return FL_ACT_SPEC_FAULT;
      if (kinds & FL_FN_KIND_IPI)
        return FL_ACT_IPI;
      if (kinds & FL_FN_KIND_WRITER)
        return FL_ACT_SYSCALL;
      fault |= f->fn == FL_FN_DO_PAGE_FAULT;
    }
  if (fault)
    return FL_ACT_LOCKED_FAULT;
  if (cpu->rcu_nesting)
    return FL_ACT_RCU;
  return cpu->depth ? FL_ACT_SYSCALL : FL_ACT_USER;
}

static void
record (FlSim *sim, const FlEvent *ev)
{
  if (sim->replaying)
    return;
  fl_event_log_append (&sim->rec->events, ev);
  sim->rec->hash = mix_event (sim->rec->hash, ev);
  /* an entry is written when its event count is reached, and no truncation below that count
   * happened since (it would have dropped the event): a matching count is this run's hash.
   * Only the explorer's simulations (the fixed spacing) branch thousands of times a second:
   * the others leave the table empty, and hash again from a checkpoint. */
  if (sim->checkpoint_fixed)
    {
      gsize count = sim->rec->events.len;
      sim->recent[count % FL_SIM_RECENT].count = count;
      sim->recent[count % FL_SIM_RECENT].hash = sim->rec->hash;
    }
}

FlFinding *
fl_finding (FlSim *sim, guint cpu, FlFindingKind kind, guint32 obj, const char *format, ...)
{
  FlState *st = &sim->st;
  va_list args;
  if (sim->replaying)
    return NULL;
  va_start (args, format);
  g_autofree char *message = g_strdup_vprintf (format, args);
  va_end (args);
  /* the same defect seen again (at a later check) is one finding, not many */
  for (guint i = 0; i < sim->rec->findings->len; i++)
    {
      const FlFinding *old = g_ptr_array_index (sim->rec->findings, i);
      if (old->kind == kind && old->obj == obj && strcmp (old->message, message) == 0)
        return NULL;
    }
  FlFinding *f = g_new0 (FlFinding, 1);
  f->kind = kind;
  /* the number of the step that found it, which is also the state that shows it; the end's
   * checks run after the last step, on the final state */
  f->step = sim->stepping ? st->g->step + 1 : st->g->step;
  f->cpu = cpu;
  f->obj = obj;
  f->message = g_steal_pointer (&message);
  fl_finding_explain (sim, f);
  g_ptr_array_add (sim->rec->findings, f);

  FlEvent ev = { 0 };
  ev.cycle = st->cpus[cpu].clock;
  ev.step = (guint32) st->g->step;
  ev.cpu = cpu;
  ev.loc = sim->ev.loc;
  ev.kind = FL_EV_FINDING;
  ev.activity = activity_of (st, cpu);
  ev.obj = obj;
  ev.val = kind;
  record (sim, &ev);
  return f;
}

static FlLoc
current_loc (const FlState *st, guint c)
{
  guint depth = st->cpus[c].depth;
  return depth ? fl_frame_loc (&fl_cpu_stack (st, c)->frames[depth - 1]) : FL_LOC_USER_next_op;
}

/* The instructions a step runs besides the memory access the coherence model charges. A
 * step that stands for a stretch of code costs cost.step: entering a function (its prologue
 * and the body the model does not split into lines), a page-table or rb-tree level, a PTE
 * update, an allocation, an IPI. A step that is one instruction (a load, a store, an atomic,
 * a lock or unlock, a compare, a return, toggling IRQs or the RCU nesting) costs only its
 * memory access, and waiting costs its wait. The same rule for every design. */
static guint
step_instructions (FlSim *sim, FlEventKind kind)
{
  switch (kind)
    {
    case FL_EV_CALL: case FL_EV_WALK: case FL_EV_TREE: case FL_EV_PTE:
    case FL_EV_ALLOC: case FL_EV_FREE: case FL_EV_IPI_SEND: case FL_EV_IPI_ACK:
      return sim->config.cost.step;
    default:
      return 0;
    }
}

/* One visible atomic action of one CPU: an IPI taken, an RCU callback, a program operation
 * started, or the next line of the function on top of its stack. */
void
fl_sim_take_step (FlSim *sim, guint c)
{
  FlState *st = &sim->st;
  /* its clock written before and after the step (its other fields by the step itself) */
  FlCpu *cpu = fl_cpu_clock_rw (st, c);

  /* time never runs backwards, whatever the policy picked */
  FlStepStart start = { 0, cpu->clock, 0, 0, cpu->status != FL_CPU_RUNNING };
  if (cpu->clock < st->g->now)
    cpu->clock = st->g->now;
  FL_G_RW (st, now) = cpu->clock;
  start.begun = start.work = cpu->clock;

  memset (&sim->ev, 0, sizeof sim->ev);
  sim->stepping = TRUE;
  sim->ev.step = (guint32) st->g->step;
  sim->ev.cpu = c;
  sim->ev.loc = current_loc (st, c);
  sim->step_cpu = c;

  if (cpu->ipi_pending && !cpu->irqs_off)
    {
      /* the handler starts when the IPI reaches the CPU (fl_tlb_take_ipi) */
      start.work = MAX (start.begun, cpu->ipi_at);
      fl_tlb_take_ipi (sim, c);
    }
  else if (cpu->depth == 0 && fl_rcu_has_ready (sim, c))
    fl_rcu_do_batch (sim, c);
  else if (cpu->depth == 0)
    fl_user_step (sim, c);
  else
    {
      FlFrame *f = fl_frame_rw (st, c, cpu->depth - 1);
      fl_step_fn_of (f->fn) (sim, c, f);
    }

  cpu->clock += step_instructions (sim, sim->ev.kind);
  fl_rcu_after_step (sim, c);
  sim->ev.cycle = cpu->clock;
  sim->ev.activity = activity_of (st, c);
  if (sim->ev.line)
    sim->ev.mesi = fl_mesi (st, sim->ev.line, c);
  if (!sim->replaying && start.work > start.ready)
    {
      start.index = sim->rec->events.len;
      g_array_append_val (sim->rec->step_starts, start);
    }
  record (sim, &sim->ev);
  /* what the oracle finds after the step belongs to it: its event carries the same step */
  fl_oracle_after_step (sim, c);
  FL_G_RW (st, step)++;
  sim->stepping = FALSE;

  /* checkpoint_every is a power of two (4096, doubled): a mask, not a division per step */
  if (!sim->replaying && (st->g->step & (sim->checkpoint_every - 1)) == 0
      && !sim->checkpoint_paused)
    add_checkpoint (sim);
}

gboolean
fl_sim_runnable (FlSim *sim, guint c)
{
  const FlCpu *cpu = &sim->st.cpus[c];
  if (cpu->status == FL_CPU_RUNNING)
    return TRUE;
  /* a parked CPU with IRQs on takes a TLB-flush IPI where it waits, as a step of its own */
  if (fl_tlb_can_take_ipi (sim, c))
    return TRUE;
  /* a CPU whose program is over still runs the RCU callbacks it queued */
  return cpu->status == FL_CPU_DONE && cpu->depth == 0 && fl_rcu_has_ready (sim, c);
}

/* Nobody can step: either everything is over, or the rest are waiting on each other. */
static void
finish (FlSim *sim)
{
  FlState *st = &sim->st;
  if (st->g->finished)
    return;
  FL_G_RW (st, finished) = TRUE;
  /* reaching the end again after a seek must not report the end's findings twice */
  gboolean again = sim->completed;
  sim->completed = TRUE;
  sim->replaying = again;
  for (guint c = 0; c < st->sizes.ncpus; c++)
    if (st->cpus[c].status != FL_CPU_DONE && st->cpus[c].status != FL_CPU_STUCK)
      {
        if (!st->g->deadlocked)
          fl_oracle_deadlock (sim, c);
        if (!st->g->deadlocked)
          {
            FL_G_RW (st, deadlocked) = TRUE;
            fl_finding (sim, c, FL_FINDING_DEADLOCK, c,
                        "cpu%u waits forever: no CPU can make progress any more", c);
          }
      }
  if (!st->g->deadlocked)
    fl_oracle_full (sim, TRUE);
  sim->replaying = FALSE;
}

static gboolean
step_with (FlSim *sim, gint cpu)
{
  if (sim->st.g->finished)
    return FALSE;
  if (cpu < 0)
    {
      finish (sim);
      return FALSE;
    }
  fl_sim_take_step (sim, (guint) cpu);
  return TRUE;
}

/* Past a seek, the recorded run decides who steps, so stepping forward replays it exactly. */
static gboolean
replay_next (FlSim *sim)
{
  guint64 step = sim->st.g->step;
  const FlEventLog *log = &sim->rec->events;
  guint64 i = step;  /* events are at least one per step: search forward from a lower bound */
  if (i >= log->len)
    return FALSE;
  while (i > 0 && fl_event_log_step (log, i) > step)
    i--;
  while (i < log->len && fl_event_log_step (log, i) < step)
    i++;
  if (i >= log->len)
    return FALSE;
  sim->replaying = TRUE;
  /* the recorded CPU steps, but the scheduler's own state (the script's position, the dice)
   * moves on as it did when it chose that CPU: a seek gives the state stepping gave */
  if (sim->policy == FL_SCHED_SCRIPT || sim->policy == FL_SCHED_RANDOM)
    fl_sched_pick (sim);
  fl_sim_take_step (sim, fl_event_log_cpu (log, i));
  sim->replaying = sim->st.g->step < fl_sim_get_total_steps (sim);
  return TRUE;
}

/* A different choice in the middle of a recorded run starts a new branch: drop the future. */
static void
truncate_future (FlSim *sim)
{
  guint64 step = sim->st.g->step;
  /* events are in step order: the first of this step or later, by binary search */
  gsize keep = fl_record_find_step (sim->rec, step);
  fl_event_log_truncate (&sim->rec->events, keep);
  while (sim->rec->step_starts->len > 0
         && g_array_index (sim->rec->step_starts, FlStepStart, sim->rec->step_starts->len - 1).index >= keep)
    g_array_set_size (sim->rec->step_starts, sim->rec->step_starts->len - 1);
  /* the hash of the kept events: one of the last few counts' (recent), else from the last
   * checkpoint that stays (its events are kept) */
  sim->rec->hash = 0x84222325cbf29ce4ull;
  gsize from = 0;
  if (keep > 0 && sim->recent[keep % FL_SIM_RECENT].count == keep)
    {
      sim->rec->hash = sim->recent[keep % FL_SIM_RECENT].hash;
      from = keep;
    }
  for (guint i = sim->rec->checkpoints->len; from < keep && i-- > 0;)
    {
      const FlCheckpoint *cp = &g_array_index (sim->rec->checkpoints, FlCheckpoint, i);
      if (cp->step <= step && cp->events <= keep)
        {
          sim->rec->hash = cp->hash;
          from = cp->events;
          break;
        }
    }
  for (gsize i = from; i < keep; i++)
    {
      FlEvent e;
      fl_event_log_get (&sim->rec->events, i, &e);
      sim->rec->hash = mix_event (sim->rec->hash, &e);
    }
  for (guint i = sim->rec->findings->len; i > 0; i--)
    if (((FlFinding *) g_ptr_array_index (sim->rec->findings, i - 1))->step > step)
      g_ptr_array_remove_index (sim->rec->findings, i - 1);
  fl_cause_truncate (sim, step);
  fl_walk_truncate (sim, step);
  while (sim->rec->unreached->len > 0
         && g_array_index (sim->rec->unreached, FlScheduleMiss, sim->rec->unreached->len - 1).step >= step)
    g_array_set_size (sim->rec->unreached, sim->rec->unreached->len - 1);
  while (sim->rec->checkpoints->len > 1
         && g_array_index (sim->rec->checkpoints, FlCheckpoint, sim->rec->checkpoints->len - 1).step > step)
    {
      FlCheckpoint *cp = &g_array_index (sim->rec->checkpoints, FlCheckpoint, sim->rec->checkpoints->len - 1);
      fl_spare_pool_give (&sim->dropped, cp->block, cp->bytes);
      g_array_set_size (sim->rec->checkpoints, sim->rec->checkpoints->len - 1);
    }
  sim->replaying = FALSE;
  sim->completed = FALSE;
  fl_sim_clear_stop (sim);
}

/**
 * fl_sim_step:
 * @sim: a simulation
 *
 * Takes one step under the current policy (or replays the recorded one after a seek).
 *
 * Returns: %FALSE when the run is over.
 */
gboolean
fl_sim_step (FlSim *sim)
{
  g_return_val_if_fail (sim != NULL, FALSE);
  if (sim->replaying)
    return replay_next (sim);
  if (sim->stop != FL_STOP_NONE || sim->st.g->finished || !fl_sim_room_for_step (sim))
    return FALSE;
  return step_with (sim, fl_sched_pick (sim));
}

gboolean
fl_sim_cpu_can_step (FlSim *sim, guint cpu)
{
  g_return_val_if_fail (sim != NULL, FALSE);
  /* a stopped run ends where it stopped; a step back first makes a new branch of it */
  if (sim->stop != FL_STOP_NONE && !sim->replaying)
    return FALSE;
  return cpu < sim->st.sizes.ncpus && !sim->st.g->finished && fl_sim_runnable (sim, cpu);
}

/**
 * fl_sim_step_cpu:
 * @sim: a simulation
 * @cpu: the CPU that takes the step
 *
 * One step of @cpu only (the window's "step this CPU"). In the middle of a recorded run, a
 * different choice than the recorded one drops the rest of the run.
 *
 * Returns: %FALSE when @cpu cannot step now.
 */
gboolean
fl_sim_step_cpu (FlSim *sim, guint cpu)
{
  g_return_val_if_fail (sim != NULL, FALSE);
  if (!fl_sim_cpu_can_step (sim, cpu))
    return FALSE;
  if (sim->replaying)
    truncate_future (sim);
  if (!fl_sim_room_for_step (sim))
    return FALSE;
  fl_sim_take_step (sim, cpu);
  return TRUE;
}

/**
 * fl_sim_run:
 * @sim: a simulation
 * @max_steps: stop after this many steps (0: no limit)
 *
 * Returns: the number of steps taken.
 */
static guint64
run_with (FlSim *sim, guint64 max_steps, gboolean (*step) (FlSim *sim))
{
  guint64 n = 0;
  while ((max_steps == 0 || n < max_steps) && step (sim))
    n++;
  return n;
}

guint64
fl_sim_run (FlSim *sim, guint64 max_steps)
{
  return run_with (sim, max_steps, fl_sim_step);
}

/**
 * fl_sim_run_in_budget:
 * @sim: a simulation
 * @max_steps: stop after this many steps as well (0: no such limit)
 *
 * fl_sim_run() with fl_sim_step_in_budget(): as a run someone started takes it.
 *
 * Returns: the number of steps taken.
 */
guint64
fl_sim_run_in_budget (FlSim *sim, guint64 max_steps)
{
  return run_with (sim, max_steps, fl_sim_step_in_budget);
}

gboolean
fl_sim_is_finished (FlSim *sim)
{
  return sim->st.g->finished && !sim->replaying;
}

guint64
fl_sim_get_step (FlSim *sim)
{
  return sim->st.g->step;
}

guint64
fl_sim_get_total_steps (FlSim *sim)
{
  return fl_record_total_steps (sim->rec);
}

/* Steps of the recorded run: its last event's step and one. */
guint64
fl_record_total_steps (const FlRecord *rec)
{
  if (rec->events.len == 0)
    return 0;
  return fl_event_log_step (&rec->events, rec->events.len - 1) + 1;
}
/**
 * fl_sim_seek:
 * @sim: a simulation
 * @step: the step to go to, at most fl_sim_get_total_steps()
 *
 * Restores the nearest checkpoint before @step and replays the recorded choices up to it, so
 * the state equals the one the run had there, bit for bit.
 *
 * Returns: %FALSE when @step lies beyond the recorded run.
 */
/* For the explorer: a copy of the state every @every steps (a power of two) from now on,
 * whatever the state's size, so a seek back replays at most @every - 1 steps. */
void
fl_sim_fix_checkpoints (FlSim *sim, guint64 every)
{
  g_return_if_fail (every > 0 && (every & (every - 1)) == 0);
  sim->checkpoint_every = every;
  sim->checkpoint_fixed = TRUE;
}

void
fl_sim_pause_checkpoints (FlSim *sim, gboolean paused)
{
  sim->checkpoint_paused = paused;
}

gboolean
fl_sim_step_cpu_journaled (FlSim *sim, guint cpu, FlStateJournal *j)
{
  fl_state_journal_begin (&sim->st, j);
  return fl_sim_step_cpu (sim, cpu);
}

guint
fl_sim_undo_steps (FlSim *sim, FlStateJournal *const *journals, guint n)
{
  guint undone = 0;
  /* newest first: what each step wrote put back in turn; one that grew an array stops it */
  while (undone < n && fl_state_journal_undo (&sim->st, journals[n - 1 - undone]))
    undone++;
  /* as at the end of a seek: the recorded run goes on past here */
  sim->replaying = sim->st.g->step < fl_sim_get_total_steps (sim);
  return undone;
}

void
fl_sim_end_journal (FlSim *sim)
{
  sim->st.journal = NULL;
}

gboolean
fl_sim_seek (FlSim *sim, guint64 step)
{
  g_return_val_if_fail (sim != NULL, FALSE);
  guint64 total = fl_sim_get_total_steps (sim);
  if (step > total)
    return FALSE;
  if (step == sim->st.g->step)
    return TRUE;
  /* restore the last checkpoint at or before the target, unless we are already past it */
  guint best = 0;
  for (guint i = 0; i < sim->rec->checkpoints->len; i++)
    if (g_array_index (sim->rec->checkpoints, FlCheckpoint, i).step <= step)
      best = i;
  const FlCheckpoint *cp = &g_array_index (sim->rec->checkpoints, FlCheckpoint, best);
  if (step < sim->st.g->step || cp->step > sim->st.g->step)
    fl_state_restore (&sim->st, &cp->sizes, cp->block);
  while (sim->st.g->step < step && replay_next (sim))
    sim->replayed_steps++;
  sim->replaying = sim->st.g->step < total;
  return sim->st.g->step == step;
}

/**
 * fl_sim_get_events:
 * @sim: a simulation
 * @n_events: (out) (optional): how many events the run has
 *
 * The whole run as one array. The simulation keeps its events packed, so the first call
 * decodes them all into a copy (32 bytes per event on top of the run's 24) and later calls
 * the events added since; fl_sim_get_event() and fl_sim_get_events_range() read events
 * without that copy. The array is valid until the simulation steps again.
 *
 * Returns: (transfer none) (array length=n_events): the events, in order.
 */
const FlEvent *
fl_sim_get_events (FlSim *sim, gsize *n_events)
{
  return fl_event_log_flat (&sim->rec->events, n_events);
}

/**
 * fl_sim_get_n_events:
 * @sim: a simulation
 *
 * Returns: the number of events recorded: one per step, one more per finding.
 */
gsize
fl_sim_get_n_events (FlSim *sim)
{
  g_return_val_if_fail (sim != NULL, 0);
  return sim->rec->events.len;
}

/**
 * fl_sim_get_event:
 * @sim: a simulation
 * @index: an event index, below fl_sim_get_n_events()
 *
 * Returns: a copy of event @index.
 */
FlEvent
fl_sim_get_event (FlSim *sim, gsize index)
{
  FlEvent e = { 0 };
  g_return_val_if_fail (sim != NULL && index < sim->rec->events.len, e);
  fl_event_log_get (&sim->rec->events, index, &e);
  return e;
}

/**
 * fl_sim_get_events_range:
 * @sim: a simulation
 * @first: index of the first event to copy
 * @n: how many to copy at most
 * @out: (array length=n): where to copy them
 *
 * Copies the events from @first on, as many as there are up to @n.
 *
 * Returns: how many events were copied.
 */
gsize
fl_sim_get_events_range (FlSim *sim, gsize first, gsize n, FlEvent *out)
{
  g_return_val_if_fail (sim != NULL, 0);
  return fl_record_events_range (sim->rec, first, n, out);
}

/* fl_sim_get_events_range() on a record. */
gsize
fl_record_events_range (const FlRecord *rec, gsize first, gsize n, FlEvent *out)
{
  if (first >= rec->events.len)
    return 0;
  n = MIN (n, rec->events.len - first);
  for (gsize i = 0; i < n; i++)
    fl_event_log_get (&rec->events, first + i, &out[i]);
  return n;
}

/**
 * fl_sim_find_step:
 * @sim: a simulation
 * @step: a step number
 *
 * Events are in step order: a binary search over the packed events, no copy.
 *
 * Returns: the index of the first event of @step or later; fl_sim_get_n_events() if none.
 */
gsize
fl_sim_find_step (FlSim *sim, guint64 step)
{
  g_return_val_if_fail (sim != NULL, 0);
  return fl_record_find_step (sim->rec, step);
}

/* fl_sim_find_step() on a record: a binary search over the packed events, no copy. */
gsize
fl_record_find_step (const FlRecord *rec, guint64 step)
{
  gsize lo = 0, hi = rec->events.len;
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      if (fl_event_log_step (&rec->events, mid) < step)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}
/**
 * fl_sim_get_last_cycle:
 * @sim: a simulation
 *
 * Where the recorded run's time ends: after a seek back the state is in the past, but the
 * events still reach this far. Cheap after the first call on a run.
 *
 * Returns: the latest cycle any recorded event reached, 0 for none.
 */
guint64
fl_sim_get_last_cycle (FlSim *sim)
{
  g_return_val_if_fail (sim != NULL, 0);
  return fl_event_log_max_cycle (&sim->rec->events);
}

/**
 * fl_sim_release_spare_memory:
 *
 * Frees the big blocks (event chunks, checkpoints) that finished simulations left for the
 * next one (see core/sim/fl-spare.h); what a measurement of one run's memory must do first.
 */
void
fl_sim_release_spare_memory (void)
{
  fl_spare_release_all ();
}

const FlState *
fl_sim_get_state (FlSim *sim)
{
  return &sim->st;
}

const FlConfig *
fl_sim_get_config (FlSim *sim)
{
  return &sim->config;
}

const FlScenario *
fl_sim_get_scenario (FlSim *sim)
{
  return sim->scenario;
}

guint64
fl_sim_get_hash (FlSim *sim)
{
  return sim->rec->hash;
}

guint64
fl_sim_get_seed (FlSim *sim)
{
  return sim->seed;
}

guint64
fl_sim_get_state_hash (FlSim *sim)
{
  return fl_state_hash (&sim->st);
}

/**
 * fl_sim_get_findings:
 * @sim: a simulation
 *
 * Returns: (transfer none) (element-type FlFinding): everything the oracle found so far.
 */
GPtrArray *
fl_sim_get_findings (FlSim *sim)
{
  return sim->rec->findings;
}

void
fl_sim_get_counters (FlSim *sim, FlCounters *k)
{
  const FlState *st = &sim->st;
  memset (k, 0, sizeof *k);
  for (guint c = 0; c < st->sizes.ncpus; c++)
    {
      const FlCpu *cpu = &st->cpus[c];
      k->total += cpu->flt_total;
      k->speculative += cpu->flt_spec;
      k->retried += cpu->flt_retry;
      k->missed += cpu->flt_missed;
      k->locked += cpu->flt_locked;
      k->errors += cpu->flt_err;
      k->minor += cpu->flt_min;
      k->major += cpu->flt_maj;
      k->pgfault += cpu->vm_pgfault;
      k->cycles = MAX (k->cycles, cpu->clock);
    }
  for (guint l = 0; l < st->sizes.nlines; l++)
    k->transfers += st->lines[l].transfers;
  k->transfers += st->g->page_transfers;
}
