#!/usr/bin/env bats
# How input arrives: non-blocking descriptors and terminals, a closed
# standard input, input that comes slowly (long tokens in small pieces,
# errors whose line is not all there yet), and the byte order mark.
#
# The python3 helpers start jenc on a descriptor they set up, feed it and
# print its exit status; stdout and stderr go to $T/out and $T/err.

load helpers

setup() {
	setup_jenc
	command -v python3 >/dev/null || fail "python3 is needed"
}

# waited - jenc found its non-blocking input empty and waited in poll(2)
# (the waits of its work counters), as the test means it to.
waited() {
	local n
	n=$(awk '$1 == "waits" { print $2 }' stats)
	[ "${n:-0}" -ge 1 ] || fail "jenc never waited for input: $(tr '\n' ' ' <stats)"
}

@test "JSON from a non-blocking standard input: jenc waits for the data" {
	feed nonblock '{"a": [1, ' '2],\n "b": "x"}\n' '[3]\n' -- "$JENC" -c
	expect_ok $'{"a":[1,2],"b":"x"}\n[3]\n'
	waited
}

@test "CSV from a non-blocking standard input: jenc waits for the data" {
	feed nonblock 'a,b\n1' ',2\n3,"x\n' 'y"\n' -- "$JENC" -f csv -c
	expect_ok $'[{"a":"1","b":"2"},{"a":"3","b":"x\\ny"}]\n'
	waited
}

@test "a terminal left non-blocking: JSON and CSV read to its end of file" {
	feed tty '1\n' '2\n' -- "$JENC" -c -f json
	expect_ok $'1\n2\n'
	waited
	feed tty 'a\n' 'b\n' -- "$JENC" -c -f csv
	expect_ok $'[{"a":"b"}]\n'
	waited
}

# closed_run ARGS... - run jenc ARGS with standard input closed.
closed_run() {
	JCMD="jenc $* <&-"
	status=0
	"$JENC" "$@" <&- >out 2>err || status=$?
}

@test "a closed standard input: '-' is a read error, exit 3" {
	closed_run -c -
	expect_status 3
	expect_out ''
	expect_err $'jenc: <stdin>: Bad file descriptor\n'
	closed_run -f csv -
	expect_status 3
	expect_out ''
	expect_err $'jenc: <stdin>: Bad file descriptor\n'
}

@test "a closed standard input: a file before '-' is read as itself" {
	local bad="jenc: bad.json:2:7: expected value after ':', found '}'
  {\"b\": }
        ^
"
	printf '{"a": 1}\n' >good.json
	closed_run -c good.json -
	expect_status 3
	expect_out $'{"a":1}\n'
	expect_err $'jenc: <stdin>: Bad file descriptor\n'
	# the file that gets the lowest free descriptor is still reported by
	# its own name, and nothing of it is read again as standard input
	printf '{"a": 1}\n{"b": }\n[2]\n' >bad.json
	closed_run -c bad.json -
	expect_status 3
	expect_out $'{"a":1}\n'
	expect_err "$bad"'jenc: <stdin>: Bad file descriptor
'
	closed_run -c bad.json good.json
	expect_status 1
	expect_out $'{"a":1}\n{"a":1}\n'
	expect_err "$bad"
}

# slow_work KIND BYTES - feed jenc -c a KIND token (number, or escapes: a
# string of \" escapes) of about BYTES bytes through a pipe that holds
# 4 KiB, so that every read gets at most 4 KiB of it; check that the
# output is the token and a newline, that it took a read per 4 KiB, and
# that the work per byte (work_check) stays under 8: reading the token
# again from its first byte after each read would be about BYTES / 8 KiB.
slow_work() {
	python3 - "$JENC" "$1" "$2" <<'PY' || fail "$1, $2 bytes: jenc failed"
import fcntl, hashlib, os, sys, threading
jenc, kind, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
if kind == "number":
    tok = b"1" + b"234567890" * (n // 9)
else:
    tok = b'"' + b'\\"' * (n // 2) + b'"'
r, w = os.pipe()
fcntl.fcntl(w, fcntl.F_SETPIPE_SZ, 4096)
out_r, out_w = os.pipe()
pid = os.fork()
if pid == 0:
    os.dup2(r, 0)
    os.dup2(out_w, 1)
    for fd in (r, w, out_r, out_w):
        os.close(fd)
    os.environ["JENC_STATS"] = "stats"
    os.execv(jenc, [jenc, "-c"])
os.close(r)
os.close(out_w)
def feed():
    for i in range(0, len(tok), 4096):
        os.write(w, tok[i:i + 4096])
    os.close(w)
t = threading.Thread(target=feed)
t.start()
h, size = hashlib.sha256(), 0
while True:
    b = os.read(out_r, 1 << 16)
    if not b:
        break
    h.update(b)
    size += len(b)
t.join()
_, st = os.waitpid(pid, 0)
if st != 0:
    sys.exit("jenc exited with status %d" % st)
if h.hexdigest() != hashlib.sha256(tok + b"\n").hexdigest():
    sys.exit("output of %d bytes is not the %d-byte token" % (size, len(tok)))
PY
	local reads
	reads=$(awk '$1 == "reads" { print $2 }' stats)
	[ "$reads" -ge $(($2 / 4096)) ] ||
	    fail "$1, $2 bytes: $reads reads, not one per 4 KiB"
	work_check stats 8 "$1, $2 bytes in 4 KiB pieces"
}

@test "a long number arriving in 4 KiB pieces: work linear in its length" {
	slow_work number $((1 << 19))
	slow_work number $((4 << 20))
}

@test "a long string of \\\" escapes arriving in 4 KiB pieces: work linear" {
	slow_work escapes $((1 << 19))
	slow_work escapes $((4 << 20))
}

@test "a byte order mark is skipped and not counted in line 1's columns" {
	putf '\357\273\277{,}'
	jrun <in
	expect_invalid '' "jenc: <stdin>:1:2: expected string key or '}', found ','
  {,}
   ^
"
	putf '\357\273\277'
	jrun <in
	expect_invalid '' 'jenc: <stdin>:1:1: expected value after the byte order mark, found end of input
  
  ^
'
	putf '\357\273\277a,b\n1,\377\n'
	jrun -f csv -c <in
	expect_invalid $'[]\n' 'jenc: <stdin>:2:3: invalid UTF-8 byte 0xff
  1,?
    ^
'
	putf '\357\273\277a,\377\n'
	cp in bom.csv
	jrun -c bom.csv
	expect_invalid $'[]\n' 'jenc: bom.csv:1:3: invalid UTF-8 byte 0xff
  a,?
    ^
'
}

# slow_pipe FIRST REST ARGS... - run jenc ARGS on FIRST, then REST once
# jenc has read FIRST and waits for more (printf formats), through a pipe.
slow_pipe() {
	local first=$1 rest=$2
	shift 2
	feed pipe "$first" "$rest" -- "$JENC" "$@"
	# the first piece read alone, then the rest
	local reads
	reads=$(awk '$1 == "reads" { print $2 }' stats)
	[ "${reads:-0}" -ge 2 ] ||
	    fail "$JCMD: $reads reads, the input did not come in pieces"
}

# same_as_file FIRST REST ARGS... - the error report of the input FIRST
# then REST arriving slowly is the one of the same bytes in a file.
same_as_file() {
	local first=$1 rest=$2
	shift 2
	# shellcheck disable=SC2059
	{ printf "$first"; printf "$rest"; } >in
	status=0
	"$JENC" "$@" <in >file.out 2>file.err || status=$?
	local want=$status
	slow_pipe "$first" "$rest" "$@"
	expect_status "$want"
	same_bytes file.out out stdout
	same_bytes file.err err stderr
}

@test "an error excerpt is the same for slow input as for a file" {
	slow_pipe '{"a": alert(' ') , "more": 1}\n'
	expect_invalid '' "jenc: <stdin>:1:7: invalid literal 'alert', expected true, false or null
  {\"a\": alert() , \"more\": 1}
        ^
"
	same_as_file '{"a": alert(' ') , "more": 1}\n' -c
	same_as_file '[1, 2,\n  x' 'yz, 3]\n' -c
	same_as_file '"abc\\q' 'def"\n' -c
	same_as_file '{"k": "v\001' 'w", "z": 0}\n' -c
	# a line longer than an excerpt shows, the rest arriving later
	same_as_file '[1, 2, ]' "$(printf '%0200d' 0)\n" -c
	same_as_file "[\"$(printf '%0100d' 0)\", x" "$(printf '%0300d' 0)]\n" -c
	same_as_file 'a,b\n1,"x' '\377 y",2\n' -f csv -c
	same_as_file 'a\tb\n1\t\377' 'yz\t2\n' -f tsv -c
}
