#!/usr/bin/env bats
# -j N, --jobs=N: a JSON stream read on several threads gives the bytes
# of -j 1, on stdout and stderr, and its exit status, whatever the chunks
# (JENC_CHUNK makes them small, so that every boundary gets a value, a
# bad line, a pretty-printed value or a bad text across it), in every
# --on-error mode and every output mode; with one usable CPU no thread
# is started, unless JENC_FORCE_THREADS asks for them.  Every test here
# sets it, so that the threads run (and are compared with -j 1) whatever
# the number of CPUs.

load helpers

setup() {
	setup_jenc
	export JENC_FORCE_THREADS=1
}

# same_as_j1 ARGS... - jenc ARGS... with -j 2, -j 4 and -j auto, each
# with the JENC_CHUNK sizes in $CHUNKS (default: 1 7 64 4096 and unset),
# writes what jenc -j 1 ARGS... writes, and exits as it does.
same_as_j1() {
	local j c want
	"$JENC" -j 1 "$@" >"$T/j1.out" 2>"$T/j1.err" && want=0 || want=$?
	for c in ${CHUNKS:-1 7 64 4096 -}; do
		for j in 2 4 auto; do
			JCMD="JENC_CHUNK=$c jenc -j $j $*"
			status=0
			if [ "$c" = - ]; then
				"$JENC" -j "$j" "$@" >"$T/out" 2>"$T/err" || status=$?
			else
				JENC_CHUNK=$c "$JENC" -j "$j" "$@" >"$T/out" \
				    2>"$T/err" || status=$?
			fi
			expect_status "$want"
			same_bytes "$T/j1.out" "$T/out" stdout
			same_bytes "$T/j1.err" "$T/err" stderr
		done
	done
}

# A stream with a bit of everything: JSON lines, concatenated values on
# one line, pretty-printed values, scalars, a byte order mark, CR LF,
# blank lines.
good_stream() {
	printf '\xef\xbb\xbf{"id": 1, "s": "\xc3\xa9<&>"}\n'
	printf '{"id": 2}  {"id": 3}\r\n\n'
	printf '{\n  "id": 4,\n  "a": [\n    1,\n    2\n  ]\n}\n'
	printf '"str"\n12\ntrue null\n[{"k": {"z": 1, "a": 2}}]\n'
	printf '[\n1,\n2\n]\n{"id": 5, "u": "\\u00e9\\ud83d\\ude00"}\n'
}

# Bad input between good lines: a truncated line before a good one, a
# bad value pretty-printed over several lines (its bad text spans them),
# junk after a value, a bad escape, a plain text line, invalid UTF-8,
# nesting too deep for --max-depth=4.
bad_stream() {
	printf '{"id": 1}\n{"id": 2, "cut": \n{"id": 3}\n'
	printf '{\n  "a": 1,\n  "b": oops,\n  "c": [\n    2\n  ]\n}\n'
	printf '{"id": 4} trailing\n"\\x"\nnot json at all\n'
	printf '{"id": 5, "s": "\xff"}\n[[[[[1]]]]]\n{"id": 6}\n'
	printf '{"id": 7}\n{"open": [1,\n'
}

@test "-j: the corpus, every output mode, the same bytes as -j 1" {
	need_shared
	local f m
	CHUNKS="4096 -"
	for f in $(corpus_files); do
		for m in -c "" --tab "-S" "-a -H" "-C" --split --validate; do
			# shellcheck disable=SC2086
			same_as_j1 $m "$f"
		done
	done
}

@test "-j: a stream of every kind of value, cut everywhere" {
	good_stream >in
	local m
	for m in -c "" "--indent=3" -S -l "-a -H" -C "-C -S" --split \
	    --validate "-u"; do
		# shellcheck disable=SC2086
		same_as_j1 $m in
	done
}

@test "-j: JSON Lines, the same as -j 1, and each value once" {
	local i
	for i in $(seq 1 300); do
		printf '{"n": %d, "s": "line %d", "a": [%d, {"b": null}]}\n' \
		    "$i" "$i" "$i"
	done >in
	CHUNKS="1 50 1000 -" same_as_j1 -c in
	[ "$(wc -l <"$T/out")" = 300 ]
	[ "$(sed -n 300p "$T/out")" = '{"n":300,"s":"line 300","a":[300,{"b":null}]}' ]
}

@test "-j: bad lines at chunk boundaries, every --on-error mode" {
	bad_stream >in
	local m
	for m in "" "--on-error=stop" "--on-error=skip" "--on-error=pass" \
	    "--on-error=skip -q" "--on-error=pass -c" "--on-error=skip -S" \
	    "--validate" "--validate --on-error=skip" "--max-depth=4" \
	    "--max-depth=4 --on-error=skip"; do
		# shellcheck disable=SC2086
		same_as_j1 $m in
	done
}

@test "-j: under stop, the chunks before the bad one, then its values, then the error" {
	printf '{"a":1}\n{"b":2}\n{"c":3}\n{"d":4}\n{"e":5}\n{"f":6 x}\n{"g":7}\n' >in
	JENC_CHUNK=8 jrun -j 2 -c in
	expect_invalid '{"a":1}
{"b":2}
{"c":3}
{"d":4}
{"e":5}
' "jenc: in:6:8: expected ',' or '}' after object member, found 'x'
  {\"f\":6 x}
         ^
"
	CHUNKS="1 8 16 -" same_as_j1 -c in
}

@test "-j: skip and pass count the lines of every chunk" {
	local i
	for i in $(seq 1 40); do
		printf '{"n": %d}\n' "$i"
		[ $((i % 7)) = 0 ] && printf 'bad %d\n' "$i"
		[ $((i % 11)) = 0 ] && printf '{"open": [\n  1,\n  oops\n]}\n'
	done >in
	JENC_CHUNK=20 jrun -j 2 -c --on-error=skip -q in
	expect_status 0
	[ "$(wc -l <"$T/out")" = 40 ]
	CHUNKS="1 20 33 64 -" same_as_j1 --on-error=skip in
	grep -q '^jenc: 17 invalid lines skipped$' "$T/err"
	CHUNKS="1 20 33 64 -" same_as_j1 --on-error=pass -c in
	grep -q '^jenc: 17 invalid lines passed through$' "$T/err"
}

@test "-j: more bad lines in a chunk than are kept for it" {
	local i
	for i in $(seq 1 500); do
		printf 'junk %d\n{"n": %d}\n' "$i" "$i"
	done >in
	CHUNKS="4096 100000" same_as_j1 --on-error=skip in
	CHUNKS="4096 100000" same_as_j1 --on-error=pass in
}

@test "-j: --seq text sequences, truncated texts across chunks" {
	printf '\x1e{"a":1}\n\x1e{"b":\n2}\n\x1e{"c":\n\x1e3\n\x1e"\\x"\n\n\x1e[1,\n2]\n\x1e4' >in
	local m
	for m in "" "--on-error=skip" "--on-error=pass" "-c" "--validate"; do
		# shellcheck disable=SC2086
		same_as_j1 --seq $m in
	done
}

@test "-j: a document, and values spanning chunks, as -j 1 reads them" {
	need_shared
	CHUNKS="64 -" same_as_j1 "$CORPUS/citm_catalog.json"
	CHUNKS="64 -" same_as_j1 -c "$CORPUS/canada.json"
	cat "$CORPUS/twitter.json" "$CORPUS/twitter.json" >two.json
	CHUNKS="512 100000 -" same_as_j1 -c two.json
	# cut short at its end: the error is at the end of the input
	head -c 300000 "$CORPUS/citm_catalog.json" >cut.json
	CHUNKS="4096 -" same_as_j1 cut.json
}

@test "-j: a document read on two threads, bad in the middle, every --on-error mode" {
	need_shared
	# pretty-printed, so that skip and pass have lines to drop
	"$JENC" "$CORPUS/citm_catalog.json" >doc.json
	local n at
	n=$(stat -c %s doc.json)
	for at in $((n / 3)) $((n / 2 + 17)) $((n - 40)); do
		cp doc.json bad.json
		printf 'x' | dd of=bad.json bs=1 seek="$at" conv=notrunc \
		    status=none
		CHUNKS="1000 100000 -" same_as_j1 -c bad.json
		CHUNKS="4096 -" same_as_j1 --on-error=skip bad.json
		CHUNKS="4096 -" same_as_j1 --on-error=pass -c bad.json
	done
	# one line of 1.7 MB, bad in slots past the first four (the window
	# a view of the mapping there), near its end, and just past it
	"$JENC" -c "$CORPUS/citm_catalog.json" >line.json
	n=$(stat -c %s line.json)
	for at in $((n / 2 + 5)) $((n - 3)); do
		cp line.json bad1.json
		printf ']' | dd of=bad1.json bs=1 seek="$at" conv=notrunc \
		    status=none
		CHUNKS="4096 -" same_as_j1 -c bad1.json
		CHUNKS="-" same_as_j1 --on-error=skip bad1.json
	done
	{ cat line.json; printf '{"k": tru}\n'; } >bad1.json
	CHUNKS="-" same_as_j1 bad1.json
	# a bad document through a pipe: the same output, error and status
	"$JENC" -j 1 -c <bad.json >want.out 2>want.err && want=0 || want=$?
	status=0
	cat bad.json | "$JENC" -j 2 -c >"$T/out" 2>"$T/err" || status=$?
	expect_status "$want"
	same_bytes want.out "$T/out" stdout
	same_bytes want.err "$T/err" stderr
	# nested deeper than the second thread tokenizes
	{ printf '['; for _ in $(seq 400); do printf '['; done
	  printf '1'; for _ in $(seq 400); do printf ']'; done
	  printf ','; cat doc.json; printf ']\n'; } >deep.json
	CHUNKS="1000 -" same_as_j1 -c deep.json
}

@test "-j: standard input, a pipe and several files" {
	good_stream >a.json
	bad_stream >b.json
	CHUNKS="7 64" same_as_j1 -c a.json b.json a.json
	CHUNKS="7 64" same_as_j1 --on-error=skip a.json b.json a.json
	local j
	for j in 2 auto; do
		"$JENC" -j 1 --on-error=pass <b.json >want.out 2>want.err || true
		status=0
		cat b.json | JENC_CHUNK=5 "$JENC" -j "$j" --on-error=pass \
		    >"$T/out" 2>"$T/err" || status=$?
		expect_status 0
		same_bytes want.out "$T/out" stdout
		same_bytes want.err "$T/err" stderr
		status=0
		JENC_CHUNK=5 "$JENC" -j "$j" --on-error=pass - <b.json \
		    >"$T/out" 2>"$T/err" || status=$?
		expect_status 0
		same_bytes want.out "$T/out" stdout
		same_bytes want.err "$T/err" stderr
	done
}

@test "-j: -s, -o, -w and --check give what -j 1 gives" {
	good_stream >a.json
	bad_stream >b.json
	CHUNKS="7 -" same_as_j1 -s a.json a.json
	CHUNKS="7 -" same_as_j1 -s --on-error=skip a.json b.json
	JENC_CHUNK=7 jrun -j 2 -o out.json a.json b.json
	expect_status 1
	[ ! -e out.json ]
	JENC_CHUNK=7 jrun -j 2 -c -o out.json a.json a.json
	expect_status 0
	"$JENC" -c a.json a.json >want.json
	same_bytes want.json out.json
	cp a.json w.json
	JENC_CHUNK=7 jrun -j 2 -w w.json
	expect_status 0
	"$JENC" a.json >want.json
	same_bytes want.json w.json
	CHUNKS="7 -" same_as_j1 --check a.json w.json
	CHUNKS="7 -" same_as_j1 -c --check w.json
}

@test "-j: CSV and TSV input reads as with -j 1" {
	CHUNKS="7 -" same_as_j1 "$DATA/demo.csv"
	CHUNKS="7 -" same_as_j1 -t -l "$DATA/demo.csv"
}

@test "-j auto with one usable CPU, and -j 2 on it, write what -j 1 writes" {
	command -v taskset >/dev/null || skip "taskset is not installed"
	taskset -c 0 true 2>/dev/null || skip "taskset cannot pin here"
	good_stream >a.json
	bad_stream >b.json
	local j f force threads
	[ -z "${JENC_POSIX_ONLY:-}" ] ||
	    echo "# a JENC_POSIX_ONLY build: the output compared, not the threads that one CPU starts" >&3
	for f in a.json b.json; do
		"$JENC" -j 1 --on-error=skip "$f" >want.out 2>want.err || true
		# without JENC_FORCE_THREADS: on one thread; with it, -j 2 and
		# 4 start their threads on the one CPU (the threads of jenc's
		# work counters say which): the workers for b.json, whose
		# chunks of 64 bytes hold lines enough to look like a stream
		# (a.json's first does not: it is read on one thread, with a
		# second only to tokenize, and not even that with JENC_EXACT)
		for force in '' 1; do
			for j in auto 2 4; do
				JCMD="JENC_FORCE_THREADS=$force taskset -c 0 jenc -j $j --on-error=skip $f"
				status=0
				JENC_FORCE_THREADS=$force JENC_CHUNK=64 \
				    JENC_STATS=stats taskset -c 0 "$JENC" \
				    -j "$j" --on-error=skip "$f" >"$T/out" \
				    2>"$T/err" || status=$?
				expect_status 0
				same_bytes want.out "$T/out" stdout
				same_bytes want.err "$T/err" stderr
				threads=$(awk '$1 == "threads" { print $2 }' stats)
				# (a JENC_POSIX_ONLY build, make check-posix,
				# counts the CPUs online, not those taskset
				# leaves it: it may start threads unforced)
				if [ -n "${JENC_POSIX_ONLY:-}" ] &&
				    { [ -z "$force" ] || [ "$j" = auto ]; }; then
					:
				elif [ -z "$force" ] || [ "$j" = auto ]; then
					[ "$threads" = 0 ] ||
					    fail "$JCMD: $threads threads started"
				elif [ "$f" = b.json ]; then
					[ "$threads" -ge 2 ] ||
					    fail "$JCMD: $threads threads started"
				fi
			done
		done
	done
}

@test "-j: the values of a slow pipe come out before its end" {
	# a value written, then the writer waits until jenc has written it:
	# jenc cuts a chunk when no more input is waiting (the writer gives
	# up after HANG_LIMIT seconds, which fails the test)
	mkfifo fifo
	(
		printf '{"a": 1}\n{"b": 2}\n'
		wait_until '"b" in the output' grep -q '"b"' out.txt ||
		    touch late
		printf '{"c": 3}\n'
	) >fifo &
	JENC_CHUNK=4096 "$JENC" -j 2 -c <fifo >out.txt
	wait
	[ ! -e late ] || fail "the values before the pause came out only at the end"
	printf '{"a":1}\n{"b":2}\n{"c":3}\n' >want.txt
	same_bytes want.txt out.txt
}

@test "-j: values not on lines of their own, from a slow pipe, come out before its end" {
	# no line end at all: the one-thread reader takes the stream and
	# writes each value as it ends, as -j 1 does (the writer gives up
	# waiting after HANG_LIMIT seconds, which fails the test)
	mkfifo fifo
	(
		printf '{"a": 1} {"b": 2}'
		wait_until '"b" in the output' grep -q '"b"' out.txt ||
		    touch late
		printf ' [3]'
	) >fifo &
	"$JENC" -j 2 -c <fifo >out.txt
	wait
	[ ! -e late ] || fail "the values before the pause came out only at the end"
	printf '{"a":1}\n{"b":2}\n[3]\n' >want.txt
	same_bytes want.txt out.txt
}

@test "-j, --jobs: a number from 1 to 1024, or auto" {
	put '{"a": [1]}'
	jrun --jobs=2 -c in
	expect_ok '{"a":[1]}
'
	jrun -j auto -c in
	expect_ok '{"a":[1]}
'
	jrun --jobs 1024 -c in
	expect_ok '{"a":[1]}
'
	jrun -j 0 in
	expect_usage "jenc: --jobs: '0' is not auto or a number from 1 to 1024"
	jrun -j 1025 in
	expect_usage "jenc: --jobs: '1025' is not auto or a number from 1 to 1024"
	jrun --jobs=two in
	expect_usage "jenc: --jobs: 'two' is not auto or a number from 1 to 1024"
	jrun -j -1 in
	expect_usage "jenc: --jobs: '-1' is not auto or a number from 1 to 1024"
	jrun -j
	expect_usage "jenc: option '-j' needs a value"
}

@test "JENC_CHUNK: a number of bytes, or unset" {
	put '{}'
	JENC_CHUNK=x jrun -j 2 in
	expect_status 2
	expect_out ''
	expect_err "jenc: JENC_CHUNK: 'x' is not a number of bytes
"
	JENC_CHUNK=0 jrun -j 2 in
	expect_status 2
	JENC_CHUNK= jrun -j 2 -c in
	expect_ok '{}
'
}

# -j hands a pipe's first chunk to the one-thread reader, which then
# reads on from the pipe: a read boundary just after that chunk, always.
@test "--seq: a skipped text's lines and its end at the next RS, across a read" {
	export JENC_CHUNK=6
	jrun -j 2 --seq < <(printf '"a\tb"\n\n')
	expect_status 1
	expect_out ''
	expect_err "jenc: <stdin>:1:3: unescaped control character 0x09 in string
  \"a b\"
    ^
jenc: 2 invalid lines skipped
"
	export JENC_CHUNK=5
	jrun -j 2 --seq < <(printf '"\\x"\n\x1e{"s": ')
	expect_status 1
	expect_out ''
	expect_err "jenc: <stdin>:1:2: invalid escape '\\x' in string
  \"\\x\"
   ^
jenc: <stdin>:2:8: expected value after ':', found end of input
  ?{\"s\": 
         ^
jenc: 2 invalid lines skipped
"
}

# A '\n' byte of UTF-16 or UTF-32 is half of a character (U+7B0A in
# UTF-16LE is 0a 7b, a line end before '{'): the input is one conversion.
@test "-j: UTF-16 and UTF-32 with a byte order mark are not cut at 0x0a bytes" {
	local i
	for i in $(seq 1 40); do
		printf '{"k":"\xe7\xac\x8a"}\n[" \xe0\xa9\xbb"]\n'
	done >"$T/in.json"
	"$JENC" -c "$T/in.json" >"$T/want"
	for enc in UTF-16LE UTF-16BE UTF-32BE; do
		case $enc in
		UTF-16LE) printf '\xff\xfe' ;;
		UTF-16BE) printf '\xfe\xff' ;;
		UTF-32BE) printf '\0\0\xfe\xff' ;;
		esac >"$T/wide.json"
		iconv -f UTF-8 -t "$enc" <"$T/in.json" >>"$T/wide.json"
		CHUNKS='64 100 1000' same_as_j1 -c "$T/wide.json"
		same_bytes "$T/want" "$T/out" stdout
	done
}
