#pragma once

/* What every fuzz target shares: libFuzzer's entry point, built into the fuzzer (clang,
 * -fsanitize=fuzzer) and into the replay program of `make test` (fuzz-replay.c) alike, and
 * the one way a harness reports a broken property. */

#include <stddef.h>
#include <stdint.h>
#include <glib.h>
#include "fl-scenario.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* A property the harness checks does not hold: abort, which libFuzzer keeps as a crash and
 * the replay test reports as a failure. Only the harness calls this, never the core. */
G_GNUC_NORETURN G_GNUC_PRINTF (1, 2) void fl_fuzz_fail (const char *format, ...);

/* A seed for the random schedule taken from the input itself, so a crash replays alike. */
guint64 fl_fuzz_input_hash (const uint8_t *data, size_t size);

/* The input parsed as a .fault file; NULL when it does not parse, which must say why. */
FlScenario *fl_fuzz_parse (const uint8_t *data, size_t size);
