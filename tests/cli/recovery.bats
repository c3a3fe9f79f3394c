#!/usr/bin/env bats
# Where bad text ends under --on-error, and what every way of reading an
# input (-j 1 or N, mapped or read, file or pipe, --seq, --jsonc, another
# encoding) must agree on: each test here once found a difference.

load helpers

setup() {
	setup_jenc
}

# wide FILE CODEC MARK - FILE: 60000 lines {"i":N} (about 1.4 MiB or more,
# so that it is mapped), in CODEC (a Python codec name) after the byte
# order mark MARK (hex); want.out: the same as UTF-8.
wide() {
	python3 - "$@" <<'PY'
import sys
name, codec, mark = sys.argv[1], sys.argv[2], bytes.fromhex(sys.argv[3])
text = "".join('{"i":%d}\n' % i for i in range(60000))
open(name, "wb").write(mark + text.encode(codec))
open("want.out", "w").write(text)
PY
}

@test "-j 2: a UTF-16 or UTF-32 file with a byte order mark, mapped, is converted" {
	local j
	wide u16.json utf-16-le fffe
	[ "$(wc -c <u16.json)" -ge 1048576 ] || fail "u16.json is under 1 MiB"
	for j in 1 2 3; do
		jrun -c -j "$j" u16.json
		expect_status 0
		expect_err ''
		same_bytes want.out "$T/out"
		jrun -c -j "$j" --on-error=skip u16.json
		expect_status 0
		same_bytes want.out "$T/out"
		jrun -c -j "$j" --on-error=pass u16.json
		expect_status 0
		same_bytes want.out "$T/out"
	done
	wide u32.json utf-32-be 0000feff
	for j in 1 2; do
		jrun -c -j "$j" u32.json
		expect_status 0
		expect_err ''
		same_bytes want.out "$T/out"
		jrun -c -j "$j" --no-mmap u32.json
		expect_status 0
		same_bytes want.out "$T/out"
	done
}
