#!/usr/bin/env bash
# What the update-feed tests run as the clients would: electron-updater and Tauri's CLI (dev
# dependencies, with the CLI's native binary for this machine), and minisign, the verifier Tauri's
# updater embeds, and python3-securesystemslib, the second implementation the TUF metadata is checked
# with, from Debian's packages. Installs whatever is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! node -e "require.resolve('electron-updater')" >/dev/null 2>&1 \
  || ! node node_modules/@tauri-apps/cli/tauri.js --version >/dev/null 2>&1; then
  echo "installing the update clients the tests drive (npm install)..." >&2
  npm install --no-audit --no-fund >/dev/null
fi
bash scripts/ensure-debian-command.sh minisign
if ! /usr/bin/python3 -c 'import securesystemslib' >/dev/null 2>&1; then
  if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "python3-securesystemslib is missing: install it (Debian/Ubuntu: apt-get install python3-securesystemslib)" >&2
    exit 1
  fi
  echo "installing python3-securesystemslib from Debian's packages..." >&2
  apt-get update -qq
  apt-get install -y -qq python3-securesystemslib >/dev/null
fi
