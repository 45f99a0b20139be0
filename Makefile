# Faultline — the README's two commands (`make run`, `make test`) and the documented extras.
# Every target but clean first installs the Debian packages listed in build-aux/debian-packages;
# `make fuzz` and `make lint` also those of build-aux/debian-packages-tools, `make valgrind`
# those of build-aux/debian-packages-valgrind.

BUILD      ?= build
RELEASE    ?= build-release
OUT        ?= out
SCENARIO   ?= spf-vs-munmap
FUZZ       ?= build-fuzz
FUZZ_SECONDS ?= 600
# libFuzzer's bound on one input, wall-clock: raise it on a loaded machine (make fuzz under
# nice beside other work), where a starved input is no hang
FUZZ_TIMEOUT ?= 10
FUZZ_TARGETS := scenario sim store
PACKAGE_LIST := build-aux/debian-packages
TOOL_PACKAGE_LIST := build-aux/debian-packages-tools
VALGRIND_PACKAGE_LIST := build-aux/debian-packages-valgrind
# the lists `deps` installs: the extras add theirs (a target's variable reaches its prerequisites)
PACKAGE_LISTS = $(PACKAGE_LIST)
fuzz lint: PACKAGE_LISTS = $(PACKAGE_LIST) $(TOOL_PACKAGE_LIST)
valgrind: PACKAGE_LISTS = $(PACKAGE_LIST) $(VALGRIND_PACKAGE_LIST)
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
UI_TEST_ENV := GSK_RENDERER=cairo GDK_BACKEND=x11 GTK_A11Y=test GDK_DEBUG=default-settings \
               GSETTINGS_BACKEND=memory NO_AT_BRIDGE=1

.PHONY: all deps build run test bench asan valgrind fuzz lint clean

all: build

# Stops at once when the package list is missing or empty: going on without it would hide a
# missing package on a machine that happens to have it and fail later, far from the cause.
deps:
	@packages=; \
	for list in $(PACKAGE_LISTS); do \
	  if [ ! -r $$list ]; then \
	    echo "make: $$list is missing: it lists the Debian packages the build needs" \
	         "(restore it with 'git checkout -- $$list')" >&2; exit 1; \
	  fi; \
	  listed=$$(sed -e 's/#.*//' $$list); \
	  if [ -z "$$(echo $$listed)" ]; then \
	    echo "make: $$list lists no packages" >&2; exit 1; \
	  fi; \
	  packages="$$packages $$listed"; \
	done; \
	missing=$$(for p in $$packages; do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; \
	  done); \
	if [ -n "$$missing" ]; then \
	  if [ -n "$(SUDO)" ] && ! command -v sudo >/dev/null; then \
	    echo "make: these Debian packages are missing and installing them needs root or sudo:" \
	         $$missing >&2; exit 1; \
	  fi; \
	  echo "Installing missing Debian packages:" $$missing; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi

$(BUILD)/build.ninja: | deps
	meson setup $(BUILD) --werror

build: deps $(BUILD)/build.ninja
	meson compile -C $(BUILD)

# Opens the window on the default scenario; with no display, runs it headless and writes images.
run: build
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
	  $(BUILD)/app/faultline $(SCENARIO); \
	else \
	  echo "No display found: running '$(SCENARIO)' headless and writing its views to $(OUT)/"; \
	  mkdir -p $(OUT); \
	  $(BUILD)/app/faultline-cli run $(SCENARIO); status=$$?; \
	  [ $$status -le 1 ] || exit $$status; \
	  $(BUILD)/app/faultline-cli export $(SCENARIO) --view all --step end --format png -o $(OUT)/$(SCENARIO).png && \
	  echo "Wrote $(OUT)/$(SCENARIO).png"; \
	fi

test: build
	dbus-run-session -- xvfb-run -a -s "-screen 0 1600x1000x24" \
	  env $(UI_TEST_ENV) meson test -C $(BUILD) --print-errorlogs

# Extras (see README): release-build benchmarks, fuzzing, sanitizers.
# bench: the 2010 table (simulated fault rates), then the simulator's own speed, written up in
# docs/performance.md. Release build, without the window tests.
bench: deps
	[ -f $(RELEASE)/build.ninja ] || meson setup $(RELEASE) --buildtype=release -Dui_tests=false
	meson compile -C $(RELEASE)
	$(RELEASE)/app/faultline-cli bench --workload multi-fault --cpus 1,2,4,8
	$(RELEASE)/app/faultline-cli bench --workload multi-fault --sensitivity \
	  --chart docs/screenshots/sensitivity.png
	@# the window's frames need a display: a virtual one when there is none
	if [ -n "$$DISPLAY" ]; then \
	  env GSK_RENDERER=cairo $(RELEASE)/bench/faultline-bench-window \
	    --results $(RELEASE)/window-results.ini; \
	else \
	  dbus-run-session -- xvfb-run -a -s "-screen 0 1920x1080x24" \
	    env GSK_RENDERER=cairo GDK_BACKEND=x11 NO_AT_BRIDGE=1 GSETTINGS_BACKEND=memory \
	    $(RELEASE)/bench/faultline-bench-window --results $(RELEASE)/window-results.ini; \
	fi
	$(RELEASE)/bench/faultline-bench --window-results $(RELEASE)/window-results.ini \
	  --write-doc docs/performance.md

# The tests' time limits are bounds on a hang set for the normal build: ASan with UBSan runs
# 3 to 5 times slower (measured; tests/cli/test-hostile.c has the numbers), so its limits are
# 5 times theirs: meson's through its multiplier, check-golden.py's per-run one through
# FL_TEST_SLOWDOWN.
ASAN_SLOWDOWN := 5
asan: deps
	[ -f build-asan/build.ninja ] || meson setup build-asan -Db_sanitize=address,undefined -Dui_tests=false
	meson compile -C build-asan
	ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_summary=1:fast_unwind_on_malloc=0 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/build-aux/lsan-suppressions:print_suppressions=0 \
	  FL_TEST_SLOWDOWN=$(ASAN_SLOWDOWN) meson test -C build-asan --print-errorlogs --timeout-multiplier $(ASAN_SLOWDOWN) \
	  --suite core --suite cli --suite data

# valgrind: every built-in scenario (`faultline-cli list`) run by the normal build under
# memcheck, once plain and once recorded into a new store: any memory error or definitely lost
# block fails (exit 99 from valgrind), as does a run that exits 2 or more. Suppressions in
# build-aux/valgrind-suppressions name library functions only, never ours. G_SLICE is for
# GLib before 2.76, whose slice allocator hides blocks from valgrind.
VALGRIND_OPTIONS := --quiet --leak-check=full --show-leak-kinds=definite \
  --errors-for-leak-kinds=definite --error-exitcode=99 --track-origins=yes \
  --suppressions=$(CURDIR)/build-aux/valgrind-suppressions
valgrind: build
	@tmp=$$(mktemp -d); status=0; \
	for s in $$($(BUILD)/app/faultline-cli list | cut -d' ' -f1); do \
	  for record in "" "--record=$$tmp/runs.db"; do \
	    echo "valgrind: faultline-cli run $$s $$record"; \
	    G_SLICE=always-malloc valgrind $(VALGRIND_OPTIONS) \
	      $(BUILD)/app/faultline-cli run $$s $$record >/dev/null; rc=$$?; \
	    [ $$rc -le 1 ] || { echo "valgrind: $$s failed (exit $$rc)" >&2; status=1; }; \
	  done; \
	done; rm -rf $$tmp; exit $$status

# fuzz: each libFuzzer target of tests/fuzz/ for FUZZ_SECONDS, on the seeds (the scenarios,
# the good and hostile corpora, a store the normal build writes) and what earlier runs found
# ($(FUZZ)/corpus/). A crash, leak or out-of-memory goes to $(FUZZ)/crashes/TARGET/; copy it to
# tests/fuzz/regressions/TARGET/ with the fix so that `make test` replays it. Every target
# runs even when one fails; the status says whether any did. A GLib critical (a broken
# precondition) counts as a crash, as in make test.
fuzz: build
	[ -f $(FUZZ)/build.ninja ] || CC=clang-14 meson setup $(FUZZ) --werror -Dfuzzing=true \
	  -Db_sanitize=address,undefined -Db_lundef=false
	meson compile -C $(FUZZ)
	mkdir -p $(FUZZ)/seeds/store
	cp $(BUILD)/tests/fuzz/seed-store.db $(FUZZ)/seeds/store/
	@status=0; for t in $(FUZZ_TARGETS); do \
	  case $$t in \
	    store) seeds="$(FUZZ)/seeds/store tests/data/hostile"; dict=-dict=tests/fuzz/store.dict ;; \
	    *) seeds="data/scenarios tests/data/good tests/data/hostile"; \
	       dict=-dict=tests/fuzz/scenario.dict ;; \
	  esac; \
	  mkdir -p $(FUZZ)/corpus/$$t $(FUZZ)/crashes/$$t; \
	  echo "fuzz-$$t: $(FUZZ_SECONDS) s"; \
	  G_DEBUG=fatal-criticals $(FUZZ)/tests/fuzz/fuzz-$$t -max_total_time=$(FUZZ_SECONDS) \
	    -rss_limit_mb=1024 -timeout=$(FUZZ_TIMEOUT) -print_final_stats=1 $$dict \
	    -artifact_prefix=$(FUZZ)/crashes/$$t/ \
	    $(FUZZ)/corpus/$$t tests/fuzz/regressions/$$t $$seeds || status=1; \
	done; exit $$status

# The core's folders (core/meson.build), for lint.
CORE_AREAS := sim scenario store explore bench

# lint: cppcheck and clang-tidy on core/, with the configuration in the tree (.clang-tidy,
# build-aux/cppcheck-suppressions); any finding fails. clang-tidy reads the compile commands of
# $(BUILD), which the build also gives the generated resource header.
lint: build
	cppcheck --quiet --error-exitcode=1 --enable=warning,style,performance,portability \
	  --std=c11 --library=gtk --library=build-aux/cppcheck-glib.cfg --inline-suppr --suppressions-list=build-aux/cppcheck-suppressions \
	  $(CORE_AREAS:%=-I core/%) $(CORE_AREAS:%=core/%/*.c)
	clang-tidy -p $(BUILD) --quiet --warnings-as-errors='*' $(CORE_AREAS:%=core/%/*.c)

clean:
	rm -rf $(BUILD) $(RELEASE) build-asan $(FUZZ) $(OUT)
