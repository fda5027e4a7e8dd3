# roofline.gp: written by `stencil-lab sweep` from results.json; edit and run `gnuplot roofline.gp` to
# redraw, or `stencil-lab sweep --replot DIR` to rewrite it with the lab's current scripts.
set encoding utf8
set terminal pngcairo size 1200,760 font 'Sans,13' noenhanced
set output 'roofline.png'
set datafile missing 'NaN'
set grid lc rgb '#d0d0d0'
set border lw 1.2
set lmargin 12
set rmargin 6
set title "Roofline on NVIDIA H100 80GB HBM3 (fp64)\nx: FLOP per DRAM byte read + written; ceiling: the copy bandwidth measured in this run and the FMA peak" font 'Sans,15'
set tmargin 5
set bmargin at screen 0.216
set key at screen 0.5, 0.012 center bottom horizontal maxcols 5 width 2 samplen 3 spacing 1.2 box lc rgb '#b0b0b0'
set logscale xy
set format x '%g'
set format y '%g'
set xlabel 'FLOP / (DRAM bytes read + written)'
set ylabel 'GFLOP/s'
set xrange [0.05:100]
set yrange [10:81388.9]
bw = 2869.86
peak = 32555.6
roof(x) = (bw*x < peak) ? bw*x : peak
set label sprintf('FMA peak %.0f GFLOP/s', peak) at graph 0.97, first peak*1.35 right
set label sprintf('copy %.0f GB/s', bw) at 0.09, bw*0.09*2.6 rotate by 38
set arrow from 0.831794,1795.86 to 14.7643,11484.8 nohead lw 0.8 lc rgb '#909090'
set label "naive T=8" at 15.9454,11484.8 left font 'Sans,11' tc rgb '#1b9e77'
set arrow from 0.825995,21.1332 to 14.7643,21.1332 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=3" at 15.9454,21.1332 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 0.826596,168.508 to 14.7643,42.7623 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=4" at 15.9454,42.7623 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 0.828379,547.899 to 14.7643,59.422 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=5" at 15.9454,59.422 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 0.828373,826.525 to 14.7643,114.741 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=6" at 15.9454,114.741 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 0.829312,828.325 to 14.7643,159.443 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=7" at 15.9454,159.443 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 0.829444,972.073 to 14.7643,307.877 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=8" at 15.9454,307.877 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 0.829445,785.84 to 14.7643,82.5721 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=9" at 15.9454,82.5721 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 0.829056,1012.82 to 14.7643,427.823 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=10" at 15.9454,427.823 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 0.829478,1319.97 to 14.7643,594.497 nohead lw 0.8 lc rgb '#909090'
set label "coarsened T=8" at 15.9454,594.497 left font 'Sans,11' tc rgb '#7570b3'
set arrow from 0.808319,1478.73 to 14.7643,1595.17 nohead lw 0.8 lc rgb '#909090'
set label "coarsened T=16" at 15.9454,1595.17 left font 'Sans,11' tc rgb '#7570b3'
set arrow from 0.817051,1416.74 to 14.7643,1147.95 nohead lw 0.8 lc rgb '#909090'
set label "coarsened T=32" at 15.9454,1147.95 left font 'Sans,11' tc rgb '#7570b3'
set arrow from 0.825808,1365.17 to 14.7643,826.106 nohead lw 0.8 lc rgb '#909090'
set label "register-tiled T=8" at 15.9454,826.106 left font 'Sans,11' tc rgb '#e7298a'
set arrow from 0.807576,1543.89 to 14.7643,3080.21 nohead lw 0.8 lc rgb '#909090'
set label "register-tiled T=16" at 15.9454,3080.21 left font 'Sans,11' tc rgb '#e7298a'
set arrow from 0.816745,1585.81 to 14.7643,8264.91 nohead lw 0.8 lc rgb '#909090'
set label "register-tiled T=32" at 15.9454,8264.91 left font 'Sans,11' tc rgb '#e7298a'
set arrow from 0.810999,1963.21 to 14.7643,30816.4 nohead lw 0.8 lc rgb '#909090'
set label "streaming T=4" at 15.9454,30816.4 left font 'Sans,11' tc rgb '#66a61e'
set arrow from 0.812284,1940.6 to 14.7643,22176.7 nohead lw 0.8 lc rgb '#909090'
set label "streaming T=8" at 15.9454,22176.7 left font 'Sans,11' tc rgb '#66a61e'
set arrow from 0.812723,1919.07 to 14.7643,15959.2 nohead lw 0.8 lc rgb '#909090'
set label "streaming T=16" at 15.9454,15959.2 left font 'Sans,11' tc rgb '#66a61e'
set arrow from 3.44422,837.073 to 14.7643,221.56 nohead lw 0.8 lc rgb '#909090'
set label "conv27 T=8" at 15.9454,221.56 left font 'Sans,11' tc rgb '#e6ab02'
set arrow from 0.830699,1557.43 to 14.7643,5947.74 nohead lw 0.8 lc rgb '#909090'
set label "temporal T=16" at 15.9454,5947.74 left font 'Sans,11' tc rgb '#a6761d'
set arrow from 0.838745,1550.72 to 14.7643,4280.22 nohead lw 0.8 lc rgb '#909090'
set label "temporal T=24" at 15.9454,4280.22 left font 'Sans,11' tc rgb '#a6761d'
set arrow from 0.842531,1510.95 to 14.7643,2216.63 nohead lw 0.8 lc rgb '#909090'
set label "temporal T=32" at 15.9454,2216.63 left font 'Sans,11' tc rgb '#a6761d'
plot roof(x) with lines lw 2.5 lc rgb 'black' title 'ceiling', \
     'roofline.dat' index 0 using 1:2 with points pt 7 ps 1.5 lc rgb '#1b9e77' title 'naive', \
     'roofline.dat' index 1 using 1:2 with points pt 7 ps 1.5 lc rgb '#d95f02' title 'tiled', \
     'roofline.dat' index 2 using 1:2 with points pt 7 ps 1.5 lc rgb '#7570b3' title 'coarsened', \
     'roofline.dat' index 3 using 1:2 with points pt 7 ps 1.5 lc rgb '#e7298a' title 'register-tiled', \
     'roofline.dat' index 4 using 1:2 with points pt 7 ps 1.5 lc rgb '#66a61e' title 'streaming', \
     'roofline.dat' index 5 using 1:2 with points pt 7 ps 1.5 lc rgb '#e6ab02' title 'conv27', \
     'roofline.dat' index 6 using 1:2 with points pt 7 ps 1.5 lc rgb '#a6761d' title 'temporal'
set terminal svg size 1200,760 font 'Sans,13' dynamic noenhanced
set output 'roofline.svg'
replot
