#!/usr/bin/env bats
# layers.bats - lib/ calls only downwards through the layers listed at the
# top of lib/internal.h (layers.py reads them and the objects' symbols).

load helpers

LAYERS=$BATS_TEST_DIRNAME/layers.py

@test "every file of lib/ calls only into the layers below its own" {
	setup_jenc
	local obj
	obj=$(dirname "$JENC")/obj
	[ -d "$obj" ] || fail "no objects at $obj"
	run python3 "$LAYERS" "$REPO/lib/internal.h" "$obj" "$REPO/lib"
	assert_success
	assert_output ''
}

@test "the check names a call upwards, sideways, and a file in no layer" {
	setup_jenc
	mkdir src obj
	printf 'int jenc_key(void);\nint jenc_seg_get(void) { return jenc_key(); }\n' >src/pool.c
	printf 'int jenc_key(void) { return 0; }\n' >src/enc.c
	printf 'int jenc_csv_copy_fd(void);\nint jenc_json_copy_fd(void) { return jenc_csv_copy_fd(); }\n' >src/json.c
	printf 'int jenc_csv_copy_fd(void) { return 0; }\n' >src/csv.c
	printf 'int jenc_new(void) { return 0; }\n' >src/new.c
	for f in pool enc json csv new; do
		cc -c -o "obj/$f.o" "src/$f.c" || fail "cc failed on $f.c"
	done
	run python3 "$LAYERS" "$REPO/lib/internal.h" obj src
	assert_failure 1
	assert_output "new.c is in no layer of $REPO/lib/internal.h
json.c (layer 7) calls jenc_csv_copy_fd of csv.c (layer 7)
pool.c (layer 1) calls jenc_key of enc.c (layer 6)"
}

@test "a sub-layer N.M lies between N and N+1, and its files call only below" {
	setup_jenc
	mkdir src obj
	cat >hdr.h <<'HDR'
/*
 *	6 enc.c		an encoder
 *	6.1 low.c	a first part of a module
 *	6.2 mid.c	a second
 *	7 top.c		its driver
 */
HDR
	printf 'int jenc_key(void) { return 0; }\n' >src/enc.c
	printf 'int jenc_key(void);\nint jenc_low(void) { return jenc_key(); }\n' >src/low.c
	printf 'int jenc_low(void);\nint jenc_top(void);\nint jenc_mid(void) { return jenc_low() + jenc_top(); }\n' >src/mid.c
	printf 'int jenc_mid(void);\nint jenc_top(void) { return jenc_mid(); }\n' >src/top.c
	for f in enc low mid top; do
		cc -c -o "obj/$f.o" "src/$f.c" || fail "cc failed on $f.c"
	done
	run python3 "$LAYERS" hdr.h obj src
	assert_failure 1
	assert_output "mid.c (layer 6.2) calls jenc_top of top.c (layer 7)"
}
