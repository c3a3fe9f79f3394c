#!/usr/bin/env bats
# nomem.bats - memory that runs out.  failmalloc.so (LD_PRELOAD) fails the
# Nth allocation of the process (malloc, calloc, realloc, ... whether the
# library, the command or the C library asks), for every N up to the
# number of allocations of a whole run.  Each run either still gives its
# full output (exit 0, or the same report of bad input), or says exactly
# "jenc: out of memory" (no position: the input is not at fault) and
# exits 3, with a valid prefix of the full output on stdout.

load helpers

setup() {
	setup_jenc
	# AddressSanitizer replaces malloc itself, and must come first.
	need_shim failmalloc "which replaces malloc: no LD_PRELOAD allocator (test_nomem covers the library there)"
}

# frun N ARGS... - jenc ARGS with allocation N failing (0: none), stdin
# from $IN when set; stdout to $T/o, stderr to $T/e, status in $rc.
frun() {
	local n=$1
	shift
	rc=0
	if [ -n "${IN:-}" ]; then
		# through a pipe, read in pieces as they come
		cat "$IN" | JENC_FAIL_AT=$n JENC_FAIL_COUNT=$T/count \
		    LD_PRELOAD=$SHIM "$JENC" "$@" >"$T/o" 2>"$T/e" || rc=$?
	else
		JENC_FAIL_AT=$n JENC_FAIL_COUNT=$T/count LD_PRELOAD=$SHIM \
		    "$JENC" "$@" >"$T/o" 2>"$T/e" || rc=$?
	fi
}

# is_prefix A B - file A is the first bytes of file B.
is_prefix() {
	local n
	n=$(wc -c <"$1")
	[ "$n" -le "$(wc -c <"$2")" ] && cmp -s -n "$n" "$1" "$2"
}

# valid_prefix KIND - $T/o is what KIND of output may be left: "values"
# (complete JSON values, each one whole: a prefix of the full output),
# "array" (CSV in one array: what had streamed, or the array closed
# after the records read), "none" (--validate writes nothing).
valid_prefix() {
	case $1 in
	none)
		[ ! -s "$T/o" ]
		;;
	values)
		is_prefix "$T/o" "$T/full" && "$JENC" --validate "$T/o" 2>/dev/null
		;;
	array)
		is_prefix "$T/o" "$T/full" && return 0
		# closed early: valid, and a prefix once "]\n" (and the line
		# end before it) is taken off
		"$JENC" --validate "$T/o" 2>/dev/null || return 1
		local n
		n=$(wc -c <"$T/o")
		[ "$(tail -c 2 "$T/o" | od -An -c | tr -d ' ')" = ']\n' ] || return 1
		n=$((n - 2))
		head -c "$n" "$T/o" >"$T/o.open"
		[ "$(tail -c 1 "$T/o.open" | od -An -c | tr -d ' ')" = '\n' ] &&
		    head -c $((n - 1)) "$T/o" >"$T/o.open"
		is_prefix "$T/o.open" "$T/full"
		;;
	esac
}

# oom_report - $T/e ends with the line "jenc: out of memory", and what
# comes before it is what the full run reported so far (bad input met in
# an earlier input).
oom_report() {
	local n
	[ "$(tail -n 1 "$T/e")" = "jenc: out of memory" ] || return 1
	n=$(($(wc -l <"$T/e") - 1))
	head -n "$n" "$T/e" >"$T/e.before"
	[ "$(wc -c <"$T/e")" = $(($(wc -c <"$T/e.before") + 20)) ] &&
	    is_prefix "$T/e.before" "$T/full.err"
}

# fail_each KIND ARGS... - the whole check for jenc ARGS.  Prints a
# summary line; fails on the first run that breaks the rule.
fail_each() {
	local kind=$1 n calls full_rc oom=0 same=0
	shift
	frun 0 "$@"
	full_rc=$rc
	cp "$T/o" "$T/full"
	cp "$T/e" "$T/full.err"
	calls=$(cat "$T/count")
	[ "$calls" -gt 0 ] || fail "no allocation counted for jenc $*"
	for n in $(seq 1 "$calls"); do
		frun "$n" "$@"
		if [ "$rc" = "$full_rc" ] && cmp -s "$T/o" "$T/full" &&
		    cmp -s "$T/e" "$T/full.err"; then
			same=$((same + 1))
			continue
		fi
		if [ "$rc" = 3 ] && oom_report && valid_prefix "$kind"; then
			oom=$((oom + 1))
			continue
		fi
		{
			echo "jenc $* with allocation $n of $calls failing:"
			echo "exit status $rc (full run: $full_rc)"
			echo "-- stderr:"
			head -c 600 "$T/e"
			echo "-- stdout: $(wc -c <"$T/o") of $(wc -c <"$T/full") bytes"
		} | fail
	done
	echo "# jenc $*: $calls allocations, $oom out of memory, $same full output" >&3
}

@test "failmalloc.so fails the allocation it is told to, and counts them" {
	frun 0 -c "$DATA/demo.json"
	[ "$rc" = 0 ]
	[ "$(cat "$T/count")" -gt 3 ]
	frun 1 -c "$DATA/demo.json"
	[ "$rc" = 3 ]
	[ "$(cat "$T/e")" = "jenc: out of memory" ]
	[ ! -s "$T/o" ]
}

@test "-c on twitter.json: full output or out of memory, each allocation" {
	need_shared
	fail_each values -c "$CORPUS/twitter.json"
}

@test "indented twitter.json: full output or out of memory" {
	need_shared
	fail_each values "$CORPUS/twitter.json"
}

@test "-H -a on twitter.json: full output or out of memory" {
	need_shared
	fail_each values -H -a "$CORPUS/twitter.json"
}

@test "--validate on twitter.json: success or out of memory, nothing written" {
	need_shared
	fail_each none --validate "$CORPUS/twitter.json"
}

@test "NDJSON through a pipe: the complete lines before the failure" {
	need_shared
	IN=$CORPUS/amazon_cellphones.ndjson fail_each values -c
}

@test "--tab on citm_catalog.json through a pipe" {
	need_shared
	IN=$CORPUS/citm_catalog.json fail_each values --tab
}

@test "several inputs, one bad: out of memory stops at the input it hits" {
	fail_each values -c "$DATA/demo.json" "$DATA/demo-log.ndjson" "$DATA/j_sample.json"
}

@test "bad input: the same report, or out of memory" {
	fail_each values -c "$DATA/demo-log.ndjson"
}

@test "-f csv: the array streamed so far, or closed after the records read" {
	fail_each array "$DATA/demo.csv"
	IN=$DATA/demo.csv fail_each array -f csv -t -H -a
}

@test "-f csv -l -t with --header: complete records" {
	fail_each values -l -t --header=n,who,city,score,on,ext,note "$DATA/demo.csv"
}

@test "TSV through a pipe" {
	printf 'a\tb\n1\tx\\ty\n2\t\n' >in.tsv
	IN=in.tsv fail_each array -f tsv -t
}

@test "--help and --version: their text even when stdio gets no buffer" {
	local opt n
	for opt in --help --version; do
		frun 0 "$opt"
		cp "$T/o" "$T/text"
		[ "$rc" = 0 ] && [ -s "$T/text" ] || fail "jenc $opt: exit $rc"
		for n in $(seq 1 "$(cat "$T/count")"); do
			frun "$n" "$opt"
			[ "$rc" = 0 ] || fail "jenc $opt: exit $rc with allocation $n failing"
			cmp -s "$T/o" "$T/text" ||
			    fail "jenc $opt: output differs with allocation $n failing"
		done
	done
}
