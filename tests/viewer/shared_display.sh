#!/bin/sh
# One virtual display for all of the viewer's screenshot tests (a ctest fixture), instead of an
# xvfb-run, and so an X server started and stopped, per test.
#
#   shared_display.sh start STATE_DIR   start Xvfb, write its display (":N") to STATE_DIR/display
#   shared_display.sh stop STATE_DIR    stop it
#   shared_display.sh run STATE_DIR COMMAND...   run COMMAND with DISPLAY set to the shared display
#
# Xvfb picks a free display number itself (-displayfd), so parallel ctest runs of two build trees
# cannot meet. It is started in a session of its own with its output away from ctest's pipes:
# ctest waits for a test's pipes to close, and the server must outlive the start test.
# -noreset: by default an X server resets when its last client disconnects, and a client that
# connects during the reset is refused; with tests starting and ending side by side, one of them
# would now and then find no display.
set -eu
action=${1:?start, stop or run}
state=${2:?a folder for the display state}
shift 2
case "$action" in
  start)
    mkdir -p "$state"
    rm -f "$state/display" "$state/pid" "$state/number"
    setsid Xvfb -displayfd 3 -screen 0 3840x2160x24 -nolisten tcp -noreset \
      3>"$state/number" >"$state/xvfb.log" 2>&1 </dev/null &
    echo $! >"$state/pid"
    # -displayfd writes the number once the server accepts connections.
    tries=0
    while ! grep -q '[0-9]' "$state/number" 2>/dev/null; do
      if ! kill -0 "$(cat "$state/pid")" 2>/dev/null || [ $tries -ge 200 ]; then
        echo "shared_display: Xvfb did not start (log: $state/xvfb.log)" >&2
        exit 1
      fi
      tries=$((tries + 1))
      sleep 0.05
    done
    echo ":$(tr -dc 0-9 <"$state/number")" >"$state/display"
    echo "shared_display: Xvfb on $(cat "$state/display")"
    ;;
  stop)
    if [ -f "$state/pid" ]; then
      kill "$(cat "$state/pid")" 2>/dev/null || true
    fi
    rm -f "$state/display" "$state/pid" "$state/number"
    ;;
  run)
    if [ ! -s "$state/display" ]; then
      echo "shared_display: no display in $state (the fixture's start test did not run)" >&2
      exit 1
    fi
    DISPLAY=$(cat "$state/display")
    export DISPLAY
    exec "$@"
    ;;
  *)
    echo "shared_display: unknown action $action (start, stop or run)" >&2
    exit 2
    ;;
esac
