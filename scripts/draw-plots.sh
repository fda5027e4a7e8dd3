#!/usr/bin/env bash
# Draws the plots of a sweep folder from the data and gnuplot scripts `stencil-lab sweep` left in
# DIR/plots/ (it writes them even where gnuplot is missing, as on the GPU device machine).
#   scripts/draw-plots.sh docs/results/h100-sweep-256-f32
# To rewrite the scripts themselves with the lab's current ones (from DIR/results.json) and draw
# them, use `stencil-lab sweep --replot DIR` instead.
set -euo pipefail
dir=${1:?usage: scripts/draw-plots.sh SWEEP_DIR}
[ -d "$dir/plots" ] || { echo "draw-plots: no $dir/plots (run stencil-lab sweep --out $dir first)"; exit 2; }
command -v gnuplot >/dev/null || { echo "draw-plots: gnuplot is not installed (apt install gnuplot-nox)"; exit 2; }
cd "$dir/plots"
for gp in *.gp; do
  gnuplot "$gp"
  for ext in png svg; do
    [ -s "${gp%.gp}.$ext" ] || { echo "draw-plots: $gp left no ${gp%.gp}.$ext"; exit 1; }
  done
  echo "draw-plots: ${gp%.gp}.png and .svg"
done
