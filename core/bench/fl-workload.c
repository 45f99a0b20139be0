/* fl-workload.c — Kamezawa's multi-fault and will-it-scale page_fault1, for N CPUs. */
#include "fl-workload.h"

#include <string.h>

/* Zijlstra measured his v2 patch as posted (its speculative find_vma updates mm->mmap_cache
 * and runs under the PTE lock): the benchmark does too; the window's default is the repaired
 * patch. The locked path runs none of the speculative code, so `spf` changes nothing there. */
static const FlBenchConfig configs[] = {
  { "baseline", "locked", "generic", "repaired", 1.00, NULL, 1.00 },
  { "xadd", "locked", "xadd", "repaired", 3.10, NULL, 0 },
  { "spf", "speculative", "generic", "v2-as-posted", 3.36, NULL, 0 },
  { "xadd+spf", "speculative", "xadd", "v2-as-posted", 3.55, NULL, 0 },
  /* Kamezawa measured his v3 as posted (atomic_inc_not_zero), with the generic rwsem of
   * 2.6.33-rc2, on multi-fault-all-split: 17,481,387 → 35,949,073 faults in 60 s */
  { "refcount", "speculative-refcount", "generic", "repaired", 0, "as-posted", 2.06 },
};

const FlBenchConfig *
fl_bench_configs (guint *n)
{
  *n = G_N_ELEMENTS (configs);
  return configs;
}

const FlBenchConfig *
fl_bench_config (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (configs); i++)
    if (strcmp (configs[i].name, name) == 0)
      return &configs[i];
  return NULL;
}

/* Sets the switches that make up one of the compared designs; the rest stays as it was. */
void
fl_bench_config_apply (const FlBenchConfig *bench, FlConfig *config)
{
  gboolean ok = fl_config_set (config, "fault-path", bench->fault_path, NULL)
                && fl_config_set (config, "rwsem", bench->rwsem, NULL)
                && fl_config_set (config, "spf", bench->spf, NULL)
                && fl_config_set (config, "vma-refcount",
                                  bench->vma_refcount ? bench->vma_refcount : "biased", NULL);
  g_assert (ok);
}

/* The published ratio of a design on a workload: Zijlstra's table is for multi-fault,
 * Kamezawa's figure for multi-fault-all-split; 0 when nobody published one. */
double
fl_bench_published (const FlBenchConfig *bench, const char *workload)
{
  if (g_strcmp0 (workload, "multi-fault") == 0)
    return bench->published;
  if (g_strcmp0 (workload, "multi-fault-all-split") == 0)
    return bench->published_split;
  return 0;
}

/* Who published the ratios for a workload, for a table's heading; NULL when nobody did. */
const char *
fl_bench_published_by (const char *workload)
{
  if (g_strcmp0 (workload, "multi-fault") == 0)
    return "published (Zijlstra, 2 sockets, 8 Jan 2010)";
  if (g_strcmp0 (workload, "multi-fault-all-split") == 0)
    return "published (Kamezawa, 2 sockets, 25 Dec 2009)";
  return NULL;
}

/* The kernel a workload's published figure was measured on, as switches beyond the designs',
 * for the bench's heading; NULL for 2.6.32 as the model has it by default. Kamezawa's kernels
 * (2.6.32 and 2.6.33-rc2) had the memory controller built in and charged every page
 * (docs/model.md, "multi-fault-all-split"); Zijlstra's table had none. */
const char *
fl_workload_kernel (const char *id)
{
  if (g_strcmp0 (id, "multi-fault-all-split") == 0)
    return "memcg=on";
  return NULL;
}

GStrv
fl_workload_ids (void)
{
  const char *ids[] = { "multi-fault", "multi-fault-all-split", "will-it-scale-pf1", NULL };
  return g_strdupv ((char **) ids);
}

/* Only the CPUs: the topology follows them (two sockets, as on the 2010 machines, that widen
 * past four cores each: fl-config.c), so `--set sockets=8` on a bench scenario still works. */
static void
topology (GString *t, guint cpus)
{
  g_string_append_printf (t, "cpus=%u\n", cpus);
}

#define BASE G_GUINT64_CONSTANT (0x7f0000000000)

/* Each thread maps its own 8 MiB private region, next to the others', so 2.6.32's
 * vma_merge makes them all one VMA; then it writes a byte in every page of its first 2 MiB
 * (one page table), and MADV_DONTNEEDs them; `rounds` times. */
static void
multi_fault (GString *t, guint cpus, guint rounds)
{
  g_string_append (t, "[mm]\n");
  for (guint i = 0; i < cpus; i++)
    g_string_append_printf (t, "\n[cpu%u]\nbase=0x%" G_GINT64_MODIFIER "x\nops=mmap base 0x800000 "
                            "rw- anon; repeat %u { repeat 512 { fault +4096 write }; "
                            "madvise-dontneed base 0x200000 }\n",
                            i, BASE + (guint64) i * 0x800000, rounds);
}

/* Kamezawa's multi-fault-all-split (Dec 2009): one region of 8 MiB per thread, each part
 * ending in a one-page PROT_NONE hole so no two threads share a VMA; every thread waits at a
 * barrier before and after writing its first 2 MiB, then MADV_DONTNEEDs them. */
static void
multi_fault_all_split (GString *t, guint cpus, guint rounds)
{
  g_string_append (t, "[mm]\n");
  for (guint i = 0; i < cpus; i++)
    {
      guint64 start = BASE + (guint64) i * 0x800000, hole = start + 0x800000 - 0x1000;
      g_string_append_printf (t, "vma=0x%" G_GINT64_MODIFIER "x-0x%" G_GINT64_MODIFIER "x rw- anon\n"
                              "vma=0x%" G_GINT64_MODIFIER "x-0x%" G_GINT64_MODIFIER "x --- anon\n",
                              start, hole, hole, hole + 0x1000);
    }
  for (guint i = 0; i < cpus; i++)
    g_string_append_printf (t, "\n[cpu%u]\nbase=0x%" G_GINT64_MODIFIER "x\nops=repeat %u { barrier; "
                            "repeat 512 { fault +4096 write }; barrier; madvise-dontneed base "
                            "0x200000 }\n", i, BASE + (guint64) i * 0x800000, rounds);
}

/* Each task maps 128 MiB, writes every page, unmaps it; `rounds` times. */
static void
page_fault1 (GString *t, guint cpus, guint rounds)
{
  g_string_append (t, "[mm]\n");
  for (guint i = 0; i < cpus; i++)
    g_string_append_printf (t, "\n[cpu%u]\nbase=0x%" G_GINT64_MODIFIER "x\nops=repeat %u { mmap base "
                            "0x8000000 rw- anon; repeat 32768 { fault +4096 write }; munmap base "
                            "0x8000000 }\n", i, BASE + (guint64) i * 0x10000000, rounds);
}

/**
 * fl_workload_build:
 * @id: "multi-fault", "multi-fault-all-split" or "will-it-scale-pf1"
 * @cpus: threads, one per CPU
 * @rounds: iterations of each thread's loop
 * @error: set for an unknown workload
 *
 * Returns: (transfer full): the workload as a scenario (locked faults, generic rwsem: the
 *   2.6.32 baseline, with the switches of fl_workload_kernel(); the benchmark sets the
 *   design switches).
 */
FlScenario *
fl_workload_build (const char *id, guint cpus, guint rounds, GError **error)
{
  g_autoptr (GString) t = g_string_new (NULL);
  g_string_append_printf (t, "[scenario]\ntitle=%s on %u CPUs\nseed=1\n\n[config]\n", id, cpus);
  topology (t, cpus);
  g_string_append (t, "fault-path=locked\nrwsem=generic\noracle=at-end\n");
  if (fl_workload_kernel (id) != NULL)
    g_string_append_printf (t, "%s\n", fl_workload_kernel (id));
  g_string_append (t, "\n");
  if (strcmp (id, "multi-fault") == 0)
    multi_fault (t, cpus, rounds);
  else if (strcmp (id, "multi-fault-all-split") == 0)
    multi_fault_all_split (t, cpus, rounds);
  else if (strcmp (id, "will-it-scale-pf1") == 0)
    page_fault1 (t, cpus, rounds);
  else
    {
      g_set_error (error, FL_SCENARIO_ERROR, FL_SCENARIO_ERROR_NOT_FOUND,
                   "unknown workload '%s' (workloads: multi-fault, multi-fault-all-split, "
                   "will-it-scale-pf1)", id);
      return NULL;
    }
  FlScenario *sc = fl_scenario_parse (t->str, id, error);
  if (sc != NULL)
    {
      g_free (sc->id);
      sc->id = g_strdup (id);
    }
  return sc;
}
