#!/usr/bin/env bash
# Finds, or installs, the headless browser the plan-page test drives (test/service/plan-page.test.ts through
# harness/browser.ts, with playwright-core) and writes .tmp/chromium.env for callers to `source`:
#   export FALLOW_CHROMIUM=/usr/bin/chromium              a browser that answers --version, or
#   export FALLOW_CHROMIUM_MISSING='why, what to install'  none: the browser test is then skipped with this reason.
# A missing browser skips one test and does not stop the suite: this exits 0 either way.
#
# First that works: $FALLOW_CHROMIUM (any Chromium or Chrome binary; when it is set nothing else is tried);
# `chromium` on the PATH or /usr/bin/chromium; when running as root with apt-get, Debian's `chromium` (and
# fonts-liberation) installed with apt-get, quietly (log in .tmp/apt.log; the package lists are refreshed only
# when the first attempt fails). FALLOW_NO_INSTALL=1 never runs apt-get; FALLOW_REQUIRE_TEST_TOOLS=1 (set by
# .ci/run) makes a missing browser an error (exit 1) instead of a skip.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TMP="$ROOT/.tmp"
ENV_FILE="$TMP/chromium.env"
HOW_TO="install Debian's chromium (apt-get install chromium, as root) or set FALLOW_CHROMIUM to a Chromium or Chrome binary"

case "${1:-}" in
  "") ;;
  -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  *) echo "ensure-chromium: unknown argument '$1' (see --help)" >&2; exit 2 ;;
esac
mkdir -p "$TMP"

# works BINARY: prints its version when it starts (a stub, e.g. a snap wrapper without snapd, does not)
works() {
  local v
  [ -f "$1" ] && [ -x "$1" ] && v=$(timeout 60 "$1" --version 2>/dev/null) && [ -n "$v" ] && printf '%s' "$v"
}

# install: Debian's chromium with apt-get when allowed (scripts/apt-install.sh); sets WHY when it does not install
# shellcheck source=scripts/apt-install.sh
source "$ROOT/scripts/apt-install.sh"
install() {
  if apt_install chromium fonts-liberation; then WHY=""; return 0; fi
  WHY=$APT_WHY
  return 1
}

write_env() { # name value
  printf '# written by scripts/ensure-chromium.sh; source it\nunset FALLOW_CHROMIUM FALLOW_CHROMIUM_MISSING\nexport %s=%q\n' "$1" "$2" >"$ENV_FILE.$$"
  mv -f "$ENV_FILE.$$" "$ENV_FILE"
}

found="" version="" how=""
if [ -n "${FALLOW_CHROMIUM:-}" ]; then
  if version=$(works "$FALLOW_CHROMIUM"); then found=$FALLOW_CHROMIUM; how="FALLOW_CHROMIUM"
  else WHY="FALLOW_CHROMIUM=$FALLOW_CHROMIUM does not run (--version fails)"; fi
else
  # one install at a time (fd 9 stays with this script; chromium leaves no daemon behind)
  if command -v flock >/dev/null 2>&1; then exec 9>"$TMP/.ensure-chromium.lock"; flock -w 900 9 || true; fi
  for c in "$(command -v chromium 2>/dev/null || true)" /usr/bin/chromium; do
    if [ -n "$c" ] && version=$(works "$c"); then found=$c; how="found"; break; fi
  done
  if [ -z "$found" ]; then
    WHY="no chromium found"
    if install; then
      if version=$(works /usr/bin/chromium); then found=/usr/bin/chromium; how="installed with apt-get"
      else WHY="apt-get installed chromium but /usr/bin/chromium does not run"; fi
    else WHY="no chromium found, $WHY"; fi
  fi
fi

if [ -n "$found" ]; then
  write_env FALLOW_CHROMIUM "$found"
  echo "chromium: $how: $found ($version)"
else
  write_env FALLOW_CHROMIUM_MISSING "$WHY; $HOW_TO"
  # CI sets FALLOW_REQUIRE_TEST_TOOLS: there a missing browser must fail the run, not skip the test quietly
  if [ -n "${FALLOW_REQUIRE_TEST_TOOLS:-}" ]; then echo "chromium: none: $WHY (FALLOW_REQUIRE_TEST_TOOLS is set)" >&2; exit 1; fi
  echo "chromium: none, the browser test will be skipped: $WHY; $HOW_TO" >&2
fi
