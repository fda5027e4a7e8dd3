# opb_tiled_vs_T.gp: written by `stencil-lab sweep` from results.json; edit and run `gnuplot opb_tiled_vs_T.gp` to
# redraw, or `stencil-lab sweep --replot DIR` to rewrite it with the lab's current scripts.
set encoding utf8
set terminal pngcairo size 1200,760 font 'Sans,13' noenhanced
set output 'opb_tiled_vs_T.png'
set datafile missing 'NaN'
set grid lc rgb '#d0d0d0'
set border lw 1.2
set lmargin 12
set rmargin 6
set title "OP/B of the tiled kernel against T: r = 1, fp32\nlines: the model (FLOP per byte loaded); points: measured on the GPU at three levels" font 'Sans,15'
set tmargin 5
set bmargin at screen 0.216
set key at screen 0.5, 0.012 center bottom horizontal maxcols 4 width 2 samplen 3 spacing 1.2 box lc rgb '#b0b0b0'
set xlabel 'T (IN_TILE_DIM; naive: block edge)'
set ylabel 'FLOP per byte loaded'
set xrange [2:11]
limit = 3.25
set yrange [0:limit*1.25]
set arrow from 2,limit to 11,limit nohead dt 2 lw 1.5 lc rgb 'gray30'
set label "single-step limit (12r+1)/4 B = 13/4 = 3.25 FLOP/B  (textbook: 13/4, not 7/2)" at 2.18,limit*1.05 left tc rgb 'gray20'
set arrow from 10,graph 0 to 10,graph 1 nohead dt 3 lw 1.5 lc rgb '#d95f02'
set label "tiled: T <= 10 (T^3 <= 1024 threads)" at 10,graph 0.55 right offset -0.6,0 tc rgb '#d95f02'
set label '' at 8,1.37109 point pt 6 ps 2.6 lw 2 lc rgb 'black'
set label "textbook: 1.37 at T = 8 (tiled)" at 8.3,0.754102 left
set arrow from 8.3,0.784266 to 8,1.30254 head size 0.6,20 lw 1.2 lc rgb 'gray20'
plot 'opb_model.dat' using 1:2 with lines lw 2.5 dt 1 lc rgb '#1b9e77' title 'naive (model)', \
     'opb_model.dat' using 1:3 with lines lw 3 dt 2 lc rgb '#d95f02' title 'tiled (model)', \
     'opb_measured.dat' index 0 using 1:2 with points pt 7 ps 1.6 lc rgb '#1b9e77' notitle, \
     'opb_measured.dat' index 0 using 1:3 with points pt 5 ps 1.6 lc rgb '#1b9e77' notitle, \
     'opb_measured.dat' index 0 using 1:4 with points pt 9 ps 1.6 lc rgb '#1b9e77' notitle, \
     'opb_measured.dat' index 1 using 1:2 with points pt 7 ps 1.6 lc rgb '#d95f02' notitle, \
     'opb_measured.dat' index 1 using 1:3 with points pt 5 ps 1.6 lc rgb '#d95f02' notitle, \
     'opb_measured.dat' index 1 using 1:4 with points pt 9 ps 1.6 lc rgb '#d95f02' notitle, \
     NaN with points pt 7 ps 1.6 lc rgb 'black' title 'measured: requested', \
     NaN with points pt 5 ps 1.6 lc rgb 'black' title 'measured: L2', \
     NaN with points pt 9 ps 1.6 lc rgb 'black' title 'measured: DRAM'
set terminal svg size 1200,760 font 'Sans,13' dynamic noenhanced
set output 'opb_tiled_vs_T.svg'
replot
