set terminal pngcairo size 1000,620 font ',13'
set output 'tune.png'
set title "tune: coarsened r = 1 f32 N = 256 on NVIDIA H100 80GB HBM3 (cuda)\n{/*0.85 each checked, then timed}"
set xlabel 'T'
set ylabel "ms per launch (median; bars: min to max)" noenhanced
set key top right box opaque
set grid
set offsets 1, 1, 0, 0
set lmargin 12
plot 'tune.dat' using 1:2:3:4 with yerrorbars pt 7 ps 1.2 title 'checked configurations', \
     '' using ($5 > 0 ? $1 : 1/0):2 with points pt 6 ps 3 lw 2 title 'best'
set terminal svg size 1000,620 font ',13'
set output 'tune.svg'
replot
