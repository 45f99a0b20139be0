/* fl-config.c — the design switches, their names, defaults and parsing. */
#include "fl-config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

G_DEFINE_QUARK (fl-config-error-quark, fl_config_error)

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
  NUM ("cost.mhz", COST (mhz), 1, 100000, N_("The simulated clock in MHz, for times and rates")),
  NUM ("budget", G_STRUCT_OFFSET (FlConfig, budget), 0, G_MAXUINT32,
       N_("Steps a run may take before it stops (0: no limit)")),
};

static const char *const key_names[] = {
  "cpus", "sockets", "cores-per-socket", "fault-path", "rwsem", "vma-free", "spf-seqcheck",
  "spf-mmap-cache", "spf-find-vma", "spf-access-check",
  "mprotect-seqcount", "rcu", "pte-map-lock", "pin-page-tables", "rss", "vma-refcount",
  "oracle",
  "cost.l1-hit", "cost.llc", "cost.local-load", "cost.local-store", "cost.local-rmw",
  "cost.remote-load", "cost.remote-store", "cost.remote-rmw", "cost.dram", "cost.locked-rmw",
  "cost.invalidate-extra", "cost.exception", "cost.zero-page", "cost.ipi", "cost.swap-io",
  "cost.op-overhead", "cost.step", "cost.occupancy", "cost.hold", "cost.mhz",
  /* not a design switch: after the costs, so fl_config_describe() leaves it out */
  "budget", NULL
};

G_STATIC_ASSERT (G_N_ELEMENTS (keys) + 1 == G_N_ELEMENTS (key_names));

/* The repairs of the v2 patch that later versions made, each its own switch; `spf` sets them
 * all at once: `repaired` (the default, the safe design) or `v2-as-posted` (the patch as
 * Zijlstra posted it, with its bugs). It is not stored: the switches it sets are. */
typedef struct {
  const char *key, *repaired, *as_posted;
} FlSpfRepair;

static const FlSpfRepair spf_repairs[] = {
  { "spf-mmap-cache", "leave", "update" },
  { "spf-find-vma", "before-pte-lock", "under-pte-lock" },
  { "spf-access-check", "on", "off" },
  { "mprotect-seqcount", "bracketed", "unbracketed" },
};

#define FL_SPF_KEY "spf"
#define FL_SPF_VALUES "repaired|v2-as-posted"


/**
 * fl_config_preset_keys:
 * @key: a key accepted by fl_config_set()
 *
 * A preset sets several keys at once and is not stored itself: what it set is.
 *
 * Returns: (nullable): the keys @key sets when it is a preset (`spf`), else %NULL
 */
const char *const *
fl_config_preset_keys (const char *key)
{
  static const char *spf_keys[G_N_ELEMENTS (spf_repairs) + 1];
  static gsize ready = 0;
  if (g_once_init_enter (&ready))
    {
      for (gsize i = 0; i < G_N_ELEMENTS (spf_repairs); i++)
        spf_keys[i] = spf_repairs[i].key;
      g_once_init_leave (&ready, 1);
    }
  return g_strcmp0 (key, FL_SPF_KEY) == 0 ? spf_keys : NULL;
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
  config->sockets = 2;
  config->cores_per_socket = 4;
  config->fault_path = FL_FAULT_PATH_SPECULATIVE;
  config->rwsem = FL_RWSEM_GENERIC;
  config->vma_free = FL_VMA_FREE_RCU;
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
    .hold = 44, .mhz = 2130,
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
  if (strcmp (key, FL_SPF_KEY) == 0)
    return FL_SPF_VALUES;
  const FlKeyInfo *info = lookup (key);
  if (info == NULL)
    return NULL;
  return info->values ? info->values : "a number";
}

static gboolean
set_spf (FlConfig *config, const char *value, GError **error)
{
  gboolean as_posted = strcmp (value, "v2-as-posted") == 0;
  if (!as_posted && strcmp (value, "repaired") != 0)
    {
      g_set_error (error, FL_CONFIG_ERROR, FL_CONFIG_ERROR_BAD_VALUE,
                   "invalid value '%s' for '" FL_SPF_KEY "' (valid: repaired, v2-as-posted). "
                   "%s; repaired: %s; v2-as-posted: %s", value, fl_config_key_about (FL_SPF_KEY),
                   fl_config_value_about (FL_SPF_KEY, "repaired"),
                   fl_config_value_about (FL_SPF_KEY, "v2-as-posted"));
      return FALSE;
    }
  for (gsize i = 0; i < G_N_ELEMENTS (spf_repairs); i++)
    {
      const FlSpfRepair *r = &spf_repairs[i];
      gboolean ok = fl_config_set (config, r->key, as_posted ? r->as_posted : r->repaired, NULL);
      g_assert (ok);  /* the table names keys and values of this file */
    }
  return TRUE;
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
  if (strcmp (key, FL_SPF_KEY) == 0)
    return N_("Every repair of the speculative fault patch v2 at once");
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
  if (strcmp (key, FL_SPF_KEY) == 0)
    return strcmp (value, "repaired") == 0
           ? N_("the repairs later versions made: the safe design")
           : strcmp (value, "v2-as-posted") == 0 ? N_("the patch as posted, with its bugs") : NULL;
  const FlKeyInfo *info = lookup (key);
  if (info == NULL || info->values == NULL)
    return NULL;
  g_auto (GStrv) names = g_strsplit (info->values, "|", -1);
  for (guint i = 0; names[i] != NULL && i < G_N_ELEMENTS (info->value_about); i++)
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
gboolean
fl_config_set (FlConfig *config, const char *key, const char *value, GError **error)
{
  g_return_val_if_fail (config != NULL && key != NULL && value != NULL, FALSE);

  if (strcmp (key, FL_SPF_KEY) == 0)
    return set_spf (config, value, error);
  const FlKeyInfo *info = lookup (key);
  if (info == NULL)
    {
      g_autofree char *all = g_strjoinv (", ", (char **) key_names);
      g_set_error (error, FL_CONFIG_ERROR, FL_CONFIG_ERROR_UNKNOWN_KEY,
                   "unknown configuration key '%s' (valid keys: " FL_SPF_KEY ", %s)", key, all);
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
      for (guint i = 0; names[i] != NULL && i < G_N_ELEMENTS (info->value_about); i++)
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
  return TRUE;
}

/**
 * fl_config_get:
 * @config: a configuration
 * @key: a key from fl_config_keys(), or `spf` (the v2 repairs at once)
 *
 * Returns: (transfer full): the value of @key as text (for `spf`: `repaired`, `v2-as-posted`
 *   or `mixed`), or %NULL for an unknown key.
 */
char *
fl_config_get (const FlConfig *config, const char *key)
{
  if (strcmp (key, FL_SPF_KEY) == 0)
    {
      guint repaired = 0, as_posted = 0;
      for (gsize i = 0; i < G_N_ELEMENTS (spf_repairs); i++)
        {
          g_autofree char *value = fl_config_get (config, spf_repairs[i].key);
          repaired += strcmp (value, spf_repairs[i].repaired) == 0;
          as_posted += strcmp (value, spf_repairs[i].as_posted) == 0;
        }
      return g_strdup (repaired == G_N_ELEMENTS (spf_repairs) ? "repaired"
                       : as_posted == G_N_ELEMENTS (spf_repairs) ? "v2-as-posted" : "mixed");
    }
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

/* CPUs fill one socket's cores before the next, as Kamezawa pinned thread i to CPU i. */
guint
fl_config_socket_of (const FlConfig *config, guint cpu)
{
  return (cpu / config->cores_per_socket) % config->sockets;
}
