#!/usr/bin/env bash
# Runs a command on an X display of its own: a fresh Xvfb (1920x1080, 24 bits) that exits with it.
# ctest starts every GUI suite this way (tests/CMakeLists.txt), so two suites never share a screen,
# focus or window manager state and can run side by side, one per core; nor does a suite open
# windows on the desktop of whoever runs ctest.
set -uo pipefail
dir="$(mktemp -d)"
# -displayfd: Xvfb picks a free display number and writes it once it accepts connections.
Xvfb -displayfd 3 -screen 0 1920x1080x24 -nolisten tcp 3>"$dir/display" 2>"$dir/xvfb.log" &
xvfb=$!
trap 'kill "$xvfb" 2>/dev/null; wait "$xvfb" 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 200); do
  [ -s "$dir/display" ] && break
  kill -0 "$xvfb" 2>/dev/null || break
  sleep 0.05
done
if [ ! -s "$dir/display" ]; then
  echo "own_display.sh: Xvfb did not start:" >&2
  cat "$dir/xvfb.log" >&2
  exit 1
fi
export DISPLAY=":$(head -n 1 "$dir/display")"
"$@"
status=$?
exit "$status"
