/* fl-finding-cause.c — what made a finding happen: the CPU whose action is the defect, the
 * objects it names and a sentence that links cause and effect. The oracle often notices a
 * defect on another CPU than the one that made it (a stale PTE is found when the writer that
 * changed the VMA finishes, not when the fault installed it), so the model keeps, beside the
 * events, who installed which PTE, and every finding says which unsafe switch let it happen. */
#include "fl-sim-internal.h"

#include <string.h>

/* One PTE a fault installed: enough to name its installer when the PTE turns out stale. */
typedef struct {
  guint64 step;               /* from 1, as findings count */
  guint32 table;
  guint16 index;
  guint16 cpu;
} FlPteInstall;

G_STATIC_ASSERT (FL_MAX_CPUS <= G_MAXUINT16 && FL_PTRS_PER_TABLE <= G_MAXUINT16);

/* A safeguard of the design and the value that switches it off: the defects it prevents
 * name it when the run has it off. */
typedef struct {
  FlDefect    defect;
  const char *key, *unsafe, *why;
} FlSafeguard;

static const FlSafeguard safeguards[] = {
  { FL_DEFECT_RACED_MPROTECT, "spf-seqcheck", "off",
    "the speculative fault's sequence check was off, so it did not see the VMA change" },
  { FL_DEFECT_RACED_MPROTECT, "mprotect-seqcount", "unbracketed",
    "mprotect changed the VMA outside a vm_sequence write section, so the speculative fault's "
    "sequence check saw no change" },
  { FL_DEFECT_RACED_UNMAP, "spf-mmap-cache", "update",
    "the speculative fault updated mm->mmap_cache without mmap_sem, leaving it on a detached VMA" },
  { FL_DEFECT_NO_ACCESS_CHECK, "spf-access-check", "off",
    "the speculative fault did not check the VMA's permissions" },
  { FL_DEFECT_VMA_FREED, "vma-free", "immediate",
    "munmap freed the VMA at once instead of after an RCU grace period" },
  { FL_DEFECT_VMA_FREED, "spf-mmap-cache", "update",
    "the speculative fault updated mm->mmap_cache without mmap_sem, leaving it on a detached VMA" },
  { FL_DEFECT_TABLE_FREED, "spf-find-vma", "under-pte-lock",
    "the speculative fault took the PTE lock before finding the VMA and turned IRQs back on, "
    "so munmap's TLB flush did not wait for it" },
  { FL_DEFECT_SPIN_IRQS_OFF, "pte-map-lock", "spin-irqs-off",
    "pte_map_lock spun for the PTE lock with IRQs off, so its CPU could not take the "
    "TLB-flush IPI" },
  { FL_DEFECT_FILE_PUT, "vm-file-put", "immediate",
    "remove_vma put the VMA's file at once while only the VMA waited for the RCU grace "
    "period" },
  { FL_DEFECT_RCU, "rcu", "classic",
    "classic RCU runs readers with preemption off and takes a context switch for a quiescent "
    "state" },
};

/* The defect a kind of finding is, when its raiser does not say more. */
static FlDefect
defect_of (FlFindingKind kind)
{
  switch (kind)
    {
    case FL_FINDING_MISSED_SIGSEGV: case FL_FINDING_STALE_MAPPING:
      return FL_DEFECT_NO_ACCESS_CHECK;
    case FL_FINDING_USE_AFTER_FREE: return FL_DEFECT_VMA_FREED;   /* a file's says so itself */
    case FL_FINDING_FREED_WHILE_LOCKED: return FL_DEFECT_TABLE_FREED;
    case FL_FINDING_DEADLOCK: return FL_DEFECT_SPIN_IRQS_OFF;
    case FL_FINDING_SLEEP_IN_RCU: case FL_FINDING_RCU_EARLY_FREE: return FL_DEFECT_RCU;
    default: return FL_DEFECT_NONE;
    }
}

/* ", because <why> (key=value)" for every safeguard against `defect` the run has off. */
static void
append_because (FlSim *sim, FlDefect defect, GString *text)
{
  guint n = 0;
  for (gsize i = 0; i < G_N_ELEMENTS (safeguards); i++)
    {
      if (safeguards[i].defect != defect)
        continue;
      g_autofree char *value = fl_config_get (&sim->config, safeguards[i].key);
      if (g_strcmp0 (value, safeguards[i].unsafe) != 0)
        continue;
      g_string_append_printf (text, "%s%s (%s=%s)",
                              n == 0 ? (text->len ? ", because " : "Because ") : "; and ",
                              safeguards[i].why, safeguards[i].key, safeguards[i].unsafe);
      n++;
    }
  if (text->len && text->str[text->len - 1] != '.')
    g_string_append_c (text, '.');
}

/* The objects a finding's own object stands for, by kind. */
static FlFindingObjects
default_objects (FlSim *sim, FlFindingKind kind, guint32 obj)
{
  FlFindingObjects o = { 0, 0, -1, 0, FALSE, -1 };
  switch (kind)
    {
    case FL_FINDING_STALE_MAPPING: case FL_FINDING_MISSED_SIGSEGV:
    case FL_FINDING_RCU_EARLY_FREE:
      o.vma = obj;
      break;
    case FL_FINDING_FREED_WHILE_LOCKED:
      o.table = obj;
      o.ptl = TRUE;
      o.holder = obj < sim->st.sizes.ntables ? sim->st.tables[obj].ptl_holder : -1;
      break;
    case FL_FINDING_REFCOUNT:
      o.page = obj;
      break;
    default:
      break;
    }
  return o;
}

/**
 * fl_finding_explain:
 * @sim: the simulation
 * @f: a finding fl_finding() just made
 *
 * Gives @f what it knows by default: its own CPU and step as the cause, the objects its kind
 * names, and the unsafe switches that let it happen. Callers that know more change the cause
 * with fl_finding_caused_by() and the objects directly.
 */
void
fl_finding_explain (FlSim *sim, FlFinding *f)
{
  g_autoptr (GString) text = g_string_new (NULL);
  f->cause_cpu = f->cpu;
  f->cause_step = f->step;
  f->objects = default_objects (sim, f->kind, f->obj);
  append_because (sim, defect_of (f->kind), text);
  g_free (f->cause);
  f->cause = g_string_free (g_steal_pointer (&text), FALSE);
}

/**
 * fl_finding_caused_by:
 * @sim: the simulation
 * @f: (nullable): the finding (fl_finding()'s answer: %NULL when it was not new)
 * @cpu: the CPU whose action is the defect
 * @step: the step of that action, from 1
 * @defect: what kind of defect it is: which safeguards would have prevented it
 * @format: what that CPU did and what it did it against, as a sentence without its end
 *
 * The cause of @f is @cpu's action at @step; its sentence is @format followed by the unsafe
 * switches that let it happen.
 */
void
fl_finding_caused_by (FlSim *sim, FlFinding *f, guint cpu, guint64 step, FlDefect defect,
                      const char *format, ...)
{
  va_list args;
  if (f == NULL)
    return;
  g_autoptr (GString) text = g_string_new (NULL);
  va_start (args, format);
  g_string_append_vprintf (text, format, args);
  va_end (args);
  append_because (sim, defect, text);
  f->cause_cpu = cpu;
  f->cause_step = step;
  g_free (f->cause);
  f->cause = g_string_free (g_steal_pointer (&text), FALSE);
}

/* ---- who installed which PTE ---- */

/* A file remove_vma put at once (vm-file-put=immediate), by whom and when. */
typedef struct {
  guint64 step;
  guint32 file;
  guint32 cpu;
} FlFilePut;

/* The record's lists of who installed and who put what, empty (fl_record_new). */
void
fl_cause_init (FlRecord *rec)
{
  rec->pte_installs = g_array_new (FALSE, FALSE, sizeof (FlPteInstall));
  rec->file_puts = g_array_new (FALSE, FALSE, sizeof (FlFilePut));
}

/* A fault installed the PTE of `addr`: kept in step order, as the events are. */
void
fl_cause_note_pte (FlSim *sim, guint cpu, guint64 addr)
{
  guint32 table = fl_lookup_table (&sim->st, addr, 1);
  if (sim->replaying || table == 0)
    return;
  FlPteInstall in = { sim->stepping ? sim->st.g->step + 1 : sim->st.g->step, table,
                      (guint16) fl_walk_index (1, addr), (guint16) cpu };
  g_array_append_val (sim->rec->pte_installs, in);
}

/* A run simulated again from `step` on forgets what happened after it, as its events do. */
void
fl_cause_truncate (FlSim *sim, guint64 step)
{
  guint n = sim->rec->pte_installs->len;
  while (n > 0 && g_array_index (sim->rec->pte_installs, FlPteInstall, n - 1).step > step)
    n--;
  g_array_set_size (sim->rec->pte_installs, n);
  n = sim->rec->file_puts->len;
  while (n > 0 && g_array_index (sim->rec->file_puts, FlFilePut, n - 1).step > step)
    n--;
  g_array_set_size (sim->rec->file_puts, n);
}

void
fl_cause_note_file_put (FlSim *sim, guint cpu, guint32 file)
{
  if (sim->replaying)
    return;
  FlFilePut put = { sim->stepping ? sim->st.g->step + 1 : sim->st.g->step, file, cpu };
  g_array_append_val (sim->rec->file_puts, put);
}

/* The munmap that last put `file` at once: FALSE when none did. */
gboolean
fl_cause_file_putter (FlSim *sim, guint32 file, guint *cpu, guint64 *step)
{
  for (guint i = sim->rec->file_puts->len; i > 0; i--)
    {
      const FlFilePut *put = &g_array_index (sim->rec->file_puts, FlFilePut, i - 1);
      if (put->file == file)
        {
          *cpu = put->cpu;
          *step = put->step;
          return TRUE;
        }
    }
  return FALSE;
}

/* The fault that last installed PTE `index` of `table`: FALSE when none did (the scenario
 * set it up, or a writer put it there). */
gboolean
fl_cause_pte_installer (FlSim *sim, guint32 table, guint index, guint *cpu, guint64 *step)
{
  for (guint i = sim->rec->pte_installs->len; i > 0; i--)
    {
      const FlPteInstall *in = &g_array_index (sim->rec->pte_installs, FlPteInstall, i - 1);
      if (in->table == table && in->index == index)
        {
          *cpu = in->cpu;
          *step = in->step;
          return TRUE;
        }
    }
  return FALSE;
}
