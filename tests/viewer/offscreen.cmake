# The viewer with --offscreen (EGL, no window, no Xvfb): screenshots of the default layout and of
# one presented panel whose sidecars are read as the Xvfb ones are (image-check --expect), and
# tests/viewer/test_offscreen.cpp (frame times, the no-EGL line) runs the viewer binary itself.
# Included from tests/CMakeLists.txt inside its `if(TARGET stencil-lab-viewer)`.
if(TARGET stencil_tests_viewer)
  add_dependencies(stencil_tests_viewer stencil-lab-viewer)
endif()
set(viewer_offscreen_states
  "all|--window 1920x1080|/offscreen=true|/layout=split|/stepper/kernel=tiled|/opb/series~tiled|/figures/stepper/figure_visible=true"
  "opb|--present opb --window 1920x1080 --font 20|/offscreen=true|/font_px=20|/opb/limit_matches_model=true|/opb/seed_label=textbook: 1.37 at T = 8|/opb/label_overlaps=0"
  "runs_cpu|--present runs --run 24 --runs-backend cpu --kernel tiled --tile 8 --window 1024x768|/runs/rows=1|/runs/passes=1|/runs/cpu_inst_rates=1"
  "timeline|--present timeline --window 1024x768|/timeline/unit=cycles|/timeline/modelled=true|/timeline/warps=16")
foreach(state ${viewer_offscreen_states})
  string(REPLACE "|" ";" parts "${state}")
  list(POP_FRONT parts name flags)
  string(REGEX MATCH "--window ([0-9x]+)" _ "${flags}")
  set(size ${CMAKE_MATCH_1})
  set(png ${PROJECT_BINARY_DIR}/offscreen-${name}.png)
  set(expect " --expect '/clipped_items=0'")
  foreach(e ${parts})
    string(APPEND expect " --expect '${e}'")
  endforeach()
  add_test(NAME viewer_offscreen_${name}
           COMMAND sh -c "$<TARGET_FILE:stencil-lab-viewer> --offscreen --screenshot ${png} ${flags} --frames 3 && $<TARGET_FILE:stencil-viewer-image-check> ${png} --size ${size}${expect}")
  set_tests_properties(viewer_offscreen_${name} PROPERTIES LABELS viewer TIMEOUT 180)
endforeach()
# Asked for the GPU's timeline without a GPU (CI): one line and exit 1, nothing drawn.
add_test(NAME viewer_offscreen_gpu_timeline_without_gpu
         COMMAND stencil-lab-viewer --offscreen --screenshot ${PROJECT_BINARY_DIR}/offscreen-no-gpu.png
                 --present timeline --gpu-timeline)
set_tests_properties(viewer_offscreen_gpu_timeline_without_gpu PROPERTIES LABELS viewer TIMEOUT 120
                     PASS_REGULAR_EXPRESSION "stencil-lab-viewer: --gpu-timeline: ")
# Issue 28's flags without what they act on: one line and exit 2, before any window.
add_test(NAME viewer_beside_lab_without_kernel_file COMMAND stencil-lab-viewer --beside-lab)
set_tests_properties(viewer_beside_lab_without_kernel_file PROPERTIES LABELS viewer TIMEOUT 60
                     PASS_REGULAR_EXPRESSION "stencil-lab-viewer: --beside-lab needs --kernel-file FILE.cu")
add_test(NAME viewer_check_cell_without_check COMMAND stencil-lab-viewer --check-cell 1,1,1)
set_tests_properties(viewer_check_cell_without_check PROPERTIES LABELS viewer TIMEOUT 60
                     PASS_REGULAR_EXPRESSION "stencil-lab-viewer: --check-cell and --check-hints need --check FILE.cu")
add_test(NAME viewer_check_and_check_report COMMAND stencil-lab-viewer --check a.cu --check-report a.json)
set_tests_properties(viewer_check_and_check_report PROPERTIES LABELS viewer TIMEOUT 60
                     PASS_REGULAR_EXPRESSION "stencil-lab-viewer: --check runs a check and --check-report shows a saved one: give one")
