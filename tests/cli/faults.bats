#!/usr/bin/env bats
# faults.bats - failing outputs and inputs: a full device, a full tmpfs, a
# closed pipe, unreadable inputs among good ones, a reader that stops
# reading.  Each failure is one line on stderr and the documented status:
# 3 for an I/O error (winning over 1), quiet death by SIGPIPE for a closed
# pipe, and with SIGPIPE ignored "write error: Broken pipe" and 3, as cat
# does.

load helpers

GEN=$BATS_TEST_DIRNAME/../data/h_gen.py

teardown() {
	if [ -n "${MNT:-}" ] && mountpoint -q "$MNT"; then
		umount "$MNT"
	fi
	if [ -n "${PIDS:-}" ]; then
		# shellcheck disable=SC2086
		kill $PIDS 2>/dev/null || true
	fi
}

# io_counters PID - "RCHAR WCHAR" of a process.
io_counters() {
	awk '/^rchar:/ { r = $2 } /^wchar:/ { w = $2 } END { print r, w }' \
	    "/proc/$1/io"
}

# run_to TARGET ARGS... - run jenc ARGS with stdout to TARGET, stderr to
# $T/err; sets status.
run_to() {
	local target=$1
	shift
	JCMD="jenc $* >$target"
	status=0
	"$JENC" "$@" >"$target" 2>"$T/err" || status=$?
}

@test "/dev/full: exit 3, one line naming ENOSPC" {
	setup_jenc
	put '[1,2]'
	run_to /dev/full in
	expect_status 3
	expect_err 'jenc: write error: No space left on device
'
}

@test "/dev/full with more output than one buffer: still one line" {
	setup_jenc
	python3 "$GEN" array 300000 >big.json
	run_to /dev/full big.json
	expect_status 3
	expect_err 'jenc: write error: No space left on device
'
	run_to /dev/full -c big.json big.json
	expect_status 3
	expect_err 'jenc: write error: No space left on device
'
}

@test "a closed stdout: exit 3, write error" {
	setup_jenc
	put '[1]'
	JCMD="jenc in >&-"
	status=0
	"$JENC" in >&- 2>"$T/err" || status=$?
	expect_status 3
	expect_err 'jenc: write error: Bad file descriptor
'
}

@test "a full 64 KiB tmpfs: exit 3, ENOSPC, what was written is a prefix" {
	setup_jenc
	[ "$(id -u)" = 0 ] || skip "mounting a tmpfs needs root"
	MNT=$T/mnt
	mkdir "$MNT"
	mount -t tmpfs -o size=64k tmpfs "$MNT" 2>/dev/null ||
	    skip "cannot mount a tmpfs here (no CAP_SYS_ADMIN?)"
	python3 "$GEN" array 100000 >big.json
	run_to "$MNT/out" big.json
	cp "$MNT/out" written
	umount "$MNT"
	expect_status 3
	expect_err 'jenc: write error: No space left on device
'
	"$JENC" big.json >full
	[ "$(wc -c <full)" -gt 65536 ] || fail "test output too small"
	[ "$(wc -c <written)" -le 65536 ] || fail "$(wc -c <written) bytes on a 64 KiB tmpfs"
	head -c "$(wc -c <written)" full >prefix
	same_bytes prefix written "bytes written before ENOSPC"
}

@test "a closed pipe: jenc dies of SIGPIPE, nothing on stderr" {
	setup_jenc
	python3 "$GEN" array 1000000 >big.json
	# (env: the default action even if the suite runs with SIGPIPE ignored)
	env --default-signal=PIPE "$JENC" big.json 2>err | head -c 10 >head.out
	codes=("${PIPESTATUS[@]}")
	[ "${codes[0]}" = 141 ] || fail "jenc exit status ${codes[0]}, expected 141 (SIGPIPE)"
	expect_err ''
	[ "$(cat head.out)" = "[
  0,
  0" ] || fail "head: $(od -c head.out)"
}

@test "a closed pipe with endless input: jenc stops, nothing on stderr" {
	setup_jenc
	python3 "$GEN" forever |
	    env --default-signal=PIPE "$JENC" -c 2>err | head -n 2 >head.out
	codes=("${PIPESTATUS[@]}")
	[ "${codes[1]}" = 141 ] || fail "jenc exit status ${codes[1]}, expected 141 (SIGPIPE)"
	expect_err ''
	[ "$(cat head.out)" = '{"id":12345,"tags":["a","b"],"ok":true,"v":1.5}
{"id":12345,"tags":["a","b"],"ok":true,"v":1.5}' ] || fail "head: $(cat head.out)"
}

@test "a closed pipe with SIGPIPE ignored: a write error and exit 3, as cat" {
	setup_jenc
	python3 "$GEN" array 1000000 >big.json
	env --ignore-signal=PIPE "$JENC" big.json 2>err | head -c 10 >head.out
	codes=("${PIPESTATUS[@]}")
	[ "${codes[0]}" = 3 ] || fail "jenc exit status ${codes[0]}, expected 3"
	expect_err 'jenc: write error: Broken pipe
'
	[ "$(cat head.out)" = "[
  0,
  0" ] || fail "head: $(od -c head.out)"
	# cat does the same.
	env --ignore-signal=PIPE cat big.json 2>cat.err | head -c 10 >/dev/null
	codes=("${PIPESTATUS[@]}")
	[ "${codes[0]}" = 1 ] && [ "$(cat cat.err)" = 'cat: write error: Broken pipe' ] ||
	    fail "cat: exit ${codes[0]}, $(cat cat.err)"
	# Endless input: jenc stops at the error, and says it once.
	python3 "$GEN" forever |
	    env --ignore-signal=PIPE "$JENC" -c 2>err | head -n 1 >/dev/null
	codes=("${PIPESTATUS[@]}")
	[ "${codes[1]}" = 3 ] || fail "jenc exit status ${codes[1]}, expected 3"
	expect_err 'jenc: write error: Broken pipe
'
}

@test "unreadable inputs among several: others processed, exit 3" {
	setup_jenc
	printf '[1]' >a.json
	mkdir dir.json
	printf '{"b":2}' >b.json
	jrun -c a.json dir.json missing.json b.json
	expect_status 3
	expect_out '[1]
{"b":2}
'
	expect_err 'jenc: dir.json: Is a directory
jenc: missing.json: No such file or directory
'
}

@test "an I/O error wins over invalid input: exit 3" {
	setup_jenc
	printf '[1,' >bad.json
	printf '2' >good.json
	jrun -c bad.json missing.json good.json
	expect_status 3
	expect_out '2
'
	[ "$(sed -n 4p err)" = "jenc: missing.json: No such file or directory" ] ||
	    fail "stderr: $(cat err)"
	[ "$(head -n 1 err)" = "jenc: bad.json:1:4: expected value after ',', found end of input" ] ||
	    fail "stderr: $(cat err)"
	[ "$(wc -l <err)" = 4 ] || fail "stderr: $(cat err)"
}

@test "a read error (EIO from /proc/self/mem): one line, exit 3" {
	setup_jenc
	printf '1' >one.json
	jrun one.json /proc/self/mem one.json
	expect_status 3
	expect_out '1
1
'
	expect_err 'jenc: /proc/self/mem: Input/output error
'
}

@test "a closed stdin: read error on <stdin>, exit 3" {
	setup_jenc
	JCMD="jenc <&-"
	status=0
	"$JENC" <&- >"$T/out" 2>"$T/err" || status=$?
	expect_status 3
	expect_out ''
	expect_err 'jenc: <stdin>: Bad file descriptor
'
}

@test "a reader that stops reading: jenc blocks, reads no more, RSS bounded" {
	setup_jenc
	[ -r /proc/self/io ] || skip "no /proc/PID/io here"
	# /proc/PID/wchan names where a process sleeps (0 while it runs)
	sleep 1000 &
	PIDS=$!
	wait_until "sleep(1) to sleep" grep -q '^[^ ]* ([^)]*) S' \
	    "/proc/$PIDS/stat" || fail "sleep(1) never slept"
	grep -q '[a-z]' "/proc/$PIDS/wchan" ||
	    skip "/proc/PID/wchan does not name where a process sleeps"
	kill "$PIDS"
	mkfifo in.fifo out.fifo
	python3 "$GEN" forever >in.fifo 3>&- &
	PIDS=$!
	exec 8<>out.fifo	# a reader that never reads
	"$JENC" -c <in.fifo >out.fifo 2>err 3>&- 8>&- &
	jpid=$!
	PIDS="$PIDS $jpid"
	# wait until jenc sleeps in a write to its full output pipe (the
	# event, not a time; HANG_LIMIT only against a hang), failing at once
	# if it exits or its memory grows past 16 MiB meanwhile
	local end=$((SECONDS + HANG_LIMIT)) rss=0 wchan= state= now
	while :; do
		[ -d /proc/$jpid ] || fail "jenc exited early: $(cat err)"
		wchan=$(cat /proc/$jpid/wchan 2>/dev/null) || wchan=
		state=$(awk '{ print $3 }' /proc/$jpid/stat 2>/dev/null) || state=
		rss=$(awk '/^VmRSS:/ { print $2 }' /proc/$jpid/status 2>/dev/null) || rss=0
		grep -q __asan_init "$JENC" || [ "${rss:-0}" -lt 16384 ] ||
		    fail "VmRSS $rss KiB with a reader that does not read, over 16 MiB"
		case $wchan in
		*pipe_write*) [ "$state" = S ] && break ;;
		esac
		[ "$SECONDS" -lt "$end" ] ||
		    fail "jenc kept on for $HANG_LIMIT s with a reader that does not read (in $wchan, state $state)"
		sleep 0.01
	done
	# Blocked in the write, it reads no more: what it read is what one
	# window and the full pipe take, not more.
	now=$(io_counters "$jpid")
	exec 8<&-
	echo "# blocked jenc: rchar wchar $now, in $wchan, state $state, VmRSS $rss KiB" >&3
	[ "${now#* }" -ge 32768 ] || fail "jenc blocked having written only ${now#* } bytes"
	[ $(( ${now% *} - ${now#* } )) -lt $((4 << 20)) ] ||
	    fail "jenc read $(( ${now% *} - ${now#* } )) bytes more than it wrote before it blocked"
	grep -q __asan_init "$JENC" ||
	    [ "$rss" -lt 16384 ] || fail "VmRSS $rss KiB while blocked, over 16 MiB"
	expect_err ''
}
