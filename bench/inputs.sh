# bench/inputs.sh - sourced by run.sh and compare.sh: gen_input FILE ARGS...
# writes FILE with $B/gen ARGS... (deterministic, seeded) unless it is
# there already and newer than gen.  Needs B and say().
gen_input() {
	local f=$1
	shift
	if [ ! -s "$f" ] || [ "$B/gen" -nt "$f" ]; then
		say "generating $f"
		"$B/gen" "$@" > "$f.tmp"
		mv "$f.tmp" "$f"
	fi
}

# gen_badlog OUT IN: the NDJSON log IN with a bad line after every 100th
# line (1%: by turns plain text, the first half of the line before it, a
# stack trace line), unless OUT is there already and newer than IN.  Its
# bad lines removed, it is IN again: `jenc -c --on-error=skip OUT` writes
# exactly what `jenc -c IN` does.
gen_badlog() {
	local f=$1 in=$2
	if [ ! -s "$f" ] || [ "$in" -nt "$f" ]; then
		say "generating $f"
		awk '{ print }
		NR % 100 == 0 {
			k = (NR / 100) % 3
			if (k == 0)
				print "2026-12-01T13:00:00Z ERROR worker-" NR " failed: connection reset by peer"
			else if (k == 1)
				print substr($0, 1, int(length($0) / 2))
			else
				print "\tat com.example.App.run(App.java:" NR ")"
		}' "$in" > "$f.tmp"
		mv "$f.tmp" "$f"
	fi
}
