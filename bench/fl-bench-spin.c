/* fl-bench-spin.c — SPIN's pan on the Promela peers of the race scenarios (issue 17, item 7;
 * tests/peers/, docs/peers.md), measured in the same run as the explorer's rows above it:
 * for each race that has a peer, the time to pan's first error with the same safeguard off,
 * and for the safe design the states its whole search stores, per second, and its time to
 * the verdict. Informational: the models are abstractions, so their states are not the
 * explorer's and no target compares them. */
#include "fl-bench.h"

#include <glib/gstdio.h>
#include <math.h>

typedef struct {
  const char *scenario, *key, *value;   /* the race, as fl-bench-explore.c names it */
  const char *model, *macro;            /* its peer, with the same safeguard off */
} Peer;

static const Peer peers[] = {
  { "spf-vs-munmap", "vma-free", "immediate", "spf-vs-munmap.pml", "VMA_FREE_IMMEDIATE" },
  { "spf-tlb-ipi", "pte-map-lock", "spin-irqs-off", "spf-tlb-ipi.pml",
    "PTE_MAP_LOCK_SPIN_IRQS_OFF" },
  /* spf-ptl-vs-munmap differs from spf-vs-munmap only by its [schedule] */
  { "spf-ptl-vs-munmap", "pin-page-tables", "none", "spf-vs-munmap.pml",
    "PIN_PAGE_TABLES_NONE" },
};

typedef struct {
  double  build;      /* seconds: spin -a and gcc */
  double  search;     /* seconds: pan alone, to its first error or the end */
  guint64 states;     /* stored */
  guint64 errors;
} Pan;

static gboolean
spawn (const char *dir, const char *const *argv, char **out, GError **error)
{
  g_autofree char *err = NULL;
  int status;
  if (!g_spawn_sync (dir, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, out, &err,
                     &status, error))
    return FALSE;
  if (!g_spawn_check_wait_status (status, NULL))
    {
      g_set_error (error, FL_BENCH_ERROR, FL_BENCH_ERROR_SPIN, "%s failed in %s: %s", argv[0],
                   dir, err);
      return FALSE;
    }
  return TRUE;
}

/* The first number that `pattern` captures in `text`, or 0 */
static guint64
number (const char *text, const char *pattern)
{
  g_autoptr (GRegex) regex = g_regex_new (pattern, G_REGEX_MULTILINE, 0, NULL);
  g_autoptr (GMatchInfo) match = NULL;
  if (!g_regex_match (regex, text, 0, &match))
    return 0;
  g_autofree char *digits = g_match_info_fetch (match, 1);
  return g_ascii_strtoull (digits, NULL, 10);
}

/* pan for `model` with `macro` defined (NULL: the safe design), built and run in `dir`,
 * which holds a copy of the models: pan writes its trail beside the model it came from. It
 * stops at its first error (-c1, its default), so an unsafe model's time is the time to the
 * counterexample. -DSAFETY: no cycle checks, the models' properties are all safety ones. */
static gboolean
run_pan (const char *dir, const char *model, const char *macro, gboolean quick, Pan *pan,
         GError **error)
{
  g_autofree char *define = macro ? g_strconcat ("-D", macro, NULL) : NULL;
  const char *spin[] = { "spin", "-a", define ? define : model, define ? model : NULL, NULL };
  const char *gcc[] = { "gcc", quick ? "-O0" : "-O2", "-DSAFETY", "-o", "pan", "pan.c", NULL };
  const char *search[] = { "./pan", "-m10000", "-w20", NULL };
  g_autofree char *out = NULL;

  guint64 start = fl_bench_now_ns ();
  if (!spawn (dir, spin, NULL, error) || !spawn (dir, gcc, NULL, error))
    return FALSE;
  guint64 built = fl_bench_now_ns ();
  if (!spawn (dir, search, &out, error))
    return FALSE;
  pan->search = (double) (fl_bench_now_ns () - built) / 1e9;
  pan->build = (double) (built - start) / 1e9;
  pan->states = number (out, "^ *([0-9]+) states, stored");
  pan->errors = number (out, "errors: ([0-9]+)");
  if (pan->states == 0)
    {
      g_set_error (error, FL_BENCH_ERROR, FL_BENCH_ERROR_SPIN,
                   "pan on %s reported no states:\n%s", model, out);
      return FALSE;
    }
  return TRUE;
}

static gboolean
copy_models (const char *dir, GError **error)
{
  g_autoptr (GDir) models = g_dir_open (FL_PEERS_DIR, 0, error);
  if (models == NULL)
    return FALSE;
  for (const char *name; (name = g_dir_read_name (models)) != NULL;)
    {
      if (!g_str_has_suffix (name, ".pml"))
        continue;
      g_autofree char *from = g_build_filename (FL_PEERS_DIR, name, NULL);
      g_autofree char *to = g_build_filename (dir, name, NULL);
      g_autofree char *text = NULL;
      gsize length;
      if (!g_file_get_contents (from, &text, &length, error)
          || !g_file_set_contents (to, text, (gssize) length, error))
        return FALSE;
    }
  return TRUE;
}

/* The folder holds only what copy_models, spin, gcc and pan wrote: files, no folders */
static void
remove_dir (const char *dir)
{
  g_autoptr (GDir) files = g_dir_open (dir, 0, NULL);
  for (const char *name; files != NULL && (name = g_dir_read_name (files)) != NULL;)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_unlink (path);
    }
  g_rmdir (dir);
}

/* "6.5.2" from `spin -V`, for the section's note */
static char *
spin_version (void)
{
  const char *argv[] = { "spin", "-V", NULL };
  g_autofree char *out = NULL;
  if (!spawn (NULL, argv, &out, NULL))
    return g_strdup ("(version unknown)");
  g_autoptr (GRegex) regex = g_regex_new ("Spin Version ([0-9.]+)", 0, 0, NULL);
  g_autoptr (GMatchInfo) match = NULL;
  return g_regex_match (regex, out, 0, &match) ? g_match_info_fetch (match, 1)
                                               : g_strdup ("(version unknown)");
}

static gboolean
measure (FlBench *bench, const char *dir, const Peer *peer, GError **error)
{
  Pan safe = { 0 }, unsafe = { 0 };
  if (!run_pan (dir, peer->model, NULL, bench->quick, &safe, error)
      || !run_pan (dir, peer->model, peer->macro, bench->quick, &unsafe, error))
    return FALSE;
  g_autofree char *first = g_strdup_printf ("%s, %s=%s: pan's first error", peer->scenario,
                                            peer->key, peer->value);
  g_autofree char *done = g_strdup_printf ("%s: pan's time to no error", peer->scenario);
  g_autofree char *states = g_strdup_printf ("%s: pan's states stored", peer->scenario);
  g_autofree char *rate = g_strdup_printf ("%s: pan's states per second", peer->scenario);
  g_autofree char *build = g_strdup_printf ("%s: building pan (spin -a, gcc)", peer->scenario);
  /* an error never found, or found in the safe design: no verdict to time, as the explorer's
   * rows say it */
  fl_bench_add (bench, first, unsafe.errors ? unsafe.search * 1000 : INFINITY, "ms",
                FL_GOAL_NONE, 0);
  fl_bench_add (bench, done, safe.errors ? INFINITY : safe.search * 1000, "ms", FL_GOAL_NONE, 0);
  fl_bench_add (bench, states, (double) safe.states, "states", FL_GOAL_NONE, 0);
  fl_bench_add (bench, rate, safe.search > 0 ? (double) safe.states / safe.search : 0,
                "states/s", FL_GOAL_NONE, 0);
  fl_bench_add (bench, build, safe.build, "s", FL_GOAL_NONE, 0);
  return TRUE;
}

gboolean
fl_bench_spin (FlBench *bench, GError **error)
{
  const char *title = "SPIN on the Promela peers";
  g_autofree char *spin = g_find_program_in_path ("spin");
  g_autofree char *gcc = g_find_program_in_path ("gcc");
  if (spin == NULL || gcc == NULL)
    {
      /* said in the note, which both the terminal and the write-up show */
      fl_bench_section (bench, title, "not measured: %s not found on PATH (the Debian "
                        "packages spin and gcc, which make bench installs from "
                        "build-aux/debian-packages)", spin == NULL ? "spin" : "gcc");
      return TRUE;
    }
  g_autofree char *version = spin_version ();
  fl_bench_section (bench, title,
                    "SPIN %s's verifier pan (Holzmann, The SPIN Model Checker, 2003) on the "
                    "Promela models of tests/peers/ (docs/peers.md), beside the explorer's rows "
                    "above: the first error with the same safeguard off, and the whole search "
                    "of the safe design, its states, states per second and time to the verdict. "
                    "Times are pan's run alone (safety mode, gcc %s, started as a process, "
                    "which at a few hundred states is most of it); building pan is apart. No "
                    "targets: the models are abstractions, their states are not the explorer's",
                    version, bench->quick ? "-O0" : "-O2");
  g_autofree char *dir = g_dir_make_tmp ("faultline-bench-spin-XXXXXX", error);
  if (dir == NULL)
    return FALSE;
  gboolean ok = copy_models (dir, error);
  guint n = bench->quick ? 1 : G_N_ELEMENTS (peers);
  for (guint i = 0; ok && i < n; i++)
    ok = measure (bench, dir, &peers[i], error);
  remove_dir (dir);
  return ok;
}
