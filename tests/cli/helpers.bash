# helpers.bash - shared setup and assertions for the jenc CLI tests.
#
# Load it at the top of a .bats file with `load helpers`.  Each test runs
# in its own $BATS_TEST_TMPDIR (the working directory), under LC_ALL=C
# unless it says otherwise.  The binary under test is $JENC (default:
# build/jenc of this checkout); shared test data is at $REPO/../shared.
#
# Running jenc:
#   jrun ARGS...        run $JENC with the caller's stdin, stdout to
#                       $T/out, stderr to $T/err; sets $status
# Checking the result (each prints od -c of both sides on a mismatch):
#   expect_status N     exit status
#   expect_out STR      exact bytes of stdout
#   expect_out_doc      the same, STR read from a here-document
#   expect_err STR      exact bytes of stderr
#   same_bytes A B      two files hold the same bytes
# Input:
#   put STR             write STR (bytes, no newline added) to $T/in
#   putf FMT ARGS...    printf FMT ARGS... > $T/in (for \0, \xNN)

bats_require_minimum_version 1.5.0

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

REPO=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
SHARED=$REPO/../shared
SUITE=$SHARED/conformance/JSONTestSuite
CORPUS=$SHARED/corpus
DATA=$REPO/tests/data

: "${JENC:=$BATS_TEST_DIRNAME/../../build/jenc}"
# Tests cd into their own directory: make the binary's path absolute.
case $JENC in
/*) ;;
*/*) JENC=$(cd "$(dirname "$JENC")" && pwd)/$(basename "$JENC") ;;
esac
export JENC

# The corpus files every comparison runs over.
corpus_files() {
	local f
	for f in "$CORPUS"/*.json "$CORPUS"/*.ndjson; do
		[ -f "$f" ] && printf '%s\n' "$f"
	done
}

setup_jenc() {
	export LC_ALL=C
	unset LANG LANGUAGE
	T=$BATS_TEST_TMPDIR
	cd "$T" || return 1
	[ -x "$JENC" ] || fail "no jenc binary at $JENC (run 'make all' first)"
}

# need_shim NAME WHY - set $SHIM to the LD_PRELOAD library NAME.so that
# make check-cli builds beside jenc; skip, saying WHY, when jenc is built
# with AddressSanitizer, whose runtime comes first and intercepts the
# calls a shim would replace.
need_shim() {
	if nm "$JENC" 2>/dev/null | grep -q ' __asan_init$'; then
		skip "jenc is built with AddressSanitizer, $2"
	fi
	SHIM=$(dirname "$JENC")/tests/$1.so
	[ -f "$SHIM" ] || fail "no $SHIM (make check-cli builds it)"
}

# need_shared - skip when the shared data is not next to the checkout.
need_shared() {
	[ -d "$SUITE" ] && [ -d "$CORPUS" ] ||
	    skip "shared test data not found at $SHARED"
}

# need_go - set $REF to the Go reference binary, building it once;
# skip only when Go is not installed.
need_go() {
	local rc=0
	REF=$("$REPO/tests/ref/jsonref.sh") || rc=$?
	if [ "$rc" = 77 ]; then
		skip "go is not installed (apt-get install golang-go; make deps does it)"
	fi
	[ "$rc" = 0 ] || fail "building the Go reference failed (tests/ref/jsonref.sh)"
}

# need_utf8_locale - skip when C.UTF-8 is not available.
need_utf8_locale() {
	locale -a 2>/dev/null | grep -qix 'c\.utf-\{0,1\}8' ||
	    skip "locale C.UTF-8 is not installed"
}

jrun() {
	JCMD="jenc $*"
	status=0
	"$JENC" "$@" >"$T/out" 2>"$T/err" || status=$?
}

put() {
	printf '%s' "$1" >"$T/in"
}

putf() {
	# shellcheck disable=SC2059
	printf "$@" >"$T/in"
}

# show_bytes LABEL FILE [SKIP] - od -c of (part of) a file, for failures.
show_bytes() {
	local skip=${3:-0}
	echo "-- $1 (od -c, from byte $skip):"
	od -A d -c -j "$skip" -N 256 "$2"
}

# same_bytes EXPECTED ACTUAL [WHAT] - compare two files byte for byte.
same_bytes() {
	local diff at skip
	if ! diff=$(cmp "$1" "$2" 2>&1); then
		at=$(printf '%s\n' "$diff" | sed -n 's/.*differ: byte \([0-9]*\).*/\1/p')
		skip=0
		[ -n "$at" ] && [ "$at" -gt 64 ] && skip=$((at - 64))
		{
			echo "${3:-output} differs: $diff"
			echo "   expected $1: $(wc -c <"$1") bytes"
			echo "   actual   $2: $(wc -c <"$2") bytes"
			[ -n "${JCMD:-}" ] && echo "   command: $JCMD"
			show_bytes expected "$1" "$skip"
			show_bytes actual "$2" "$skip"
		} | fail
	fi
}

expect_out() {
	printf '%s' "$1" >"$T/expected.out"
	same_bytes "$T/expected.out" "$T/out" stdout
}

# expect_out_doc - like expect_out, the expected bytes read from stdin
# (a here-document); {LS} and {PS} stand for raw U+2028 and U+2029.
expect_out_doc() {
	local ls=$'\xe2\x80\xa8' ps=$'\xe2\x80\xa9'
	sed -e "s/{LS}/$ls/g" -e "s/{PS}/$ps/g" >"$T/expected.out"
	same_bytes "$T/expected.out" "$T/out" stdout
}

expect_err() {
	printf '%s' "$1" >"$T/expected.err"
	same_bytes "$T/expected.err" "$T/err" stderr
}

expect_status() {
	if [ "$status" != "$1" ]; then
		{
			echo "exit status $status, expected $1"
			echo "command: ${JCMD:-}"
			echo "-- stderr:"
			head -c 2000 "$T/err"
		} | fail
	fi
}

# expect_ok STR - exit 0, nothing on stderr, stdout is STR.
expect_ok() {
	expect_status 0
	expect_err ''
	expect_out "$1"
}

# expect_invalid STDOUT STDERR - exit 1 with exactly these outputs.
expect_invalid() {
	expect_status 1
	expect_err "$2"
	expect_out "$1"
}

# expect_usage LINE - exit 2, nothing on stdout, LINE and the hint.
expect_usage() {
	expect_status 2
	expect_out ''
	expect_err "$1
Try 'jenc --help' for more information.
"
}

# check_error_reports NAME=ERRFILE... - check stderr files of rejected
# inputs against the contract's error format: exactly three lines
# "jenc: NAME:LINE:COL: MESSAGE", "  EXCERPT", "  <spaces>^", where
# MESSAGE is one of the documented forms and agrees with the byte at
# LINE:COL of the input (NAME is also the input's path), the excerpt is
# the input line (a tab as a space, other control bytes as '?'; of a line
# longer than 80 bytes at most 80 columns around the spot, "..." allowed
# at a cut end) and the caret sits under the spot.  Prints one line per
# problem; fails if there is any.
check_error_reports() {
	python3 - "$@" <<'PY' || fail "error reports do not follow the contract (above)"
import re, sys

FOUND = (r"expected value or end of input|expected end of input after the value"
         r"|expected value or '\]'|expected value after ','|expected value after ':'"
         r"|expected ',' or '\]' after array element|expected string key or '\}'"
         r"|expected string key after ','|expected ':' after object key"
         r"|expected ',' or '\}' after object member")

def describe(data, off):
    if off == len(data):
        return "end of input"
    b = data[off]
    if b == 0:
        return "NUL byte"
    if 0x21 <= b <= 0x7e:
        return "'%c'" % b
    return "byte 0x%02x" % b

def check(name, data, err):
    lines = err.split(b"\n")
    if len(lines) != 4 or lines[3] != b"":
        return "stderr is not exactly three lines: %r" % err[:300]
    head = ("jenc: %s:" % name).encode()
    if not lines[0].startswith(head):
        return "first line does not start with %r: %r" % (head, lines[0])
    m = re.fullmatch(rb"(\d+):(\d+): (.*)", lines[0][len(head):], re.S)
    if not m:
        return "no LINE:COL: MESSAGE in %r" % lines[0]
    ln, col, msg = int(m.group(1)), int(m.group(2)), m.group(3).decode("latin-1")
    starts = [0] + [i + 1 for i, c in enumerate(data) if c == 0x0a]
    if ln < 1 or ln > len(starts):
        return "line %d outside the input (%d lines)" % (ln, len(starts))
    end = data.find(b"\n", starts[ln - 1])
    line = data[starts[ln - 1]: len(data) if end < 0 else end]
    if col < 1 or col - 1 > len(line):
        return "column %d outside line %d (%d bytes)" % (col, ln, len(line))
    off = starts[ln - 1] + col - 1
    at = data[off:]
    msg = msg[:-len(" (output of this value was cut)")] \
        if msg.endswith(" (output of this value was cut)") else msg
    # what JSON with comments or CSV would explain (lib/json.c)
    for hint in (" (JSON with comments? try --jsonc)",
                 " (trailing comma? try --jsonc)", " (is it CSV? try -f csv)"):
        if msg.endswith(hint):
            msg = msg[:-len(hint)]
            break
    m = re.fullmatch(r"(%s), found (.*)" % FOUND, msg, re.S)
    if msg == "expected value, found end of input":
        ok = off == len(data)
    elif m and not msg.startswith("unterminated"):
        ok = m.group(2) == describe(data, off)
    elif re.fullmatch(r"invalid number '(.*)'", msg, re.S):
        t = re.fullmatch(r"invalid number '(.*)'", msg, re.S).group(1).encode("latin-1")
        if t.endswith(b"...") and len(t) == 35:
            t = t[:32]
        ok = len(t) > 0 and at.startswith(t)
    elif re.fullmatch(r"invalid literal '(.*)', expected true, false or null", msg, re.S):
        t = re.fullmatch(r"invalid literal '(.*)',.*", msg, re.S).group(1).encode("latin-1")
        ok = len(t) > 0 and t[:1].isalpha() and at.startswith(t)
    elif re.fullmatch(r"invalid escape '\\(.)' in string", msg, re.S):
        c = msg[len("invalid escape '\\")].encode("latin-1")
        ok = at[:1] == b"\\" and at[1:2] == c
    elif msg == "invalid \\u escape in string, expected 4 hex digits":
        ok = at[:2] == b"\\u"
    elif re.fullmatch(r"unescaped control character 0x[0-9a-f]{2} in string", msg):
        ok = len(at) > 0 and at[0] < 0x20 and msg[30:32] == "%02x" % at[0]
    elif re.fullmatch(r"invalid UTF-8 byte 0x[0-9a-f]{2} in string", msg):
        ok = len(at) > 0 and at[0] >= 0x80 and msg[21:23] == "%02x" % at[0]
    elif msg == "unterminated string, found end of input":
        ok = at[:1] == b'"'
    elif re.fullmatch(r"nesting deeper than [0-9]+ levels \(see --max-depth\)", msg):
        ok = at[:1] in (b"[", b"{")
    else:
        return "message is not one of the documented forms: %r" % msg
    if not ok:
        return "message %r does not match the input at %d:%d (%r)" % (msg, ln, col, at[:12])
    shown = bytes(0x20 if c == 0x09 else 0x3f if c < 0x20 or c == 0x7f else c
                  for c in line)
    if not lines[1].startswith(b"  "):
        return "excerpt line does not start with two spaces: %r" % lines[1][:100]
    exc = lines[1][2:]
    cm = re.fullmatch(rb"  ( *)\^", lines[2])
    if not cm:
        return "caret line is not two spaces, spaces and '^': %r" % lines[2][:100]
    caret = len(cm.group(1))
    if len(shown) <= 80:
        if exc != shown:
            return "excerpt %r is not the input line %r" % (exc, shown)
        if caret != col - 1:
            return "caret at column %d, spot at column %d" % (caret + 1, col)
        return None
    # A cut excerpt may mark the cut with "..." at either end.
    lead = 3 if exc.startswith(b"...") else 0
    core = exc[lead:-3] if exc.endswith(b"...") else exc[lead:]
    if len(core) > 80 or len(core) == 0:
        return "excerpt of a %d-byte line shows %d bytes of it" % (len(shown), len(core))
    s = col - 1 - (caret - lead)
    if caret < lead or s < 0 or shown[s:s + len(core)] != core or caret - lead > len(core):
        return "caret at %d of excerpt %r is not under column %d" % (caret, exc[:90], col)
    return None

bad = 0
for arg in sys.argv[1:]:
    name, errfile = arg.split("=", 1)
    with open(name, "rb") as f:
        data = f.read()
    with open(errfile, "rb") as f:
        err = f.read()
    problem = check(name, data, err)
    if problem:
        bad += 1
        print("%s: %s" % (name, problem))
sys.exit(1 if bad else 0)
PY
}

# work_check STATS BOUND WHAT - STATS is the file jenc wrote at exit with
# JENC_STATS=STATS (the counters of jenc_read_stats_get): the bytes its
# readers scanned or copied (skeletons, jsmn, the end of a cut token
# looked for, the exact scanner, the window's moves) per byte they read
# must be under BOUND.  A constant bound that holds at two sizes proves
# work linear in the input, whatever the machine's load: a path quadratic
# in the length of a token or a container passes any constant on a long
# enough one.
work_check() {
	local w
	w=$(awk '{ v[$1] = $2 } END {
		if (v["bytes_in"] == 0) { print "none"; exit }
		w = v["skel_bytes"] + v["jsmn_bytes"] + v["cut_bytes"]
		w += v["slow_bytes"] + v["moved"]
		printf "%.2f\n", w / v["bytes_in"] }' "$1")
	echo "# $3: $w bytes scanned or copied per byte read ($(tr '\n' ' ' <"$1"))" >&3
	[ "$w" != none ] || fail "$3: no input counted in $1"
	awk -v w="$w" -v b="$2" 'BEGIN { exit !(w < b) }' ||
	    fail "$3: $w bytes scanned or copied per byte read, over $2: $(tr '\n' ' ' <"$1")"
}

# Tests wait for events (a file appears, a line arrives, a process
# sleeps), never for a time; HANG_LIMIT seconds is only how long they wait
# before they call it a hang, far more than any busy machine needs.
HANG_LIMIT=${HANG_LIMIT:-300}

# wait_until WHAT CMD... - run CMD (its output discarded) every 10 ms until
# it succeeds; after HANG_LIMIT seconds say that WHAT never happened on
# stderr and return 1.
wait_until() {
	local what=$1 end=$((SECONDS + HANG_LIMIT))
	shift
	until "$@" >/dev/null 2>&1; do
		if [ "$SECONDS" -ge "$end" ]; then
			echo "waited $HANG_LIMIT s for $what" >&2
			return 1
		fi
		sleep 0.01
	done
}

# feed MODE PIECE... -- CMD ARGS... - run CMD (jenc) ARGS with stdout to
# out, stderr to err and standard input a pipe (MODE pipe), a non-blocking
# pipe (nonblock) or a non-blocking terminal (tty), writing each PIECE
# (printf escapes, or @FILE:START:END for bytes of a file) only once CMD
# has read all before it and waits for more (feed.py); jenc's work
# counters go to stats.  Sets $status.
feed() {
	local mode=$1 cmd
	shift
	cmd="$* "
	cmd=${cmd##* -- }
	cmd=${cmd#* }
	JCMD="jenc ${cmd}($mode input in pieces)"
	status=$(JENC_STATS=stats HANG_LIMIT=$HANG_LIMIT \
	    python3 "$BATS_TEST_DIRNAME/feed.py" "$mode" out err "$@") ||
	    fail "$JCMD: feed.py failed"
}

# file_inputs - the inputs of the file tests (files.bats, filesafe.bats):
# u.json, a document in compact form; formatted.out, jenc's default output
# of it; bad.json, a document cut short.
file_inputs() {
	printf '{"a":[1,{"b":null}],"c":"x"}' >u.json
	printf '{\n  "a": [\n    1,\n    {\n      "b": null\n    }\n  ],\n  "c": "x"\n}\n' \
	    >formatted.out
	printf '{"a": 1' >bad.json
}
