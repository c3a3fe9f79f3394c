# tests/diff/diff.mk - the differential stream test, included by the top
# Makefile.
#
#	make check-diff			DIFF_CASES cases of seed DIFF_SEED
#	make fuzz-streams		CASES cases of a random seed
#	make fuzz-streams SEED=123 CASES=20000
#	make check-diff JENC_DIFF=build/asan/jenc	another binary
#
# streamdiff.py makes each case (a random log, line of values, document
# or text sequence, good or bad, and random options) from the seed and
# its number, reads it with jenc in every way there is (-j 1, 2, 3 with
# chunks down to a byte, a file read or mapped, a pipe, a pipe fed in
# pieces, UTF-16 and UTF-32 with a byte order mark, --encoding, --jsonc
# with comments added) and fails on any difference in standard output,
# standard error or exit status, and on valid input on any difference
# from Go's encoding/json (tests/ref/jsonref.go).  A failure prints the
# seed, the case, the input reduced, the two commands to compare and the
# command that runs that case again.  Inputs go to $(O)/diff/.
#
# check-diff runs in make check: its 250 cases take about 20 s of CPU,
# 50 s on two cores shared with other builds.  fuzz-streams prints its
# seed first.

DIFF_SEED ?= 1
DIFF_CASES ?= 250
CASES ?= 5000
SEED ?=
JENC_DIFF ?= $(O)/jenc
DIFF_RUN = JSONREF_DIR=$(abspath $(O)/ref) python3 tests/diff/streamdiff.py \
	--jenc $(JENC_DIFF) --dir $(O)/diff

.PHONY: check-diff fuzz-streams

check-diff: $(O)/jenc
	$(DIFF_RUN) --seed $(DIFF_SEED) --cases $(DIFF_CASES)

fuzz-streams: $(O)/jenc
	$(DIFF_RUN) $(if $(SEED),--seed $(SEED)) --cases $(CASES)
