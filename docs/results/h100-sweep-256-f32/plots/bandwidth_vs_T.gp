# bandwidth_vs_T.gp: written by `stencil-lab sweep`; edit and run `gnuplot bandwidth_vs_T.gp` to redraw.
set terminal pngcairo size 1000,650 font 'Sans,11'
set output 'bandwidth_vs_T.png'
set title "Effective bandwidth on NVIDIA H100 80GB HBM3 (N = 256)"
set datafile missing 'NaN'
set key outside right top
set grid
set xlabel 'T'
set ylabel 'GB/s (one read + one write per cell)'
copy = 2705.16
set arrow from graph 0, first copy to graph 1, first copy nohead lw 2 dt 2 lc rgb 'black'
set label sprintf('copy %.0f GB/s', copy) at graph 0.02, first copy*1.03
set yrange [0:copy*1.15]
plot 'timing.dat' index 0 using 1:3 with linespoints pt 7 lw 2 lc rgb '#1b9e77' title 'naive', \
     'timing.dat' index 1 using 1:3 with linespoints pt 7 lw 2 lc rgb '#d95f02' title 'tiled', \
     'timing.dat' index 2 using 1:3 with linespoints pt 7 lw 2 lc rgb '#7570b3' title 'coarsened', \
     'timing.dat' index 3 using 1:3 with linespoints pt 7 lw 2 lc rgb '#e7298a' title 'register-tiled'
set terminal svg size 1000,650 font 'Sans,11' dynamic
set output 'bandwidth_vs_T.svg'
replot
