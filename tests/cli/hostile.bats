#!/usr/bin/env bats
# hostile.bats - inputs built to hurt: deep nesting, huge flat containers,
# a 1 GiB string, a million-digit number, a fast trickle of tiny values.
# Checks exact results, bounded memory (peak RSS from /usr/bin/time) and
# linear work: the bytes the reader scanned or copied per byte read, as
# jenc counts them (JENC_STATS, see work_check), stay under a constant at
# two sizes; no time is measured.
# Inputs over 4 GiB are in slow.bats.

load helpers

GEN=$BATS_TEST_DIRNAME/../data/h_gen.py

# sanitized - true when $JENC is an ASan build (make check-asan): its
# shadow memory and quarantine make RSS meaningless.
sanitized() {
	grep -q __asan_init "$JENC"
}

need_time() {
	[ -x /usr/bin/time ] || skip "/usr/bin/time not installed (package time)"
}

# measure STATS OUT ARGS... - run jenc ARGS with stdin from the caller,
# stdout to OUT, its work counters to STATS (JENC_STATS); sets status and
# RSS (peak KiB).
measure() {
	local stats=$1 out=$2
	shift 2
	JCMD="jenc $*"
	status=0
	JENC_STATS=$stats /usr/bin/time -f '%M' -o "$T/time" "$JENC" "$@" \
	    >"$out" 2>"$T/err" || status=$?
	RSS=$(tail -n 1 "$T/time")
}

check_rss() {
	echo "# $1: peak RSS $RSS KiB" >&3
	sanitized && return 0
	[ "$RSS" -lt 16384 ] || fail "$1: peak RSS $RSS KiB, over 16 MiB"
}

# The deep tests use -c: indented, the bad value would outgrow the 1 MiB
# that is held back and stream (10^6 open levels indent to ~10^12 bytes).
@test "a million nested '[': depth error at the 10001st, nothing written" {
	setup_jenc
	python3 "$GEN" nested 1000000 >deep.json
	jrun -c deep.json
	expect_status 1
	expect_out ''
	[ "$(head -n 1 err)" = "jenc: deep.json:1:10001: nesting deeper than 10000 levels (see --max-depth)" ] ||
	    fail "first line: $(head -n 1 err | head -c 300)"
	check_error_reports deep.json="$T/err"
}

@test "a million nested '[' on stdin with --max-depth=2000000: end of input reported" {
	setup_jenc
	python3 "$GEN" nested 1000000 >deep.json
	jrun -c --max-depth=2000000 < <(cat deep.json)
	expect_status 1
	expect_out ''
	[ "$(head -n 1 err)" = "jenc: <stdin>:1:1000001: expected value or ']', found end of input" ] ||
	    fail "first line: $(head -n 1 err | head -c 300)"
	[ "$(wc -l <err)" = 3 ] || fail "stderr has $(wc -l <err) lines, not 3"
}

@test "a million nested arrays, balanced, with --max-depth=2000000: copied" {
	setup_jenc
	python3 "$GEN" nested 1000000 close >deep.json
	jrun -c --max-depth=2000000 deep.json
	expect_status 0
	expect_err ''
	{ cat deep.json; echo; } >expected
	same_bytes expected out
}

@test "a million nested objects: depth error at the 10001st '{'" {
	setup_jenc
	python3 "$GEN" nested-obj 1000000 >deep.json
	jrun -c deep.json
	expect_status 1
	expect_out ''
	[ "$(head -n 1 err)" = "jenc: deep.json:1:50001: nesting deeper than 10000 levels (see --max-depth)" ] ||
	    fail "first line: $(head -n 1 err | head -c 300)"
}

@test "10 million elements in one array: all there, linear work, small RSS" {
	need_time
	setup_jenc
	python3 "$GEN" array 100000 >small.json
	python3 "$GEN" array 10000000 >big.json
	measure stats.small lines.small small.json small.json small.json \
	    small.json small.json small.json small.json small.json small.json \
	    small.json
	expect_status 0
	work_check stats.small 4 "ten arrays of 10^5 elements"
	measure stats.big out big.json
	expect_status 0
	expect_err ''
	check_rss "10^7 elements"
	# default indent: "[", one line per element, "]"
	[ "$(wc -l <out)" = 10000002 ] || fail "$(wc -l <out) lines, expected 10000002"
	[ "$(head -n 2 out)" = "[
  0," ] || fail "output starts with $(head -c 40 out | od -c)"
	[ "$(tail -n 2 out)" = "  0
]" ] || fail "output ends with $(tail -c 40 out | od -c)"
	[ "$(wc -l <lines.small)" = 1000020 ] || fail "small run: $(wc -l <lines.small) lines"
	work_check stats.big 4 "an array of 10^7 elements"
}

@test "a million keys in one object: all there, linear work, small RSS" {
	need_time
	setup_jenc
	python3 "$GEN" object 100000 >small.json
	python3 "$GEN" object 1000000 >big.json
	measure stats.small lines.small small.json
	expect_status 0
	work_check stats.small 4 "an object of 10^5 keys"
	measure stats.big out big.json
	expect_status 0
	expect_err ''
	check_rss "10^6 keys"
	[ "$(wc -l <out)" = 1000002 ] || fail "$(wc -l <out) lines, expected 1000002"
	[ "$(sed -n '2p;1000001p' out)" = '  "k0": 0,
  "k999999": 999999' ] || fail "members: $(sed -n '2p;1000001p' out)"
	work_check stats.big 4 "an object of 10^6 keys"
}

# pipe_strings MB K - measure jenc -c on K strings of MB MiB each from a
# pipe; sets RSS, status, checks the output length and the work.
pipe_strings() {
	measure stats.$1 out -c < <(python3 "$GEN" string $(($1 * 1048576)) "$2")
	expect_status 0
	[ "$(wc -c <out)" = $((($1 * 1048576 + 3) * $2)) ] ||
	    fail "$2 strings of $1 MiB: $(wc -c <out) bytes out"
	work_check stats.$1 8 "$2 strings of $1 MiB from a pipe"
}

@test "a 1 GiB string through a pipe: linear work, copied whole, memory proportional" {
	need_time
	setup_jenc
	# First a string of 4 MiB and one of 32 MiB: if the work per byte
	# grew with the length (as when jsmn read a cut string again from
	# its first byte after each read), 1 GiB would take hours; say so
	# rather than wait.
	pipe_strings 4 1
	pipe_strings 32 1
	n=1073741824
	# an ASan build needs several times the memory and time
	sanitized && n=67108864
	mkfifo in.fifo out.fifo
	python3 "$GEN" string $n >in.fifo 3>&- &
	# count the output, check its first and last bytes and that all
	# the others are 'a'
	python3 -c '
import sys
f = sys.stdin.buffer
n, first, tail, good = 0, b"", b"", True
while True:
    b = f.read(1 << 20)
    if not b:
        break
    if n == 0:
        first = b[:1]
    body = (tail + b)[:-2] if n else b[1:-2]
    good = good and body.count(b"a") == len(body)
    tail = (tail + b)[-2:]
    n += len(b)
print(n, first.decode(), tail == b"\"\n", good)
' <out.fifo >summary 3>&- &
	checker=$!
	measure stats.big out.fifo -c <in.fifo
	wait "$checker"
	expect_status 0
	expect_err ''
	[ "$(cat summary)" = "$((n + 3)) \" True True" ] ||
	    fail "output summary (bytes, first byte, ends in quote-newline, all a): $(cat summary)"
	echo "# string of $n bytes: peak RSS $RSS KiB" >&3
	work_check stats.big 8 "a string of $n bytes from a pipe"
	sanitized || [ "$RSS" -lt $((3 * 1024 * 1024)) ] ||
	    fail "peak RSS $RSS KiB for a 1 GiB string, over 3 GiB"
}

@test "a 20 MB string takes about twice its length, as jenc(1) and the README say" {
	need_time
	setup_jenc
	sanitized && skip "RSS means nothing under ASan"
	python3 -c 'import sys; sys.stdout.write("[\"" + "a" * 20000000 + "\"]\n")' >s.json
	measure stats out -c s.json
	expect_status 0
	[ "$(wc -c <out)" = 20000005 ] || fail "output of $(wc -c <out) bytes"
	echo "# 20 MB string: peak RSS $RSS KiB" >&3
	# 39.5 MiB when measured: the window holding the string, and its
	# output; well over one copy, well under three.
	[ "$RSS" -gt $((20000000 / 1024)) ] && [ "$RSS" -lt $((48 * 1024)) ] ||
	    fail "peak RSS $RSS KiB for a 20 MB string, not about 40 MB"
}

@test "a number with a million digits: copied verbatim" {
	setup_jenc
	python3 "$GEN" number 1000000 >num.json
	jrun -c num.json
	expect_status 0
	expect_err ''
	{ cat num.json; echo; } >expected
	same_bytes expected out
	jrun -c < <(cat num.json)
	expect_status 0
	same_bytes expected out "from a pipe"
	{ printf '['; cat num.json; printf ']'; } >arr.json
	jrun arr.json
	expect_status 0
	{ printf '[\n  '; cat num.json; printf '\n]\n'; } >expected
	same_bytes expected out
}

@test "100,000 tiny values a second through a pipe: all arrive in order" {
	setup_jenc
	jrun -c < <(python3 "$GEN" bursts 20 10000 0.1)
	expect_status 0
	expect_err ''
	seq 0 199999 >expected
	same_bytes expected out
}
