#!/bin/sh
# jsonref.sh - build tests/ref/jsonref.go (Go's encoding/json as the
# reference for jenc's output) once and print the path of the binary.
#
# The binary goes to $JSONREF_DIR if set, else build/ref/ at the repository
# root.  GOCACHE, GOPATH and HOME point inside that directory so the build
# works without a home directory (as root in CI).  It is rebuilt only when
# jsonref.go is newer.  Exit status: 0 with the path on stdout, 77 when no
# `go` is installed (callers skip), 1 when the build fails.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
dir=${JSONREF_DIR:-$repo/build/ref}
src=$here/jsonref.go
bin=$dir/jsonref

if ! command -v go >/dev/null 2>&1; then
	echo "jsonref.sh: go is not installed (apt-get install golang-go)" >&2
	exit 77
fi

if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ]; then
	mkdir -p "$dir/gocache" "$dir/gopath" "$dir/home"
	tmp=$dir/jsonref.tmp.$$
	trap 'rm -f "$tmp"' EXIT
	if ! HOME=$dir/home GOCACHE=$dir/gocache GOPATH=$dir/gopath \
	    GOPROXY=off GOFLAGS= GO111MODULE=auto CGO_ENABLED=0 \
	    go build -o "$tmp" "$src" >&2; then
		echo "jsonref.sh: building $src failed" >&2
		exit 1
	fi
	# rename(2) is atomic: tests running in parallel never see half a file.
	mv -f "$tmp" "$bin"
	trap - EXIT
fi
printf '%s\n' "$bin"
