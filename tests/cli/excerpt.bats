#!/usr/bin/env bats
# The excerpt under an error message: the caret by display width (CJK and
# emoji two columns, combining marks none), '?' for what a terminal would
# act on or hide, '...' where a long line is cut.  Each test compares the
# whole stderr.

load helpers

setup() {
	setup_jenc
}

@test "CJK and emoji before the spot: the caret counts two columns each" {
	# byte column 35; display column 29:
	#   {"名前": "漢字", "e": "😀", x}
	#                               ^
	putf '{"名前": "漢字", "e": "😀", x}\n'
	jrun -c <in
	expect_invalid '' "jenc: <stdin>:1:35: expected string key after ',', found 'x'
  {\"名前\": \"漢字\", \"e\": \"😀\", x}
                              ^
"
}

@test "the excerpt does not depend on the locale" {
	need_utf8_locale
	putf '{"名前": "漢字", "e": "😀", x}\n'
	jrun -c <in
	cp "$T/err" "$T/err.C"
	LC_ALL=C.UTF-8 jrun -c <in
	expect_status 1
	same_bytes "$T/err.C" "$T/err" "stderr under C.UTF-8 and under C"
}

@test "a combining accent takes no column, a tab is a space" {
	putf '{\n\t"k": "e\xcc\x81", "n": tru\n}\n'
	jrun -c <in
	# e and U+0301: one column
	expect_invalid '' "jenc: <stdin>:2:19: invalid literal 'tru', expected true, false or null
   \"k\": \"e"$'\xcc\x81'"\", \"n\": tru
                  ^
"
}

@test "U+009B (CSI) and U+202E (RLO) in the line are shown as '?'" {
	# both are valid in a JSON string; raw, the first starts a terminal
	# escape sequence and the second reverses the text after it
	putf '["a\xc2\x9b[31m", "\xe2\x80\xaeevil", x]\n'
	jrun -c <in
	expect_invalid '' "jenc: <stdin>:1:24: invalid literal 'x', expected true, false or null
  [\"a?[31m\", \"?evil\", x]
                      ^
"
}

@test "zero-width and bidi characters, U+2028 and a BOM are '?'" {
	# ZWSP, ZWJ, LRI, U+2028, U+FEFF, then the bad literal
	putf '["\xe2\x80\x8b\xe2\x80\x8d\xe2\x81\xa6\xe2\x80\xa8\xef\xbb\xbf", nul]\n'
	jrun -c <in
	expect_invalid '' "jenc: <stdin>:1:21: invalid literal 'nul', expected true, false or null
  [\"?????\", nul]
            ^
"
}

@test "CSV: a bad byte after CJK characters, the caret under it" {
	putf '名前,x\n漢字,\xff\n'
	jrun -f csv -c <in
	expect_invalid $'[]\n' "jenc: <stdin>:2:8: invalid UTF-8 byte 0xff
  漢字,?
       ^
"
}

@test "a long line is cut with '...' on both sides, 40 columns before the spot" {
	# [1,1,...,1,x,1,...,1]: 60 ones, x at byte column 122, 60 ones
	{
		printf '['
		printf '1,%.0s' $(seq 60)
		printf 'x'
		printf ',1%.0s' $(seq 60)
		printf ']\n'
	} >in
	jrun -c <in
	# 37 bytes before the spot after "...", 36 after it before "..."
	expect_invalid '' "jenc: <stdin>:1:122: invalid literal 'x', expected true, false or null
  ...,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,x,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1...
                                          ^
"
}

@test "a long line with the spot near its end shows more before it" {
	# a string of 100 bytes, then the bad literal at the line's end: the
	# columns that "nul]" leaves go to what comes before, after "..."
	{
		printf '["'
		printf 'abcdefghij%.0s' $(seq 10)
		printf '", nul]\n'
	} >in
	jrun -c <in
	expect_invalid '' "jenc: <stdin>:1:106: invalid literal 'nul', expected true, false or null
  ...abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghij\", nul]
                                                                              ^
"
}

@test "40 display columns before the spot, not 40 bytes or characters" {
	# a string of 100 CJK characters (3 bytes, 2 columns each), the bad
	# literal, then 100 more bytes: before the spot "..." and 17
	# characters (57 bytes, 34 columns) and '", ', 40 columns in all
	{
		printf '["'
		printf '漢%.0s' $(seq 100)
		printf '", x, "'
		printf 'b%.0s' $(seq 100)
		printf '"]\n'
	} >in
	jrun -c <in
	expect_invalid '' "jenc: <stdin>:1:306: invalid literal 'x', expected true, false or null
  ...漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢\", x, \"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb...
                                          ^
"
}
