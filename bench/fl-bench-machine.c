/* fl-bench-machine.c — what the numbers were measured on: without it they mean little. */
#include "fl-bench.h"

#include <cairo.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#ifndef FL_BENCH_COMPILER
#define FL_BENCH_COMPILER "unknown compiler"
#endif
#ifndef FL_BENCH_BUILDTYPE
#define FL_BENCH_BUILDTYPE "unknown"
#endif

/* The value of the first "key : value" line of a /proc file that starts with @key. */
static char *
proc_field (const char *text, const char *key)
{
  if (text == NULL)
    return NULL;
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (g_str_has_prefix (lines[i], key))
      {
        const char *colon = strchr (lines[i], ':');
        if (colon)
          return g_strstrip (g_strdup (colon + 1));
      }
  return NULL;
}

static char *
cpu_model (const char *cpuinfo)
{
  /* x86 says "model name"; arm64 kernels often say neither, and then the CPU part must do */
  char *model = proc_field (cpuinfo, "model name");
  if (model == NULL)
    model = proc_field (cpuinfo, "Model");
  return model ? model : g_strdup ("unknown (no model name in /proc/cpuinfo)");
}

static char *
cores (const char *cpuinfo)
{
  long online = sysconf (_SC_NPROCESSORS_ONLN);
  g_autofree char *per_socket = proc_field (cpuinfo, "cpu cores");
  g_autofree char *flags = proc_field (cpuinfo, "flags");
  gboolean vm = flags && strstr (flags, " hypervisor") != NULL;
  return g_strdup_printf ("%ld online%s%s%s%s", online,
                          per_socket ? " (" : "", per_socket ? per_socket : "",
                          per_socket ? " cores per socket)" : "",
                          vm ? ", virtual machine (hypervisor flag)" : "");
}

static char *
ram (void)
{
  g_autofree char *meminfo = NULL;
  g_file_get_contents ("/proc/meminfo", &meminfo, NULL, NULL);
  g_autofree char *total = proc_field (meminfo, "MemTotal");
  if (total == NULL)
    return g_strdup ("unknown");
  return g_strdup_printf ("%.1f GiB", (double) g_ascii_strtoull (total, NULL, 10) / 1048576.0);
}

static char *
os (void)
{
  g_autofree char *name = g_get_os_info (G_OS_INFO_KEY_PRETTY_NAME);
  struct utsname u;
  if (uname (&u) != 0)
    return g_strdup (name ? name : "unknown");
  return g_strdup_printf ("%s, Linux %s %s", name ? name : u.sysname, u.release, u.machine);
}

/* Other work on the machine slows every number down; say how much there was. */
static char *
load (void)
{
  g_autofree char *text = NULL;
  if (!g_file_get_contents ("/proc/loadavg", &text, NULL, NULL))
    return g_strdup ("unknown");
  g_auto (GStrv) fields = g_strsplit (text, " ", 4);
  if (g_strv_length (fields) < 3)
    return g_strdup ("unknown");
  return g_strdup_printf ("%s %s %s (1, 5, 15 min) when the run started",
                          fields[0], fields[1], fields[2]);
}

GStrv
fl_bench_machine (void)
{
  g_autofree char *cpuinfo = NULL;
  g_file_get_contents ("/proc/cpuinfo", &cpuinfo, NULL, NULL);
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autoptr (GStrvBuilder) b = g_strv_builder_new ();
  g_autofree char *model = cpu_model (cpuinfo), *ncores = cores (cpuinfo), *mem = ram ();
  g_autofree char *system = os (), *date = g_date_time_format (now, "%Y-%m-%d %H:%M %z");
  g_autofree char *loadavg = load ();
  g_autofree char *libs = g_strdup_printf ("GLib %u.%u.%u, SQLite %s, Cairo %s",
                                           glib_major_version, glib_minor_version,
                                           glib_micro_version, sqlite3_libversion (),
                                           cairo_version_string ());
  const char *facts[] = {
    "CPU", model, "Cores", ncores, "RAM", mem, "OS", system,
    "Compiler", FL_BENCH_COMPILER, "Build type", FL_BENCH_BUILDTYPE, "Libraries", libs,
    "Date", date, "Load average", loadavg, NULL
  };
  g_strv_builder_addv (b, facts);
  return g_strv_builder_end (b);
}
