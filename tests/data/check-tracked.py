#!/usr/bin/env python3
"""Every source file the build reads is tracked by git, so a clean clone builds as this tree does.

A file that .gitignore swallows (build-aux/ once matched '/build-*/') or that was never added
works on the machine that wrote it and fails everywhere else; this check fails on that machine.

What "read by the build" means here, from the build's own records rather than a list kept by hand:
  - meson's build-system files (every meson.build, meson_options.txt, files read with fs.read);
  - every input ninja knows for every target, and the headers and depfile inputs it recorded
    while compiling (ninja -t inputs all, ninja -t deps);
  - every file a test names on its command line;
  - every existing path that the Makefile or .ci/run name;
  - in the directories tests read at run time (G_TEST_SRCDIR, directory arguments), every file
    git ignores: an ignore rule is how a needed file vanishes unseen.

Usage: check-tracked.py SOURCE_ROOT BUILD_ROOT NINJA. Exit 77 (meson's "skipped") when the
source tree is not a git checkout: a release tarball has nothing to compare against.
"""

import json
import os
import re
import subprocess
import sys


def run(args, cwd):
    return subprocess.run(args, cwd=cwd, check=True, capture_output=True, text=True).stdout


def under(path, root):
    return path == root or path.startswith(root + os.sep)


def in_build_tree(path, srcroot):
    """Inside some meson build folder (this one, build-release/, build-asan/, ...): outputs,
    which the Makefile names as targets, not sources a clean clone must carry."""
    d = os.path.dirname(path)
    while under(d, srcroot) and d != srcroot:
        if os.path.isdir(os.path.join(d, 'meson-private')):
            return True
        d = os.path.dirname(d)
    return False


class Needed:
    """Paths inside the source tree (but outside the build tree), each with who reads it."""

    def __init__(self, srcroot, buildroot):
        self.srcroot, self.buildroot = srcroot, buildroot
        self.files = {}
        self.dirs = {}

    def add(self, path, reader, base):
        path = os.path.realpath(os.path.join(base, path))
        if (not under(path, self.srcroot) or under(path, self.buildroot)
                or in_build_tree(path, self.srcroot)):
            return
        if os.path.isfile(path):
            self.files.setdefault(path, reader)
        elif os.path.isdir(path) and path != self.srcroot:
            self.dirs.setdefault(path, reader)


def from_meson(needed, buildroot):
    info = os.path.join(buildroot, 'meson-info')
    with open(os.path.join(info, 'intro-buildsystem_files.json')) as f:
        for path in json.load(f):
            needed.add(path, 'meson', buildroot)
    with open(os.path.join(info, 'intro-tests.json')) as f:
        for test in json.load(f):
            reader = "the test '%s'" % test['name']
            workdir = test.get('workdir') or buildroot
            for arg in test['cmd']:
                needed.add(arg, reader, workdir)
            srcdir = (test.get('env') or {}).get('G_TEST_SRCDIR')
            if srcdir:
                needed.add(srcdir, reader, workdir)


def from_ninja(needed, buildroot, ninja):
    for line in run([ninja, '-t', 'inputs', 'all'], buildroot).splitlines():
        needed.add(line.strip(), 'ninja (a target input)', buildroot)
    owner = None
    for line in run([ninja, '-t', 'deps'], buildroot).splitlines():
        if not line.strip():
            continue
        if not line[0].isspace():
            owner = line.split(':', 1)[0]
        else:
            needed.add(line.strip(), 'ninja (a dependency of %s)' % owner, buildroot)


def from_scripts(needed, srcroot):
    """Any word of the Makefile or .ci/run that names an existing path of the source tree."""
    for script in ('Makefile', '.ci/run'):
        path = os.path.join(srcroot, script)
        needed.add(path, 'the project', srcroot)
        with open(path) as f:
            text = f.read()
        for word in set(re.findall(r'[A-Za-z0-9_.][A-Za-z0-9_./+-]*', text)):
            if os.path.isfile(os.path.join(srcroot, word)):
                needed.add(word, script, srcroot)


def ignored(srcroot, paths):
    if not paths:
        return set()
    relative = '\0'.join(os.path.relpath(p, srcroot) for p in paths) + '\0'
    result = subprocess.run(['git', 'check-ignore', '--stdin', '-z'], cwd=srcroot, input=relative,
                            capture_output=True, text=True)
    if result.returncode not in (0, 1):
        raise RuntimeError(result.stderr.strip())
    return {os.path.join(srcroot, p) for p in result.stdout.split('\0') if p}


def ignore_rule(srcroot, path):
    rel = os.path.relpath(path, srcroot)
    result = subprocess.run(['git', 'check-ignore', '-v', rel], cwd=srcroot, capture_output=True,
                            text=True)
    return result.stdout.strip().split('\t')[0] if result.returncode == 0 else None


def main():
    if len(sys.argv) != 4:
        print('usage: check-tracked.py SOURCE_ROOT BUILD_ROOT NINJA', file=sys.stderr)
        return 2
    srcroot, buildroot = (os.path.realpath(p) for p in sys.argv[1:3])
    ninja = sys.argv[3]

    try:
        toplevel = run(['git', 'rev-parse', '--show-toplevel'], srcroot).strip()
    except (OSError, subprocess.CalledProcessError):
        print('%s is not a git checkout: nothing to compare the build against' % srcroot)
        return 77
    if os.path.realpath(toplevel) != srcroot:
        print('%s is inside the git checkout %s, not its root' % (srcroot, toplevel))
        return 77

    needed = Needed(srcroot, buildroot)
    from_meson(needed, buildroot)
    from_ninja(needed, buildroot, ninja)
    from_scripts(needed, srcroot)

    tracked = {os.path.join(srcroot, p)
               for p in run(['git', 'ls-files', '-z'], srcroot).split('\0') if p}
    problems = []
    for path, reader in sorted(needed.files.items()):
        if path not in tracked:
            problems.append((path, reader))
    in_dirs = {}
    for directory, reader in needed.dirs.items():
        for base, subdirs, names in os.walk(directory):
            subdirs[:] = [d for d in subdirs
                          if not under(os.path.realpath(os.path.join(base, d)), buildroot)]
            for name in names:
                in_dirs.setdefault(os.path.join(base, name), reader)
    for path in sorted(ignored(srcroot, list(in_dirs))):
        if path not in needed.files:
            problems.append((path, in_dirs[path] + ', reading its directory'))

    for path, reader in problems:
        rel = os.path.relpath(path, srcroot)
        rule = ignore_rule(srcroot, path)
        why = ('ignored by %s' % rule) if rule else 'never added (git add it)'
        print('%s: read by %s, but not tracked by git: %s' % (rel, reader, why))
    if problems:
        print('%d file(s) the build reads would be missing from a clean clone' % len(problems))
        return 1
    print('%d files the build reads, all tracked by git' % len(needed.files))
    return 0


if __name__ == '__main__':
    sys.exit(main())
