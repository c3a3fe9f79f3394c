#!/usr/bin/env bats
# --log: each JSON record as one line for people, what is not a record
# passed through in order, the filters (--level, --since, --until, --hide,
# --only), the keys, the time format and zone, colors, a pipe read as
# records arrive, -j, and the usage errors.  TZ is set in each test.

load helpers

setup() {
	setup_jenc
	export TZ=UTC
}

# Records as pino writes them, with a stack trace in one.
pino_log() {
	printf '%s\n' \
	    '{"level":30,"time":1714564800042,"pid":4242,"hostname":"web-1","msg":"server listening","port":8080}' \
	    '{"level":20,"time":1714564800107,"pid":4242,"hostname":"web-1","req":{"id":7,"method":"GET","url":"/health"},"msg":"request"}' \
	    '{"level":40,"time":1714564861500,"pid":4242,"hostname":"web-1","msg":"slow response","ms":1250,"tags":["db","retry"]}' \
	    '{"level":50,"time":1714564923000,"pid":4242,"hostname":"web-1","err":{"type":"Error","message":"connect ECONNREFUSED","stack":"Error: connect ECONNREFUSED\n    at TCPConnectWrap.afterConnect (node:net:1555:16)"},"msg":"db down"}' >app.log
}

@test "--log: a pino log, one line per record, the stack below" {
	pino_log
	jrun --log app.log
	expect_ok '2024-05-01 12:00:00.042 INFO  server listening pid=4242 hostname=web-1 port=8080
2024-05-01 12:00:00.107 DEBUG request pid=4242 hostname=web-1 req.id=7 req.method=GET req.url=/health
2024-05-01 12:01:01.500 WARN  slow response pid=4242 hostname=web-1 ms=1250 tags=["db","retry"]
2024-05-01 12:02:03.000 ERROR db down pid=4242 hostname=web-1 err.type=Error err.message="connect ECONNREFUSED"
    err.stack: Error: connect ECONNREFUSED
        at TCPConnectWrap.afterConnect (node:net:1555:16)
'
}

@test "--log: local time from TZ, --utc, --time-format" {
	pino_log
	TZ=JST-9 jrun --log --only=port app.log
	expect_status 0
	head -n 1 out >first
	JCMD='first line' same_bytes <(printf '2024-05-01 21:00:00.042 INFO  server listening port=8080\n') first
	TZ=JST-9 jrun --log --utc --hide=pid,hostname,req,err,ms,tags app.log
	expect_ok '2024-05-01 12:00:00.042 INFO  server listening port=8080
2024-05-01 12:00:00.107 DEBUG request
2024-05-01 12:01:01.500 WARN  slow response
2024-05-01 12:02:03.000 ERROR db down
'
	TZ=JST-9 jrun --log --time-format='%H:%M:%S.%6N %Z' --only=x app.log
	expect_ok '21:00:00.042000 JST INFO  server listening
21:00:00.107000 JST DEBUG request
21:01:01.500000 JST WARN  slow response
21:02:03.000000 JST ERROR db down
'
}

@test "--log: each time key and each shape of time" {
	printf '%s\n' \
	    '{"time":1714564800,"msg":"time, seconds"}' \
	    '{"ts":1714564800.25,"msg":"ts, seconds with a fraction"}' \
	    '{"timestamp":1714564800123,"msg":"timestamp, milliseconds"}' \
	    '{"@timestamp":1714564800123456,"msg":"@timestamp, microseconds"}' \
	    '{"t":1714564800123456789,"msg":"t, nanoseconds"}' \
	    '{"time":"2024-05-01T12:00:00Z","msg":"RFC 3339, Z"}' \
	    '{"time":"2024-05-01T14:00:00.5+02:00","msg":"RFC 3339, offset"}' \
	    '{"time":"2024-05-01 12:00:00.75","msg":"no zone: local"}' \
	    '{"time":"1714564800999","msg":"a number in a string"}' \
	    '{"time":"last tuesday","msg":"unreadable: as it is"}' \
	    '{"ts":1,"time":1714564800,"msg":"time before ts"}' >in
	jrun --log in
	expect_ok '2024-05-01 12:00:00.000 time, seconds
2024-05-01 12:00:00.250 ts, seconds with a fraction
2024-05-01 12:00:00.123 timestamp, milliseconds
2024-05-01 12:00:00.123 @timestamp, microseconds
2024-05-01 12:00:00.123 t, nanoseconds
2024-05-01 12:00:00.000 RFC 3339, Z
2024-05-01 12:00:00.500 RFC 3339, offset
2024-05-01 12:00:00.750 no zone: local
2024-05-01 12:00:00.999 a number in a string
last tuesday unreadable: as it is
2024-05-01 12:00:00.000 time before ts ts=1
'
}

@test "--log: each level key, names in any case, pino numbers" {
	printf '%s\n' \
	    '{"level":"info","msg":"level"}' \
	    '{"lvl":"Warning","msg":"lvl"}' \
	    '{"severity":"ERROR","msg":"severity"}' \
	    '{"log.level":"debug","msg":"log.level"}' \
	    '{"log":{"level":"trace","logger":"main"},"msg":"log.level nested"}' \
	    '{"level":10,"msg":"10"}' '{"level":20,"msg":"20"}' \
	    '{"level":30,"msg":"30"}' '{"level":40,"msg":"40"}' \
	    '{"level":50,"msg":"50"}' '{"level":60,"msg":"60"}' \
	    '{"level":"critical","msg":"critical"}' \
	    '{"level":"verbose","msg":"a level of its own"}' >in
	jrun --log in
	expect_ok 'INFO  level
WARN  lvl
ERROR severity
DEBUG log.level
TRACE log.level nested log.logger=main
TRACE 10
DEBUG 20
INFO  30
WARN  40
ERROR 50
FATAL 60
FATAL critical
VERBOSE a level of its own
'
}

@test "--log: each message key; logfmt values, nested keys, input order" {
	printf '%s\n' \
	    '{"msg":"msg"}' '{"message":"message"}' '{"@message":"@message"}' \
	    '{"event":"event"}' '{"event":"e","msg":"msg first"}' \
	    '{"z":1,"a":"two words","eq":"a=b","q":"say \"hi\"","e":"","n":null,"b":false,"arr":[1,{"k":"v"}],"o":{},"deep":{"x":{"y":1.5}}}' \
	    '{"msg":"tab\there, newline\nand escape \u001b[31m"}' >in
	jrun --log in
	expect_ok 'msg
message
@message
event
msg first event=e
z=1 a="two words" eq="a=b" q="say \"hi\"" e="" n=null b=false arr=[1,{"k":"v"}] o={} deep.x.y=1.5
tab	here, newline\nand escape \u001b[31m
'
}

@test "--log: bidi controls and line separators are shown as escapes" {
	# raw or escaped in the record, in a message, a value (then quoted),
	# a key, a line below, a record the reader reads (two lines), -j:
	# none reaches the terminal to reorder or end what it shows
	{
		printf '{"msg":"user \xe2\x80\xae1lmth.exe","f":"a\xe2\x81\xa6b","g":"\xd8\x9c"}\n'
		printf '{"msg":"x\\u2028y\\u2029z","k\xe2\x80\x8fe":1,"stack":"a\\n\xe2\x80\xadb"}\n'
		printf '{"msg":"two lines",\n"v":"\\u202a\\u202b\\u202c\\u200e\\u2067\\u2068\\u2069"}\n'
		printf '{"msg":"kept: \xe2\x80\x94 \xe2\x80\x9cq\xe2\x80\x9d \xd8\xa7 \xe2\x80\x8d"}\n'
	} >in
	kept=$(printf 'kept: \xe2\x80\x94 \xe2\x80\x9cq\xe2\x80\x9d \xd8\xa7 \xe2\x80\x8d')
	want='user \u202e1lmth.exe f="a\u2066b" g="\u061c"
x\u2028y\u2029z "k\u200fe"=1
    stack: a
    \u202db
two lines v="\u202a\u202b\u202c\u200e\u2067\u2068\u2069"
'"$kept"'
'
	jrun --log in
	expect_ok "$want"
	LC_ALL=C.UTF-8 jrun --log in
	expect_ok "$want"
	JENC_FORCE_THREADS=1 JENC_CHUNK=7 jrun --log -j 2 in
	expect_ok "$want"
	jrun --log <in
	expect_ok "$want"
}

# (junk after a record on its line is passed as --on-error=pass does:
# from just after the record)
@test "--log: non-JSON lines, empty lines and invalid JSON passed through in order" {
	printf '%s\n' '' 'Starting app v1.2 ...' \
	    '{"level":30,"msg":"one"}' '' '   ' \
	    '{"level":30,"msg":"cut' \
	    '[1,2]' '"a string"' '42' \
	    '	at com.example.Main.run(Main.java:7)' \
	    '{"level":40,"msg":"two"} trailing' \
	    '{"level":50,"msg":"three"}' '' >in
	jrun --log in
	expect_ok '
Starting app v1.2 ...
INFO  one


{"level":30,"msg":"cut
[1,2]
"a string"
42
	at com.example.Main.run(Main.java:7)
WARN  two
 trailing
ERROR three

'
}

@test "--log --on-error=skip: only the records, what is not one reported" {
	printf '%s\n' 'banner' '{"msg":"one"}' '[1]' >in
	jrun --log --on-error=skip in
	expect_status 0
	expect_out 'one
'
	expect_err "jenc: in:1:1: invalid literal 'banner', expected true, false or null
  banner
  ^
jenc: in:3:3: expected an object as a record, found an array
  [1]
    ^
jenc: 2 invalid lines skipped
"
}

@test "--level: records at that level and above, none without a level" {
	pino_log
	printf '%s\n' '{"msg":"no level"}' '{"level":"warn","msg":"by name"}' \
	    '{"level":"notice","msg":"notice"}' 'not JSON' >>app.log
	jrun --log --level=warn --hide=pid,hostname app.log
	expect_ok '2024-05-01 12:01:01.500 WARN  slow response ms=1250 tags=["db","retry"]
2024-05-01 12:02:03.000 ERROR db down err.type=Error err.message="connect ECONNREFUSED"
    err.stack: Error: connect ECONNREFUSED
        at TCPConnectWrap.afterConnect (node:net:1555:16)
WARN  by name
not JSON
'
	jrun --log --level=INFO --only= app.log
	expect_ok '2024-05-01 12:00:00.042 INFO  server listening
2024-05-01 12:01:01.500 WARN  slow response
2024-05-01 12:02:03.000 ERROR db down
WARN  by name
INFO  notice
not JSON
'
	jrun --log --level=45 --only=none app.log
	expect_ok '2024-05-01 12:02:03.000 ERROR db down
not JSON
'
	# 0: every record, those without a level too
	printf '%s\n' '{"msg":"no level"}' '{"level":10,"msg":"trace"}' >two.log
	jrun --log --level=0 two.log
	expect_ok 'no level
TRACE trace
'
}

@test "--since and --until: RFC 3339, both inclusive; records without a time left out" {
	pino_log
	printf '%s\n' '{"msg":"no time"}' >>app.log
	jrun --log --since=2024-05-01T12:00:00.107Z --until='2024-05-01 12:01:01.5Z' --only=none app.log
	expect_ok '2024-05-01 12:00:00.107 DEBUG request
2024-05-01 12:01:01.500 WARN  slow response
'
	jrun --log --since=2024-05-01T14:01:00+02:00 --only=none app.log
	expect_ok '2024-05-01 12:01:01.500 WARN  slow response
2024-05-01 12:02:03.000 ERROR db down
'
	TZ=JST-9 jrun --log --until=2024-05-01T21:00:00.05 --only=none app.log
	expect_ok '2024-05-01 21:00:00.042 INFO  server listening
'
}

@test "--since with a time before now: -1h, 15m, -1h30m" {
	local now
	now=$(date +%s)
	printf '{"time":%s000,"msg":"2 h ago"}\n{"time":%s000,"msg":"20 min ago"}\n{"time":%s000,"msg":"now"}\n' \
	    $((now - 7200)) $((now - 1200)) "$now" >in
	jrun --log --since=-1h --time-format=. in
	expect_ok '. 20 min ago
. now
'
	jrun --log --since=15m --time-format=. in
	expect_ok '. now
'
	jrun --log --since=-1h30m --until=-10m --time-format=. in
	expect_ok '. 20 min ago
'
	jrun --log --since=2d --until=now --time-format=. in
	expect_ok '. 2 h ago
. 20 min ago
. now
'
}

@test "--hide and --only: a key holds the members under it" {
	pino_log
	jrun --log --hide=pid,hostname,req.method,err.stack app.log
	expect_ok '2024-05-01 12:00:00.042 INFO  server listening port=8080
2024-05-01 12:00:00.107 DEBUG request req.id=7 req.url=/health
2024-05-01 12:01:01.500 WARN  slow response ms=1250 tags=["db","retry"]
2024-05-01 12:02:03.000 ERROR db down err.type=Error err.message="connect ECONNREFUSED"
'
	jrun --log --only=req,err.stack,port app.log
	expect_ok '2024-05-01 12:00:00.042 INFO  server listening port=8080
2024-05-01 12:00:00.107 DEBUG request req.id=7 req.method=GET req.url=/health
2024-05-01 12:01:01.500 WARN  slow response
2024-05-01 12:02:03.000 ERROR db down
    err.stack: Error: connect ECONNREFUSED
        at TCPConnectWrap.afterConnect (node:net:1555:16)
'
}

@test "--time-key, --level-key, --message-key: keys of one's own" {
	printf '%s\n' '{"when":"2024-05-01T12:00:00Z","sev":"E","text":"hi","time":5,"level":30,"msg":"m"}' \
	    '{"at":1714564800,"body":{"msg":"nested"}}' >in
	jrun --log --time-key=when,at --level-key=sev --message-key=text,body.msg in
	expect_ok '2024-05-01 12:00:00.000 E     hi time=5 level=30 msg=m
2024-05-01 12:00:00.000 nested
'
}

@test "--log: keys that a space, '=' or '\"' would make ambiguous are quoted" {
	# a b=1 would read as the key a, then b=1: quoted as values are
	printf '%s\n' \
	    '{"msg":"m","a b":1,"k=v":"x y","say \"hi\"":true,"":2,"t\tu":3,"plain":4}' \
	    '{"msg":"n","r q":{"id":7},"s t":"one\ntwo"}' >in
	jrun --log in
	expect_ok 'm "a b"=1 "k=v"="x y" "say \"hi\""=true =2 "t\tu"=3 plain=4
n "r q.id"=7
    "s t": one
    two
'
	jrun --log --only='a b' -C in
	expect_ok $'m \e[1;34m"a b"\e[0m=1\nn\n'
}

@test "--log: colors by severity with --color=always, JENC_COLORS, none by default" {
	printf '%s\n' '{"time":0,"level":50,"msg":"m","k":1}' '{"level":30}' 'text' >in
	jrun --log in
	expect_ok '1970-01-01 00:00:00.000 ERROR m k=1
INFO 
text
'
	jrun --log -C in
	expect_ok $'\e[0;90m1970-01-01 00:00:00.000\e[0m \e[0;31mERROR\e[0m m \e[1;34mk\e[0m=1\n\e[0;32mINFO \e[0m\ntext\n'
	JENC_COLORS='1;33' jrun --log --color=always in
	expect_ok $'\e[1;33m1970-01-01 00:00:00.000\e[0m \e[0;31mERROR\e[0m m \e[1;34mk\e[0m=1\n\e[0;32mINFO \e[0m\ntext\n'
	JENC_COLORS='x' jrun --log --color=always in
	expect_status 2
}

@test "--log from a pipe: each line out as soon as its record is complete" {
	mkfifo in outfifo
	"$JENC" --log <in >outfifo 2>err &
	local pid=$! line
	exec 7>in 8<outfifo
	# each read waits for the line itself (100 s only against a hang)
	printf '{"level":30,"msg":"first"}\n' >&7
	IFS= read -r -t 100 line <&8 || fail "no first line"
	[ "$line" = 'INFO  first' ] || fail "first line: $line"
	printf 'not json\n{"level":40,' >&7
	IFS= read -r -t 100 line <&8 || fail "no second line"
	[ "$line" = 'not json' ] || fail "second line: $line"
	printf '"msg":"second"}\n' >&7
	IFS= read -r -t 100 line <&8 || fail "no third line"
	[ "$line" = 'WARN  second' ] || fail "third line: $line"
	exec 7>&-
	IFS= read -r -t 100 line <&8 && fail "more output: $line"
	exec 8<&-
	wait "$pid"
}

@test "--log -j 2, -o, and a mapped file: the same lines" {
	pino_log
	awk '{ a[NR] = $0 } END { for (i = 0; i < 3000; i++) {
		for (k = 1; k <= NR; k++) print a[k]; print "between" } }' \
	    app.log >big.log
	[ "$(wc -c <big.log)" -gt 1048576 ] || fail "big.log is not over 1 MiB"
	jrun --log --no-mmap big.log
	expect_status 0
	mv out want
	jrun --log big.log
	expect_status 0
	same_bytes want out
	JENC_CHUNK=100 jrun --log -j 2 big.log
	expect_status 0
	same_bytes want out
	# escaped text for the view: chunks through sinks, not held whole
	JENC_CHUNK=100 jrun --log -a -j 2 big.log
	expect_status 0
	same_bytes want out
	jrun --log -o got big.log
	expect_ok ''
	same_bytes want got
}

@test "--log: CSV records and --split elements are records too" {
	printf 'time,level,msg\n1714564800,info,from csv\n' >in.csv
	jrun --log in.csv
	expect_ok '2024-05-01 12:00:00.000 INFO  from csv
'
	printf '[{"msg":"a"},{"msg":"b"}]\n' >in
	jrun --log --split in
	expect_ok 'a
b
'
}

@test "--log: a time whose --time-format part would pass 127 bytes is shown as it is" {
	# not as nothing: 127 bytes shown, 128 (from conversions, which
	# the option cannot know) the record's time as it is
	printf '%s\n' '{"time":"2024-05-01T12:00:00.5Z","msg":"a"}' \
	    '{"time":1714564800,"msg":"b"}' >in
	jrun --log --utc --time-format="$(printf '%0123d' 0)%Y%3N" in
	expect_ok "$(printf '%0123d' 0)2024500 a
$(printf '%0123d' 0)2024000 b
"
	jrun --log --utc --time-format="$(printf '%0124d' 0)%Y%3N" in
	expect_ok '2024-05-01T12:00:00.5Z a
1714564800 b
'
	jrun --log --utc --time-format='%T.%3N %c%c%c%c%c%c' in
	expect_ok '2024-05-01T12:00:00.5Z a
1714564800 b
'
}

@test "--log: usage errors" {
	jrun --level=warn
	expect_usage 'jenc: --level needs --log'
	jrun --log --level=loud
	expect_usage "jenc: --level: 'loud' is not a level (trace, debug, info, warn, error, fatal or a number)"
	jrun --log --since=yesterday
	expect_usage "jenc: --since: 'yesterday' is not a time (RFC 3339, a date, now, or before now as -1h, -15m)"
	jrun --log --until=-1y
	expect_usage "jenc: --until: '-1y' is not a time (RFC 3339, a date, now, or before now as -1h, -15m)"
	jrun --log --since=9999-01-01
	expect_usage "jenc: --since: '9999-01-01' is outside the years 1678 to 2261"
	jrun --log --time-format=%N%N%N%N%N%N%N%N
	expect_usage 'jenc: --time-format: more than seven %N conversions'
	jrun --log --time-format="%H:%M $(printf '%0128d' 0)"
	expect_usage 'jenc: --time-format: more than 127 bytes of text between two %N conversions'
	jrun --log --time-format="%3N$(printf '%0126d' 0)%%%%%3N"
	expect_usage 'jenc: --time-format: more than 127 bytes of text between two %N conversions'
	jrun --log -s
	expect_usage 'jenc: --log and --slurp cannot be used together'
	jrun --log --validate
	expect_usage 'jenc: --log and --validate cannot be used together'
	touch a.json
	jrun --log -w a.json
	expect_usage 'jenc: --log and -w cannot be used together'
	jrun --utc
	expect_usage 'jenc: --utc needs --log'
}

@test "--to=log is --log; not with --to=csv or --to=tsv" {
	pino_log
	jrun --log --level=warn app.log
	expect_status 0
	cp out want
	jrun --to=log --level=warn app.log
	expect_status 0
	same_bytes want out
	jrun --to=log --utc --hide=pid,hostname app.log
	expect_status 0
	head -n 1 out >first
	JCMD='first line' same_bytes <(printf '2024-05-01 12:00:00.042 INFO  server listening port=8080\n') first
	jrun --log --to=csv app.log
	expect_usage 'jenc: --log and --to=csv cannot be used together'
	jrun --to=tsv --log app.log
	expect_usage 'jenc: --log and --to=tsv cannot be used together'
	jrun --to=xml app.log
	expect_usage "jenc: --to: 'xml' is not json, csv, tsv or log"
}
