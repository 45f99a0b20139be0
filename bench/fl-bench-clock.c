/* fl-bench-clock.c — the monotonic clock, order statistics, and the process's memory. */
#include "fl-bench.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

/* CLOCK_MONOTONIC in nanoseconds: g_get_monotonic_time() only has microseconds, too coarse
 * for one frame of a small view. */
guint64
fl_bench_now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (guint64) ts.tv_sec * G_GUINT64_CONSTANT (1000000000) + (guint64) ts.tv_nsec;
}

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* Nearest-rank percentile; sorts @values in place. */
double
fl_bench_percentile (double *values, guint n, double p)
{
  g_assert (n > 0);
  qsort (values, n, sizeof *values, compare_doubles);
  guint rank = (guint) (p / 100.0 * n + 0.999999);
  return values[CLAMP (rank, 1u, n) - 1];
}

double
fl_bench_median (double *values, guint n)
{
  g_assert (n > 0);
  qsort (values, n, sizeof *values, compare_doubles);
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

static guint64
status_kib (const char *field)
{
  g_autofree char *text = NULL;
  if (!g_file_get_contents ("/proc/self/status", &text, NULL, NULL))
    return 0;
  const char *line = strstr (text, field);
  return line ? g_ascii_strtoull (line + strlen (field), NULL, 10) : 0;
}

/* The resident-set high-water mark. VmHWM can be reset (below), ru_maxrss cannot, so VmHWM is
 * preferred; ru_maxrss is the fallback where /proc is missing. */
guint64
fl_bench_peak_rss_kib (void)
{
  guint64 hwm = status_kib ("VmHWM:");
  if (hwm > 0)
    return hwm;
  struct rusage usage;
  getrusage (RUSAGE_SELF, &usage);
  return (guint64) usage.ru_maxrss;
}

/* Writing 5 to clear_refs (Linux ≥ 4.0) sets VmHWM back to the current RSS, so the peak of
 * one run is not hidden by an earlier, larger one. */
gboolean
fl_bench_reset_peak_rss (void)
{
  FILE *f = fopen ("/proc/self/clear_refs", "w");
  if (f == NULL)
    return FALSE;
  gboolean ok = fputs ("5", f) >= 0;
  return fclose (f) == 0 && ok;
}

/* Bytes malloc has handed out and not taken back, mmap'd blocks included: what a structure
 * really costs, allocator rounding and GArray's doubling included. */
gsize
fl_bench_heap_in_use (void)
{
  struct mallinfo2 info = mallinfo2 ();
  return info.uordblks + info.hblkhd;
}
