# layers.sh — runtime/core keeps its layers (runtime/core/layers.txt, tools/layer_check.py): no
# include or call of a higher part, no private header of another part; and the check sees each.
. tests/sh/lib.sh
OBJS="$BUILD/obj/rt/runtime/core"
[ -d "$OBJS/obj" ] || fail "$OBJS/obj: build first"
python3 tools/layer_check.py runtime/core "$OBJS" > "$TMP/out" 2>&1 || { cat "$TMP/out"; fail "runtime/core breaks its layers"; }
tail -1 "$TMP/out"

# the check itself: a copy of the tree with one planted breach of each kind must fail, naming it
cp -r runtime "$TMP/runtime"
cp -r "$OBJS" "$TMP/objs"
core="$TMP/runtime/core"
expect() { # what-the-check-must-print
    python3 tools/layer_check.py "$core" "$TMP/objs" > "$TMP/out" 2>&1 && fail "a planted breach passed: $1"
    grep -qF "$1" "$TMP/out" || { cat "$TMP/out"; fail "the check did not report: $1"; }
}
echo '#include "win/win.h"' >> "$core/group/group.c"
expect "group/group.c: win/win.h: part win is above part group"
sed -i '$d' "$core/group/group.c"
echo '#include "obj/obj_registry.h"' >> "$core/topo/topo.c"
expect "topo/topo.c: obj/obj_registry.h: a private header of part obj"
sed -i '$d' "$core/topo/topo.c"
echo '#include "p2p.h"' >> "$core/type/type.c"
expect "type/type.c: p2p.h: not a header of its own part"
sed -i '$d' "$core/type/type.c"
sed -i 's|^#include "obj.h"$|#include "rt_internal.h"|' "$core/obj/obj.c"
expect "obj/obj.c: rt_internal.h: it brings part err, above part obj"
cp runtime/core/obj/obj.c "$core/obj/obj.c"
mkdir "$core/stray" && expect "stray/: a folder that layers.txt does not name as a part" && rmdir "$core/stray"
echo 'allow info/info.c rt__win_destroy' >> "$core/layers.txt"
expect "info/info.c: rt__win_destroy: an exception of layers.txt that no longer occurs"
sed -i '$d' "$core/layers.txt"
printf 'void rt__win_destroy(void *);\nvoid planted(void) { rt__win_destroy(0); }\n' > "$core/group/planted.c"
gcc -c -o "$TMP/objs/group/planted.o" "$core/group/planted.c" || fail "cannot build the planted object"
expect "group/planted.c: rt__win_destroy: defined by part win, above part group"
rm "$TMP/objs/group/planted.o" "$core/group/planted.c"
python3 tools/layer_check.py "$core" "$TMP/objs" > "$TMP/out" 2>&1 || { cat "$TMP/out"; fail "the copy does not pass once the breaches are gone"; }
echo "ok: each planted breach is reported"
