/* fl-vm-file.c — the struct file behind a file mapping (vm_file), and when it is let go.
 *
 * In 2.6.32 remove_vma() drops the VMA's reference to its file with fput() and frees the
 * VMA. The speculative fault patch v2 makes only the second wait for an RCU grace period
 * (free_vma() is call_rcu); the fput() stays where it was. A speculative file fault that
 * found the VMA before munmap unlinked it still goes on, under rcu_read_lock, to
 * vma->vm_ops->fault(), which reads vma->vm_file->f_mapping: once the last fput() has run,
 * the file and its address_space may be gone (Linus's third objection: "only the VMA is
 * RCU-freed, not vm_file"). The repair (vm-file-put=rcu, the default) puts the file with the
 * VMA, after the grace period; vm-file-put=immediate is v2's order.
 *
 * A file's count is the VMAs that hold it: the program closed its descriptor after mmap, as
 * programs do, so the mapping holds the last reference. The file's own cache lines are not
 * modeled (read-mostly: one write per mmap, split and munmap); the VMA's line, which the
 * fault reads vm_file from, is. */
#include "fl-sim-internal.h"

/* Every file operation, for the explorer's dependence: one key for all files, coarse and
 * sound (files are few, and a fault's read of one conflicts with munmap's put of it). */
static void
note_files (FlSim *sim, gboolean write)
{
  fl_note (sim, FL_KEY (FL_KEY_ALLOC, FL_ALLOC_FILE), write);
}

/* The slot a reference names (references come from fl_file_open only; the modulo keeps a
 * damaged one inside the table). */
static guint32
slot (guint32 ref)
{
  return fl_ref_id (ref) % FL_MAX_FILES;
}

/**
 * fl_file_open:
 * @sim: the simulation
 *
 * A new struct file for a file mapping, its count 1 (the mapping's reference). The caller
 * knows there is a free slot (fl_sim_room_for_step checks FL_MAX_FILES before every step).
 *
 * Returns: a reference to it (slot + generation << 16), 0 when every slot is in use
 */
guint32
fl_file_open (FlSim *sim)
{
  FlState *st = &sim->st;
  note_files (sim, TRUE);
  for (guint32 i = 1; i < FL_MAX_FILES; i++)
    if (st->g->files[i].state == FL_OBJ_FREE)
      {
        FlFile *f = &FL_G_RW (st, files[i]);
        f->state = FL_OBJ_LIVE;
        f->count = 1;
        FL_G_RW (st, files_used)++;
        return i | ((guint32) f->gen << 16);
      }
  return 0;
}

/* get_file: a split's new half holds the same file. */
void
fl_file_get (FlSim *sim, guint32 ref)
{
  const FlFile *f = &sim->st.g->files[slot (ref)];
  if (ref == 0 || f->state != FL_OBJ_LIVE)
    return;
  note_files (sim, TRUE);
  FL_G_RW (&sim->st, files[slot (ref)].count)++;
}

static gboolean
live (const FlGlobals *g, guint32 ref)
{
  const FlFile *f = &g->files[slot (ref)];
  return f->state == FL_OBJ_LIVE && f->gen == (ref >> 16);
}

/* fput: the last reference releases the file (and its address_space); the slot takes a new
 * generation, so whoever still points at it is caught. */
static void
file_put (FlSim *sim, guint32 ref)
{
  FlState *st = &sim->st;
  if (ref == 0 || !live (st->g, ref))
    return;
  FlFile *f = &FL_G_RW (st, files[slot (ref)]);
  note_files (sim, TRUE);
  if (--f->count > 0)
    return;
  f->state = FL_OBJ_FREE;
  f->gen++;
  FL_G_RW (st, files_used)--;
}

/**
 * fl_vma_put_file:
 * @sim: the simulation
 * @cpu: the CPU doing it, or G_MAXUINT from the VMA's RCU callback
 * @vma: a VMA going away
 * @removing: %TRUE from remove_vma (munmap, or vma_adjust removing a merged neighbour),
 *   %FALSE when the VMA's memory is freed (fl_vma_free_now: at once, or after the grace
 *   period)
 *
 * Drops @vma's reference to its file where the configuration puts it: v2 (vm-file-put=
 * immediate) in remove_vma, the repair with the VMA itself. Once either way.
 *
 * Returns: whether it put the file now
 */
gboolean
fl_vma_put_file (FlSim *sim, guint cpu, guint32 vma, gboolean removing)
{
  const FlVma *v = &sim->st.vmas[vma];
  if (v->vm_file == 0 || v->file_put)
    return FALSE;
  if (removing && sim->config.vm_file_put != FL_VM_FILE_PUT_IMMEDIATE)
    return FALSE;
  fl_vma_rw (&sim->st, vma)->file_put = TRUE;
  if (removing)
    fl_cause_note_file_put (sim, cpu, v->vm_file);
  file_put (sim, v->vm_file);
  return TRUE;
}

/**
 * fl_check_vm_file:
 * @sim: the simulation
 * @cpu: the CPU about to read the file (the fault's ->fault: filemap_fault)
 * @vma: the VMA it read vm_file from
 *
 * Returns: %TRUE when the file is still there; otherwise reports `use-after-free`, its cause
 *   the munmap that put it.
 */
gboolean
fl_check_vm_file (FlSim *sim, guint cpu, guint32 vma)
{
  const FlVma *v = &sim->st.vmas[vma];
  note_files (sim, FALSE);
  if (v->vm_file == 0 || live (sim->st.g, v->vm_file))
    return TRUE;
  FlFinding *f = fl_finding (sim, cpu, FL_FINDING_USE_AFTER_FREE, vma,
                             "cpu%u reads the file of VMA %u (vm_file->f_mapping, for the page "
                             "cache) after munmap put it: the VMA waits for the grace period, "
                             "its file did not", cpu, vma);
  if (f != NULL)
    f->objects.vma = vma;   /* the views mark the VMA whose file it was */
  guint put_cpu;
  guint64 put_step;
  if (f != NULL && fl_cause_file_putter (sim, v->vm_file, &put_cpu, &put_step))
    fl_finding_caused_by (sim, f, put_cpu, put_step, FL_DEFECT_FILE_PUT,
                          "cpu%u's munmap put VMA %u's file at step %" G_GUINT64_FORMAT
                          " while cpu%u's speculative fault still held the VMA", put_cpu, vma,
                          put_step, cpu);
  return FALSE;
}
