#!/usr/bin/env bash
# The whole test suite: builds, then runs mocha against real redis-server, s3rver and SQLite
# (and MongoDB too when MONGODB_URI is set). Arguments, when given, replace the default spec.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-redis.sh
bash scripts/ensure-update-clients.sh
bash scripts/ensure-package-managers.sh
bash scripts/ensure-chromium.sh
bash scripts/build.sh
if [ "$#" -eq 0 ]; then set -- 'dist/test/**/*.test.js'; fi
exec npx mocha "$@"
