#!/usr/bin/env bats
#
# docs.bats - the documents say what the code does: the example program of
# jenc(3) and README.md is the same, builds (against $JENC_LIB, by default
# the libjenc.a next to $JENC) and prints what they say; the
# long options of jenc(1) are those of `jenc --help`; every function and
# constant of lib/jenc.h is in jenc(3); the manuals pass mandoc -Tlint; and
# every ```console transcript in README.md prints exactly what it shows
# (run from the top of the tree, TMPDIR their scratch space).

REPO="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
: "${JENC:=$REPO/build/jenc}"
# The README transcripts run in $REPO: make the binary's path absolute.
case $JENC in
/*) ;;
*/*) JENC="$(cd "$(dirname "$JENC")" && pwd)/$(basename "$JENC")" ;;
esac
# The library of the same build (make check-cli sets it, and CC and
# LDFLAGS, for its O=DIR).
: "${JENC_LIB:=$(dirname "$JENC")/libjenc.a}"

# same EXPECTED ACTUAL: compare two files byte for byte; on a mismatch show
# a diff and a hexdump of both.
same() {
	if cmp -s "$1" "$2"; then
		return 0
	fi
	echo "--- expected ($1) / +++ actual ($2):"
	diff -u "$1" "$2" || true
	echo "expected bytes:"; od -c "$1" | head -n 40
	echo "actual bytes:"; od -c "$2" | head -n 40
	return 1
}

# The first literal block (.Bd -literal ... .Ed) after the NUMBER-th one
# begins in the EXAMPLES section of man/jenc.3, with mdoc's \e and \&
# turned back into what they print.
man3_example_block() {
	awk -v want="$1" '
		/^\.Sh / { inex = ($0 == ".Sh EXAMPLES") }
		inex && /^\.Bd -literal/ { n++; inblk = (n == want); next }
		inblk && /^\.Ed/ { inblk = 0; next }
		inblk { print }
	' "$REPO/man/jenc.3" | sed -e 's/\\e/\\/g' -e 's/\\&//g'
}

# The first ```c block under the "## Library" heading of README.md.
readme_example() {
	awk '
		/^## / { inlib = ($0 == "## Library") }
		inlib && !done && /^```c$/ { inblk = 1; next }
		inblk && /^```$/ { inblk = 0; done = 1; next }
		inblk { print }
	' "$REPO/README.md"
}

# The ``` block that follows the line "LINE" in README.md.
readme_block_after() {
	awk -v line="$1" '
		$0 == line { found = 1; next }
		found && !inblk && /^```/ { inblk = 1; next }
		inblk && /^```$/ { exit }
		inblk { print }
	' "$REPO/README.md"
}

expected_example_output() {
	printf '%s\n' '{' '  "name": "jenc",' '  "stars": 42,' '  "tags": [' \
	    '    "json"' '  ]' '}'
}

@test "jenc(3) and README.md show the same example program" {
	man3_example_block 1 >"$BATS_TEST_TMPDIR/man.c"
	readme_example >"$BATS_TEST_TMPDIR/readme.c"
	[ -s "$BATS_TEST_TMPDIR/man.c" ]
	grep -q '^main(void)$' "$BATS_TEST_TMPDIR/man.c"
	same "$BATS_TEST_TMPDIR/man.c" "$BATS_TEST_TMPDIR/readme.c"
}

@test "the example program is the one tests/unit/test_example.c runs" {
	local t="$REPO/tests/unit/test_example.c"
	[ -f "$t" ]
	awk '$0 == "/* example end */" { exit }
	    inblk { print }
	    $0 == "/* example begin */" { inblk = 1 }' "$t" \
	    >"$BATS_TEST_TMPDIR/unit.c"
	[ -s "$BATS_TEST_TMPDIR/unit.c" ]
	man3_example_block 1 >"$BATS_TEST_TMPDIR/man.c"
	same "$BATS_TEST_TMPDIR/unit.c" "$BATS_TEST_TMPDIR/man.c"
}

@test "the example program builds against libjenc.a and prints what the documents say" {
	local lib="$JENC_LIB" d="$BATS_TEST_TMPDIR"
	[ -f "$lib" ] || { echo "no $lib: run make all first, or set JENC_LIB"; return 1; }
	man3_example_block 1 >"$d/example.c"
	# shellcheck disable=SC2086 # LDFLAGS is a list of flags
	run "${CC:-cc}" -std=c11 -Wall -Wextra -Wpedantic -Werror \
	    -D_POSIX_C_SOURCE=200809L -I"$REPO/lib" -o "$d/example" \
	    "$d/example.c" "$lib" ${LDFLAGS:-} -lpthread
	echo "$output"
	[ "$status" -eq 0 ]
	"$d/example" >"$d/out" 2>"$d/err"
	[ ! -s "$d/err" ]
	expected_example_output >"$d/want"
	same "$d/want" "$d/out"
	# What the manual and the README show as its output.
	man3_example_block 2 >"$d/man-out"
	same "$d/want" "$d/man-out"
	readme_block_after 'The program prints:' >"$d/readme-out"
	same "$d/want" "$d/readme-out"
}

@test "jenc --help and jenc(1) name the same long options" {
	run "$JENC" --help
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | grep -o -- '--[a-z][a-z-]*' | sort -u \
	    >"$BATS_TEST_TMPDIR/help"
	sed 's/Fl Fl /Fl -/g' "$REPO/man/jenc.1" |
	    grep -o 'Fl -[a-z][a-z-]*' | sed 's/^Fl /-/' | sort -u \
	    >"$BATS_TEST_TMPDIR/man"
	# The contract's options, so that neither list can lose one unseen.
	for o in --from --compact --indent --tab --lines --html-escape \
	    --ascii --single --validate --max-depth --delimiter --no-header \
	    --header --types --ragged --output --write --check --null \
	    --best-effort --to --flatten-sep --crlf --csv-safe --nest --log \
	    --level --since --until --hide --only --time-key --level-key \
	    --message-key --time-format --utc --help --version; do
		grep -qx -- "$o" "$BATS_TEST_TMPDIR/man" ||
		    { echo "jenc(1) lacks $o"; return 1; }
	done
	same "$BATS_TEST_TMPDIR/man" "$BATS_TEST_TMPDIR/help"
}

@test "every function and constant of lib/jenc.h is in jenc(3)" {
	local h="$REPO/lib/jenc.h" m="$REPO/man/jenc.3" name missing= nfn=0
	# Functions: in NAME (.Nm) and in SYNOPSIS (.Fn).
	for name in $(grep '^\(JENC_API \)\{0,1\}[a-z].*[ *]jenc_[a-z0-9_]*(' "$h" |
	    grep -o 'jenc_[a-z0-9_]*(' | tr -d '(' | sort -u); do
		grep -q "^\.Nm $name\( ,\)\{0,1\}$" "$m" ||
		    missing="$missing $name(NAME)"
		grep -q "^\.Fn $name " "$m" || missing="$missing $name(SYNOPSIS)"
		nfn=$((nfn + 1))
	done
	[ "$nfn" -gt 40 ] || { echo "only $nfn functions found in jenc.h"; return 1; }
	# Macros and types.
	for name in $(grep -o '^#define JENC_[A-Z0-9_]*' "$h" |
	    sed 's/^#define //' | grep -vx JENC_H) \
	    $(grep -o '} jenc_[a-z_]*;' "$h" | grep -o 'jenc_[a-z_]*') \
	    jenc_enc jenc_sink_fn; do
		grep -q "$name" "$m" || missing="$missing $name"
	done
	[ -z "$missing" ] || { echo "not in jenc(3):$missing"; return 1; }
}

@test "mandoc -Tlint finds nothing in the manuals but missing cross-references" {
	command -v mandoc >/dev/null || { echo "mandoc is not installed"; return 1; }
	# mandoc prints its findings on stdout; stderr only has notes about the
	# manual database of this machine.
	mandoc -Tlint "$REPO/man/jenc.1" "$REPO/man/jenc.3" 2>/dev/null \
	    >"$BATS_TEST_TMPDIR/lint" || true
	# .Os names jenc and its version on purpose: without it man(1) (groff)
	# and mandoc print different footers (see the next test).
	grep -v -e 'STYLE: referenced manual not found' \
	    -e 'STYLE: Mdocdate missing' \
	    -e 'STYLE: operating system explicitly specified: Os jenc ' \
	    "$BATS_TEST_TMPDIR/lint" \
	    >"$BATS_TEST_TMPDIR/bad" || true
	cat "$BATS_TEST_TMPDIR/bad"
	[ ! -s "$BATS_TEST_TMPDIR/bad" ]
}

@test "the manuals' footer is jenc and its version, under man and under mandoc" {
	local m version foot
	version=$(sed -n 's/^#define JENC_VERSION "\(.*\)"/\1/p' "$REPO/lib/jenc.h")
	[ -n "$version" ]
	for m in jenc.1 jenc.3; do
		grep -qx ".Os jenc $version" "$REPO/man/$m" ||
		    { echo "man/$m: .Os is not 'jenc $version'"; return 1; }
		command -v mandoc >/dev/null || continue
		foot=$(mandoc -Tascii "$REPO/man/$m" | tail -n 1)
		case $foot in
		"jenc $version "*" jenc $version") ;;
		*) echo "mandoc footer of $m: $foot"; return 1 ;;
		esac
		command -v man >/dev/null || continue
		# The same words; the widths of the layouts differ.
		[ "$(man -l "$REPO/man/$m" 2>/dev/null | tail -n 1 | tr -s ' ')" = \
		    "$(mandoc -Tascii "$REPO/man/$m" | tail -n 1 | tr -s ' ')" ] ||
		    { echo "man and mandoc print different footers for $m"; return 1; }
	done
}

@test "every console transcript in README.md prints what it shows" {
	local d="$BATS_TEST_TMPDIR" n=0 bad=0 i
	# Split each ```console block into a script (the "$ " lines) and the
	# output it should print (the other lines).
	awk -v dir="$d" '
		/^```console$/ { n++; inblk = 1;
			printf "" > (dir "/t" n ".sh"); printf "" > (dir "/t" n ".want");
			next }
		inblk && /^```$/ { inblk = 0; next }
		inblk && /^\$ / { print substr($0, 3) > (dir "/t" n ".sh"); next }
		inblk { print > (dir "/t" n ".want") }
		END { print n > (dir "/count") }
	' "$REPO/README.md"
	n=$(cat "$d/count")
	[ "$n" -gt 5 ]
	mkdir "$d/bin"
	ln -s "$JENC" "$d/bin/jenc"
	for i in $(seq 1 "$n"); do
		(cd "$REPO" && PATH="$d/bin:$PATH" LC_ALL=C TMPDIR="$d" bash "$d/t$i.sh" \
		    </dev/null >"$d/t$i.out" 2>&1) || true
		if ! same "$d/t$i.want" "$d/t$i.out"; then
			echo "in README.md console block $i:"; cat "$d/t$i.sh"
			bad=$((bad + 1))
		fi
	done
	[ "$bad" -eq 0 ]
}
