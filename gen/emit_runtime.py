# Emits the runtime's generated half: its constants (numbered as in the standard ABI),
# the table of predefined objects, the rt_<Name>() prototypes and their weak stubs.
import cdecl
import model
from render import render

INT_CTYPES = {'int', 'MPI_T_cb_safety', 'MPI_T_source_order'}  # C types the runtime holds as int
ERRHANDLER_OBJECT_CLASSES = ('comm', 'win', 'file', 'session')


def rt_name(const_name):
    """MPI_X -> RT_X; an MPICH extension MPIX_X -> RT_X_X."""
    if const_name.startswith('MPIX_'):
        return 'RT_X_' + const_name[5:]
    return 'RT_' + const_name[4:]


def int_constants(spec):
    """Integer constants the runtime uses, valued as in the standard ABI."""
    return [c for c in spec.constants
            if c.c_type in INT_CTYPES and isinstance(c.abi, int) and not isinstance(c.abi, bool)
            and c.category != 'C_PREPROCESSOR_CONSTANTS_FORTRAN_PARAMETERS']


def builtins(spec):
    """Predefined objects: one per distinct (handle class, value); aliases share one.
    Returns [(id_name, class, [constant names, its own name first])]."""
    out, seen = [], {}
    # the null handles (spec/handles.json) are no objects; a keyval's (an int) is a builtin
    nulls = {model.HANDLE_TABLES['null'][h] for h in model.HANDLE_CLASSES if model.HANDLE_TABLES['c'][h] != 'int'}
    for c in spec.constants:
        cls = c.handle
        if c.category == 'ENV_INQ_AND_ATTR_KEYS' and c.name != model.HANDLE_TABLES['null']['keyval']:
            cls = 'keyval'
        if cls is None or c.name in nulls:
            continue
        key = (cls, c.abi if c.abi is not None else c.name)
        if key in seen:
            seen[key][2].append(c.name)
            continue
        entry = ['RT_B_' + rt_name(c.name)[3:], cls, [c.name]]
        seen[key] = entry
        out.append(entry)
    # an object's name (MPI_Type_get_name) is that of the constant no other is a synonym of
    # (same_value_as): MPI_LONG_LONG_INT, not MPI_LONG_LONG
    synonym = {c.name for c in spec.constants if c.same_value_as}
    for entry in out:
        entry[2].sort(key=lambda n: n in synonym)
    return out


def builtin_id_of(spec):
    """constant name -> builtin id name."""
    return {n: e[0] for e in builtins(spec) for n in e[2]}


def errobj_param(proc):
    """The parameter whose object's error handler reports errors of proc, or None."""
    for p in proc.c_params(True):
        if p.kind.cls == 'handle' and p.kind.handle in ERRHANDLER_OBJECT_CLASSES and p.dir == 'in' \
                and not p.is_array:
            return p
    return None


def runtime_procedures(spec):
    return [p for p in spec.procedures if not cdecl.face_manual(p)]


def stub_return(proc):
    return {'int': 'err', 'double': '0.0', 'rt_aint': '0'}[cdecl.RETURNS_WITH_RT[proc.ret]]


def _error_classes(spec):
    """[(name, runtime value)] of the predefined error classes, one name per value (the first)."""
    seen, out = set(), []
    for c in spec.constants_in('ERROR_CLASSES'):
        if isinstance(c.abi, int) and c.abi not in seen and c.abi != 0:
            seen.add(c.abi)
            out.append((c.name, c.abi))
    return out


def emit(spec):
    procs = runtime_procedures(spec)
    stubs = []
    for p in procs:
        used = [q.name for q in p.c_params(True) if cdecl.rt_param(q)]  # also rt_<Name>_c's arguments
        eo = errobj_param(p)
        stubs.append({'proto': cdecl.rt_prototype(p), 'name': p.name, 'used': used, 'short': p.short,
                      'large_proto': cdecl.rt_prototype(p, '_c') if p.large_count else None,
                      'large_name': [n for n, large in p.c_variants() if large][:1],
                      'errobj': '(rt_obj *)%s' % eo.name if eo else 'NULL', 'ret': stub_return(p)})
    bl = builtins(spec)
    return {
        'rt_consts.h': render('rt_consts.h.j2', consts=[(rt_name(c.name), c.abi, c.category) for c in int_constants(spec)],
                              builtins=bl, rt_class=cdecl.RT_CLASS),
        'rt_builtins.c': render('rt_builtins.c.j2', builtins=bl, rt_class=cdecl.RT_CLASS,
                                error_classes=_error_classes(spec)),
        'rt_procs.h': render('rt_procs.h.j2', protos=[cdecl.rt_prototype(p, sfx) for p in procs
                                                      for sfx in ([''] + (['_c'] if p.large_count else []))]),
        'rt_stubs.c': render('rt_stubs.c.j2', stubs=stubs),
    }
