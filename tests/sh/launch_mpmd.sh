# launch_mpmd.sh — mpiexec's MPMD colon syntax: each part runs its own program with its own
# -n, arguments and -env; -genv and other global flags reach every part; MPI_COMM_WORLD spans
# all parts and MPI_APPNUM is the part's index; bad lines are usage errors naming the part.
. tests/sh/launch_common.sh
cat > "$TMP/who.c" <<'C'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
    int rank, size, flag, *appnum, sum = 0, one = 1;
    char args[256] = "";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 1; i < argc; i++) {
        strncat(args, i > 1 ? "," : "", sizeof args - strlen(args) - 1);
        strncat(args, argv[i], sizeof args - strlen(args) - 1);
    }
    const char *p = getenv("PART"), *g = getenv("GLOBAL");
    printf("rank=%d size=%d sum=%d appnum=%d prog=%s args=%s part=%s global=%s\n", rank, size,
           sum, flag ? *appnum : -1, strrchr(argv[0], '/') + 1, args, p ? p : "-", g ? g : "-");
    MPI_Finalize();
    return 0;
}
C
"$BUILD/bin/mpicc" -o "$TMP/a" "$TMP/who.c" || fail "cannot build the test program"
cp "$TMP/a" "$TMP/b"
cp "$TMP/a" "$TMP/c"

run -l --timeout 60 -genv GLOBAL g -n 1 -env PART one "$TMP/a" x "y z" : -n 2 -env PART two "$TMP/b" -n 5 : "$TMP/c"
check "3 parts: exit code $rc" [ "$rc" = 0 ]
sorted=$(printf '%s\n' "$out" | sort)
want="[0] rank=0 size=4 sum=4 appnum=0 prog=a args=x,y z part=one global=g
[1] rank=1 size=4 sum=4 appnum=1 prog=b args=-n,5 part=two global=g
[2] rank=2 size=4 sum=4 appnum=1 prog=b args=-n,5 part=two global=g
[3] rank=3 size=4 sum=4 appnum=2 prog=c args= part=- global=g"
check "3 parts: ranks, sizes, args, env and APPNUM" [ "$sorted" = "$want" ]

# -env of a part wins over -genv for that part only; the others keep -genv's value
run -genv PART g -n 1 "$TMP/a" : -n 1 -env PART own "$TMP/b"
check "-env over -genv: exit code $rc" [ "$rc" = 0 ]
check "-env over -genv: part 1" has "$out" "rank=0 size=2 sum=2 appnum=0 prog=a args= part=g"
check "-env over -genv: part 2" has "$out" "rank=1 size=2 sum=2 appnum=1 prog=b args= part=own"

# a single part: APPNUM 0, no ':' in the arguments, and non-MPI programs still run
run -n 2 "$TMP/a" p q
check "one part: exit code $rc" [ "$rc" = 0 ]
check "one part: APPNUM 0 on both ranks" [ "$(grep -c 'size=2 sum=2 appnum=0 prog=a args=p,q ' "$TMP/out")" = 2 ]
run -n 2 hostname
check "-n 2 hostname: exit code $rc" [ "$rc" = 0 ]
check "-n 2 hostname: two lines" [ "$(wc -l < "$TMP/out")" = 2 ]
run -n 1 echo one : -n 2 echo two
check "non-MPI parts: exit code $rc" [ "$rc" = 0 ]
check "non-MPI parts: output" [ "$(sort "$TMP/out" | tr '\n' ' ')" = "one two two " ]

# usage errors name the part
usage() { # $1: expected message, the rest: the command line
    local msg=$1
    shift
    run "$@"
    check "'mpiexec $*': exit code $rc, expected 2" [ "$rc" = 2 ]
    check "'mpiexec $*': message '$msg'" has "$err" "mpiexec: $msg"
    check "'mpiexec $*': nothing ran" [ -z "$out" ]
}
usage "part 2 of 3: the part is empty" -n 1 "$TMP/a" : : -n 1 "$TMP/b"
usage "part 2 of 2: the part is empty" -n 1 "$TMP/a" :
usage "part 1 of 2: the part is empty" : -n 1 "$TMP/b"
usage "part 2 of 2: no program to run" -n 1 "$TMP/a" : -n 2
usage "part 2 of 2: no program to run" -n 1 "$TMP/a" : -n 2 -env A 1 --
usage "part 2 of 2: -n needs a number of ranks" -n 1 "$TMP/a" : -n 0 "$TMP/b"
usage "part 1 of 2: -n needs a number of ranks" -n 0 "$TMP/a" : -n 1 "$TMP/b"
usage "part 2 of 3: -env needs NAME VALUE" -n 1 "$TMP/a" : -env A : -n 1 "$TMP/b"
usage "4097 ranks in all; at most 4096" -n 4096 "$TMP/a" : -n 1 "$TMP/b"
run -n 1 "$TMP/a" : -n 1 /no/such/program
check "missing program in part 2: exit code $rc" [ "$rc" = 127 ]
check "missing program in part 2: message" has "$err" "/no/such/program"
echo "MPMD command lines work"
