#!/usr/bin/env bash
# The update clients the feed tests drive (electron-updater, and Tauri's CLI with its native binary
# for this machine) are dev dependencies: installs them when they are missing or do not run here.
set -euo pipefail
cd "$(dirname "$0")/.."
if node -e "require.resolve('electron-updater')" >/dev/null 2>&1 \
  && node node_modules/@tauri-apps/cli/tauri.js --version >/dev/null 2>&1; then
  exit 0
fi
echo "installing the update clients the tests drive (npm install)..." >&2
npm install --no-audit --no-fund >/dev/null
