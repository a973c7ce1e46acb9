#!/usr/bin/env bash
# The embedded single-machine default: gateway and workers in one process, SQLite and files under
# DATA_DIR, and a redis-server child unless REDIS_URL is set.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${REDIS_URL:-}" ]; then bash scripts/ensure-redis.sh; fi
bash scripts/build.sh
exec node dist/bin/standalone.js
