#!/usr/bin/env bats
# shlib.bats - the ABI of libjenc.so next to $JENC: its SONAME, and the
# symbol version LIBJENC_1 of every function it exports (exports.bats checks
# that these are exactly the functions lib/jenc.h declares).

load helpers

setup() {
	SO=$(dirname "$JENC")/libjenc.so
	[ -f "$SO" ] || { echo "no $SO: run make all first"; return 1; }
}

@test "libjenc.so has the SONAME libjenc.so.1" {
	run readelf -d "$SO"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | grep 'SONAME' >"$BATS_TEST_TMPDIR/soname"
	grep -q 'Library soname: \[libjenc\.so\.1\]$' "$BATS_TEST_TMPDIR/soname"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/soname")" -eq 1 ]
}

@test "every function libjenc.so exports has the version LIBJENC_1" {
	# exports.bats checks which functions are exported; here, their version
	local d="$BATS_TEST_TMPDIR"
	nm -D --defined-only "$SO" | awk '{ print $NF }' >"$d/all"
	# The version node itself is an absolute symbol named LIBJENC_1.
	grep -qx 'LIBJENC_1' "$d/all"
	grep 'jenc_' "$d/all" >"$d/fns"
	[ "$(wc -l <"$d/fns")" -ge 40 ]
	run grep -v '@@LIBJENC_1$' "$d/fns"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
}
