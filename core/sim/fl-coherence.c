/* fl-coherence.c — MESI per line per CPU and what each access costs.
 *
 * Costs come only from the cost table and from which lines a step touches: a hit is cheap, a
 * line another core holds is transferred (more when it crosses sockets), a store to a shared
 * line invalidates every copy (more copies, more cost), and a line serves one transfer at a
 * time, so requests queue behind each other. That queue is what makes a contended lock word
 * collapse; nothing here knows which design is being simulated.
 *
 * The hold: a request queued behind a CPU's write takes the line away only when its snoop
 * reaches that CPU, which is after the write completed. The writer's next instructions on the
 * line, issued right behind the write (within an L3 round trip, `llc`), still find its own
 * copy: a spinlock holder's critical section, and the retry of a cmpxchg loop (a failed
 * `lock cmpxchg` still writes the line, Intel SDM vol. 2A, CMPXCHG), run before the queue. */
#include "fl-sim-internal.h"

#include <string.h>

#define WORDS (FL_MAX_CPUS / 64)

static inline gboolean
is_sharer (const FlLine *l, guint cpu)
{
  return (l->sharers[cpu / 64] >> (cpu % 64)) & 1;
}

static inline void
clear_sharers (FlLine *l)
{
  memset (l->sharers, 0, sizeof l->sharers);
}

FlMesi
fl_mesi (const FlState *st, guint line, guint cpu)
{
  const FlLine *l = &st->lines[line];
  if (l->owner == (gint) cpu)
    return l->owner_state;
  return is_sharer (l, cpu) ? FL_MESI_S : FL_MESI_I;
}

void
fl_charge (FlSim *sim, guint cpu, guint64 cycles)
{
  FL_CPU_RW (&sim->st, cpu, clock) += cycles;
}

/* Bits set in a word, without the library call __builtin_popcountll becomes on the baseline
 * x86-64 this builds for (no POPCNT instruction there). */
static inline guint
popcount64 (guint64 x)
{
  x = x - ((x >> 1) & G_GUINT64_CONSTANT (0x5555555555555555));
  x = (x & G_GUINT64_CONSTANT (0x3333333333333333))
      + ((x >> 2) & G_GUINT64_CONSTANT (0x3333333333333333));
  x = (x + (x >> 4)) & G_GUINT64_CONSTANT (0x0f0f0f0f0f0f0f0f);
  return (guint) ((x * G_GUINT64_CONSTANT (0x0101010101010101)) >> 56);
}

/* Where the freshest copy comes from: the owner, else the nearest sharer, else memory.
 * With k waiters reloading a released lock word this runs k times over k sharers, so the
 * sharers are taken a word of 64 CPUs at a time against the socket's mask. A write also
 * wants how many other copies it invalidates (`others`) and whether one is on another
 * socket (`remote_any`); a read passes NULL for both. */
static inline FlXfer
source_of (FlSim *sim, const FlLine *l, guint cpu, guint *others, gboolean *remote_any)
{
  guint my_socket = sim->socket_of[cpu];
  if (l->owner >= 0 && l->owner != (gint) cpu)
    {
      gboolean remote = sim->socket_of[l->owner] != my_socket;
      if (others != NULL)
        {
          *others = 1;
          *remote_any = remote;
        }
      return remote ? FL_XFER_REMOTE : FL_XFER_LOCAL;
    }
  const guint64 *mine = sim->socket_cpus[my_socket];
  guint n = 0;
  guint64 local = 0, remote = 0;
  /* only the words that can hold a CPU of this machine: sharers are always below ncpus */
  for (guint w = 0; w < (sim->st.sizes.ncpus + 63) / 64; w++)
    {
      guint64 bits = l->sharers[w];
      if (cpu / 64 == w)
        bits &= ~(G_GUINT64_CONSTANT (1) << (cpu % 64));
      if (bits == 0)
        continue;
      if (others != NULL)
        n += popcount64 (bits);
      local |= bits & mine[w];
      remote |= bits & ~mine[w];
    }
  if (others != NULL)
    {
      *others = n;
      *remote_any = remote != 0;
    }
  return local ? FL_XFER_LOCAL : remote ? FL_XFER_REMOTE : FL_XFER_MEMORY;
}

static guint64
transfer_cost (const FlCostTable *k, FlXfer from, FlAccess access)
{
  switch (from)
    {
    case FL_XFER_LOCAL:
      return access == FL_ACCESS_READ ? k->local_load
             : access == FL_ACCESS_WRITE ? k->local_store : k->local_rmw;
    case FL_XFER_REMOTE:
      return access == FL_ACCESS_READ ? k->remote_load
             : access == FL_ACCESS_WRITE ? k->remote_store : k->remote_rmw;
    case FL_XFER_MEMORY:
      return k->dram;
    default:
      return k->l1_hit;
    }
}

/* A line nobody holds modified, with a copy on this socket, is read from the shared
 * last-level cache (inclusive on the modeled Xeons) rather than from another core. */
static guint64
read_cost (const FlCostTable *k, const FlLine *l, FlXfer from)
{
  if (from == FL_XFER_LOCAL && l->owner < 0)
    return k->llc;
  return transfer_cost (k, from, FL_ACCESS_READ);
}

/* Occupy the line for one transfer starting no earlier than `at`: returns when it completes.
 * The next transfer may start once `occupancy` % of this one's latency has passed (100: the
 * line serves one transfer at a time, end to end). */
static guint64
occupy (FlLine *l, const FlCostTable *k, guint64 at, guint64 cost)
{
  guint64 start = MAX (at, l->busy_until);
  l->busy_until = start + cost * k->occupancy / 100;
  l->rfo_prev = 0;   /* a request booked since: whatever crossed before it has arrived */
  return start + cost;
}

/* How much a kind of access says about a step, for the one line its event keeps: any transfer
 * more than the hold, the hold more than a plain hit. */
static guint
xfer_rank (FlXfer xfer)
{
  return xfer == FL_XFER_OWN_COPY ? 2 * FL_XFER_HIT + 1 : 2 * (guint) xfer;
}

static void
note_event (FlSim *sim, guint line, FlXfer xfer, guint64 cost)
{
  /* the event keeps the most expensive line a step touched */
  if (sim->ev.line == 0 || xfer_rank (xfer) > xfer_rank ((FlXfer) sim->ev.xfer))
    {
      sim->ev.line = line;
      sim->ev.xfer = xfer;
    }
}

/* The CPU wrote the line a moment ago and no request queued since has reached it yet. */
static inline gboolean
still_held (const FlCpu *c, guint line)
{
  return c->held_line == line && c->clock <= c->held_until;
}

/* A write completed now with the line Modified here: hold it for what comes right behind
 * (cost.hold cycles, an L3 round trip by default; 0 turns the hold off). */
static inline void
hold (FlCpu *c, guint line, const FlCostTable *k)
{
  c->held_line = k->hold ? line : FL_LINE_NONE;
  c->held_until = c->clock + k->hold;
}

/* The arbitration. In the source-snoop protocol of these Xeons, conflicting requests for a
 * line held Modified or Exclusive in one cache are resolved where that copy is: a core of
 * the holder's socket asks its own inclusive L3, a core of another socket's request first
 * crosses the interconnect (`crossing` cycles: half of what a transfer from the other socket
 * costs over one from the same socket). So a request issued on the holder's socket while
 * requests from another one are still crossing reaches the line first and is served first;
 * they wait behind it. The fairness bound is the crossing itself: only a request issued
 * before the first of them arrives can overtake them. What the values are (what a load
 * returns, whether a cmpxchg succeeds) stays in the order the steps were taken; only the
 * timing and the path of the line follow the arbitration. */

static inline gboolean
is_taker (const FlLine *l, guint cpu)
{
  return (l->rfo_takers[cpu / 64] >> (cpu % 64)) & 1;
}

/* After a request was booked: one that takes the unique copy from another socket starts a
 * crossing group (a load, a group of one); an ownership request of that socket queued right
 * behind an ownership group (it took the line from one of them, nothing else booked in
 * between) joins it, since it crosses too. Anything else has arrived by the time it is
 * served: occupy() dropped the record. */
static void
note_crossing (FlSim *sim, FlLine *l, guint cpu, gint prev, FlAccess access, guint64 issued,
               guint64 before, guint32 record, guint64 record_end)
{
  const FlCostTable *k = &sim->config.cost;
  if (k->crossing == 0 || prev < 0)
    return;
  if (sim->socket_of[prev] != sim->socket_of[cpu])
    {
      l->rfo_prev = (guint32) prev + 1;
      l->rfo_arrive = issued + k->crossing;
      l->rfo_before = before;
      l->rfo_start = MAX (issued, before);
      l->rfo_load = access == FL_ACCESS_READ;
      memset (l->rfo_takers, 0, sizeof l->rfo_takers);
    }
  else if (access != FL_ACCESS_READ && record != 0 && !l->rfo_load && before == record_end
           && issued < before && is_taker (l, (guint) prev))
    l->rfo_prev = record;
  else
    return;
  l->rfo_takers[cpu / 64] |= G_GUINT64_CONSTANT (1) << (cpu % 64);
  l->rfo_busy_end = l->busy_until;
}

/* Every request of the group is still waiting for its line: none has stepped since (under
 * the time scheduler each one's clock is past the line's arrival, so past now). */
static gboolean
takers_waiting (const FlSim *sim, const FlLine *l, guint64 now)
{
  for (guint w = 0; w < (sim->st.sizes.ncpus + 63) / 64; w++)
    for (guint64 bits = l->rfo_takers[w]; bits; bits &= bits - 1)
      {
        const FlCpu *t = &sim->st.cpus[w * 64 + (guint) __builtin_ctzll (bits)];
        if (t->status != FL_CPU_RUNNING || t->clock <= now)
          return FALSE;
      }
  return TRUE;
}

/* A request of the old holder's socket issued while the crossing group has not arrived:
 * served from the old holder's copy before them, and each of them waits that much longer.
 * Steps taken out of time order (a script, the dice, the user) keep the order they were
 * taken in. Returns %TRUE when served so, with @done when it completes and @unchanged what
 * fl_touch() returns. Behind ownership requests the line's state stays theirs (they take it
 * after this access); behind a load this must be a store or an atomic (a load is served by
 * the socket's copy anyway), which takes the line as usual, the load's copy included. */
static gboolean
overtake (FlSim *sim, guint line, guint cpu, FlAccess access, guint64 *done,
          gboolean *unchanged)
{
  FlState *st = &sim->st;
  FlLine *l = fl_line_rw (st, line);
  const FlCostTable *k = &sim->config.cost;
  guint64 now = st->cpus[cpu].clock;

  if (l->rfo_prev == 0 || l->busy_until != l->rfo_busy_end || now >= l->rfo_arrive
      || sim->policy != FL_SCHED_TIME || (l->rfo_load && access == FL_ACCESS_READ))
    return FALSE;
  guint prev = l->rfo_prev - 1;
  if (sim->socket_of[prev] != sim->socket_of[cpu] || !takers_waiting (sim, l, now))
    return FALSE;

  guint64 cost, start, freed;
  FlXfer kind;
  if (prev == cpu)
    {
      /* its own copy: the requests that will take it have not reached it yet */
      cost = access == FL_ACCESS_RMW ? k->locked_rmw : k->l1_hit;
      start = now;
      freed = now + cost;
      kind = FL_XFER_OWN_COPY;
      l->own_copy++;
    }
  else
    {
      cost = transfer_cost (k, FL_XFER_LOCAL, access);
      start = MAX (now, l->rfo_before);
      freed = start + cost * k->occupancy / 100;
      kind = FL_XFER_LOCAL;
      l->transfers++;
      l->last_to = cpu + 1;
    }
  /* the group is served once its first request has arrived and the line is free again */
  guint64 served = l->rfo_start + k->crossing;
  if (freed > served)
    {
      guint64 delay = freed - served;
      l->busy_until += delay;
      l->rfo_busy_end = l->busy_until;
      l->rfo_start += delay;
      for (guint w = 0; w < (st->sizes.ncpus + 63) / 64; w++)
        for (guint64 bits = l->rfo_takers[w]; bits; bits &= bits - 1)
          {
            FlCpu *t = fl_cpu_clock_rw (st, w * 64 + (guint) __builtin_ctzll (bits));
            t->clock += delay;
            if (t->held_line == line)
              t->held_until += delay;
          }
    }
  l->rfo_before = freed;
  if (access != FL_ACCESS_READ)
    l->rfo_prev = cpu + 1;
  *done = start + cost;
  *unchanged = FALSE;
  if (l->rfo_load)
    {
      *unchanged = is_sharer (l, cpu);
      clear_sharers (l);
      l->owner = cpu;
      l->owner_state = FL_MESI_M;
      l->rfo_prev = 0;
    }
  l->overtook++;
  note_event (sim, line, kind, cost);
  return TRUE;
}

/**
 * fl_touch:
 * @sim: the simulation
 * @cpu: the CPU accessing the line
 * @line: the cache line
 * @access: load, store or locked read-modify-write
 *
 * Charges the access to the CPU's clock and moves the line's MESI state.
 *
 * Returns: %TRUE when the access was served by the CPU's own copy: no other CPU's write to
 * the line is ordered between this access and the CPU's previous one, so a value it read then
 * is still the value now (a cmpxchg it expects to succeed does).
 */
gboolean
fl_touch (FlSim *sim, guint cpu, guint line, FlAccess access)
{
  FlState *st = &sim->st;
  FlLine *l = fl_line_rw (st, line);
  FlCpu *c = fl_cpu_clock_rw (st, cpu);
  const FlCostTable *k = &sim->config.cost;
  guint others;
  gboolean remote_any, unchanged;
  guint64 done;

  fl_note (sim, FL_KEY (FL_KEY_LINE, line), access != FL_ACCESS_READ);
  if (access == FL_ACCESS_READ)
    {
      if (l->owner == (gint) cpu || is_sharer (l, cpu))
        {
          c->clock += k->l1_hit;
          note_event (sim, line, FL_XFER_HIT, k->l1_hit);
          return TRUE;
        }
      if (still_held (c, line))
        {
          c->clock += k->l1_hit;
          l->own_copy++;
          note_event (sim, line, FL_XFER_OWN_COPY, k->l1_hit);
          return TRUE;
        }
      if (overtake (sim, line, cpu, access, &done, &unchanged))
        {
          c->clock = done;
          return unchanged;
        }
      FlXfer from = source_of (sim, l, cpu, NULL, NULL);
      guint64 cost = read_cost (k, l, from);
      guint64 issued = c->clock, before = l->busy_until;
      gint prev = l->owner;
      c->clock = occupy (l, k, c->clock, cost);
      note_crossing (sim, l, cpu, prev, access, issued, before, 0, 0);
      if (from == FL_XFER_MEMORY)
        {
          l->owner = cpu;
          l->owner_state = FL_MESI_E;
        }
      else
        {
          if (l->owner >= 0)
            fl_line_add_sharer (st, line, l->owner);
          l->owner = -1;
          fl_line_add_sharer (st, line, cpu);
          l->transfers++;
          l->last_to = cpu + 1;
        }
      note_event (sim, line, from, cost);
      return FALSE;
    }

  /* store or atomic: we need the only copy */
  guint64 own_cost = access == FL_ACCESS_RMW ? k->locked_rmw : k->l1_hit;
  if (l->owner == (gint) cpu)
    {
      c->clock += own_cost;
      l->owner_state = FL_MESI_M;
      hold (c, line, k);
      note_event (sim, line, FL_XFER_HIT, own_cost);
      return TRUE;
    }
  if (still_held (c, line))
    {
      /* Its own copy, before the requests made since reach it: readers that asked get the
       * line after this write (their copies go); a CPU that asked for ownership takes it
       * after this, as already booked. */
      c->clock += own_cost;
      if (l->owner < 0)
        {
          clear_sharers (l);
          l->owner = cpu;
          l->owner_state = FL_MESI_M;
        }
      l->own_copy++;
      note_event (sim, line, FL_XFER_OWN_COPY, own_cost);
      return TRUE;
    }
  if (overtake (sim, line, cpu, access, &done, &unchanged))
    {
      c->clock = done;
      hold (c, line, k);
      return unchanged;
    }
  FlXfer from = source_of (sim, l, cpu, &others, &remote_any);
  gboolean was_sharer = is_sharer (l, cpu);   /* nobody wrote since it read */
  guint64 cost;
  FlXfer shown = from;
  if (others == 0)
    {
      /* nobody else has it: memory, or an upgrade of our own shared copy */
      cost = is_sharer (l, cpu) ? k->l1_hit : k->dram;
      shown = is_sharer (l, cpu) ? FL_XFER_UPGRADE : FL_XFER_MEMORY;
      if (access == FL_ACCESS_RMW)
        cost += k->locked_rmw;
      c->clock = occupy (l, k, c->clock, cost);
    }
  else
    {
      /* fetch for ownership from the farthest holder, invalidating every other copy */
      cost = transfer_cost (k, remote_any ? FL_XFER_REMOTE : FL_XFER_LOCAL, access)
             + (guint64) k->invalidate_extra * (others - 1);
      if (is_sharer (l, cpu))
        shown = FL_XFER_UPGRADE;
      guint64 issued = c->clock, before = l->busy_until, record_end = l->rfo_busy_end;
      guint32 record = l->rfo_prev;
      gint prev = l->owner;
      c->clock = occupy (l, k, c->clock, cost);
      note_crossing (sim, l, cpu, prev, access, issued, before, record, record_end);
      l->transfers++;
      l->last_to = cpu + 1;
    }
  clear_sharers (l);
  l->owner = cpu;
  l->owner_state = FL_MESI_M;
  hold (c, line, k);
  note_event (sim, line, shown, cost);
  return was_sharer;
}

/**
 * fl_line_reload_many:
 * @sim: the simulation
 * @line: a line that was just written
 * @cpus: (array length=n): CPUs that were spinning on it, in the order they re-read it
 * @n: how many
 * @at: when the write became visible
 * @seen: (out) (array length=n): when each of them has the new value
 *
 * Each waiter re-reads the line after the write invalidated its copy, one after another: a
 * reload queues on the line like any transfer and comes from the owner, else from a copy on
 * the waiter's socket (the shared cache), else from the other socket, else from memory. A
 * released lock is re-read by every spinner, so which sockets hold a copy is counted once
 * here and kept as each waiter gets its own, instead of being asked again for each of them.
 */
void
fl_line_reload_many (FlSim *sim, guint line, const guint *cpus, guint n, guint64 at,
                     guint64 *seen)
{
  FlState *st = &sim->st;
  fl_note (sim, FL_KEY (FL_KEY_LINE, line), TRUE);
  FlLine *l = fl_line_rw (st, line);
  const FlCostTable *k = &sim->config.cost;
  guint nsockets = MIN (sim->config.sockets, (guint) FL_MAX_SOCKETS);
  guint nwords = (st->sizes.ncpus + 63) / 64;
  guint per_socket[FL_MAX_SOCKETS];
  guint copies = 0;

  for (guint s = 0; s < nsockets; s++)
    {
      per_socket[s] = 0;
      for (guint w = 0; w < nwords; w++)
        per_socket[s] += popcount64 (l->sharers[w] & sim->socket_cpus[s][w]);
      copies += per_socket[s];
    }
  for (guint i = 0; i < n; i++)
    {
      guint cpu = cpus[i];
      if (l->owner == (gint) cpu || is_sharer (l, cpu))
        {
          seen[i] = at + k->l1_hit;
          continue;
        }
      guint mine = sim->socket_of[cpu];
      FlXfer from;
      if (l->owner >= 0)
        from = sim->socket_of[l->owner] != mine ? FL_XFER_REMOTE : FL_XFER_LOCAL;
      else
        from = per_socket[mine] > 0 ? FL_XFER_LOCAL
               : copies > 0 ? FL_XFER_REMOTE : FL_XFER_MEMORY;
      seen[i] = occupy (l, k, at, read_cost (k, l, from));
      if (l->owner >= 0 && !is_sharer (l, (guint) l->owner))
        {
          fl_line_add_sharer (st, line, (guint) l->owner);
          per_socket[sim->socket_of[l->owner]]++;
          copies++;
        }
      l->owner = -1;
      fl_line_add_sharer (st, line, cpu);
      per_socket[mine]++;
      copies++;
      if (from != FL_XFER_MEMORY)
        l->transfers++;
    }
}

/* One waiter's reload: fl_line_reload_many() for one CPU. Returns when it has the value. */
guint64
fl_line_reload (FlSim *sim, guint line, guint cpu, guint64 at)
{
  guint64 seen;
  fl_line_reload_many (sim, line, &cpu, 1, at, &seen);
  return seen;
}

/**
 * fl_touch_page:
 * @sim: the simulation
 * @cpu: the CPU writing the page's struct page
 * @page: the page frame
 *
 * The allocator, the LRU and the rmap write a struct page from one CPU at a time, so its line
 * is modeled with a single owner and no queue: a hit when this CPU wrote it last, a transfer
 * from the CPU that did (dearer across sockets), memory when nobody holds it. This is what
 * makes the work done under zone->lock and lru_lock grow with the number of CPUs that recycle
 * each other's pages.
 */
void
fl_touch_page (FlSim *sim, guint cpu, guint32 page)
{
  fl_note (sim, FL_KEY (FL_KEY_PAGE, page), TRUE);
  if (fl_touch_owned (sim, cpu, &fl_page_rw (&sim->st, page)->line_owner))
    FL_G_RW (&sim->st, page_transfers)++;
}

/**
 * fl_touch_owned:
 * @sim: the simulation
 * @cpu: the CPU writing the line
 * @owner: the line's single owner, CPU + 1 (0: only in memory), which becomes @cpu
 *
 * A line that only one CPU at a time writes, with no queue (struct page, the zone's free
 * areas under zone->lock): charges @cpu a hit, a transfer from the owner, or memory.
 *
 * Returns: whether the line moved from another CPU
 */
gboolean
fl_touch_owned (FlSim *sim, guint cpu, guint16 *owner)
{
  const FlCostTable *k = &sim->config.cost;
  guint64 cost;
  gboolean moved = FALSE;

  if (*owner == cpu + 1)
    cost = k->l1_hit;
  else if (*owner == 0)
    cost = k->dram;
  else
    {
      gboolean remote = sim->socket_of[*owner - 1] != sim->socket_of[cpu];
      cost = remote ? k->remote_store : k->local_store;
      moved = TRUE;
    }
  *owner = (guint16) (cpu + 1);
  FL_CPU_RW (&sim->st, cpu, clock) += cost;
  return moved;
}
