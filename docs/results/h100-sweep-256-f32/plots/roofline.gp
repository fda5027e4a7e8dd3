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
set title "Roofline on NVIDIA H100 80GB HBM3 (fp32)\nx: FLOP per DRAM byte read + written; ceiling: the copy bandwidth measured in this run and the FMA peak" font 'Sans,15'
set tmargin 5
set bmargin at screen 0.184
set key at screen 0.5, 0.012 center bottom horizontal maxcols 5 width 2 samplen 3 spacing 1.2 box lc rgb '#b0b0b0'
set logscale xy
set format x '%g'
set format y '%g'
set xlabel 'FLOP / (DRAM bytes read + written)'
set ylabel 'GFLOP/s'
set xrange [0.05:100]
set yrange [10:157269]
bw = 2705.16
peak = 62907.4
roof(x) = (bw*x < peak) ? bw*x : peak
set label sprintf('FMA peak %.0f GFLOP/s', peak) at graph 0.97, first peak*1.35 right
set label sprintf('copy %.0f GB/s', bw) at 0.09, bw*0.09*2.6 rotate by 38
set arrow from 1.59948,2280.66 to 6.86466,11983.4 nohead lw 0.8 lc rgb '#909090'
set label "naive T=8" at 7.41384,11983.4 left font 'Sans,11' tc rgb '#1b9e77'
set arrow from 1.5762,21.1328 to 6.86466,21.1328 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=3" at 7.41384,21.1328 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 1.59155,168.312 to 6.86466,121.668 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=4" at 7.41384,121.668 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 1.59335,549.845 to 6.86466,173.186 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=5" at 7.41384,173.186 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 1.59734,917.039 to 6.86466,246.52 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=6" at 7.41384,246.52 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 1.60055,951.103 to 6.86466,499.494 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=7" at 7.41384,499.494 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 1.6001,1159.09 to 6.86466,710.999 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=8" at 7.41384,710.999 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 1.60139,941.819 to 6.86466,350.906 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=9" at 7.41384,350.906 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 1.59517,1259.17 to 6.86466,1012.06 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=10" at 7.41384,1012.06 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 1.59242,1671.41 to 6.86466,1440.61 nohead lw 0.8 lc rgb '#909090'
set label "coarsened T=8" at 7.41384,1440.61 left font 'Sans,11' tc rgb '#7570b3'
set arrow from 1.5988,2007.61 to 6.86466,4154.93 nohead lw 0.8 lc rgb '#909090'
set label "coarsened T=16" at 7.41384,4154.93 left font 'Sans,11' tc rgb '#7570b3'
set arrow from 1.58212,1946.85 to 6.86466,2918.93 nohead lw 0.8 lc rgb '#909090'
set label "coarsened T=32" at 7.41384,2918.93 left font 'Sans,11' tc rgb '#7570b3'
set arrow from 1.58932,1773.85 to 6.86466,2050.62 nohead lw 0.8 lc rgb '#909090'
set label "register-tiled T=8" at 7.41384,2050.62 left font 'Sans,11' tc rgb '#e7298a'
set arrow from 1.60023,2155.49 to 6.86466,5914.28 nohead lw 0.8 lc rgb '#909090'
set label "register-tiled T=16" at 7.41384,5914.28 left font 'Sans,11' tc rgb '#e7298a'
set arrow from 1.58163,2215.76 to 6.86466,8418.62 nohead lw 0.8 lc rgb '#909090'
set label "register-tiled T=32" at 7.41384,8418.62 left font 'Sans,11' tc rgb '#e7298a'
plot roof(x) with lines lw 2.5 lc rgb 'black' title 'ceiling', \
     'roofline.dat' index 0 using 1:2 with points pt 7 ps 1.5 lc rgb '#1b9e77' title 'naive', \
     'roofline.dat' index 1 using 1:2 with points pt 7 ps 1.5 lc rgb '#d95f02' title 'tiled', \
     'roofline.dat' index 2 using 1:2 with points pt 7 ps 1.5 lc rgb '#7570b3' title 'coarsened', \
     'roofline.dat' index 3 using 1:2 with points pt 7 ps 1.5 lc rgb '#e7298a' title 'register-tiled'
set terminal svg size 1200,760 font 'Sans,13' dynamic noenhanced
set output 'roofline.svg'
replot
