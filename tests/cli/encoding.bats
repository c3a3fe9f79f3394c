#!/usr/bin/env bats
# Input in other encodings: UTF-16 and UTF-32 byte order marks, --encoding,
# what a bad byte, a cut character and UTF-16 without a mark are told as,
# and that converted input gives the same output as its UTF-8 original.
#
# The inputs are made here the way the programs that write them do:
# Excel's "Unicode Text" (UTF-16LE, a byte order mark, tabs, CR LF),
# Windows PowerShell's Out-File (UTF-16LE with a mark, CR LF), and legacy
# single- and double-byte code pages through iconv(1).

load helpers

setup() {
	setup_jenc
	command -v iconv >/dev/null || fail "iconv(1) is needed (libc-bin)"
}

# to ENC FILE [MARK] - convert UTF-8 stdin to ENC into FILE, after the
# bytes MARK (printf format) if given.
to() {
	{
		[ -z "${3:-}" ] || printf "$3"
		iconv -f UTF-8 -t "$1"
	} >"$2"
}

@test "Excel Unicode Text: a UTF-16LE TSV with a byte order mark and CR LF" {
	printf 'name\tcity\tprice\r\nRen\xc3\xa9e\tK\xc3\xb6ln\t12,50 \xe2\x82\xac\r\n\xe6\x9d\xb1\xe4\xba\xac\t\xf0\x9f\x98\x80\t3\r\n' |
	    to UTF-16LE sheet.tsv '\377\376'
	[ "$(head -c 4 sheet.tsv | od -An -tx1)" = " ff fe 6e 00" ]
	jrun -c sheet.tsv
	expect_ok $'[{"name":"Ren\xc3\xa9e","city":"K\xc3\xb6ln","price":"12,50 \xe2\x82\xac"},{"name":"\xe6\x9d\xb1\xe4\xba\xac","city":"\xf0\x9f\x98\x80","price":"3"}]\n'
	# the same from a pipe, and with the encoding named
	jrun -c -f tsv <sheet.tsv
	expect_ok $'[{"name":"Ren\xc3\xa9e","city":"K\xc3\xb6ln","price":"12,50 \xe2\x82\xac"},{"name":"\xe6\x9d\xb1\xe4\xba\xac","city":"\xf0\x9f\x98\x80","price":"3"}]\n'
	mv out auto.out
	jrun -c --encoding=utf-16le sheet.tsv
	expect_status 0
	same_bytes auto.out out "--encoding=utf-16le (the mark kept by iconv, skipped)"
}

@test "PowerShell Out-File: UTF-16LE JSON with a byte order mark, CR LF, 4 spaces" {
	printf '{\r\n    "Name":  "caf\xc3\xa9",\r\n    "Tags":  [\r\n                 "\xe2\x82\xac",\r\n                 "\xe2\x98\x83"\r\n             ],\r\n    "Id":  7\r\n}\r\n' |
	    to UTF-16LE ps.json '\377\376'
	jrun -c ps.json
	expect_ok $'{"Name":"caf\xc3\xa9","Tags":["\xe2\x82\xac","\xe2\x98\x83"],"Id":7}\n'
	jrun --indent=1 <ps.json
	expect_ok $'{\n "Name": "caf\xc3\xa9",\n "Tags": [\n  "\xe2\x82\xac",\n  "\xe2\x98\x83"\n ],\n "Id": 7\n}\n'
	# -a: the output's escapes are of the characters, not of UTF-16
	jrun -c -a ps.json
	expect_ok $'{"Name":"caf\\u00e9","Tags":["\\u20ac","\\u2603"],"Id":7}\n'
}

@test "cp1252 CSV: accents, the euro sign and curly quotes" {
	# "Caf\xe9" and "\x80 4,50" and \x93...\x94 in Windows-1252
	printf 'item,price,note\r\nCaf\xe9,"\x80 4,50",\x93best\x94\r\nTh\xe9,\x80 3,\x85\r\n' >menu.csv
	jrun -c --encoding=cp1252 menu.csv
	expect_ok $'[{"item":"Caf\xc3\xa9","price":"\xe2\x82\xac 4,50","note":"\xe2\x80\x9cbest\xe2\x80\x9d"},{"item":"Th\xc3\xa9","price":"\xe2\x82\xac 3","note":"\xe2\x80\xa6"}]\n'
	printf 'item;price\r\nCaf\xe9;\x80 4,50\r\n' >menu.csv
	jrun -c -d ';' --encoding=CP1252 menu.csv
	expect_ok $'[{"item":"Caf\xc3\xa9","price":"\xe2\x82\xac 4,50"}]\n'
	jrun -c -f csv -d ';' --encoding=windows-1252 <menu.csv
	expect_ok $'[{"item":"Caf\xc3\xa9","price":"\xe2\x82\xac 4,50"}]\n'
	# without --encoding, the same file is not UTF-8
	jrun -c -d ';' menu.csv
	expect_invalid $'[]\n' 'jenc: menu.csv:2:4: invalid UTF-8 byte 0xe9
  Caf?;? 4,50
     ^
'
}

@test "latin1: every byte is a character, and JSON from it" {
	printf '{"k\xf6ln": "\xe0 bient\xf4t \xa9 \xff"}\n' >l1.json
	jrun -c --encoding=latin1 l1.json
	expect_ok $'{"k\xc3\xb6ln":"\xc3\xa0 bient\xc3\xb4t \xc2\xa9 \xc3\xbf"}\n'
	jrun -c --encoding=ISO-8859-1 <l1.json
	expect_ok $'{"k\xc3\xb6ln":"\xc3\xa0 bient\xc3\xb4t \xc2\xa9 \xc3\xbf"}\n'
	printf 'a,b\n\xe9,\xe8\n' >l1.csv
	jrun -c --encoding=latin1 -t l1.csv
	expect_ok $'[{"a":"\xc3\xa9","b":"\xc3\xa8"}]\n'
}

@test "shift_jis: JSON and CSV with kana and kanji" {
	printf '{"\xe5\x90\x8d\xe5\x89\x8d": "\xe3\x81\x82\xe3\x81\x84\xef\xbd\xb1", "n": 1}\n' |
	    to SHIFT_JIS sj.json
	# 名前 is 96 bc 91 4f, あい 82 a0 82 a2, the half-width ｱ b1
	[ "$(od -An -tx1 sj.json | tr -d ' \n')" = 7b2296bc914f223a202282a082a2b1222c20226e223a20317d0a ] ||
	    fail "not Shift_JIS: $(od -An -tx1 sj.json)"
	jrun -c --encoding=shift_jis sj.json
	expect_ok $'{"\xe5\x90\x8d\xe5\x89\x8d":"\xe3\x81\x82\xe3\x81\x84\xef\xbd\xb1","n":1}\n'
	printf '\xe5\x90\x8d,\xe5\x80\xa4\n\xe6\x9d\xb1\xe4\xba\xac,1\n' | to SJIS sj.csv
	jrun -c -t --encoding=sjis sj.csv
	expect_ok $'[{"\xe5\x90\x8d":"\xe6\x9d\xb1\xe4\xba\xac","\xe5\x80\xa4":1}]\n'
}

@test "UTF-32LE, UTF-32BE and UTF-16BE with a byte order mark, and utf-16 and utf-32 named" {
	local doc=$'{"a": ["\xc3\xa9", "\xf0\x9f\x98\x80", 1]}\n'
	local want=$'{"a":["\xc3\xa9","\xf0\x9f\x98\x80",1]}\n'
	printf '%s' "$doc" | to UTF-32LE 32le.json '\377\376\0\0'
	printf '%s' "$doc" | to UTF-32BE 32be.json '\0\0\376\377'
	printf '%s' "$doc" | to UTF-16BE 16be.json '\376\377'
	printf '%s' "$doc" | to UTF-16LE 16le.json '\377\376'
	for f in 32le.json 32be.json 16be.json 16le.json; do
		jrun -c "$f"
		expect_ok "$want"
		jrun -c <"$f"
		expect_ok "$want"
	done
	# utf-16 and utf-32 read the mark themselves
	jrun -c --encoding=utf-16 16le.json
	expect_ok "$want"
	jrun -c --encoding=UTF-32 32be.json
	expect_ok "$want"
	printf '%s' "$doc" | to UTF-16BE nomark.json
	jrun -c --encoding=utf-16be nomark.json
	expect_ok "$want"
}

@test "a byte not valid in the encoding: the exact report, exit 1, what came before written" {
	# 0x81 is undefined in cp1252; line 3, after 6 characters
	printf 'a,b\n\xe9,1\nn\xe9\xe9 x,\x81\n4,5\n' >bad.csv
	jrun -c --encoding=cp1252 bad.csv
	expect_invalid $'[{"a":"\xc3\xa9","b":"1"}]\n' $'jenc: bad.csv:3:7: invalid byte 0x81 for encoding cp1252
  n\xc3\xa9\xc3\xa9 x,...
        ^
'
	jrun -c -l -f csv --encoding=cp1252 <bad.csv
	expect_invalid $'{"a":"\xc3\xa9","b":"1"}\n' $'jenc: <stdin>:3:7: invalid byte 0x81 for encoding cp1252
  n\xc3\xa9\xc3\xa9 x,...
        ^
'
	# JSON: every value before the bad one is written, the one holding
	# the bad byte is not
	printf '[1]\n{"a": "\x81"}\n[2]\n' >bad.json
	jrun -c --encoding=cp1252 bad.json
	expect_invalid $'[1]\n' 'jenc: bad.json:2:8: invalid byte 0x81 for encoding cp1252
  {"a": "...
         ^
'
	# shift_jis: a lead byte with a trail byte that does not fit it;
	# column 8 in characters, the caret under it in display columns (あ
	# is two wide)
	printf '["\x82\xa0", "\x82\x20"]' >bad-sj.json
	jrun -c --encoding=shift_jis bad-sj.json
	expect_invalid '' $'jenc: bad-sj.json:1:8: invalid bytes 0x82 0x20 for encoding shift_jis
  ["\xe3\x81\x82", "...
          ^
'
	# UTF-16LE: a lone low surrogate (DC00) after two characters, with
	# the column in characters (the emoji is 4 bytes of UTF-16, one
	# character)
	{ printf '\377\376'; printf '[1,\n"\xf0\x9f\x98\x80\xc3\xa9' | iconv -f UTF-8 -t UTF-16LE;
	    printf '\000\334"\000]\000'; } >bad16.json
	jrun -c bad16.json
	expect_invalid '' $'jenc: bad16.json:2:4: invalid bytes 0x00 0xdc for encoding utf-16le
  "\xf0\x9f\x98\x80\xc3\xa9...
      ^
'
	jrun -c --encoding=utf-16le bad16.json
	expect_invalid '' $'jenc: bad16.json:2:4: invalid bytes 0x00 0xdc for encoding utf-16le
  "\xf0\x9f\x98\x80\xc3\xa9...
      ^
'
	# --on-error does not go on after it
	jrun -c --encoding=cp1252 --on-error=skip bad.json
	expect_invalid $'[1]\n' 'jenc: bad.json:2:8: invalid byte 0x81 for encoding cp1252
  {"a": "...
         ^
'
	# the bytes are never replaced (glibc's //IGNORE or //TRANSLIT)
	jrun -c --encoding=cp1252//IGNORE bad.json
	expect_usage "jenc: --encoding: unknown encoding 'cp1252//IGNORE'"
}

@test "a character cut by the end of the input: UTF-16 and UTF-32" {
	{ printf '\377\376'; printf '{"a": 1}\r\n[2' | iconv -f UTF-8 -t UTF-16LE; printf '3'; } >cut.json
	jrun -c cut.json
	expect_invalid $'{"a":1}\n' 'jenc: cut.json:2:3: incomplete character at end of input for encoding utf-16le, found byte 0x33
  [2
    ^
'
	# a high surrogate with no low one after it
	{ printf '\376\377'; printf '["x' | iconv -f UTF-8 -t UTF-16BE; printf '\330\075'; } >cut2.json
	jrun -c <cut2.json
	expect_invalid '' 'jenc: <stdin>:1:4: incomplete character at end of input for encoding utf-16be, found bytes 0xd8 0x3d
  ["x
     ^
'
	{ printf '\377\376\0\0'; printf 'a\tb\n1\t2\n' | iconv -f UTF-8 -t UTF-32LE; printf '\n\0\0'; } >cut.tsv
	jrun -c cut.tsv
	expect_invalid $'[{"a":"1","b":"2"}]\n' 'jenc: cut.tsv:3:1: incomplete character at end of input for encoding utf-32le, found bytes 0x0a 0x00 0x00
  
  ^
'
	# a mark and nothing after it, as a UTF-8 one
	printf '\377\376' >mark.json
	jrun mark.json
	expect_invalid '' 'jenc: mark.json:1:1: expected value after the byte order mark, found end of input
  
  ^
'
	printf '\377\376a\0' >odd.json
	jrun odd.json
	expect_invalid '' "jenc: odd.json:1:1: invalid literal 'a', expected true, false or null
  a
  ^
"
}

@test "UTF-16 and UTF-32 without a byte order mark are named, and read with --encoding" {
	local e
	for e in UTF-16LE UTF-16BE UTF-32LE UTF-32BE; do
		printf '{"a": 1}\n' | to "$e" in.json
		jrun in.json
		expect_status 1
		expect_out ''
		[ "$(head -n 1 err)" = "jenc: in.json:1:1: input looks like $e without a byte order mark; try --encoding=${e,,}" ] ||
		    fail "$e: $(cat err)"
		jrun -c "--encoding=${e,,}" in.json
		expect_ok $'{"a":1}\n'
		printf 'a,b\n1,2\n' | to "$e" in.csv
		jrun -c in.csv
		expect_status 1
		expect_out $'[]\n'
		[ "$(head -n 1 err)" = "jenc: in.csv:1:1: input looks like $e without a byte order mark; try --encoding=${e,,}" ] ||
		    fail "$e CSV: $(cat err)"
		jrun -c "--encoding=${e,,}" in.csv
		expect_ok $'[{"a":"1","b":"2"}]\n'
	done
	printf '[1]\n' | to UTF-16LE in.json
	jrun in.json
	expect_invalid '' 'jenc: in.json:1:1: input looks like UTF-16LE without a byte order mark; try --encoding=utf-16le
  [?1?]?
  ^
'
	# a two-byte input is UTF-16 too; three bytes with a NUL are not
	printf '1\0' >two.json
	jrun two.json
	expect_invalid '' 'jenc: two.json:1:1: input looks like UTF-16LE without a byte order mark; try --encoding=utf-16le
  1?
  ^
'
	printf '[\0]' >three.json
	jrun three.json
	expect_invalid '' "jenc: three.json:1:2: expected value or ']', found NUL byte
  [?]
   ^
"
}

@test "--encoding=utf-8 is the default, and a UTF-8 byte order mark works as before" {
	printf '\357\273\277{"a": "\xc3\xa9"}\n' >bom.json
	printf 'a,b\n\xc3\xa9,1\n' >u8.csv
	for enc in '' --encoding=utf-8 --encoding=UTF8 --encoding=Utf-8; do
		jrun -c $enc bom.json
		expect_ok $'{"a":"\xc3\xa9"}\n'
		jrun -c $enc u8.csv
		expect_ok $'[{"a":"\xc3\xa9","b":"1"}]\n'
	done
	printf '\357\273\277{,}' >bad.json
	jrun --encoding=utf-8 bad.json
	expect_invalid '' "jenc: bad.json:1:2: expected string key or '}', found ','
  {,}
   ^
"
	# UTF-16 with a mark is still recognized with --encoding=utf-8
	printf '[1]' | to UTF-16LE m16.json '\377\376'
	jrun -c --encoding=utf-8 m16.json
	expect_ok $'[1]\n'
}

@test "errors of the reader in converted input: lines, byte columns and excerpt of the UTF-8 text" {
	# line 2, after '  "é": ' (UTF-8 bytes: 2 + 1 + 2 + 1 + 1 + 1)
	printf '{\r\n  "\xc3\xa9": tru,\r\n}\r\n' | to UTF-16LE err.json '\377\376'
	jrun err.json
	expect_invalid '' $'jenc: err.json:2:9: invalid literal \'tru\', expected true, false or null\n    "\xc3\xa9": tru,\n         ^\n'
	jrun --encoding=utf-16le err.json
	expect_invalid '' $'jenc: err.json:2:9: invalid literal \'tru\', expected true, false or null\n    "\xc3\xa9": tru,\n         ^\n'
	# CSV lines end at a lone CR too, in converted input as in UTF-8
	printf 'a,b\r1,2\r"x\r' | to UTF-16BE cr.csv '\376\377'
	jrun -c cr.csv
	expect_invalid $'[{"a":"1","b":"2"}]\n' 'jenc: cr.csv:3:1: unterminated quoted field, opened here
  "x
  ^
'
	# and a bad byte after CR line ends is on the line CSV counts
	printf 'a,b\r1,2\r3,\x81\r' >cr1252.csv
	jrun -c --encoding=cp1252 cr1252.csv
	expect_invalid $'[{"a":"1","b":"2"}]\n' 'jenc: cr1252.csv:3:3: invalid byte 0x81 for encoding cp1252
  3,...
    ^
'
	# TSV lines end at LF only (the excerpt shows a tab as a space)
	printf 'a\tb\r1\t\x81\n' >cr.tsv
	jrun -c --encoding=cp1252 cr.tsv
	expect_invalid $'[]\n' 'jenc: cr.tsv:1:7: invalid byte 0x81 for encoding cp1252
  a b?1 ...
        ^
'
}

@test "unknown encoding: a usage error naming it, exit 2, before any input is read" {
	printf '[1]' >a.json
	jrun --encoding=klingon a.json
	expect_usage "jenc: --encoding: unknown encoding 'klingon'"
	jrun --encoding= a.json
	expect_usage "jenc: --encoding: unknown encoding ''"
	jrun --encoding=latin1//TRANSLIT a.json
	expect_usage "jenc: --encoding: unknown encoding 'latin1//TRANSLIT'"
	jrun a.json --encoding
	expect_usage "jenc: option '--encoding' needs a value"
	jrun --enc=latin1 -c a.json
	expect_ok $'[1]\n'
}

@test "--encoding applies to each FILE; marks are found in each" {
	printf '["\xe9"]\n' >a.json
	printf '["\xe8"]\n' >b.json
	printf 'x\n\xe0\n' >c.csv
	jrun -c --encoding=latin1 a.json b.json c.csv
	expect_ok $'["\xc3\xa9"]\n["\xc3\xa8"]\n[{"x":"\xc3\xa0"}]\n'
	# without it, each input on its own: UTF-16, UTF-8, UTF-32
	printf '["\xc3\xa9"]\n' | to UTF-16LE m1.json '\377\376'
	printf '["\xc3\xa8"]\n' >m2.json
	printf '["\xc3\xa0"]\n' | to UTF-32BE m3.json '\0\0\376\377'
	jrun -c m1.json m2.json m3.json
	expect_ok $'["\xc3\xa9"]\n["\xc3\xa8"]\n["\xc3\xa0"]\n'
	# a bad input does not stop the next one
	printf '[\x81]\n' >bad.json
	jrun -c --encoding=cp1252 bad.json a.json
	expect_invalid $'["\xc3\xa9"]\n' 'jenc: bad.json:1:2: invalid byte 0x81 for encoding cp1252
  [...
   ^
'
	jrun -s -c --encoding=latin1 a.json b.json
	expect_ok $'[["\xc3\xa9"],["\xc3\xa8"]]\n'
}

@test "-w writes a converted file back as UTF-8; --check lists it" {
	printf '{\n  "a": "\xc3\xa9"\n}\n' >want.json
	to UTF-16LE f.json '\377\376' <want.json
	cp f.json g.json
	jrun --check f.json
	expect_status 1
	expect_out $'f.json\n'
	jrun -w f.json
	expect_ok ''
	same_bytes want.json f.json "the rewritten file"
	jrun --check f.json
	expect_ok ''
	printf '{\n  "a": "\xe9"\n}\n' >h.json
	jrun -w --encoding=latin1 h.json
	expect_ok ''
	same_bytes want.json h.json "the rewritten latin1 file"
	# a bad byte: the file is left as it was
	printf '{"a": "\x81"}\n' >bad.json
	cp bad.json bad.orig
	jrun -w --encoding=cp1252 bad.json
	expect_status 1
	same_bytes bad.orig bad.json "the file with a bad byte"
}

@test "converted input arriving a byte at a time is read as a whole file is" {
	python3 - <<'PY'
doc = '{"a": ["\u00e9t\u00e9", "\U0001F600", "\u6771\u4eac"]}\n[1, 2]\n'
open("in.json", "wb").write(b"\xff\xfe" + doc.encode("utf-16-le"))
PY
	jrun -c in.json
	expect_ok $'{"a":["\xc3\xa9t\xc3\xa9","\xf0\x9f\x98\x80","\xe6\x9d\xb1\xe4\xba\xac"]}\n[1,2]\n'
	mv out file.out
	# one byte at a time, each once jenc has read the last and waits
	local i n pieces=()
	n=$(wc -c <in.json)
	for ((i = 0; i < n; i++)); do
		pieces+=("@in.json:$i:$((i + 1))")
	done
	feed pipe "${pieces[@]}" -- "$JENC" -c
	expect_status 0
	expect_err ''
	[ "$(awk '$1 == "reads" { print $2 }' stats)" -gt "$n" ] ||
	    fail "not a read per byte: $(tr '\n' ' ' <stats)"
	same_bytes file.out out "output of the input in single bytes"
}

@test "conversion is streaming: a large UTF-16 input in bounded memory" {
	python3 - <<'PY'
import sys
rec = '{"id": %d, "name": "Ren\u00e9e \u6771\u4eac \U0001F600", "v": [1, 2, 3]}\n'
with open("big.json", "wb") as f:
    f.write(b"\xff\xfe")
    for i in range(0, 200000, 1000):
        f.write("".join(rec % k for k in range(i, i + 1000)).encode("utf-16-le"))
PY
	[ "$(wc -c <big.json)" -gt 20000000 ]
	jrun -c big.json
	expect_status 0
	expect_err ''
	[ "$(wc -l <out)" = 200000 ]
	[ "$(sed -n 200000p out)" = $'{"id":199999,"name":"Ren\xc3\xa9e \xe6\x9d\xb1\xe4\xba\xac \xf0\x9f\x98\x80","v":[1,2,3]}' ] ||
	    fail "last line: $(tail -n 1 out)"
	[ -x /usr/bin/time ] || skip "GNU time is not installed (apt-get install time)"
	local kb
	kb=$(/usr/bin/time -f %M "$JENC" -c <big.json 2>&1 >/dev/null)
	echo "# peak RSS $kb KiB for $(wc -c <big.json) bytes of UTF-16" >&3
	grep -q __asan_init "$JENC" ||
	    [ "$kb" -lt 16384 ] || fail "peak RSS $kb KiB, expected under 16 MiB"
}

# same_converted ENC MARK ARGS... FILES... - for each UTF-8 FILE, FILE in
# ENC after the bytes MARK gives the same output and status as FILE
# itself, as a file and from a pipe; appends what differs to $bad.
same_converted() {
	local enc=$1 mark=$2 f
	shift 2
	for f in "$@"; do
		"$JENC" -c "$f" >want.out 2>want.err
		local ws=$?
		{ printf "$mark"; iconv -f UTF-8 -t "$enc" "$f"; } >conv.in ||
		    { bad+="$f: iconv -t $enc failed"$'\n'; continue; }
		"$JENC" -c -f json conv.in >got.out 2>got.err
		local gs=$?
		if [ $gs != $ws ] || ! cmp -s want.out got.out; then
			bad+="${f##*/} in $enc: exit $gs (UTF-8: $ws), $(cmp want.out got.out 2>&1 | head -n 1)"$'\n'
			continue
		fi
		"$JENC" -c <conv.in >got.out 2>/dev/null
		cmp -s want.out got.out ||
		    bad+="${f##*/} in $enc from a pipe: $(cmp want.out got.out 2>&1 | head -n 1)"$'\n'
	done
}

@test "property: every UTF-8 corpus and y_ file in UTF-16LE/BE and UTF-32LE/BE with a mark gives the same output" {
	need_shared
	local files=() f bad=''
	mapfile -t files < <(corpus_files)
	for f in "$SUITE"/y_*.json; do
		# iconv takes only UTF-8: leave out the y_ files that are not
		# (none today), and those holding a UTF-8 BOM already
		iconv -f UTF-8 -t UTF-8 "$f" >/dev/null 2>&1 || continue
		files+=("$f")
	done
	[ "${#files[@]}" -ge 95 ] || fail "${#files[@]} files"
	same_converted UTF-16LE '\377\376' "${files[@]}"
	same_converted UTF-16BE '\376\377' "${files[@]}"
	same_converted UTF-32LE '\377\376\0\0' "${files[@]}"
	same_converted UTF-32BE '\0\0\376\377' "${files[@]}"
	[ -z "$bad" ] || fail "converted input differs:
$bad"
}

@test "property: every csv-spectrum file in UTF-16LE/BE and UTF-32LE with a mark gives the same output" {
	need_shared
	local spec=$SHARED/conformance/csv-spectrum/csvs f enc mark bad='' n=0
	[ -d "$spec" ] || skip "csv-spectrum not found at $spec"
	for f in "$spec"/*.csv; do
		n=$((n + 1))
		"$JENC" -c "$f" >want.out 2>want.err
		local ws=$?
		for enc in UTF-16LE UTF-16BE UTF-32LE; do
			case $enc in
			UTF-16LE) mark='\377\376' ;;
			UTF-16BE) mark='\376\377' ;;
			UTF-32LE) mark='\377\376\0\0' ;;
			esac
			{ printf "$mark"; iconv -f UTF-8 -t $enc "$f"; } >conv.csv
			"$JENC" -c conv.csv >got.out 2>got.err
			local gs=$?
			[ $gs = $ws ] && cmp -s want.out got.out ||
			    bad+="${f##*/} in $enc: exit $gs (UTF-8: $ws), $(cmp want.out got.out 2>&1 | head -n 1)"$'\n'
		done
	done
	[ "$n" -gt 5 ] || fail "$n csv-spectrum files"
	[ -z "$bad" ] || fail "converted CSV differs:
$bad"
}

@test "encodings that compose: the last character is written at the end of the input" {
	# cp1258 and tcvn hold a letter back in case a combining mark follows
	run bash -c 'printf "a,b\nc,d" | "$JENC" -f csv -c --encoding=cp1258'
	[ "$status" -eq 0 ]
	[ "$output" = '[{"a":"c","b":"d"}]' ]
	run bash -c 'printf "\"a\xcc\"" | "$JENC" -c --encoding=cp1258'
	[ "$status" -eq 0 ]
	[ "$output" = '"à"' ]
	run bash -c 'printf "[\"x\"]\n[\"y\"]" | "$JENC" -c --encoding=tcvn'
	[ "$status" -eq 0 ]
	[ "$output" = '["x"]
["y"]' ]
}
