/* Tests of the simulation: each primitive and path, the races and the oracle's verdicts. */
#include "sim-helpers.h"
#include "fl-spare.h"

static void
test_locked_fault_counts (void)
{
  g_autoptr (FlSim) sim = run_builtin ("locked-anon-fault", NULL, 0);
  FlCounters k;
  fl_sim_get_counters (sim, &k);
  g_assert_true (fl_sim_is_finished (sim));
  g_assert_cmpuint (k.total, ==, 2);
  g_assert_cmpuint (k.locked, ==, 2);
  g_assert_cmpuint (k.speculative, ==, 0);
  g_assert_cmpuint (k.minor, ==, 2);
  g_assert_cmpuint (k.errors, ==, 0);
  /* the first fault allocated the pud, pmd and pte levels */
  g_assert_cmpuint (count_events (sim, FL_FN_PGTABLE_ALLOC, FL_EV_ALLOC), ==, 3);
  assert_no_findings (sim);
}

static void
test_spf_first_touch_retries (void)
{
  g_autoptr (FlSim) sim = run_builtin ("spf-anon-fault", NULL, 0);
  FlCounters k;
  fl_sim_get_counters (sim, &k);
  g_assert_cmpuint (k.total, ==, 2);
  g_assert_cmpuint (k.retried, ==, 1);      /* no page table yet: only the locked path allocates */
  g_assert_cmpuint (k.speculative, ==, 1);
  g_assert_cmpuint (k.locked, ==, 1);
  assert_no_findings (sim);
}

/* The generic rwsem takes wait_lock for every down_read_trylock and up_read: with four CPUs
 * faulting, they queue on it; the xadd rwsem never spins there. */
static void
test_generic_rwsem_serializes_on_wait_lock (void)
{
  g_autoptr (FlSim) generic = run_builtin ("rwsem-generic-bounce", NULL, 0);
  g_autoptr (FlSim) xadd = run_builtin ("rwsem-xadd-bounce", NULL, 0);
  guint spins = count_events (generic, FL_FN_GENERIC_DOWN_READ_TRYLOCK, FL_EV_SPIN)
                + count_events (generic, FL_FN_GENERIC_UP, FL_EV_SPIN);
  g_assert_cmpuint (spins, >, 10);
  g_assert_cmpuint (count_events (xadd, FL_FN_XADD_DOWN_READ_TRYLOCK, FL_EV_SPIN)
                    + count_events (xadd, FL_FN_XADD_UP, FL_EV_SPIN), ==, 0);
  FlCounters kg, kx;
  fl_sim_get_counters (generic, &kg);
  fl_sim_get_counters (xadd, &kx);
  g_assert_cmpuint (kg.total, ==, kx.total);
  g_assert_cmpuint (kg.cycles, >, kx.cycles);
  assert_no_findings (generic);
  assert_no_findings (xadd);
}

/* xadd: up_read is exactly one locked instruction on the count. */
static void
test_xadd_up_read_is_one_rmw (void)
{
  const char *sets[] = { "rwsem", "xadd", NULL };
  g_autoptr (FlSim) sim = run_builtin ("locked-anon-fault", sets, 0);
  g_assert_cmpuint (count_events (sim, FL_FN_XADD_UP, -1), ==, 2);     /* two faults */
  g_assert_cmpuint (count_events (sim, FL_FN_XADD_UP, FL_EV_RMW), ==, 2);
  g_assert_cmpuint (count_events (sim, FL_FN_XADD_DOWN_READ_TRYLOCK, FL_EV_RMW), ==, 2);
}

/* xadd: __down_read_trylock is a cmpxchg loop. With eight CPUs changing the count, some
 * cmpxchg find it changed since their load: they fail (an RMW event with 0) and try again
 * with the count they found, until one succeeds; no writer, so every trylock ends held.
 * The failed cmpxchg left the line modified in its CPU's cache, and the retry right behind
 * it runs before the request queued next reaches that CPU (the coherence model's hold): the
 * CPU's next step is the retry, served by its own copy, and it succeeds. */
static void
test_xadd_trylock_retries_lost_cmpxchg (void)
{
  g_autoptr (FlSim) sim = run_builtin ("rwsem-xadd-bounce", NULL, 0);
  gsize n = fl_sim_get_n_events (sim);
  guint failed = 0, succeeded = 0, retries = 0;
  gboolean lost[FL_MAX_CPUS] = { FALSE };   /* the CPU's last step was a lost cmpxchg */
  for (gsize i = 0; i < n; i++)
    {
      FlEvent e = fl_sim_get_event (sim, i);
      gboolean is_cmpxchg = e.kind == FL_EV_RMW
                            && fl_loc_fn (e.loc) == FL_FN_XADD_DOWN_READ_TRYLOCK;
      if (lost[e.cpu])
        {
          /* the step after a failed cmpxchg */
          g_assert_true (is_cmpxchg);
          g_assert_cmpuint (e.val, !=, 0);
          /* its own copy: still the owner (a hit), or by the hold, ahead of the queue */
          g_assert_true (e.xfer == FL_XFER_HIT || e.xfer == FL_XFER_OWN_COPY);
          retries++;
          lost[e.cpu] = FALSE;
        }
      if (is_cmpxchg)
        {
          if (e.val == 0)
            {
              failed++;
              lost[e.cpu] = TRUE;
            }
          else
            succeeded++;
        }
    }
  g_assert_cmpuint (failed, >, 0);
  g_assert_cmpuint (retries, ==, failed);
  /* one load per trylock, one successful cmpxchg per trylock */
  g_assert_cmpuint (succeeded, ==, count_events (sim, FL_FN_XADD_DOWN_READ_TRYLOCK, FL_EV_LOAD));
  FlCounters k;
  fl_sim_get_counters (sim, &k);
  g_assert_cmpuint (k.locked, ==, k.total);
  assert_no_findings (sim);
}

/* Looking events up without decoding the run: by step, and the run's last cycle, also after
 * a branch dropped the events past the current step. */
static guint64
max_cycle (FlSim *sim)
{
  guint64 max = 0;
  for (gsize i = 0; i < fl_sim_get_n_events (sim); i++)
    max = MAX (max, fl_sim_get_event (sim, i).cycle);
  return max;
}

static void
test_events_by_step_and_last_cycle (void)
{
  g_autoptr (FlSim) sim = run_builtin ("rwsem-xadd-bounce", NULL, 0);
  gsize n = fl_sim_get_n_events (sim);
  guint64 total = fl_sim_get_total_steps (sim);
  for (guint64 step = 0; step <= total + 1; step += 97)
    {
      gsize i = fl_sim_find_step (sim, step);
      g_assert_true (i == n || fl_sim_get_event (sim, i).step >= step);
      g_assert_true (i == 0 || fl_sim_get_event (sim, i - 1).step < step);
    }
  g_assert_cmpuint (fl_sim_find_step (sim, 0), ==, 0);
  g_assert_cmpuint (fl_sim_find_step (sim, total + 1), ==, n);
  g_assert_cmpuint (fl_sim_get_last_cycle (sim), ==, max_cycle (sim));

  /* a branch from step 100: the events after it go, the last cycle is worked out again */
  g_assert_true (fl_sim_seek (sim, 100));
  FlEvent e = fl_sim_get_event (sim, fl_sim_find_step (sim, 100));
  g_assert_true (fl_sim_step_cpu (sim, e.cpu));
  g_assert_cmpuint (fl_sim_get_n_events (sim), <, n);
  g_assert_cmpuint (fl_sim_get_last_cycle (sim), ==, max_cycle (sim));
  fl_sim_run (sim, 0);
  g_assert_cmpuint (fl_sim_get_last_cycle (sim), ==, max_cycle (sim));
}

/* Big blocks come back for the next request of their size and go for good when released. */
static void
test_spare_blocks (void)
{
  fl_spare_release_all ();
  gpointer a = fl_spare_alloc (1 << 20);
  memset (a, 0x5a, 1 << 20);
  fl_spare_free (a, 1 << 20);
  g_assert_true (fl_spare_alloc (1 << 20) == a);            /* the same block, again */
  gpointer b = fl_spare_alloc (1 << 20);                     /* none left: a new one */
  g_assert_true (b != a);
  fl_spare_free (a, 1 << 20);
  gpointer c = fl_spare_alloc (2 << 20);                     /* another size: not that one */
  g_assert_true (c != a);
  g_free (c);
  fl_spare_free (b, 1 << 20);
  fl_spare_release_all ();
  /* two simulations in a row: the second runs in the first one's memory, the same events */
  g_autoptr (FlSim) first = run_builtin ("rwsem-xadd-bounce", NULL, 0);
  guint64 hash = fl_sim_get_hash (first);
  g_clear_pointer (&first, fl_sim_free);
  g_autoptr (FlSim) second = run_builtin ("rwsem-xadd-bounce", NULL, 0);
  g_assert_cmpuint (fl_sim_get_hash (second), ==, hash);
  fl_spare_release_all ();
}

static void
test_munmap_race_rcu_keeps_vma (void)
{
  g_autoptr (FlSim) sim = run_builtin ("spf-vs-munmap", NULL, 0);
  FlCounters k;
  fl_sim_get_counters (sim, &k);
  assert_no_findings (sim);
  g_assert_cmpuint (k.retried, ==, 1);
  g_assert_cmpuint (k.locked, ==, 1);
  g_assert_cmpuint (k.errors, ==, 1);       /* the range is gone: SIGSEGV, as it should be */
  /* the VMA was freed by its RCU callback only after cpu0 left its read-side section */
  gsize n;
  const FlEvent *ev = fl_sim_get_events (sim, &n);
  gint64 unlock = -1, freed = -1;
  for (gsize i = 0; i < n; i++)
    {
      if (ev[i].loc == FL_LOC_HANDLE_SPECULATIVE_FAULT_rcu_read_unlock && ev[i].cpu == 0)
        unlock = ev[i].step;
      if (ev[i].loc == FL_LOC_RCU_DO_BATCH_invoke)
        freed = ev[i].step;
    }
  g_assert_cmpint (unlock, >=, 0);
  g_assert_cmpint (freed, >, unlock);
}

static void
test_munmap_race_immediate_free_is_use_after_free (void)
{
  const char *sets[] = { "vma-free", "immediate", NULL };
  g_autoptr (FlSim) sim = run_builtin ("spf-vs-munmap", sets, 0);
  g_assert_cmpuint (count_findings (sim, FL_FINDING_USE_AFTER_FREE), >, 0);
}

static void
test_mprotect_odd_sequence_retries (void)
{
  g_autoptr (FlSim) sim = run_builtin ("spf-vs-mprotect", NULL, 0);
  FlCounters k;
  fl_sim_get_counters (sim, &k);
  assert_no_findings (sim);
  g_assert_cmpuint (k.retried, ==, 1);
  g_assert_cmpuint (k.errors, ==, 1);       /* write to a read-only VMA under mmap_sem */

  const char *sets[] = { "spf-seqcheck", "off", NULL };
  g_autoptr (FlSim) broken = run_builtin ("spf-vs-mprotect", sets, 0);
  g_assert_cmpuint (count_findings (broken, FL_FINDING_STALE_MAPPING), >, 0);
}

static void
test_tlb_ipi_trylock_loop_completes (void)
{
  g_autoptr (FlSim) sim = run_builtin ("spf-tlb-ipi", NULL, 0);
  FlCounters k;
  fl_sim_get_counters (sim, &k);
  assert_no_findings (sim);
  g_assert_cmpuint (k.total, ==, 2);
  g_assert_cmpuint (k.errors, ==, 0);
  g_assert_cmpuint (count_events (sim, FL_FN_N, FL_EV_IPI_SEND), >=, 1);
}

static void
test_tlb_ipi_spin_irqs_off_deadlocks (void)
{
  const char *sets[] = { "pte-map-lock", "spin-irqs-off", NULL };
  g_autoptr (FlSim) sim = run_builtin ("spf-tlb-ipi", sets, 0);
  g_assert_cmpuint (count_findings (sim, FL_FINDING_DEADLOCK), ==, 1);
  g_assert_true (fl_sim_get_state (sim)->g->deadlocked);
}

static void
test_migration_retries_then_waits (void)
{
  g_autoptr (FlSim) sim = run_builtin ("spf-migration-retry", NULL, 0);
  FlCounters k;
  fl_sim_get_counters (sim, &k);
  assert_no_findings (sim);
  g_assert_cmpuint (k.retried, >=, 1);
  g_assert_cmpuint (count_events (sim, FL_FN_DO_SWAP_PAGE, FL_EV_SLEEP), ==, 1);
}

static void
test_swap_in_is_major (void)
{
  g_autoptr (FlSim) sim = run_builtin ("swap-in-fault", NULL, 0);
  FlCounters k;
  fl_sim_get_counters (sim, &k);
  assert_no_findings (sim);
  g_assert_cmpuint (k.major, ==, 1);
  g_assert_cmpuint (k.speculative, ==, 1);
}

static void
test_cow_copies_and_flushes (void)
{
  g_autoptr (FlSim) sim = run_builtin ("cow-write-fault", NULL, 0);
  assert_no_findings (sim);
  g_assert_cmpuint (count_events (sim, FL_FN_FLUSH_TLB_OTHERS, FL_EV_IPI_SEND), ==, 1);
  g_assert_cmpuint (count_events (sim, FL_FN_N, FL_EV_IPI_ACK), >=, 1);
}

static void
test_file_fault_maps_cache_page (void)
{
  g_autoptr (FlSim) sim = run_builtin ("file-read-fault", NULL, 0);
  FlCounters k;
  fl_sim_get_counters (sim, &k);
  assert_no_findings (sim);
  g_assert_cmpuint (k.speculative, ==, 1);
  g_assert_cmpuint (count_events (sim, FL_FN_DO_FAULT, -1), >, 0);
}

/* Every IPI of every built-in is acknowledged, each acknowledgement later in simulated time
 * than every send it answers: the handler on a target answers all the sends since its last
 * one. The broken pte_map_lock's deadlock leaves its IPI unanswered, and only that. */
static void
assert_ipis_answered (FlSim *sim, gboolean deadlocks)
{
  gsize n;
  const FlEvent *ev = fl_sim_get_events (sim, &n);
  guint ncpus = fl_sim_get_state (sim)->sizes.ncpus;
  g_autofree guint64 *latest_send = g_new0 (guint64, ncpus);   /* per sender, cycle + 1 */
  g_autofree gsize *last_ack = g_new0 (gsize, ncpus);          /* per target, index + 1 */
  guint64 sent = 0, answered = 0;

  for (gsize i = 0; i < n; i++)
    if (ev[i].kind == FL_EV_IPI_SEND)
      {
        sent += ev[i].val;
        latest_send[ev[i].cpu] = ev[i].cycle + 1;
      }
    else if (ev[i].kind == FL_EV_IPI_ACK)
      {
        answered += ev[i].val;
        g_assert_cmpuint (ev[i].val, >=, 1);
        g_assert_cmpuint (latest_send[ev[i].obj], >, 0);
        for (gsize j = last_ack[ev[i].cpu]; j < i; j++)
          if (ev[j].kind == FL_EV_IPI_SEND && ev[j].val > 0 && ev[j].cpu != ev[i].cpu)
            {
              if (ev[j].cycle >= ev[i].cycle)
                g_error ("cpu%u acknowledges at cycle %" G_GUINT64_FORMAT " (step %u) the IPI "
                         "cpu%u sent at cycle %" G_GUINT64_FORMAT " (step %u)", ev[i].cpu,
                         ev[i].cycle, ev[i].step, ev[j].cpu, ev[j].cycle, ev[j].step);
            }
        last_ack[ev[i].cpu] = i + 1;
      }
  if (deadlocks)
    g_assert_cmpuint (answered, <, sent);
  else
    g_assert_cmpuint (answered, ==, sent);
}

static void
test_ipis_acknowledged_after_sent (void)
{
  g_auto (GStrv) ids = fl_scenario_builtin_ids ();
  guint with_ipis = 0;
  for (guint i = 0; ids[i]; i++)
    {
      if (strcmp (ids[i], "will-it-scale-pf1") == 0 && !g_test_slow ())
        continue;
      g_autoptr (FlSim) sim = run_builtin (ids[i], NULL, 0);
      assert_ipis_answered (sim, FALSE);
      with_ipis += count_events (sim, FL_FN_N, FL_EV_IPI_ACK) > 0;
    }
  g_assert_cmpuint (with_ipis, >=, 4);

  /* the scenario about this IPI: the spinning CPU takes it as a step of its own, the flush
   * mask moves to it and back */
  g_autoptr (FlSim) tlb = run_builtin ("spf-tlb-ipi", NULL, 0);
  g_assert_cmpuint (count_events (tlb, FL_FN_N, FL_EV_IPI_SEND), ==, 1);
  g_assert_cmpuint (count_events (tlb, FL_FN_FLUSH_TLB_FUNC, FL_EV_IPI_ACK), ==, 1);
  const FlState *st = fl_sim_get_state (tlb);
  g_assert_cmpuint (st->lines[FL_LINE_TLB_FLUSH].transfers, ==, 2);

  const char *sets[] = { "pte-map-lock", "spin-irqs-off", NULL };
  g_autoptr (FlSim) stuck = run_builtin ("spf-tlb-ipi", sets, 0);
  assert_ipis_answered (stuck, TRUE);
}

/* Every built-in scenario, with its own settings, is clean and deterministic. */
static void
test_builtins_clean_and_deterministic (void)
{
  g_auto (GStrv) ids = fl_scenario_builtin_ids ();
  g_assert_cmpuint (g_strv_length (ids), >=, 13);
  for (guint i = 0; ids[i]; i++)
    {
      if (strcmp (ids[i], "will-it-scale-pf1") == 0 && !g_test_slow ())
        continue;
      g_autoptr (FlSim) a = run_builtin (ids[i], NULL, 0);
      g_autoptr (FlSim) b = run_builtin (ids[i], NULL, 0);
      g_test_message ("%s: %" G_GUINT64_FORMAT " steps", ids[i], fl_sim_get_step (a));
      g_assert_true (fl_sim_is_finished (a));
      assert_no_findings (a);
      g_assert_cmpuint (fl_sim_get_hash (a), ==, fl_sim_get_hash (b));
      g_assert_cmpuint (fl_sim_get_state_hash (a), ==, fl_sim_get_state_hash (b));
    }
}

/* seek(n) after a full run gives the state that stepping to n from the start gives. */
static void
test_seek_matches_stepping (void)
{
  g_autoptr (FlSim) full = run_builtin ("multi-fault", NULL, 0);
  guint64 total = fl_sim_get_total_steps (full);
  guint64 hash = fl_sim_get_hash (full);
  g_assert_cmpuint (total, >, 10000);
  GRand *rand = g_rand_new_with_seed (7);
  for (guint i = 0; i < 6; i++)
    {
      guint64 target = i == 0 ? 1 : i == 1 ? total : (guint64) g_rand_int_range (rand, 1, (gint32) total);
      g_autoptr (FlSim) fresh = run_builtin ("multi-fault", NULL, target);
      g_assert_true (fl_sim_seek (full, target));
      g_assert_cmpuint (fl_sim_get_step (full), ==, target);
      g_assert_cmpuint (fl_sim_get_state_hash (full), ==, fl_sim_get_state_hash (fresh));
    }
  /* stepping on to the end replays the recorded run */
  g_assert_true (fl_sim_seek (full, 100));
  fl_sim_run (full, 0);
  g_assert_cmpuint (fl_sim_get_hash (full), ==, hash);
  g_assert_cmpuint (fl_sim_get_findings (full)->len, ==, 0);
  g_rand_free (rand);
}

/* The random policy is a legal interleaving: different seeds, different runs, all clean. */
static void
test_random_schedules_are_safe (void)
{
  static const char *const ids[] = { "spf-vs-munmap", "spf-vs-mprotect", "spf-tlb-ipi",
                                     "spf-migration-retry", "cow-write-fault" };
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      g_autoptr (GHashTable) hashes = g_hash_table_new (g_int64_hash, g_int64_equal);
      g_autoptr (GArray) keep = g_array_new (FALSE, FALSE, sizeof (guint64));
      g_array_set_size (keep, 40);
      for (guint seed = 0; seed < 40; seed++)
        {
          g_autoptr (GError) error = NULL;
          g_autoptr (FlScenario) sc = fl_scenario_load_builtin (ids[i], &error);
          g_autoptr (FlSim) sim = fl_sim_new (sc, NULL, seed, &error);
          fl_sim_set_policy (sim, FL_SCHED_RANDOM);
          fl_sim_run (sim, 0);
          assert_no_findings (sim);
          g_array_index (keep, guint64, seed) = fl_sim_get_hash (sim);
          g_hash_table_add (hashes, &g_array_index (keep, guint64, seed));
        }
      g_assert_cmpuint (g_hash_table_size (hashes), >, 1);
    }
}

static FlSim *
sim_with_policy (const char *id, FlSchedPolicy policy, guint64 seed, guint64 steps)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FlScenario) sc = fl_scenario_load_builtin (id, &error);
  g_assert_no_error (error);
  FlSim *sim = fl_sim_new (sc, NULL, seed, &error);
  g_assert_no_error (error);
  fl_sim_set_policy (sim, policy);
  fl_sim_run (sim, steps);
  return sim;
}

/* The same under a scripted and a random schedule: the scheduler's own state (the script's
 * position and its steps, the dice) is part of the state a seek must give back. */
static void
test_seek_under_script_and_dice (void)
{
  static const struct { const char *id; FlSchedPolicy policy; guint64 seed; } runs[] = {
    { "spf-vs-munmap", FL_SCHED_SCRIPT, 1 },
    { "spf-tlb-ipi", FL_SCHED_SCRIPT, 1 },
    { "spf-vs-munmap", FL_SCHED_RANDOM, 5 },
  };
  for (guint r = 0; r < G_N_ELEMENTS (runs); r++)
    {
      g_autoptr (FlSim) full = sim_with_policy (runs[r].id, runs[r].policy, runs[r].seed, 0);
      guint64 total = fl_sim_get_total_steps (full);
      for (guint64 t = 1; t <= total; t++)
        {
          g_autoptr (FlSim) fresh = sim_with_policy (runs[r].id, runs[r].policy, runs[r].seed, t);
          g_assert_true (fl_sim_seek (full, t));
          if (fl_sim_get_state_hash (full) != fl_sim_get_state_hash (fresh))
            g_error ("%s (policy %d): the state after seeking to step %" G_GUINT64_FORMAT
                     " is not the state after stepping there", runs[r].id, runs[r].policy, t);
        }
    }
}

/* The kernel's PGFAULT count: once in handle_mm_fault, and v2's speculative fault counts it
 * again before it tries, so a fault that retries under mmap_sem is counted twice. */
static void
test_pgfault_counts_a_retry_twice (void)
{
  g_autoptr (FlSim) locked = run_builtin ("locked-anon-fault", NULL, 0);
  g_autoptr (FlSim) spec = run_builtin ("spf-anon-fault", NULL, 0);
  FlCounters a, b;
  fl_sim_get_counters (locked, &a);
  fl_sim_get_counters (spec, &b);
  g_assert_cmpuint (a.pgfault, ==, a.total);
  g_assert_cmpuint (b.retried, ==, 1);
  g_assert_cmpuint (b.pgfault, ==, b.total + b.retried);
}

/* The hold is a transfer kind of its own: the generic rwsem's holder finds its wait_lock line
 * in its own copy right behind its write (events say so, the line counts them), and with
 * cost.hold=0 nothing is served that way, once the arbitration is off too (cost.crossing=0):
 * it also serves a holder from its own copy before a request still crossing to take it. */
static guint
own_copy_events (FlSim *sim)
{
  guint n = 0;
  for (gsize i = 0; i < fl_sim_get_n_events (sim); i++)
    n += fl_sim_get_event (sim, i).xfer == FL_XFER_OWN_COPY;
  return n;
}

static void
test_hold_is_its_own_kind (void)
{
  g_autoptr (FlSim) held = run_builtin ("rwsem-generic-bounce", NULL, 0);
  static const char *const off[] = { "cost.hold", "0", "cost.crossing", "0", NULL };
  g_autoptr (FlSim) none = run_builtin ("rwsem-generic-bounce", off, 0);
  guint n = own_copy_events (held);
  g_test_message ("%u accesses served by the hold", n);
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (own_copy_events (none), ==, 0);
  guint counted = 0;
  const FlState *st = fl_sim_get_state (held);
  for (guint l = 0; l < st->sizes.nlines; l++)
    counted += st->lines[l].own_copy;
  g_assert_cmpuint (counted, >=, n);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/sim/locked-fault", test_locked_fault_counts);
  g_test_add_func ("/core/sim/spf-first-touch-retries", test_spf_first_touch_retries);
  g_test_add_func ("/core/rwsem/generic-serializes-on-wait-lock", test_generic_rwsem_serializes_on_wait_lock);
  g_test_add_func ("/core/rwsem/xadd-up-read-one-rmw", test_xadd_up_read_is_one_rmw);
  g_test_add_func ("/core/rwsem/xadd-trylock-retries", test_xadd_trylock_retries_lost_cmpxchg);
  g_test_add_func ("/core/sim/events-by-step", test_events_by_step_and_last_cycle);
  g_test_add_func ("/core/sim/spare-blocks", test_spare_blocks);
  g_test_add_func ("/core/race/munmap-rcu", test_munmap_race_rcu_keeps_vma);
  g_test_add_func ("/core/race/munmap-immediate-free", test_munmap_race_immediate_free_is_use_after_free);
  g_test_add_func ("/core/race/mprotect-odd-sequence", test_mprotect_odd_sequence_retries);
  g_test_add_func ("/core/race/tlb-ipi-trylock-loop", test_tlb_ipi_trylock_loop_completes);
  g_test_add_func ("/core/race/tlb-ipi-spin-irqs-off", test_tlb_ipi_spin_irqs_off_deadlocks);
  g_test_add_func ("/core/race/ipis-acknowledged-after-sent", test_ipis_acknowledged_after_sent);
  g_test_add_func ("/core/race/migration", test_migration_retries_then_waits);
  g_test_add_func ("/core/sim/swap-in", test_swap_in_is_major);
  g_test_add_func ("/core/sim/cow", test_cow_copies_and_flushes);
  g_test_add_func ("/core/sim/file-fault", test_file_fault_maps_cache_page);
  g_test_add_func ("/core/sim/builtins-clean-deterministic", test_builtins_clean_and_deterministic);
  g_test_add_func ("/core/sim/seek", test_seek_matches_stepping);
  g_test_add_func ("/core/sim/seek-script-and-dice", test_seek_under_script_and_dice);
  g_test_add_func ("/core/sim/random-schedules", test_random_schedules_are_safe);
  g_test_add_func ("/core/sim/hold-is-its-own-kind", test_hold_is_its_own_kind);
  g_test_add_func ("/core/sim/pgfault-counts-a-retry-twice", test_pgfault_counts_a_retry_twice);
  return g_test_run ();
}
