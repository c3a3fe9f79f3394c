#!/usr/bin/env bats
# --log against the logs people have and what its documentation promises:
# the records of common loggers, follow mode on a pipe.  TZ is set in
# each test.

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

# One record of each logger people use, as it writes them: pino, bunyan,
# Go's log/slog (also its levels between names), zap (with a stack),
# logrus, structlog, Elastic ECS (flat and nested log.level), winston,
# klog's JSON.
loggers_log() {
	printf '%s\n' \
	    '{"level":30,"time":1715938867042,"pid":7,"hostname":"h","msg":"pino"}' \
	    '{"name":"app","hostname":"h","pid":1,"level":40,"msg":"bunyan","time":"2024-05-17T09:41:07.042Z","v":0}' \
	    '{"time":"2024-05-17T11:41:07.123456789+02:00","level":"INFO","msg":"slog","k":1}' \
	    '{"time":"2024-05-17T11:41:07.5+02:00","level":"INFO+2","msg":"slog between INFO and WARN"}' \
	    '{"time":"2024-05-17T11:41:08-04:00","level":"WARN-1","msg":"slog just below WARN"}' \
	    '{"level":"info","ts":1715938867.0425,"caller":"main.go:12","msg":"zap"}' \
	    '{"level":"error","ts":1715938867.5,"caller":"main.go:13","msg":"zap error","stacktrace":"main.main\n\t/app/main.go:13"}' \
	    '{"level":"warning","msg":"logrus","time":"2024-05-17T09:41:07Z"}' \
	    '{"event":"structlog","level":"info","timestamp":"2024-05-17T09:41:07.042000Z"}' \
	    '{"@timestamp":"2024-05-17T09:41:07.042Z","log.level":"error","message":"ecs","ecs.version":"1.6.0"}' \
	    '{"@timestamp":"2024-05-17T09:41:07.042Z","log":{"level":"debug","logger":"a.b"},"message":"ecs nested"}' \
	    '{"level":"info","message":"winston","timestamp":"2024-05-17T09:41:07.042Z"}' \
	    '{"ts":1715938867042.5,"caller":"x.go:1","msg":"klog","v":0}' >app.log
}

@test "--log: the records of common loggers" {
	loggers_log
	jrun --log --utc app.log
	expect_ok '2024-05-17 09:41:07.042 INFO  pino pid=7 hostname=h
2024-05-17 09:41:07.042 WARN  bunyan name=app hostname=h pid=1 v=0
2024-05-17 09:41:07.123 INFO  slog k=1
2024-05-17 09:41:07.500 INFO+2 slog between INFO and WARN
2024-05-17 15:41:08.000 WARN-1 slog just below WARN
2024-05-17 09:41:07.042 INFO  zap caller=main.go:12
2024-05-17 09:41:07.500 ERROR zap error caller=main.go:13
    stacktrace: main.main
    	/app/main.go:13
2024-05-17 09:41:07.000 WARN  logrus
2024-05-17 09:41:07.042 INFO  structlog
2024-05-17 09:41:07.042 ERROR ecs ecs.version=1.6.0
2024-05-17 09:41:07.042 DEBUG ecs nested log.logger=a.b
2024-05-17 09:41:07.042 INFO  winston
2024-05-17 09:41:07.042 klog caller=x.go:1 v=0
'
	# slog's INFO+2 is above info, WARN-1 below warn; klog's record has
	# no level
	TZ=America/New_York jrun --log --level=info --only= \
	    --time-format='%H:%M:%S.%6N %Z' app.log
	expect_ok '05:41:07.042000 EDT INFO  pino
05:41:07.042000 EDT WARN  bunyan
05:41:07.123456 EDT INFO  slog
05:41:07.500000 EDT INFO+2 slog between INFO and WARN
11:41:08.000000 EDT WARN-1 slog just below WARN
05:41:07.042500 EDT INFO  zap
05:41:07.500000 EDT ERROR zap error
05:41:07.000000 EDT WARN  logrus
05:41:07.042000 EDT INFO  structlog
05:41:07.042000 EDT ERROR ecs
05:41:07.042000 EDT INFO  winston
'
	jrun --log --utc --level=warn --only= app.log
	expect_ok '2024-05-17 09:41:07.042 WARN  bunyan
2024-05-17 09:41:07.500 ERROR zap error
2024-05-17 09:41:07.000 WARN  logrus
2024-05-17 09:41:07.042 ERROR ecs
'
}

# Docker's json-file log: each "log" ends with its line end, which is not
# shown; a line of several lines keeps its inner ones escaped.
@test "--log: Docker's json-file log, its line ends left out" {
	printf '%s\n' \
	    '{"log":"listening on :8080\n","stream":"stdout","time":"2024-05-17T09:41:07.042123456Z"}' \
	    '{"log":"warning: disk\r\n","stream":"stderr","time":"2024-05-17T09:41:08Z"}' \
	    '{"log":"a\nb\n","stream":"stderr","time":"2024-05-17T09:41:09Z"}' >c.log
	jrun --log --message-key=log c.log
	expect_ok '2024-05-17 09:41:07.042 listening on :8080 stream=stdout
2024-05-17 09:41:08.000 warning: disk stream=stderr
2024-05-17 09:41:09.000 a\nb stream=stderr
'
}

# A log with CRLF line ends (written on Windows) is read as one with LF:
# the same lines as the reader gives (-j 2), its records formatted
# without the reader, whose counters (JENC_STATS) stay at 0.
@test "--log: CRLF line ends, records formatted without the reader" {
	printf '{"level":30,"time":1715938867042,"msg":"a","k":1}\r\n{"level":40,"msg":"b"}\r\n{"msg":"c"}\r' >crlf.log
	JENC_STATS=$PWD/stats jrun --log --utc crlf.log
	expect_ok '2024-05-17 09:41:07.042 INFO  a k=1
WARN  b
c
'
	grep -qx 'jsmn_bytes 0' stats || fail "$(cat stats)"
	grep -qx 'skel_bytes 0' stats || fail "$(cat stats)"
	printf '\nnot json\r\n\r\n{"msg":"d"}\r\n' >>crlf.log
	jrun --log --utc -j 2 crlf.log
	expect_ok $'2024-05-17 09:41:07.042 INFO  a k=1\nWARN  b\nc\nnot json\r\n\nd\n'
	mv out want
	jrun --log --utc crlf.log
	same_bytes want out stdout
}

# Python's logging (python-json-logger's asctime): a comma before the
# milliseconds, local time; --since reads it too.
@test "--log: Python's asctime, a comma before the milliseconds" {
	printf '%s\n' \
	    '{"asctime":"2024-05-17 09:41:07,042","levelname":"WARNING","message":"py"}' \
	    '{"asctime":"2024-05-17 09:41:08,500","levelname":"ERROR","message":"later"}' >py.log
	TZ=Europe/Berlin jrun --log --utc --time-key=asctime \
	    --level-key=levelname py.log
	expect_ok '2024-05-17 07:41:07.042 WARN  py
2024-05-17 07:41:08.500 ERROR later
'
	TZ=Europe/Berlin jrun --log --time-key=asctime --level-key=levelname \
	    --since='2024-05-17 09:41:08,1' py.log
	expect_ok '2024-05-17 09:41:08.500 ERROR later
'
}
