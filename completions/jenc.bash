# bash completion for jenc(1)                              -*- shell-script -*-
#
# Installed as bash-completion/completions/jenc, where bash-completion
# loads it on first use; or source it.  It needs nothing from
# bash-completion.  Long options that take a value complete with their
# '=' and no space; values complete where the set is fixed (--from, --to,
# --color, --ragged, --on-error, --indent, --jobs, --level, common
# --encoding names or those of `iconv -l`); operands complete as files, those named like
# JSON, CSV or TSV input (and directories) first.

_jenc_long='--from= --compact --indent= --tab --lines --html-escape --ascii
	--sort-keys --slurp --split --color= --unbuffered --single --validate
	--max-depth= --jsonc --encoding= --to= --flatten-sep= --crlf
	--csv-safe --delimiter= --no-header --header= --types --ragged= --nest
	--output= --write --check --null --best-effort --on-error= --seq
	--quiet --log --level= --since= --until= --hide= --only= --time-key=
	--level-key= --message-key= --time-format= --utc
	--jobs= --no-mmap --help --version'
_jenc_short='-f -c -l -H -a -S -s -C -M -u -d -t -o -w -z -q -j -h -V'

# _jenc_values OPTION WORD: the values of OPTION that start with WORD, in
# COMPREPLY; returns 1 when OPTION takes no value.
_jenc_values()
{
	local e
	case $1 in
	-f | --from)
		COMPREPLY=($(compgen -W 'json csv tsv' -- "$2")) ;;
	--to)
		COMPREPLY=($(compgen -W 'json csv tsv log' -- "$2")) ;;
	--color)
		COMPREPLY=($(compgen -W 'auto always never' -- "$2")) ;;
	--ragged)
		COMPREPLY=($(compgen -W 'error pad' -- "$2")) ;;
	--on-error)
		COMPREPLY=($(compgen -W 'stop skip pass' -- "$2")) ;;
	--level)
		COMPREPLY=($(compgen -W 'trace debug info warn error fatal' \
		    -- "$2")) ;;
	--since | --until)
		COMPREPLY=($(compgen -W 'now -15m -1h -1d' -- "$2")) ;;
	--hide | --only | --time-key | --level-key | --message-key | \
	    --time-format)
		COMPREPLY=() ;;
	--indent)
		COMPREPLY=($(compgen -W "$(echo {1..16})" -- "$2")) ;;
	-j | --jobs)
		COMPREPLY=($(compgen -W 'auto 1 2 4' -- "$2")) ;;
	--encoding)
		COMPREPLY=($(compgen -W 'utf-8 utf-16 utf-16le utf-16be utf-32
		    latin1 iso-8859-1 cp1252 windows-1252 shift_jis' -- "$2"))
		# None of the common names: those iconv knows, in any case.
		if [[ ${#COMPREPLY[@]} -eq 0 ]] && type -P iconv >/dev/null; then
			for e in $(iconv -l 2>/dev/null | sed 's,//*$,,'); do
				[[ ${e,,} == "${2,,}"* ]] && COMPREPLY+=("$e")
			done
		fi ;;
	-o | --output)
		_jenc_files "$2" all ;;
	-d | --delimiter | --header | --max-depth | --flatten-sep)
		COMPREPLY=() ;;
	*)
		return 1 ;;
	esac
	return 0
}

# _jenc_files WORD [all]: the files and directories that start with WORD,
# in COMPREPLY; without "all", those named .json .ndjson .jsonl .csv .tsv
# or .tab (and the directories) if there is one, else every file.
_jenc_files()
{
	local IFS=$'\n' f
	local -a all data
	local n=0

	compopt -o filenames 2>/dev/null
	all=($(compgen -f -- "$1"))
	if [[ $2 != all ]]; then
		for f in "${all[@]}"; do
			if [[ -d $f ]]; then
				data+=("$f")
				continue
			fi
			case ${f,,} in
			*.json | *.ndjson | *.jsonl | *.csv | *.tsv | *.tab)
				data+=("$f")
				n=$((n + 1)) ;;
			esac
		done
	fi
	if [[ $n -gt 0 ]]; then
		COMPREPLY=("${data[@]}")
	else
		COMPREPLY=("${all[@]}")
	fi
}

# _jenc_long_name WORD: the long option WORD names, without '=': itself,
# or the one it is a unique prefix of, as getopt_long takes it.
_jenc_long_name()
{
	local o hit= n=0

	for o in $_jenc_long; do
		o=${o%=}
		if [[ $o == "$1" ]]; then
			echo "$o"
			return 0
		fi
		if [[ $o == "$1"* ]]; then
			hit=$o
			n=$((n + 1))
		fi
	done
	[[ $n -eq 1 ]] && echo "$hit"
	return 0
}

_jenc()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev= opt i

	[[ $COMP_CWORD -gt 0 ]] && prev=${COMP_WORDS[COMP_CWORD - 1]}
	COMPREPLY=()

	# After "--" every word is a file.
	for ((i = 1; i < COMP_CWORD; i++)); do
		if [[ ${COMP_WORDS[i]} == -- ]]; then
			_jenc_files "$cur"
			return 0
		fi
	done

	# --opt=value: bash splits it at '=' (COMP_WORDBREAKS has it), so the
	# words are "--opt" "=" "value", or the whole word when it does not.
	if [[ $cur == = && $prev == --* ]]; then
		_jenc_values "$(_jenc_long_name "$prev")" ''
		return 0
	fi
	if [[ $prev == = && $COMP_CWORD -gt 1 ]]; then
		opt=${COMP_WORDS[COMP_CWORD - 2]}
		if [[ $opt == --* ]]; then
			_jenc_values "$(_jenc_long_name "$opt")" "$cur"
			return 0
		fi
	fi
	if [[ $cur == --*=* ]]; then
		opt=${cur%%=*}
		_jenc_values "$(_jenc_long_name "$opt")" "${cur#*=}" ||
		    return 0
		for i in "${!COMPREPLY[@]}"; do
			COMPREPLY[i]=$opt=${COMPREPLY[i]}
		done
		return 0
	fi

	# The value of the option before, given as the next word.
	case $prev in
	--?*)
		_jenc_values "$(_jenc_long_name "$prev")" "$cur" && return 0 ;;
	-*)
		# An option that takes its value from the next word ends a
		# bundle of those that take none, as in -lf.
		if [[ $prev =~ ^-[clHaSsCMutwqhV]*[fdoj]$ ]]; then
			_jenc_values "-${prev: -1}" "$cur"
			return 0
		fi ;;
	esac

	case $cur in
	--*)
		COMPREPLY=($(compgen -W "$_jenc_long" -- "$cur"))
		[[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] &&
		    compopt -o nospace 2>/dev/null ;;
	-*)
		COMPREPLY=($(compgen -W "$_jenc_short $_jenc_long" -- "$cur"))
		[[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] &&
		    compopt -o nospace 2>/dev/null ;;
	*)
		_jenc_files "$cur" ;;
	esac
	return 0
}
complete -F _jenc jenc
