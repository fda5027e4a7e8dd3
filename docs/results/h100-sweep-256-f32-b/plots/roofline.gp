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
set yrange [10:157951]
bw = 2715.64
peak = 63180.2
roof(x) = (bw*x < peak) ? bw*x : peak
set label sprintf('FMA peak %.0f GFLOP/s', peak) at graph 0.97, first peak*1.35 right
set label sprintf('copy %.0f GB/s', bw) at 0.09, bw*0.09*2.6 rotate by 38
set arrow from 1.5994,2281.05 to 28.3711,12473.1 nohead lw 0.8 lc rgb '#909090'
set label "naive T=8" at 30.6408,12473.1 left font 'Sans,11' tc rgb '#1b9e77'
set arrow from 1.58088,21.0871 to 28.3711,21.0871 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=3" at 30.6408,21.0871 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 1.59337,168.436 to 28.3711,43.7981 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=4" at 30.6408,43.7981 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 1.59398,550.527 to 28.3711,62.3537 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=5" at 30.6408,62.3537 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 1.59789,914.331 to 28.3711,126.38 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=6" at 30.6408,126.38 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 1.59863,946.505 to 28.3711,256.149 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=7" at 30.6408,256.149 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 1.60051,1157.38 to 28.3711,364.67 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=8" at 30.6408,364.67 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 1.60106,936.124 to 28.3711,179.922 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=9" at 30.6408,179.922 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 1.59442,1260.13 to 28.3711,519.167 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=10" at 30.6408,519.167 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 1.59238,1667.02 to 28.3711,739.12 nohead lw 0.8 lc rgb '#909090'
set label "coarsened T=8" at 30.6408,739.12 left font 'Sans,11' tc rgb '#7570b3'
set arrow from 1.60019,2006.1 to 28.3711,2132.74 nohead lw 0.8 lc rgb '#909090'
set label "coarsened T=16" at 30.6408,2132.74 left font 'Sans,11' tc rgb '#7570b3'
set arrow from 1.58301,1940.32 to 28.3711,1498.06 nohead lw 0.8 lc rgb '#909090'
set label "coarsened T=32" at 30.6408,1498.06 left font 'Sans,11' tc rgb '#7570b3'
set arrow from 1.58932,1773.37 to 28.3711,1052.26 nohead lw 0.8 lc rgb '#909090'
set label "register-tiled T=8" at 30.6408,1052.26 left font 'Sans,11' tc rgb '#e7298a'
set arrow from 1.59862,2154.8 to 28.3711,4322.67 nohead lw 0.8 lc rgb '#909090'
set label "register-tiled T=16" at 30.6408,4322.67 left font 'Sans,11' tc rgb '#e7298a'
set arrow from 1.58406,2219.45 to 28.3711,8761.28 nohead lw 0.8 lc rgb '#909090'
set label "register-tiled T=32" at 30.6408,8761.28 left font 'Sans,11' tc rgb '#e7298a'
set arrow from 1.57932,3394.82 to 28.3711,51239.5 nohead lw 0.8 lc rgb '#909090'
set label "streaming T=4" at 30.6408,51239.5 left font 'Sans,11' tc rgb '#66a61e'
set arrow from 1.58202,3381.03 to 28.3711,35991.3 nohead lw 0.8 lc rgb '#909090'
set label "streaming T=8" at 30.6408,35991.3 left font 'Sans,11' tc rgb '#66a61e'
set arrow from 1.58504,3267.36 to 28.3711,25280.7 nohead lw 0.8 lc rgb '#909090'
set label "streaming T=16" at 30.6408,25280.7 left font 'Sans,11' tc rgb '#66a61e'
set arrow from 6.61841,869.319 to 28.3711,88.7708 nohead lw 0.8 lc rgb '#909090'
set label "conv27 T=8" at 30.6408,88.7708 left font 'Sans,11' tc rgb '#e6ab02'
set arrow from 1.62125,2392.54 to 28.3711,17757.5 nohead lw 0.8 lc rgb '#909090'
set label "temporal T=16" at 30.6408,17757.5 left font 'Sans,11' tc rgb '#a6761d'
set arrow from 1.62396,2093.47 to 28.3711,3036.3 nohead lw 0.8 lc rgb '#909090'
set label "temporal T=24" at 30.6408,3036.3 left font 'Sans,11' tc rgb '#a6761d'
set arrow from 1.63575,2161.44 to 28.3711,6154.03 nohead lw 0.8 lc rgb '#909090'
set label "temporal T=32" at 30.6408,6154.03 left font 'Sans,11' tc rgb '#a6761d'
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
