#!/bin/sh
# deps.sh — installs the Debian packages the build and the tests need, if any is missing.
# Called by `make example` and `make check`; does nothing when everything is there.
set -e
need="gcc g++ make gfortran libffi-dev python3-jinja2 mpich libmpich-dev openmpi-bin libopenmpi-dev iproute2 binutils cmake meson ninja-build pkg-config libssl-dev scalapack-mpi-test libcoarrays-mpich-dev libhdf5-mpich-dev"
missing=""
for p in $need; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "deps.sh: installing$missing"
if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq $missing > /dev/null
