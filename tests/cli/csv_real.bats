#!/usr/bin/env bats
# CSV and TSV files as real programs write them, each made by the test:
# the delimiter found from the first line (European ';' exports, tabs,
# pipes, Excel's sep= line, quoted delimiters, one-column headers), the
# hint a field-count error gives, file name extensions in any case, many
# duplicate names, a CR at the end of TSV, the delimiters -d refuses, a
# read error that writes nothing, and memory that grows with the longest
# record only.

load helpers

setup() {
	setup_jenc
}

@test "a European export: ';' found from the header, commas in fields kept" {
	printf 'name;price;note\nTee;3,50;"a;b"\nKaffee;2,80;x\n' >export.csv
	jrun -c export.csv
	expect_ok $'[{"name":"Tee","price":"3,50","note":"a;b"},{"name":"Kaffee","price":"2,80","note":"x"}]\n'
	# the issue's example
	printf 'a;b\n1;2\n' >e.csv
	jrun -c e.csv
	expect_ok $'[{"a":"1","b":"2"}]\n'
	jrun -c -t e.csv
	expect_ok $'[{"a":1,"b":2}]\n'
}

@test "a comma anywhere in the header wins, even if ';' is more frequent" {
	printf 'a;b;c,d\n1;2;3,4\n' >m.csv
	jrun -c m.csv
	expect_ok $'[{"a;b;c":"1;2;3","d":"4"}]\n'
}

@test "tab and pipe separated .csv files; the most frequent wins, ties go ; tab |" {
	printf 'a\tb\tc\n1\t2\t3\n' >tab.csv
	jrun -c tab.csv
	expect_ok $'[{"a":"1","b":"2","c":"3"}]\n'
	printf 'a|b|c\n1|2|3\n' >pipe.csv
	jrun -c pipe.csv
	expect_ok $'[{"a":"1","b":"2","c":"3"}]\n'
	# two pipes beat one tab
	printf 'a|b|c\td\n1|2|3\t4\n' >more.csv
	jrun -c more.csv
	expect_ok $'[{"a":"1","b":"2","c\\td":"3\\t4"}]\n'
	# one ';', one tab, one '|': ';'
	printf 'a;b\tc|d\n1;2\t3|4\n' >tie.csv
	jrun -c tie.csv
	expect_ok $'[{"a":"1","b\\tc|d":"2\\t3|4"}]\n'
	# one tab, one '|': tab
	printf 'a|b\tc\n1|2\t3\n' >tie2.csv
	jrun -c tie2.csv
	expect_ok $'[{"a|b":"1|2","c":"3"}]\n'
}

@test "delimiters inside quotes in the header do not count" {
	printf '"a;b";"c|d"\n1;2\n' >q.csv
	jrun -c q.csv
	expect_ok $'[{"a;b":"1","c|d":"2"}]\n'
	printf '"x,y";z\n1;2\n' >q2.csv
	jrun -c q2.csv
	expect_ok $'[{"x,y":"1","z":"2"}]\n'
	# "" inside quotes does not close them
	printf '"say ""a,b""";c\n1;2\n' >q3.csv
	jrun -c q3.csv
	expect_ok $'[{"say \\"a,b\\"":"1","c":"2"}]\n'
}

@test "a header of one column stays one column" {
	printf 'name\nAda\nGrace Hopper\n' >one.csv
	jrun -c one.csv
	expect_ok $'[{"name":"Ada"},{"name":"Grace Hopper"}]\n'
	# its data may hold any of the four: only the header decides
	printf 'name\na;b\nc|d\n' >one2.csv
	jrun -c one2.csv
	expect_ok $'[{"name":"a;b"},{"name":"c|d"}]\n'
	printf '"a;b"\n"1;2"\n' >one3.csv
	jrun -c one3.csv
	expect_ok $'[{"a;b":"1;2"}]\n'
}

@test "blank lines before the header: the first line that is not blank decides" {
	printf '\r\n\na;b\n1;2\n' >b.csv
	jrun -c b.csv
	expect_ok $'[{"a":"1","b":"2"}]\n'
}

@test "Excel's sep= line sets the delimiter and is dropped, with CR LF, CR, LF or at the end" {
	printf 'sep=;\r\na;b\r\n1,5;2\r\n' >crlf.csv
	jrun -c crlf.csv
	expect_ok $'[{"a":"1,5","b":"2"}]\n'
	printf 'sep=|\na|b\n1|2\n' >lf.csv
	jrun -c lf.csv
	expect_ok $'[{"a":"1","b":"2"}]\n'
	printf 'sep=,\ra;b,c\r1,2\r' >cr.csv
	jrun -c cr.csv
	expect_ok $'[{"a;b":"1","c":"2"}]\n'
	printf 'SEP=\t\na\tb\n1\t2\n' >up.csv
	jrun -c up.csv
	expect_ok $'[{"a":"1","b":"2"}]\n'
	printf 'sep=;' >only.csv
	jrun -c only.csv
	expect_ok $'[]\n'
}

@test "sep= with --no-header and --header: dropped too, and its line counted" {
	printf 'sep=;\r\na;b\r\n1;2\r\n' >s.csv
	jrun -c --no-header s.csv
	expect_ok $'[["a","b"],["1","2"]]\n'
	jrun -c --header=x,y s.csv
	expect_ok $'[{"x":"a","y":"b"},{"x":"1","y":"2"}]\n'
	printf 'sep=;\na;b\n1;2;3\n' >bad.csv
	jrun -c bad.csv
	expect_invalid $'[]\n' $'jenc: bad.csv:3: record has 3 fields, header has 2\n'
}

@test "-d turns detection off: sep= is a row, ';' is text" {
	printf 'sep=;\na;b\n' >s.csv
	jrun -c -d , s.csv
	expect_ok $'[{"sep=;":"a;b"}]\n'
	printf 'a;b\n1;2\n' >e.csv
	jrun -c -d , e.csv
	expect_ok $'[{"a;b":"1;2"}]\n'
	# a sep= line naming a byte that cannot be a delimiter is data
	printf 'sep="\na\n' >q.csv
	jrun -c q.csv
	expect_ok $'[{"sep=\\"":"a"}]\n'
}

@test "TSV is not detected: a .tsv file with ';' splits on tabs" {
	printf 'a;b\tc\n1;2\t3\n' >t.tsv
	jrun -c t.tsv
	expect_ok $'[{"a;b":"1;2","c":"3"}]\n'
	printf 'sep=;\na\n' >s.tsv
	jrun -c s.tsv
	expect_ok $'[{"sep=;":"a"}]\n'
}

@test "a field-count error names the delimiter the header seems to use" {
	printf 'a;b\n1,2\n' >e.csv
	jrun -c -d , e.csv
	expect_invalid $'[]\n' $'jenc: e.csv:2: record has 2 fields, header has 1 (delimiter \';\'? try -d \';\')\n'
	# a tab is spelled as -d takes it
	printf 'a\tb\n1;2\n' >t.csv
	jrun -c -d ';' t.csv
	expect_invalid $'[]\n' $'jenc: t.csv:2: record has 2 fields, header has 1 (delimiter \'\\t\'? try -d \'\\t\')\n'
	printf 'a|b\n1,2\n' >p.csv
	jrun -c -d , p.csv
	expect_invalid $'[]\n' $'jenc: p.csv:2: record has 2 fields, header has 1 (delimiter \'|\'? try -d \'|\')\n'
	# TSV too
	printf 'a,b,c\n1\t2\n' >c.tsv
	jrun -c c.tsv
	expect_invalid $'[]\n' $'jenc: c.tsv:2: record has 2 fields, header has 1 (delimiter \',\'? try -d \',\')\n'
}

@test "no hint when the header holds no other delimiter, or came from --header" {
	printf 'a,b\n1\n' >n.csv
	jrun -c n.csv
	expect_invalid $'[]\n' $'jenc: n.csv:2: record has 1 field, header has 2\n'
	printf '1,2\n' >g.csv
	jrun -c --header='a;b' g.csv
	expect_invalid $'[]\n' $'jenc: g.csv:1: record has 2 fields, header has 1\n'
}

@test "upper-case and .tab extensions pick the format" {
	printf 'a,b\n1,2\n' >DATA.CSV
	jrun -c DATA.CSV
	expect_ok $'[{"a":"1","b":"2"}]\n'
	printf 'a,b\n1,2\n' >Mixed.Csv
	jrun -c Mixed.Csv
	expect_ok $'[{"a":"1","b":"2"}]\n'
	printf 'a\tb\n1\t2\n' >DATA.TSV
	jrun -c DATA.TSV
	expect_ok $'[{"a":"1","b":"2"}]\n'
	printf 'a\tb\n1\\t\t2\n' >data.tab
	jrun -c data.tab
	expect_ok $'[{"a":"1\\t","b":"2"}]\n'
	printf 'a\tb\n1\t2\n' >DATA.TAB
	jrun -c DATA.TAB
	expect_ok $'[{"a":"1","b":"2"}]\n'
	# --from still wins, and other names stay JSON
	jrun -c -f json DATA.CSV
	expect_status 1
	printf '[1]' >data.csv.json
	jrun -c data.csv.json
	expect_ok $'[1]\n'
	# -w and --check refuse them whatever the case
	jrun -w DATA.CSV
	expect_usage "jenc: DATA.CSV: -w cannot replace CSV or TSV input with JSON (write it elsewhere with -o)"
}

@test "20000 copies of one name: a, a_2 ... a_20000, and the next name after them" {
	{
		for i in $(seq 20000); do printf 'a,'; done
		printf 'a_20001,a\n'
		for i in $(seq 20002); do printf '%s,' "$i"; done | sed 's/,$/\n/'
	} >dup.csv
	jrun -c dup.csv
	expect_status 0
	python3 - "$T/out" <<'PY'
import json, sys
rec = json.load(open(sys.argv[1]))
assert len(rec) == 1, len(rec)
keys = list(rec[0])
want = ["a"] + ["a_%d" % k for k in range(2, 20001)] + ["a_20001", "a_20002"]
assert keys == want, (keys[:5], keys[-5:])
assert [rec[0][k] for k in keys] == [str(i) for i in range(1, 20003)]
PY
}

@test "many distinct duplicates: each name's suffixes are its own" {
	{
		for i in $(seq 3000); do printf 'x%s,x%s,' "$i" "$i"; done
		printf 'x1_2,x1\n'
		for i in $(seq 6002); do printf '1,'; done | sed 's/,$/\n/'
	} >dup.csv
	jrun -c dup.csv
	expect_status 0
	python3 - "$T/out" <<'PY'
import json, sys
keys = list(json.load(open(sys.argv[1]))[0])
want = []
for i in range(1, 3001):
    want += ["x%d" % i, "x%d_2" % i]
want += ["x1_2_2", "x1_3"]
assert keys == want, (keys[:6], keys[-4:])
PY
}

@test "TSV: a CR before the end of input is dropped like one before LF" {
	printf 'a\tb\n1\t2\r' | "$JENC" -f tsv -c >out
	printf '[{"a":"1","b":"2"}]\n' >want
	same_bytes want out
	printf 'a\tb\r\n1\t2\r\n\r' | "$JENC" -f tsv -c >out
	same_bytes want out
	# a CR inside a field stays
	printf 'a\tb\n1\r\t2\r' | "$JENC" -f tsv -c >out
	printf '[{"a":"1\\r","b":"2"}]\n' >want
	same_bytes want out
}

@test "-d refuses a backslash for TSV, and a quote, CR or LF for both" {
	: >d.tsv
	: >d.csv
	jrun -d '\' d.tsv
	expect_usage "jenc: --delimiter: '\\' cannot be a TSV delimiter (it starts an escape)"
	jrun -d '\' -f tsv d.csv
	expect_usage "jenc: --delimiter: '\\' cannot be a TSV delimiter (it starts an escape)"
	# (shown as escapes: a raw CR or LF would move the cursor or split
	# the message)
	jrun -d "$(printf '\r')" d.csv
	expect_usage "jenc: --delimiter: '\\r' cannot be a delimiter"
	jrun -d '
' d.csv
	expect_usage "jenc: --delimiter: '\\n' cannot be a delimiter"
	jrun -d '"' d.tsv
	expect_usage "jenc: --delimiter: '\"' cannot be a delimiter"
	# a backslash is an ordinary byte in CSV
	printf 'a\\b\n1\\2\n' >b.csv
	jrun -c -d '\' b.csv
	expect_ok $'[{"a":"1","b":"2"}]\n'
}

@test "an input that cannot be read writes nothing, for CSV, TSV and JSON" {
	jrun -f csv /
	expect_status 3
	expect_out ''
	expect_err $'jenc: /: Is a directory\n'
	jrun -f tsv -l /
	expect_status 3
	expect_out ''
	jrun /
	expect_status 3
	expect_out ''
	printf 'a\n1\n' >a.csv
	jrun -c a.csv / nosuch.csv a.csv
	expect_status 3
	expect_out $'[{"a":"1"}]\n[{"a":"1"}]\n'
	expect_err $'jenc: /: Is a directory\njenc: nosuch.csv: No such file or directory\n'
	# an empty input is still an empty array
	: >empty.csv
	jrun -c empty.csv
	expect_ok $'[]\n'
}

@test "20 MB of commas in one record: memory about the record, not 24 bytes a field" {
	head -c 20000000 /dev/zero | tr '\0' ',' >commas.csv
	/usr/bin/time -f '%M' -o rss "$JENC" -f csv --no-header -c commas.csv |
	    od -An -c | head -n 1 | tr -d ' ' >head
	[ "$(cat head)" = '[["","","","",""' ]
	"$JENC" -f csv --no-header -c commas.csv | wc -c >len
	# 20000001 empty strings, the commas between them, [[ ]] and LF
	[ "$(cat len)" = $((20000001 * 2 + 20000000 + 5)) ]
	rss=$(tail -n 1 rss)
	echo "# peak RSS $rss KiB" >&3
	# the window holds the record (up to twice it as it doubles); a table
	# of 24-byte fields would be 480 MB.  Under ASan (make check-asan)
	# shadow memory makes RSS meaningless.
	grep -q __asan_init "$JENC" || [ "$rss" -lt 60000 ] ||
	    fail "peak RSS $rss KiB, expected under 60000"
}

@test "a quote never closed in a long record: the error comes at the record's start" {
	{ printf 'a\n"'; head -c 3000000 /dev/zero | tr '\0' 'x'; } >q.csv
	jrun -c q.csv
	expect_status 1
	expect_out $'[]\n'
	head -n 1 err >err1
	printf 'jenc: q.csv:2:1: unterminated quoted field, opened here\n' >want
	same_bytes want err1
}
