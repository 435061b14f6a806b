# gen_spec.sh — the generator refuses bad spec data with a message naming the record (unknown
# fields, kinds, accepts, entries, standard_class), and the spec's fields, not names, decide what
# the faces check and how they map error classes.
. tests/sh/lib.sh
# refused FILE PY-EXPRESSION WANT: edit FILE of a copy of the spec with PY-EXPRESSION (recs: its
# records; r, p: MPI_Send's record and its params by name in pt2pt.json; c: the constants by
# name; k: the kinds by name; h: the handle classes by name; t: the callback types by name),
# generate, and expect failure with WANT in the message
refused() {
    rm -rf "$TMP/spec" && cp -a spec "$TMP/spec"
    python3 - "$TMP/spec/$1" "$2" <<'EOF' || fail "could not edit the spec copy: $2"
import json, sys
path, edit = sys.argv[1], sys.argv[2]
recs = json.load(open(path))
if path.endswith('pt2pt.json'):
    r = next(x for x in recs if x['name'] == 'MPI_Send')
    p = {q['name']: q for q in r['params']}
elif path.endswith('kinds.json'):
    k = recs
elif path.endswith('handles.json'):
    h = recs
elif path.endswith('callbacks.json'):
    t = {x['name']: x for x in recs['callback_types']}
else:
    c = {x['name']: x for x in recs}
exec(edit)
json.dump(recs, open(path, 'w'), indent=1)
EOF
    python3 gen/generate.py "$TMP/spec" "$TMP/out" > "$TMP/msg" 2>&1 && fail "generate.py accepted: $2"
    grep -qF -- "$3" "$TMP/msg" || fail "after '$2' the message is '$(cat "$TMP/msg")', not '$3'"
    echo "refused ($2): $(cat "$TMP/msg")"
}
bad() { refused procedures/pt2pt.json "$@"; }
bad_const() { refused constants.json "$@"; }
bad_kind() { refused kinds.json "$@"; }
bad_handle() { refused handles.json "$@"; }
bad_callback() { refused callbacks.json "$@"; }
bad "p['dest']['acepts'] = ['MPI_PROC_NULL']" \
    "spec error: procedures/pt2pt.json: MPI_Send: parameter 'dest' has unknown field 'acepts'"
bad "r['colective'] = True" "spec error: procedures/pt2pt.json: MPI_Send: unknown field 'colective'"
bad "p['count']['fortran_one_based'] = True" \
    "spec error: procedures/pt2pt.json: MPI_Send: parameter 'count': fortran_one_based applies to OUT integers"
bad "p['buf']['distinct_from'] = 'comm'" \
    "spec error: procedures/pt2pt.json: MPI_Send: parameter 'buf': distinct_from applies to buffers of elements and names an IN one"
bad "p['comm']['in_place'] = True" \
    "spec error: procedures/pt2pt.json: MPI_Send: parameter 'comm': in_place applies to buffers"
bad "p['comm']['null_on_error'] = True" \
    "spec error: procedures/pt2pt.json: MPI_Send: parameter 'comm': null_on_error applies to scalar OUT handles"
bad "p['dest']['kind'] = 'RANKK'" "spec error: procedures/pt2pt.json: MPI_Send: parameter 'dest' has unknown kind 'RANKK'"
bad "p['dest']['accepts'] = ['MPI_ANY_TAG']" \
    "spec error: procedures/pt2pt.json: MPI_Send: parameter 'dest': accepts ['MPI_ANY_TAG']: a rank accepts one of"
bad "p['tag']['accepts'] = ['MPI_PROC_NULL']" \
    "spec error: procedures/pt2pt.json: MPI_Send: parameter 'tag': accepts ['MPI_PROC_NULL']: a tag accepts one of"
bad "p['count']['accepts'] = []" \
    "spec error: procedures/pt2pt.json: MPI_Send: parameter 'count': accepts applies to ranks and tags, not to kind POLYXFER_NUM_ELEM_NNI"
bad "p['comm']['dir'] = 'out'" \
    "spec error: procedures/pt2pt.json: MPI_Send: parameter 'dest': accepts: a checked rank without rank_of needs one IN communicator to check it against, not 0"
bad "r['hand_written'] = 'face'" "spec error: procedures/pt2pt.json: MPI_Send: unknown hand_written 'face'"
bad "r['hand_written'] = 'fortran'" \
    "spec error: procedures/pt2pt.json: MPI_Send: hand_written \"fortran\" applies to procedures without a C binding"
bad "r['mpich_macro'] = True" \
    "spec error: procedures/pt2pt.json: MPI_Send: mpich_macro applies to procedures every face writes by hand"
bad "p['buf']['entries'] = 'count'" \
    "spec error: procedures/pt2pt.json: MPI_Send: parameter 'buf': entries and filled apply to '*'-long arrays"
refused procedures/pt2pt.json "[q.update(written_if='count') for q in next(x for x in recs if x['name'] == 'MPI_Testall')['params'] if q['name'] == 'array_of_statuses']" \
    "spec error: procedures/pt2pt.json: MPI_Testall: parameter 'array_of_statuses': written_if 'count' names no scalar OUT LOGICAL parameter"
bad "p['buf']['dims_of'] = 'comm'" \
    "spec error: procedures/pt2pt.json: MPI_Send: parameter 'buf': dims_of applies to '*'-long arrays"
refused procedures/topologies.json "[q.update(dims_of='newcomm') for q in c['MPI_Cart_sub']['params'] if q['name'] == 'remain_dims']" \
    "spec error: procedures/topologies.json: MPI_Cart_sub: parameter 'remain_dims': dims_of 'newcomm' names no IN communicator"
bad "p['buf']['not_null'] = True" \
    "spec error: procedures/pt2pt.json: MPI_Send: parameter 'buf': not_null applies to IN handles"
bad "p['comm']['requires'] = 'shared'" \
    "spec error: procedures/pt2pt.json: MPI_Send: parameter 'comm': requires applies to IN handles"
bad "p['dest']['requires'] = 'cartesian'" \
    "spec error: procedures/pt2pt.json: MPI_Send: parameter 'dest': requires applies to IN handles"
bad "p['count']['committed'] = True" \
    "spec error: procedures/pt2pt.json: MPI_Send: parameter 'count': committed applies to scalar IN datatypes"
bad_kind "k['RMA_DISPLACEMENT_NNI']['error_class'] = 'MPI_ERR_DISPP'" \
    "spec error: kinds.json: RMA_DISPLACEMENT_NNI: error_class 'MPI_ERR_DISPP' is no error class"
bad_kind "del k['RMA_DISPLACEMENT_NNI']['check']" \
    "spec error: kinds.json: RMA_DISPLACEMENT_NNI: error_class applies to a kind with a check"
bad_handle "del h['keyval']" "spec error: kinds.json: KEYVAL: handle class 'keyval' is not in handles.json"
bad_handle "h['comm']['nul'] = 'MPI_COMM_NULL'" "spec error: handles.json: comm: unknown field 'nul'"
bad_handle "del h['comm']['c']" "spec error: handles.json: comm: missing field 'c'"
bad_handle "h['comm']['error_class'] = 'MPI_ERR_COMMM'" "spec error: handles.json: comm: error_class 'MPI_ERR_COMMM' is no error class"
bad_handle "h['comm']['null'] = 'MPI_COMM_NUL'" "spec error: handles.json: comm: null 'MPI_COMM_NUL' is no constant"
bad_handle "h['win']['c'] = 'MPI_Window'" \
    "spec error: constants.json: MPI_WIN_NULL: C type 'MPI_Win' is no handle class's of handles.json"
bad_const "c['MPI_MAX_INFO_KEY']['too_long'] = 'MPI_ERR_INFO_KY'" \
    "spec error: constants.json: MPI_MAX_INFO_KEY: too_long 'MPI_ERR_INFO_KY' is no error class"
refused procedures/info.json "[q.update(max_length='MPI_MAX_INFO_KY') for q in c['MPI_Info_set']['params'] if q['name'] == 'key']" \
    "spec error: MPI_Info_set: parameter 'key': max_length 'MPI_MAX_INFO_KY' is no constant"
bad_const "c['MPI_ERR_OTHER']['standrd_class'] = 'MPI_ERR_OTHER'" \
    "spec error: constants.json: MPI_ERR_OTHER: unknown field standrd_class"
bad_const "del c['MPIX_ERR_REVOKED']['standard_class']" \
    "spec error: constants.json: MPIX_ERR_REVOKED: an error class outside the standard ABI needs standard_class"
bad_const "c['MPI_ERR_OTHER']['standard_class'] = 'MPI_ERR_ARG'" \
    "spec error: constants.json: MPI_ERR_OTHER: standard_class applies only to an error class outside the standard ABI"
bad_const "c['MPIX_ERR_EAGAIN']['standard_class'] = 'MPIX_ERR_REVOKED'" \
    "spec error: constants.json: MPIX_ERR_EAGAIN: standard_class 'MPIX_ERR_REVOKED' is not an error class of the standard ABI"
bad_const "c['MPI_UNDEFINED']['value_maps'] = ['rank', 'ranks']" \
    "spec error: constants.json: MPI_UNDEFINED: value_maps ['rank', 'ranks']: unknown map"
bad_const "c['MPI_LONG_LONG']['same_value_as'] = 'MPI_LONG_LONG_INTT'" \
    "spec error: constants.json: MPI_LONG_LONG: same_value_as 'MPI_LONG_LONG_INTT' is no constant"
bad_const "del c['MPI_LONG_LONG']['same_value_as']" \
    "spec error: constants MPI_LONG_LONG, MPI_LONG_LONG_INT share the value 523 in the abi ABI"
bad_const "c['MPI_BOTTOM']['fortran_common'] = {'block': 'MPIPRIV1', 'place': 1}" \
    "spec error: constants.json: MPI_BOTTOM: fortran_common {'block': 'MPIPRIV1', 'place': 1} is not {\"block\": NAME"
bad_const "c['MPI_IN_PLACE']['fortran_common']['place'] = 1" \
    "spec error: constants.json: MPI_IN_PLACE: fortran_common place 1 is MPI_BOTTOM's"
bad_const "c['MPI_COUNT_KIND']['mpif_first'] = 'first'" "spec error: constants.json: MPI_COUNT_KIND: mpif_first 'first' is no number"
bad_const "c['MPI_T_ENUM_NULL']['fortran'] = 'no'" "spec error: constants.json: MPI_T_ENUM_NULL: fortran is true or false, not 'no'"
bad_handle "h['datatype']['f2c'] = 'Ty pe'" "spec error: handles.json: datatype: f2c 'Ty pe' is no C name stem"
bad_callback "t['MPI_Comm_errhandler_function']['uncaled'] = 'x'" \
    "spec error: callbacks.json: MPI_Comm_errhandler_function: unknown field 'uncaled'"
bad_callback "t['MPI_Grequest_query_function']['uncalled'] = ' '" \
    "spec error: callbacks.json: MPI_Grequest_query_function: uncalled must say why, as a non-empty string"
bad_callback "del t['MPI_User_function']['large_count']" \
    "spec error: callbacks.json: MPI_User_function: large_count = False disagrees with its parameter kinds"
bad_callback "t['MPI_User_function']['params'][2]['kind'] = 'DEGREE'; del t['MPI_User_function']['large_count']" \
    "spec error: MPI_Op_create: parameter user_fn is of large-count kind POLYFUNCTION but its callback type MPI_User_function has no large-count form"
bad_const "c['MPI_VERSION']['mpich_value_unused'] = True" \
    "spec error: constants.json: MPI_VERSION: mpich_value_unused is the reason"
bad_const "c['MPI_ABI_VERSION']['mpich_value_unused'] = 'x'; c['MPI_ABI_VERSION']['abi'] = None; c['MPI_ABI_VERSION']['in_standard_abi'] = False" \
    "spec error: constants.json: MPI_ABI_VERSION: mpich_value_unused is the reason"

# accepted FILE PY-EXPRESSION: as refused (r: the records by name), but the generator must
# accept the edit; its output goes to $TMP/edited
accepted() {
    rm -rf "$TMP/spec" "$TMP/edited" && cp -a spec "$TMP/spec"
    python3 - "$TMP/spec/$1" "$2" <<'EOF' || fail "could not edit the spec copy: $2"
import json, sys
path, edit = sys.argv[1], sys.argv[2]
recs = json.load(open(path))
r = recs if isinstance(recs, dict) else {x['name']: x for x in recs}
exec(edit)
json.dump(recs, open(path, 'w'), indent=1)
EOF
    python3 gen/generate.py "$TMP/spec" "$TMP/edited" > "$TMP/msg" 2>&1 || fail "generate.py refused '$2': $(cat "$TMP/msg")"
}
# the spec's fields, not names, decide: a rank is checked against the procedure's IN
# communicator whatever its name; hand_written and mpich_macro, not a name's suffix or prefix,
# take a procedure's body from the runtime and its prototype from MPICH's mpi.h
accepted procedures/pt2pt.json "[q.update(name='c') for q in r['MPI_Send']['params'] if q['name'] == 'comm']"
sed -n '/^FACE_API int PMPI_Send(/,/^}/p' "$TMP/edited/c/entry_pt2pt.c" | grep -q 'cf_check_rank(.*"dest", dest, a_dest, a_c, 0, 0)' \
    || fail "MPI_Send with its communicator named c: dest not checked against a_c"
grep -q 'rt_Send(' "$TMP/edited/rt_procs.h" || fail "rt_procs.h lacks rt_Send"
accepted procedures/pt2pt.json "r['MPI_Send']['hand_written'] = 'c'"
grep -q 'rt_Send(' "$TMP/edited/rt_procs.h" && fail "MPI_Send hand_written 'c' still has a runtime entry point rt_Send"
grep -q '^#define MPI_Comm_c2f(h)' "$TMP/edited/include/mpi.h" || fail "MPI_Comm_c2f is no macro in the MPICH mpi.h"
accepted procedures/handles.json "del r['MPI_Comm_c2f']['mpich_macro']"
grep -q '^MPI_Fint MPI_Comm_c2f(MPI_Comm comm);' "$TMP/edited/include/mpi.h" \
    || fail "MPI_Comm_c2f without mpich_macro has no prototype in the MPICH mpi.h"
grep -qx 'mpi_f_sync_reg_' "$TMP/edited/tests/exports_fortran.txt" || fail "the Fortran library must export mpi_f_sync_reg_"
accepted procedures/fortran.json "del r['MPI_F_sync_reg']['hand_written']"
grep -qx 'mpi_f_sync_reg_' "$TMP/edited/tests/exports_fortran.txt" \
    && fail "MPI_F_sync_reg, not hand_written, is still among the Fortran library's exports"
echo "rank_of defaults to the IN communicator by kind; hand_written and mpich_macro decide, not names"
# the handle-class table (spec/handles.json) decides a class's error class and whether its null
# handle passes where the spec says nothing
accepted handles.json "r['comm']['error_class'] = 'MPI_ERR_ARG'; r['group']['null_in'] = True"
grep -q 'cf_bad_handle(eo, fn, arg, (intptr_t)h, RT_CLASS_COMM, st, RT_ERR_ARG)' "$TMP/edited/c/conv.h" \
    || fail "an invalid communicator does not give handles.json's error_class"
sed -n '/^FACE_API int PMPI_Group_size(/,/^}/p' "$TMP/edited/c/entry_groups.c" | grep -q 'cf_group_in(NULL, FN, "group", group, 1,' \
    || fail "with null_in, MPI_Group_size does not take MPI_GROUP_NULL"
echo "the handle-class table decides error classes and null handles"
# a maximum length's too_long decides the error class of a longer string
accepted constants.json "r['MPI_MAX_INFO_KEY']['too_long'] = 'MPI_ERR_NAME'"
sed -n '/^FACE_API int PMPI_Info_set(/,/^}/p' "$TMP/edited/c/entry_info.c" \
    | grep -q 'fs_check_strlen(NULL, FN, "key", key, MPI_MAX_INFO_KEY, "MPI_MAX_INFO_KEY", RT_ERR_NAME)' \
    || fail "MPI_Info_set: a key longer than MPI_MAX_INFO_KEY does not give the constant's too_long"
echo "too_long decides the error class of an overlong string"
# mpich_value_unused, not a name, gives the standard's MPI_VERSION on the MPICH face and keeps it
# from the comparison with MPICH; value_maps, not a name list, decides a value map's members
accepted constants.json "del r['MPI_VERSION']['mpich_value_unused']"
grep -qx '#define MPI_VERSION 4' "$TMP/edited/include/mpi.h" || fail "without mpich_value_unused, mpi.h's MPI_VERSION is not MPICH's 4"
grep -q '^MPI_VERSION ' "$TMP/edited/tests/not_compared.txt" && fail "without mpich_value_unused, MPI_VERSION is still not compared"
accepted constants.json "r['MPI_ROOT']['value_maps'] = []"
grep -qx '/\* map rank: MPI_ANY_SOURCE, MPI_PROC_NULL, MPI_UNDEFINED \*/' "$TMP/edited/c/conv.h" \
    || fail "MPI_ROOT without value_maps rank is still in the rank map"
echo "mpich_value_unused and value_maps decide, not names"
# mpif.h's common blocks, first PARAMETERs and C-only constants, and a handle class's f2c stem,
# are the spec's fields
accepted constants.json "r['MPI_BUFFER_AUTOMATIC']['fortran_common']['block'] = 'MPIFCMBX'; r['MPI_STATUS_SIZE']['mpif_first'] = 0; del r['MPI_CONVERSION_FN_NULL_C']['fortran']"
grep -qx '      COMMON /MPIFCMBX/ MPI_BUFFER_AUTOMATIC' "$TMP/edited/include/mpif.h" || fail "fortran_common's block does not decide"
sed -n 4p "$TMP/edited/include/mpif.h" | grep -qx '      INTEGER MPI_STATUS_SIZE' || fail "mpif_first 0 does not put MPI_STATUS_SIZE first"
grep -q 'EXTERNAL .*MPI_CONVERSION_FN_NULL_C' "$TMP/edited/include/mpif.h" || fail "without fortran: false, MPI_CONVERSION_FN_NULL_C is no EXTERNAL"
accepted handles.json "r['datatype']['f2c'] = 'Datatype'"
grep -q 'PMPI_Datatype_f2c(' "$TMP/edited/fortran_abi/entry.c" && ! grep -q 'PMPI_Type_f2c(' "$TMP/edited/fortran_abi/entry.c" \
    || fail "handles.json's f2c does not name the Fortran face's converter"
echo "fortran_common, mpif_first, fortran and f2c decide, not names"

# the spec as it is: generated checks follow its fields
python3 gen/generate.py spec "$TMP/out" || fail "generate.py failed on spec/"
fn() { sed -n "/^FACE_API int PMPI_$1(/,/^}/p" "$TMP/out/c/entry_$2.c"; }
fn Send pt2pt | grep -q 'cf_check_rank(.*"dest", dest, a_dest, a_comm, 0, 0)' || fail "MPI_Send: dest not checked (0, 0)"
fn Recv pt2pt | grep -q 'cf_check_rank(.*"source", source, a_source, a_comm, 1, 0)' || fail "MPI_Recv: source must take MPI_ANY_SOURCE"
fn Recv pt2pt | grep -q 'cf_check_tag(.*"tag", tag, a_tag, 1)' || fail "MPI_Recv: tag must take MPI_ANY_TAG"
fn Send pt2pt | grep -q 'cf_check_tag(.*"tag", tag, a_tag, 0)' || fail "MPI_Send: tag must refuse MPI_ANY_TAG"
fn Bcast collectives | grep -q 'cf_check_rank(.*"root", root, a_root, a_comm, 0, 1)' || fail "MPI_Bcast: root rules"
fn Waitsome pt2pt | grep -q 'i_ < (int)(\*outcount)' || fail "MPI_Waitsome: statuses filled up to *outcount"
fn Testall pt2pt | grep -q 'if (a_array_of_statuses && \*flag) for' || fail "MPI_Testall: statuses copied when flag is false"
fn Info_get_nkeys info | grep -q 'cf_info_in(NULL, FN, "info", info, 0,' || fail "MPI_Info_get_nkeys must refuse MPI_INFO_NULL"
fn Comm_set_info communicators | grep -q 'cf_info_in(.*"info", info, 1,' || fail "MPI_Comm_set_info must take MPI_INFO_NULL"
# MPI_Comm_spawn's command is significant only at the root: others may pass NULL
fn Comm_spawn dynamic | grep -q "if ((role_ & FS_ROLE_ROOT)) { if (!command)" || fail "MPI_Comm_spawn checks command at non-roots"
# a kind's error_class (an RMA target displacement: MPI_ERR_DISP), a datatype's committed, an
# INOUT position's check on the value it points to
fn Put rma | grep -q 'if (a_target_disp < 0) { rc_ = rt_raise(.*RT_ERR_DISP, FN, "invalid argument .target_disp.' \
    || fail "MPI_Put: target_disp not checked with RT_ERR_DISP"
fn Put_c rma | grep -q 'rt_type_commit_check(.*"target_datatype", a_target_datatype)' \
    || fail "MPI_Put_c: target_datatype's commit not checked"
fn Pack_c datatypes | grep -q 'if ((\*position) < 0) { rc_ = rt_raise(.*RT_ERR_ARG, FN, "invalid argument .position.' \
    || fail "MPI_Pack_c: position not checked"
fn Type_indexed datatypes | grep -q 'displacements.* < 0' && fail "MPI_Type_indexed: negative displacements refused"
echo "generated checks follow the spec's accepts, entries/filled/written_if, not_null, significant, committed and error_class fields"
# MPIX error classes (spec: standard_class) reach a standard-ABI user as standard classes, from
# the runtime (4101.. -> MPI_ERR_PROC_ABORTED 58, MPI_ERR_OTHER 16) and from MPICH (101..); the
# MPICH face keeps them (4101 -> 101); the standard-ABI face takes error codes unchanged
out_map() { sed -n "/^static inline int $1_error_code_out(/,/^}/p" "$TMP/out/$2"; }
for m in "af abi/conv.h 4101 58" "af abi/conv.h 4102 58" "af abi/conv.h 4103 16" "af abi/conv.h 4105 16" \
         "afb abi/backend_mpich.c 101 58" "afb abi/backend_mpich.c 102 58" "afb abi/backend_mpich.c 104 16" \
         "cf c/conv.h 4101 101" "cf c/conv.h 4105 105"; do
    set -- $m
    out_map "$1" "$2" | grep -q "^    case $3: return $4; /\\* MPIX_" || fail "$1_error_code_out does not map $3 to $4"
done
grep -q '^#define af_error_code_in(x) (x)$' "$TMP/out/abi/conv.h" || fail "af_error_code_in is no longer the identity"
echo "MPIX error classes map to their standard_class on the standard ABI, stay MPIX on the MPICH face"
# The nonblocking (MPI_Ix) and persistent (MPI_X_init) forms of a collective leave unused and
# unchecked the same arguments as its blocking form (significant, unused_if_in_place)
python3 - <<'PY' || fail "a collective's forms disagree on which arguments are unused"
import json, sys
recs = {r['name']: r for r in json.load(open('spec/procedures/collectives.json'))}
marks = lambda r: {q['name']: (q.get('significant'), q.get('unused_if_in_place')) for q in r['params']}
bad = []
for name, r in recs.items():
    for form in ('MPI_I' + name[4].lower() + name[5:], name + '_init'):
        if form in recs:
            want, got = marks(r), marks(recs[form])
            bad += ['%s %s: %s, %s: %s' % (form, p, got[p], name, want[p]) for p in want if p in got and got[p] != want[p]]
print('\n'.join(bad), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
echo "the blocking, nonblocking and persistent forms of every collective mark the same arguments unused"
