#!/usr/bin/env bats
# drift.bats - the long options of `jenc --help` are the options the other
# documents know, both ways: each is an item of jenc(1)'s option lists
# (.It Fl -name) and every Fl -name of jenc(1) is one; each is in README.md
# and every --name there is one, or a prefix of one, but for those of the
# other commands it shows (named below with their command); each
# completion names each and no other.  (tests/cli/completion.bats runs the completions; this
# reads their text, so that an option in a branch of one that the runs do
# not reach is seen as well.)

load helpers

setup() {
	setup_jenc
	"$JENC" --help >"$T/help.txt"
	grep -o -- '--[a-z][a-z0-9-]*' "$T/help.txt" | sort -u >"$T/help"
	[ "$(wc -l <"$T/help")" -gt 20 ] ||
	    fail "jenc --help names only $(wc -l <"$T/help") long options"
}

# drift NAME FILE - FILE (long options, one per line) and jenc --help name
# the same set; if not, say which differ.
drift() {
	local missing extra
	sort -u "$2" >"$2.sorted"
	missing=$(comm -23 "$T/help" "$2.sorted")
	extra=$(comm -13 "$T/help" "$2.sorted")
	[ -z "$missing" ] && [ -z "$extra" ] && return 0
	[ -z "$missing" ] || echo "in jenc --help, not in $1:" $missing
	[ -z "$extra" ] || echo "in $1, not in jenc --help:" $extra
	return 1
}

# Every "--name" in the lines of FILE that are not comments.
long_words() {
	grep -v '^[[:space:]]*#' "$1" | grep -o -- '--[a-z][a-z0-9-]*' | sort -u
}

@test "jenc(1): an option item for each option of --help, and no other option" {
	local man=$REPO/man/jenc.1
	# The items of the option lists: ".It Fl f Ar format , Fl -from ...".
	grep '^\.It .*Fl -' "$man" | sed 's/Fl Fl /Fl -/g' |
	    grep -o 'Fl -[a-z][a-z0-9-]*' | sed 's/^Fl /-/' >"$T/items"
	drift "jenc(1)'s option items" "$T/items"
	# Anywhere in the page (DESCRIPTION, EXAMPLES, DIAGNOSTICS...), only
	# options of --help are marked up as jenc's.
	sed 's/Fl Fl /Fl -/g' "$man" | grep -o 'Fl -[a-z][a-z0-9-]*' |
	    sed 's/^Fl /-/' | sort -u >"$T/all"
	comm -13 "$T/help" "$T/all" >"$T/extra"
	[ ! -s "$T/extra" ] ||
	    fail "jenc(1) marks up options --help does not have: $(cat "$T/extra")"
}

@test "README.md: each option of --help, and no other option of jenc" {
	local readme=$REPO/README.md tool opt
	# The options of other commands the README shows, after the command
	# that has them; each must still be on a line that names its command,
	# so that the list cannot outlive what it excuses.
	local -a foreign=(
		'pkg-config --cflags --libs --static'
		'parallel --pipe --block --csv --header --sshlogin'
		'mlr --icsv --ojson --ijson --ocsv'
	)
	grep -o -- '--[a-z][a-z0-9-]*' "$readme" | sort -u >"$T/all"
	for opt in $(comm -23 "$T/help" "$T/all"); do
		echo "in jenc --help, not in README.md: $opt"
	done >"$T/bad"
	for opt in $(comm -13 "$T/help" "$T/all"); do
		for tool in "${foreign[@]}"; do
			case " ${tool#* } " in
			*" $opt "*)
				grep -q -- "${tool%% *} .*$opt\b" "$readme" ||
				    echo "README.md: $opt is excused as ${tool%% *}'s, but no line shows it after ${tool%% *}"
				continue 2 ;;
			esac
		done
		# An abbreviation, as jenc takes it (or refuses it as ambiguous).
		grep -q -- "^$opt" "$T/help" && continue
		echo "in README.md, not in jenc --help: $opt"
	done >>"$T/bad"
	if [ -s "$T/bad" ]; then
		cat "$T/bad"
		return 1
	fi
}

@test "completions/jenc.bash: each option of --help and no other" {
	long_words "$REPO/completions/jenc.bash" >"$T/got"
	drift completions/jenc.bash "$T/got"
}

@test "completions/_jenc: each option of --help and no other" {
	long_words "$REPO/completions/_jenc" >"$T/got"
	drift completions/_jenc "$T/got"
}

@test "completions/jenc.fish: each option of --help and no other" {
	local f=$REPO/completions/jenc.fish
	# "complete -c jenc ... -l NAME ..."
	grep '^complete ' "$f" | grep -o -- ' -l [a-z][a-z0-9-]*' |
	    sed 's/^ -l /--/' >"$T/got"
	drift completions/jenc.fish "$T/got"
	# No long option in any other form.
	grep '^complete ' "$f" | grep -o -- '--[a-z][a-z0-9-]*' >"$T/other" || true
	[ ! -s "$T/other" ] ||
	    fail "completions/jenc.fish names options as --name: $(cat "$T/other")"
}
