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
