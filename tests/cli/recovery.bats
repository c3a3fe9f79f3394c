#!/usr/bin/env bats
# Where bad text ends under --on-error, and what every way of reading an
# input (-j 1 or N, mapped or read, file or pipe, --seq, --jsonc, another
# encoding) must agree on: each test here once found a difference.

load helpers

setup() {
	setup_jenc
}

# wide FILE CODEC MARK - FILE: 60000 lines {"i":N} (about 1.4 MiB or more,
# so that it is mapped), in CODEC (a Python codec name) after the byte
# order mark MARK (hex); want.out: the same as UTF-8.
wide() {
	python3 - "$@" <<'PY'
import sys
name, codec, mark = sys.argv[1], sys.argv[2], bytes.fromhex(sys.argv[3])
text = "".join('{"i":%d}\n' % i for i in range(60000))
open(name, "wb").write(mark + text.encode(codec))
open("want.out", "w").write(text)
PY
}

@test "-j 2: a UTF-16 or UTF-32 file with a byte order mark, mapped, is converted" {
	local j
	wide u16.json utf-16-le fffe
	[ "$(wc -c <u16.json)" -ge 1048576 ] || fail "u16.json is under 1 MiB"
	for j in 1 2 3; do
		jrun -c -j "$j" u16.json
		expect_status 0
		expect_err ''
		same_bytes want.out "$T/out"
		jrun -c -j "$j" --on-error=skip u16.json
		expect_status 0
		same_bytes want.out "$T/out"
		jrun -c -j "$j" --on-error=pass u16.json
		expect_status 0
		same_bytes want.out "$T/out"
	done
	wide u32.json utf-32-be 0000feff
	for j in 1 2; do
		jrun -c -j "$j" u32.json
		expect_status 0
		expect_err ''
		same_bytes want.out "$T/out"
		jrun -c -j "$j" --no-mmap u32.json
		expect_status 0
		same_bytes want.out "$T/out"
	done
}

@test "-j 2: no CSV hint for a bad line that starts a chunk after the first line" {
	# JENC_CHUNK=18: the first chunk is the two lines before x,y (its
	# cut is the last line end in 18 bytes), so the second starts at it
	printf '{"a":1}\n{"a":2}\nx,y\n{"b":2}\n{"c":3}\n' >in.json
	local msg="jenc: in.json:3:1: invalid literal 'x', expected true, false or null
  x,y
  ^
"
	for j in 1 2; do
		JENC_CHUNK=18 jrun -c -j "$j" in.json
		expect_invalid '{"a":1}
{"a":2}
' "$msg"
		JENC_CHUNK=18 jrun -c -j "$j" --on-error=skip in.json
		expect_status 0
		expect_out '{"a":1}
{"a":2}
{"b":2}
{"c":3}
'
		expect_err "${msg}jenc: 1 invalid line skipped
"
	done
	# the first line of the input still gets it
	printf 'x,y\n{"a":1}\n{"a":2}\n{"b":2}\n{"c":3}\n' >first.json
	JENC_CHUNK=18 jrun -c -j 2 first.json
	expect_invalid '' "jenc: first.json:1:1: invalid literal 'x', expected true, false or null (is it CSV? try -f csv)
  x,y
  ^
"
}

@test "-j 2 from a pipe: no CSV hint for a bad line read after a pause" {
	# the writer sends two lines, waits until jenc has written them (the
	# chunk is cut when no more input waits), then sends the rest: the
	# bad line starts the next chunk (a writer waiting 10 s fails)
	local i
	mkfifo fifo
	(
		printf '{"a":1}\n{"a":2}\n'
		for i in $(seq 200); do
			grep -q '"a":2' out.txt 2>/dev/null && break
			sleep 0.05
		done
		grep -q '"a":2' out.txt 2>/dev/null || touch late
		printf 'x,y\n{"b":2}\n'
	) >fifo &
	status=0
	"$JENC" -c -j 2 <fifo >out.txt 2>err.txt || status=$?
	wait
	[ ! -e late ] || fail "the lines before the pause came out only at the end"
	[ "$status" = 1 ] || fail "exit status $status, expected 1"
	printf '{"a":1}\n{"a":2}\n' >want.txt
	same_bytes want.txt out.txt
	printf '%s\n' "jenc: <stdin>:3:1: invalid literal 'x', expected true, false or null" \
	    '  x,y' '  ^' >want.err
	same_bytes want.err err.txt stderr
}

@test "--on-error: a bad string ends with its closing quote, the lines after it are read" {
	local j policy
	printf '[1,"\\q"]\n2\n3\n' >esc.json
	jrun -c --on-error=skip esc.json
	expect_status 0
	expect_out '2
3
'
	expect_err "jenc: esc.json:1:5: invalid escape '\\q' in string
  [1,\"\\q\"]
      ^
jenc: 1 invalid line skipped
"
	jrun -c --on-error=pass esc.json
	expect_status 0
	expect_out '[1,"\q"]
2
3
'
	expect_err 'jenc: 1 invalid line passed through
'
	# invalid UTF-8, a blank line after it
	printf '{"a":"\xff"}\n2\n\n3\n' >utf.json
	jrun -c --on-error=pass utf.json
	expect_status 0
	printf '{"a":"\xff"}\n2\n3\n' >want.out
	same_bytes want.out "$T/out"
	expect_err 'jenc: 1 invalid line passed through
'
	# brackets and quotes in the rest of the string do not count
	printf '{"a":"\\x]}[{\\"", "b":[1,\n2]}\n{"c":3}\n[4]\n' >rest.json
	jrun -c --on-error=skip rest.json
	expect_status 0
	expect_out '{"c":3}
[4]
'
	expect_err "jenc: rest.json:1:7: invalid escape '\\x' in string
  {\"a\":\"\\x]}[{\\\"\", \"b\":[1,
        ^
jenc: 2 invalid lines skipped
"
	# the same from every reader: -j, chunks at every line, a pipe
	for policy in skip pass; do
		for j in 2 3; do
			JENC_CHUNK=1 jrun -c -j "$j" --on-error="$policy" \
			    rest.json
			cp "$T/out" j.out
			cp "$T/err" j.err
			jrun -c --on-error="$policy" <rest.json
			sed 's/<stdin>/rest.json/' "$T/err" >one.err
			same_bytes "$T/out" j.out stdout
			same_bytes one.err j.err stderr
		done
	done
}

@test "--seq: a top-level string cut by RS is the bad text, the next text is read" {
	printf '\x1e"abc\x1e{"b": 1}\n\x1e2\n' >in.seq
	local msg="jenc: in.seq:1:6: truncated JSON text before RS
  ?\"abc?{\"b\": 1}
       ^
"
	jrun --seq -c in.seq
	expect_status 1
	printf '\x1e{"b":1}\n\x1e2\n' >want.out
	same_bytes want.out "$T/out"
	expect_err "${msg}jenc: 1 invalid line skipped
"
	jrun --seq -c --on-error=pass in.seq
	expect_status 0
	printf '\x1e"abc\n\x1e{"b":1}\n\x1e2\n' >want.out
	same_bytes want.out "$T/out"
	expect_err 'jenc: 1 invalid line passed through
'
	# a bad string cut by RS: all of it, from its quote, is passed
	printf '\x1e"a\\qb\x1e[1]\n' >esc.seq
	jrun --seq -c --on-error=pass esc.seq
	expect_status 0
	printf '\x1e"a\\qb\n\x1e[1]\n' >want.out
	same_bytes want.out "$T/out"
}

@test "--jsonc: a // comment ending in CR LF leaves no space in the excerpt" {
	printf '[1, x // note\r\n]\n' >crlf.jsonc
	printf '[1, x // note\n]\n' >lf.jsonc
	jrun --jsonc -c crlf.jsonc
	expect_status 1
	sed 's/crlf/lf/' "$T/err" >crlf.err
	jrun --jsonc -c lf.jsonc
	expect_status 1
	same_bytes "$T/err" crlf.err stderr
	# a block comment over CR LF lines too
	printf '[1, /* a\r\nb */ x /* c */\r\n]\n' >block.jsonc
	jrun --jsonc -c block.jsonc
	expect_invalid '' "jenc: block.jsonc:2:6: invalid literal 'x', expected true, false or null
       x        
       ^
"
}

@test "-j 2: a document with an error ends without waiting for the end of its input" {
	# the writer keeps its end of the pipe open until jenc has exited (or
	# 10 s have passed, which fails the test): jenc stops the thread that
	# reads ahead, blocked in read(2)
	local i
	mkfifo fifo
	(
		printf '[[[1,x]]]\n'
		for i in $(seq 200); do
			[ -e exited ] && break
			sleep 0.05
		done
		[ -e exited ] || touch late
	) >fifo &
	status=0
	"$JENC" -c -j 2 <fifo >out.txt 2>err.txt || status=$?
	touch exited
	wait
	[ ! -e late ] || fail "jenc waited for the end of its input"
	[ "$status" = 1 ] || fail "exit status $status, expected 1"
	printf '%s\n' "jenc: <stdin>:1:6: invalid literal 'x', expected true, false or null" \
	    '  [[[1,x]]]' '       ^' >want.err
	same_bytes want.err err.txt stderr
}

@test "--on-error with --split and --seq: where the bad text ends (jenc(1))" {
	# --split: the bad value is the whole array, from its first line,
	# though its first elements were written
	printf '[1,\n2,\nx,\n4]\n5\n' >split.json
	jrun -c --split --on-error=skip split.json
	expect_status 0
	expect_out '1
2
5
'
	expect_err "jenc: split.json:3:1: invalid literal 'x', expected true, false or null
  x,
  ^
jenc: 4 invalid lines skipped
"
	# --seq: from the bad value's start to the RS that cut it, line ends
	# included; outside a value, from the error's spot to the next RS
	printf '\x1e{"a":\n[1,\n"x\x1e[2]\n\x1e3\n' >cut.seq
	jrun --seq -c --on-error=pass cut.seq
	expect_status 0
	printf '\x1e{"a":\n[1,\n"x\n\x1e[2]\n\x1e3\n' >want.out
	same_bytes want.out "$T/out"
	expect_err 'jenc: 3 invalid lines passed through
'
	printf '\x1e{"a": 1} x\ny\n\x1e3\n' >junk.seq
	jrun --seq -c --on-error=pass junk.seq
	expect_status 0
	printf '\x1e{"a":1}\n\x1ex\ny\n\x1e3\n' >want.out
	same_bytes want.out "$T/out"
	expect_err 'jenc: 2 invalid lines passed through
'
	# and the same on two threads, chunks at every line
	for f in split.json cut.seq junk.seq; do
		case $f in
		*.seq) set -- --seq ;;
		*) set -- --split ;;
		esac
		jrun -c "$@" --on-error=pass "$f"
		cp "$T/out" one.out
		cp "$T/err" one.err
		JENC_CHUNK=1 jrun -c "$@" --on-error=pass -j 2 "$f"
		same_bytes one.out "$T/out" stdout
		same_bytes one.err "$T/err" stderr
	done
}

@test "--split: the elements of a bad array already written are not read again" {
	# a pretty-printed array with a bad element: the line of an element
	# written before the error, though it starts with '{', does not start
	# a new value (it was read again and written twice)
	printf '[\n{"a":1},\nbad,\n{"a":2}\n]\n' >bad.json
	printf '[\n{"a":1},\n5,\n{"a":2}\n]\n' >five.json
	local bad="jenc: bad.json:3:1: invalid literal 'bad', expected true, false or null" \
	    end="jenc: bad.json:5:1: expected value or end of input, found ']'
  ]
  ^" mode f
	jrun --split -c --on-error=skip bad.json
	expect_status 0
	expect_out '{"a":1}
{"a":2}
'
	expect_err "$bad
  bad,
  ^
$end
jenc: 4 invalid lines skipped
"
	jrun --split -c --on-error=pass bad.json
	expect_status 0
	expect_out '{"a":1}
{"a":2}
]
'
	expect_err "$bad (not passed through)
  bad,
  ^
jenc: 1 invalid line passed through, 3 dropped
"
	jrun --to=csv --on-error=skip five.json
	expect_status 0
	expect_out 'a
1
2
'
	expect_err "jenc: five.json:3:1: expected an object as a record, found '5'
  5,
  ^
${end//bad.json/five.json}
jenc: 4 invalid lines skipped
"
	# every way of reading it agrees: one thread or two with chunks at
	# every line, the exact path, a pipe
	for f in bad.json five.json; do
		for mode in skip pass; do
			if [ "$f" = five.json ]; then
				set -- --to=csv --on-error="$mode"
			else
				set -- --split -c --on-error="$mode"
			fi
			jrun "$@" "$f"
			cp "$T/out" one.out
			cp "$T/err" one.err
			JENC_FORCE_THREADS=1 JENC_CHUNK=1 jrun "$@" -j 2 "$f"
			same_bytes one.out "$T/out" stdout
			same_bytes one.err "$T/err" stderr
			JENC_EXACT=1 JENC_FORCE_THREADS=1 JENC_CHUNK=1 \
			    jrun "$@" -j 2 "$f"
			same_bytes one.out "$T/out" stdout
			same_bytes one.err "$T/err" stderr
			sed "s/$f:/<stdin>:/" one.err >pipe.err
			for j in 1 2; do
				status=0
				cat "$f" | JENC_FORCE_THREADS=1 JENC_CHUNK=1 \
				    "$JENC" "$@" -j "$j" >"$T/out" 2>"$T/err" ||
				    status=$?
				expect_status 0
				same_bytes one.out "$T/out" stdout
				same_bytes pipe.err "$T/err" stderr
			done
		done
	done
}

@test "-j 2: a chunk written past 1 MiB does not mark the next bad text as cut" {
	# lines of 50 bytes, so that JENC_CHUNK=1500000 cuts 30000 lines a
	# chunk: the first and the third hold more bad lines than a worker
	# keeps (read again on the main thread), the second's 1.5 MB of
	# output goes out after what that left held; the third starts with
	# a bad line (found by tests/diff/streamdiff.py, from a pipe)
	python3 - <<'PY'
L = 50
obj = '{"a":"' + "v" * (L - 9) + '"}\n'
s = '"' + "v" * (L - 3) + '"\n'
x = "x" * (L - 1) + "\n"
open("in.json", "w").write(obj * 2 + x * 70 + s * 29928 + s * 30000 +
                           x * 70 + s * 1000)
PY
	local policy
	for policy in skip pass; do
		jrun -a --on-error="$policy" in.json
		expect_status 0
		cp "$T/out" one.out
		cp "$T/err" one.err
		JENC_CHUNK=1500000 jrun -a --on-error="$policy" -j 2 in.json
		expect_status 0
		same_bytes one.out "$T/out" stdout
		same_bytes one.err "$T/err" stderr
	done
	grep -q 'cut\|dropped' one.err && fail "-j 1 says a value was cut"
	return 0
}

# Each recovery starts jsmn again where the bad text ends: it reads pieces
# of the window that double, never the whole window again, and the exact
# scanner reads only up to the error.  Work per byte read stays under a
# constant at 4,000 and at 40,000 bad lines in a row (counted, not timed:
# see work_check in helpers.bash).
@test "--on-error=skip: bad lines in a row cost work linear in their number" {
	local n
	for n in 4000 40000; do
		awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "{\"a\":%d,x}\n", i }' >bad.ndjson
		JENC_STATS=stats "$JENC" -c --on-error=skip -q bad.ndjson >out 2>err ||
		    fail "exit status $? on $n bad lines"
		expect_out ''
		expect_err ''
		work_check stats 8 "$n bad lines in a row"
		JENC_STATS=stats "$JENC" -c --on-error=pass -q bad.ndjson >out 2>err ||
		    fail "exit status $? on $n bad lines passed"
		same_bytes bad.ndjson out
		work_check stats 8 "$n bad lines in a row, passed"
	done
}

# Lines that each open a bracket ("[" on every line, as in a document cut
# short) have one error, at the end, for every line: reading again from
# each line to the end made the work grow with the square of the input
# (1,041 and 4,018 per byte read at 2,000 and 8,000 lines).  The brackets
# still open at the error are found once, and the error is told again for
# each of them without reading to it (json_recover.c).
@test "--on-error: lines that each open a bracket cost work linear in their number" {
	local n
	for n in 2000 8000; do
		awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) print "[" }' >open.txt
		JENC_STATS=stats "$JENC" -c --on-error=skip open.txt >out 2>err ||
		    fail "exit status $? on $n lines"
		expect_out ''
		expect_err "jenc: open.txt:$((n + 1)):1: expected value or ']', found end of input
  
  ^
jenc: $n invalid lines skipped
"
		work_check stats 8 "$n lines that open a bracket"
		JENC_STATS=stats "$JENC" -c --on-error=pass -q open.txt >out 2>err ||
		    fail "exit status $? on $n lines passed"
		same_bytes open.txt out
		work_check stats 8 "$n lines that open a bracket, passed"
	done
}

# Lines that each open brackets past --max-depth ('{"a":[' on every line)
# have a depth error for every line but the first few: after each, the
# next line starts a value that read again every line to the last error
# and went one line further (145 and 197 bytes scanned per byte read at
# 2,000 and 8,000 lines, --max-depth=100 and 400: the square of the input
# with a --max-depth that grows with it).  A
# value that starts at a bracket open at the last depth error now takes
# up the reader's state there (jenc_json_deep, json_recover.c).
@test "--on-error: lines that each nest too deep cost work linear in their number" {
	local n m src
	for n in 2000 8000; do
		awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) print "{\"a\":[" }' >deep.txt
		for m in "-j 1" "-j 2"; do
			for src in file pipe; do
				# shellcheck disable=SC2086
				if [ "$src" = file ]; then
					JENC_FORCE_THREADS=1 JENC_STATS=stats "$JENC" -c $m \
					    --max-depth=$((n / 20)) --on-error=skip deep.txt \
					    >out 2>err || fail "exit status $? on $n lines"
				else
					JENC_FORCE_THREADS=1 JENC_STATS=stats "$JENC" -c $m \
					    --max-depth=$((n / 20)) --on-error=skip \
					    < <(cat deep.txt) >out 2>err ||
					    fail "exit status $? on $n lines from a pipe"
				fi
				expect_out ''
				[ "$(grep -c '^jenc: .*nesting deeper than' err)" = $((n - n / 40)) ] ||
				    fail "$(grep -c 'nesting deeper' err) depth errors told on $n lines"
				[ "$(sed -n '$p' err)" = "jenc: $n invalid lines skipped" ] ||
				    fail "count: $(sed -n '$p' err)"
				sed 's/^jenc: <stdin>:/jenc: deep.txt:/' err >named.err
				[ "$src" = file ] && [ "$m" = "-j 1" ] && cp err first.err
				same_bytes first.err named.err "stderr of $m from a $src"
				work_check stats 8 "$n lines too deep, $m, $src"
				# shellcheck disable=SC2086
				JENC_FORCE_THREADS=1 JENC_STATS=stats "$JENC" -c $m \
				    --max-depth=$((n / 20)) --on-error=pass -q \
				    < <(cat deep.txt) >out 2>err ||
				    fail "exit status $? on $n lines passed"
				same_bytes deep.txt out
				work_check stats 8 "$n lines too deep, passed, $m"
			done
		done
	done
	printf '%s\n' "jenc: deep.txt:201:1: nesting deeper than 400 levels (see --max-depth)" \
	    '  {"a":[' '  ^' "jenc: deep.txt:202:1: nesting deeper than 400 levels (see --max-depth)" \
	    '  {"a":[' '  ^' >want.err
	head -c "$(wc -c <want.err)" first.err >head.err
	same_bytes want.err head.err "the first errors"
}

# A value taken up where the last depth error was, as above, that then
# ends, or whose output could pass what is held whole (1 MiB): it is read
# again from its start, for its output.
@test "--on-error: a value inside one too deep that ends is written" {
	local m
	printf '[[\n[[\n]]\n]]\n[1]\n' >ends.txt
	printf '{"a":[\n{"a":[\n[1,\n{"a":[\n{"b":{\n' >deep.txt
	for m in "-j 1" "-j 2"; do
		# shellcheck disable=SC2086
		JENC_FORCE_THREADS=1 jrun -c $m --max-depth=3 --on-error=skip ends.txt
		expect_status 0
		expect_out '[[]]
[1]
'
		expect_err "jenc: ends.txt:2:2: nesting deeper than 3 levels (see --max-depth)
  [[
   ^
jenc: ends.txt:4:1: expected value or end of input, found ']'
  ]]
  ^
jenc: 2 invalid lines skipped
"
		# shellcheck disable=SC2086
		JENC_FORCE_THREADS=1 jrun -c $m --max-depth=3 --on-error=pass ends.txt
		expect_status 0
		expect_out '[[
[[]]
]]
[1]
'
		# shellcheck disable=SC2086
		JENC_FORCE_THREADS=1 jrun -c $m --max-depth=3 --on-error=skip deep.txt
		expect_status 0
		expect_out ''
		expect_err "jenc: deep.txt:2:6: nesting deeper than 3 levels (see --max-depth)
  {\"a\":[
       ^
jenc: deep.txt:4:1: nesting deeper than 3 levels (see --max-depth)
  {\"a\":[
  ^
jenc: deep.txt:5:1: nesting deeper than 3 levels (see --max-depth)
  {\"b\":{
  ^
jenc: deep.txt:5:6: nesting deeper than 3 levels (see --max-depth)
  {\"b\":{
       ^
jenc: deep.txt:6:1: expected string key or '}', found end of input
  
  ^
jenc: 5 invalid lines skipped
"
	done
	# the third line's value goes past 1 MiB: its output is cut
	awk 'BEGIN { print "["; print "["; printf "[";
	    for (i = 0; i < 150000; i++) printf "1234567,"; print "[";
	    print "]]]"; print "[2]" }' >big.txt
	jrun -c --max-depth=2 --on-error=skip big.txt
	expect_status 0
	[ "$(head -c 10 "$T/out")" = '[[1234567,' ] || fail "output: $(head -c 10 "$T/out")"
	[ "$(tail -c 12 "$T/out")" = '1234567
[2]' ] || fail "output ends: $(tail -c 12 "$T/out")"
	[ "$(sed -n 4p "$T/err")" = 'jenc: big.txt:3:1200002: nesting deeper than 2 levels (see --max-depth) (output of this value was cut)' ] ||
	    fail "$(sed -n 4p "$T/err")"
	"$JENC" -c --max-depth=2 --on-error=skip <big.txt >out 2>err
	same_bytes "$T/out" out "stdout from a pipe"
}

# After a byte order mark, a first text that is bad and then a blank line:
# the reading that went on after the bad text still held the mark as
# standing alone, and told a second error at the end of the input
# ("expected value after the byte order mark, found end of input").
@test "--on-error: a byte order mark before a bad first text is not told to stand alone" {
	local m
	printf '\357\273\277{"a":}\n\n' >bad.json
	for m in "-j 1" "-j 2"; do
		# shellcheck disable=SC2086
		jrun -c $m --on-error=skip bad.json
		expect_status 0
		expect_out ''
		expect_err "jenc: bad.json:1:6: expected value after ':', found '}'
  {\"a\":}
       ^
jenc: 1 invalid line skipped
"
		# shellcheck disable=SC2086
		"$JENC" -c $m --on-error=skip < <(cat bad.json) >out 2>err ||
		    fail "exit status $? from a pipe"
		expect_out ''
		expect_err "jenc: <stdin>:1:6: expected value after ':', found '}'
  {\"a\":}
       ^
jenc: 1 invalid line skipped
"
	done
	# a record rejected by --log or --to=csv, from a file and a pipe
	printf '\357\273\27730\n\n' >rec.json
	for m in "--log --color=never" "--to=csv --header=a"; do
		# shellcheck disable=SC2086
		jrun $m --on-error=skip rec.json
		expect_status 0
		expect_err "jenc: rec.json:1:1: expected an object as a record, found '3'
  30
  ^
jenc: 1 invalid line skipped
"
		# shellcheck disable=SC2086
		"$JENC" $m --on-error=skip < <(cat rec.json) >out 2>err ||
		    fail "exit status $? from a pipe"
		expect_err "jenc: <stdin>:1:1: expected an object as a record, found '3'
  30
  ^
jenc: 1 invalid line skipped
"
	done
	jrun -c --on-error=pass bad.json
	expect_status 0
	expect_out '{"a":}
'
	expect_err 'jenc: 1 invalid line passed through
'
}
