# bench.mk - `make bench`: libjenc and the jenc CLI against other JSON tools
# and libraries.  Included by the top Makefile.  See bench/RESULTS.md.
#
#   make bench           full run (about 30 minutes on 2 cores), writes
#                        bench/RESULTS.md, bench/results.svg, bench/raw.txt
#   make bench QUICK=1   smaller inputs and fewer runs (under 2 minutes);
#                        writes the same files under build/bench/ only
#   make bench BENCH_CPU=N   time every command on CPU N (default: the
#                        fastest by a short calibration; none: no pinning)
#   make bench-compare BASE=/path/to/jenc   this tree against another build,
#                        mode by mode (bench/compare.sh)
#   make deps-bench      install the peers (as root; else prints the
#                        apt-get line)
#   make bench-node      pino-pretty from the npm registry into
#                        $(O)/bench/node (make bench runs it; where the
#                        registry is unreachable its row is skipped)
#   bash bench/compare_peers.sh   what jq, gojq, json_reformat, json.tool,
#                        mlr and csvjson do and do not do, by running
#                        them (bench/COMPARISON.md is made from it)
#
# Generated inputs go to $(O)/bench/in/ (deterministic, seeded) and are
# kept between runs.

BENCH_O = $(O)/bench

# The tools and libraries jenc is compared with, and what runs them.
BENCH_PKGS = jq gojq yajl-tools python3 miller csvkit gnuplot-nox golang-go \
	libyajl-dev libcjson-dev libjansson-dev libjson-c-dev libjsmn-dev \
	nodejs npm

# The C++ peers (simdjson, RapidJSON) and what builds them; `make deps`
# installs them too (and so `make deps-bench`), so that a machine set up
# for `make check` has every peer of `make bench`.  Each peer is built only when its
# header is there; bench/run.sh skips its rows, with a note, when not.
BENCH_PEER_PKGS = g++ libsimdjson-dev rapidjson-dev
DEPS_PKGS += $(BENCH_PEER_PKGS)
CXX ?= c++
BENCH_CXXFLAGS = -std=c++17 -Wall -Wextra $(CFLAGS)

BENCH_LIBS = -lyajl -lcjson -ljansson -ljson-c

BENCH_BIN = $(BENCH_O)/libbench $(BENCH_O)/jsmnbench $(BENCH_O)/cmdbench \
	$(BENCH_O)/jsoncanon $(BENCH_O)/gen $(BENCH_O)/jsmnfloor
ifneq ($(wildcard /usr/include/simdjson.h),)
BENCH_BIN += $(BENCH_O)/simdminify $(BENCH_O)/simdparse
endif
ifneq ($(wildcard /usr/include/rapidjson/reader.h),)
BENCH_BIN += $(BENCH_O)/rjcopy
endif

.PHONY: deps-bench bench-bin bench-node

deps-bench:
	$(MAKE) deps EXTRA_PKGS='$(BENCH_PKGS)'

bench-bin: $(BENCH_BIN)

bench: deps-bench
	$(MAKE) all
	$(MAKE) bench-bin
	$(MAKE) bench-node
	O='$(O)' QUICK='$(QUICK)' BENCH_CPU='$(BENCH_CPU)' bash bench/run.sh

# The pino-pretty of the log rows (bench/run.sh), as Node users install it.
bench-node:
	@mkdir -p $(BENCH_O)/node
	@command -v npm >/dev/null && npm install --prefix $(BENCH_O)/node \
	    --no-audit --no-fund pino-pretty || \
	    echo "bench: pino-pretty not installed (no npm, or the npm registry is unreachable): its row is skipped"

$(BENCH_O)/libbench: bench/libbench.c bench/libbench_jsonc.c bench/libbench.h \
    bench/sha256.h lib/jenc.h $(O)/libjenc.a
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ bench/libbench.c bench/libbench_jsonc.c \
	    $(O)/libjenc.a $(BENCH_LIBS) $(LDLIBS)

$(BENCH_O)/jsmnbench: bench/jsmnbench.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ bench/jsmnbench.c

$(BENCH_O)/jsmnfloor: bench/jsmnfloor.c bench/peerio.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ bench/jsmnfloor.c

# simdjson's CMake package builds its users with SIMDJSON_THREADS_ENABLED,
# as the library was built; neither program starts a thread.
$(BENCH_O)/simdminify: bench/simdminify.cpp bench/peerio.h
	@mkdir -p $(@D)
	$(CXX) $(BENCH_CXXFLAGS) -DSIMDJSON_THREADS_ENABLED=1 -pthread -o $@ \
	    bench/simdminify.cpp -lsimdjson

$(BENCH_O)/simdparse: bench/simdparse.cpp bench/peerio.h
	@mkdir -p $(@D)
	$(CXX) $(BENCH_CXXFLAGS) -DSIMDJSON_THREADS_ENABLED=1 -pthread -o $@ \
	    bench/simdparse.cpp -lsimdjson

# RAPIDJSON_SSE2: its SIMD whitespace skipping, with x86-64's baseline.
$(BENCH_O)/rjcopy: bench/rjcopy.cpp
	@mkdir -p $(@D)
	$(CXX) $(BENCH_CXXFLAGS) $(if $(filter x86_64,$(shell uname -m)),-DRAPIDJSON_SSE2) \
	    -o $@ bench/rjcopy.cpp

$(BENCH_O)/cmdbench: bench/cmdbench.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ bench/cmdbench.c

$(BENCH_O)/jsoncanon: bench/jsoncanon.c bench/sha256.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ bench/jsoncanon.c -lyajl

$(BENCH_O)/gen: bench/gen.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ bench/gen.c

# make bench-compare BASE=/path/to/other/jenc: this tree's jenc against
# another build, mode by mode, round-robin on one CPU (bench/compare.sh).
.PHONY: bench-compare
bench-compare: all $(BENCH_O)/cmdbench $(BENCH_O)/gen
	O='$(O)' BASE='$(BASE)' RUNS='$(RUNS)' QUICK='$(QUICK)' \
	    BENCH_CPU='$(BENCH_CPU)' bash bench/compare.sh
