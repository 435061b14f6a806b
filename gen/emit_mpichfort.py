# Emits libmpichfort.so.12's sources: MPICH 4's `use mpi_f08` entry points, large-count ones too,
# as external Fortran procedures over the mpi_f08 module's C functions, for mpifort.mpich's programs.
import re

import emit_f08
from render import render

# MPICH's prefix of an entry point's profiling twin (pmpir_send_f08ts_ beside mpi_send_f08ts_).
PROFILING_PREFIX = 'PMPIR_'
# MPICH's suffix of a large-count entry point, the specific its module chooses for
# INTEGER(KIND=MPI_COUNT_KIND) counts (mpi_send_f08ts_large_ beside mpi_send_f08ts_).
LARGE_SUFFIX = '_large'


def mpich_name(proc):
    """The name MPICH gives proc's f08 entry point: <name>_f08ts when a parameter is a choice
    buffer (its `TYPE(*), DIMENSION(..)` form), else <name>_f08."""
    return proc.name + ('_f08ts' if any(p.kind.cls == 'buffer' for p in emit_f08.f08_params(proc)) else '_f08')


def _translation(p, large):
    """The C expression passing parameter p to the module's C function (large: a large-count
    one, MPI_X_f08c, whose buffer parameters are named <name>_d): MPICH's sentinels
    (MPI_IN_PLACE, MPI_BOTTOM, MPI_STATUS(ES)_IGNORE, MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY, objects
    of the program or of libmpichfort) become ours."""
    if p.kind.map == 'weights':
        return 'mf_weights(%s)' % p.name
    if p.kind.cls == 'buffer':
        c = p.name + ('_d' if large else '')
        return 'mf_buffer(%s, &%s_)' % (c, p.name)
    if p.kind.cls == 'status':
        return 'mf_statuses(%s)' % p.name if p.is_array else 'mf_status(%s)' % p.name
    return p.name


def _entry(proc, d, small=None):
    """Template data of proc's entry point and of its C translation (None when no parameter
    can carry a sentinel: the entry point calls the module's C function directly). small: for
    a large-count form (emit_f08.large_form), the procedure it is the form of."""
    params = emit_f08.f08_params(proc)
    translate = any(p.kind.cls in ('buffer', 'status') or p.kind.map == 'weights' for p in params)
    uses = sorted({n for decl in d['cdecls'] + d['fdecls'] for n in re.findall(r'\b(MPI_\w+)\b', decl)},
                  key=str.lower)
    mich_name = mpich_name(proc) if small is None else mpich_name(small) + LARGE_SUFFIX
    return {'mname': mich_name, 'name': proc.name,
            'twin': PROFILING_PREFIX + mich_name[len('MPI_'):], 'sub': d['sub'], 'fret': d['fret'],
            'ret': d['ret'], 'fnames_lines': d['fnames_lines'], 'cargs_lines': d['cargs_lines'],
            'fdecls': d['fdecls'], 'cdecls': d['cdecls'], 'funcs': d['funcs'], 'uses_lines': emit_f08._wrap(uses) if uses else [],
            'target': 'mf_' + proc.name if translate else d['symbol'], 'symbol': d['symbol'],
            'translate': translate, 'cparams': d['cparams'],
            'buffers': [p.name for p in params if p.kind.cls == 'buffer'],
            'cargs': ', '.join([_translation(p, small is not None) for p in params]
                               + (['ierror'] if d['ierror'] else []))}


def entries(spec):
    """Template data of every entry point libmpichfort offers: one per procedure the mpi_f08
    module offers through an interface of its own (not the status conversions, which MPICH
    offers as procedures of its mpi_f08_types module); then MPICH's <name>_large one per
    large-count specific MPI_X_f08c the module offers (emit_f08.large_procedures), which calls
    that specific's C function."""
    offered = emit_f08.offered_procedures(spec)
    out = [_entry(p, d) for p, d in offered if not d['direct']]
    procs = {p.name: p for p in spec.procedures}
    for d in emit_f08.large_procedures(spec, {p.name for p, _ in offered})[0]:
        small = procs[d['generic']]
        out.append(_entry(emit_f08.large_form(small), d, small))
    return out


def emit(spec):
    """build/gen/mpichfort/entries.f90 (MPICH's modules, mpichfort_modules.f90.j2: their types,
    handle operators, the predefined handles as module data, ...; then the entry points) and
    mpichfort/translate.c."""
    procs = entries(spec)
    handles = emit_f08.handle_types(spec)
    consts = [c for c in emit_f08.module_constants(spec, handles)[0] if c[0].startswith('TYPE(')]
    return {
        'mpichfort/entries.f90': render('mpichfort_entries.f90.j2', 'f', procs=procs, consts=consts,
                                        types=sorted(set(handles.values()))),
        'mpichfort/translate.c': render('mpichfort_translate.c.j2', procs=[p for p in procs if p['translate']]),
    }
