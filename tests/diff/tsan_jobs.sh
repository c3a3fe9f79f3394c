#!/bin/sh
# tsan_jobs.sh JENC DIR - jenc built with ThreadSanitizer (make check-tsan)
# reads a log of 2 MB with bad lines (more in a chunk than a worker keeps,
# so that chunks are read again while workers run) with -j 2, 3 and auto
# in each --on-error policy, from the file mapped and read and from a
# pipe.  Fails on any ThreadSanitizer report, and on output, errors or
# exit status other than those of -j 1.  (The race on the encoder's flags
# that par.c had showed in about one run in six of these.)
set -eu
jenc=$1
dir=$2
mkdir -p "$dir"
python3 - "$dir/bad.ndjson" <<'PY'
import random, sys
r = random.Random(30)
lines = []
for i in range(45000):
    k = r.random()
    if k < 0.03:
        lines.append('{"a":%d,"b":[1,2,x]}' % i)
    elif k < 0.05:
        lines.append('{"s":"\\q%d"}' % i)
    elif k < 0.06:
        lines.append('plain text %d, not JSON' % i)
    else:
        lines.append('{"a":%d,"b":[1,2,3],"c":"hello world %d"}' % (i, i))
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}"
fail=0
for policy in stop skip pass; do
	rc=0
	"$jenc" -c --on-error="$policy" "$dir/bad.ndjson" >"$dir/one.out" \
	    2>"$dir/one.err" || rc=$?
	for j in 2 3 auto; do
		for how in file no-mmap pipe; do
			got=0
			case $how in
			file) "$jenc" -c -j "$j" --on-error="$policy" \
			    "$dir/bad.ndjson" >"$dir/j.out" 2>"$dir/j.err" ||
			    got=$? ;;
			no-mmap) "$jenc" -c -j "$j" --no-mmap \
			    --on-error="$policy" "$dir/bad.ndjson" \
			    >"$dir/j.out" 2>"$dir/j.err" || got=$? ;;
			pipe) cat "$dir/bad.ndjson" | "$jenc" -c -j "$j" \
			    --on-error="$policy" >"$dir/j.out" \
			    2>"$dir/j.err.0" || got=$?
			    sed "s|<stdin>|$dir/bad.ndjson|" "$dir/j.err.0" \
				>"$dir/j.err" ;;
			esac
			what="-j $j --on-error=$policy ($how)"
			if grep -q ThreadSanitizer "$dir/j.err"; then
				echo "tsan_jobs: $what: ThreadSanitizer reports:"
				grep -A 30 'WARNING: ThreadSanitizer' \
				    "$dir/j.err" | head -n 40
				fail=1
			elif [ "$got" != "$rc" ] ||
			    ! cmp -s "$dir/one.out" "$dir/j.out" ||
			    ! cmp -s "$dir/one.err" "$dir/j.err"; then
				echo "tsan_jobs: $what: not what -j 1 gives" \
				    "(exit $got, not $rc; see $dir)"
				fail=1
			fi
		done
	done
done
[ "$fail" = 0 ] && echo "tsan_jobs: -j 2, 3, auto: no reports, as -j 1"
exit "$fail"
