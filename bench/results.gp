# results.gp - bench/results.svg from the chart data that bench/report.awk
# writes.  Usage: gnuplot -e "datafile='...'; outfile='...'" results.gp
set terminal svg size 1000,560 dynamic noenhanced font "sans,12" background rgb "white"
set output outfile
set title "jenc and other tools: throughput in MB/s of input (log scale, higher is better)"
set datafile separator "\t"
set datafile missing "-"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.9 border lc rgb "#404040"
set boxwidth 0.9
set logscale y
set yrange [0.01:*]
set ylabel "MB/s"
set grid ytics lc rgb "#d0d0d0"
set key outside right top vertical Left reverse noautotitle
set xtics nomirror scale 0 rotate by -20
set ytics nomirror
set border 3
set linetype 1 lc rgb "#d62728"
set linetype 2 lc rgb "#1f77b4"
set linetype 3 lc rgb "#ff7f0e"
set linetype 4 lc rgb "#2ca02c"
set linetype 5 lc rgb "#9467bd"
set linetype 6 lc rgb "#8c564b"
set linetype 7 lc rgb "#e377c2"
set linetype 8 lc rgb "#bcbd22"
set linetype 9 lc rgb "#7f7f7f"
plot for [i=2:10] datafile using i:xtic(1) title columnheader(i)
