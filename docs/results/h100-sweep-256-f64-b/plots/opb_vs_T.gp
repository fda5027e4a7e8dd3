# opb_vs_T.gp: written by `stencil-lab sweep` from results.json; edit and run `gnuplot opb_vs_T.gp` to
# redraw, or `stencil-lab sweep --replot DIR` to rewrite it with the lab's current scripts.
set encoding utf8
set terminal pngcairo size 1200,760 font 'Sans,13' noenhanced
set output 'opb_vs_T.png'
set datafile missing 'NaN'
set grid lc rgb '#d0d0d0'
set border lw 1.2
set lmargin 12
set rmargin 6
set title "OP/B against T: naive, tiled, coarsened, register-tiled: r = 1, fp64\nlines: the model (FLOP per byte loaded); points: measured on the GPU at three levels" font 'Sans,15'
set tmargin 5
set bmargin at screen 0.216
set key at screen 0.5, 0.012 center bottom horizontal maxcols 4 width 2 samplen 3 spacing 1.2 box lc rgb '#b0b0b0'
set xlabel 'T (IN_TILE_DIM; naive: block edge)'
set ylabel 'FLOP per byte loaded'
set xrange [1:33]
limit = 1.625
set logscale y
set format y '%g'
set yrange [0.0361111:limit*2.2]
set arrow from 1,limit to 33,limit nohead dt 2 lw 1.5 lc rgb 'gray30'
set label "single-step limit (12r+1)/8 B = 13/8 = 1.62 FLOP/B" at 1.64,limit*1.25 left tc rgb 'gray20'
set arrow from 10,graph 0 to 10,graph 1 nohead dt 3 lw 1.5 lc rgb '#d95f02'
set label "tiled: T <= 10 (T^3 <= 1024 threads)" at 10,graph 0.06 left offset 0.6,0 tc rgb '#d95f02'
set label '' at 8,0.685547 point pt 6 ps 2.6 lw 2 lc rgb 'black'
set label "0.686 at T = 8 (tiled)" at 11,0.124645 left
set arrow from 11,0.139602 to 8,0.58957 head size 0.6,20 lw 1.2 lc rgb 'gray20'
set label '' at 32,1.33896 point pt 6 ps 2.6 lw 2 lc rgb 'black'
set label "1.34 at T = 32 (coarsened)" at 31,0.669479 right
set arrow from 31,0.749817 to 32,1.1515 head size 0.6,20 lw 1.2 lc rgb 'gray20'
plot 'opb_model.dat' using 1:2 with lines lw 2.5 dt 1 lc rgb '#1b9e77' title 'naive (model)', \
     'opb_model.dat' using 1:3 with lines lw 3 dt 2 lc rgb '#d95f02' title 'tiled (model)', \
     'opb_model.dat' using 1:4 with lines lw 2.5 dt 3 lc rgb '#7570b3' title 'coarsened (model)', \
     'opb_model.dat' using 1:5 with lines lw 2 dt 4 lc rgb '#e7298a' title 'register-tiled (model)', \
     'opb_measured.dat' index 0 using 1:2 with points pt 7 ps 1.6 lc rgb '#1b9e77' notitle, \
     'opb_measured.dat' index 0 using 1:3 with points pt 5 ps 1.6 lc rgb '#1b9e77' notitle, \
     'opb_measured.dat' index 0 using 1:4 with points pt 9 ps 1.6 lc rgb '#1b9e77' notitle, \
     'opb_measured.dat' index 1 using 1:2 with points pt 7 ps 1.6 lc rgb '#d95f02' notitle, \
     'opb_measured.dat' index 1 using 1:3 with points pt 5 ps 1.6 lc rgb '#d95f02' notitle, \
     'opb_measured.dat' index 1 using 1:4 with points pt 9 ps 1.6 lc rgb '#d95f02' notitle, \
     'opb_measured.dat' index 2 using 1:2 with points pt 7 ps 1.6 lc rgb '#7570b3' notitle, \
     'opb_measured.dat' index 2 using 1:3 with points pt 5 ps 1.6 lc rgb '#7570b3' notitle, \
     'opb_measured.dat' index 2 using 1:4 with points pt 9 ps 1.6 lc rgb '#7570b3' notitle, \
     'opb_measured.dat' index 3 using 1:2 with points pt 7 ps 1.6 lc rgb '#e7298a' notitle, \
     'opb_measured.dat' index 3 using 1:3 with points pt 5 ps 1.6 lc rgb '#e7298a' notitle, \
     'opb_measured.dat' index 3 using 1:4 with points pt 9 ps 1.6 lc rgb '#e7298a' notitle, \
     NaN with points pt 7 ps 1.6 lc rgb 'black' title 'measured: requested', \
     NaN with points pt 5 ps 1.6 lc rgb 'black' title 'measured: L2', \
     NaN with points pt 9 ps 1.6 lc rgb 'black' title 'measured: DRAM'
set terminal svg size 1200,760 font 'Sans,13' dynamic noenhanced
set output 'opb_vs_T.svg'
replot
