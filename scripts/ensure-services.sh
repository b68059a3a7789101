#!/usr/bin/env bash
# Reuses Postgres and Redis when DATABASE_URL / REDIS_URL (or the defaults) answer; otherwise starts
# local ones if the binaries are installed. The engine tests need neither; the service tests need both.
set -uo pipefail
DB_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
REDIS="${REDIS_URL:-redis://127.0.0.1:6379}"

pg_up() { command -v pg_isready >/dev/null && pg_isready -d "$DB_URL" -q; }
redis_up() { command -v redis-cli >/dev/null && redis-cli -u "$REDIS" ping 2>/dev/null | grep -q PONG; }

if ! pg_up && command -v pg_ctlcluster >/dev/null; then
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
fi
if ! redis_up && command -v redis-server >/dev/null; then
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no || true
fi
pg_up && echo "postgres: up ($DB_URL)" || echo "postgres: not reachable"
redis_up && echo "redis: up ($REDIS)" || echo "redis: not reachable"
exit 0
