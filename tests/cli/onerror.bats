#!/usr/bin/env bats
# --on-error=stop|skip|pass on mixed input, -q, --validate listing every
# bad value, the newline after a cut value, and --seq (RFC 7464) input.

load helpers

setup() {
	setup_jenc
}

# A log: JSON lines (one with CRLF), a Java stack trace, a plain-text
# line with CRLF, a pretty-printed document with an error in its middle,
# a truncated line followed by a good one, and junk after a value.
mixed_log() {
	printf '%s' '{"level": "info", "msg": "start"}'$'\r\n' \
	    'Exception in thread "main" java.lang.IllegalStateException: boom'$'\n' \
	    $'\tat com.example.App.run(App.java:42)\n' \
	    $'\tat com.example.App.main(App.java:7)\n' \
	    '{"level": "warn", "n": [1, 2]}'$'\n' \
	    'plain text, not JSON'$'\r\n' \
	    $'{\n  "a": 1,\n  "b": oops,\n  "c": [\n    2\n  ]\n}\n' \
	    '{"level": "error", "msg": "cut off' $'\n' \
	    '{"ok": true}'$'\n' \
	    '{"x": 1}  trailing'$'\n' \
	    '{"end": null}'$'\n' >app.log
}

@test "--on-error=pass: JSON formatted, every other byte as it was, in order" {
	mixed_log
	jrun -c --on-error=pass app.log
	expect_status 0
	expect_out '{"level":"info","msg":"start"}'$'\n''Exception in thread "main" java.lang.IllegalStateException: boom'$'\n\tat com.example.App.run(App.java:42)\n\tat com.example.App.main(App.java:7)\n''{"level":"warn","n":[1,2]}'$'\n''plain text, not JSON'$'\r\n'$'{\n  "a": 1,\n  "b": oops,\n  "c": [\n    2\n  ]\n}\n''{"level": "error", "msg": "cut off'$'\n''{"ok":true}'$'\n''{"x":1}'$'\n''  trailing'$'\n''{"end":null}'$'\n'
	expect_err 'jenc: 13 invalid lines passed through
'
}

@test "--on-error=pass with indented output and from standard input" {
	printf '[1,\n2]\nnot json\r\n{"a":1}\n' >in
	jrun --on-error=pass <in
	expect_status 0
	expect_out $'[\n  1,\n  2\n]\nnot json\r\n{\n  "a": 1\n}\n'
	expect_err 'jenc: 1 invalid line passed through
'
}

@test "--on-error=skip: bad text dropped, each reported, then the count" {
	mixed_log
	jrun -c --on-error=skip app.log
	expect_status 0
	expect_out '{"level":"info","msg":"start"}
{"level":"warn","n":[1,2]}
{"ok":true}
{"x":1}
{"end":null}
'
	expect_err "jenc: app.log:2:1: invalid literal 'Exception', expected true, false or null
  Exception in thread \"main\" java.lang.IllegalStateException: boom
  ^
jenc: app.log:3:2: invalid literal 'at', expected true, false or null
   at com.example.App.run(App.java:42)
   ^
jenc: app.log:4:2: invalid literal 'at', expected true, false or null
   at com.example.App.main(App.java:7)
   ^
jenc: app.log:6:1: invalid literal 'plain', expected true, false or null
  plain text, not JSON
  ^
jenc: app.log:9:8: invalid literal 'oops', expected true, false or null
    \"b\": oops,
         ^
jenc: app.log:14:35: unescaped control character 0x0a in string
  {\"level\": \"error\", \"msg\": \"cut off
                                    ^
jenc: app.log:16:11: invalid literal 'trailing', expected true, false or null
  {\"x\": 1}  trailing
            ^
jenc: 13 invalid lines skipped
"
}

@test "--on-error=skip: one line is counted in the singular" {
	printf '{"a":1}\n{"a":\n' >in
	jrun -c --on-error=skip in
	expect_status 0
	expect_out $'{"a":1}\n'
	expect_err "jenc: in:3:1: expected value after ':', found end of input
  
  ^
jenc: 1 invalid line skipped
"
}

@test "--on-error: counts add up over several inputs; valid input says nothing" {
	printf 'x\n1\n' >a
	printf '2\ny\nz\n' >b
	printf '3\n' >c
	jrun -c -q --on-error=skip a b c
	expect_ok $'1\n2\n3\n'
	jrun -c --on-error=pass a b c
	expect_status 0
	expect_out $'x\n1\n2\ny\nz\n3\n'
	expect_err 'jenc: 3 invalid lines passed through
'
	jrun -c --on-error=skip c
	expect_ok $'3\n'
}

@test "-q, --quiet: no report and no count" {
	mixed_log
	jrun -c -q --on-error=skip app.log
	expect_status 0
	expect_err ''
	jrun -c --quiet --on-error=pass app.log
	expect_status 0
	expect_err ''
}

@test "--on-error=stop is the default: the first error ends the input" {
	printf '1\nx\n2\n' >in
	jrun -c in
	expect_invalid $'1\n' "jenc: in:2:1: invalid literal 'x', expected true, false or null
  x
  ^
"
	jrun -c --on-error=stop in
	expect_status 1
	expect_out $'1\n'
}

@test "--validate --on-error=skip lists every bad value, exit status 1" {
	printf '{"a":1}\n{"a":,}\n[1 2]\n{"ok":1}\n' >in
	jrun --validate --on-error=skip in
	expect_invalid '' "jenc: in:2:6: expected value after ':', found ','
  {\"a\":,}
       ^
jenc: in:3:4: expected ',' or ']' after array element, found '2'
  [1 2]
     ^
jenc: 2 invalid lines skipped
"
	jrun --validate --on-error=skip -q in
	expect_invalid '' ''
	printf '{"a":1}\n' >good
	jrun --validate --on-error=skip good
	expect_ok ''
}

@test "--on-error: a bad value is never glued to what follows, the message says it was cut" {
	python3 -c 'print("["+",".join(map(str,range(300000)))+",]")' >bad.json
	echo '{"ok":1}' >ok.json
	for mode in stop skip pass; do
		jrun -c --on-error=$mode bad.json ok.json
		tail -c 30 out >tail
		printf '%s' $'299997,299998,299999\n{"ok":1}\n' >want
		same_bytes want tail "tail of stdout (--on-error=$mode)"
		grep -q '^jenc: bad.json:1:1988892: expected value after '"','"', found '"']'"' (trailing comma? try --jsonc) (output of this value was cut)' err ||
		    fail "no cut message: $(cat err)"
	done
	jrun -c bad.json ok.json
	expect_status 1
	jrun -c --on-error=pass bad.json ok.json
	expect_status 0
	grep -q '(output of this value was cut) (not passed through)$' err ||
	    fail "pass does not say the cut value was not passed: $(cat err)"
	tail -n 1 err >last
	printf 'jenc: 1 invalid line dropped\n' >want
	same_bytes want last "count"
}

@test "--on-error=pass: bad text over 1 MiB is dropped and reported" {
	python3 -c 'import sys; sys.stdout.write("[1," + " " * 1100000 + ",]\n{\"ok\":1}\n")' >big.json
	jrun -c --on-error=pass big.json
	expect_status 0
	expect_out $'{"ok":1}\n'
	head -n 1 err | grep -q "^jenc: big.json:1:1100004: expected value after ',', found ',' (too long to pass through, dropped)$" ||
	    fail "no 'too long' message: $(cat err)"
	tail -n 1 err | grep -qx 'jenc: 1 invalid line dropped' ||
	    fail "no count: $(cat err)"
	# under 1 MiB it is passed whole
	python3 -c 'import sys; sys.stdout.write("[1," + " " * 900000 + ",]\n{\"ok\":1}\n")' >mid.json
	jrun -c --on-error=pass mid.json
	expect_status 0
	python3 -c 'import sys; sys.stdout.write("[1," + " " * 900000 + ",]\n{\"ok\":1}\n")' >want
	same_bytes want out stdout
}

@test "--on-error: lines read again that run into the same error tell it once" {
	# lines 3 and 4 start values, so each is read again after the bad
	# text before it, and each reading fails at x
	printf '{\n"a":\n{"b":\n[1,\nx]\n}}\n' >dup.json
	for args in "--validate --on-error=skip" "-c --on-error=skip" "-c --on-error=skip -j 2"; do
		jrun $args dup.json
		expect_err "jenc: dup.json:5:1: invalid literal 'x', expected true, false or null
  x]
  ^
jenc: dup.json:6:1: expected value or end of input, found '}'
  }}
  ^
jenc: 6 invalid lines skipped
"
	done
}

@test "--on-error=pass: passed and dropped lines are counted apart" {
	python3 -c 'import sys; sys.stdout.write("[1," + " " * 1100000 + ",]\nnot json\n{\"ok\":1}\nnor this\n")' >some.json
	jrun -c --on-error=pass some.json
	expect_status 0
	expect_out $'not json\n{"ok":1}\nnor this\n'
	tail -n 1 err | grep -qx 'jenc: 2 invalid lines passed through, 1 dropped' ||
	    fail "no count: $(cat err)"
}

@test "--on-error=pass --split: an array some elements of which are out is dropped, not passed" {
	printf '[{"id":1},{"id":2},{"id":3]\n[3]\n[{"id":4]\nnot json\n' >in
	for j in 1 2; do
		jrun --split -c --on-error=pass -j $j in
		expect_status 0
		# the elements written once; the array that failed before any
		# element was out is passed as it was
		expect_out $'{"id":1}\n{"id":2}\n3\n[{"id":4]\nnot json\n'
		expect_err "jenc: in:1:27: expected ',' or '}' after object member, found ']' (not passed through)
  [{\"id\":1},{\"id\":2},{\"id\":3]
                            ^
jenc: 2 invalid lines passed through, 1 dropped
"
	done
}

@test "--on-error=pass: bad text at the end of input without a newline gets one" {
	printf '1\n{"a":' >in
	jrun -c --on-error=pass in
	expect_status 0
	expect_out $'1\n{"a":\n'
}

@test "--on-error: a bad value" {
	jrun --on-error=ignore
	expect_usage "jenc: --on-error: 'ignore' is not stop, skip or pass"
	jrun --on-error
	expect_usage "jenc: option '--on-error' needs a value"
}

@test "-w --on-error=pass rewrites the file, bad lines kept verbatim" {
	printf '{ "a" : 1 }\nnot json\r\n[ 1 ]\n' >f.json
	jrun -w --on-error=pass -c f.json
	expect_status 0
	expect_err 'jenc: 1 invalid line passed through
'
	printf '{"a":1}\nnot json\r\n[1]\n' >want
	same_bytes want f.json f.json
	# already in form: nothing changes
	jrun -w --on-error=pass -c -q f.json
	expect_ok ''
	same_bytes want f.json f.json
}

@test "-w --on-error=skip drops the bad lines from the file; stop leaves it" {
	printf '{ "a" : 1 }\nnot json\n' >f.json
	jrun -w -c f.json
	expect_status 1
	printf '{ "a" : 1 }\nnot json\n' >want
	same_bytes want f.json f.json
	jrun -w -c -q --on-error=skip f.json
	expect_ok ''
	printf '{"a":1}\n' >want
	same_bytes want f.json f.json
}

@test "--check with --on-error=pass lists a file only if its JSON would change" {
	printf '{"a":1}\nnot json\n' >same.json
	printf '{ "a": 1 }\nnot json\n' >differs.json
	jrun --check -c -q --on-error=pass same.json differs.json
	expect_status 1
	expect_out $'differs.json\n'
	jrun --check -c -q --on-error=pass same.json
	expect_ok ''
	# with skip, a bad line is a change
	jrun --check -c -q --on-error=skip same.json
	expect_status 1
	expect_out $'same.json\n'
}

@test "-o --on-error=skip writes the file and exits 0" {
	printf '1\nx\n2\n' >in
	jrun -o o.json -c -q --on-error=skip in
	expect_ok ''
	printf '1\n2\n' >want
	same_bytes want o.json o.json
}

# --seq: the output side writes RS once the encoder can (JENC_SEQ); a
# build without it writes one value per line.
seq_rs() {
	printf '1\n' | "$JENC" -c --seq >probe 2>/dev/null
	[ "$(head -c 1 probe | od -An -tx1 | tr -d ' ')" = 1e ]
}

# seq_out TEXT... - what --seq -c writes for these compact texts.
seq_out() {
	local t
	for t in "$@"; do
		if seq_rs; then
			printf '\036%s\n' "$t"
		else
			printf '%s\n' "$t"
		fi
	done
}

@test "--seq: RS-separated texts are read" {
	printf '\036{"a": 1}\n\036[1, 2]\n\036"s"\n\036 3 \n\036\036true\n' >in
	jrun -c --seq in
	expect_status 0
	expect_err ''
	seq_out '{"a":1}' '[1,2]' '"s"' 3 true >want
	same_bytes want out stdout
	# and what --seq writes reads back the same
	cp out in2
	jrun -c --seq in2
	expect_status 0
	same_bytes want out stdout
}

@test "--seq: without it RS is an error" {
	printf '\0361\n' >in
	jrun -c in
	expect_invalid '' 'jenc: in:1:1: expected value or end of input, found byte 0x1e
  ?1
  ^
'
}

@test "--seq: a truncated text is reported and the next one read" {
	printf '\036{"a":1}\n\036{"b": [1,\n\036{"c":3}\n' >in
	# under stop too (RFC 7464): reported, the next text read, exit 1
	jrun -c --seq in
	seq_out '{"a":1}' '{"c":3}' >want
	expect_status 1
	same_bytes want out stdout
	expect_err 'jenc: in:3:1: truncated JSON text before RS
  ?{"c":3}
  ^
jenc: 1 invalid line skipped
'
	jrun -c --seq --on-error=skip in
	expect_status 0
	seq_out '{"a":1}' '{"c":3}' >want
	same_bytes want out stdout
	expect_err 'jenc: in:3:1: truncated JSON text before RS
  ?{"c":3}
  ^
jenc: 1 invalid line skipped
'
}

@test "--seq: the excerpt of a text resumed mid-line keeps the line's start at a window end" {
	# the bad text "\036]\n, x" runs to the end of the first 256 KiB
	# window (a mapped file's) or of a 4-byte read (JENC_CHUNK, -j 2);
	# the next text starts mid-line, and its error's excerpt starts
	# where its line does, whatever was dropped before it
	local b m
	printf '\036[1]\n\036[2]\n\036]\n, x\036[1\0362\n\036[3]\n' >in
	for m in -1 -2; do
		JENC_CHUNK=4 jrun -j ${m#-} --seq -c in
		expect_status 1
		seq_out '[1]' '[2]' 2 '[3]' >want
		same_bytes want out "stdout of -j ${m#-}"
		expect_err 'jenc: in:3:2: expected value or end of input, found '"']'"'
  ?]
   ^
jenc: in:4:7: truncated JSON text before RS
  , x?[1?2
        ^
jenc: 3 invalid lines skipped
'
	done
	for b in 1 2 3; do
		{ printf '\036[1]\n\036]'; head -c $((262144 - b - 6 - 1)) /dev/zero |
		    tr '\0' x; printf '\n, x\036[1\0362\n'; } >in
		for m in "" --no-mmap "-j 2"; do
			jrun $m --seq -c -q --on-error=skip in </dev/null
			expect_status 0
			jrun $m --seq -c --on-error=skip in </dev/null
			[ "$(sed -n 5p err)" = '  , x?[1?2' ] ||
			    { echo "b=$b mode '$m':"; cat err; false; }
		done
		jrun --seq -c --on-error=skip <in
		[ "$(sed -n 5p err)" = '  , x?[1?2' ] || { cat err; false; }
	done
}

@test "--seq: a top-level number or literal needs whitespace before RS (RFC 7464 2.4)" {
	printf '\036123\036true \n\036nul\036null' >in
	jrun -c --seq -q --on-error=skip in
	expect_status 0
	seq_out true >want
	same_bytes want out stdout
	jrun -c --seq --on-error=skip in
	expect_err 'jenc: in:1:2: truncated JSON text before RS, expected whitespace after a top-level number
  ?123?true 
   ^
jenc: in:2:2: truncated JSON text before RS, expected whitespace after a top-level literal
  ?nul?null
   ^
jenc: in:2:6: truncated JSON text before end of input, expected whitespace after a top-level literal
  ?nul?null
       ^
jenc: 3 invalid lines skipped
'
	# under stop the same texts are reported, and the exit status is 1
	cp err err.skip
	jrun -c --seq in
	expect_status 1
	same_bytes want out stdout
	same_bytes err.skip err stderr
}

@test "--seq --on-error=pass passes a truncated text up to the next RS" {
	printf '\036{"a":\n\0361 \n' >in
	jrun -c --seq --on-error=pass in
	expect_status 0
	# (written as a text of its own: after an RS when the output has them)
	{ if seq_rs; then printf '\036'; fi; printf '{"a":\n'; seq_out 1; } >want
	same_bytes want out stdout
	expect_err 'jenc: 1 invalid line passed through
'
}

@test "--on-error=pass with colors: the passed text stays uncolored" {
	printf '[1]\nnot json\n' >in
	jrun -c -C -q --on-error=pass in
	expect_ok $'\e[1;39m[\e[0;39m1\e[0m\e[1;39m\e[1;39m]\e[0m\nnot json\n'
}

@test "--slurp --on-error: skip drops bad text from the array, pass is refused" {
	printf '1\nx\n2\n' >in
	jrun -s -c -q --on-error=skip in
	expect_ok $'[1,2]\n'
	jrun -s --on-error=pass in
	expect_usage "jenc: -s makes one array of all inputs: bad text cannot pass into it (use --on-error=skip)"
}
