#!/bin/sh
# `make install` into a temporary DESTDIR, used as a real user would:
# a C program built with `pkg-config --cflags --libs roofline` against the
# installed shared library (and, with --static, the static one), run, its
# output checked against the installed command's; then `make uninstall`
# must leave no file behind. Run from the repository root (make test-install).
set -eu
MAKE=${MAKE:-make}
CC=${CC:-cc}
PYTHON=${PYTHON:-python3}
PREFIX=/opt/roofline-test
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/dest
fail() { echo "test-install: FAIL: $*" >&2; exit 1; }

$MAKE -s install DESTDIR="$dest" PREFIX="$PREFIX" >/dev/null
root=$dest$PREFIX
for f in bin/roofline lib/libroofline.so.0.1.0 lib/libroofline.so.0 \
         lib/libroofline.so lib/libroofline.a include/roofline.h \
         lib/pkgconfig/roofline.pc share/man/man1/roofline.1 \
         share/bash-completion/completions/roofline \
         share/zsh/site-functions/_roofline; do
  [ -e "$root/$f" ] || fail "$f not installed"
done
[ "$(readlink "$root/lib/libroofline.so.0")" = libroofline.so.0.1.0 ] ||
  fail "libroofline.so.0 does not point to libroofline.so.0.1.0"
[ "$(readlink "$root/lib/libroofline.so")" = libroofline.so.0 ] ||
  fail "libroofline.so does not point to libroofline.so.0"
soname=$(readelf -d "$root/lib/libroofline.so.0.1.0" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
[ "$soname" = libroofline.so.0 ] || fail "SONAME is '$soname', not libroofline.so.0"
grep -qx "prefix=$PREFIX" "$root/lib/pkgconfig/roofline.pc" ||
  fail "roofline.pc does not name prefix=$PREFIX"

cat > "$tmp/user.c" <<'C'
#include <roofline.h>
#include <stdio.h>
int main(void) {
  rl_hw hw;
  rl_error err;
  if (rl_hw_find("h100", NULL, 0, &hw, &err) != RL_OK) {
    fprintf(stderr, "%s\n", err.msg);
    return 1;
  }
  printf("%s %s %.0f\n", rl_version(), hw.id, hw.mem_bw);
  return 0;
}
C
PKG_CONFIG_PATH=$root/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest
export PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
pkg-config --exists roofline || fail "pkg-config does not find roofline"
[ "$(pkg-config --modversion roofline)" = 0.1.0 ] || fail "pkg-config --modversion"
# shellcheck disable=SC2046
$CC -o "$tmp/user" "$tmp/user.c" $(pkg-config --cflags --libs roofline)
# shellcheck disable=SC2046
$CC -o "$tmp/user-static" "$tmp/user.c" \
  $(pkg-config --cflags roofline) "$root/lib/libroofline.a" \
  $(pkg-config --libs-only-l --static roofline | sed 's/-lroofline//')
readelf -d "$tmp/user" | grep -q 'NEEDED.*\[libroofline.so.0\]' ||
  fail "the program does not need libroofline.so.0"
if readelf -d "$tmp/user-static" | grep -q 'NEEDED.*libroofline'; then
  fail "the static program still needs libroofline.so"
fi

# Expected: the installed command's own figures for the same device.
want_bw=$("$root/bin/roofline" hw show h100 --json |
  python3 -c 'import json,sys; print("%.0f" % json.load(sys.stdin)["bandwidth"])') ||
  fail "the installed command failed"
got=$(LD_LIBRARY_PATH=$root/lib "$tmp/user") || fail "the program failed"
got_static=$("$tmp/user-static") || fail "the static program failed"
[ "$got" = "$got_static" ] || fail "shared '$got' and static '$got_static' differ"
[ "$got" = "0.1.0 nvidia-h100-sxm5 $want_bw" ] ||
  fail "the program printed '$got', the command says bandwidth $want_bw"

# The manual page renders, without warnings, and holds every command's help.
if command -v man >/dev/null 2>&1; then
  page=$(LC_ALL=C MANWIDTH=200 man --warnings -l "$root/share/man/man1/roofline.1" 2>"$tmp/man.err") ||
    fail "man -l failed: $(cat "$tmp/man.err")"
  [ ! -s "$tmp/man.err" ] || fail "man warns: $(cat "$tmp/man.err")"
  echo "$page" | grep -q '^ROOFLINE(1)' || fail "the man page has no ROOFLINE(1) header"
  for cmd in $("$root/bin/roofline" --help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p'); do
    first=$("$root/bin/roofline" "$cmd" --help | sed -n 1p | sed 's/  */ /g')
    echo "$page" | sed 's/  */ /g' | grep -qF -- "$first" ||
      fail "the man page lacks '$first' (roofline $cmd --help)"
  done
else
  echo "test-install: man is absent; the manual page is not rendered (scripts/deb-packages.txt installs man-db)"
fi
# The completions, used for real: bash's function called as bash calls it
# (it must register itself), zsh's through an interactive zsh on a
# pseudo-terminal (tests/install/test_completion.py).
bash -c '. "$1"; complete -p roofline' sh "$root/share/bash-completion/completions/roofline" |
  grep -qx 'complete -o filenames -F _roofline roofline' || fail "the bash completion does not register"
$PYTHON tests/install/test_completion.py --roofline "$root/bin/roofline" \
  --bash "$root/share/bash-completion/completions/roofline" \
  --zsh "$root/share/zsh/site-functions/_roofline" || fail "the completions"

$MAKE -s uninstall DESTDIR="$dest" PREFIX="$PREFIX" >/dev/null
left=$(find "$dest" ! -type d)
[ -z "$left" ] || fail "make uninstall left: $left"
echo "test-install: ok ($got; shared and static, pkg-config, uninstall clean)"
