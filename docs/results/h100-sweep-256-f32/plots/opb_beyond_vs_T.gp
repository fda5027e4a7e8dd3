# opb_beyond_vs_T.gp: written by `stencil-lab sweep` from results.json; edit and run `gnuplot opb_beyond_vs_T.gp` to
# redraw, or `stencil-lab sweep --replot DIR` to rewrite it with the lab's current scripts.
set encoding utf8
set terminal pngcairo size 1200,760 font 'Sans,13' noenhanced
set output 'opb_beyond_vs_T.png'
set datafile missing 'NaN'
set grid lc rgb '#d0d0d0'
set border lw 1.2
set lmargin 12
set rmargin 6
set title "Streaming and temporal: FLOP per byte moved, r = 1, fp32\nloads and stores of a cell update; K fused steps do K updates per byte moved, so each K has its own limit" font 'Sans,15'
set tmargin 5
set bmargin at screen 0.216
set key at screen 0.5, 0.012 center bottom horizontal maxcols 4 width 2 samplen 3 spacing 1.2 box lc rgb '#b0b0b0'
set xlabel 'T (the tile rows)'
set ylabel 'FLOP per byte moved'
set xrange [0:66]
set yrange [0:7.475]
set arrow from 0,1.625 to 66,1.625 nohead dt 2 lw 1.2 lc rgb 'gray30'
set label "one step a pass: (12r+1)/(2x4) = 1.62" at 65,1.625 right offset 0,0.6 tc rgb 'gray20'
set arrow from 0,3.25 to 66,3.25 nohead dt 2 lw 1.2 lc rgb '#009e73'
set label "K = 2 limit 3.25" at 0.6,3.25 left offset 0,0.6 tc rgb '#009e73'
set arrow from 0,4.875 to 66,4.875 nohead dt 2 lw 1.2 lc rgb '#d55e00'
set label "K = 3 limit 4.88" at 0.6,4.875 left offset 0,0.6 tc rgb '#d55e00'
set arrow from 0,6.5 to 66,6.5 nohead dt 2 lw 1.2 lc rgb '#cc79a7'
set label "K = 4 limit 6.5" at 0.6,6.5 left offset 0,0.6 tc rgb '#cc79a7'
plot 'opb_beyond.dat' using 1:2 with linespoints pt 7 ps 0.8 lw 2.5 dt 1 lc rgb '#66a61e' title 'streaming', \
     'opb_beyond.dat' using 1:3 with linespoints pt 7 ps 0.8 lw 2.5 dt 1 lc rgb '#0072b2' title 'temporal K = 1', \
     'opb_beyond.dat' using 1:4 with linespoints pt 7 ps 0.8 lw 2.5 dt 2 lc rgb '#009e73' title 'temporal K = 2', \
     'opb_beyond.dat' using 1:5 with linespoints pt 7 ps 0.8 lw 2.5 dt 1 lc rgb '#d55e00' title 'temporal K = 3', \
     'opb_beyond.dat' using 1:6 with linespoints pt 7 ps 0.8 lw 2.5 dt 2 lc rgb '#cc79a7' title 'temporal K = 4'
set terminal svg size 1200,760 font 'Sans,13' dynamic noenhanced
set output 'opb_beyond_vs_T.svg'
replot
