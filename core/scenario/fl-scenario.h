#pragma once

#include <glib.h>
#include "fl-config.h"

G_BEGIN_DECLS

/* A scenario: initial mappings, one program of operations per CPU, an optional scripted
 * schedule. Parsed from the `.fault` text format (docs/scenario-format.md). */

typedef enum {
  FL_PROT_READ  = 1 << 0,
  FL_PROT_WRITE = 1 << 1,
  FL_PROT_EXEC  = 1 << 2,
} FlProt;

typedef enum {
  FL_MAP_ANON,        /* private anonymous */
  FL_MAP_FILE,        /* private file mapping: reads share the page cache, writes copy */
  FL_MAP_SHARED,      /* shared file mapping */
} FlMapKind;

/* Initial state of one page of a mapping, to stage swap-in, migration or COW faults. */
typedef enum {
  FL_PTE_INIT_PRESENT,      /* a private page, writable if the VMA is */
  FL_PTE_INIT_READONLY,     /* a page shared copy-on-write (as after fork) */
  FL_PTE_INIT_SWAP,         /* swapped out: a swap entry */
  FL_PTE_INIT_MIGRATION,    /* under migration: a migration entry */
} FlPteInit;

typedef struct {
  guint64   start, end;     /* page aligned, start < end */
  guint     prot;           /* FlProt bits */
  FlMapKind kind;
  guint     line;           /* source line, for messages */
} FlScenarioVma;

typedef struct {
  guint64   addr;           /* page aligned */
  FlPteInit state;
  guint     line;
} FlScenarioPte;

typedef enum {
  FL_OP_FAULT,              /* addr, write */
  FL_OP_MMAP,               /* addr, len, prot, kind */
  FL_OP_MUNMAP,             /* addr, len */
  FL_OP_MPROTECT,           /* addr, len, prot */
  FL_OP_MADVISE_DONTNEED,   /* addr, len */
  FL_OP_FORK_WP,            /* addr, len: write-protect private pages for copy-on-write */
  FL_OP_SWAP_OUT,           /* addr: replace the page by a swap entry */
  FL_OP_MIGRATE,            /* addr: migration entry, then the page at its new place */
  FL_OP_BARRIER,            /* wait until every CPU with a program reaches its barrier */
  FL_OP_REPEAT,             /* count: repeat the next `body` ops */
} FlOpKind;

/* How an operation's address was written; kept so saving reproduces the text. */
typedef enum {
  FL_ADDR_ABSOLUTE,         /* 0x7f0000001000: the address; the cursor moves there */
  FL_ADDR_BASE,             /* base+0x1000: relative to the CPU's base; the cursor moves there */
  FL_ADDR_CURSOR,           /* +4096: at the cursor, which then advances by `step` */
} FlAddrMode;

typedef struct {
  FlOpKind   kind;
  FlAddrMode mode;
  guint64    addr;          /* absolute address, or offset from base */
  guint64    step;          /* FL_ADDR_CURSOR: advance after the op */
  guint64    len;
  guint      prot;          /* FL_OP_MMAP, FL_OP_MPROTECT */
  FlMapKind  map_kind;      /* FL_OP_MMAP */
  gboolean   write;         /* FL_OP_FAULT */
  guint      count;         /* FL_OP_REPEAT: iterations */
  guint      body;          /* FL_OP_REPEAT: number of following ops (nested repeats included) */
  guint      line;
} FlOp;

/* How deep repeat blocks may nest: the parser refuses more, so a CPU's loop stack of this
 * many entries always suffices. */
#define FL_SCENARIO_MAX_DEPTH 8

typedef struct {
  guint64 base;             /* where the cursor starts; `base` in addresses */
  GArray *ops;              /* FlOp, repeats flattened: REPEAT then its body */
} FlProgram;

typedef enum {
  FL_UNTIL_FUNCTION,        /* cpuN until <function>: stop when it enters that function */
  FL_UNTIL_LOCATION,        /* cpuN until <function>:<tag>: stop before that listing location */
  FL_UNTIL_STEPS,           /* cpuN for N: N steps */
  FL_UNTIL_END,             /* cpuN until end: its program is done */
} FlUntilKind;

typedef struct {
  guint       cpu;
  FlUntilKind kind;
  char       *target;       /* function or function:tag */
  guint64     steps;
  guint       line;
} FlScheduleStep;

typedef struct {
  char     *id;             /* file name without .fault, or the built-in id */
  char     *path;           /* where it was loaded from; NULL for text */
  char     *title;
  char     *description;
  char     *expect;         /* the finding or outcome the scenario is meant to show */
  GStrv     tags;
  guint64   seed;
  FlConfig  config;         /* defaults, overridden by the scenario's [config] keys */
  GStrv     config_keys;    /* which keys the scenario set itself, in file order */
  GArray   *vmas;           /* FlScenarioVma */
  GArray   *ptes;           /* FlScenarioPte */
  GPtrArray *programs;      /* FlProgram *, one per CPU (config.cpus of them) */
  GArray   *schedule;       /* FlScheduleStep; empty when none */
  char     *text;           /* the text as written */
} FlScenario;

#define FL_SCENARIO_ERROR (fl_scenario_error_quark ())
GQuark fl_scenario_error_quark (void);
typedef enum { FL_SCENARIO_ERROR_PARSE, FL_SCENARIO_ERROR_INVALID, FL_SCENARIO_ERROR_IO,
               FL_SCENARIO_ERROR_NOT_FOUND } FlScenarioError;

FlScenario *fl_scenario_parse       (const char *text,
                                     const char *source_name,
                                     GError    **error);
FlScenario *fl_scenario_parse_data  (const char *data,
                                     gsize       length,
                                     const char *source_name,
                                     GError    **error);
FlScenario *fl_scenario_load_file   (const char *path,
                                     GError    **error);
FlScenario *fl_scenario_load_builtin(const char *id,
                                     GError    **error);
FlScenario *fl_scenario_load        (const char *id_or_path,
                                     GError    **error);
/* The line a parse error of text parsed as `source_name` points at (1-based), and its text
 * after the "SOURCE:LINE: " prefix; FALSE for an error that is not such a parse error. */
gboolean    fl_scenario_error_get_line (const GError *error,
                                        const char   *source_name,
                                        guint        *out_line,
                                        const char  **out_what);
GStrv       fl_scenario_builtin_ids (void);
char       *fl_scenario_to_text     (const FlScenario *scenario);
gboolean    fl_scenario_equal       (const FlScenario *a,
                                     const FlScenario *b);
void        fl_scenario_free        (FlScenario *scenario);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FlScenario, fl_scenario_free)

G_END_DECLS
