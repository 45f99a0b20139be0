#!/usr/bin/env python3
"""The events of every built-in run, pinned: a restructuring of the core must not change them.

golden-runs.txt holds one line per run: the events' hash, the steps and the exit status,
then the faultline-cli arguments that make the run. The cases are every built-in scenario
under its own schedule, under random schedules with seeds 1-5 and under every value of
every what-if switch, and `bench` at 1, 8 and 64 CPUs (one hash per row).

  check-golden.py CLI FILE           run every line, report each one that differs
  check-golden.py CLI FILE --write   enumerate the cases again and write FILE

A change of the model changes these hashes on purpose: rewrite the file with --write and say
in the commit what moved and why. A change that only restructures must leave it untouched.
"""
import concurrent.futures
import json
import os
import re
import subprocess
import sys

SEEDS = range(1, 6)
BENCH = [("multi-fault", "1,8,64"), ("multi-fault-all-split", "8"), ("will-it-scale-pf1", "8")]
# designs outside the default list (Kamezawa's refcount design), each against the baseline
BENCH_CONFIGS = [("multi-fault-all-split", "8", "baseline,refcount")]


# A bound on a hang, not a speed target: make asan sets FL_TEST_SLOWDOWN to its measured
# slowdown, and the longest bench row there takes several times the normal build's 600 s.
TIMEOUT = 600 * int(os.environ.get("FL_TEST_SLOWDOWN", "1"))


def cli(binary, args):
    return subprocess.run([binary] + args, capture_output=True, text=True, timeout=TIMEOUT)


def switches(binary):
    """Every enumerated switch and its values, as the CLI's own errors name them."""
    err = cli(binary, ["run", "spf-vs-munmap", "--set", "no-such-key=0"]).stderr
    keys = re.search(r"valid keys: ([^)]*)\)", err).group(1).split(", ")
    out = {}
    for key in keys:
        err = cli(binary, ["run", "spf-vs-munmap", "--set", key + "=no-such-value"]).stderr
        m = re.search(r"\(valid: ([^)]*)\)", err)
        if m and not m.group(1).startswith("a whole number"):
            out[key] = m.group(1).split(", ")
    return out


def cases(binary):
    listing = json.loads(cli(binary, ["list", "--json"]).stdout)
    ids = [s["id"] for s in (listing["scenarios"] if isinstance(listing, dict) else listing)]
    sw = switches(binary)
    runs = []
    for sid in ids:
        runs.append(["run", sid])
        runs += [["run", sid, "--schedule", "random", "--seed", str(s)] for s in SEEDS]
        for key, values in sw.items():
            runs += [["run", sid, "--set", key + "=" + v] for v in values]
    benches = [["bench", "--workload", w, "--cpus", c] for w, c in BENCH]
    benches += [["bench", "--workload", w, "--cpus", c, "--configs", d] for w, c, d in BENCH_CONFIGS]
    return runs, benches, sw


def measure(binary, args):
    if args[0] == "bench":
        p = cli(binary, args + ["--json"])
        rows = json.loads(p.stdout)["rows"] if p.returncode == 0 else []
        return "%s %d %d" % (",".join(r["hash"] for r in rows) or "-", len(rows), p.returncode)
    p = cli(binary, args + ["--json"])
    if p.returncode not in (0, 1):
        return "- 0 %d" % p.returncode
    s = json.loads(p.stdout)
    return "%s %d %d" % (s["hash"], s["steps"], p.returncode)


def measure_all(binary, arglists):
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return list(pool.map(lambda a: measure(binary, a), arglists))


def main():
    binary, path = sys.argv[1], sys.argv[2]
    if "--write" in sys.argv[3:]:
        runs, benches, _ = cases(binary)
        arglists = runs + benches
        results = measure_all(binary, arglists)
        with open(path, "w") as f:
            f.write("# hash steps-or-rows exit  faultline-cli arguments (tests/cli/check-golden.py)\n")
            for r, a in zip(results, arglists):
                f.write("%s  %s\n" % (r, " ".join(a)))
        print("wrote %d cases to %s" % (len(arglists), path))
        return 0

    expected = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if line.startswith("#") or not line.strip():
                continue
            head, args = line.rstrip("\n").split("  ", 1)
            expected.append((n, head, args.split(" ")))
    _, _, sw = cases(binary)
    listed = {a[3] for _, _, a in expected if len(a) > 3 and a[2] == "--set"}
    missing = ["%s=%s" % (k, v) for k, vs in sw.items() for v in vs if "%s=%s" % (k, v) not in listed]
    print("1..2")
    if missing:
        print("not ok 1 - switch values without golden runs: %s (rewrite with --write)" % ", ".join(missing))
    else:
        print("ok 1 - every switch value has golden runs")
    results = measure_all(binary, [a for _, _, a in expected])
    bad = [(n, h, r, a) for (n, h, a), r in zip(expected, results) if h != r]
    for n, h, r, a in bad[:400]:
        print("# %s:%d: faultline-cli %s: expected %s, got %s" % (os.path.basename(path), n, " ".join(a), h, r))
    if bad:
        print("not ok 2 - %d of %d runs changed their events" % (len(bad), len(expected)))
    else:
        print("ok 2 - %d runs give the events they gave when the list was written" % len(expected))
    return 0


if __name__ == "__main__":
    sys.exit(main())
