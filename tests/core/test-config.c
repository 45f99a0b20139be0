/* Tests of the design switches: names, parsing, errors that list the valid values. */
#include <string.h>
#include "fl-config.h"

static void
test_defaults_are_the_safe_design (void)
{
  FlConfig c;
  fl_config_init_defaults (&c);
  g_assert_cmpint (c.fault_path, ==, FL_FAULT_PATH_SPECULATIVE);
  g_assert_cmpint (c.vma_free, ==, FL_VMA_FREE_RCU);
  g_assert_true (c.spf_seqcheck);
  g_assert_cmpint (c.pte_map_lock, ==, FL_PTE_MAP_LOCK_TRYLOCK_LOOP);
  g_assert_true (fl_config_validate (&c, NULL));
}

static void
test_set_and_get_round_trip (void)
{
  FlConfig c;
  fl_config_init_defaults (&c);
  for (const char *const *key = fl_config_keys (); *key; key++)
    {
      g_autofree char *value = fl_config_get (&c, *key);
      g_autoptr (GError) error = NULL;
      g_assert_nonnull (value);
      g_assert_true (fl_config_set (&c, *key, value, &error));
      g_assert_no_error (error);
    }
  g_assert_true (fl_config_set (&c, "rwsem", "xadd", NULL));
  g_assert_cmpint (c.rwsem, ==, FL_RWSEM_XADD);
  g_assert_true (fl_config_set (&c, "spf-seqcheck", "off", NULL));
  g_assert_false (c.spf_seqcheck);
  g_autofree char *text = fl_config_describe (&c);
  g_assert_nonnull (strstr (text, "rwsem=xadd"));
  g_assert_nonnull (strstr (text, "spf-seqcheck=off"));
}

static void
test_errors_list_valid_values (void)
{
  FlConfig c;
  g_autoptr (GError) e1 = NULL, e2 = NULL, e3 = NULL;
  fl_config_init_defaults (&c);
  g_assert_false (fl_config_set (&c, "rwsem", "spinlock", &e1));
  g_assert_error (e1, FL_CONFIG_ERROR, FL_CONFIG_ERROR_BAD_VALUE);
  g_assert_nonnull (strstr (e1->message, "generic, xadd"));
  g_assert_false (fl_config_set (&c, "no-such-key", "1", &e2));
  g_assert_error (e2, FL_CONFIG_ERROR, FL_CONFIG_ERROR_UNKNOWN_KEY);
  g_assert_nonnull (strstr (e2->message, "fault-path"));
  g_assert_false (fl_config_set (&c, "cpus", "0", &e3));
  g_assert_cmpint (c.cpus, ==, 2);
}

/* Every key and every value of an enum has its one line, and a bad value's error gives them
 * after the list of valid values (which tools read as it is). */
static void
test_every_switch_described (void)
{
  const char *const *keys = fl_config_keys ();
  for (guint i = 0; keys[i] != NULL; i++)
    {
      const char *about = fl_config_key_about (keys[i]);
      if (about == NULL || strlen (about) < 10)
        g_error ("%s has no description", keys[i]);
      const char *valid = fl_config_valid_values (keys[i]);
      if (strchr (valid, '|') == NULL)
        continue;
      g_auto (GStrv) values = g_strsplit (valid, "|", -1);
      for (guint v = 0; values[v] != NULL; v++)
        if (fl_config_value_about (keys[i], values[v]) == NULL)
          g_error ("%s=%s has no description", keys[i], values[v]);
    }
  g_assert_nonnull (fl_config_key_about ("spf"));
  g_assert_nonnull (fl_config_value_about ("spf", "v2-as-posted"));
  g_assert_null (fl_config_value_about ("rwsem", "nonsense"));
  g_assert_null (fl_config_key_about ("nonsense"));

  FlConfig config;
  fl_config_init_defaults (&config);
  g_autoptr (GError) error = NULL;
  g_assert_false (fl_config_set (&config, "rwsem", "fast", &error));
  g_assert_cmpstr (error->message, ==,
                   "invalid value 'fast' for 'rwsem' (valid: generic, xadd). How mmap_sem is "
                   "built; generic: a spinlock guarding a count and a wait list, as x86-64 used "
                   "in 2.6.32; xadd: one count word changed by a locked xadd, as from 2.6.34");
}

static void
test_topology_must_hold_the_cpus (void)
{
  FlConfig c;
  g_autoptr (GError) error = NULL;
  fl_config_init_defaults (&c);
  c.cpus = 9;
  g_assert_false (fl_config_validate (&c, &error));
  g_assert_nonnull (strstr (error->message, "9 CPUs"));
  g_assert_cmpuint (fl_config_socket_of (&c, 3), ==, 0);
  g_assert_cmpuint (fl_config_socket_of (&c, 4), ==, 1);
}

/* A machine sets its measured costs (and a named box its topology) and is named back by
 * what it set; a cost changed by hand makes it custom; a bad value changes nothing. */
static void
test_machine_presets (void)
{
  FlConfig c;
  fl_config_init_defaults (&c);
  g_autofree char *start = fl_config_get (&c, "machine");
  g_assert_cmpstr (start, ==, "westmere-ex");

  g_assert_true (fl_config_set (&c, "machine", "nehalem-ep", NULL));
  g_assert_cmpuint (c.cost.local_load, ==, 75);
  g_assert_cmpuint (c.cost.mhz, ==, 2930);
  g_assert_cmpuint (c.sockets, ==, 2);
  g_assert_cmpuint (c.cores_per_socket, ==, 4);
  g_autofree char *ep = fl_config_get (&c, "machine");
  g_assert_cmpstr (ep, ==, "nehalem-ep");
  /* a named box's topology is set, so more CPUs than it has is the user's mistake */
  g_assert_true (fl_config_set (&c, "cpus", "16", NULL));
  g_assert_false (fl_config_validate (&c, NULL));

  /* the 8 x 8 box holds the Westmere-EX costs too: it is named for the most it matches */
  fl_config_init_defaults (&c);
  g_assert_true (fl_config_set (&c, "machine", "nehalem-ex-8x8", NULL));
  g_assert_true (fl_config_set (&c, "cpus", "64", NULL));
  g_assert_true (fl_config_validate (&c, NULL));
  g_autofree char *ex = fl_config_get (&c, "machine");
  g_assert_cmpstr (ex, ==, "nehalem-ex-8x8");
  g_assert_cmpuint (fl_config_socket_of (&c, 63), ==, 7);

  g_assert_true (fl_config_set (&c, "cost.llc", "50", NULL));
  g_autofree char *custom = fl_config_get (&c, "machine");
  g_assert_cmpstr (custom, ==, "custom");

  FlConfig before = c;
  g_autoptr (GError) error = NULL;
  g_assert_false (fl_config_set (&c, "machine", "pdp-11", &error));
  g_assert_nonnull (strstr (error->message, "invalid value 'pdp-11' for 'machine'"));
  g_assert_nonnull (strstr (error->message, "nehalem-ep"));
  g_assert_cmpmem (&before, sizeof before, &c, sizeof c);

  /* what a preset value sets, for a file or a session to record */
  g_auto (GStrv) keys = fl_config_preset_keys ("machine", "nehalem-ep");
  g_assert_true (g_strv_contains ((const char *const *) keys, "cost.remote-load"));
  g_assert_true (g_strv_contains ((const char *const *) keys, "sockets"));
  g_auto (GStrv) follow = fl_config_preset_keys ("machine", "westmere-ex");
  g_assert_false (g_strv_contains ((const char *const *) follow, "sockets"));
  g_assert_null (fl_config_preset_keys ("machine", "pdp-11"));
  g_assert_null (fl_config_preset_keys ("cpus", "8"));
  g_assert_true (g_strv_contains (fl_config_presets (), "spf"));
  g_assert_true (g_strv_contains (fl_config_presets (), "machine"));
}

static void
expect_topology (const char *const *settings, guint sockets, guint cores)
{
  FlConfig c;
  fl_config_init_defaults (&c);
  for (guint i = 0; settings[i] != NULL; i += 2)
    g_assert_true (fl_config_set (&c, settings[i], settings[i + 1], NULL));
  g_assert_cmpuint (c.sockets, ==, sockets);
  g_assert_cmpuint (c.cores_per_socket, ==, cores);
  g_assert_true (fl_config_validate (&c, NULL));
}

/* What nobody set follows cpus, whatever the order of the keys; what was set stays. */
static void
test_topology_follows_cpus (void)
{
  expect_topology ((const char *[]) { "cpus", "8", NULL }, 2, 4);
  expect_topology ((const char *[]) { "cpus", "64", NULL }, 2, 32);
  expect_topology ((const char *[]) { "cpus", "256", NULL }, 2, 128);
  expect_topology ((const char *[]) { "cpus", "64", "sockets", "8", NULL }, 8, 8);
  expect_topology ((const char *[]) { "sockets", "8", "cpus", "64", NULL }, 8, 8);
  expect_topology ((const char *[]) { "cpus", "64", "cores-per-socket", "16", NULL }, 4, 16);
  expect_topology ((const char *[]) { "cores-per-socket", "16", "cpus", "64", NULL }, 4, 16);
  expect_topology ((const char *[]) { "cpus", "2", "sockets", "1", NULL }, 1, 4);
  expect_topology ((const char *[]) { "cpus", "64", "cpus", "4", NULL }, 2, 4);

  /* both set and too small: the user's to fix, and said so */
  FlConfig c;
  g_autoptr (GError) error = NULL;
  fl_config_init_defaults (&c);
  g_assert_true (fl_config_set (&c, "sockets", "2", NULL));
  g_assert_true (fl_config_set (&c, "cores-per-socket", "4", NULL));
  g_assert_true (fl_config_set (&c, "cpus", "64", NULL));
  g_assert_false (fl_config_validate (&c, &error));
  g_assert_nonnull (strstr (error->message, "64 CPUs do not fit in 2 sockets × 4 cores"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/config/defaults", test_defaults_are_the_safe_design);
  g_test_add_func ("/core/config/round-trip", test_set_and_get_round_trip);
  g_test_add_func ("/core/config/errors", test_errors_list_valid_values);
  g_test_add_func ("/core/config/topology", test_topology_must_hold_the_cpus);
  g_test_add_func ("/core/config/topology-follows-cpus", test_topology_follows_cpus);
  g_test_add_func ("/core/config/machine-presets", test_machine_presets);
  g_test_add_func ("/core/config/described", test_every_switch_described);
  return g_test_run ();
}
