#!/usr/bin/env bats
# --to=csv and --to=tsv: records to rows; the columns from --header, from
# a first pass over a file (or a regular standard input), from the first
# record of a pipe; flattening and --flatten-sep; cells, quoting, --crlf,
# -d, TSV escapes, --csv-safe;
# records that are not objects and the writer's own errors, with
# --on-error=skip; the options refused; --nest on the way back; Python's
# csv module reading the output; and tocsv_diff.py, random records there
# and back.

load helpers

setup() {
	setup_jenc
}

@test "--to=csv: the columns of a file are every key of every record, in order" {
	printf '{"a":1,"b":"x"}\n{"c":true,"a":2}\n{"b":"y","d":null}\n' >in.json
	jrun --to=csv in.json
	expect_ok 'a,b,c,d
1,x,,
2,,true,
,y,,
'
	# the elements of a top-level array are the records too
	printf '[{"a":1,"b":"x"},\n {"c":true,"a":2}]\n' >arr.json
	jrun --to=csv arr.json
	expect_ok 'a,b,c
1,x,
2,,true
'
	# the standard input when it is a regular file, from where it stands
	jrun --to=csv <in.json
	expect_ok 'a,b,c,d
1,x,,
2,,true,
,y,,
'
	{ read -r _; "$JENC" --to=csv >out2; } <in.json
	printf 'c,a,b,d\ntrue,2,,\n,,y,\n' >want2
	same_bytes want2 out2
	# an array after objects: its elements are records, its keys columns
	printf '{"a":1}\n[{"b":2},\n {"a":3}]\n{"c":4}\n' >mix.json
	jrun --to=csv mix.json
	expect_ok 'a,b,c
1,,
,2,
3,,
,,4
'
	# several files: one header, the keys of all of them
	printf '{"z":0}\n' >z.json
	jrun --to=csv in.json z.json
	expect_ok 'a,b,c,d,z
1,x,,,
2,,true,,
,y,,,
,,,,0
'
}

@test "--to=csv from a pipe: the first record's keys; another key is an error" {
	printf '{"a":1,"b":2}\n{"b":3}\n{"a":4,"c":5}\n{"a":6}\n' >in
	jrun --to=csv < <(cat in)
	expect_invalid 'a,b
1,2
,3
' "jenc: <stdin>:3:13: key 'c' is not a column: the columns are the first record's (give --header, a file, or --ragged=pad)
  {\"a\":4,\"c\":5}
              ^
"
	jrun --to=csv --ragged=pad < <(cat in)
	expect_status 0
	expect_out 'a,b
1,2
,3
4,
6,
'
	expect_err 'jenc: 1 key not among the columns dropped
'
	jrun --to=csv --ragged=pad -q < <(cat in)
	expect_status 0
	expect_err ''
	# skipped as bad input, the others written
	jrun --to=csv --on-error=skip < <(cat in)
	expect_status 0
	expect_out 'a,b
1,2
,3
6,
'
}

@test "--header chooses and orders the columns; --no-header drops the line" {
	printf '{"a":1,"b":{"c":2,"d":3},"e":4}\n{"e":5}\n' >in
	jrun --to=csv --header=e,b.c,zz <in
	expect_ok 'e,b.c,zz
4,2,
5,,
'
	jrun --to=csv --header=e,a --no-header <in
	expect_ok '4,1
5,
'
	jrun --to=tsv --no-header <in
	expect_ok '1	2	3	4
			5
'
	# no record: the header line alone, when the columns are known
	: >empty
	jrun --to=csv --header=x,y <empty
	expect_ok 'x,y
'
	jrun --to=csv <empty
	expect_ok ''
}

@test "nested objects are flattened, arrays and {} are JSON cells" {
	printf '{"id":1,"u":{"n":"A","adr":{"city":"Oslo"}},"t":[1,{"x":"y"}],"m":{}}\n' >in
	jrun --to=csv <in
	expect_ok 'id,u.n,u.adr.city,t,m
1,A,Oslo,"[1,{""x"":""y""}]",{}
'
	jrun --to=csv --flatten-sep=/ <in
	expect_ok 'id,u/n,u/adr/city,t,m
1,A,Oslo,"[1,{""x"":""y""}]",{}
'
	jrun --to=csv --flatten-sep=:: <in
	expect_ok 'id,u::n,u::adr::city,t,m
1,A,Oslo,"[1,{""x"":""y""}]",{}
'
	# a key holding the separator is taken as it is ...
	put '{"u.n":1,"v":2}'
	jrun --to=csv <in
	expect_ok 'u.n,v
1,2
'
	# ... and two members that fill one column are bad input
	printf '{"a":0}\n{"a.b":1,"a":{"b":2}}\n{"a":3,"a":4}\n{"a":5}\n' >in.json
	jrun --to=csv in.json
	expect_invalid 'a,a.b
0,
' "jenc: in.json:2:21: two values for column 'a.b' in one record (a duplicate key, or a key holding the separator '.')
  {\"a.b\":1,\"a\":{\"b\":2}}
                      ^
"
	# (skipped, such a record names no column)
	jrun --to=csv --on-error=skip -q in.json
	expect_ok 'a
0
5
'
	# from a pipe, a key that is not a column is dropped before it can
	# clash with another
	jrun --to=csv --ragged=pad -q --on-error=skip < <(cat in.json)
	expect_ok 'a
0
""
5
'
}

@test "empty keys and a lone empty cell" {
	# (an empty key is an empty name; a name's buffers start empty)
	printf '{"":1,"a":{"":2}}\n' >in
	jrun --to=csv <in
	expect_ok ',a.
1,2
'
	# a line of one empty cell would read as no line: quoted
	printf '{"":""}\n{"":"x"}\n' >in
	jrun --to=csv <in
	expect_ok '""
""
x
'
	"$JENC" -f csv -c out >back
	printf '[{"_1":""},{"_1":"x"}]\n' >want
	same_bytes want back
}

@test "a first line that -f csv would misread: its first cell quoted" {
	# (the CSV reader took sep=X for the delimiter and dropped it: the
	# column's name was lost and the row became the header)
	printf '{"sep=;":"x;y"}\n' >in
	jrun --to=csv <in
	expect_ok '"sep=;"
x;y
'
	cp out back.csv
	jrun -c back.csv
	expect_ok '[{"sep=;":"x;y"}]
'
	# any case, and the first row with --no-header; only the first line
	printf '{"a":"SeP=|"}\n{"a":"sep=|"}\n' >in
	jrun --to=csv --no-header <in
	expect_ok '"SeP=|"
sep=|
'
	printf 'x\n{"sep=|":1}\n' >in
	jrun --to=csv --on-error=pass <in
	expect_status 0
	expect_out 'x
sep=|
1
'
	# two cells, "sep=" and "": the first alone is quoted
	printf '{"sep=":1,"":2}\n' >in
	jrun --to=csv <in
	expect_ok '"sep=",
1,2
'
	# TSV has no sep= line
	printf '{"sep=;":1}\n' >in
	jrun --to=tsv <in
	expect_ok 'sep=;
1
'
	# (one column named with a ';', '|' or tab and no comma: the reader
	# split the header, and then each row, at it)
	printf '{"a;b":"1;2"}\n{"a;b":"3|4"}\n' >in
	jrun --to=csv <in
	expect_ok '"a;b"
1;2
3|4
'
	cp out back.csv
	jrun -c back.csv
	expect_ok '[{"a;b":"1;2"},{"a;b":"3|4"}]
'
	printf '{"a\\tb":1}\n{"a\\tb":2}\n' >in
	jrun --to=csv --no-header <in
	expect_ok '1
2
'
	jrun --to=csv <in
	expect_ok '"a	b"
1
2
'
	# U+FEFF first: not a byte order mark to skip
	printf '{"\\ufeffa":1,"b":2}\n' >in
	jrun --to=csv <in
	expect_ok "\"$(printf '\357\273\277')a\",b
1,2
"
	cp out back.csv
	jrun -c back.csv
	expect_ok "[{\"$(printf '\357\273\277')a\":\"1\",\"b\":\"2\"}]
"
	# no column: an empty header line and an empty row (and, under
	# UBSan, no arithmetic on the row buffer not yet allocated)
	printf '{}\n' >in
	jrun --to=csv <in
	expect_ok '

'
	# two columns: the comma decides, nothing to quote
	printf '{"a;b":1,"c":2}\n' >in
	jrun --to=csv <in
	expect_ok 'a;b,c
1,2
'
}

@test "cells: strings decoded, numbers verbatim, literals, null empty" {
	printf '{"s":"x\\ny \\u00e9\\ud83d\\ude00","n":[1.0],"h":1.0,"i":1e400,"j":-100000000000000000001,"t":true,"f":false,"z":null,"e":""}\n' >in
	jrun --to=csv <in
	expect_ok 's,n,h,i,j,t,f,z,e
"x
y é😀",[1.0],1.0,1e400,-100000000000000000001,true,false,,
'
	# a lone surrogate is no text (the first pass, which a regular
	# standard input has, stops at it as the rows do: no column known)
	printf '{"s":"a\\ud800b"}\n' >in
	jrun --to=csv <in
	expect_invalid '' "jenc: <stdin>:1:16: the value of 's' holds a lone surrogate, which is not text
  {\"s\":\"a\\ud800b\"}
                 ^
"
}

@test "U+0000 in a string is written as its NUL byte, which -f csv refuses" {
	printf '{"a":"x\\u0000y"}\n' >in
	jrun --to=csv <in
	expect_status 0
	expect_err ''
	printf 'a\nx\0y\n' >want
	same_bytes want out
	cp out n.csv
	jrun n.csv
	expect_invalid '[]
' 'jenc: n.csv:2:2: NUL byte in input
  x?y
   ^
'
}

@test "CSV quotes only what RFC 4180 asks; -d and --crlf" {
	printf '{"a":"p,q","b":"say \\"hi\\"","c":" lead","d":"trail ","e":"cr\\rx","f":"plain; text","g":"tab\\tx"}\n' >in
	jrun --to=csv <in
	expect_ok 'a,b,c,d,e,f,g
"p,q","say ""hi"""," lead","trail ","cr'$'\r''x",plain; text,tab'$'\t''x
'
	jrun --to=csv -d ';' --crlf <in
	expect_ok 'a;b;c;d;e;f;g'$'\r''
p,q;"say ""hi""";" lead";"trail ";"cr'$'\r''x";"plain; text";tab'$'\t''x'$'\r''
'
	jrun --to=csv -d '\t' <in
	expect_ok 'a	b	c	d	e	f	g
p,q	"say ""hi"""	" lead"	"trail "	"cr'$'\r''x"	plain; text	"tab'$'\t''x"
'
	jrun --to=csv -d '"' <in
	expect_usage "jenc: --delimiter: '\"' cannot be a delimiter"
}

@test "TSV writes the escapes the TSV reader decodes" {
	printf '{"k":"a\\tb\\nc\\rd\\\\e","x":"\\"q\\""}\n' >in
	jrun --to=tsv <in
	expect_ok 'k	x
a\tb\nc\rd\\e	"q"
'
	"$JENC" -f tsv -l out >back
	printf '{"k":"a\\tb\\nc\\rd\\\\e","x":"\\"q\\""}\n' >want
	same_bytes want back
}

@test "--to=tsv splits on tabs: -d on JSON input is told to have no effect" {
	# (it was dropped without a word: a '|' in a cell, written as it
	# is, would split it when read back with -d '|')
	printf '{"a":"x|y","b":"z"}\n' >in
	jrun --to=tsv -d '|' <in
	expect_status 0
	expect_out 'a	b
x|y	z
'
	expect_err 'jenc: warning: -d has no effect on JSON input
'
	# CSV input: -d is the input's delimiter, no warning
	printf 'a|b\n"x|y"|z\n' >in.csv
	jrun --to=tsv -d '|' in.csv
	expect_ok 'a	b
x|y	z
'
}

@test "--csv-safe puts ' before a string that a spreadsheet would run" {
	printf '{"a":"=1+2","b":"+x","c":"-y","d":"@z","e":"\\tt","f":"\\rr","g":-5,"h":"ok","=n":1}\n' >in
	jrun --to=csv --csv-safe <in
	expect_ok "a,b,c,d,e,f,g,h,'=n
'=1+2,'+x,'-y,'@z,'	t,\"'"$'\r'"r\",-5,ok,1
"
	jrun --to=tsv --csv-safe <in
	expect_ok "a	b	c	d	e	f	g	h	'=n
'=1+2	'+x	'-y	'@z	'\\tt	'\\rr	-5	ok	1
"
	# without it, as they are
	jrun --to=csv --header=a <in
	expect_ok 'a
=1+2
'
	# a delimiter "'": the ' put before a cell makes it quoted (it
	# made a column of its own)
	jrun --to=csv --csv-safe --header=a,h -d "'" <in
	expect_ok "a'h
\"'=1+2\"'ok
"
}

@test "a record must be an object: at its first token, with what came before" {
	printf '{"a":1}\n  5\n{"a":2}\n' >in
	jrun --to=csv <in
	expect_invalid 'a
1
' "jenc: <stdin>:2:3: expected an object as a record, found '5'
    5
    ^
"
	jrun --to=csv --on-error=skip <in
	expect_status 0
	expect_out 'a
1
2
'
	expect_err "jenc: <stdin>:2:3: expected an object as a record, found '5'
    5
    ^
jenc: 1 invalid line skipped
"
	printf '[{"a":1}, ["x"]]\n' >in
	jrun --to=csv <in
	expect_invalid 'a
1
' "jenc: <stdin>:1:11: expected an object as a record, found '['
  [{\"a\":1}, [\"x\"]]
            ^
"
	# --validate checks the records as they would be written
	jrun --to=csv --validate <in
	expect_status 1
	expect_out ''
}

@test "a record the writer rejects at the end of the input: its excerpt is its whole line" {
	# (the line was cut short with "...": each read for the rest of it
	# flushed the encoder, which still held the rejection)
	printf '{"a":1}\n{"a":"\\ud800"}' >in
	jrun --to=csv <in
	expect_invalid 'a
1
' "jenc: <stdin>:2:14: the value of 'a' holds a lone surrogate, which is not text
  {\"a\":\"\\ud800\"}
               ^
"
	printf '{"a":1}{"b":2}' >in
	jrun --to=csv < <(cat in)
	expect_invalid 'a
1
' "jenc: <stdin>:1:14: key 'b' is not a column: the columns are the first record's (give --header, a file, or --ragged=pad)
  {\"a\":1}{\"b\":2}
               ^
"
	printf '[{"a":1},{"a":1,"a":2}]' >in.json
	jrun --to=csv in.json
	expect_invalid 'a
1
' "jenc: in.json:1:22: two values for column 'a' in one record (a duplicate key, or a key holding the separator '.')
  [{\"a\":1},{\"a\":1,\"a\":2}]
                       ^
"
}

@test "the writer's messages are whole for long keys and separators" {
	# (they were cut at 127 bytes: '... a file, or --ragged=pa')
	k=kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk
	printf '{"a":1}\n{"%s":2}\n' "$k" >in
	jrun --to=csv < <(cat in)
	expect_status 1
	head -1 err >got
	printf '%s\n' "jenc: <stdin>:2:56: key 'kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk...' is not a column: the columns are the first record's (give --header, a file, or --ragged=pad)" >want
	same_bytes want got
	printf '{"a":{"%s":1},"a::%s":2}\n' "$k" "$k" >in
	jrun --to=csv --flatten-sep=:: in
	expect_status 1
	head -1 err >got
	printf '%s\n' "jenc: in:1:120: two values for column 'a::kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk...' in one record (a duplicate key, or a key holding the separator '::')" >want
	same_bytes want got
}

@test "--on-error=pass: bad text and records that are not objects, verbatim in place" {
	# from a pipe: invalid JSON and non-objects as they are, a newline
	# after the last, the count as for JSON output
	printf '{"a":1}\n  5\n{"a":2\nbad\n{"a":3}\nxx' >in
	jrun --to=csv --on-error=pass <in
	expect_status 0
	expect_out 'a
1
  5
{"a":2
bad
3
xx
'
	expect_err 'jenc: 4 invalid lines passed through
'
	# before the first record of a pipe the columns are not known: the
	# text passed stays before the header, which comes before the row
	printf '5\n[1]\n{"b":1,"a":2}\n"s"\n{"a":3}\n' >in
	jrun --to=csv --on-error=pass <in
	expect_status 0
	expect_out '5
[1]
b,a
1,2
"s"
,3
'
	expect_err 'jenc: 3 invalid lines passed through
'
	# a file (two passes) gives the same bytes, so does TSV
	jrun --to=csv --on-error=pass in
	expect_status 0
	expect_out '5
[1]
b,a
1,2
"s"
,3
'
	jrun --to=tsv --on-error=pass <in
	expect_status 0
	expect_out '5
[1]
b	a
1	2
"s"
	3
'
	# --crlf: the text as it is, a line end after the last text that
	# has none; lines that are only bad text, no record: no header
	printf 'x\r\n{"a":1}\ny' >in
	jrun --to=csv --crlf --on-error=pass in
	expect_status 0
	expect_out $'x\r\na\r\n1\r\ny\r\n'
	printf 'nope\n' >in
	jrun --to=csv --on-error=pass in
	expect_status 0
	expect_out 'nope
'
	expect_err 'jenc: 1 invalid line passed through
'
}

@test "an element of an array on a line of its own, not an object: told once, never passed" {
	# (reading went on at the element's own line, as if a new value
	# started there: told twice, '[2],' passed after "not passed")
	printf '[\n{"a":1},\n[2],\n{"a":3}\n]\n' >in
	jrun --to=csv --on-error=skip <in
	expect_status 0
	expect_out 'a
1
3
'
	expect_err "jenc: <stdin>:3:1: expected an object as a record, found '['
  [2],
  ^
jenc: <stdin>:5:1: expected value or end of input, found ']'
  ]
  ^
jenc: 4 invalid lines skipped
"
	jrun --to=csv --on-error=pass <in
	expect_status 0
	expect_out 'a
1
3
]
'
	expect_err "jenc: <stdin>:3:1: expected an object as a record, found '[' (not passed through)
  [2],
  ^
jenc: 1 invalid line passed through, 3 dropped
"
	# the first element: the same, from a file too
	printf '[\n[2],\n{"a":3}\n]\n' >in
	jrun --to=csv --on-error=skip in
	expect_status 0
	expect_out 'a
3
'
	expect_err "jenc: in:2:1: expected an object as a record, found '['
  [2],
  ^
jenc: in:4:1: expected value or end of input, found ']'
  ]
  ^
jenc: 3 invalid lines skipped
"
}

@test "skip and pass: the first pass over a file leaves out what the second does" {
	# a record the writer rejects gives no column, from a file or a pipe
	printf '{"a":1}\n{"b":0,"a":2,"a":3}\n{"a":5,"c":"\\ud800"}\n{"a":6}\n' >in
	for how in skip pass; do
		jrun --to=csv --on-error=$how in
		expect_status 0
		"$JENC" --to=csv --on-error=$how <in >pipe.out 2>pipe.err
		same_bytes out pipe.out
	done
	expect_out 'a
1
{"b":0,"a":2,"a":3}
{"a":5,"c":"\ud800"}
6
'
	expect_err 'jenc: 2 invalid lines passed through
'
	jrun --to=csv --on-error=skip in
	expect_out 'a
1
6
'
	# a record rejected after its first key was found where the last
	# record had it leaves nothing for the next record's keys
	printf '{"a":"x","b":1}\n{"a":"\\ud800","b":2}\n{"b":3,"a":"y"}\n' >in2
	jrun --to=csv --on-error=skip -q in2
	expect_ok 'a,b
x,1
y,3
'
	# the first record of a pipe, rejected, names no column
	printf '{"b":0,"a":1,"a":2}\n{"a":4}\n' >in
	jrun --to=csv --on-error=skip <in
	expect_status 0
	expect_out 'a
4
'
	jrun --to=csv --on-error=skip in
	expect_status 0
	expect_out 'a
4
'
	jrun --to=csv --on-error=pass in
	expect_status 0
	expect_out '{"b":0,"a":1,"a":2}
a
4
'
}

@test "a file of compact records: its keys found without the reader, the same" {
	# escaped keys, nested objects, keys in another order, arrays of
	# objects, records glued together: every key, as the reader finds
	printf '{"id":1,"k\\u00e9":"x","u":{"n":1}}\n{"u":{"m":{"z":2}},"id":2}\n{"id":3,"a\\"b":[1,{"c":2}]}\n{"id":4}{"e":{}}\n' >in.json
	jrun --to=csv in.json
	expect_ok 'id,ké,u.n,u.m.z,"a""b",e
1,x,1,,,
2,,,2,,
3,,,,"[1,{""c"":2}]",
4,,,,,
,,,,,{}
'
	# a record with spaces in it: the reader's first pass, the same rows
	printf '{"a":1}\n{"b": 1}\n{"c":3}\n' >sp.json
	jrun --to=csv sp.json
	expect_ok 'a,b,c
1,,
,1,
,,3
'
	# keys after bad records: a trailing comma, a lone surrogate
	printf '{"a":1}\n{"b":1,}\n{"c":3}\n{"d":"\\ud800"}\n{"e":5}\n' >bad.json
	jrun --to=csv --on-error=skip -q bad.json
	expect_ok 'a,c,e
1,,
,3,
,,5
'
	jrun --to=csv bad.json
	expect_status 1
	expect_out 'a
1
'
	# a duplicate key stops the rows where the reader's pass stops
	printf '{"a":1}\n{"b":1,"b":2}\n{"c":3}\n' >dup.json
	jrun --to=csv dup.json
	expect_status 1
	expect_out 'a,b
1,
'
	# records longer than the first pass's buffer, a new key after each:
	# the columns of the reader's pass (a record with a space in it)
	s=$(head -c 300000 /dev/zero | tr '\0' x)
	printf '{"a":1}\n{"s":"%s","b":2}\n{"s":"%s%s\\n","c":3}\n' \
	    "$s" "$s" "$s" >long.json
	printf '{"a": 1}\n' | cat - long.json >long2.json
	jrun --to=csv long2.json
	expect_status 0
	mv "$T/out" "$T/out2"
	jrun --to=csv long.json
	expect_status 0
	[ "$(head -n 1 "$T/out")" = "a,s,b,c" ]
	tail -n +3 "$T/out2" >"$T/want"
	tail -n +2 "$T/out" >"$T/got"
	same_bytes "$T/want" "$T/got"
}

@test "a file of compact records changed between the two passes: exit 3" {
	need_shim cutwrite "whose write comes before an LD_PRELOAD one"
	# more than the first read of the rows' pass, so that the rows' pass
	# reads again after the first write to -o's file, which empties it
	awk 'BEGIN { for (i = 0; i < 20000; i++)
		printf "{\"id\":%d,\"name\":\"record number %d\"}\n", i, i }' >victim.json
	mkdir d
	echo old >d/out.csv
	status=0
	LD_PRELOAD=$SHIM JENC_CUT=victim.json "$JENC" --to=csv -o d/out.csv \
	    victim.json >out 2>err || status=$?
	expect_status 3
	same_bytes <(echo 'jenc: victim.json: the file changed between the two passes of --to=csv') err
	[ "$(cat d/out.csv)" = old ]
	[ "$(ls -A d)" = out.csv ]
	[ ! -s victim.json ]
}

# A file of compact records is read without the reader (jenc_csvw_rows_fd),
# whose rows carry a record's text as it is: -a, -H and -S change the text
# of nested cells, so with them the reader reads the rows, and a file gives
# the cells a pipe gives.
@test "-a, -H and -S change nested cells from a file as from a pipe" {
	printf '{"a":["\303\251"],"b":[{"z":1,"y":2}],"c":["<\342\200\250>"]}\n' >rec.json
	jrun --to=csv -a rec.json
	expect_status 0
	expect_out 'a,b,c
"[""\u00e9""]","[{""z"":1,""y"":2}]","[""<\u2028>""]"
'
	jrun --to=csv -H rec.json
	expect_status 0
	expect_out "$(printf 'a,b,c\n"[""\303\251""]","[{""z"":1,""y"":2}]","[""\\u003c\\u2028\\u003e""]"')
"
	jrun --to=csv -S rec.json
	expect_status 0
	expect_out "$(printf 'a,b,c\n"[""\303\251""]","[{""y"":2,""z"":1}]","[""<\342\200\250>""]"')
"
	for o in -a -H -S; do
		cat rec.json | "$JENC" --to=csv "$o" >pipe.csv 2>&1
		"$JENC" --to=csv "$o" rec.json >file.csv 2>&1
		same_bytes pipe.csv file.csv
	done
}

@test "options that make no sense with --to=csv are refused" {
	put '{"a":1}'
	jrun --to=csv -w in
	expect_usage "jenc: -w cannot be used with --to=csv: a change of format is not a rewrite in place (write it elsewhere with -o)"
	jrun --to=tsv --check in
	expect_usage "jenc: --check cannot be used with --to=tsv: it compares JSON output with its input"
	jrun --to=csv -s in
	expect_usage "jenc: -s makes one array of all inputs: not with --to=csv"
	jrun --to=xml in
	expect_usage "jenc: --to: 'xml' is not json, csv, tsv or log"
	jrun --to=csv --flatten-sep= in
	expect_usage "jenc: --flatten-sep: '' is not 1 to 15 bytes"
	jrun --crlf --csv-safe in
	expect_status 0
	expect_err 'jenc: warning: --crlf has no effect without --to=csv or --to=tsv
jenc: warning: --csv-safe has no effect without --to=csv or --to=tsv
'
}

@test "--header naming a column twice is refused with --to=csv|tsv" {
	# (the two columns were merged into one, silently)
	put '{"a":1,"b":2}'
	jrun --to=csv --header=a,a in
	expect_usage "jenc: --header: column 'a' is named twice"
	jrun --to=tsv --header=a,b,c,b in
	expect_usage "jenc: --header: column 'b' is named twice"
	jrun --to=csv --header=x,,y, --no-header in
	expect_usage "jenc: --header: column '' is named twice"
	printf '1,2\n' >in.csv
	jrun --to=csv --header=a,a in.csv
	expect_usage "jenc: --header: column 'a' is named twice"
	# the last --header counts
	jrun --to=csv --header=a,a --header=a,b in
	expect_ok 'a,b
1,2
'
	# CSV to JSON: the second name is suffixed, as documented
	jrun -c --header=a,a in.csv
	expect_ok '[{"a":"1","a_2":"2"}]
'
}

@test "-o writes the CSV; -j gives the same rows on one thread" {
	for i in $(seq 1 2000); do
		printf '{"i":%d,"s":"v%d","n":{"x":%d}}\n' "$i" "$i" "$i"
	done >in.json
	jrun --to=csv -o out.csv in.json
	expect_ok ''
	"$JENC" --to=csv in.json >want
	same_bytes want out.csv
	JENC_CHUNK=64 "$JENC" --to=csv -j 2 in.json >got
	same_bytes want got
	[ "$(sed -n 2p want)" = '1,v1,1' ]
	[ "$(head -1 want)" = 'i,s,n.x' ]
}

@test "CSV and TSV input: records are objects, rows again" {
	printf 'a;b\n1;"x;y"\n' >in.csv
	jrun --to=tsv in.csv
	expect_ok 'a	b
1	x;y
'
	jrun --to=csv -d ';' in.csv
	expect_ok 'a;b
1;"x;y"
'
}

@test "CSV input of a header line alone keeps it: its names are the columns" {
	# (nothing at all was written: the writer's columns came from
	# records only; csvkit's csvformat keeps the header)
	printf 'x,"y,z",x,\n' >in.csv
	for j in 1 2; do
		JENC_CHUNK=4 jrun --to=csv -j "$j" in.csv
		expect_ok 'x,"y,z",x_2,_4
'
		JENC_CHUNK=4 jrun -j "$j" -f csv --to=tsv <in.csv
		expect_ok 'x	y,z	x_2	_4
'
		cat in.csv | JENC_CHUNK=4 "$JENC" -f csv --to=csv -j "$j" >out 2>err
		printf 'x,"y,z",x_2,_4\n' >want
		same_bytes want out
		same_bytes /dev/null err
	done
	# TSV input, CR LF and no line end, the delimiter found, --crlf,
	# --nest
	printf 'a\tb\r\n' | "$JENC" -f tsv --to=csv --crlf >out
	printf 'a,b\r\n' >want
	same_bytes want out
	printf 'a;"b;c"' | "$JENC" -f csv --to=tsv >out
	printf 'a\tb;c\n' >want
	same_bytes want out
	printf 'u.a,u.b,id\n' | "$JENC" -f csv --to=csv --nest >out
	printf 'u.a,u.b,id\n' >want
	same_bytes want out
	# (--nest's names are checked, as at a record)
	printf 'a,a.b\n' >bad.csv
	jrun --to=csv --nest bad.csv
	expect_invalid '' "jenc: bad.csv:1: column 'a.b' and another column make one name both a value and an object: --nest cannot nest them
"
	# --header: the line is a row; --no-header: no header line (and the
	# line an array, bad input, as ever)
	jrun --to=csv --header=a,b,c,d in.csv
	expect_ok 'a,b,c,d
x,"y,z",x,
'
	jrun --to=csv --no-header in.csv
	expect_invalid '' 'jenc: in.csv:1: expected an object as a record, found an array (--no-header)
'
	# with other inputs: its names, then their keys
	printf '{"k":1,"x":2}\n' >in.json
	jrun --to=csv in.csv in.json
	expect_ok 'x,"y,z",x_2,_4,k
2,,,,1
'
	# to JSON, still no record
	jrun -c in.csv
	expect_ok '[]
'
	jrun -c -l in.csv
	expect_ok ''
}

@test "CSV input with --no-header: each record an array, bad input at its line" {
	printf 'a,b\n1,2\n' >in.csv
	jrun --to=csv --no-header in.csv
	expect_invalid '' 'jenc: in.csv:1: expected an object as a record, found an array (--no-header)
'
	jrun -f csv --to=tsv --no-header <in.csv
	expect_invalid '' 'jenc: <stdin>:1: expected an object as a record, found an array (--no-header)
'
	# JSON input before and after it is written; the first pass too
	printf '{"a":1}\n' >in.json
	jrun --to=csv --no-header in.json in.csv in.json
	expect_invalid '1
1
' 'jenc: in.csv:1: expected an object as a record, found an array (--no-header)
'
	jrun --to=csv --no-header --validate in.csv
	expect_invalid '' 'jenc: in.csv:1: expected an object as a record, found an array (--no-header)
'
}

@test "--nest reads dotted names back as nested objects" {
	printf 'id,u.n,u.a.c,t,u.m\n1,A,Oslo,x,\n' >in.csv
	jrun -f csv -c -t --nest in.csv
	expect_ok '[{"id":1,"u":{"n":"A","a":{"c":"Oslo"},"m":null},"t":"x"}]
'
	jrun -f csv -c --nest --flatten-sep=/ in.csv
	expect_ok '[{"id":"1","u.n":"A","u.a.c":"Oslo","t":"x","u.m":""}]
'
	printf 'a,a.b\n1,2\n' >bad.csv
	jrun -f csv -c --nest bad.csv
	expect_invalid '[]
' "jenc: bad.csv:1: column 'a.b' and another column make one name both a value and an object: --nest cannot nest them
"
	jrun --nest in.json </dev/null
	expect_status 3
}

@test "--nest: a name both a value and an object, at its line, shown safely" {
	# (the line was always 1, the name cut at 60 bytes inside a
	# character, its control bytes and line breaks printed as they are)
	printf 'sep=,\n\na,a.b\n1,2\n' >bad.csv
	jrun -f csv -c --nest bad.csv
	expect_invalid '[]
' "jenc: bad.csv:3: column 'a.b' and another column make one name both a value and an object: --nest cannot nest them
"
	printf '"x\ny","x\ny.b"\n1,2\n' >bad.csv
	jrun -f csv -c --nest bad.csv
	expect_invalid '[]
' "jenc: bad.csv:1: column 'x?y.b' and another column make one name both a value and an object: --nest cannot nest them
"
	printf 'a%s,a%s.b\n1,2\n' "$(printf '\303\251%.0s' $(seq 30))" "$(printf '\303\251%.0s' $(seq 30))" >bad.csv
	jrun -f csv -c --nest bad.csv
	expect_invalid '[]
' "jenc: bad.csv:1: column 'a$(printf '\303\251%.0s' $(seq 19))...' and another column make one name both a value and an object: --nest cannot nest them
"
	# a name that --ragged=pad adds: at the record that brings it
	printf 'a,_3.x\n1,2\n1,2,3\n' >bad.csv
	jrun -f csv -c --nest --ragged=pad bad.csv
	expect_invalid '[{"a":"1","_3":{"x":"2"}}]
' "jenc: bad.csv:3: column '_3' and another column make one name both a value and an object: --nest cannot nest them
"
}

@test "Python's csv module reads the cells back as json.loads gives them" {
	python3 - >in.json <<'PY'
import json, random
r = random.Random(7)
shapes = ["", " ", "a,b", 'q"q', "l\nl", "c\rr", "\r\n", " x", "x ", "é😀",
          "\t", "=1", "-1", "1.5", "true", "null", "\\", "\u2028", "k:v"]
for i in range(300):
    rec = {}
    for k in ("a", "b", "c", "d"):
        v = r.choice(shapes) + r.choice(shapes)
        rec[k] = v
    rec["n"] = r.choice([0, -1.5, 12345678901234567890, 1e-7, True, None])
    print(json.dumps(rec, ensure_ascii=r.random() < 0.5))
PY
	"$JENC" --to=csv in.json >out.csv
	python3 - in.json out.csv <<'PY' || fail "cells differ"
import csv, json, sys
recs = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
with open(sys.argv[2], newline="", encoding="utf-8") as f:
    rows = list(csv.reader(f))
assert rows[0] == ["a", "b", "c", "d", "n"], rows[0]
assert len(rows) == len(recs) + 1
src = [l.split('"n": ')[1].rstrip("}\n") for l in open(sys.argv[1], encoding="utf-8")]
for rec, row, n in zip(recs, rows[1:], src):
    for k, cell in zip("abcd", row):
        assert cell == rec[k], (k, cell, rec[k])
    want = "" if n == "null" else n
    assert row[4] == want, (row[4], want)
PY
}

@test "random records to CSV and back equal the original, but for the documented exceptions" {
	python3 "$BATS_TEST_DIRNAME/tocsv_diff.py" "$JENC" 400 11
}
