# Loads spec/, validates it and builds the typed model every emitter reads.
# A spec error stops the generator with a message naming the record.
import dataclasses
import glob
import json
import os
from typing import Optional

# The handle classes, in the order of spec/handles.json, and one table per field of its records:
# class -> the C type of its handles ('c'), its null handle ('null', a constant), the runtime's
# type of its objects ('runtime'), the error class of an invalid handle ('error_class'), and
# whether an IN handle of it may be the null handle where the spec says nothing ('null_in').
# load() fills them, in place, so that the emitters' module-level names for them stay valid.
HANDLE_CLASSES = []
HANDLE_FIELDS = {'c', 'null', 'runtime', 'error_class', 'null_in', 'f2c'}
HANDLE_OPTIONAL = {'null_in', 'f2c'}
HANDLE_TABLES = {f: {} for f in HANDLE_FIELDS}
KIND_CLASSES = {'handle', 'tool_handle', 'fint_handle', 'buffer', 'c_pointer', 'attribute', 'extra_state',
                'string', 'string_array', 'string_2darray', 'argv', 'status', 'f_status', 'f08_status',
                'logical', 'function', 'varargs', 'int', 'aint', 'offset', 'count', 'double'}
CHECKS = {None, 'nonneg', 'positive', 'rank', 'rank_nni', 'tag'}
VERSIONS = {'1.0', '1.1', '1.2', '2.0', '2.1', '2.2', '3.0', '3.1', '4.0', '4.1', '5.0'}
# Constant categories whose values are handles, and their handle class.
HANDLE_CATEGORIES = {
    'RESERVED_COMMUNICATORS': 'comm', 'GROUP_HANDLES': 'group', 'PREDEFINED_DATATYPES': 'datatype',
    'OPT_DATATYPES_FORTRAN': 'datatype', 'REDUCTION_FUNC_DATATYPES_C': 'datatype',
    'REDUCTION_FUNC_DATATYPES_FORTRAN': 'datatype', 'REMOVED_DATATYPES': 'datatype', 'COLLECTIVE_OPS': 'op',
    'ERROR_SPECIFIERS': 'errhandler', 'ENV_INQ_INFO_KEY': 'info', 'MSG_HANDLES': 'message',
}
# What a parameter's `accepts` may list, by its kind's check: a rank of the group alone (the
# face lets MPI_PROC_NULL through to the runtime), a rank of a point-to-point destination, a source, a root (MPI_ROOT and MPI_PROC_NULL on an inter-communicator); a tag.
ACCEPTS = {'rank': [set(), {'MPI_PROC_NULL'}, {'MPI_ANY_SOURCE', 'MPI_PROC_NULL'}, {'MPI_ROOT', 'MPI_PROC_NULL'}],
           'tag': [set(), {'MPI_ANY_TAG'}]}
ACCEPTS['rank_nni'] = ACCEPTS['rank']
PARAM_KEYS = {'name', 'kind', 'dir', 'length', 'const', 'pointer', 'func_type', 'optional', 'null_handle',
              'large_only', 'significant', 'unused_if_in_place', 'elements', 'max_length', 'extent', 'accepts',
              'entries', 'filled', 'not_null', 'rank_of', 'distinct', 'requires', 'committed', 'status_error', 'checked_by_runtime',
              'c', 'fortran', 'dims_of', 'written_if', 'fortran_one_based', 'null_on_error', 'in_place',
              'distinct_from'}
# What an IN handle's `requires` may say the call needs of the object, by handle class: a
# communicator with a Cartesian or graph topology, a window of shared memory.
REQUIRES = {'comm': {'cartesian', 'graph'}, 'win': {'shared'}}
# the handles whose group a checked rank may belong to (rank_of), beside a size (an IN int
# with check positive: the rank must be below it)
RANK_OF_HANDLES = {'win', 'comm', 'group'}
PROCEDURE_KEYS = {'name', 'since', 'return', 'params', 'deprecated_since', 'removed_in', 'replaced_by',
                  'in_standard_abi', 'large_count', 'before_init', 'collective', 'c', 'fortran', 'not_with_mpif',
                  'requests', 'read_only', 'channel', 'hand_written', 'mpich_macro', 'fortran_generic'}
# who writes a procedure's body by hand, so that it has no runtime entry point ('hand_written'):
# the C faces ('c': the ABI queries, whose answers are each C face's own), the Fortran faces
# alone, as a linker symbol of a procedure without a C binding ('fortran': MPI_F_sync_reg), or
# every face ('all': conversion of handles and statuses between languages and ABIs)
HAND_WRITTEN = {'c', 'fortran', 'all'}
# 'fortran_generic': the Fortran types (e.g. "INTEGER(KIND=1)") of a procedure without a C binding
# that the `mpi` and `mpi_f08` modules write in Fortran as a generic interface: one specific per
# type, taking its choice parameter as that type (any rank) and storing the bytes of one element
# in its other, OUT parameter (MPI_Sizeof)
# a procedure's effect on the persistent requests of its REQUEST parameter ('requests'): creates
# one, inactive ('persistent'), starts them ('start'), completes the active ones it reports
# complete ('complete'), frees it ('free'); the standard-ABI shim tracks which are active from it
REQUEST_EFFECTS = {'persistent', 'start', 'complete', 'free'}
CONSTANT_KEYS = {'name', 'category', 'c_type', 'fortran_type', 'abi', 'mpich', 'mpich_fortran', 'openmpi',
                 'attr_value_map', 'in_standard_abi', 'removed_in', 'mpich_assigned', 'standard_class', 'too_long',
                 'same_value_as', 'mpich_value_unused', 'value_maps', 'fortran',
                 'fortran_common', 'mpif_first', 'bits_of'}
FORTRAN_COMMON_KEYS = {'block', 'place', 'declaration'}
CALLBACK_KEYS = {'name', 'since', 'return', 'params', 'large_count', 'in_standard_abi', 'removed_in',
                 'deprecated_since', 'uncalled'}
# the value maps that are no constant category: a constant's value_maps names those it belongs to
# (in spec order); 'enum' adds it to every enum map (MPI_UNDEFINED)
VALUE_MAPS = {'rank', 'tag', 'undefined', 'darg', 'enum'}
# the maps of pointers, no value map: 'weights' (MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY in), 'buffer'
# (a buffer address the call hands back: the runtime's MPI_BUFFER_AUTOMATIC becomes the face's)
POINTER_MAPS = {'weights', 'buffer'}
# the handle class of a constant of category OTHER_HANDLES, by its C type (from handles.json)
OTHER_HANDLES = {}


class SpecError(Exception):
    pass


@dataclasses.dataclass
class Kind:
    name: str
    c: str                       # C type in the plain call
    c_large: Optional[str]       # C type in the _c call (large-count kinds only)
    fortran: Optional[str]
    cls: str                     # how faces treat it (see KIND_CLASSES)
    handle: Optional[str] = None
    # rank | tag | undefined | error_code | enum:CAT | bits:CAT, or a pointer map (POINTER_MAPS)
    map: Optional[str] = None
    check: Optional[str] = None
    # the MPI error class a value failing `check` gives (MPI_ERR_DISP for an RMA target
    # displacement); None: MPI_ERR_COUNT for a count, else MPI_ERR_ARG
    error_class: Optional[str] = None
    # the MPI error class a bad element of an IN array of this kind gives (MPICH's MPI_ERR_ARG
    # for a datatype constructor's blocklengths); None: as error_class
    element_error_class: Optional[str] = None
    # a valid value (a constant's name) the bad-input matrix passes where it needs one; None:
    # the first constant of the map's category (an ORDER's category also holds distributions)
    default: Optional[str] = None

    @property
    def poly(self):
        """Large-count kinds (the Forum's POLY prefix) take another C type in the _c call."""
        return self.name.startswith('POLY')


@dataclasses.dataclass
class Param:
    name: str
    kind: Kind
    dir: str                     # in | out | inout
    length: object = None        # None, a name, '*', a number or [dim, dim]
    const: bool = False
    pointer: Optional[bool] = None
    func_type: Optional[str] = None
    optional: bool = False
    null_handle: Optional[str] = None  # a handle parameter that accepts its class's null handle, since this version
    large_only: bool = False
    # rooted collectives: 'root' (used only at the root) or 'members' (used by every process
    # except, on an inter-communicator, those of the root's group); None: always used
    significant: Optional[str] = None
    unused_if_in_place: Optional[str] = None  # ignored when this buffer parameter is MPI_IN_PLACE
    # a buffer that may be MPI_IN_PLACE (the collectives' sendbuf, the scatters' recvbuf; the
    # runtime refuses it where the process's role or an inter-communicator rule it out); the
    # faces refuse MPI_IN_PLACE in every other buffer (MPI_ERR_BUFFER)
    in_place: bool = False
    # a buffer of `elements` that may not be the same memory as the IN buffer this names (also
    # of `elements`): MPI_Allreduce(buf, buf, ...) is MPI_ERR_BUFFER; only MPI_IN_PLACE makes
    # them one (the faces compare the addresses where both counts are positive)
    distinct_from: Optional[str] = None
    # a BUFFER holding exactly `count` elements of `datatype` (names of scalar parameters of
    # the same procedure): {'count': ..., 'datatype': ...}; None when its size is not so given
    elements: Optional[dict] = None
    # an IN string of at most this constant - 1 characters (MPI_MAX_INFO_KEY: its value differs
    # between the faces, so each face checks its own)
    max_length: Optional[str] = None
    max_length_error: Optional[str] = None  # that constant's too_long (set by the loader)
    # a '*'-long array of a collective: as long as the communicator's 'peers' (the remote group
    # of an inter-communicator, else the group), its 'local' group, or the process's topology
    # 'sources' (in-degree) or 'destinations' (out-degree)
    extent: Optional[str] = None
    # the special values a checked rank or tag accepts beside its range (see ACCEPTS); a rank
    # with accepts is checked against what `rank_of` names: an IN window (an RMA target),
    # communicator or group (an inter-communicator's local leader) or an IN size
    # (MPI_Type_create_darray's rank); the loader sets it, where the spec does not, to the
    # procedure's only IN communicator (by kind, whatever its name); a rank without accepts is
    # not checked
    accepts: Optional[tuple] = None
    rank_of: Optional[str] = None
    # a checked rank significant at one process only, which the runtime checks there and tells
    # the others of (MPI_Intercomm_create's remote_leader, at the local leader): a face that
    # refused it there alone would leave the others waiting, so the faces do not check it; the
    # bad-input matrix does all the same
    checked_by_runtime: bool = False
    # an IN array of ranks (or of (first, last, stride) triplets) that may not name a rank twice
    distinct: bool = False
    # an OUT index into an array argument (MPI_Waitany's index, MPI_Waitsome's indices): C counts
    # from 0, Fortran from 1 (MPI_UNDEFINED stays); an array of them is its `filled` entries long
    fortran_one_based: bool = False
    # an OUT handle the faces set to its class's null handle when the runtime fails the call
    # (MPI_Comm_dup after a copy callback failed: MPI_COMM_NULL, as MPICH does)
    null_on_error: bool = False
    # an IN handle whose object the call needs to be of a sort (REQUIRES): the bad-input
    # matrix gives such a parameter a default object of that sort
    requires: Optional[str] = None
    # an IN datatype the call must be given committed though no `elements` names it (it
    # describes memory elsewhere, e.g. an RMA target's: MPI-5.0 5.1.9)
    committed: bool = False
    # a single status whose MPI_ERROR field the call reads (IN) or sets (INOUT); every other call
    # given a status neither reads nor writes that field (MPI-5.0 3.2.5), whatever it holds
    status_error: bool = False
    # a '*'-long array the caller sizes by this scalar IN parameter, of which the OUT parameter
    # `filled` (None: all `entries`) tells how many elements the call wrote
    entries: Optional[str] = None
    filled: Optional[str] = None
    # such an array the call writes only when this OUT logical parameter comes back true
    # (MPI_Testall's flag): otherwise the caller's elements are left as they were
    written_if: Optional[str] = None
    # a '*'-long array with one element per dimension of the Cartesian communicator this IN
    # parameter names (MPI_Cart_sub's remain_dims)
    dims_of: Optional[str] = None
    not_null: bool = False  # an IN handle that may not be its class's null handle where others may
    in_c: bool = True
    in_fortran: bool = True

    @property
    def is_array(self):
        return self.length is not None


@dataclasses.dataclass
class Procedure:
    name: str
    chapter: str
    since: str
    params: list
    ret: str
    deprecated_since: Optional[str] = None
    removed_in: Optional[str] = None
    replaced_by: Optional[str] = None
    in_standard_abi: bool = True
    large_count: bool = False
    before_init: bool = False
    collective: bool = False  # every process of its communicator calls it
    in_c: bool = True
    in_fortran: bool = True
    requests: Optional[str] = None  # one of REQUEST_EFFECTS, or None
    # the call only reads its arguments and the objects they name, raises no error when they are
    # valid, and calls nobody: the faces try it first on a fast path without the library's lock
    # or error reporting, and make it again in full if anything is amiss (face_entry.c.j2)
    read_only: bool = False
    # a point-to-point call whose runtime entry takes the library's lock itself wherever it needs
    # it: under MPI_THREAD_MULTIPLE with channels, the faces enter it holding no lock
    # (rt_enter_channel, rt.h), so that calls on different communicators run at once
    channel: bool = False
    hand_written: Optional[str] = None  # one of HAND_WRITTEN, or None: generated
    ret_kind: Optional[Kind] = None  # the Kind named by ret
    # MPICH's mpi.h gives it as a macro (the handle conversions _c2f, _f2c), not a prototype
    mpich_macro: bool = False
    fortran_generic: Optional[list] = None  # see 'fortran_generic' above

    @property
    def short(self):
        return self.name[4:]

    def c_variants(self):
        """(C name, large) for each C function this procedure gives: itself and its _c twin."""
        out = [(self.name, False)]
        if self.large_count:
            out.append((self.name + '_c', True))
        return out

    def c_params(self, large):
        return [p for p in self.params if p.in_c and (large or not p.large_only)]


@dataclasses.dataclass
class CallbackType:
    name: str
    params: list
    ret: str
    large_count: bool = False
    in_standard_abi: bool = True
    # why the runtime never calls a procedure of this type (yet): the Fortran faces may then hand
    # it a Fortran procedure as is, with no conversion of its arguments (gen/emit_f08.py)
    uncalled: Optional[str] = None


@dataclasses.dataclass
class Constant:
    name: str
    category: str
    c_type: Optional[str]
    fortran_type: Optional[str]
    abi: object                  # value in the MPI-5.0 standard ABI (None: not in it)
    mpich: object                # value in the MPICH ABI, {'symbol': s} for extern objects, None: absent
    mpich_fortran: object = None
    # value in Debian Open MPI 4.1's C ABI: an integer, {'symbol': s} for the address of an
    # extern object or function (predefined handles, callback functions), None: absent there
    openmpi: object = None
    # predefined attribute keys: the map (as a kind's "map") of the int their value points to,
    # which each face applies before the user sees it; None: a plain number
    attr_value_map: Optional[str] = None
    in_standard_abi: bool = True
    removed_in: Optional[str] = None
    mpich_assigned: bool = False
    # an error class outside the standard ABI (MPIX_): the standard class (a constant's name) the
    # standard-ABI face reports it as, from its runtime or from a backend; None for the others
    standard_class: Optional[str] = None
    # a maximum string length (a max_length of the spec's IN strings): the error class of a longer
    # string (MPI_ERR_INFO_KEY for MPI_MAX_INFO_KEY); None: MPI_ERR_ARG
    too_long: Optional[str] = None
    # another constant whose value this one may share in an ABI: a synonym (MPI_LONG_LONG_INT of
    # MPI_LONG_LONG), or MPICH's stand-in for a type it lacks (MPI_INTEGER16: MPI_DATATYPE_NULL)
    same_value_as: Optional[str] = None
    # why the MPICH-ABI faces give the standard's value (abi), not MPICH's: MPI_VERSION (this
    # implementation is MPI 5.0); the constant tests then do not compare it with MPICH's
    mpich_value_unused: Optional[str] = None
    # the value maps (VALUE_MAPS) that are no constant category and hold this constant
    value_maps: tuple = ()
    # the bit maps ("bits:NAME" in kinds.json) that hold this constant, where a category mixes
    # flags of different arguments whose bits one ABI lets overlap (Open MPI's MPI_MODE_CREATE and
    # MPI_MODE_NOCHECK are both 1): file access modes and RMA assertions
    bits_of: tuple = ()
    # spec "fortran": false: C only, not in mpif.h and the Fortran modules (the tools' handles);
    # a predefined callback of callbacks.json is in mpi_f08 all the same, as the standard's
    # f08 binding has it (MPI_CONVERSION_FN_NULL_C, which mpif.h and `use mpi` lack)
    in_fortran: bool = True
    # a pointer-valued constant in a common block of mpif.h, as in MPICH's: {block, place (its
    # place among all the blocks' members: MPICH's layout within a block), declaration}
    fortran_common: Optional[dict] = None
    # declared before mpif.h's other PARAMETERs, in this order (kinds, MPI_STATUS_SIZE: later
    # declarations use them)
    mpif_first: Optional[int] = None

    @property
    def handle(self):
        if self.category in HANDLE_CATEGORIES:
            return HANDLE_CATEGORIES[self.category]
        if self.category == 'OTHER_HANDLES':
            return OTHER_HANDLES[self.c_type]  # load() refuses a C type no handle class has
        return None


@dataclasses.dataclass
class Spec:
    kinds: dict
    procedures: list
    callbacks: list
    predefined_callbacks: list
    constants: list

    def procedure(self, name):
        return self._by_name[name]

    def chapters(self):
        return sorted({p.chapter for p in self.procedures})

    def constants_in(self, category):
        return [c for c in self.constants if c.category == category]


def _load_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise SpecError('%s: %s' % (path, e))


def _version(rec, field, where):
    v = rec.get(field)
    if v is not None and v not in VERSIONS:
        raise SpecError('%s: %s = %r is not an MPI version' % (where, field, v))
    return v


def _params(raw, kinds, where):
    out = []
    by = {q.get('name'): q for q in raw}
    for p in raw:
        unknown = sorted(set(p) - PARAM_KEYS)
        if unknown:
            raise SpecError('%s: parameter %r has unknown field %s' % (where, p.get('name'), ', '.join(map(repr, unknown))))
        kname = p.get('kind')
        if kname not in kinds:
            raise SpecError('%s: parameter %r has unknown kind %r' % (where, p.get('name'), kname))
        if p.get('dir') not in ('in', 'out', 'inout'):
            raise SpecError('%s: parameter %r has direction %r' % (where, p.get('name'), p.get('dir')))
        if 'null_handle' in p and (kinds[kname].cls != 'handle' or p['dir'] != 'in'):
            raise SpecError('%s: parameter %r: null_handle applies to IN handles only' % (where, p.get('name')))
        if p.get('significant') not in (None, 'root', 'members'):
            raise SpecError('%s: parameter %r: significant must be "root" or "members"' % (where, p.get('name')))
        if 'unused_if_in_place' in p and p['unused_if_in_place'] not in [q.get('name') for q in raw]:
            raise SpecError('%s: parameter %r: unused_if_in_place names no parameter' % (where, p.get('name')))
        if 'elements' in p:
            el, by = p['elements'], {q.get('name'): q for q in raw}
            if kinds[kname].cls != 'buffer' or not isinstance(el, dict) or set(el) != {'count', 'datatype'}:
                raise SpecError('%s: parameter %r: elements applies to BUFFER parameters and names a count and a datatype'
                                % (where, p.get('name')))
            c, d = by.get(el['count']), by.get(el['datatype'])
            if not c or 'length' in c or c.get('dir') != 'in' or not kinds[c['kind']].cls == 'count':
                raise SpecError('%s: parameter %r: elements count %r is no scalar IN count' % (where, p['name'], el['count']))
            if not d or 'length' in d or d.get('dir') != 'in' or d['kind'] != 'DATATYPE':
                raise SpecError('%s: parameter %r: elements datatype %r is no IN datatype' % (where, p['name'], el['datatype']))
        if 'extent' in p and (p.get('length') != '*' or p['extent'] not in ('peers', 'local', 'sources', 'destinations')):
            raise SpecError('%s: parameter %r: extent applies to \'*\'-long arrays and is peers, local, sources or '
                            'destinations' % (where, p.get('name')))
        # checks spec data: a max_length names one of the spec's MPI_MAX_ constants
        if 'max_length' in p and (kinds[kname].cls != 'string' or p['dir'] != 'in'
                                  or not str(p['max_length']).startswith('MPI_MAX_')):
            raise SpecError('%s: parameter %r: max_length applies to IN strings and names an MPI_MAX_ constant'
                            % (where, p.get('name')))
        rank_of = _check_accepts(p, kinds[kname], raw, by, where, kinds)
        _check_entries(p, by, where, kinds)
        if 'rank_of' in p and 'accepts' not in p:
            raise SpecError('%s: parameter %r: rank_of needs accepts' % (where, p.get('name')))
        if p.get('distinct') and (kinds[kname].check not in ('rank', 'rank_nni') or p['dir'] != 'in'
                                  or p.get('length') is None):
            raise SpecError('%s: parameter %r: distinct applies to IN arrays of ranks' % (where, p.get('name')))
        if 'requires' in p and (kinds[kname].cls != 'handle' or p['dir'] != 'in' or 'length' in p
                                or p['requires'] not in REQUIRES.get(kinds[kname].handle, ())):
            raise SpecError('%s: parameter %r: requires applies to IN handles: %r' % (where, p.get('name'), REQUIRES))
        if p.get('committed') and (kname != 'DATATYPE' or p['dir'] != 'in' or 'length' in p):
            raise SpecError('%s: parameter %r: committed applies to scalar IN datatypes' % (where, p.get('name')))
        if p.get('checked_by_runtime') and 'accepts' not in p:
            raise SpecError('%s: parameter %r: checked_by_runtime applies to ranks with accepts' % (where, p.get('name')))
        if p.get('status_error') and (kinds[kname].cls != 'status' or p['dir'] == 'out' or 'length' in p):
            raise SpecError('%s: parameter %r: status_error applies to single IN or INOUT statuses' % (where, p.get('name')))
        if p.get('fortran_one_based') and (kinds[kname].cls != 'int' or p['dir'] != 'out'
                                           or p.get('length') not in (None, '*') or (p.get('length') and 'filled' not in p)):
            raise SpecError('%s: parameter %r: fortran_one_based applies to OUT integers and to \'*\'-long arrays of '
                            'them with filled' % (where, p.get('name')))
        if p.get('in_place') and kinds[kname].cls != 'buffer':
            raise SpecError('%s: parameter %r: in_place applies to buffers' % (where, p.get('name')))
        if 'distinct_from' in p:
            q = {x.get('name'): x for x in raw}.get(p['distinct_from'], {})
            if not p.get('elements') or not q.get('elements') or q.get('dir') != 'in':
                raise SpecError('%s: parameter %r: distinct_from applies to buffers of elements and names an IN one'
                                % (where, p.get('name')))
        if p.get('null_on_error') and (kinds[kname].cls != 'handle' or p['dir'] != 'out' or 'length' in p):
            raise SpecError('%s: parameter %r: null_on_error applies to scalar OUT handles' % (where, p.get('name')))
        if p.get('not_null') and (kinds[kname].cls != 'handle' or p['dir'] != 'in' or 'null_handle' in p):
            raise SpecError('%s: parameter %r: not_null applies to IN handles without null_handle' % (where, p.get('name')))
        out.append(Param(name=p['name'], kind=kinds[kname], dir=p['dir'], length=p.get('length'),
                         const=p.get('const', False), pointer=p.get('pointer'), func_type=p.get('func_type'),
                         optional=p.get('optional', False), large_only=p.get('large_only', False),
                         null_handle=_version(p, 'null_handle', '%s: parameter %r' % (where, p.get('name'))),
                         significant=p.get('significant'), unused_if_in_place=p.get('unused_if_in_place'),
                         elements=p.get('elements'), max_length=p.get('max_length'), extent=p.get('extent'),
                         accepts=tuple(p['accepts']) if 'accepts' in p else None, entries=p.get('entries'),
                         filled=p.get('filled'), written_if=p.get('written_if'), dims_of=p.get('dims_of'),
                         not_null=p.get('not_null', False), fortran_one_based=p.get('fortran_one_based', False),
                         null_on_error=p.get('null_on_error', False), in_place=p.get('in_place', False),
                         distinct_from=p.get('distinct_from'),
                         rank_of=rank_of, distinct=p.get('distinct', False), requires=p.get('requires'),
                         committed=p.get('committed', False), status_error=p.get('status_error', False),
                         checked_by_runtime=p.get('checked_by_runtime', False),
                         in_c=p.get('c', True), in_fortran=p.get('fortran', True)))
    return out


def _check_accepts(p, kind, raw, by, where, kinds):
    """Validates p's accepts and rank_of; returns the name of what a checked rank is checked
    against (its rank_of, else the procedure's only IN communicator), None for anything else."""
    if 'accepts' not in p:
        return p.get('rank_of')
    acc, what = p['accepts'], '%s: parameter %r: accepts' % (where, p.get('name'))
    if kind.check not in ACCEPTS:
        raise SpecError('%s applies to ranks and tags, not to kind %s' % (what, kind.name))
    if not isinstance(acc, list) or len(set(acc)) != len(acc) or set(acc) not in ACCEPTS[kind.check]:
        raise SpecError('%s %r: a %s accepts one of %s' % (what, acc, kind.check, ' or '.join(
            repr(sorted(s)) for s in ACCEPTS[kind.check])))
    if p['dir'] != 'in' or 'length' in p:
        raise SpecError('%s applies to scalar IN parameters' % what)
    if 'rank_of' in p:
        w = by.get(p['rank_of'])
        wk = kinds.get(w.get('kind')) if w else None
        if kind.check == 'tag' or not wk or w.get('dir') != 'in' or 'length' in w or not (
                wk.cls == 'handle' and wk.handle in RANK_OF_HANDLES or wk.cls == 'int' and wk.check == 'positive'):
            raise SpecError('%s: rank_of names no IN window, communicator, group or size of a rank' % what)
        return p['rank_of']
    if kind.check == 'tag':
        return None
    comms = [q.get('name') for q in raw if q.get('dir') == 'in' and 'length' not in q
             and kinds.get(q.get('kind')) and kinds[q['kind']].cls == 'handle' and kinds[q['kind']].handle == 'comm']
    if len(comms) != 1:
        raise SpecError('%s: a checked rank without rank_of needs one IN communicator to check it against, not %d'
                        % (what, len(comms)))
    return comms[0]


def _check_entries(p, by, where, kinds):
    what = '%s: parameter %r' % (where, p.get('name'))
    if ('entries' in p or 'filled' in p) and p.get('length') != '*':
        raise SpecError('%s: entries and filled apply to \'*\'-long arrays' % what)
    if ('filled' in p or 'written_if' in p) and 'entries' not in p:
        raise SpecError('%s: filled and written_if need entries' % what)
    if 'written_if' in p:
        q = by.get(p['written_if'], {})
        if q.get('dir') != 'out' or 'length' in q or q.get('kind') != 'LOGICAL':
            raise SpecError('%s: written_if %r names no scalar OUT LOGICAL parameter' % (what, p['written_if']))
    for field, d in (('entries', 'in'), ('filled', 'out')):
        q = by.get(p.get(field), {}) if field in p else None
        if q is not None and (q.get('dir') != d or 'length' in q):
            raise SpecError('%s: %s %r names no scalar %s parameter' % (what, field, p[field], d.upper()))
    if 'dims_of' in p:
        q = by.get(p['dims_of'], {})
        if p.get('length') != '*':
            raise SpecError('%s: dims_of applies to \'*\'-long arrays' % what)
        if q.get('dir') != 'in' or 'length' in q or getattr(kinds.get(q.get('kind')), 'handle', None) != 'comm':
            raise SpecError('%s: dims_of %r names no IN communicator' % (what, p['dims_of']))


def _load_handles(spec_dir):
    """Reads spec/handles.json into HANDLE_CLASSES, HANDLE_TABLES and OTHER_HANDLES."""
    raw = _load_json(os.path.join(spec_dir, 'handles.json'))
    del HANDLE_CLASSES[:]
    for t in list(HANDLE_TABLES.values()) + [OTHER_HANDLES]:
        t.clear()
    for h, r in raw.items():
        where = 'handles.json: %s' % h
        if not isinstance(r, dict):
            raise SpecError('%s: a handle class is a record' % where)
        unknown = sorted(set(r) - HANDLE_FIELDS)
        if unknown:
            raise SpecError('%s: unknown field %s' % (where, ', '.join(map(repr, unknown))))
        for field in sorted(HANDLE_FIELDS - HANDLE_OPTIONAL):
            if not isinstance(r.get(field), str):
                raise SpecError('%s: missing field %r' % (where, field))
        if 'f2c' in r and not (isinstance(r['f2c'], str) and r['f2c'].isidentifier()):
            raise SpecError('%s: f2c %r is no C name stem' % (where, r['f2c']))
        HANDLE_CLASSES.append(h)
        for field in HANDLE_FIELDS:
            HANDLE_TABLES[field][h] = r.get(field, False)
        OTHER_HANDLES.setdefault(r['c'], h)


def _check_max_lengths(procedures, constants):
    """An IN string's max_length names a constant; a constant's too_long names an error class;
    each such string gets its constant's too_long as max_length_error."""
    by_name = {c.name: c for c in constants}
    for c in constants:
        if c.too_long and (c.too_long not in by_name or by_name[c.too_long].category != 'ERROR_CLASSES'):
            raise SpecError('constants.json: %s: too_long %r is no error class' % (c.name, c.too_long))
    for pr in procedures:
        for p in pr.params:
            if p.max_length and p.max_length not in by_name:
                raise SpecError('%s: parameter %r: max_length %r is no constant' % (pr.name, p.name, p.max_length))
            if p.max_length:
                p.max_length_error = by_name[p.max_length].too_long


def _check_handles(constants):
    """Each handle class's null handle is a constant, its error_class an error class."""
    by_name = {c.name: c for c in constants}
    for c in constants:
        if c.category == 'OTHER_HANDLES' and c.c_type not in OTHER_HANDLES:
            raise SpecError('constants.json: %s: C type %r is no handle class\'s of handles.json' % (c.name, c.c_type))
    for h in HANDLE_CLASSES:
        n, e = HANDLE_TABLES['null'][h], HANDLE_TABLES['error_class'][h]
        if n not in by_name:
            raise SpecError('handles.json: %s: null %r is no constant' % (h, n))
        if e not in by_name or by_name[e].category != 'ERROR_CLASSES':
            raise SpecError('handles.json: %s: error_class %r is no error class' % (h, e))


def load(spec_dir):
    _load_handles(spec_dir)
    kinds = {}
    for name, k in _load_json(os.path.join(spec_dir, 'kinds.json')).items():
        where = 'kinds.json: %s' % name
        if k.get('class') not in KIND_CLASSES:
            raise SpecError('%s: unknown class %r' % (where, k.get('class')))
        if k.get('check') not in CHECKS:
            raise SpecError('%s: unknown check %r' % (where, k.get('check')))
        # checks spec data: an error class a kind names is one of the spec's MPI_ERR_ constants
        if 'error_class' in k and (not k.get('check') or not str(k['error_class']).startswith('MPI_ERR_')):
            raise SpecError('%s: error_class applies to a kind with a check and names an MPI_ERR_ class' % where)
        # checks spec data: likewise for the class of an array's element
        if 'element_error_class' in k and (not k.get('check') or not str(k['element_error_class']).startswith('MPI_ERR_')):
            raise SpecError('%s: element_error_class applies to a kind with a check and names an MPI_ERR_ class' % where)
        if k['class'] == 'handle' and k.get('handle') not in HANDLE_CLASSES:
            raise SpecError('%s: handle class %r is not in handles.json' % (where, k.get('handle')))
        if 'c' not in k:
            raise SpecError('%s: missing C type' % where)
        kinds[name] = Kind(name=name, c=k['c'], c_large=k.get('c_large'), fortran=k.get('fortran'), cls=k['class'],
                           handle=k.get('handle'), map=k.get('map'), check=k.get('check'),
                           error_class=k.get('error_class'), element_error_class=k.get('element_error_class'),
                           default=k.get('default'))
    kinds['NOTHING'] = Kind('NOTHING', 'void', None, None, 'int')

    procedures = []
    for path in sorted(glob.glob(os.path.join(spec_dir, 'procedures', '*.json'))):
        chapter = os.path.splitext(os.path.basename(path))[0]
        for r in _load_json(path):
            where = '%s: %s' % (os.path.relpath(path, spec_dir), r.get('name', '?'))
            unknown = sorted(set(r) - PROCEDURE_KEYS)
            if unknown:
                raise SpecError('%s: unknown field %s' % (where, ', '.join(map(repr, unknown))))
            for field in ('name', 'since', 'return', 'params'):
                if field not in r:
                    raise SpecError('%s: missing field %r' % (where, field))
            if r['return'] not in kinds:
                raise SpecError('%s: unknown return kind %r' % (where, r['return']))
            params = _params(r['params'], kinds, where)
            if r.get('hand_written') is not None and r['hand_written'] not in HAND_WRITTEN:
                raise SpecError('%s: unknown hand_written %r' % (where, r['hand_written']))
            if r.get('hand_written') == 'fortran' and r.get('c', True):
                raise SpecError('%s: hand_written "fortran" applies to procedures without a C binding' % where)
            if r.get('mpich_macro') and r.get('hand_written') != 'all':
                raise SpecError('%s: mpich_macro applies to procedures every face writes by hand' % where)
            if r.get('fortran_generic') is not None and (r.get('c', True) or not r['fortran_generic'] or [
                    q['kind'] for q in r['params']] != ['BUFFER', 'NUM_BYTES_SMALL'] or r['return'] != 'ERROR_CODE'):
                raise SpecError('%s: fortran_generic applies to a Fortran-only procedure of a choice buffer and '
                                'an OUT size' % where)
            if r.get('requests') is not None and r['requests'] not in REQUEST_EFFECTS:
                raise SpecError('%s: unknown requests %r' % (where, r['requests']))
            if r.get('requests') and not any(p.kind.cls == 'handle' and p.kind.handle == 'request' for p in params):
                raise SpecError('%s: requests without a REQUEST parameter' % where)
            large = r.get('large_count', False)
            if large != any(p.kind.poly for p in params):
                raise SpecError('%s: large_count = %r disagrees with its parameter kinds' % (where, large))
            procedures.append(Procedure(
                name=r['name'], chapter=chapter, since=_version(r, 'since', where), params=params, ret=r['return'],
                deprecated_since=_version(r, 'deprecated_since', where), removed_in=_version(r, 'removed_in', where),
                replaced_by=r.get('replaced_by'), in_standard_abi=r.get('in_standard_abi', True), large_count=large,
                before_init=r.get('before_init', False), collective=r.get('collective', False), in_c=r.get('c', True), in_fortran=r.get('fortran', True),
                requests=r.get('requests'), read_only=r.get('read_only', False), channel=r.get('channel', False),
                hand_written=r.get('hand_written'), mpich_macro=r.get('mpich_macro', False),
                fortran_generic=r.get('fortran_generic'),
                ret_kind=kinds[r['return']]))
    names = {}
    for p in procedures:
        if p.name in names:
            raise SpecError('procedure %s is defined twice' % p.name)
        names[p.name] = p
    for p in procedures:
        if p.replaced_by and p.replaced_by not in names:
            raise SpecError('%s: replaced_by %s, which does not exist' % (p.name, p.replaced_by))
        if p.in_standard_abi and p.deprecated_since and p.deprecated_since <= '3.1':
            raise SpecError('%s: deprecated in %s, so it cannot be in the standard ABI' % (p.name, p.deprecated_since))

    cb = _load_json(os.path.join(spec_dir, 'callbacks.json'))
    callbacks = []
    for r in cb['callback_types']:
        where = 'callbacks.json: %s' % r['name']
        unknown = sorted(set(r) - CALLBACK_KEYS)
        if unknown:
            raise SpecError('%s: unknown field %s' % (where, ', '.join(map(repr, unknown))))
        uncalled = r.get('uncalled')
        if uncalled is not None and not (isinstance(uncalled, str) and uncalled.strip()):
            raise SpecError('%s: uncalled must say why, as a non-empty string' % where)
        params = _params(r['params'], kinds, where)
        # large_count: the type has a large-count form MPI_X_c (the faces and mpi_f08 derive it
        # from the large-count kinds), so it must have some
        large = r.get('large_count', False)
        if large != any(q.kind.poly for q in params):
            raise SpecError('%s: large_count = %r disagrees with its parameter kinds' % (where, large))
        callbacks.append(CallbackType(name=r['name'], params=params, ret=r['return'], large_count=large,
                                      in_standard_abi=r.get('in_standard_abi', True), uncalled=uncalled))
    cbnames = {c.name for c in callbacks}
    large_cbs = {c.name for c in callbacks if c.large_count}
    predefined = cb['predefined_callbacks']
    for p in predefined:
        # a type of callback_types, or the large-count form MPI_X_c of a large_count one (as the C
        # binding names it: MPI_CONVERSION_FN_NULL_C's MPI_Datarep_conversion_function_c)
        if p['type'] not in cbnames and not (p['type'].endswith('_c') and p['type'][:-2] in large_cbs):
            raise SpecError('callbacks.json: %s has unknown type %s' % (p['name'], p['type']))
    for p in procedures:
        for q in p.params:
            if q.kind.cls == 'function' and q.func_type and q.func_type not in cbnames:
                raise SpecError('%s: parameter %s has unknown callback type %s' % (p.name, q.name, q.func_type))
            # a large-count procedure parameter (POLYFUNCTION) takes the type's MPI_X_c form in the
            # _c procedure (MPI_Op_create_c's MPI_User_function_c): the type must have one
            if q.kind.cls == 'function' and q.kind.poly and q.func_type not in large_cbs:
                raise SpecError('%s: parameter %s is of large-count kind %s but its callback type %s has no '
                                'large-count form (large_count)' % (p.name, q.name, q.kind.name, q.func_type))

    constants = []
    seen = set()
    for r in _load_json(os.path.join(spec_dir, 'constants.json')):
        where = 'constants.json: %s' % r.get('name', '?')
        for field in ('name', 'category', 'abi', 'mpich'):
            if field not in r:
                raise SpecError('%s: missing field %r' % (where, field))
        unknown = sorted(set(r) - CONSTANT_KEYS)
        if unknown:
            raise SpecError('%s: unknown field %s' % (where, ', '.join(unknown)))
        if r['name'] in seen:
            raise SpecError('%s: defined twice' % where)
        seen.add(r['name'])
        c = Constant(name=r['name'], category=r['category'], c_type=r.get('c_type'), fortran_type=r.get('fortran_type'),
                     abi=r['abi'], mpich=r['mpich'], mpich_fortran=r.get('mpich_fortran'), openmpi=r.get('openmpi'),
                     attr_value_map=r.get('attr_value_map'),
                     in_standard_abi=r.get('in_standard_abi', True), removed_in=_version(r, 'removed_in', where),
                     mpich_assigned=r.get('mpich_assigned', False), standard_class=r.get('standard_class'),
                     too_long=r.get('too_long'), same_value_as=r.get('same_value_as'),
                     mpich_value_unused=r.get('mpich_value_unused'), value_maps=tuple(r.get('value_maps', ())),
                     bits_of=tuple(r.get('bits_of', ())), in_fortran=r.get('fortran', True), fortran_common=r.get('fortran_common'),
                     mpif_first=r.get('mpif_first'))
        if c.in_fortran not in (True, False):
            raise SpecError('%s: fortran is true or false, not %r' % (where, c.in_fortran))
        fc = c.fortran_common
        if fc is not None and not (isinstance(fc, dict) and set(fc) == FORTRAN_COMMON_KEYS
                                   and isinstance(fc['block'], str) and fc['block'].isidentifier()
                                   and isinstance(fc['place'], int) and isinstance(fc['declaration'], str)):
            raise SpecError('%s: fortran_common %r is not {"block": NAME, "place": N, "declaration": TEXT}' % (where, fc))
        if c.mpif_first is not None and (not isinstance(c.mpif_first, int) or isinstance(c.mpif_first, bool)):
            raise SpecError('%s: mpif_first %r is no number' % (where, c.mpif_first))
        if not isinstance(r.get('bits_of', []), list) or not all(isinstance(b, str) and b.isidentifier()
                                                                 for b in c.bits_of):
            raise SpecError('%s: bits_of %r is no list of map names' % (where, r.get('bits_of')))
        bad_maps = sorted(set(c.value_maps) - VALUE_MAPS)
        if bad_maps or not isinstance(r.get('value_maps', []), list):
            raise SpecError('%s: value_maps %r: unknown map (one of %s)' % (where, r.get('value_maps'),
                                                                           ', '.join(sorted(VALUE_MAPS))))
        if c.mpich_value_unused is not None and (not isinstance(c.mpich_value_unused, str)
                                                 or not isinstance(c.abi, int) or not c.mpich_value_unused):
            raise SpecError('%s: mpich_value_unused is the reason (a text) a constant with a standard '
                            'value gives that value on the MPICH ABI' % where)
        if c.in_standard_abi and c.abi is None:
            raise SpecError('%s: in the standard ABI but has no value there' % where)
        if c.c_type and 'openmpi' not in r:
            raise SpecError('%s: a C constant needs its Open MPI value (null: absent there)' % where)
        if isinstance(c.openmpi, dict) and set(c.openmpi) != {'symbol'}:
            raise SpecError('%s: openmpi must be an integer, {"symbol": name} or null' % where)
        constants.append(c)
    by_const = {c.name: c for c in constants}
    for p in predefined:
        # the C binding's constant of a predefined callback is a pointer to its type
        c = by_const.get(p['name'])
        if c is None or c.category not in ('FUNCTIONS', 'DEPRECATED_FUNCS') or c.c_type != p['type'] + ' *':
            raise SpecError('callbacks.json: %s is no constant (FUNCTIONS) of C type %s *' % (p['name'], p['type']))
    _check_standard_classes(constants)
    _check_handles(constants)
    _check_max_lengths(procedures, constants)
    _check_collisions(constants)
    for field, key in (('fortran_common', lambda c: c.fortran_common and c.fortran_common['place']),
                       ('mpif_first', lambda c: c.mpif_first)):
        places = {}
        for c in constants:
            if key(c) is not None:
                if key(c) in places:
                    raise SpecError('constants.json: %s: %s place %s is %s\'s' % (c.name, field, key(c), places[key(c)]))
                places[key(c)] = c.name
    classes = {c.name for c in constants if c.category == 'ERROR_CLASSES'}
    for k in kinds.values():
        if k.error_class and k.error_class not in classes:
            raise SpecError('kinds.json: %s: error_class %r is no error class' % (k.name, k.error_class))
        if k.element_error_class and k.element_error_class not in classes:
            raise SpecError('kinds.json: %s: element_error_class %r is no error class' % (k.name, k.element_error_class))
        if k.default and not (k.map and k.map.startswith('enum:') and any(
                c.name == k.default and c.category == k.map[5:] for c in constants)):
            raise SpecError('kinds.json: %s: default %r is no constant of its map\'s category' % (k.name, k.default))
    spec = Spec(kinds, procedures, callbacks, predefined, constants)
    spec._by_name = names
    return spec


def _check_standard_classes(constants):
    """Every error class outside the standard ABI names the standard class the standard-ABI face
    reports it as (standard_class), and no other constant has one."""
    by_name = {c.name: c for c in constants}
    for c in constants:
        where = 'constants.json: %s' % c.name
        outside = c.category == 'ERROR_CLASSES' and not c.in_standard_abi
        if c.standard_class is None:
            if outside:
                raise SpecError('%s: an error class outside the standard ABI needs standard_class' % where)
            continue
        if not outside:
            raise SpecError('%s: standard_class applies only to an error class outside the standard ABI' % where)
        std = by_name.get(c.standard_class)
        if std is None or std.category != 'ERROR_CLASSES' or not std.in_standard_abi or not isinstance(std.abi, int):
            raise SpecError('%s: standard_class %r is not an error class of the standard ABI' % (where, c.standard_class))


def _check_collisions(constants):
    """Handles of one class, and error classes, must have distinct values in each ABI, but for
    a constant's same_value_as."""
    by_name = {c.name: c for c in constants}
    for c in constants:
        if c.same_value_as is not None and c.same_value_as not in by_name:
            raise SpecError('constants.json: %s: same_value_as %r is no constant' % (c.name, c.same_value_as))
    for abi in ('abi', 'mpich'):
        groups = {}
        for c in constants:
            key = c.handle or ('error' if c.category == 'ERROR_CLASSES' else None)
            v = getattr(c, abi)
            if key is None or not isinstance(v, int):
                continue
            groups.setdefault((key, v), []).append(c.name)
        for (key, v), names in groups.items():
            # one value for several names: all but one say with which (same_value_as)
            if len(names) > 1 and len([n for n in names if by_name[n].same_value_as not in names]) > 1:
                raise SpecError('constants %s share the value %s in the %s ABI' % (', '.join(names), v, abi))
