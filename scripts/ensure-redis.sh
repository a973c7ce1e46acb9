#!/usr/bin/env bash
# Installs redis-server from Debian's packages when it is missing (the service always runs a real Redis).
set -euo pipefail
exec bash "$(dirname "$0")/ensure-debian-command.sh" redis-server redis-server 'set REDIS_URL'
