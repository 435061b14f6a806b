# nodemap_parse.sh — unit test of the node map parser (runtime/core/p2p/nodemap.c, Hydra's
# PMI_process_mapping format), built alone with the sanitizers.
. tests/sh/lib.sh
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all"
echo 'int main(void){return 0;}' > "$TMP/s.c"
gcc $SAN -o "$TMP/s" "$TMP/s.c" 2>/dev/null && "$TMP/s" 2>/dev/null || SAN=
gcc -std=gnu11 -g -Wall -Wextra -Werror $SAN -Iruntime/core/p2p -o "$TMP/t_nodemap" \
    tests/sh/nodemap/t_nodemap.c runtime/core/p2p/nodemap.c || fail "cannot build t_nodemap"
"$TMP/t_nodemap" || fail "the node map parser"
