#!/usr/bin/env bats
# --log over a file or a pipe (jenc_logv_fd): lines that are compact
# records are formatted without the reader, every other line read by it,
# with the reader's output, errors, counts and exit status in each error
# policy; from a pipe, lines are out before jenc waits for more, also
# before a record of several lines is complete.  TZ is set in each test.

load helpers

setup() {
	setup_jenc
	export TZ=UTC
}

# Compact records among lines the reader reads: text, a blank line,
# whitespace inside a record, a record of two lines, bad JSON, an array,
# escapes.
mixed_log() {
	printf '%s\n' \
	    '{"level":30,"time":1714564800042,"msg":"up","port":8080}' \
	    'starting worker 1' \
	    '' \
	    '{"level": 40, "msg": "spaced"}' \
	    '{"level":50,"msg":"multi",' \
	    '"code":7}' \
	    '{"level":30,"msg":"bad" "x"}' \
	    '[1,2]' \
	    '{"level":20,"msg":"done","s":"caf\u00e9 \ud800"}' >mix.log
}

@test "--log on a file: records and other lines as the reader gives them" {
	mixed_log
	jrun --log mix.log
	expect_ok '2024-05-01 12:00:00.042 INFO  up port=8080
starting worker 1

WARN  spaced
ERROR multi code=7
{"level":30,"msg":"bad" "x"}
[1,2]
DEBUG done s="café �"
'
	jrun --log --on-error=skip mix.log
	expect_status 0
	expect_out '2024-05-01 12:00:00.042 INFO  up port=8080
WARN  spaced
ERROR multi code=7
DEBUG done s="café �"
'
	expect_err "jenc: mix.log:2:1: invalid literal 'starting', expected true, false or null
  starting worker 1
  ^
jenc: mix.log:7:25: expected ',' or '}' after object member, found '\"'
  {\"level\":30,\"msg\":\"bad\" \"x\"}
                          ^
jenc: mix.log:8:5: expected an object as a record, found an array
  [1,2]
      ^
jenc: 3 invalid lines skipped
"
	jrun --log --on-error=stop mix.log
	expect_invalid '2024-05-01 12:00:00.042 INFO  up port=8080
' "jenc: mix.log:2:1: invalid literal 'starting', expected true, false or null
  starting worker 1
  ^
"
}

@test "--log on a file: the same bytes as the reader on one thread or two" {
	mixed_log
	for i in 1 2 3 4 5 6 7 8 9 10; do cat mix.log; done >big.log
	printf '{"level":30,"msg":"no newline at the end"}' >>big.log
	for oe in pass skip stop; do
		jrun --log --on-error="$oe" -j 2 big.log
		mv out want.out
		mv err want.err
		want=$status
		jrun --log --on-error="$oe" big.log
		expect_status "$want"
		same_bytes want.out out stdout
		same_bytes want.err err stderr
	done
}

@test "--log from a pipe: lines before a record of several lines are out first" {
	mkfifo in outfifo
	"$JENC" --log <in >outfifo 2>err &
	local pid=$! line
	exec 7>in 8<outfifo
	# each read waits for the line itself (100 s only against a hang)
	printf '{"level":30,"msg":"first"}\nnot json\n{"level":40,\n' >&7
	IFS= read -r -t 100 line <&8 || fail "no first line"
	[ "$line" = 'INFO  first' ] || fail "first line: $line"
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
