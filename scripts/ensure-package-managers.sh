#!/usr/bin/env bash
# What the package-repository tests run as customers would: apt (apt-get, dpkg-deb, gpgv) and dnf
# (dnf, rpm, rpmbuild, gpg), from Debian's packages. Installs whatever is missing.
set -euo pipefail
missing=()
command -v dpkg-deb >/dev/null 2>&1 || missing+=(dpkg)
command -v apt-get >/dev/null 2>&1 || missing+=(apt)
command -v gpgv >/dev/null 2>&1 || missing+=(gpgv)
command -v gpg >/dev/null 2>&1 || missing+=(gpg)
command -v rpmbuild >/dev/null 2>&1 || missing+=(rpm)
command -v dnf >/dev/null 2>&1 || missing+=(dnf)
# `dnf download` is a plugin command.
[ -d /usr/lib/python3/dist-packages/dnf-plugins ] && ls /usr/lib/python3/dist-packages/dnf-plugins/download.py >/dev/null 2>&1 || missing+=(dnf-plugins-core)
if [ "${#missing[@]}" -eq 0 ]; then exit 0; fi
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "missing ${missing[*]}: install them (Debian/Ubuntu: apt-get install ${missing[*]})" >&2
  exit 1
fi
echo "installing ${missing[*]} from Debian's packages..." >&2
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
