# SPDX-License-Identifier: GPL-2.0
#
# plot-hist.gnuplot - cyclestat's histogram CSV as a PNG, one panel per fragment.
#
#   cyclestat --hist --format csv /sys/kernel/debug/cyclebench > hist.csv
#   gnuplot -e "csv='hist.csv'; png='hist.png'" scripts/plot-hist.gnuplot
#
# or both at once: make -C userspace/cyclestat plot [IN=DIR] [FRAGMENT=g:n] [PNG=hist.png].
# The CSV is fragment,bin_lo,bin_hi,count with bin_hi exclusive; the overflow
# bin (everything above p99, bin_hi empty) is left out of the plot and its
# count put in the panel's title.
if (!exists("csv")) csv = 'hist.csv'
if (!exists("png")) png = 'hist.png'
set datafile separator ","
# frag='group:name' plots that fragment alone
if (exists("frag")) { frags = frag } else {
	frags = system("tail -n +2 '" . csv . "' | cut -d, -f1 | uniq | tr '\\n' ' '")
}
n = words(frags)
if (n == 0) { print "plot-hist.gnuplot: no bins in " . csv; exit status 1 }
set terminal png size 900, 260 * n
set output png
set multiplot layout n, 1
set style fill solid 0.6 border -1
set xlabel "cycles"
set ylabel "samples"
set yrange [0:*]
unset key
do for [i = 1:n] {
	f = word(frags, i)
	over = system("grep '^" . f . ",[0-9]*,," . "' '" . csv . "' | cut -d, -f4")
	set title sprintf("%s (%s above p99)", f, over eq "" ? "0" : over) noenhanced
	plot csv skip 1 using (strcol(1) eq f && valid(3) ? ($2 + $3) / 2.0 : NaN):4:($3 - $2) with boxes
}
unset multiplot
