#!/usr/bin/env bats
# GNU parallel as jenc's engine for inputs too big for one core: cutting
# the input into blocks, running jenc on each and keeping the order (-k)
# must give the same bytes as one jenc over the whole input.
#
# Needs GNU parallel and, for --csv, Text::CSV (Debian: parallel,
# libtext-csv-perl; both in `make deps`).  The --sshlogin test starts its
# own sshd on 127.0.0.1 and runs only with JENC_SSH=1 (`make check-ssh`,
# which installs openssh-server).

load helpers

setup() {
	setup_jenc
	command -v parallel >/dev/null ||
	    fail "GNU parallel is needed (apt-get install parallel)"
	# Debian's parallel asks once for a citation notice; --will-cite
	# keeps it quiet and non-interactive.
	mkdir -p "$T/home/.parallel"
	touch "$T/home/.parallel/will-cite"
	export HOME=$T/home
}

teardown() {
	if [ -s "$T/ssh/sshd.pid" ]; then
		kill "$(cat "$T/ssh/sshd.pid")" 2>/dev/null || true
	fi
}

# Several MB of NDJSON: records of different shapes, escapes, non-ASCII,
# U+2028, and a few long lines, deterministic.
make_ndjson() {
	python3 - "$1" <<'EOF'
import json, random, sys
random.seed(7)
with open(sys.argv[1], "w", encoding="utf-8") as f:
    for i in range(120000):
        r = {"id": i, "name": "item %d" % i, "tags": ["a", "b"][: i % 3],
             "price": round(random.random() * 100, 2), "s": "\u00e9\u2028<&>",
             "nested": {"k": [i, None, True, False, {"x": "\"q\""}]}}
        if i % 1000 == 0:
            r["blob"] = "z" * 20000
        f.write(json.dumps(r, ensure_ascii=i % 2 == 0) + "\n")
EOF
}

# A CSV of several MB whose quoted fields hold delimiters, quotes and line
# breaks (LF and CR LF).
make_csv() {
	python3 - "$1" <<'EOF'
import csv, sys
with open(sys.argv[1], "w", newline="", encoding="utf-8") as f:
    w = csv.writer(f)
    w.writerow(["id", "name", "note"])
    for i in range(150000):
        note = "plain"
        if i % 7 == 0:
            note = 'two\nlines, "quoted"'
        elif i % 11 == 0:
            note = "crlf\r\ninside"
        w.writerow([i, "n\u00e9 %d" % i, note])
EOF
}

@test "parallel --pipe -k jenc -c gives the bytes of jenc -c on NDJSON" {
	make_ndjson big.ndjson
	[ "$(stat -c %s big.ndjson)" -gt 4000000 ]
	"$JENC" -c < big.ndjson > one.out
	parallel --pipe --block 1M -k "$JENC" -c < big.ndjson > par.out
	same_bytes one.out par.out
	# more than one block was cut, or the test proves nothing
	[ "$(parallel --pipe --block 1M -k wc -l < big.ndjson | wc -l)" -gt 3 ]
}

@test "parallel --pipe -k jenc (indented, -H) gives the bytes of one jenc" {
	make_ndjson big.ndjson
	"$JENC" -H < big.ndjson > one.out
	parallel --pipe --block 2M -k "$JENC" -H < big.ndjson > par.out
	same_bytes one.out par.out
}

@test "parallel --csv --pipe --header 1 -k jenc -f csv -l gives the bytes of one jenc" {
	perl -MText::CSV -e 1 2>/dev/null ||
	    fail "Text::CSV is needed for parallel --csv (apt-get install libtext-csv-perl)"
	make_csv big.csv
	[ "$(stat -c %s big.csv)" -gt 4000000 ]
	"$JENC" -f csv -l < big.csv > one.out
	parallel --csv --pipe --header 1 --block 1M -k "$JENC" -f csv -l \
	    < big.csv > par.out
	same_bytes one.out par.out
}

@test "without --csv, parallel cuts a quoted record and jenc says so" {
	# nine of every ten line ends are inside a quoted field, so with
	# several cuts one lands inside a record (all miss: p < 1e-4)
	python3 -c '
import sys
sys.stdout.write("id,note\n")
for i in range(100000):
    sys.stdout.write("%d,\"%s\"\n" % (i, "\n".join("l%d" % k for k in range(10))))
' > quoted.csv
	[ "$(stat -c %s quoted.csv)" -gt 3000000 ]
	run parallel --pipe --header 1 --block 500k -k "$JENC" -f csv -l \
	    < quoted.csv
	[ "$status" -ne 0 ]
	[[ "$stderr" == *"unterminated quoted field"* ]] ||
	    [[ "$output" == *"unterminated quoted field"* ]]
}

@test "parallel --sshlogin runs jenc on another host (sshd on 127.0.0.1)" {
	[ "${JENC_SSH:-}" = 1 ] ||
	    skip "starts an sshd: run with JENC_SSH=1 (make check-ssh)"
	[ -x /usr/sbin/sshd ] ||
	    skip "openssh-server is not installed (make check-ssh installs it)"
	command -v ssh >/dev/null || skip "ssh client not installed"
	mkdir -p ssh
	chmod 700 ssh
	ssh-keygen -q -t ed25519 -N '' -f ssh/host_key
	ssh-keygen -q -t ed25519 -N '' -f ssh/id
	cp ssh/id.pub ssh/authorized_keys
	chmod 600 ssh/authorized_keys
	local port=$((20000 + RANDOM % 20000))
	cat > ssh/sshd_config <<EOF
ListenAddress 127.0.0.1
Port $port
HostKey $T/ssh/host_key
AuthorizedKeysFile $T/ssh/authorized_keys
PidFile $T/ssh/sshd.pid
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
EOF
	mkdir -p /run/sshd
	# the daemon detaches; teardown stops it whatever happens below
	/usr/sbin/sshd -f ssh/sshd_config -E "$T/ssh/log"
	local sshcmd="ssh -p $port -i $T/ssh/id -o BatchMode=yes"
	sshcmd+=" -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null"
	sshcmd+=" -o LogLevel=ERROR"
	# shellcheck disable=SC2086
	wait_until "sshd to let us in" $sshcmd "$(id -un)@127.0.0.1" true ||
	    fail "sshd did not let us in: $(cat "$T/ssh/log")"
	make_ndjson big.ndjson
	"$JENC" -c < big.ndjson > one.out
	parallel --ssh "$sshcmd" --sshlogin "$(id -un)@127.0.0.1" \
	    --pipe --block 1M -k "$JENC" -c < big.ndjson > par.out
	same_bytes one.out par.out
}
