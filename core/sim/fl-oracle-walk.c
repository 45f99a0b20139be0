/* fl-oracle-walk.c — the oracle of the VMA lookups made without mmap_sem: v2's find_vma under
 * RCU and Kamezawa's find_vma_speculative. The rb-tree is not RCU-safe: a writer holding
 * mmap_sem for writing rotates nodes while the walk reads child pointers one node per step,
 * and a rotation can move the VMA the walk looks for above the node it stands on, so the walk
 * ends without it. The patch turns that into VM_FAULT_RETRY, so it is a cost, not a bug: the
 * oracle counts it (FlCpu.flt_missed) and says who hid the VMA, it raises no finding.
 *
 * What the oracle knows and the walk does not: which VMA held the address when the walk read
 * the root (FlCpu.spf_walk_vma), and, after every writer's tree change, whether that VMA can
 * still be reached from the node the walk stands on. None of it costs cycles or takes steps. */
#include "fl-sim-internal.h"

#include <string.h>

static guint64
this_step (FlSim *sim)
{
  return sim->stepping ? sim->st.g->step + 1 : sim->st.g->step;
}

/* The first node containing `addr` on the way find_vma would go from `node` if the tree held
 * still: a walk that nothing changes under. It follows a node's links as they are now, an
 * unlinked node's too (rb_erase leaves them), and stops at a freed one. With `note`, each node
 * read is a read of its line for the explorer. */
static guint32
descend (FlSim *sim, guint32 node, guint64 addr, gboolean note)
{
  const FlState *st = &sim->st;
  /* a tree is acyclic, and so is every path through unlinked nodes into it: the bound only
   * keeps a bug from hanging the run */
  for (guint n = 0; node != 0 && n <= st->sizes.nvmas; n++)
    {
      if (node >= st->sizes.nvmas || st->vmas[node].state == FL_OBJ_FREE)
        return 0;
      const FlVma *v = &st->vmas[node];
      if (note)
        fl_note (sim, FL_KEY (FL_KEY_LINE, fl_line_of_vma (st, node)), FALSE);
      if (v->end <= addr)
        node = v->rb.right;
      else if (v->start <= addr)
        return node;
      else
        node = v->rb.left;
    }
  return 0;
}

/* The VMA (an id) still linked in the tree, allocated as `ref` was and containing `addr`. */
static guint32
linked_at (const FlState *st, guint32 ref, guint64 addr)
{
  guint32 id = fl_ref_id (ref);
  if (id == 0 || id >= st->sizes.nvmas)
    return 0;
  const FlVma *v = &st->vmas[id];
  FlRbAccess acc = fl_vma_rb_access (st);
  if (v->state != FL_OBJ_LIVE || v->gen != (ref >> 16) || fl_rb_empty_node (&acc, id))
    return 0;
  return v->start <= addr && addr < v->end ? id : 0;
}

/**
 * fl_walk_begin:
 * @sim: the simulation
 * @cpu: the CPU whose lookup without mmap_sem reads the tree's root in this step
 * @addr: the address it looks for
 *
 * Remembers the VMA that contains @addr in the tree as it is now, the one the walk should
 * find.
 */
void
fl_walk_begin (FlSim *sim, guint cpu, guint64 addr)
{
  FlState *st = &sim->st;
  FlCpu *c = fl_cpu_rw (st, cpu);
  c->spf_walk_vma = fl_vma_ref (st, descend (sim, st->g->mm.root, addr, TRUE));
  c->spf_hidden_node = c->spf_hidden_subject = 0;
  c->spf_hidden_cpu = c->spf_hidden_action = 0;
  c->spf_hidden_step = 0;
}

/* The node a lookup without mmap_sem reads next, and the address it looks for: 0 when its
 * CPU is not in the middle of such a walk (before the root, past the last node). */
static guint32
walk_node (const FlState *st, guint cpu, guint64 *addr)
{
  const FlCpu *c = &st->cpus[cpu];
  if (c->depth == 0 || c->depth > FL_MAX_DEPTH)
    return 0;
  const FlFrame *f = &fl_cpu_stack (st, cpu)->frames[c->depth - 1];
  if (f->fn == FL_FN_FIND_VMA && f->pc == FL_LOC_FIND_VMA_walk)
    {
      *addr = f->l.find_vma.addr;
      return fl_ref_id (f->l.find_vma.node);
    }
  if (f->fn == FL_FN_FIND_VMA_SPECULATIVE && f->pc == FL_LOC_FIND_VMA_SPECULATIVE_walk)
    {
      *addr = f->l.find_vma_spec.addr;
      return fl_ref_id (f->l.find_vma_spec.node);
    }
  return 0;
}

/**
 * fl_walk_tree_changed:
 * @sim: the simulation
 * @cpu: the writer whose step changed the tree's shape
 * @cur: what the step did (rb_insert_color, rb_erase or its rebalancing)
 *
 * For every other CPU walking the tree without mmap_sem: when the VMA its walk should find
 * can no longer be reached from the node it stands on, this step hid it; remember which.
 */
void
fl_walk_tree_changed (FlSim *sim, guint cpu, const FlRbCursor *cur)
{
  FlState *st = &sim->st;
  for (guint w = 0; w < st->sizes.ncpus; w++)
    {
      const FlCpu *c = &st->cpus[w];
      guint64 addr = 0;
      guint32 want = fl_ref_id (c->spf_walk_vma);
      if (w == cpu || want == 0 || c->spf_hidden_cpu != 0)
        continue;
      guint32 node = walk_node (st, w, &addr);
      if (node == 0 || descend (sim, node, addr, FALSE) == want)
        continue;
      FlCpu *hidden = fl_cpu_rw (st, w);
      hidden->spf_hidden_node = node;
      hidden->spf_hidden_subject = cur->subject;
      hidden->spf_hidden_cpu = (guint16) (cpu + 1);
      hidden->spf_hidden_action = cur->action;
      hidden->spf_hidden_step = this_step (sim);
    }
}

/**
 * fl_walk_end:
 * @sim: the simulation
 * @cpu: the CPU whose lookup ends with its range check in this step
 * @addr: the address it looked for
 * @found: the VMA (a reference) the walk returned, 0 for none
 *
 * The walk's end: a miss when it found no VMA containing @addr although the VMA that held it
 * when the walk began is linked and holds it still (VMAs are never linked again once
 * unlinked, so it was there the whole time). Counted, and remembered for the step's words.
 *
 * Returns: whether the walk missed
 */
gboolean
fl_walk_end (FlSim *sim, guint cpu, guint64 addr, guint32 found)
{
  FlState *st = &sim->st;
  FlCpu *c = fl_cpu_rw (st, cpu);
  guint32 want = c->spf_walk_vma, id = fl_ref_id (found);
  c->spf_walk_vma = 0;
  if (want == 0)
    return FALSE;
  if (id && id < st->sizes.nvmas && st->vmas[id].state != FL_OBJ_FREE
      && st->vmas[id].start <= addr && addr < st->vmas[id].end)
    return FALSE;
  fl_note (sim, FL_KEY (FL_KEY_LINE, fl_line_of_vma (st, fl_ref_id (want))), FALSE);
  guint32 missed = linked_at (st, want, addr);
  if (missed == 0)
    return FALSE;
  c->flt_missed++;
  if (sim->replaying)
    return TRUE;
  FlSpfMiss m = {
    .step = this_step (sim), .cpu = cpu, .vma = missed,
    .cause_cpu = (gint) c->spf_hidden_cpu - 1, .cause_step = c->spf_hidden_step,
    .cause_action = c->spf_hidden_action, .cause_subject = c->spf_hidden_subject,
    .node = c->spf_hidden_node,
  };
  g_array_append_val (sim->rec->spf_misses, m);
  return TRUE;
}

/* ---- the record beside the state ----
 * What is known of a miss beside the state, for the trace and the window (FlRecord.spf_misses,
 * in step order): who hid the VMA is no longer in the state once the next walk begins. */

/* A run simulated again from `step` on forgets the misses after it, as its events do. */
void
fl_walk_truncate (FlSim *sim, guint64 step)
{
  GArray *m = sim->rec->spf_misses;
  guint n = m->len;
  while (n > 0 && g_array_index (m, FlSpfMiss, n - 1).step > step)
    n--;
  g_array_set_size (m, n);
}

/**
 * fl_sim_get_spf_misses:
 * @sim: a simulation
 *
 * Returns: (transfer none) (element-type FlSpfMiss): the misses of the steps taken so far, in
 *   step order
 */
GArray *
fl_sim_get_spf_misses (FlSim *sim)
{
  g_return_val_if_fail (sim != NULL, NULL);
  return sim->rec->spf_misses;
}

/**
 * fl_sim_get_spf_miss:
 * @sim: a simulation
 * @step: a step (from 1)
 * @cpu: the CPU that took it
 * @out: (out caller-allocates) (optional): the miss
 *
 * Returns: whether @cpu's step @step found that its lookup missed a VMA the tree held
 */
gboolean
fl_sim_get_spf_miss (FlSim *sim, guint64 step, guint cpu, FlSpfMiss *out)
{
  g_return_val_if_fail (sim != NULL, FALSE);
  return fl_record_spf_miss (sim->rec, step, cpu, out);
}

gboolean
fl_record_spf_miss (const FlRecord *rec, guint64 step, guint cpu, FlSpfMiss *out)
{
  const GArray *m = rec->spf_misses;
  for (guint i = m->len; i > 0; i--)
    {
      const FlSpfMiss *x = &g_array_index (m, FlSpfMiss, i - 1);
      if (x->step < step)
        break;
      if (x->step == step && x->cpu == cpu)
        {
          if (out)
            *out = *x;
          return TRUE;
        }
    }
  return FALSE;
}
/* "cpu1's rotate-left at VMA 1 (step 21) moved it above VMA 1, the node the walk had
 * reached": what took the VMA out of the walk's reach, in the words of the change. */
static void
append_cause (GString *s, const FlSpfMiss *m)
{
  if (m->cause_cpu < 0)
    {
      g_string_append (s, "no change of the tree's shape was seen to move it");
      return;
    }
  switch ((FlRbAction) m->cause_action)
    {
    case FL_RB_ACTION_ROTATE_LEFT:
    case FL_RB_ACTION_ROTATE_RIGHT:
      /* a rotation hides only what moves up past its pivot, the node the walk stands on */
      g_string_append_printf (s, "cpu%d's %s at VMA %u (step %" G_GUINT64_FORMAT ") moved it "
                              "above VMA %u, the node the walk had reached", m->cause_cpu,
                              fl_rb_action_name ((FlRbAction) m->cause_action), m->cause_subject,
                              m->cause_step, m->node);
      break;
    case FL_RB_ACTION_SUCCESSOR:
      g_string_append_printf (s, "cpu%d's rb_erase (step %" G_GUINT64_FORMAT ") moved VMA %u "
                              "up into the erased node's place, out from under VMA %u, the node "
                              "the walk had reached", m->cause_cpu, m->cause_step,
                              m->cause_subject, m->node);
      break;
    default:
      g_string_append_printf (s, "cpu%d's %s at VMA %u (step %" G_GUINT64_FORMAT ") took it "
                              "out from under VMA %u, the node the walk had reached",
                              m->cause_cpu, fl_rb_action_name ((FlRbAction) m->cause_action),
                              m->cause_subject, m->cause_step, m->node);
      break;
    }
}

/**
 * fl_sim_explain_event:
 * @sim: a simulation
 * @event: one of its events
 *
 * Why this step did what it did, when the model knows more than its listing line says: a
 * speculative lookup's range check that found its walk missed a VMA the tree held.
 *
 * Returns: (transfer full) (nullable): the sentence, %NULL when the listing line's own why
 *   says it
 */
char *
fl_sim_explain_event (FlSim *sim, const FlEvent *e)
{
  g_return_val_if_fail (sim != NULL && e != NULL, NULL);
  return fl_record_explain_event (sim->rec, e);
}

char *
fl_record_explain_event (const FlRecord *rec, const FlEvent *e)
{
  FlSpfMiss m;
  if (e->kind != FL_EV_CHECK || !fl_record_spf_miss (rec, (guint64) e->step + 1, e->cpu, &m))
    return NULL;
  GString *s = g_string_new (NULL);
  g_string_append_printf (s, "The walk missed VMA %u, which the tree held all along: ", m.vma);
  append_cause (s, &m);
  g_string_append (s, ". A walk of the rb-tree without mmap_sem proves nothing by finding "
                      "nothing, so the fault retries under mmap_sem.");
  return g_string_free (s, FALSE);
}

/* The words fl_sim_describe_event() adds to a missing walk's range check, for the trace. */
void
fl_walk_describe (FlSim *sim, const FlEvent *e, GString *s)
{
  FlSpfMiss m;
  if (e->kind != FL_EV_CHECK || !fl_sim_get_spf_miss (sim, (guint64) e->step + 1, e->cpu, &m))
    return;
  g_string_append_printf (s, " — the walk missed VMA %u, which the tree held: ", m.vma);
  append_cause (s, &m);
}
