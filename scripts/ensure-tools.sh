#!/usr/bin/env bash
# Finds, or installs, the command-line tools the README's shell blocks use (curl and jq: examples/walkthrough.sh
# and the README's curl blocks, run by test/service/walkthrough.test.ts and readme-blocks.test.ts), and writes
# .tmp/tools.env for callers to `source`: FALLOW_SHELL_TOOLS_MISSING='why, what to install' when one is missing
# (those tests are then skipped with this reason), unset otherwise. Exits 0 either way.
# When running as root with apt-get, the missing ones are installed quietly (log in .tmp/apt.log; the package
# lists are refreshed only when the first attempt fails). FALLOW_NO_INSTALL=1 never runs apt-get;
# FALLOW_REQUIRE_TEST_TOOLS=1 (set by .ci/run) makes a missing tool an error (exit 1) instead of a skip.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TMP="$ROOT/.tmp"
ENV_FILE="$TMP/tools.env"
TOOLS=(curl jq)
mkdir -p "$TMP"

missing() { local t out=(); for t in "${TOOLS[@]}"; do command -v "$t" >/dev/null 2>&1 || out+=("$t"); done; printf '%s' "${out[*]:-}"; }

# shellcheck source=scripts/apt-install.sh
source "$ROOT/scripts/apt-install.sh"
WHY=""
lack=$(missing)
if [ -n "$lack" ]; then
  # shellcheck disable=SC2086  # the list is words
  apt_install $lack || WHY=$APT_WHY
  lack=$(missing)
fi

{
  echo "# written by scripts/ensure-tools.sh; source it"
  echo "unset FALLOW_SHELL_TOOLS_MISSING"
  if [ -n "$lack" ]; then printf 'export FALLOW_SHELL_TOOLS_MISSING=%q\n' "no $lack on the PATH${WHY:+ ($WHY)}; install them (apt-get install $lack)"; fi
} >"$ENV_FILE.$$"
mv -f "$ENV_FILE.$$" "$ENV_FILE"
if [ -n "$lack" ]; then
  # CI sets FALLOW_REQUIRE_TEST_TOOLS: there a missing tool must fail the run, not skip tests quietly
  if [ -n "${FALLOW_REQUIRE_TEST_TOOLS:-}" ]; then echo "tools: no $lack${WHY:+: $WHY} (FALLOW_REQUIRE_TEST_TOOLS is set)" >&2; exit 1; fi
  echo "tools: no $lack, the README's shell blocks will be skipped${WHY:+: $WHY}" >&2
fi
