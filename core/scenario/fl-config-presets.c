/* fl-config-presets.c — keys that set several switches at once: `spf` (every repair of the
 * v2 patch) and `machine` (a measured cost table, and for a named box its topology).
 *
 * A preset is not stored: what it set is, so a scenario or a run written back names the
 * switches themselves, and one of them set afterwards wins as it does in a file. */
#include "fl-config-presets.h"

#include <string.h>

/* ---- spf: the repairs later versions of the patch made, each its own switch ---- */

static const FlSetting spf_repaired[] = {
  { "spf-mmap-cache", "leave" }, { "spf-find-vma", "before-pte-lock" },
  { "spf-access-check", "on" }, { "mprotect-seqcount", "bracketed" }, { "vm-file-put", "rcu" },
  { NULL, NULL },
};
static const FlSetting spf_as_posted[] = {
  { "spf-mmap-cache", "update" }, { "spf-find-vma", "under-pte-lock" },
  { "spf-access-check", "off" }, { "mprotect-seqcount", "unbracketed" },
  { "vm-file-put", "immediate" }, { NULL, NULL },
};

/* ---- machine: cost tables from published measurements ----
 *
 * westmere-ex: David, Guerraoui, Trigonakis, "Everything you always wanted to know about
 *   synchronization but were afraid to ask", SOSP 2013 — a 4-socket Xeon E7-4870 at 2.13 GHz:
 *   L1 3, LLC 44, DRAM 355 cycles; a line from a core of the same socket 109/115/120 (load,
 *   store, CAS), from one hop away 289/320/324. The model's default; its topology follows
 *   `cpus` (2 × 4 by default, the 2010 benchmarks' shape).
 * nehalem-ep: a 2-socket Xeon 5500 (X5570, 2.93 GHz), the class of machine the 2010 numbers
 *   were taken on: Intel's "Performance Analysis Guide for Intel Core i7 Processor and Intel
 *   Xeon 5500 processors" (D. Levinthal, 2009) gives L1 ~4, L3 hit ~40, a line modified in
 *   another core of the socket ~75, a remote L3 ~100-300 cycles, local DRAM ~60 ns (176
 *   cycles at 2.93 GHz). A modified remote line needs the other socket's core snooped, so it
 *   takes the top of that range (300). Stores and atomics add what David et al. measured on
 *   top of a load (+6 and +11 within a socket, +31 and +35 across), our carry-over.
 * nehalem-ex-8x8: eight sockets of eight cores (Xeon X7560, 2010), 64 CPUs; the Westmere-EX
 *   table (its 32 nm successor on the same uncore and QPI links, the closest measured).
 * westmere-ex-4x10: the machine David et al. measured, four sockets of ten cores.
 * The named boxes are NUMA machines, a memory node per socket (numa=per-socket); westmere-ex
 * keeps the model's one zone. */

#define WESTMERE_EX_COSTS \
  { "cost.l1-hit", "3" }, { "cost.llc", "44" }, { "cost.dram", "355" }, \
  { "cost.local-load", "109" }, { "cost.local-store", "115" }, { "cost.local-rmw", "120" }, \
  { "cost.remote-load", "289" }, { "cost.remote-store", "320" }, { "cost.remote-rmw", "324" }, \
  { "cost.hold", "44" }, { "cost.crossing", "90" }, { "cost.mhz", "2130" }

/* one zone, so that choosing it after a NUMA box gives the default machine's memory back */
static const FlSetting westmere_ex[] = { WESTMERE_EX_COSTS, { "numa", "off" }, { NULL, NULL } };
static const FlSetting westmere_ex_4x10[] = {
  WESTMERE_EX_COSTS, { "sockets", "4" }, { "cores-per-socket", "10" }, { "numa", "per-socket" },
  { NULL, NULL },
};
static const FlSetting nehalem_ex_8x8[] = {
  WESTMERE_EX_COSTS, { "sockets", "8" }, { "cores-per-socket", "8" }, { "numa", "per-socket" },
  { NULL, NULL },
};
static const FlSetting nehalem_ep[] = {
  { "cost.l1-hit", "4" }, { "cost.llc", "40" }, { "cost.dram", "176" },
  { "cost.local-load", "75" }, { "cost.local-store", "81" }, { "cost.local-rmw", "86" },
  { "cost.remote-load", "300" }, { "cost.remote-store", "331" }, { "cost.remote-rmw", "335" },
  /* the hold is an L3 round trip (docs/model.md): this machine's L3 */
  { "cost.hold", "40" }, { "cost.crossing", "112" }, { "cost.mhz", "2930" },
  { "sockets", "2" }, { "cores-per-socket", "4" }, { "numa", "per-socket" }, { NULL, NULL },
};

static const FlPresetValue spf_values[] = {
  { "repaired", N_("the repairs later versions made: the safe design"), spf_repaired },
  { "v2-as-posted", N_("the patch as posted, with its bugs"), spf_as_posted },
};

static const FlPresetValue machine_values[] = {
  { "westmere-ex", N_("Westmere-EX line transfers (David et al., SOSP 2013); sockets follow the CPUs"),
    westmere_ex },
  { "nehalem-ep", N_("a 2010 two-socket Xeon 5500, 2 × 4 cores (Intel's Xeon 5500 latencies)"),
    nehalem_ep },
  { "nehalem-ex-8x8", N_("eight sockets of eight cores (Xeon X7560, 2010), Westmere-EX costs"),
    nehalem_ex_8x8 },
  { "westmere-ex-4x10", N_("the four sockets of ten cores David et al. measured"),
    westmere_ex_4x10 },
};

static const FlPreset presets[] = {
  { "spf", "repaired|v2-as-posted", N_("Every repair of the speculative fault patch v2 at once"),
    spf_values, G_N_ELEMENTS (spf_values), "mixed" },
  { "machine", "westmere-ex|nehalem-ep|nehalem-ex-8x8|westmere-ex-4x10",
    N_("The machine: a measured cost table and, for a named box, its sockets and cores"),
    machine_values, G_N_ELEMENTS (machine_values), "custom" },
};

const FlPreset *
fl_preset_lookup (const char *key)
{
  for (gsize i = 0; key != NULL && i < G_N_ELEMENTS (presets); i++)
    if (strcmp (presets[i].key, key) == 0)
      return &presets[i];
  return NULL;
}

const FlPreset *
fl_preset_nth (guint i)
{
  return i < G_N_ELEMENTS (presets) ? &presets[i] : NULL;
}

const FlPresetValue *
fl_preset_value (const FlPreset *preset, const char *value)
{
  for (guint i = 0; value != NULL && i < preset->n_values; i++)
    if (strcmp (preset->values_of[i].name, value) == 0)
      return &preset->values_of[i];
  return NULL;
}
