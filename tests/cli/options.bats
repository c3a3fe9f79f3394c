#!/usr/bin/env bats
# Option errors as getopt users expect them: which option is named, why it
# was refused (unknown, ambiguous, value missing or not allowed), the exit
# status 2 and the hint line; "-" is a file, "--" ends the options, and
# POSIXLY_CORRECT stops option scanning at the first file.

load helpers

setup() {
	setup_jenc
	put '[1,{"a":2}]'
	C='[1,{"a":2}]
'
	I2='[
  1,
  {
    "a": 2
  }
]
'
}

@test "an option that takes no value refuses one, named in full" {
	jrun --compact=yes <in
	expect_usage "jenc: option '--compact' doesn't allow an argument"
	jrun --comp=yes <in
	expect_usage "jenc: option '--compact' doesn't allow an argument"
	jrun --tab= <in
	expect_usage "jenc: option '--tab' doesn't allow an argument"
	jrun -c --no-header=1 <in
	expect_usage "jenc: option '--no-header' doesn't allow an argument"
	jrun --help=all
	expect_usage "jenc: option '--help' doesn't allow an argument"
}

@test "an ambiguous prefix lists every long option it starts" {
	jrun --h <in
	expect_usage "jenc: option '--h' is ambiguous; possibilities: '--html-escape' '--header' '--hide' '--help'"
	jrun --he <in
	expect_usage "jenc: option '--he' is ambiguous; possibilities: '--header' '--help'"
	jrun -c --t <in
	expect_usage "jenc: option '--t' is ambiguous; possibilities: '--tab' '--to' '--types' '--time-key' '--time-format'"
	jrun --v=1 <in
	expect_usage "jenc: option '--v' is ambiguous; possibilities: '--validate' '--version'"
	jrun --c <in
	expect_usage "jenc: option '--c' is ambiguous; possibilities: '--compact' '--color' '--crlf' '--csv-safe' '--check'"
}

@test "a unique prefix and an exact name are never ambiguous" {
	jrun --comp <in
	expect_ok "$C"
	jrun --ind=2 <in
	expect_ok "$I2"
	jrun --ta --comp <in
	expect_ok "$C"
	# --header is exact although --help and --html-escape share its start
	printf '1,2\n' >in.csv
	jrun -c --header=x,y in.csv
	expect_ok '[{"x":"1","y":"2"}]
'
	jrun -c --he=x,y in.csv
	expect_usage "jenc: option '--he' is ambiguous; possibilities: '--header' '--help'"
}

@test "an unknown short option is named, inside a bundle or after a value" {
	jrun --indent=3 -xc <in
	expect_usage "jenc: unknown option '-x'"
	jrun --indent 3 -cx <in
	expect_usage "jenc: unknown option '-x'"
	jrun -cx <in
	expect_usage "jenc: unknown option '-x'"
	jrun -f json -Hxa <in
	expect_usage "jenc: unknown option '-x'"
	jrun --max-depth=4 in -c -y <in
	expect_usage "jenc: unknown option '-y'"
	jrun -:
	expect_usage "jenc: unknown option '-:'"
}

@test "an unknown long option is named without its value" {
	jrun --foo <in
	expect_usage "jenc: unknown option '--foo'"
	jrun --foo=bar <in
	expect_usage "jenc: unknown option '--foo'"
	jrun -c --compactt <in
	expect_usage "jenc: unknown option '--compactt'"
	jrun -x --foo <in
	expect_usage "jenc: unknown option '-x'"
	jrun ---c <in
	expect_usage "jenc: unknown option '---c'"
	jrun --=x <in
	expect_usage "jenc: unknown option '--=x'"
}

@test "a missing value names the option, a long one in full" {
	jrun --indent
	expect_usage "jenc: option '--indent' needs a value"
	jrun -c --ind
	expect_usage "jenc: option '--indent' needs a value"
	jrun --from
	expect_usage "jenc: option '--from' needs a value"
	jrun -f
	expect_usage "jenc: option '-f' needs a value"
	jrun -cf
	expect_usage "jenc: option '-f' needs a value"
	jrun --indent=2 -d
	expect_usage "jenc: option '-d' needs a value"
	jrun -wo
	expect_usage "jenc: option '-o' needs a value"
	jrun --out
	expect_usage "jenc: option '--output' needs a value"
}

@test "a value may be attached or the next argument, even one starting with -" {
	jrun --indent 2 <in
	expect_ok "$I2"
	jrun -fjson -c <in
	expect_ok "$C"
	printf 'a-b\n1-2\n' >in.csv
	jrun -c -d - in.csv
	expect_ok '[{"a":"1","b":"2"}]
'
	jrun -cd- in.csv
	expect_ok '[{"a":"1","b":"2"}]
'
}

@test "--header and --no-header together: a usage error, in either order" {
	printf 'a,b\n1,2\n' >in.csv
	jrun --header=x,y --no-header in.csv
	expect_usage "jenc: --header and --no-header cannot be used together"
	jrun --no-header -c --header=x in.csv
	expect_usage "jenc: --header and --no-header cannot be used together"
	# each alone is fine, and a later --header replaces an earlier one
	jrun -c --no-header in.csv
	expect_ok '[["a","b"],["1","2"]]
'
	jrun -c --header=p,q --header=x,y in.csv
	expect_ok '[{"x":"a","y":"b"},{"x":"1","y":"2"}]
'
}

@test "the first usage error is reported, before any input is read" {
	jrun in --foo --indent=0 in
	expect_usage "jenc: unknown option '--foo'"
	jrun --indent=0 --foo <in
	expect_usage "jenc: --indent: '0' is not a number from 1 to 16"
}

@test "of two refused combinations the same one is told, whatever their order" {
	# opts_check tries them in one order: --log's, -s's, the --log view,
	# the environment's, then -o, -w, --check, -z and --best-effort
	jrun --log --time-format=%N%N%N%N%N%N%N%N -z in
	expect_usage "jenc: --time-format: more than seven %N conversions"
	jrun -z --log --time-format=%N%N%N%N%N%N%N%N in
	expect_usage "jenc: --time-format: more than seven %N conversions"
	jrun -w --on-error=pass -s in
	expect_usage "jenc: -s makes one array of all inputs: not with -w"
	jrun -w --to=csv --log in
	expect_usage "jenc: --log and --to=csv cannot be used together"
	jrun -s --on-error=pass --level=info in
	expect_usage "jenc: --level needs --log"
	jrun --best-effort -z in
	expect_usage "jenc: -z needs --check"
	jrun -z -o x --check in
	expect_usage "jenc: -o and --check cannot be used together"
	JENC_CHUNK=abc jrun -z in
	expect_status 2
	expect_err "jenc: JENC_CHUNK: 'abc' is not a number of bytes
"
}

@test "- alone is standard input, among other files" {
	cp in a.json
	jrun -c - <in
	expect_ok "$C"
	jrun -c a.json - a.json <<<'"mid"'
	expect_ok "$C\"mid\"
$C"
}

@test "-- ends the options: what follows is a file even if it looks like one" {
	cp in ./-x
	jrun -c -- -x
	expect_ok "$C"
	jrun -- -c <in
	expect_status 3
	expect_out ''
	expect_err 'jenc: -c: No such file or directory
'
	jrun -c -- - <in
	expect_ok "$C"
}

@test "options may follow files unless POSIXLY_CORRECT is set" {
	cp in a.json
	jrun a.json -c
	expect_ok "$C"
	# set (to any value, empty too): options end at the first file
	POSIXLY_CORRECT=1 jrun a.json -c
	expect_status 3
	expect_out "$I2"
	expect_err 'jenc: -c: No such file or directory
'
	POSIXLY_CORRECT= jrun -c a.json --indent=2
	expect_status 3
	expect_out "$C"
	expect_err 'jenc: --indent=2: No such file or directory
'
	POSIXLY_CORRECT=1 jrun -c -x a.json
	expect_usage "jenc: unknown option '-x'"
}

@test "option errors read the same under C.UTF-8" {
	need_utf8_locale
	LC_ALL=C.UTF-8 jrun --h <in
	expect_usage "jenc: option '--h' is ambiguous; possibilities: '--html-escape' '--header' '--hide' '--help'"
	LC_ALL=C.UTF-8 jrun --compact=yes <in
	expect_usage "jenc: option '--compact' doesn't allow an argument"
	LC_ALL=C.UTF-8 jrun -cf
	expect_usage "jenc: option '-f' needs a value"
}

@test "an option of the other input format is told once, and changes nothing" {
	# CSV/TSV options with JSON input only: each named as it was given
	jrun -c -t --ragged=pad <in
	expect_status 0
	expect_out "$C"
	expect_err 'jenc: warning: -t has no effect on JSON input
jenc: warning: --ragged has no effect on JSON input
'
	jrun -c --types -d ';' --header=x --types <in
	expect_status 0
	expect_out "$C"
	expect_err 'jenc: warning: -d has no effect on JSON input
jenc: warning: --header has no effect on JSON input
jenc: warning: --types has no effect on JSON input
'
	jrun -c --no-header --delimiter=, in in
	expect_status 0
	expect_out "$C$C"
	expect_err 'jenc: warning: --delimiter has no effect on JSON input
jenc: warning: --no-header has no effect on JSON input
'
	# JSON options with CSV/TSV input only, -f or the names
	printf 'a,b\n1,2\n' >in.csv
	jrun -c --single --max-depth=1 --jsonc --on-error=skip in.csv
	expect_status 0
	expect_out '[{"a":"1","b":"2"}]
'
	expect_err 'jenc: warning: --single has no effect on CSV/TSV input
jenc: warning: --max-depth has no effect on CSV/TSV input
jenc: warning: --jsonc has no effect on CSV/TSV input
jenc: warning: --on-error has no effect on CSV/TSV input
'
	jrun -c -f tsv --single <in
	expect_status 0
	expect_out '[]
'
	expect_err 'jenc: warning: --single has no effect on CSV/TSV input
'
	# bad input keeps its exit status, after the warning
	printf 'a,b\n1\n' >bad.csv
	jrun -c --jsonc bad.csv
	expect_status 1
	expect_out '[]
'
	expect_err 'jenc: warning: --jsonc has no effect on CSV/TSV input
jenc: bad.csv:2: record has 1 field, header has 2
'
	# an option used by one input of several: no warning
	jrun -c -t --single in.csv in
	expect_ok '[{"a":1,"b":2}]
'"$C"
	jrun -c -t -f json in.csv
	expect_status 1
	expect_err 'jenc: warning: -t has no effect on JSON input
jenc: in.csv:1:1: invalid literal '"'a'"', expected true, false or null (is it CSV? try -f csv)
  a,b
  ^
'
}
