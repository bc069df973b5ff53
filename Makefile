# Top-level, non-recursive Makefile (GNU make).
#   make            build the runtime (build/lib), the simulator (build/bin/hsa-sim), samples
#   make check      build and run every test (unit, ABI, integration)
#   make install    install under $(prefix) (from configure), honouring DESTDIR
# Another build directory: make BUILD=build-asan CONFIGURE_FLAGS='CC=clang ...'
# Sources are found by wildcard, so adding a file needs no Makefile edit:
#   src/*.c src/*/*.c  -> build/lib/libhsa-runtime64.so.1 (+ an internal static archive for tests)
#   sim/*/*.c          -> build/lib/libhsa-sim.so (the preloaded software GPU)
#   sim/hsa-sim.c      -> build/bin/hsa-sim (the launcher)
#   samples/*.c        -> build/bin/<name>
#   tests/unit/test_*.c -> one Check program each, linked with the runtime's internals
#   tests/sim/test_*.c  -> one Check program each, linked with the simulator's internals
#   tests/integration/*.sh -> shell tests (exit 0 pass, 77 skip, else fail)

BUILD ?= build
override BUILD := $(patsubst %/,%,$(BUILD))
CONFIGURE_FLAGS ?=
SRC := $(CURDIR)

all:

ifeq ($(filter distclean bootstrap,$(MAKECMDGOALS)),)
include $(BUILD)/config.mk
endif

# configure is generated (not committed); config.mk is regenerated when its inputs change.
configure: configure.ac
	autoreconf -fi
	@touch $@

$(BUILD)/config.mk: configure config.mk.in
	@mkdir -p $(BUILD)
	cd $(BUILD) && $(SRC)/configure $(CONFIGURE_FLAGS)

WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wno-unused-parameter
XCFLAGS  := -std=gnu11 -fPIC -fvisibility=hidden -D_GNU_SOURCE $(WARN) -MMD -MP
RT_INC   := -I$(SRC)/include/hsa -I$(SRC)/src -I$(SRC)/include
DEP_CFLAGS := -I$(SRC)/src/kfd/shim $(DRM_CFLAGS) $(DRM_AMDGPU_CFLAGS) $(ELF_CFLAGS) $(MSGPACK_CFLAGS)
RT_LIBS  := $(DRM_AMDGPU_LIBS) $(DRM_LIBS) $(ELF_LIBS) $(MSGPACK_LIBS) $(NUMA_LIBS) -lpthread -ldl -lm

# ---- the runtime ------------------------------------------------------------
RT_SRCS  := $(sort $(wildcard src/*.c src/*/*.c))
RT_OBJS  := $(RT_SRCS:%.c=$(BUILD)/obj/%.o)
RT_SO    := $(BUILD)/lib/libhsa-runtime64.so.1
RT_AR    := $(BUILD)/lib/libhsa-runtime64-internal.a
RT_MAP   := src/exports.map

$(BUILD)/obj/src/%.o: src/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(XCFLAGS) -DHSA_EXPORT=1 $(RT_INC) $(DEP_CFLAGS) $(CFLAGS) -c $< -o $@

# API functions listed in src/core/unimplemented.list get generated stubs; the generator fails
# the build when an API function is neither defined in src/ nor listed (scripts/gen-stubs.sh).
STUB_C   := $(BUILD)/gen/stubs.c
STUB_O   := $(BUILD)/obj/gen/stubs.o

$(STUB_C): src/core/api.list src/core/unimplemented.list scripts/gen-stubs.sh $(RT_OBJS)
	@mkdir -p $(@D)
	nm -g --defined-only $(RT_OBJS) | awk 'NF == 3 { print $$3 }' > $(BUILD)/gen/defined.txt
	sh scripts/gen-stubs.sh src/core/api.list src/core/unimplemented.list \
	  $(BUILD)/gen/defined.txt > $@

$(STUB_O): $(STUB_C)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(XCFLAGS) -DHSA_EXPORT=1 $(RT_INC) $(CFLAGS) -c $< -o $@

# Tools interception (src/tools): in the library every API function with an entry in the
# tables of hsa_api_trace.h is renamed tools_impl_hsa_X, and a generated exported hsa_X calls
# it directly, or through the table when a tool (HSA_TOOLS_LIB) changed the entry.
TOOLS_GEN := $(BUILD)/gen/tools.stamp
$(TOOLS_GEN): src/core/api.list include/hsa/hsa_api_trace.h scripts/gen-tools-dispatch.py
	@mkdir -p $(@D)
	python3 scripts/gen-tools-dispatch.py src/core/api.list include/hsa/hsa_api_trace.h $(@D)
	@touch $@
$(BUILD)/gen/tools_table.c $(BUILD)/gen/tools_dispatch.c $(BUILD)/gen/tools_rename.txt: $(TOOLS_GEN)

$(BUILD)/obj/gen/tools_%.o: $(BUILD)/gen/tools_%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(XCFLAGS) -DHSA_EXPORT=1 $(RT_INC) $(CFLAGS) -c $< -o $@

# The trap handlers (src/aql/trap_gfx9.s, see src/aql/trap.c): assembled by llvm-mc for each
# encoding the runtime installs, the code bytes cut out by llvm-objcopy and embedded with
# .incbin (hidden symbols aql_trap_code_<mcpu> and _end). gfx942 needs an llvm-mc that knows
# it (LLVM 17+, configure's LLVM_MC_GFX942); without one its symbols mark an empty handler
# and the runtime says so on a gfx94x agent.
# gfx1100/gfx1201 (src/aql/trap_gfx11.s) likewise need configure's LLVM_MC_RDNA (LLVM 18+).
TRAP_ALL   := gfx900 gfx90a gfx942 gfx1100 gfx1201
TRAP_MCPUS := gfx900 gfx90a $(if $(LLVM_MC_GFX942),gfx942) $(if $(LLVM_MC_RDNA),gfx1100 gfx1201)
TRAP_BINS  := $(TRAP_MCPUS:%=$(BUILD)/gen/trap_%.bin)
TRAP_S     := $(BUILD)/gen/trap_blobs.S
TRAP_O     := $(BUILD)/obj/gen/trap_blobs.o
$(BUILD)/gen/trap_gfx942.bin: src/aql/trap_gfx9.s src/aql/trap_common.inc
	@mkdir -p $(@D)
	$(LLVM_MC_GFX942) -triple=amdgcn-amd-amdhsa -Isrc/aql -mcpu=gfx942 --defsym=IB_STS_IN_TTMP13=1 \
	  -filetype=obj -o $(@:.bin=.o) $<
	$(LLVM_OBJCOPY) -O binary --only-section=.text $(@:.bin=.o) $@
$(BUILD)/gen/trap_gfx1100.bin: src/aql/trap_gfx11.s src/aql/trap_common.inc
	@mkdir -p $(@D)
	$(LLVM_MC_RDNA) -triple=amdgcn-amd-amdhsa -Isrc/aql -mcpu=gfx1100 -filetype=obj -o $(@:.bin=.o) $<
	$(LLVM_OBJCOPY) -O binary --only-section=.text $(@:.bin=.o) $@
$(BUILD)/gen/trap_gfx1201.bin: src/aql/trap_gfx11.s src/aql/trap_common.inc
	@mkdir -p $(@D)
	$(LLVM_MC_RDNA) -triple=amdgcn-amd-amdhsa -Isrc/aql -mcpu=gfx1201 --defsym=GFX12=1 -filetype=obj \
	  -o $(@:.bin=.o) $<
	$(LLVM_OBJCOPY) -O binary --only-section=.text $(@:.bin=.o) $@
$(BUILD)/gen/trap_%.bin: src/aql/trap_gfx9.s src/aql/trap_common.inc
	@mkdir -p $(@D)
	$(LLVM_MC) -triple=amdgcn-amd-amdhsa -Isrc/aql -mcpu=$* -filetype=obj -o $(@:.bin=.o) $<
	$(LLVM_OBJCOPY) -O binary --only-section=.text $(@:.bin=.o) $@
$(TRAP_S): $(TRAP_BINS) $(BUILD)/config.mk
	@mkdir -p $(@D)
	{ printf '\t.section .rodata\n'; for m in $(TRAP_ALL); do \
	    printf '\t.balign 256\n\t.globl aql_trap_code_%s\n\t.hidden aql_trap_code_%s\n' $$m $$m; \
	    printf 'aql_trap_code_%s:\n' $$m; \
	    case " $(TRAP_MCPUS) " in *" $$m "*) \
	      printf '\t.incbin "%s"\n' $(abspath $(BUILD))/gen/trap_$$m.bin;; esac; \
	    printf '\t.globl aql_trap_code_%s_end\n\t.hidden aql_trap_code_%s_end\n' $$m $$m; \
	    printf 'aql_trap_code_%s_end:\n' $$m; done; \
	  printf '\t.section .note.GNU-stack,"",%%progbits\n'; } > $@
$(TRAP_O): $(TRAP_S)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@

RT_IMPL := $(BUILD)/obj/gen/rt-impl.o
$(RT_IMPL): $(RT_OBJS) $(STUB_O) $(TRAP_O) $(BUILD)/obj/gen/tools_table.o $(BUILD)/gen/tools_rename.txt
	$(CC) -nostdlib -r $(CFLAGS) -o $@.tmp $(RT_OBJS) $(STUB_O) $(TRAP_O) $(BUILD)/obj/gen/tools_table.o
	objcopy --redefine-syms=$(BUILD)/gen/tools_rename.txt $@.tmp $@
	rm -f $@.tmp

$(RT_SO): $(RT_IMPL) $(BUILD)/obj/gen/tools_dispatch.o $(RT_MAP)
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-soname,libhsa-runtime64.so.1 -Wl,--version-script=$(RT_MAP) \
	  -Wl,-z,defs -Wl,-z,now -Wl,--as-needed $(LDFLAGS) $(CFLAGS) -o $@ $(RT_IMPL) \
	  $(BUILD)/obj/gen/tools_dispatch.o $(RT_LIBS)
	ln -sf libhsa-runtime64.so.1 $(BUILD)/lib/libhsa-runtime64.so

$(RT_AR): $(RT_OBJS) $(STUB_O) $(TRAP_O) $(BUILD)/obj/gen/tools_table.o
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

# ---- the simulator ------------------------------------------------------------
SIM_SRCS := $(sort $(wildcard sim/*/*.c))
SIM_OBJS := $(SIM_SRCS:%.c=$(BUILD)/obj/%.o)
SIM_SO   := $(BUILD)/lib/libhsa-sim.so
SIM_AR   := $(BUILD)/lib/libhsa-sim-internal.a
SIM_BIN  := $(if $(wildcard sim/hsa-sim.c),$(BUILD)/bin/hsa-sim)
SIM_INC  := -I$(SRC)/sim -I$(SRC)/include

# sim/isa runs VALU operations as loops over 64 lanes: gcc vectorises them only with its
# dynamic cost model (-O2 uses the "very cheap" one, which leaves most of them scalar;
# sim/isa/README.md, Speed). clang's -O2 vectorises them already.
ISA_VEC := $(shell $(CC) -Werror -ftree-vectorize -fvect-cost-model=dynamic -x c -c -o /dev/null /dev/null \
             2> /dev/null && echo -ftree-vectorize -fvect-cost-model=dynamic)
# -ffp-contract=off: a GPU's f32 add and mul round apart, so the host compiler must not fuse
# them into an FMA where the target has one (fast.c's x86-64-v4 clone, aarch64 hosts)
$(BUILD)/obj/sim/isa/%.o: SIM_XOPT = $(ISA_VEC) -ffp-contract=off

$(BUILD)/obj/sim/%.o: sim/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(XCFLAGS) $(SIM_INC) $(DRM_CFLAGS) $(CFLAGS) $(SIM_XOPT) -c $< -o $@

$(SIM_SO): $(SIM_OBJS)
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-soname,libhsa-sim.so -Wl,-z,defs $(LDFLAGS) $(CFLAGS) -o $@ $(SIM_OBJS) \
	  -lpthread -ldl -lrt -lm

# The archive leaves out the libc interposers (sim/os/interpose_*.c): a test or the launcher
# calling fopen() must get libc's, not have the interposer linked into it.
$(SIM_AR): $(filter-out $(BUILD)/obj/sim/os/interpose_%,$(SIM_OBJS))
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

# The launcher uses the simulator's catalogue, option parsing and tree builder (not the
# interposers: only what it references is linked from the archive).
$(BUILD)/bin/hsa-sim: $(BUILD)/obj/sim/hsa-sim.o $(SIM_AR) | $(SIM_SO)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $(CFLAGS) -o $@ $< $(SIM_AR) -lpthread -ldl -lrt -lm

# ---- samples -----------------------------------------------------------------
SAMPLE_SRCS := $(sort $(wildcard samples/*.c))
SAMPLE_BINS := $(SAMPLE_SRCS:samples/%.c=$(BUILD)/bin/%)

$(BUILD)/obj/samples/%.o: samples/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(XCFLAGS) -I$(SRC)/include $(CFLAGS) -c $< -o $@

$(BUILD)/bin/%: $(BUILD)/obj/samples/%.o $(RT_SO)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $(CFLAGS) -o $@ $< -L$(BUILD)/lib -lhsa-runtime64 -Wl,-rpath,'$$ORIGIN/../lib'

# ---- tests -------------------------------------------------------------------
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/unit/%)
SIMT_SRCS := $(sort $(wildcard tests/sim/test_*.c))
SIMT_BINS := $(SIMT_SRCS:tests/sim/%.c=$(BUILD)/tests/sim/%)
TEST_CFLAGS = $(CPPFLAGS) $(XCFLAGS) -Wno-missing-prototypes -I$(SRC)/tests $(CHECK_CFLAGS) \
              -DTEST_SRCDIR='"$(SRC)/tests"' $(CFLAGS)

# Each side's tests see only that side's headers (src/ and sim/ both have kfd/kfd.h).
$(BUILD)/obj/tests/unit/%.o: tests/unit/%.c
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) $(RT_INC) $(DEP_CFLAGS) -c $< -o $@

$(BUILD)/obj/tests/sim/%.o: tests/sim/%.c
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) $(SIM_INC) $(DRM_CFLAGS) -c $< -o $@

$(BUILD)/obj/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -c $< -o $@

$(BUILD)/tests/unit/%: $(BUILD)/obj/tests/unit/%.o $(BUILD)/obj/tests/check_main.o $(RT_AR)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $(CFLAGS) -o $@ $^ $(RT_LIBS) $(CHECK_LIBS)

$(BUILD)/tests/sim/%: $(BUILD)/obj/tests/sim/%.o $(BUILD)/obj/tests/check_main.o $(SIM_AR)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $(CFLAGS) -o $@ $^ -lpthread -ldl -lrt -lm $(CHECK_LIBS)

# Every API function called with zero arguments before hsa_init (generated from api.list).
GEN_TESTS := $(BUILD)/tests/unit/test_api_calls
$(BUILD)/gen/test_api_calls.c: src/core/api.list tests/gen_api_calls.py
	@mkdir -p $(@D)
	python3 tests/gen_api_calls.py $< > $@

$(BUILD)/obj/gen/test_api_calls.o: $(BUILD)/gen/test_api_calls.c
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -Wno-unused-variable $(RT_INC) -c $< -o $@

$(BUILD)/tests/unit/test_api_calls: $(BUILD)/obj/gen/test_api_calls.o $(BUILD)/obj/tests/check_main.o $(RT_SO)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $(CFLAGS) -o $@ $(filter %.o,$^) -L$(BUILD)/lib -lhsa-runtime64 \
	  -Wl,-rpath,'$$ORIGIN/../../lib' $(CHECK_LIBS)

# ---- top-level goals -----------------------------------------------------------
LIBS_ALL := $(RT_SO) $(if $(SIM_SRCS),$(SIM_SO))
all: $(LIBS_ALL) $(SIM_BIN) $(SAMPLE_BINS)

tests: all $(RT_AR) $(if $(SIM_SRCS),$(SIM_AR)) $(UNIT_BINS) $(SIMT_BINS) $(GEN_TESTS)

check: tests
	BUILD=$(abspath $(BUILD)) SRCDIR=$(SRC) CC="$(CC)" CXX="$(CXX)" sh tests/run.sh

# Benchmarks (not part of check): bench/report.sh runs every bench/*.sh (QUICK=1: fewer
# repetitions), then prints one table and writes bench/out/summary.json and summary.png.
# One alone: make bench BENCH="init_shutdown copy_bandwidth"; only the report: BENCH=--no-run.
bench: all
	BUILD=$(abspath $(BUILD)) SRCDIR=$(SRC) QUICK=$(QUICK) sh bench/report.sh $(BENCH)
.PHONY: bench

# Fuzzing (not part of check): the loader's libFuzzer target for FUZZ_TIME seconds (clang).
FUZZ_TIME ?= 60
fuzz: $(STUB_C) $(BUILD)/gen/tools_table.c $(TRAP_S)
	DEP_CFLAGS="$(DRM_CFLAGS) $(DRM_AMDGPU_CFLAGS)" sh fuzz/run.sh $(abspath $(BUILD)) $(FUZZ_TIME)
.PHONY: fuzz

# The list of exported names is a fact from ROCR; the version script is made from it.
exports-map: tests/abi/rocr-latest-exports.txt
	sh scripts/gen-exports-map.sh $< > $(RT_MAP)

install: all
	sh scripts/install.sh "$(DESTDIR)" "$(prefix)" "$(libdir)" "$(includedir)" "$(bindir)" \
	  "$(mandir)" "$(BUILD)" "$(PACKAGE_VERSION)"

# Debian packages (debian/): dpkg-buildpackage in a clean copy of the tree, .debs in $(BUILD)/deb.
# More options: make deb DEB_BUILD_OPTIONS=noddebs (no -dbgsym packages).
DEB_DIR := $(BUILD)/deb
deb:
	rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/src
	tar -C $(SRC) --exclude=./.git --exclude='./build' --exclude='./build-*' --exclude=./configure \
	  --exclude=./autom4te.cache --exclude=./aclocal.m4 --exclude=./debian/build -cf - . | \
	  tar -C $(DEB_DIR)/src -xf -
	cd $(DEB_DIR)/src && DEB_BUILD_OPTIONS="nocheck parallel=$$(nproc) $(DEB_BUILD_OPTIONS)" \
	  dpkg-buildpackage -us -uc -b > ../build.log 2>&1 || { tail -n 30 ../build.log; exit 1; }
	@ls $(DEB_DIR)/*.deb
.PHONY: deb

clean:
	rm -rf $(BUILD)/obj $(BUILD)/lib $(BUILD)/bin $(BUILD)/tests

distclean:
	rm -rf $(BUILD) configure autom4te.cache aclocal.m4 config.log config.status \
	  $(filter-out build-aux/.keep,$(wildcard build-aux/*))

.PHONY: all tests check install clean distclean exports-map
.DELETE_ON_ERROR:
.SECONDARY:

-include $(RT_OBJS:.o=.d) $(SIM_OBJS:.o=.d) $(wildcard $(BUILD)/obj/tests/*/*.d $(BUILD)/obj/samples/*.d)
