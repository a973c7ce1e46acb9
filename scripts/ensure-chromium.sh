#!/usr/bin/env bash
# Installs Debian's chromium when it is missing: the browser tests drive the console and the portal
# in a real headless Chromium (playwright-core, pointed at this binary; CHROMIUM_PATH overrides it).
set -euo pipefail
if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "$CHROMIUM_PATH" ]; then exit 0; fi
if command -v chromium >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "chromium is missing: install it (Debian/Ubuntu: apt-get install chromium) or set CHROMIUM_PATH" >&2
  exit 1
fi
echo "installing chromium from Debian's packages..." >&2
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
