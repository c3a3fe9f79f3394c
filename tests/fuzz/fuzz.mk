# tests/fuzz/fuzz.mk - libFuzzer harnesses, included by the top Makefile.
#
#	make fuzz			each harness for FUZZ_SECONDS (60) seconds
#	make fuzz FUZZ_SECONDS=300
#	make fuzz-long			each harness for 30 minutes
#	make fuzz-build			build the harnesses only
#	make fuzz-replay		only the fixed inputs (below)
#	make fuzz FUZZ_HARNESSES=api	one harness
#
# The harnesses are compiled together with lib/*.c under
# -fsanitize=fuzzer,address,undefined.  Seed corpora and dictionaries are
# built at run time by seeds.py from ../shared (FUZZ_SHARED) into
# $(O)/fuzz/seeds/ and $(O)/fuzz/*.dict (O is build unless given); the
# inputs libFuzzer finds go to $(O)/fuzz/corpus/NAME/ and are kept between
# runs.  Before fuzzing, each harness runs the fixed inputs of seeds.py's
# REPLAY ($(O)/fuzz/replay/NAME/), each in a process of its own, so that
# what a harness does on its first input (its buffers not yet allocated)
# is checked on every run, not only when the fuzzer happens to start with
# such an input; make fuzz stops if one fails.  A crash or a
# failed property (the harness prints "fuzz: property failed: ..." and
# aborts) leaves its input in $(O)/fuzz/crashes/NAME-crash-<sha1>;
# replay it with
#	build/fuzz/fuzz_NAME build/fuzz/crashes/NAME-crash-<sha1>
# FUZZ_TRACE=1 makes fuzz_api print each call with its model state:
#	FUZZ_TRACE=1 build/fuzz/fuzz_api build/fuzz/crashes/api-crash-<sha1>
# Every harness runs in one process (one core); make fuzz fails if any
# harness found something, after running them all.
#
# To fuzz on past known, reported failures, name pieces of their messages
# ('|' between them):
#	make fuzz FUZZ_IGNORE="'invalid input'|jenc_release after an error"
# Inputs failing with a message that contains one are dropped instead of
# stopping the run (leak detection is then off: they leak).

FUZZ_SECONDS ?= 60
FUZZ_LONG_SECONDS ?= 1800
FUZZ_HARNESSES ?= json jsonc csv api conv skel tocsv logfd
FUZZ_CC ?= clang
FUZZ_MAX_LEN ?= 8192
FUZZ_SHARED ?= $(abspath $(CURDIR)/../shared)
FUZZ_ARGS ?=
FUZZ_IGNORE ?=
export FUZZ_IGNORE
FUZZ_LEAKS = $(if $(FUZZ_IGNORE),-detect_leaks=0)
FUZZ_ENV = $(if $(FUZZ_IGNORE),ASAN_OPTIONS=detect_leaks=0)
FUZZ_DIR := $(O)/fuzz
FUZZ_CFLAGS = -std=c11 -g -O1 -fno-omit-frame-pointer \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
FUZZ_COMMON := tests/fuzz/fuzz_util.c tests/fuzz/fuzz_util.h

.PHONY: fuzz-build fuzz-seeds fuzz-replay fuzz-long

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_COMMON) $(LIB_SRC) lib/jenc.h \
    lib/internal.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) $(WARN) -Itests/fuzz -o $@ \
	    $< tests/fuzz/fuzz_util.c $(LIB_SRC) $(LDLIBS) -lm

fuzz-build: $(FUZZ_HARNESSES:%=$(FUZZ_DIR)/fuzz_%)

fuzz-seeds:
	rm -rf $(FUZZ_DIR)/seeds $(FUZZ_DIR)/replay
	python3 tests/fuzz/seeds.py $(FUZZ_SHARED) $(FUZZ_DIR)

fuzz-replay: fuzz-build fuzz-seeds
	@failed=; for h in $(FUZZ_HARNESSES); do \
	    n=0; : >$(FUZZ_DIR)/$$h.replay.log; \
	    for f in $(FUZZ_DIR)/replay/$$h/*; do \
	        n=$$((n + 1)); \
	        $(FUZZ_ENV) $(FUZZ_DIR)/fuzz_$$h $(FUZZ_LEAKS) $$f \
	            >>$(FUZZ_DIR)/$$h.replay.log 2>&1 || { \
	            failed="$$failed $$h"; \
	            echo "fuzz_$$h fails on $$f:"; od -A d -c $$f | head -n 4; \
	            grep -E -A3 'property failed|ERROR: |runtime error|SUMMARY' \
	                $(FUZZ_DIR)/$$h.replay.log | head -n 20; break; }; \
	    done; echo "== fuzz_$$h: $$n fixed inputs run"; \
	done; \
	if [ -n "$$failed" ]; then \
	    echo "fuzz: fixed inputs fail in:$$failed (logs" \
	        "$(FUZZ_DIR)/NAME.replay.log)" >&2; exit 1; fi

fuzz: fuzz-replay
	@mkdir -p $(FUZZ_DIR)/crashes; failed=; \
	for h in $(FUZZ_HARNESSES); do \
	    mkdir -p $(FUZZ_DIR)/corpus/$$h; \
	    echo "== fuzz_$$h for $(FUZZ_SECONDS) s"; \
	    $(FUZZ_ENV) $(FUZZ_DIR)/fuzz_$$h -max_total_time=$(FUZZ_SECONDS) \
	        -timeout=60 -rss_limit_mb=2048 -max_len=$(FUZZ_MAX_LEN) \
	        -dict=$(FUZZ_DIR)/$$h.dict -print_final_stats=1 \
	        -artifact_prefix=$(FUZZ_DIR)/crashes/$$h- $(FUZZ_LEAKS) \
	        $(FUZZ_ARGS) \
	        $(FUZZ_DIR)/corpus/$$h $(FUZZ_DIR)/seeds/$$h \
	        2>$(FUZZ_DIR)/$$h.log; rc=$$?; \
	    grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ +DONE)' \
	        $(FUZZ_DIR)/$$h.log; \
	    if [ $$rc != 0 ]; then failed="$$failed $$h"; \
	        grep -E -A3 'property failed|ERROR: |SUMMARY|Test unit written' \
	            $(FUZZ_DIR)/$$h.log | head -n 40; fi; \
	done; \
	if [ -n "$$failed" ]; then \
	    echo "fuzz: failures in:$$failed (logs $(FUZZ_DIR)/NAME.log," \
	        "inputs $(FUZZ_DIR)/crashes/)" >&2; exit 1; fi

fuzz-long:
	$(MAKE) fuzz FUZZ_SECONDS=$(FUZZ_LONG_SECONDS)
