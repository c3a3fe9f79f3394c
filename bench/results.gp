# results.gp - bench/results.svg from the chart data that bench/report.awk
# writes.  Usage: gnuplot -e "datafile='...'; outfile='...'; ncols=N" results.gp
# (N: the number of columns of the data file, the first being the label).
set terminal svg size 1200,620 dynamic noenhanced font "sans,12" background rgb "white"
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
set linetype 10 lc rgb "#17becf"
set linetype 11 lc rgb "#aec7e8"
set linetype 12 lc rgb "#ffbb78"
set linetype 13 lc rgb "#98df8a"
set linetype 14 lc rgb "#c5b0d5"
set linetype 15 lc rgb "#c49c94"
set linetype 16 lc rgb "#f7b6d2"
plot for [i=2:ncols] datafile using i:xtic(1) title columnheader(i)
