#!/usr/bin/env bash
# What the update-feed tests run as vendors and update clients would, installed when missing (by
# `npm test`; run it once before running such a test file alone). Not dependencies of the service:
# `npm install` leaves them out. One line per tool: the package to install, then the file that shows
# it is there. They are installed without saving (`npm install --no-save`): a later `npm install`
# removes them again, and the next test run puts them back.
set -euo pipefail
cd "$(dirname "$0")/.."
ON_DEMAND=(
  "app-builder-bin@^4.2.0 app-builder-bin/package.json"        # electron-builder's helper: block maps as electron-builder writes them
  "@tauri-apps/cli@^2.12.5 @tauri-apps/cli/tauri.js"           # Tauri's CLI: update signatures as a vendor makes them
  "app-builder-lib@^26.17.0 app-builder-lib/package.json"      # electron-builder's publish path, driving the bds publisher
  "@electron-forge/publisher-base@^8.0.1 @electron-forge/publisher-base"  # electron-forge's publisher base (an ES module: Node 20.19+ requires it), the bds forge publisher derives from it
)
missing=()
for line in "${ON_DEMAND[@]}"; do
  read -r package marker <<<"$line"
  if ! node -e "require.resolve(process.argv[1])" "$marker" >/dev/null 2>&1; then missing+=("$package"); fi
done
# Tauri's CLI runs through a native binary of its own, an optional package for this machine.
if ! [[ " ${missing[*]-} " == *" @tauri-apps/cli@"* ]] && ! node node_modules/@tauri-apps/cli/tauri.js --version >/dev/null 2>&1; then
  missing+=("@tauri-apps/cli@^2.12.5")
fi
if [ "${#missing[@]}" -gt 0 ]; then
  # All of them in one install: npm prunes the packages it was not told of, those installed before without saving too.
  everything=()
  for line in "${ON_DEMAND[@]}"; do read -r package _ <<<"$line"; everything+=("$package"); done
  echo "installing what the update-feed tests drive (npm install --no-save ${everything[*]})..." >&2
  npm install --no-save --no-audit --no-fund "${everything[@]}" >/dev/null
fi
# The update clients themselves (electron-updater, Velopack's) are dev dependencies: their types are compiled with the tests.
if ! node -e "require.resolve('electron-updater')" >/dev/null 2>&1; then
  echo "electron-updater is missing: run npm install" >&2
  exit 1
fi
bash scripts/ensure-debian-command.sh minisign
# python3-securesystemslib: the second implementation the TUF metadata's keys and signatures are checked with.
if ! /usr/bin/python3 -c 'import securesystemslib' >/dev/null 2>&1; then
  if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "python3-securesystemslib is missing: install it (Debian/Ubuntu: apt-get install python3-securesystemslib)" >&2
    exit 1
  fi
  echo "installing python3-securesystemslib from Debian's packages..." >&2
  apt-get update -qq
  apt-get install -y -qq python3-securesystemslib >/dev/null
fi
