#!/usr/bin/env bats
# What an audit of the JSON command line against jenc(1) found: each test
# here failed before its fix.

load helpers

setup() {
	setup_jenc
}

@test "usage errors show control characters of a value as escapes" {
	jrun --indent=$'1\e[31mx\n'
	expect_status 2
	expect_err $'jenc: --indent: \'1\\033[31mx\\n\' is not a number from 1 to 16\nTry \'jenc --help\' for more information.\n'
	jrun --on-error=$'\xc2\x9b1m\xff'
	expect_status 2
	expect_err $'jenc: --on-error: \'\\302\\2331m\\377\' is not stop, skip or pass\nTry \'jenc --help\' for more information.\n'
}

@test "unknown and ambiguous options show control characters as escapes" {
	jrun $'--fo\ro'
	expect_status 2
	expect_err $'jenc: unknown option \'--fo\\ro\'\nTry \'jenc --help\' for more information.\n'
	jrun $'-\e'
	expect_status 2
	expect_err $'jenc: unknown option \'-\\033\'\nTry \'jenc --help\' for more information.\n'
}

@test "quotes, backslashes and UTF-8 in a value are shown as they are" {
	jrun --indent="a'\\\"é"
	expect_status 2
	expect_err $'jenc: --indent: \'a\'\\"é\' is not a number from 1 to 16\nTry \'jenc --help\' for more information.\n'
}

@test "a bad JENC_CHUNK or JENC_COLORS shows control characters as escapes" {
	JENC_CHUNK=$'1\e' jrun -c </dev/null
	expect_status 2
	expect_err $'jenc: JENC_CHUNK: \'1\\033\' is not a number of bytes\n'
	JENC_COLORS=$'1;\e' jrun -C </dev/null
	expect_status 2
	expect_err $'jenc: JENC_COLORS: field 1 (null): \'1;\\033\' is not a color (digits and \';\')\n'
}

# Go's own tables (src/encoding/json/scanner_test.go, TestCompactAndIndent
# with its indent of one tab, and TestIndentErrors; encode_test.go's
# TestHTMLEscape): each compact form and each indented form gives both.
@test "Go's Compact, Indent and HTMLEscape test tables" {
	local c i k x
	local -a compact=('1' '{}' '[]' '{"":2}' '[3]' '[1,2,3]' '{"x":1}'
	    '[true,false,null,"x",1,1.5,0,-5e+2]'
	    $'{"":"<>&\xe2\x80\xa8\xe2\x80\xa9"}')
	local -a indent=('1' '{}' '[]' $'{\n\t"": 2\n}' $'[\n\t3\n]'
	    $'[\n\t1,\n\t2,\n\t3\n]' $'{\n\t"x": 1\n}'
	    $'[\n\ttrue,\n\tfalse,\n\tnull,\n\t"x",\n\t1,\n\t1.5,\n\t0,\n\t-5e+2\n]'
	    $'{\n\t"": "<>&\xe2\x80\xa8\xe2\x80\xa9"\n}')
	for k in "${!compact[@]}"; do
		c=${compact[k]}
		i=${indent[k]}
		for x in "$c" "$i"; do
			put "$x"
			jrun -c <in
			expect_ok "$c"$'\n'
			jrun --tab <in
			expect_ok "$i"$'\n'
		done
	done
	# TestCompactSeparators: U+2028 and U+2029 in keys stay as they are
	put $'{"\xe2\x80\xa8": 1}{"\xe2\x80\xa9" :2}'
	jrun -c <in
	expect_ok $'{"\xe2\x80\xa8":1}\n{"\xe2\x80\xa9":2}\n'
	# TestIndentErrors: Go's offsets 17 and 13 are these columns
	put '{"X": "foo", "Y"}'
	jrun --tab <in
	expect_status 1
	expect_err $'jenc: <stdin>:1:17: expected \':\' after object key, found \'}\'\n  {"X": "foo", "Y"}\n                  ^\n'
	put '{"X": "foo" "Y": "bar"}'
	jrun --tab <in
	expect_status 1
	expect_err $'jenc: <stdin>:1:13: expected \',\' or \'}\' after object member, found \'"\'\n  {"X": "foo" "Y": "bar"}\n              ^\n'
	# TestHTMLEscape
	put $'"<html>foo &\xe2\x80\xa8 \xe2\x80\xa9</html>"'
	jrun -c -H <in
	expect_ok '"\u003chtml\u003efoo \u0026\u2028 \u2029\u003c/html\u003e"'$'\n'
}
