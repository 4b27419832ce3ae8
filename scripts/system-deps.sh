#!/usr/bin/env bash
# Debian packages Qt needs: "test" is the offscreen set, "run" adds what the xcb window needs.
# "test" and "store" also install PostgreSQL's server (the store tests and `make store` start a
# throw-away cluster of their own; the tills themselves never need it). "test" also installs
# libfaketime: the clock tests run real till processes under a clock set back and forward.
# Installs what is missing when we are root with apt; otherwise prints the exact command.
set -u
want=(libegl1 libgl1 libxkbcommon0 libfontconfig1 fonts-dejavu-core libdbus-1-3 libglib2.0-0)
if [ "${1:-test}" = "test" ] || [ "${1:-test}" = "store" ]; then
  want+=(postgresql)
fi
if [ "${1:-test}" = "test" ]; then
  want+=(faketime libfaketime)  # clocks set back and forward under real processes (issue 27)
  # training's windows under a real window manager (make long): a virtual screen, openbox and
  # xprop to read its stacking, with the xcb libraries the window needs there
  want+=(xvfb openbox x11-utils libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxkbcommon-x11-0
         libxcb-randr0 libxcb-shape0 libxcb-render-util0 libxcb-image0 libxcb-xinerama0)
fi
if [ "${1:-test}" = "run" ]; then
  want+=(libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxkbcommon-x11-0 libxcb-randr0
         libxcb-shape0 libxcb-render-util0 libxcb-image0 libxcb-xinerama0)
fi
command -v dpkg-query >/dev/null 2>&1 || exit 0   # not Debian: nothing we know how to check
missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing system packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    && exit 0
  echo "apt-get could not install: ${missing[*]}" >&2
  exit 1
fi
echo "These system packages are missing: ${missing[*]}" >&2
echo "Run:  sudo apt-get install -y ${missing[*]}" >&2
[ "${1:-test}" = "test" ] && exit 0 || exit 1
