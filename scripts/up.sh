#!/usr/bin/env bash
# npm run up [-- OPTIONS]: everything, locally, in the foreground, ending with a banner of URLs and keys.
#   1. checks first that PORT (default 3000) is free and that no other `up` runs from this checkout;
#   2. npm ci when node_modules is missing or does not match package-lock.json (never through a symlinked
#      node_modules: that one is left to its owner); the build (scripts/build.mjs, skipped when dist/ is up
#      to date with the sources);
#   3. Postgres and Redis (scripts/ensure-services.sh: reuses running ones, else starts private ones in .tmp);
#   4. node dist/src/ops/main.js migrate, then seed-demo: the demo tenant's farmer and customer keys kept in
#      STATE/demo-keys are shown again while they work; when they do not (a second clone on the same
#      database, a deleted .tmp) new ones are issued beside the old ones, which stay valid;
#   5. the worker and the API (node dist/src/{worker,main}.js) as child processes, their logs (JSON, pino) in
#      STATE/logs/worker.log and api.log (the previous run's in *.log.1); the banner once the API answers
#      and the worker is ready.
# Options:
#   --new-demo-keys  revoke every demo key (also those another clone on the same database shows) and issue new ones
#   --logs           after the banner, follow both logs here (else: tail -f STATE/logs/*.log)
#   -h, --help       this text
# Environment: PORT; FALLOW_STATE_DIR (default .tmp): the operator key, the demo keys and the logs (the private
# Postgres/Redis of ensure-services.sh stay in .tmp); FALLOW_BOOTSTRAP_KEY (when unset an operator key is
# generated once and kept in STATE/operator-key: delete the file for a new one); DATABASE_URL, REDIS_URL,
# FALLOW_DB_NAME and the rest as in scripts/ensure-services.sh.
# Ctrl-C (SIGINT) or SIGTERM is forwarded to both children and waits for them (a second Ctrl-C, 2 s or more
# later, kills them). If either dies, the other is stopped and this exits non-zero.
# Every failure ends with one line "up: <what failed>: <how to mend it>" on stderr.
set -Eeuo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

log() { printf 'up: %s\n' "$*"; }
die() { printf 'up: %s\n' "$*" >&2; exit 1; }
# Anything else that fails under set -e says where, rather than ending the run silently.
trap 'rc=$?; trap - ERR; die "failed (status $rc) at scripts/up.sh line $LINENO: $BASH_COMMAND; run bash -x scripts/up.sh to see the steps before it"' ERR
redact() { printf '%s' "$1" | sed -E 's#^([a-z]+://[^:/@]*):[^@/]*@#\1:***@#'; }
port_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }
usage() { sed -n '2,/^set -Eeuo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; }

NEW_DEMO_KEYS="" FOLLOW_LOGS=""
for arg in "$@"; do
  case "$arg" in
    --new-demo-keys) NEW_DEMO_KEYS=1 ;;
    --logs) FOLLOW_LOGS=1 ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown option '$arg': npm run up -- --help lists the options" ;;
  esac
done

# ---- 1. the port and this checkout's lock, before any slow step
export PORT="${PORT:-3000}"
[[ $PORT =~ ^[0-9]+$ ]] && [ "$PORT" -ge 1 ] && [ "$PORT" -le 65535 ] || die "PORT must be a port number (1-65535), got '$PORT': e.g. PORT=3001 npm run up"
free_port_after() {
  local p=$1
  while [ "$p" -lt 65535 ]; do p=$((p + 1)); port_open 127.0.0.1 "$p" || { printf '%s' "$p"; return 0; }; done
  printf '%s' $(($1 - 1))
}
if port_open 127.0.0.1 "$PORT"; then
  die "port $PORT is already in use (another 'npm run up'?): stop that, or pick another port: PORT=$(free_port_after "$PORT") npm run up"
fi

STATE="${FALLOW_STATE_DIR:-.tmp}"
LOGS="$STATE/logs"
mkdir -p "$LOGS" || die "cannot create $LOGS: check FALLOW_STATE_DIR ('$STATE') and its permissions"
if command -v flock >/dev/null 2>&1; then
  # fd 8 is closed for every child (8>&-), or a daemon started below would keep holding the lock
  exec 8>>"$STATE/up.lock"
  if ! flock -n 8; then
    die "another 'npm run up' (pid $(cat "$STATE/up.lock" 2>/dev/null || echo '?')) is running from this checkout: stop it first (Ctrl-C in its terminal), or give this one its own FALLOW_STATE_DIR and PORT"
  fi
  printf '%s\n' "$$" >"$STATE/up.lock"
fi

# ---- 2. install and build
# Installed packages differ from package-lock.json (a lock newer than the install is not enough: a fresh
# checkout's files are all new); optional ones (other platforms' binaries) may be missing.
deps_differ() {
  [ -f node_modules/.package-lock.json ] || return 0
  local rc=0
  node -e '
    const fs = require("fs");
    const want = JSON.parse(fs.readFileSync("package-lock.json", "utf8")).packages || {};
    const have = JSON.parse(fs.readFileSync("node_modules/.package-lock.json", "utf8")).packages || {};
    const off = Object.keys(want).filter((k) => k && (k in have ? have[k].version !== want[k].version : !want[k].optional));
    process.exit(off.length ? 0 : 3);' || rc=$?
  [ "$rc" -ne 3 ]
}
if [ ! -d node_modules ] || { [ package-lock.json -nt node_modules/.package-lock.json ] && deps_differ; }; then
  # npm ci empties node_modules, through a symlink too: a node_modules shared by several checkouts is left alone
  [ ! -L node_modules ] || die "node_modules (a symlink to $(readlink node_modules)) does not match package-lock.json: run npm ci where it points, or replace the link by a directory of this checkout's own, then npm run up again"
  log "installing dependencies (npm ci)"
  npm ci --no-audit --no-fund 8>&- || die "npm ci failed (above): fix that (network? Node $(node --version 2>/dev/null || echo missing); 20.19 or later is needed) and run npm run up again"
fi
node scripts/build.mjs 8>&- || die "the build failed (above): fix the TypeScript errors and run npm run up again"

# ---- 3. services
bash scripts/ensure-services.sh 8>&- || die "no Postgres/Redis (above): start them, or set DATABASE_URL and REDIS_URL to ones that answer"
# shellcheck source=/dev/null
source .tmp/services.env || die "ensure-services.sh left no readable .tmp/services.env: run bash scripts/ensure-services.sh and check what it says"

# operator key
KEY_NOTE=""
if [ -z "${FALLOW_BOOTSTRAP_KEY:-}" ]; then
  if [ -s "$STATE/operator-key" ]; then
    FALLOW_BOOTSTRAP_KEY=$(cat "$STATE/operator-key")
    KEY_NOTE="generated by an earlier run, kept in $STATE/operator-key"
  else
    FALLOW_BOOTSTRAP_KEY="fallow_op_$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
    (umask 077 && printf '%s\n' "$FALLOW_BOOTSTRAP_KEY" >"$STATE/operator-key") || die "cannot write $STATE/operator-key: check the permissions of $STATE"
    KEY_NOTE="generated now, kept in $STATE/operator-key"
  fi
  export FALLOW_BOOTSTRAP_KEY
fi

# ---- 4. schema and demo data
node dist/src/ops/main.js migrate 8>&- || die "migrating $(redact "$DATABASE_URL") failed (above): check that database (or point DATABASE_URL at another) and run npm run up again"
SEED_ERR="$STATE/seed-demo.err"
SEED_ARGS=(seed-demo --keys-file "$STATE/demo-keys")
[ -z "$NEW_DEMO_KEYS" ] || SEED_ARGS+=(--new-keys)
if ! SEED_OUT=$(node dist/src/ops/main.js "${SEED_ARGS[@]}" 2>"$SEED_ERR" 8>&-); then
  [ -z "$SEED_OUT" ] || printf '%s\n' "$SEED_OUT"
  cat "$SEED_ERR" >&2
  die "seeding the demo tenant failed (above): check $(redact "$DATABASE_URL"), or delete $STATE/demo-keys and run npm run up again"
fi
FARMER_KEY="" CUSTOMER_KEY="" NOTES=()
while IFS= read -r line; do
  if [[ $line =~ ^demo\ farmer\ key:\ (flw_[^[:space:]]+)$ ]]; then FARMER_KEY=${BASH_REMATCH[1]}
  elif [[ $line =~ ^demo\ customer\ key:\ (flw_[^[:space:]]+)$ ]]; then CUSTOMER_KEY=${BASH_REMATCH[1]}
  elif [ -n "$line" ]; then NOTES+=("${line#warning: }")
  fi
done < <(printf '%s\n' "$SEED_OUT"; cat "$SEED_ERR")
[ -n "$FARMER_KEY" ] && [ -n "$CUSTOMER_KEY" ] || die "seed-demo showed no demo farmer and customer keys (it said: ${SEED_OUT:-nothing}): run npm run up -- --new-demo-keys"

# ---- 5. worker and API
# The children get their own session (setsid) so that a terminal Ctrl-C reaches them once, through us:
# the worker treats a second signal as "stop waiting for running solves".
spawn() { if command -v setsid >/dev/null 2>&1; then setsid "$@" & else "$@" & fi; }
for name in api worker; do
  if [ -s "$LOGS/$name.log" ]; then mv -f "$LOGS/$name.log" "$LOGS/$name.log.1"; fi
done
STOPPING="" STOP_AT=0 WORKER_PID="" API_PID="" TAIL_PID=""
signal_children() { local p; for p in $WORKER_PID $API_PID; do kill -s "$1" "$p" 2>/dev/null || true; done; }
# shellcheck disable=SC2317  # called from the traps
on_signal() {
  if [ -z "$STOPPING" ]; then
    STOPPING=$1 STOP_AT=$SECONDS
    log "SIG$1: stopping the API and the worker (running solves may take a while; Ctrl-C again to kill)"
    signal_children "$1"
  elif [ $((SECONDS - STOP_AT)) -ge 2 ]; then
    log "killing the API and the worker"
    signal_children KILL
  fi
}
trap 'on_signal INT' INT
trap 'on_signal TERM' TERM
trap 'on_signal TERM' HUP
trap '[ -z "$TAIL_PID" ] || kill "$TAIL_PID" 2>/dev/null || true' EXIT

spawn node dist/src/worker.js >"$LOGS/worker.log" 2>&1 8>&-
WORKER_PID=$!
spawn node dist/src/main.js >"$LOGS/api.log" 2>&1 8>&-
API_PID=$!
[ -z "$STOPPING" ] || signal_children "$STOPPING"   # a signal arrived while they were being started

alive() { kill -0 "$1" 2>/dev/null; }
nap() { sleep 0.5 8>&- & wait $! 2>/dev/null || true; }   # interruptible by the traps (without the lock fd)
# wait_for PID: sets RC to its exit status (waits again when a trapped signal interrupts the wait)
wait_for() {
  while :; do
    RC=0; wait "$1" 2>/dev/null || RC=$?
    if [ "$RC" -gt 128 ] && alive "$1"; then continue; fi
    return 0
  done
}
worker_ready() { grep -q '"msg":"worker ready"' "$LOGS/worker.log" 2>/dev/null; }
# the last lines of a child's log, so that its failure shows here
show_log_tail() {
  printf 'up: last lines of %s:\n' "$LOGS/$1.log" >&2
  tail -n 15 "$LOGS/$1.log" | sed 's/^/  | /' >&2 || true
}
# stop_and_fail NAME PID STATUS_NOTE: the child NAME ended or failed; stops both and exits with its line
stop_and_fail() {
  local name=$1 pid=$2 what=$3 other other_pid
  if [ "$name" = api ]; then other=worker other_pid=$WORKER_PID; else other=api other_pid=$API_PID; fi
  STOPPING=TERM STOP_AT=$SECONDS
  kill -TERM "$pid" "$other_pid" 2>/dev/null || true
  wait_for "$pid"; local rc=$RC
  wait_for "$other_pid"
  show_log_tail "$name"
  die "the $name $what (status $rc; the $other was stopped): see its log above (all of it: $LOGS/$name.log), fix that and run npm run up again"
}

# wait until the API answers and the worker is ready
READY_WITHIN=180
STARTED_AT=$SECONDS
while [ -z "$STOPPING" ]; do
  alive "$API_PID" || stop_and_fail api "$API_PID" "exited before it was ready"
  alive "$WORKER_PID" || stop_and_fail worker "$WORKER_PID" "exited before it was ready"
  if port_open 127.0.0.1 "$PORT" && worker_ready; then break; fi
  if [ $((SECONDS - STARTED_AT)) -ge "$READY_WITHIN" ]; then
    if port_open 127.0.0.1 "$PORT"; then stop_and_fail worker "$WORKER_PID" "was not ready within $READY_WITHIN s"; fi
    stop_and_fail api "$API_PID" "did not listen on port $PORT within $READY_WITHIN s"
  fi
  nap
done

if [ -z "$STOPPING" ]; then
  base="http://localhost:$PORT"
  B="" D="" R=""
  if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then B=$'\e[1;32m' D=$'\e[1m' R=$'\e[0m'; fi
  rule="${B}==============================================================================${R}"
  try_api=""; [ "$PORT" = 3000 ] || try_api="API=$base "
  printf '\n%s\n%s\n%s\n' "$rule" "${B}  Fallow is up${R}  (API pid $API_PID, worker pid $WORKER_PID)" "$rule"
  printf '  %-14s %s\n' "API docs" "$base/docs" "OpenAPI" "$base/openapi.json" "health" "$base/health" \
    "metrics" "$base/metrics" "queues" "$base/admin/queues (operator key)" \
    "database" "$(redact "$DATABASE_URL")" "redis" "$(redact "$REDIS_URL")"
  printf '\n'
  if [ -n "$KEY_NOTE" ]; then
    printf '  %-14s %s\n' "operator key" "${D}$FALLOW_BOOTSTRAP_KEY${R}  (FALLOW_BOOTSTRAP_KEY, $KEY_NOTE)"
  else
    printf '  %-14s %s\n' "operator key" "the one in FALLOW_BOOTSTRAP_KEY"
  fi
  printf '  %-14s %s\n' "farmer key" "${D}$FARMER_KEY${R}  (demo tenant)" "customer key" "${D}$CUSTOMER_KEY${R}  (demo tenant)"
  printf '  %-14s %s\n' "try it" "${try_api}FARMER=$FARMER_KEY CUSTOMER=$CUSTOMER_KEY bash examples/walkthrough.sh"
  printf '\n'
  for note in ${NOTES[@]+"${NOTES[@]}"}; do printf '  %-14s %s\n' "note" "$note"; done
  if [ -n "$FOLLOW_LOGS" ]; then
    printf '  %-14s %s\n' "logs" "$LOGS/api.log and worker.log, followed below"
  else
    printf '  %-14s %s\n' "logs" "tail -f $LOGS/api.log $LOGS/worker.log   (npm run up -- --logs follows them here)"
  fi
  printf '%s\n%s\n\n' "$rule" "  Ctrl-C stops both."
  if [ -n "$FOLLOW_LOGS" ]; then
    tail -n 0 -F "$LOGS/api.log" "$LOGS/worker.log" 8>&- &
    TAIL_PID=$!
  fi
fi

# supervise: the first child to exit (or a signal) stops the other
while [ -z "$STOPPING" ]; do
  alive "$API_PID" || stop_and_fail api "$API_PID" "exited"
  alive "$WORKER_PID" || stop_and_fail worker "$WORKER_PID" "exited"
  nap
done

wait_for "$WORKER_PID"; worker_rc=$RC
wait_for "$API_PID"; api_rc=$RC
log "stopped (api status $api_rc, worker status $worker_rc)"
clean() { [ "$1" -eq 0 ] || [ "$1" -eq 130 ] || [ "$1" -eq 143 ]; }
if clean "$api_rc" && clean "$worker_rc"; then exit 0; fi
die "the api or the worker did not stop cleanly (api status $api_rc, worker status $worker_rc): see $LOGS/api.log and $LOGS/worker.log"
