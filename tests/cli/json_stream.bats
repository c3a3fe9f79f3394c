#!/usr/bin/env bats
# Input as a stream of values: NDJSON, concatenated values, empty input,
# BOM, CRLF; what is written before an error; --single and --validate;
# fixpoints and round trips over the corpus.

load helpers

setup() {
	setup_jenc
}

@test "NDJSON: one compact line per value" {
	put $'{"a": 1}\n{"b": [2, 3]}\n[]\n"s"\n'
	jrun -c <in
	expect_ok $'{"a":1}\n{"b":[2,3]}\n[]\n"s"\n'
}

@test "NDJSON without a final newline" {
	put $'{"a": 1}\n{"b": 2}'
	jrun -c <in
	expect_ok $'{"a":1}\n{"b":2}\n'
}

@test "concatenated objects {\"a\":1}{\"b\":2}" {
	put '{"a":1}{"b":2}'
	jrun -c <in
	expect_ok $'{"a":1}\n{"b":2}\n'
	jrun <in
	expect_ok $'{\n  "a": 1\n}\n{\n  "b": 2\n}\n'
}

@test "concatenated arrays [1][2]" {
	put '[1][2]'
	jrun -c <in
	expect_ok $'[1]\n[2]\n'
	jrun <in
	expect_ok $'[\n  1\n]\n[\n  2\n]\n'
}

@test "numbers separated by whitespace: 1 2" {
	put '1 2'
	jrun -c <in
	expect_ok $'1\n2\n'
	put $'1\t2\n3\r4'
	jrun <in
	expect_ok $'1\n2\n3\n4\n'
}

@test "values of every kind written one after another" {
	put '[1]2"s"{}null"t"true[]false{"k":"v"}-0.5'
	jrun -c <in
	expect_ok $'[1]\n2\n"s"\n{}\nnull\n"t"\ntrue\n[]\nfalse\n{"k":"v"}\n-0.5\n'
}

@test "empty input writes nothing and exits 0" {
	: >in
	jrun <in
	expect_ok ''
	jrun -c in
	expect_ok ''
	jrun --validate in
	expect_ok ''
}

@test "whitespace-only input writes nothing and exits 0" {
	put $' \t\r\n\n  \r\n'
	jrun <in
	expect_ok ''
	jrun -c in
	expect_ok ''
}

@test "a UTF-8 BOM at the start of the input is skipped" {
	putf '\357\273\277{"a": 1}'
	jrun -c <in
	expect_ok $'{"a":1}\n'
	putf '\357\273\277 1 2\n'
	jrun -c <in
	expect_ok $'1\n2\n'
	putf '\357\273\277[1]'
	cp in a.json
	cp in b.json
	jrun -c a.json b.json - <in
	expect_ok $'[1]\n[1]\n[1]\n'
}

@test "a BOM after the start of the input is an error" {
	putf '1\n\357\273\2772\n'
	jrun -c <in
	expect_invalid $'1\n' $'jenc: <stdin>:2:1: expected value or end of input, found byte 0xef\n  ?2\n  ^\n'
	putf ' \357\273\277{}'
	jrun -c <in
	expect_invalid '' $'jenc: <stdin>:1:2: expected value or end of input, found byte 0xef\n   ?{}\n   ^\n'
}

@test "CRLF line ends are whitespace" {
	put $'{\r\n  "a": [1,\r\n    2],\r\n  "b": {}\r\n}\r\n{"c":"d"}\r\n'
	jrun -c <in
	expect_ok $'{"a":[1,2],"b":{}}\n{"c":"d"}\n'
	jrun <in
	expect_ok $'{\n  "a": [\n    1,\n    2\n  ],\n  "b": {}\n}\n{\n  "c": "d"\n}\n'
}

@test "values before an error are written completely, the bad one not at all" {
	put $'{"a":1}\n{"b":[1,2}'
	jrun -c <in
	expect_invalid $'{"a":1}\n' $'jenc: <stdin>:2:10: expected \',\' or \']\' after array element, found \'}\'\n  {"b":[1,2}\n           ^\n'
	jrun <in
	expect_invalid $'{\n  "a": 1\n}\n' $'jenc: <stdin>:2:10: expected \',\' or \']\' after array element, found \'}\'\n  {"b":[1,2}\n           ^\n'
}

@test "the input after an error is not read" {
	put $'[1]\n]\n[2]\n'
	jrun -c <in
	expect_invalid $'[1]\n' $'jenc: <stdin>:2:1: expected value or end of input, found \']\'\n  ]\n  ^\n'
}

@test "a bad value of almost 1 MiB is not written at all" {
	python3 -c 'import sys; sys.stdout.write("{\"a\":1}\n[" + "\"abcdefghij\","*76000 + "\"abcdefghij\"}")' >in
	jrun -c in
	expect_status 1
	expect_out $'{"a":1}\n'
	local col=$((1 + 13 * 76000 + 12 + 1))
	[ "$(head -n 1 err)" = "jenc: in:2:$col: expected ',' or ']' after array element, found '}'" ] ||
	    fail "unexpected message: $(head -n 1 err)"
	check_error_reports in=err
}

@test "a bad value over 1 MiB streams and the message says it was cut" {
	python3 -c 'import sys; sys.stdout.write("{\"a\":1}\n[" + "\"abcdefghij\","*99999 + "\"abcdefghij\"}")' >in
	jrun -c in
	expect_status 1
	local col=$((1 + 13 * 99999 + 12 + 1))
	[ "$(head -n 1 err)" = "jenc: in:2:$col: expected ',' or ']' after array element, found '}' (output of this value was cut)" ] ||
	    fail "unexpected message: $(head -n 1 err)"
	check_error_reports in=err
	# stdout: the first value, then a part of the bad one (compact, it
	# equals its input) of at least 1 MiB, maybe ended by a newline.
	head -c -1 in >expected
	local n
	n=$(wc -c <out)
	[ "$(tail -c 1 out | od -An -c | tr -d ' ')" = '\n' ] && n=$((n - 1))
	[ "$n" -ge $((8 + 1048576)) ] || fail "only $n bytes of output"
	cmp -n "$n" out expected || fail "output is not the first value and a prefix of the bad one"
}

@test "--validate writes nothing for a valid stream" {
	put $'{"a": [1, 2]}\n[3] "x"'
	jrun --validate <in
	expect_ok ''
	jrun --validate -c --tab -H <in
	expect_ok ''
}

@test "--validate reports an error and writes no value" {
	put $'{"a":1}\n{"b":[1,2}'
	jrun --validate <in
	expect_invalid '' $'jenc: <stdin>:2:10: expected \',\' or \']\' after array element, found \'}\'\n  {"b":[1,2}\n           ^\n'
}

@test "--validate on the corpus writes nothing" {
	need_shared
	local f
	while read -r f; do
		jrun --validate "$f"
		expect_ok ''
	done < <(corpus_files)
}

@test "--single accepts one value with whitespace around it" {
	put $'\n  {"a": [1]}  \r\n'
	jrun --single -c <in
	expect_ok $'{"a":[1]}\n'
	putf '\357\273\277 "x"\n'
	jrun --single <in
	expect_ok $'"x"\n'
}

@test "--single: a second value is an error" {
	put '1 2'
	jrun --single <in
	expect_status 1
	expect_err $'jenc: <stdin>:1:3: expected end of input after the value, found \'2\'\n  1 2\n    ^\n'
	# The one value may or may not have been written, but nothing after it.
	[ ! -s out ] || expect_out $'1\n'
	put $'{"a":1}\n{"b":2}\n'
	jrun --single -c <in
	expect_status 1
	expect_err $'jenc: <stdin>:2:1: expected end of input after the value, found \'{\'\n  {"b":2}\n  ^\n'
	[ ! -s out ] || expect_out $'{"a":1}\n'
	put '[][]'
	jrun --single -c <in
	expect_status 1
	expect_err $'jenc: <stdin>:1:3: expected end of input after the value, found \'[\'\n  [][]\n    ^\n'
}

@test "--single: empty input is an error" {
	: >in
	jrun --single <in
	expect_invalid '' $'jenc: <stdin>:1:1: expected value, found end of input\n  \n  ^\n'
	jrun --single --validate in
	expect_invalid '' $'jenc: in:1:1: expected value, found end of input\n  \n  ^\n'
}

@test "--single: whitespace-only input is an error at its end" {
	put '   '
	jrun --single <in
	expect_invalid '' $'jenc: <stdin>:1:4: expected value, found end of input\n     \n     ^\n'
}

@test "--single applies to each input separately" {
	put '{"a":1}'
	cp in a.json
	cp in b.json
	jrun --single -c a.json b.json
	expect_ok $'{"a":1}\n{"a":1}\n'
	put '1 2'
	cp in c.json
	jrun --single -c c.json a.json
	expect_status 1
	expect_err $'jenc: c.json:1:3: expected end of input after the value, found \'2\'\n  1 2\n    ^\n'
	[ "$(tail -n 1 out)" = '{"a":1}' ] || fail "a.json was not written after c.json: $(cat out)"
}

@test "--single --validate: valid input writes nothing" {
	put '{"a":1}'
	jrun --single --validate <in
	expect_ok ''
}

@test "fixpoints: jenc -c | jenc -c and jenc | jenc on the corpus" {
	need_shared
	local f mode
	while read -r f; do
		for mode in -c '' --tab '-a -c' -H --indent=5; do
			"$JENC" $mode "$f" >once || fail "jenc $mode $f failed"
			JCMD="jenc $mode (output of jenc $mode $f)"
			jrun $mode <once
			expect_status 0
			same_bytes once out "second pass of jenc $mode on $(basename "$f")"
		done
	done < <(corpus_files)
}

@test "round trip: Python reads the same values from output and input" {
	need_shared
	local f mode
	while read -r f; do
		for mode in -c '' -a -H --tab; do
			jrun $mode "$f"
			expect_status 0
			python3 - "$f" out <<'PY' || fail "jenc $mode $f: values differ"
import decimal, json, sys

def values(path):
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    dec = json.JSONDecoder(parse_float=decimal.Decimal)
    out, i = [], 1 if text.startswith("\ufeff") else 0
    while True:
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        if i == len(text):
            return out
        v, i = dec.raw_decode(text, i)
        out.append(v)

a, b = values(sys.argv[1]), values(sys.argv[2])
if a != b:
    print("input has %d values, output %d" % (len(a), len(b)))
    sys.exit(1)
PY
		done
	done < <(corpus_files)
}

@test "NDJSON corpus: one output line per input line with -c and -l" {
	need_shared
	local f=$CORPUS/amazon_cellphones.ndjson
	[ -f "$f" ] || skip "no $f"
	jrun -c "$f"
	expect_status 0
	[ "$(wc -l <out)" = "$(grep -c . "$f")" ] ||
	    fail "$(wc -l <out) lines out, $(grep -c . "$f") in"
	mv out c.out
	jrun -l "$f"
	expect_status 0
	same_bytes c.out out "-l against -c"
}
