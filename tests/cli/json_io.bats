#!/usr/bin/env bats
# Inputs and outputs: FILE operands and '-', unreadable inputs (exit 3,
# the other files still processed), write errors, a closed pipe, and
# values written as they arrive through a FIFO.

load helpers

setup() {
	setup_jenc
	JPID=
	printf '{"a": 1}' >a.json
	printf '[2]\n' >b.json
}

teardown() {
	exec 5<&- 6>&-
	if [ -n "$JPID" ]; then
		kill "$JPID" 2>/dev/null || true
		wait "$JPID" 2>/dev/null || true
	fi
}

# bigjson FILE - a JSON document of about 5 MB.
bigjson() {
	python3 -c '
import json, sys
row = {"id": 0, "name": "name <&> \u00e9", "tags": ["a", "b", "c"], "v": [1.5, -0, 1e10]}
sys.stdout.write("[" + ",".join(json.dumps(dict(row, id=i)) for i in range(50000)) + "]\n")
' >"$1"
}

@test "no FILE reads stdin" {
	jrun -c <a.json
	expect_ok $'{"a":1}\n'
}

@test "FILE arguments are read in order, '-' is stdin" {
	put '"in"'
	jrun -c a.json - b.json <in
	expect_ok $'{"a":1}\n"in"\n[2]\n'
	jrun -c b.json a.json b.json </dev/null
	expect_ok $'[2]\n{"a":1}\n[2]\n'
}

@test "input from a pipe is the same as from a file" {
	bigjson big.json
	jrun -c big.json
	expect_status 0
	mv out file.out
	JCMD="cat big.json | jenc -c"
	cat big.json | "$JENC" -c >out 2>err
	same_bytes file.out out "output from a pipe"
}

@test "a missing file: exit 3, the other files are still processed" {
	jrun -c a.json nope.json b.json
	expect_status 3
	expect_err $'jenc: nope.json: No such file or directory\n'
	expect_out $'{"a":1}\n[2]\n'
}

@test "a missing file under C.UTF-8: the same message" {
	need_utf8_locale
	LC_ALL=C.UTF-8 jrun -c nope.json a.json
	expect_status 3
	expect_err $'jenc: nope.json: No such file or directory\n'
	expect_out $'{"a":1}\n'
}

@test "a missing file wins over invalid input: exit 3" {
	put '[1,]'
	cp in bad.json
	jrun -c bad.json nope.json a.json
	expect_status 3
	expect_out $'{"a":1}\n'
	expect_err $'jenc: bad.json:1:4: expected value after \',\', found \']\' (trailing comma? try --jsonc)\n  [1,]\n     ^\njenc: nope.json: No such file or directory\n'
	jrun -c nope.json bad.json
	expect_status 3
	expect_err $'jenc: nope.json: No such file or directory\njenc: bad.json:1:4: expected value after \',\', found \']\' (trailing comma? try --jsonc)\n  [1,]\n     ^\n'
}

@test "a directory as input: read error, exit 3, next file processed" {
	mkdir d
	jrun -c d a.json
	expect_status 3
	expect_err $'jenc: d: Is a directory\n'
	expect_out $'{"a":1}\n'
}

@test "/dev/full: exit 3 and 'jenc: write error: No space left on device'" {
	[ -w /dev/full ] || skip "no /dev/full"
	JCMD="jenc -c a.json >/dev/full"
	status=0
	"$JENC" -c a.json >/dev/full 2>err || status=$?
	expect_status 3
	expect_err $'jenc: write error: No space left on device\n'
}

@test "/dev/full: jenc stops at the first write error" {
	[ -w /dev/full ] || skip "no /dev/full"
	bigjson big.json
	JCMD="jenc big.json big.json nope.json >/dev/full"
	status=0
	"$JENC" big.json big.json nope.json >/dev/full 2>err || status=$?
	expect_status 3
	expect_err $'jenc: write error: No space left on device\n'
}

@test "/dev/full: nothing to write is no error" {
	[ -w /dev/full ] || skip "no /dev/full"
	JCMD="jenc --validate a.json >/dev/full"
	status=0
	"$JENC" --validate a.json >/dev/full 2>err || status=$?
	expect_status 0
	expect_err ''
	: >empty.json
	status=0
	"$JENC" empty.json >/dev/full 2>err || status=$?
	expect_status 0
	expect_err ''
}

@test "/dev/full with invalid input: the write error wins, exit 3" {
	[ -w /dev/full ] || skip "no /dev/full"
	put '[1] ]'
	JCMD="jenc -c <in >/dev/full"
	status=0
	"$JENC" -c <in >/dev/full 2>err || status=$?
	expect_status 3
	grep -qx 'jenc: write error: No space left on device' err ||
	    fail "no write error message: $(cat err)"
}

# closed_pipe ARGS... - run `jenc ARGS... | head -c 1`; sets $status to
# jenc's exit status.
closed_pipe() {
	JCMD="jenc $* | head -c 1"
	{
		rc=0
		"$JENC" "$@" 2>err || rc=$?
		echo "$rc" >rc
	} | head -c 1 >out
	status=$(cat rc)
}

sigpipe_ignored() {
	local ign
	ign=$(sed -n 's/^SigIgn:[[:space:]]*//p' /proc/self/status 2>/dev/null)
	[ -n "$ign" ] && [ $((0x$ign & 0x1000)) != 0 ]
}

@test "closed pipe: jenc big | head -c 1 ends quietly" {
	local want_err='' want_status=141
	# SIGPIPE ignored (inherited): a write error, as cat(1) reports it.
	if sigpipe_ignored; then
		want_err='jenc: write error: Broken pipe
'
		want_status=3
	fi
	bigjson big.json
	closed_pipe big.json
	expect_err "$want_err"
	expect_out '['
	expect_status "$want_status"
	closed_pipe -c big.json nope.json
	expect_err "$want_err"
	expect_status "$want_status"
	closed_pipe --tab <big.json
	expect_err "$want_err"
}

# The FIFO tests: a writer sends values one at a time and reads each
# value's output before it sends the next or closes its end; `read -t`
# (HANG_LIMIT, helpers.bash) only keeps a broken jenc from hanging the
# suite.

line_is() {
	local line
	IFS= read -r -t "$HANG_LIMIT" -u 5 line ||
	    fail "no output line while expecting '$1' (stderr: $(cat err))"
	[ "$line" = "$1" ] || fail "output line '$line', expected '$1'"
}

# output_ends - jenc's output reaches its end (jenc exits) with no more
# lines.
output_ends() {
	local line rc=0
	IFS= read -r -t "$HANG_LIMIT" -u 5 line || rc=$?
	[ "$rc" != 0 ] || fail "unexpected output line '$line'"
	[ "$rc" -le 128 ] || fail "jenc did not end its output after the input was closed"
	[ -z "$line" ] || fail "unexpected output '$line' without a newline"
}

@test "FIFO on stdin: each value is written before more input arrives (-c)" {
	mkfifo fin fout
	"$JENC" -c <fin >fout 2>err 3>&- &
	JPID=$!
	exec 6>fin
	exec 5<fout
	printf '{"a": 1}\n' >&6
	line_is '{"a":1}'
	printf '[1,' >&6
	printf ' 2]' >&6
	line_is '[1,2]'
	printf '"x" 7 ' >&6
	line_is '"x"'
	line_is '7'
	printf '  {"b"' >&6
	printf ':true}' >&6
	line_is '{"b":true}'
	printf '[][' >&6
	line_is '[]'
	printf ']\n' >&6
	line_is '[]'
	exec 6>&-
	output_ends
	status=0
	wait "$JPID" || status=$?
	JPID=
	expect_status 0
	expect_err ''
}

@test "FIFO as FILE argument: indented values are written as they complete" {
	mkfifo fin fout
	"$JENC" fin >fout 2>err 3>&- &
	JPID=$!
	exec 5<fout
	exec 6>fin
	printf '{"a":[1]}' >&6
	line_is '{'
	line_is '  "a": ['
	line_is '    1'
	line_is '  ]'
	line_is '}'
	printf '\n"s"\n' >&6
	line_is '"s"'
	exec 6>&-
	output_ends
	status=0
	wait "$JPID" || status=$?
	JPID=
	expect_status 0
	expect_err ''
}

@test "FIFO: values before an error are written, then the error" {
	mkfifo fin fout
	"$JENC" -c <fin >fout 2>err 3>&- &
	JPID=$!
	exec 6>fin
	exec 5<fout
	printf '{"a":1}\n' >&6
	line_is '{"a":1}'
	printf '{"b":]\n' >&6
	exec 6>&-
	output_ends
	status=0
	wait "$JPID" || status=$?
	JPID=
	expect_status 1
	expect_err $'jenc: <stdin>:2:6: expected value after \':\', found \']\'\n  {"b":]\n       ^\n'
}
