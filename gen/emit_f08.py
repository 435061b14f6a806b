# Emits the `mpi_f08` module (handle types, status, typed constants, generic interfaces) and
# its C wrappers, which take choice buffers and strings as CFI descriptors and call the Fortran face.
import dataclasses
import re

import cdecl
import emit_fortran
from render import render

# Parameter classes the f08 wrappers convert so far; a procedure with any other is not generated.
F08_CLASSES = {'handle', 'buffer', 'int', 'aint', 'offset', 'count', 'double', 'logical', 'status', 'string',
               'string_array', 'string_2darray', 'attribute', 'extra_state', 'function', 'c_pointer'}
# Character parameters, which the wrappers take as CFI descriptors and give the Fortran face as its
# entry takes them (address and hidden length): a string, an array of them (MPI_Comm_spawn's argv),
# a two-dimensional one (MPI_Comm_spawn_multiple's array_of_argv, its first extent a parameter).
CHARACTER_CLASSES = ('string', 'string_array', 'string_2darray')
# The f08 status's components: the C face's MPI_Status (gen/templates/mpi_mpich.h.j2), hidden ones first.
STATUS_HIDDEN = ['count_lo', 'count_hi_and_cancelled']


def handle_types(spec):
    """Handle class -> f08 derived type name (the C type, e.g. 'comm' -> 'MPI_Comm'), from the kinds;
    classes whose C type is an int (keyvals) stay INTEGER."""
    out = {}
    for k in spec.kinds.values():
        # a C type named MPI_ is a handle type of the C binding (kinds' c); an int-typed handle is not
        if k.cls == 'handle' and k.c.startswith('MPI_'):
            out.setdefault(k.handle, k.c)
    return out


def f08_expected(proc):
    """Whether MPI gives proc an mpi_f08 binding (every Fortran procedure not removed): what
    `make coverage` counts the module against."""
    return proc.in_fortran and not proc.removed_in


def f08_symbol(proc):
    """The symbol implementing proc's f08 binding: the interface's binding label (a C symbol),
    or for a generic the module writes in Fortran (fortran_generic) its first specific, as
    gfortran names a module procedure."""
    if proc.fortran_generic:
        return '__mpi_f08_MOD_' + emit_fortran.generics_of(proc, True)['specifics'][0]['name']
    return proc.name + '_f08'


def f08_params(proc):
    return emit_fortran.fortran_params(proc)


def f08_callback(cbtype):
    """Whether the module offers an abstract interface for callback type cbtype (a CallbackType
    of callbacks.json): the attribute copy and delete callbacks, whose f08 form takes the same
    arguments by reference as the `use mpi` one (an f08 handle is a BIND(C) type holding the
    INTEGER), so the runtime calls either the same way (RT_CB_FORTRAN); a type whose C call suits
    the Fortran procedure (emit_fortran.direct_callback: error handlers but the file's,
    MPI_User_function); and a type whose every argument the Fortran face's closure (fcallbacks.c)
    gives the procedure as f08 takes it (CLOSURE_CLASSES: by reference, handles as their INTEGER,
    an address by value as TYPE(C_PTR), VALUE): the file error handler, data representations,
    generalized requests. A large-count callback (large_callback: MPI_User_function_c) is the
    same, its MPI_Count length an INTEGER(KIND=MPI_COUNT_KIND) by reference."""
    if cbtype is None:
        return False
    if emit_fortran.attribute_callback_flags(cbtype) is not None or emit_fortran.direct_callback(cbtype):
        return True
    return all(q.kind.cls in CLOSURE_CLASSES and q.kind.fortran for q in cbtype.params if q.kind.cls != 'varargs')


# Parameter classes of a callback whose C arguments the Fortran face's closures convert.
CLOSURE_CLASSES = {'handle', 'int', 'count', 'offset', 'aint', 'logical', 'status', 'extra_state', 'attribute',
                   'c_pointer'}


# Status forms with the layout of the C face's MPI_Status (a `use mpi` one, an f08 one).
STATUS_LAYOUTS = {'f08_status', 'f_status'}


def f08_direct(proc):
    """Whether the module offers proc by calling its C procedure directly (no Fortran face
    entry): a C procedure all of whose parameters are statuses in a Fortran layout
    (MPI_Status_f082f, MPI_Status_f2f08), which the C types take as they are."""
    params = f08_params(proc)
    return proc.in_c and proc.ret == 'ERROR_CODE' and bool(params) and all(
        p.kind.cls in STATUS_LAYOUTS and not p.is_array for p in params)


def f08_supported(proc, spec):
    """Whether the module offers proc: a Fortran procedure of the C face, not removed, whose
    parameters are all of classes the wrappers convert (procedures only of a callback type
    f08_callback accepts). Weights arrays go to the Fortran face as they are: the module's
    MPI_UNWEIGHTED / MPI_WEIGHTS_EMPTY are mpif.h's common blocks, whose addresses it knows."""
    if proc.in_fortran and not proc.removed_in and f08_direct(proc):
        return True
    hand = proc.hand_written == 'fortran'  # the Fortran face's entry point is written by hand
    # a procedure the C faces write by hand (hand_written 'c': MPI_Abi_get_info) has a generated
    # Fortran face entry all the same
    if not (emit_fortran.fortran_supported(proc) or hand) or proc.removed_in or \
            cdecl.face_manual(proc) and proc.hand_written not in ('c', 'fortran'):
        return False
    if proc.ret not in ('ERROR_CODE', 'NOTHING') and not spec.kinds[proc.ret].fortran:
        return False
    for p in f08_params(proc):
        if p.kind.cls not in F08_CLASSES:
            return False
        if p.kind.cls == 'buffer' and p.is_array:
            return False
        if p.kind.cls == 'c_pointer' and not (_address_out(p) or _variable_ref(p)):
            return False
        if p.kind.cls == 'function' and not f08_callback(_callbacks(spec).get(p.func_type)):
            return False
    return True


def _address_out(p):
    """Whether procedure parameter p is an address the procedure stores (class c_pointer, OUT,
    an address integer in `use mpi`: MPI_Alloc_mem's baseptr, MPI_Buffer_detach's buffer_addr):
    TYPE(C_PTR), INTENT(OUT) in f08, where the Fortran face's entry writes a C pointer."""
    # checks spec data: the kind's Fortran type (kinds.json fortran) is an address integer
    return p.kind.cls == 'c_pointer' and p.dir == 'out' and p.kind.fortran == 'INTEGER(KIND=MPI_ADDRESS_KIND)'


def _variable_ref(p):
    """Whether procedure parameter p is the address of a Fortran variable of the type its kind
    names, other than an address integer (class c_pointer, e.g. LOGICAL_VOID: MPI_Abi_get_fortran_
    booleans's logical_true), whose bytes the C procedure reads or writes: that Fortran type in
    f08, passed by reference, the address the Fortran face's entry takes as it is."""
    # checks spec data: the kind's Fortran type (kinds.json fortran) is not an address integer
    return p.kind.cls == 'c_pointer' and p.kind.fortran not in (None, 'INTEGER(KIND=MPI_ADDRESS_KIND)')


def _callbacks(spec):
    """Callback types by name: callbacks.json's, and the large-count form of each of its
    large_count ones (large_callback)."""
    out = {c.name: c for c in spec.callbacks}
    out.update({l.name: l for l in (large_callback(c) for c in spec.callbacks if c.large_count)})
    return out


def large_callback(cb):
    """The large-count form of callback type cb (large_count in callbacks.json): named as the C
    binding names it (MPI_User_function_c, as cdecl.c_base), its large-count kinds widened as in
    large_form (INTEGER(KIND=MPI_COUNT_KIND) in f08)."""
    return dataclasses.replace(cb, name=cb.name + '_c', params=[_widened(q) for q in cb.params],
                               large_count=False)


def _widened(p):
    """Parameter p with its large-count kind (poly, c_large) as the _c form has it: the C type
    of the _c call, the Fortran type of that C type (emit_fortran.LARGE_FORTRAN); a procedure of a
    large-count callback type (POLYFUNCTION) of that type's large form."""
    k = p.kind
    if k.cls == 'function' and k.poly:
        # the kind stays: the C binding's type of the _c call is this func_type, as the plain one
        return dataclasses.replace(p, func_type=p.func_type + '_c', large_only=False)
    if k.poly and k.c_large:
        k = dataclasses.replace(k, c=k.c_large, c_large=None, fortran=emit_fortran.LARGE_FORTRAN[k.c_large])
    return dataclasses.replace(p, kind=k, large_only=False)


def callback_interfaces(spec, types, procs):
    """Template data for the abstract interfaces of the callback types the offered procedures
    take, and the predefined callbacks of those types (MPI_COMM_DUP_FN...) as external
    procedures of that interface (libmpifort's Fortran ones, bindings/fortran/fsupport.c)."""
    cbs = _callbacks(spec)
    used = sorted({p.func_type for proc in procs for p in f08_params(proc) if p.kind.cls == 'function'})
    out = []
    for name in used:
        cb = cbs[name]
        names = [q.name for q in cb.params if q.kind.cls != 'varargs'] + (['ierror'] if cb.ret == 'ERROR_CODE' else [])
        decls = []
        for q in cb.params:
            k = q.kind
            if k.cls == 'varargs':
                continue
            t = _named_type(k, types) or ('TYPE(C_PTR), VALUE' if emit_fortran.by_value_address(q) else k.fortran)
            decls.append('%s :: %s' % (t, q.name))
        if cb.ret == 'ERROR_CODE':
            decls.append('INTEGER :: ierror')
        out.append({'name': name, 'fnames_lines': _wrap(names), 'fdecls': decls,
                    'predefined': sorted(p['name'] for p in spec.predefined_callbacks if p['type'] == name)})
    return out


def _named_type(k, types):
    """The f08 type a kind has by name (a handle's derived type, the status, LOGICAL), or None."""
    if k.cls == 'handle' and k.handle in types:
        return 'TYPE(%s)' % types[k.handle]
    # Fortran text: the module's status type and MPI_STATUS_SIZE are names of the binding
    if k.cls in ('status', 'f08_status'):
        return 'TYPE(MPI_Status)'
    if k.cls == 'logical':
        return 'LOGICAL'
    return None


def _fdecl(p, types, asynchronous):
    """The Fortran declaration of p in the interface body."""
    k = p.kind
    intent = {'in': 'INTENT(IN)', 'out': 'INTENT(OUT)', 'inout': 'INTENT(INOUT)'}[p.dir]
    if k.cls == 'buffer':
        attrs = ['TYPE(*)', 'DIMENSION(..)'] + (['ASYNCHRONOUS'] if asynchronous else [])
        if p.dir == 'in':
            attrs.append(intent)
        return '%s :: %s' % (', '.join(attrs), p.name)
    if k.cls == 'string':
        return 'CHARACTER(LEN=*), %s :: %s' % (intent, p.name)
    if k.cls == 'string_array':
        return 'CHARACTER(LEN=*), %s :: %s(*)' % (intent, p.name)
    if k.cls == 'string_2darray':
        return 'CHARACTER(LEN=*), %s :: %s(%s, *)' % (intent, p.name, p.length)
    if k.cls == 'function':
        return 'PROCEDURE(%s) :: %s' % (p.func_type, p.name)
    if k.cls == 'f_status':
        return 'INTEGER, %s :: %s(MPI_STATUS_SIZE)' % (intent, p.name)
    t = _named_type(k, types) or ('TYPE(C_PTR)' if _address_out(p) else k.fortran)
    shape = '(%s, *)' % p.length[1] if isinstance(p.length, list) else '(*)' if p.is_array else ''
    return '%s, %s :: %s%s' % (t, intent, p.name, shape)


def _procedure(proc, spec, types, entry):
    """Template data for one f08 procedure: its interface and its C wrapper over the Fortran
    face's entry point (entry: that entry's template data from emit_fortran)."""
    params = f08_params(proc)
    asynchronous = any(q.kind.cls == 'handle' and q.kind.handle == 'request' and q.dir == 'out' and not q.is_array
                       for q in params)
    comm = next((q.name for q in params if q.kind.cls == 'handle' and q.kind.handle == 'comm' and q.dir == 'in'
                 and not q.is_array), None)
    fdecls = [_fdecl(p, types, asynchronous) for p in params]
    cparams, checks, args, hidden = [], [], [], []
    direct = entry is None  # f08_direct: the C procedure itself, its C types
    entry_decl = ['%s%s *%s' % ('const ' if p.dir == 'in' else '', p.kind.c, p.name) for p in params] if direct \
        else entry['params'].split(', ')
    i = 0
    for p in params:
        if p.kind.cls == 'buffer' or p.kind.cls in CHARACTER_CLASSES:
            cparams.append('CFI_cdesc_t *%s' % p.name)
        else:
            cparams.append(entry_decl[i])
        i += 1
        if p.kind.cls == 'buffer':
            checks.append('if (!ff08_contiguous(%s))\n        ierr_ = ff08_noncontiguous("%s", "%s", %s);'
                          % (p.name, proc.name, p.name, comm or 'NULL'))
            args.append('%s->base_addr' % p.name)
        elif p.kind.cls in CHARACTER_CLASSES:
            args.append('(char *)%s->base_addr' % p.name)
            hidden.append('%s->elem_len' % p.name)
        else:
            args.append(p.name)
    ret = cdecl.c_return(proc)
    is_sub = proc.ret in ('ERROR_CODE', 'NOTHING')
    has_ierr = proc.ret == 'ERROR_CODE'
    if not has_ierr:  # no error to report (MPI_F_sync_reg): any buffer, contiguous or not
        checks = []
    if has_ierr:
        # C text: the wrapper's ierror, a C type of the Fortran face (MPI_Fint)
        cparams.append('MPI_Fint *ierror')
        fdecls.append('INTEGER, OPTIONAL, INTENT(OUT) :: ierror')
    names = [p.name for p in params] + (['ierror'] if has_ierr else [])
    # A procedure argument cannot be a dummy of a BIND(C) interface unless it is BIND(C)
    # itself: such a procedure is a module procedure passing C_FUNLOC of it to the C wrapper.
    funcs = [p.name for p in params if p.kind.cls == 'function']
    cdecls = ['TYPE(C_FUNPTR), VALUE :: %s' % p.name if p.kind.cls == 'function' else d
              for p, d in zip(params, fdecls)] + fdecls[len(params):]
    return {'funcs': funcs, 'cdecls': cdecls, 'cargs_lines': _wrap(['C_FUNLOC(%s)' % n if n in funcs else n for n in names]),
            'name': proc.name, 'generic': proc.name, 'specific': proc.name + ('_f08c' if funcs else '_f08'),
            'symbol': f08_symbol(proc), 'fnames_lines': _wrap(names), 'lower': proc.name.lower(), 'sub': is_sub,
            'ierror': has_ierr, 'ret': ret,
            'fret': None if is_sub else spec.kinds[proc.ret].fortran,
            'fnames': ', '.join(names), 'fdecls': fdecls, 'cparams': ', '.join(cparams) or 'void',
            'checks': checks, 'args': ', '.join(args + (['&ierr_'] if has_ierr and not direct else []) + hidden),
            'entry_params': None if direct else entry['params'], 'direct': direct}


def _wrap(names, width=80):
    """The dummy argument names as continuation lines (free form allows 132 columns)."""
    lines, cur = [], ''
    for n in names:
        if cur and len(cur) + len(n) > width:
            lines.append(cur + ' &')
            cur = ''
        cur += n + ', '
    lines.append(cur[:-2])
    return lines


def module_constants(spec, types):
    """(Fortran type, name, value) of the module's PARAMETERs: mpif.h's, handles typed; and its
    common blocks as (block, [(name, declaration)]), statuses as TYPE(MPI_Status), and the
    INTEGER arrays of the standard (fortran_type INTEGER(*): MPI_UNWEIGHTED) as arrays of one,
    which an explicit interface's assumed-size dummy accepts."""
    params, commons, _ = emit_fortran.mpif_lines(spec)
    ctype = {c.name: c.c_type for c in spec.constants}
    ftype = {c.name: c.fortran_type for c in spec.constants}
    typenames = set(types.values())
    out = []
    for t, name, v in params:
        if ctype.get(name) in typenames:
            out.append(('TYPE(%s)' % ctype[name], name, '%s(%s)' % (ctype[name], v)))
        else:
            out.append((t, name, v))
    blocks = {}
    for block, members in commons.items():
        for name, decl in members:
            if (ctype.get(name) or '').replace(' ', '') == 'MPI_Status*':  # MPI_STATUS(ES)_IGNORE
                decl = re.sub(r'^INTEGER (\w+)\(MPI_STATUS_SIZE,?', r'TYPE(MPI_Status) \1(', decl).replace('()', '')
            elif ftype.get(name) == 'INTEGER(*)' and decl == 'INTEGER ' + name:
                decl += '(1)'
            blocks.setdefault(block, []).append((name, decl))
    return out, blocks




def large_form(proc):
    """proc's _c procedure as a procedure of its own (named MPI_X_c): its large-count kinds
    widened to their C type in the _c call (INTEGER(KIND=MPI_COUNT_KIND) or MPI_ADDRESS_KIND in
    Fortran), a procedure of a large-count callback type of that type's large form
    (large_callback: PROCEDURE(MPI_User_function_c)), its large-only parameters kept; None if
    it takes an address other than one it stores (_address_out), which its wrapper does not
    convert. A string (MPI_Pack_external_c's datarep) comes as a CFI descriptor, as in the
    small form."""
    params = []
    for p in proc.c_params(True):
        k = p.kind
        if k.cls not in F08_CLASSES or k.cls == 'c_pointer' and not _address_out(p):
            return None
        params.append(_widened(p))
    return dataclasses.replace(proc, name=proc.name + '_c', params=params, large_count=False)


def _tkr(p, types, kinds):
    """What tells dummy argument p apart in a generic (type, kind value, rank); None for a choice
    buffer (TYPE(*), DIMENSION(..): never). kinds: the KIND constants' values (MPI_COUNT_KIND...)."""
    if p.kind.cls == 'buffer':
        return None
    t = _named_type(p.kind, types) or p.kind.fortran
    # reads named constants' values: a KIND= in the kinds' fortran names a KIND constant of the spec
    t = re.sub(r'KIND=(MPI_\w+_KIND)', lambda m: 'KIND=%s' % kinds[m.group(1)], t)
    if t == 'INTEGER':
        # reads a named constant's value: the kind of a plain INTEGER
        t = 'INTEGER(KIND=%s)' % kinds['MPI_INTEGER_KIND']
    return t, 2 if isinstance(p.length, list) else 1 if p.is_array else 0


def distinguishable(small, large, spec):
    """Whether a generic can hold both small's and large's f08 procedures (same dummy names and
    positions): some dummy of both differs in type, kind or rank, as this module's kinds go."""
    types = handle_types(spec)
    kinds = {c.name: c.mpich for c in spec.constants if c.name.endswith('_KIND')}
    ours = {p.name: _tkr(p, types, kinds) for p in f08_params(small)}
    return any(p.name in ours and ours[p.name] is not None and _tkr(p, types, kinds) != ours[p.name]
               for p in emit_fortran.fortran_params(large))


def _large_procedure(small, large, spec, types):
    """Template data for the f08 large-count procedure of small (large: its large_form): the
    specific MPI_X_f08c of generic MPI_X, a C wrapper calling the C face's MPI_X_c."""
    params = emit_fortran.fortran_params(large)
    decl, _, locals_, _, args, post, cleanup, _ = emit_fortran.conversion(
        large, _callbacks(spec), fail='if (ierror)\n            *ierror = %s;\n        return;')
    locals_ = [s.replace('\n', '\n    ') for s in locals_]  # one block deeper than an entry's
    d = _procedure(large, spec, types, {'params': ', '.join(decl)})
    cparams, checks, pre = [], [], []
    for p, c in zip(params, decl):
        if p.kind.cls == 'buffer':
            cparams.append('CFI_cdesc_t *%s_d' % p.name)
            pre.append('void *%s = %s_d->base_addr;' % (p.name, p.name))
            comm = next((q.name for q in params if q.kind.cls == 'handle' and q.kind.handle == 'comm'
                         and q.dir == 'in' and not q.is_array), None)
            checks.append('if (!ff08_contiguous(%s_d))\n        ierr_ = ff08_noncontiguous("%s", "%s", %s);'
                          % (p.name, large.name, p.name, comm or 'NULL'))
        elif p.kind.cls == 'string':  # a CFI descriptor under its own name, as in the small form
            cparams.append('CFI_cdesc_t *%s' % p.name)
            n = p.name
            locals_ = [('char *c_%s = ff_str_in((char *)%s->base_addr, %s->elem_len);' % (n, n, n)
                        if s == 'char *c_%s = ff_str_in(%s, %s_len);' % (n, n, n) else s) for s in locals_]
        else:
            cparams.append(c)
    d.update({'generic': small.name, 'specific': small.name + '_f08c', 'symbol': small.name + '_f08c',
              # C text: MPI_Fint is the C type of the Fortran face's ierror
              'large': True, 'cname': large.name, 'cparams': ', '.join(cparams + ['MPI_Fint *ierror']),
              'checks': checks, 'locals': pre + locals_, 'args': ', '.join(args), 'post': post, 'cleanup': cleanup})
    return d


def _own_name(small, large):
    """Whether the f08 binding offers large (small's large_form) as a procedure of its own, MPI_X_c,
    rather than as a specific of generic MPI_X: it takes a procedure of another interface
    (MPI_Op_create_c's MPI_User_function_c), and a generic cannot tell dummy procedures apart by
    their interfaces."""
    ours = {p.name: p.func_type for p in f08_params(small) if p.kind.cls == 'function'}
    return any(p.kind.cls == 'function' and ours.get(p.name) != p.func_type for p in f08_params(large))


def _named_large_procedure(large, spec, types):
    """Template data for MPI_X_c offered under its own name (_own_name): a procedure taking
    procedures as the small ones do (MPI_X_c_f08 passing their C_FUNLOC to the C wrapper
    MPI_X_c_f08), the wrapper converting as a large-count specific's and calling MPI_X_c."""
    d = _large_procedure(large, large, spec, types)
    plain = _procedure(large, spec, types, {'params': d['cparams']})
    d.update({k: plain[k] for k in ('generic', 'specific', 'symbol')})
    return d


def _large_supported(large, spec):
    """Whether the module can offer large (a large_form): every procedure it takes is of a
    callback type f08_callback accepts (the large-count ones included)."""
    cbs = _callbacks(spec)
    return all(f08_callback(cbs.get(p.func_type)) for p in f08_params(large) if p.kind.cls == 'function')


def large_procedures(spec, offered, named=None):
    """(template data of the large-count procedures the module offers as specifics of generics,
    names of the _c procedures left out as no generic could tell them from their small form,
    names of those not converted). offered: the names of the procedures the module offers.
    named: a list that gets (large_form, template data) of those it offers under their own name
    (_own_name: MPI_Op_create_c)."""
    types = handle_types(spec)
    out, ambiguous, unconverted = [], [], []
    for proc in spec.procedures:
        if not proc.large_count or not f08_expected(proc):
            continue
        large = large_form(proc)
        if proc.name not in offered or large is None or proc.ret != 'ERROR_CODE' or \
                not _large_supported(large, spec):
            unconverted.append(proc.name + '_c')
        elif _own_name(proc, large):
            if named is not None:
                named.append((large, _named_large_procedure(large, spec, types)))
        elif not distinguishable(proc, large, spec):
            ambiguous.append(proc.name + '_c')
        else:
            out.append(_large_procedure(proc, large, spec, types))
    return out, ambiguous, unconverted


def offered_procedures(spec):
    """(procedure, template data) of each procedure the module offers, in spec order."""
    types = handle_types(spec)
    entries = {e['name']: e for e in emit_fortran._entries(spec, False) + emit_fortran.hand_entries(spec)}
    return [(p, _procedure(p, spec, types, entries.get(p.name))) for p in spec.procedures
            if f08_supported(p, spec) and (f08_direct(p) or p.name in entries and not entries[p.name]['unsupported'])]


def emit(spec):
    """build/gen/fortran/mpi_f08.f90 (the module) and fortran/f08.c (its C wrappers, part of
    libmpifort), over the MPICH ABI's Fortran face."""
    types = handle_types(spec)
    procs = [d for _, d in offered_procedures(spec)]
    consts, commons = module_constants(spec, types)
    offered = [p for p in spec.procedures if p.name in {q['name'] for q in procs}]
    named = []
    large, ambiguous, unconverted = large_procedures(spec, {p.name for p in offered}, named)
    procs += large + [d for _, d in named]
    return {
        'fortran/mpi_f08.f90': render('mpi_f08.f90.j2', 'f', types=sorted(set(types.values())), consts=consts,
                                      commons=commons, procs=procs, status_hidden=STATUS_HIDDEN,
                                      ambiguous=[l.rstrip(' &').rstrip() for l in _wrap(ambiguous, 90)],
                                      unconverted=[l.rstrip(' &').rstrip() for l in _wrap(unconverted, 90)],
                                      generics=emit_fortran.generics(spec, True),
                                      callbacks=callback_interfaces(spec, types, offered + [l for l, _ in named])),
        'fortran/f08.c': render('fortran_f08.c.j2', procs=procs),
    }
