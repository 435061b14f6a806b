# tests.mk: builds the test programs into $(BUILD)/tests/{c,abi,fortran,fabi}/ with
# the wrapper compilers (fabi: the Fortran tests over the standard ABI, mpifort_abi);
# included by the top Makefile, which defines BUILD.
#
# Against another MPI, e.g. Debian's MPICH:
#   make -f tests/tests.mk BUILD=/tmp/mpichtests TESTS_FACES="c fortran" \
#        TESTS_MPICC=mpicc.mpich TESTS_MPIFORT=mpifort.mpich tests

TESTS_SAVED_GOAL := $(.DEFAULT_GOAL)
BUILD           ?= build
TESTS_MPICC     ?= $(BUILD)/bin/mpicc
TESTS_MPICC_ABI ?= $(BUILD)/bin/mpicc_abi
TESTS_MPIFORT   ?= $(BUILD)/bin/mpifort
TESTS_MPIFORT_ABI ?= $(BUILD)/bin/mpifort_abi
TESTS_FACES     ?= c abi fortran fabi
# generated test sources (gen/emit_badinput.py: bad_handles_cases.h)
TESTS_GEN       ?= $(BUILD)/gen/tests
TESTS_CFLAGS    := -Wall -Wextra -Werror -g -Itests/c -I$(TESTS_GEN)
TESTS_FFLAGS    := -g -Wall

TESTS_C_SRC   := $(wildcard tests/c/*.c)
TESTS_ABI_SRC := $(wildcard tests/abi/*.c)
TESTS_F_SRC   := $(wildcard tests/fortran/*.f90 tests/fortran/*.f)

TESTS_C_BIN   := $(patsubst tests/c/%.c,$(BUILD)/tests/c/%,$(TESTS_C_SRC))
TESTS_CABI_BIN:= $(patsubst tests/c/%.c,$(BUILD)/tests/abi/%,$(TESTS_C_SRC))
TESTS_ABI_BIN := $(patsubst tests/abi/%.c,$(BUILD)/tests/abi/%,$(TESTS_ABI_SRC))
TESTS_F_BIN   := $(addprefix $(BUILD)/tests/fortran/,$(basename $(notdir $(TESTS_F_SRC))))
# (the mixed-language tests, NAME + NAME_c.c, call the MPICH face's C extras: not over the ABI;
# nor the f08_* tests: the standard-ABI face has no mpi_f08 module yet)
TESTS_FABI_BIN:= $(addprefix $(BUILD)/tests/fabi/,$(filter-out $(patsubst tests/fortran/%_c.c,%,$(wildcard \
                 tests/fortran/*_c.c)) f08_%,$(basename $(notdir $(TESTS_F_SRC)))))

TESTS_BIN := $(if $(filter c,$(TESTS_FACES)),$(TESTS_C_BIN)) \
             $(if $(filter abi,$(TESTS_FACES)),$(TESTS_CABI_BIN) $(TESTS_ABI_BIN)) \
             $(if $(filter fortran,$(TESTS_FACES)),$(TESTS_F_BIN)) \
             $(if $(filter fabi,$(TESTS_FACES)),$(TESTS_FABI_BIN))

# A wrapper that lives in $(BUILD) is a prerequisite (built first); so are the
# headers it uses, once they exist, so that tests follow header changes.
tests_dep = $(filter $(BUILD)/%,$(1)) $(wildcard $(addprefix $(BUILD)/include/,$(2)))

.PHONY: tests
tests: $(TESTS_BIN)

$(TESTS_C_BIN): $(BUILD)/tests/c/%: tests/c/%.c $(wildcard tests/c/*.h) \
		$(call tests_dep,$(TESTS_MPICC),mpi.h)
	@mkdir -p $(@D)
	$(TESTS_MPICC) $(TESTS_CFLAGS) -o $@ $<

$(TESTS_CABI_BIN): $(BUILD)/tests/abi/%: tests/c/%.c $(wildcard tests/c/*.h) \
		$(call tests_dep,$(TESTS_MPICC_ABI),abi/mpi.h)
	@mkdir -p $(@D)
	$(TESTS_MPICC_ABI) $(TESTS_CFLAGS) -o $@ $<

$(TESTS_ABI_BIN): $(BUILD)/tests/abi/%: tests/abi/%.c $(wildcard tests/c/*.h) \
		$(call tests_dep,$(TESTS_MPICC_ABI),abi/mpi.h)
	@mkdir -p $(@D)
	$(TESTS_MPICC_ABI) $(TESTS_CFLAGS) -o $@ $< $(TESTS_UNIT_SRC)

# Unit tests of the standard-ABI Fortran face's C part (tests/abi/fface_*.c): its symbols are
# hidden in libmpifort_abi, so the source under test is compiled in (FF_ABI, as build.mk does).
TESTS_FFACE_BIN := $(filter $(BUILD)/tests/abi/fface_%,$(TESTS_ABI_BIN))
$(TESTS_FFACE_BIN): TESTS_UNIT_SRC = -DFF_ABI -Ibindings/fortran bindings/fortran/fcallbacks.c -lffi
$(TESTS_FFACE_BIN): bindings/fortran/fcallbacks.c bindings/fortran/fface.h

# the generated matrix of test bad_handles_matrix
$(BUILD)/tests/c/bad_handles_matrix $(BUILD)/tests/abi/bad_handles_matrix: $(wildcard $(TESTS_GEN)/bad_handles_cases.h)

# Each Fortran test writes its own modules into a private directory.
$(BUILD)/tests/fortran/%: tests/fortran/%.f90 $(call tests_dep,$(TESTS_MPIFORT),mpi.mod)
	@mkdir -p $(@D)/mod/$*
	$(TESTS_MPIFORT) $(TESTS_FFLAGS) -J $(@D)/mod/$* -o $@ $<

# The `use mpi_f08` tests follow the module too.
$(filter $(BUILD)/tests/fortran/f08_%,$(TESTS_F_BIN)): $(call tests_dep,$(TESTS_MPIFORT),mpi_f08.mod)

# A Fortran test NAME with a C half (tests/fortran/NAME_c.c, mixed-language tests): both
# compiled, and linked by the Fortran wrapper.
TESTS_F_MIXED := $(addprefix $(BUILD)/tests/fortran/,$(patsubst tests/fortran/%_c.c,%,$(wildcard tests/fortran/*_c.c)))
$(filter $(TESTS_F_MIXED),$(TESTS_F_BIN)): $(BUILD)/tests/fortran/%: tests/fortran/%.f90 tests/fortran/%_c.c \
		$(call tests_dep,$(TESTS_MPIFORT),mpi.mod) $(call tests_dep,$(TESTS_MPICC),mpi.h)
	@mkdir -p $(@D)/mod/$*
	$(TESTS_MPICC) $(TESTS_CFLAGS) -c -o $@_c.o tests/fortran/$*_c.c
	$(TESTS_MPIFORT) $(TESTS_FFLAGS) -J $(@D)/mod/$* -o $@ $< $@_c.o

$(BUILD)/tests/fortran/%: tests/fortran/%.f $(call tests_dep,$(TESTS_MPIFORT),mpif.h)
	@mkdir -p $(@D)
	$(TESTS_MPIFORT) $(TESTS_FFLAGS) -o $@ $<

# The same Fortran sources, over the standard ABI: one binary for every backend.
$(BUILD)/tests/fabi/%: tests/fortran/%.f90 $(call tests_dep,$(TESTS_MPIFORT_ABI),abi/mpi.mod)
	@mkdir -p $(@D)/mod/$*
	$(TESTS_MPIFORT_ABI) $(TESTS_FFLAGS) -J $(@D)/mod/$* -o $@ $<
$(BUILD)/tests/fabi/%: tests/fortran/%.f $(call tests_dep,$(TESTS_MPIFORT_ABI),abi/mpif.h)
	@mkdir -p $(@D)
	$(TESTS_MPIFORT_ABI) $(TESTS_FFLAGS) -o $@ $<

# Including this file does not change the top Makefile's default goal.
.DEFAULT_GOAL := $(TESTS_SAVED_GOAL)
