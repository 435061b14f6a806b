# C declarations from the model: the faces' prototypes (same text in both C ABIs, whose
# headers give the type names their meaning) and the runtime's rt_<Name>() prototypes.
import model

# handle class -> the runtime's type of its objects (spec/handles.json, filled by model.load)
RT_HANDLE_TYPE = model.HANDLE_TABLES['runtime']


class _RtClass(dict):
    """handle class -> its member of the runtime's enum rt_class, which names each class
    RT_CLASS_<CLASS> (runtime/core/object.h): a naming rule of the runtime's C code."""
    def __missing__(self, h):
        return 'RT_CLASS_' + h.upper()


RT_CLASS = _RtClass()

RETURNS_WITH_RT = {'ERROR_CODE': 'int', 'WALL_TIME': 'double', 'TICK_RESOLUTION': 'double',
                   'DISPLACEMENT': 'rt_aint', 'LOCATION_SMALL': 'rt_aint'}


def face_manual(proc):
    """The C faces write proc by hand: no runtime entry point (the spec's hand_written, or a
    return the runtime does not give)."""
    return proc.hand_written is not None or proc.ret not in RETURNS_WITH_RT or not proc.in_c


def c_base(p, large):
    k = p.kind
    if k.cls == 'function':
        if k.poly and large:
            return p.func_type + '_c *'
        return (p.func_type + ' *') if p.func_type else k.c
    if large and k.poly and k.c_large:
        return k.c_large
    return k.c


def c_param(p, large):
    """The parameter as the C binding declares it: 'const int X[]'."""
    k, n = p.kind, p.name
    base = c_base(p, large)
    const = 'const ' if p.const else ''
    if k.cls == 'varargs':
        return '...'
    if k.cls in ('buffer', 'c_pointer', 'attribute', 'extra_state') or base == 'void':
        return '%svoid *%s' % (const if p.dir == 'in' else '', n)
    if k.cls == 'function':
        return '%s%s' % (base, n) if base.endswith('*') else '%s %s' % (base, n)
    if k.cls == 'string':
        return '%schar *%s' % ('const ' if p.dir == 'in' else '', n)
    if k.cls == 'string_array':
        return 'char *%s[]' % n
    if k.cls == 'string_2darray':
        return 'char **%s[]' % n
    if k.cls == 'argv':
        return 'char *%s[]' % n if (p.is_array and not p.pointer) else 'char ***%s' % n
    if k.cls in ('status', 'f_status', 'f08_status'):
        if p.is_array and k.cls == 'status':  # a pointer, not [], so that GCC accepts MPI_STATUSES_IGNORE
            return '%s *%s' % (base, n)
        return '%s%s *%s' % ('const ' if p.dir == 'in' else '', base, n)
    if isinstance(p.length, list):
        return '%s %s[][%s]' % (base, n, p.length[1])
    if p.is_array and k.map == 'weights':  # a pointer, not []: MPI_UNWEIGHTED may be passed
        return '%s%s *%s' % (const if p.dir == 'in' else '', base, n)
    if p.is_array:
        return '%s%s %s[]' % (const if p.dir == 'in' else '', base, n)
    if p.dir == 'in' or p.pointer is False:
        return '%s%s %s%s' % (const if k.cls == 'int' and p.const else '', base, '*' if p.pointer else '', n)
    return '%s *%s' % (base, n)


def c_return(proc):
    """The C type proc returns: its return kind's (spec/kinds.json)."""
    return proc.ret_kind.c


def c_params(proc, large):
    ps = [c_param(p, large) for p in proc.c_params(large)]
    return ', '.join(ps) if ps else 'void'


def c_prototype(proc, name, large, prefix=''):
    return '%s %s%s(%s)' % (c_return(proc), prefix, name, c_params(proc, large))


# ---------------------------------------------------------------- runtime side

def rt_scalar_type(p):
    k = p.kind
    if k.cls == 'handle':
        return RT_HANDLE_TYPE[k.handle] + ' *'
    if k.cls in ('aint',):
        return 'rt_aint'
    if k.cls == 'offset':
        return 'rt_offset'
    if k.cls == 'count':
        if k.poly:
            # the kind's C type (kinds.json) decides the runtime's: MPI_Aint -> rt_aint
            return 'rt_aint' if (k.c_large == 'MPI_Aint' or k.c == 'MPI_Aint' and k.c_large is None) else 'rt_count'
        return 'rt_count'
    if k.cls == 'double':
        return 'double'
    return 'int'


def rt_param(p):
    """The runtime's declaration of p (None when the runtime does not take it)."""
    k, n = p.kind, p.name
    if k.cls == 'varargs':
        return None
    if k.cls == 'handle':
        t = RT_HANDLE_TYPE[k.handle]
        if p.dir == 'in' and p.length == '*':
            return 'rt_handle_array %s' % n
        if p.dir == 'in':
            return '%s *const *%s' % (t, n) if p.is_array else '%s *%s' % (t, n)
        return '%s **%s' % (t, n)
    if k.cls == 'tool_handle':
        return 'void *%s' % n if p.dir == 'in' else 'void **%s' % n
    if k.cls in ('buffer',):
        return '%svoid *%s' % ('const ' if p.dir == 'in' and p.const else '', n)
    if k.cls in ('c_pointer', 'attribute', 'extra_state', 'f_status', 'f08_status'):
        return 'void *%s' % n
    if k.cls == 'string':
        return '%schar *%s' % ('const ' if p.dir == 'in' else '', n)
    if k.cls == 'string_array':
        return 'char **%s' % n
    if k.cls == 'string_2darray':
        return 'char ***%s' % n
    if k.cls == 'argv':
        return 'char **%s' % n if (p.is_array and not p.pointer) else 'char ***%s' % n
    if k.cls == 'status':
        return '%srt_status *%s' % ('const ' if p.dir == 'in' else '', n)
    if k.cls == 'function':
        return 'rt_callback %s' % n
    t = rt_scalar_type(p) if k.cls != 'fint_handle' else 'int'
    if p.is_array and k.poly:
        return 'rt_counts %s' % n
    if p.is_array:
        return '%s%s *%s' % ('const ' if p.dir == 'in' else '', t, n)
    if p.dir == 'in' or p.pointer is False:
        return '%s %s' % (t, n)
    return '%s *%s' % (t, n)


def rt_params(proc):
    ps = [d for d in (rt_param(p) for p in proc.c_params(True)) if d]
    return ', '.join(ps) if ps else 'void'


def rt_prototype(proc, suffix=''):
    """rt_<Name>'s prototype; suffix '_c': its large-count entry rt_<Name>_c (same parameters)."""
    return '%s rt_%s%s(%s)' % (RETURNS_WITH_RT[proc.ret], proc.short, suffix, rt_params(proc))
