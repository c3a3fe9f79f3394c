#!/bin/bash
# bench/report.sh - turn the results of bench/run.sh into RESULTS.md,
# raw.txt and results.svg in $OUTDIR.  Reads $W/rows.tsv (CLI rows),
# $W/raw-lib.txt and $W/lib-checks.txt (library benchmarks),
# $W/raw-cli.txt (Go benchmark lines of the CLI runs).  Can be run again
# on its own with the same environment as run.sh sets.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
: "${O:?}" "${B:?}" "${W:?}" "${OUTDIR:?}"
QUICK=${QUICK:-}
GO=${GO:-}
PY=${PY:-python3}
JENC=${JENC:-$O/jenc}
mkdir -p "$OUTDIR"

pkgver() { dpkg-query -W -f '${Version}' "$1" 2>/dev/null || echo "not installed"; }
firstline() { "$@" 2>&1 | head -n 1 || true; }

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
cores=$(nproc)
mem=$(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
os=$(. /etc/os-release && echo "$PRETTY_NAME")
kernel=$(uname -sr)
date=$(date -u '+%Y-%m-%d %H:%M UTC')
commit=$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo unknown)
load=$(sed 's/.*load average: //' "$W/load.txt" 2>/dev/null || echo unknown)
pin=$(cat "$W/cpu.txt" 2>/dev/null || echo none)

# ---- raw.txt: everything benchstat can read ----
{
	echo "goos: linux"
	echo "goarch: $(uname -m)"
	echo "cpu: $cpu"
	echo "pkg: jenc/bench"
	echo "note: $date, jenc $commit${QUICK:+, QUICK}"
	grep '^Benchmark' "$W/raw-lib.txt" || true
	cat "$W/raw-cli.txt"
} > "$OUTDIR/raw.txt"

# ---- RESULTS.md ----
versions() {
	cat <<EOF
| tool or library | version |
| --- | --- |
| jenc | $("$JENC" --version 2>&1 | head -n 1) (commit $commit), $(firstline "${CC:-cc}" --version) -O2 |
| jq | $(pkgver jq) |
| gojq | $(pkgver gojq) |
| json_reformat (yajl-tools) | $(pkgver yajl-tools) |
| python3 -m json.tool | $(firstline "$PY" --version) ($PY) |
| Go encoding/json (tests/ref/jsonref.go) | $(firstline go version) |
| miller (mlr) | $(pkgver miller) |
| csvkit (csvjson, in2csv) | $(pkgver csvkit) |
| jsmn | $(pkgver libjsmn-dev) |
| simdjson (bench/simdminify.cpp, bench/simdparse.cpp) | $(pkgver libsimdjson-dev), $(firstline "${CXX:-c++}" --version) -O2 |
| RapidJSON (bench/rjcopy.cpp) | $(pkgver rapidjson-dev) |
| cat (coreutils) | $(pkgver coreutils) |
| yajl (libyajl) | $(pkgver libyajl-dev) |
| cJSON | $(pkgver libcjson-dev) |
| jansson | $(pkgver libjansson-dev) |
| json-c | $(pkgver libjson-c-dev) |
| gnuplot | $(pkgver gnuplot-nox) |
EOF
}

method() {
	cat <<'EOF'
## How it is measured

- **Inputs** (`build/bench/in/`, made by `bench/gen.c`, the same bytes on every
  machine): the shared/corpus files as they are; a mixed document (twitter,
  citm_catalog, canada and code.json repeated inside one array); an NDJSON file
  (amazon_cellphones.ndjson repeated); a generated document (seeded records
  with escapes, UTF-8 of every length, `<>&`, U+2028, numbers in every JSON
  form), fed through a pipe; a generated CSV (ints, decimals, negative and
  empty fields, true/false, quoted fields with commas, doubled quotes and
  newlines, non-ASCII text); for JSON to CSV, JSON Lines of flat records (the
  CSV's columns, some null) and one array of nested records of a fixed shape
  (`gen flat`, `gen nested`).
- **Output checks before timing** (`bench/run.sh`): jenc must be byte-identical
  to Go's encoding/json (`tests/ref/jsonref.go`: json.Compact, json.Indent,
  json.HTMLEscape).  Other tools format differently, so their output must be
  byte-identical or hold the same values: `bench/jsoncanon.c` digests the
  value stream (strings after unescaping, numbers as IEEE doubles, member order
  kept; `-k` sorts members for gojq, which sorts keys; `-s` compares every CSV
  scalar as text, since Miller infers numbers and jenc without `-t` does not).
  JSON to CSV (`bench/csvcheck.py`): jenc's CSV, read by Python's csv module,
  must hold the records as json.loads reads them (flattened as jenc(1) says);
  Miller's and csvkit's cells must equal jenc's, numbers compared as values,
  true/false in any case, null as empty or the word null (Miller's).
  A tool whose output differs is listed as DIFFERS and gets no speed.
- **Timing** (`bench/cmdbench.c`): the command is run without a shell, stdin
  from the file (or from a feeder process through a pipe), stdout to
  /dev/null; wall time from fork to exit; peak RSS of the command itself from
  wait4(2); the command alone (not the feeder, not Go programs) is pinned to
  the calibrated CPU (`-c`).  The check run goes first and warms the page
  cache.  The rows of one input are then timed round-robin, one run of each
  tool in turn (the jsmn row too), so that a change in the machine's load
  falls on all of them alike.  On the
  largest input, tools that load the whole document run once and that run is
  both checked and timed (its output goes to a file); gojq and python are not
  run on it.
- **The log rows**: a generated pino log (`gen pino`: time in Unix
  milliseconds, numeric levels, 5 to 10 members, 1% with an `err` whose
  stack has several lines), shown by `jenc --log`, by pino-pretty (installed
  from npm by `make bench-node`) and by `jq -r` with the three fields, all in
  UTC; `bench/logcheck.py` checks that each shows the time, level and message
  of every record, in order, before the tool is timed.
- **The jsmn row** (`bench/jsmnbench.c`): the system jsmn.h with JSMN_STRICT
  and JSMN_PARENT_LINKS tokenizing the file held in memory into a token array
  sized for it: no I/O and no output, a ceiling rather than a competitor.
- **Library benchmarks** (`bench/libbench.c`, linked with `build/libjenc.a`):
  Go-style calibrated loops (`-benchtime`, `-count`); allocations counted with
  jenc_pool_stats_get() for jenc and, for the other libraries, through their
  allocator hooks (yajl, jansson) or a malloc/calloc/realloc/free interposer
  (cJSON, json-c); see the comment at the top of libbench.c.  Tree libraries
  (cJSON, jansson, json-c) build their tree and print it in each operation:
  that is how they encode.  Their output is checked against jenc's before
  timing: byte-identical, or equal values after parsing (LargeOutput, where
  the libraries print code.json's floating-point numbers with different
  digits).
- **Comparing runs**: `benchstat old/raw.txt new/raw.txt`.
EOF
}

{
	echo "# jenc benchmark results"
	echo
	echo "Written by \`make bench${QUICK:+ QUICK=1}\` on $date.  Raw Go benchmark lines (for"
	echo "benchstat) are in [raw.txt](raw.txt); the chart is [results.svg](results.svg)."
	if [ -n "$QUICK" ]; then
		echo
		echo "**QUICK run: small inputs, one run each; figures are indicative only.**"
	fi
	echo
	echo "## Machine"
	echo
	echo "- CPU: $cpu, $cores cores; memory $mem"
	echo "- System: $os, $kernel"
	echo "- Load average when the run started: $load (the machine is shared; medians"
	echo "  over several runs damp, but do not remove, interference)"
	if [ "$pin" = none ]; then
		echo "- Timed commands were not pinned to a CPU"
	else
		echo "- Every timed command and the jsmn ceiling ran on CPU $pin (the fastest in"
		echo "  a calibration at the start; BENCH_CPU overrides), so rows compared side"
		echo "  by side share one core; Go programs (jsonref, gojq, mlr), which run several"
		echo "  threads, and the library benchmarks are not pinned"
	fi
	echo
	echo "## Versions"
	echo
	versions
	echo
	awk -v chart="$W/chart.dat" -f "$REPO/bench/report.awk" \
	    "$W/rows.tsv" "$W/raw-lib.txt" "$W/lib-checks.txt"
	method
} > "$OUTDIR/RESULTS.md"

# report.awk wrote the chart data while reading; draw it.
if command -v gnuplot >/dev/null 2>&1; then
	ncols=$(awk -F'\t' '{ print NF; exit }' "$W/chart.dat")
	gnuplot -e "datafile='$W/chart.dat'; outfile='$OUTDIR/results.svg'; ncols=$ncols" \
	    "$REPO/bench/results.gp"
else
	echo "bench: gnuplot not installed, no chart" >&2
fi
