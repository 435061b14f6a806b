#!/usr/bin/env python3
# layer_check.py — checks runtime/core's layering (runtime/core/layers.txt): includes from the
# sources, calls from the built objects (nm); prints each breach and exits 1 if there is one.
"""usage: layer_check.py CORE_DIR OBJ_DIR

CORE_DIR: runtime/core (its layers.txt names the parts, lowest first, and the exceptions).
OBJ_DIR: where the build put runtime/core's objects (BUILD/obj/rt/runtime/core)."""
import os
import re
import subprocess
import sys

SHARED = 'rt_internal.h'  # the lower parts' contracts that most parts include at once
# the rest of the runtime: the faces' contract, the launcher client, the transports' contract
OUTSIDE = ('include', 'launch', 'transport')


def read_layers(core):
    """The parts, lowest first, and the allowed exceptions {(file, symbol or header)}."""
    parts, allowed = [], set()
    for line in open(os.path.join(core, 'layers.txt')):
        line = line.split('#', 1)[0].split()
        if not line:
            continue
        if line[0] == 'allow':
            allowed.add((line[1], line[2]))
        else:
            parts.append(line[0])
    return parts, allowed


def layout_breaches(core, parts):
    """Folders that are not parts, parts without a folder, and sources outside any part."""
    out = []
    for name in sorted(os.listdir(core)):
        path = os.path.join(core, name)
        if os.path.isdir(path) and name not in parts:
            out.append(f'{name}/: a folder that layers.txt does not name as a part')
        elif os.path.isfile(path) and name.endswith(('.c', '.h')) and name != SHARED:
            out.append(f'{name}: a source outside every part folder')
    out += [f'{p}/: a part of layers.txt without its folder' for p in parts
            if not os.path.isdir(os.path.join(core, p))]
    return out


def includes(path):
    """The "quoted" headers a source includes."""
    return re.findall(r'^\s*#\s*include\s+"([^"]+)"', open(path).read(), re.M)


def include_breaches(core, parts):
    """(file, header, why) for each include against the rules."""
    rank = {p: i for i, p in enumerate(parts)}
    out = []
    shared = [h.split('/', 1)[0] for h in includes(os.path.join(core, SHARED))]
    for part in parts:
        folder = os.path.join(core, part)
        for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
            if not name.endswith(('.c', '.h')):
                continue
            rel = f'{part}/{name}'
            for header in includes(os.path.join(folder, name)):
                if header == SHARED:
                    above = [p for p in shared if rank.get(p, len(parts)) > rank[part]]
                    if above:
                        out.append((rel, header, f'it brings part {above[0]}, above part {part}'))
                    continue
                if '/' not in header:
                    outside = [os.path.join(core, '..', d, header) for d in OUTSIDE]
                    if not any(os.path.isfile(h) for h in [os.path.join(folder, header)] + outside):
                        out.append((rel, header, 'not a header of its own part'))
                    continue
                other, base = header.split('/', 1)
                if other not in rank:
                    out.append((rel, header, 'not a part'))
                elif rank[other] > rank[part]:
                    out.append((rel, header, f'part {other} is above part {part}'))
                elif base != f'{other}.h':
                    out.append((rel, header, f'a private header of part {other} (its contract is {other}/{other}.h)'))
    return out


def symbols(obj):
    """(defined, undefined) external symbols of an object file."""
    text = subprocess.run(['nm', obj], capture_output=True, text=True, check=True).stdout
    defined, undefined = set(), set()
    for line in text.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in 'TDBRCGSV':
            defined.add(f[2])
        elif len(f) == 2 and f[0] == 'U':
            undefined.add(f[1])
    return defined, undefined


def call_breaches(core, objdir, parts):
    """(file, symbol, why) for each symbol an object uses from a part above its own (objects
    whose source is gone, left by an earlier build, are skipped)."""
    rank = {p: i for i, p in enumerate(parts)}
    owner, uses = {}, {}
    for part in parts:
        folder = os.path.join(objdir, part)
        for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
            if name.endswith('.o') and os.path.isfile(os.path.join(core, part, name[:-2] + '.c')):
                defined, undefined = symbols(os.path.join(folder, name))
                rel = f'{part}/{name[:-2]}.c'
                for s in defined:
                    owner[s] = part
                uses[rel] = (part, undefined)
    if not uses:
        sys.exit(f'layer_check: no objects under {objdir}: build first')
    return [(rel, s, f'defined by part {owner[s]}, above part {part}')
            for rel, (part, undefined) in sorted(uses.items())
            for s in sorted(undefined) if s in owner and rank[owner[s]] > rank[part]]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    core, objdir = sys.argv[1:]
    parts, allowed = read_layers(core)
    bad = layout_breaches(core, parts)
    found = include_breaches(core, parts) + call_breaches(core, objdir, parts)
    bad += [f'{f}: {what}: {why}' for f, what, why in found if (f, what) not in allowed]
    seen = {(f, what) for f, what, _ in found}
    bad += [f'{f}: {what}: an exception of layers.txt that no longer occurs (remove it)'
            for f, what in sorted(allowed - seen)]
    for line in bad:
        print(line)
    print(f'{len(parts)} parts, {len(found)} known exceptions, {len(bad)} breaches')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
