# buildsys_meson.sh — Meson's dependency('mpi') for C and C++ picks Switchyard: by pkg-config with
# PKG_CONFIG_PATH naming its lib/pkgconfig (the default method), or by config tool with its bin/ first on PATH.
. tests/sh/buildsys_common.sh
# make check-sanitize's SWITCHYARD_WRAPPER_FLAGS (the sanitizer flags) stays out: Meson keeps only
# -L/-l/-Wl words of the wrappers' link flags, so its programs would be compiled instrumented and
# linked without the sanitizer runtime. The wrappers are tested as installed; run2 preloads the runtime.
unset SWITCHYARD_WRAPPER_FLAGS
command -v meson >/dev/null || skip "meson is not installed (tools/deps.sh installs it)"
command -v ninja >/dev/null || skip "ninja is not installed (tools/deps.sh installs ninja-build)"
# setup DIR METHOD WANT: configures with -Dmpi_method=METHOD, checks that MPI for c and cpp was
# found with version WANT (Switchyard's), builds, and runs both programs on 2 ranks.
setup() {
    meson setup "$1" "$PROJ" -Dmpi_method="$2" > "$1.log" 2>&1 || { cat "$1.log" >&2; fail "meson setup failed ($2)"; }
    for lang in c cpp; do
        got=$(sed -n "s/^Run-time dependency MPI for $lang found: YES //p" "$1.log")
        [ "$got" = "$3" ] || fail "Meson ($2) found MPI for $lang '$got', not Switchyard's '$3'"
    done
    ninja -C "$1" > "$1.build.log" 2>&1 || { cat "$1.build.log" >&2; fail "ninja failed ($2)"; }
    run2 "$B" "$1/sum_c" "$WANT_C"
    run2 "$B" "$1/sum_cxx" "$WANT_CXX"
}
# The default method tries pkg-config first, under Open MPI's names (ompi-c, ompi-cxx): Switchyard's
# lib/pkgconfig has them, so PKG_CONFIG_PATH chooses it over Debian's Open MPI.
PKG_CONFIG_PATH="$B/lib/pkgconfig" setup "$TMP/pc" auto 0.1
# The config tool (MPICC or mpicc, MPICXX or mpic++/mpicxx/mpiCC, asked --showme:compile/link):
# Meson tries every name and keeps the highest version, so Switchyard's bin/ must come first on PATH.
PATH="$B/bin:$PATH" setup "$TMP/tool" config-tool "Switchyard 0.1 (MPI 5.0)"
PATH="$B/bin:$PATH" MPICC="$B/bin/mpicc" MPICXX="$B/bin/mpicxx" setup "$TMP/toolenv" config-tool "Switchyard 0.1 (MPI 5.0)"
echo "Meson's dependency('mpi') picks Switchyard by PKG_CONFIG_PATH and by PATH"
