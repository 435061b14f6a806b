# Emits the Fortran faces (over the MPICH ABI, and over the standard ABI): mpif.h, the `mpi`
# module, and the Fortran-callable entry points in four manglings, each converting its
# arguments and calling the C face.
import re

import cdecl
import model
from render import render

SKIP_CLASSES = {'argv', 'tool_handle', 'f_status', 'f08_status'}


def fortran_value(c, abi=False):
    """c's value in mpif.h: MPICH's, or (abi) the standard ABI's, where a Fortran handle is the
    value MPI_X_c2f gives for the C one (the C constant itself, for a predefined handle). The
    ABI gives the kinds as C types (c_intptr_t, c_int64_t; MPI_INTEGER_KIND's c_int, the ABI's
    MPI_Fint): MPICH's numbers, 8 and 4 here, are theirs. MPI_ABI_VERSION and MPI_ABI_SUBVERSION
    have no MPICH value, so only the ABI's mpif.h has them, as only its mpi.h."""
    if (abi and isinstance(c.abi, int)) or c.mpich_value_unused:
        return c.abi
    v = c.mpich_fortran if c.mpich_fortran is not None else c.mpich
    return v


def mpif_lines(spec, abi=False):
    """(declaration, value) pairs for the PARAMETERs, kinds first; then commons and externals."""
    params = []
    # the spec's mpif_first (the kinds, MPI_STATUS_SIZE: later declarations use them) come first
    first = sorted((c for c in spec.constants if c.mpif_first is not None), key=lambda c: c.mpif_first)
    for c in first + [c for c in spec.constants if c.mpif_first is None]:
        if abi and not c.in_standard_abi:
            continue
        v = fortran_value(c, abi)
        if c.fortran_common or c.category in ('FUNCTIONS', 'DEPRECATED_FUNCS') or v is None \
                or isinstance(v, dict) or c.category == 'FORTRAN_STATUS_ARRAY_SIZE_AND_INDEX_C' \
                or not c.in_fortran:
            continue
        if isinstance(v, bool):
            params.append(('LOGICAL', c.name, '.TRUE.' if v else '.FALSE.'))
            continue
        if not isinstance(v, int):
            continue
        # a PARAMETER of a kind (the spec's fortran_type: MPI_DISPLACEMENT_CURRENT), else a default INTEGER
        ftype = c.fortran_type if (c.fortran_type or '').startswith('INTEGER(KIND=') else 'INTEGER'
        if v >= 2 ** 31:
            v -= 2 ** 32
        params.append((ftype, c.name, str(v)))
    # the spec's fortran_common, by place: a block's members in MPICH's layout, the blocks in the
    # order of their first members
    commons = {}
    for c in sorted((c for c in spec.constants if c.fortran_common), key=lambda c: c.fortran_common['place']):
        commons.setdefault(c.fortran_common['block'], []).append((c.name, c.fortran_common['declaration']))
    externals = sorted(c.name for c in spec.constants if c.category in ('FUNCTIONS', 'DEPRECATED_FUNCS')
                       and c.in_fortran)
    return params, commons, externals


# ---------------------------------------------------------------- entry points

def fortran_params(proc):
    return [p for p in proc.c_params(False) if p.in_fortran and p.kind.cls != 'varargs']


def fortran_supported(proc):
    return proc.in_fortran and proc.in_c and not any(p.kind.cls in SKIP_CLASSES for p in fortran_params(proc)) \
        and proc.hand_written != 'all'  # the spec: every face writes it by hand (the handle converters)


def _flen(p, params):
    """C expression for the length of array p in the Fortran wrapper."""
    names = {q.name: q for q in params}
    L = p.length
    if isinstance(L, str) and L in names:
        return '*%s' % L
    return None


def attribute_callback_flags(cbtype):
    """The RT_CB_* flags of a Fortran procedure registered as a callback of type cbtype (a
    CallbackType of callbacks.json), or None if it is not an attribute copy/delete callback:
    RT_CB_FORTRAN, plus RT_CB_FINT when its attribute values are default INTEGERs (the MPI-1
    MPI_Copy_function / MPI_Delete_function)."""
    attrs = [q for q in cbtype.params if q.kind.cls == 'attribute'] if cbtype else []
    if not attrs:
        return None
    return 'RT_CB_FORTRAN | RT_CB_FINT' if attrs[0].kind.fortran == 'INTEGER' else 'RT_CB_FORTRAN'


# The Fortran type of a large-count kind in an f08 _c procedure, by its C type in the _c call.
LARGE_FORTRAN = {'MPI_Count': 'INTEGER(KIND=MPI_COUNT_KIND)', 'MPI_Aint': 'INTEGER(KIND=MPI_ADDRESS_KIND)'}


def by_value_address(q):
    """Whether callback parameter q is an address the C form takes by value (class c_pointer,
    e.g. MPI_User_function's vectors): what a Fortran procedure gets for a choice argument by
    reference (TYPE(C_PTR), VALUE in f08), the same C argument."""
    return q.kind.cls == 'c_pointer' and not q.pointer


def direct_callback(cbtype):
    """Whether the C call of callback type cbtype (a CallbackType) suits a Fortran procedure as
    it is, so that the Fortran face over the MPICH ABI hands the procedure on unconverted: a
    subroutine whose C form takes every argument by pointer, each an integer (an int, or a count
    whose C type has the Fortran type of its kind) or a handle the Fortran face passes as is (not
    a file: a C pointer there, converted), or an address by value (by_value_address): error
    handlers, MPI_User_function. Any other (but the attribute callbacks, which the runtime is
    told about) gets a closure converting the call (fcallbacks.c)."""
    if cbtype is None:
        return False
    args = [q for q in cbtype.params if q.kind.cls != 'varargs']
    return cbtype.ret == 'NOTHING' and bool(args) and all(by_value_address(q) or q.pointer and (
        q.kind.cls in ('int', 'count') and (q.kind.c == 'int' or LARGE_FORTRAN.get(q.kind.c) == q.kind.fortran)
        or q.kind.cls == 'handle' and q.kind.handle != 'file') for q in args)


def _f2c(ctype, way='f2c'):
    """PMPI_X_f2c (or _c2f) of a C handle type: X is its class's f2c (spec/handles.json:
    Type for MPI_Datatype), else the type's name without MPI_ (a C symbol formed, no rule)."""
    stem = model.HANDLE_TABLES['f2c'].get(model.OTHER_HANDLES.get(ctype)) or ctype[len('MPI_'):]
    return 'PMPI_%s_%s' % (stem, way)


def conversion(proc, callbacks=None, abi=False, fail='*ierr = %s;\n        return;'):
    """Fortran wrapper pieces: Fortran parameter declarations, hidden lengths, locals, pre,
    the C call's arguments, post, cleanup, and why the procedure is not offered (None if it
    is). callbacks: callback types by name. abi: over the standard ABI, where C handles are
    pointers that MPI_X_f2c / MPI_X_c2f convert, and the MPICH face's extras are absent.
    fail: the C statements that end the wrapper with error code %s (a callback not converted)."""
    callbacks = callbacks or {}
    fparams = fortran_params(proc)
    fnames = {p.name for p in fparams}
    pnames = {p.name for p in proc.c_params(False)}
    decl, hidden, locals_, pre, args, post, cleanup = [], [], [], [], [], [], []
    unsupported = None
    for p in proc.c_params(False):
        k, n = p.kind, p.name
        if k.cls == 'varargs':
            continue
        if n not in fnames:  # e.g. MPI_Init's argc/argv: C-only
            by_value = (p.dir == 'in' or p.pointer is False) and not p.is_array and k.cls != 'argv'
            args.append('0' if by_value else 'NULL')
            continue
        c = k.cls
        if c == 'string_array':  # CHARACTER*(*) ARGV(*), ended by a blank string, or (a
            # length) exactly that many strings (MPI_COMM_SPAWN_MULTIPLE's ARRAY_OF_COMMANDS)
            decl.append('char *%s' % n)
            hidden.append('size_t %s_len' % n)
            count = _flen(p, fparams)
            locals_.append('char **c_%s = %s;' % (n, 'ff_strings_in(%s, %s_len, %s)' % (n, n, count) if count
                                                  else 'ff_argv_in(%s, %s_len)' % (n, n)))
            args.append('c_%s' % n)
            cleanup.append('ff_argv_free(c_%s);' % n)
            continue
        if c == 'string_2darray':
            # MPI_COMM_SPAWN_MULTIPLE's ARRAY_OF_ARGV(COUNT, *): not converted yet, so the
            # processes get no arguments (dynamic processes are not implemented either).
            decl.append('char *%s' % n)
            hidden.append('size_t %s_len' % n)
            locals_.append('(void)%s;' % n)
            locals_.append('(void)%s_len;' % n)
            # C text: the C binding's constant for no arguments, a name of the C face
            args.append('MPI_ARGVS_NULL')
            continue
        if c == 'string':
            decl.append('char *%s' % n)
            hidden.append('size_t %s_len' % n)
            if p.dir == 'in':
                locals_.append('char *c_%s = ff_str_in(%s, %s_len);' % (n, n, n))
                args.append('c_%s' % n)
                cleanup.append('free(c_%s);' % n)
            else:
                # a length naming no parameter names a constant (MPI_MAX_*: the loader checks it)
                size = p.length if isinstance(p.length, str) and p.length not in pnames else None
                if size is None:
                    size = '(*%s > 0 ? *%s : 0) + 1' % (p.length, p.length) if isinstance(p.length, str) else '%s_len + 1' % n
                locals_.append('char *c_%s = calloc(1, (size_t)(%s) + 1);' % (n, size))
                args.append('c_%s' % n)
                post.append('ff_str_out(c_%s, %s, %s_len);' % (n, n, n))
                cleanup.append('free(c_%s);' % n)
            continue
        decl.append('%s *%s' % ('void' if c in ('buffer', 'c_pointer', 'function') else _ftype(p), n))
        if c == 'buffer':
            args.append('ff_buf(%s)' % n)
        elif c == 'c_pointer':
            args.append(n)
            if k.map == 'buffer' and p.dir != 'in':  # a buffer address handed back: mpif.h's sentinels
                post.append('*(void **)%s = ff_buf_out(*(void **)%s);' % (n, n))
        elif c == 'function':
            args.append('(%s)%s' % (cdecl.c_base(p, False) if cdecl.c_base(p, False).endswith('*') else cdecl.c_base(p, False) + ' *', n))
            cb = callbacks.get(p.func_type)
            flags = attribute_callback_flags(cb)
            # a closure converting the C arguments for the Fortran procedure (fcallbacks.c): every
            # callback over the standard ABI, over the MPICH one those whose C call does not suit it
            if abi or cb is not None and not flags and not direct_callback(cb):
                args[-1] = '(%s *)c_%s' % (p.func_type, n)
                why = ('a Fortran %s is not supported over the standard ABI yet' if abi else
                       'no C function could be made for a Fortran %s') % p.func_type
                locals_.append('ff_proc c_%s = NULL;' % n)  # stays NULL for a marker of the C null procedure
                locals_.append('if (ff_callback("%s", (ff_proc)%s, &c_%s) != 0) {\n        %s\n    }'
                               % (p.func_type, n, n, fail % ('ff_unsupported("%s", "%s")' % (proc.name.upper(), why))))
            elif flags:
                mark = 'MPIR_Keyval_set_fortran_cb(*%s, %s);' % (_keyval_param(proc), flags)
                if mark not in post:  # copy and delete callbacks: one mark per keyval
                    post.append(mark)
        elif c == 'status':
            ign = 'ff_statuses_ignored' if p.is_array else 'ff_status_ignored'
            # C text: the C face's constants that a status the Fortran program ignores becomes
            cst = 'MPI_STATUSES_IGNORE' if p.is_array else 'MPI_STATUS_IGNORE'
            args.append('(%s(%s) ? %s : (MPI_Status *)%s)' % (ign, n, cst, n))
        elif c == 'logical':
            if p.is_array:
                ln = _flen(p, fparams)
                if ln is None and p.dims_of:  # the spec: one per dimension of a Cartesian communicator
                    cm = '*%s' % p.dims_of
                    locals_.append('int ndims_ = 0;')
                    # C symbols called: the dims_of rule itself is spec data
                    locals_.append('PMPI_Cartdim_get(%s, &ndims_);' % ('PMPI_Comm_f2c(%s)' % cm if abi else cm))
                    ln = 'ndims_'
                if ln is None:
                    unsupported = 'a logical array of a length the spec does not give'
                    continue
                locals_.append('int *c_%s = ff_logicals_in(%s, %s);' % (n, n, ln))
                args.append('c_%s' % n)
                if p.dir != 'in':
                    post.append('ff_logicals_out(c_%s, %s, %s);' % (n, n, ln))
                cleanup.append('free(c_%s);' % n)
            elif p.dir == 'in':
                args.append('(*%s != 0)' % n)
            else:
                locals_.append('int c_%s = 0;' % n)
                args.append('&c_%s' % n)
                post.append('*%s = c_%s ? 1 : 0;' % (n, n))
        elif c == 'handle' and abi and cdecl.c_base(p, False) != 'int':
            started = next((q for q in fparams if q.kind.cls == 'handle' and q.kind.handle == 'request' and
                            q.dir == 'out' and not q.is_array), None)
            if not _abi_handle(proc, p, fparams, locals_, args, post, cleanup):
                unsupported = 'an array of handles of unknown length is not supported over the standard ABI'
            elif p.is_array and p.dir == 'in' and started:
                # the operation it starts may read the C copy until its request completes: the copy
                # is kept until then (fkept.c), which the wrappers that complete requests see.
                # Only a collective's request cannot be freed while active (MPI-4.0 6.12, 6.13).
                if proc.collective:
                    post.append('ff_keep(c_%s, c_%s);' % (started.name, n))
                    post.append('c_%s = NULL;' % n)
                else:
                    unsupported = ('a point-to-point operation started with an array of handles is not '
                                   'supported over the standard ABI')
        # C symbols below (PMPI_File_f2c/c2f, MPI_File, MPI_FILE_NULL): a file is a C pointer in the C face
        elif c == 'handle' and k.handle == 'file':
            if p.dir == 'in' and not p.is_array:
                args.append('PMPI_File_f2c(*%s)' % n)
            else:
                locals_.append('MPI_File c_%s = %s;' % (n, 'PMPI_File_f2c(*%s)' % n if p.dir == 'inout' else 'MPI_FILE_NULL'))
                args.append('&c_%s' % n)
                post.append('*%s = PMPI_File_c2f(c_%s);' % (n, n))
        elif c in ('attribute', 'extra_state'):
            small = k.fortran == 'INTEGER'
            if c == 'attribute' and not abi:  # the runtime keeps how a value was set (docs/internals.md)
                locals_.append('MPIR_Attr_next_kind(%s);' % ('RT_ATTR_INT' if small else 'RT_ATTR_AINT'))
                cleanup.append('MPIR_Attr_next_kind(RT_ATTR_PTR);')
            if p.dir == 'in':
                args.append('(void *)(MPI_Aint)*%s' % n)
            else:  # an attribute value read back: predefined keys hold pointers to int in C
                locals_.append('void *c_%s = NULL;' % n)
                args.append('&c_%s' % n)
                # C types: the Fortran face's INTEGER (MPI_Fint) or address integer (MPI_Aint)
                post.append('*%s = (%s)ff_attr_out(c_%s, %s);' % (n, 'MPI_Fint' if small else 'MPI_Aint', n,
                                                                    '*' + _keyval_param(proc)))
        # C text below: MPI_Aint is the C type of an address, MPI_Fint the Fortran INTEGER's
        elif c == 'aint' and k.fortran == 'INTEGER':  # MPI-1 calls with INTEGER addresses
            if p.is_array:
                ln = _flen(p, fparams)
                locals_.append('MPI_Aint *c_%s = ff_aints_in(%s, %s);' % (n, n, ln))
                args.append('c_%s' % n)
                cleanup.append('free(c_%s);' % n)
            elif p.dir == 'in':
                args.append('(MPI_Aint)*%s' % n)
            else:
                locals_.append('MPI_Aint c_%s = 0;' % n)
                args.append('&c_%s' % n)
                post.append('*%s = (MPI_Fint)c_%s;' % (n, n))
        elif k.map == 'weights':
            args.append('ff_weights(%s)' % n)
        elif p.fortran_one_based and p.is_array:  # counted from 1, those the call filled
            args.append('(%s)%s' % (_cptr(p), n))
            cleanup.append('ff_indices_out(rc_, %s, %s);' % (n, '*' + p.filled))
        elif p.fortran_one_based:  # counted from 1, when the call set it
            # C text: MPI_UNDEFINED, the C face's value of an index not set
            locals_.append('int c_%s = MPI_UNDEFINED;' % n)
            args.append('&c_%s' % n)
            cleanup.append('ff_index_out(rc_, c_%s, %s);' % (n, n))
        elif p.is_array or p.dir != 'in' or p.pointer:
            args.append('(%s)%s' % (_cptr(p), n))
        else:
            args.append('*%s' % n)
    return decl, hidden, locals_, pre, args, post, cleanup, unsupported


def _abi_handle(proc, p, fparams, locals_, args, post, cleanup):
    """A handle argument of proc over the standard ABI: converted with MPI_X_f2c on the way in
    and MPI_X_c2f on the way out (arrays element by element, through a temporary array). False
    when it cannot be: an array whose length is unknown. Requests that proc completes or frees
    release the memory kept for them (fkept.c) once they come back null."""
    n, ct = p.name, cdecl.c_base(p, False)
    settles = p.kind.handle == 'request' and p.dir == 'inout' and proc.requests in ('complete', 'free')
    if not p.is_array:
        if p.dir == 'in' and p.pointer:  # MPI_Cancel(MPI_Request *)
            locals_.append('%s c_%s = %s(*%s);' % (ct, n, _f2c(ct), n))
            args.append('&c_%s' % n)
            return True
        if p.dir == 'in':
            args.append('%s(*%s)' % (_f2c(ct), n))
            return True
        locals_.append('%s c_%s = %s;' % (ct, n, '%s(*%s)' % (_f2c(ct), n) if p.dir == 'inout' else '(%s)0' % ct))
        args.append('&c_%s' % n)
        if settles:
            locals_.append('struct ff_kept *k_%s = ff_detach(&c_%s, 1);' % (n, n))
            cleanup.append('ff_settle(k_%s, &c_%s);' % (n, n))
        post.append('*%s = %s(c_%s);' % (n, _f2c(ct, 'c2f'), n))
        return True
    ln = _flen(p, fparams)
    comm = next((q for q in fparams if q.kind.cls == 'handle' and q.kind.handle == 'comm' and not q.is_array), None)
    if ln is None and p.extent and comm:  # as long as the communicator's group or neighbours
        ln = 'n_%s' % n
        # C text: MPI_IN_PLACE and PMPI_Comm_f2c are C names; the rule is the spec's unused_if_in_place and extent
        used = '' if not p.unused_if_in_place else 'ff_buf(%s) == MPI_IN_PLACE ? 0 : ' % p.unused_if_in_place
        locals_.append('MPI_Fint %s = %sff_extent(PMPI_Comm_f2c(*%s), FF_EXTENT_%s);' % (ln, used, comm.name, p.extent.upper()))
    if ln is None:
        args.append('NULL')
        return False
    locals_.append('%s *c_%s = calloc((size_t)(%s > 0 ? %s : 1), sizeof *c_%s);' % (ct, n, ln, ln, n))
    if p.dir != 'out':
        locals_.append('for (MPI_Fint i_ = 0; c_%s && i_ < %s; i_++)\n        c_%s[i_] = %s(%s[i_]);'
                       % (n, ln, n, _f2c(ct), n))
    args.append('c_%s' % n)
    back = 'for (MPI_Fint i_ = 0; c_%s && i_ < %s; i_++)\n        %s[i_] = %s(c_%s[i_]);' % (n, ln, n, _f2c(ct, 'c2f'), n)
    if p.dir != 'in':
        (post if p.dir == 'out' else cleanup).append(back)  # requests of MPI_Waitall: even on error
    if settles:
        locals_.append('struct ff_kept *k_%s = ff_detach(c_%s, c_%s ? %s : 0);' % (n, n, n, ln))
        cleanup.append('ff_settle(k_%s, c_%s);' % (n, n))
    cleanup.append('free(c_%s);' % n)
    return True


def _keyval_param(proc):
    for p in proc.params:
        if p.kind.name == 'KEYVAL':
            return p.name
    raise ValueError(proc.name)


def _ftype(p):
    t = cdecl.c_base(p, False)
    # maps a kind to the C type of its Fortran argument (MPI_Fint, MPI_Aint...): the kinds' fortran and c
    if p.kind.cls == 'handle' or p.kind.fortran in ('INTEGER', 'LOGICAL'):
        return 'MPI_Fint'
    f = p.kind.fortran or ''
    for kind, ctype in (('ADDRESS_KIND', 'MPI_Aint'), ('OFFSET_KIND', 'MPI_Offset'), ('COUNT_KIND', 'MPI_Count')):
        if kind in f:
            return ctype
    return {'int': 'MPI_Fint', 'MPI_Aint': 'MPI_Aint', 'MPI_Offset': 'MPI_Offset', 'MPI_Count': 'MPI_Count',
            'MPI_Status': 'MPI_Fint', 'double': 'double'}.get(t, 'MPI_Fint')


def _cptr(p):
    t = cdecl.c_base(p, False)
    if isinstance(p.length, list):
        return 'int (*)[%s]' % p.length[1]
    return '%s *' % t


def _entries(spec, abi):
    funcs = []
    callbacks = {c.name: c for c in spec.callbacks}
    for proc in spec.procedures:
        if not fortran_supported(proc):
            continue
        decl, hidden, locals_, pre, args, post, cleanup, unsupported = conversion(proc, callbacks, abi)
        ret = cdecl.c_return(proc)
        funcs.append({'name': proc.name, 'lower': proc.name.lower(), 'upper': proc.name.upper(),
                      # C text: MPI_Fint is the C type of the Fortran face's ierr
                      'params': ', '.join(decl + ([] if ret != 'int' else ['MPI_Fint *ierr']) + hidden) or 'void',
                      'locals': locals_, 'pre': pre, 'args': ', '.join(args), 'post': post, 'cleanup': cleanup,
                      'ret': ret, 'unsupported': unsupported,
                      'pnames': [d.replace('*', ' ').split()[-1] for d in decl + hidden]})
    return funcs


def generics(spec, optional_ierror):
    """Template data of the generic interfaces the modules write in Fortran (the spec's
    fortran_generic: MPI_Sizeof), one per procedure (generics_of). ierror is OPTIONAL in
    `mpi_f08` (optional_ierror), required in `mpi`."""
    return [generics_of(proc, optional_ierror) for proc in spec.procedures if proc.fortran_generic]


def generics_of(proc, optional_ierror):
    """proc's generic interface: its name and its specifics, each a module procedure taking the
    choice parameter as one type of fortran_generic, any rank (assumed-rank, which gfortran
    accepts for any type), and setting the OUT parameter to the bytes of one element."""
    buf, size = proc.params
    specifics = []
    for t in proc.fortran_generic:
        name = '%s_%s_' % (proc.name.lower(), re.sub(r'\W+', '_', t.lower()).strip('_'))
        specifics.append({'name': name, 'decls': [
            '%s, DIMENSION(..), INTENT(IN) :: %s' % (t, buf.name),
            '%s, INTENT(OUT) :: %s' % (size.kind.fortran, size.name),
            'INTEGER%s, INTENT(OUT) :: ierror' % (', OPTIONAL' if optional_ierror else '')],
            'args': '%s, %s, ierror' % (buf.name, size.name),
            # Fortran text: MPI_SUCCESS is the module's constant
            'body': ['%s = storage_size(%s) / 8' % (size.name, buf.name),
                     ('if (present(ierror)) ' if optional_ierror else '') + 'ierror = MPI_SUCCESS']})
    return {'name': proc.name, 'specifics': specifics}


def hand_entries(spec):
    """The entry points of the Fortran face written by hand for procedures without a C binding
    (hand_written 'fortran': MPI_F_sync_reg, bindings/fortran/fsupport.c), as _entries gives
    them: their parameters as a generated entry point would take them."""
    out = []
    for proc in spec.procedures:
        if proc.hand_written != 'fortran' or not proc.in_fortran:
            continue
        decl, hidden = conversion(proc)[:2]
        out.append({'name': proc.name, 'unsupported': None, 'ret': cdecl.c_return(proc),
                    # C text: MPI_Fint is the C type of the Fortran face's ierr
                    'params': ', '.join(decl + (['MPI_Fint *ierr'] if proc.ret == 'ERROR_CODE' else []) + hidden)
                    or 'void'})
    return out


def emit(spec):
    """The Fortran face over the MPICH ABI (fortran/) and over the standard ABI (fortran_abi/,
    libmpifort_abi), with their mpif.h and `mpi` module."""
    files = {}
    for abi, d, inc in ((False, 'fortran', 'include'), (True, 'fortran_abi', 'include/abi')):
        params, commons, externals = mpif_lines(spec, abi)
        files['%s/mpif.h' % inc] = render('mpif.h.j2', 'fixed', params=params, commons=commons, externals=externals,
                                          abi=abi)
        files['%s/mpi_module.f90' % d] = render('mpi_module.f90.j2', 'f', generics=generics(spec, False))
        files['%s/entry.c' % d] = render('fortran_entry.c.j2', funcs=_entries(spec, abi), abi=abi)
    return files
