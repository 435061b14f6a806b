# Argument checking and translation from a C face (MPICH ABI or standard ABI) to the runtime,
# derived from each parameter's kind. One Body per C function; the template lays it out.
import dataclasses
from typing import Optional

import cdecl
import model
from emit_runtime import ERRHANDLER_OBJECT_CLASSES, rt_name

# the handle classes whose IN handles may be the null handle where the spec says nothing
# (spec/handles.json: null_in, filled by model.load)
NULL_OK_IN = model.HANDLE_TABLES['null_in']


def handle_err():
    """Handle class -> the runtime error class of an invalid handle of it (spec/handles.json)."""
    return {h: rt_name(e) for h, e in model.HANDLE_TABLES['error_class'].items()}


class Stmt(str):
    """A step of `pre` with its form on the fast path of a read_only procedure (`fast`: the same
    test, raising nothing, `goto slow_` to make the call again in full), or None."""
    def __new__(cls, text, fast=None):
        s = super().__new__(cls, text)
        s.fast = fast
        return s


@dataclasses.dataclass
class Body:
    decls: list
    pre: list        # checks and input translation, in order; each may `goto out`
    args: list       # the runtime call's arguments
    post: list       # output translation after a successful call
    post_always: list  # output translation even when the call failed (requests, statuses)
    cleanup: list
    errobj: str      # expression for the object whose handler reports argument errors
    refused: str = ''  # collective: what to return when the face refused an argument (rc_)
    fast: Optional[list] = None  # read_only: the fast forms of `pre` (face_entry.c.j2)


def _fast_decode(F, h, expr, a):
    """The fast form of decoding handle expr of class h into a: at once (face_conv.h.j2's
    _try_inline); any other (the null handle, a bad one) takes the full path."""
    return 'if (%s_%s_try_inline((intptr_t)%s, &%s)) goto slow_;' % (F, h, expr, a)


def _null_check(n, errobj):
    """The test that pointer argument n is not NULL (MPI_ERR_ARG naming it)."""
    return Stmt('if (!%s) { rc_ = rt_raise(%s, RT_ERR_ARG, FN, "argument \'%s\' is a null pointer"); goto out; }'
                % (n, errobj, n), 'if (!%s) goto slow_;' % n)


def _rank_rules(p):
    """(allow ANY_SOURCE, allow ROOT/PROC_NULL as root) for the ranks the face checks (those
    the spec gives `accepts`), or None."""
    if p.accepts is None:
        return None
    # the spec's accepts lists these constants (model.ACCEPTS): each becomes a flag of the check
    return ('MPI_ANY_SOURCE' in p.accepts, 'MPI_ROOT' in p.accepts)


def _root(params):
    """The root of a rooted collective: the rank that accepts MPI_ROOT, or None."""
    # the spec's accepts names the constants (model.ACCEPTS checks them): the root is the rank accepting MPI_ROOT
    return next((q for q in params if q.accepts and 'MPI_ROOT' in q.accepts), None)


def body(proc, large, face):
    """Builds the Body of C function proc (large: its _c twin) for face prefix `face` ('cf' or 'af')."""
    F = face
    decls, pre, args, post, post_always, cleanup = [], [], [], [], [], []
    params = proc.c_params(large)
    names = {p.name: p for p in params}
    eo = None
    for p in params:
        if p.kind.cls == 'handle' and p.kind.handle in ERRHANDLER_OBJECT_CLASSES and p.dir == 'in' and not p.is_array:
            eo = p
            break
    errobj = '(rt_obj *)a_%s' % eo.name if eo else 'NULL'
    if eo:
        decls.append('%s *a_%s = NULL;' % (cdecl.RT_HANDLE_TYPE[eo.kind.handle], eo.name))
        nullok = 1 if (eo.optional or eo.null_handle) else 0
        pre.append(Stmt('rc_ = %s_%s_in(NULL, FN, "%s", %s, %d, &a_%s); if (rc_) goto out;'
                        % (F, eo.kind.handle, eo.name, eo.name, nullok, eo.name),
                        _fast_decode(F, eo.kind.handle, eo.name, 'a_' + eo.name)))

    def need_ptr(p):
        if p.optional:
            return
        pre.append(_null_check(p.name, errobj))

    role_at, role_used = len(pre), False  # a rooted collective's role: once comm is decoded
    root = _root(params)

    def guards(p):
        g = []
        if p.significant and root:
            g.append('(role_ & %s)' % ('FS_ROLE_ROOT' if p.significant == 'root' else 'FS_ROLE_MEMBER'))
        if p.unused_if_in_place:
            g.append('a_%s != RT_IN_PLACE' % p.unused_if_in_place)
        return g

    for p in proc.c_params(True):
        first = len(pre)
        _param(proc, p, params, names, large, F, eo, errobj, need_ptr, decls, pre, args, post, post_always, cleanup)
        guard = guards(p)
        if guard and len(pre) > first:  # an unused argument is not checked (the runtime gets NULL / 0)
            pre[first:] = ['if (%s) { %s }' % (' && '.join(guard), ' '.join(pre[first:]))]
            role_used = role_used or 'role_' in guard[0]
    # a NULL buffer (MPI_BOTTOM) holding `count` elements of `datatype` (the spec's `elements`),
    # once both are checked; only where the buffer, its count and datatype are used
    committed = set()
    for p in params:
        if not p.elements or p.name not in names:
            continue
        c, d = names[p.elements['count']], names[p.elements['datatype']]
        guard = []
        for q in (p, c, d):
            guard += [x for x in guards(q) if x not in guard and x != 'a_%s != RT_IN_PLACE' % p.name]
        if root and eo and eo.kind.handle == 'comm' and not p.significant:
            guard.append('role_')  # MPI_PROC_NULL in the root's group of an inter-communicator
        role_used = role_used or any('role_' in x for x in guard)
        pre.append('if (__builtin_expect(!a_%s, 0)%s && (rc_ = rt_null_buffer_check(%s, FN, "%s", "%s", a_%s, a_%s))) goto out;'
                   % (p.name, ''.join(' && ' + x for x in guard), errobj, p.name, c.name, c.name, d.name))
        # ... and its datatype committed (MPI-5.0 5.1.9), under the same conditions: the
        # datatype's own (significance, MPI_IN_PLACE elsewhere) are among them
        if d.name not in committed:
            committed.add(d.name)
            pre.append('if (%s(rc_ = rt_type_commit_check(%s, FN, "%s", a_%s))) goto out;'
                       % (''.join(x + ' && ' for x in guard), errobj, d.name, d.name))
    # a datatype the spec says must be committed though no buffer's `elements` names it (an
    # RMA target's), under its own significance
    for p in params:
        if p.committed and p.name not in committed:
            committed.add(p.name)
            guard = guards(p)
            role_used = role_used or any('role_' in x for x in guard)
            pre.append('if (%s(rc_ = rt_type_commit_check(%s, FN, "%s", a_%s))) goto out;'
                       % (''.join(x + ' && ' for x in guard), errobj, p.name, p.name))
    # two buffers the call needs disjoint (spec: distinct_from), where both are used and hold data
    for p in params:
        if not p.distinct_from:
            continue
        q = names[p.distinct_from]
        guard = []
        for x in guards(p) + guards(q):
            if x not in guard:
                guard.append(x)
        role_used = role_used or any('role_' in x for x in guard)
        pre.append('if (%sa_%s == a_%s && a_%s && a_%s != RT_IN_PLACE && a_%s > 0 && a_%s > 0) { rc_ = rt_raise(%s, '
                   'RT_ERR_BUFFER, FN, "arguments \'%s\' and \'%s\' are the same buffer (only MPI_IN_PLACE may make '
                   'them one)"); goto out; }'
                   % (''.join(x + ' && ' for x in guard), p.name, q.name, q.name, q.name, p.elements['count'],
                      q.elements['count'], errobj, q.name, p.name))
    if role_used:
        decls.append('int role_ = 0;')
        pre.insert(role_at, 'role_ = fs_coll_role(a_%s, a_%s);' % (root.rank_of, root.name))
    refused = ''
    if proc.collective and eo and eo.kind.handle == 'comm':
        decls.append('int called_ = 0;')
        refused = 'rt_coll_refused(a_%s, rc_, FN)' % eo.name
    fast = None
    if proc.read_only:  # its checks are decodes and pointer tests, so a failure can start again in full
        fast = [getattr(s, 'fast', None) for s in pre]
        if None in fast or post_always or cleanup or refused:
            raise ValueError('%s: read_only, but a step has no fast form: %s'
                             % (proc.name, [s for s in pre if getattr(s, 'fast', None) is None] or post_always + cleanup))
    return Body(decls, pre, args, post, post_always, cleanup, errobj, refused, fast)


def _stack_array(decls, cleanup, base, stars, a):
    """Declares C array a (elements of type `base` and `stars`) beside a_s, its FS_STACK_N
    elements on the entry point's stack, and frees a at cleanup unless it is a_s."""
    decls.append('%s %s%s_s[FS_STACK_N], %s*%s = NULL;' % (base, stars, a, stars, a))
    cleanup.append('if (%s != %s_s) free(%s);' % (a, a, a))


def _param(proc, p, params, names, large, F, eo, errobj, need_ptr, decls, pre, args, post, post_always, cleanup):
    """Appends the declarations, checks, argument and output steps of parameter p."""
    k, n = p.kind, p.name
    a = 'a_' + n
    cls = k.cls
    if cls == 'varargs':
        return
    if p not in params:  # a large-count-only parameter, absent from the plain call
        args.append('NULL' if (p.dir != 'in' or p.is_array) else '0')
        return
    if p is eo:
        args.append(a)
        return
    if cls == 'handle':
        h, rtt = k.handle, cdecl.RT_HANDLE_TYPE[k.handle]
        nullok = '1' if (p.optional or p.null_handle or (NULL_OK_IN[h] and not p.not_null)) else '0'
        if p.dir == 'in' and p.length == '*':
            if _star_length(p, eo):
                # checked here, naming the call and the element; the runtime decodes it again
                pre.append('{ %s *chk_s_[FS_STACK_N], **chk_ = NULL; '
                           'rc_ = %s_%s_array_in(%s, FN, "%s", %s, %s, %s, chk_s_, &chk_); '
                           'if (chk_ != chk_s_) free(chk_); if (rc_) goto out; }'
                           % (rtt, F, h, errobj, n, n, _star_length(p, eo), nullok))
            args.append('(rt_handle_array){(const void *)%s, &%s_face}' % (n, F))
        elif p.dir == 'in' and not p.is_array:
            decls.append('%s *%s = NULL;' % (rtt, a))
            if p.pointer:
                need_ptr(p)
            pre.append(Stmt('rc_ = %s_%s_in(%s, FN, "%s", %s%s, %s, &%s); if (rc_) goto out;'
                            % (F, h, errobj, n, '*' if p.pointer else '', n, nullok, a),
                            _fast_decode(F, h, ('*' if p.pointer else '') + n, a)))
            args.append(a)
        elif p.dir == 'in':
            ln = _length(p, names)
            _stack_array(decls, cleanup, rtt, '*', a)
            pre.append('rc_ = %s_%s_array_in(%s, FN, "%s", %s, %s, %s, %s_s, &%s); if (rc_) goto out;'
                       % (F, h, errobj, n, n, ln, nullok, a, a))
            args.append('(%s *const *)%s' % (rtt, a))
        elif p.dir == 'out' and not p.is_array:
            need_ptr(p)
            decls.append('%s *%s = NULL;' % (rtt, a))
            args.append('&' + a)
            post.append('*%s = %s_%s_out(%s);' % (n, F, h, a))
            if p.null_on_error:  # the runtime's failure leaves the null handle
                post_always.append('if (rc_) *%s = %s_%s_out(NULL);' % (n, F, h))
        elif p.dir == 'inout' and not p.is_array:
            need_ptr(p)
            decls.append('%s *%s = NULL;' % (rtt, a))
            nullok_io = '1' if h in ('request', 'message') else '0'
            pre.append('rc_ = %s_%s_in(%s, FN, "%s", *%s, %s, &%s); if (rc_) goto out;'
                       % (F, h, errobj, n, n, nullok_io, a))
            args.append('&' + a)
            (post_always if h in ('request', 'message') else post).append('*%s = %s_%s_out(%s);' % (n, F, h, a))
        else:  # out or inout arrays
            ln = _length(p, names)
            if p.dir == 'inout':
                _stack_array(decls, cleanup, rtt, '*', a)
                pre.append('rc_ = %s_%s_array_in(%s, FN, "%s", %s, %s, 1, %s_s, &%s); if (rc_) goto out;'
                           % (F, h, errobj, n, n, ln, a, a))
            else:
                decls.append('%s **%s = NULL;' % (rtt, a))
                pre.append('rc_ = %s_array_alloc((void ***)&%s, %s, %s, FN); if (rc_) goto out;'
                           % (F, a, ln, errobj))
                cleanup.append('free(%s);' % a)
            args.append(a)
            post_always.append('if (%s) for (int i_ = 0; i_ < (int)(%s); i_++) %s[i_] = %s_%s_out(%s[i_]);'
                               % (a, ln, n, F, h, a))
    elif cls == 'tool_handle':
        args.append('(void *)%s' % n if p.dir == 'in' else '(void **)%s' % n)
    elif cls == 'buffer':
        decls.append('%svoid *%s = %s_buffer_in(%s);' % ('const ' if p.dir == 'in' and p.const else '', a, F, n))
        if not p.in_place:  # where the spec does not allow MPI_IN_PLACE, nothing may read it
            pre.append(Stmt('if (__builtin_expect(%s == RT_IN_PLACE, 0)) { rc_ = rt_raise(%s, RT_ERR_BUFFER, FN, '
                            '"invalid argument \'%s\' = MPI_IN_PLACE: not allowed here"); goto out; }' % (a, errobj, n),
                            'if (%s == RT_IN_PLACE) goto slow_;' % a))
        args.append(a)
    elif cls in ('c_pointer', 'attribute', 'extra_state', 'f_status', 'f08_status'):
        if p.dir != 'in':
            need_ptr(p)
        args.append('(void *)%s' % n)
        if k.map == 'buffer' and p.dir != 'in':  # a buffer address handed back: the face's sentinels
            post.append('*(void **)%s = %s_buffer_out(*(void **)%s);' % (n, F, n))
        keyval = [q for q in params if q.kind.cls == 'handle' and q.kind.handle == 'keyval' and q.dir == 'in']
        flag = [q for q in params if q.kind.cls == 'logical' and q.dir == 'out']
        if cls == 'attribute' and p.dir != 'in' and keyval and flag:  # a get: map predefined values
            post.append('%s_attr_value_out(a_%s, %s, *%s);' % (F, keyval[0].name, n, flag[0].name))
    elif cls == 'string':
        if not (p.dir == 'in' and p.optional):
            need_ptr(p)
        if p.max_length:  # the face's own limit (the runtime's is the standard ABI's)
            pre.append('rc_ = fs_check_strlen(%s, FN, "%s", %s, %s, "%s", %s); if (rc_) goto out;'
                       % (errobj, n, n, p.max_length, p.max_length,
                          rt_name(p.max_length_error) if p.max_length_error else 'RT_ERR_ARG'))
        if p.dir == 'out' and isinstance(p.length, str) and p.length not in names and p.length != '*':  # a constant
            _string_out(proc, p, params, decls, args, post)
        else:
            args.append(n)
    elif cls in ('string_array', 'string_2darray', 'argv'):
        args.append(n)
    elif cls == 'status':
        _status(F, p, names, decls, pre, args, post_always, cleanup, errobj)
    elif cls == 'logical':
        if p.dir == 'in' and not p.is_array:
            args.append('(%s != 0)' % n)
        else:
            if p.dir != 'in' and not p.is_array:
                need_ptr(p)
            args.append(n)
    elif cls == 'function':
        flags = 'RT_CB_LARGE' if (large and k.poly) else '0'
        args.append('(rt_callback){(rt_fn)%s, &%s_face, %s}' % (n, F, flags))
    elif cls == 'fint_handle':
        args.append(n)
    else:  # numbers: int, aint, offset, count, double
        _number(proc, F, p, large, names, decls, pre, args, post, cleanup, errobj, eo)


def _string_out(proc, p, params, decls, args, post):
    """An OUT string of length MPI_MAX_X: the runtime writes up to its own RT_MAX_X (the
    standard ABI's value), the face's MPI_MAX_X may be smaller (MPICH's MPI_MAX_PROCESSOR_NAME
    is 128, the runtime's 256). So the runtime writes into a buffer of its size, and the face
    copies at most MPI_MAX_X - 1 characters of it out; the procedure's OUT STRING_LENGTH, if
    any, becomes the length copied."""
    n, a = p.name, 'a_' + p.name
    strings = [q for q in params if q.kind.cls == 'string' and q.dir == 'out' and isinstance(q.length, str)
               and q.length not in [x.name for x in params] and q.length != '*']
    lengths = [q for q in params if q.kind.name == 'STRING_LENGTH' and q.dir == 'out']
    if len(strings) != 1 or len(lengths) > 1:
        raise ValueError('%s: %d OUT strings of an MPI_MAX_ length and %d OUT STRING_LENGTHs: which length is whose?'
                         % (proc.name, len(strings), len(lengths)))
    decls.append('char %s[%s];' % (a, rt_name(p.length)))
    args.append(a)
    copy = 'fs_string_out(%s, %s, %s)' % (n, a, p.length)
    post.append('*%s = %s;' % (lengths[0].name, copy) if lengths else '(void)%s;' % copy)


def _length(p, names):
    L = p.length
    if isinstance(L, str) and L in names:
        return L if names[L].dir == 'in' or names[L].pointer is False else '(%s ? *%s : 0)' % (L, L)
    if L == '*' and p.entries:
        return p.entries
    raise ValueError('no length for %s' % p.name)


def _status(F, p, names, decls, pre, args, post_always, cleanup, errobj):
    n, a = p.name, 'a_' + p.name
    if not p.is_array:
        decls.append('rt_status %s_s = {0}, *%s = NULL;' % (a, a))
        if p.dir in ('in', 'inout'):
            pre.append(_null_check(n, errobj))
            pre.append('%s = &%s_s; %s_status_in(%s, %s, %d);' % (a, a, F, n, a, p.status_error))
        else:
            pre.append('if (!%s_status_ignored(%s)) { if (!%s) { rc_ = rt_raise(%s, RT_ERR_ARG, FN, "argument \'%s\' is a null pointer (use MPI_STATUS_IGNORE)"); goto out; } %s = &%s_s; }'
                       % (F, n, n, errobj, n, a, a))
        args.append(a)
        if p.dir != 'in':
            # MPI_ERROR is left alone by single-status calls (MPI-5.0 3.2.5) but those the spec
            # marks status_error (MPI_Status_set_error)
            post_always.append('if (%s) %s_status_out(%s, %s, %d);' % (a, F, a, n, p.status_error))
        return
    if not p.entries:
        raise ValueError('status array %s has no entries' % n)
    ln = p.entries
    filled = '*' + p.filled if p.filled else ln
    _stack_array(decls, cleanup, 'rt_status', '', a)
    pre.append('if (!%s_statuses_ignored(%s) && (%s) > 0) { '
               '%s = (%s) <= FS_STACK_N ? %s_s : malloc(sizeof(rt_status) * (size_t)(%s)); '
               'if (!%s) { rc_ = rt_raise(%s, RT_ERR_NO_MEM, FN, "out of memory for %%d statuses", (int)(%s)); goto out; } }'
               % (F, n, ln, a, ln, a, ln, a, errobj, ln))
    args.append(a)
    # an array of statuses gets its MPI_ERROR fields if and only if the call returns
    # MPI_ERR_IN_STATUS (MPI-5.0 3.2.5); one written only when a flag says so is not copied
    # otherwise (the runtime did not fill it)
    written = ' && *%s' % p.written_if if p.written_if else ''
    post_always.append('if (%s%s) for (int i_ = 0; i_ < (int)(%s) && (%s) != MPI_UNDEFINED; i_++) '
                       '%s_status_out(&%s[i_], &%s[i_], rt_error_class_of(rc_) == RT_ERR_IN_STATUS);'
                       % (a, written, filled, filled, F, a, n))


def _number(proc, F, p, large, names, decls, pre, args, post, cleanup, errobj, eo=None):
    k, n, a = p.kind, p.name, 'a_' + p.name
    face_t = cdecl.c_base(p, large)
    rt_t = cdecl.rt_scalar_type(p)
    m = k.map
    if p.is_array and k.name == 'GENERIC_DTYPE_INT':
        # a datatype's contents (the kind's only use): the constants among the integers are the
        # runtime's, the face's maps fix them up by the combiner of the procedure's IN datatype
        dt = next(q.name for q in proc.c_params(large) if q.kind.cls == 'handle' and q.dir == 'in')
        post.append('fs_contents_ints_out(a_%s, %s, (int)%s, %s_enum_file_operations_constants_out_fn, '
                    '%s_darg_out_fn);' % (dt, n, p.length, F, F))
        args.append(n)
        return
    if p.is_array:
        if m == 'weights':
            args.append('%s_weights_in(%s)' % (F, n))
        elif m and p.dir == 'in' and isinstance(p.length, str) and p.length in names:
            # constants inside an array (MPI_Type_create_darray's distributions): element by element
            decls.append('int *%s = NULL;' % a)
            pre.append('if ((%s) > 0) { if (!%s) { rc_ = rt_raise(%s, RT_ERR_ARG, FN, "argument \'%s\' is a null pointer"); goto out; } '
                       '%s = malloc(sizeof(int) * (size_t)(%s)); if (!%s) { rc_ = rt_raise(%s, RT_ERR_NO_MEM, FN, "out of memory"); goto out; } '
                       'for (int i_ = 0; i_ < (int)(%s); i_++) %s[i_] = %s; }'
                       % (p.length, n, errobj, n, a, p.length, a, errobj, p.length, a, _map_in(F, m, '%s[i_]' % n)))
            cleanup.append('free(%s);' % a)
            args.append(a)
        elif m and p.dir == 'out' and isinstance(p.length, str) and p.length in names:
            # the runtime's constants written into an array: translated in place afterwards
            args.append(n)
            post.append('for (int i_ = 0; i_ < (int)(%s); i_++) %s[i_] = %s;'
                        % (_length(p, names), n, _map_out(F, m, '%s[i_]' % n)))
        elif k.poly:
            counts = '(rt_counts){(const void *)%s, %d}' % (n, 0 if face_t == 'int' else 1)
            if p.dir == 'in' and p.length == '*' and _star_length(p, eo):
                # a collective's counts or displacements, one per peer or neighbour: where the
                # call uses them (the guards), a NULL array is refused before anything reads it
                pre.append('if (!%s && (%s) > 0) { rc_ = rt_raise(%s, RT_ERR_ARG, FN, "argument \'%s\' is a null '
                           'pointer"); goto out; }' % (n, _star_length(p, eo), errobj, n))
            if p.dir == 'in' and p.length == '*' and k.check == 'nonneg' and _star_length(p, eo):
                # checked here, naming the call made (the runtime names the plain one) and the element
                pre.append('if (%s && (rc_ = fs_check_counts(%s, FN, "%s", %s, %s, %s, 0))) goto out;'
                           % (n, errobj, n, counts, _star_length(p, eo), _element_class(k)))
            else:
                _check_elements(p, names, counts, errobj, pre)
            args.append(counts)
        elif isinstance(p.length, list):
            args.append('(%sint *)%s' % ('const ' if p.dir == 'in' else '', n))
        else:
            if face_t == 'int':
                _check_elements(p, names, '(rt_counts){(const void *)%s, 0}' % n, errobj, pre)
            args.append(n)
        return
    if p.dir == 'in':
        if m:
            decls.append('%s %s = %s;' % (rt_t, a, _map_in(F, m, n)))
        else:
            decls.append('%s %s = (%s)%s;' % (rt_t, a, rt_t, n))
        _checks(proc, F, p, names, pre, errobj, a)
        args.append(a)
        return
    # out / inout scalars
    if p.pointer is False:
        args.append(n)
        return
    if (p.dir == 'out' or p.dir == 'inout') and not p.optional:
        pre.append(_null_check(n, errobj))
        if p.dir == 'inout' and k.check in ('nonneg', 'positive'):  # the value given (a pack position)
            _checks(proc, F, p, names, pre, errobj, '(*%s)' % n)
    # the C binding's integer types (kinds' c) and the runtime's for them
    if not m and face_t.replace('MPI_Aint', 'rt_aint').replace('MPI_Count', 'rt_count').replace('MPI_Offset', 'rt_offset') == rt_t:
        args.append(n)
        return
    decls.append('%s %s = 0;' % (rt_t, a))
    if p.dir == 'inout':  # the value given, read once the pointer is known not to be NULL
        init = _map_in(F, m, '*' + n) if m else '(%s)*%s' % (rt_t, n)
        read = '%s = %s;' % (a, init)
        pre.append('if (%s) %s' % (n, read) if p.optional else read)
    args.append('&' + a)
    if m:
        post.append('*%s = %s;' % (n, _map_out(F, m, a)))
    elif face_t == 'int' and rt_t != 'int':
        # MPI_UNDEFINED when it does not fit (MPI_Type_size of a type over 2 GiB)
        post.append('*%s = %s == (int)%s ? (int)%s : MPI_UNDEFINED;' % (n, a, a, a))
    else:
        post.append('*%s = (%s)%s;' % (n, face_t, a))


def _element_class(k):
    """The runtime class a bad element of an array of kind k gives (the spec's element_error_class,
    else its error_class, else RT_ERR_COUNT for a count, RT_ERR_ARG otherwise)."""
    c = k.element_error_class or k.error_class
    return rt_name(c) if c else 'RT_ERR_COUNT' if k.cls == 'count' else 'RT_ERR_ARG'


def _check_elements(p, names, counts, errobj, pre):
    """An IN array of a nonneg or positive kind as long as an IN parameter (a datatype
    constructor's array_of_blocklengths, subarray's array_of_sizes): its elements checked here,
    naming the call made (the runtime names the plain one) and the element; a NULL array is the
    runtime's to refuse."""
    if p.dir != 'in' or p.kind.check not in ('nonneg', 'positive') or not isinstance(p.length, str) \
            or p.length not in names:
        return
    pre.append('if (%s && (rc_ = fs_check_counts(%s, FN, "%s", %s, (int)(%s), %s, %d))) goto out;'
               % (p.name, errobj, p.name, counts, _length(p, names), _element_class(p.kind),
                  p.kind.check == 'positive'))


def _star_length(p, eo):
    """The length of a '*'-long IN array of a call on a communicator eo, as the face computes it:
    as long as its (local or remote) group, or as its topology's in- or out-degree (none: 0, and
    the runtime refuses the communicator); None for other arrays."""
    if not eo or eo.kind.handle != 'comm':
        return None
    if p.extent in ('peers', 'local'):
        return 'fs_extent_size(a_%s, %d)' % (eo.name, p.extent == 'local')
    if p.extent in ('sources', 'destinations'):
        return 'fs_degree(a_%s, %d)' % (eo.name, p.extent == 'sources')
    return None


def _map_in(F, m, expr):
    kind, _, cat = m.partition(':')
    if kind in ('enum', 'bits'):
        return '%s_%s_%s_in(%s)' % (F, kind, cat.lower(), expr)
    return '%s_%s_in(%s)' % (F, kind, expr)


def _map_out(F, m, expr):
    kind, _, cat = m.partition(':')
    if kind in ('enum', 'bits'):
        return '%s_%s_%s_out(%s)' % (F, kind, cat.lower(), expr)
    return '%s_%s_out(%s)' % (F, kind, expr)


def _checks(proc, F, p, names, pre, errobj, a):
    k, n = p.kind, p.name
    ecls = rt_name(k.error_class) if k.error_class else 'RT_ERR_COUNT' if k.cls == 'count' else 'RT_ERR_ARG'
    if k.check == 'nonneg':
        pre.append('if (%s < 0) { rc_ = rt_raise(%s, %s, FN, "invalid argument \'%s\' = %%lld: must be >= 0", (long long)%s); goto out; }'
                   % (a, errobj, ecls, n, a))
    elif k.check == 'positive':
        pre.append('if (%s <= 0) { rc_ = rt_raise(%s, %s, FN, "invalid argument \'%s\' = %%lld: must be > 0", (long long)%s); goto out; }'
                   % (a, errobj, ecls, n, a))
    elif k.check in ('rank', 'rank_nni'):
        rules = _rank_rules(p)
        if rules and not p.checked_by_runtime:
            any_ok, root_ok = rules
            of = names[p.rank_of]
            if of.kind.cls != 'handle':  # below a size given beside it (MPI_Type_create_darray's)
                pre.append('rc_ = fs_check_rank_below(%s, FN, "%s", %s, %s, "%s", a_%s); if (rc_) goto out;'
                           % (errobj, n, n, a, of.name, of.name))
            elif of.kind.handle == 'win':  # a target rank of an RMA call: the window's group
                pre.append('rc_ = %s_check_win_rank(%s, FN, "%s", %s, %s, a_%s); if (rc_) goto out;'
                           % (F, errobj, n, n, a, of.name))
            elif of.kind.handle == 'group':  # an inter-communicator's local leader
                pre.append('rc_ = fs_check_group_rank(%s, FN, "%s", %s, %s, "%s", a_%s); if (rc_) goto out;'
                           % (errobj, n, n, a, of.name, of.name))
            else:
                pre.append('rc_ = %s_check_rank(%s, FN, "%s", %s, %s, a_%s, %d, %d); if (rc_) goto out;'
                           % (F, errobj, n, n, a, of.name, any_ok, root_ok))
    elif k.check == 'tag':
        pre.append('rc_ = %s_check_tag(%s, FN, "%s", %s, %s, %d); if (rc_) goto out;'
                   % (F, errobj, n, n, a, 1 if p.accepts and 'MPI_ANY_TAG' in p.accepts else 0))  # the spec's accepts
