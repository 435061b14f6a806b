# install.mk — `make install PREFIX=/usr/local DESTDIR=`: copies build/ into bin/, lib/ (sonames,
# links, pkgconfig/) and include/; nothing in the tree names its prefix, so it can be moved.
BUILD ?= build
PREFIX ?= /usr/local
DESTDIR ?=
D := $(abspath $(DESTDIR)$(PREFIX))
BIN_FILES := .mpiwrap mpicc mpicxx mpicc_abi mpifort mpifort_abi mpiexec switchyard_info
BIN_LINKS := mpic++ mpiCC mpif77 mpif90 mpirun
LIB_FILES := libmpi.so.12 libmpifort.so.12 libmpichfort.so.12 libmpi_abi.so.1 libmpifort_abi.so.1
LIB_LINKS := libmpich.so.12 libmpi.so libmpifort.so libmpi_abi.so libmpifort_abi.so

.PHONY: install
install:
	@test -n "$(PREFIX)" || { echo "install: PREFIX is empty" >&2; exit 1; }
	mkdir -p "$(D)/bin" "$(D)/lib/pkgconfig" "$(D)/include"
	cd $(BUILD)/bin && cp -f $(BIN_FILES) "$(D)/bin/" && cp -fP $(BIN_LINKS) "$(D)/bin/"
	cd $(BUILD)/lib && cp -f $(LIB_FILES) "$(D)/lib/" && cp -fP $(LIB_LINKS) "$(D)/lib/"
	cp -f $(BUILD)/lib/pkgconfig/*.pc "$(D)/lib/pkgconfig/"
	cp -fRP $(BUILD)/include/. "$(D)/include/"
