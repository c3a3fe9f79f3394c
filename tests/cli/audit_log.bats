#!/usr/bin/env bats
# --log against the logs people have and what its documentation promises:
# follow mode on a pipe.  TZ is set in each test.

load helpers

setup() {
	setup_jenc
	export TZ=UTC
}

# follow PIECE WANT [PIECE WANT ...] -- ARGS: runs jenc ARGS with its
# standard input a pipe, writes each PIECE (Python's escapes) once jenc
# waits for more input, then, once jenc waits again (feed.py's
# wait_idle: an event, not a delay), checks that its standard output so
# far is WANT.  The input stays open until the end.
follow() {
	python3 - "$@" <<'PY'
import os, subprocess, sys
sys.path.insert(0, os.path.join(os.environ["REPO"], "tests", "cli"))
import feed

args = sys.argv[1:]
sep = args.index("--")
steps = args[:sep]
r, w = os.pipe()
with open("out", "wb") as o, open("err", "wb") as e:
    p = subprocess.Popen([os.environ["JENC"]] + args[sep + 1:], stdin=r,
                         stdout=o, stderr=e)
bad = 0
for i in range(0, len(steps), 2):
    feed.wait_idle(p, r)
    os.write(w, feed.piece_bytes(steps[i]))
    feed.wait_idle(p, r)
    got = open("out", "rb").read()
    want = feed.piece_bytes(steps[i + 1])
    if got != want:
        print("after piece %d %r:\n  want %r\n  got  %r" %
              (i // 2 + 1, steps[i], want, got))
        bad = 1
        break
os.close(w)
p.wait()
os.close(r)
sys.exit(bad)
PY
}

# A record of several lines from a pipe is out as soon as its last line
# is, also when that line is shorter than those before it; so is a line
# of text after it.
@test "--log from a pipe: a record of several lines is out when it ends" {
	export REPO
	follow \
	    '{"level":30,"msg":"first","long":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",\n' '' \
	    '"a":1}\n' 'INFO  first long=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx a=1\n' \
	    'not json\n' 'INFO  first long=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx a=1\nnot json\n' \
	    -- --log
	[ ! -s err ] || fail "stderr: $(cat err)"
}
