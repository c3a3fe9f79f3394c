#!/usr/bin/env bats
# Output styles of JSON re-encoding: compact, indented (spaces, tab),
# -H and -a, verbatim numbers and escapes, empty containers.
# Expected bytes follow Go's json.Compact / json.Indent / json.HTMLEscape.

load helpers

setup() {
	setup_jenc
}

@test "-c removes every insignificant space" {
	put ' { "a" : [ 1 , 2 ] ,
	"b" : { } , "c" : "x y" } '
	jrun -c <in
	expect_ok '{"a":[1,2],"b":{},"c":"x y"}
'
}

@test "default output is json.Indent with two spaces" {
	put '{"a":[1,[2,{"b":null}],{}],"c":"d","e":[]}'
	jrun <in
	expect_status 0
	expect_err ''
	expect_out_doc <<'EOF'
{
  "a": [
    1,
    [
      2,
      {
        "b": null
      }
    ],
    {}
  ],
  "c": "d",
  "e": []
}
EOF
}

@test "empty containers stay [] and {} in every indented mode" {
	put '[ [ ] , { } , {"a":[ ],"b":{
}} ]'
	jrun <in
	expect_status 0
	expect_out_doc <<'EOF'
[
  [],
  {},
  {
    "a": [],
    "b": {}
  }
]
EOF
	jrun --tab <in
	expect_status 0
	expect_out $'[\n\t[],\n\t{},\n\t{\n\t\t"a": [],\n\t\t"b": {}\n\t}\n]\n'
	put '[]{} [ ] {
}'
	jrun <in
	expect_ok $'[]\n{}\n[]\n{}\n'
	jrun --indent=7 <in
	expect_ok $'[]\n{}\n[]\n{}\n'
}

@test "--indent=1, 4 and 16 indent by that many spaces per level" {
	put '{"a":[1,{"b":2}]}'
	jrun --indent=1 <in
	expect_ok $'{\n "a": [\n  1,\n  {\n   "b": 2\n  }\n ]\n}\n'
	jrun --indent=4 <in
	expect_ok $'{\n    "a": [\n        1,\n        {\n            "b": 2\n        }\n    ]\n}\n'
	jrun --indent=16 <in
	expect_status 0
	s16='                '
	expect_out "{
${s16}\"a\": [
${s16}${s16}1,
${s16}${s16}{
${s16}${s16}${s16}\"b\": 2
${s16}${s16}}
${s16}]
}
"
}

@test "--tab indents with one tab per level" {
	put '{"a":[1,{"b":2}],"c":{}}'
	jrun --tab <in
	expect_ok $'{\n\t"a": [\n\t\t1,\n\t\t{\n\t\t\t"b": 2\n\t\t}\n\t],\n\t"c": {}\n}\n'
}

@test "scalars at top level are written alone in every mode" {
	put '"s" 12 -1.5e3 true false null'
	for mode in -c --tab --indent=3 -l ''; do
		jrun $mode <in
		expect_ok $'"s"\n12\n-1.5e3\ntrue\nfalse\nnull\n'
	done
}

@test "numbers are copied verbatim" {
	put '[1.0, 1e400, -0, 1E+2, -0.0e-0, 0.5E-3, 123456789012345678901234567890, 1.000000000000000000000001]'
	jrun -c <in
	expect_ok '[1.0,1e400,-0,1E+2,-0.0e-0,0.5E-3,123456789012345678901234567890,1.000000000000000000000001]
'
	put '{"n":-0}'
	jrun <in
	expect_ok $'{\n  "n": -0\n}\n'
}

@test "string escapes are copied verbatim" {
	put '["\u00e9", "\/", "\u00E9", "\uD83D\uDE00", "\b\f\n\r\t\"\\", "\u0000", "\u001F", "\uDFAA"]'
	jrun -c <in
	expect_ok '["\u00e9","\/","\u00E9","\uD83D\uDE00","\b\f\n\r\t\"\\","\u0000","\u001F","\uDFAA"]
'
	jrun -c -H <in
	expect_ok '["\u00e9","\/","\u00E9","\uD83D\uDE00","\b\f\n\r\t\"\\","\u0000","\u001F","\uDFAA"]
'
	jrun -c -a <in
	expect_ok '["\u00e9","\/","\u00E9","\uD83D\uDE00","\b\f\n\r\t\"\\","\u0000","\u001F","\uDFAA"]
'
}

@test "raw UTF-8 in strings is copied unchanged without -a" {
	put $'{"\xc3\xa9":"\xc3\xa9\xf0\x9f\x98\x80\xe2\x80\xa8\xef\xbf\xbf\x7f"}'
	jrun -c <in
	expect_ok $'{"\xc3\xa9":"\xc3\xa9\xf0\x9f\x98\x80\xe2\x80\xa8\xef\xbf\xbf\x7f"}\n'
}

@test "-a writes é as \\u00e9 and 😀 as the pair \\ud83d\\ude00" {
	put '"é"'
	jrun -a <in
	expect_ok '"\u00e9"
'
	put '"😀"'
	jrun -a -c <in
	expect_ok '"\ud83d\ude00"
'
}

@test "-a escapes every non-ASCII character with lowercase hex, keys too" {
	# U+0080 U+00FF U+07FF U+0800 U+2028 U+FEFF U+FFFF U+10000 U+1F600 U+10FFFF
	putf '{"\xc3\xa9t\xc3\xa9":"a\xc2\x80\xc3\xbf\xdf\xbf\xe0\xa0\x80\xe2\x80\xa8\xef\xbb\xbf\xef\xbf\xbf\xf0\x90\x80\x80\xf0\x9f\x98\x80\xf4\x8f\xbf\xbfz"}'
	jrun -a -c <in
	expect_ok '{"\u00e9t\u00e9":"a\u0080\u00ff\u07ff\u0800\u2028\ufeff\uffff\ud800\udc00\ud83d\ude00\udbff\udfffz"}
'
}

@test "-a keeps existing escapes and ASCII, also when indenting" {
	put '{"k":["a\u00E9é\n\"","~\u007f"]}'
	jrun --ascii <in
	expect_ok '{
  "k": [
    "a\u00E9\u00e9\n\"",
    "~\u007f"
  ]
}
'
}

@test "-H escapes < > & U+2028 U+2029 in strings and keys" {
	putf '{"<k&>":"<a&b> \xe2\x80\xa8 \xe2\x80\xa9 \xc3\xa9"}'
	jrun -H -c <in
	expect_ok $'{"\\u003ck\\u0026\\u003e":"\\u003ca\\u0026b\\u003e \\u2028 \\u2029 \xc3\xa9"}\n'
	jrun --html-escape <in
	expect_ok $'{\n  "\\u003ck\\u0026\\u003e": "\\u003ca\\u0026b\\u003e \\u2028 \\u2029 \xc3\xa9"\n}\n'
}

@test "-H leaves escapes as written and escapes the raw byte after a backslash pair" {
	put '["\u003C\u0026", "\\<", "\\\\&", "\u2028"]'
	jrun -H -c <in
	expect_ok '["\u003C\u0026","\\\u003c","\\\\\u0026","\u2028"]
'
}

@test "-H -a together: HTML characters and non-ASCII are both escaped" {
	putf '"<\xc3\xa9>&\xe2\x80\xa8\xf0\x9f\x98\x80"'
	jrun -H -a -c <in
	expect_ok '"\u003c\u00e9\u003e\u0026\u2028\ud83d\ude00"
'
	jrun -a -H <in
	expect_ok '"\u003c\u00e9\u003e\u0026\u2028\ud83d\ude00"
'
}

@test "-l writes one compact value per line" {
	put '{"a": [1, 2]}
[ ]
 "x"  {"b" : {"c": null}}'
	jrun -l <in
	expect_ok '{"a":[1,2]}
[]
"x"
{"b":{"c":null}}
'
	jrun --lines -H <in
	expect_ok '{"a":[1,2]}
[]
"x"
{"b":{"c":null}}
'
}

@test "sample document in every style matches the expected files" {
	local s=$DATA/j_sample.json
	jrun -c "$s"
	expect_status 0
	same_bytes "$DATA/j_sample.c.out" out
	jrun "$s"
	expect_status 0
	same_bytes "$DATA/j_sample.i2.out" out
	jrun --indent=1 "$s"
	expect_status 0
	same_bytes "$DATA/j_sample.i1.out" out
	jrun --tab "$s"
	expect_status 0
	same_bytes "$DATA/j_sample.tab.out" out
	jrun -H -c "$s"
	expect_status 0
	same_bytes "$DATA/j_sample.Hc.out" out
	jrun -H "$s"
	expect_status 0
	same_bytes "$DATA/j_sample.H.out" out
	jrun -a -c "$s"
	expect_status 0
	same_bytes "$DATA/j_sample.ac.out" out
	jrun -a -H -c "$s"
	expect_status 0
	same_bytes "$DATA/j_sample.aHc.out" out
}

@test "sample expected files agree with Go's encoding/json" {
	need_go
	local s=$DATA/j_sample.json
	"$REF" -c <"$s" >ref.out
	same_bytes "$DATA/j_sample.c.out" ref.out "Go -c"
	"$REF" <"$s" >ref.out
	same_bytes "$DATA/j_sample.i2.out" ref.out "Go indent 2"
	"$REF" -i 1 <"$s" >ref.out
	same_bytes "$DATA/j_sample.i1.out" ref.out "Go indent 1"
	"$REF" -t <"$s" >ref.out
	same_bytes "$DATA/j_sample.tab.out" ref.out "Go tab"
	"$REF" -c -H <"$s" >ref.out
	same_bytes "$DATA/j_sample.Hc.out" ref.out "Go -c -H"
	"$REF" -H <"$s" >ref.out
	same_bytes "$DATA/j_sample.H.out" ref.out "Go -H"
}

@test "output is the same under C.UTF-8 as under C" {
	need_utf8_locale
	local mode
	for mode in -c '' -a '-a -H' --tab; do
		jrun $mode "$DATA/j_sample.json"
		expect_status 0
		mv out c.out
		LC_ALL=C.UTF-8 jrun $mode "$DATA/j_sample.json"
		expect_status 0
		expect_err ''
		same_bytes c.out out "output under C.UTF-8 ($mode)"
	done
	put '"é😀"'
	LC_ALL=C.UTF-8 jrun -a <in
	expect_ok '"\u00e9\ud83d\ude00"
'
}
