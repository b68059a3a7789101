#!/usr/bin/env bash
# npm test [-- ARGS]: makes sure Postgres and Redis are reachable (scripts/ensure-services.sh, then
# .tmp/services.env is sourced: DATABASE_URL may point at any database, the tests create their own on its
# server), builds, and runs the compiled tests with Node's test runner, one file at a time.
#
# ARGS: options go to `node --test` (use the --opt=value form, e.g. --test-name-pattern=solve);
# files or directories (test/x.test.ts, dist/test/engine, ...) replace the default set of every test.
# FALLOW_SKIP_SERVICES=1 skips the service check (only the tests that need no Postgres/Redis will pass).
# When a chosen test drives a browser (harness/browser), scripts/ensure-chromium.sh finds or installs chromium
# first (FALLOW_CHROMIUM: another binary; FALLOW_NO_INSTALL=1: no apt-get); without one that test is skipped,
# saying what to install. Likewise scripts/ensure-tools.sh for curl and jq when a chosen test runs the README's
# shell blocks (test/support/shell-tools).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [ -z "${FALLOW_SKIP_SERVICES:-}" ]; then
  if ! bash scripts/ensure-services.sh; then
    echo "test: no Postgres/Redis (see above); FALLOW_SKIP_SERVICES=1 runs the tests without them" >&2
    exit 1
  fi
  # shellcheck source=/dev/null
  source .tmp/services.env
fi

npm run build

# test/foo.test.ts -> dist/test/foo.test.js (same for directories)
to_dist() {
  local p=${1%/}
  case "$p" in
    dist/*) ;;
    test|test/*|src/*|bench/*|harness/*) p="dist/$p" ;;
  esac
  case "$p" in *.ts) p="${p%.ts}.js" ;; esac
  printf '%s' "$p"
}
# compiled tests whose source still exists (tsc never deletes the output of a removed test)
list_tests() {
  local f src
  while IFS= read -r f; do
    src="${f#dist/}"; src="${src%.js}.ts"
    if [ -f "$src" ] || [ ! -d test ]; then printf '%s\n' "$f"; else echo "test: skipping $f (no $src)" >&2; fi
  done < <(find "$@" -name '*.test.js' | sort)
}

opts=() files=()
for arg in "$@"; do
  case "$arg" in
    -*) opts+=("$arg") ;;
    *)
      p=$(to_dist "$arg")
      if [ -d "$p" ]; then mapfile -t -O "${#files[@]}" files < <(list_tests "$p")
      elif [ -f "$p" ]; then files+=("$p")
      elif [[ $arg == *.test.ts || $arg == *.test.js ]]; then echo "test: no such test: $arg" >&2; exit 1
      else opts+=("$arg"); fi   # the value of a preceding option
      ;;
  esac
done
if [ "${#files[@]}" -eq 0 ]; then mapfile -t files < <(list_tests dist/test); fi
if [ "${#files[@]}" -eq 0 ]; then echo "test: no compiled tests under dist/test" >&2; exit 1; fi

if grep -qs -- 'support/shell-tools' "${files[@]}"; then
  bash scripts/ensure-tools.sh
  # shellcheck source=/dev/null
  source .tmp/tools.env
fi
if grep -qs -- 'harness/browser' "${files[@]}"; then
  bash scripts/ensure-chromium.sh
  # shellcheck source=/dev/null
  source .tmp/chromium.env
fi

exec node --test --test-concurrency=1 ${opts[@]+"${opts[@]}"} "${files[@]}"
