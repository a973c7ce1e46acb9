#!/usr/bin/env bash
# Installs curl from Debian's packages when it is missing (the bench's client of the bytes path).
set -euo pipefail
if command -v curl >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "curl is missing: install it (Debian/Ubuntu: apt-get install curl)" >&2
  exit 1
fi
echo "installing curl from Debian's packages..." >&2
apt-get update -qq
apt-get install -y -qq curl >/dev/null
