# Switchyard's build: generate the faces from spec/, build the runtime archive, the three
# libraries, the compiler wrappers and the tests. Plain GNU make; everything goes to build/.
BUILD := build
CC := gcc
FC := gfortran
# The generator needs jinja2: Debian's python3-jinja2 lives with /usr/bin/python3.
PYTHON := $(shell for p in /usr/bin/python3 python3; do $$p -c 'import jinja2' 2>/dev/null && { echo $$p; break; }; done)
# Link-time optimisation inlines the runtime's small functions into the faces' entry points
# (a trivial call such as MPI_Comm_rank runs a fifth fewer instructions); the sanitizer build
# (check-sanitize) sets OPT=-O1 without it.
OPT := -O2 -flto=auto
SAN :=
SAN_CFLAGS :=
CFLAGS := -std=gnu11 $(OPT) -g -Wall -Wextra -Werror -fPIC -fvisibility=hidden $(SAN) $(SAN_CFLAGS)
LDFLAGS_SO := -shared -Wl,--no-undefined $(OPT) $(SAN)
LIBS := -lm -ldl -lpthread -lcrypto

GEN := $(BUILD)/gen
OBJ := $(BUILD)/obj
LIB := $(BUILD)/lib
BIN := $(BUILD)/bin
INC := $(BUILD)/include

SPEC_FILES := $(wildcard spec/*.json spec/procedures/*.json)
GEN_FILES := $(wildcard gen/*.py gen/templates/*.j2)

.PHONY: all deps gen libs tests check check-sanitize check-tsan check-helgrind coverage readme-status clean example bench install fuzz
all: libs

# Installs missing Debian packages (compilers, jinja2, libffi, and MPICH/Open MPI for the tests).
deps:
	@sh tools/deps.sh

$(GEN)/.stamp: $(SPEC_FILES) $(GEN_FILES)
	@test -n "$(PYTHON)" || { echo "error: python3 with jinja2 is needed (apt-get install python3-jinja2)"; exit 1; }
	$(PYTHON) gen/generate.py spec $(GEN)
	@touch $@

gen: $(GEN)/.stamp

# The generated file lists are known only once the generator ran: build them in a second make.
libs: $(GEN)/.stamp
	@$(MAKE) --no-print-directory -f build.mk BUILD=$(BUILD) CC="$(CC)" FC="$(FC)" CFLAGS="$(CFLAGS)" \
		LDFLAGS_SO="$(LDFLAGS_SO)" LIBS="$(LIBS)" SAN="$(SAN)" all

# make install PREFIX=/usr/local DESTDIR=: bin/, lib/ (+ pkgconfig/), include/ (install.mk).
PREFIX := /usr/local
install: libs
	@$(MAKE) --no-print-directory -f install.mk BUILD=$(BUILD) PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" install

tests: libs
	@$(MAKE) --no-print-directory -f tests/tests.mk BUILD=$(BUILD) tests

check: deps
	@$(MAKE) --no-print-directory tests
	python3 tests/run.py --build $(BUILD)

# The whole suite built and run with AddressSanitizer and UndefinedBehaviorSanitizer: the
# libraries, mpiexec and the test programs (through the wrappers) are instrumented; programs
# built elsewhere (by MPICH's mpicc) get the runtimes preloaded by their tests. Leaks are
# valgrind's business (tests end without freeing on purpose).
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer
check-sanitize: export SWITCHYARD_WRAPPER_FLAGS = $(SANFLAGS)
check-sanitize: export ASAN_OPTIONS = detect_leaks=0:halt_on_error=1:handle_segv=0
check-sanitize: export UBSAN_OPTIONS = halt_on_error=1:print_stacktrace=1
check-sanitize:
	$(MAKE) BUILD=build-san OPT=-O1 SAN="$(SANFLAGS)" deps tests
	SWITCHYARD_TEST_PRELOAD="$$(gcc -print-file-name=libasan.so) $$(gcc -print-file-name=libubsan.so)" \
	python3 tests/run.py --build build-san

# The suite built and run with ThreadSanitizer (MPI_THREAD_MULTIPLE, docs/internals.md
# "Threads"): libraries, mpiexec and test programs instrumented, foreign-built programs given
# the runtime preloaded; the first race reported fails the test; timeouts are 4 times longer
# (ThreadSanitizer slows a program 5 to 15 times). TSAN_TESTS picks tests (run.py filters;
# default: all). Suppressions, each explained: tests/tsan.supp. -Wno-tsan: ThreadSanitizer
# ignores atomic_thread_fence, which the one-sided code uses only to order memory shared with
# other processes (win_sync.c), where it cannot look anyway. handle_segv=0: a rank that faults
# must die of SIGSEGV, as p2p_faults expects mpiexec to report.
TSANFLAGS := -fsanitize=thread -fno-omit-frame-pointer
check-tsan: export SWITCHYARD_WRAPPER_FLAGS = $(TSANFLAGS)
check-tsan: export TSAN_OPTIONS = halt_on_error=1:report_signal_unsafe=0:handle_segv=0:suppressions=$(CURDIR)/tests/tsan.supp
check-tsan:
	$(MAKE) BUILD=build-tsan OPT=-O1 SAN="$(TSANFLAGS)" SAN_CFLAGS=-Wno-tsan deps tests
	SWITCHYARD_TEST_PRELOAD="$$(gcc -print-file-name=libtsan.so)" \
	python3 tests/run.py --build build-tsan --timeout-scale 4 $(TSAN_TESTS)

# The thread stress tests (MPI_THREAD_MULTIPLE) with every rank under valgrind's Helgrind, which
# also sees what ThreadSanitizer's instrumentation does not (uninstrumented code, glibc's locks);
# an -O1 build without link-time optimisation keeps the function names the suppressions use. The
# first race reported fails the test; one test at a time (about 1.5 minutes on 2 cores, after a
# 3-minute build); run by hand. Suppressions, each explained: tests/helgrind.supp. The lock's
# bias is off (Helgrind cannot see membarrier's barriers; ThreadSanitizer builds have none), and
# so are the channel entries (their requests pass between threads through atomics, which
# Helgrind takes for plain accesses; ThreadSanitizer checks them, tests/sh/tsan_threads.sh); the
# channels' own locks are annotated for it (RT_HELGRIND). Still, with several channels (the
# default at MPI_THREAD_MULTIPLE) a channel wait's pass reads requests and datatypes that other
# threads handed over through atomics, which Helgrind reports (2 of the 13 runs, not races).
HELGRIND_TESTS := thread_multiple read_only_mt ctx_ids_mt lock_bias
check-helgrind: export SWITCHYARD_LOCK_BIAS = 0
check-helgrind: export SWITCHYARD_CHANNEL_ENTRIES = 0
HELGRIND := valgrind -q --tool=helgrind --error-exitcode=9 --suppressions=$(CURDIR)/tests/helgrind.supp
check-helgrind:
	$(MAKE) BUILD=build-helgrind OPT=-O1 SAN_CFLAGS=-DRT_HELGRIND all tests
	python3 tests/run.py --build build-helgrind -j 1 --backends none --timeout-scale 4 \
	  --launcher "sh -c 'exec \"\$$0\" \"\$$1\" \"\$$2\" $(HELGRIND) \"\$$3\"' $(CURDIR)/build-helgrind/bin/mpiexec" \
	  $(HELGRIND_TESTS)

# Fuzzes the TCP transport without sockets, each target for FUZZ_SECONDS with libFuzzer, ASan and
# UBSan; needs clang. fuzz/tcp_frames.c: the frame parser (tcp_in.c) fed arbitrary bytes;
# fuzz/tcp_challenge.c: the connector reading the acceptor's challenge (tcp_conn.c). Any crash,
# sanitizer report or leak fails; the inputs that found one are in $(BUILD)/fuzz/ (TARGET-crash-*).
CLANG := clang
FUZZ_SECONDS := 60
FUZZ_TARGETS := tcp_frames tcp_challenge
FUZZ_SRC_tcp_frames := fuzz/tcp_frames.c runtime/transport/tcp/tcp_in.c runtime/transport/tcp/tcp_auth.c \
	runtime/transport/common/tp_pool.c
FUZZ_SRC_tcp_challenge := fuzz/tcp_challenge.c runtime/transport/tcp/tcp_conn.c \
	runtime/transport/common/tp_pool.c
FUZZ_NEED = @command -v $(CLANG) >/dev/null || { echo "error: make fuzz needs clang with libFuzzer (apt-get install clang): $(CLANG) not found"; exit 1; }
FUZZ_CC = $(CLANG) -std=gnu11 -O1 -g -Wall -Wextra -Werror -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=all -Iruntime/include -I$(GEN) -Iruntime/transport -Iruntime/transport/tcp
$(BUILD)/fuzz/tcp_frames: $(FUZZ_SRC_tcp_frames) runtime/transport/tcp/tcp.h $(GEN)/.stamp
	$(FUZZ_NEED)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_SRC_tcp_frames) -o $@ -lcrypto
$(BUILD)/fuzz/tcp_challenge: $(FUZZ_SRC_tcp_challenge) runtime/transport/tcp/tcp.h $(GEN)/.stamp
	$(FUZZ_NEED)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_SRC_tcp_challenge) -o $@
fuzz: $(FUZZ_TARGETS:%=$(BUILD)/fuzz/%)
	python3 fuzz/seeds.py $(BUILD)/fuzz/seeds
	python3 fuzz/challenge_seeds.py $(BUILD)/fuzz/seeds-tcp_challenge
	@mkdir -p $(BUILD)/fuzz/corpus $(BUILD)/fuzz/corpus-tcp_challenge
	cd $(BUILD)/fuzz && echo "fuzz: tcp_frames" && ./tcp_frames -max_total_time=$(FUZZ_SECONDS) \
		-print_final_stats=1 -artifact_prefix=tcp_frames- corpus seeds
	cd $(BUILD)/fuzz && echo "fuzz: tcp_challenge" && ./tcp_challenge -max_total_time=$(FUZZ_SECONDS) \
		-print_final_stats=1 -artifact_prefix=tcp_challenge- corpus-tcp_challenge seeds-tcp_challenge

coverage: libs
	$(PYTHON) gen/coverage.py spec $(LIB)

# The same table in Markdown: README.md's Status section, between its status markers.
readme-status: libs
	@$(PYTHON) gen/coverage.py spec $(LIB) --markdown

example: deps
	@$(MAKE) --no-print-directory libs
	$(BIN)/mpicc -o $(BUILD)/hello examples/hello.c
	$(BIN)/mpiexec -n 4 $(BUILD)/hello

# Benchmarks side by side with Debian MPICH and Open MPI (medians of REPEAT=5 alternated runs,
# ratios, spreads, and a PNG in build/bench); BENCHES="p2p attr" picks some.
bench: deps
	@$(MAKE) --no-print-directory libs
	@command -v gnuplot >/dev/null || apt-get install -y -qq gnuplot-nox >/dev/null
	BUILD=$(BUILD) OSU=$(OSU) IMB=$(IMB) sh bench/run.sh

clean:
	rm -rf $(BUILD) build-san
