/* fl-config.c — the design switches, their names, defaults and parsing. */
#include "fl-config.h"
#include "fl-config-presets.h"

#include <glib/gi18n-lib.h>
#include <string.h>

G_DEFINE_QUARK (fl-config-error-quark, fl_config_error)

/* The default machine: two sockets of four cores, like the 2010 measurements' (REFERENCE.md). */
#define DEFAULT_SOCKETS 2u
#define DEFAULT_CORES   4u

/* Each key with a one-line description, and one for each value of an enum, for the switches
 * menu and --set's help and errors. Marked for translation here, translated by whoever shows
 * them (the core prints them as they are). */
typedef struct {
  const char *key;
  const char *values;      /* "a|b" for enums, NULL for numbers */
  gsize       offset;      /* into FlConfig */
  guint       min, max;    /* for numbers */
  const char *about;       /* what the key decides */
  const char *value_about[3]; /* for enums: what each value means, in the order of values */
} FlKeyInfo;

#define COST(field) G_STRUCT_OFFSET (FlConfig, cost) + G_STRUCT_OFFSET (FlCostTable, field)
#define NUM(name, off, lo, hi, about) { name, NULL, off, lo, hi, about, { NULL, NULL, NULL } }
#define ENUM(name, values, off, about, a, b) { name, values, off, 0, 0, about, { a, b, NULL } }
#define ENUM3(name, values, off, about, a, b, c) { name, values, off, 0, 0, about, { a, b, c } }
#define CYCLES(name, field, hi, about) NUM (name, COST (field), 0, hi, about)

static const FlKeyInfo keys[] = {
  NUM ("cpus", G_STRUCT_OFFSET (FlConfig, cpus), 1, FL_MAX_CPUS,
       N_("Virtual CPUs the scenario runs on")),
  NUM ("sockets", G_STRUCT_OFFSET (FlConfig, sockets), 1, FL_MAX_SOCKETS,
       N_("Sockets the CPUs are spread over: a cache line crossing them costs more")),
  NUM ("cores-per-socket", G_STRUCT_OFFSET (FlConfig, cores_per_socket), 1, FL_MAX_CPUS,
       N_("CPUs on each socket")),
  ENUM ("numa", "off|per-socket", G_STRUCT_OFFSET (FlConfig, numa),
        N_("How the machine's memory is laid out"),
        N_("one zone for the whole machine, with one zone->lock"),
        N_("a memory node per socket, each with its zone and zone->lock; CPUs allocate from their own")),
  ENUM3 ("fault-path", "locked|speculative|speculative-refcount",
         G_STRUCT_OFFSET (FlConfig, fault_path),
         N_("How a page fault finds its VMA"),
         N_("under mmap_sem held for reading, as 2.6.32 does"),
         N_("first without mmap_sem (the speculative fault patch), retried under it when in doubt"),
         N_("first by an RCU walk of the VMA tree, the VMA pinned by a reference count "
            "(Kamezawa's design)")),
  ENUM ("rwsem", "generic|xadd", G_STRUCT_OFFSET (FlConfig, rwsem),
        N_("How mmap_sem is built"),
        N_("a spinlock guarding a count and a wait list, as x86-64 used in 2.6.32"),
        N_("one count word changed by a locked xadd, as from 2.6.34")),
  ENUM ("vma-free", "rcu|immediate", G_STRUCT_OFFSET (FlConfig, vma_free),
        N_("When munmap frees an unlinked VMA"),
        N_("after an RCU grace period: a speculative fault still reading it is safe"),
        N_("at once: a speculative fault may read freed memory")),
  ENUM ("vm-file-put", "rcu|immediate", G_STRUCT_OFFSET (FlConfig, vm_file_put),
        N_("When munmap drops an unlinked VMA's reference to its file"),
        N_("with the VMA, after the RCU grace period: a speculative fault's file stays open"),
        N_("at once in remove_vma, as v2 did: a speculative file fault may read a file already put")),
  ENUM ("spf-seqcheck", "off|on", G_STRUCT_OFFSET (FlConfig, spf_seqcheck),
        N_("Whether a speculative fault checks the VMA's sequence count"),
        N_("no check: a change to the VMA under the fault goes unnoticed"),
        N_("checked at every pte_map_lock: a changed VMA means retry")),
  ENUM ("spf-mmap-cache", "leave|update", G_STRUCT_OFFSET (FlConfig, spf_mmap_cache),
        N_("What the speculative find_vma does with mm->mmap_cache"),
        N_("leaves it alone, as later versions of the patch do"),
        N_("writes it without mmap_sem, as v2 did: it races with munmap")),
  ENUM ("spf-find-vma", "before-pte-lock|under-pte-lock", G_STRUCT_OFFSET (FlConfig, spf_find_vma),
        N_("When the speculative fault looks its VMA up"),
        N_("before taking the PTE lock, then re-checked under it (the repair)"),
        N_("holding the PTE lock with IRQs back on, as v2 did")),
  ENUM ("spf-access-check", "off|on", G_STRUCT_OFFSET (FlConfig, spf_access_check),
        N_("Whether the speculative fault checks the VMA allows the access"),
        N_("no check, as v2: a fault the VMA forbids can succeed"),
        N_("checked as the locked path checks it")),
  ENUM ("mprotect-seqcount", "bracketed|unbracketed",
        G_STRUCT_OFFSET (FlConfig, mprotect_seqcount),
        N_("Whether mprotect changes a VMA inside a write section of its sequence count"),
        N_("inside: a speculative fault sees the change"),
        N_("outside, as v2: an mprotect without a split is invisible to it")),
  ENUM ("rcu", "preemptible|classic", G_STRUCT_OFFSET (FlConfig, rcu),
        N_("The RCU the kernel is built with"),
        N_("TREE_PREEMPT_RCU, which the patch selects: a blocked reader holds the grace period"),
        N_("TREE_RCU: readers run with preemption off and never block")),
  ENUM ("pte-map-lock", "trylock-loop|spin-irqs-off", G_STRUCT_OFFSET (FlConfig, pte_map_lock),
        N_("How pte_map_lock takes the PTE lock"),
        N_("spin_trylock in a loop, IRQs on between tries, as in v2"),
        N_("spin_lock with IRQs off: deadlocks against a TLB-flush IPI")),
  ENUM ("pin-page-tables", "irqs-off|none", G_STRUCT_OFFSET (FlConfig, pin_page_tables),
        N_("How the speculative walk keeps page tables from being freed under it"),
        N_("IRQs off while walking: the TLB flush before the free waits for it"),
        N_("unprotected: a page table may be freed under the walk")),
  ENUM ("rss", "shared-atomic|per-thread", G_STRUCT_OFFSET (FlConfig, rss),
        N_("How the RSS counters are kept"),
        N_("atomic counters in mm_struct every CPU updates, as 2.6.32"),
        N_("a per-thread cache folded in now and then, as 2.6.34")),
  ENUM3 ("vma-refcount", "biased|as-posted|no-wait", G_STRUCT_OFFSET (FlConfig, vma_refcount),
         N_("How munmap waits for the references of Kamezawa's speculative faults"),
         N_("a large bias subtracted, the last reference wakes the waiter (his fix)"),
         N_("the count waited down to zero, woken at one, as posted: the last wake-up is lost"),
         N_("no wait at all: the VMA goes while a fault still uses it")),
  ENUM ("memcg", "off|on", G_STRUCT_OFFSET (FlConfig, memcg),
        N_("Whether every page is charged to a memory cgroup, as in Kamezawa's 2.6.33-rc2"),
        N_("no memory controller: the 2.6.32 kernels Zijlstra measured"),
        N_("the task is in a memory cgroup: each new page is charged to it and uncharged when freed")),
  ENUM ("oracle", "every-step|at-end", G_STRUCT_OFFSET (FlConfig, oracle),
        N_("When the oracle checks the invariants"),
        N_("after every step"),
        N_("only at the end of the run: faster, findings come later")),
  CYCLES ("cost.l1-hit", l1_hit, 100000, N_("Cycles for a line already held in a usable state")),
  CYCLES ("cost.llc", llc, 100000, N_("Cycles for a read served by the socket's last-level cache")),
  CYCLES ("cost.local-load", local_load, 100000,
          N_("Cycles for a load of a line from a core of the same socket")),
  CYCLES ("cost.local-store", local_store, 100000,
          N_("Cycles for a store to a line held by a core of the same socket")),
  CYCLES ("cost.local-rmw", local_rmw, 100000,
          N_("Cycles for an atomic on a line held by a core of the same socket")),
  CYCLES ("cost.remote-load", remote_load, 100000,
          N_("Cycles for a load of a line from the other socket")),
  CYCLES ("cost.remote-store", remote_store, 100000,
          N_("Cycles for a store to a line held on the other socket")),
  CYCLES ("cost.remote-rmw", remote_rmw, 100000,
          N_("Cycles for an atomic on a line held on the other socket")),
  CYCLES ("cost.dram", dram, 100000, N_("Cycles for a line nobody holds: from memory")),
  CYCLES ("cost.locked-rmw", locked_rmw, 100000,
          N_("Cycles for an uncontended locked instruction on a line already owned")),
  CYCLES ("cost.invalidate-extra", invalidate_extra, 100000,
          N_("Cycles for each further sharer a store or atomic must invalidate")),
  CYCLES ("cost.exception", exception, 1000000,
          N_("Cycles for a fault's entry and exit (exception frame, iret)")),
  CYCLES ("cost.zero-page", zero_page, 1000000, N_("Cycles for clearing one 4 KiB page")),
  CYCLES ("cost.ipi", ipi, 1000000,
          N_("Cycles for sending and taking one inter-processor interrupt")),
  CYCLES ("cost.swap-io", swap_io, 100000000,
          N_("Cycles a major fault sleeps reading one page back from swap")),
  CYCLES ("cost.op-overhead", op_overhead, 1000000,
          N_("Cycles of user-space instructions between two operations")),
  CYCLES ("cost.step", step, 100000,
          N_("Cycles of the instructions of one modeled step beyond its memory access")),
  NUM ("cost.occupancy", COST (occupancy), 1, 400,
       N_("Percent of a transfer's latency the line stays busy for the next request")),
  CYCLES ("cost.hold", hold, 100000,
          N_("Cycles a writer's next access is served by its own copy, ahead of the queue")),
  CYCLES ("cost.crossing", crossing, 100000,
          N_("Cycles a request takes to reach a line held on another socket; requests from "
             "that socket issued meanwhile are served first (0: in the order issued)")),
  NUM ("cost.mhz", COST (mhz), 1, 100000, N_("The simulated clock in MHz, for times and rates")),
  NUM ("budget", G_STRUCT_OFFSET (FlConfig, budget), 0, G_MAXUINT32,
       N_("Steps a run may take before it stops (0: no limit)")),
};

static const char *const key_names[] = {
  "cpus", "sockets", "cores-per-socket", "numa", "fault-path", "rwsem", "vma-free", "vm-file-put",
  "spf-seqcheck",
  "spf-mmap-cache", "spf-find-vma", "spf-access-check",
  "mprotect-seqcount", "rcu", "pte-map-lock", "pin-page-tables", "rss", "vma-refcount",
  "memcg", "oracle",
  "cost.l1-hit", "cost.llc", "cost.local-load", "cost.local-store", "cost.local-rmw",
  "cost.remote-load", "cost.remote-store", "cost.remote-rmw", "cost.dram", "cost.locked-rmw",
  "cost.invalidate-extra", "cost.exception", "cost.zero-page", "cost.ipi", "cost.swap-io",
  "cost.op-overhead", "cost.step", "cost.occupancy", "cost.hold", "cost.crossing", "cost.mhz",
  /* not a design switch: after the costs, so fl_config_describe() leaves it out */
  "budget", NULL
};

G_STATIC_ASSERT (G_N_ELEMENTS (keys) + 1 == G_N_ELEMENTS (key_names));

/**
 * fl_config_presets:
 *
 * Returns: the keys that set several switches at once (`spf`, `machine`): accepted by
 *   fl_config_set() and fl_config_get() but not among fl_config_keys(), since a preset is not
 *   stored itself, what it set is.
 */
const char *const *
fl_config_presets (void)
{
  static const char *names[8];
  static gsize ready = 0;
  if (g_once_init_enter (&ready))
    {
      for (guint i = 0; fl_preset_nth (i) != NULL && i + 1 < G_N_ELEMENTS (names); i++)
        names[i] = fl_preset_nth (i)->key;
      g_once_init_leave (&ready, 1);
    }
  return names;
}

/**
 * fl_config_preset_keys:
 * @key: a key accepted by fl_config_set()
 * @value: a value of it
 *
 * Returns: (transfer full) (nullable): the keys @value of @key sets when @key is a preset
 *   (`spf`, `machine`) and @value one of its values, else %NULL
 */
GStrv
fl_config_preset_keys (const char *key, const char *value)
{
  const FlPreset *preset = fl_preset_lookup (key);
  const FlPresetValue *v = preset ? fl_preset_value (preset, value) : NULL;
  if (v == NULL)
    return NULL;
  g_autoptr (GStrvBuilder) set = g_strv_builder_new ();
  for (const FlSetting *s = v->settings; s->key != NULL; s++)
    g_strv_builder_add (set, s->key);
  return g_strv_builder_end (set);
}

/**
 * fl_config_init_defaults:
 * @config: the configuration to fill
 *
 * The safe design of the v2 patch on the 2010 test machine: speculative faults with every
 * safeguard on, the generic rwsem x86-64 used in 2.6.32, 2 sockets × 4 cores, and the cost
 * table of REFERENCE.md (Westmere-EX line transfers, David et al., SOSP 2013).
 */
void
fl_config_init_defaults (FlConfig *config)
{
  memset (config, 0, sizeof *config);
  config->cpus = 2;
  config->sockets = DEFAULT_SOCKETS;
  config->cores_per_socket = DEFAULT_CORES;
  config->fault_path = FL_FAULT_PATH_SPECULATIVE;
  config->rwsem = FL_RWSEM_GENERIC;
  config->vma_free = FL_VMA_FREE_RCU;
  config->vm_file_put = FL_VM_FILE_PUT_RCU;
  config->spf_seqcheck = TRUE;
  config->spf_access_check = TRUE;
  config->pte_map_lock = FL_PTE_MAP_LOCK_TRYLOCK_LOOP;
  config->pin_page_tables = FL_PIN_PAGE_TABLES_IRQS_OFF;
  config->rss = FL_RSS_SHARED_ATOMIC;
  config->oracle = FL_ORACLE_EVERY_STEP;
  config->cost = (FlCostTable) {
    .l1_hit = 3, .llc = 44, .local_load = 109, .local_store = 115, .local_rmw = 120,
    .remote_load = 289, .remote_store = 320, .remote_rmw = 324, .dram = 355,
    .locked_rmw = 18, .invalidate_extra = 20, .exception = 700, .zero_page = 1000,
    .ipi = 1500, .swap_io = 200000, .op_overhead = 40, .step = 130, .occupancy = 100,
    .hold = 44, .crossing = 90, .mhz = 2130,
  };
  config->budget = FL_DEFAULT_BUDGET;
}

static const FlKeyInfo *
lookup (const char *key)
{
  for (gsize i = 0; i < G_N_ELEMENTS (keys); i++)
    if (strcmp (keys[i].key, key) == 0)
      return &keys[i];
  return NULL;
}

static guint *
field (FlConfig *config, const FlKeyInfo *info)
{
  /* Every switch is stored as a guint-sized field: enums and gboolean alike. */
  return (guint *) ((char *) config + info->offset);
}

const char *const *
fl_config_keys (void)
{
  return key_names;
}

/**
 * fl_config_valid_values:
 * @key: a key from fl_config_keys(), or `spf`
 *
 * Returns: the valid values of @key as "a|b", "a number" for numeric keys, or %NULL for an
 *   unknown key.
 */
const char *
fl_config_valid_values (const char *key)
{
  const FlPreset *preset = fl_preset_lookup (key);
  if (preset != NULL)
    return preset->values;
  const FlKeyInfo *info = lookup (key);
  if (info == NULL)
    return NULL;
  return info->values ? info->values : "a number";
}

/* Every setting of the value, or none: @config is unchanged when one fails. */
static gboolean
set_preset (FlConfig *config, const FlPreset *preset, const char *value, GError **error)
{
  const FlPresetValue *v = fl_preset_value (preset, value);
  if (v == NULL)
    {
      g_auto (GStrv) names = g_strsplit (preset->values, "|", -1);
      g_autofree char *valid = g_strjoinv (", ", names);
      g_autoptr (GString) about = g_string_new (NULL);
      for (guint i = 0; i < preset->n_values; i++)
        g_string_append_printf (about, "; %s: %s", preset->values_of[i].name,
                                preset->values_of[i].about);
      g_set_error (error, FL_CONFIG_ERROR, FL_CONFIG_ERROR_BAD_VALUE,
                   "invalid value '%s' for '%s' (valid: %s). %s%s", value, preset->key, valid,
                   preset->about, about->str);
      return FALSE;
    }
  FlConfig changed = *config;
  for (const FlSetting *s = v->settings; s->key != NULL; s++)
    if (!fl_config_set (&changed, s->key, s->value, error))
      return FALSE;
  *config = changed;
  return TRUE;
}

/* The value whose settings all hold, the one with the most settings when several do (a
 * named box holds its cost table's settings and its topology's). */
static char *
get_preset (const FlConfig *config, const FlPreset *preset)
{
  const FlPresetValue *best = NULL;
  guint best_count = 0;
  for (guint i = 0; i < preset->n_values; i++)
    {
      guint count = 0;
      gboolean all = TRUE;
      for (const FlSetting *s = preset->values_of[i].settings; s->key != NULL && all; s++, count++)
        {
          g_autofree char *now = fl_config_get (config, s->key);
          all = g_strcmp0 (now, s->value) == 0;
        }
      if (all && count > best_count)
        {
          best = &preset->values_of[i];
          best_count = count;
        }
    }
  return g_strdup (best ? best->name : preset->unmatched);
}

/**
 * fl_config_key_about:
 * @key: a key from fl_config_keys(), or `spf`
 *
 * Returns: (nullable): a one-line description of what @key decides, in English (marked for
 *   translation: show it through gettext), or %NULL for an unknown key
 */
const char *
fl_config_key_about (const char *key)
{
  g_return_val_if_fail (key != NULL, NULL);
  const FlPreset *preset = fl_preset_lookup (key);
  if (preset != NULL)
    return preset->about;
  const FlKeyInfo *info = lookup (key);
  return info ? info->about : NULL;
}

/**
 * fl_config_value_about:
 * @key: a key from fl_config_keys(), or `spf`
 * @value: one of its values
 *
 * Returns: (nullable): a one-line description of what @value of @key means, in English
 *   (marked for translation), or %NULL for a number or an unknown key or value
 */
const char *
fl_config_value_about (const char *key, const char *value)
{
  g_return_val_if_fail (key != NULL && value != NULL, NULL);
  const FlPreset *preset = fl_preset_lookup (key);
  if (preset != NULL)
    {
      const FlPresetValue *v = fl_preset_value (preset, value);
      return v ? v->about : NULL;
    }
  const FlKeyInfo *info = lookup (key);
  if (info == NULL || info->values == NULL)
    return NULL;
  g_auto (GStrv) names = g_strsplit (info->values, "|", -1);
  for (guint i = 0; i < G_N_ELEMENTS (info->value_about) && names[i] != NULL; i++)
    if (strcmp (names[i], value) == 0)
      return info->value_about[i];
  return NULL;
}

/**
 * fl_config_set:
 * @config: the configuration to change
 * @key: a key from fl_config_keys(), or `spf` (the v2 repairs at once)
 * @value: its new value as text
 * @error: set to a message naming the key and its valid values when either is wrong
 *
 * Returns: %TRUE when @key was known and @value valid; @config is unchanged otherwise.
 */
/* The topology of the default machine (2 sockets × 4 cores, as in 2010) is a floor: with
 * more CPUs than it holds, whichever of sockets and cores-per-socket nobody set grows to hold
 * them — cores first, as the bench's machines widen their two sockets (fl-workload.c) — so
 * `cpus=64` alone is 2 × 32 and `cpus=64 sockets=8` is 8 × 8, in whatever order the keys
 * come. Both set and too small is the user's to fix (fl_config_validate says so). */
static void
fit_topology (FlConfig *config)
{
  gboolean sockets_given = (config->topology_given & FL_TOPOLOGY_SOCKETS_GIVEN) != 0;
  gboolean cores_given = (config->topology_given & FL_TOPOLOGY_CORES_GIVEN) != 0;

  if (!cores_given)
    {
      guint sockets = sockets_given ? config->sockets : DEFAULT_SOCKETS;
      config->cores_per_socket = MAX (DEFAULT_CORES, (config->cpus + sockets - 1) / sockets);
    }
  if (!sockets_given)
    {
      guint needed = (config->cpus + config->cores_per_socket - 1) / config->cores_per_socket;
      config->sockets = MIN (MAX (DEFAULT_SOCKETS, needed), (guint) FL_MAX_SOCKETS);
    }
}

gboolean
fl_config_set (FlConfig *config, const char *key, const char *value, GError **error)
{
  g_return_val_if_fail (config != NULL && key != NULL && value != NULL, FALSE);

  const FlPreset *preset = fl_preset_lookup (key);
  if (preset != NULL)
    return set_preset (config, preset, value, error);
  const FlKeyInfo *info = lookup (key);
  if (info == NULL)
    {
      g_autofree char *all = g_strjoinv (", ", (char **) key_names);
      g_autofree char *presets = g_strjoinv (", ", (char **) fl_config_presets ());
      g_set_error (error, FL_CONFIG_ERROR, FL_CONFIG_ERROR_UNKNOWN_KEY,
                   "unknown configuration key '%s' (valid keys: %s, %s)", key, presets, all);
      return FALSE;
    }
  if (info->values != NULL)
    {
      g_auto (GStrv) names = g_strsplit (info->values, "|", -1);
      for (guint i = 0; names[i] != NULL; i++)
        if (strcmp (names[i], value) == 0)
          {
            *field (config, info) = i;
            return TRUE;
          }
      /* the values as a list first (tools read it: tests/cli/check-golden.py), then what
       * the key and each value mean */
      g_autofree char *valid = g_strjoinv (", ", names);
      g_autoptr (GString) about = g_string_new (NULL);
      for (guint i = 0; i < G_N_ELEMENTS (info->value_about) && names[i] != NULL; i++)
        g_string_append_printf (about, "; %s: %s", names[i], info->value_about[i]);
      g_set_error (error, FL_CONFIG_ERROR, FL_CONFIG_ERROR_BAD_VALUE,
                   "invalid value '%s' for '%s' (valid: %s). %s%s", value, key, valid,
                   info->about, about->str);
      return FALSE;
    }

  char *end = NULL;
  guint64 number = g_ascii_strtoull (value, &end, 10);
  if (*value == '\0' || *end != '\0' || number < info->min || number > info->max)
    {
      g_set_error (error, FL_CONFIG_ERROR, FL_CONFIG_ERROR_BAD_VALUE,
                   "invalid value '%s' for '%s' (valid: a whole number from %u to %u). %s",
                   value, key, info->min, info->max, info->about);
      return FALSE;
    }
  *field (config, info) = (guint) number;
  if (info->offset == G_STRUCT_OFFSET (FlConfig, sockets))
    config->topology_given |= FL_TOPOLOGY_SOCKETS_GIVEN;
  else if (info->offset == G_STRUCT_OFFSET (FlConfig, cores_per_socket))
    config->topology_given |= FL_TOPOLOGY_CORES_GIVEN;
  fit_topology (config);
  return TRUE;
}

/**
 * fl_config_get:
 * @config: a configuration
 * @key: a key from fl_config_keys() or fl_config_presets()
 *
 * Returns: (transfer full): the value of @key as text (for a preset, the value whose
 *   settings all hold: `mixed` or `custom` when none does), or %NULL for an unknown key.
 */
char *
fl_config_get (const FlConfig *config, const char *key)
{
  const FlPreset *preset = fl_preset_lookup (key);
  if (preset != NULL)
    return get_preset (config, preset);
  const FlKeyInfo *info = lookup (key);
  if (info == NULL)
    return NULL;
  guint value = *field ((FlConfig *) config, info);
  if (info->values == NULL)
    return g_strdup_printf ("%u", value);
  g_auto (GStrv) names = g_strsplit (info->values, "|", -1);
  return g_strdup (value < g_strv_length (names) ? names[value] : "?");
}

/**
 * fl_config_validate:
 * @config: a configuration
 * @error: set when the topology cannot hold the CPUs
 *
 * Returns: %TRUE when the CPUs fit in sockets × cores-per-socket.
 */
gboolean
fl_config_validate (const FlConfig *config, GError **error)
{
  if (config->cpus > config->sockets * config->cores_per_socket)
    {
      g_set_error (error, FL_CONFIG_ERROR, FL_CONFIG_ERROR_BAD_VALUE,
                   "%u CPUs do not fit in %u sockets × %u cores (raise 'sockets' or "
                   "'cores-per-socket')", config->cpus, config->sockets,
                   config->cores_per_socket);
      return FALSE;
    }
  if (config->numa == FL_NUMA_PER_SOCKET && config->sockets > FL_CONFIG_MAX_NODES)
    {
      g_set_error (error, FL_CONFIG_ERROR, FL_CONFIG_ERROR_BAD_VALUE,
                   "numa=per-socket gives each socket a memory node, at most %u, and %u sockets "
                   "are too many (use fewer sockets, or numa=off)", FL_CONFIG_MAX_NODES,
                   config->sockets);
      return FALSE;
    }
  return TRUE;
}

/**
 * fl_config_describe:
 * @config: a configuration
 *
 * Returns: (transfer full): every design switch as "key=value" joined by spaces (the cost
 *   table is left out), stable across runs: it names a run's configuration in the store.
 */
char *
fl_config_describe (const FlConfig *config)
{
  GString *out = g_string_new (NULL);
  for (guint i = 0; key_names[i] != NULL && !g_str_has_prefix (key_names[i], "cost."); i++)
    {
      g_autofree char *value = fl_config_get (config, key_names[i]);
      g_string_append_printf (out, "%s%s=%s", i ? " " : "", key_names[i], value);
    }
  return g_string_free (out, FALSE);
}

/**
 * fl_config_describe_all:
 * @config: a configuration
 *
 * Returns: (transfer full): every key, the cost table's included, as "key=value" joined by
 *   spaces: what fl_config_set() makes of the defaults again, value for value (a shard of an
 *   exploration carries it, so that its merge explores the very same configuration).
 */
char *
fl_config_describe_all (const FlConfig *config)
{
  GString *out = g_string_new (NULL);
  for (guint i = 0; key_names[i] != NULL; i++)
    {
      g_autofree char *value = fl_config_get (config, key_names[i]);
      g_string_append_printf (out, "%s%s=%s", i ? " " : "", key_names[i], value);
    }
  return g_string_free (out, FALSE);
}

/* CPUs fill one socket's cores before the next, as Kamezawa pinned thread i to CPU i. */
guint
fl_config_socket_of (const FlConfig *config, guint cpu)
{
  return (cpu / config->cores_per_socket) % config->sockets;
}
