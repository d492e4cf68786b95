#!/bin/sh
# Install the Debian packages roofline needs, and only those that are missing.
# Reads scripts/deb-packages.txt. Runs `apt-get update` before `apt-get install`,
# and does nothing at all (no network) when every package is already present.
# Needs root (or sudo) only when something is missing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
missing=""
for p in $(grep -v '^[[:space:]]*#' "$here/deb-packages.txt" | awk '{print $1}'); do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
    missing="$missing $p"
  fi
done
if [ -z "$missing" ]; then
  exit 0
fi
echo "setup: installing missing Debian packages:$missing" >&2
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >&2
