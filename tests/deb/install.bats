#!/usr/bin/env bats
#
# install.bats - the Debian packages of `make deb`, installed with dpkg -i:
# the files land where policy puts them, /usr/bin/jenc runs, the manuals
# and completions are the tree's, the README's library example builds with
# pkg-config against the shared library and against the static one, and
# dpkg -r takes it all away again.  Run by `make check-deb` (part of
# `make check`), which sets JENC_DEB_DIR to the directory of the .deb files.
#
# It needs root, and leaves alone a system where jenc, libjenc1 or
# libjenc-dev is already installed: both cases skip every test and say why.

REPO="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
PKGS="jenc libjenc1 libjenc-dev"

installed() {
	[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = \
	    "install ok installed" ]
}

setup_file() {
	local p
	[ -n "${JENC_DEB_DIR:-}" ] ||
	    { echo "JENC_DEB_DIR is not set (run make check-deb)"; return 1; }
	VERSION=$(sed -n 's/^#define JENC_VERSION "\(.*\)"/\1/p' \
	    "$REPO/lib/jenc.h")
	ARCH=$(dpkg --print-architecture)
	MA=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
	for p in $PKGS; do
		[ -f "$JENC_DEB_DIR/${p}_${VERSION}_$ARCH.deb" ] ||
		    { echo "no $JENC_DEB_DIR/${p}_${VERSION}_$ARCH.deb"; return 1; }
	done
	export VERSION ARCH MA
	# (skip in setup_file needs bats 1.9; setup skips each test instead.)
	if [ "$(id -u)" != 0 ]; then
		export JENC_DEB_SKIP="dpkg -i needs root"
		return 0
	fi
	for p in $PKGS; do
		if installed "$p"; then
			export JENC_DEB_SKIP="$p is already installed; this test would replace it"
			return 0
		fi
	done
	dpkg -i "$JENC_DEB_DIR/jenc_${VERSION}_$ARCH.deb" \
	    "$JENC_DEB_DIR/libjenc1_${VERSION}_$ARCH.deb" \
	    "$JENC_DEB_DIR/libjenc-dev_${VERSION}_$ARCH.deb" >&3
	export JENC_DEB_INSTALLED=1
}

teardown_file() {
	# The last test removes the packages; this is for when it did not run.
	local p
	[ -n "${JENC_DEB_INSTALLED:-}" ] || return 0
	for p in $PKGS; do
		if installed "$p"; then
			dpkg -r libjenc-dev jenc libjenc1 >&3
			return 0
		fi
	done
}

setup() {
	[ -z "${JENC_DEB_SKIP:-}" ] || skip "$JENC_DEB_SKIP"
}

# The first ```c block under "## Library" in README.md, as docs.bats reads it.
readme_example() {
	awk '
		/^## / { inlib = ($0 == "## Library") }
		inlib && !done && /^```c$/ { inblk = 1; next }
		inblk && /^```$/ { inblk = 0; done = 1; next }
		inblk { print }
	' "$REPO/README.md"
}

expected_example_output() {
	printf '%s\n' '{' '  "name": "jenc",' '  "stars": 42,' '  "tags": [' \
	    '    "json"' '  ]' '}'
}

# Only the packages' pkg-config directories, so that a libjenc.pc under
# /usr/local cannot stand in for the installed one.
pc() {
	PKG_CONFIG_LIBDIR="/usr/lib/$MA/pkgconfig:/usr/share/pkgconfig" \
	    pkg-config "$@"
}

# same EXPECTED ACTUAL: two files hold the same bytes, else a diff.
same() {
	cmp -s "$1" "$2" && return 0
	echo "--- expected ($1) / +++ actual ($2):"
	diff -u "$1" "$2" || true
	return 1
}

@test "dpkg -i installs each file where Debian policy puts it" {
	local d="$BATS_TEST_TMPDIR" p
	for p in $PKGS; do
		installed "$p" || { echo "$p is not installed"; return 1; }
	done
	# Regular files and links of each package, directories left out.
	for p in $PKGS; do
		dpkg -L "$p" | while read -r f; do
			[ -d "$f" ] && [ ! -L "$f" ] || echo "$f"
		done | grep -v "^/usr/share/doc/$p/" | LC_ALL=C sort >"$d/$p"
	done
	printf '%s\n' /usr/bin/jenc /usr/share/man/man1/jenc.1.gz \
	    $( [ ! -f "$REPO/completions/jenc.bash" ] ||
	        echo /usr/share/bash-completion/completions/jenc ) \
	    $( [ ! -f "$REPO/completions/jenc.fish" ] ||
	        echo /usr/share/fish/vendor_completions.d/jenc.fish ) \
	    $( [ ! -f "$REPO/completions/_jenc" ] ||
	        echo /usr/share/zsh/vendor-completions/_jenc ) |
	    LC_ALL=C sort >"$d/want"
	same "$d/want" "$d/jenc"
	printf '%s\n' "/usr/lib/$MA/libjenc.so.1" \
	    "/usr/lib/$MA/libjenc.so.$VERSION" | LC_ALL=C sort >"$d/want"
	same "$d/want" "$d/libjenc1"
	printf '%s\n' /usr/include/jenc.h "/usr/lib/$MA/libjenc.a" \
	    "/usr/lib/$MA/libjenc.so" "/usr/lib/$MA/pkgconfig/libjenc.pc" \
	    /usr/share/man/man3/jenc.3.gz | LC_ALL=C sort >"$d/want"
	same "$d/want" "$d/libjenc-dev"
	# The shared library under its real name, behind the SONAME link and
	# the development link.
	[ -f "/usr/lib/$MA/libjenc.so.$VERSION" ]
	[ ! -L "/usr/lib/$MA/libjenc.so.$VERSION" ]
	[ "$(readlink "/usr/lib/$MA/libjenc.so.1")" = "libjenc.so.$VERSION" ]
	[ "$(readlink "/usr/lib/$MA/libjenc.so")" = libjenc.so.1 ]
	# Each package carries the copyright file.
	for p in $PKGS; do
		same "$REPO/debian/copyright" "/usr/share/doc/$p/copyright"
	done
}

@test "/usr/bin/jenc runs: --version and a re-encoding" {
	run /usr/bin/jenc --version
	[ "$status" -eq 0 ]
	[ "$output" = "jenc $VERSION" ]
	run sh -c 'echo "{\"a\": [1, 2.50, \"\\u00e9\"]}" | /usr/bin/jenc -c'
	[ "$status" -eq 0 ]
	[ "$output" = '{"a":[1,2.50,"\u00e9"]}' ]
}

@test "the installed manuals and completions are those of the tree" {
	local d="$BATS_TEST_TMPDIR" c to
	gzip -dc /usr/share/man/man1/jenc.1.gz >"$d/jenc.1"
	same "$REPO/man/jenc.1" "$d/jenc.1"
	gzip -dc /usr/share/man/man3/jenc.3.gz >"$d/jenc.3"
	same "$REPO/man/jenc.3" "$d/jenc.3"
	same "$REPO/lib/jenc.h" /usr/include/jenc.h
	for c in jenc.bash:/usr/share/bash-completion/completions/jenc \
	    _jenc:/usr/share/zsh/vendor-completions/_jenc \
	    jenc.fish:/usr/share/fish/vendor_completions.d/jenc.fish; do
		to=${c#*:}
		if [ -f "$REPO/completions/${c%%:*}" ]; then
			same "$REPO/completions/${c%%:*}" "$to"
		else
			[ ! -e "$to" ]
		fi
	done
}

@test "libjenc.pc gives the flags of the multiarch directory" {
	run pc --modversion libjenc
	[ "$output" = "$VERSION" ]
	run pc --variable=libdir libjenc
	[ "$output" = "/usr/lib/$MA" ]
	run pc --variable=includedir libjenc
	[ "$output" = /usr/include ]
	# pkg-config drops the -L and -I of the system directories (pkgconf
	# ends the line with a space).
	run pc --cflags --libs libjenc
	[ "$status" -eq 0 ]
	[ "${output%" "}" = "-ljenc" ]
	run pc --static --libs libjenc
	[ "$status" -eq 0 ]
	[ "${output%" "}" = "-ljenc -lpthread" ]
}

@test "the README's example links against the installed libjenc.so.1 and runs" {
	local d="$BATS_TEST_TMPDIR"
	readme_example >"$d/example.c"
	grep -q '^main(void)$' "$d/example.c"
	cd "$d"
	# shellcheck disable=SC2046
	run cc -Wall -Wextra -Werror -o example example.c \
	    $(pc --cflags --libs libjenc)
	echo "$output"
	[ "$status" -eq 0 ]
	readelf -d example | grep NEEDED >"$d/needed"
	grep -q 'Shared library: \[libjenc\.so\.1\]$' "$d/needed"
	# The loader resolves it to the package's file (/lib is /usr/lib on a
	# merged-/usr system).
	ldd example | grep libjenc >"$d/ldd"
	grep -Eq "^[[:space:]]*libjenc\.so\.1 => (/usr)?/lib/$MA/libjenc\.so\.1 " \
	    "$d/ldd" || { cat "$d/ldd"; return 1; }
	./example >out 2>err
	[ ! -s err ]
	expected_example_output >want
	same want out
}

@test "the README's example links statically with pkg-config --static and runs" {
	local d="$BATS_TEST_TMPDIR"
	readme_example >"$d/example.c"
	cd "$d"
	# shellcheck disable=SC2046
	run cc -static -Wall -Wextra -Werror -o example example.c \
	    $(pc --static --cflags --libs libjenc)
	echo "$output"
	[ "$status" -eq 0 ]
	# No shared library at all, and libjenc's code inside.
	! readelf -d example | grep -q NEEDED
	nm example | grep -q ' T jenc_get_fd$'
	./example >out 2>err
	[ ! -s err ]
	expected_example_output >want
	same want out
}

@test "dpkg -r removes the packages and every file they installed" {
	local d="$BATS_TEST_TMPDIR" p f left=
	for p in $PKGS; do
		dpkg -L "$p" | while read -r f; do
			[ -d "$f" ] && [ ! -L "$f" ] || echo "$f"
		done >>"$d/files"
	done
	[ -s "$d/files" ]
	dpkg -r libjenc-dev jenc libjenc1 >&3
	for p in $PKGS; do
		! installed "$p" || { echo "$p is still installed"; return 1; }
	done
	while read -r f; do
		[ ! -e "$f" ] && [ ! -L "$f" ] || left="$left $f"
	done <"$d/files"
	[ -z "$left" ] || { echo "left behind:$left"; return 1; }
	# The loader no longer finds the library.
	! ldconfig -p | grep -q 'libjenc\.so\.1 '
}
