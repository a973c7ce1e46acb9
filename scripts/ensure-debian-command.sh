#!/usr/bin/env bash
# Installs a command from Debian's packages when it is missing, as root with apt-get; otherwise says
# what to install and fails. Usage: ensure-debian-command.sh <command> [<package>] [<another way>]
# (the package is the command's name unless given; another way, such as "set REDIS_URL", is named too).
set -euo pipefail
name="$1"
package="${2:-$1}"
other="${3:-}"
if command -v "$name" >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "$name is missing: install it (Debian/Ubuntu: apt-get install $package)${other:+ or $other}" >&2
  exit 1
fi
echo "installing $package from Debian's packages..." >&2
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package" >/dev/null
