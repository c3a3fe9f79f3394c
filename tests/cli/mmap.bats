#!/usr/bin/env bats
# mmap.bats - a JSON file of 1 MiB or more is mapped into memory instead
# of read (jenc(1), --no-mmap): the output, errors and exit status are
# those of reading it with read(2) or through a pipe, in every output mode
# and --on-error mode, from the descriptor's offset on, with -j 2 too; a
# file made shorter while it is read stops jenc with exit status 3 and
# says so, leaving no temporary file of -o or -w behind (cutwrite.so cuts
# it at jenc's first write); --no-mmap reads it instead.

load helpers

setup() {
	setup_jenc
	# 1.5 MB of JSON lines, then one bad line and one good one
	python3 - <<'EOF'
import json
with open("big.ndjson", "w") as f:
    for i in range(20000):
        f.write(json.dumps({"id": i, "s": "x y \u00e9 \\n", "a": [1, 2.5, None, True]}) + "\n")
with open("bad.ndjson", "w") as f:
    f.write(open("big.ndjson").read())
    f.write('{"id": "bad", "a": [1 2]}\n{"last": true}\n')
with open("big.json", "w") as f:
    f.write("[\n" + ",\n".join(json.dumps({"id": i, "s": "x" * 60}) for i in range(30000)) + "\n]\n")
EOF
}

# same_three ARGS... FILE - jenc ARGS... FILE (mapped) writes what jenc
# --no-mmap ARGS... FILE and cat FILE | jenc ARGS... write, and exits as
# they do.
same_three() {
	local f=${!#} want
	"$JENC" --no-mmap "$@" >"$T/read.out" 2>"$T/read.err" && want=0 || want=$?
	cat "$f" | "$JENC" "${@:1:$#-1}" >"$T/pipe.out" 2>"$T/pipe.err" || true
	jrun "$@"
	expect_status "$want"
	same_bytes "$T/read.out" "$T/out" stdout
	same_bytes "$T/read.err" "$T/err" stderr
	same_bytes "$T/read.out" "$T/pipe.out" "stdout through a pipe"
	sed "s/<stdin>/${f//\//\\/}/" "$T/pipe.err" >"$T/pipe.named.err"
	same_bytes "$T/read.err" "$T/pipe.named.err" "stderr through a pipe"
}

@test "mapped file: every output mode gives the bytes of read(2)" {
	[ "$(wc -c <big.ndjson)" -ge 1048576 ]
	same_three -c big.ndjson
	same_three big.ndjson
	same_three -H -a big.ndjson
	same_three -S --tab big.json
	same_three -l big.json
	same_three --validate big.json
}

@test "mapped file: a bad line stops, is skipped or passed as with read(2)" {
	same_three -c bad.ndjson
	[ "$status" = 1 ]
	grep -q "^jenc: bad.ndjson:20001:23: expected ',' or ']' after array element, found '2'" err
	same_three -c --on-error=skip bad.ndjson
	[ "$status" = 0 ]
	same_three -c --on-error=pass bad.ndjson
	[ "$(tail -n 2 out)" = '{"id": "bad", "a": [1 2]}
{"last":true}' ]
}

@test "mapped file: read from the descriptor's offset on" {
	# bash's read leaves the offset just after the first line, not at a
	# page boundary
	{ read -r _; "$JENC" -c; } <big.ndjson >out 2>err
	tail -n +2 big.ndjson | "$JENC" -c >want
	same_bytes want out
	[ ! -s err ]
}

@test "mapped file: -w rewrites it, --check compares it" {
	"$JENC" --no-mmap big.json >want
	jrun --check big.json
	expect_status 1
	expect_out 'big.json
'
	jrun -w big.json
	expect_ok ''
	same_bytes want big.json
	jrun --check big.json
	expect_ok ''
}

@test "mapped file made shorter while written to a pipe: exit 3" {
	cp big.json victim.json
	bash -c '"$1" victim.json 2>err | { head -c 1 >/dev/null;
		truncate -s 0 victim.json; cat >/dev/null; }
		echo "${PIPESTATUS[0]}" >status' _ "$JENC"
	[ "$(cat status)" = 3 ]
	same_bytes <(echo 'jenc: victim.json: the file was made shorter while it was read (see --no-mmap)') err
}

@test "mapped file made shorter, not to a page boundary: exit 3, not the zeros as bad input" {
	# the rest of the last page past the new end reads as zero bytes,
	# without SIGBUS; the cut is near the end, ahead of the reader
	# (held back by the pipe after about 1 MiB)
	local size
	size=$(( $(wc -c <big.json) / 4096 * 4096 - 4095 ))
	for args in "" "-c --on-error=skip" "-j 2 -c"; do
		cp big.json victim.json
		bash -c '"$1" $2 victim.json 2>err | { head -c 1 >/dev/null;
			truncate -s "$3" victim.json; cat >/dev/null; }
			echo "${PIPESTATUS[0]}" >status' _ "$JENC" "$args" "$size"
		[ "$(cat status)" = 3 ] || fail "jenc $args: exit status $(cat status): $(cat err)"
		same_bytes <(echo 'jenc: victim.json: the file was made shorter while it was read (see --no-mmap)') err "stderr of jenc $args"
	done
}

@test "--no-mmap: a file made shorter while read ends where it was cut" {
	cp big.json victim.json
	bash -c '"$1" --no-mmap victim.json 2>err | { head -c 1 >/dev/null;
		truncate -s 0 victim.json; cat >/dev/null; }
		echo "${PIPESTATUS[0]}" >status' _ "$JENC"
	[ "$(cat status)" = 1 ]
	grep -q '^jenc: victim.json:[0-9]*:[0-9]*: .*found end of input' err
}

@test "-j 2: a mapped stream's chunks are views of the mapping, the bytes of read(2)" {
	local c
	for c in 4096 65536 -; do
		if [ "$c" = - ]; then unset JENC_CHUNK; else export JENC_CHUNK=$c; fi
		same_three -j 2 -c big.ndjson
		same_three -j 2 bad.ndjson
		[ "$status" = 1 ]
		same_three -j 2 --on-error=skip bad.ndjson
		same_three -j 2 --on-error=pass -c bad.ndjson
		same_three -j 2 big.json
	done
	unset JENC_CHUNK
	# and -j 1 writes the same
	"$JENC" -c big.ndjson >want
	"$JENC" -j 2 -c big.ndjson >out
	same_bytes want out
	# from the descriptor's offset on
	{ read -r _; "$JENC" -j 2 -c; } <big.ndjson >out 2>err
	tail -n +2 big.ndjson | "$JENC" -c >want
	same_bytes want out
	[ ! -s err ]
}

@test "-j 2: a mapped stream made shorter while written to a pipe: exit 3" {
	# larger than the chunks read ahead, so that some are read after
	# the cut
	cat big.ndjson big.ndjson big.ndjson big.ndjson big.ndjson \
	    big.ndjson >victim.ndjson
	bash -c '"$1" -j 2 victim.ndjson 2>err | { head -c 1 >/dev/null;
		truncate -s 0 victim.ndjson; cat >/dev/null; }
		echo "${PIPESTATUS[0]}" >status' _ "$JENC"
	[ "$(cat status)" = 3 ]
	same_bytes <(echo 'jenc: victim.ndjson: the file was made shorter while it was read (see --no-mmap)') err
}

# cut_run ARGS... - jenc ARGS with cutwrite.so, which truncates
# victim.ndjson at jenc's first write to its output file.
cut_run() {
	need_shim cutwrite "whose write comes before an LD_PRELOAD one"
	cp big.ndjson victim.ndjson
	status=0
	LD_PRELOAD=$SHIM JENC_CUT=victim.ndjson "$JENC" "$@" >out 2>err ||
	    status=$?
}

@test "mapped file made shorter while -o writes: exit 3, the old output kept, no temporary file" {
	mkdir d
	echo old >d/out.json
	cut_run -c -o d/out.json victim.ndjson
	expect_status 3
	same_bytes <(echo 'jenc: victim.ndjson: the file was made shorter while it was read (see --no-mmap)') err
	[ "$(cat d/out.json)" = old ]
	[ "$(ls -A d)" = out.json ]
	[ ! -s victim.ndjson ]
	# and with -j 2
	cut_run -j 2 -c -o d/out.json victim.ndjson
	expect_status 3
	[ "$(cat d/out.json)" = old ]
	[ "$(ls -A d)" = out.json ]
}

@test "mapped file made shorter while -w rewrites it: exit 3, no temporary file" {
	mkdir d
	cut_run -c -w victim.ndjson
	expect_status 3
	same_bytes <(echo 'jenc: victim.ndjson: the file was made shorter while it was read (see --no-mmap)') err
	[ "$(ls -A)" = "$(printf 'bad.ndjson\nbig.json\nbig.ndjson\nd\nerr\nout\nvictim.ndjson')" ]
	[ ! -s victim.ndjson ]
	# --no-mmap: the input ends where it was cut, a read error or a
	# syntax error, and the file is not replaced either
	cut_run --no-mmap -c -w victim.ndjson
	[ "$status" != 0 ]
	[ "$status" != 3 ]
	[ ! -s victim.ndjson ]
}
