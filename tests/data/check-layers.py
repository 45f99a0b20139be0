#!/usr/bin/env python3
"""The views never see the simulation's insides: no file compiled for ui/ or app/ reads, even
through another header, the machine's writable state (core/sim/fl-state.h), the modeled
functions' frames and locals (fl-frame-locals.h), or a header core keeps to itself (any
core header named *-private.h or *-internal.h). What they may read of a state is
fl-state-view.h; what a CPU is doing comes decoded from fl-cpu-view.h.

The include graph is the compiler's own: for every object built from a source under ui/ or
app/ (compile_commands.json), the headers ninja recorded while compiling it (ninja -t deps),
so a header that includes another is followed as far as the compiler went. The sources are
read too, for an #include of those headers the build did not get to.

Usage: check-layers.py SOURCE_ROOT BUILD_ROOT NINJA
"""

import json
import os
import re
import subprocess
import sys

LAYERS = ('ui', 'app')
FORBIDDEN = ('fl-state.h', 'fl-frame-locals.h')


def forbidden(header, srcroot):
    """Why `header` (a path) must not be read from ui/ or app/, or None."""
    path = os.path.realpath(header)
    core = os.path.join(srcroot, 'core') + os.sep
    if not path.startswith(core):
        return None
    name = os.path.basename(path)
    if name in FORBIDDEN:
        return 'the simulation\'s own state (read fl-state-view.h, fl-cpu-view.h instead)'
    if name.endswith('-private.h') or name.endswith('-internal.h'):
        return 'a header core keeps to itself'
    return None


def layer_of(source, srcroot):
    rel = os.path.relpath(os.path.realpath(source), srcroot)
    top = rel.split(os.sep)[0]
    return top if top in LAYERS else None


def main():
    srcroot, buildroot, ninja = (os.path.realpath(sys.argv[1]), os.path.realpath(sys.argv[2]),
                                 sys.argv[3])
    with open(os.path.join(buildroot, 'compile_commands.json')) as f:
        commands = json.load(f)
    problems = []
    objects = 0
    for entry in commands:
        source = os.path.join(entry['directory'], entry['file'])
        if layer_of(source, srcroot) is None:
            continue
        objects += 1
        deps = subprocess.run([ninja, '-C', buildroot, '-t', 'deps', entry['output']],
                              check=True, capture_output=True, text=True).stdout
        headers = [line.strip() for line in deps.splitlines() if line.startswith('    ')]
        if not headers and '#deps' not in deps:
            problems.append('%s: ninja has no record of its headers (build first)'
                            % os.path.relpath(source, srcroot))
        for header in headers:
            why = forbidden(os.path.join(buildroot, header), srcroot)
            if why:
                problems.append('%s reads %s: %s' % (os.path.relpath(source, srcroot),
                                                     os.path.relpath(os.path.realpath(
                                                         os.path.join(buildroot, header)),
                                                         srcroot), why))
    # the core headers by name, as the include path finds them
    core_headers = {}
    for folder, _, files in os.walk(os.path.join(srcroot, 'core')):
        for name in files:
            if name.endswith('.h'):
                core_headers[name] = os.path.join(folder, name)
    include = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
    for layer in LAYERS:
        for folder, _, files in os.walk(os.path.join(srcroot, layer)):
            for name in files:
                if not name.endswith(('.c', '.h')):
                    continue
                path = os.path.join(folder, name)
                with open(path, encoding='utf-8') as f:
                    for number, line in enumerate(f, 1):
                        m = include.match(line)
                        if m is None or os.path.exists(os.path.join(folder, m.group(1))):
                            continue
                        header = core_headers.get(os.path.basename(m.group(1)))
                        why = header and forbidden(header, srcroot)
                        if why:
                            problems.append('%s:%d includes %s: %s' % (
                                os.path.relpath(path, srcroot), number, m.group(1), why))
    if objects == 0:
        problems.append('no object of ui/ or app/ in compile_commands.json')
    for p in sorted(set(problems)):
        print(p)
    if problems:
        print('%d file(s) of ui/ or app/ see the simulation\'s insides' % len(set(problems)))
        return 1
    print('%d objects of ui/ and app/ read no core-private header' % objects)
    return 0


if __name__ == '__main__':
    sys.exit(main())
