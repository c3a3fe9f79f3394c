#!/bin/bash
# bench/compare.sh - two builds of jenc side by side: `make bench-compare
# BASE=/path/to/old/jenc` times this tree's jenc ($O/jenc) against BASE in
# every mode, round-robin (one run of each command, then the next run of
# each), pinned to one CPU, and prints the medians and the ratios.
#
# Environment: O (build directory, default build), BASE (the other jenc,
# required), RUNS (timed runs per command, default 9), BENCH_CPU (the CPU;
# default 0, "none" for no pinning), QUICK (non-empty: small inputs).
#
# Each pair is first checked to give byte-identical output (a speed-up that
# changes the output is no speed-up); a pair that differs is reported and
# not timed.  Output: one line per mode,
#   MODE  INPUT  BASE_MS  NEW_MS  NEW/BASE(wall)  BASE_CPU_MS  NEW_CPU_MS
#   NEW/BASE(cpu)  BASE_RSS_KIB  NEW_RSS_KIB
# where a ratio below 1.00 means this tree is faster.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
SHARED=$(cd "$REPO/../shared" && pwd)
CORPUS=$SHARED/corpus
O=${O:-build}
case $O in /*) ;; *) O=$REPO/$O ;; esac
B=$O/bench
IN=$B/in
W=$B/compare
NEW=$O/jenc
BASE=${BASE:?BASE=/path/to/the/other/jenc is required}
RUNS=${RUNS:-9}
BENCH_CPU=${BENCH_CPU:-0}
mkdir -p "$IN" "$W"

if [ -n "${QUICK:-}" ]; then
	MIXED_BYTES=3000000 NDJSON_BYTES=3000000 CSV_ROWS=20000
else
	MIXED_BYTES=50000000 NDJSON_BYTES=50000000 CSV_ROWS=500000
fi

say() { printf 'compare: %s\n' "$*" >&2; }

# shellcheck source=bench/inputs.sh
. "$REPO/bench/inputs.sh"

MIXED=$IN/mixed-$MIXED_BYTES.json
NDJSON=$IN/amazon-$NDJSON_BYTES.ndjson
CSV=$IN/rows-$CSV_ROWS.csv
gen_input "$MIXED" mixed "$MIXED_BYTES" "$CORPUS/twitter.json" \
    "$CORPUS/citm_catalog.json" "$CORPUS/canada.json" "$CORPUS/code.json"
gen_input "$NDJSON" ndjson "$NDJSON_BYTES" "$CORPUS/amazon_cellphones.ndjson"
gen_input "$CSV" csv "$CSV_ROWS" 7
BADLOG=$IN/amazon-$NDJSON_BYTES.bad.ndjson
gen_badlog "$BADLOG" "$NDJSON"

PIN=()
[ "$BENCH_CPU" = none ] || PIN=(-c "$BENCH_CPU")
: > "$W/stderr.txt"

# mode name, input, jenc arguments
MODES=(
	"compact|$MIXED|-c"
	"indent|$MIXED|"
	"indent4|$MIXED|--indent=4"
	"tab|$MIXED|--tab"
	"html|$MIXED|-c -H"
	"ascii|$MIXED|-c -a"
	"validate|$MIXED|--validate"
	"ndjson-compact|$NDJSON|-c"
	"ndjson-indent|$NDJSON|"
	"ndjson-pipe|$NDJSON|-c|pipe"
	"sort-keys|$MIXED|-c -S"
	"skip-1pct|$BADLOG|-c --on-error=skip"
	"csv|$CSV|-f csv -c"
	"csv-types|$CSV|-f csv -t -c"
	"csv-lines|$CSV|-f csv -l"
	"twitter|$CORPUS/twitter.json|-c"
)

stats() {	# summary file -> median wall ns, median cpu ns, max rss
	awk -F'\t' '
	function med(v, n,   i, j, t) {
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
				t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
			}
		return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
	}
	{ n++; w[n] = $4; c[n] = $8; if ($7 > rss) rss = $7 }
	END { printf "%.0f %.0f %.0f\n", med(w, n), med(c, n), rss }' "$1"
}

declare -A BCPU NCPU	# median CPU ns by mode, for the ratios at the end
printf '%-15s %-22s %9s %9s %6s %9s %9s %6s %8s %8s\n' mode input \
    base_ms new_ms wall base_cpu new_cpu cpu base_rss new_rss
for m in "${MODES[@]}"; do
	IFS='|' read -r name input args feed <<< "$m"
	feedopt=()
	[ "${feed:-}" = pipe ] && feedopt=(-p)
	# shellcheck disable=SC2086
	if ! "$BASE" $args < "$input" > "$W/base.out" 2>/dev/null ||
	    ! "$NEW" $args < "$input" > "$W/new.out" 2>/dev/null ||
	    ! cmp -s "$W/base.out" "$W/new.out"; then
		say "$name: outputs differ or a run failed; not timed"
		continue
	fi
	rm -f "$W/base.tsv" "$W/new.tsv"
	for ((r = 0; r < RUNS; r++)); do
		# shellcheck disable=SC2086
		"$B/cmdbench" "${PIN[@]}" "${feedopt[@]}" -n 1 -w 0 -i "$input" \
		    -l Base -S "$W/base.tsv" -- "$BASE" $args > /dev/null \
		    2>> "$W/stderr.txt"	# skip-1pct's reports
		# shellcheck disable=SC2086
		"$B/cmdbench" "${PIN[@]}" "${feedopt[@]}" -n 1 -w 0 -i "$input" \
		    -l New -S "$W/new.tsv" -- "$NEW" $args > /dev/null \
		    2>> "$W/stderr.txt"
	done
	read -r bw bc br < <(stats "$W/base.tsv")
	read -r nw nc nr < <(stats "$W/new.tsv")
	BCPU[$name]=$bc NCPU[$name]=$nc
	awk -v n="$name" -v i="$(basename "$input")" -v bw="$bw" -v nw="$nw" \
	    -v bc="$bc" -v nc="$nc" -v br="$br" -v nr="$nr" 'BEGIN {
		printf "%-15s %-22s %9.1f %9.1f %6.3f %9.1f %9.1f %6.3f %8d %8d\n",
		    n, i, bw / 1e6, nw / 1e6, nw / bw, bc / 1e6, nc / 1e6,
		    nc / bc, br, nr }'
done

# Within each build, by CPU time: what -S costs over -c, and what
# --on-error=skip on the log with 1% bad lines costs over -c on the same
# log without them.
within() {	# MODE OVER
	[ -n "${BCPU[$1]:-}" ] && [ -n "${BCPU[$2]:-}" ] || return 0
	awk -v m="$1/$2" -v b="${BCPU[$1]}" -v bo="${BCPU[$2]}" \
	    -v n="${NCPU[$1]}" -v no="${NCPU[$2]}" 'BEGIN {
		printf "%-30s base %6.3f  new %6.3f  (cpu)\n", m, b / bo,
		    n / no }'
}
within sort-keys compact
within skip-1pct ndjson-compact
