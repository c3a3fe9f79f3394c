#!/usr/bin/env bats
# Invalid JSON: every message form of the contract with its exact stderr
# (message, excerpt, caret), exit status 1, and what reaches stdout.

load helpers

setup() {
	setup_jenc
}

# bad STDOUT LINE COL MESSAGE EXCERPT - `jenc -c` on $T/in, read from
# stdin and then as the file "in", fails with exit 1, writes exactly
# STDOUT, and reports on stderr exactly
#   jenc: NAME:LINE:COL: MESSAGE
#     EXCERPT
#     <COL-1 spaces>^
bad() {
	local pad
	printf -v pad '%*s' "$(($3 - 1))" ''
	jrun -c <in
	expect_invalid "$1" "jenc: <stdin>:$2:$3: $4
  $5
  $pad^
"
	jrun -c in
	expect_invalid "$1" "jenc: in:$2:$3: $4
  $5
  $pad^
"
}

@test "top level: expected value or end of input" {
	put ']'
	bad '' 1 1 "expected value or end of input, found ']'" ']'
	put '{"a":1}}'
	bad $'{"a":1}\n' 1 8 "expected value or end of input, found '}'" '{"a":1}}'
	put $'[1]\n[2] ,'
	bad $'[1]\n[2]\n' 2 5 "expected value or end of input, found ','" '[2] ,'
	put '{}/**/'
	bad $'{}\n' 1 3 "expected value or end of input, found '/' (JSON with comments? try --jsonc)" '{}/**/'
	put "'a'"
	bad '' 1 1 "expected value or end of input, found '''" "'a'"
}

@test "found X: control bytes, DEL, NUL and non-ASCII bytes are named by value" {
	putf '\001'
	bad '' 1 1 'expected value or end of input, found byte 0x01' '?'
	putf '[1]\177'
	bad $'[1]\n' 1 4 'expected value or end of input, found byte 0x7f' '[1]?'
	putf '{}\000'
	bad $'{}\n' 1 3 'expected value or end of input, found NUL byte' '{}?'
	putf '[1,\000]'
	bad '' 1 4 "expected value after ',', found NUL byte" '[1,?]'
	putf '\377'
	bad '' 1 1 'expected value or end of input, found byte 0xff' '?'
	putf '[\303\251]'
	bad '' 1 2 "expected value or ']', found byte 0xc3" $'[\303\251]'
}

@test "after '[': expected value or ']'" {
	put '[,1]'
	bad '' 1 2 "expected value or ']', found ','" '[,1]'
	put '[}'
	bad '' 1 2 "expected value or ']', found '}'" '[}'
	put '['
	bad '' 1 2 "expected value or ']', found end of input" '['
	put '[[[ '
	bad '' 1 5 "expected value or ']', found end of input" '[[[ '
}

@test "after ',' in an array: expected value after ','" {
	put '[1,]'
	bad '' 1 4 "expected value after ',', found ']' (trailing comma? try --jsonc)" '[1,]'
	put '[1,,2]'
	bad '' 1 4 "expected value after ',', found ','" '[1,,2]'
	put '[1,'
	bad '' 1 4 "expected value after ',', found end of input" '[1,'
}

@test "after ':': expected value after ':'" {
	put '{"a":}'
	bad '' 1 6 "expected value after ':', found '}'" '{"a":}'
	put '{"a": ,}'
	bad '' 1 7 "expected value after ':', found ','" '{"a": ,}'
	put '{"a":'
	bad '' 1 6 "expected value after ':', found end of input" '{"a":'
}

@test "after an array element: expected ',' or ']'" {
	put '[1 2]'
	bad '' 1 4 "expected ',' or ']' after array element, found '2'" '[1 2]'
	put '[1:2]'
	bad '' 1 3 "expected ',' or ']' after array element, found ':'" '[1:2]'
	put '["a"}'
	bad '' 1 5 "expected ',' or ']' after array element, found '}'" '["a"}'
	put '[1'
	bad '' 1 3 "expected ',' or ']' after array element, found end of input" '[1'
	put '[[]{}'
	bad '' 1 4 "expected ',' or ']' after array element, found '{'" '[[]{}'
}

@test "after '{': expected string key or '}'" {
	put '{1:2}'
	bad '' 1 2 "expected string key or '}', found '1'" '{1:2}'
	put "{'a':1}"
	bad '' 1 2 "expected string key or '}', found '''" "{'a':1}"
	put '{,}'
	bad '' 1 2 "expected string key or '}', found ','" '{,}'
	put '{'
	bad '' 1 2 "expected string key or '}', found end of input" '{'
}

@test "after ',' in an object: expected string key after ','" {
	put '{"a":1,}'
	bad '' 1 8 "expected string key after ',', found '}' (trailing comma? try --jsonc)" '{"a":1,}'
	put '{"a":1,2:3}'
	bad '' 1 8 "expected string key after ',', found '2'" '{"a":1,2:3}'
	put '{"a":1,'
	bad '' 1 8 "expected string key after ',', found end of input" '{"a":1,'
}

@test "after a key: expected ':' after object key" {
	put '{"a" 1}'
	bad '' 1 6 "expected ':' after object key, found '1'" '{"a" 1}'
	put '{"a",1}'
	bad '' 1 5 "expected ':' after object key, found ','" '{"a",1}'
	put '{"a"'
	bad '' 1 5 "expected ':' after object key, found end of input" '{"a"'
}

@test "after a member: expected ',' or '}' after object member" {
	put '{"a":1]'
	bad '' 1 7 "expected ',' or '}' after object member, found ']'" '{"a":1]'
	put '{"a":1 "b":2}'
	bad '' 1 8 "expected ',' or '}' after object member, found '\"'" '{"a":1 "b":2}'
	put '{"a":1'
	bad '' 1 7 "expected ',' or '}' after object member, found end of input" '{"a":1'
}

@test "invalid number, at its first byte" {
	put '[01]'
	bad '' 1 2 "invalid number '01'" '[01]'
	put '[-]'
	bad '' 1 2 "invalid number '-'" '[-]'
	put '[1.]'
	bad '' 1 2 "invalid number '1.'" '[1.]'
	put '[1e]'
	bad '' 1 2 "invalid number '1e'" '[1e]'
	put '{"n": 1.5e+}'
	bad '' 1 7 "invalid number '1.5e+'" '{"n": 1.5e+}'
	put '[-01]'
	bad '' 1 2 "invalid number '-01'" '[-01]'
	put '-'
	bad '' 1 1 "invalid number '-'" '-'
	put '[2] 1.'
	bad $'[2]\n' 1 5 "invalid number '1.'" '[2] 1.'
}

@test "invalid number: the text is cut to 32 bytes and '...'" {
	local ones=1111111111111111111111111111111111111111
	put "[$ones.]"
	bad '' 1 2 "invalid number '11111111111111111111111111111111...'" "[$ones.]"
}

@test "invalid literal, at its first byte" {
	put '[tru]'
	bad '' 1 2 "invalid literal 'tru', expected true, false or null" '[tru]'
	put '{"a":nul}'
	bad '' 1 6 "invalid literal 'nul', expected true, false or null" '{"a":nul}'
	put '[fals ]'
	bad '' 1 2 "invalid literal 'fals', expected true, false or null" '[fals ]'
	put '[t,1]'
	bad '' 1 2 "invalid literal 't', expected true, false or null" '[t,1]'
	put 'tru'
	bad '' 1 1 "invalid literal 'tru', expected true, false or null" 'tru'
}

@test "invalid escape, at the backslash" {
	put '["\x"]'
	bad '' 1 3 "invalid escape '\\x' in string" '["\x"]'
	put '{"ab\U0041":1}'
	bad '' 1 5 "invalid escape '\\U' in string" '{"ab\U0041":1}'
	put "[\"\\'\"]"
	bad '' 1 3 "invalid escape '\\'' in string" "[\"\\'\"]"
}

@test "invalid \\u escape, at the backslash" {
	put '["\u12"]'
	bad '' 1 3 'invalid \u escape in string, expected 4 hex digits' '["\u12"]'
	put '["ab\u12G4"]'
	bad '' 1 5 'invalid \u escape in string, expected 4 hex digits' '["ab\u12G4"]'
	put '{"\u":1}'
	bad '' 1 3 'invalid \u escape in string, expected 4 hex digits' '{"\u":1}'
}

@test "unescaped control character in a string, at that byte" {
	putf '["a\tb"]'
	bad '' 1 4 'unescaped control character 0x09 in string' '["a b"]'
	putf '["a\nb"]'
	bad '' 1 4 'unescaped control character 0x0a in string' '["a'
	putf '["\037"]'
	bad '' 1 3 'unescaped control character 0x1f in string' '["?"]'
	putf '{"k\000":1}'
	bad '' 1 4 'unescaped control character 0x00 in string' '{"k?":1}'
	putf '["\r"]'
	bad '' 1 3 'unescaped control character 0x0d in string' '["?"]'
}

@test "invalid UTF-8 in a string, at the first byte of the bad sequence" {
	putf '["\377"]'
	bad '' 1 3 'invalid UTF-8 byte 0xff in string' '["?"]'
	putf '["a\303("]'
	bad '' 1 4 'invalid UTF-8 byte 0xc3 in string' '["a?("]'
	putf '["\300\257"]'
	bad '' 1 3 'invalid UTF-8 byte 0xc0 in string' '["??"]'
	putf '["\355\240\200"]'
	bad '' 1 3 'invalid UTF-8 byte 0xed in string' '["???"]'
	putf '["\364\220\200\200"]'
	bad '' 1 3 'invalid UTF-8 byte 0xf4 in string' '["????"]'
	putf '["\342\202"]'
	bad '' 1 3 'invalid UTF-8 byte 0xe2 in string' '["??"]'
	putf '{"\376":1}'
	bad '' 1 3 'invalid UTF-8 byte 0xfe in string' '{"?":1}'
	putf '["\360\237\230"]'
	bad '' 1 3 'invalid UTF-8 byte 0xf0 in string' '["???"]'
}

@test "unterminated string, at the opening quote" {
	put '["abc'
	bad '' 1 2 'unterminated string, found end of input' '["abc'
	put '"abc'
	bad '' 1 1 'unterminated string, found end of input' '"abc'
	put '{"a'
	bad '' 1 2 'unterminated string, found end of input' '{"a'
	put '[1] {"k": "v'
	bad $'[1]\n' 1 11 'unterminated string, found end of input' '[1] {"k": "v'
}

@test "found end of input after a final newline: the spot is past the last byte" {
	put $'[1,\n'
	bad '' 2 1 "expected value after ',', found end of input" ''
	put $'{"a":1}\n{\n'
	bad $'{"a":1}\n' 3 1 "expected string key or '}', found end of input" ''
}

@test "nesting deeper than --max-depth, at the bracket" {
	put '[[[[1]]]]'
	jrun -c --max-depth=3 <in
	expect_invalid '' $'jenc: <stdin>:1:4: nesting deeper than 3 levels (see --max-depth)\n  [[[[1]]]]\n     ^\n'
	put '{"a":{"b":[1]}}'
	jrun -c --max-depth=2 <in
	expect_invalid '' $'jenc: <stdin>:1:11: nesting deeper than 2 levels (see --max-depth)\n  {"a":{"b":[1]}}\n            ^\n'
	jrun -c --max-depth=3 <in
	expect_ok $'{"a":{"b":[1]}}\n'
	put '[[1]] [[[1]]] [[2]]'
	jrun -c --max-depth=2 <in
	expect_invalid $'[[1]]\n' $'jenc: <stdin>:1:9: nesting deeper than 2 levels (see --max-depth)\n  [[1]] [[[1]]] [[2]]\n          ^\n'
	put '[[1]]'
	jrun -c --max-depth=1 <in
	expect_invalid '' $'jenc: <stdin>:1:2: nesting deeper than 1 level (see --max-depth)\n  [[1]]\n   ^\n'
}

@test "default depth: 10000 levels pass, 10001 fail" {
	python3 -c 'import sys; sys.stdout.write("[" * 10000 + "]" * 10000)' >in
	jrun -c in
	expect_status 0
	expect_err ''
	printf '\n' >>in
	same_bytes in out
	python3 -c 'import sys; sys.stdout.write("{\"a\":" * 10000 + "null" + "}" * 10000)' >in
	jrun -c --validate in
	expect_ok ''
	python3 -c 'import sys; sys.stdout.write("[" * 10001 + "]" * 10001)' >in
	jrun -c in
	expect_status 1
	expect_out ''
	[ "$(head -n 1 err)" = "jenc: in:1:10001: nesting deeper than 10000 levels (see --max-depth)" ] ||
	    fail "unexpected message: $(head -n 1 err)"
	check_error_reports in=err
}

@test "a million nested '[' give the depth error, not a crash" {
	head -c 1000000 /dev/zero | tr '\0' '[' >in
	jrun -c in
	expect_status 1
	expect_out ''
	[ "$(head -n 1 err)" = "jenc: in:1:10001: nesting deeper than 10000 levels (see --max-depth)" ] ||
	    fail "unexpected message: $(head -n 1 err)"
	check_error_reports in=err
	jrun --validate <in
	expect_status 1
	expect_out ''
	[ "$(head -n 1 err)" = "jenc: <stdin>:1:10001: nesting deeper than 10000 levels (see --max-depth)" ] ||
	    fail "unexpected message: $(head -n 1 err)"
}

@test "a million nested '[' indented: the streamed output is cut" {
	head -c 1000000 /dev/zero | tr '\0' '[' >in
	local rc
	{
		rc=0
		"$JENC" in 2>err || rc=$?
		echo "$rc" >rc
	} | wc -c >count
	rc=$(cat rc)
	[ "$rc" = 1 ] || fail "exit status $rc, expected 1; stderr: $(head -c 300 err)"
	[ "$(head -n 1 err)" = "jenc: in:1:10001: nesting deeper than 10000 levels (see --max-depth) (output of this value was cut)" ] ||
	    fail "unexpected message: $(head -n 1 err)"
	[ "$(cat count)" -gt 1048576 ] || fail "only $(cat count) bytes written"
}

@test "--max-depth=1000000 takes a million levels, not one more" {
	python3 -c 'import sys; sys.stdout.write("[" * 1000000 + "]" * 1000000)' >in
	jrun -c --max-depth=1000000 in
	expect_status 0
	expect_err ''
	printf '\n' >>in
	same_bytes in out
	python3 -c 'import sys; sys.stdout.write("[" * 1000001 + "]" * 1000001)' >in
	jrun -c --max-depth=1000000 in
	expect_status 1
	expect_out ''
	[ "$(head -n 1 err)" = "jenc: in:1:1000001: nesting deeper than 1000000 levels (see --max-depth)" ] ||
	    fail "unexpected message: $(head -n 1 err)"
	check_error_reports in=err
}

@test "LINE and COL count lines and bytes; the excerpt is the offending line" {
	put $'{\n  "a": [1,\n    2,\n  }\n}'
	bad '' 4 3 "expected value after ',', found '}'" '  }'
	put $'[1,\t2\t3]'
	bad '' 1 7 "expected ',' or ']' after array element, found '3'" '[1, 2 3]'
	put $'[1,\r\n2,\r\n]'
	bad '' 3 1 "expected value after ',', found ']' (trailing comma? try --jsonc)" ']'
	putf '{"\xc3\xa9": 1,\n "b" 2}'
	bad '' 2 6 "expected ':' after object key, found '2'" ' "b" 2}'
}

@test "a long line: at most 80 columns around the spot, caret under it" {
	local s=abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ
	put "{\"k\":\"$s$s$s\"]"
	jrun -c in
	expect_status 1
	expect_out ''
	[ "$(head -n 1 err)" = "jenc: in:1:194: expected ',' or '}' after object member, found ']'" ] ||
	    fail "unexpected message: $(head -n 1 err)"
	check_error_reports in=err
	put "[\"$s$s$s\",}"
	jrun -c in
	[ "$(head -n 1 err)" = "jenc: in:1:191: expected value after ',', found '}'" ] ||
	    fail "unexpected message: $(head -n 1 err)"
	check_error_reports in=err
	put "[1 \"$s$s$s\"]"
	jrun -c in
	[ "$(head -n 1 err)" = "jenc: in:1:4: expected ',' or ']' after array element, found '\"'" ] ||
	    fail "unexpected message: $(head -n 1 err)"
	check_error_reports in=err
	put "[\"$s$s$s\",\"$s$s$s\" 9]"
	jrun -c in
	[ "$(head -n 1 err)" = "jenc: in:1:380: expected ',' or ']' after array element, found '9'" ] ||
	    fail "unexpected message: $(head -n 1 err)"
	check_error_reports in=err
}

@test "the bad value is not written, however deep the error is" {
	put '[1,[2,[3,{"a":}]]]'
	bad '' 1 15 "expected value after ':', found '}'" '[1,[2,[3,{"a":}]]]'
	jrun <in
	expect_status 1
	expect_out ''
}

@test "the file is named as given" {
	mkdir sub
	put '{"a" 1}'
	cp in sub/bad.json
	jrun -c sub/bad.json
	expect_invalid '' $'jenc: sub/bad.json:1:6: expected \':\' after object key, found \'1\'\n  {"a" 1}\n       ^\n'
	jrun -c ./sub/../sub/bad.json
	expect_invalid '' $'jenc: ./sub/../sub/bad.json:1:6: expected \':\' after object key, found \'1\'\n  {"a" 1}\n       ^\n'
	jrun -c "$T/sub/bad.json"
	expect_invalid '' "jenc: $T/sub/bad.json:1:6: expected ':' after object key, found '1'
  {\"a\" 1}
       ^
"
	jrun -c - <in
	expect_invalid '' $'jenc: <stdin>:1:6: expected \':\' after object key, found \'1\'\n  {"a" 1}\n       ^\n'
}

@test "an invalid file does not stop the next ones" {
	put '[1]'
	cp in a.json
	put '[2'
	cp in bad.json
	put '{"b":3}'
	cp in b.json
	jrun -c a.json bad.json b.json
	expect_invalid $'[1]\n{"b":3}\n' $'jenc: bad.json:1:3: expected \',\' or \']\' after array element, found end of input\n  [2\n    ^\n'
	jrun -c bad.json bad.json
	expect_invalid '' $'jenc: bad.json:1:3: expected \',\' or \']\' after array element, found end of input\n  [2\n    ^\njenc: bad.json:1:3: expected \',\' or \']\' after array element, found end of input\n  [2\n    ^\n'
}

@test "error reports are the same under C.UTF-8" {
	need_utf8_locale
	putf '{"e":\377}'
	LC_ALL=C.UTF-8 jrun -c <in
	expect_invalid '' $'jenc: <stdin>:1:6: expected value after \':\', found byte 0xff\n  {"e":?}\n       ^\n'
	putf '["a\tb"]'
	LC_ALL=C.UTF-8 jrun -c <in
	expect_invalid '' $'jenc: <stdin>:1:4: unescaped control character 0x09 in string\n  ["a b"]\n     ^\n'
}

@test "adjacent scalars are one bad word, not two values as Go's Decoder reads" {
	put 'nulltrue'
	bad '' 1 1 "invalid literal 'nulltrue', expected true, false or null" 'nulltrue'
	put 'truefalse'
	bad '' 1 1 "invalid literal 'truefalse', expected true, false or null" 'truefalse'
	put '1true'
	bad '' 1 1 "invalid number '1true'" '1true'
	put '010'
	bad '' 1 1 "invalid number '010'" '010'
	# the values before the word are written
	put '[0] 7 [1true]'
	bad '[0]
7
' 1 8 "invalid number '1true'" '[0] 7 [1true]'
	# ended by a quote or a bracket, they are values of their own
	put '1"a"null[2]true{}'
	jrun -c <in
	expect_ok '1
"a"
null
[2]
true
{}
'
}
