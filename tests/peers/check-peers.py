#!/usr/bin/env python3
"""The race explorer cross-checked by SPIN (issue 17, item 7).

Each case is a Promela model of tests/peers/ with one switch (a cpp macro) and the built-in
scenario with the same switch (`--set`). SPIN's verifier, pan, searches the model's whole
state space and lists the kinds of error it meets; `faultline-cli explore --all` searches the
scenario's interleavings and lists the kinds of finding. Both must give the kinds this file
expects, so they agree with each other: two searches of two independently written models of
the same 2010 code.

  check-peers.py CLI MODEL_DIR

TAP on standard output, two tests per case (pan's verdict, the explorer's). A missing spin or
gcc fails every case with what to install: `make test` installs both
(build-aux/debian-packages), so a missing one is a broken machine, not a reason to skip.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# model, macro (None: the safe design), scenario, --set (None: the safe design), kinds
CASES = [
    ("spf-vs-munmap.pml", None, "spf-vs-munmap", None, set()),
    ("spf-vs-munmap.pml", "VMA_FREE_IMMEDIATE", "spf-vs-munmap", "vma-free=immediate",
     {"use-after-free"}),
    # spf-ptl-vs-munmap has spf-vs-munmap's CPUs and operations: only its [schedule],
    # which the explorer ignores, differs
    ("spf-vs-munmap.pml", "PIN_PAGE_TABLES_NONE", "spf-ptl-vs-munmap", "pin-page-tables=none",
     {"use-after-free", "freed-while-locked"}),
    # munmap flushes the TLBs after it drops the PTE lock: spinning with IRQs off is safe here
    ("spf-vs-munmap.pml", "PTE_MAP_LOCK_SPIN_IRQS_OFF", "spf-vs-munmap",
     "pte-map-lock=spin-irqs-off", set()),
    ("spf-tlb-ipi.pml", None, "spf-tlb-ipi", None, set()),
    ("spf-tlb-ipi.pml", "PTE_MAP_LOCK_SPIN_IRQS_OFF", "spf-tlb-ipi", "pte-map-lock=spin-irqs-off",
     {"deadlock"}),
]

# pan's error messages, as the models' assertions make them, and the oracle's kinds
KINDS = {
    "assertion violated  !(vma_freed)": "use-after-free",
    "assertion violated  !(tables_freed)": "use-after-free",
    "assertion violated (ptl==0)": "freed-while-locked",
    "assertion violated  !(pte_present)": "stale-mapping",
    "invalid end state": "deadlock",
}

# A bound on a hang, not a speed target (the searches take well under a second)
TIMEOUT = 300
# The deepest path is about a hundred steps; pan says so if this is too small
DEPTH = 10000


def run(args, cwd=None):
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT)


def pan(model_dir, model, macro, work):
    """Generates, compiles and runs pan on a copy of the models in `work` (pan writes its
    trail next to the model it was generated from: not into the source tree). -c0 goes on
    after an error, so the search is complete and every kind of error is printed: pan
    prints an error's message whenever it differs from the previous one."""
    for name in os.listdir(model_dir):
        if name.endswith(".pml"):
            shutil.copy(os.path.join(model_dir, name), work)
    defines = ["-D" + macro] if macro else []
    p = run(["spin"] + defines + ["-a", model], cwd=work)
    if p.returncode != 0:
        raise RuntimeError("spin -a %s failed:\n%s%s" % (model, p.stdout, p.stderr))
    # -O0: at a few thousand states compiling dominates, and pan's speed is the benchmark's
    p = run(["gcc", "-O0", "-DSAFETY", "-o", "pan", "pan.c"], cwd=work)
    if p.returncode != 0:
        raise RuntimeError("gcc pan.c failed:\n%s" % p.stderr)
    p = run(["./pan", "-m%d" % DEPTH, "-c0", "-w20"], cwd=work)
    out = p.stdout
    for warning in ("max search depth too small", "Search not completed"):
        if warning in out:
            raise RuntimeError("pan: %s: the verdict is not of the whole state space\n%s"
                               % (warning, out))
    errors = re.search(r"errors: (\d+)", out)
    states = re.search(r"(\d+) states, stored", out)
    if p.returncode != 0 or not errors or not states:
        raise RuntimeError("pan did not report its search (exit %d):\n%s%s"
                           % (p.returncode, out, p.stderr))
    messages = set(re.findall(r"(?m)^pan:\d+: (.*) \(at depth \d+\)$", out))
    unknown = messages - set(KINDS)
    if unknown:
        raise RuntimeError("pan errors that map to no finding kind: %s" % ", ".join(unknown))
    kinds = {KINDS[m] for m in messages}
    if int(errors.group(1)) > 0 and not kinds:
        raise RuntimeError("pan counts %s errors but printed none:\n%s" % (errors.group(1), out))
    return kinds, int(states.group(1)), int(errors.group(1))


def explore(cli, scenario, switch):
    """The explorer's kinds of finding, every kind (--all), checked against its verdict and
    exit status."""
    args = [cli, "explore", scenario, "--all", "--json"] + (["--set", switch] if switch else [])
    p = run(args)
    if p.returncode not in (0, 1):
        raise RuntimeError("%s: exit %d\n%s" % (" ".join(args[1:]), p.returncode, p.stderr))
    result = json.loads(p.stdout)
    kinds = {f["kind"] for f in result["findings"]}
    verdict = result["verdict"]
    if (p.returncode == 1) != bool(kinds) or verdict != ("found" if kinds else "complete"):
        raise RuntimeError("exit %d and verdict %s with findings %s"
                           % (p.returncode, verdict, sorted(kinds) or "none"))
    return kinds, result["schedules"], result["states"], result["seconds"]


def named(kinds):
    return ", ".join(sorted(kinds)) or "no error"


def main():
    cli, model_dir = sys.argv[1], sys.argv[2]
    missing = [tool for tool in ("spin", "gcc") if shutil.which(tool) is None]
    print("1..%d" % (2 * len(CASES)))
    n = 0
    for model, macro, scenario, switch, expected in CASES:
        name = "%s%s" % (model, " -D" + macro if macro else "")
        n += 1
        try:
            if missing:
                raise RuntimeError("%s not found on PATH: install the Debian package%s %s "
                                   "(make test does, from build-aux/debian-packages)"
                                   % (" and ".join(missing), "s" if len(missing) > 1 else "",
                                      " ".join(missing)))
            with tempfile.TemporaryDirectory(prefix="faultline-peers-") as work:
                kinds, states, errors = pan(model_dir, model, macro, work)
            verdict = "pan %s: %s (%d states stored, %d errors)" % (name, named(kinds), states,
                                                                  errors)
            print("%s %d - %s%s" % ("ok" if kinds == expected else "not ok", n, verdict,
                                    "" if kinds == expected else ", expected " + named(expected)))
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            print("not ok %d - pan %s" % (n, name))
            print("# " + str(e).replace("\n", "\n# "))
        n += 1
        what = "explore %s%s" % (scenario, " --set " + switch if switch else "")
        try:
            kinds, schedules, states, seconds = explore(cli, scenario, switch)
            verdict = "%s: %s (%d schedules, %d states, %.2f s)" % (what, named(kinds), schedules,
                                                                   states, seconds)
            print("%s %d - %s%s" % ("ok" if kinds == expected else "not ok", n, verdict,
                                    "" if kinds == expected else ", expected " + named(expected)))
        except (RuntimeError, ValueError, KeyError, subprocess.TimeoutExpired) as e:
            print("not ok %d - %s" % (n, what))
            print("# " + str(e).replace("\n", "\n# "))
    return 0


if __name__ == "__main__":
    sys.exit(main())
