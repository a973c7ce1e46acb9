#!/usr/bin/env bash
# Builds the browser apps (web/: the console and the customers' portal) into dist/public/ when a
# source of theirs, or the contract they are typed from, changed since the last build: type-checked
# by tsc (web/tsconfig.json) when TypeScript is installed, then bundled by esbuild (web/build.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d web ] || exit 0
stamp=dist/public/.build-stamp
if [ -f "$stamp" ] && [ -z "$(find web shared/contract shared/scopes.ts shared/webhooks/event-types.ts -newer "$stamp" -type f -print -quit)" ]; then
  exit 0
fi
mkdir -p dist/public
touch "$stamp.next"
if [ -x node_modules/.bin/tsc ]; then
  echo "build: type-checking web/..."
  node_modules/.bin/tsc -p web/tsconfig.json
fi
node web/build.mjs
mv "$stamp.next" "$stamp"
