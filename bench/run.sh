#!/bin/bash
# bench/run.sh - what `make bench` runs once the binaries are built: the
# library benchmarks, then every CLI comparison side by side, then the
# report (bench/report.sh).
#
# Environment: O (build directory, default build), QUICK (non-empty: small
# inputs, one run each, results under $O/bench/ only), BENCH_CPU (the CPU
# every timed command and the jsmn ceiling run on; default: the fastest
# one by a short calibration; "none": no pinning).
#
# Every comparison first checks the tool's output against a reference:
# byte-identical where the format is the same (jenc against Go's
# encoding/json), equal as values otherwise (bench/jsoncanon digests), and
# a tool whose output differs gets no speed.  Timing and peak RSS come
# from bench/cmdbench (wait4(2)), the jsmn ceiling from bench/jsmnbench;
# the rows of one input are timed round-robin (see flush_rows).
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
SHARED=$(cd "$REPO/../shared" && pwd)
CORPUS=$SHARED/corpus
O=${O:-build}
case $O in /*) ;; *) O=$REPO/$O ;; esac
B=$O/bench
IN=$B/in
W=$B/work
QUICK=${QUICK:-}
JENC=$O/jenc

if [ -n "$QUICK" ]; then
	MIXED_BYTES=3000000 MIXED_NAME=mixed-3MB.json
	NDJSON_BYTES=3000000 NDJSON_NAME=amazon-3MB.ndjson
	DOC_BYTES=10000000 DOC_NAME=doc-10MB.json
	CSV_ROWS=20000 CSVJSON_ROWS=2000
	FLAT_BYTES=3000000 FLAT_NAME=flat-3MB.ndjson
	FLAT_SLICE_BYTES=300000 FLAT_SLICE_NAME=flat-300KB.ndjson
	NESTED_BYTES=10000000 NESTED_NAME=nested-10MB.json
	PINO_BYTES=3000000 PINO_NAME=pino-3MB.ndjson
	RUNS_FAST=1 RUNS_SLOW=1 RUNS_PY=1 RUNS_HUGE=1 RUNS_CORPUS=1
	LIB_ARGS="-benchtime 0.02 -count 1 -copies 3"
	OUTDIR=$B
	CORPUS_FILES="twitter.json"
else
	MIXED_BYTES=50000000 MIXED_NAME=mixed-50MB.json
	NDJSON_BYTES=50000000 NDJSON_NAME=amazon-50MB.ndjson
	DOC_BYTES=1000000000 DOC_NAME=doc-1GB.json
	CSV_ROWS=500000 CSVJSON_ROWS=20000
	FLAT_BYTES=55000000 FLAT_NAME=flat-55MB.ndjson
	FLAT_SLICE_BYTES=3000000 FLAT_SLICE_NAME=flat-3MB.ndjson
	NESTED_BYTES=200000000 NESTED_NAME=nested-200MB.json
	PINO_BYTES=55000000 PINO_NAME=pino-55MB.ndjson
	# python's json.tool takes about a minute per run on the 50 MB inputs:
	# one run, the checked one
	RUNS_FAST=9 RUNS_SLOW=3 RUNS_PY="1*" RUNS_HUGE=3 RUNS_CORPUS=5
	LIB_ARGS="-benchtime 1 -count 5 -copies 250"
	OUTDIR=$REPO/bench
	CORPUS_FILES="twitter.json citm_catalog.json canada.json code.json amazon_cellphones.ndjson"
fi

mkdir -p "$IN" "$W"
ROWS=$W/rows.tsv		# one line per comparison row, read by report.sh
RAWCLI=$W/raw-cli.txt		# Go benchmark lines of the CLI runs
LOG=$W/log.txt			# stderr of checks and tools
: > "$ROWS"
: > "$RAWCLI"
: > "$LOG"
uptime > "$W/load.txt"

say() { printf 'bench: %s\n' "$*" >&2; }

# ---- inputs (deterministic; regenerated only when gen is newer) ----

# shellcheck source=bench/inputs.sh
. "$REPO/bench/inputs.sh"

MIXED=$IN/$MIXED_NAME
NDJSON=$IN/$NDJSON_NAME
DOC=$IN/$DOC_NAME
CSV=$IN/rows-$CSV_ROWS.csv
CSV_SLICE=$IN/rows-$CSVJSON_ROWS.csv
gen_input "$MIXED" mixed "$MIXED_BYTES" "$CORPUS/twitter.json" \
    "$CORPUS/citm_catalog.json" "$CORPUS/canada.json" "$CORPUS/code.json"
gen_input "$NDJSON" ndjson "$NDJSON_BYTES" "$CORPUS/amazon_cellphones.ndjson"
gen_input "$DOC" doc "$DOC_BYTES" 20240611
gen_input "$CSV" csv "$CSV_ROWS" 7
gen_input "$CSV_SLICE" csv "$CSVJSON_ROWS" 7
FLAT=$IN/$FLAT_NAME
FLAT_SLICE=$IN/$FLAT_SLICE_NAME
NESTED=$IN/$NESTED_NAME
gen_input "$FLAT" flat "$FLAT_BYTES" 1
gen_input "$FLAT_SLICE" flat "$FLAT_SLICE_BYTES" 1
gen_input "$NESTED" nested "$NESTED_BYTES" 1
PINO=$IN/$PINO_NAME
gen_input "$PINO" pino "$PINO_BYTES" 20240501

# ---- tools ----

PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3	# Debian's, not a shim
GO=
if GO=$(JSONREF_DIR=$O/ref sh "$REPO/tests/ref/jsonref.sh" 2>>"$LOG"); then
	:
else
	GO=
	say "Go reference program unavailable: jenc checked against values only"
fi

have() { command -v "$1" >/dev/null 2>&1; }

# The C++ peers (bench/bench.mk builds each one only when its library's
# headers are installed) and the jsmn floor.
SIMDMIN=$B/simdminify
SIMDPARSE=$B/simdparse
RJ=$B/rjcopy
FLOOR=$B/jsmnfloor
have "$SIMDMIN" || say "simdjson rows skipped: libsimdjson-dev is not installed (make deps-bench)"
have "$RJ" || say "RapidJSON rows skipped: rapidjson-dev is not installed (make deps-bench)"
# pino-pretty, which `make bench` installs with npm where the registry is
# reachable
PINO_PRETTY=$B/node/node_modules/.bin/pino-pretty
have "$PINO_PRETTY" || say "pino-pretty row skipped: not installed (npm registry unreachable?)"

# Rows for jenc -j 2 when this jenc has the option.
JOBS=
if "$JENC" --help 2>/dev/null | grep -q -e '--jobs'; then
	JOBS=1
else
	say "jenc -j 2 rows skipped: this jenc has no --jobs option"
fi

# ---- the CPU timed commands run on ----
#
# On a shared virtual machine one core can run at half the speed of the
# other for minutes at a time.  Commands compared side by side are pinned
# to the same core (cmdbench -c, jsmnbench -c), the one where jsmn on the
# mixed document is fastest in a short calibration.  Go programs, which run
# several threads, are not pinned.
PIN=()
BENCH_CPU=${BENCH_CPU:-auto}
if [ "$BENCH_CPU" = auto ]; then
	best= best_ns=
	ncpu=$(nproc 2>/dev/null || echo 1)
	for ((c = 0; c < ncpu && c < 64; c++)); do
		ns=$("$B/jsmnbench" -c "$c" -n 5 -l Calibrate -S /dev/stdout \
		    "$MIXED" 2>>"$LOG" | awk -F'\t' 'NF == 8 { print $4 }') || ns=
		[ -n "$ns" ] || continue
		say "calibration: jsmn on CPU $c: median $((ns / 1000000)) ms"
		if [ -z "$best" ] || [ "$ns" -lt "$best_ns" ]; then
			best=$c best_ns=$ns
		fi
	done
	BENCH_CPU=${best:-none}
fi
if [ "$BENCH_CPU" != none ]; then
	PIN=(-c "$BENCH_CPU")
	say "timed commands run on CPU $BENCH_CPU"
fi
echo "$BENCH_CPU" > "$W/cpu.txt"

# ---- one comparison row ----
#
# row TABLE INPUT FILE FEED RUNS MODE TOOL -- COMMAND...
#   FEED   file (stdin is the file) or pipe (fed through a pipe)
#   RUNS   timed runs; "1*" = one run, which is also the checked run
#          (written to a file instead of /dev/null; for slow tools on
#          the largest input, and for every row with QUICK)
#   MODE   log:FORMAT    a log shown for people: the time, level and
#                        message of each record (bench/logcheck.py)
#          truth:NAME    this output is the reference NAME
#          bytes:NAME    must be byte-identical to NAME
#          value:NAME    identical, or equal values (jsoncanon)
#          value-k:NAME  equal values, object members in any order (gojq)
#          strings:NAME  equal with every scalar taken as text (CSV)
#          csvjson:NAME  CSV that holds the records of the input as
#                        json.loads reads them (bench/csvcheck.py): the
#                        reference NAME
#          csv:NAME      the same CSV cells as NAME
#          csvloose:NAME the same cells, numbers as values, true/false
#                        in any case, null as empty or the word
#          none          no output to check (not used by CLI rows)
#   TOOL   name shown in the report; a name starting with "jenc" marks
#          the row the table's ratios are taken against (the first one)

canon() {	# canon FLAGS FILE -> digest of values
	"$B/jsoncanon" $1 < "$2" 2>>"$LOG" | cut -d' ' -f1
}

truth_canon() {	# cached digest of a reference
	local name=$1 flags=$2 c=$W/truth-$1.canon$2
	[ -s "$c" ] || canon "$flags" "$W/truth-$name.out" > "$c"
	cat "$c"
}

add_row() {	# KEY TABLE INPUT SIZE TOOL CMD CHECK RUNS MED MIN MAX RSS NOTE CPU
	local IFS=$'\t'
	printf '%s\n' "$*" >> "$ROWS"
}

# ---- the queue: rows are timed together, one run of each in turn ----
#
# The load on a shared machine changes over minutes: tools timed one after
# the other can meet different conditions.  So row and jsmn_row only check
# a tool's output and queue its timing; flush_rows then times the queued
# rows round-robin (a run of each, then the next run of each, ...) and
# writes every row in queue order.
Q_N=0
Q_ROW=()	# a finished row (add_row's fields, tab-separated), or empty
Q_META=()	# timed rows: KEY TABLE INPUT SIZE TOOL CMD CHECK, tab-separated
Q_RUNS=()
Q_ARGV=()	# the command that times one run, quoted for eval
Q_NOTE=()

queue_done() {	# add_row's arguments
	local IFS=$'\t'
	Q_ROW[Q_N]="$*" Q_META[Q_N]= Q_RUNS[Q_N]=0 Q_ARGV[Q_N]= Q_NOTE[Q_N]=
	Q_N=$((Q_N + 1))
}

queue_timed() {	# KEY TABLE INPUT SIZE TOOL CMD CHECK RUNS NOTE -- COMMAND...
	local IFS=$'\t'
	Q_ROW[Q_N]= Q_META[Q_N]="${*:1:7}" Q_RUNS[Q_N]=$8 Q_NOTE[Q_N]=$9
	shift 10
	Q_ARGV[Q_N]=$(printf '%q ' "$@")
	Q_N=$((Q_N + 1))
}

# median, min and max of column 4 (wall ns), max of column 7 (RSS KiB) and
# median of column 8 (CPU ns) of summary lines, with their number first
q_stats() {
	awk -F'\t' '
	function med(v, n,   i, j, t) {
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
				t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
			}
		return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
	}
	{ n++; w[n] = $4; c[n] = $8; if ($7 > rss) rss = $7 }
	END {
		lo = w[1]; hi = w[1]
		for (i = 2; i <= n; i++) {
			if (w[i] < lo) lo = w[i]
			if (w[i] > hi) hi = w[i]
		}
		printf "%d\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\n", n, med(w, n), lo, hi,
		    rss, med(c, n)
	}' "$1"
}

flush_rows() {
	local i r max=0 args rc k t inp sz tool cmd check n med lo hi rss cpu
	for ((i = 0; i < Q_N; i++)); do
		[ "${Q_RUNS[i]}" -gt "$max" ] && max=${Q_RUNS[i]}
		rm -f "$W/q-$i.tsv" "$W/q-$i.failed"
	done
	[ "$max" -gt 0 ] && say "timing the rows above: $max rounds"
	for ((r = 1; r <= max; r++)); do
		for ((i = 0; i < Q_N; i++)); do
			[ "${Q_RUNS[i]}" -ge "$r" ] || continue
			[ -e "$W/q-$i.failed" ] && continue
			eval "args=(${Q_ARGV[i]})"
			rc=0
			"${args[@]}" >> "$RAWCLI" 2>>"$LOG" || rc=$?
			[ "$rc" = 0 ] || : > "$W/q-$i.failed"
		done
	done
	for ((i = 0; i < Q_N; i++)); do
		if [ -n "${Q_ROW[i]}" ]; then
			printf '%s\n' "${Q_ROW[i]}" >> "$ROWS"
			continue
		fi
		IFS=$'\t' read -r k t inp sz tool cmd check <<< "${Q_META[i]}"
		if [ -e "$W/q-$i.failed" ] || [ ! -s "$W/q-$i.tsv" ]; then
			add_row "$k" "$t" "$inp" "$sz" "$tool" "$cmd" \
			    "failed while timed" 0 0 0 0 0 ""
			continue
		fi
		IFS=$'\t' read -r n med lo hi rss cpu < <(q_stats "$W/q-$i.tsv")
		add_row "$k" "$t" "$inp" "$sz" "$tool" "$cmd" "$check" "$n" \
		    "$med" "$lo" "$hi" "$rss" "${Q_NOTE[i]}" "$cpu"
	done
	rm -f "$W"/q-*.tsv "$W"/q-*.failed
	Q_N=0 Q_ROW=() Q_META=() Q_RUNS=() Q_ARGV=() Q_NOTE=()
}

row() {
	local table=$1 input=$2 file=$3 feed=$4 runs=$5 mode=$6 tool=$7
	shift 8
	local key="$table/$input/$tool" cmd="$*" check size out=$W/cand.out
	local mname=${mode#*:} mkind=${mode%%:*} once= rc=0 pflag=()
	local pin=("${PIN[@]}")

	# Go programs (jsonref, gojq, mlr) and jenc -j run several threads:
	# not confined to one core
	case $1 in
	gojq | mlr | "$GO") pin=() ;;
	esac
	[ "$1" = "$JENC" ] && [ "${2:-}" = -j ] && pin=()

	# the command as a reader would type it
	cmd=${cmd//"$JENC"/jenc}
	cmd=${cmd//"$PINO_PRETTY"/pino-pretty}
	cmd=${cmd//"$B/"/}
	[ -n "$GO" ] && cmd=${cmd//"$GO"/jsonref}
	cmd=${cmd//"$PY"/python3}
	size=$(stat -c %s "$file")
	[ -n "$QUICK" ] && runs="1*"
	if ! have "$1"; then
		local why="not installed"
		case $1 in
		"$SIMDMIN" | "$SIMDPARSE") why="not built: no libsimdjson-dev" ;;
		"$RJ") why="not built: no rapidjson-dev" ;;
		"$PINO_PRETTY") why="not installed: npm install failed (registry unreachable?)" ;;
		"$B"/*) why="not built" ;;
		esac
		say "$key: $why"
		queue_done "$key" "$table" "$input" "$size" "$tool" "$cmd" \
		    "$why" 0 0 0 0 0 ""
		return
	fi
	say "$key"
	[ "$feed" = pipe ] && pflag=(-p)
	if [ "$runs" = "1*" ]; then
		once=1
		runs=1
	fi
	rm -f "$W/one.tsv"
	if [ -n "$once" ]; then
		"$B/cmdbench" -n 1 -w 0 -i "$file" "${pflag[@]}" -o "$out" \
		    -l "CLI/${key// /_}" -S "$W/one.tsv" -- "$@" >> "$RAWCLI" \
		    2>>"$LOG" || rc=$?
	elif [ "$feed" = pipe ]; then
		cat "$file" | "$@" > "$out" 2>>"$LOG" || rc=$?
	else
		"$@" < "$file" > "$out" 2>>"$LOG" || rc=$?
	fi
	if [ "$rc" != 0 ]; then
		say "$key: failed (exit $rc), see $LOG"
		queue_done "$key" "$table" "$input" "$size" "$tool" "$cmd" \
		    "failed (exit $rc)" 0 0 0 0 0 ""
		rm -f "$out" "$W/one.tsv"
		return
	fi
	case $mkind in
	truth)
		mv "$out" "$W/truth-$mname.out"
		rm -f "$W/truth-$mname.canon"*
		check=reference
		;;
	csvjson)
		if "$PY" "$REPO/bench/csvcheck.py" json "$file" "$out" >>"$LOG" 2>&1
		then
			mv "$out" "$W/truth-$mname.out"
			check="reference (json.loads)"
		else
			check=DIFFERS
		fi
		;;
	csv | csvloose)
		local loose=
		[ "$mkind" = csvloose ] && loose=loose
		if cmp -s "$W/truth-$mname.out" "$out"; then
			check=identical
		elif "$PY" "$REPO/bench/csvcheck.py" cells \
		    "$W/truth-$mname.out" "$out" $loose >>"$LOG" 2>&1; then
			check=${loose:+"cells equal as values"}
			check=${check:-"cells equal"}
		else
			check=DIFFERS
		fi
		;;
	bytes)
		if cmp -s "$W/truth-$mname.out" "$out"; then
			check=identical
		else
			check=DIFFERS
		fi
		;;
	value | value-k | strings)
		local flags=
		[ "$mkind" = value-k ] && flags=-k
		[ "$mkind" = strings ] && flags=-s
		local d
		if cmp -s "$W/truth-$mname.out" "$out"; then
			check=identical
		elif d=$(canon "$flags" "$out") && [ -n "$d" ] &&
		    [ "$d" = "$(truth_canon "$mname" "$flags")" ]; then
			check=value-equal
		else
			check=DIFFERS	# or not JSON at all
		fi
		;;
	log)
		# the time, level and message of every record (logcheck.py)
		if "$PY" "$REPO/bench/logcheck.py" "$file" "$mname" < "$out" \
		    >> "$LOG" 2>&1; then
			check="same time, level, message"
		else
			check=DIFFERS
		fi
		;;
	*)
		check=-
		;;
	esac
	rm -f "$out"
	if [ "$check" = DIFFERS ]; then
		say "$key: output differs from the reference, no speed"
		queue_done "$key" "$table" "$input" "$size" "$tool" "$cmd" DIFFERS \
		    0 0 0 0 0 ""
		rm -f "$W/one.tsv"
		return
	fi
	if [ -z "$once" ]; then
		queue_timed "$key" "$table" "$input" "$size" "$tool" "$cmd" \
		    "$check" "$runs" "" -- "$B/cmdbench" -n 1 -w 0 -i "$file" \
		    "${pflag[@]}" "${pin[@]}" -l "CLI/${key// /_}" \
		    -S "$W/q-$Q_N.tsv" -- "$@"
		return
	fi
	if [ ! -s "$W/one.tsv" ]; then
		queue_done "$key" "$table" "$input" "$size" "$tool" "$cmd" \
		    "failed while timed" 0 0 0 0 0 ""
		return
	fi
	local l s n med min max rss cpu
	IFS=$'\t' read -r l s n med min max rss cpu < "$W/one.tsv"
	local note=
	[ -z "$QUICK" ] && note="one run, the checked one"
	queue_done "$key" "$table" "$input" "$size" "$tool" "$cmd" "$check" \
	    "$n" "$med" "$min" "$max" "$rss" "$note" "$cpu"
}

# The jsmn tokenizer over the same bytes, in memory: the ceiling.
jsmn_row() {	# TABLE INPUT FILE RUNS
	local key="$1/$2/jsmn (tokenize only)" size
	size=$(stat -c %s "$3")
	say "$key"
	queue_timed "$key" "$1" "$2" "$size" "jsmn (tokenize only)" \
	    "jsmn_parse, file in memory" "-" "$4" "ceiling" -- \
	    "$B/jsmnbench" -n 1 "${PIN[@]}" -l "CLI/${key// /_}" \
	    -S "$W/q-$Q_N.tsv" "$3"
}

# The rows besides the command-line tools, in one table: jenc -j 2, the
# C++ peers and, for compact output, the limits (the jsmn floor and cat).
# The peers read one value only (simdjson minify takes anything) unless
# NDJSON is 1; "1*" runs for the ones that hold the whole input when the
# input is the big document (FEED pipe).
peer_rows() {	# TABLE INPUT FILE FEED RUNS NDJSON(0/1)
	local t=$1 input=$2 file=$3 feed=$4 runs=$5 nd=$6 m j=() once=$5
	[ "$feed" = pipe ] && [ -z "$QUICK" ] && once="1*"
	case $t in
	compact) m=value:c j=(-c) ;;
	indent2) m=value:i2 j=() ;;
	indent4) m=value:i4 j=(--indent=4) ;;
	esac
	if [ -n "$JOBS" ]; then
		row "$t" "$input" "$file" "$feed" "$runs" "bytes:${m#value:}" \
		    "jenc -j 2${j:+ ${j[*]}}" -- "$JENC" -j 2 "${j[@]}"
	else
		queue_done "$t/$input/jenc -j 2" "$t" "$input" \
		    "$(stat -c %s "$file")" "jenc -j 2${j:+ ${j[*]}}" \
		    "jenc -j 2${j:+ ${j[*]}}" "skipped: this jenc has no -j" \
		    0 0 0 0 0 ""
	fi
	case $t in
	compact)
		row "$t" "$input" "$file" "$feed" "$once" "$m" "simdjson minify" -- "$SIMDMIN"
		if [ "$feed" != pipe ]; then
			if [ "$nd" = 1 ]; then
				row "$t" "$input" "$file" "$feed" "$runs" "$m" "simdjson parse + minify" -- "$SIMDPARSE" -l
			else
				row "$t" "$input" "$file" "$feed" "$runs" "$m" "simdjson parse + minify" -- "$SIMDPARSE"
			fi
		fi
		row "$t" "$input" "$file" "$feed" "$runs" "$m" "RapidJSON Reader→Writer" -- "$RJ"
		row "$t" "$input" "$file" "$feed" "$runs" none "limit: read + jsmn + write" -- "$FLOOR"
		row "$t" "$input" "$file" pipe "$runs" none "limit: cat, through a pipe" -- cat
		;;
	indent2)
		row "$t" "$input" "$file" "$feed" "$runs" "$m" "RapidJSON Reader→PrettyWriter" -- "$RJ" -i 2
		;;
	indent4)
		row "$t" "$input" "$file" "$feed" "$runs" "$m" "RapidJSON Reader→PrettyWriter" -- "$RJ" -i 4
		;;
	esac
}

# A JSON input through compact and indented re-encoding, every tool.
json_tables() {	# INPUT FILE FEED RUNS SLOWRUNS PYRUNS NDJSON(0/1)
	local input=$1 file=$2 feed=$3 runs=$4 slow=$5 py=$6 nd=$7
	local pyl=
	[ "$nd" = 1 ] && pyl=--json-lines

	# compact
	if [ -n "$GO" ]; then
		row compact "$input" "$file" "$feed" "$runs" truth:c "Go encoding/json" -- "$GO" -c
		row compact "$input" "$file" "$feed" "$runs" bytes:c "jenc -c" -- "$JENC" -c
	else
		row compact "$input" "$file" "$feed" "$runs" truth:c "jenc -c" -- "$JENC" -c
	fi
	# what sorted keys cost; on a log, what skipping 1% bad lines costs
	# (the same log with them, see gen_badlog: the same output)
	row compact "$input" "$file" "$feed" "$runs" value-k:c "jenc -c -S" -- "$JENC" -c -S
	if [ "$nd" = 1 ]; then
		gen_badlog "$IN/$input.bad" "$file"
		row compact "$input" "$IN/$input.bad" "$feed" "$runs" bytes:c \
		    "jenc -c --on-error=skip (1% bad lines added)" -- \
		    "$JENC" -c --on-error=skip
	fi
	if [ "$nd" = 1 ]; then
		queue_done "compact/$input/json_reformat -m" compact "$input" \
		    "$(stat -c %s "$file")" "json_reformat -m" "json_reformat -m" \
		    "n/a: reads one value only" 0 0 0 0 0 ""
	else
		row compact "$input" "$file" "$feed" "$runs" value:c "json_reformat -m" -- json_reformat -m
	fi
	row compact "$input" "$file" "$feed" "$slow" value:c "jq -c ." -- jq -c .
	row compact "$input" "$file" "$feed" "$slow" value-k:c "gojq -c ." -- gojq -c .
	row compact "$input" "$file" "$feed" "$py" value:c "python3 -m json.tool --compact" -- "$PY" -m json.tool --compact $pyl
	peer_rows compact "$input" "$file" "$feed" "$runs" "$nd"
	jsmn_row compact "$input" "$file" "$runs"

	# indent 2 (jenc's default, jq's)
	if [ -n "$GO" ]; then
		row indent2 "$input" "$file" "$feed" "$runs" truth:i2 "Go encoding/json" -- "$GO" -i 2
		row indent2 "$input" "$file" "$feed" "$runs" bytes:i2 "jenc" -- "$JENC"
	else
		row indent2 "$input" "$file" "$feed" "$runs" truth:i2 "jenc" -- "$JENC"
	fi
	row indent2 "$input" "$file" "$feed" "$slow" value:i2 "jq ." -- jq .
	row indent2 "$input" "$file" "$feed" "$slow" value-k:i2 "gojq ." -- gojq .
	peer_rows indent2 "$input" "$file" "$feed" "$runs" "$nd"

	# indent 4 (json_reformat's and python's own)
	if [ -n "$GO" ]; then
		row indent4 "$input" "$file" "$feed" "$runs" truth:i4 "Go encoding/json" -- "$GO" -i 4
		row indent4 "$input" "$file" "$feed" "$runs" bytes:i4 "jenc --indent=4" -- "$JENC" --indent=4
	else
		row indent4 "$input" "$file" "$feed" "$runs" truth:i4 "jenc --indent=4" -- "$JENC" --indent=4
	fi
	if [ "$nd" = 1 ]; then
		queue_done "indent4/$input/json_reformat" indent4 "$input" \
		    "$(stat -c %s "$file")" "json_reformat" "json_reformat" \
		    "n/a: reads one value only" 0 0 0 0 0 ""
	else
		row indent4 "$input" "$file" "$feed" "$runs" value:i4 "json_reformat" -- json_reformat
	fi
	row indent4 "$input" "$file" "$feed" "$py" value:i4 "python3 -m json.tool" -- "$PY" -m json.tool $pyl
	peer_rows indent4 "$input" "$file" "$feed" "$runs" "$nd"
	flush_rows
}

# ---- library benchmarks ----

say "library benchmarks ($LIB_ARGS)"
"$B/libbench" $LIB_ARGS -code "$CORPUS/code.json" > "$W/raw-lib.txt" \
    2> "$W/lib-checks.txt" || say "libbench: some output differed (see $W/lib-checks.txt)"

# ---- CLI comparisons ----

for f in $CORPUS_FILES; do
	case $f in
	*.ndjson) nd=1 ;;
	*) nd=0 ;;
	esac
	json_tables "$f" "$CORPUS/$f" file "$RUNS_CORPUS" "$RUNS_CORPUS" \
	    "$RUNS_CORPUS" "$nd"
done
json_tables "$MIXED_NAME" "$MIXED" file "$RUNS_FAST" "$RUNS_SLOW" "$RUNS_PY" 0
json_tables "$NDJSON_NAME" "$NDJSON" file "$RUNS_FAST" "$RUNS_SLOW" "$RUNS_PY" 1

# The big document through a pipe.  Tools that hold the whole document in
# memory run once (the checked run is the timed run); gojq and python are
# left out: they too hold it all (see their peak RSS on the 50 MB input),
# and python's json.tool would take about ten minutes.
one="1*"
[ -n "$QUICK" ] && one=1
if [ -n "$GO" ]; then
	row compact "$DOC_NAME" "$DOC" pipe "$one" truth:c "Go encoding/json" -- "$GO" -c
	row compact "$DOC_NAME" "$DOC" pipe "$RUNS_HUGE" bytes:c "jenc -c" -- "$JENC" -c
else
	row compact "$DOC_NAME" "$DOC" pipe "$RUNS_HUGE" truth:c "jenc -c" -- "$JENC" -c
fi
row compact "$DOC_NAME" "$DOC" pipe "$one" value:c "json_reformat -m" -- json_reformat -m
row compact "$DOC_NAME" "$DOC" pipe "$one" value:c "jq -c ." -- jq -c .
peer_rows compact "$DOC_NAME" "$DOC" pipe "$RUNS_HUGE" 0
jsmn_row compact "$DOC_NAME" "$DOC" "$RUNS_HUGE"
if [ -n "$GO" ]; then
	row indent2 "$DOC_NAME" "$DOC" pipe "$one" truth:i2 "Go encoding/json" -- "$GO" -i 2
	row indent2 "$DOC_NAME" "$DOC" pipe "$RUNS_HUGE" bytes:i2 "jenc" -- "$JENC"
else
	row indent2 "$DOC_NAME" "$DOC" pipe "$RUNS_HUGE" truth:i2 "jenc" -- "$JENC"
fi
row indent2 "$DOC_NAME" "$DOC" pipe "$one" value:i2 "jq ." -- jq .
peer_rows indent2 "$DOC_NAME" "$DOC" pipe "$RUNS_HUGE" 0
row indent4 "$DOC_NAME" "$DOC" pipe "$one" truth:i4 "json_reformat" -- json_reformat
row indent4 "$DOC_NAME" "$DOC" pipe "$RUNS_HUGE" value:i4 "jenc --indent=4" -- "$JENC" --indent=4
flush_rows
rm -f "$W"/truth-*

# HTML escaping against Go's json.HTMLEscape.
if [ -n "$GO" ]; then
	for f in "$CORPUS/twitter.json" "$MIXED"; do
		n=$(basename "$f")
		row html "$n" "$f" file "$RUNS_FAST" truth:h "Go encoding/json" -- "$GO" -c -H
		row html "$n" "$f" file "$RUNS_FAST" bytes:h "jenc -c -H" -- "$JENC" -c -H
	done
	flush_rows
fi

# CSV to JSON.  Miller infers numbers; every scalar is compared as text.
csvn=$(basename "$CSV")
row csv "$csvn" "$CSV" file "$RUNS_SLOW" truth:csv "mlr --icsv --ojson cat" -- mlr --icsv --ojson cat
row csv "$csvn" "$CSV" file "$RUNS_FAST" strings:csv "jenc --from csv -c" -- "$JENC" --from csv -c
row csv "$csvn" "$CSV" file "$RUNS_FAST" strings:csv "jenc --from csv -c -t" -- "$JENC" --from csv -c -t
row csv "$csvn" "$CSV" file "$RUNS_SLOW" truth:csvl "mlr --icsv --ojsonl cat" -- mlr --icsv --ojsonl cat
row csv "$csvn" "$CSV" file "$RUNS_FAST" strings:csvl "jenc --from csv --lines" -- "$JENC" --from csv --lines
slicen=$(basename "$CSV_SLICE")
row csv "$slicen" "$CSV_SLICE" file "$RUNS_FAST" truth:slice "jenc --from csv -c (slice)" -- "$JENC" --from csv -c
row csv "$slicen" "$CSV_SLICE" file "$RUNS_SLOW" strings:slice "csvjson -I (slice)" -- csvjson -I
flush_rows
rm -f "$W"/truth-*

# JSON to CSV.  jenc from a file reads it twice (the first pass finds
# every key), from a pipe once (the first record's keys; the generated
# records all have them).  Miller writes JSON null as the word null and
# csvkit's in2csv writes True and 1E-11: their cells are compared as
# values.  in2csv is too slow for the 55 MB input and runs on a slice,
# beside jenc on the same slice.  On the nested records Miller flattens
# arrays into columns of their own (tags.1, tags.2) and starts a new
# header at each change of keys: its output is not compared, only its
# time and memory are measured, once.
flatn=$(basename "$FLAT")
row tocsv "$flatn" "$FLAT" file "$RUNS_FAST" csvjson:flat "jenc --to=csv FILE (two passes)" -- "$JENC" --to=csv "$FLAT"
row tocsv "$flatn" "$FLAT" pipe "$RUNS_FAST" csv:flat "jenc --to=csv (pipe)" -- "$JENC" --to=csv
row tocsv "$flatn" "$FLAT" file "$RUNS_SLOW" csvloose:flat "mlr --ijson --ocsv cat" -- mlr --ijson --ocsv cat
slicen=$(basename "$FLAT_SLICE")
row tocsv "$slicen" "$FLAT_SLICE" file "$RUNS_FAST" csvjson:fslice "jenc --to=csv FILE (two passes)" -- "$JENC" --to=csv "$FLAT_SLICE"
row tocsv "$slicen" "$FLAT_SLICE" pipe "$RUNS_FAST" csv:fslice "jenc --to=csv (pipe)" -- "$JENC" --to=csv
row tocsv "$slicen" "$FLAT_SLICE" file "$RUNS_SLOW" csvloose:fslice "in2csv -f ndjson" -- in2csv -f ndjson
flush_rows
rm -f "$W"/truth-*
nestedn=$(basename "$NESTED")
row tocsv "$nestedn" "$NESTED" file "$RUNS_HUGE" csvjson:nested "jenc --to=csv FILE (two passes)" -- "$JENC" --to=csv "$NESTED"
row tocsv "$nestedn" "$NESTED" pipe "$RUNS_HUGE" csv:nested "jenc --to=csv (pipe)" -- "$JENC" --to=csv
row tocsv "$nestedn" "$NESTED" file "$one" none "mlr --ijson --ocsv cat" -- mlr --ijson --ocsv cat
flush_rows
rm -f "$W"/truth-*
# A pino log shown for people, one line per record (jq: the three fields
# only).  In UTC, so that the checker reads every tool's times alike:
# jenc's local time is UTC here, pino-pretty is told UTC.
export TZ=UTC
pinon=$(basename "$PINO")
row log "$pinon" "$PINO" file "$RUNS_FAST" log:jenc "jenc --log" -- "$JENC" --log
row log "$pinon" "$PINO" file "$RUNS_SLOW" log:jq "jq -r (time, level, msg)" -- \
    jq -r '"\(.time) \(.level) \(.msg)"'
row log "$pinon" "$PINO" file "$RUNS_SLOW" log:pino "pino-pretty" -- \
    "$PINO_PRETTY" -t 'UTC:yyyy-mm-dd HH:MM:ss.l'
row log "$pinon" "$PINO" file "$RUNS_FAST" none "jenc -c (the log re-encoded)" -- "$JENC" -c
flush_rows
unset TZ

# ---- report ----

O=$O B=$B W=$W QUICK=$QUICK OUTDIR=$OUTDIR GO=$GO PY=$PY JENC=$JENC \
    bash "$REPO/bench/report.sh"
say "wrote $OUTDIR/RESULTS.md, $OUTDIR/results.svg, $OUTDIR/raw.txt"
