/* faultline-cli bench as a user runs it: the 2010 table's order, what the mechanisms must
 * produce whatever the model's constants, the profile, the workloads, and the chart. */
#include "cli-run.h"

/* The 2010 table on one round of multi-fault: the designs come out in the published order at
 * the model's constants. How far each ratio is from Zijlstra's (REFERENCE.md: 3.10, 3.36,
 * 3.55) depends on the calibrated cost.step, so it is `make bench`'s figure, not a test:
 * the tests below pin what the mechanisms produce whatever the constants. */
static void
test_bench_order (void)
{
  g_auto (Result) r = { 0 };
  cli (&r, "bench", "--workload", "multi-fault", "--cpus", "8", "--rounds", "1", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_autoptr (JsonParser) p = NULL;
  JsonObject *bench = parse_json (r.out, &p);
  g_assert_cmpstr (json_object_get_string_member (bench, "workload"), ==, "multi-fault");
  JsonArray *rows = json_object_get_array_member (bench, "rows");
  static const char *const order[] = { "baseline", "xadd", "spf", "xadd+spf" };
  static const double published[] = { 1.00, 3.10, 3.36, 3.55 };
  g_assert_cmpuint (json_array_get_length (rows), ==, G_N_ELEMENTS (order));
  double previous = 0;
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      JsonObject *row = json_array_get_object_element (rows, i);
      g_assert_cmpstr (json_object_get_string_member (row, "config"), ==, order[i]);
      g_assert_cmpint (json_object_get_int_member (row, "cpus"), ==, 8);
      double rate = json_object_get_double_member (row, "faults_per_sec");
      double ratio = json_object_get_double_member (row, "ratio");
      g_test_message ("%s: %.0f faults/s, ratio %.2f (published %.2f)", order[i], rate, ratio,
                      published[i]);
      g_assert_cmpfloat (rate, >, previous);
      previous = rate;
    }
}

/* Whatever the free constants (each at 50%, 100%, 150%: cost.step, line occupancy, the
 * hold, the crossing), the rwsem fix beats the baseline and speculation beats the rwsem fix at 8 CPUs:
 * conclusions the mechanisms decide. (xadd+spf over spf is within a percent either way and
 * is not asserted here; docs/model.md says why.) */
static void
test_bench_order_survives_the_constants (void)
{
  g_auto (Result) r = { 0 };
  cli (&r, "bench", "--sensitivity", "--rounds", "1", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_autoptr (JsonParser) p = NULL;
  JsonArray *rows = json_object_get_array_member (parse_json (r.out, &p), "rows");
  g_assert_cmpuint (json_array_get_length (rows), ==, 12);
  for (guint i = 0; i < json_array_get_length (rows); i++)
    {
      JsonObject *row = json_array_get_object_element (rows, i);
      JsonObject *ratios = json_object_get_object_member (row, "ratios");
      double xadd = json_object_get_double_member (ratios, "xadd");
      double spf = json_object_get_double_member (ratios, "spf");
      g_test_message ("%s=%" G_GINT64_FORMAT ": xadd %.2f spf %.2f",
                      json_object_get_string_member (row, "constant"),
                      json_object_get_int_member (row, "value"), xadd, spf);
      g_assert_cmpfloat (xadd, >, 1.0);
      g_assert_cmpfloat (spf, >, xadd);
      g_assert_cmpint (json_object_get_int_member (row, "findings"), ==, 0);
    }
}

/* The gains are contention across sockets: from 4 CPUs (one socket) to 8 (two) each fix's
 * ratio grows by more than it did from 2 to 4 inside the socket. */
static void
test_bench_gap_grows_across_sockets (void)
{
  g_auto (Result) r = { 0 };
  cli (&r, "bench", "--cpus", "2,4,8", "--rounds", "1", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_autoptr (JsonParser) p = NULL;
  JsonArray *rows = json_object_get_array_member (parse_json (r.out, &p), "rows");
  g_assert_cmpuint (json_array_get_length (rows), ==, 12);
  for (guint d = 1; d < 4; d++)
    {
      double at[3];
      for (guint c = 0; c < 3; c++)
        at[c] = json_object_get_double_member (json_array_get_object_element (rows, c * 4 + d),
                                               "ratio");
      const char *name = json_object_get_string_member (json_array_get_object_element (rows, d),
                                                        "config");
      g_test_message ("%s: %.2f at 2, %.2f at 4, %.2f at 8 CPUs", name, at[0], at[1], at[2]);
      g_assert_cmpfloat (at[2] - at[1], >, at[1] - at[0]);
      g_assert_cmpfloat (at[2], >, at[1]);
    }
}

static double
profile_share (JsonObject *profile, const char *table, const char *name, guint64 *sum)
{
  JsonArray *entries = json_object_get_array_member (profile, table);
  double share = 0;
  *sum = 0;
  for (guint i = 0; i < json_array_get_length (entries); i++)
    {
      JsonObject *e = json_array_get_object_element (entries, i);
      *sum += (guint64) json_object_get_int_member (e, "cycles");
      if (strcmp (json_object_get_string_member (e, "name"), name) == 0)
        share = json_object_get_double_member (e, "share");
    }
  return share;
}

/* The profile that made Linus look at the rwsem (REFERENCE.md: 75% of the time in
 * _raw_spin_lock_irqsave from __down_read_trylock and __up_read): with the generic rwsem at 8
 * CPUs most of the time goes to those two and to mmap_sem's line; once faults are
 * speculative that line is a small share. Every table sums to the whole. */
static void
test_bench_profile_shows_the_rwsem (void)
{
  g_auto (Result) r = { 0 };
  cli (&r, "bench", "--profile", "--configs", "baseline,spf", "--rounds", "1", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_autoptr (JsonParser) p = NULL;
  JsonArray *profiles = json_object_get_array_member (parse_json (r.out, &p), "profiles");
  g_assert_cmpuint (json_array_get_length (profiles), ==, 2);
  JsonObject *base = json_array_get_object_element (profiles, 0);
  JsonObject *spf = json_array_get_object_element (profiles, 1);
  guint64 total = (guint64) json_object_get_int_member (base, "cpu_cycles"), sum = 0;
  double trylock = profile_share (base, "functions", "__down_read_trylock", &sum);
  g_assert_cmpuint (sum, ==, total);
  double up = profile_share (base, "functions", "__up_read", &sum);
  double line = profile_share (base, "lines", "mmap_sem (wait_lock, activity)", &sum);
  g_assert_cmpuint (sum, ==, total);
  g_test_message ("baseline: trylock %.2f + up_read %.2f, mmap_sem line %.2f", trylock, up, line);
  g_assert_cmpfloat (trylock + up, >, 0.5);
  g_assert_cmpfloat (line, >, 0.5);
  double spf_line = profile_share (spf, "lines", "mmap_sem (wait_lock, activity)", &sum);
  g_test_message ("spf: mmap_sem line %.2f", spf_line);
  g_assert_cmpfloat (spf_line, <, 0.1);
}

/* Kamezawa's all-split variant: every thread its own VMA (a PROT_NONE page between them),
 * barriers around the touch phase; it runs clean and the fixes still pay at 8 CPUs. */
static void
test_bench_all_split (void)
{
  g_auto (Result) r = { 0 };
  cli (&r, "bench", "--workload", "multi-fault-all-split", "--cpus", "8", "--rounds", "1",
       "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_autoptr (JsonParser) p = NULL;
  JsonArray *rows = json_object_get_array_member (parse_json (r.out, &p), "rows");
  g_assert_cmpuint (json_array_get_length (rows), ==, 4);
  for (guint i = 1; i < 4; i++)
    g_assert_cmpfloat (json_object_get_double_member (json_array_get_object_element (rows, i),
                                                      "ratio"), >, 1.5);
}

/* The ratio of a design to the baseline in `bench --json` output, with one --set (NULL: the
 * workload's own configuration). */
static double
ratio_set (const char *workload, const char *configs, const char *design, const char *set,
           double *published)
{
  g_auto (Result) r = { 0 };
  if (set != NULL)
    cli (&r, "bench", "--workload", workload, "--cpus", "8", "--rounds", "1", "--configs", configs,
         "--set", set, "--json", NULL);
  else
    cli (&r, "bench", "--workload", workload, "--cpus", "8", "--rounds", "1", "--configs", configs,
         "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_autoptr (JsonParser) p = NULL;
  JsonArray *rows = json_object_get_array_member (parse_json (r.out, &p), "rows");
  for (guint i = 0; i < json_array_get_length (rows); i++)
    {
      JsonObject *row = json_array_get_object_element (rows, i);
      if (g_strcmp0 (json_object_get_string_member (row, "config"), design) != 0)
        continue;
      if (published)
        *published = json_object_has_member (row, "published_ratio")
                     ? json_object_get_double_member (row, "published_ratio") : 0;
      return json_object_get_double_member (row, "ratio");
    }
  g_assert_not_reached ();
}

static double
ratio_of (const char *workload, const char *configs, const char *design, double *published)
{
  return ratio_set (workload, configs, design, NULL, published);
}

/* Kamezawa's design on his own workload (his kernel: memcg=on) carries his figure and beats
 * the baseline clearly; threads sharing one VMA (multi-fault merges the eight mappings) pay
 * for the count's line moving between them, threads with a VMA each (all-split) do not. That
 * comparison runs both workloads without the memory controller: with it, at one round both
 * wait on the cgroup's css line instead (2.53 against 2.52), which hides the count's line. */
static void
test_bench_refcount (void)
{
  double published = 0;
  double split = ratio_of ("multi-fault-all-split", "baseline,refcount", "refcount", &published);
  double split_off = ratio_set ("multi-fault-all-split", "baseline,refcount", "refcount",
                                "memcg=off", NULL);
  double shared = ratio_set ("multi-fault", "baseline,refcount", "refcount", "memcg=off", NULL);
  g_test_message ("refcount: all-split %.2f (published %.2f); memcg=off: all-split %.2f, "
                  "multi-fault %.2f", split, published, split_off, shared);
  g_assert_cmpfloat (published, ==, 2.06);
  g_assert_cmpfloat (split, >, 1.5);
  g_assert_cmpfloat (split_off, >, shared * 1.05);
}

/* --sensitivity measures one CPU count and every design: other uses are refused, not ignored. */
static void
test_bench_sensitivity_refuses_lists (void)
{
  g_auto (Result) a = { 0 }, b = { 0 };
  cli (&a, "bench", "--sensitivity", "--cpus", "4,8", NULL);
  g_assert_cmpint (a.status, ==, 2);
  g_assert_nonnull (strstr (a.err, "one CPU count"));
  cli (&b, "bench", "--sensitivity", "--configs", "spf", NULL);
  g_assert_cmpint (b.status, ==, 2);
  g_assert_nonnull (strstr (b.err, "--configs"));
}

/* At one CPU nothing bounces: the designs differ only by the lines their paths run, so they
 * cost about the same, as the kernel developers saw (REFERENCE.md). */
static void
test_bench_one_cpu_even (void)
{
  g_auto (Result) r = { 0 };
  cli (&r, "bench", "--workload", "multi-fault", "--cpus", "1", "--rounds", "1", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_autoptr (JsonParser) p = NULL;
  JsonArray *rows = json_object_get_array_member (parse_json (r.out, &p), "rows");
  g_assert_cmpuint (json_array_get_length (rows), ==, 4);
  for (guint i = 0; i < json_array_get_length (rows); i++)
    {
      JsonObject *row = json_array_get_object_element (rows, i);
      double ratio = json_object_get_double_member (row, "ratio");
      g_test_message ("%s: ratio %.3f", json_object_get_string_member (row, "config"), ratio);
      g_assert_cmpfloat (ratio, >, 0.95);
      g_assert_cmpfloat (ratio, <, 1.05);
    }
}

/* Without the baseline at a CPU count there is nothing to divide by: no ratio, not 0. */
static void
test_bench_without_baseline (void)
{
  g_auto (Result) r = { 0 };
  cli (&r, "bench", "--configs", "spf", "--cpus", "1", "--rounds", "1", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_autoptr (JsonParser) p = NULL;
  JsonArray *rows = json_object_get_array_member (parse_json (r.out, &p), "rows");
  g_assert_cmpuint (json_array_get_length (rows), ==, 1);
  g_assert_true (json_object_get_null_member (json_array_get_object_element (rows, 0), "ratio"));

  g_auto (Result) table = { 0 };
  cli (&table, "bench", "--configs", "spf", "--cpus", "1", "--rounds", "1", NULL);
  g_assert_cmpint (table.status, ==, 0);
  g_assert_null (strstr (table.out, "0.00"));
}

/* --machine picks a measured table: named in the header and the JSON, its topology holds
 * (a two-socket Xeon 5500 has eight cores), and the designs keep their order on it. */
static void
test_bench_machine (void)
{
  g_auto (Result) r = { 0 }, table = { 0 }, big = { 0 };
  cli (&r, "bench", "--machine", "nehalem-ep", "--rounds", "1", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_autoptr (JsonParser) p = NULL;
  JsonObject *root = parse_json (r.out, &p);
  g_assert_cmpstr (json_object_get_string_member (root, "machine"), ==, "nehalem-ep");
  JsonArray *rows = json_object_get_array_member (root, "rows");
  g_assert_cmpuint (json_array_get_length (rows), ==, 4);
  double previous = 0;
  for (guint i = 0; i < 3; i++)   /* baseline < xadd < spf */
    {
      double ratio = json_object_get_double_member (json_array_get_object_element (rows, i),
                                                    "ratio");
      g_assert_cmpfloat (ratio, >, previous);
      previous = ratio;
    }

  cli (&table, "bench", "--machine", "nehalem-ep", "--configs", "baseline", "--cpus", "1",
       "--rounds", "1", NULL);
  g_assert_cmpint (table.status, ==, 0);
  g_assert_nonnull (strstr (table.out, "on machine nehalem-ep"));

  cli (&big, "bench", "--machine", "nehalem-ep", "--cpus", "16", "--rounds", "1", NULL);
  g_assert_cmpint (big.status, ==, 2);
  g_assert_nonnull (strstr (big.err, "16 CPUs do not fit in 2 sockets × 4 cores"));

  g_auto (Result) unknown = { 0 };
  cli (&unknown, "bench", "--machine", "vax", NULL);
  g_assert_cmpint (unknown.status, ==, 2);
  g_assert_nonnull (strstr (unknown.err, "--machine 'vax': no such machine (valid: westmere-ex"));
}

/* The table as before, and the chart beside it; an unknown chart format before any run. */
static void
test_bench_chart (void)
{
  g_autofree char *tmp = make_tmp ();
  g_autofree char *svg = g_build_filename (tmp, "x.svg", NULL);
  g_auto (Result) r = { 0 }, bad = { 0 };
  cli (&r, "bench", "--cpus", "4,8", "--rounds", "1", "--chart", svg, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "xadd+spf"));
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (svg, &text, NULL, NULL));
  g_assert_true (g_str_has_prefix (text, "<?xml"));
  g_assert_nonnull (strstr (text, "<svg"));
  g_autofree char *gif = g_build_filename (tmp, "x.gif", NULL);
  cli (&bad, "bench", "--rounds", "1", "--chart", gif, NULL);
  g_assert_cmpint (bad.status, ==, 2);
  g_assert_nonnull (strstr (bad.err, "x.gif"));
  assert_one_line (bad.err);
  g_assert_false (g_file_test (gif, G_FILE_TEST_EXISTS));
  remove_tree (tmp);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/bench/order", test_bench_order);
  g_test_add_func ("/cli/bench/one-cpu-even", test_bench_one_cpu_even);
  g_test_add_func ("/cli/bench/order-survives-the-constants",
                   test_bench_order_survives_the_constants);
  g_test_add_func ("/cli/bench/gap-grows-across-sockets", test_bench_gap_grows_across_sockets);
  g_test_add_func ("/cli/bench/sensitivity-refuses-lists", test_bench_sensitivity_refuses_lists);
  g_test_add_func ("/cli/bench/profile-shows-the-rwsem", test_bench_profile_shows_the_rwsem);
  g_test_add_func ("/cli/bench/all-split", test_bench_all_split);
  g_test_add_func ("/cli/bench/refcount", test_bench_refcount);
  g_test_add_func ("/cli/bench/without-baseline", test_bench_without_baseline);
  g_test_add_func ("/cli/bench/chart", test_bench_chart);
  g_test_add_func ("/cli/bench/machine", test_bench_machine);
  return g_test_run ();
}
