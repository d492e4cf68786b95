"""The ctypes mirror (python/roofline/_native.py) against the C header.

A struct mirrored in the wrong field order, with a field missing or of the
wrong type, would hand the library garbage without any error. This test
writes a small C program from the mirror itself (offsetof of every field the
mirror names, sizeof of every struct), compiles it against include/roofline.h
with the system's C compiler and compares its figures with ctypes' own.
Skipped when no C compiler is installed (the installed package has no
header to compare with)."""
import ctypes
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
from roofline import _native  # noqa: E402


def mirrored():
    """Every ctypes.Structure the mirror defines, by Python name."""
    return {name: obj for name, obj in vars(_native).items()
            if isinstance(obj, type) and issubclass(obj, ctypes.Structure)
            and obj.__module__ == _native.__name__ and not getattr(obj, "_opaque_", False)}


def c_program(structs):
    lines = ["#include <stddef.h>", "#include <stdio.h>", '#include "roofline.h"',
             "int main(void) {"]
    for py, cls in sorted(structs.items()):
        c = _native.C_NAMES[py]
        lines.append(f'  printf("{py} %zu\\n", sizeof({c}));')
        for field, _ in cls._fields_:
            lines.append(f'  printf("{py}.{field} %zu\\n", offsetof({c}, {field}));')
    lines += ["  return 0;", "}"]
    return "\n".join(lines) + "\n"


class Layout(unittest.TestCase):
    def test_every_struct_is_named(self):
        self.assertEqual(sorted(mirrored()), sorted(_native.C_NAMES))

    def test_offsets_and_sizes_match_the_header(self):
        cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
        if not cc or not os.path.exists(os.path.join(ROOT, "include", "roofline.h")):
            self.skipTest("no C compiler or no header")
        structs = mirrored()
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "layout.c")
            exe = os.path.join(tmp, "layout")
            with open(src, "w") as f:
                f.write(c_program(structs))
            r = subprocess.run([cc, "-std=c11", "-I", os.path.join(ROOT, "include"), src, "-o", exe],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            out = subprocess.run([exe], capture_output=True, text=True, check=True).stdout
        want = dict(line.rsplit(" ", 1) for line in out.splitlines())
        got = {}
        for py, cls in structs.items():
            got[py] = str(ctypes.sizeof(cls))
            for field, _ in cls._fields_:
                got[f"{py}.{field}"] = str(getattr(cls, field).offset)
        diff = [f"{k}: C {want.get(k)} ctypes {v}" for k, v in sorted(got.items()) if want.get(k) != v]
        self.assertEqual(diff, [], "\n".join(diff))
        self.assertGreaterEqual(len(structs), 18)
        # rl_hw is opaque to Python: only its size, from the library itself
        self.assertEqual(ctypes.sizeof(_native.Hw), _native._LIB.rl_hw_sizeof())


if __name__ == "__main__":
    unittest.main()
