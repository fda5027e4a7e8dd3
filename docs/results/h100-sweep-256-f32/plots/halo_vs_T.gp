# halo_vs_T.gp: written by `stencil-lab sweep`; edit and run `gnuplot halo_vs_T.gp` to redraw.
set terminal pngcairo size 1000,650 font 'Sans,11'
set output 'halo_vs_T.png'
set title "Halo share of the input tile (r = 1)"
set datafile missing 'NaN'
set key outside right top
set grid
set xlabel 'T (input tile edge)'
set ylabel 'halo cells / tile cells'
set yrange [0:1]
set label "seed: 8^3: 296/512 = 58%" at 8,0.578125 point pt 7 ps 1.3 offset 1,0
set label "seed: 32^2: 124/1024 = 12%" at 32,0.121094 point pt 7 ps 1.3 offset 1,0
plot 'halo.dat' using 1:2 with lines lw 2 title '3D tile T^3', \
     'halo.dat' using 1:3 with lines lw 2 title '2D tile T^2 (one plane)'
set terminal svg size 1000,650 font 'Sans,11' dynamic
set output 'halo_vs_T.svg'
replot
