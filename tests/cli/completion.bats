#!/usr/bin/env bats
# completion.bats - the shell completions of completions/, each run by its
# shell: bash's function is called with COMP_WORDS and COMP_CWORD set, zsh
# completes in an interactive shell on a pseudo-terminal (complete.zsh),
# fish answers `complete -C`.  Each offers the values of the options whose
# values are a fixed set, files for the operands and -o, and knows every
# option of `jenc --help` and no other.  zsh and fish are optional (make
# deps installs them): their tests skip when the shell is not installed.

load helpers

setup() {
	setup_jenc
	COMP=$REPO/completions
	# The operands the file tests complete among.
	mkdir files files/dir
	touch files/a.json files/b.CSV files/c.txt files/e.ndjson
}

# The long options of jenc --help, one per line, sorted; with "=", only
# those that take a value, each with its "=".
help_long() {
	"$JENC" --help | grep -o -- '--[a-z][a-z-]*=\{0,1\}' |
	    if [ "${1:-}" = "=" ]; then grep '=$'; else sed 's/=$//'; fi |
	    sort -u
}

# The short options of jenc --help, one per line, sorted.
help_short() {
	"$JENC" --help | grep -o -E -- '(^|[^A-Za-z0-9-])-[A-Za-z]([^A-Za-z0-9-]|$)' |
	    grep -o -- '-[A-Za-z]' | sort -u
}

# bash_complete WORD... - what _jenc puts in COMPREPLY for the command
# line WORD... (completing its last word), one per line, in order.  Run in
# a fresh bash from the directory files/.
bash_complete() {
	(cd "$T/files" && bash --norc --noprofile -c '
		source "$1" || exit 1
		shift
		[ "$(complete -p jenc)" = "complete -F _jenc jenc" ] ||
		    { echo "jenc is not bound to _jenc"; exit 1; }
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"
		COMP_POINT=${#COMP_LINE}
		COMPREPLY=()
		_jenc
		printf "%s\n" "${COMPREPLY[@]}"
	' bash "$COMP/jenc.bash" "$@")
}

# bash_files WORD... - bash_complete, sorted (compgen -f lists files in
# the directory's order).
bash_files() {
	bash_complete "$@" | LC_ALL=C sort
}

# expect_lines LINE... - stdout of the last `run` is exactly LINE..., one
# per line.
expect_lines() {
	local want
	want=$(printf '%s\n' "$@")
	if [ "$status" != 0 ] || [ "$output" != "$want" ]; then
		echo "exit status $status, expected 0"
		echo "-- expected:"; printf '%s\n' "$want"
		echo "-- got:"; printf '%s\n' "$output"
		return 1
	fi
}

# same_set NAME WANT GOT - the files WANT (from jenc --help) and GOT (from
# a completion) hold the same set of lines; if not, say which differ.
same_set() {
	local missing extra
	missing=$(comm -23 <(sort -u "$2") <(sort -u "$3"))
	extra=$(comm -13 <(sort -u "$2") <(sort -u "$3"))
	[ -z "$missing" ] && [ -z "$extra" ] && return 0
	[ -z "$missing" ] ||
	    echo "$1: in jenc --help but not completed:" $missing
	[ -z "$extra" ] || echo "$1: completed but not in jenc --help:" $extra
	return 1
}

need_zsh() {
	command -v zsh >/dev/null ||
	    skip "zsh is not installed (apt-get install zsh; make deps does it)"
	zsh -c 'zmodload zsh/zpty' 2>/dev/null ||
	    skip "zsh has no zsh/zpty module"
}

# zsh_complete LINE - the matches zsh offers at the end of LINE, sorted,
# then "=" and the line after completion; from files/.
zsh_complete() {
	(cd "$T/files" && TMPDIR=$T zsh -f "$REPO/tests/cli/complete.zsh" \
	    "$COMP" "$1")
}

need_fish() {
	command -v fish >/dev/null ||
	    skip "fish is not installed (apt-get install fish; make deps does it)"
}

# fish_complete LINE - the candidates fish offers at the end of LINE, one
# per line in its order, without their descriptions; from files/.
fish_complete() {
	(cd "$T/files" && HOME=$T XDG_CONFIG_HOME=$T/config \
	    XDG_DATA_HOME=$T/data fish --no-config -c \
	    'source $argv[1]; and complete -C $argv[2]' "$COMP/jenc.fish" "$1" |
	    cut -f 1)
}

# ---- bash ----

@test "bash: a long option that takes a value completes with its '='" {
	run bash_complete jenc --on-
	expect_lines --on-error=
	run bash_complete jenc --ou
	expect_lines --output=
	run bash_complete jenc --com
	expect_lines --compact
	run bash_complete jenc --s
	expect_lines --sort-keys --slurp --split --single --seq --since=
}

@test "bash: the values of --from, split at '=' or not, and of -f" {
	# Bash splits --from=c into "--from" "=" "c" (COMP_WORDBREAKS has '=').
	run bash_complete jenc --from =
	expect_lines json csv tsv
	run bash_complete jenc --from = c
	expect_lines csv
	run bash_complete jenc --fr = t
	expect_lines tsv
	# Without '=' in COMP_WORDBREAKS the word is whole.
	run bash_complete jenc --from=j
	expect_lines --from=json
	run bash_complete jenc --from ''
	expect_lines json csv tsv
	run bash_complete jenc -f ''
	expect_lines json csv tsv
	run bash_complete jenc -lf c
	expect_lines csv
	# -fl is -f with the value "l": the next word is a file again.
	run bash_complete jenc -fl a
	expect_lines a.json
}

@test "bash: the values of --color, --on-error, --ragged, --indent, --jobs, --level" {
	run bash_complete jenc --color =
	expect_lines auto always never
	run bash_complete jenc --on-error = s
	expect_lines stop skip
	run bash_complete jenc --ragged ''
	expect_lines error pad
	run bash_complete jenc --indent =
	expect_lines 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16
	run bash_complete jenc --indent = 1
	expect_lines 1 10 11 12 13 14 15 16
	run bash_complete jenc --jobs =
	expect_lines auto 1 2 4
	run bash_complete jenc -j a
	expect_lines auto
	run bash_complete jenc --level = w
	expect_lines warn
	run bash_complete jenc --since = -1
	expect_lines -15m -1h -1d
	# No set to offer: nothing, not file names.
	run bash_complete jenc --max-depth = ''
	expect_lines ''
	run bash_complete jenc -d ''
	expect_lines ''
	run bash_complete jenc --hide = ''
	expect_lines ''
}

@test "bash: --encoding offers common names, else those of iconv -l" {
	run bash_complete jenc --encoding =
	expect_lines utf-8 utf-16 utf-16le utf-16be utf-32 latin1 iso-8859-1 \
	    cp1252 windows-1252 shift_jis
	run bash_complete jenc --encoding = utf-16
	expect_lines utf-16 utf-16le utf-16be
	command -v iconv >/dev/null || skip "iconv is not installed"
	iconv -l | grep -qx 'EUC-JP//' || skip "iconv -l does not list EUC-JP"
	run bash_complete jenc --encoding = euc-jp
	[ "$status" = 0 ]
	printf '%s\n' "$output" | grep -qx EUC-JP
	! printf '%s\n' "$output" | grep -v -i '^euc-jp'
}

@test "bash: operands complete as files, input-like names first" {
	run bash_files jenc ''
	expect_lines a.json b.CSV dir e.ndjson
	# None of the input-like names fits: every file that does.
	run bash_files jenc c
	expect_lines c.txt
	run bash_files jenc -c d
	expect_lines dir
	# -o and --output take any file.
	run bash_files jenc -o ''
	expect_lines a.json b.CSV c.txt dir e.ndjson
	run bash_files jenc --output = c
	expect_lines c.txt
	# After --, a word starting with - is a file.
	touch "$T/files/--odd.json"
	run bash_files jenc -- --o
	expect_lines --odd.json
}

@test "bash: the completion knows every option of jenc --help and no other" {
	help_long >"$T/want"
	run bash_complete jenc --
	[ "$status" = 0 ]
	printf '%s\n' "$output" | sed 's/=$//' >"$T/got"
	same_set "bash long options" "$T/want" "$T/got"
	# Those that take a value are those that end in '='.
	help_long = >"$T/want"
	printf '%s\n' "$output" | grep '=$' >"$T/got"
	same_set "bash long options with a value" "$T/want" "$T/got"
	help_short >"$T/want"
	run bash_complete jenc -
	[ "$status" = 0 ]
	printf '%s\n' "$output" | grep -v -- '^--' >"$T/got"
	same_set "bash short options" "$T/want" "$T/got"
}

# ---- zsh ----

@test "zsh: options, their values and files complete" {
	need_zsh
	run zsh_complete 'jenc --on-'
	expect_lines --on-error '=jenc --on-error='
	run zsh_complete 'jenc --from='
	expect_lines csv json tsv '=jenc --from='
	run zsh_complete 'jenc --from=c'
	expect_lines csv '=jenc --from=csv '
	run zsh_complete 'jenc -f '
	expect_lines csv json tsv '=jenc -f '
	run zsh_complete 'jenc --color='
	expect_lines always auto never '=jenc --color='
	run zsh_complete 'jenc --on-error='
	expect_lines pass skip stop '=jenc --on-error='
	run zsh_complete 'jenc --ragged='
	expect_lines error pad '=jenc --ragged='
	run zsh_complete 'jenc --indent=1'
	expect_lines 1 10 11 12 13 14 15 16 '=jenc --indent=1'
	run zsh_complete 'jenc --jobs='
	expect_lines 1 2 4 auto '=jenc --jobs='
	run zsh_complete 'jenc --encoding=utf-16'
	expect_lines utf-16 utf-16be utf-16le '=jenc --encoding=utf-16'
	run zsh_complete 'jenc '
	expect_lines a.json b.CSV dir e.ndjson '=jenc '
	run zsh_complete 'jenc c'
	expect_lines c.txt '=jenc c.txt '
	run zsh_complete 'jenc -o '
	expect_lines a.json b.CSV c.txt dir e.ndjson '=jenc -o '
}

@test "zsh: --encoding falls back to the names of iconv -l" {
	need_zsh
	command -v iconv >/dev/null || skip "iconv is not installed"
	iconv -l | grep -qx 'EUC-JP//' || skip "iconv -l does not list EUC-JP"
	run zsh_complete 'jenc --encoding=euc-jp'
	[ "$status" = 0 ]
	printf '%s\n' "$output" | grep -qx EUC-JP
	! printf '%s\n' "$output" | grep -v -i -e '^euc-jp' -e '^='
}

@test "zsh: the completion knows every option of jenc --help and no other" {
	need_zsh
	help_long >"$T/want"
	run zsh_complete 'jenc --'
	[ "$status" = 0 ]
	printf '%s\n' "$output" | grep -v '^=' >"$T/got"
	same_set "zsh long options" "$T/want" "$T/got"
	help_short >"$T/want"
	run zsh_complete 'jenc -'
	[ "$status" = 0 ]
	printf '%s\n' "$output" | grep -v -e '^--' -e '^=' >"$T/got"
	same_set "zsh short options" "$T/want" "$T/got"
}

# ---- fish ----

@test "fish: options, their values and files complete" {
	need_fish
	run fish_complete 'jenc --on-'
	expect_lines --on-error
	run fish_complete 'jenc --from='
	expect_lines --from=csv --from=json --from=tsv
	run fish_complete 'jenc -f '
	expect_lines csv json tsv
	run fish_complete 'jenc --color='
	expect_lines --color=always --color=auto --color=never
	run fish_complete 'jenc --on-error '
	expect_lines pass skip stop
	run fish_complete 'jenc --ragged '
	expect_lines error pad
	run fish_complete 'jenc --indent=1'
	expect_lines --indent=1 --indent=10 --indent=11 --indent=12 \
	    --indent=13 --indent=14 --indent=15 --indent=16
	run fish_complete 'jenc -j '
	expect_lines 1 2 4 auto
	run fish_complete 'jenc --encoding=utf-16'
	expect_lines --encoding=utf-16 --encoding=utf-16be --encoding=utf-16le
	# Input-like names and directories first, then the other files.
	run fish_complete 'jenc '
	expect_lines a.json b.CSV e.ndjson dir/ c.txt
	run fish_complete 'jenc -o '
	expect_lines a.json b.CSV c.txt dir/ e.ndjson
}

@test "fish: --encoding falls back to the names of iconv -l" {
	need_fish
	command -v iconv >/dev/null || skip "iconv is not installed"
	iconv -l | grep -qx 'EUC-JP//' || skip "iconv -l does not list EUC-JP"
	run fish_complete 'jenc --encoding EUC-JP'
	[ "$status" = 0 ]
	printf '%s\n' "$output" | grep -qx EUC-JP
	! printf '%s\n' "$output" | grep -v '^EUC-JP'
}

@test "fish: the completion knows every option of jenc --help and no other" {
	need_fish
	help_long >"$T/want"
	run fish_complete 'jenc --'
	[ "$status" = 0 ]
	printf '%s\n' "$output" >"$T/got"
	same_set "fish long options" "$T/want" "$T/got"
	help_short >"$T/want"
	run fish_complete 'jenc -'
	[ "$status" = 0 ]
	printf '%s\n' "$output" | grep -v -- '^--' >"$T/got"
	same_set "fish short options" "$T/want" "$T/got"
}
