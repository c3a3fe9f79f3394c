# report.awk - the tables of bench/RESULTS.md (called by bench/report.sh).
#
# Input files, in order: rows.tsv (one CLI comparison row per line:
# key table input size tool cmd check runs median_ns min_ns max_ns
# rss_kib note median_cpu_ns), raw-lib.txt (libbench's Go benchmark lines),
# lib-checks.txt (libbench's "check NAME: RESULT" lines).  Writes
# markdown to stdout and the chart's data to the file named by -v chart.

function mbps(size, ns) { return ns > 0 ? size * 1000 / ns : 0 }
function fnum(x) {
	if (x >= 100) return sprintf("%.0f", x)
	if (x >= 10) return sprintf("%.1f", x)
	return sprintf("%.2f", x)
}
function ftime(ns) {
	if (ns >= 1e10) return sprintf("%.1f s", ns / 1e9)
	if (ns >= 1e9) return sprintf("%.2f s", ns / 1e9)
	if (ns >= 1e6) return sprintf("%.1f ms", ns / 1e6)
	return sprintf("%.0f µs", ns / 1e3)
}
function fsize(b) {
	if (b >= 1e9) return sprintf("%.2f GB", b / 1e9)
	if (b >= 1e6) return sprintf("%.1f MB", b / 1e6)
	return sprintf("%.0f kB", b / 1e3)
}
function frss(kib) { return sprintf("%.1f MiB", kib / 1024) }
function fratio(r) { return r >= 100 ? sprintf("%.0f×", r) : r >= 10 ? sprintf("%.1f×", r) : sprintf("%.2f×", r) }
function md(s) { gsub(/\|/, "\\|", s); return s }
# median of a per-op count over the loops, printed as libbench printed it
function lmed(name, u,    m) {
	m = median(lall[name, u])
	return m == int(m) ? sprintf("%.0f", m) : sprintf("%.4g", m)
}

# median of the space-separated numbers in s; sets MIN and MAX
function median(s,    a, n, i, j, t) {
	n = split(s, a, " ")
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	MIN = a[1]; MAX = a[n]
	if (n % 2) return a[(n + 1) / 2]
	return (a[n / 2] + a[n / 2 + 1]) / 2
}

# the row of a block whose tool name starts with prefix (timed rows only)
function find(blk, prefix,    i) {
	for (i = 1; i <= nrow; i++)
		if (blockof[i] == blk && index(tool[i], prefix) == 1 && med[i] > 0)
			return i
	return 0
}
# the block of table tbl that has a row of a tool starting with prefix
function blockwith(tbl, prefix,    b, i) {
	for (b = 1; b <= nblk; b++)
		if (btable[b] == tbl)
			for (i = 1; i <= nrow; i++)
				if (blockof[i] == b && index(tool[i], prefix) == 1)
					return b
	return 0
}
function findany(tbl, inpat, prefix,    b) {
	for (b = 1; b <= nblk; b++)
		if (btable[b] == tbl && binput[b] ~ inpat)
			return find(b, prefix)
	return 0
}

function verdict(ok) { return ok == "" ? "–" : (ok ? "**met**" : "**not met**") }
# a target row: the wall-clock figure and verdict, then by CPU time
function target(what, figure, ok, cfigure, cok) {
	ntarget++
	printf("| %s | %s | %s | %s | %s |\n", what, figure, ok == "" ? "not measured" : verdict(ok),
	    cfigure == "" ? "–" : cfigure, verdict(cok))
}
# CPU seconds per input byte of row i
function cpb(i) { return cpu[i] > 0 ? cpu[i] / size[i] : 0 }
# ratio target: jenc row j at least k times the throughput of row p; with
# wallonly (a target for a second thread: it saves wall time and costs CPU
# time), the CPU ratio is shown but not judged
function ratio_target(what, j, p, k, wallonly,    r, rc) {
	if (!j || !p) { target(what, "a row is missing (see the tables)", ""); return }
	r = mbps(size[j], med[j]) / mbps(size[p], med[p])
	rc = cpb(j) > 0 && cpb(p) > 0 ? cpb(p) / cpb(j) : 0
	target(what, sprintf("%s (%s vs %s MB/s)", fratio(r), fnum(mbps(size[j], med[j])), fnum(mbps(size[p], med[p]))), r >= k,
	    rc > 0 ? fratio(rc) : "", rc > 0 && !wallonly ? rc >= k : "")
}

BEGIN { FS = "\t" }

FILENAME ~ /rows\.tsv$/ {
	nrow++
	key[nrow] = $1; table[nrow] = $2; input[nrow] = $3; size[nrow] = $4
	tool[nrow] = $5; cmd[nrow] = $6; check[nrow] = $7; runs[nrow] = $8
	med[nrow] = $9; mn[nrow] = $10; mx[nrow] = $11; rss[nrow] = $12
	note[nrow] = $13; cpu[nrow] = $14
	bk = $2 == "csv" ? $2 : $2 SUBSEP $3
	if (!(bk in blkid)) {
		blkid[bk] = ++nblk; btable[nblk] = $2; binput[nblk] = $3
	}
	blockof[nrow] = blkid[bk]
	next
}

FILENAME ~ /raw-lib\.txt$/ && /^Benchmark/ {
	n = split($0, f, /[ \t]+/)
	name = substr(f[1], 10)
	if (!(name in lseen)) { lseen[name] = 1; lname[++nl] = name }
	for (i = 3; i < n; i += 2) {
		u = f[i + 1]; v = f[i]
		if (u == "ns/op") lns[name] = lns[name] " " v
		else if (u == "cpu-ns/op") lcpu[name] = lcpu[name] " " v
		else if (u == "MB/s") lmb[name] = lmb[name] " " v
		else if (u == "wasted-B/op") lwaste[name] = lwaste[name] " " v
		else if (u == "B/op" || u == "allocs/op" || u == "malloc-calls/op") {
			if (!((name, u) in lmax) || v + 0 > lmax[name, u] + 0)
				lmax[name, u] = v
			lall[name, u] = lall[name, u] " " v
		}
	}
	next
}

FILENAME ~ /lib-checks\.txt$/ && /^check / {
	name = $0; sub(/^check /, "", name); sub(/: .*/, "", name)
	res = $0; sub(/^check [^:]*: /, "", res)
	lcheck[name] = res
	if (!(name in lseen)) { lseen[name] = 1; lname[++nl] = name }
	next
}

END {
	title["compact"] = "Compact re-encoding (`jenc -c`, Go's json.Compact)"
	title["indent2"] = "Indented with 2 spaces (jenc's default, Go's json.Indent)"
	title["indent4"] = "Indented with 4 spaces (json_reformat's and python's own indent)"
	title["html"] = "HTML-escaped compact output (Go's json.HTMLEscape)"
	title["csv"] = "CSV to JSON"
	title["tocsv"] = "JSON to CSV (`jenc --to=csv`)"
	title["log"] = "A log for people (`jenc --log`, pino-pretty)"
	order = "compact indent2 indent4 html csv tocsv log"

	# ---- targets ----
	mixed = "^mixed-"; nd = "^amazon-"
	# the inputs' sizes, for the targets' wording ("50 MB document")
	for (i = 1; i <= nrow; i++) {
		if (input[i] ~ mixed) msz = sprintf("%.0f MB", size[i] / 1e6)
		if (input[i] ~ nd) nsz = sprintf("%.0f MB", size[i] / 1e6)
		if (input[i] ~ /^pino-/) psz = sprintf("%.0f MB", size[i] / 1e6)
	}
	print "## Targets"
	print ""
	print "Each target is judged on wall-clock medians, as specified, and again on CPU time"
	print "(user + system, all threads of the process): the machine is shared, and waiting"
	print "for a core inflates wall time but not CPU time.  Tools with several threads (Go"
	print "programs: jsonref, gojq, mlr) can finish in less wall time than CPU time."
	print ""
	print "| target | wall clock | result | CPU time | result by CPU time |"
	print "| --- | --- | --- | --- | --- |"
	j = findany("compact", mixed, "jenc"); p = findany("compact", mixed, "json_reformat")
	ratio_target(msz " document: `jenc -c` >= 2x faster than `json_reformat -m`", j, p, 2)
	p = findany("compact", mixed, "jq ")
	ratio_target(msz " document: `jenc -c` >= 25x faster than `jq -c .`", j, p, 25)
	j2 = findany("indent2", mixed, "jenc"); p = findany("indent2", mixed, "jq ")
	ratio_target(msz " document: `jenc` (indent 2) >= 20x faster than `jq .`", j2, p, 20)
	j4 = findany("indent4", mixed, "jenc"); p = findany("indent4", mixed, "json_reformat")
	ratio_target(msz " document: `jenc --indent=4` >= 2x faster than `json_reformat` (4 spaces)", j4, p, 2)
	jn = findany("compact", nd, "jenc"); p = findany("compact", nd, "jq ")
	ratio_target(nsz " NDJSON: `jenc -c` >= 10x faster than `jq -c .`", jn, p, 10)
	p = findany("compact", mixed, "jsmn")
	if (j && p) {
		r = mbps(size[j], med[j]) / mbps(size[p], med[p])
		rc = cpb(j) > 0 ? cpb(p) / cpb(j) : 0
		target(msz " document: end-to-end `jenc -c` >= 60% of jsmn's tokenizing speed",
		    sprintf("%.0f%% (%s vs %s MB/s)", 100 * r, fnum(mbps(size[j], med[j])), fnum(mbps(size[p], med[p]))), r >= 0.6,
		    rc > 0 ? sprintf("%.0f%%", 100 * rc) : "", rc > 0 ? rc >= 0.6 : "")
	} else
		target(msz " document: end-to-end `jenc -c` >= 60% of jsmn's tokenizing speed", "a row is missing", "")
	# the peers and -j 2 (issue 15's targets; -j 2 on a free machine)
	p = findany("compact", mixed, "simdjson minify")
	ratio_target(msz " document: `jenc -c` >= 0.8x the simdjson minify peer", j, p, 0.8)
	p = findany("compact", nd, "simdjson minify")
	ratio_target(nsz " NDJSON: `jenc -c` >= 2x the simdjson minify peer", jn, p, 2)
	q = findany("compact", nd, "jenc -j 2")
	ratio_target(nsz " NDJSON: `jenc -j 2 -c` >= 1.5x `jenc -c` (wall; a second core free)", q, jn, 1.5, 1)
	q = findany("compact", mixed, "jenc -j 2")
	ratio_target(msz " document: `jenc -j 2 -c` >= 1.2x `jenc -c` (wall; a second core free)", q, j, 1.2, 1)
	p = findany("compact", mixed, "simdjson minify")
	ratio_target(msz " document: `jenc -j 2 -c` >= 1.0x the simdjson minify peer", q, p, 1.0, 1)
	q = findany("indent2", mixed, "jenc -j 2")
	ratio_target(msz " document: `jenc -j 2` (indent 2) >= 1.4x `jenc` (wall; a second core free)", q, j2, 1.4, 1)
	maxr = 0; maxi = 0
	for (i = 1; i <= nrow; i++)
		if (index(tool[i], "jenc") == 1 && rss[i] > maxr) { maxr = rss[i]; maxi = i }
	if (maxi)
		target("peak RSS < 16 MiB in every jenc mode",
		    sprintf("largest %s (`%s`, %s)", frss(maxr), md(tool[maxi]), input[maxi]), maxr < 16384)
	l = findany("log", ".", "jenc --log"); p = findany("log", ".", "pino-pretty")
	ratio_target(psz " pino log: `jenc --log` >= 50x faster than pino-pretty", l, p, 50)
	p = findany("log", ".", "jq -r")
	ratio_target(psz " pino log: `jenc --log` >= 10x faster than `jq -r` with time, level and msg", l, p, 10)
	c = findany("csv", ".", "jenc --from csv -c"); p = findany("csv", ".", "mlr --icsv --ojson")
	ratio_target("CSV: `jenc --from csv -c` >= 20x faster than `mlr --icsv --ojson cat`", c, p, 20)
	p = findany("csv", ".", "csvjson")
	ratio_target("CSV: `jenc --from csv -c` >= 300x faster than csvjson (throughput; csvjson on a slice)", c, p, 300)
	for (k = 1; k <= 2; k++) {
		t = k == 1 ? "jenc --from csv --lines" : "jenc --from csv -c -t"
		p = findany("csv", ".", t)
		if (c && p) {
			r = mbps(size[c], med[c]) / mbps(size[p], med[p])
			rc = cpb(c) > 0 ? cpb(p) / cpb(c) : 0
			target(sprintf("CSV: `%s` within 20%% of plain `-c`", t),
			    sprintf("%+.0f%% time (%s vs %s MB/s)", 100 * (r - 1), fnum(mbps(size[p], med[p])), fnum(mbps(size[c], med[c]))), r <= 1.2,
			    rc > 0 ? sprintf("%+.0f%% CPU time", 100 * (rc - 1)) : "", rc > 0 ? rc <= 1.2 : "")
		} else
			target(sprintf("CSV: `%s` within 20%% of plain `-c`", t), "a row is missing", "")
	}
	# JSON to CSV
	b = blockwith("tocsv", "mlr"); fl = b ? fsize(size[find(b, "jenc")]) : ""
	for (k = 1; k <= 2; k++) {
		t = k == 1 ? "jenc --to=csv FILE" : "jenc --to=csv (pipe)"
		j = b ? find(b, t) : 0; p = b ? find(b, "mlr") : 0
		ratio_target(sprintf("JSON to CSV, %s of JSON Lines: `%s` >= 10x `mlr --ijson --ocsv cat`", fl, t), j, p, 10)
	}
	b = blockwith("tocsv", "in2csv")
	for (k = 1; k <= 2; k++) {
		t = k == 1 ? "jenc --to=csv FILE" : "jenc --to=csv (pipe)"
		j = b ? find(b, t) : 0; p = b ? find(b, "in2csv") : 0
		ratio_target(sprintf("JSON to CSV, %s slice: `%s` >= 50x `in2csv -f ndjson`", b ? binput[b] : "", t), j, p, 50)
	}
	maxr = 0; maxi = 0; sizes = ""
	for (i = 1; i <= nrow; i++)
		if (table[i] == "tocsv" && index(tool[i], "jenc") == 1 && med[i] > 0) {
			if (rss[i] > maxr) { maxr = rss[i]; maxi = i }
			sizes = sizes (sizes == "" ? "" : ", ") sprintf("%s %s", input[i] ~ /nested/ ? "nested" : fsize(size[i]), tool[i] ~ /pipe/ ? "pipe" : "file") " " frss(rss[i])
		}
	if (maxi)
		target("JSON to CSV: peak RSS < 16 MiB from a pipe and from a file, at every size", sizes, maxr < 16384)
	else
		target("JSON to CSV: peak RSS < 16 MiB from a pipe and from a file, at every size", "a row is missing", "")
	b = blockwith("tocsv", "mlr"); b2 = 0
	for (bb = 1; bb <= nblk; bb++) if (btable[bb] == "tocsv" && binput[bb] ~ /^nested-/) b2 = bb
	j = b2 ? find(b2, "jenc --to=csv FILE") : 0; p = 0
	if (b2) for (i = 1; i <= nrow; i++) if (blockof[i] == b2 && index(tool[i], "mlr") == 1) p = i
	if (j)
		target(sprintf("JSON to CSV, %s array of nested records from a file: peak RSS < 16 MiB", fsize(size[j])),
		    sprintf("%s (Miller: %s)", frss(rss[j]), p && rss[p] > 0 ? frss(rss[p]) : "not measured"), rss[j] < 16384)
	else
		target("JSON to CSV, nested records from a file: peak RSS < 16 MiB", "a row is missing", "")
	# library: zero allocations and 2x the fastest peer
	bad = ""; njenc = 0
	for (i = 1; i <= nl; i++) {
		nm = lname[i]
		if (!(nm in lns)) continue
		if (nm ~ /\// && nm !~ /\/jenc$/ && nm !~ /^Timestamp\//) continue
		njenc++
		if (lmax[nm, "allocs/op"] + 0 != 0)
			bad = bad sprintf("%s%s %s allocs/op", bad == "" ? "" : "; ", nm, lmax[nm, "allocs/op"])
	}
	if (njenc)
		target("library: 0 allocs/op after warm-up in every jenc benchmark",
		    bad == "" ? sprintf("0 in all %d", njenc) : "not 0: " bad, bad == "")
	ncmp = split("CompareMemory CompareStream NewEncoderEncode LargeOutput AllocationWastage", cmps, " ")
	for (k = 1; k <= ncmp; k++) {
		cj = cmps[k] "/jenc"
		if (!(cj in lns)) continue
		jm = median(lns[cj]); best = 0; bestn = ""
		jc = median(lcpu[cj]); bestc = 0; bestcn = ""
		for (i = 1; i <= nl; i++) {
			nm = lname[i]
			if (index(nm, cmps[k] "/") != 1 || nm == cj || !(nm in lns)) continue
			m = median(lns[nm])
			if (best == 0 || m < best) { best = m; bestn = substr(nm, length(cmps[k]) + 2) }
			m = median(lcpu[nm])
			if (bestc == 0 || m < bestc) { bestc = m; bestcn = substr(nm, length(cmps[k]) + 2) }
		}
		if (best > 0)
			target(sprintf("library %s: >= 2x faster than the fastest other library", cmps[k]),
			    sprintf("%s against %s (%s vs %s ns/op)", fratio(best / jm), bestn, fnum(jm), fnum(best)), best / jm >= 2,
			    jc > 0 ? sprintf("%s (%s)", fratio(bestc / jc), bestcn) : "", jc > 0 ? bestc / jc >= 2 : "")
	}
	print ""

	# ---- CLI tables ----
	print "## Command-line comparisons"
	print ""
	print "MB/s is input bytes (10^6) per second of wall time, median over the runs, with the"
	print "fastest and slowest run; time and CPU time (user + system) are medians; peak RSS"
	print "is the largest of the runs.  \"jenc ahead\" is jenc's throughput over the tool's"
	print "(above 1: jenc is faster), by wall time, then by CPU time; for the jsmn row and"
	print "the limits it is jenc's share of their speed.  The limits: `jsmnfloor` reads the"
	print "input, runs jsmn over all of it and writes it back unchanged (what any jsmn-based"
	print "re-encoder must do, with no walk and no encoding), and `cat` fed through a pipe is"
	print "the speed of the pipe itself.  `jenc -j 2` rows are not pinned to a core: their"
	print "wall time depends on a second core being free, their CPU time is all threads'."
	print "The C++ peers are bench/simdminify.cpp (simdjson::minify, which validates"
	print "nothing), bench/simdparse.cpp (simdjson's DOM parser, then its minifier; one value"
	print "per line for NDJSON) and bench/rjcopy.cpp (RapidJSON's Reader into its Writer or"
	print "PrettyWriter, numbers copied as their text)."
	print ""
	n = split(order, ord, " ")
	for (o = 1; o <= n; o++) {
		t = ord[o]
		printed = 0
		for (b = 1; b <= nblk; b++) {
			if (btable[b] != t) continue
			if (!printed) { printf("### %s\n\n", title[t]); printed = 1 }
			ref = find(b, "jenc")
			if (t == "csv")
				printf("Input: generated CSV `%s`, %s; csvjson is too slow for it and runs on the first rows only (same generator and seed); its ratio compares throughputs, jenc on the full file against csvjson on the slice.\n\n",
				    binput[b], fsize(size[ref ? ref : 1]))
			else {
				for (i = 1; i <= nrow; i++) if (blockof[i] == b) break
				printf("Input: `%s`, %s%s\n\n", binput[b], fsize(size[i]),
				    binput[b] ~ /^doc-/ ? ", fed through a pipe" : "")
			}
			print "| tool | command | output | MB/s (min–max) | time | CPU time | peak RSS | jenc ahead (wall; CPU) |"
			print "| --- | --- | --- | --- | --- | --- | --- | --- |"
			for (pass = 1; pass <= 2; pass++)
				for (i = 1; i <= nrow; i++) {
					if (blockof[i] != b) continue
					if ((pass == 1) != (i == ref)) continue
					if (med[i] <= 0) {
						printf("| %s | `%s` | %s | – | – | – | – | – |\n", md(tool[i]), md(cmd[i]), check[i])
						continue
					}
					r = ""
					if (ref && i != ref) {
						x = mbps(size[ref], med[ref]) / mbps(size[i], med[i])
						xc = cpb(ref) > 0 && cpb(i) > 0 ? cpb(i) / cpb(ref) : 0
						if (tool[i] ~ /^jsmn/ || tool[i] ~ /^limit:/) r = sprintf("%.0f%%; %.0f%% of it", 100 * x, 100 * xc)
						else if (index(tool[i], "jenc") == 1 && input[i] != input[ref]) r = "–"
						else if (index(tool[i], "jenc") == 1)
							r = sprintf("takes %+.0f%%; %+.0f%% the time of `%s`", 100 * (x - 1), 100 * (xc - 1), md(tool[ref]))
						else r = fratio(x) "; " (xc > 0 ? fratio(xc) : "–")
					} else if (i == ref)
						r = "1×"
					printf("| %s | `%s` | %s | %s (%s–%s) | %s | %s | %s | %s |\n", md(tool[i]), md(cmd[i]),
					    check[i], fnum(mbps(size[i], med[i])), fnum(mbps(size[i], mx[i])), fnum(mbps(size[i], mn[i])),
					    ftime(med[i]), cpu[i] > 0 ? ftime(cpu[i]) : "–", tool[i] ~ /^jsmn/ ? "–" : frss(rss[i]),
					    r (note[i] != "" && note[i] != "ceiling" ? " (" note[i] ")" : "") \
					    (t == "csv" && input[i] != input[ref] ? " (" input[i] ", " fsize(size[i]) ")" : ""))
				}
			print ""
		}
	}

	# ---- library tables ----
	print "## Library benchmarks"
	print ""
	print "From `build/bench/libbench`; ns/op is the median of the reported loops (min–max),"
	print "and so are B/op and allocs/op (the target above takes the largest).  For jenc they come from"
	print "jenc_pool_stats_get(), and malloc-calls/op counts every allocation call the"
	print "process made in the loop (a cross-check)."
	print ""
	print "### Go's streaming encoder benchmarks (jenc only)"
	print ""
	print "| benchmark | ns/op (min–max) | CPU ns/op | B/op | allocs/op | malloc-calls/op |"
	print "| --- | --- | --- | --- | --- | --- |"
	for (i = 1; i <= nl; i++) {
		nm = lname[i]
		if (!(nm in lns) || (nm ~ /\// && nm !~ /^Timestamp\//)) continue
		m = median(lns[nm])
		lo = MIN; hi = MAX
		printf("| %s | %s (%s–%s) | %s | %s | %s | %s |\n", nm, fnum(m), fnum(lo), fnum(hi),
		    (nm in lcpu) ? fnum(median(lcpu[nm])) : "–",
		    lmed(nm, "B/op"), lmed(nm, "allocs/op"), lmed(nm, "malloc-calls/op"))
	}
	print ""
	print "### Against yajl_gen, cJSON, jansson and json-c"
	print ""
	for (k = 1; k <= ncmp; k++) {
		cj = cmps[k] "/jenc"
		if (!(cj in lns) && !(cj in lcheck)) continue
		printf("#### %s\n\n", cmps[k])
		waste = cmps[k] == "AllocationWastage"
		printf("| library | output | ns/op (min–max) | CPU ns/op | MB/s | B/op | allocs/op |%s jenc ahead (wall; CPU) |\n",
		    waste ? " wasted B/op |" : "")
		printf("| --- | --- | --- | --- | --- | --- | --- |%s --- |\n", waste ? " --- |" : "")
		jm = (cj in lns) ? median(lns[cj]) : 0
		jc = (cj in lcpu) ? median(lcpu[cj]) : 0
		for (i = 1; i <= nl; i++) {
			nm = lname[i]
			if (index(nm, cmps[k] "/") != 1) continue
			lib = substr(nm, length(cmps[k]) + 2)
			ck = lcheck[nm]; sub(/ \(.*/, "", ck)
			if (!(nm in lns)) {
				printf("| %s | %s | – | – | – | – | – |%s – |\n", lib, ck, waste ? " – |" : "")
				continue
			}
			m = median(lns[nm]); lo = MIN; hi = MAX
			mc = (nm in lcpu) ? median(lcpu[nm]) : 0
			mb = (nm in lmb) ? fnum(median(lmb[nm])) : "–"
			w = waste ? " " sprintf("%.0f", median(lwaste[nm])) " |" : ""
			printf("| %s | %s | %s (%s–%s) | %s | %s | %s | %s |%s %s; %s |\n", lib, ck, fnum(m), fnum(lo), fnum(hi),
			    mc > 0 ? fnum(mc) : "–", mb, lmed(nm, "B/op"), lmed(nm, "allocs/op"), w,
			    jm > 0 ? fratio(m / jm) : "–", jc > 0 && mc > 0 ? fratio(mc / jc) : "–")
		}
		print ""
	}

	# ---- chart data ----
	if (chart != "") {
		ncol = split("jenc|jenc -j 2|Go encoding/json|json_reformat|jq |gojq|python3|mlr --icsv --ojson|csvjson|simdjson minify|simdjson parse|RapidJSON|limit: read + jsmn|limit: cat|jsmn", col, "|")
		split("jenc|jenc -j 2|Go encoding/json|json_reformat|jq|gojq|python3 json.tool|mlr|csvjson|simdjson minify|simdjson parse + minify|RapidJSON (Writer, PrettyWriter)|read + jsmn + write|cat through a pipe|jsmn (tokenize only)", hdr, "|")
		# the cells first: a column with no figure at all (jenc -j 2
		# when jenc has no -j, a peer not built) is left out
		ncase = split("compact|indent2|compact|compact|csv", ctab, "|")
		split(mixed "|" mixed "|" nd "|^doc-|.", cin, "|")
		split("mixed document|mixed document|NDJSON|document, piped|CSV to JSON", cname, "|")
		nline = 0
		for (k = 1; k <= ncase; k++) {
			for (b = 1; b <= nblk; b++)
				if (btable[b] == ctab[k] && binput[b] ~ cin[k]) break
			if (b > nblk) continue
			for (i = 1; i <= nrow; i++) if (blockof[i] == b) break
			lbls[++nline] = cname[k] ", " fsize(size[i]) (ctab[k] == "csv" ? "" : ctab[k] == "compact" ? ", -c" : ", indent 2")
			for (c2 = 1; c2 <= ncol; c2++) {
				i = find(b, col[c2])
				cell[nline, c2] = i ? sprintf("%.1f", mbps(size[i], med[i])) : "-"
				if (i) used[c2] = 1
			}
		}
		printf("case") > chart
		for (k = 1; k <= ncol; k++) if (used[k]) printf("\t%s", hdr[k]) > chart
		printf("\n") > chart
		for (l = 1; l <= nline; l++) {
			printf("%s", lbls[l]) > chart
			for (c2 = 1; c2 <= ncol; c2++)
				if (used[c2]) printf("\t%s", cell[l, c2]) > chart
			printf("\n") > chart
		}
		close(chart)
	}
}
