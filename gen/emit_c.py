# Emits the C face with the MPICH ABI: mpi.h (values identical to Debian MPICH 4.0.2's) and
# its entry points, through the templates shared with the standard-ABI face.
import cdecl
import face
from render import render

CONFIG = face.FaceConfig(prefix='cf', value='mpich', pointer_classes={'file'}, header='cface.h')
# C types (the spec's c_type) a constant's value is cast to as a pointer: how C spells the cast
POINTER_CTYPES = {'void *', 'MPI_Status*', 'int*', 'char**', 'char***'}


def c_expr(c, value):
    """The C expression of constant c with the given value (int or {'symbol': s})."""
    t = c.c_type
    if isinstance(value, dict):
        return '((%s)%s)' % (t, value['symbol']) if t.endswith('*') and 'function' in t else None
    if t in ('int', None):
        return '(%d)' % value if value < 0 else '%d' % value
    if t in ('MPI_T_cb_safety', 'MPI_T_source_order'):  # C enum types: a cast, no hexadecimal
        return '((%s)%d)' % (t, value)
    if t in POINTER_CTYPES:
        return '((%s)%d)' % (t.replace('*', ' *').replace('  ', ' '), value)
    if value < 0:
        value &= 0xffffffff
    return '((%s)0x%08x)' % (t, value)


def constants(spec, which):
    out = []
    for c in spec.constants:
        v = getattr(c, which)
        if c.c_type is None or v is None:
            continue
        if which == 'mpich' and c.mpich_value_unused:  # the spec: the standard's value (MPI_VERSION)
            v = c.abi
        e = c_expr(c, v)
        if e is not None:
            out.append((c.name, e, c.category))
    return out


def callback_typedefs(spec, which):
    out = []
    for cb in spec.callbacks:
        if which == 'abi' and not cb.in_standard_abi:
            continue
        variants = [(cb.name, False)] + ([(cb.name + '_c', True)] if cb.large_count else [])
        for name, large in variants:
            ps = ', '.join(cdecl.c_param(p, large) for p in cb.params) or 'void'
            ret = 'void' if cb.ret == 'NOTHING' else 'int'
            out.append('typedef %s (%s)(%s);' % (ret, name, ps))
    return out


def prototypes(spec, which):
    out = []
    for p in spec.procedures:
        if not p.in_c or (which == 'abi' and not p.in_standard_abi):
            continue
        if which == 'mpich' and p.mpich_macro:
            continue  # macros, as in MPICH's mpi.h
        for name, large in p.c_variants():
            out.append(cdecl.c_prototype(p, name, large))
    return out


def emit(spec):
    files = face.emit_face(spec, CONFIG, 'c')
    files['include/mpi.h'] = render('mpi_mpich.h.j2', constants=constants(spec, 'mpich'),
                                    typedefs=callback_typedefs(spec, 'mpich'), protos=prototypes(spec, 'mpich'),
                                    handles=face.HANDLE_CTYPE)
    return files
