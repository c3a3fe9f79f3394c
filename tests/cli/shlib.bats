#!/usr/bin/env bats
# shlib.bats - the ABI of libjenc.so next to $JENC: its SONAME, and the
# functions it exports, which are exactly those that lib/jenc.h declares,
# all at version LIBJENC_1 (the library's other functions are internal).

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

@test "libjenc.so exports the functions of lib/jenc.h and nothing else" {
	local d="$BATS_TEST_TMPDIR"
	grep '^[a-z].*[ *]jenc_[a-z0-9_]*(' "$REPO/lib/jenc.h" |
	    grep -o 'jenc_[a-z0-9_]*(' | tr -d '(' | sort -u >"$d/want"
	# A few the header must declare, so that a broken pattern cannot
	# empty both lists unseen.
	for f in jenc_get_fd jenc_release jenc_str jenc_json_copy_fd \
	    jenc_csv_copy_mem jenc_pool_trim jenc_strerror; do
		grep -qx "$f" "$d/want" || { echo "lib/jenc.h: no $f"; return 1; }
	done
	# Defined dynamic symbols, "NAME@@VERSION" or "NAME" when unversioned;
	# a sanitizer build may add its own, which do not contain "jenc".
	nm -D --defined-only "$SO" | awk '{ print $NF }' >"$d/all"
	# The version node itself is an absolute symbol named LIBJENC_1.
	grep -qx 'LIBJENC_1' "$d/all"
	grep -vx 'LIBJENC_1' "$d/all" | grep 'jenc' | LC_ALL=C sort >"$d/got"
	sed 's/$/@@LIBJENC_1/' "$d/want" | LC_ALL=C sort >"$d/want-v"
	same_bytes "$d/want-v" "$d/got"
}
