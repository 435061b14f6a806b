#!/usr/bin/env python3
# Developer tool (never run by the build or tests): bootstraps spec/ from the MPI
# Forum's reference data and Debian MPICH 4.0.2's headers. Run once; spec/ is then edited by hand.
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
REF = os.path.join(ROOT, '..', 'shared', 'reference')
MPICH_INC = '/usr/include/x86_64-linux-gnu/mpich'

# ---------------------------------------------------------------- chapters

CHAPTER_RULES = [
    (r'^MPI_T_', 'tools'),
    (r'^MPI_Abi_', 'abi'),
    (r'_(c2f|f2c|c2f08|f082c|toint|fromint)$', 'handles'),
    (r'^MPI_(Session_(init|finalize|get_|call_errhandler|create_errhandler|set_errhandler|get_errhandler)|Group_from_session_pset)', 'sessions'),
    (r'^MPI_(Session|Comm|Buffer)_(attach|detach|flush|iflush)', 'pt2pt'),
    (r'^MPI_(Psend_init|Precv_init|Pready|Pready_range|Pready_list|Parrived)$', 'partitioned'),
    (r'^MPI_File_', 'io'),
    (r'^MPI_(Register_datarep)$', 'io'),
    (r'^MPI_(Win_(create_keyval|free_keyval|set_attr|get_attr|delete_attr)|Comm_(create_keyval|free_keyval|set_attr|get_attr|delete_attr)|Type_(create_keyval|free_keyval|set_attr|get_attr|delete_attr)|Keyval_create|Keyval_free|Attr_put|Attr_get|Attr_delete)$', 'caching'),
    (r'^MPI_Win_(create|create_dynamic|allocate|allocate_shared|shared_query|attach|detach|free|get_group|set_name|get_name|set_info|get_info|create_errhandler|set_errhandler|get_errhandler|call_errhandler)$', 'windows'),
    (r'^MPI_(Win_|Put|Get$|Get_accumulate|Accumulate|Rput|Rget|Raccumulate|Rget_accumulate|Fetch_and_op|Compare_and_swap)', 'rma'),
    (r'^MPI_(Comm_spawn|Comm_spawn_multiple|Comm_get_parent|Open_port|Close_port|Comm_accept|Comm_connect|Comm_disconnect|Comm_join|Publish_name|Unpublish_name|Lookup_name)$', 'dynamic'),
    (r'^MPI_Group_', 'groups'),
    (r'^MPI_(Cart|Graph|Dist_graph|Topo_test|Dims_create|Cartdim_get|Graphdims_get)', 'topologies'),
    (r'^MPI_(Neighbor_|Ineighbor_)', 'collectives'),
    (r'^MPI_(Comm_(create_errhandler|set_errhandler|get_errhandler|call_errhandler)|Errhandler_|Add_error|Remove_error|Error_class|Error_string)', 'errors'),
    (r'^MPI_(Comm_|Intercomm_)', 'communicators'),
    (r'^MPI_(Barrier|Ibarrier|Bcast|Ibcast|Gather|Igather|Scatter|Iscatter|Allgather|Iallgather|Alltoall|Ialltoall|Reduce|Ireduce|Allreduce|Iallreduce|Scan|Iscan|Exscan|Iexscan|Op_|Reduce_local)', 'collectives'),
    (r'^MPI_(Type_|Pack|Unpack|Get_address|Address|Aint_|Get_elements)', 'datatypes'),
    (r'^MPI_Info_', 'info'),
    (r'^MPI_(Grequest_|Status_set_cancelled|Status_set_elements)', 'external'),
    (r'^MPI_(Send|Recv|Bsend|Ssend|Rsend|Isend|Irecv|Ibsend|Issend|Irsend|Sendrecv|Isendrecv|Probe|Iprobe|Mprobe|Improbe|Mrecv|Imrecv|Wait|Test|Cancel|Request_|Start|Startall|Get_count|Buffer_|Send_init|Recv_init|Bsend_init|Ssend_init|Rsend_init|Status_)', 'pt2pt'),
    (r'^MPI_(Init|Init_thread|Finalize|Initialized|Finalized|Query_thread|Is_thread_main|Get_version|Get_library_version|Get_processor_name|Wtime|Wtick|Abort|Alloc_mem|Free_mem|Pcontrol|Get_hw_resource_info)$', 'environment'),
    (r'^MPI_(F_sync_reg|Sizeof)$', 'fortran'),
]


def chapter_of(name):
    for pat, chap in CHAPTER_RULES:
        if re.search(pat, name):
            return chap
    raise SystemExit('no chapter for %s' % name)


# ---------------------------------------------------------------- lifecycle

SINCE_RULES = [
    (r'_x$', '3.0'),
    (r'^MPI_T_(event|source|category_get_events|category_get_num_events)', '4.0'),
    (r'^MPI_T_', '3.0'),
    (r'^MPI_Abi_|_(toint|fromint)$', '5.0'),
    (r'^MPI_(Session|Group_from_session_pset|Comm_create_from_group|Intercomm_create_from_groups|Psend_init|Precv_init|Pready|Parrived|Isendrecv|Info_get_string|Info_create_env|Comm_idup_with_info)', '4.0'),
    (r'^MPI_(Barrier|Bcast|Gather|Gatherv|Scatter|Scatterv|Allgather|Allgatherv|Alltoall|Alltoallv|Alltoallw|Reduce|Allreduce|Reduce_scatter|Reduce_scatter_block|Scan|Exscan|Neighbor_\w+)_init$', '4.0'),
    (r'^MPI_(Comm_attach_buffer|Comm_detach_buffer|Session_attach_buffer|Session_detach_buffer|Buffer_flush|Buffer_iflush|Comm_flush_buffer|Comm_iflush_buffer|Session_flush_buffer|Session_iflush_buffer|Get_hw_resource_info|Request_get_status_any|Request_get_status_all|Request_get_status_some|Status_get_|Status_set_source|Status_set_tag|Status_set_error|Type_get_value_index|Remove_error_)', '4.1'),
    (r'^MPI_(Aint_add|Aint_diff|File_iread_all|File_iread_at_all|File_iwrite_all|File_iwrite_at_all)$', '3.1'),
    (r'^MPI_(I(barrier|bcast|gather|gatherv|scatter|scatterv|allgather|allgatherv|alltoall|alltoallv|alltoallw|reduce|allreduce|reduce_scatter|reduce_scatter_block|scan|exscan)|Ineighbor_\w+|Neighbor_\w+|Mprobe|Improbe|Mrecv|Imrecv|Comm_split_type|Comm_dup_with_info|Comm_idup|Comm_create_group|Win_allocate|Win_allocate_shared|Win_create_dynamic|Win_attach|Win_detach|Win_shared_query|Rput|Rget|Raccumulate|Rget_accumulate|Get_accumulate|Fetch_and_op|Compare_and_swap|Win_flush\w*|Win_lock_all|Win_unlock_all|Win_sync|Win_set_info|Win_get_info|Comm_set_info|Comm_get_info|Get_library_version|Type_create_hindexed_block|Message_c2f|Message_f2c|Dist_graph_\w+|F_sync_reg|Sizeof|Type_size_x|Get_elements_x|Status_set_elements_x|Type_get_extent_x|Type_get_true_extent_x)$', '3.0'),
    (r'^MPI_(Reduce_scatter_block|Reduce_local|Op_commutative|Dist_graph_create|Dist_graph_create_adjacent|Dist_graph_neighbors|Dist_graph_neighbors_count)$', '2.2'),
    (r'^MPI_Get_version$', '1.2'),
    (r'^MPI_(Send|Recv|Bsend|Ssend|Rsend|Buffer_attach|Buffer_detach|Isend|Ibsend|Issend|Irsend|Irecv|Wait|Test|Request_free|Waitany|Testany|Waitall|Testall|Waitsome|Testsome|Iprobe|Probe|Cancel|Test_cancelled|Send_init|Bsend_init|Ssend_init|Rsend_init|Recv_init|Start|Startall|Sendrecv|Sendrecv_replace|Get_count|Get_elements|Type_contiguous|Type_vector|Type_indexed|Type_size|Type_commit|Type_free|Pack|Unpack|Pack_size|Barrier|Bcast|Gather|Gatherv|Scatter|Scatterv|Allgather|Allgatherv|Alltoall|Alltoallv|Reduce|Op_create|Op_free|Allreduce|Reduce_scatter|Scan|Group_size|Group_rank|Group_translate_ranks|Group_compare|Comm_group|Group_union|Group_intersection|Group_difference|Group_incl|Group_excl|Group_range_incl|Group_range_excl|Group_free|Comm_size|Comm_rank|Comm_compare|Comm_dup|Comm_create|Comm_split|Comm_free|Comm_test_inter|Comm_remote_size|Comm_remote_group|Intercomm_create|Intercomm_merge|Keyval_create|Keyval_free|Attr_put|Attr_get|Attr_delete|Cart_create|Dims_create|Graph_create|Topo_test|Graphdims_get|Graph_get|Cartdim_get|Cart_get|Cart_rank|Cart_coords|Graph_neighbors_count|Graph_neighbors|Cart_shift|Cart_sub|Cart_map|Graph_map|Get_processor_name|Errhandler_free|Error_string|Error_class|Wtime|Wtick|Init|Finalize|Initialized|Abort|Pcontrol)$', '1.0'),
]

# Deprecated procedures still in the standard, and what replaces them.
DEPRECATED = {
    'MPI_Keyval_create': ('2.0', 'MPI_Comm_create_keyval'),
    'MPI_Keyval_free': ('2.0', 'MPI_Comm_free_keyval'),
    'MPI_Attr_put': ('2.0', 'MPI_Comm_set_attr'),
    'MPI_Attr_get': ('2.0', 'MPI_Comm_get_attr'),
    'MPI_Attr_delete': ('2.0', 'MPI_Comm_delete_attr'),
    'MPI_Info_get': ('4.0', 'MPI_Info_get_string'),
    'MPI_Info_get_valuelen': ('4.0', 'MPI_Info_get_string'),
    'MPI_Get_elements_x': ('4.1', 'MPI_Get_elements'),
    'MPI_Status_set_elements_x': ('4.1', 'MPI_Status_set_elements'),
    'MPI_Type_get_extent_x': ('4.1', 'MPI_Type_get_extent'),
    'MPI_Type_get_true_extent_x': ('4.1', 'MPI_Type_get_true_extent'),
    'MPI_Type_size_x': ('4.1', 'MPI_Type_size'),
}


def since_of(name):
    for pat, ver in SINCE_RULES:
        if re.search(pat, name):
            return ver
    return '2.0'


def param(name, kind, direction, length=None, const=False, pointer=None, func_type=None):
    p = {'name': name, 'kind': kind, 'dir': direction}
    if length is not None:
        p['length'] = length
    if const:
        p['const'] = True
    if pointer is not None:
        p['pointer'] = pointer
    if func_type:
        p['func_type'] = func_type
    return p


# The ten procedures removed in MPI-3.0 (absent from the Forum's data).
REMOVED = [
    ('MPI_Address', 'datatypes', 'MPI_Get_address', [
        param('location', 'BUFFER', 'in'),
        param('address', 'DISPLACEMENT_SMALL_F', 'out')]),
    ('MPI_Errhandler_create', 'errors', 'MPI_Comm_create_errhandler', [
        param('function', 'FUNCTION', 'in', func_type='MPI_Handler_function'),
        param('errhandler', 'ERRHANDLER', 'out')]),
    ('MPI_Errhandler_get', 'errors', 'MPI_Comm_get_errhandler', [
        param('comm', 'COMMUNICATOR', 'in'),
        param('errhandler', 'ERRHANDLER', 'out')]),
    ('MPI_Errhandler_set', 'errors', 'MPI_Comm_set_errhandler', [
        param('comm', 'COMMUNICATOR', 'in'),
        param('errhandler', 'ERRHANDLER', 'in')]),
    ('MPI_Type_extent', 'datatypes', 'MPI_Type_get_extent', [
        param('datatype', 'DATATYPE', 'in'),
        param('extent', 'DISPLACEMENT_SMALL_F', 'out')]),
    ('MPI_Type_hindexed', 'datatypes', 'MPI_Type_create_hindexed', [
        param('count', 'DTYPE_NUM_ELEM_NNI', 'in'),
        param('array_of_blocklengths', 'DTYPE_NUM_ELEM_NNI', 'in', length='count'),
        param('array_of_displacements', 'DISPLACEMENT_SMALL_F', 'in', length='count'),
        param('oldtype', 'DATATYPE', 'in'),
        param('newtype', 'DATATYPE', 'out')]),
    ('MPI_Type_hvector', 'datatypes', 'MPI_Type_create_hvector', [
        param('count', 'DTYPE_NUM_ELEM_NNI', 'in'),
        param('blocklength', 'DTYPE_NUM_ELEM_NNI', 'in'),
        param('stride', 'DISPLACEMENT_SMALL_F', 'in'),
        param('oldtype', 'DATATYPE', 'in'),
        param('newtype', 'DATATYPE', 'out')]),
    ('MPI_Type_lb', 'datatypes', 'MPI_Type_get_extent', [
        param('datatype', 'DATATYPE', 'in'),
        param('displacement', 'DISPLACEMENT_SMALL_F', 'out')]),
    ('MPI_Type_struct', 'datatypes', 'MPI_Type_create_struct', [
        param('count', 'DTYPE_NUM_ELEM_NNI', 'in'),
        param('array_of_blocklengths', 'DTYPE_NUM_ELEM_NNI', 'in', length='count'),
        param('array_of_displacements', 'DISPLACEMENT_SMALL_F', 'in', length='count'),
        param('array_of_types', 'DATATYPE', 'in', length='count'),
        param('newtype', 'DATATYPE', 'out')]),
    ('MPI_Type_ub', 'datatypes', 'MPI_Type_get_extent', [
        param('datatype', 'DATATYPE', 'in'),
        param('displacement', 'DISPLACEMENT_SMALL_F', 'out')]),
]

# Calls allowed before MPI_Init and after MPI_Finalize (MPI-4.1 section 11.4.1 and the ABI chapter).
BEFORE_INIT = re.compile(r'^MPI_(Initialized|Finalized|Get_version|Get_library_version|Info_\w+|Session_\w+|Error_class|Error_string|Add_error_\w+|Remove_error_\w+|Abi_\w+|T_\w+|Wtime|Wtick|Init|Init_thread|Query_thread|Is_thread_main|Get_hw_resource_info|\w+_(c2f|f2c|toint|fromint|c2f08|f082c)|Errhandler_free|Comm_create_errhandler|Win_create_errhandler|File_create_errhandler|Session_create_errhandler)$')


def convert_procedure(e):
    at = e['attributes']
    name = e['name']
    params = []
    large = False
    for p in e['parameters']:
        if 'c_parameter' in p['suppress'] and p['kind'] == 'ERROR_CODE':
            continue  # the Fortran ierror: implied by return = ERROR_CODE
        if p['kind'].startswith('POLY'):
            large = True
        q = param(p['name'], p['kind'], p['param_direction'], length=p['length'],
                  const=p['constant'], pointer=p['pointer'], func_type=p['func_type'] or None)
        if p['optional']:
            q['optional'] = True
        if p['large_only']:
            q['large_only'] = True
        if 'c_parameter' in p['suppress']:
            q['c'] = False
        if 'f90_parameter' in p['suppress']:
            q['fortran'] = False
        if p['root_only']:
            q['root_only'] = True
        params.append(q)
    rec = {'name': name, 'chapter': chapter_of(name), 'since': since_of(name)}
    if name in DEPRECATED:
        rec['deprecated_since'], rec['replaced_by'] = DEPRECATED[name]
    rec['in_standard_abi'] = not (name in DEPRECATED and DEPRECATED[name][0] <= '3.1')
    if large:
        rec['large_count'] = True
    if BEFORE_INIT.match(name):
        rec['before_init'] = True
    if not at['c_expressible']:
        rec['c'] = False
    if not at['f90_expressible']:
        rec['fortran'] = False
    if at['not_with_mpif']:
        rec['not_with_mpif'] = True
    rec['return'] = e['return_kind']
    rec['params'] = params
    return rec


def convert_callback(e):
    params = [param(p['name'], p['kind'], p['param_direction'], length=p['length'],
                    const=p['constant'], pointer=p['pointer'])
              for p in e['parameters'] if not ('c_parameter' in p['suppress'] and p['kind'] == 'ERROR_CODE')]
    rec = {'name': e['name'], 'since': since_of(e['name']), 'return': e['return_kind'], 'params': params}
    if any(p['kind'].startswith('POLY') for p in params):
        rec['large_count'] = True
    if e['name'] in ('MPI_Copy_function', 'MPI_Delete_function'):
        rec['deprecated_since'] = '2.0'
        rec['in_standard_abi'] = False
    return rec


# ---------------------------------------------------------------- constants

# Constants Debian's MPICH 4.0.2 lacks (MPI-4.1 and 5.0): values in MPICH's encoding
# that collide with nothing MPICH defines.
MPICH_ASSIGNED = {
    'MPI_BUFFER_AUTOMATIC': -2,
    'MPI_COMBINER_VALUE_INDEX': 20,
    'MPI_COMM_TYPE_RESOURCE_GUIDED': 5,
    'MPI_LOGICAL1': 0x4c000147, 'MPI_LOGICAL2': 0x4c000248, 'MPI_LOGICAL4': 0x4c000449,
    'MPI_LOGICAL8': 0x4c00084a, 'MPI_LOGICAL16': 0x4c00104b,
    'MPI_REAL2': 0x4c00024c, 'MPI_COMPLEX4': 0x4c00044d,
    'MPI_ERR_ERRHANDLER': 79, 'MPI_ERR_ABI': 80, 'MPI_T_ERR_NOT_ACCESSIBLE': 81,
    'MPI_T_BIND_MPI_SESSION': 9711,
}
# Names that exist only to mark the standard-ABI header.
MPICH_ABSENT = {'MPI_ABI_VERSION', 'MPI_ABI_SUBVERSION'}
# MPICH's extern objects: the C face must export these symbols.
MPICH_EXTERN = {
    'MPI_UNWEIGHTED': 'MPI_UNWEIGHTED', 'MPI_WEIGHTS_EMPTY': 'MPI_WEIGHTS_EMPTY',
    'MPI_F_STATUS_IGNORE': 'MPI_F_STATUS_IGNORE', 'MPI_F_STATUSES_IGNORE': 'MPI_F_STATUSES_IGNORE',
    'MPI_F08_STATUS_IGNORE': 'MPI_F08_STATUS_IGNORE', 'MPI_F08_STATUSES_IGNORE': 'MPI_F08_STATUSES_IGNORE',
    'MPI_T_PVAR_ALL_HANDLES': 'MPI_T_PVAR_ALL_HANDLES',
    'MPI_DUP_FN': 'MPIR_Dup_fn', 'MPI_COMM_DUP_FN': 'MPIR_Dup_fn', 'MPI_TYPE_DUP_FN': 'MPIR_Dup_fn', 'MPI_WIN_DUP_FN': 'MPIR_Dup_fn',
}
MPICH_ONLY_CATEGORY = {
    'MPI_LB': 'REMOVED_DATATYPES', 'MPI_UB': 'REMOVED_DATATYPES',
    'MPI_COMBINER_HVECTOR_INTEGER': 'DATATYPE_DECODING_CONSTANTS',
    'MPI_COMBINER_HINDEXED_INTEGER': 'DATATYPE_DECODING_CONSTANTS',
    'MPI_COMBINER_STRUCT_INTEGER': 'DATATYPE_DECODING_CONSTANTS',
    'MPI_F_STATUS_IGNORE': 'EMPTY_IGNORE_INPUT_CONSTANTS', 'MPI_F_STATUSES_IGNORE': 'EMPTY_IGNORE_INPUT_CONSTANTS',
    'MPI_F08_STATUS_IGNORE': 'EMPTY_IGNORE_INPUT_CONSTANTS', 'MPI_F08_STATUSES_IGNORE': 'EMPTY_IGNORE_INPUT_CONSTANTS',
    'MPI_T_BIND_INVALID': 'TOOL_INFO_IFACE_VAR_ASSOCIATIONS', 'MPI_T_PVAR_CLASS_INVALID': 'TOOL_INFO_IFACE_PVAR_CLASSES',
    'MPI_T_SCOPE_INVALID': 'TOOL_INFO_IFACE_VAR_SCOPES', 'MPI_T_VERBOSITY_INVALID': 'TOOL_INFO_IFACE_VERBOSITY_LEVELS',
}
MPICH_ONLY_CTYPE = {'REMOVED_DATATYPES': 'MPI_Datatype', 'DATATYPE_DECODING_CONSTANTS': 'int',
                    'EMPTY_IGNORE_INPUT_CONSTANTS': None}


def mpich_values():
    """Compile and run a program against MPICH's mpi.h that prints every constant."""
    names = set(re.findall(r'#\s*define\s+(MPI_[A-Z0-9_]+)\b(?!\()', open(os.path.join(MPICH_INC, 'mpi.h')).read()))
    return names


def mpich_fortran_values():
    vals = {}
    for line in open(os.path.join(MPICH_INC, 'mpif.h')):
        m = re.match(r'\s+PARAMETER\s*\((.*)\)\s*$', line)
        if not m:
            continue
        for part in m.group(1).split(','):
            if '=' in part:
                k, v = part.split('=', 1)
                v = v.strip()
                if re.fullmatch(r'-?\d+', v):
                    vals[k.strip()] = int(v)
                elif v in ('.TRUE.', '.FALSE.'):
                    vals[k.strip()] = v == '.TRUE.'
    return vals


def dump_mpich_c(names):
    """Values of names under MPICH's mpi.h; None where MPICH does not define one."""
    names = sorted(names)
    undefined = set()
    with tempfile.TemporaryDirectory() as tmp:
        while True:
            src = ['#include <mpi.h>', '#include <stdio.h>', '#include <stdint.h>', 'int main(void) {']
            for n in names:
                if n in undefined:
                    continue
                if n in MPICH_EXTERN:
                    continue
                src.append('  printf("%s %%lld\\n", (long long)(intptr_t)(%s));' % (n, n))
            src.append('  return 0;\n}')
            c = os.path.join(tmp, 'd.c')
            open(c, 'w').write('\n'.join(src))
            r = subprocess.run(['mpicc.mpich', '-w', '-o', os.path.join(tmp, 'd'), c], capture_output=True, text=True)
            if r.returncode == 0:
                break
            bad = set(re.findall(r"[‘'](MPI_\w+)[’'] undeclared", r.stderr))
            if not bad:
                raise SystemExit(r.stderr)
            undefined |= bad
        out = subprocess.run([os.path.join(tmp, 'd')], capture_output=True, text=True, check=True).stdout
    vals = {n: None for n in undefined}
    for line in out.splitlines():
        n, v = line.split()
        vals[n] = int(v)
    return vals


def convert_constants():
    abi = json.load(open(os.path.join(REF, 'mpi-standard-5.0-abi.json')))['constants']
    hdr = open(os.path.join(MPICH_INC, 'mpi.h')).read() + open(os.path.join(MPICH_INC, 'mpio.h')).read()
    mpich_names = set(re.findall(r'#\s*define\s+(MPI_[A-Z0-9_]+)\b(?!\()', hdr))
    for body in re.findall(r'enum\s+\w*\s*\{(.*?)\}', hdr, flags=re.S):
        body = re.sub(r'/\*.*?\*/', '', body, flags=re.S)
        mpich_names |= set(re.findall(r'\b(MPI_[A-Z0-9_]+)\s*(?:=|,|$)', body))
    mpich_names -= {'MPI_INCLUDED', 'MPI_FILE_DEFINED', 'MPI_AINT_FMT_DEC_SPEC', 'MPI_AINT_FMT_HEX_SPEC'}
    mpich_names |= set(MPICH_EXTERN)
    fortran_only = {c['name'] for c in abi.values() if c['handle_types'].get('c', {}).get('type') is None}
    cvals = dump_mpich_c((mpich_names | {c['name'] for c in abi.values()}) - fortran_only)
    fvals = mpich_fortran_values()
    out = []
    for c in abi.values():
        n = c['name']
        ctype = c['handle_types'].get('c', {}).get('type')
        rec = {'name': n, 'category': c['category'], 'c_type': ctype,
               'fortran_type': c['handle_types'].get('f90', {}).get('type') or None,
               'abi': c['abi_value']}
        if n in MPICH_ABSENT:
            rec['mpich'] = None
        elif n in MPICH_EXTERN:
            rec['mpich'] = {'symbol': MPICH_EXTERN[n]}
        elif n in fortran_only:
            rec['mpich'] = fvals.get(n, None)
        elif cvals.get(n) is not None:
            rec['mpich'] = cvals[n]
        elif n in MPICH_ASSIGNED:
            rec['mpich'] = MPICH_ASSIGNED[n]
            rec['mpich_assigned'] = True
        else:
            raise SystemExit('no MPICH value for %s' % n)
        fv = fvals.get(n)
        if n not in fortran_only and fv is not None and not isinstance(rec['mpich'], dict) and fv != rec['mpich']:
            rec['mpich_fortran'] = fv
        out.append(rec)
    for n, cat in sorted(MPICH_ONLY_CATEGORY.items()):
        rec = {'name': n, 'category': cat, 'c_type': MPICH_ONLY_CTYPE.get(cat, 'int'), 'fortran_type': 'INTEGER',
               'abi': None, 'mpich': {'symbol': MPICH_EXTERN[n]} if n in MPICH_EXTERN else cvals[n],
               'in_standard_abi': False}
        if n in ('MPI_LB', 'MPI_UB') or n.startswith('MPI_COMBINER_'):
            rec['removed_in'] = '3.0'
        out.append(rec)
    return out


def main():
    apis = json.load(open(os.path.join(REF, 'mpi-standard-5.0-apis.json')))
    procs, callbacks, predefined = [], [], []
    for e in apis.values():
        at = e['attributes']
        if at['callback']:
            callbacks.append(convert_callback(e))
        elif at['predefined_function']:
            predefined.append({'name': e['name'], 'type': at['predefined_function'],
                               'deprecated_since': '2.0' if at['predefined_function'] in ('MPI_Copy_function', 'MPI_Delete_function') else None})
        else:
            procs.append(convert_procedure(e))
    for name, chap, repl, params in REMOVED:
        procs.append({'name': name, 'chapter': chap, 'since': '1.0', 'deprecated_since': '2.0',
                      'removed_in': '3.0', 'replaced_by': repl, 'in_standard_abi': False,
                      'return': 'ERROR_CODE', 'params': params})
    callbacks.append({'name': 'MPI_Handler_function', 'since': '1.0', 'deprecated_since': '2.0', 'removed_in': '3.0',
                      'in_standard_abi': False, 'return': 'NOTHING',
                      'params': [param('comm', 'COMMUNICATOR', 'in', pointer=True), param('error_code', 'ERROR_CODE', 'in', pointer=True),
                                 param('varargs', 'VARARGS', 'in')]})
    for p in predefined:
        if p['deprecated_since'] is None:
            del p['deprecated_since']
        else:
            p['in_standard_abi'] = False
    by_chapter = {}
    for p in sorted(procs, key=lambda r: r['name']):
        by_chapter.setdefault(p['chapter'], []).append(p)
    os.makedirs(os.path.join(ROOT, 'spec', 'procedures'), exist_ok=True)
    for chap, recs in by_chapter.items():
        for r in recs:
            del r['chapter']
        write(os.path.join('procedures', chap + '.json'), recs)
    write('callbacks.json', {'callback_types': sorted(callbacks, key=lambda r: r['name']),
                             'predefined_callbacks': sorted(predefined, key=lambda r: r['name'])})
    write('constants.json', sorted(convert_constants(), key=lambda r: (r['category'], r['name'])))
    print('procedures:', len(procs), 'callbacks:', len(callbacks), 'predefined:', len(predefined))


def write(rel, data):
    path = os.path.join(ROOT, 'spec', rel)
    with open(path, 'w') as f:
        f.write(compact_json(data) + '\n')


def compact_json(data, indent=0):
    """JSON with one record per line where records are small: readable in a diff."""
    pad = '  ' * indent
    if isinstance(data, list) and data and all(isinstance(x, dict) for x in data):
        items = [compact_json(x, indent + 1) for x in data]
        return '[\n' + ',\n'.join(pad + '  ' + i for i in items) + '\n' + pad + ']'
    if isinstance(data, dict) and any(isinstance(v, list) and v and isinstance(v[0], dict) for v in data.values()):
        items = ['%s: %s' % (json.dumps(k), compact_json(v, indent + 1)) for k, v in data.items()]
        return '{\n' + ',\n'.join(pad + '  ' + i for i in items) + '\n' + pad + '}'
    return json.dumps(data, separators=(', ', ': '))


if __name__ == '__main__':
    sys.exit(main())
