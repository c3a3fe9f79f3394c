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
