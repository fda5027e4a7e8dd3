# scaling.gp: written by `stencil-lab run --scaling` beside scaling.json; `gnuplot scaling.gp` redraws it.
set encoding utf8
set terminal pngcairo size 1200,760 font 'Sans,13' noenhanced
set output 'scaling.png'
set datafile missing 'NaN'
set grid lc rgb '#d0d0d0'
set title "strong scaling: cardiac2d shared f32, halos through nccl" font 'Sans,16'
set xlabel 'ranks'
set logscale x 2
set ylabel 'seconds per step'
set logscale y
set y2label 'efficiency (r0 t0 / (N tN))'
set y2range [0:1.5]
set y2tics
set ytics nomirror
set key outside bottom center horizontal
plot 'scaling.dat' using 1:2 with linespoints lw 2 pt 7 title 'step (measured)', \
     'scaling.dat' using 1:3 with linespoints lw 2 pt 5 title 'halo exchange in the step (measured)', \
     'scaling.dat' using 1:6 with linespoints lw 2 pt 13 title 'halo exchange alone (measured)', \
     'scaling.dat' using 1:4 with linespoints lw 2 dt 2 pt 4 title 'halo exchange (model, probed link)', \
     'scaling.dat' using 1:5 axes x1y2 with linespoints lw 2 pt 9 title 'efficiency'
set terminal svg size 1200,760 font 'Sans,13' dynamic noenhanced
set output 'scaling.svg'
replot
