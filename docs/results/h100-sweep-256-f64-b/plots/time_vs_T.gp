# time_vs_T.gp: written by `stencil-lab sweep` from results.json; edit and run `gnuplot time_vs_T.gp` to
# redraw, or `stencil-lab sweep --replot DIR` to rewrite it with the lab's current scripts.
set encoding utf8
set terminal pngcairo size 1200,760 font 'Sans,13' noenhanced
set output 'time_vs_T.png'
set datafile missing 'NaN'
set grid lc rgb '#d0d0d0'
set border lw 1.2
set lmargin 12
set rmargin 6
set title "Time per launch on NVIDIA H100 80GB HBM3 (N = 256, fp64)\nmedian of the timed launches; bars: the fastest and the slowest launch" font 'Sans,15'
set tmargin 5
set bmargin at screen 0.216
set key at screen 0.5, 0.012 center bottom horizontal maxcols 4 width 2 samplen 3 spacing 1.2 box lc rgb '#b0b0b0'
set xlabel 'T (IN_TILE_DIM; naive: block edge)'
set xrange [0:34]
set ylabel 'ms per launch (log scale)'
set logscale y
set format y '%g'
plot 'timing.dat' index 0 using 1:2:3:4 with yerrorlines pt 7 ps 1.3 lw 2 lc rgb '#1b9e77' title 'naive', \
     'timing.dat' index 1 using 1:2:3:4 with yerrorlines pt 7 ps 1.3 lw 2 lc rgb '#d95f02' title 'tiled', \
     'timing.dat' index 2 using 1:2:3:4 with yerrorlines pt 7 ps 1.3 lw 2 lc rgb '#7570b3' title 'coarsened', \
     'timing.dat' index 3 using 1:2:3:4 with yerrorlines pt 7 ps 1.3 lw 2 lc rgb '#e7298a' title 'register-tiled', \
     'timing.dat' index 4 using 1:2:3:4 with yerrorlines pt 7 ps 1.3 lw 2 lc rgb '#66a61e' title 'streaming', \
     'timing.dat' index 5 using 1:2:3:4 with yerrorlines pt 7 ps 1.3 lw 2 lc rgb '#e6ab02' title 'conv27', \
     'timing.dat' index 6 using 1:2:3:4 with yerrorlines pt 7 ps 1.3 lw 2 lc rgb '#a6761d' title 'temporal'
set terminal svg size 1200,760 font 'Sans,13' dynamic noenhanced
set output 'time_vs_T.svg'
replot
