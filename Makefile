# jenc - re-encode JSON (and CSV/TSV) fast, in bounded memory.
# See README.md.  Outputs go to $(O): build/ unless O=DIR is given.

PREFIX ?= /usr/local
# Where the libraries and libjenc.pc go (Debian's rules set the multiarch
# directory, /usr/lib/x86_64-linux-gnu).
LIBDIR ?= $(PREFIX)/lib
# The shell completions, installed when completions/ has them.  zsh on
# Debian reads vendor-completions under /usr only, site-functions elsewhere.
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/$(if $(filter /usr,$(PREFIX)),vendor-completions,site-functions)
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
DESTDIR ?=
CC ?= cc
O ?= build

WARN = -Wall -Wextra -Wpedantic -Wshadow -Wconversion
# 64-bit off_t and time_t on 32-bit systems too (glibc: _TIME_BITS needs
# _FILE_OFFSET_BITS; where both are 64 bits already, no effect).
CPPFLAGS += -D_POSIX_C_SOURCE=200809L -D_FILE_OFFSET_BITS=64 -D_TIME_BITS=64 -DJSMN_STRICT -DJSMN_PARENT_LINKS -Ilib
CFLAGS ?= -O2 -g
# Always used, even when CFLAGS is given on the command line.
JCFLAGS = -std=c11 $(WARN) -fPIC $(CFLAGS)
LDLIBS += $(ICONV_LIBS) -lpthread

LIB_SRC := $(sort $(wildcard lib/*.c))
LIB_OBJ := $(LIB_SRC:lib/%.c=$(O)/obj/%.o)
CMD_SRC := $(sort $(wildcard cmd/*.c))
CMD_OBJ := $(CMD_SRC:cmd/%.c=$(O)/cmd/%.o)
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
# UNIT_SKIP: unit tests left out (the package build leaves out those
# that read ../shared).
UNIT_BIN := $(filter-out $(addprefix $(O)/tests/,$(UNIT_SKIP)), \
	$(UNIT_SRC:tests/unit/%.c=$(O)/tests/%))

VERSION := $(shell sed -n 's/^\#define JENC_VERSION "\(.*\)"/\1/p' lib/jenc.h)
# The system, for what differs between them: the shared library's form,
# and where iconv(3) is (README.md's Install says which are tested).
UNAME_S := $(shell uname -s 2>/dev/null)

# The shared library: its SONAME changes only when the ABI breaks; the file
# installed under that name is libjenc.so.VERSION.  GNU ld, gold and lld
# (Linux and the BSDs) take -soname and a version script; macOS's ld makes
# a .dylib with an install name and a list of the exported symbols.
ifeq ($(UNAME_S),Darwin)
SHLIB = libjenc.dylib
SONAME = libjenc.1.dylib
SOREAL = libjenc.$(VERSION).dylib
SHLIB_FLAGS = -dynamiclib -install_name $(LIBDIR)/$(SONAME) \
	-compatibility_version 1 -current_version $(VERSION) \
	-Wl,-exported_symbols_list,$(O)/libjenc.sym
SHLIB_DEPS = $(O)/libjenc.sym
else
SHLIB = libjenc.so
SONAME = libjenc.so.1
SOREAL = libjenc.so.$(VERSION)
SHLIB_FLAGS = -shared -Wl,-soname,$(SONAME) \
	-Wl,--version-script,$(O)/libjenc.map
SHLIB_DEPS = $(O)/libjenc.map
endif

# iconv(3) is in the C library on Linux (glibc, musl), FreeBSD and NetBSD;
# it is libiconv on macOS, OpenBSD and wherever GNU libiconv replaces
# the system's.  Elsewhere than Linux a try-compile decides.
ifeq ($(UNAME_S),Linux)
ICONV_LIBS ?=
else
ICONV_TRY = printf '\043include <iconv.h>\nint main(void) { return \
	iconv_open("UTF-8", "UTF-16") == (iconv_t)-1; }\n' | \
	$(CC) $(CPPFLAGS) -x c -o /dev/null - $(LDFLAGS) $(1) >/dev/null 2>&1
ifeq ($(origin ICONV_LIBS),undefined)
ICONV_LIBS := $(shell $(call ICONV_TRY,) && exit; \
	$(call ICONV_TRY,-liconv) && echo -liconv)
endif
endif

# What `make deb` needs besides libjsmn-dev (pkg-config: for check-deb).
DEB_PKGS = build-essential devscripts debhelper lintian pkg-config

# Debian packages `make demo` needs: what builds jenc (make itself is
# taken as given).
DEMO_PKGS = libjsmn-dev gcc libc6-dev

# Debian packages `make check` needs.
DEPS_PKGS = libjsmn-dev bats bats-assert bats-support bats-file python3 \
	clang libclang-rt-14-dev valgrind mandoc golang-go time \
	parallel libtext-csv-perl zsh fish acl attr strace $(DEB_PKGS)

.PHONY: all check check-unit check-cli check-exact check-portable check-posix \
	check-asan check-tsan \
	check-slow check-ssh check-valgrind demo \
	bench install uninstall clean deps fuzz lint $(O)/libjenc.pc \
	deb deps-deb check-deb

all: $(O)/jenc $(O)/libjenc.a $(O)/$(SHLIB) $(O)/libjenc.pc

# Each compile writes the headers it read into a .d file beside its
# output (-MMD; -MP adds an empty rule per header, so that a header
# removed does not stop the build); they are included at the end of this
# file, so that a change to any header rebuilds what includes it.
DEPFLAGS = -MMD -MP

# Hidden by default: libjenc.so exports only what jenc.h marks JENC_API.
$(O)/obj/%.o: lib/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(JCFLAGS) $(DEPFLAGS) -fvisibility=hidden -c -o $@ $<

$(O)/libjenc.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

# The shared library exports the functions that lib/jenc.h declares
# (JENC_API, with the objects built -fvisibility=hidden), and nothing else;
# the version script gives them the symbol version LIBJENC_1.
$(O)/$(SHLIB): $(LIB_OBJ) $(SHLIB_DEPS)
	$(CC) $(LDFLAGS) $(SHLIB_FLAGS) -o $@ $(LIB_OBJ) $(LDLIBS)

$(O)/libjenc.map: lib/jenc.h
	@mkdir -p $(@D)
	@{ echo 'LIBJENC_1 {'; echo 'global:'; \
	    grep '^JENC_API' lib/jenc.h | \
	    grep -o 'jenc_[a-z0-9_]*(' | tr -d '(' | sort -u | sed 's/.*/\t&;/'; \
	    echo 'local:'; printf '\t*;\n'; echo '};'; } > $@

# The same list for macOS's ld: each name with the underscore C names
# get there.
$(O)/libjenc.sym: lib/jenc.h
	@mkdir -p $(@D)
	@grep '^JENC_API' lib/jenc.h | grep -o 'jenc_[a-z0-9_]*(' | \
	    tr -d '(' | sort -u | sed 's/^/_/' > $@

# Always rewritten, so that it carries the PREFIX and LIBDIR of this run.
$(O)/libjenc.pc:
	@mkdir -p $(@D)
	@printf '%s\n' 'prefix=$(PREFIX)' \
	    'libdir=$(patsubst $(PREFIX)/%,$${prefix}/%,$(LIBDIR))' \
	    'includedir=$${prefix}/include' '' 'Name: libjenc' \
	    'Description: pooled segmented JSON encoder and streaming re-encoder' \
	    'Version: $(VERSION)' 'Libs: -L$${libdir} -ljenc' \
	    'Libs.private: $(ICONV_LIBS) -lpthread' 'Cflags: -I$${includedir}' > $@

$(O)/cmd/%.o: cmd/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(JCFLAGS) $(DEPFLAGS) -c -o $@ $<

$(O)/jenc: $(CMD_OBJ) $(O)/libjenc.a
	$(CC) $(JCFLAGS) $(LDFLAGS) -o $@ $(CMD_OBJ) $(O)/libjenc.a $(LDLIBS)

$(O)/tests/%: tests/unit/%.c $(O)/libjenc.a
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(JCFLAGS) $(DEPFLAGS) -MF $@.d $(LDFLAGS) -Itests/unit -o $@ $< $(O)/libjenc.a $(LDLIBS) -lm

# The LD_PRELOAD shims of the CLI tests: failmalloc.so (nomem.bats) fails
# an allocation, cutwrite.so (mmap.bats) cuts the input file at the first
# write to the output file, notmpfile.so (filesafe.bats) refuses
# O_TMPFILE.  Never built with the sanitizers (their
# runtime comes first and intercepts those calls; the tests skip there).
$(O)/tests/%.so: tests/cli/%.c
	@mkdir -p $(@D)
	$(CC) -std=c11 $(WARN) -fPIC -O2 -shared -o $@ $<

# ---- tests ----

check: deps
	$(MAKE) all
	$(MAKE) check-unit
	$(MAKE) check-cli
	$(MAKE) check-exact
	$(MAKE) check-diff
	$(MAKE) check-portable
	$(MAKE) check-posix
	$(MAKE) check-asan
	$(MAKE) check-tsan
	$(MAKE) check-deb

# One line per test binary, then the total.  T=NAME... runs only those
# binaries, N=NAME only the tests of that name (or fnmatch(3) pattern) in
# them (TEST_ONLY, see tests/unit/harness.h):
#	make check-unit T=test_enc N='jenc_depth'
UNIT_RUN = $(if $(T),$(addprefix $(O)/tests/,$(T)),$(UNIT_BIN))
# UNIT_EMU: a command that runs each binary (qemu-user, for check-cross).
UNIT_EMU ?=

UNIT_SUM = ^[0-9]+ tests? \([0-9]+ failed\), [0-9]+ checks?$$
UNIT_CHK = ^[0-9]+ passed, [0-9]+ failed$$

check-unit: $(UNIT_RUN)
	@pass=0; fail=0; for t in $(UNIT_RUN); do \
	    out=$$($(if $(N),TEST_ONLY="$$N") $(UNIT_EMU) $$t); rc=$$?; \
	    [ -z "$$out" ] || printf '%s\n' "$$out" | \
	        grep -v -E -e '$(UNIT_SUM)' -e '$(UNIT_CHK)'; \
	    tl=$$(printf '%s\n' "$$out" | grep -E '$(UNIT_SUM)' | tail -n 1); \
	    cl=$$(printf '%s\n' "$$out" | grep -E '$(UNIT_CHK)' | tail -n 1); \
	    p=$${cl%% passed*}; f=$${cl##*, }; f=$${f%% *}; \
	    if [ -z "$$cl" ]; then p=0; f=1; cl="no summary, exit status $$rc"; \
	    elif [ $$rc != 0 ] && [ "$$f" = 0 ]; then \
	        f=1; cl="$$cl, exit status $$rc"; fi; \
	    printf '%-16s %s%s\n' "$${t##*/}" "$${tl:+$$tl: }" "$$cl"; \
	    pass=$$((pass + p)); fail=$$((fail + f)); \
	done; echo "unit: $$pass passed, $$fail failed"; [ $$fail = 0 ]

# bats runs its files BATS_JOBS at a time (through GNU parallel, which
# `make deps` installs; without it, one at a time), the tests of one file
# in order: many tests wait on pipes and sleeps, so three files at once
# keep two CPUs busy.  BATS_JOBS=1 runs them one after another.
BATS_JOBS ?= $(if $(shell command -v parallel 2>/dev/null),3,1)
BATS = bats $(if $(filter-out 1,$(BATS_JOBS)),--jobs $(BATS_JOBS) --no-parallelize-within-files)

# Everything the suites build or use is under $(O): the binary, the
# library the docs test links the example with (with this CC and LDFLAGS,
# so that a sanitizer build links), the Go reference.
CLI_ENV = JENC=$(abspath $(O)/jenc) JENC_LIB=$(abspath $(O)/libjenc.a) \
	JSONREF_DIR=$(abspath $(O)/ref) CC='$(CC)' LDFLAGS='$(LDFLAGS)'

# CLI_FILES: the bats files to run (all of tests/cli unless given).
CLI_FILES ?= tests/cli

check-cli: $(O)/jenc $(O)/libjenc.a $(O)/tests/failmalloc.so \
    $(O)/tests/cutwrite.so $(O)/tests/notmpfile.so
	$(CLI_ENV) $(BATS) $(CLI_FILES)

# The CLI suite again with JENC_EXACT=1: jsmn reads the input text itself,
# not its skeleton (lib/skel.c).  Every test passes both ways.
check-exact: $(O)/jenc $(O)/libjenc.a $(O)/tests/failmalloc.so \
    $(O)/tests/cutwrite.so $(O)/tests/notmpfile.so
	$(CLI_ENV) JENC_EXACT=1 $(BATS) tests/cli

# The unit tests again without the SSE2 fast paths (the portable code that
# other processors run).
check-portable:
	$(MAKE) O=build/portable CFLAGS='-O2 -g -U__SSE2__' check-unit

# The unit tests and the CLI tests of -j (lib/par.c) and the inputs it
# takes, built with every extension of lib/compat.h off
# (-DJENC_POSIX_ONLY): the fallbacks that macOS and the BSDs run, tested
# on Linux.
POSIX_CLI = tests/cli/jobs.bats tests/cli/mmap.bats tests/cli/files.bats \
	tests/cli/encoding.bats
check-posix:
	JENC_POSIX_ONLY=1 $(MAKE) O=build/posix \
	    CFLAGS='-O2 -g -DJENC_POSIX_ONLY' CLI_FILES='$(POSIX_CLI)' \
	    all check-unit check-cli

# The whole unit and CLI suites again, built with ASan and UBSan.
check-asan:
	$(MAKE) O=build/asan CC=clang \
	    CFLAGS='-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all' \
	    LDFLAGS='-fsanitize=address,undefined' all check-unit check-cli

# The threads tests under ThreadSanitizer, and the command's -j on a log
# with bad lines (tests/diff/tsan_jobs.sh).
check-tsan:
	$(MAKE) O=build/tsan CC=clang CFLAGS='-O1 -g -fsanitize=thread' \
	    LDFLAGS='-fsanitize=thread' build/tsan/tests/test_threads \
	    build/tsan/tests/test_par build/tsan/jenc
	build/tsan/tests/test_threads
	build/tsan/tests/test_par
	sh tests/diff/tsan_jobs.sh build/tsan/jenc build/tsan/jobs

# valgrind memcheck over the corpus in three modes and the CSV demo.
check-valgrind: $(O)/jenc
	@for f in ../shared/corpus/* tests/data/demo.csv; do \
	    for m in -c "" "-H -a"; do \
	        valgrind -q --error-exitcode=99 --leak-check=full \
	            $(O)/jenc $$m $$f >/dev/null || { echo "valgrind: $$f [$$m]"; exit 1; }; \
	    done; echo "valgrind clean: $$f"; \
	done

# Opt-in: inputs over 4 GiB through a pipe (takes minutes).
check-slow: $(O)/jenc $(O)/libjenc.a
	$(CLI_ENV) JENC_SLOW=1 bats tests/cli/slow.bats

# Opt-in: GNU parallel over --sshlogin, against an sshd on 127.0.0.1 that
# the test starts and stops itself.
check-ssh: $(O)/jenc
	$(MAKE) deps EXTRA_PKGS='openssh-server openssh-client'
	$(CLI_ENV) JENC_SSH=1 bats tests/cli/parallel.bats

# ---- other processors, under emulation ----

# make check-cross builds jenc and the unit tests for each of CROSS_ARCHS
# with Debian's cross compilers (under build/cross/ARCH), runs the unit
# tests under qemu-user, and compares the output, messages and exit status
# of that jenc with the native build's on the corpus, the JSONTestSuite,
# CSV and other encodings (tests/cross/compare.sh).  It is opt-in: the
# emulated unit tests take more than an hour.  check-cross-ARCH does it
# for one processor.  check-cross-ci (in .ci/run) does it for the 64-bit
# ARM and one 32-bit processor, with the unit tests cut to what runs in
# minutes under emulation: without the binaries of CROSS_CI_LEAVE (their
# work is outside their tests) and the tests named in tests/cross/ci-skip
# (TEST_SKIP, see tests/unit/harness.h), the exhaustive and random runs
# that check-unit does natively; check-cross-ci-ARCH for one.
# make deps-cross installs the compilers, qemu-user and, for iconv's
# modules (gconv), the C library of each architecture (multiarch: it adds
# the architectures to dpkg).
CROSS_ARCHS ?= aarch64 i686 s390x
CROSS_CI_ARCHS ?= aarch64 i686
# ARCH's dpkg architecture, its multiarch directory, its qemu program.
cross_deb = $(patsubst aarch64,arm64,$(patsubst i686,i386,$(1)))
cross_multi = $(patsubst i686,i386,$(1))-linux-gnu
cross_qemu = qemu-$(patsubst i686,i386,$(1))
# How ARCH's programs run here: the emulator, with the C library and the
# gconv modules of multiarch's libc6:ARCH (in /lib/TRIPLET, where its
# dynamic loader looks; with the cross compiler's older copy, qemu -L
# /usr/TRIPLET, s390x programs stopped at once with "stack smashing
# detected").
cross_run = env GCONV_PATH=/usr/lib/$(call cross_multi,$(1))/gconv \
	$(call cross_qemu,$(1))
# (libc6-dev-ARCH-cross by name: the compilers only recommend it, and CI
# images often install no recommended packages.)
CROSS_PKGS = qemu-user $(foreach a,$(CROSS_ARCHS),gcc-$(a)-linux-gnu \
	libc6-dev-$(call cross_deb,$(a))-cross libc6:$(call cross_deb,$(a)))
CROSS_DIR = build/cross

.PHONY: deps-cross check-cross check-cross-ci

deps-cross:
	@for a in $(foreach a,$(CROSS_ARCHS),$(call cross_deb,$(a))); do \
	    dpkg --print-foreign-architectures | grep -qx $$a && continue; \
	    if [ "$$(id -u)" = 0 ]; then echo "dpkg --add-architecture $$a"; \
	        dpkg --add-architecture $$a || exit 1; \
	    else echo "jenc: run: sudo dpkg --add-architecture $$a" >&2; \
	        exit 1; fi; \
	done
	$(MAKE) deps DEPS_PKGS='$(CROSS_PKGS)'

CROSS_CI_LEAVE = test_reader
CROSS_CI_UNIT = $(filter-out $(CROSS_CI_LEAVE), \
	$(UNIT_SRC:tests/unit/%.c=%))

check-cross: $(addprefix check-cross-,$(CROSS_ARCHS))
check-cross-ci: $(addprefix check-cross-ci-,$(CROSS_CI_ARCHS))
check-cross-ci-%:
	$(MAKE) check-cross-$* CROSS_QUICK=1

# The cross compilers do not look in /usr/include, where Debian's
# libjsmn-dev puts jsmn.h (one header, no library): a copy of it.
check-cross-%: $(O)/jenc
	$(MAKE) deps-cross CROSS_ARCHS=$*
	@mkdir -p $(CROSS_DIR)/include
	cp /usr/include/jsmn.h $(CROSS_DIR)/include/jsmn.h
	$(if $(CROSS_QUICK),TEST_SKIP="$$(grep -v '^#' tests/cross/ci-skip)") \
	$(MAKE) O=$(CROSS_DIR)/$* CC=$*-linux-gnu-gcc \
	    CFLAGS='-O2 -g -isystem $(abspath $(CROSS_DIR)/include)' \
	    UNIT_EMU='$(call cross_run,$*)' \
	    $(if $(CROSS_QUICK),T='$(CROSS_CI_UNIT)') all check-unit
	tests/cross/compare.sh $(O)/jenc $(call cross_run,$*) \
	    $(CROSS_DIR)/$*/jenc

deps:
	@missing=; for p in $(DEPS_PKGS) $(EXTRA_PKGS); do \
	    dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	    if [ "$$(id -u)" = 0 ]; then \
	        echo "installing:$$missing"; \
	        apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; \
	    else \
	        echo "jenc: missing Debian packages:$$missing" >&2; \
	        echo "jenc: install them with: sudo apt-get install$$missing" >&2; exit 1; \
	    fi; \
	fi

# ---- demo ----

# The demo needs only what builds jenc.
demo:
	$(MAKE) deps DEPS_PKGS='$(DEMO_PKGS)'
	$(MAKE) all
	@for mode in "" "-c" "-H -c" "-a -c" "--tab"; do \
	    echo "\$$ jenc $$mode tests/data/demo.json"; $(O)/jenc $$mode tests/data/demo.json; echo; \
	done
	@echo '$$ jenc tests/data/demo.csv'; $(O)/jenc tests/data/demo.csv; echo
	@echo '$$ jenc -t -l tests/data/demo.csv'; $(O)/jenc -t -l tests/data/demo.csv; echo
	@echo '$$ jenc -c tests/data/demo-log.ndjson    # the 4th line is broken'; \
	    $(O)/jenc -c tests/data/demo-log.ndjson; echo "(exit status $$?)"

# ---- install ----

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(LIBDIR)/pkgconfig \
	    $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/share/man/man1 \
	    $(DESTDIR)$(PREFIX)/share/man/man3
	install -m 755 $(O)/jenc $(DESTDIR)$(PREFIX)/bin/jenc
	install -m 644 $(O)/libjenc.a $(DESTDIR)$(LIBDIR)/libjenc.a
	install -m 755 $(O)/$(SHLIB) $(DESTDIR)$(LIBDIR)/$(SOREAL)
	ln -sf $(SOREAL) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/$(SHLIB)
	install -m 644 $(O)/libjenc.pc $(DESTDIR)$(LIBDIR)/pkgconfig/libjenc.pc
	install -m 644 lib/jenc.h $(DESTDIR)$(PREFIX)/include/jenc.h
	install -m 644 man/jenc.1 $(DESTDIR)$(PREFIX)/share/man/man1/jenc.1
	install -m 644 man/jenc.3 $(DESTDIR)$(PREFIX)/share/man/man3/jenc.3
	@set -e; for c in jenc.bash:$(BASHCOMPDIR)/jenc _jenc:$(ZSHCOMPDIR)/_jenc \
	    jenc.fish:$(FISHCOMPDIR)/jenc.fish; do \
	    f=completions/$${c%%:*}; to=$(DESTDIR)$${c#*:}; \
	    [ -f $$f ] || continue; \
	    echo "install -m 644 $$f $$to"; \
	    install -d "$${to%/*}"; install -m 644 $$f "$$to"; \
	done
	@# The dynamic loader finds a new library in PREFIX/lib only once
	@# ldconfig has run; root installing to the running system runs it.
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && \
	    command -v ldconfig >/dev/null; then echo ldconfig; ldconfig; fi

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/jenc $(DESTDIR)$(LIBDIR)/libjenc.a \
	    $(DESTDIR)$(LIBDIR)/$(SHLIB) $(DESTDIR)$(LIBDIR)/$(SONAME) \
	    $(DESTDIR)$(LIBDIR)/$(SOREAL) \
	    $(DESTDIR)$(LIBDIR)/pkgconfig/libjenc.pc \
	    $(DESTDIR)$(PREFIX)/include/jenc.h \
	    $(DESTDIR)$(PREFIX)/share/man/man1/jenc.1 \
	    $(DESTDIR)$(PREFIX)/share/man/man3/jenc.3 \
	    $(DESTDIR)$(BASHCOMPDIR)/jenc $(DESTDIR)$(ZSHCOMPDIR)/_jenc \
	    $(DESTDIR)$(FISHCOMPDIR)/jenc.fish

# ---- Debian packages ----

deps-deb:
	$(MAKE) deps DEPS_PKGS='libjsmn-dev $(DEB_PKGS)'

# jenc, libjenc1 and libjenc-dev (and their -dbgsym) into $(O)/deb/, built
# by dpkg-buildpackage from a copy of the tree (it writes to the parent
# directory, and cleans the tree it builds in), then checked by lintian.
# The build gets none of this make's flags or variables: debian/rules sets
# its own, and DEB_BUILD_OPTIONS (nocheck, parallel=N) still applies.
deb: deps-deb
	rm -rf $(O)/deb
	mkdir -p $(O)/deb/src
	tar -cf $(O)/deb/src.tar --exclude=./.git --exclude=./build \
	    --exclude='./$(O)' .
	tar -xf $(O)/deb/src.tar -C $(O)/deb/src
	rm $(O)/deb/src.tar
	cd $(O)/deb/src && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	    dpkg-buildpackage -us -uc -b
	rm -rf $(O)/deb/src
	lintian --fail-on error,warning $(O)/deb/jenc_$(VERSION)_*.changes
	@ls $(O)/deb/*.deb

# Installs the packages of make deb with dpkg -i, uses them, removes them.
check-deb: deb
	$(MAKE) deps DEPS_PKGS=bats
	JENC_DEB_DIR=$(abspath $(O)/deb) bats tests/deb

lint:
	mandoc -Tlint -Wwarning man/jenc.1 man/jenc.3

clean:
	rm -rf build

-include bench/bench.mk
-include tests/fuzz/fuzz.mk
-include tests/diff/diff.mk

# The header dependencies the compiler wrote (see DEPFLAGS).
-include $(wildcard $(O)/obj/*.d $(O)/cmd/*.d $(O)/tests/*.d)
