# Emits the standard-ABI face's forwarding to a foreign library (issue 8), one file per backend
# (MPICH's ABI, Open MPI's): <prefix><Name>() per entry point, converting arguments by their kinds
# to the backend's ABI and the results back.
import dataclasses

import cdecl
import face
from render import render

FILE_CLASS = 'file'


@dataclasses.dataclass
class Backend:
    name: str             # SWITCHYARD_ABI_BACKEND's value
    value: str            # the spec's field with the backend's values: 'mpich' or 'openmpi'
    prefix: str           # of the exported forwarding functions
    pointer_handles: bool  # every handle but keyvals is a pointer (Open MPI); else ints, files pointers


BACKENDS = [Backend('mpich', 'mpich', 'afbm_', False), Backend('openmpi', 'openmpi', 'afbo_', True)]


class Unsupported(Exception):
    """A parameter whose kind this slice does not convert: the procedure answers
    MPI_ERR_UNSUPPORTED_OPERATION."""


def _handle_values(spec, B):
    """{class: [(abi value, backend value, name)]} for predefined handles and null handles; the
    backend value is an int, or a symbol name when the backend's handles are pointers."""
    null_of = {n: h for h, n in face.NULL_NAME.items()}
    by_name = {c.name: c for c in spec.constants}
    out = {}
    for c in spec.constants:
        cls = c.handle or null_of.get(c.name) or ('keyval' if c.category == 'ENV_INQ_AND_ATTR_KEYS' else None)
        if not cls or not isinstance(c.abi, int) or not c.in_standard_abi:
            continue
        v = getattr(c, B.value)
        if B.pointer_handles and cls != 'keyval':
            if v is None:  # the backend lacks it: its null handle stands in
                v = getattr(by_name[face.NULL_NAME[cls]], B.value)
            if isinstance(v, dict):
                out.setdefault(cls, []).append((c.abi, v['symbol'], c.name))
        elif isinstance(v, int):
            out.setdefault(cls, []).append((c.abi, v, c.name))
    return out


def _tables(spec, B):
    vals = _handle_values(spec, B)
    table, lim = {}, 1024
    for cls, pairs in vals.items():
        if cls == 'keyval' or (cls == FILE_CLASS and not B.pointer_handles):
            continue
        for a, m, n in pairs:
            if not 0 <= a < lim:
                raise ValueError('%s: standard-ABI value %d is not a small predefined handle' % (n, a))
            if table.get(a, m) != m:
                raise ValueError('%s: standard value %d maps to two %s values' % (n, a, B.name))
            table[a] = m
    outs = {}
    nulls = set(face.NULL_NAME.values())
    for cls, pairs in vals.items():
        seen, lst = set(), []
        # a constant MPICH lacks has its null handle's value there (MPI_INTEGER16): null wins
        for a, m, n in sorted(pairs, key=lambda x: x[2] not in nulls):
            if m not in seen:
                seen.add(m)
                lst.append((m, a, n))
        outs[cls] = lst
    return sorted(table.items()), outs


def _symbols(spec, B):
    """The backend's values that are addresses ({symbol}): [(symbol, address itself?)]: callback
    functions and predefined handle objects are their addresses, sentinel variables hold them."""
    out = []
    for c in spec.constants:
        v = getattr(c, B.value)
        if isinstance(v, dict) and c.in_standard_abi and c.c_type:
            s = v['symbol']
            if s not in [x[0] for x in out]:
                handle = B.pointer_handles and c.c_type in face.HANDLE_CTYPE.values()
                out.append((s, 'function' in c.c_type or handle))
    return out


class Ctx:
    def __init__(self, spec, B):
        self.spec = spec
        self.B = B
        self.by_name = {c.name: c for c in spec.constants}
        self.symbols = _symbols(spec, B)
        self.sym_index = {s: i for i, (s, _) in enumerate(self.symbols)}
        mp = face.maps(spec, face.FaceConfig(prefix='afb', value=B.value, pointer_classes=set(), header='', backend=True))
        self.maps = mp
        self.callbacks = {c.name: c for c in spec.callbacks}
        self.handlers = {}

    def handler(self, cbname, large):
        """The name of the closure handler for callback type cbname (made on first use)."""
        if cbname not in self.handlers:
            cb = self.callbacks[cbname[:-2] if large and cbname.endswith('_c') else cbname]
            self.handlers[cbname] = callback_handler(self, cb, large)
        return cbname

    def val(self, name):
        """The backend's value of constant name."""
        return getattr(self.by_name[name], self.B.value)

    def is_ptr(self, cls):
        """Handles of class cls are pointers in the backend."""
        return cls != 'keyval' and (self.B.pointer_handles or cls == FILE_CLASS)

    def mtype(self, cls):
        return 'void *' if self.is_ptr(cls) else 'int'

    def handle_expr(self, name):
        """The backend's value of predefined handle name as a C expression of its type."""
        c = self.by_name[name]
        if self.B.pointer_handles and c.handle != 'keyval':
            return 'afb_handle_in(%d)' % c.abi
        v = getattr(c, self.B.value)
        return '(void *)(intptr_t)%d' % v if self.is_ptr(c.handle or '') else '%d' % v

    def null_expr(self, cls):
        """The backend's null handle of class cls as a C expression of its handle type."""
        if self.B.pointer_handles and cls != 'keyval':
            return 'afb_handle_in(%d)' % self.by_name[face.NULL_NAME[cls]].abi
        v = self.val(face.NULL_NAME[cls])
        return '(void *)(intptr_t)%d' % v if self.is_ptr(cls) else '%d' % v

    def conv(self, cls):
        """(in, out) conversion function names for handles of class cls."""
        if cls == 'keyval':
            return 'afb_keyval_in', 'afb_keyval_out'
        if cls == FILE_CLASS and not self.B.pointer_handles:
            return 'afb_file_in', 'afb_file_out'
        return 'afb_handle_in', 'afb_%s_out' % cls

    def sym(self, name):
        return 'afb_sym[%d] /* %s */' % (self.sym_index[name], name)


def _map_fn(m, d):
    kind, _, cat = m.partition(':')
    return 'afb_%s_%s' % ('%s_%s' % (kind, cat.lower()) if cat else kind, d)


def _length(p, names):
    L = p.length
    if isinstance(L, str) and L in names:
        q = names[L]
        return L if (q.dir == 'in' or q.pointer is False) else '(%s ? *%s : 0)' % (L, L)
    if L == '*' and p.entries:
        return p.entries
    return None


def forward(ctx, proc, name, large):
    """The body of afb_<Name>: dict(decls, pre, args, mtypes, post, cleanup), or Unsupported."""
    params = proc.c_params(large)
    names = {p.name: p for p in params}
    b = dict(decls=[], pre=[], args=[], mtypes=[], post=[], cleanup=[])
    for p in params:
        _param(ctx, proc, p, names, large, b)
    _request_effect(proc, params, names, b)
    return b


def _request_effect(proc, params, names, b):
    """The shim's record of which persistent requests are active (abi/backend_preq.c), kept from
    the spec's 'requests' effect of proc after the call (the arguments are the standard ABI's
    again): a backend says of an inactive persistent request what it says of a complete one."""
    eff = proc.requests
    if not eff:
        return
    req = next(p for p in params if p.kind.cls == 'handle' and p.kind.handle == 'request')
    r, n = req.name, (_length(req, names) if req.is_array else '1')
    if eff == 'persistent':
        b['post'].append('if (rc_ == 0 && %s) afb_preq_new(*%s);' % (r, r))
        return
    if eff == 'start':
        b['post'].append('if (rc_ == 0 && afb_preq_any()) afb_preq_start(%s, %s);' % (r, n))
        return
    if eff == 'free':  # the handle before the call: the call sets it to MPI_REQUEST_NULL
        # C text of the shim, against the MPI header it includes
        b['decls'].append('MPI_Request preq_ = %s ? *%s : MPI_REQUEST_NULL;' % (r, r))
        b['post'].append('if (rc_ == 0 && afb_preq_any()) afb_preq_forget(preq_);')
        return
    # 'complete': the requests the call reports complete (a flag, an index, a list of indices, or
    # all of them). A request completed with an error is complete too: the error of one request
    # (MPI_Wait, MPI_Test, MPI_Waitany, MPI_Testany) comes back as the call's, so a flag or an index
    # the call set counts whatever it returns (the shim clears them first: a call refused before
    # it looked at its requests sets neither); MPI_Wait of a recorded request completes it
    # whatever it returns. With MPI_ERR_IN_STATUS, those whose status is not MPI_ERR_PENDING.
    flag = next((p.name for p in params if p.kind.cls == 'logical' and p.dir == 'out'), None)
    index = next((p for p in params if p.kind.name == 'INDEX' and p.dir == 'out'), None)
    outcount = next((p.name for p in params if p.kind.name == 'ARRAY_LENGTH' and p.dir == 'out'), None)
    sts = next((p.name for p in params if p.kind.cls == 'status' and p.is_array), None)
    one = index is not None and not index.is_array
    if flag:
        b['pre'].append('if (%s) *%s = 0;' % (flag, flag))
    if one:
        b['pre'].append('if (%s) *%s = -1;' % (index.name, index.name))
    if req.is_array and not one:
        # C text of the shim: the foreign MPI's own constant, which its header defines
        ok = ['(rc_ == 0 || afb_error_code_out(rc_) == MPI_ERR_IN_STATUS)']
    else:
        ok = []
    cond = ['afb_preq_any()'] + ok + (['%s && *%s' % (flag, flag)] if flag else [])
    if index is not None and index.is_array:
        if not outcount:
            raise ValueError('%s: indices of completed requests without their count' % proc.name)
        # C text of the shim: MPI_UNDEFINED as the foreign MPI's header defines it
        act = 'if (%s && %s && *%s != MPI_UNDEFINED) afb_preq_done_at(%s, %s, *%s);' % (
            index.name, outcount, outcount, r, index.name, outcount)
    elif index is not None:
        act = 'if (%s && *%s >= 0) afb_preq_done_at(%s, %s, 1);' % (index.name, index.name, r, index.name)
    else:
        act = 'afb_preq_done(%s, %s, %s);' % (r, n, 'rc_ == 0 ? NULL : %s' % sts if sts else 'NULL')
    b['post'].append('if (%s) { %s }' % (' && '.join(cond), act))


def _star_length(ctx, proc, p, names):
    """The length of a '*'-long array of a collective as long as the communicator's peers."""
    comm = next((q for q in names.values() if q.kind.cls == 'handle' and q.kind.handle == 'comm'), None)
    if p.extent in ('peers', 'local') and comm:
        return 'afb_peers(%s((intptr_t)%s), %d)' % (ctx.conv('comm')[0], comm.name, p.extent == 'local')
    if p.extent in ('sources', 'destinations') and comm:
        return 'afb_degree(%s((intptr_t)%s), %d)' % (ctx.conv('comm')[0], comm.name, p.extent == 'destinations')
    return None


def emulate(ctx, proc):
    """The body of afb_emu_<Name>_c: the _c twin over the plain procedure, for a backend that lacks
    the _c symbol. Exact only when every large-count argument fits the plain call's type: each one
    the two calls type differently (kinds with c_large) is narrowed and checked ('i_' + name; arrays
    through a copy), outputs are widened back. Unsupported when it cannot be exact: parameters of
    the _c call only, callbacks whose types differ."""
    large = proc.c_params(True)
    if any(p.large_only for p in large):
        raise Unsupported('its large-count twin has parameters the other lacks')
    names = {p.name: p for p in large}
    b = dict(decls=[], pre=[], args=[], mtypes=[], post=[], cleanup=[])
    narrow, widen, role_used = [], [], False
    root = next((q for q in large if q.accepts and 'MPI_ROOT' in q.accepts), None)  # its comm: rank_of (model.py)
    short_c = proc.short + '_c'
    for p in proc.c_params(False):
        small, big = cdecl.c_base(p, False), cdecl.c_base(p, True)
        if small == big:
            _param(ctx, proc, p, names, False, b)
            continue
        if p.kind.cls != 'count':
            raise Unsupported('parameter %s is %s in %s_c, %s in %s' % (p.name, big, proc.name, small, proc.name))
        n, v = p.name, 'i_' + p.name

        def big_err(what, idx, val):
            return '{ rc_ = afb_too_large(AFB_%s, AFB_%s, "%s", %s, (long long)(%s)); goto out; }' % (
                short_c, proc.short, what, idx, val)
        steps = []
        if not p.is_array and (p.dir == 'in' and not p.pointer):
            b['decls'].append('%s %s = (%s)%s;' % (small, v, small, n))
            steps.append('if ((%s)%s != %s) %s' % (big, v, n, big_err(n, -1, n)))
        elif not p.is_array:
            b['decls'].append('%s %s_ = 0;' % (small, v))
            b['decls'].append('%s *%s = %s ? &%s_ : NULL;' % (small, v, n, v))
            if p.dir != 'out':
                steps.append('if (%s) { %s_ = (%s)*%s; if ((%s)%s_ != *%s) %s }' % (n, v, small, n, big, v, n, big_err(n, -1, '*' + n)))
            if p.dir != 'in':
                widen.append('if (rc_ == 0 && %s) *%s = %s_;' % (n, n, v))
        else:
            ln = _length(p, names) or _star_length(ctx, proc, p, names)
            if ln is None:
                raise Unsupported('array %s of unknown length' % n)
            b['decls'].append('%s *%s = NULL;' % (small, v))
            fill = ''
            if p.dir != 'out':
                fill = ' for (int i_ = 0; i_ < (int)(%s); i_++) { %s[i_] = (%s)%s[i_]; if ((%s)%s[i_] != %s[i_]) %s }' % (
                    ln, v, small, n, big, v, n, big_err(n, 'i_', '%s[i_]' % n))
            steps.append('if (%s && (%s) > 0) { %s = malloc(sizeof *%s * (size_t)(%s)); if (!%s) { rc_ = AFB_M_ERR_NO_MEM; goto out; }%s }'
                         % (n, ln, v, v, ln, v, fill))
            b['cleanup'].append('free(%s);' % v)
            if p.dir != 'in':
                widen.append('if (rc_ == 0 && %s) for (int i_ = 0; i_ < (int)(%s); i_++) %s[i_] = %s[i_];' % (v, ln, n, v))
        guard = []
        if p.significant and root:
            guard.append('(role_ & %d)' % (1 if p.significant == 'root' else 2))
            role_used = True
        if p.unused_if_in_place:
            # C text: the rule is the spec's unused_if_in_place; MPI_IN_PLACE is the header's constant
            guard.append('%s != MPI_IN_PLACE' % p.unused_if_in_place)
        if guard and steps:  # an unused argument is not checked (nor copied: the backend gets NULL)
            steps = ['if (%s) { %s }' % (' && '.join(guard), ' '.join(steps))]
        narrow += steps
        _param(ctx, proc, dataclasses.replace(p, name=v), names, False, b)
    starts = any(p.kind.cls == 'handle' and p.kind.handle == 'request' and p.dir == 'out' for p in large)
    if starts and any(p.is_array for p in proc.c_params(False) if cdecl.c_base(p, False) != cdecl.c_base(p, True)):
        raise Unsupported('it starts an operation that may read the arrays after the call, which would then be copies')
    if role_used:
        b['decls'].append('int role_ = 0;')
        narrow.insert(0, 'role_ = afb_role(%s((intptr_t)%s), %s);' % (ctx.conv('comm')[0], root.rank_of, root.name))
    b['pre'] = narrow + b['pre']
    b['post'] += widen
    _request_effect(proc, large, names, b)
    return b


def _temp_array(b, a, ctype, n, length, conv_in):
    b['decls'].append('%s *%s = NULL;' % (ctype, a))
    fill = ' for (int i_ = 0; i_ < (int)(%s); i_++) %s[i_] = %s;' % (length, a, conv_in) if conv_in else ''
    b['pre'].append('if (%s && (%s) > 0) { %s = malloc(sizeof *%s * (size_t)(%s)); if (!%s) { rc_ = AFB_M_ERR_NO_MEM; goto out; }%s }'
                    % (n, length, a, a, length, a, fill))
    b['cleanup'].append('free(%s);' % a)


def _param(ctx, proc, p, names, large, b):
    k, n, a = p.kind, p.name, 'm_' + p.name
    cls = k.cls
    decls, pre, args, mt, post = b['decls'], b['pre'], b['args'], b['mtypes'], b['post']
    scalar = not p.is_array
    if cls == 'handle':
        h = k.handle
        fin, fout = ctx.conv(h)
        mtype, conv_in, conv_out = ctx.mtype(h), fin + ('((intptr_t)(%s))' if fin == 'afb_handle_in' else '(%s)'), fout + '(%s)'
        if scalar and p.dir == 'in' and not p.pointer:
            mt.append(mtype)
            args.append(conv_in % n)
        elif scalar:
            # an output starts as the backend's null handle: a call that fails gives the standard's
            decls.append('%s %s = %s;' % (mtype, a, ctx.null_expr(h) if p.dir == 'out' else conv_in % ('*' + n)))
            mt.append(mtype + ' *')
            args.append('&' + a)
            if p.dir != 'in':
                post.append('*%s = (%s)%s;' % (n, face.HANDLE_CTYPE[h], conv_out % a))
        else:
            ln = _length(p, names) or _star_length(ctx, proc, p, names)
            if ln is None:
                raise Unsupported('array %s of unknown length' % n)
            _temp_array(b, a, mtype, n, ln, conv_in % ('%s[i_]' % n) if p.dir != 'out' else None)
            mt.append(mtype + ' *')
            args.append(a)
            if p.dir != 'in':
                post.append('if (%s) for (int i_ = 0; i_ < (int)(%s); i_++) %s[i_] = (%s)%s;'
                            % (a, ln, n, face.HANDLE_CTYPE[h], conv_out % ('%s[i_]' % a)))
    elif cls == 'buffer':
        mt.append('void *')
        args.append('afb_buffer_in(%s)' % n)
    elif cls in ('c_pointer', 'attribute', 'extra_state', 'string', 'string_array', 'string_2darray', 'argv'):
        mt.append('void *')
        args.append('(void *)%s' % n)
        if k.map == 'buffer' and p.dir != 'in':  # a buffer address handed back: the backend's sentinels
            post.append('if (rc_ == 0) *(void **)%s = afb_buffer_out(*(void **)%s);' % (n, n))
        lens = [q.name for q in proc.c_params(large) if q.kind.name == 'STRING_LENGTH' and q.dir == 'out']
        if k.name == 'LIBRARY_VERSION':  # the library's name: Switchyard's shim, then the backend's
            post.append('if (rc_ == 0) afb_name_library(%s, %s);' % (n, lens[0] if lens else 'NULL'))
        codes = [q.name for q in proc.c_params(large) if q.kind.map == 'error_code' and q.dir == 'in']
        if k.name == 'ERROR_STRING' and codes:  # the shim's own error codes have the shim's texts
            post.append('if (rc_ == 0) afb_error_string(%s, %s, %s);' % (codes[0], n, lens[0] if lens else 'NULL'))
        keyval = [q for q in proc.c_params(large) if q.kind.cls == 'handle' and q.kind.handle == 'keyval' and q.dir == 'in']
        flag = [q for q in proc.c_params(large) if q.kind.cls == 'logical' and q.dir == 'out']
        if cls == 'attribute' and p.dir != 'in' and keyval and flag:  # a get: map predefined values
            post.append('afb_attr_value_out(%s, %s, *%s);' % (keyval[0].name, n, flag[0].name))
    elif cls == 'status':
        _status(p, names, b)
    elif cls == 'function':
        _function(ctx, p, b, large)
    elif cls == 'varargs':
        mt.append('...')
    elif cls in ('int', 'aint', 'offset', 'count', 'double', 'logical'):
        _number(ctx, proc, p, names, large, b)
    else:  # tool handles, Fortran handles and statuses
        raise Unsupported('kind %s' % k.name)


def _number(ctx, proc, p, names, large, b):
    k, n, a = p.kind, p.name, 'm_' + p.name
    base = cdecl.c_base(p, large)
    m = k.map
    if not p.is_array and (p.dir == 'in' or p.pointer is False):
        b['mtypes'].append(base)
        b['args'].append(('%s(%s)' % (_map_fn(m, 'in'), n)) if (m and m != 'weights') else n)
        return
    b['mtypes'].append('void *')
    if m == 'weights':
        b['args'].append('afb_weights_in(%s)' % n)
        return
    ln = _length(p, names) if p.is_array else None
    if k.name == 'GENERIC_DTYPE_INT':
        # a datatype's contents: the constants among them (order, distributions, dargs) are the
        # backend's, fixed up by its combiner
        types = [q.name for q in proc.c_params(large) if q.kind.cls == 'handle' and q.dir == 'in']
        b['args'].append('(void *)%s' % n)
        b['post'].append('if (rc_ == 0) afb_contents_ints_out(%s((intptr_t)(%s)), %s, (int)(%s));'
                         % (ctx.conv('datatype')[0], types[0], n, ln))
        return
    if not m or (p.is_array and ln is None):
        # plain numbers (same layout in both ABIs), and arrays whose constants this slice leaves as
        # they are: '*'-long rank lists and [n][3] ranges hold ranks, not sentinels
        b['args'].append('(void *)%s' % n)
        return
    if not p.is_array and p.dir == 'out':
        # the backend writes the user's int, mapped in place once it has (no copy on the way)
        b['args'].append('(void *)%s' % n)
        b['post'].append('if (rc_ == 0 && %s) *%s = %s(*%s);' % (n, n, _map_fn(m, 'out'), n))
        return
    if not p.is_array:
        b['decls'].append('int %s = %s(*%s);' % (a, _map_fn(m, 'in'), n))
        b['args'].append('%s ? &%s : NULL' % (n, a))
        b['post'].append('if (%s) *%s = %s(%s);' % (n, n, _map_fn(m, 'out'), a))
        return
    if p.dir == 'in':
        _temp_array(b, a, 'int', n, ln, '%s(%s[i_])' % (_map_fn(m, 'in'), n))
        b['args'].append('%s ? %s : (void *)%s' % (a, a, n))
    else:
        b['args'].append('(void *)%s' % n)
        b['post'].append('if (%s) for (int i_ = 0; i_ < (int)(%s); i_++) %s[i_] = %s(%s[i_]);'
                         % (n, ln, n, _map_fn(m, 'out'), n))


def _status(p, names, b):
    n, a = p.name, 'm_' + p.name
    b['mtypes'].append('void *')
    if not p.is_array:
        # an OUT status is not read; its MPI_ERROR starts unset, so that afb_status_out keeps the
        # user's unless the backend set it
        b['decls'].append('afb_mstatus %s = {.MPI_ERROR = AFB_ERROR_UNSET};' % a)
        if p.dir != 'out':
            b['pre'].append('if (%s) afb_status_in(%s, &%s, %d);' % (n, n, a, p.status_error))
        b['args'].append('%s ? (void *)&%s : AFB_M_STATUS_IGNORE' % (n, a))
        if p.dir != 'in':
            b['post'].append('if (%s) afb_status_out(&%s, %s);' % (n, a, n))
        return
    if p.dir != 'out':
        raise ValueError('status array %s: only OUT arrays are forwarded' % n)
    ln = _length(p, names)
    # C text: MPI_ERROR names a status field, as the C binding does
    _temp_array(b, a, 'afb_mstatus', n, ln, '(afb_mstatus){.MPI_ERROR = AFB_ERROR_UNSET}')
    b['args'].append('%s ? (void *)%s : AFB_M_STATUS_IGNORE' % (a, a))
    # only the statuses the call wrote (`filled`: MPI_Waitsome's outcount; `written_if`: none
    # unless MPI_Testall's flag is true) go back
    filled = '(%s ? *%s : 0)' % (p.filled, p.filled) if p.filled else ln
    if p.written_if:
        filled = '((%s && *%s) ? (%s) : 0)' % (p.written_if, p.written_if, filled)
    b['post'].append('if (%s) for (int i_ = 0; i_ < (int)(%s); i_++) afb_status_out(&%s[i_], &%s[i_]);' % (a, filled, a, n))


def _function(ctx, p, b, large):
    n, a = p.name, 'm_' + p.name
    cbname = cdecl.c_base(p, large).rstrip(' *')
    handler = ctx.handler(cbname, large)  # Unsupported if a parameter of the callback has no conversion
    b['decls'].append('void (*%s)(void) = NULL;' % a)
    tests = []
    for c in (ctx.by_name[x['name']] for x in ctx.spec.predefined_callbacks if x['type'] == p.func_type):
        v = getattr(c, ctx.B.value)
        if isinstance(v, dict):
            val = '(void (*)(void))%s' % ctx.sym(v['symbol'])
        elif v is None:
            continue  # the backend lacks it: the user's call of it gets a closure like any function
        else:
            val = '(void (*)(void))(intptr_t)%d' % v
        tests.append('if ((intptr_t)%s == %d) %s = %s; /* %s */' % (n, c.abi, a, val, c.name))
    # the user's function: a closure that converts MPICH's arguments to the standard ABI's (one per
    # function and callback type, kept for the process's life: abi/backend_closure.c)
    tests.append('if (%s && !(%s = afb_closure(&afb_cif_%s, afb_cbh_%s, (void (*)(void))%s))) { rc_ = AFB_M_ERR_NO_MEM; goto out; }'
                 % (n, a, handler, handler, n))
    b['pre'].append(' else '.join(tests))
    b['mtypes'].append('void (*)(void)')
    b['args'].append(a)


# libffi's type of each C integer type of the binding (kinds' c): a fact of libffi and the C ABI
FFI_OF_CTYPE = {'int': 'ffi_type_sint', 'MPI_Aint': 'ffi_type_sint64', 'MPI_Offset': 'ffi_type_sint64',
                'MPI_Count': 'ffi_type_sint64'}


def callback_handler(ctx, cb, large):
    """The closure handler of callback type cb: dict(name, typedef, ffi (argument types), ret, lines),
    converting MPICH's arguments (*args[i]) to the standard ABI's, calling the user's function (the
    closure's user data) and converting back. Unsupported for kinds it cannot convert."""
    name = cb.name + ('_c' if large else '')
    ffi, lines, call, post = [], [], [], []
    for i, q in enumerate(x for x in cb.params if x.kind.cls != 'varargs'):
        k, cls = q.kind, q.kind.cls
        decl = cdecl.c_param(q, large)
        base = cdecl.c_base(q, large)
        ptr = decl[:len(decl) - len(q.name)].rstrip().endswith('*')
        a = 'a%d' % i
        if cls == 'handle':
            h = k.handle
            ctype = face.HANDLE_CTYPE[h]
            mtype = ctx.mtype(h)
            conv = ctx.conv(h)[1]
            if ptr:
                ffi.append('ffi_type_pointer')
                lines.append('%s %s = (%s)%s(**(%s **)args[%d]);' % (ctype, a, ctype, conv, mtype.rstrip(), i))
                call.append('&' + a)
            else:
                ffi.append('ffi_type_pointer' if ctx.is_ptr(h) else 'ffi_type_sint')
                lines.append('%s %s = (%s)%s(*(%s *)args[%d]);' % (ctype, a, ctype, conv, mtype.rstrip(), i))
                call.append(a)
        elif cls == 'status':
            ffi.append('ffi_type_pointer')
            lines.append('afb_mstatus *m%d = *(afb_mstatus **)args[%d];' % (i, i))
            # C text of the shim: the foreign MPI's status type, which its header names
            lines.append('MPI_Status %s = {0};' % a)
            lines.append('afb_status_out(m%d, &%s);' % (i, a))
            call.append('&' + a)
            post.append('afb_status_in(&%s, m%d, 1);' % (a, i))
        elif cls in ('int', 'aint', 'offset', 'count', 'logical'):
            m = k.map
            if ptr and m:
                ffi.append('ffi_type_pointer')
                lines.append('int *m%d = *(int **)args[%d];' % (i, i))
                lines.append('int %s = %s(*m%d);' % (a, _map_fn(m, 'out'), i))
                call.append('&' + a)
                if q.dir != 'in':
                    post.append('*m%d = %s(%s);' % (i, _map_fn(m, 'in'), a))
            elif ptr:
                ffi.append('ffi_type_pointer')
                call.append('*(%s **)args[%d]' % (base, i))
            else:
                if base not in FFI_OF_CTYPE:
                    raise Unsupported('callback %s: parameter %s of type %s' % (name, q.name, base))
                ffi.append(FFI_OF_CTYPE[base])
                val = '*(%s *)args[%d]' % (base, i)
                call.append('%s(%s)' % (_map_fn(m, 'out'), val) if m else val)
        elif cls in ('attribute', 'extra_state', 'c_pointer', 'buffer'):
            ffi.append('ffi_type_pointer')
            call.append('*(void **)args[%d]' % i)
        else:
            raise Unsupported('callback %s: parameter %s of kind %s' % (name, q.name, k.name))
    if cb.ret == 'ERROR_CODE':
        ret, invoke = 'ffi_type_sint', 'int r_ = fn(%s);' % ', '.join(call)
        post.append('*(ffi_sarg *)ret = afb_error_code_in(r_);')
    elif cb.ret == 'NOTHING':
        ret, invoke = 'ffi_type_void', 'fn(%s);' % ', '.join(call)
    else:
        raise Unsupported('callback %s returns %s' % (name, cb.ret))
    return dict(name=name, ffi=ffi, ffi_refs=', '.join('&' + t for t in ffi) or 'NULL', ret=ret,
                lines=lines + [invoke] + post)


def status_type(B):
    """The backend's MPI_Status fields, in order, as C declarations."""
    # C field names: each ABI's status layout, which its header fixes and the spec does not describe
    if B.value == 'openmpi':
        return ['int MPI_SOURCE', 'int MPI_TAG', 'int MPI_ERROR', 'int cancelled', 'size_t ucount']
    return ['int count_lo', 'int count_hi_and_cancelled', 'int MPI_SOURCE', 'int MPI_TAG', 'int MPI_ERROR']


def _fast_paths(maps):
    """{map name: {'in': f, 'out': f}}: f = 'nonneg' when every value the map changes is negative
    (a value >= 0 goes through at once), 'zero' when 0 goes through unchanged, else None."""
    out = {}
    for name, m in maps.items():
        if m.get('identity') or m.get('kind') == 'bits':
            continue
        f = {}
        for d, pairs, key, val in (('in', m['pairs_out'], 1, 0), ('out', m['pairs_in'], 0, 1)):
            keys = {p[key]: p[val] for p in pairs}
            f[d] = ('nonneg' if keys and max(keys) < 0 else
                    'zero' if keys.get(0, 0) == 0 else None)
        out[name] = f
    return out


def emit(spec):
    files = {}
    procs_h = []
    for B in BACKENDS:
        common = _emit_backend(spec, B)
        files['abi/backend_%s.c' % B.name] = render('backend_fwd.c.j2', **common)
        procs_h.append(common)
    files['abi/afb_procs.h'] = render('backend_procs.h.j2', backends=procs_h)
    return files


def _emit_backend(spec, B):
    ctx = Ctx(spec, B)
    funcs = []
    procs = [p for p in spec.procedures if not cdecl.face_manual(p)]
    for p in procs:
        for name, large in p.c_variants():
            f = {'name': name, 'short': name[4:], 'ret': cdecl.c_return(p),
                 'proto': cdecl.c_prototype(p, B.prefix + name[4:], large),
                 'pnames': [q.name for q in p.c_params(large) if q.kind.cls != 'varargs'],
                 # a hand-written emulation in abi/ for a backend that lacks the procedure (weak)
                 'hand_proto': cdecl.c_prototype(p, 'afb_hand_' + name[4:], large)}
            try:
                f['body'] = forward(ctx, p, name, large)
                f['why'] = None
            except Unsupported as e:
                f['body'], f['why'] = None, str(e)
            f['emu'], f['emu_why'] = None, None
            if large and f['body']:  # for a backend without the _c symbol but with the plain one
                try:
                    f['emu'] = emulate(ctx, p)
                    f['emu'].update(plain=p.short, proto='static ' + cdecl.c_prototype(p, 'afb_emu_' + name[4:], large))
                except Unsupported as e:
                    f['emu_why'] = str(e)
            if f['body'] and f['ret'] != 'int' and (f['body']['decls'] or f['body']['pre'] or f['body']['post']):
                raise ValueError('%s: a non-int result with arguments to convert' % name)
            funcs.append(f)
    table, outs = _tables(spec, B)
    by_name = ctx.by_name
    # the constants the template's hand-written C refers to: their values per ABI come from the spec
    ignore = ctx.val('MPI_STATUS_IGNORE')
    bufs = [(c.abi, getattr(c, B.value), c.name) for c in spec.constants_in('BUFFER_ADDR_CONSTANTS')
            if isinstance(getattr(c, B.value), int) and c.abi != getattr(c, B.value)]
    weights = []
    # the two address constants the template's weights translation names: values read from the spec
    for n in ('MPI_UNWEIGHTED', 'MPI_WEIGHTS_EMPTY'):
        v = ctx.val(n)
        weights.append((by_name[n].abi, ctx.sym(v['symbol']) if isinstance(v, dict) else '(void *)(intptr_t)%d' % v, n))
    # standard error classes the backend lacks: made in it (MPI_Add_error_class) when first raised
    dyn_classes = [(c.abi, c.name) for c in spec.constants_in('ERROR_CLASSES')
                   if c.in_standard_abi and isinstance(c.abi, int) and getattr(c, B.value) is None]
    attr_maps = [(c.abi, face.map_fname(c.attr_value_map), c.name) for c in spec.constants if c.attr_value_map]
    # MPI_ names below read named constants' values per ABI (the spec's data) for the template's C
    return dict(B=B, P=B.prefix, fast=_fast_paths(ctx.maps), funcs=funcs, handlers=list(ctx.handlers.values()), attr_maps=attr_maps, table=table, outs=outs, maps=ctx.maps, symbols=ctx.symbols,
                  sym_index=ctx.sym_index, status_ignore=ignore, bufs=bufs, weights=weights,
                  err_unsupported=ctx.val('MPI_ERR_UNSUPPORTED_OPERATION'),
                  err_no_mem=ctx.val('MPI_ERR_NO_MEM'), dyn_classes=dyn_classes, comm_world=ctx.handle_expr('MPI_COMM_WORLD'),
                  errors_are_fatal=ctx.handle_expr('MPI_ERRORS_ARE_FATAL'),
                  errors_abort=ctx.handle_expr('MPI_ERRORS_ABORT') if ctx.val('MPI_ERRORS_ABORT') is not None else None,
                  ctypes=face.HANDLE_CTYPE, mtype=ctx.mtype, status_type=status_type(B),
                  topo={n: ctx.val('MPI_' + n.upper()) for n in ('cart', 'graph', 'dist_graph')})

