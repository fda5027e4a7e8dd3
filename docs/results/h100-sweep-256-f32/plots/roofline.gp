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
set bmargin at screen 0.216
set key at screen 0.5, 0.012 center bottom horizontal maxcols 5 width 2 samplen 3 spacing 1.2 box lc rgb '#b0b0b0'
set logscale xy
set format x '%g'
set format y '%g'
set xlabel 'FLOP / (DRAM bytes read + written)'
set ylabel 'GFLOP/s'
set xrange [0.05:100]
set yrange [10:158407]
bw = 2718.28
peak = 63362.8
roof(x) = (bw*x < peak) ? bw*x : peak
set label sprintf('FMA peak %.0f GFLOP/s', peak) at graph 0.97, first peak*1.35 right
set label sprintf('copy %.0f GB/s', bw) at 0.09, bw*0.09*2.6 rotate by 38
set arrow from 1.59917,2279.49 to 28.3382,12482.4 nohead lw 0.8 lc rgb '#909090'
set label "naive T=8" at 30.6052,12482.4 left font 'Sans,11' tc rgb '#1b9e77'
set arrow from 1.58861,21.1333 to 28.3382,21.1333 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=3" at 30.6052,21.1333 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 1.59288,168.523 to 28.3382,43.757 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=4" at 30.6052,43.757 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 1.59376,550.868 to 28.3382,62.3018 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=5" at 30.6052,62.3018 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 1.59826,915.715 to 28.3382,126.301 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=6" at 30.6052,126.301 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 1.59996,949.272 to 28.3382,256.043 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=7" at 30.6052,256.043 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 1.60015,1158.29 to 28.3382,364.558 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=8" at 30.6052,364.558 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 1.59749,939.161 to 28.3382,179.829 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=9" at 30.6052,179.829 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 1.59515,1259.53 to 28.3382,519.063 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=10" at 30.6052,519.063 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 1.59336,1669.95 to 28.3382,739.049 nohead lw 0.8 lc rgb '#909090'
set label "coarsened T=8" at 30.6052,739.049 left font 'Sans,11' tc rgb '#7570b3'
set arrow from 1.598,2005.5 to 28.3382,2133.21 nohead lw 0.8 lc rgb '#909090'
set label "coarsened T=16" at 30.6052,2133.21 left font 'Sans,11' tc rgb '#7570b3'
set arrow from 1.5843,1947.7 to 28.3382,1498.24 nohead lw 0.8 lc rgb '#909090'
set label "coarsened T=32" at 30.6052,1498.24 left font 'Sans,11' tc rgb '#7570b3'
set arrow from 1.58946,1775.27 to 28.3382,1052.27 nohead lw 0.8 lc rgb '#909090'
set label "register-tiled T=8" at 30.6052,1052.27 left font 'Sans,11' tc rgb '#e7298a'
set arrow from 1.59851,2146.11 to 28.3382,4324.54 nohead lw 0.8 lc rgb '#909090'
set label "register-tiled T=16" at 30.6052,4324.54 left font 'Sans,11' tc rgb '#e7298a'
set arrow from 1.58057,2222.42 to 28.3382,8766.91 nohead lw 0.8 lc rgb '#909090'
set label "register-tiled T=32" at 30.6052,8766.91 left font 'Sans,11' tc rgb '#e7298a'
set arrow from 1.57592,3366.5 to 28.3382,51299.5 nohead lw 0.8 lc rgb '#909090'
set label "streaming T=4" at 30.6052,51299.5 left font 'Sans,11' tc rgb '#66a61e'
set arrow from 1.58214,3364.79 to 28.3382,36029.6 nohead lw 0.8 lc rgb '#909090'
set label "streaming T=8" at 30.6052,36029.6 left font 'Sans,11' tc rgb '#66a61e'
set arrow from 1.5837,3262.56 to 28.3382,25305 nohead lw 0.8 lc rgb '#909090'
set label "streaming T=16" at 30.6052,25305 left font 'Sans,11' tc rgb '#66a61e'
set arrow from 6.61073,869.603 to 28.3382,88.7061 nohead lw 0.8 lc rgb '#909090'
set label "conv27 T=8" at 30.6052,88.7061 left font 'Sans,11' tc rgb '#e6ab02'
set arrow from 1.61976,2395.99 to 28.3382,17772.7 nohead lw 0.8 lc rgb '#909090'
set label "temporal T=16" at 30.6052,17772.7 left font 'Sans,11' tc rgb '#a6761d'
set arrow from 1.62286,2092.16 to 28.3382,3037.29 nohead lw 0.8 lc rgb '#909090'
set label "temporal T=24" at 30.6052,3037.29 left font 'Sans,11' tc rgb '#a6761d'
set arrow from 1.6315,2169.9 to 28.3382,6157.34 nohead lw 0.8 lc rgb '#909090'
set label "temporal T=32" at 30.6052,6157.34 left font 'Sans,11' tc rgb '#a6761d'
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
