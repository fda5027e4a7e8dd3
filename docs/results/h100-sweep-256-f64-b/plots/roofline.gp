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
set yrange [10:81784.5]
bw = 2869.37
peak = 32713.8
roof(x) = (bw*x < peak) ? bw*x : peak
set label sprintf('FMA peak %.0f GFLOP/s', peak) at graph 0.97, first peak*1.35 right
set label sprintf('copy %.0f GB/s', bw) at 0.09, bw*0.09*2.6 rotate by 38
set arrow from 0.830901,1792.71 to 14.7595,11469.1 nohead lw 0.8 lc rgb '#909090'
set label "naive T=8" at 15.9402,11469.1 left font 'Sans,11' tc rgb '#1b9e77'
set arrow from 0.826944,21.1295 to 14.7595,21.1295 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=3" at 15.9402,21.1295 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 0.826714,168.436 to 14.7595,42.5755 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=4" at 15.9402,42.5755 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 0.827913,547.854 to 14.7595,59.1728 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=5" at 15.9402,59.1728 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 0.828483,824.273 to 14.7595,114.301 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=6" at 15.9402,114.301 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 0.828993,824.989 to 14.7595,158.859 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=7" at 15.9402,158.859 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 0.829396,970.798 to 14.7595,306.858 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=8" at 15.9402,306.858 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 0.830376,782.147 to 14.7595,82.2404 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=9" at 15.9402,82.2404 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 0.829115,1011.36 to 14.7595,426.481 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=10" at 15.9402,426.481 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 0.829478,1317.74 to 14.7595,592.738 nohead lw 0.8 lc rgb '#909090'
set label "coarsened T=8" at 15.9402,592.738 left font 'Sans,11' tc rgb '#7570b3'
set arrow from 0.807079,1475.45 to 14.7595,1591.3 nohead lw 0.8 lc rgb '#909090'
set label "coarsened T=16" at 15.9402,1591.3 left font 'Sans,11' tc rgb '#7570b3'
set arrow from 0.816366,1414.63 to 14.7595,1144.96 nohead lw 0.8 lc rgb '#909090'
set label "coarsened T=32" at 15.9402,1144.96 left font 'Sans,11' tc rgb '#7570b3'
set arrow from 0.825433,1362.24 to 14.7595,823.808 nohead lw 0.8 lc rgb '#909090'
set label "register-tiled T=8" at 15.9402,823.808 left font 'Sans,11' tc rgb '#e7298a'
set arrow from 0.807782,1539.07 to 14.7595,4272.1 nohead lw 0.8 lc rgb '#909090'
set label "register-tiled T=16" at 15.9402,4272.1 left font 'Sans,11' tc rgb '#e7298a'
set arrow from 0.816814,1583.93 to 14.7595,8252.15 nohead lw 0.8 lc rgb '#909090'
set label "register-tiled T=32" at 15.9402,8252.15 left font 'Sans,11' tc rgb '#e7298a'
set arrow from 0.810583,1939.47 to 14.7595,30790.6 nohead lw 0.8 lc rgb '#909090'
set label "streaming T=4" at 15.9402,30790.6 left font 'Sans,11' tc rgb '#66a61e'
set arrow from 0.812562,1934.4 to 14.7595,22154.2 nohead lw 0.8 lc rgb '#909090'
set label "streaming T=8" at 15.9402,22154.2 left font 'Sans,11' tc rgb '#66a61e'
set arrow from 0.812557,1919.07 to 14.7595,15940.2 nohead lw 0.8 lc rgb '#909090'
set label "streaming T=16" at 15.9402,15940.2 left font 'Sans,11' tc rgb '#66a61e'
set arrow from 3.44309,836.653 to 14.7595,220.787 nohead lw 0.8 lc rgb '#909090'
set label "conv27 T=8" at 15.9402,220.787 left font 'Sans,11' tc rgb '#e6ab02'
set arrow from 0.828756,1557.8 to 14.7595,5937.5 nohead lw 0.8 lc rgb '#909090'
set label "temporal T=16" at 15.9402,5937.5 left font 'Sans,11' tc rgb '#a6761d'
set arrow from 0.838159,1532.69 to 14.7595,3073.82 nohead lw 0.8 lc rgb '#909090'
set label "temporal T=24" at 15.9402,3073.82 left font 'Sans,11' tc rgb '#a6761d'
set arrow from 0.842562,1512.32 to 14.7595,2211.64 nohead lw 0.8 lc rgb '#909090'
set label "temporal T=32" at 15.9402,2211.64 left font 'Sans,11' tc rgb '#a6761d'
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
