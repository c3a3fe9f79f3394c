# fish completion for jenc(1).  Installed as
# fish/vendor_completions.d/jenc.fish.  Operands complete as files, those
# named like JSON, CSV or TSV input first; values complete where the set is
# fixed.

# Files: those named .json .ndjson .jsonl .csv .tsv .tab (and directories)
# first, then the others.
function __jenc_inputs
    set -l all (complete -C "__fish_command_without_completions "(commandline -ct))
    string match -r -i -- '^.*\.(?:json|ndjson|jsonl|csv|tsv|tab)$' $all
    string match -r -- '^.*/$' $all
    string match -r -v -i -- '^.*(\.(?:json|ndjson|jsonl|csv|tsv|tab)|/)$' $all
end

# Common --encoding names, or those iconv knows when none of them matches
# the word being completed.
function __jenc_encodings
    set -l word (commandline -ct | string replace -r -- '^--[a-z-]*=' '')
    set -l common utf-8 utf-16 utf-16le utf-16be utf-32 latin1 iso-8859-1 \
        cp1252 windows-1252 shift_jis
    set -l hit (string match -i -- "$word*" $common)
    if set -q hit[1]; or not command -sq iconv
        printf '%s\n' $common
    else
        iconv -l 2>/dev/null | string replace -r -- '/+$' ''
    end
end

complete -c jenc -k -a '(__jenc_inputs)'
complete -c jenc -s f -l from -x -a 'json csv tsv' -d 'Input format'
complete -c jenc -s c -l compact -d 'No whitespace'
complete -c jenc -l indent -x -a '(seq 1 16)' -d 'Indent N spaces per level'
complete -c jenc -l tab -d 'Indent with one tab per level'
complete -c jenc -s l -l lines -d 'One compact value per line'
complete -c jenc -s H -l html-escape -d 'Escape < > & U+2028 U+2029 in strings'
complete -c jenc -s a -l ascii -d 'Escape every non-ASCII character'
complete -c jenc -s S -l sort-keys -d 'Members of every object in key order'
complete -c jenc -s s -l slurp -d 'Every value of all inputs into one array'
complete -c jenc -l split -d 'Each element of a top-level array as a value'
complete -c jenc -s C -d 'Color always'
complete -c jenc -s M -d 'Color never'
complete -c jenc -l color -x -a 'auto always never' -d 'When to color the output'
complete -c jenc -s u -l unbuffered -d 'Write each value out when complete'
complete -c jenc -l single -d 'Each input must hold exactly one JSON value'
complete -c jenc -l validate -d 'Check the input only, write nothing'
complete -c jenc -l max-depth -x -d 'Nesting limit'
complete -c jenc -l jsonc -d 'Accept // and /* */ comments and trailing commas'
complete -c jenc -l encoding -x -a '(__jenc_encodings)' -d 'Convert the input from this encoding'
complete -c jenc -l to -x -a 'json csv tsv log' -d 'Output format: each record a row of CSV or TSV, or a log line'
complete -c jenc -l flatten-sep -x -d 'Join nested keys with S in column names'
complete -c jenc -l crlf -d 'End CSV/TSV lines with CR LF'
complete -c jenc -l csv-safe -d 'Prefix cells a spreadsheet would run'
complete -c jenc -s d -l delimiter -x -d 'CSV/TSV field delimiter (one byte)'
complete -c jenc -l no-header -d 'Each record becomes an array of its fields'
complete -c jenc -l header -x -d 'Field names A,B,...; the first row is data'
complete -c jenc -s t -l types -d 'Numbers, true/false and empty fields typed'
complete -c jenc -l ragged -x -a 'error pad' -d 'Rows with the wrong field count'
complete -c jenc -l nest -d 'Names holding the flatten separator as nested objects'
complete -c jenc -s o -l output -r -F -d 'Write to FILE'
complete -c jenc -s w -l write -d 'Rewrite each FILE in place'
complete -c jenc -l check -d 'List each input not in the requested form'
complete -c jenc -s z -l null -d 'Check: list names as they are, NUL after each'
complete -c jenc -l best-effort -d 'With -o, -w: replace even where owner, ACL, ... are lost'
complete -c jenc -l on-error -x -a 'stop skip pass' -d 'What to do with bad JSON'
complete -c jenc -l seq -d 'JSON text sequences (RFC 7464)'
complete -c jenc -s q -l quiet -d 'No report of skipped or passed input'
complete -c jenc -l log -d 'Each JSON record as one line for people'
complete -c jenc -l level -x -a 'trace debug info warn error fatal' -d 'Records at this level and above only'
complete -c jenc -l since -x -a 'now -15m -1h -1d' -d 'Records from this time on only'
complete -c jenc -l until -x -a 'now -15m -1h -1d' -d 'Records up to this time only'
complete -c jenc -l hide -x -d 'Leave out these fields (A,B,...)'
complete -c jenc -l only -x -d 'Show only these fields (A,B,...)'
complete -c jenc -l time-key -x -d 'Keys of the time, first present first'
complete -c jenc -l level-key -x -d 'Keys of the level, first present first'
complete -c jenc -l message-key -x -d 'Keys of the message, first present first'
complete -c jenc -l time-format -x -d 'strftime(3) format of the time'
complete -c jenc -l utc -d 'Times in UTC, not local time'
complete -c jenc -s j -l jobs -x -a 'auto 1 2 4' -d 'Threads to use (N or auto)'
complete -c jenc -l no-mmap -d 'Read files with read(2), never map them'
complete -c jenc -s h -l help -d 'Show the help and exit'
complete -c jenc -s V -l version -d 'Show the version and exit'
