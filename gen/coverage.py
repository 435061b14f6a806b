#!/usr/bin/env python3
# `make coverage`: per chapter, which procedures the runtime implements and which are missing.
# A procedure counts when its rt_<Name> is a strong symbol in libswitchyard_rt.a (the weak
# generated stubs answer MPI_ERR_UNSUPPORTED_OPERATION), or when a face implements it by hand.
# Usage: coverage.py SPEC LIBDIR [-v] [--markdown]; --markdown (make readme-status) prints the
# table as Markdown, as README.md's Status section holds it (tests/sh/readme_status.sh).
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdecl  # noqa: E402
import model  # noqa: E402


def strong_symbols(archive):
    out = subprocess.run(['nm', '--defined-only', archive], capture_output=True, text=True, check=True).stdout
    return {line.split()[-1] for line in out.splitlines() if len(line.split()) == 3 and line.split()[1] == 'T'}


def exported(lib):
    out = subprocess.run(['nm', '-D', '--defined-only', lib], capture_output=True, text=True, check=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.split()}


def main(argv):
    spec = model.load(argv[1])
    libdir = argv[2]
    strong = strong_symbols(os.path.join(libdir, 'libswitchyard_rt.a'))
    c_face = exported(os.path.join(libdir, 'libmpi.so.12'))
    rows, missing = {}, {}
    for p in spec.procedures:
        if not p.in_c:  # Fortran-only procedures (MPI_Sizeof, MPI_F_sync_reg) are counted in the Fortran face
            continue
        done = ('P' + p.name in c_face) if cdecl.face_manual(p) else ('rt_' + p.short in strong)
        for name, _ in p.c_variants():
            r = rows.setdefault(p.chapter, [0, 0])
            r[1] += 1
            if done:
                r[0] += 1
            else:
                missing.setdefault(p.chapter, []).append(name)
    total_done = sum(r[0] for r in rows.values())
    total = sum(r[1] for r in rows.values())
    if '--markdown' in argv:
        print('| chapter | done | missing | % |')
        print('|---|---:|---:|---:|')
        fmt = '| %s | %d | %d | %.0f%% |'
        bold = '| **%s** | **%d** | **%d** | **%.0f%%** |'
    else:
        print('%-15s %9s %9s %6s' % ('chapter', 'done', 'missing', '%'))
        fmt = bold = '%-15s %9d %9d %5.0f%%'
    for chap in sorted(rows):
        d, t = rows[chap]
        print(fmt % (chap, d, t - d, 100.0 * d / t))
    print(bold % ('total', total_done, total - total_done, 100.0 * total_done / total))
    if '-v' in argv:
        for chap in sorted(missing):
            print('\nmissing in %s: %s' % (chap, ' '.join(missing[chap])))
    return 0


if __name__ == '__main__':
    sys.exit(main([a for a in sys.argv]))
