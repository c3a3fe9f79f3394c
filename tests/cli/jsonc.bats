#!/usr/bin/env bats
# --jsonc: JSON with comments and trailing commas read as strict JSON in
# every layout, error positions after comments, the unterminated comment,
# -w and --check, --on-error, --validate, streams and several files; and
# the hints of the errors without it (comments, trailing commas, CSV).

load helpers

setup() {
	setup_jenc
}

# A tsconfig.json as TypeScript writes it: comments of both kinds, a URL
# and a glob with "/*" in strings, trailing commas.
tsconfig() {
	cat >tsconfig.json <<'EOF'
{
  /* Visit https://aka.ms/tsconfig to read more about this file */
  "compilerOptions": {
    "target": "es2016", // "es5" for old browsers
    "module": "commonjs",
    /* "rootDir": "./src", */
    "paths": { "@app/*": ["src/app/*",], },
    "strict": true,
  },
  "include": ["src/**/*.ts", "http://x//y"],
}
EOF
}

# A VS Code settings.json: line comments, a block comment over lines,
# trailing commas, "//" and "/*" inside strings.
settings() {
	cat >settings.json <<'EOF'
// Place your settings in this file to overwrite the defaults
{
	"editor.fontSize": 14, // points
	/*
	 * "editor.tabSize": 8,
	 */
	"http.proxy": "http://proxy.example:3128/",
	"files.exclude": {
		"**/.git": true,
		"**/*.o": true,
	},
	"comment": "not /* a */ comment // at all",
}
EOF
}

@test "a tsconfig.json: compact and indented, exact bytes" {
	tsconfig
	jrun --jsonc -c tsconfig.json
	expect_ok '{"compilerOptions":{"target":"es2016","module":"commonjs","paths":{"@app/*":["src/app/*"]},"strict":true},"include":["src/**/*.ts","http://x//y"]}
'
	jrun --jsonc tsconfig.json
	expect_status 0
	expect_err ''
	expect_out_doc <<'EOF'
{
  "compilerOptions": {
    "target": "es2016",
    "module": "commonjs",
    "paths": {
      "@app/*": [
        "src/app/*"
      ]
    },
    "strict": true
  },
  "include": [
    "src/**/*.ts",
    "http://x//y"
  ]
}
EOF
}

@test "a VS Code settings.json: compact, tab, standard input" {
	settings
	local want='{"editor.fontSize":14,"http.proxy":"http://proxy.example:3128/","files.exclude":{"**/.git":true,"**/*.o":true},"comment":"not /* a */ comment // at all"}
'
	jrun --jsonc -c settings.json
	expect_ok "$want"
	jrun --jsonc -c <settings.json
	expect_ok "$want"
	jrun --jsonc --tab settings.json
	expect_ok $'{\n\t"editor.fontSize": 14,\n\t"http.proxy": "http://proxy.example:3128/",\n\t"files.exclude": {\n\t\t"**/.git": true,\n\t\t"**/*.o": true\n\t},\n\t"comment": "not /* a */ comment // at all"\n}\n'
}

@test "every layout: -H, -a, -S, --split, -s, -l, colors" {
	put '[ /* a */ {"b": "<é>", "a": 1,}, // c
	  2, ]'
	jrun --jsonc -c -H in
	expect_ok '[{"b":"\u003cé\u003e","a":1},2]
'
	jrun --jsonc -c -a in
	expect_ok '[{"b":"<\u00e9>","a":1},2]
'
	jrun --jsonc -c -S in
	expect_ok '[{"a":1,"b":"<é>"},2]
'
	jrun --jsonc -c --split in
	expect_ok '{"b":"<é>","a":1}
2
'
	jrun --jsonc -c -s in in
	expect_ok '[[{"b":"<é>","a":1},2],[{"b":"<é>","a":1},2]]
'
	jrun --jsonc -l in
	expect_ok '[{"b":"<é>","a":1},2]
'
	jrun --jsonc -c -C in
	jrun_plain=$(cat out)
	JENC_COLORS= jrun --jsonc -c -C in
	expect_status 0
	[ "$(sed 's/\x1b\[[0-9;]*m//g' out)" = '[{"b":"<é>","a":1},2]' ] ||
	    fail "colored output less its escapes: $(od -c out | head)"
	grep -q $'\x1b\\[' out || fail "no color escapes: $jrun_plain"
}

@test "error positions after comments: line and column exact" {
	settings
	printf '\t"bad" 1\n}\n' >>settings.json
	# after the document's closing brace on line 14: two values, a '}'
	jrun --jsonc -c settings.json
	expect_invalid $'{"editor.fontSize":14,"http.proxy":"http://proxy.example:3128/","files.exclude":{"**/.git":true,"**/*.o":true},"comment":"not /* a */ comment // at all"}\n"bad"\n1\n' "jenc: settings.json:15:1: expected value or end of input, found '}'
  }
  ^
"
	put '{
  /* one
     two */ "a": 1, // x
  "b" 2
}'
	jrun --jsonc -c in
	expect_invalid '' "jenc: in:4:7: expected ':' after object key, found '2'
    \"b\" 2
        ^
"
	put '[1, /* c */ x]'
	jrun --jsonc -c in
	expect_invalid '' "jenc: in:1:13: invalid literal 'x', expected true, false or null
  [1,         x]
              ^
"
}

@test "comments and trailing commas left as errors: a lone '/', misplaced commas" {
	put '[1, / 2]'
	jrun --jsonc -c in
	expect_invalid '' "jenc: in:1:5: expected value after ',', found '/'
  [1, / 2]
      ^
"
	put '{"a": 1}/'
	jrun --jsonc -c in
	expect_invalid $'{"a":1}\n' "jenc: in:1:9: expected value or end of input, found '/'
  {\"a\": 1}/
          ^
"
	put '[,]'
	jrun --jsonc -c in
	expect_invalid '' "jenc: in:1:2: expected value or ']', found ','
  [,]
   ^
"
	put '[1,,]'
	jrun --jsonc -c in
	expect_invalid '' "jenc: in:1:4: expected value after ',', found ','
  [1,,]
     ^
"
}

@test "an unterminated comment: reported at its start" {
	put $'{"a": 1}\n/* open\n\n'
	jrun --jsonc -c in
	expect_invalid $'{"a":1}\n' "jenc: in:2:1: unterminated comment, found end of input
  /* open
  ^
"
	put $'[1,\n  /* open */ 2, /* and'
	jrun --jsonc -c <in
	# the excerpt shows the closed comment as spaces
	expect_invalid '' "jenc: <stdin>:2:17: unterminated comment, found end of input
               2, /* and
                  ^
"
}

@test "without --jsonc: the hints, exact text" {
	settings
	jrun -c settings.json
	expect_invalid '' "jenc: settings.json:1:1: expected value or end of input, found '/' (JSON with comments? try --jsonc)
  // Place your settings in this file to overwrite the defaults
  ^
"
	put '{"a": 1 /* x */}'
	jrun -c in
	expect_invalid '' "jenc: in:1:9: expected ',' or '}' after object member, found '/' (JSON with comments? try --jsonc)
  {\"a\": 1 /* x */}
          ^
"
	put '[1, 2,]'
	jrun -c in
	expect_invalid '' "jenc: in:1:7: expected value after ',', found ']' (trailing comma? try --jsonc)
  [1, 2,]
        ^
"
	put $'{"a": 1,\n}'
	jrun -c in
	expect_invalid '' "jenc: in:2:1: expected string key after ',', found '}' (trailing comma? try --jsonc)
  }
  ^
"
	# a '/' that starts no comment gets no hint
	put '[1/2]'
	jrun -c in
	expect_invalid '' "jenc: in:1:3: expected ',' or ']' after array element, found '/'
  [1/2]
    ^
"
}

@test "CSV given as JSON: the hint, exact text" {
	put $'a,b\n1,2\n'
	jrun <in
	expect_invalid '' "jenc: <stdin>:1:1: invalid literal 'a', expected true, false or null (is it CSV? try -f csv)
  a,b
  ^
"
	put $'name;age\nbob;42\n'
	jrun in
	expect_invalid '' "jenc: in:1:1: invalid literal 'name', expected true, false or null (is it CSV? try -f csv)
  name;age
  ^
"
	put $'"id"|"name"\n1|"x"\n'
	jrun in
	expect_invalid '"id"
' "jenc: in:1:5: expected value or end of input, found '|' (is it CSV? try -f csv)
  \"id\"|\"name\"
      ^
"
	putf '1\t2\tx\n'
	jrun -c in
	expect_invalid $'1\n2\n' "jenc: in:1:5: invalid literal 'x', expected true, false or null (is it CSV? try -f csv)
  1 2 x
      ^
"
	# JSON structure on the first line, a delimiter only in a string, an
	# error on a later line: no hint
	put '{"a": 1, b}'
	jrun -c in
	expect_invalid '' "jenc: in:1:10: expected string key after ',', found 'b'
  {\"a\": 1, b}
           ^
"
	put '"a,b" x'
	jrun -c in
	expect_invalid $'"a,b"\n' "jenc: in:1:7: invalid literal 'x', expected true, false or null
  \"a,b\" x
        ^
"
	put $'1\nx,y\n'
	jrun -c in
	expect_invalid $'1\n' "jenc: in:2:1: invalid literal 'x', expected true, false or null
  x,y
  ^
"
	# tabs and spaces only are whitespace, not a record: no hint
	putf '\t \t'
	jrun --single in
	expect_invalid '' "jenc: in:1:4: expected value, found end of input
     
     ^
"
	# what -f csv then does
	put $'a,b\n1,2\n'
	jrun -f csv -c in
	expect_ok '[{"a":"1","b":"2"}]
'
}

@test "CSV given as JSON: the hint reads 1 KiB of the line past the error, however it comes" {
	# A '[' on the first line says it is not CSV, but only within the
	# 1 KiB past the error that the reader reads of it from a pipe too:
	# the same message from a file, a pipe and a slow pipe.
	local a1000 a2000
	a1000=$(printf '%01000d' 0 | tr 0 a)
	a2000=$a1000$a1000
	local excerpt="  x,aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...
  ^
"
	put "x,$a1000["
	jrun -c in
	expect_invalid '' "jenc: in:1:1: invalid literal 'x', expected true, false or null
$excerpt"
	put "x,$a2000["
	jrun -c in
	expect_invalid '' "jenc: in:1:1: invalid literal 'x', expected true, false or null (is it CSV? try -f csv)
$excerpt"
	JCMD="cat in | jenc -c"
	status=0
	cat in | "$JENC" -c >"$T/out" 2>"$T/err" || status=$?
	expect_invalid '' "jenc: <stdin>:1:1: invalid literal 'x', expected true, false or null (is it CSV? try -f csv)
$excerpt"
	# 1500 bytes, then the rest once jenc waits for it
	feed pipe @in:0:1500 @in:1500: -- "$JENC" -c
	expect_invalid '' "jenc: <stdin>:1:1: invalid literal 'x', expected true, false or null (is it CSV? try -f csv)
$excerpt"
}

@test "CSV given as JSON: the hint needs the error within 256 bytes of the first line's start" {
	# Only then does every window still hold the line's start, however
	# the input comes: a pipe that pauses has dropped the values before.
	local v1000 a253
	v1000=$(printf '"x" %.0s' $(seq 1000))
	a253=$(printf '%0253d' 0 | tr 0 a)
	put "\"a$a253\",b"
	jrun -c in
	expect_status 1
	[ "$(head -n 1 "$T/err")" = "jenc: in:1:257: expected value or end of input, found ',' (is it CSV? try -f csv)" ] ||
	    fail "$(cat "$T/err")"
	put "\"aa$a253\",b"
	jrun -c in
	expect_status 1
	[ "$(head -n 1 "$T/err")" = "jenc: in:1:258: expected value or end of input, found ','" ] ||
	    fail "$(cat "$T/err")"
	put "${v1000}zz,b"
	jrun -c in
	expect_status 1
	[ "$(head -n 1 "$T/err")" = "jenc: in:1:4001: invalid literal 'zz', expected true, false or null" ] ||
	    fail "$(cat "$T/err")"
	[ "$(grep -c -x '"x"' "$T/out")" = 1000 ] && [ "$(wc -l < "$T/out")" = 1000 ] ||
	    fail "the 1000 values before the error: $(wc -l < "$T/out") lines"
	# 3000 bytes, then the rest once jenc waits for it
	feed pipe @in:0:3000 @in:3000: -- "$JENC" -c
	expect_status 1
	[ "$(head -n 1 "$T/err")" = "jenc: <stdin>:1:4001: invalid literal 'zz', expected true, false or null" ] ||
	    fail "$(cat "$T/err")"
	[ "$(grep -c -x '"x"' "$T/out")" = 1000 ] && [ "$(wc -l < "$T/out")" = 1000 ] ||
	    fail "the 1000 values before the error: $(wc -l < "$T/out") lines"
}

@test "-w rewrites a jsonc file as strict JSON; --check lists it" {
	tsconfig
	settings
	jrun --jsonc --check tsconfig.json settings.json
	expect_status 1
	expect_out $'tsconfig.json\nsettings.json\n'
	jrun --jsonc -w -c tsconfig.json settings.json
	expect_ok ''
	[ "$(cat tsconfig.json)" = '{"compilerOptions":{"target":"es2016","module":"commonjs","paths":{"@app/*":["src/app/*"]},"strict":true},"include":["src/**/*.ts","http://x//y"]}' ] ||
	    fail "tsconfig.json: $(cat tsconfig.json)"
	[ "$(cat settings.json)" = '{"editor.fontSize":14,"http.proxy":"http://proxy.example:3128/","files.exclude":{"**/.git":true,"**/*.o":true},"comment":"not /* a */ comment // at all"}' ] ||
	    fail "settings.json: $(cat settings.json)"
	# strict now: nothing to check, in --jsonc or not
	jrun --jsonc --check -c tsconfig.json settings.json
	expect_ok ''
	jrun --check -c tsconfig.json settings.json
	expect_ok ''
	# a file with an unterminated comment is left as it was
	put $'{"a": 1} /* x'
	cp in in.orig
	jrun --jsonc -w in
	expect_status 1
	expect_err "jenc: in:1:10: unterminated comment, found end of input
  {\"a\": 1} /* x
           ^
"
	same_bytes in.orig in
}

@test "--validate, --on-error, NDJSON streams and several files" {
	settings
	jrun --jsonc --validate settings.json
	expect_ok ''
	jrun --validate settings.json
	expect_invalid '' "jenc: settings.json:1:1: expected value or end of input, found '/' (JSON with comments? try --jsonc)
  // Place your settings in this file to overwrite the defaults
  ^
"
	put $'{"a": 1} // first\n{"b": [2,]} /* second */\n{"c" 3} // bad\n/* multi\n line */ {"d": 4,}\n'
	jrun --jsonc -c in
	expect_invalid $'{"a":1}\n{"b":[2]}\n' "jenc: in:3:6: expected ':' after object key, found '3'
  {\"c\" 3}       
       ^
"
	jrun --jsonc -c --on-error=skip in
	expect_status 0
	expect_out $'{"a":1}\n{"b":[2]}\n{"d":4}\n'
	expect_err "jenc: in:3:6: expected ':' after object key, found '3'
  {\"c\" 3}       
       ^
jenc: 1 invalid line skipped
"
	printf '[1, // a\n 2,]\n' >a.json
	printf '/* b */ {"x": null,}\n' >b.json
	jrun --jsonc -c a.json b.json
	expect_ok $'[1,2]\n{"x":null}\n'
}

@test "--on-error=skip after an unterminated comment goes on at the next line" {
	put $'{"a": 1}\n{"b": /* open\n{"c": 3}\n'
	jrun --jsonc -c --on-error=skip in
	expect_status 0
	expect_out $'{"a":1}\n{"c":3}\n'
	expect_err "jenc: in:2:7: unterminated comment, found end of input
  {\"b\": /* open
        ^
jenc: 1 invalid line skipped
"
}

@test "a comment or a trailing comma across the ends of reads" {
	# a pipe written a few bytes at a time, each piece once jenc has
	# read the last and waits
	feed pipe '[1, /' '* a *' '/ /' '/ b' '\n' ' 2,' '  ' ' ]' \
	    ' {"u": "http:/' '/x",' '}' -- "$JENC" --jsonc -c
	expect_ok $'[1,2]\n{"u":"http://x"}\n'
}

# The bad text is longer than a pipe holds: the reader reads on past the
# window to find its end, and what it read is blanked as the rest.
@test "--on-error=pass: the comments of a long bad text, all of them blanked" {
	local n=60000
	{
		printf '{"a": x,\n'
		yes '  1, // c' | head -n "$n"
		printf '}\n[1]\n'
	} >"$T/in"
	{
		printf '{"a": x,\n'
		yes '  1,     ' | head -n $((n - 1))
		printf '  1      \n}\n[1]\n'
	} >"$T/want"
	status=0
	"$JENC" --jsonc -c --on-error=pass <"$T/in" >"$T/out" 2>"$T/err" ||
	    status=$?
	expect_status 0
	same_bytes "$T/want" "$T/out" stdout
	status=0
	cat "$T/in" | "$JENC" --jsonc -c --on-error=pass >"$T/out" \
	    2>"$T/err" || status=$?
	expect_status 0
	same_bytes "$T/want" "$T/out" stdout
	expect_err "jenc: $((n + 2)) invalid lines passed through
"
}
