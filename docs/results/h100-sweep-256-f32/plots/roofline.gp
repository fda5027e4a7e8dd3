# roofline.gp: written by `stencil-lab sweep`; edit and run `gnuplot roofline.gp` to redraw.
set terminal pngcairo size 1000,650 font 'Sans,11'
set output 'roofline.png'
set title "Roofline, NVIDIA H100 80GB HBM3 (f32)\nx: DRAM FLOP per byte read + written; ceiling: copy bandwidth (read + write)"
set datafile missing 'NaN'
set key outside right top
set grid
set logscale xy
set xlabel 'FLOP / (DRAM bytes read + written)'
set ylabel 'GFLOP/s'
set xrange [0.05:100]
bw = 2705.16
peak = 62907.4
roof(x) = (bw*x < peak) ? bw*x : peak
set label sprintf('FMA %.0f GFLOP/s', peak) at graph 0.65, first peak*1.15
set label sprintf('copy %.0f GB/s', bw) at 0.1, bw*0.1*1.4 rotate by 30
plot roof(x) with lines lw 2 lc rgb 'black' title 'ceiling (measured copy bandwidth, FMA peak)', \
     'roofline.dat' index 0 using 1:2 with points pt 7 ps 1.5 lc rgb '#1b9e77' title 'naive', \
     'roofline.dat' index 1 using 1:2 with points pt 7 ps 1.5 lc rgb '#d95f02' title 'tiled', \
     'roofline.dat' index 2 using 1:2 with points pt 7 ps 1.5 lc rgb '#7570b3' title 'coarsened', \
     'roofline.dat' index 3 using 1:2 with points pt 7 ps 1.5 lc rgb '#e7298a' title 'register-tiled'
set terminal svg size 1000,650 font 'Sans,11' dynamic
set output 'roofline.svg'
replot
