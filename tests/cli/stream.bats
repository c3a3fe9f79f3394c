#!/usr/bin/env bats
# Reshaping streams: --split, -s/--slurp, -S/--sort-keys, -u/--unbuffered,
# and how -l and -c compose; alone, together, with errors, over the corpus.

load helpers

setup() {
	setup_jenc
}

# writes ARGS... - run jenc ARGS with its standard output on a socket that
# keeps the bounds of each write (SOCK_SEQPACKET), input from $T/in; each
# write comes out as one line: its bytes as a Python literal.
writes() {
	JCMD="jenc $* (writes)"
	status=0
	python3 - "$T/in" "$JENC" "$@" >"$T/out" 2>"$T/err" <<'PY' || status=$?
import socket, subprocess, sys
a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
p = subprocess.Popen(sys.argv[2:], stdin=open(sys.argv[1]), stdout=b)
b.close()
while True:
    m = a.recv(1 << 20)
    if not m:
        break
    print(repr(m))
sys.exit(p.wait())
PY
}

# ---- --split ----

@test "--split: each element of a top-level array its own value" {
	put '[1, [2, [3]], {"a": []}, "s"]'
	jrun --split -c <in
	expect_ok $'1\n[2,[3]]\n{"a":[]}\n"s"\n'
	jrun --split <in
	expect_ok $'1\n[\n  2,\n  [\n    3\n  ]\n]\n{\n  "a": []\n}\n"s"\n'
	jrun --split --tab <in
	expect_ok $'1\n[\n\t2,\n\t[\n\t\t3\n\t]\n]\n{\n\t"a": []\n}\n"s"\n'
	jrun --split -l <in
	expect_ok $'1\n[2,[3]]\n{"a":[]}\n"s"\n'
}

@test "--split: other top-level values pass, an empty array gives nothing" {
	put $'{"x": [1, 2]}\n[]\n3\n"s"\n[[]]\n[null]'
	jrun --split -c <in
	expect_ok $'{"x":[1,2]}\n3\n"s"\n[]\nnull\n'
	: >empty
	jrun --split empty
	expect_ok ''
}

@test "--split of CSV: each record its own value, in any layout" {
	printf 'a,b\n1,x\n2,y\n' >d.csv
	jrun --split d.csv
	expect_ok $'{\n  "a": "1",\n  "b": "x"\n}\n{\n  "a": "2",\n  "b": "y"\n}\n'
	jrun --split -c --no-header d.csv
	expect_ok $'["a","b"]\n["1","x"]\n["2","y"]\n'
}

@test "--split: an error in element k; elements before it whole, positions of the input" {
	put $'[\n {"a": 1},\n [2, 3],\n {"b": [4,]},\n 5\n]\n'
	jrun --split -c <in
	expect_invalid $'{"a":1}\n[2,3]\n' "jenc: <stdin>:4:11: expected value after ',', found ']' (trailing comma? try --jsonc)
   {\"b\": [4,]},
            ^
"
}

@test "--split of a large array streams: every element, bounded memory" {
	python3 -c '
import sys
sys.stdout.write("[" + ",".join("{\"id\":%d,\"v\":[%d,\"%s\"]}" % (i, i * 7, "x" * (i % 50)) for i in range(300000)) + "]")
' >big.json
	python3 -c '
import json
for x in json.load(open("big.json")):
    print(json.dumps(x, separators=(",", ":")))
' >want
	jrun --split -c big.json
	expect_status 0
	same_bytes want out
	[ -x /usr/bin/time ] || skip "GNU time is not installed (apt-get install time)"
	local kb
	kb=$(/usr/bin/time -f %M "$JENC" --split -c big.json 2>&1 >/dev/null)
	echo "# peak RSS $kb KiB for $(wc -c <big.json) bytes" >&3
	# an ASan build (make check-asan): shadow memory makes RSS meaningless
	grep -q __asan_init "$JENC" ||
	    [ "$kb" -lt 16384 ] || fail "peak RSS $kb KiB, expected under 16 MiB"
}

# ---- --slurp ----

@test "--slurp: every value of every input into one array" {
	printf '1\n{"a": 2}\n' >a.json
	printf '[3] "s"' >b.json
	jrun -s -c a.json b.json
	expect_ok $'[1,{"a":2},[3],"s"]\n'
	jrun --slurp a.json b.json
	expect_ok $'[\n  1,\n  {\n    "a": 2\n  },\n  [\n    3\n  ],\n  "s"\n]\n'
	jrun -s --tab b.json
	expect_ok $'[\n\t[\n\t\t3\n\t],\n\t"s"\n]\n'
	jrun -s -c <a.json
	expect_ok $'[1,{"a":2}]\n'
	jrun -s -l a.json
	expect_ok $'[1,{"a":2}]\n'
}

@test "--slurp of nothing is []" {
	: >empty
	jrun -s empty
	expect_ok $'[]\n'
	jrun -s -c empty empty
	expect_ok $'[]\n'
	jrun -s </dev/null
	expect_ok $'[]\n'
}

@test "--slurp with CSV and TSV: the records of all inputs in one array" {
	printf 'a,b\n1,2\n' >x.csv
	printf 'a\tb\n3\t4\n5\t6\n' >y.tsv
	printf '{"j": 7}\n' >z.json
	jrun -s -c x.csv y.tsv z.json
	expect_ok $'[{"a":"1","b":"2"},{"a":"3","b":"4"},{"a":"5","b":"6"},{"j":7}]\n'
	jrun -s -c -t --no-header x.csv
	expect_ok $'[["a","b"],[1,2]]\n'
	jrun -s -c -l x.csv x.csv
	expect_ok $'[{"a":"1","b":"2"},{"a":"1","b":"2"}]\n'
}

@test "--slurp: a bad input; the array holds what came before and is closed" {
	printf '1\n{"a": [2,}\n3\n' >bad.json
	printf '4\n' >ok.json
	jrun -s -c bad.json ok.json
	expect_invalid $'[1,4]\n' "jenc: bad.json:2:10: expected value after ',', found '}'
  {\"a\": [2,}
           ^
"
	jrun -s bad.json
	expect_invalid $'[\n  1\n]\n' "jenc: bad.json:2:10: expected value after ',', found '}'
  {\"a\": [2,}
           ^
"
	printf 'a,b\n1,2\n3\n' >bad.csv
	jrun -s -c ok.json bad.csv
	expect_invalid $'[4,{"a":"1","b":"2"}]\n' $'jenc: bad.csv:3: record has 1 field, header has 2\n'
	jrun -s -c ok.json missing.json ok.json
	expect_status 3
	expect_out $'[4,4]\n'
	expect_err $'jenc: missing.json: No such file or directory\n'
}

@test "--slurp into a full disk: exit 3, one line, also for []" {
	printf '1\n2\n' >in
	: >empty
	local f
	for f in in empty; do
		JCMD="jenc -s $f >/dev/full"
		status=0
		"$JENC" -s "$f" >/dev/full 2>err || status=$?
		expect_status 3
		expect_err $'jenc: write error: No space left on device\n'
	done
}

@test "--slurp --split: the elements of the split arrays in one array" {
	printf '[1, 2]\n[]\n3\n[[4]]\n' >in
	jrun -s --split -c in
	expect_ok $'[1,2,3,[4]]\n'
}

# ---- --sort-keys ----

@test "-S: the members of every object by key, nested ones too" {
	put '{"b": 1, "a": {"d": [{"z": 0, "y": 1}], "c": null}, "aa": [], "": 2}'
	jrun -S -c <in
	expect_ok $'{"":2,"a":{"c":null,"d":[{"y":1,"z":0}]},"aa":[],"b":1}\n'
	jrun --sort-keys <in
	expect_ok '{
  "": 2,
  "a": {
    "c": null,
    "d": [
      {
        "y": 1,
        "z": 0
      }
    ]
  },
  "aa": [],
  "b": 1
}
'
	jrun -S --tab <<<'{"b": {}, "a": 1}'
	expect_ok $'{\n\t"a": 1,\n\t"b": {}\n}\n'
}

@test "-S: keys compared as code points after unescaping; escapes kept" {
	# \u00e9 and the UTF-8 of U+00E9 are the same key: input order;
	# U+1F600 after U+FFFF (code points, not UTF-16 units)
	put '{"\u00e9": 1, "é": 2, "f": 3, "\ud83d\ude00": 4, "\uffff": 5, "\n": 6}'
	jrun -S -c <in
	expect_ok '{"\n":6,"f":3,"\u00e9":1,"é":2,"\uffff":5,"\ud83d\ude00":4}
'
}

@test "-S: equal keys keep their order, duplicates are kept" {
	put '{"b": 1, "a": 1, "b": 2, "a": 2}'
	jrun -S -c <in
	expect_ok $'{"a":1,"a":2,"b":1,"b":2}\n'
}

@test "-S: the same as Python's sort_keys over the corpus" {
	need_shared
	local f
	for f in twitter.json citm_catalog.json; do
		# the same text for both (Python rewrites escapes and numbers)
		python3 - "$CORPUS/$f" <<'PY'
import json, sys
def ints(x):
    if isinstance(x, bool) or x is None: return x
    if isinstance(x, float): return int(x)
    if isinstance(x, dict): return {k: ints(v) for k, v in x.items()}
    if isinstance(x, list): return [ints(v) for v in x]
    return x
d = ints(json.load(open(sys.argv[1])))
open("in", "w").write(json.dumps(d, ensure_ascii=False))
open("want", "w").write(json.dumps(d, sort_keys=True, indent=2, ensure_ascii=False) + "\n")
open("want.c", "w").write(json.dumps(d, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n")
PY
		jrun -S in
		expect_status 0
		same_bytes want out "$f"
		jrun -S -c in
		expect_status 0
		same_bytes want.c out "$f -c"
	done
}

@test "-S: an error in a sorted object; values before it are whole" {
	put $'{"b": 1, "a": 2}\n{"z": {"y": 1, "x": tru}}\n'
	jrun -S -c <in
	expect_invalid $'{"a":2,"b":1}\n' "jenc: <stdin>:2:21: invalid literal 'tru', expected true, false or null
  {\"z\": {\"y\": 1, \"x\": tru}}
                      ^
"
}

@test "--split -S -c: an array of objects to sorted JSON Lines" {
	put '[{"b": 1, "a": {"d": 1, "c": 2}}, {"y": [], "x": 0}, 3]'
	jrun --split -S -c <in
	expect_ok $'{"a":{"c":2,"d":1},"b":1}\n{"x":0,"y":[]}\n3\n'
	jrun -c -S --split <in
	expect_ok $'{"a":{"c":2,"d":1},"b":1}\n{"x":0,"y":[]}\n3\n'
	jrun -s -S -c <in
	expect_ok $'[[{"a":{"c":2,"d":1},"b":1},{"x":0,"y":[]},3]]\n'
}

# ---- -l and -c ----

@test "-l and -c compose in either order, for JSON and CSV" {
	put $'{"a": [1]}\n{"b": 2}'
	jrun -l -c <in
	expect_ok $'{"a":[1]}\n{"b":2}\n'
	jrun -c -l <in
	expect_ok $'{"a":[1]}\n{"b":2}\n'
	printf 'a\n1\n2\n' >d.csv
	jrun --lines -c d.csv
	expect_ok $'{"a":"1"}\n{"a":"2"}\n'
	jrun -c --lines d.csv
	expect_ok $'{"a":"1"}\n{"a":"2"}\n'
	jrun --lines --tab d.csv
	expect_ok $'{"a":"1"}\n{"a":"2"}\n'
	jrun --indent=3 -l d.csv
	expect_ok $'{"a":"1"}\n{"a":"2"}\n'
	# without -l, CSV is one array, in the last layout given
	jrun --tab -c d.csv
	expect_ok $'[{"a":"1"},{"a":"2"}]\n'
}

# ---- --unbuffered ----

@test "-u: one write per value, also when the input is all there" {
	put $'1\n{"a": 2}\n[3]\n'
	writes -u -c
	expect_ok $'b\'1\\n\'\nb\'{"a":2}\\n\'\nb\'[3]\\n\'\n'
	put '[4, 5]'
	writes --unbuffered --split -c
	expect_ok $'b\'4\\n\'\nb\'5\\n\'\n'
	printf 'a\n1\n2\n' >in
	writes -u -l -f csv
	expect_ok $'b\'{"a":"1"}\\n\'\nb\'{"a":"2"}\\n\'\n'
	# without -u the values wait for a full buffer or the end
	put $'1\n{"a": 2}\n[3]\n'
	writes -c
	expect_ok $'b\'1\\n{"a":2}\\n[3]\\n\'\n'
}

@test "-u: output arrives while the input is still open" {
	mkfifo fifo
	# the writer sends a value and half of another, and waits for the
	# first to come out before it sends the rest and closes the input
	# (giving up after HANG_LIMIT s, so that a failure cannot hang the
	# suite)
	(
		exec 3>fifo
		printf '{"b": 1, "a": 2}\n[1,\n' >&3
		if wait_until "the first value's output" \
		    grep -q '^{"a":2,"b":1}$' out; then
			echo yes >seen
		else
			echo timeout >seen
		fi
		printf '2]\n' >&3
	) &
	"$JENC" -u -S -c <fifo >out
	wait
	[ "$(cat seen)" = yes ] || fail "the first value did not come out before the input ended"
	expect_out $'{"a":2,"b":1}\n[1,2]\n'
}
