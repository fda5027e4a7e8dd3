set terminal pngcairo size 1000,620 font ',13'
set output 'tune.png'
set title "tune: temporal r = 1 f32 N = 512 on NVIDIA H100 80GB HBM3 (cuda)\n{/*0.85 each checked, then timed}"
set xlabel 'configuration (tile T, block shape, z-chunk, K fused steps)'
set ylabel "ms per step (median; bars: min to max)" noenhanced
set key top right box opaque
set grid
set xtics rotate by -35 noenhanced
set offsets 0.5, 0.5, 0, 0
set lmargin 12
set bmargin 7
set y2label 'sectors per warp request (the model)'
set y2tics
set y2range [0:*]
set rmargin 10
plot 'tune.dat' using 0:2:3:4:xtic(1) with yerrorbars pt 7 ps 1.2 title 'checked configurations', \
     '' using 0:($5 > 0 ? $2 : 1/0) with points pt 6 ps 3 lw 2 title 'best', \
     '' using 0:6 axes x1y2 with points pt 2 ps 1.2 title 'sectors per request (right axis)'
set terminal svg size 1000,620 font ',13'
set output 'tune.svg'
replot
