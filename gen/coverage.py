#!/usr/bin/env python3
# `make coverage`: per chapter, which procedures the runtime implements and which are missing.
# A procedure counts when its rt_<Name> is a strong symbol in libswitchyard_rt.a (the weak
# generated stubs answer MPI_ERR_UNSUPPORTED_OPERATION), or when a face implements it by hand.
# Then (not with --markdown) the `mpi_f08` module's coverage: a procedure MPI gives an f08
# binding counts when libmpifort.so.12 exports its MPI_<Name>_f08; 'of done' counts those whose
# C procedure counts above, 'gaps' the missing among them.
# Usage: coverage.py SPEC LIBDIR [-v] [--markdown]; --markdown (make readme-status) prints the
# table as Markdown, as README.md's Status section holds it (tests/sh/readme_status.sh).
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdecl  # noqa: E402
import emit_f08  # noqa: E402
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
    f08 = None if '--markdown' in argv else f08_rows(spec, libdir, strong, c_face)
    if '-v' in argv:
        for chap in sorted(missing):
            print('\nmissing in %s: %s' % (chap, ' '.join(missing[chap])))
        for chap in sorted(f08 or {}):
            if f08[chap][3]:
                print('\nmpi_f08 lacks in %s: %s' % (chap, ' '.join(f08[chap][3])))
    return 0


def f08_rows(spec, libdir, strong, c_face):
    """Prints the mpi_f08 table; returns {chapter: [done, total, gaps, missing names]}."""
    fort = exported(os.path.join(libdir, 'libmpifort.so.12'))
    rows = {}
    for p in spec.procedures:
        if not emit_f08.f08_expected(p):
            continue
        c_done = p.in_c and (('P' + p.name in c_face) if cdecl.face_manual(p) else ('rt_' + p.short in strong))
        r = rows.setdefault(p.chapter, [0, 0, 0, []])
        r[1] += 1
        if emit_f08.f08_symbol(p) in fort:
            r[0] += 1
        else:
            r[3].append(p.name)
            r[2] += 1 if c_done else 0
    print('\n%-15s %9s %9s %6s %9s' % ('mpi_f08', 'done', 'missing', '%', 'gaps'))
    fmt = '%-15s %9d %9d %5.0f%% %9d'
    for chap in sorted(rows):
        d, t, g, _ = rows[chap]
        print(fmt % (chap, d, t - d, 100.0 * d / t, g))
    d, t, g = (sum(r[i] for r in rows.values()) for i in range(3))
    print(fmt % ('total', d, t - d, 100.0 * d / t, g))
    return rows


if __name__ == '__main__':
    sys.exit(main([a for a in sys.argv]))
