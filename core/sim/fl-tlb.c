/* fl-tlb.c — TLB shootdown: the flushing CPU sends an IPI to every other CPU running the mm
 * and spins (IRQs on) until each has acknowledged. A CPU takes the IPI as a step of its own
 * when its IRQs are on, never before the IPI reached it: between two steps of its program,
 * or where it waits (spinning, asleep, waiting for its own flush), after which it waits on.
 * A CPU that spins with IRQs off never takes it, which is the deadlock the patch's trylock
 * loop avoids. Several CPUs may flush at once (madvise runs under the read lock): one handler
 * run acknowledges every pending sender. */
#include "fl-sim-internal.h"

#include <string.h>

static void
ack (FlSim *sim, guint cpu, guint64 at)
{
  FlState *st = &sim->st;
  FlCpu *c = fl_cpu_rw (st, cpu);
  for (guint s = 0; s < st->sizes.ncpus; s++)
    if ((c->ipi_senders[s / 64] >> (s % 64)) & 1)
      {
        FlCpu *sender = fl_cpu_rw (st, s);
        g_assert (sender->flush_left > 0);
        if (--sender->flush_left > 0)
          continue;
        guint64 seen = fl_line_reload (sim, FL_LINE_TLB_FLUSH, s, at);
        if (sender->status == FL_CPU_IPI_WAIT)
          fl_wake (sim, s, seen);
        else
          /* the handler ran before the sender's next step: its wait ends on its first read
           * of the mask, when this acknowledgement reaches it, not earlier */
          sender->clock = MAX (sender->clock, seen);
      }
  memset (c->ipi_senders, 0, sizeof c->ipi_senders);
  c->ipi_pending = FALSE;
  FL_G_RW (st, ipis_pending)--;
}

static guint32
first_sender (const FlCpu *c)
{
  for (guint w = 0; w < FL_MAX_CPUS / 64; w++)
    if (c->ipi_senders[w])
      return w * 64 + (guint32) __builtin_ctzll (c->ipi_senders[w]);
  return 0;
}

static guint32
n_senders (const FlCpu *c)
{
  guint32 n = 0;
  for (guint w = 0; w < FL_MAX_CPUS / 64; w++)
    n += (guint32) __builtin_popcountll (c->ipi_senders[w]);
  return n;
}

/**
 * fl_tlb_can_take_ipi:
 * @sim: the simulation
 * @cpu: a CPU
 *
 * Returns: whether @cpu has an IPI pending and could run its handler now: IRQs on, and
 * running or parked (a stuck CPU never runs again).
 */
gboolean
fl_tlb_can_take_ipi (FlSim *sim, guint cpu)
{
  const FlCpu *c = &sim->st.cpus[cpu];
  return c->ipi_pending && !c->irqs_off && c->status != FL_CPU_STUCK;
}

/* flush_tlb_func, one step of the target: it starts when both the CPU and the IPI are
 * there, so the acknowledgement always comes after the send in simulated time. */
void
fl_tlb_take_ipi (FlSim *sim, guint cpu)
{
  FlCpu *c = fl_cpu_rw (&sim->st, cpu);
  sim->ev.loc = FL_LOC_FLUSH_TLB_FUNC_ack;
  c->clock = MAX (c->clock, c->ipi_at);
  fl_charge (sim, cpu, sim->config.cost.ipi);
  fl_touch (sim, cpu, FL_LINE_TLB_FLUSH, FL_ACCESS_RMW);
  fl_ev (sim, FL_EV_IPI_ACK, first_sender (c), n_senders (c));
  ack (sim, cpu, c->clock);
}

static void
step_flush_tlb_others (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  FlCpu *me = fl_cpu_rw (st, cpu);
  switch (f->pc)
    {
    case FL_LOC_FLUSH_TLB_OTHERS_send:
      {
        guint sent = 0;
        fl_touch (sim, cpu, FL_LINE_TLB_FLUSH, FL_ACCESS_WRITE);
        fl_note_all_cpus (sim, FL_KEY_CPU_TLB);
        for (guint c = 0; c < st->sizes.ncpus; c++)
          if (c != cpu && st->cpus[c].in_mm)
            {
              FlCpu *target = fl_cpu_rw (st, c);
              target->ipi_senders[cpu / 64] |= G_GUINT64_CONSTANT (1) << (cpu % 64);
              FL_G_RW (st, ipis_pending) += !target->ipi_pending;
              target->ipi_pending = TRUE;
              sent++;
            }
        me->flush_left = sent;
        fl_charge (sim, cpu, sent ? sim->config.cost.ipi : 0);
        fl_ev (sim, FL_EV_IPI_SEND, sent, sent);
        /* the IPIs are out once the sender has written the APIC: the handlers start later */
        for (guint c = 0; c < st->sizes.ncpus; c++)
          if (c != cpu && st->cpus[c].in_mm)
            FL_CPU_RW (st, c, ipi_at) = MAX (st->cpus[c].ipi_at, me->clock);
        f->pc = FL_LOC_FLUSH_TLB_OTHERS_wait;
        return;
      }
    case FL_LOC_FLUSH_TLB_OTHERS_wait:
      if (me->flush_left > 0)
        {
          f->pc = FL_LOC_FLUSH_TLB_OTHERS_done;
          fl_park (sim, cpu, FL_CPU_IPI_WAIT, me->flush_left);
          fl_line_add_sharer (st, FL_LINE_TLB_FLUSH, cpu);
          return;
        }
      fl_ev (sim, FL_EV_CHECK, 0, 1);
      fl_return (sim, cpu, 0);
      return;
    case FL_LOC_FLUSH_TLB_OTHERS_done:
      fl_ev (sim, FL_EV_WAKE, 0, (guint32) MIN (me->clock - me->wait_since, G_MAXUINT32));
      fl_return (sim, cpu, 0);
      return;
    default:
      g_assert_not_reached ();
    }
}

const FlStepFn fl_step_flush_tlb_others = step_flush_tlb_others;
