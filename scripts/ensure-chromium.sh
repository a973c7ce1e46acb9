#!/usr/bin/env bash
# Installs Debian's chromium when it is missing: the browser tests drive the console and the portal
# in a real headless Chromium (playwright-core, pointed at this binary; CHROMIUM_PATH overrides it).
set -euo pipefail
if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "$CHROMIUM_PATH" ]; then exit 0; fi
exec bash "$(dirname "$0")/ensure-debian-command.sh" chromium chromium 'set CHROMIUM_PATH'
