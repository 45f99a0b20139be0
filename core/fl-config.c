/* fl-config.c — the design switches, their names, defaults and parsing. */
#include "fl-config.h"

#include <string.h>

G_DEFINE_QUARK (fl-config-error-quark, fl_config_error)

typedef struct {
  const char *key;
  const char *values;      /* "a|b" for enums, NULL for numbers */
  gsize       offset;      /* into FlConfig */
  guint       min, max;    /* for numbers */
} FlKeyInfo;

#define COST(field) G_STRUCT_OFFSET (FlConfig, cost) + G_STRUCT_OFFSET (FlCostTable, field)

static const FlKeyInfo keys[] = {
  { "cpus",             NULL, G_STRUCT_OFFSET (FlConfig, cpus), 1, FL_MAX_CPUS },
  { "sockets",          NULL, G_STRUCT_OFFSET (FlConfig, sockets), 1, FL_MAX_SOCKETS },
  { "cores-per-socket", NULL, G_STRUCT_OFFSET (FlConfig, cores_per_socket), 1, FL_MAX_CPUS },
  { "fault-path",       "locked|speculative", G_STRUCT_OFFSET (FlConfig, fault_path), 0, 0 },
  { "rwsem",            "generic|xadd", G_STRUCT_OFFSET (FlConfig, rwsem), 0, 0 },
  { "vma-free",         "rcu|immediate", G_STRUCT_OFFSET (FlConfig, vma_free), 0, 0 },
  { "spf-seqcheck",     "off|on", G_STRUCT_OFFSET (FlConfig, spf_seqcheck), 0, 0 },
  { "spf-mmap-cache",   "leave|update", G_STRUCT_OFFSET (FlConfig, spf_mmap_cache), 0, 0 },
  { "spf-find-vma",     "before-pte-lock|under-pte-lock", G_STRUCT_OFFSET (FlConfig, spf_find_vma), 0, 0 },
  { "spf-access-check", "off|on", G_STRUCT_OFFSET (FlConfig, spf_access_check), 0, 0 },
  { "mprotect-seqcount", "bracketed|unbracketed", G_STRUCT_OFFSET (FlConfig, mprotect_seqcount), 0, 0 },
  { "rcu",              "preemptible|classic", G_STRUCT_OFFSET (FlConfig, rcu), 0, 0 },
  { "pte-map-lock",     "trylock-loop|spin-irqs-off", G_STRUCT_OFFSET (FlConfig, pte_map_lock), 0, 0 },
  { "pin-page-tables",  "irqs-off|none", G_STRUCT_OFFSET (FlConfig, pin_page_tables), 0, 0 },
  { "rss",              "shared-atomic|per-thread", G_STRUCT_OFFSET (FlConfig, rss), 0, 0 },
  { "oracle",           "every-step|at-end", G_STRUCT_OFFSET (FlConfig, oracle), 0, 0 },
  { "cost.l1-hit",           NULL, COST (l1_hit), 0, 100000 },
  { "cost.llc",              NULL, COST (llc), 0, 100000 },
  { "cost.local-load",       NULL, COST (local_load), 0, 100000 },
  { "cost.local-store",      NULL, COST (local_store), 0, 100000 },
  { "cost.local-rmw",        NULL, COST (local_rmw), 0, 100000 },
  { "cost.remote-load",      NULL, COST (remote_load), 0, 100000 },
  { "cost.remote-store",     NULL, COST (remote_store), 0, 100000 },
  { "cost.remote-rmw",       NULL, COST (remote_rmw), 0, 100000 },
  { "cost.dram",             NULL, COST (dram), 0, 100000 },
  { "cost.locked-rmw",       NULL, COST (locked_rmw), 0, 100000 },
  { "cost.invalidate-extra", NULL, COST (invalidate_extra), 0, 100000 },
  { "cost.exception",        NULL, COST (exception), 0, 1000000 },
  { "cost.zero-page",        NULL, COST (zero_page), 0, 1000000 },
  { "cost.ipi",              NULL, COST (ipi), 0, 1000000 },
  { "cost.swap-io",          NULL, COST (swap_io), 0, 100000000 },
  { "cost.op-overhead",      NULL, COST (op_overhead), 0, 1000000 },
  { "cost.step",             NULL, COST (step), 0, 100000 },
  { "cost.occupancy",        NULL, COST (occupancy), 1, 400 },
  { "cost.hold",             NULL, COST (hold), 0, 100000 },
  { "cost.mhz",              NULL, COST (mhz), 1, 100000 },
  { "budget",                NULL, G_STRUCT_OFFSET (FlConfig, budget), 0, G_MAXUINT32 },
};

static const char *const key_names[] = {
  "cpus", "sockets", "cores-per-socket", "fault-path", "rwsem", "vma-free", "spf-seqcheck",
  "spf-mmap-cache", "spf-find-vma", "spf-access-check",
  "mprotect-seqcount", "rcu", "pte-map-lock", "pin-page-tables", "rss", "oracle",
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
                   "invalid value '%s' for '" FL_SPF_KEY "' (valid: repaired, v2-as-posted)",
                   value);
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
      g_autofree char *valid = g_strjoinv (", ", names);
      g_set_error (error, FL_CONFIG_ERROR, FL_CONFIG_ERROR_BAD_VALUE,
                   "invalid value '%s' for '%s' (valid: %s)", value, key, valid);
      return FALSE;
    }

  char *end = NULL;
  guint64 number = g_ascii_strtoull (value, &end, 10);
  if (*value == '\0' || *end != '\0' || number < info->min || number > info->max)
    {
      g_set_error (error, FL_CONFIG_ERROR, FL_CONFIG_ERROR_BAD_VALUE,
                   "invalid value '%s' for '%s' (valid: a whole number from %u to %u)",
                   value, key, info->min, info->max);
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
