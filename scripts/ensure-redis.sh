#!/usr/bin/env bash
# Installs redis-server from Debian's packages when it is missing (the service always runs a real Redis).
set -euo pipefail
if command -v redis-server >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "redis-server is missing: install it (Debian/Ubuntu: apt-get install redis-server) or set REDIS_URL" >&2
  exit 1
fi
echo "installing redis-server from Debian's packages..." >&2
apt-get update -qq
apt-get install -y -qq redis-server >/dev/null
