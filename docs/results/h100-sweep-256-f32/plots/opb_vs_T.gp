# opb_vs_T.gp: written by `stencil-lab sweep`; edit and run `gnuplot opb_vs_T.gp` to redraw.
set terminal pngcairo size 1000,650 font 'Sans,11'
set output 'opb_vs_T.png'
set title "OP/B against T (r = 1, f32): model lines, measured points"
set datafile missing 'NaN'
set key outside right top
set grid
set xlabel 'T (IN\_TILE\_DIM; naive: block edge)'
set ylabel 'FLOP per byte loaded'
set logscale y
set xrange [1:33]
limit = 3.25
set arrow from 1,limit to 33,limit nohead dt 2 lc rgb 'gray30'
set label "limit (12r+1)/4 B = 13/4 = 3.25 (r = 1, f32; seed: 13/4, not 7/2)" at 2,limit*1.08 tc rgb 'gray30'
set label '' at 8,1.37109 point pt 7 ps 1.5 lc rgb 'black'
set label "seed: tiled T = 8: 1.37" at 8,1.37109 offset 1,-1
set label '' at 32,2.67792 point pt 7 ps 1.5 lc rgb 'black'
set label "seed: coarsened T = 32: 2.68" at 32,2.67792 offset 1,-1
plot 'opb_model.dat' using 1:2 with lines lw 2 dt 1 lc rgb '#1b9e77' title 'naive (model)', \
     'opb_model.dat' using 1:3 with lines lw 4 dt 2 lc rgb '#d95f02' title 'tiled (model)', \
     'opb_model.dat' using 1:4 with lines lw 3 dt 3 lc rgb '#7570b3' title 'coarsened (model)', \
     'opb_model.dat' using 1:5 with lines lw 3 dt 4 lc rgb '#e7298a' title 'register-tiled (model)', \
     'opb_measured.dat' index 0 using 1:2 with points pt 7 ps 1.4 lc rgb '#1b9e77' title 'naive requested', \
     'opb_measured.dat' index 0 using 1:3 with points pt 5 ps 1.4 lc rgb '#1b9e77' title 'naive L2', \
     'opb_measured.dat' index 0 using 1:4 with points pt 9 ps 1.4 lc rgb '#1b9e77' title 'naive DRAM', \
     'opb_measured.dat' index 1 using 1:2 with points pt 7 ps 1.4 lc rgb '#d95f02' title 'tiled requested', \
     'opb_measured.dat' index 1 using 1:3 with points pt 5 ps 1.4 lc rgb '#d95f02' title 'tiled L2', \
     'opb_measured.dat' index 1 using 1:4 with points pt 9 ps 1.4 lc rgb '#d95f02' title 'tiled DRAM', \
     'opb_measured.dat' index 2 using 1:2 with points pt 7 ps 1.4 lc rgb '#7570b3' title 'coarsened requested', \
     'opb_measured.dat' index 2 using 1:3 with points pt 5 ps 1.4 lc rgb '#7570b3' title 'coarsened L2', \
     'opb_measured.dat' index 2 using 1:4 with points pt 9 ps 1.4 lc rgb '#7570b3' title 'coarsened DRAM', \
     'opb_measured.dat' index 3 using 1:2 with points pt 7 ps 1.4 lc rgb '#e7298a' title 'register-tiled requested', \
     'opb_measured.dat' index 3 using 1:3 with points pt 5 ps 1.4 lc rgb '#e7298a' title 'register-tiled L2', \
     'opb_measured.dat' index 3 using 1:4 with points pt 9 ps 1.4 lc rgb '#e7298a' title 'register-tiled DRAM'
set terminal svg size 1000,650 font 'Sans,11' dynamic
set output 'opb_vs_T.svg'
replot
