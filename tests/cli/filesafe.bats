#!/usr/bin/env bats
# filesafe.bats - -o, -w and --check never write a message into an output,
# never remove a file jenc did not make, keep what a replaced file had
# (owner, group, mode, extended attributes, ACL), show names that hold
# control characters safely, and refuse what they cannot do with a message:
# closed standard descriptors, files named like jenc's temporary files,
# FIFOs and sockets given to -w, a directory's default ACL, ulimit -f,
# signals during a rewrite, names with ESC and newlines.

load helpers

GEN=$BATS_TEST_DIRNAME/../data/h_gen.py

setup() {
	setup_jenc
	JPID=
	SCRATCH=
	file_inputs
}

teardown() {
	exec 6>&- 7>&-
	if [ -n "$JPID" ]; then
		kill -9 "$JPID" 2>/dev/null || true
		wait "$JPID" 2>/dev/null || true
	fi
	if [ -n "$SCRATCH" ]; then
		rm -rf "$SCRATCH"
	fi
}

# names - the names in the test's directory, dot files too, one a line,
# but for those of the test itself (jrun's out and err, ...).
names() {
	LC_ALL=C ls -A |
	    grep -vxE 'before|after|out|err|expected\.(out|err)|want|orig' || true
}

# no_temps [DIR] - fail if DIR (default .) holds a temporary file of jenc.
no_temps() {
	local left
	left=$(cd "${1:-.}" && find . -maxdepth 1 -name '.*.jenc-*')
	[ -z "$left" ] || fail "temporary files left in ${1:-.}: $left"
}

# notmpfile - run the rest of the test as on a file system without
# unnamed files (O_TMPFILE refused): jenc makes named temporary files.
notmpfile() {
	need_shim notmpfile "which would hide the refused O_TMPFILE"
	export LD_PRELOAD=$SHIM
}

# need_setpriv - skip unless this test can run jenc as user nobody.
need_setpriv() {
	command -v setpriv >/dev/null || skip "setpriv is not installed"
	[ "$(id -u)" = 0 ] || skip "switching to user nobody needs root"
}

# need_acl DIR - skip unless setfacl works in DIR.
need_acl() {
	command -v setfacl >/dev/null || skip "setfacl is not installed (apt-get install acl)"
	setfacl -m u:daemon:r "$1" 2>/dev/null ||
	    skip "the file system refuses ACLs here"
	setfacl -b "$1"
}

# need_user_xattr FILE - skip unless FILE can have user.* attributes.
need_user_xattr() {
	command -v setfattr >/dev/null || skip "setfattr is not installed (apt-get install attr)"
	setfattr -n user.probe -v 1 "$1" 2>/dev/null ||
	    skip "the file system refuses user.* extended attributes"
	setfattr -x user.probe "$1"
}

# acl_of FILE - the access ACL of FILE, one entry a line, no comments.
acl_of() {
	getfacl -cp "$1" 2>/dev/null | sed '/^$/d'
}

# feed_fifo PID FIFO - open FIFO for writing on fd 6 (read-write, so
# never waiting) and wait until process PID has it open: jenc opens its
# output file before its inputs.  Fails if PID ends first.
feed_fifo() {
	local n=0
	exec 6<>"$2"
	until [ -n "$(find "/proc/$1/fd" -lname "*/$2" 2>/dev/null)" ]; do
		kill -0 "$1" 2>/dev/null || fail "jenc ended before it read $2: $(cat err)"
		n=$((n + 1))
		[ "$n" -lt 6000 ] || fail "jenc did not open $2 within a minute"
		sleep 0.01
	done
}

# ---- closed standard descriptors -------------------------------------------

@test "closed stderr: -o FILE holds the output only, never a message" {
	printf '{"a": 1}\n' >in.json
	status=0
	"$JENC" -t -o out.json in.json 2>&- || status=$?
	expect_status 0
	printf '{\n  "a": 1\n}\n' >want
	same_bytes want out.json
	# An error with stdout and stderr closed: out.json stays as it was.
	printf 'old\n' >out.json
	status=0
	"$JENC" -o out.json in.json bad.json <&- >&- 2>&- || status=$?
	expect_status 1
	printf 'old\n' >want
	same_bytes want out.json
}

@test "closed stdout and stderr: -w --on-error=skip writes no report into the file" {
	printf '{"a": 1}\n{"b": \n[2]\n' >w.json
	status=0
	"$JENC" -c --on-error=skip -w w.json >&- 2>&- || status=$?
	expect_status 0
	printf '{"a":1}\n[2]\n' >want
	same_bytes want w.json
	no_temps
}

@test "closed stdout: a write to it still fails (exit 3, write error), with -o /dev/stdout and --check too" {
	status=0
	"$JENC" -o /dev/stdout u.json >&- 2>err || status=$?
	expect_status 3
	expect_err $'jenc: write error: Bad file descriptor\n'
	status=0
	"$JENC" --check u.json >&- 2>err || status=$?
	expect_status 3
	expect_err $'jenc: write error: Bad file descriptor\n'
	# --check's list into a file that another input is read from: the
	# closed stdout is not reused for the copy of a pipe.
	status=0
	"$JENC" --check - <(cat u.json) >&- 2>err <u.json || status=$?
	expect_status 3
	expect_err $'jenc: write error: Bad file descriptor\n'
	# Nothing to list: nothing written, nothing failed.
	status=0
	"$JENC" --check formatted.out >&- 2>err || status=$?
	expect_status 0
	expect_err ''
}

@test "closed stdin: '-' is a read error, a FILE is read as usual" {
	status=0
	"$JENC" -c -o out.json u.json - <&- 2>err || status=$?
	expect_status 3
	expect_err $'jenc: <stdin>: Bad file descriptor\n'
	[ ! -e out.json ] || fail "out.json was created"
	jrun -c -o out.json u.json <&-
	expect_ok ''
	printf '{"a":[1,{"b":null}],"c":"x"}\n' >want
	same_bytes want out.json
}

# ---- --check's list -------------------------------------------------------

@test "--check: a list that cannot be written is exit 3 with a message (ENOSPC, EPIPE)" {
	[ -w /dev/full ] || skip "no /dev/full"
	status=0
	"$JENC" --check u.json formatted.out >/dev/full 2>err || status=$?
	expect_status 3
	expect_err $'jenc: write error: No space left on device\n'
	# A pipe whose reader is gone, SIGPIPE ignored.
	python3 - "$JENC" --check u.json >rc 2>err <<'PY'
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
p = subprocess.run(sys.argv[1:], stdout=w, restore_signals=False)
print(p.returncode)
PY
	[ "$(cat rc)" = 3 ] || fail "exit status $(cat rc)"
	expect_err $'jenc: write error: Broken pipe\n'
}

# ---- names shown safely ----------------------------------------------------

@test "names with ESC, a newline, quotes or bad UTF-8 are quoted in --check's list and in messages" {
	local esc=$'a\033[31mb\nc.json' q='q"b\s.json' bin=$'x\xff.json' \
	    c1=$'y\xc2\x9b.json'
	cp u.json "$esc"
	cp u.json "$q"
	cp u.json "$bin"
	cp u.json "$c1"
	cp u.json 'é plain.json'
	jrun --check "$esc" "$q" "$bin" "$c1" 'é plain.json' formatted.out
	expect_status 1
	expect_err ''
	expect_out '"a\033[31mb\nc.json"
"q\"b\\s.json"
"x\377.json"
"y\302\233.json"
é plain.json
'
	# The same names in messages: an error, a refused -w.
	cp bad.json "$esc"
	jrun --check "$esc"
	expect_invalid '' "jenc: \"a\\033[31mb\\nc.json\":1:8: expected ',' or '}' after object member, found end of input
  {\"a\": 1
         ^
"
	rm -f "$q"
	mkfifo "$q"
	jrun -w "$q"
	expect_status 3
	expect_err 'jenc: "q\"b\\s.json": not a regular file, left unchanged
'
	jrun -o "$esc.d/x" u.json
	expect_status 3
	expect_err 'jenc: "a\033[31mb\nc.json.d/x": cannot create a temporary file in "a\033[31mb\nc.json.d": No such file or directory
'
}

@test "--check -z (--null) lists the names as they are, each followed by NUL" {
	local esc=$'a\033[31mb\nc.json'
	cp u.json "$esc"
	cp u.json plain.json
	jrun --check -z "$esc" formatted.out plain.json
	expect_status 1
	expect_err ''
	printf 'a\033[31mb\nc.json\0plain.json\0' >want
	same_bytes want out
	jrun --check --null - <u.json
	expect_status 1
	printf '<stdin>\0' >want
	same_bytes want out
	jrun --null formatted.out
	expect_usage 'jenc: -z needs --check'
	jrun -z -w u.json
	expect_usage 'jenc: -z needs --check'
}

# ---- temporary files: never anyone else's --------------------------------

@test "files named like jenc's temporary files are never removed" {
	sh -c 'exit 0' &
	local dead=$!
	wait "$dead"
	echo 'my backup' >.settings.jenc-20240101-backup
	echo 'mine' >".u.json.jenc-$dead-aB3xYz"
	echo 'also mine' >".out.json.jenc-$dead-000000"
	mkdir sub
	echo 'theirs' >"sub/.x.jenc-$dead-aaaaaa"
	names >before
	# -w that writes nothing, -w that rewrites, -o beside them.
	cp formatted.out f.json
	jrun -w f.json
	expect_ok ''
	jrun -w u.json
	expect_ok ''
	jrun -o out.json u.json
	expect_ok ''
	jrun -o sub/out.json u.json
	expect_ok ''
	names >after
	{ cat before; echo f.json; echo out.json; } | LC_ALL=C sort >want
	same_bytes want after "names left"
	[ "$(cat .settings.jenc-20240101-backup)" = 'my backup' ] || fail "the backup changed"
	[ "$(cat "sub/.x.jenc-$dead-aaaaaa")" = theirs ] || fail "sub's file changed"
	# Such a file given as an input: read, rewritten, never lost.
	printf '[1]' >".v.json.jenc-$dead-zzzzzz"
	jrun -w ".v.json.jenc-$dead-zzzzzz"
	expect_ok ''
	printf '[\n  1\n]\n' >want
	same_bytes want ".v.json.jenc-$dead-zzzzzz"
	printf '[2]' >".w.json.jenc-$dead-yyyyyy"
	jrun -c -o out.json ".w.json.jenc-$dead-yyyyyy"
	expect_ok ''
	printf '[2]\n' >want
	same_bytes want out.json
	[ -e ".w.json.jenc-$dead-yyyyyy" ] || fail "the -o input was removed"
}

@test "the output is written into an unnamed file: no name appears before the rename" {
	command -v strace >/dev/null || skip "strace is not installed"
	# (LeakSanitizer cannot run under ptrace: off, where jenc has it)
	ASAN_OPTIONS=detect_leaks=0 run strace -f -e trace=openat,linkat,rename \
	    -o trace "$JENC" -w u.json
	[ "$status" = 0 ] || fail "strace or jenc failed: $output"
	grep -q 'O_TMPFILE' trace || skip "this system has no O_TMPFILE here"
	grep -q '^[0-9]* *openat(.*O_CREAT' trace && fail "a named file was created: $(cat trace)"
	same_bytes formatted.out u.json
	no_temps
}

# signal_mid_o SIG CODE - jenc -o out.json reading a FIFO that stays open
# gets SIG once it holds its output file: it dies of it, out.json is
# untouched, nothing is left.  With a named temporary file (notmpfile),
# that file exists before the signal and is gone after.
signal_mid_o() {
	env --default-signal=INT true 2>/dev/null ||
	    skip "env --default-signal is not supported (coreutils < 8.31)"
	printf 'old\n' >out.json
	cp out.json orig
	mkfifo in.fifo
	names >before
	env --default-signal=INT "$JENC" -o out.json in.fifo >out 2>err &
	JPID=$!
	feed_fifo "$JPID" in.fifo
	printf '[1,2,' >&6
	if [ -n "${LD_PRELOAD:-}" ]; then
		compgen -G '.out.json.jenc-*' >/dev/null ||
		    fail "no named temporary file while jenc runs"
	fi
	kill "-$1" "$JPID"
	status=0
	wait "$JPID" || status=$?
	JPID=
	exec 6>&-
	expect_status "$2"
	expect_out ''
	expect_err ''
	same_bytes orig out.json
	names >after
	same_bytes before after "names after the signal"
}

@test "SIGINT and SIGTERM during -o: out.json untouched, nothing left" {
	signal_mid_o INT 130
	rm -f in.fifo
	signal_mid_o TERM 143
}

@test "SIGINT and SIGTERM during -o with a named temporary file: it is removed" {
	notmpfile
	signal_mid_o INT 130
	rm -f in.fifo
	signal_mid_o TERM 143
}

@test "SIGKILL during -o: nothing left behind (the output file has no name)" {
	printf 'old\n' >out.json
	mkfifo in.fifo
	names >before
	"$JENC" -o out.json in.fifo >out 2>err &
	JPID=$!
	feed_fifo "$JPID" in.fifo
	printf '[1,2,' >&6
	kill -9 "$JPID"
	wait "$JPID" 2>/dev/null || true
	JPID=
	names >after
	same_bytes before after "names after SIGKILL"
	[ "$(cat out.json)" = old ] || fail "out.json changed"
}

# kill_mid_w - jenc -w big.json killed (SIGKILL) once its new file is
# open, while it writes: big.json is its old content or its new one.
kill_mid_w() {
	python3 "$GEN" array 2000000 >old.json
	"$JENC" old.json >new.json
	cp old.json big.json
	"$JENC" -w big.json 2>err &
	JPID=$!
	local n=0
	# the new file: unnamed (".../#INODE (deleted)") or named
	until find "/proc/$JPID/fd" -lname "$T/#*" -o -lname "$T/.big.json.jenc-*" 2>/dev/null |
	    grep -q .; do
		kill -0 "$JPID" 2>/dev/null || break	# done already: new content
		n=$((n + 1))
		[ "$n" -lt 6000 ] || fail "jenc -w did not open a new file within a minute"
		sleep 0.01
	done
	kill -9 "$JPID" 2>/dev/null || true
	wait "$JPID" 2>/dev/null || true
	JPID=
	cmp -s big.json old.json || cmp -s big.json new.json ||
	    fail "big.json is neither the old nor the new content"
}

@test "SIGKILL in the middle of -w: old or new content, and no file left behind" {
	names >before
	kill_mid_w
	names >after
	sort -u before - <<<$'old.json\nnew.json\nbig.json' >want
	same_bytes want after "names after SIGKILL"
}

@test "SIGKILL in the middle of -w without O_TMPFILE: its named file stays, never removed by a later run" {
	notmpfile
	kill_mid_w
	local left
	left=$(compgen -G '.big.json.jenc-*') || skip "jenc ended before the kill"
	cp "$left" left.copy
	jrun -w big.json
	expect_ok ''
	same_bytes new.json big.json
	same_bytes left.copy "$left" "the file the killed run left"
}

@test "-w and -o without O_TMPFILE: the same files, no temporary left" {
	notmpfile
	chmod 640 u.json
	jrun -w u.json
	expect_ok ''
	same_bytes formatted.out u.json
	[ "$(stat -c %a u.json)" = 640 ] || fail "mode $(stat -c %a u.json)"
	(umask 027 && "$JENC" -o new.json u.json)
	[ "$(stat -c %a new.json)" = 640 ] || fail "umask 027: mode $(stat -c %a new.json)"
	same_bytes formatted.out new.json
	jrun -o out.json u.json bad.json
	expect_status 1
	[ ! -e out.json ] || fail "out.json was created"
	jrun --check < <(printf '[1]')
	expect_status 1
	expect_out $'<stdin>\n'
	no_temps
}

# ---- ulimit -f --------------------------------------------------------------

@test "ulimit -f: a file too large is a write error (exit 3), the file untouched, nothing left" {
	python3 "$GEN" array 3000 >big.json
	printf 'old\n' >out.json
	cp big.json orig
	names >before
	status=0
	(ulimit -f 4 && exec "$JENC" -o out.json big.json) >out 2>err || status=$?
	expect_status 3
	expect_err $'jenc: out.json: File too large\n'
	[ "$(cat out.json)" = old ] || fail "out.json changed"
	status=0
	(ulimit -f 4 && exec "$JENC" -w big.json) >out 2>err || status=$?
	expect_status 3
	expect_err $'jenc: big.json: File too large\n'
	same_bytes orig big.json
	names >after
	same_bytes before after "names after ulimit -f"
	status=0
	(ulimit -f 4 && exec "$JENC" big.json) >out 2>err || status=$?
	expect_status 3
	expect_err $'jenc: write error: File too large\n'
}

@test "ulimit -f without O_TMPFILE: the named temporary file is removed" {
	notmpfile
	python3 "$GEN" array 3000 >big.json
	cp big.json orig
	status=0
	(ulimit -f 4 && exec "$JENC" -w big.json) >out 2>err || status=$?
	expect_status 3
	expect_err $'jenc: big.json: File too large\n'
	same_bytes orig big.json
	no_temps
}

# ---- -w: only regular files, never waiting --------------------------------

@test "-w refuses a FIFO and a socket without waiting, the other files done" {
	mkfifo f.fifo
	python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' s.sock
	status=0
	timeout 60 "$JENC" -w f.fifo s.sock u.json /dev/null >out 2>err || status=$?
	[ "$status" != 124 ] || fail "jenc -w waited on the FIFO"
	expect_status 3
	expect_out ''
	expect_err 'jenc: f.fifo: not a regular file, left unchanged
jenc: s.sock: not a regular file, left unchanged
jenc: /dev/null: not a regular file, left unchanged
'
	same_bytes formatted.out u.json
	[ -p f.fifo ] || fail "f.fifo is no longer a FIFO"
	[ -S s.sock ] || fail "s.sock is no longer a socket"
}

# ---- input is output ---------------------------------------------------------

@test "input is output only when its data goes to stdout: -w, -o, --check, --validate are fine" {
	cp u.json orig
	status=0
	"$JENC" -w u.json >>u.json 2>err || status=$?
	expect_status 0
	expect_err ''
	same_bytes formatted.out u.json
	cp orig u.json
	status=0
	"$JENC" -o out.json u.json >>u.json 2>err || status=$?
	expect_status 0
	expect_err ''
	same_bytes orig u.json
	same_bytes formatted.out out.json
	status=0
	"$JENC" --validate u.json >>u.json 2>err || status=$?
	expect_status 0
	expect_err ''
	same_bytes orig u.json
	cp formatted.out f.json
	status=0
	"$JENC" --check f.json >>f.json 2>err || status=$?
	expect_status 0
	expect_err ''
	same_bytes formatted.out f.json
	# -o /dev/stdout is the standard output: refused.
	status=0
	"$JENC" -o /dev/stdout u.json >>u.json 2>err || status=$?
	expect_status 2
	expect_err $'jenc: u.json: input file is output file (use -w to rewrite it in place)\n'
	same_bytes orig u.json
}

@test "-o /dev/stdout and /dev/fd/N write to the descriptor: a deleted file, an appended one" {
	exec 7>gone.out
	rm gone.out
	status=0
	"$JENC" -c -o /dev/stdout u.json >&7 2>err || status=$?
	expect_status 0
	expect_err ''
	cat /proc/$$/fd/7 >got 2>/dev/null || skip "no /proc/$$/fd"
	printf '{"a":[1,{"b":null}],"c":"x"}\n' >want
	same_bytes want got
	exec 7>&-
	printf 'old\n' >log
	status=0
	"$JENC" -c -o /dev/stdout u.json >>log 2>err || status=$?
	expect_status 0
	printf 'old\n{"a":[1,{"b":null}],"c":"x"}\n' >want
	same_bytes want log
	status=0
	"$JENC" -c -o /dev/fd/7 u.json 7>>log 2>err || status=$?
	expect_status 0
	expect_err ''
	printf 'old\n{"a":[1,{"b":null}],"c":"x"}\n{"a":[1,{"b":null}],"c":"x"}\n' >want
	same_bytes want log
	jrun -o /dev/fd/9 u.json
	expect_status 3
	expect_err $'jenc: /dev/fd/9: Bad file descriptor\n'
}

# ---- what a replaced file keeps ------------------------------------------

@test "-w and -o keep user extended attributes" {
	need_user_xattr u.json
	setfattr -n user.note -v 'keep me' u.json
	setfattr -n user.empty u.json
	jrun -w u.json
	expect_ok ''
	same_bytes formatted.out u.json
	[ "$(getfattr --only-values -n user.note u.json)" = 'keep me' ] ||
	    fail "user.note: $(getfattr -d u.json 2>&1)"
	getfattr -n user.empty u.json >/dev/null 2>&1 || fail "user.empty is gone"
	printf 'old' >out.json
	setfattr -n user.note -v 'of out' out.json
	jrun -c -o out.json u.json
	expect_ok ''
	[ "$(getfattr --only-values -n user.note out.json)" = 'of out' ] ||
	    fail "out.json: $(getfattr -d out.json 2>&1)"
}

# default_acl_case - in d/ with a default ACL granting daemon rw: a file
# without an ACL and one with its own keep exactly what they had.
default_acl_case() {
	rm -rf d
	mkdir d
	need_acl d
	printf '{"a":1}' >d/plain.json
	chmod 640 d/plain.json
	printf '{"b":2}' >d/own.json
	setfacl -m u:nobody:r d/own.json
	chmod 640 d/own.json
	printf '{"c":3}' >d/out.json
	chmod 600 d/out.json
	setfacl -d -m u:daemon:rw d
	acl_of d/plain.json >plain.acl
	acl_of d/own.json >own.acl
	acl_of d/out.json >out.acl
	jrun -w d/plain.json d/own.json
	expect_ok ''
	jrun -o d/out.json u.json
	expect_ok ''
	acl_of d/plain.json >now
	same_bytes plain.acl now "ACL of a file without one"
	acl_of d/own.json >now
	same_bytes own.acl now "ACL of a file with its own"
	acl_of d/out.json >now
	same_bytes out.acl now "ACL of -o's file"
	[ "$(stat -c %a d/plain.json d/own.json d/out.json | tr '\n' ' ')" = '640 640 600 ' ] ||
	    fail "modes: $(stat -c %a d/plain.json d/own.json d/out.json)"
	printf '{\n  "a": 1\n}\n' >want
	same_bytes want d/plain.json
	no_temps d
}

@test "a directory's default ACL does not reach a rewritten file; a file's own ACL stays" {
	default_acl_case
}

@test "the same without O_TMPFILE" {
	notmpfile
	default_acl_case
}

@test "an owner that cannot be kept: the file left unchanged (exit 3), or replaced with --best-effort" {
	need_setpriv
	SCRATCH=$(mktemp -d /tmp/jenc-filesafe.XXXXXX)
	chmod 777 "$SCRATCH"
	cp "$JENC" "$SCRATCH/jenc"
	chmod 755 "$SCRATCH/jenc"
	cp u.json "$SCRATCH/u.json"
	chmod 666 "$SCRATCH/u.json"
	cp u.json "$SCRATCH/o.json"
	chmod 666 "$SCRATCH/o.json"
	status=0
	(cd "$SCRATCH" && setpriv --reuid=65534 --regid=65534 --clear-groups \
	    ./jenc -w u.json) >out 2>err || status=$?
	expect_status 3
	expect_out ''
	expect_err $'jenc: u.json: cannot keep its owner and group (0:0): Operation not permitted, left unchanged (see --best-effort)\n'
	same_bytes u.json "$SCRATCH/u.json"
	status=0
	(cd "$SCRATCH" && setpriv --reuid=65534 --regid=65534 --clear-groups \
	    ./jenc -o o.json u.json) >out 2>err || status=$?
	expect_status 3
	expect_err $'jenc: o.json: cannot keep its owner and group (0:0): Operation not permitted, left unchanged (see --best-effort)\n'
	same_bytes u.json "$SCRATCH/o.json"
	status=0
	(cd "$SCRATCH" && setpriv --reuid=65534 --regid=65534 --clear-groups \
	    ./jenc --best-effort -w u.json) >out 2>err || status=$?
	expect_status 0
	expect_out ''
	expect_err $'jenc: warning: u.json: its owner and group (0:0) not kept: Operation not permitted\n'
	same_bytes formatted.out "$SCRATCH/u.json"
	[ "$(stat -c '%u %g %a' "$SCRATCH/u.json")" = '65534 65534 666' ] ||
	    fail "owner, group, mode: $(stat -c '%u %g %a' "$SCRATCH/u.json")"
	no_temps "$SCRATCH"
	jrun --best-effort u.json
	expect_usage 'jenc: --best-effort needs -o FILE or -w'
}
