#!/bin/bash
# bench/compare_peers.sh - what jq, gojq, yajl's json_reformat, python3 -m
# json.tool, Miller (mlr), csvkit's csvjson and jenc do with the same small
# inputs, by running them; then their peak RSS on a 200 MB document and
# their speed on the bench's 50 MB mixed document.  Writes the raw
# observations to standard output; bench/COMPARISON.md is the table made
# from them (by hand: a cell is a judgement of what the output shows).
#
#	bash bench/compare_peers.sh > bench/compare_peers.txt
#
# Environment: JENC (the jenc to describe, default build/jenc), O (the
# build directory with bench/cmdbench and bench/gen, from `make
# bench-bin`; default build), PARTS (any of "probe mem speed", default
# all three), CPU (the core the one-thread timed commands run on, default
# 0; Go programs, gojq and mlr, are not pinned).  The inputs of the
# probes are written to a temporary directory and shown with each probe.
set -uo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
SHARED=$(cd "$REPO/../shared" && pwd)
O=${O:-build}
case $O in /*) ;; *) O=$REPO/$O ;; esac
B=$O/bench
IN=$B/in
JENC=${JENC:-$O/jenc}
PARTS=${PARTS:-probe mem speed}
CPU=${CPU:-0}
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

say() { printf 'compare_peers: %s\n' "$*" >&2; }
pkgver() { dpkg-query -W -f '${Version}' "$1" 2>/dev/null || echo "not installed"; }

# probe CAPABILITY INPUT -- COMMAND...: run COMMAND (a shell command line,
# in $T) with stdin from INPUT (or /dev/null for -), and show the exit
# status and the start of its output and its error output, non-printing
# bytes made visible (cat -v).
probe() {
	local cap=$1 input=$2 rc
	shift 3
	printf '\n#### %s\n$ %s' "$cap" "$*"
	[ "$input" != - ] && printf ' < %s' "$input"
	printf '\n'
	(cd "$T" && timeout 60 bash -c "$*" < "${input/#-//dev/null}" \
	    > "$T/out" 2> "$T/err")
	rc=$?
	printf 'exit %d\n' "$rc"
	if [ -s "$T/out" ]; then
		printf 'stdout:\n'
		head -c 600 "$T/out" | head -n 12 | cat -v | awk '{ print "  " $0 }'
	fi
	if [ -s "$T/err" ]; then
		printf 'stderr:\n'
		head -c 600 "$T/err" | head -n 6 | cat -v | awk '{ print "  " $0 }'
	fi
}

# helpmentions TOOL PATTERN -- HELPCOMMAND...: does the tool's help text
# name an option for it (for capabilities that are options or nothing)
helpmentions() {
	local tool=$1 pat=$2 hits
	shift 3
	hits=$("$@" 2>&1 | grep -E -i -e "$pat" | head -n 3)
	printf '\n#### %s: help text matching /%s/\n$ %s | grep -Ei %q\n' \
	    "$tool" "$pat" "$*" "$pat"
	if [ -n "$hits" ]; then
		printf '%s\n' "$hits" | sed 's/^/  /'
	else
		printf '  (no match)\n'
	fi
}

inputs() {
	printf '{"b": [1, 2, {"c": null}], "a": "x"}\n' > "$T/fmt.json"
	printf '{"a":1}\n{"a":2}\n' > "$T/lines.ndjson"
	printf '{"a":1}{"a":2}[3] "s"\n' > "$T/concat.json"
	printf 'name,n\nalice,1\n"bob, jr",2\n' > "$T/rows.csv"
	printf 'name\tn\nalice\t1\nbob\t2\n' > "$T/rows.tsv"
	printf '[{"id":1,"n":1.10,"u":{"name":"Ann"},"t":["x"]},{"id":2,"n":null,"extra":"e, \\"q\\""}]\n' > "$T/records.json"
	printf '{\n  "a": 1,\n  "b": tru\n}\n' > "$T/bad.json"
	printf '{"a":1}\n{"a":\n{"a":3}\n' > "$T/badline.ndjson"
	printf '[1.0, 1e400, 100000000000000000001, 0.10, -0, 1E2]\n' > "$T/nums.json"
	printf '{"b":1,"a":{"d":2,"c":3}}\n' > "$T/keys.json"
	printf '{"a": 1, // line\n "b": /* block */ 2}\n' > "$T/comments.json"
	printf '{"a": "\xc3\xa9"}\n' | iconv -f UTF-8 -t UTF-16 > "$T/utf16.json"
	printf '\x1e{"a":1}\n\x1e{"a":2}\n' > "$T/seq.json"
	printf '\x1e{"a":1}\n\x1e{"a":\n\x1e{"a":3}\n' > "$T/seqbad.json"
	printf '{"a":1}{"a":2}\n' > "$T/concatobj.json"
	printf 'a\n\xc3\xa9\n' | iconv -f UTF-8 -t UTF-16 > "$T/utf16.csv"
	echo "## Probe inputs (od -c)"
	local f
	for f in fmt.json lines.ndjson concat.json rows.csv rows.tsv bad.json \
	    badline.ndjson nums.json keys.json comments.json utf16.json seq.json \
	    seqbad.json concatobj.json utf16.csv; do
		printf '\n%s:\n' "$f"
		od -An -c "$T/$f" | sed 's/^/ /'
	done
}

# ---- versions ----

echo "# Raw observations of bench/compare_peers.sh"
echo
echo "Run on $(date -u '+%Y-%m-%d %H:%M UTC'), $(. /etc/os-release && echo "$PRETTY_NAME"), $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(nproc) cores."
echo
echo "## Versions"
echo
printf -- '- jenc: %s (%s)\n' "$("$JENC" --version 2>&1 | head -n 1)" "$JENC"
printf -- '- jq: %s\n' "$(pkgver jq)"
printf -- '- gojq: %s\n' "$(pkgver gojq)"
printf -- '- json_reformat (yajl-tools): %s\n' "$(pkgver yajl-tools)"
printf -- '- python3 -m json.tool: %s (python3 %s)\n' "$("$PY" --version 2>&1)" "$(pkgver python3)"
printf -- '- mlr (miller): %s\n' "$(pkgver miller)"
printf -- '- csvjson (csvkit): %s\n' "$(pkgver csvkit)"

# ---- capabilities ----

if [[ " $PARTS " == *" probe "* ]]; then
echo
inputs
echo
echo "## Probes"

echo
echo "### format and compact JSON"
probe "jq" fmt.json -- jq .
probe "jq" fmt.json -- jq -c .
probe "gojq" fmt.json -- gojq .
probe "gojq" fmt.json -- gojq -c .
probe "json_reformat" fmt.json -- json_reformat
probe "json_reformat" fmt.json -- json_reformat -m
probe "json.tool" fmt.json -- "$PY" -m json.tool
probe "json.tool" fmt.json -- "$PY" -m json.tool --compact
probe "mlr" fmt.json -- mlr --json cat
probe "mlr: a value that is not a record" nums.json -- mlr --json cat
probe "csvjson: JSON input" fmt.json -- csvjson
probe "jenc" fmt.json -- "$JENC"
probe "jenc" fmt.json -- "$JENC" -c

echo
echo "### NDJSON streams"
probe "jq" lines.ndjson -- jq -c .
probe "gojq" lines.ndjson -- gojq -c .
probe "json_reformat" lines.ndjson -- json_reformat -m
probe "json_reformat -s" lines.ndjson -- json_reformat -s -m
probe "json.tool" lines.ndjson -- "$PY" -m json.tool --compact
probe "json.tool --json-lines" lines.ndjson -- "$PY" -m json.tool --compact --json-lines
probe "mlr" lines.ndjson -- mlr --ijsonl --ojsonl cat
probe "csvjson" lines.ndjson -- csvjson
probe "jenc" lines.ndjson -- "$JENC" -c

echo
echo "### concatenated values"
probe "jq" concat.json -- jq -c .
probe "gojq" concat.json -- gojq -c .
probe "json_reformat -s" concat.json -- json_reformat -s -m
probe "json.tool --json-lines" concat.json -- "$PY" -m json.tool --compact --json-lines
probe "mlr" concat.json -- mlr --json cat
probe "mlr, objects only" concatobj.json -- mlr --json cat
probe "jenc" concat.json -- "$JENC" -c

echo
echo "### CSV to JSON"
probe "jq -R (raw lines only)" rows.csv -- jq -R -c .
probe "gojq -R" rows.csv -- gojq -R -c .
probe "json_reformat" rows.csv -- json_reformat
probe "json.tool" rows.csv -- "$PY" -m json.tool
probe "mlr" rows.csv -- mlr --icsv --ojson cat
probe "csvjson" rows.csv -- csvjson
probe "jenc" rows.csv -- "$JENC" --from csv -c

echo
echo "### TSV to JSON"
probe "mlr" rows.tsv -- mlr --itsv --ojson cat
probe "csvjson -t" rows.tsv -- csvjson -t
probe "jenc" rows.tsv -- "$JENC" --from tsv -c

echo
echo "### JSON records to CSV (nested values, keys that differ, null)"
probe "jq (the usual @csv idiom)" records.json -- jq -r "'(.[0]|keys_unsorted) as \$k | \$k, (.[]|[.[\$k[]]]) | @csv'"
probe "gojq" records.json -- gojq -r "'(.[0]|keys_unsorted) as \$k | \$k, (.[]|[.[\$k[]]]) | @csv'"
probe "mlr" records.json -- mlr --ijson --ocsv cat
probe "in2csv (csvkit)" records.json -- in2csv -f json
probe "jenc" records.json -- "$JENC" --to=csv

echo
echo "### bad input: error with line and column"
probe "jq" bad.json -- jq .
probe "gojq" bad.json -- gojq .
probe "json_reformat" bad.json -- json_reformat
probe "json.tool" bad.json -- "$PY" -m json.tool
probe "mlr" bad.json -- mlr --json cat
probe "jenc" bad.json -- "$JENC"

echo
echo "### a bad line in NDJSON: go on past it"
probe "jq" badline.ndjson -- jq -c .
probe "jq --seq (its recovery is for RS-separated texts)" badline.ndjson -- jq -c --seq .
probe "gojq" badline.ndjson -- gojq -c .
probe "json_reformat -s" badline.ndjson -- json_reformat -s -m
probe "json.tool --json-lines" badline.ndjson -- "$PY" -m json.tool --compact --json-lines
probe "mlr" badline.ndjson -- mlr --ijsonl --ojsonl cat
probe "jq --seq, RS-separated texts" seqbad.json -- jq -c --seq .
probe "jenc --seq, RS-separated texts" seqbad.json -- "$JENC" -c --seq
probe "jenc --on-error=skip" badline.ndjson -- "$JENC" -c --on-error=skip
probe "jenc --on-error=pass" badline.ndjson -- "$JENC" -c --on-error=pass

echo
echo "### numbers verbatim"
probe "jq" nums.json -- jq -c .
probe "gojq" nums.json -- gojq -c .
probe "json_reformat" nums.json -- json_reformat -m
probe "json.tool" nums.json -- "$PY" -m json.tool --compact
probe "mlr (in a record)" - -- "echo '{\"a\":1.0,\"b\":1e400,\"c\":100000000000000000001,\"d\":0.10,\"e\":-0,\"f\":1E2}' | mlr --ijson --ojsonl cat"
probe "jenc" nums.json -- "$JENC" -c

echo
echo "### sort keys"
probe "jq -S" keys.json -- jq -S -c .
probe "gojq (no option)" keys.json -- gojq -c .
helpmentions json_reformat 'sort' -- json_reformat --help
probe "json.tool --sort-keys" keys.json -- "$PY" -m json.tool --compact --sort-keys
probe "mlr sort-within-records -r" keys.json -- mlr --json sort-within-records -r
probe "jenc -S" keys.json -- "$JENC" -S -c

echo
echo "### colors"
probe "jq -C" keys.json -- jq -C -c .
probe "gojq -C" keys.json -- gojq -C -c .
helpmentions json_reformat 'colou?r' -- json_reformat --help
helpmentions json.tool 'colou?r' -- "$PY" -m json.tool --help
probe "mlr -C" keys.json -- mlr -C --json cat
helpmentions csvjson 'colou?r' -- csvjson --help
probe "jenc -C" keys.json -- "$JENC" -C -c

echo
echo "### in-place rewrite"
helpmentions jq 'in.place|--inplace' -- jq --help
helpmentions gojq 'in.place|--inplace' -- gojq --help
helpmentions json_reformat 'in.place|file' -- json_reformat --help
probe "json.tool INFILE OUTFILE, the same file" - -- "cp fmt.json ip.json && $PY -m json.tool ip.json ip.json; echo \"file now: \$(cat ip.json | tr '\n' ' ')\""
probe "mlr -I" - -- "cp fmt.json ip.json && mlr -I --json cat ip.json; echo \"file now: \$(cat ip.json | tr '\n' ' ')\""
helpmentions csvjson 'in.place' -- csvjson --help
probe "jenc -w" - -- "cp fmt.json ip.json && $JENC -c -w ip.json; echo \"file now: \$(cat ip.json | tr '\n' ' ')\""

echo
echo "### check mode (is the file already formatted?)"
helpmentions jq 'check' -- jq --help
helpmentions gojq 'check' -- gojq --help
helpmentions json_reformat 'check' -- json_reformat --help
helpmentions json.tool 'check' -- "$PY" -m json.tool --help
helpmentions mlr 'check' -- mlr help flags
helpmentions csvjson 'check' -- csvjson --help
probe "jenc --check" - -- "$JENC -c --check fmt.json; echo status \$?; $JENC -c fmt.json > c.json; $JENC -c --check c.json; echo status \$?"

echo
echo "### JSON with comments"
probe "jq" comments.json -- jq -c .
probe "gojq" comments.json -- gojq -c .
probe "json_reformat" comments.json -- json_reformat -m
probe "json.tool" comments.json -- "$PY" -m json.tool --compact
probe "mlr" comments.json -- mlr --json cat
probe "jenc" comments.json -- "$JENC" -c

echo
echo "### UTF-16 input (with a BOM)"
probe "jq" utf16.json -- jq -c .
probe "gojq" utf16.json -- gojq -c .
probe "json_reformat" utf16.json -- json_reformat -m
probe "json.tool" utf16.json -- "$PY" -m json.tool --compact
probe "json.tool, a file" - -- "$PY" -m json.tool --compact utf16.json
probe "mlr" utf16.json -- mlr --json cat
probe "csvjson -e utf-16 (CSV, on stdin)" utf16.csv -- csvjson -e utf-16
probe "csvjson -e utf-16 (CSV, a file)" - -- csvjson -e utf-16 utf16.csv
probe "csvjson (CSV, no -e)" - -- csvjson utf16.csv
probe "jenc" utf16.json -- "$JENC" -c

echo
echo "### RFC 7464 JSON text sequences"
probe "jq --seq" seq.json -- jq -c --seq .
probe "gojq --seq" seq.json -- gojq -c --seq .
probe "json_reformat -s" seq.json -- json_reformat -s -m
probe "json.tool --json-lines" seq.json -- "$PY" -m json.tool --compact --json-lines
probe "mlr" seq.json -- mlr --json cat
probe "jenc --seq" seq.json -- "$JENC" -c --seq
fi

# ---- peak RSS on a 200 MB document ----

# rss LABEL INPUT -- COMMAND...: one run, stdin from INPUT, stdout to
# /dev/null; GNU time's maximum resident set size and elapsed time.
rss() {
	local label=$1 input=$2 r
	shift 3
	rm -f "$T/time"
	/usr/bin/time -o "$T/time" -f '%M %e %x' "$@" < "$input" > /dev/null \
	    2> /dev/null
	r=$(tail -n 1 "$T/time" 2>/dev/null)
	[ -n "$r" ] || r="0 0 unknown"
	set -- $r
	printf '| %s | %s | %.1f MiB | %s s | exit %s |\n' "$label" \
	    "$(basename "$input")" "$(echo "$1 / 1024" | bc -l)" "$2" "$3"
}

if [[ " $PARTS " == *" mem "* ]]; then
	DOC=$IN/doc-200MB.json
	CSV=$IN/rows-2000000.csv
	CSVS=$IN/rows-100000.csv
	mkdir -p "$IN"
	[ -s "$DOC" ] || "$B/gen" doc 200000000 20240611 > "$DOC"
	[ -s "$CSV" ] || "$B/gen" csv 2000000 7 > "$CSV"
	[ -s "$CSVS" ] || "$B/gen" csv 100000 7 > "$CSVS"
	echo
	echo "## Peak RSS"
	echo
	echo "One run each, output to /dev/null; GNU time's maximum resident set"
	echo "size.  The document is bench/gen's (seed 20240611, one array of records);"
	echo "csvjson runs on a 100 000-row CSV only (it takes minutes per 10 MB), so"
	echo "that its RSS there is compared with the others' on the same file."
	echo
	echo "| command | input | peak RSS | time | status |"
	echo "| --- | --- | --- | --- | --- |"
	say "peak RSS on $(basename "$DOC")"
	rss "jenc -c" "$DOC" -- "$JENC" -c
	rss "jq -c ." "$DOC" -- jq -c .
	rss "gojq -c ." "$DOC" -- gojq -c .
	rss "json_reformat -m" "$DOC" -- json_reformat -m
	rss "python3 -m json.tool --compact" "$DOC" -- "$PY" -m json.tool --compact
	rss "mlr --json cat" "$DOC" -- mlr --json cat
	say "peak RSS on the CSV files"
	rss "jenc --from csv -c" "$CSV" -- "$JENC" --from csv -c
	rss "mlr --icsv --ojson cat" "$CSV" -- mlr --icsv --ojson cat
	rss "jenc --from csv -c" "$CSVS" -- "$JENC" --from csv -c
	rss "mlr --icsv --ojson cat" "$CSVS" -- mlr --icsv --ojson cat
	rss "csvjson" "$CSVS" -- csvjson
	echo
	for f in "$DOC" "$CSV" "$CSVS"; do
		printf -- '- %s: %s bytes\n' "$(basename "$f")" "$(stat -c %s "$f")"
	done
fi

# ---- speed on the bench document ----

# speed LABEL RUNS PIN INPUT -- COMMAND...: cmdbench's median of RUNS
# (wall, CPU) after one warm-up run; PIN 1 pins the command to $CPU.
speed() {
	local label=$1 runs=$2 pin=$3 input=$4 c=() s
	shift 5
	[ "$pin" = 1 ] && c=(-c "$CPU")
	rm -f "$T/sum"
	"$B/cmdbench" -n "$runs" -w 1 -i "$input" "${c[@]}" -S "$T/sum" \
	    -- "$@" > /dev/null 2>&1
	if [ ! -s "$T/sum" ]; then
		printf '| %s | %s | failed | | | |\n' "$label" "$(basename "$input")"
		return
	fi
	IFS=$'\t' read -r _ s n med _ _ rss cpu < "$T/sum"
	printf '| %s | %s | %s | %.1f | %.3f s | %.3f s | %.1f MiB |\n' "$label" \
	    "$(basename "$input")" "$n" "$(echo "$s * 1000 / $med" | bc -l)" \
	    "$(echo "$med / 1000000000" | bc -l)" \
	    "$(echo "$cpu / 1000000000" | bc -l)" "$(echo "$rss / 1024" | bc -l)"
}

if [[ " $PARTS " == *" speed "* ]]; then
	MIXED=$IN/mixed-50MB.json
	CSVB=$IN/rows-500000.csv
	C=$SHARED/corpus
	mkdir -p "$IN"
	[ -s "$MIXED" ] || "$B/gen" mixed 50000000 "$C/twitter.json" \
	    "$C/citm_catalog.json" "$C/canada.json" "$C/code.json" > "$MIXED"
	[ -s "$CSVB" ] || "$B/gen" csv 500000 7 > "$CSVB"
	[ -s "$IN/rows-20000.csv" ] || "$B/gen" csv 20000 7 > "$IN/rows-20000.csv"
	echo
	echo "## Speed"
	echo
	echo "bench/cmdbench: stdin from the file, stdout to /dev/null, one warm-up"
	echo "run, then the median of the runs; one-thread commands pinned to CPU $CPU,"
	echo "Go programs (gojq, mlr) not.  MB/s is input bytes (10^6) per second of"
	echo "wall time.  The JSON input is the bench's 50 MB mixed document"
	echo "(bench/gen mixed: twitter, citm_catalog, canada and code.json repeated in"
	echo "one array), compact output; the CSV rows are bench/gen csv."
	echo
	echo "| command | input | runs | MB/s | wall | CPU | peak RSS |"
	echo "| --- | --- | --- | --- | --- | --- | --- |"
	say "speed on $(basename "$MIXED")"
	speed "jenc -c" 5 1 "$MIXED" -- "$JENC" -c
	speed "jenc" 5 1 "$MIXED" -- "$JENC"
	speed "json_reformat -m" 5 1 "$MIXED" -- json_reformat -m
	speed "jq -c ." 3 1 "$MIXED" -- jq -c .
	speed "gojq -c ." 3 0 "$MIXED" -- gojq -c .
	speed "mlr --json cat" 1 0 "$MIXED" -- mlr --json cat
	speed "python3 -m json.tool --compact" 1 1 "$MIXED" -- "$PY" -m json.tool --compact
	say "speed on the CSV"
	speed "jenc --from csv -c" 5 1 "$CSVB" -- "$JENC" --from csv -c
	speed "mlr --icsv --ojson cat" 1 0 "$CSVB" -- mlr --icsv --ojson cat
	speed "jenc --from csv -c" 5 1 "$IN/rows-20000.csv" -- "$JENC" --from csv -c
	speed "csvjson" 1 1 "$IN/rows-20000.csv" -- csvjson
fi
