# gen_spec.sh — the generator refuses bad spec data with a message naming the record (unknown
# fields, kinds, accepts, entries), and the spec's fields, not names, decide what the faces check.
. tests/sh/lib.sh
# bad PY-EXPRESSION WANT: edit a copy of the spec (p: MPI_Send's params by name, r: its record),
# generate, and expect failure with WANT in the message
bad() {
    rm -rf "$TMP/spec" && cp -a spec "$TMP/spec"
    python3 - "$TMP/spec/procedures/pt2pt.json" "$1" <<'EOF' || fail "could not edit the spec copy: $1"
import json, sys
path, edit = sys.argv[1], sys.argv[2]
recs = json.load(open(path))
r = next(x for x in recs if x['name'] == 'MPI_Send')
p = {q['name']: q for q in r['params']}
exec(edit)
json.dump(recs, open(path, 'w'), indent=1)
EOF
    python3 gen/generate.py "$TMP/spec" "$TMP/out" > "$TMP/msg" 2>&1 && fail "generate.py accepted: $1"
    grep -qF -- "$2" "$TMP/msg" || fail "after '$1' the message is '$(cat "$TMP/msg")', not '$2'"
    echo "refused ($1): $(cat "$TMP/msg")"
}
bad "p['dest']['acepts'] = ['MPI_PROC_NULL']" \
    "spec error: procedures/pt2pt.json: MPI_Send: parameter 'dest' has unknown field 'acepts'"
bad "r['colective'] = True" "spec error: procedures/pt2pt.json: MPI_Send: unknown field 'colective'"
bad "p['dest']['kind'] = 'RANKK'" "spec error: procedures/pt2pt.json: MPI_Send: parameter 'dest' has unknown kind 'RANKK'"
bad "p['dest']['accepts'] = ['MPI_ANY_TAG']" \
    "spec error: procedures/pt2pt.json: MPI_Send: parameter 'dest': accepts ['MPI_ANY_TAG']: a rank accepts one of"
bad "p['tag']['accepts'] = ['MPI_PROC_NULL']" \
    "spec error: procedures/pt2pt.json: MPI_Send: parameter 'tag': accepts ['MPI_PROC_NULL']: a tag accepts one of"
bad "p['count']['accepts'] = []" \
    "spec error: procedures/pt2pt.json: MPI_Send: parameter 'count': accepts applies to ranks and tags, not to kind POLYXFER_NUM_ELEM_NNI"
bad "p['comm']['name'] = 'c'" \
    "spec error: procedures/pt2pt.json: MPI_Send: parameter 'dest': accepts: a checked rank needs an IN communicator 'comm'"
bad "p['buf']['entries'] = 'count'" \
    "spec error: procedures/pt2pt.json: MPI_Send: parameter 'buf': entries and filled apply to '*'-long arrays"
bad "p['buf']['not_null'] = True" \
    "spec error: procedures/pt2pt.json: MPI_Send: parameter 'buf': not_null applies to IN handles"

# the spec as it is: generated checks follow its fields
python3 gen/generate.py spec "$TMP/out" || fail "generate.py failed on spec/"
fn() { sed -n "/^FACE_API int PMPI_$1(/,/^}/p" "$TMP/out/c/entry_$2.c"; }
fn Send pt2pt | grep -q 'cf_check_rank(.*"dest", dest, a_dest, a_comm, 0, 0)' || fail "MPI_Send: dest not checked (0, 0)"
fn Recv pt2pt | grep -q 'cf_check_rank(.*"source", source, a_source, a_comm, 1, 0)' || fail "MPI_Recv: source must take MPI_ANY_SOURCE"
fn Recv pt2pt | grep -q 'cf_check_tag(.*"tag", tag, a_tag, 1)' || fail "MPI_Recv: tag must take MPI_ANY_TAG"
fn Send pt2pt | grep -q 'cf_check_tag(.*"tag", tag, a_tag, 0)' || fail "MPI_Send: tag must refuse MPI_ANY_TAG"
fn Bcast collectives | grep -q 'cf_check_rank(.*"root", root, a_root, a_comm, 0, 1)' || fail "MPI_Bcast: root rules"
fn Waitsome pt2pt | grep -q 'i_ < (int)(\*outcount)' || fail "MPI_Waitsome: statuses filled up to *outcount"
fn Info_get_nkeys info | grep -q 'cf_info_in(NULL, FN, "info", info, 0,' || fail "MPI_Info_get_nkeys must refuse MPI_INFO_NULL"
fn Comm_set_info communicators | grep -q 'cf_info_in(.*"info", info, 1,' || fail "MPI_Comm_set_info must take MPI_INFO_NULL"
# MPI_Comm_spawn's command is significant only at the root: others may pass NULL
fn Comm_spawn dynamic | grep -q "if ((role_ & FS_ROLE_ROOT)) { if (!command)" || fail "MPI_Comm_spawn checks command at non-roots"
echo "generated checks follow the spec's accepts, entries/filled, not_null and significant fields"
