#!/usr/bin/env bats
# Colors: -C, -M, --color=auto|always|never; auto only on a terminal and
# without NO_COLOR; jq 1.7.1's escapes in every layout; JENC_COLORS and
# its errors.
#
# In the expected strings $N $F $Y $D $S $A $O $K are the default colors of
# null, false, true, numbers, strings, arrays, objects and keys (jq
# 1.7.1's), $R the reset.

load helpers

setup() {
	setup_jenc
	N=$'\e[0;90m' F=$'\e[0;39m' Y=$'\e[0;39m' D=$'\e[0;39m'
	S=$'\e[0;32m' A=$'\e[1;39m' O=$'\e[1;39m' K=$'\e[1;34m' R=$'\e[0m'
	put '{"a": [1, "x", null, true, false, {}], "b": []}'
	# the compact form of in, colored
	CC="$O{$R$K\"a\"$R$O:$R$A[$D""1$R$A,$S\"x\"$R$A,$N""null$R$A,"
	CC+="$Y""true$R$A,$F""false$R$A,$O{}$R$A$A]$R$O,$R$K\"b\"$R$O:$R"
	CC+="$A[]$R$O$O}$R"$'\n'
}

# key NAME [SEP] - a member's key as jq colors it: reset, key color, the
# quoted name, reset, the colon (and SEP) in the object color, reset.
key() {
	printf '%s' "$R$K\"$1\"$R$O:${2-}$R"
}

# on_tty ARGS... - run jenc with its standard output on a terminal (a
# pseudo-terminal in raw mode, so bytes come through as written) and its
# input from $T/in; what it writes goes to $T/out, stderr to $T/err.
on_tty() {
	JCMD="jenc $* (on a terminal)"
	status=0
	python3 - "$T/in" "$JENC" "$@" >"$T/out" 2>"$T/err" <<'PY' || status=$?
import os, pty, subprocess, sys, tty
master, slave = pty.openpty()
tty.setraw(slave)
p = subprocess.Popen(sys.argv[2:], stdin=open(sys.argv[1]), stdout=slave)
os.close(slave)
out = b""
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:  # EIO: the child closed the terminal
        break
    if not chunk:
        break
    out += chunk
sys.stdout.buffer.write(out)
sys.exit(p.wait())
PY
}

@test "--color=always, compact: each token as jq 1.7.1 colors it" {
	jrun --color=always -c <in
	expect_ok "$CC"
	jrun -C -c <in
	expect_ok "$CC"
	jrun -C --compact --color=always <in
	expect_ok "$CC"
}

@test "--color=always, indented: two spaces, --indent=4, --tab" {
	jrun -C <in
	expect_ok "$O{
  $(key a ' ')$A[
    $D""1$R$A,
    $S\"x\"$R$A,
    $N""null$R$A,
    $Y""true$R$A,
    $F""false$R$A,
    $O{}$R$A
  $A]$R$O,
  $(key b ' ')$A[]$R$O
$O}$R
"
	jrun -C --indent=4 <<<'[{"k": 0}]'
	expect_ok "$A[
    $O{
        $(key k ' ')$D""0$R$O
    $O}$R$A
$A]$R
"
	jrun -C --tab <<<'[{"k": 0}]'
	expect_ok "$A["$'\n\t'"$O{"$'\n\t\t'"$(key k ' ')$D""0$R$O"$'\n\t'"$O}$R$A"$'\n'"$A]$R"$'\n'
}

@test "--color=always with -l, -H and -a: colors around the escaped text" {
	put $'{"t": "<\xc3\xa9>"} [1]'
	jrun -C -l <in
	expect_ok "$O{$(key t)$S\"<"$'\xc3\xa9'">\"$R$O$O}$R
$A[$D""1$R$A$A]$R
"
	jrun -C -c -H <in
	expect_ok "$O{$(key t)$S\"\\u003c"$'\xc3\xa9'"\\u003e\"$R$O$O}$R
$A[$D""1$R$A$A]$R
"
	jrun -C -c -a <in
	expect_ok "$O{$(key t)$S\"<\\u00e9>\"$R$O$O}$R
$A[$D""1$R$A$A]$R
"
}

@test "every kind of value at top level: color, text, reset, newline" {
	put 'null false true -1.5e3 "s" [] {}'
	jrun -C <in
	expect_ok "$N""null$R
$F""false$R
$Y""true$R
$D""-1.5e3$R
$S\"s\"$R
$A[]$R
$O{}$R
"
}

@test "colors with -S, --split and -s" {
	put '[{"b": 1, "a": [2]}, 3]'
	jrun -C -c -S --split <in
	expect_ok "$O{$(key a)$A[$D""2$R$A$A]$R$O,$(key b)$D""1$R$O$O}$R
$D""3$R
"
	jrun -C -c -s <in
	expect_ok "$A[$A[$O{$(key b)$D""1$R$O,$(key a)$A[$D""2$R$A$A]$R$O$O}$R$A,$D""3$R$A$A]$R$A$A]$R
"
	: >empty
	jrun -C -s empty
	expect_ok "$A[]$R"$'\n'
}

@test "the same bytes as jq's -C over the corpus, in each layout" {
	need_shared
	command -v jq >/dev/null || skip "jq is not installed"
	# jq reformats numbers and re-escapes strings: give both the same
	# text, with small integers, and jq 1.6's key color (34;1)
	python3 - "$CORPUS" <<'PY'
import json, sys
def fix(x):
    if isinstance(x, bool) or x is None: return x
    if isinstance(x, (int, float)): return int(x) % 1000000007
    if isinstance(x, dict): return {k: fix(v) for k, v in x.items()}
    if isinstance(x, list): return [fix(v) for v in x]
    return "".join(c for c in x if c >= " " and c != "\x7f")
for f in ("twitter.json", "citm_catalog.json", "canada.json"):
    d = fix(json.load(open(sys.argv[1] + "/" + f)))
    open(f, "w").write(json.dumps(d, ensure_ascii=False))
PY
	local f m
	export JQ_COLORS="0;90:0;39:0;39:0;39:0;32:1;39:1;39"
	export JENC_COLORS="0;90:0;39:0;39:0;39:0;32:1;39:1;39:34;1"
	for f in twitter.json citm_catalog.json canada.json; do
		for m in "" -c --tab "--indent 4" -S "-S -c" "-c -a"; do
			jq -C $m . "$f" >jq.out
			JCMD="jenc -C ${m/indent /indent=} $f"
			"$JENC" -C ${m/indent /indent=} "$f" >out
			same_bytes jq.out out "$f [$m]"
		done
	done
}

@test "-M, --color=never and the default into a file or a pipe: no colors" {
	jrun -M <in
	expect_ok $'{\n  "a": [\n    1,\n    "x",\n    null,\n    true,\n    false,\n    {}\n  ],\n  "b": []\n}\n'
	cp out plain
	jrun --color=never <in
	same_bytes plain out
	jrun <in
	same_bytes plain out
	jrun --color=auto <in
	same_bytes plain out
	"$JENC" <in | cat >out
	same_bytes plain out "into a pipe"
	# the last of -C, -M and --color wins
	jrun -C -M -c <in
	expect_ok $'{"a":[1,"x",null,true,false,{}],"b":[]}\n'
	jrun -M --color=always -c <in
	expect_ok "$CC"
}

@test "auto on a terminal: colors, unless NO_COLOR is set and not empty" {
	on_tty -c
	expect_ok "$CC"
	NO_COLOR=1 on_tty -c
	expect_ok $'{"a":[1,"x",null,true,false,{}],"b":[]}\n'
	NO_COLOR= on_tty -c
	expect_ok "$CC"
	# an explicit -C wins over NO_COLOR; -M wins over the terminal
	NO_COLOR=1 on_tty -C -c
	expect_ok "$CC"
	on_tty -M -c
	expect_ok $'{"a":[1,"x",null,true,false,{}],"b":[]}\n'
}

@test "JENC_COLORS: JQ_COLORS' syntax, missing fields keep the defaults" {
	put '[null, false, true, 1, "s", {"k": {}}]'
	JENC_COLORS='1;31:4:7:35:2;32:1:3:33' jrun -C -c <in
	expect_ok $'\e[1m[\e[1;31mnull\e[0m\e[1m,\e[4mfalse\e[0m\e[1m,\e[7mtrue\e[0m\e[1m,\e[35m1\e[0m\e[1m,\e[2;32m"s"\e[0m\e[1m,\e[3m{\e[0m\e[33m"k"\e[0m\e[3m:\e[0m\e[3m{}\e[0m\e[3m\e[3m}\e[0m\e[1m\e[1m]\e[0m\n'
	JENC_COLORS='1;31' jrun -C -c <<<'[null, 1]'
	expect_ok $'\e[1;39m[\e[1;31mnull\e[0m\e[1;39m,\e[0;39m1\e[0m\e[1;39m\e[1;39m]\e[0m\n'
	# an empty field is no color (ESC [ m); a trailing ':' starts none
	JENC_COLORS=':' jrun -C -c <<<'[null]'
	expect_ok $'\e[1;39m[\e[mnull\e[0m\e[1;39m\e[1;39m]\e[0m\n'
	JENC_COLORS='1;31:' jrun -C -c <<<'[false]'
	expect_ok $'\e[1;39m[\e[0;39mfalse\e[0m\e[1;39m\e[1;39m]\e[0m\n'
	JENC_COLORS='::' jrun -C -c <<<'[false]'
	expect_ok $'\e[1;39m[\e[mfalse\e[0m\e[1;39m\e[1;39m]\e[0m\n'
	JENC_COLORS= jrun -C -c <<<'null'
	expect_ok $'\e[0;90mnull\e[0m\n'
}

@test "JENC_COLORS errors name the field, exit 2, nothing written" {
	JENC_COLORS='0;31:1:1;x' jrun -C <in
	expect_status 2
	expect_out ''
	expect_err "jenc: JENC_COLORS: field 3 (true): '1;x' is not a color (digits and ';')
"
	JENC_COLORS='1:2:3:4:5:6:7:8:9' jrun -C <in
	expect_status 2
	expect_err $'jenc: JENC_COLORS: field 9: more than 8 fields\n'
	JENC_COLORS=':::::::1;2;3;4;5;6;7;8;9' jrun -C <in
	expect_status 2
	expect_err "jenc: JENC_COLORS: field 8 (objectkeys): '1;2;3;4;5;6;7;8;9' is longer than 16 bytes
"
	JENC_COLORS=$'\e[31m' jrun -C <in
	expect_status 2
	expect_err "jenc: JENC_COLORS: field 1 (null): '\\033[31m' is not a color (digits and ';')
"
	# not looked at when there are no colors
	JENC_COLORS=red jrun -c <in
	expect_ok $'{"a":[1,"x",null,true,false,{}],"b":[]}\n'
	JENC_COLORS=red jrun -M -c <in
	expect_status 0
}

@test "--color with a bad value is a usage error" {
	jrun --color=yes <in
	expect_usage "jenc: --color: 'yes' is not auto, always or never"
	jrun --color <in
	expect_usage "jenc: option '--color' needs a value"
}
