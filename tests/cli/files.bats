#!/usr/bin/env bats
# files.bats - jenc on files: -o FILE replaced atomically, -w rewriting in
# place, --check listing what is not in the requested form, and the refusal
# to read a file that is also the standard output.  Never a byte lost: on
# invalid input, a full disk or a read-only directory the file holds its
# old content or its new one, and no temporary file stays behind (signals
# and kills: filesafe.bats).

load helpers

GEN=$BATS_TEST_DIRNAME/../data/h_gen.py

setup() {
	setup_jenc
	JPID=
	MNTS=
	SCRATCH=
	file_inputs
}

teardown() {
	exec 6>&-
	if [ -n "$JPID" ]; then
		kill -9 "$JPID" 2>/dev/null || true
		wait "$JPID" 2>/dev/null || true
	fi
	local m
	for m in $MNTS; do
		mountpoint -q "$m" && umount "$m"
	done
	if [ -n "$SCRATCH" ]; then
		rm -rf "$SCRATCH"
	fi
}

# no_temps [DIR] - fail if DIR (default .) holds a temporary file of jenc.
no_temps() {
	local left
	left=$(cd "${1:-.}" && find . -maxdepth 1 -name '.*.jenc-*')
	[ -z "$left" ] || fail "temporary files left in ${1:-.}: $left"
}

# mount_tmpfs DIR SIZE - mount a tmpfs of SIZE on DIR (skips unless root).
mount_tmpfs() {
	[ "$(id -u)" = 0 ] || skip "mounting a tmpfs needs root"
	mkdir -p "$1"
	mount -t tmpfs -o "size=$2" tmpfs "$1" 2>/dev/null ||
	    skip "cannot mount a tmpfs here (no CAP_SYS_ADMIN?)"
	MNTS="$MNTS $1"
}

# mtime FILE - modification time in nanoseconds.
mtime() {
	stat -c %.9Y "$1"
}

# ---- -w -----------------------------------------------------------------

@test "-w rewrites each file; an invalid one is told and left byte for byte, the others still done" {
	local i
	for i in 1 2 3 4 5 6; do
		printf '[%d,{"k":"v%d"}]' "$i" "$i" >"f$i.json"
	done
	printf '[3,{"k":' >f3.json
	cp f3.json f3.orig
	jrun -w f1.json f2.json f3.json f4.json f5.json f6.json
	expect_invalid '' 'jenc: f3.json:1:9: expected value after '"':'"', found end of input
  [3,{"k":
          ^
'
	for i in 1 2 4 5 6; do
		printf '[\n  %d,\n  {\n    "k": "v%d"\n  }\n]\n' "$i" "$i" >want
		same_bytes want "f$i.json" "f$i.json"
	done
	same_bytes f3.orig f3.json "the invalid file"
	no_temps
}

@test "-w on a file already in the requested form writes nothing: inode and mtime kept" {
	mkdir w
	cp formatted.out w/f.json
	touch -d '2001-02-03 04:05:06.123456789' w/f.json
	touch -d '2001-02-03 04:05:06' w
	local ino
	ino=$(stat -c %i w/f.json)
	jrun -w w/f.json
	expect_ok ''
	[ "$(mtime w/f.json)" = 981173106.123456789 ] || fail "mtime now $(mtime w/f.json)"
	[ "$(stat -c %i w/f.json)" = "$ino" ] || fail "f.json was replaced"
	[ "$(mtime w)" = 981173106.000000000 ] || fail "the directory was written"
	same_bytes formatted.out w/f.json
	# The same with another layout: compact input under -c.
	printf '{"a":1}\n' >c.json
	touch -d '2001-02-03 04:05:06' c.json
	jrun -w -c c.json
	expect_ok ''
	[ "$(mtime c.json)" = 981173106.000000000 ] || fail "mtime of c.json now $(mtime c.json)"
}

@test "-w: what differs is rewritten, even a missing newline or trailing space" {
	printf '{\n  "a": 1\n}' >nonl.json
	printf '{\n  "a": 1\n}\n  \n\n' >trail.json
	printf '' >empty.json
	printf '[1]\n[2]\n' >two.json
	jrun -w nonl.json trail.json empty.json
	expect_ok ''
	printf '{\n  "a": 1\n}\n' >want
	same_bytes want nonl.json nonl.json
	same_bytes want trail.json trail.json
	[ ! -s empty.json ] || fail "empty.json is no longer empty"
	jrun -w -c two.json
	expect_ok ''
	jrun -w --tab u.json
	expect_ok ''
	printf '{\n\t"a": [\n\t\t1,\n\t\t{\n\t\t\t"b": null\n\t\t}\n\t],\n\t"c": "x"\n}\n' >want
	same_bytes want u.json
	no_temps
}

@test "-w keeps the permission bits, the owner and the group" {
	chmod 640 u.json
	jrun -w u.json
	expect_ok ''
	same_bytes formatted.out u.json
	[ "$(stat -c %a u.json)" = 640 ] || fail "mode $(stat -c %a u.json)"
	printf '[1]' >ro.json
	chmod 444 ro.json
	jrun -w ro.json
	expect_ok ''
	[ "$(stat -c %a ro.json)" = 444 ] || fail "mode $(stat -c %a ro.json)"
	[ "$(id -u)" = 0 ] || skip "changing the owner needs root"
	printf '[2]' >owned.json
	chown 1234:5678 owned.json
	chmod 604 owned.json
	jrun -w owned.json
	expect_ok ''
	[ "$(stat -c '%u %g %a' owned.json)" = '1234 5678 604' ] ||
	    fail "owner, group, mode: $(stat -c '%u %g %a' owned.json)"
	printf '[\n  2\n]\n' >want
	same_bytes want owned.json
}

@test "-w through a symbolic link replaces the file it points to; the link stays" {
	mkdir elsewhere
	mv u.json elsewhere/real.json
	ln -s elsewhere/real.json link.json
	jrun -w link.json
	expect_ok ''
	[ -L link.json ] || fail "link.json is no longer a symbolic link"
	[ "$(readlink link.json)" = elsewhere/real.json ] || fail "link now points to $(readlink link.json)"
	same_bytes formatted.out elsewhere/real.json
	no_temps
	no_temps elsewhere
}

@test "-w leaves a file with other hard links alone, and says why (exit 3)" {
	ln u.json other-name.json
	cp u.json orig
	jrun -w u.json
	expect_status 3
	expect_out ''
	expect_err 'jenc: u.json: has 2 hard links, left unchanged (its other names would keep the old content)
'
	same_bytes orig u.json
	[ "$(stat -c %h u.json)" = 2 ] || fail "links: $(stat -c %h u.json)"
	# -o refuses such a file too, before reading.
	jrun -o u.json formatted.out
	expect_status 3
	expect_err 'jenc: u.json: has 2 hard links, left unchanged (its other names would keep the old content)
'
	same_bytes orig u.json
	# Nothing to say when it needs no change.
	cp formatted.out f.json
	ln f.json f2.json
	jrun -w f.json
	expect_ok ''
}

@test "-w: a directory or a device is reported and skipped, the other files done" {
	mkdir d
	jrun -w d u.json /dev/null
	expect_status 3
	expect_out ''
	expect_err 'jenc: d: Is a directory
jenc: /dev/null: not a regular file, left unchanged
'
	same_bytes formatted.out u.json
}

@test "-w: usage errors (no FILE, '-', CSV or TSV, with -o, --check, --validate)" {
	jrun -w
	expect_usage 'jenc: -w needs the FILEs to rewrite'
	jrun -w u.json -
	expect_usage 'jenc: -w cannot rewrite the standard input in place'
	printf 'a,b\n1,2\n' >t.csv
	cp t.csv orig
	jrun -w t.csv
	expect_usage 'jenc: t.csv: -w cannot replace CSV or TSV input with JSON (write it elsewhere with -o)'
	jrun --write --from=tsv u.json
	expect_usage 'jenc: u.json: -w cannot replace CSV or TSV input with JSON (write it elsewhere with -o)'
	jrun -w -o out.json u.json
	expect_usage 'jenc: -o and -w cannot be used together'
	jrun -w --check u.json
	expect_usage 'jenc: -w and --check cannot be used together'
	jrun -w --validate u.json
	expect_usage 'jenc: -w and --validate cannot be used together'
	same_bytes orig t.csv
	# --from=json reads a .csv name as JSON, so -w may rewrite it.
	printf '[1]' >j.csv
	jrun -w --from=json j.csv
	expect_ok ''
	printf '[\n  1\n]\n' >want
	same_bytes want j.csv
}

# ---- --check --------------------------------------------------------------

@test "--check lists the files not in the requested form, one per line (exit 1)" {
	cp formatted.out f.json
	printf '[1]\n' >compact.json
	touch -d '2001-02-03 04:05:06' u.json
	jrun --check f.json u.json compact.json f.json
	expect_status 1
	expect_err ''
	expect_out $'u.json\ncompact.json\n'
	[ "$(mtime u.json)" = 981173106.000000000 ] || fail "--check touched u.json"
	jrun --check f.json
	expect_ok ''
	jrun --check -c compact.json
	expect_ok ''
	jrun --check -c f.json compact.json
	expect_status 1
	expect_out $'f.json\n'
	# --validate with --check is --check.
	jrun --check --validate f.json u.json
	expect_status 1
	expect_out $'u.json\n'
	no_temps
}

@test "--check: an invalid file is an error on stderr, not listed (exit 1); a missing one exit 3" {
	cp formatted.out f.json
	jrun --check bad.json f.json
	expect_invalid '' "jenc: bad.json:1:8: expected ',' or '}' after object member, found end of input
  {\"a\": 1
         ^
"
	jrun --check u.json bad.json nope.json
	expect_status 3
	expect_out $'u.json\n'
	expect_err "jenc: bad.json:1:8: expected ',' or '}' after object member, found end of input
  {\"a\": 1
         ^
jenc: nope.json: No such file or directory
"
}

@test "--check reads the standard input, from a pipe or a file, and calls it <stdin>" {
	cp formatted.out f.json
	jrun --check <f.json
	expect_ok ''
	jrun --check < <(cat f.json)
	expect_ok ''
	jrun --check < <(cat u.json)
	expect_status 1
	expect_out $'<stdin>\n'
	jrun --check - <u.json
	expect_status 1
	expect_out $'<stdin>\n'
	jrun --check f.json - u.json <u.json
	expect_status 1
	expect_out $'<stdin>\nu.json\n'
	# From the current offset of a file, as the reader reads it.
	{ printf 'junk\n'; cat f.json; } >off.json
	{ read -r _; jrun --check; } <off.json
	expect_ok ''
	jrun --check < <(cat bad.json)
	expect_status 1
	expect_out ''
	expect_err "jenc: <stdin>:1:8: expected ',' or '}' after object member, found end of input
  {\"a\": 1
         ^
"
}

@test "--check on a large file: one byte changed anywhere is found" {
	python3 "$GEN" array 300000 >big.json
	"$JENC" big.json >big.fmt
	jrun --check big.fmt
	expect_ok ''
	cp big.fmt mid.json
	# Row k is "  0,\n" at byte 2 + 5k: a space for a newline is still
	# valid JSON, no longer its layout.
	[ "$(head -c 700002 mid.json | tail -c 5 | od -An -c | tr -d ' ')" = '0,\n' ] ||
	    fail "big.fmt is not laid out as this test expects"
	printf ' ' | dd of=mid.json bs=1 seek=700001 conv=notrunc status=none
	cp big.fmt last.json
	printf ' ' >>last.json
	{ printf ' '; cat big.fmt; } >first.json
	jrun --check big.fmt mid.json last.json first.json big.fmt
	expect_status 1
	expect_err ''
	expect_out $'mid.json\nlast.json\nfirst.json\n'
}

@test "--check: CSV and TSV input and -o are usage errors" {
	printf 'a\n1\n' >t.csv
	jrun --check t.csv
	expect_usage 'jenc: t.csv: --check cannot compare CSV or TSV input with JSON'
	jrun --check -f csv <t.csv
	expect_usage 'jenc: <stdin>: --check cannot compare CSV or TSV input with JSON'
	jrun --check -o out.json u.json
	expect_usage 'jenc: -o and --check cannot be used together'
	[ ! -e out.json ] || fail "out.json was created"
}

# ---- -o FILE ---------------------------------------------------------------

@test "-o writes every input's output into FILE, stdout stays empty" {
	printf '[2]' >b.json
	jrun -c -o out.json u.json b.json
	expect_ok ''
	printf '{"a":[1,{"b":null}],"c":"x"}\n[2]\n' >want
	same_bytes want out.json
	jrun --output=out.json -c b.json
	expect_ok ''
	printf '[2]\n' >want
	same_bytes want out.json
	# '-o -' is the standard output.
	jrun -c -o - b.json
	expect_ok $'[2]\n'
	no_temps
}

@test "-o FILE may be one of the inputs" {
	jrun -o u.json u.json u.json
	expect_ok ''
	cat formatted.out formatted.out >want
	same_bytes want u.json
}

@test "-o: a new FILE gets mode 0666 less the umask, an existing one keeps its mode" {
	(umask 027 && "$JENC" -o new1.json u.json)
	[ "$(stat -c %a new1.json)" = 640 ] || fail "umask 027: mode $(stat -c %a new1.json)"
	(umask 002 && "$JENC" -o new2.json u.json)
	[ "$(stat -c %a new2.json)" = 664 ] || fail "umask 002: mode $(stat -c %a new2.json)"
	same_bytes formatted.out new2.json
	printf 'old' >old.json
	chmod 600 old.json
	(umask 000 && "$JENC" -o old.json u.json)
	[ "$(stat -c %a old.json)" = 600 ] || fail "existing: mode $(stat -c %a old.json)"
	same_bytes formatted.out old.json
}

@test "-o: invalid input or an unreadable one leaves FILE untouched (exit 1, 3)" {
	printf 'old content\n' >out.json
	cp out.json orig
	touch -d '2001-02-03 04:05:06' out.json
	jrun -o out.json u.json bad.json
	expect_invalid '' "jenc: bad.json:1:8: expected ',' or '}' after object member, found end of input
  {\"a\": 1
         ^
"
	same_bytes orig out.json
	[ "$(mtime out.json)" = 981173106.000000000 ] || fail "out.json was touched"
	jrun -o out.json u.json nope.json
	expect_status 3
	expect_err $'jenc: nope.json: No such file or directory\n'
	same_bytes orig out.json
	jrun -o new.json bad.json
	expect_status 1
	[ ! -e new.json ] || fail "new.json was created"
	no_temps
}

@test "-o with CSV input writes JSON; --validate reads CSV too" {
	printf 'a,b\n1,2\n' >t.csv
	jrun -c -o t.json t.csv
	expect_ok ''
	printf '[{"a":"1","b":"2"}]\n' >want
	same_bytes want t.json
	jrun -c -t -o t.csv t.csv
	expect_ok ''
	printf '[{"a":1,"b":2}]\n' >want
	same_bytes want t.csv
	printf 'a,b\n1\n' >bad.csv
	jrun --validate bad.csv
	expect_invalid '' $'jenc: bad.csv:2: record has 1 field, header has 2\n'
}

@test "-o: a directory, a missing directory, a device, /dev/full" {
	mkdir d
	jrun -o d u.json
	expect_status 3
	expect_err $'jenc: d: Is a directory\n'
	jrun -o nodir/out.json u.json
	expect_status 3
	expect_err $'jenc: nodir/out.json: cannot create a temporary file in nodir: No such file or directory\n'
	jrun -o /dev/null u.json
	expect_ok ''
	[ -c /dev/null ] || fail "/dev/null is no longer a device"
	[ -w /dev/full ] || skip "no /dev/full"
	jrun -o /dev/full u.json
	expect_status 3
	expect_out ''
	expect_err $'jenc: /dev/full: No space left on device\n'
	no_temps
}

@test "-o -w --check --validate: one at a time" {
	jrun -o out.json --validate u.json
	expect_usage 'jenc: -o and --validate cannot be used together'
	jrun -o out.json --check u.json
	expect_usage 'jenc: -o and --check cannot be used together'
}

# ---- a full disk, a read-only directory ------------------------------------

@test "a full disk: -w and -o leave the file as it was and say why (exit 3)" {
	mount_tmpfs "$T/full" 64k
	python3 "$GEN" array 12000 >full/f.json
	cp full/f.json orig
	printf '[1]' >full/small.json
	jrun -w full/f.json full/small.json
	expect_status 3
	expect_out ''
	expect_err $'jenc: full/f.json: No space left on device\n'
	same_bytes orig full/f.json "the file on the full disk"
	printf '[\n  1\n]\n' >want
	same_bytes want full/small.json
	no_temps full
	printf '"old"\n' >full/out.json
	cp full/out.json old
	python3 "$GEN" array 50000 >big.json
	jrun -o full/out.json big.json
	expect_status 3
	expect_out ''
	expect_err $'jenc: full/out.json: No space left on device\n'
	same_bytes old full/out.json "-o FILE on the full disk"
	no_temps full
}

@test "a read-only file system: -w and -o say why (exit 3), a formatted file is fine" {
	mount_tmpfs "$T/ro" 1m
	cp u.json ro/u.json
	cp formatted.out ro/f.json
	mount -o remount,ro "$T/ro"
	jrun -w ro/f.json ro/u.json
	expect_status 3
	expect_out ''
	expect_err $'jenc: ro/u.json: cannot create a temporary file in ro: Read-only file system\n'
	same_bytes u.json ro/u.json
	jrun -o ro/out.json u.json
	expect_status 3
	expect_err $'jenc: ro/out.json: cannot create a temporary file in ro: Read-only file system\n'
	jrun --check ro/f.json
	expect_ok ''
}

@test "a directory without write permission, as an unprivileged user" {
	command -v setpriv >/dev/null || skip "setpriv is not installed"
	[ "$(id -u)" = 0 ] || skip "switching to user nobody needs root"
	SCRATCH=$(mktemp -d /tmp/jenc-files.XXXXXX)
	chmod 755 "$SCRATCH"
	cp "$JENC" "$SCRATCH/jenc"
	mkdir "$SCRATCH/d"
	cp u.json "$SCRATCH/d/u.json"
	chmod 666 "$SCRATCH/d/u.json"
	chmod 555 "$SCRATCH/d"
	status=0
	(cd "$SCRATCH" && setpriv --reuid=65534 --regid=65534 --clear-groups \
	    ./jenc -w d/u.json) >out 2>err || status=$?
	expect_status 3
	expect_out ''
	expect_err $'jenc: d/u.json: cannot create a temporary file in d: Permission denied\n'
	same_bytes u.json "$SCRATCH/d/u.json"
}

# Signals, kills and leftovers: filesafe.bats, where the output file has
# no name until its rename.

# ---- input is output --------------------------------------------------------

@test "input file is output file: refused before reading, for > and >> (exit 2)" {
	cp u.json orig
	status=0
	"$JENC" u.json >u.json 2>err || status=$?
	expect_status 2
	expect_err $'jenc: u.json: input file is output file (use -w to rewrite it in place)\n'
	[ ! -s u.json ] || fail "u.json is not as the shell left it (empty)"
	cp orig u.json
	status=0
	"$JENC" -c u.json >>u.json 2>err || status=$?
	expect_status 2
	expect_err $'jenc: u.json: input file is output file (use -w to rewrite it in place)\n'
	same_bytes orig u.json
	printf '[1]' >b.json
	status=0
	"$JENC" b.json - <u.json >>u.json 2>err || status=$?
	expect_status 2
	expect_err $'jenc: <stdin>: input file is output file (use -w to rewrite it in place)\n'
	same_bytes orig u.json
	# Another file as stdout is fine, and so is a link's own name.
	"$JENC" u.json >other.json
	same_bytes formatted.out other.json
}

@test "input file is output file: CSV input, and a name through a symbolic link" {
	printf 'a\n1\n' >t.csv
	cp t.csv orig
	status=0
	"$JENC" t.csv >>t.csv 2>err || status=$?
	expect_status 2
	expect_err $'jenc: t.csv: input file is output file\n'
	same_bytes orig t.csv
	ln -s u.json link.json
	cp u.json orig
	status=0
	"$JENC" link.json >>u.json 2>err || status=$?
	expect_status 2
	expect_err $'jenc: link.json: input file is output file (use -w to rewrite it in place)\n'
	same_bytes orig u.json
}

@test "--check -S and -w -S: the sort order is part of the requested form" {
	printf '{"b": 1, "a": {"d": 2, "c": 3}}\n' >x.json
	printf '{\n  "a": 1\n}\n' >ok.json
	jrun --check -S x.json ok.json
	expect_status 1
	expect_out $'x.json\n'
	jrun -w -S x.json ok.json
	expect_status 0
	expect_out ''
	run cat x.json
	[ "$output" = $'{\n  "a": {\n    "c": 3,\n    "d": 2\n  },\n  "b": 1\n}' ]
	jrun --check -S x.json ok.json
	expect_status 0
	expect_out ''
}
