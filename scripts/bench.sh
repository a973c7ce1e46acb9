#!/usr/bin/env bash
# `npm run bench`: installs what the bench drives when it is missing (redis-server, which it starts
# itself, and curl, the client of the bytes-path figures), builds, then runs it. Arguments go to the
# bench.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-redis.sh
bash scripts/ensure-debian-command.sh curl
bash scripts/build.sh
exec node dist/bench/run.js "$@"
