#!/usr/bin/env bats
# Inputs over 4 GiB through a pipe, in bounded memory.  The inputs are
# generated on the fly (never stored) from the shared corpus, in 1 MiB
# blocks.  They take minutes: the tests run only with JENC_SLOW=1
# (`make check-slow`) and skip otherwise.  Each test reports its input
# size, time and peak RSS on the TAP stream (fd 3).
#
# Needs /usr/bin/time (Debian package `time`) and perl.

load helpers

# Every input is a little over 4.3 GiB: past 2^32 bytes.
TARGET=$((43 * (1 << 30) / 10))
# The contract's memory bound, in KiB as /usr/bin/time reports it.
RSS_MAX=16384

setup() {
	[ "${JENC_SLOW:-}" = 1 ] ||
	    skip "inputs over 4 GiB take minutes: run with JENC_SLOW=1 (make check-slow)"
	setup_jenc
	need_shared
	[ -x /usr/bin/time ] ||
	    fail "/usr/bin/time is needed to measure peak RSS (apt-get install time)"
	command -v perl >/dev/null || fail "perl is needed to generate the inputs"
}

# gen FILE N PREFIX SEP SUFFIX - write PREFIX, then N copies of FILE's
# bytes with SEP between them, then SUFFIX, in blocks of about 1 MiB.
gen() {
	perl -e '
		my ($file, $n, $pre, $sep, $suf) = @ARGV;
		open(my $f, "<:raw", $file) or die "$file: $!\n";
		my $c = do { local $/; <$f> };
		binmode(STDOUT);
		my $k = int((1 << 20) / (length($c) + length($sep))) || 1;
		my $blk = ($sep . $c) x $k;
		print $pre, $c;
		$n--;
		while ($n >= $k) {
			print $blk;
			$n -= $k;
		}
		print(($sep . $c) x $n, $suf);
		close(STDOUT) or die "write: $!\n";
	' "$@"
}

# copies SIZE EXTRA - the least N with N * SIZE + EXTRA > $TARGET.
copies() {
	echo $(((TARGET - $2) / $1 + 1))
}

# rss_ok FILE WHAT - FILE ends with "%M %e" from /usr/bin/time (after a
# "Command exited with non-zero status" line if so): report it, and fail
# if the peak RSS is not under the bound.
rss_ok() {
	local rss secs
	read -r rss secs < <(tail -n 1 "$1")
	[[ $rss =~ ^[0-9]+$ ]] || fail "no measurement in $1 for $2: $(cat "$1")"
	echo "# $2: peak RSS $rss KiB, $secs s" >&3
	[ "$rss" -lt "$RSS_MAX" ] ||
	    fail "$2: peak RSS $rss KiB, not under $RSS_MAX KiB"
}

# fifo_sum NAME - make fifo NAME and start sha256sum on it into NAME.sum;
# its process id is appended to $PIDS.
fifo_sum() {
	mkfifo "$1"
	sha256sum <"$1" >"$1.sum" &
	PIDS+=" $!"
}

# wait_all - wait for the processes in $PIDS.
wait_all() {
	local p
	for p in $PIDS; do
		wait "$p" || fail "background process $p failed"
	done
}

# sum_of FILE - the hash in a sha256sum output file.
sum_of() {
	local h rest
	read -r h rest <"$1"
	printf '%s\n' "$h"
}

@test "NDJSON over 4 GiB through a pipe: jenc -c passes it through, in bounded memory" {
	local n size lines bytes st
	"$JENC" -c "$CORPUS/amazon_cellphones.ndjson" >unit.ndjson ||
	    fail "jenc -c of the corpus file failed"
	size=$(wc -c <unit.ndjson)
	lines=$(wc -l <unit.ndjson)
	n=$(copies "$size" 0)
	bytes=$((n * size))
	echo "# input: $n copies of amazon_cellphones.ndjson (compact), $bytes bytes, $((n * lines)) lines" >&3
	PIDS=
	fifo_sum in.fifo
	mkfifo lines.fifo
	wc -l <lines.fifo >out.lines &
	PIDS+=" $!"
	SECONDS=0
	gen unit.ndjson "$n" '' '' '' | tee in.fifo |
	    /usr/bin/time -f '%M %e' -o rss "$JENC" -c 2>err |
	    tee lines.fifo | sha256sum >out.sum
	st=("${PIPESTATUS[@]}")
	wait_all
	echo "# pipeline: $SECONDS s" >&3
	[ "${st[*]}" = "0 0 0 0 0" ] ||
	    fail "exit statuses (gen tee jenc tee sha256sum): ${st[*]}; stderr: $(head -c 500 err)"
	[ ! -s err ] || fail "jenc wrote on stderr: $(head -c 500 err)"
	[ "$(cat out.lines)" = $((n * lines)) ] ||
	    fail "$(cat out.lines) output lines, expected $((n * lines))"
	[ "$(sum_of out.sum)" = "$(sum_of in.fifo.sum)" ] ||
	    fail "output differs from the (compact) input: sha256 $(sum_of out.sum), input $(sum_of in.fifo.sum)"
	rss_ok rss "jenc -c"
}

# citm_parts - citm.c: the compact citm_catalog without its newline;
# citm.i: its indented form as an element of an array (every line
# indented two more spaces, no newline at the end).
citm_parts() {
	"$JENC" -c "$CORPUS/citm_catalog.json" | head -c -1 >citm.c
	"$JENC" "$CORPUS/citm_catalog.json" | sed 's/^/  /' | head -c -1 >citm.i
	[ -s citm.c ] && [ -s citm.i ] || fail "jenc of citm_catalog.json failed"
}

@test "one array over 4 GiB through a pipe: jenc -c writes it back unchanged, in bounded memory" {
	local n size st
	citm_parts
	size=$(wc -c <citm.c)
	n=$(copies $((size + 1)) 3)
	echo "# input: [ $n copies of citm_catalog (compact) ], $((n * (size + 1) + 2)) bytes" >&3
	PIDS=
	fifo_sum in.fifo
	SECONDS=0
	gen citm.c "$n" '[' ',' $']\n' | tee in.fifo |
	    /usr/bin/time -f '%M %e' -o rss "$JENC" -c 2>err | sha256sum >out.sum
	st=("${PIPESTATUS[@]}")
	wait_all
	echo "# pipeline: $SECONDS s" >&3
	[ "${st[*]}" = "0 0 0 0" ] ||
	    fail "exit statuses (gen tee jenc sha256sum): ${st[*]}; stderr: $(head -c 500 err)"
	[ ! -s err ] || fail "jenc wrote on stderr: $(head -c 500 err)"
	[ "$(sum_of out.sum)" = "$(sum_of in.fifo.sum)" ] ||
	    fail "output differs from the (compact) input: sha256 $(sum_of out.sum), input $(sum_of in.fifo.sum)"
	rss_ok rss "jenc -c"
}

@test "one array over 4 GiB through a pipe: indented, and back to compact, in bounded memory" {
	local n size isize st
	citm_parts
	size=$(wc -c <citm.c)
	isize=$(wc -c <citm.i)
	n=$(copies $((size + 1)) 3)
	echo "# input: [ $n copies of citm_catalog (compact) ], $((n * (size + 1) + 2)) bytes;" \
	    "indented: $((n * (isize + 2) + 3)) bytes" >&3
	PIDS=
	fifo_sum in.fifo
	fifo_sum ind.fifo
	SECONDS=0
	gen citm.c "$n" '[' ',' $']\n' | tee in.fifo |
	    /usr/bin/time -f '%M %e' -o rss1 "$JENC" 2>err1 | tee ind.fifo |
	    /usr/bin/time -f '%M %e' -o rss2 "$JENC" -c 2>err2 | sha256sum >out.sum
	st=("${PIPESTATUS[@]}")
	wait_all
	echo "# pipeline: $SECONDS s" >&3
	[ "${st[*]}" = "0 0 0 0 0 0" ] ||
	    fail "exit statuses (gen tee jenc tee jenc-c sha256sum): ${st[*]}; stderr: $(head -c 500 err1 err2)"
	[ ! -s err1 ] && [ ! -s err2 ] || fail "jenc wrote on stderr: $(head -c 500 err1 err2)"
	[ "$(sum_of out.sum)" = "$(sum_of in.fifo.sum)" ] ||
	    fail "jenc | jenc -c differs from the (compact) input: sha256 $(sum_of out.sum), input $(sum_of in.fifo.sum)"
	rss_ok rss1 "jenc (indent)"
	rss_ok rss2 "jenc -c of the indented output"
	# The indented output is exactly the array of the indented parts.
	SECONDS=0
	gen citm.i "$n" $'[\n' $',\n' $'\n]\n' | sha256sum >expected.sum
	echo "# expected indented output hashed again: $SECONDS s" >&3
	[ "$(sum_of ind.fifo.sum)" = "$(sum_of expected.sum)" ] ||
	    fail "indented output differs from [ indent(citm_catalog), ... ]"
}

@test "an error past 4 GiB into one line reports its column beyond 2^32" {
	local n size col st
	citm_parts
	size=$(wc -c <citm.c)
	n=$(copies $((size + 1)) 3)
	# The input ends in `[C,C,...,C x]`: the 'x' is at byte n*(size+1)+2.
	col=$((n * (size + 1) + 2))
	echo "# input: $((col + 1)) bytes, error at column $col" >&3
	SECONDS=0
	gen citm.c "$n" '[' ',' ' x]' |
	    /usr/bin/time -f '%M %e' -o rss "$JENC" -c 2>err | wc -c >out.bytes
	st=("${PIPESTATUS[@]}")
	echo "# pipeline: $SECONDS s, $(cat out.bytes) bytes written before the error" >&3
	[ "${st[*]}" = "0 1 0" ] ||
	    fail "exit statuses (gen jenc wc): ${st[*]}, expected 0 1 0; stderr: $(head -c 500 err)"
	[ "$(head -n 1 err)" = "jenc: <stdin>:1:$col: expected ',' or ']' after array element, found 'x' (output of this value was cut)" ] ||
	    fail "first line of stderr: $(head -n 1 err | head -c 500)"
	[ "$(wc -l <err)" = 3 ] && [ "$(tail -n 1 err | tr -d ' ')" = '^' ] ||
	    fail "the report is not three lines ending with the caret: $(head -c 500 err)"
	rss_ok rss "jenc -c (invalid)"
}

# sparse FILE - a sparse file of 4.5 GiB: "[1, 2]" at its start, a hole
# (NUL bytes), and two JSON lines at byte 4.5 GiB, past 2^32.  Where off_t
# or size_t has 32 bits (jenc built without _FILE_OFFSET_BITS=64 on
# i686 or armhf), open(2) and fstat(2) of it fail with EOVERFLOW and it
# cannot be mapped whole.
SPARSE_AT=$((4608 << 20))
sparse() {
	python3 -c '
import sys
with open(sys.argv[1], "wb") as f:
    f.write(b"[1, 2]")
    f.seek(int(sys.argv[2]))
    f.write(b"{\"a\": [1, 2]}\n{\"b\": null}\n")
' "$1" "$SPARSE_AT"
}

# at_offset FILE OFF CMD... - run CMD with FILE as its standard input,
# positioned at byte OFF.
at_offset() {
	python3 -c '
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
os.lseek(fd, int(sys.argv[2]), os.SEEK_SET)
os.dup2(fd, 0)
os.execv(sys.argv[3], sys.argv[3:])
' "$@"
}

@test "a sparse file of 4.5 GiB opened by name: read from its start, the NUL after the text is an error" {
	sparse big.json
	run "$JENC" -c big.json
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "[1,2]" ]
	[ "${lines[1]}" = "jenc: big.json:1:7: expected value or end of input, found NUL byte" ]
	run "$JENC" -c --no-mmap big.json
	[ "$status" -eq 1 ]
	[ "${lines[1]}" = "jenc: big.json:1:7: expected value or end of input, found NUL byte" ]
}

@test "a sparse file of 4.5 GiB as standard input at an offset past 2^32: mapped, read, and with -j" {
	local opts
	sparse big.json
	for opts in "-c" "-c --no-mmap" "-c -j 2" "-c -j 2 --no-mmap" "-S"; do
		run at_offset big.json "$SPARSE_AT" "$JENC" $opts
		[ "$status" -eq 0 ] || fail "jenc $opts: status $status: $output"
		if [ "$opts" = -S ]; then
			[ "$output" = "$(printf '{\n  "a": [\n    1,\n    2\n  ]\n}\n{\n  "b": null\n}')" ] ||
			    fail "jenc $opts: $output"
		else
			[ "$output" = "$(printf '{"a":[1,2]}\n{"b":null}')" ] ||
			    fail "jenc $opts: $output"
		fi
	done
}
