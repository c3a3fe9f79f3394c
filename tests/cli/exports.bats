#!/usr/bin/env bats
# exports.bats - libjenc.so exports the API of lib/jenc.h and nothing else:
# the library is built with -fvisibility=hidden and jenc.h marks each call
# JENC_API.  The build directory is the one $JENC is in (make O=DIR).

load helpers

# declared - the functions lib/jenc.h declares, one a line, sorted, read
# from the header's text (comments, preprocessor lines and struct bodies
# left out); fails if one is declared without JENC_API.
declared() {
	python3 - "$REPO/lib/jenc.h" <<'PY'
import re, sys
src = open(sys.argv[1]).read()
src = re.sub(r"/\*.*?\*/", " ", src, flags=re.S)
src = re.sub(r"^\s*#.*$", " ", src, flags=re.M)
src = src.replace('extern "C" {', " ")
while True:
    flat = re.sub(r"\{[^{}]*\}", " ", src)
    if flat == src:
        break
    src = flat
bad = 0
names = []
for stmt in src.split(";"):
    stmt = " ".join(stmt.split())
    if not stmt or stmt.startswith("typedef") or "(" not in stmt:
        continue
    m = re.search(r"(\w+)\s*\(", stmt)
    names.append(m.group(1))
    if not stmt.startswith("JENC_API "):
        print("%s: declared without JENC_API" % m.group(1), file=sys.stderr)
        bad = 1
print("\n".join(sorted(names)))
sys.exit(bad)
PY
}

@test "nm -D libjenc.so: exactly the functions jenc.h declares" {
	setup_jenc
	local so
	so=$(dirname "$JENC")/libjenc.so
	[ -f "$so" ] || fail "no $so"
	declared >declared || fail "lib/jenc.h: a declaration lacks JENC_API"
	[ "$(wc -l <declared)" -gt 40 ] || fail "only $(wc -l <declared) declarations found"
	# every defined dynamic symbol, with its type: functions only (T);
	# the symbol version (@@LIBJENC_1, shlib.bats) and the version node
	# itself, an absolute symbol, are left out here
	nm -D --defined-only --format=posix "$so" | awk '$2 != "A" {
	    sub(/@@?[A-Z0-9_]+$/, "", $1); print $1, $2 }' | sort >exported
	sed 's/$/ T/' declared >want
	same_bytes want exported "exported symbols"
}

@test "the internal functions stay inside: none is exported" {
	setup_jenc
	run nm -D --defined-only "$(dirname "$JENC")/libjenc.so"
	assert_success
	refute_output --partial jenc_seg_get
	refute_output --partial jenc_mem_alloc
	refute_output --partial jenc_frag
	refute_output --partial jenc_err_set
	refute_output --partial jenc_json_number_ok
}

@test "jenc(3)'s example program links against libjenc.so and runs" {
	setup_jenc
	if nm -D -u "$(dirname "$JENC")/libjenc.so" | grep -q ' __[a-z]*san_'; then
		skip "libjenc.so is built with sanitizers: a program needs their runtime to link it"
	fi
	# the soname is libjenc.so.1, as installed
	mkdir lib
	ln -s "$(dirname "$JENC")/libjenc.so" lib/libjenc.so.1
	ln -s "$(dirname "$JENC")/libjenc.so" lib/libjenc.so
	cc -std=c11 -D_POSIX_C_SOURCE=200809L -I"$REPO/lib" -I"$REPO/tests/unit" \
	    -o example "$REPO/tests/unit/test_example.c" -L"$T/lib" -ljenc \
	    -Wl,-rpath,"$T/lib" -lpthread || fail "the example does not link"
	ldd example | grep -q "libjenc.so.1 => $T/lib/libjenc.so.1" ||
	    fail "not linked to libjenc.so: $(ldd example)"
	cd "$REPO" && run "$T/example"
	assert_success
	assert_output --regexp ' 0 failed$'
}
