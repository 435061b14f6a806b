# Second stage of the build (called by Makefile once build/gen exists): objects, the runtime
# archive, libmpi.so.12 (MPICH ABI), libmpifort.so.12, libmpichfort.so.12 (MPICH's f08 entry
# points), libmpi_abi.so.1, libmpifort_abi.so.1, headers, wrappers.
GEN := $(BUILD)/gen
OBJ := $(BUILD)/obj
LIB := $(BUILD)/lib
BIN := $(BUILD)/bin
INC := $(BUILD)/include

RT_SRC := $(wildcard runtime/core/*/*.c runtime/transport/*/*.c) runtime/launch/pmi.c runtime/launch/pmi_wire.c \
	$(GEN)/rt_builtins.c $(GEN)/rt_stubs.c
C_SRC := $(wildcard bindings/c/*.c bindings/common/*.c) $(wildcard $(GEN)/c/*.c)
F_SRC := $(wildcard bindings/fortran/*.c) $(wildcard $(GEN)/fortran/*.c)
ABI_SRC := $(wildcard abi/*.c bindings/common/*.c) $(wildcard $(GEN)/abi/*.c)
FABI_SRC := $(wildcard bindings/fortran/*.c) $(GEN)/fortran_abi/entry.c
MF_SRC := $(wildcard bindings/mpichfort/*.c) $(GEN)/mpichfort/translate.c

obj = $(patsubst %.c,$(OBJ)/$(1)/%.o,$(subst $(GEN)/,gen/,$(2)))
RT_OBJ := $(call obj,rt,$(RT_SRC))
C_OBJ := $(call obj,c,$(C_SRC))
F_OBJ := $(call obj,fortran,$(F_SRC))
ABI_OBJ := $(call obj,abi,$(ABI_SRC))
FABI_OBJ := $(call obj,fabi,$(FABI_SRC))
MF_OBJ := $(call obj,mpichfort,$(MF_SRC))

RT_INC := -Iruntime/include -I$(GEN) -Iruntime/launch -Iruntime/transport
C_INC := $(RT_INC) -I$(INC) -Ibindings/common -Ibindings/c -I$(GEN)/c
F_INC := $(RT_INC) -I$(INC) -Ibindings/common -Ibindings/c -Ibindings/fortran -I$(GEN)/c -I$(GEN)/fortran
ABI_INC := $(RT_INC) -I$(INC)/abi -Ibindings/common -Iabi -I$(GEN)/abi
MF_INC := $(F_INC) -Ibindings/mpichfort
FABI_INC := -DFF_ABI -I$(INC)/abi -Ibindings/fortran

HEADERS := $(INC)/mpi.h $(INC)/abi/mpi.h $(INC)/abi/mpi_legacy.h $(INC)/mpif.h $(INC)/abi/mpif.h
# The version the wrappers report: the one the generated headers carry.
VERSION := $(shell sed -n 's/^\#define SWITCHYARD_VERSION "\(.*\)"/\1/p' gen/templates/mpi_mpich.h.j2)
WRAPPERS := $(BIN)/switchyard_info $(BIN)/mpicc $(BIN)/mpicxx $(BIN)/mpic++ $(BIN)/mpiCC $(BIN)/mpicc_abi $(BIN)/mpifort $(BIN)/mpif77 $(BIN)/mpif90 \
	$(BIN)/mpifort_abi
LIBS_OUT := $(LIB)/libmpi.so.12 $(LIB)/libmpich.so.12 $(LIB)/libmpi.so $(LIB)/libmpifort.so.12 \
	$(LIB)/libmpifort.so $(LIB)/libmpichfort.so.12 $(LIB)/libmpi_abi.so.1 $(LIB)/libmpi_abi.so $(LIB)/libmpifort_abi.so.1 \
	$(LIB)/libmpifort_abi.so

.PHONY: all
all: $(HEADERS) $(LIB)/libswitchyard_rt.a $(LIBS_OUT) $(WRAPPERS) $(INC)/mpi.mod $(INC)/abi/mpi.mod \
	$(INC)/mpi_f08.mod

$(INC)/%: $(GEN)/include/%
	@mkdir -p $(dir $@)
	cp $< $@

$(OBJ)/rt/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(RT_INC) -Iruntime/core -MMD -MP -c $< -o $@
$(OBJ)/rt/gen/%.o: $(GEN)/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(RT_INC) -MMD -MP -c $< -o $@
$(OBJ)/c/%.o: %.c $(INC)/mpi.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(C_INC) -MMD -MP -c $< -o $@
# The C face's entry points start on a cache line: the fast path of a call such as
# MPI_Comm_rank (64 bytes) then sits in one line wherever the link places it (a layout
# change once moved it across two, 15% slower per call; docs/internals.md, "parts").
$(OBJ)/c/gen/%.o: $(GEN)/%.c $(INC)/mpi.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -falign-functions=64 $(C_INC) -MMD -MP -c $< -o $@
$(OBJ)/fortran/%.o: %.c $(INC)/mpi.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(F_INC) -MMD -MP -c $< -o $@
$(OBJ)/fortran/gen/%.o: $(GEN)/%.c $(INC)/mpi.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(F_INC) -MMD -MP -c $< -o $@
$(OBJ)/mpichfort/%.o: %.c $(INC)/mpi.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(MF_INC) -MMD -MP -c $< -o $@
$(OBJ)/mpichfort/gen/%.o: $(GEN)/%.c $(INC)/mpi.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(MF_INC) -MMD -MP -c $< -o $@
$(OBJ)/abi/%.o: %.c $(INC)/abi/mpi.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(ABI_INC) -MMD -MP -c $< -o $@
$(OBJ)/abi/gen/%.o: $(GEN)/%.c $(INC)/abi/mpi.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(ABI_INC) -MMD -MP -c $< -o $@
$(OBJ)/fabi/%.o: %.c $(INC)/abi/mpi.h $(INC)/abi/mpi_legacy.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(FABI_INC) -MMD -MP -c $< -o $@
$(OBJ)/fabi/gen/%.o: $(GEN)/%.c $(INC)/abi/mpi.h $(INC)/abi/mpi_legacy.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(FABI_INC) -MMD -MP -c $< -o $@

$(LIB)/libswitchyard_rt.a: $(RT_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

# The runtime goes in whole, so that its strong rt_<Name>() definitions replace the weak stubs.
$(LIB)/libmpi.so.12: $(C_OBJ) $(LIB)/libswitchyard_rt.a
	$(CC) $(LDFLAGS_SO) -Wl,-soname,libmpi.so.12 -o $@ $(C_OBJ) \
		-Wl,--whole-archive $(LIB)/libswitchyard_rt.a -Wl,--no-whole-archive $(LIBS)
$(LIB)/libmpich.so.12 $(LIB)/libmpi.so: $(LIB)/libmpi.so.12
	ln -sf libmpi.so.12 $@

# (with the objects of the mpi_f08 module, its == and /= on handles, and of the mpi module: the
# procedures of both written in Fortran, MPI_Sizeof; libffi for the closures of fcallbacks.c)
$(LIB)/libmpifort.so.12: $(F_OBJ) $(OBJ)/mpi_f08.o $(INC)/mpi.mod $(LIB)/libmpi.so.12
	$(CC) $(LDFLAGS_SO) -Wl,-soname,libmpifort.so.12 -Wl,-rpath,'$$ORIGIN' -o $@ $(F_OBJ) $(OBJ)/mpi_f08.o $(OBJ)/mpi_module.o \
		-L$(LIB) -lmpi $(LIBS) -lffi
$(LIB)/libmpifort.so: $(LIB)/libmpifort.so.12
	ln -sf libmpifort.so.12 $@

# MPICH's f08 entry points (mpifort.mpich's `use mpi_f08` programs): Fortran procedures over
# libmpifort's mpi_f08 C functions; libgfortran converts its descriptors to C ones.
$(LIB)/libmpichfort.so.12: $(MF_OBJ) $(OBJ)/mpichfort_entries.o $(LIB)/libmpifort.so.12
	$(CC) $(LDFLAGS_SO) -Wl,-soname,libmpichfort.so.12 -Wl,-rpath,'$$ORIGIN' -o $@ $(MF_OBJ) \
		$(OBJ)/mpichfort_entries.o -L$(LIB) -lmpifort -lmpi $(LIBS)
$(OBJ)/mpichfort_entries.o: $(GEN)/mpichfort/entries.f90 $(INC)/mpi_f08.mod
	@mkdir -p $(OBJ)/mpichfort
	$(FC) -c -fPIC -g -O2 -I$(INC) -J$(OBJ)/mpichfort $(SAN) $< -o $@

$(LIB)/libmpi_abi.so.1: $(ABI_OBJ) $(LIB)/libswitchyard_rt.a
	$(CC) $(LDFLAGS_SO) -Wl,-soname,libmpi_abi.so.1 -o $@ $(ABI_OBJ) \
		-Wl,--whole-archive $(LIB)/libswitchyard_rt.a -Wl,--no-whole-archive $(LIBS) -lffi
$(LIB)/libmpi_abi.so: $(LIB)/libmpi_abi.so.1
	ln -sf libmpi_abi.so.1 $@

# The Fortran face over the standard ABI: a client of libmpi_abi.so.1 only, so that it runs on
# every backend the shim forwards to.
$(LIB)/libmpifort_abi.so.1: $(FABI_OBJ) $(INC)/abi/mpi.mod $(LIB)/libmpi_abi.so
	$(CC) $(LDFLAGS_SO) -Wl,-soname,libmpifort_abi.so.1 -Wl,-rpath,'$$ORIGIN' -o $@ $(FABI_OBJ) $(OBJ)/mpi_module_abi.o \
		-L$(LIB) -lmpi_abi -lffi
$(LIB)/libmpifort_abi.so: $(LIB)/libmpifort_abi.so.1
	ln -sf libmpifort_abi.so.1 $@

$(INC)/mpi.mod: $(GEN)/fortran/mpi_module.f90 $(INC)/mpif.h
	@mkdir -p $(INC) $(OBJ)
	cd $(INC) && $(FC) -c -fPIC -g -O2 -fno-range-check $(SAN) -I. $(abspath $<) -o $(abspath $(OBJ))/mpi_module.o
# The mpi_f08 module: its .mod next to mpi.mod, its object in libmpifort.so.12 (one rule makes both).
$(INC)/mpi_f08.mod: $(OBJ)/mpi_f08.o
$(OBJ)/mpi_f08.o: $(GEN)/fortran/mpi_f08.f90
	@mkdir -p $(INC) $(OBJ)
	cd $(INC) && $(FC) -c -fPIC -g -O2 -fno-range-check $(SAN) $(abspath $<) -o $(abspath $(OBJ))/mpi_f08.o
$(INC)/abi/mpi.mod: $(GEN)/fortran_abi/mpi_module.f90 $(INC)/abi/mpif.h
	@mkdir -p $(INC)/abi $(OBJ)
	cd $(INC)/abi && $(FC) -c -fPIC -g -O2 -fno-range-check $(SAN) -I. $(abspath $<) -o $(abspath $(OBJ))/mpi_module_abi.o

$(BIN)/.mpiwrap: bindings/wrappers/.mpiwrap.in
	@mkdir -p $(dir $@)
	sed -e 's|@VERSION@|$(VERSION)|g' $< > $@
	chmod +x $@
$(BIN)/%: bindings/wrappers/%.in $(BIN)/.mpiwrap
	@mkdir -p $(dir $@)
	sed -e 's|@CC@|$(CC)|g' -e 's|@FC@|$(FC)|g' -e 's|@CXX@|$(CXX)|g' -e 's|@VERSION@|$(VERSION)|g' $< > $@
	chmod +x $@
$(BIN)/mpif77 $(BIN)/mpif90: $(BIN)/mpifort
	ln -sf mpifort $@
$(BIN)/mpic++ $(BIN)/mpiCC: $(BIN)/mpicxx
	ln -sf mpicxx $@

# pkg-config files, prefix relative to their own place: the names build systems look up for
# MPI, and Open MPI's ompi-* that Meson asks for first (found when PKG_CONFIG_PATH names ours).
PC_C := switchyard mpi mpi-c mpi-cxx ompi-c ompi-cxx
PC_F := mpi-fort ompi-fort
PC_FILES := $(patsubst %,$(LIB)/pkgconfig/%.pc,$(PC_C) $(PC_F) mpi-abi)
all: $(PC_FILES)
$(PC_C:%=$(LIB)/pkgconfig/%.pc): $(LIB)/pkgconfig/%.pc: bindings/pkgconfig/mpi-c.pc.in
$(PC_F:%=$(LIB)/pkgconfig/%.pc): $(LIB)/pkgconfig/%.pc: bindings/pkgconfig/mpi-fort.pc.in
$(LIB)/pkgconfig/mpi-abi.pc: $(LIB)/pkgconfig/%.pc: bindings/pkgconfig/mpi-abi.pc.in
$(PC_FILES):
	@mkdir -p $(dir $@)
	sed -e 's|@NAME@|$*|g' -e 's|@VERSION@|$(VERSION)|g' $< > $@

-include $(RT_OBJ:.o=.d) $(C_OBJ:.o=.d) $(F_OBJ:.o=.d) $(ABI_OBJ:.o=.d) $(FABI_OBJ:.o=.d) $(MF_OBJ:.o=.d)

# --- the launcher: $(BIN)/mpiexec (+ mpirun) from runtime/launch/mpiexec*.c and pmi_wire.c
LAUNCH_SRC := $(wildcard runtime/launch/mpiexec*.c) runtime/launch/pmi_wire.c
LAUNCH_OBJ := $(call obj,launch,$(LAUNCH_SRC))
all: $(BIN)/mpiexec $(BIN)/mpirun
$(OBJ)/launch/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Iruntime/launch -DMX_VERSION='"$(VERSION)"' -MMD -MP -c $< -o $@
$(BIN)/mpiexec: $(LAUNCH_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -o $@ $(LAUNCH_OBJ)
$(BIN)/mpirun: $(BIN)/mpiexec
	ln -sf mpiexec $@
-include $(LAUNCH_OBJ:.o=.d)
