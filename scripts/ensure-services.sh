#!/usr/bin/env bash
# Makes sure a PostgreSQL and a Redis are reachable and writes .tmp/services.env with
#   export DATABASE_URL=...
#   export REDIS_URL=...
# for callers to `source`. Idempotent: run it as often as you like.
#
# Usage: bash scripts/ensure-services.sh          ensure both services, print one line per service
#        bash scripts/ensure-services.sh --stop   stop the private instances started from .tmp/
#
# PostgreSQL, first that works:
#   a. $DATABASE_URL if it answers (its database is created if only the database is missing);
#   b. postgres://postgres@127.0.0.1:5432, using database ${FALLOW_DB_NAME:-fallow} (created if missing);
#   c. a Debian cluster "main" (pg_lsclusters): started with pg_ctlcluster if it is down, then as in b;
#   d. a private instance: initdb into .tmp/pg (trust auth), listening on 127.0.0.1:${FALLOW_PG_PORT:-54329}
#      with its socket in .tmp/pg-socket, log in .tmp/pg.log (run as the 'postgres' user when root);
#   e. no PostgreSQL binaries at all: when root with apt-get, `apt-get install postgresql`, then d.
# Redis, first that works: $REDIS_URL; redis://127.0.0.1:6379; a private redis-server on
#   127.0.0.1:${FALLOW_REDIS_PORT:-63799} (no persistence, pid/log in .tmp); apt-get install redis-server, then private.
#
# Environment: FALLOW_PRIVATE_SERVICES=1 skips a-c (and the Redis equivalents) and always uses the private
# instances; FALLOW_NO_INSTALL=1 never runs apt-get; FALLOW_DB_NAME (default fallow); FALLOW_PG_PORT,
# FALLOW_REDIS_PORT (private ports); FALLOW_PG_CLIENT=psql|node forces how SQL is sent (default: psql if
# installed, else node with the project's `pg` module).
# The private PostgreSQL runs with fsync=off: it is a throwaway development/test instance.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TMP="$ROOT/.tmp"
ENV_FILE="$TMP/services.env"
DB_NAME="${FALLOW_DB_NAME:-fallow}"
PG_PORT="${FALLOW_PG_PORT:-54329}"
REDIS_PORT="${FALLOW_REDIS_PORT:-63799}"
DEFAULT_PG="postgres://postgres@127.0.0.1:5432"
DEFAULT_REDIS="redis://127.0.0.1:6379"
REDIS_PIDFILE="$TMP/redis.pid"
REDIS_LOG="$TMP/redis.log"
ERR_FILE="$TMP/.ensure-services.err"

warn() { printf 'ensure-services: %s\n' "$*" >&2; }
die() { warn "$*"; exit 1; }
is_root() { [ "$(id -u)" -eq 0 ]; }
rel() { case "$1" in "$ROOT"/*) printf '%s' "${1#"$ROOT"/}" ;; *) printf '%s' "$1" ;; esac; }
redact() { printf '%s' "$1" | sed -E 's#^([a-z]+://[^:/@]*):[^@/]*@#\1:***@#'; }
last_error() { if [ -s "$ERR_FILE" ]; then grep -v '^[[:space:]]' "$ERR_FILE" | tail -n 1 | sed 's/^/: /' || true; fi; }
join_tried() { local out="" t; for t in "$@"; do out="${out:+$out; }$t"; done; printf '%s' "$out"; }
with_timeout() { if command -v timeout >/dev/null 2>&1; then timeout "$@"; else shift; "$@"; fi; }

case "${1:-}" in
  ""|--stop) ;;
  -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  *) die "unknown argument '$1' (use --stop or --help)" ;;
esac

mkdir -p "$TMP"
if command -v flock >/dev/null 2>&1; then
  # (fd 9 is closed for everything that may leave a daemon behind, or the daemon would hold the lock)
  exec 9>"$TMP/.ensure-services.lock"
  flock -w 300 9 || die "another ensure-services run holds $(rel "$TMP")/.ensure-services.lock"
fi
: >"$ERR_FILE"   # stderr of the probes, kept when we fail

# ---------------------------------------------------------------- generic helpers

# shellcheck disable=SC2016  # $0/$1 belong to the inner bash
tcp_open() { with_timeout 3 bash -c 'exec 3<>"/dev/tcp/$0/$1"' "$1" "$2" 2>/dev/null; }

PG_URL_RE='^(postgres(ql)?://([^/?]*))(/([^?]*))?(\?.*)?$'
url_db() { if [[ $1 =~ $PG_URL_RE ]]; then printf '%s' "${BASH_REMATCH[5]}"; fi; }
url_with_db() { if [[ $1 =~ $PG_URL_RE ]]; then printf '%s/%s%s' "${BASH_REMATCH[1]}" "$2" "${BASH_REMATCH[6]}"; else printf '%s' "$1"; fi; }
# "host port" of a postgres:// or redis:// URL (empty host: unix socket / not parseable)
url_host_port() {
  local rest=${1#*://} hp host port
  hp=${rest%%[/?]*}; hp=${hp##*@}
  if [[ $hp =~ ^\[([^]]*)\](:([0-9]+))?$ ]]; then host=${BASH_REMATCH[1]}; port=${BASH_REMATCH[3]}
  elif [[ $hp == *:* ]]; then host=${hp%%:*}; port=${hp##*:}
  else host=$hp; port=""; fi
  printf '%s %s' "$host" "${port:-$2}"
}

# ---------------------------------------------------------------- PostgreSQL

# Directory holding the server binaries (initdb, pg_ctl, postgres); $1 = wanted major version (optional).
find_pgbin() {
  local want=${1:-} d
  if [ -n "$want" ]; then
    for d in "/usr/lib/postgresql/$want/bin" "/usr/pgsql-$want/bin"; do
      if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then printf '%s' "$d"; return 0; fi
    done
  fi
  local cands=()
  if command -v pg_config >/dev/null 2>&1; then cands+=("$(pg_config --bindir 2>/dev/null || true)"); fi
  if command -v initdb >/dev/null 2>&1; then cands+=("$(dirname "$(command -v initdb)")"); fi
  while IFS= read -r d; do cands+=("$d"); done < <(
    shopt -s nullglob; printf '%s\n' /usr/lib/postgresql/*/bin /usr/pgsql-*/bin /usr/local/pgsql/bin | sort -rV)
  for d in "${cands[@]}"; do
    if [ -z "$d" ] || [ ! -x "$d/initdb" ] || [ ! -x "$d/pg_ctl" ]; then continue; fi
    if [ -z "$want" ] || [ "$("$d/pg_ctl" --version | sed -E 's/^[^0-9]*([0-9]+).*/\1/')" = "$want" ]; then
      printf '%s' "$d"; return 0
    fi
  done
  return 1
}

PSQL=""
find_psql() {
  PSQL=""
  [ "${FALLOW_PG_CLIENT:-}" = node ] && return 0
  local bin
  if command -v psql >/dev/null 2>&1 && psql --version >/dev/null 2>&1; then PSQL=$(command -v psql)
  elif bin=$(find_pgbin) && [ -x "$bin/psql" ]; then PSQL="$bin/psql"; fi
}
have_node_pg() { command -v node >/dev/null 2>&1 && [ -d "$ROOT/node_modules/pg" ]; }

# pg_query URL SQL: prints the first column of each row. 0 ok, 1 failed, 2 no SQL client available.
pg_query() {
  if [ -n "$PSQL" ]; then
    PGCONNECT_TIMEOUT=5 "$PSQL" -X -q -t -A -v ON_ERROR_STOP=1 -d "$1" -c "$2" 2>>"$ERR_FILE" || return 1
  elif have_node_pg; then
    (cd "$ROOT" && Q_URL="$1" Q_SQL="$2" node -e '
      const { Client } = require("pg");
      const c = new Client({ connectionString: process.env.Q_URL, connectionTimeoutMillis: 5000 });
      c.connect().then(() => c.query(process.env.Q_SQL))
        .then((r) => { for (const row of r.rows || []) console.log(String(Object.values(row)[0])); return c.end(); })
        .then(() => process.exit(0), (e) => { console.error(e.message); process.exit(1); });' 2>>"$ERR_FILE") || return 1
  else
    return 2
  fi
}

PG_UNVERIFIED=""
# pg_answers URL: the server answers and the URL's database accepts `select 1`.
pg_answers() {
  local rc=0 out
  out=$(pg_query "$1" 'select 1') || rc=$?
  if [ "$rc" -eq 2 ]; then   # no SQL client: settle for an open TCP port
    local host port; read -r host port <<<"$(url_host_port "$1" 5432)"
    [ -n "$host" ] && [[ $host != /* ]] && tcp_open "$host" "$port" && PG_UNVERIFIED=1 && return 0
    return 1
  fi
  [ "$rc" -eq 0 ] && [ "$out" = 1 ]
}

# pg_ensure_db URL: the URL's database exists (created through the 'postgres' database if it is missing).
pg_ensure_db() {
  local url=$1 db maint lit ident
  db=$(url_db "$url")
  [ -n "$db" ] || return 0
  [[ $db =~ ^[A-Za-z0-9_.-]+$ ]] || { warn "not creating database '$db' (unusual name)"; return 1; }
  lit=${db//\'/\'\'}; ident=${db//\"/\"\"}
  for maint in postgres template1; do
    maint=$(url_with_db "$url" "$maint")
    local rc=0 exists
    exists=$(pg_query "$maint" "select 1 from pg_database where datname = '$lit'") || rc=$?
    [ "$rc" -eq 2 ] && return 0        # no client: cannot check, let the caller find out
    [ "$rc" -eq 0 ] || continue
    [ "$exists" = 1 ] && return 0
    pg_query "$maint" "create database \"$ident\"" >/dev/null && { PG_CREATED=1; return 0; }
    # lost a race with a concurrent creator?
    [ "$(pg_query "$maint" "select 1 from pg_database where datname = '$lit'" || true)" = 1 ] && return 0
    return 1
  done
  return 1
}

PG_CREATED=""
# pg_try_server BASE_URL(without database): database $DB_NAME on that server.
pg_try_server() {
  local url="$1/$DB_NAME"
  pg_answers "$(url_with_db "$url" postgres)" || pg_answers "$(url_with_db "$url" template1)" || return 1
  pg_ensure_db "$url" || return 1
  pg_answers "$url" || return 1
  PG_URL=$url
}

# ---- private instance (d/e)
PG_BASE_FILE="$TMP/pg.base"   # where the private instance lives when it cannot live in .tmp itself
pg_base_dir() {
  if [ -s "$PG_BASE_FILE" ]; then cat "$PG_BASE_FILE"; else printf '%s' "$TMP"; fi
}
pg_owner_run() { # user cmd...: run as user (or as ourselves when user is empty / ourselves)
  local user=$1; shift
  if [ -z "$user" ] || [ "$user" = "$(id -un)" ]; then "$@"
  elif command -v runuser >/dev/null 2>&1; then (cd / && runuser -u "$user" -- "$@")
  else (cd / && su -s /bin/sh "$user" -c "$(printf '%q ' "$@")"); fi
}

pg_private() {
  local base data sock log user="" bin want="" port="$PG_PORT"
  base=$(pg_base_dir)
  data="$base/pg"
  [ -s "$data/PG_VERSION" ] && want=$(cat "$data/PG_VERSION")
  if ! bin=$(find_pgbin "$want"); then
    if [ -n "$want" ] && find_pgbin >/dev/null; then
      die "cannot provide PostgreSQL: $(rel "$data") was made by PostgreSQL $want, whose binaries are gone; remove it (rm -rf '$data') or install PostgreSQL $want"
    fi
    return 2
  fi
  if [ -n "$want" ]; then user=$(stat -c %U "$data")
  elif is_root; then
    id -u postgres >/dev/null 2>&1 || return 3   # initdb refuses to run as root
    user=postgres
  fi

  # A root user's checkout may be unreachable for the postgres user (e.g. under /root): live in /tmp then.
  if [ -n "$user" ] && [ "$user" != "$(id -un)" ] && ! pg_owner_run "$user" test -x "$base" 2>/dev/null; then
    base="${TMPDIR:-/tmp}/fallow-pg-$(printf '%s' "$ROOT" | cksum | cut -d' ' -f1)"
    mkdir -p "$base"; chmod 755 "$base"; printf '%s' "$base" >"$PG_BASE_FILE"
    data="$base/pg"; want=""
    [ -s "$data/PG_VERSION" ] && want=$(cat "$data/PG_VERSION") && bin=$(find_pgbin "$want")
  fi
  sock="$base/pg-socket"
  if [ "${#sock}" -gt 90 ]; then   # unix socket paths are limited to ~107 bytes
    sock="${TMPDIR:-/tmp}/fallow-pgsock-$(printf '%s' "$ROOT" | cksum | cut -d' ' -f1)"
  fi
  log="$base/pg.log"
  mkdir -p "$sock"; touch "$log"
  if [ -n "$user" ] && is_root; then chown "$user" "$sock" "$log"; fi

  if [ ! -s "$data/PG_VERSION" ]; then
    rm -rf "$data"; mkdir -p "$data"; chmod 700 "$data"
    if [ -n "$user" ] && is_root; then chown "$user" "$data"; fi
    pg_owner_run "$user" "$bin/initdb" -D "$data" -U postgres -A trust -E UTF8 --locale=C >"$base/initdb.log" 2>&1 ||
      die "cannot provide PostgreSQL: initdb failed (see $(rel "$base/initdb.log")): $(tail -n 3 "$base/initdb.log" | tr '\n' ' ')"
    printf "\n# fallow: settings for the private instance, rewritten by scripts/ensure-services.sh\ninclude_if_exists = 'fallow.conf'\n" >>"$data/postgresql.conf"
  fi
  {
    echo "# written by scripts/ensure-services.sh on each start"
    echo "listen_addresses = '127.0.0.1'"
    echo "port = $PG_PORT"
    echo "unix_socket_directories = '$sock'"
    echo "max_connections = 200"
    echo "fsync = off"
    echo "synchronous_commit = off"
    echo "full_page_writes = off"
  } >"$data/fallow.conf"
  chmod 644 "$data/fallow.conf"

  if pg_owner_run "$user" "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
    port=$(sed -n 4p "$data/postmaster.pid" 2>/dev/null || true); port=${port:-$PG_PORT}
    PG_HOW="private instance already running ($(rel "$data"), 127.0.0.1:$port)"
  elif tcp_open 127.0.0.1 "$PG_PORT"; then
    if pg_try_server "postgres://postgres@127.0.0.1:$PG_PORT"; then
      PG_HOW="private port 127.0.0.1:$PG_PORT already answers (not started from $(rel "$data"))"; return 0
    fi
    die "cannot provide PostgreSQL: 127.0.0.1:$PG_PORT is taken by something else; set FALLOW_PG_PORT to a free port"
  else
    pg_owner_run "$user" "$bin/pg_ctl" -D "$data" -l "$log" -w -t 60 start >>"$ERR_FILE" 2>&1 9>&- ||
      die "cannot provide PostgreSQL: the private instance did not start (see $(rel "$log")): $(tail -n 3 "$log" | tr '\n' ' ')"
    PG_HOW="started private instance ($(rel "$data"), 127.0.0.1:$port, log $(rel "$log"))"
  fi
  pg_try_server "postgres://postgres@127.0.0.1:$port" ||
    die "cannot provide PostgreSQL: the private instance on 127.0.0.1:$port does not answer$(last_error)"
}

# apt_install PKG...: the Debian packages, when this may install them (APT_WHY says why not)
# shellcheck source=scripts/apt-install.sh
source "$ROOT/scripts/apt-install.sh"

ensure_postgres() {
  PG_URL=""; PG_HOW=""
  local tried=() rc
  find_psql
  if [ -z "${FALLOW_PRIVATE_SERVICES:-}" ]; then
    # (a) DATABASE_URL
    if [ -n "${DATABASE_URL:-}" ]; then
      if pg_answers "$DATABASE_URL" || { pg_answers "$(url_with_db "$DATABASE_URL" postgres)" && pg_ensure_db "$DATABASE_URL" && pg_answers "$DATABASE_URL"; }; then
        PG_URL=$DATABASE_URL; PG_HOW="DATABASE_URL${PG_CREATED:+ (database created)}"; return 0
      fi
      warn "DATABASE_URL=$(redact "$DATABASE_URL") does not answer$(last_error); trying the alternatives"
      tried+=("DATABASE_URL does not answer")
    fi
    # (b) the default local server
    if pg_try_server "$DEFAULT_PG"; then
      PG_HOW="server on 127.0.0.1:5432, database $DB_NAME${PG_CREATED:+ (created)}"; return 0
    fi
    tried+=("nothing usable on 127.0.0.1:5432")
    # (c) Debian clusters
    if command -v pg_lsclusters >/dev/null 2>&1 && command -v pg_ctlcluster >/dev/null 2>&1; then
      local line ver name port status
      local clusters=(); mapfile -t clusters < <(pg_lsclusters -h 2>/dev/null || true)
      for line in "${clusters[@]}"; do
        read -r ver name port status _ <<<"$line"
        [ "$name" = main ] || continue
        local how="Debian cluster $ver/main already running"
        if [[ $status != online* ]]; then
          if ! pg_ctlcluster --skip-systemctl-redirect "$ver" main start >>"$ERR_FILE" 2>&1 9>&-; then
            tried+=("could not start Debian cluster $ver/main"); continue
          fi
          how="started Debian cluster $ver/main"
        elif [ "$port" = 5432 ]; then
          continue   # already tried as (b)
        fi
        if pg_try_server "postgres://postgres@127.0.0.1:$port"; then
          PG_HOW="$how (127.0.0.1:$port, database $DB_NAME${PG_CREATED:+ created})"; return 0
        fi
        tried+=("$how but postgres@127.0.0.1:$port does not let us in")
      done
    fi
  fi
  # (d) private instance, (e) after installing the binaries
  rc=0; pg_private || rc=$?
  if [ "$rc" -eq 2 ]; then
    APT_WHY=""
    if apt_install postgresql; then
      find_psql; rc=0; pg_private || rc=$?
      [ "$rc" -ne 2 ] || tried+=("apt-get installed postgresql but no server binaries (initdb/pg_ctl) were found")
    else tried+=("no PostgreSQL server binaries (initdb/pg_ctl) found, $APT_WHY"); fi
  fi
  if [ "$rc" -eq 3 ]; then tried+=("running as root but there is no 'postgres' user to run a private instance as"); fi
  if [ "$rc" -ne 0 ]; then
    die "cannot provide PostgreSQL: $(join_tried "${tried[@]}"). Set DATABASE_URL to a reachable server or install PostgreSQL (apt-get install postgresql)."
  fi
}

# ---------------------------------------------------------------- Redis

find_tool() { # name: a working binary from PATH or the usual places
  local c
  for c in "$(command -v "$1" 2>/dev/null || true)" /usr/bin/"$1" /usr/local/bin/"$1" /usr/sbin/"$1" /usr/local/sbin/"$1"; do
    if [ -n "$c" ] && [ -f "$c" ] && [ -x "$c" ] && "$c" --version >/dev/null 2>&1; then printf '%s' "$c"; return 0; fi
  done
  return 1
}
find_redis_server() { find_tool redis-server; }
find_redis_cli() { find_tool redis-cli; }

redis_answers() {
  local url=$1 cli out=""
  if cli=$(find_redis_cli); then
    out=$(with_timeout 5 "$cli" --no-auth-warning -u "$url" ping 2>>"$ERR_FILE" || true)
    [ "$out" = PONG ]; return
  fi
  # no redis-cli: speak RESP over /dev/tcp (plain TCP only)
  [[ $url == redis://* ]] || return 1
  local host port userinfo="" pass=""
  read -r host port <<<"$(url_host_port "$url" 6379)"
  local rest=${url#*://}; rest=${rest%%[/?]*}
  [[ $rest == *@* ]] && userinfo=${rest%@*}
  [[ $userinfo == *:* ]] && pass=${userinfo#*:}
  [ -n "$host" ] || return 1
  # shellcheck disable=SC2016  # the inner script's variables
  out=$(with_timeout 5 bash -c '
    exec 3<>"/dev/tcp/$0/$1" || exit 1
    if [ -n "$2" ]; then printf "AUTH %s\r\n" "$2" >&3; read -r _ <&3; fi
    printf "PING\r\n" >&3; read -r line <&3; printf "%s" "${line%$'"'"'\r'"'"'}"' "$host" "$port" "$pass" 2>/dev/null || true)
  [ "$out" = +PONG ]
}

redis_pid_alive() {
  local pid
  [ -s "$REDIS_PIDFILE" ] || return 1
  pid=$(cat "$REDIS_PIDFILE")
  [[ $pid =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null && [[ "$(cat "/proc/$pid/comm" 2>/dev/null || ps -p "$pid" -o comm= 2>/dev/null || true)" == redis* ]]
}

redis_private() {
  local bin url="redis://127.0.0.1:$REDIS_PORT"
  if redis_pid_alive && redis_answers "$url"; then
    REDIS_URL_OUT=$url; REDIS_HOW="private redis-server already running (127.0.0.1:$REDIS_PORT, pid $(cat "$REDIS_PIDFILE"))"; return 0
  fi
  if redis_answers "$url"; then
    REDIS_URL_OUT=$url; REDIS_HOW="private port 127.0.0.1:$REDIS_PORT already answers (not started from .tmp)"; return 0
  fi
  bin=$(find_redis_server) || return 2
  if tcp_open 127.0.0.1 "$REDIS_PORT"; then
    die "cannot provide Redis: 127.0.0.1:$REDIS_PORT is taken by something else; set FALLOW_REDIS_PORT to a free port"
  fi
  rm -f "$REDIS_PIDFILE"
  "$bin" --daemonize yes --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no \
    --dir "$TMP" --pidfile "$REDIS_PIDFILE" --logfile "$REDIS_LOG" >>"$ERR_FILE" 2>&1 9>&- ||
    die "cannot provide Redis: redis-server did not start$(last_error) (see $(rel "$REDIS_LOG"))"
  for _ in $(seq 1 50); do
    if redis_answers "$url"; then
      REDIS_URL_OUT=$url; REDIS_HOW="started private redis-server (127.0.0.1:$REDIS_PORT, log $(rel "$REDIS_LOG"))"; return 0
    fi
    sleep 0.2
  done
  die "cannot provide Redis: the private redis-server on 127.0.0.1:$REDIS_PORT does not answer (see $(rel "$REDIS_LOG"))"
}

ensure_redis() {
  REDIS_URL_OUT=""; REDIS_HOW=""
  local tried=() rc
  if [ -z "${FALLOW_PRIVATE_SERVICES:-}" ]; then
    if [ -n "${REDIS_URL:-}" ]; then
      if redis_answers "$REDIS_URL"; then REDIS_URL_OUT=$REDIS_URL; REDIS_HOW="REDIS_URL"; return 0; fi
      warn "REDIS_URL=$(redact "$REDIS_URL") does not answer; trying the alternatives"
      tried+=("REDIS_URL does not answer")
    fi
    if redis_answers "$DEFAULT_REDIS"; then REDIS_URL_OUT=$DEFAULT_REDIS; REDIS_HOW="server on 127.0.0.1:6379"; return 0; fi
    tried+=("nothing answers on 127.0.0.1:6379")
  fi
  rc=0; redis_private || rc=$?
  if [ "$rc" -eq 2 ]; then
    APT_WHY=""
    if apt_install redis-server; then
      # the package may start its own service on 6379; we still use a private one (known config, no persistence)
      rc=0; redis_private || rc=$?
      [ "$rc" -ne 2 ] || tried+=("apt-get installed redis-server but no redis-server binary was found")
    else tried+=("no redis-server binary found, $APT_WHY"); fi
  fi
  if [ "$rc" -ne 0 ]; then
    die "cannot provide Redis: $(join_tried "${tried[@]}"). Set REDIS_URL to a reachable server or install Redis (apt-get install redis-server)."
  fi
}

# ---------------------------------------------------------------- --stop

stop_private() {
  local base data user bin stopped=0 pid
  base=$(pg_base_dir); data="$base/pg"
  if [ -s "$data/PG_VERSION" ] && [ -f "$data/postmaster.pid" ]; then
    user=$(stat -c %U "$data")
    if bin=$(find_pgbin "$(cat "$data/PG_VERSION")") && pg_owner_run "$user" "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
      pg_owner_run "$user" "$bin/pg_ctl" -D "$data" -m fast -w -t 60 stop >/dev/null ||
        die "could not stop the private PostgreSQL ($(rel "$data"))"
      echo "postgres: stopped private instance ($(rel "$data"))"; stopped=1
    fi
  fi
  [ "$stopped" = 1 ] || echo "postgres: no private instance running"
  if redis_pid_alive; then
    pid=$(cat "$REDIS_PIDFILE")
    kill -TERM "$pid"
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -0 "$pid" 2>/dev/null && die "private redis-server (pid $pid) did not stop"
    rm -f "$REDIS_PIDFILE"
    echo "redis: stopped private redis-server (pid $pid)"; stopped=1
  else
    echo "redis: no private redis-server running"
  fi
  # services.env may point at what we just stopped
  if [ "$stopped" = 1 ] && [ -f "$ENV_FILE" ] && grep -qE "127\.0\.0\.1:($PG_PORT|$REDIS_PORT)" "$ENV_FILE"; then rm -f "$ENV_FILE"; fi
  rm -f "$ERR_FILE"
}

# ---------------------------------------------------------------- main

if [ "${1:-}" = --stop ]; then stop_private; exit 0; fi

ensure_postgres
echo "postgres: ${PG_HOW}${PG_UNVERIFIED:+ (only the port was checked: no psql)}: $(redact "$PG_URL")"
ensure_redis
echo "redis: ${REDIS_HOW}: $(redact "$REDIS_URL_OUT")"

{
  echo "# written by scripts/ensure-services.sh; source it"
  printf 'export DATABASE_URL=%q\n' "$PG_URL"
  printf 'export REDIS_URL=%q\n' "$REDIS_URL_OUT"
} >"$ENV_FILE.$$"
mv -f "$ENV_FILE.$$" "$ENV_FILE"
rm -f "$ERR_FILE"
