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

# nonblock_run DATA ARGS... - run jenc ARGS with standard input the read
# end of a pipe set O_NONBLOCK; DATA (printf format) is written in three
# pieces, 0.3 s apart, the first only after jenc has had time to find
# the pipe empty.  Sets $status.
nonblock_run() {
	local data=$1
	shift
	JCMD="jenc $* (non-blocking stdin)"
	status=$(python3 - "$data" "$JENC" "$@" <<'PY'
import fcntl, os, subprocess, sys, time
data = sys.argv[1].encode().decode("unicode_escape").encode("latin-1")
r, w = os.pipe()
fcntl.fcntl(r, fcntl.F_SETFL, fcntl.fcntl(r, fcntl.F_GETFL) | os.O_NONBLOCK)
with open("out", "wb") as out, open("err", "wb") as err:
    p = subprocess.Popen(sys.argv[2:], stdin=r, stdout=out, stderr=err)
os.close(r)
k = len(data) // 3
for piece in (data[:k], data[k:2 * k], data[2 * k:]):
    time.sleep(0.3)
    os.write(w, piece)
os.close(w)
print(p.wait())
PY
)
}

@test "JSON from a non-blocking standard input: jenc waits for the data" {
	nonblock_run '{"a": [1, 2],\n "b": "x"}\n[3]\n' -c
	expect_ok $'{"a":[1,2],"b":"x"}\n[3]\n'
}

@test "CSV from a non-blocking standard input: jenc waits for the data" {
	nonblock_run 'a,b\n1,2\n3,"x\ny"\n' -f csv -c
	expect_ok $'[{"a":"1","b":"2"},{"a":"3","b":"x\\ny"}]\n'
}

@test "a terminal left non-blocking: JSON and CSV read to its end of file" {
	local fmt
	for fmt in json csv; do
		JCMD="jenc -c -f $fmt (non-blocking terminal)"
		status=$(python3 - "$JENC" "$fmt" <<'PY'
import fcntl, os, pty, subprocess, sys, termios, time
m, s = pty.openpty()
attr = termios.tcgetattr(s)
attr[3] &= ~termios.ECHO
termios.tcsetattr(s, termios.TCSANOW, attr)
fcntl.fcntl(s, fcntl.F_SETFL, fcntl.fcntl(s, fcntl.F_GETFL) | os.O_NONBLOCK)
with open("out", "wb") as out, open("err", "wb") as err:
    p = subprocess.Popen([sys.argv[1], "-c", "-f", sys.argv[2]], stdin=s,
        stdout=out, stderr=err)
time.sleep(0.3)
os.write(m, b"1\n" if sys.argv[2] == "json" else b"a\n")
time.sleep(0.3)
os.write(m, b"2\n" if sys.argv[2] == "json" else b"b\n")
time.sleep(0.3)
os.write(m, b"\x04")		# end of file, at the start of a line
print(p.wait())
os.close(s)
os.close(m)
PY
)
		if [ "$fmt" = json ]; then
			expect_ok $'1\n2\n'
		else
			expect_ok $'[{"a":"b"}]\n'
		fi
	done
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

# slow_cpu KIND BYTES - feed jenc -c a KIND token (number, or escapes: a
# string of \" escapes) of about BYTES bytes through a pipe that holds
# 4 KiB, a piece of 4 KiB every 0.2 ms, so that every read gets at most
# 4 KiB and often finds nothing more ready; check the output is the token
# and a newline, and print jenc's CPU time (user + system) in microseconds.
slow_cpu() {
	python3 - "$JENC" "$1" "$2" <<'PY'
import fcntl, hashlib, os, sys, threading, time
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
    os.execv(jenc, [jenc, "-c"])
os.close(r)
os.close(out_w)
def feed():
    for i in range(0, len(tok), 4096):
        os.write(w, tok[i:i + 4096])
        time.sleep(0.0002)
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
_, st, ru = os.wait4(pid, 0)
if st != 0:
    sys.exit("jenc exited with status %d" % st)
if h.hexdigest() != hashlib.sha256(tok + b"\n").hexdigest():
    sys.exit("output of %d bytes is not the %d-byte token" % (size, len(tok)))
print(int((ru.ru_utime + ru.ru_stime) * 1e6))
PY
}

# linear KIND - a token 8 times as long must take less than 24 times the
# CPU time (quadratic work would take about 64 times); the least of
# three runs of each size.
linear() {
	local small=$((1 << 19)) big=$((4 << 20)) a b t i
	a='' b=''
	for i in 1 2 3; do
		t=$(slow_cpu "$1" "$small") || fail "$1, $small bytes: $t"
		[ -z "$a" ] || [ "$t" -lt "$a" ] && a=$t
		t=$(slow_cpu "$1" "$big") || fail "$1, $big bytes: $t"
		[ -z "$b" ] || [ "$t" -lt "$b" ] && b=$t
	done
	echo "# $1: $small bytes $a us, $big bytes $b us of CPU" >&3
	[ "$a" -gt 0 ] || a=1
	[ $((b / a)) -lt 24 ] ||
	    fail "$1: 8 times the bytes took $((b / a)) times the CPU ($a us, $b us)"
}

@test "a long number arriving in 4 KiB pieces: CPU time linear in its length" {
	linear number
}

@test "a long string of \\\" escapes arriving in 4 KiB pieces: CPU time linear" {
	linear escapes
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

# slow_pipe FIRST REST ARGS... - run jenc ARGS on FIRST, then 0.5 s later
# REST (printf formats) through a pipe.
slow_pipe() {
	local first=$1 rest=$2
	shift 2
	JCMD="jenc $* (slow pipe)"
	status=0
	# shellcheck disable=SC2059
	(printf "$first"; sleep .5; printf "$rest") | "$JENC" "$@" >out 2>err ||
	    status=$?
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
