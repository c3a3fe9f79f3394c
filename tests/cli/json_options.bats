#!/usr/bin/env bats
# Command line: long and short forms, combinations (the last output style
# wins, -l is never undone), --help, --version and usage errors (exit 2 and a hint line).

load helpers

setup() {
	setup_jenc
	put '{"a":[1,"<é>"]}'
	C='{"a":[1,"<é>"]}
'
	I2='{
  "a": [
    1,
    "<é>"
  ]
}
'
	I3='{
   "a": [
      1,
      "<é>"
   ]
}
'
	TAB=$'{\n\t"a": [\n\t\t1,\n\t\t"<\xc3\xa9>"\n\t]\n}\n'
}

@test "long forms do what the short ones do" {
	jrun --compact <in
	expect_ok "$C"
	jrun --lines <in
	expect_ok "$C"
	jrun --html-escape -c <in
	expect_ok '{"a":[1,"\u003cé\u003e"]}
'
	jrun --ascii -c <in
	expect_ok '{"a":[1,"<\u00e9>"]}
'
	jrun --from=json -c <in
	expect_ok "$C"
	jrun -f json -c <in
	expect_ok "$C"
}

@test "the last output style wins" {
	jrun -c --indent=3 <in
	expect_ok "$I3"
	jrun --indent=3 -c <in
	expect_ok "$C"
	jrun --tab --indent=3 <in
	expect_ok "$I3"
	jrun --indent=3 --tab <in
	expect_ok "$TAB"
	jrun --tab -c <in
	expect_ok "$C"
	jrun -c --tab <in
	expect_ok "$TAB"
	# -l is not a style: it gives one compact value per line whatever
	# style comes before or after it
	jrun -l --tab <in
	expect_ok "$C"
	jrun --tab -l <in
	expect_ok "$C"
	jrun -l --indent=3 <in
	expect_ok "$C"
	jrun -l -c <in
	expect_ok "$C"
	jrun -c -l <in
	expect_ok "$C"
	jrun --indent=3 --indent=2 <in
	expect_ok "$I2"
	jrun -c --indent=3 --tab --compact --indent=3 <in
	expect_ok "$I3"
}

@test "-H and -a are kept whatever output style comes after them" {
	jrun -H --indent=3 -c <in
	expect_ok '{"a":[1,"\u003cé\u003e"]}
'
	jrun -a -c --tab <in
	expect_ok $'{\n\t"a": [\n\t\t1,\n\t\t"<\\u00e9>"\n\t]\n}\n'
	jrun -H -a -l <in
	expect_ok '{"a":[1,"\u003c\u00e9\u003e"]}
'
}

@test "short options can be bundled" {
	jrun -cH <in
	expect_ok '{"a":[1,"\u003cé\u003e"]}
'
	jrun -Hac <in
	expect_ok '{"a":[1,"\u003c\u00e9\u003e"]}
'
	jrun -lfjson <in
	expect_ok "$C"
}

@test "--indent and --max-depth take a separate argument too" {
	jrun --indent 3 <in
	expect_ok "$I3"
	jrun --max-depth 2 -c <in
	expect_ok "$C"
	jrun --from json -c <in
	expect_ok "$C"
}

@test "--indent accepts 1 and 16, --max-depth 1 and 100000000" {
	put '[1]'
	jrun --indent=1 <in
	expect_ok $'[\n 1\n]\n'
	jrun --indent=16 <in
	expect_ok $'[\n                1\n]\n'
	jrun --max-depth=1 -c <in
	expect_ok $'[1]\n'
	jrun --max-depth=100000000 -c <in
	expect_ok $'[1]\n'
}

@test "options may follow file operands, -- ends the options" {
	cp in a.json
	jrun a.json -c
	expect_ok "$C"
	cp in ./-c
	jrun --tab -- -c
	expect_ok "$TAB"
}

@test "--from=json reads a .csv or .tsv file as JSON" {
	cp in data.csv
	cp in data.tsv
	jrun --from=json -c data.csv data.tsv
	expect_ok "$C$C"
	jrun -f json -c data.csv
	expect_ok "$C"
}

@test "--help and -h print the usage on stdout and exit 0" {
	jrun --help
	expect_status 0
	expect_err ''
	cp out help.out
	local opt
	for opt in --from= --compact --indent= --tab --lines --html-escape --ascii \
	    --single --validate --max-depth= --delimiter= --no-header --header= \
	    --types --ragged= --help --version; do
		grep -q -e "$opt" out || fail "--help does not mention $opt"
	done
	for opt in -f -c -l -H -a -d -t -h -V; do
		grep -q -e "$opt," out || fail "--help does not mention $opt"
	done
	jrun -h
	expect_status 0
	expect_err ''
	same_bytes help.out out "-h output"
}

@test "--help wins over other options and writes nothing else" {
	jrun -c --help nope.json
	expect_status 0
	expect_err ''
	[ -s out ] || fail "--help wrote nothing"
	if grep -q '"a"' out; then fail "--help also read input"; fi
}

@test "--version and -V print 'jenc 1.0.0'" {
	jrun --version
	expect_ok $'jenc 1.0.0\n'
	jrun -V
	expect_ok $'jenc 1.0.0\n'
}

@test "--help and --version are the same under C.UTF-8" {
	need_utf8_locale
	jrun --help
	mv out c.out
	LC_ALL=C.UTF-8 jrun --help
	expect_status 0
	same_bytes c.out out "--help under C.UTF-8"
	LC_ALL=C.UTF-8 jrun -V
	expect_ok $'jenc 1.0.0\n'
}

@test "unknown long option: exit 2 and a hint" {
	jrun --foo <in
	expect_usage "jenc: unknown option '--foo'"
	jrun --compact --bogus-option -c <in
	expect_usage "jenc: unknown option '--bogus-option'"
}

@test "unknown short option: exit 2 and a hint" {
	jrun -x <in
	expect_usage "jenc: unknown option '-x'"
}

@test "--indent out of range or not a number: exit 2" {
	jrun --indent=20 <in
	expect_usage "jenc: --indent: '20' is not a number from 1 to 16"
	jrun --indent=0 <in
	expect_usage "jenc: --indent: '0' is not a number from 1 to 16"
	jrun --indent=17 <in
	expect_usage "jenc: --indent: '17' is not a number from 1 to 16"
	jrun --indent=-1 <in
	expect_usage "jenc: --indent: '-1' is not a number from 1 to 16"
	jrun --indent=abc <in
	expect_usage "jenc: --indent: 'abc' is not a number from 1 to 16"
	jrun --indent=4x <in
	expect_usage "jenc: --indent: '4x' is not a number from 1 to 16"
	jrun --indent= <in
	expect_usage "jenc: --indent: '' is not a number from 1 to 16"
	jrun --indent=99999999999999999999 <in
	expect_usage "jenc: --indent: '99999999999999999999' is not a number from 1 to 16"
}

@test "--indent without a value: exit 2" {
	jrun --indent
	expect_usage "jenc: option '--indent' needs a value"
}

@test "--max-depth out of range or not a number: exit 2" {
	jrun --max-depth=0 <in
	expect_usage "jenc: --max-depth: '0' is not a number from 1 to 100000000"
	jrun --max-depth=100000001 <in
	expect_usage "jenc: --max-depth: '100000001' is not a number from 1 to 100000000"
	jrun --max-depth=ten <in
	expect_usage "jenc: --max-depth: 'ten' is not a number from 1 to 100000000"
	jrun --max-depth
	expect_usage "jenc: option '--max-depth' needs a value"
}

@test "--from with an unknown format: exit 2" {
	jrun --from=xml <in
	expect_usage "jenc: --from: 'xml' is not json, csv or tsv"
	jrun -f xml <in
	expect_usage "jenc: --from: 'xml' is not json, csv or tsv"
	jrun --from=JSON <in
	expect_usage "jenc: --from: 'JSON' is not json, csv or tsv"
}

@test "short options missing their value: exit 2, one line and the hint" {
	jrun -f
	expect_status 2
	expect_out ''
	[ "$(wc -l <err)" = 2 ] || fail "expected 2 lines on stderr: $(cat err)"
	[ "$(sed -n 2p err)" = "Try 'jenc --help' for more information." ] ||
	    fail "no hint line: $(cat err)"
	grep -q "^jenc: .*-f" err || fail "first line does not name -f: $(cat err)"
}

@test "a usage error reads no input and writes nothing" {
	cp in a.json
	jrun a.json --indent=0 a.json
	expect_usage "jenc: --indent: '0' is not a number from 1 to 16"
}

@test "usage errors under C.UTF-8 are the same" {
	need_utf8_locale
	LC_ALL=C.UTF-8 jrun --indent=20 <in
	expect_usage "jenc: --indent: '20' is not a number from 1 to 16"
}
