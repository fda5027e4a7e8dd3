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
set bmargin at screen 0.184
set key at screen 0.5, 0.012 center bottom horizontal maxcols 5 width 2 samplen 3 spacing 1.2 box lc rgb '#b0b0b0'
set logscale xy
set format x '%g'
set format y '%g'
set xlabel 'FLOP / (DRAM bytes read + written)'
set ylabel 'GFLOP/s'
set xrange [0.05:100]
set yrange [10:81990.4]
bw = 2868.88
peak = 32796.1
roof(x) = (bw*x < peak) ? bw*x : peak
set label sprintf('FMA peak %.0f GFLOP/s', peak) at graph 0.97, first peak*1.35 right
set label sprintf('copy %.0f GB/s', bw) at 0.09, bw*0.09*2.6 rotate by 38
set arrow from 0.830961,1797.55 to 3.56208,8378.46 nohead lw 0.8 lc rgb '#909090'
set label "naive T=8" at 3.84704,8378.46 left font 'Sans,11' tc rgb '#1b9e77'
set arrow from 0.826412,21.1022 to 3.56208,21.1022 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=3" at 3.84704,21.1022 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 0.826604,168.331 to 3.56208,115.912 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=4" at 3.84704,115.912 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 0.827919,547.403 to 3.56208,161.113 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=5" at 3.84704,161.113 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 0.828362,827.09 to 3.56208,311.269 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=6" at 3.84704,311.269 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 0.828356,830.029 to 3.56208,432.652 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=7" at 3.84704,432.652 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 0.828979,975.492 to 3.56208,601.37 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=8" at 3.84704,601.37 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 0.829559,787.281 to 3.56208,223.941 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=9" at 3.84704,223.941 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 0.82868,1014.59 to 3.56208,835.881 nohead lw 0.8 lc rgb '#909090'
set label "tiled T=10" at 3.84704,835.881 left font 'Sans,11' tc rgb '#d95f02'
set arrow from 0.828302,1322.32 to 3.56208,1161.84 nohead lw 0.8 lc rgb '#909090'
set label "coarsened T=8" at 3.84704,1161.84 left font 'Sans,11' tc rgb '#7570b3'
set arrow from 0.806761,1477.25 to 3.56208,3120.01 nohead lw 0.8 lc rgb '#909090'
set label "coarsened T=16" at 3.84704,3120.01 left font 'Sans,11' tc rgb '#7570b3'
set arrow from 0.816086,1416.44 to 3.56208,2244.67 nohead lw 0.8 lc rgb '#909090'
set label "coarsened T=32" at 3.84704,2244.67 left font 'Sans,11' tc rgb '#7570b3'
set arrow from 0.823644,1354.61 to 3.56208,1614.92 nohead lw 0.8 lc rgb '#909090'
set label "register-tiled T=8" at 3.84704,1614.92 left font 'Sans,11' tc rgb '#e7298a'
set arrow from 0.806754,1544.96 to 3.56208,4336.69 nohead lw 0.8 lc rgb '#909090'
set label "register-tiled T=16" at 3.84704,4336.69 left font 'Sans,11' tc rgb '#e7298a'
set arrow from 0.815985,1588.08 to 3.56208,6027.84 nohead lw 0.8 lc rgb '#909090'
set label "register-tiled T=32" at 3.84704,6027.84 left font 'Sans,11' tc rgb '#e7298a'
plot roof(x) with lines lw 2.5 lc rgb 'black' title 'ceiling', \
     'roofline.dat' index 0 using 1:2 with points pt 7 ps 1.5 lc rgb '#1b9e77' title 'naive', \
     'roofline.dat' index 1 using 1:2 with points pt 7 ps 1.5 lc rgb '#d95f02' title 'tiled', \
     'roofline.dat' index 2 using 1:2 with points pt 7 ps 1.5 lc rgb '#7570b3' title 'coarsened', \
     'roofline.dat' index 3 using 1:2 with points pt 7 ps 1.5 lc rgb '#e7298a' title 'register-tiled'
set terminal svg size 1200,760 font 'Sans,13' dynamic noenhanced
set output 'roofline.svg'
replot
