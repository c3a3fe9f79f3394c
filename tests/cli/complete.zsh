#!/usr/bin/env zsh
# complete.zsh DIR LINE - complete at the end of the command line LINE in
# an interactive zsh with the completion functions of DIR first in $fpath,
# and print the matches compadd was given that fit, one per line and
# sorted, then "=" and the line as completion left it (LINE with the
# match inserted when there was only one).  Exit status 77 when zsh/zpty
# is not there.
emulate -L zsh
zmodload zsh/zpty 2>/dev/null || exit 77
local dir=$1 line=$2 got
local setup=${TMPDIR:-/tmp}/complete.zsh.$$

# The setup runs from a file so that the terminal echoes none of it.
cat >$setup <<SETUP
PS1= PROMPT= RPROMPT=
fpath=(${(q)dir} \$fpath)
autoload -Uz compinit && compinit -u -D
zstyle ':completion:*' list-grouped false
zstyle ':completion:*' insert-tab false
SETUP
cat >>$setup <<'SETUP'
# Calls that only collect matches (-O, -A, -D) are left alone.
compadd() {
	if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then
		builtin compadd "$@"
		return
	fi
	local -a hits
	local -A o
	local h
	builtin compadd -A hits "$@"
	zparseopts -E -A o P: p: S: s: 2>/dev/null
	for h in $hits; do
		print -r -- "<<${o[-p]}${o[-P]}$h${o[-s]}>>"
	done
	builtin compadd "$@"
}
# Tab completes, then shows the line as completion left it, and ends.
__capture() {
	zle complete-word
	print -r -- "<<=$BUFFER>>"
	print -r -- '<<__END__>>'
	exit
}
zle -N __capture
bindkey '^I' __capture
SETUP
zpty z zsh -f -i
zpty -w z "source ${(q)setup}"
zpty -w -n z "$line"$'\t'
zpty -r z got '*<<__END__>>*'
zpty -d z
rm -f $setup
got=$(print -r -- "$got" | tr -d '\r' | grep -o '<<.*>>' |
    sed 's/^<<//; s/>>$//' | grep -vx '__END__')
print -r -- "$got" | grep -v '^=' | sort -u
print -r -- "$got" | grep '^=' | tail -n 1
