#!/bin/sh
# compare.sh NATIVE CMD... - run the native jenc (NATIVE) and another
# build of it (CMD..., e.g. qemu-aarch64
# build/cross/aarch64/jenc; words without spaces) over the same inputs,
# and compare what each writes to stdout and stderr, and its exit
# status.  The inputs: the corpus (../shared/corpus) in five modes, every
# file of the JSONTestSuite and of csv-spectrum (../shared/conformance),
# tests/data, and text in latin1, cp1252 and UTF-16 (through iconv(3):
# GCONV_PATH must lead CMD's C library to its modules).  Prints each
# difference and a total; exit status 1 if any differs.  make
# check-cross runs it for each processor (see the Makefile).
set -u
[ $# -ge 2 ] || { echo "usage: compare.sh NATIVE CMD..." >&2; exit 2; }
native=$1
shift
other=$*
shared=${SHARED:-../shared}
[ -d "$shared/corpus" ] || { echo "compare.sh: no $shared/corpus" >&2; exit 2; }
tmp=$(mktemp -d) || exit 3
trap 'rm -rf "$tmp"' EXIT
runs=0
diffs=0

# run ARGS... - both on ARGS; a line for a difference.
run() {
	"$native" "$@" >"$tmp/n.out" 2>"$tmp/n.err" </dev/null
	echo "exit status $?" >>"$tmp/n.err"
	$other "$@" >"$tmp/o.out" 2>"$tmp/o.err" </dev/null
	echo "exit status $?" >>"$tmp/o.err"
	runs=$((runs + 1))
	if ! cmp -s "$tmp/n.out" "$tmp/o.out" ||
	    ! cmp -s "$tmp/n.err" "$tmp/o.err"; then
		diffs=$((diffs + 1))
		echo "differs: jenc $*"
		diff "$tmp/n.err" "$tmp/o.err" | head -n 6
		cmp "$tmp/n.out" "$tmp/o.out" 2>&1 | head -n 2
	fi
}

for f in "$shared"/corpus/*; do
	for m in -c "" "-H -a -c" -S "-j 2 -c"; do
		# shellcheck disable=SC2086
		run $m "$f"
	done
done
for f in "$shared"/conformance/JSONTestSuite/*.json; do
	run -c "$f"
done
for f in "$shared"/conformance/csv-spectrum/csvs/*.csv; do
	[ -f "$f" ] && run -c "$f"
done
for f in tests/data/*.json tests/data/*.ndjson tests/data/*.csv; do
	[ -f "$f" ] && run -c "$f"
done
printf '[{"caf\351": "na\357ve", "x": "\200"}]\n' >"$tmp/latin1.json"
run -c --encoding=latin1 "$tmp/latin1.json"
run -c --encoding=cp1252 "$tmp/latin1.json"	# 0x80: the euro sign
printf 'a,b\n\351,\200\n' >"$tmp/cp1252.csv"
run --encoding=cp1252 "$tmp/cp1252.csv"
printf '\377\376[\0001\000]\000' >"$tmp/utf16.json"
run -c "$tmp/utf16.json"
printf '\376\377\000[\000x' >"$tmp/utf16bad.json"
run -c "$tmp/utf16bad.json"
echo "compare: $runs runs, $diffs differ ($other)"
[ "$diffs" = 0 ]
