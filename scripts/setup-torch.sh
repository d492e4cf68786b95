#!/bin/sh
# PyTorch for `make check-torch`: Debian's python3-torch, which installs for
# /usr/bin/python3 (the interpreter given, TORCH_PYTHON). Nothing is done when
# that Python imports torch; otherwise the package is installed with apt-get
# where this is Debian's /usr/bin/python3 and apt-get may run (root, or sudo
# without a password). Where it cannot, one line names the package and the
# script exits 3, which make check-torch reads as "skipped". The package is
# large (about 300 MB with its libraries): make check and make demo never ask
# for it.
set -u
py=${1:-/usr/bin/python3}
if [ -x "$py" ] && "$py" -c "import torch" 2>/dev/null; then
  exit 0
fi
if [ "$py" = /usr/bin/python3 ] && command -v apt-get >/dev/null 2>&1 && [ -x /usr/bin/python3 ]; then
  SUDO=""
  if [ "$(id -u)" != 0 ]; then
    if sudo -n true 2>/dev/null; then SUDO=sudo; else SUDO=none; fi
  fi
  if [ "$SUDO" != none ]; then
    echo "check-torch: installing python3-torch (Debian's PyTorch for /usr/bin/python3)" >&2
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends python3-torch >&2
    if "$py" -c "import torch" 2>/dev/null; then
      exit 0
    fi
  fi
fi
echo "check-torch: skipped: $py cannot import torch (Debian: apt-get install python3-torch)" >&2
exit 3
