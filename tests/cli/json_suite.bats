#!/usr/bin/env bats
# JSONTestSuite (shared/conformance/JSONTestSuite) through the CLI:
# every y_ file accepted and re-encoded as Go's encoding/json does, every
# n_ file rejected but the four that are valid streams, each i_ file as
# the CLI contract decides, and every accepted file a fixpoint of every
# output style.  Each test loops over a whole category and lists every
# file that misbehaves.

load helpers

setup() {
	setup_jenc
	need_shared
}

# n_ files that are valid streams of zero or several values.
STREAM_OK='n_single_space n_structure_no_data n_structure_double_array
n_structure_object_with_trailing_garbage'

# The contract's choices for the i_ files.
I_ACCEPT='i_number_double_huge_neg_exp i_number_huge_exp
i_number_neg_int_huge_exp i_number_pos_double_huge_exp
i_number_real_neg_overflow i_number_real_pos_overflow
i_number_real_underflow i_number_too_big_neg_int i_number_too_big_pos_int
i_number_very_big_negative_int i_structure_500_nested_arrays
i_structure_UTF-8_BOM_empty_object i_object_key_lone_2nd_surrogate
i_string_1st_surrogate_but_2nd_missing
i_string_1st_valid_surrogate_2nd_invalid
i_string_incomplete_surrogate_and_escape_valid
i_string_incomplete_surrogate_pair
i_string_incomplete_surrogates_escape_valid
i_string_invalid_lonely_surrogate i_string_invalid_surrogate
i_string_inverted_surrogates_U+1D11E i_string_lone_second_surrogate
i_string_UTF-16LE_with_BOM'
I_REJECT='i_string_UTF-8_invalid_sequence
i_string_UTF8_surrogate_U+D800 i_string_invalid_utf-8 i_string_iso_latin_1
i_string_lone_utf8_continuation_byte i_string_not_in_unicode_range
i_string_overlong_sequence_2_bytes i_string_overlong_sequence_6_bytes
i_string_overlong_sequence_6_bytes_null i_string_truncated-utf-8
i_string_utf16BE_no_BOM i_string_utf16LE_no_BOM'

# in_list NAME LIST - NAME is a word of LIST.
in_list() {
	case " ${2//$'\n'/ } " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}

# accepted_files - every suite file jenc must accept, one path a line.
# (Read them with mapfile.)
accepted_files() {
	local f n
	for f in "$SUITE"/y_*.json "$SUITE"/i_*.json "$SUITE"/n_*.json; do
		n=${f##*/}
		n=${n%.json}
		case $n in
		y_*) printf '%s\n' "$f" ;;
		i_*) in_list "$n" "$I_ACCEPT" && printf '%s\n' "$f" ;;
		n_*) in_list "$n" "$STREAM_OK" && printf '%s\n' "$f" ;;
		esac
	done
	return 0
}

# The documented MESSAGE forms of an invalid-input report (LC_ALL=C).
q="'"
FOUND="found (end of input|NUL byte|${q}[!-~]${q}|byte 0x[0-9a-f]{2})"
EXPECTED="expected (value|value or end of input|end of input after the value"
EXPECTED+="|value after the byte order mark|value or ${q}[]]${q}"
EXPECTED+="|value after ${q},${q}|value after ${q}:${q}"
EXPECTED+="|${q},${q} or ${q}[]]${q} after array element"
EXPECTED+="|string key or ${q}[}]${q}|string key after ${q},${q}"
EXPECTED+="|${q}:${q} after object key|${q},${q} or ${q}[}]${q} after object member)"
EXPECTED+=", $FOUND"
MESSAGE_RE="^($EXPECTED|invalid number ${q}.+${q}"
MESSAGE_RE+="|invalid literal ${q}.+${q}, expected true, false or null"
MESSAGE_RE+="|invalid escape ${q}[\\].${q} in string"
MESSAGE_RE+="|invalid escape ${q}[\\]${q} [+] byte 0x[0-9a-f]{2} in string"
MESSAGE_RE+="|invalid [\\]u escape in string, expected 4 hex digits"
MESSAGE_RE+="|unescaped control character 0x[0-9a-f]{2} in string"
MESSAGE_RE+="|invalid UTF-8 byte 0x[0-9a-f]{2} in string"
MESSAGE_RE+="|unterminated string, found end of input"
MESSAGE_RE+="|input looks like UTF-(16|32)(LE|BE) without a byte order mark;"
MESSAGE_RE+=" try --encoding=utf-(16|32)(le|be)"
MESSAGE_RE+="|nesting deeper than [0-9]+ levels [(]see --max-depth[)]"
MESSAGE_RE+=")( [(](JSON with comments[?] try --jsonc|trailing comma[?] try"
MESSAGE_RE+=" --jsonc|is it CSV[?] try -f csv)[)])?( [(]output of this value was"
MESSAGE_RE+=" cut[)])?\$"

# report_problem NAME L0 L1 L2 - set PROBLEM to why the three stderr
# lines L0 L1 L2 (each with its "\n") are not the report of the invalid
# input NAME: "jenc: NAME:LINE:COL: MESSAGE" with a documented MESSAGE,
# "  EXCERPT", "  <spaces>^".  PROBLEM is empty when they are.
report_problem() {
	local pre="jenc: $1:" l0=${2%$'\n'} rest
	PROBLEM=
	if [ "$2" = "$l0" ] || [ "${3%$'\n'}" = "$3" ] || [ "${4%$'\n'}" = "$4" ]; then
		PROBLEM="not three lines: ${2}${3}${4}"
	elif [ "${l0:0:${#pre}}" != "$pre" ]; then
		PROBLEM="message does not start with '$pre': $l0"
	else
		rest=${l0:${#pre}}
		if ! [[ $rest =~ ^[1-9][0-9]*:[1-9][0-9]*:\ (.*)$ ]]; then
			PROBLEM="no LINE:COL: after the name: $l0"
		elif ! [[ ${BASH_REMATCH[1]} =~ $MESSAGE_RE ]]; then
			PROBLEM="undocumented message: $l0"
		elif [ "${3:0:2}" != '  ' ] || ! [[ $4 =~ ^\ \ \ *\^$'\n'$ ]]; then
			PROBLEM="excerpt or caret line malformed: ${3}${4}"
		fi
	fi
}

# accepted_problem ARGS... FILE - run jenc ARGS FILE; set PROBLEM to
# what is wrong unless it exits 0 with nothing on stderr.
accepted_problem() {
	local l
	PROBLEM=
	jrun "$@"
	if [ "$status" != 0 ] || [ -s "$T/err" ]; then
		IFS= read -r l <"$T/err" || true
		PROBLEM="exit status $status, expected 0: $l"
	fi
}

# rejected_problem ARGS... FILE - run jenc ARGS FILE; set PROBLEM to
# what is wrong unless it exits 1 with one report on FILE.
rejected_problem() {
	local lines
	PROBLEM=
	jrun "$@"
	mapfile lines <"$T/err"
	if [ "$status" != 1 ]; then
		PROBLEM="exit status $status, expected 1: ${lines[0]:-}"
	elif [ "${#lines[@]}" != 3 ]; then
		PROBLEM="stderr is ${#lines[@]} lines, not 3: ${lines[*]:0:6}"
	else
		report_problem "${@: -1}" "${lines[@]}"
	fi
}

# The tests below run jenc once over a whole category (jenc takes many
# FILEs and reports each invalid one, then goes on).  When that run is not
# as expected the test fails, and first runs jenc on each file alone to
# list the files that misbehave.

@test "JSONTestSuite holds 95 y_, 188 n_ and 35 i_ files" {
	local y=("$SUITE"/y_*.json) n=("$SUITE"/n_*.json) i=("$SUITE"/i_*.json)
	[ "${#y[@]}" = 95 ] && [ "${#n[@]}" = 188 ] && [ "${#i[@]}" = 35 ] ||
	    fail "the suite changed: ${#y[@]} y_, ${#n[@]} n_, ${#i[@]} i_ files (expected 95, 188, 35)"
	# Every file of the suite is a y_, n_ or i_ test.
	local other
	other=$(cd "$SUITE" && ls | grep -v -e '^[yni]_.*\.json$' -e '^LICENSE$' || true)
	[ -z "$other" ] || fail "files outside the y_/n_/i_ categories: $other"
}

@test "JSONTestSuite y_: every file accepted, with and without --single" {
	local files=("$SUITE"/y_*.json) f mode bad=''
	for mode in -c '--single -c' '' --single --validate '--single --validate'; do
		jrun $mode "${files[@]}"
		if [ "$status" != 0 ] || [ -s err ]; then
			bad+="jenc $mode y_*.json: exit status $status, stderr: $(head -c 300 err)"$'\n'
			for f in "${files[@]}"; do
				accepted_problem $mode "$f"
				[ -z "$PROBLEM" ] || bad+="  ${f##*/} (jenc $mode): $PROBLEM"$'\n'
			done
			continue
		fi
		case $mode in
		-c) mv out compact.out ;;
		'') mv out indent.out ;;
		'--single -c') cmp -s compact.out out ||
		    bad+="jenc $mode y_*.json: output differs from without --single"$'\n' ;;
		--single) cmp -s indent.out out ||
		    bad+="jenc $mode y_*.json: output differs from without --single"$'\n' ;;
		*) [ ! -s out ] || bad+="jenc $mode y_*.json wrote output"$'\n' ;;
		esac
	done
	[ -z "$bad" ] || fail "y_ files not accepted:
$bad"
}

# go_input FILE - FILE without its byte order mark, if it has one (Go's
# decoder does not skip it), and in UTF-8 (Go reads UTF-8 only).
go_input() {
	local b
	b=$(head -c 3 "$1" | od -An -tx1 | tr -d ' \n')
	case $b in
	efbbbf) tail -c +4 "$1" ;;
	fffe*) tail -c +3 "$1" | iconv -f UTF-16LE -t UTF-8 ;;
	*) cat "$1" ;;
	esac
}

@test "JSONTestSuite y_ and accepted i_: output is Go's encoding/json in every style" {
	need_go
	local files f pair jargs rargs bad=''
	mapfile -t files < <(accepted_files | grep -v '/n_')
	[ "${#files[@]}" = 118 ] || fail "${#files[@]} files, expected 95 y_ + 23 i_"
	# Go gets every file followed by a newline.
	for f in "${files[@]}"; do
		go_input "$f"
		echo
	done >go.in
	for pair in '-c|-c' '|' '--indent=4|-i 4' '--tab|-t' '-H|-H' '-c -H|-c -H' \
	    '--indent=1 -H|-i 1 -H'; do
		jargs=${pair%|*}
		rargs=${pair#*|}
		"$REF" $rargs <go.in >ref.out 2>ref.err ||
		    fail "Go rejects the files ($rargs): $(cat ref.err)"
		jrun $jargs "${files[@]}"
		[ "$status" = 0 ] && cmp -s ref.out out && continue
		bad+="jenc $jargs FILES: exit status $status, $(cmp ref.out out 2>&1 | head -n 1)"$'\n'
		for f in "${files[@]}"; do
			go_input "$f" | "$REF" $rargs >ref.out 2>ref.err
			jrun $jargs "$f"
			[ "$status" = 0 ] && cmp -s ref.out out ||
			    bad+="  ${f##*/} (jenc $jargs): exit status $status, $(cmp ref.out out 2>&1 | head -n 1)"$'\n'
		done
	done
	[ -z "$bad" ] || fail "output differs from Go's encoding/json:
$bad"
}

# check_rejected_batch ARGS... -- FILE... - run jenc ARGS FILE... once:
# exit 1 and, in order, one report for each FILE; else append to $bad
# what is wrong, and the problems of each FILE run alone.
check_rejected_batch() {
	local args=() files f lines i
	while [ "$1" != -- ]; do
		args+=("$1")
		shift
	done
	shift
	files=("$@")
	jrun "${args[@]}" "${files[@]}"
	mapfile lines <"$T/err"
	PROBLEM=
	if [ "$status" != 1 ]; then
		PROBLEM="exit status $status, expected 1"
	elif [ "${#lines[@]}" != $((3 * ${#files[@]})) ]; then
		PROBLEM="${#lines[@]} lines on stderr, expected 3 for each of ${#files[@]} files"
	else
		for i in "${!files[@]}"; do
			report_problem "${files[i]}" "${lines[@]:$((3 * i)):3}"
			[ -n "$PROBLEM" ] && break
		done
	fi
	[ -z "$PROBLEM" ] && return 0
	bad+="jenc ${args[*]} FILES: $PROBLEM"$'\n'
	for f in "${files[@]}"; do
		rejected_problem "${args[@]}" "$f"
		[ -z "$PROBLEM" ] || bad+="  ${f##*/} (jenc ${args[*]}): $PROBLEM"$'\n'
	done
}

@test "JSONTestSuite n_: every file rejected with a report, but the four valid streams" {
	local all=("$SUITE"/n_*.json) files=() f f2 bad='' mode
	for f in "${all[@]}"; do
		f2=${f##*/}
		in_list "${f2%.json}" "$STREAM_OK" || files+=("$f")
	done
	[ "${#files[@]}" = 184 ] || fail "${#files[@]} n_ files to reject, expected 184"
	for mode in -c '' --validate; do
		check_rejected_batch $mode -- "${files[@]}"
	done
	# What was written before each error is whole values.
	jrun -c "${files[@]}"
	if ! "$JENC" -c <out >out2 2>err2 || ! cmp -s out out2; then
		bad+="the output of jenc -c before the errors is not complete values: $(cmp out out2 2>&1) $(head -c 200 err2)"$'\n'
	fi
	[ -z "$bad" ] || fail "n_ files not rejected as the contract says:
$bad"
}

@test "JSONTestSuite n_: the four valid streams, their exact output and --single errors" {
	local n
	for n in $STREAM_OK; do
		cp "$SUITE/$n.json" .
	done
	jrun -c n_single_space.json
	expect_ok ''
	jrun n_structure_no_data.json
	expect_ok ''
	jrun -c n_structure_double_array.json
	expect_ok $'[]\n[]\n'
	jrun n_structure_double_array.json
	expect_ok $'[]\n[]\n'
	jrun -c n_structure_object_with_trailing_garbage.json
	expect_ok $'{"a":true}\n"x"\n'
	jrun n_structure_object_with_trailing_garbage.json
	expect_ok $'{\n  "a": true\n}\n"x"\n'
	jrun -c n_single_space.json n_structure_no_data.json \
	    n_structure_double_array.json n_structure_object_with_trailing_garbage.json
	expect_ok $'[]\n[]\n{"a":true}\n"x"\n'

	jrun --single -c n_single_space.json
	expect_invalid '' $'jenc: n_single_space.json:1:2: expected value, found end of input\n   \n   ^\n'
	jrun --single n_structure_no_data.json
	expect_invalid '' $'jenc: n_structure_no_data.json:1:1: expected value, found end of input\n  \n  ^\n'
	jrun --single -c n_structure_double_array.json
	expect_invalid $'[]\n' "jenc: n_structure_double_array.json:1:3: expected end of input after the value, found '['
  [][]
    ^
"
	jrun --single -c n_structure_object_with_trailing_garbage.json
	expect_invalid $'{"a":true}\n' "jenc: n_structure_object_with_trailing_garbage.json:1:13: expected end of input after the value, found '\"'
  {\"a\": true} \"x\"
              ^
"
}

@test "JSONTestSuite n_: a byte order mark alone is rejected" {
	cp "$SUITE/n_structure_UTF8_BOM_no_data.json" bom.json
	jrun -c bom.json
	expect_status 1
	expect_out ''
	[ "$(head -n 1 err)" = "jenc: bom.json:1:1: expected value after the byte order mark, found end of input" ] ||
	    fail "unexpected message: $(head -n 1 err)"
}

@test "JSONTestSuite n_ with --single: all 188 files rejected with a report" {
	local files=("$SUITE"/n_*.json) bad=''
	[ "${#files[@]}" = 188 ] || fail "${#files[@]} n_ files, expected 188"
	check_rejected_batch --single -c -- "${files[@]}"
	check_rejected_batch --single --validate -- "${files[@]}"
	[ -z "$bad" ] || fail "n_ files not rejected with --single:
$bad"
}

@test "JSONTestSuite i_: each file accepted or rejected as the contract lists" {
	local f name n mode bad='' acc=() rej=()
	# The lists name existing files only, and no file twice.
	for n in $I_ACCEPT $I_REJECT; do
		[ -f "$SUITE/$n.json" ] || bad+="$n.json: listed but not in the suite"$'\n'
	done
	for f in "$SUITE"/i_*.json; do
		name=${f##*/}
		n=${name%.json}
		if in_list "$n" "$I_ACCEPT" && in_list "$n" "$I_REJECT"; then
			bad+="$name: in both lists"$'\n'
		elif in_list "$n" "$I_ACCEPT"; then
			acc+=("$f")
		elif in_list "$n" "$I_REJECT"; then
			rej+=("$f")
		else
			bad+="$name: neither accepted nor rejected by the contract"$'\n'
		fi
	done
	[ "${#acc[@]}" = 23 ] && [ "${#rej[@]}" = 12 ] ||
	    bad+="${#acc[@]} i_ files accepted, ${#rej[@]} rejected; expected 23 and 12"$'\n'
	for mode in -c '--single -c' '' --validate; do
		jrun $mode "${acc[@]}"
		[ "$status" = 0 ] && [ ! -s err ] && continue
		bad+="jenc $mode (accepted i_ files): exit status $status, stderr: $(head -c 300 err)"$'\n'
		for f in "${acc[@]}"; do
			accepted_problem $mode "$f"
			[ -z "$PROBLEM" ] || bad+="  ${f##*/} (jenc $mode): $PROBLEM"$'\n'
		done
	done
	for mode in -c '--single -c' '' --validate; do
		check_rejected_batch $mode -- "${rej[@]}"
	done
	[ -z "$bad" ] || fail "i_ files not handled as the contract lists:
$bad"
}

@test "JSONTestSuite i_: numbers and escapes of the accepted ones are copied verbatim" {
	local f n
	# The i_number_ files hold no whitespace: -c writes them unchanged.
	for f in "$SUITE"/i_number_*.json; do
		jrun -c "$f"
		expect_status 0
		{ tr -d ' \t\r\n' <"$f"; echo; } >expected.out
		same_bytes expected.out out "${f##*/}"
	done
	for n in i_string_lone_second_surrogate i_string_inverted_surrogates_U+1D11E \
	    i_structure_UTF-8_BOM_empty_object; do
		cp "$SUITE/$n.json" .
	done
	jrun -c i_string_lone_second_surrogate.json
	expect_ok $'["\\uDFAA"]\n'
	jrun -a -H i_string_lone_second_surrogate.json
	expect_ok $'[\n  "\\uDFAA"\n]\n'
	jrun -c i_string_inverted_surrogates_U+1D11E.json
	expect_ok $'["\\uDd1e\\uD834"]\n'
	jrun -c i_structure_UTF-8_BOM_empty_object.json
	expect_ok $'{}\n'
	jrun --single --tab i_structure_UTF-8_BOM_empty_object.json
	expect_ok $'{}\n'
	# UTF-16LE with a byte order mark is converted (jenc(1) ENCODINGS)
	cp "$SUITE/i_string_UTF-16LE_with_BOM.json" .
	jrun -c i_string_UTF-16LE_with_BOM.json
	expect_ok $'["\xc3\xa9"]\n'
}

@test "JSONTestSuite accepted files: every style is a fixpoint; compact(indent(x)) is compact(x)" {
	local files f mode bad=''
	mapfile -t files < <(accepted_files)
	[ "${#files[@]}" = 122 ] || fail "${#files[@]} accepted files, expected 95 y_ + 23 i_ + 4 n_"
	for mode in -c '' --indent=4 --tab -H -a '-a -H -c'; do
		jrun $mode "${files[@]}"
		if [ "$status" = 0 ] && [ ! -s err ]; then
			mv out once
			jrun $mode <once
			[ "$status" = 0 ] && [ ! -s err ] && cmp -s once out && continue
		fi
		bad+="jenc $mode FILES | jenc $mode: not the same: exit status $status, $(cmp once out 2>&1 | head -n 1)"$'\n'
		for f in "${files[@]}"; do
			"$JENC" $mode "$f" >once 2>/dev/null
			jrun $mode <once
			[ "$status" = 0 ] && cmp -s once out ||
			    bad+="  ${f##*/}: jenc $mode | jenc $mode differs from jenc $mode"$'\n'
		done
	done
	"$JENC" -c "${files[@]}" >compact.out
	for mode in '' --indent=4 --tab --indent=16; do
		"$JENC" $mode "${files[@]}" >indented
		jrun -c <indented
		[ "$status" = 0 ] && cmp -s compact.out out && continue
		bad+="jenc $mode FILES | jenc -c differs from jenc -c FILES: exit status $status, $(cmp compact.out out 2>&1 | head -n 1)"$'\n'
		for f in "${files[@]}"; do
			"$JENC" -c "$f" >compact1 2>/dev/null
			"$JENC" $mode "$f" 2>/dev/null | "$JENC" -c >again 2>/dev/null
			cmp -s compact1 again ||
			    bad+="  ${f##*/}: jenc $mode | jenc -c differs from jenc -c"$'\n'
		done
	done
	[ -z "$bad" ] || fail "re-encoding is not a fixpoint:
$bad"
}
