# halo_vs_T.gp: written by `stencil-lab sweep` from results.json; edit and run `gnuplot halo_vs_T.gp` to
# redraw, or `stencil-lab sweep --replot DIR` to rewrite it with the lab's current scripts.
set encoding utf8
set terminal pngcairo size 1200,760 font 'Sans,13' noenhanced
set output 'halo_vs_T.png'
set datafile missing 'NaN'
set grid lc rgb '#d0d0d0'
set border lw 1.2
set lmargin 12
set rmargin 6
set title "Halo share of the input tile (r = 1)\nhalo cells: loaded into the tile but not computed there" font 'Sans,15'
set tmargin 5
set bmargin at screen 0.184
set key at screen 0.5, 0.012 center bottom horizontal maxcols 2 width 2 samplen 3 spacing 1.2 box lc rgb '#b0b0b0'
set xlabel 'T (input tile edge)'
set ylabel 'halo cells / tile cells'
set yrange [0:1.05]
set xrange [0:66]
set label '' at 8,0.578125 point pt 7 ps 1.5
set label "textbook: 8³: 296/512 = 58%" at 8,0.578125 offset 1.2,0.9
set label '' at 32,0.121094 point pt 7 ps 1.5
set label "textbook: 32²: 124/1024 = 12%" at 36,0.356025 left
set arrow from 36+0.5,0.356025-0.02 to 32,0.121094+0.015 head size 1,20 lc rgb 'gray20'
plot 'halo.dat' using 1:2 with lines lw 2.5 lc rgb '#d95f02' title '3D tile (T³ cells)', \
     'halo.dat' using 1:3 with lines lw 2.5 lc rgb '#7570b3' title '2D tile (T² cells, one plane)'
set terminal svg size 1200,760 font 'Sans,13' dynamic noenhanced
set output 'halo_vs_T.svg'
replot
