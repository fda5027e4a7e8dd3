#!/usr/bin/env bash
# The viewer on the GPU device machine (issue 12, "On a GPU machine"): no display there, so the
# viewer draws with --offscreen (EGL from the NVIDIA driver through glvnd, into a framebuffer).
#
# Here (Debian, no GPU), once:
#   cmake --preset gpu -B /tmp/build-viewer-gpu -DSTENCIL_LAB_VIEWER=ON     (CUDA sm_90, viewer, no MPI)
#   cmake --build /tmp/build-viewer-gpu -j2 --target stencil-lab-viewer stencil-lab stencil-viewer-image-check
#   scripts/gpu-viewer.sh pack /tmp/build-viewer-gpu    -> .carry/viewer-gpu/viewer-gpu.tar.xz, and .gl/*.deb
# There (the device tool's run, carry [".carry/viewer-gpu", ".gl"]):
#   scripts/gpu-viewer.sh run .carry/viewer-gpu/viewer-gpu.tar.xz
# Back here: tar xzf <fetched>/viewer-session.tar.gz (viewer-results/: PNGs, sidecars, checks,
# frame times, the sweep it drew from, the log).
#
# `pack` puts into one xz tarball what the device (Ubuntu 24.04: CUDA, no Debian packages) lacks:
# the three executables (stripped), the Debian shared libraries they load that are not glibc's,
# GL's or CUDA's (GLFW with its X11 libraries, stb), and the DejaVu font the viewer looks for. ImGui
# is a static library here: nothing to carry. glvnd's libEGL / libOpenGL come as .gl/*.deb, the
# device tool's recipe (/work/.library/device/README.md, "Headless rendering").
#
# `run` there, each step under a time limit, every picture checked by its sidecar (image-check):
#   sweep      stencil-lab sweep --backend cuda --size 256 (the OP/B, roofline and runs data)
#   runs       the runs panel with a CUDA T sweep of tiled at 256^3, done by the viewer on the spot
#   timeline   the GPU's own timeline of the stepper's block (backends/cuda/block_timeline)
#   stepper    the stepper at step 5 of tiled T = 8's 10 (instruction zoom) and at a source line
#   opb        the OP/B chart with the sweep's measured points; the roofline, ceilings measured there
#   all        the default layout at 1920x1080
#   frames     frame times of the default layout (its five panels in a grid) at 1920x1080 and
#              3840x2160, and of all eight open (--open-all) at 1920x1080, 300 frames each
# Everything lands in $OUT/viewer-session.tar.gz and $OUT/viewer-session.log (the device returns
# at most 8 files).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
ROOT=$PWD

usage() {
  echo "usage: scripts/gpu-viewer.sh pack BUILD_DIR | run .carry/viewer-gpu/viewer-gpu.tar.xz [STEPS]" >&2
  exit 2
}

# ---- pack (here) ------------------------------------------------------------------------------------
pack() {
  local build=$1
  local exes="stencil-lab-viewer stencil-viewer-image-check"
  for e in $exes; do
    [ -x "$build/$e" ] || { echo "gpu-viewer: no $build/$e (build it: see the top of this script)" >&2; exit 2; }
  done
  # stencil-lab runs the sweep there; without it (or built with MPI, which the device lacks) the
  # OP/B and roofline views load the committed H100 sweep instead.
  if [ -x "$build/stencil-lab" ] && ! ldd "$build/stencil-lab" | grep -q libmpi; then
    exes="$exes stencil-lab"
  else
    echo "gpu-viewer: no MPI-free $build/stencil-lab: the device will draw the committed sweep (docs/results/)"
  fi
  for e in $exes; do
    if ldd "$build/$e" | grep -q libmpi; then
      echo "gpu-viewer: $build/$e links MPI, which the device lacks: configure with --preset gpu" >&2
      exit 2
    fi
  done
  local stage
  stage=$(mktemp -d)
  mkdir -p "$stage/viewer-gpu/bin" "$stage/viewer-gpu/lib" "$stage/viewer-gpu/fonts"
  for e in $exes; do
    cp "$build/$e" "$stage/viewer-gpu/bin/"
    strip --strip-unneeded "$stage/viewer-gpu/bin/$e"
  done
  # The libraries ldd resolves here, less those the device has or must not take from Debian:
  # glibc's, the C++ runtime (Ubuntu's is newer), GL / EGL (the driver's, through .gl's glvnd),
  # CUDA's (the toolkit there).
  for e in $exes; do ldd "$build/$e"; done | awk '/=> \// {print $1, $3}' | sort -u |
    while read -r name path; do
      case "$name" in
        libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|ld-linux*|libstdc++*|libgcc_s*) continue ;;
        libGL*|libEGL*|libOpenGL*|libnvrtc*|libcuda*|libcupti*) continue ;;
      esac
      cp -L "$path" "$stage/viewer-gpu/lib/$name"
    done
  local font=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
  [ -f "$font" ] && cp "$font" "$stage/viewer-gpu/fonts/"
  cp "$build/CMakeCache.txt" "$stage/viewer-gpu/"
  mkdir -p .carry/viewer-gpu  # its own folder: carry it alone, not the rest of .carry/
  tar cf - -C "$stage" viewer-gpu | xz -T2 -6 > .carry/viewer-gpu/viewer-gpu.tar.xz
  rm -rf "$stage"
  # glvnd's loaders for the device (the tool's recipe); .gl/ is git-ignored.
  if ! ls .gl/*.deb > /dev/null 2>&1; then
    mkdir -p .gl /tmp/amd64/partial
    local o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
    # shellcheck disable=SC2086
    apt-get $o update -qq && (cd .gl && apt-get $o download libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
  fi
  du -ch .carry/viewer-gpu/viewer-gpu.tar.xz .gl/*.deb | tail -n 1
  echo "gpu-viewer: lib/ holds: $(tar tJf .carry/viewer-gpu/viewer-gpu.tar.xz | sed -n 's|^viewer-gpu/lib/||p' | xargs)"
  echo "gpu-viewer: carry [\".carry/viewer-gpu\", \".gl\"], then run: scripts/gpu-viewer.sh run .carry/viewer-gpu/viewer-gpu.tar.xz"
}

# ---- run (there) ------------------------------------------------------------------------------------
run_there() {
  local tarball=$1
  local steps=${2:-"sweep runs timeline stepper opb all frames"}
  [ -f "$tarball" ] || { echo "gpu-viewer: no $tarball (scripts/gpu-viewer.sh pack first, carry .carry)"; exit 2; }
  OUT=${OUT:-$ROOT/out}
  mkdir -p "$OUT"
  local work
  work=$(mktemp -d)
  local res=$work/viewer-results
  mkdir -p "$res"
  exec > >(tee "$OUT/viewer-session.log") 2>&1
  local failed=0
  # The device tool stops a command at 600 s, and then the tarball would not be written: every
  # step's limit is cut to what is left of 540 s.
  SECONDS=0
  limit() { local left=$((540 - SECONDS)); [ "$left" -lt "$1" ] && echo $((left > 1 ? left : 1)) || echo "$1"; }
  step() { printf '\n==== %s  (%s)\n' "$1" "$(date -u +%H:%M:%S)"; }
  want() { case " $steps " in *" $1 "*) return 0 ;; esac; return 1; }
  fail() { failed=$((failed + 1)); echo "FAILED: $*"; }

  step "machine"
  date -u +%Y-%m-%dT%H:%M:%SZ | tee "$res/date.txt"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee "$res/nvidia-smi.txt"

  step "glvnd (the carried .gl/*.deb), the executables and their libraries"
  for f in .gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
  if ! ls /usr/share/glvnd/egl_vendor.d/*nvidia*.json /etc/glvnd/egl_vendor.d/*nvidia*.json > /dev/null 2>&1 &&
     [ -f /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json ]; then
    export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
    echo "gpu-viewer: EGL vendor file $__EGL_VENDOR_LIBRARY_FILENAMES"
  fi
  if command -v xz > /dev/null; then
    xz -dc "$tarball" | tar xf - -C "$work"
  else  # a minimal image without xz-utils: python3's lzma
    python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer)' "$tarball" |
      tar xf - -C "$work"
  fi
  local pkg=$work/viewer-gpu
  # Only the carried libraries the system lacks, so the device's own (newer) ones are kept.
  local libs=$work/lib
  mkdir -p "$libs"
  for _ in 1 2 3 4; do
    LD_LIBRARY_PATH=$libs ldd "$pkg"/bin/* 2>/dev/null | awk '/not found/ {print $1}' | sort -u |
      while read -r name; do
        if [ -f "$pkg/lib/$name" ]; then ln -sf "$pkg/lib/$name" "$libs/$name"; else echo "gpu-viewer: $name is missing"; fi
      done
  done
  export LD_LIBRARY_PATH=$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  echo "gpu-viewer: libraries taken from the carry: $(find "$libs" -mindepth 1 -printf '%f ')"
  LD_LIBRARY_PATH=$libs ldd "$pkg/bin/stencil-lab-viewer" | grep "not found" && fail "libraries still missing"
  local font=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
  if [ ! -f "$font" ] && [ -f "$pkg/fonts/DejaVuSans.ttf" ]; then  # the viewer's font (frame.cpp)
    mkdir -p "$(dirname "$font")" && cp "$pkg/fonts/DejaVuSans.ttf" "$font" && echo "gpu-viewer: installed $font"
  fi
  export STENCIL_LAB_SOURCE_DIR=$ROOT  # the kernel sources the stepper shows
  local viewer=$pkg/bin/stencil-lab-viewer lab=$pkg/bin/stencil-lab check=$pkg/bin/stencil-viewer-image-check

  # One picture: NAME SIZE "viewer flags" FACT...; its PNG, sidecar and check land in $res.
  shot() {
    local name=$1 size=$2 flags=$3
    shift 3
    local png=$res/$name.png
    local expects=(--expect /clipped_items=0 --expect /offscreen=true)
    for e in "$@"; do expects+=(--expect "$e"); done
    echo "---- $name: $flags --window $size"
    # shellcheck disable=SC2086
    timeout "$(limit 120)" "$viewer" --offscreen --screenshot "$png" --window "$size" --frames 3 $flags ||
      { fail "viewer $name"; return; }
    "$check" "$png" --size "$size" "${expects[@]}" | tee "$res/$name.check.txt"
    [ "${PIPESTATUS[0]}" -eq 0 ] || fail "check $name"
  }

  step "the offscreen context"
  timeout "$(limit 60)" "$viewer" --offscreen --frames 1 --frame-times "$res/probe.json" --window 1024x768 || fail "EGL"

  local sweep=$res/sweep-256-f32
  if want sweep && [ -x "$lab" ]; then
    step "stencil-lab sweep --backend cuda --size 256 (what the OP/B, roofline and frame-time views draw)"
    timeout "$(limit 200)" "$lab" sweep --backend cuda --size 256 --reps 5 --no-plots --out "$sweep" 2>&1 | tail -n 12 || fail "sweep"
  fi
  local load="--load $ROOT/docs/results/h100-sweep-256-f32/results.json"  # without stencil-lab: the committed one
  [ -f "$sweep/results.json" ] && load="--load $sweep/results.json"
  echo "gpu-viewer: the OP/B, roofline and frame-time views draw $load"

  if want runs; then
    step "runs panel: a CUDA T sweep of tiled at 256^3, done by the viewer on the spot"
    shot runs-cuda-256 1920x1080 "--present runs --runs-backend cuda --run 256 --run-sweep --kernel tiled" \
      "/runs/rows>=3" "/runs/passes>=3" "/runs/fails=0" "/runs/first_speed~GB/s"
  fi
  if want timeline; then
    step "timeline panel: the GPU's own timeline of the stepper's block (clock64)"
    shot timeline-gpu 1920x1080 "--present timeline --gpu-timeline --kernel tiled --tile 8" \
      "/timeline/unit=cycles" "/timeline/warps>=8" "/timeline/barriers>=1" "/timeline/spans>=30"
  fi
  if want stepper; then
    step "stepper at a known step"
    shot stepper-step5 1920x1080 "--present stepper --kernel tiled --tile 8 --step 5" \
      "/stepper/kernel=tiled" "/stepper/step=5" "/stepper/last_step=10" "/stepper/source_lines>=10"
    shot stepper-line 1920x1080 "--present stepper --zoom line --step 3" \
      "/stepper/zoom=line" "/stepper/source_file~tiled.cuh" "/stepper/source_line>=1"
  fi
  if want opb; then
    step "OP/B and roofline: the sweep's points, the ceilings measured here"
    # shellcheck disable=SC2086
    shot opb-sweep 1920x1080 "--present opb $load" "/opb/dram_points>=10" "/opb/label_overlaps=0" \
      "/opb/limit_matches_model=true"
    # shellcheck disable=SC2086
    shot roofline 1920x1080 "--present opb --roofline $load --measure-ceilings --runs-backend cuda" \
      "/roofline/points>=10" "/roofline/compute_gflops>=1000" "/roofline/memory_gbps>=500" "/roofline/label_overlaps=0"
  fi
  if want all; then
    step "the default layout"
    # shellcheck disable=SC2086
    shot all-1920x1080 1920x1080 "$load" "/layout=grid" "/stepper/kernel=tiled"
    # shellcheck disable=SC2086
    shot open-all-1920x1080 1920x1080 "--open-all $load"
    # shellcheck disable=SC2086
    shot open-all-3840x2160 3840x2160 "--open-all $load" "/layout=grid"
  fi
  if want frames; then
    # The default layout is the grid of its five panels, each drawn every frame; with all eight
    # open (--open-all) a 1920x1080 window at 20 px falls back to tabs (one panel drawn): measured
    # too, its JSON says "layout".
    step "frame times: the default layout's panels all open and drawn (target 60 fps: the p95 frame within 16.7 ms)"
    for size in 1920x1080 3840x2160; do
      # shellcheck disable=SC2086
      timeout "$(limit 120)" "$viewer" --offscreen $load --window $size --frames 300 \
        --frame-times "$res/frame-times-default-$size.json" || fail "frame times $size"
    done
    # shellcheck disable=SC2086
    timeout "$(limit 120)" "$viewer" --offscreen --open-all $load --window 1920x1080 --frames 300 \
      --frame-times "$res/frame-times-open-all-1920x1080.json" || fail "frame times, every panel open"
    # A 4K window holds all eight in the grid: every panel drawn every frame.
    # shellcheck disable=SC2086
    timeout "$(limit 120)" "$viewer" --offscreen --open-all $load --window 3840x2160 --frames 300 \
      --frame-times "$res/frame-times-open-all-3840x2160.json" || fail "frame times, every panel open, 4K"
  fi

  step "summary"
  cp "$OUT/viewer-session.log" "$res/" 2>/dev/null
  ( cd "$work" && tar czf "$OUT/viewer-session.tar.gz" viewer-results ) && ls -la "$OUT"
  echo "gpu-viewer: $failed step(s) failed"
  [ $failed -eq 0 ]
}

case "${1:-}" in
  pack) [ $# -eq 2 ] || usage; pack "$2" ;;
  run) [ $# -ge 2 ] || usage; run_there "$2" "${3:-}" ;;
  *) usage ;;
esac
