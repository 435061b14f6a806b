# Emits the bad-input matrix (test bad_handles_matrix, tests/c/bad_handles_matrix.c): one case per
# C function and bad argument (a handle, alone or in an array, or a rank, tag, count, dimension,
# buffer or datatype the spec says is checked, a NULL output pointer or per-peer array of a
# collective, MPI_IN_PLACE in a buffer that does not take it, a buffer aliasing another), the
# others valid defaults.
import json
import os
import re

import cdecl
import convert
import model
from render import render

SCRATCH = 64  # elements of every array argument; every default count is 1
# Handle classes a case may pass a valid default of (bh_default_<class> in the test program).
DEFAULTABLE = {'comm', 'datatype', 'group', 'op', 'info', 'errhandler', 'request', 'win', 'message', 'keyval'}
UNCOVERED_CLASSES = {'varargs', 'string_array', 'string_2darray', 'tool_handle',
                     'f_status', 'f08_status', 'fint_handle'}
_DECL = re.compile(r'^(const )?(?P<base>[A-Za-z_][A-Za-z_0-9 ]*?)\s*(?P<ptr>\*?)\s*(?P<name>\w+)(?P<arr>(\[\])?(\[\d+\])?)$')


def _load(spec_dir):
    with open(os.path.join(spec_dir, 'bad_input.json')) as f:
        data = json.load(f)
    if data['degree_comm'] not in model.REQUIRES['comm']:  # the sort of communicator a degree needs
        raise ValueError('bad_input.json: degree_comm %r is no sort of communicator %r'
                         % (data['degree_comm'], sorted(model.REQUIRES['comm'])))
    for e in data['null_pointer_checks']['except']:  # a misspelt exception would exclude nothing
        if e['kind_class'] not in model.KIND_CLASSES or e.get('dir', 'out') not in ('out', 'inout') \
                or not e.get('reason'):
            raise ValueError('bad_input.json: null_pointer_checks: bad exception %r' % (e,))
    return data


def _scalar_default(spec, q):
    """A valid value of a scalar IN parameter, as C text."""
    k = q.kind
    if k.cls == 'handle':  # of the sort the call requires (a Cartesian communicator...)
        return 'bh_default_%s%s()' % (k.handle, '_' + q.requires if q.requires else '')
    if k.cls in ('count', 'aint', 'offset'):
        return '1'
    if k.cls == 'double':
        return '0.0'
    if k.cls == 'logical':
        return '0'
    if k.default:
        return k.default
    if k.map and k.map.startswith('enum:'):
        names = [c.name for c in spec.constants_in(k.map[5:]) if c.in_standard_abi and c.mpich is not None]
        return names[0] if names else '0'
    if k.check in ('rank', 'rank_nni', 'tag') or k.map in ('undefined', 'error_code') or k.map and k.map.startswith('bits:'):
        return '0'
    return '1'


def _arg(spec, q, large, i, target, whole=False):
    """(declarations, expression) for parameter q of a case; target: the bad value's C text (an
    array's element 0), or for an array a list of (index, C text) to assign; whole: target is
    the argument itself (a null pointer)."""
    if whole:
        return [], target
    if q.kind.cls == 'argv':  # optional, as its count (MPI_Init_thread, MPI_Info_create_env)
        return [], 'NULL'
    decl = cdecl.c_param(q, large)
    m = _DECL.match(decl)
    if not m:
        raise ValueError(decl)
    if q.kind.cls == 'function':  # a callback the case never calls: any function, of its type
        return [], '(%s *)(void (*)(void))bh_any_function' % m.group('base')
    base, ptr, arr = m.group('base'), m.group('ptr'), m.group('arr')
    v = 'a%d' % i
    if base == 'void':
        if target:
            return [], target
        return ['static char %s[1024] __attribute__((aligned(64)));' % v], v
    if base == 'char':
        if q.dir == 'in' and not arr:
            return [], '"k"'
        return ['static char %s[4096];' % v], v
    if arr.endswith(']') and arr != '[]':  # int X[][3]
        return ['%s %s[%d]%s = {{0}};' % (base, v, SCRATCH, arr[2:])] + _assign(v, target), v
    if not ptr and not arr:
        return [], target or _scalar_default(spec, q)
    lines = ['%s %s[%d];' % (base, v, SCRATCH)]
    if q.kind.cls == 'status':
        lines.append('memset(%s, 0, sizeof %s);' % (v, v))
    else:
        lines.append('for (int i_ = 0; i_ < %d; i_++) %s[i_] = %s;' % (SCRATCH, v, _scalar_default(spec, q)))
    return lines + _assign(v, target), v


def _assign(v, target):
    """Statements giving array v its bad elements (target: element 0's C text, or (index, text) pairs)."""
    if not target:
        return []
    pairs = [('0', target)] if isinstance(target, str) else target
    return ['%s[%s] = %s;' % (v, i, t) for i, t in pairs]


def _coverable(q):
    k = q.kind
    return k.cls not in UNCOVERED_CLASSES and (k.cls != 'handle' or k.handle in DEFAULTABLE)


def _scalar_rule(data, q, names):
    """The entry of spec/bad_input.json's scalar_checks that applies to scalar IN parameter q (or
    INOUT one given by pointer, e.g. a pack position: the value it points to), or None; names:
    the procedure's parameters by name."""
    if q.dir not in ('in', 'inout') or q.is_array or (q.dir == 'inout' and q.pointer is False):
        return None
    of_size = bool(q.rank_of) and names[q.rank_of].kind.cls != 'handle'  # a rank below a size
    for r in data['scalar_checks']:
        if r.get('check') != q.kind.check or r.get('kind_class', q.kind.cls) != q.kind.cls \
                or r.get('kind', q.kind.name) != q.kind.name or r.get('rank_of_size', False) != of_size:
            continue
        acc = r.get('accepts')
        if acc is None or (q.accepts is not None and (acc == '*' or acc in q.accepts)):
            return r
    return None


def _case(spec, data, name, large, params, t, cat, err, target, null=0, also=None, ranks=1, named=None,
          whole=False):
    """One case: parameter t of function `name` given `target` (C text of v; whole: of the
    argument itself, not of the value it points to), the others defaults but those `also` maps
    (a parameter's name) to their value; the message must name `named` (t's name unless given,
    e.g. 'sendcounts[0]')."""
    decls, args = [], []
    also = also or {}
    for i, q in enumerate(params):
        d, e = _arg(spec, q, large, i, target if q is t else also.get(q.name), whole and q is t)
        decls += d
        args.append(e)
    return {'fn': name, 'param': named or t.name, 'cls': cat, 'err': err, 'null': null, 'ranks': ranks,
            'decls': decls, 'call': '%s(%s)' % (name, ', '.join(args)),
            'known': data['known_defects'].get('%s.%s%s' % (name, t.name, '' if cat in data['handle_error_class']
                                                             else ':' + cat))}


def _array_cases(spec, data, name, large, params, q):
    """The cases of array parameter q: an invalid handle at index 0 of an IN (or INOUT) array of
    handles, a rank given twice in a `distinct` array (with its length 2), a bad element of a
    kind array_checks lists."""
    if q.dir not in ('in', 'inout') or not q.is_array:
        return []
    out = []
    lname = q.length[0] if isinstance(q.length, list) else q.length
    also = None
    if q.extent in ('sources', 'destinations'):  # as long as a degree: on a communicator with a topology
        comm = next((x for x in params if x.kind.cls == 'handle' and x.kind.handle == 'comm' and x.dir == 'in'
                     and not x.is_array), None)
        if comm is None:
            return out
        also = {comm.name: 'bh_default_comm_%s()' % data['degree_comm']}
    if q.kind.cls == 'handle' and q.kind.handle in data['handle_error_class'] and isinstance(q.length, str):
        h = q.kind.handle
        out.append(_case(spec, data, name, large, params, q, h + '_array', data['handle_error_class'][h],
                         'bh_bad_%s(v)' % h, also=also))
    if q.distinct and isinstance(lname, str) and lname != '*':
        rule = data['distinct_checks'][str(q.length[1]) if isinstance(q.length, list) else '1']
        el = rule['element']
        pairs = [('%d%s' % (row, '' if len(el) == 1 else '][%d' % j), str(x)) for row in (0, 1)
                 for j, x in enumerate(el)]
        out.append(_case(spec, data, name, large, params, q, 'distinct', rule['error_class'], pairs,
                         also={lname: '2'}, ranks=rule.get('min_ranks', 1)))
    for r in data['array_checks']:
        if _matches(r, q) and r.get('dir', q.dir) == q.dir:
            out.append(_case(spec, data, name, large, params, q, r['category'], r['error_class'],
                             'bh_bad_%s(v)' % r['category'], also=also,
                             named=q.name + '[0]' if r.get('name_index') else None))
    return out


def _null_pointer(data, q):
    """Whether the matrix gives q a null pointer (spec/bad_input.json's null_pointer_checks): a
    non-optional OUT or INOUT scalar given by pointer, of a kind class and direction the rule
    does not leave out."""
    r = data['null_pointer_checks']
    if q.dir not in r['dir'] or q.is_array or q.pointer is False or q.optional:
        return False
    return not any(e['kind_class'] == q.kind.cls and e.get('dir', q.dir) == q.dir for e in r['except'])


def _matches(r, q):
    """Whether rule r (of scalar_checks or array_checks) applies to q's kind: by its kind, its
    check and its class, those r gives."""
    k = q.kind
    return r.get('kind', k.name) == k.name and r.get('check', k.check) == k.check \
        and r.get('kind_class', k.cls) == k.cls and ('kind' in r or 'check' in r)


def cases(spec, data):
    """The matrix: dicts with the function's name, the parameter, its category (a handle class
    or a scalar check, 'buffer', 'uncommitted', an array's), the expected class and the call."""
    classes = data['handle_error_class']
    elements = data['elements_checks']
    out = []
    for p in spec.procedures:
        if not p.in_c or cdecl.face_manual(p) or p.ret != 'ERROR_CODE':
            continue
        for name, large in p.c_variants():
            params = p.c_params(large)
            targets = [q for q in params if q.kind.cls == 'handle' and q.kind.handle in classes
                       and q.dir in ('in', 'inout') and not q.is_array]
            if not all(_coverable(q) for q in params):
                continue
            for t in targets:
                # the null handle is a third bad value where the face refuses it (gen/convert.py's rule)
                null_ok = t.dir != 'in' or t.optional or t.null_handle or (
                    convert.NULL_OK_IN[t.kind.handle] and not t.not_null)
                out.append(_case(spec, data, name, large, params, t, t.kind.handle, classes[t.kind.handle],
                                 'bh_bad_%s(v)' % t.kind.handle, 0 if null_ok else 1))
            for q in params:
                r = _scalar_rule(data, q, {x.name: x for x in params})
                if r:
                    cat = r.get('category', q.kind.check)
                    out.append(_case(spec, data, name, large, params, q, cat, r['error_class'], 'bh_bad_%s(v)' % cat))
            for q in params:
                out += _array_cases(spec, data, name, large, params, q)
            for q in params:  # a collective's per-peer counts or displacements: NULL
                if q.dir == 'in' and q.length == '*' and q.extent and q.kind.poly:
                    r = data['null_array_checks']
                    also = None
                    if q.extent in ('sources', 'destinations'):  # as long as a degree
                        comm = next(x for x in params if x.kind.cls == 'handle' and x.kind.handle == 'comm')
                        also = {comm.name: 'bh_default_comm_%s()' % data['degree_comm']}
                    out.append(_case(spec, data, name, large, params, q, r['category'], r['error_class'], 'NULL',
                                     also=also, whole=True))
                if q.distinct_from:  # the same memory as the buffer it must be distinct from
                    r = data['distinct_checks_buffers']
                    src = next(i for i, x in enumerate(params) if x.name == q.distinct_from)
                    out.append(_case(spec, data, name, large, params, q, r['category'], r['error_class'],
                                     'a%d' % src))
                if q.kind.cls == 'buffer' and not q.in_place:  # MPI_IN_PLACE where the spec does not allow it
                    r = data['in_place_checks']
                    out.append(_case(spec, data, name, large, params, q, r['category'], r['error_class'],
                                     'MPI_IN_PLACE'))
            npc = data['null_pointer_checks']
            for q in params:
                if _null_pointer(data, q):
                    out.append(_case(spec, data, name, large, params, q, npc['category'], npc['error_class'],
                                     'NULL', whole=True))
            # a buffer of `count` elements of `datatype` (the spec's elements): NULL with count 1 of
            # MPI_INT (MPI_BOTTOM, but MPI_INT's data is not at absolute addresses), and an
            # uncommitted datatype
            names = {q.name: q for q in params}
            typed = []
            for q in params:
                if q.committed and q not in typed:  # a datatype that must be committed by itself
                    typed.append(q)
                    out.append(_case(spec, data, name, large, params, q, 'uncommitted', elements['datatype'],
                                     'bh_bad_uncommitted(v)'))
                if not q.elements:
                    continue
                out.append(_case(spec, data, name, large, params, q, 'buffer', elements['buffer'], 'NULL'))
                d = names[q.elements['datatype']]
                if d not in typed:
                    typed.append(d)
                    out.append(_case(spec, data, name, large, params, d, 'uncommitted', elements['datatype'],
                                     'bh_bad_uncommitted(v)'))
    return out


def emit(spec, spec_dir='spec'):
    data = _load(spec_dir)
    return {'tests/bad_handles_cases.h': render('bad_handles_cases.h.j2', cases=cases(spec, data))}
