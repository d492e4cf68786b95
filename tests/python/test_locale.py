"""Numbers under a decimal-comma locale (issue 30): a notebook that calls
locale.setlocale(LC_ALL, "de_DE.UTF-8") must get the same figures and the
same JSON from the library as under the C locale (its snprintf and strtod run
under the C locale's rules whatever LC_NUMERIC says: src/core/util.c).

The locale: de_DE.UTF-8 when the system has it, else generated here into a
temporary folder with localedef (Debian package `locales`, in
scripts/deb-packages.txt) and found through LOCPATH. Each case runs in a child
Python, under LC_NUMERIC de_DE (and LC_ALL de_DE with LC_MESSAGES C: strerror's
text may follow the user's language, numbers may not):
- parse_quantity, format_quantity, op, kernel, layer and decode figures equal
  the C locale's, byte for byte as repr();
- the whole Python golden corpus (tests/python/test_golden.py) passes;
- the command (which never calls setlocale) prints the same bytes.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIB = os.environ.get("ROOFLINE_LIB", os.path.join(ROOT, "build", "libroofline.so"))
CLI = os.path.join(os.path.dirname(os.path.abspath(LIB)), "roofline")
LOCALE = "de_DE.UTF-8"

NUMBERS = r'''
import json, locale, sys
mode = sys.argv[1]
if mode != "C":
    locale.setlocale(locale.LC_ALL if mode == "all" else locale.LC_NUMERIC, "de_DE.UTF-8")
    if mode == "all":
        locale.setlocale(locale.LC_MESSAGES, "C")
    assert locale.localeconv()["decimal_point"] == ",", locale.localeconv()
import roofline as r
out = [r.parse_quantity("1.5k"), r.parse_quantity("2.5TB/s", "B/s"), r.parse_quantity("25.5us", "s"),
       r.format_quantity(1.5e12, "FLOP/s"), r.format_quantity(2.25e-6, "s"),
       r.op("matmul", m=4096, n=4096, k=4096, hw="h100"),
       r.kernel(1.5e9, 2.5e8, hw="h100", time="1.5ms"),
       r.layer(hw="h100"), r.decode(model="llama3-8b", hw="h100", batch=[1, 8])]
print(repr(out))
'''

GOLDEN = r'''
import locale, sys, unittest
locale.setlocale(locale.LC_ALL, "de_DE.UTF-8")
locale.setlocale(locale.LC_MESSAGES, "C")
assert locale.localeconv()["decimal_point"] == ","
sys.argv = ["golden", "discover", "-s", sys.argv[1], "-p", "test_golden.py"]
unittest.main(module=None)
'''


class DecimalComma(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="rl_locale_")
        cls.env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"), ROOFLINE_LIB=LIB)
        cls.env.pop("LC_ALL", None)
        probe = [sys.executable, "-c", f"import locale; locale.setlocale(locale.LC_NUMERIC, '{LOCALE}')"]
        if subprocess.run(probe, env=cls.env, capture_output=True).returncode != 0:
            localedef = shutil.which("localedef")
            if not localedef or not os.path.exists("/usr/share/i18n/locales/de_DE"):
                raise unittest.SkipTest("no de_DE locale and no localedef with its sources: "
                                        "install the Debian package locales (scripts/deb-packages.txt)")
            subprocess.run([localedef, "-i", "de_DE", "-f", "UTF-8", os.path.join(cls.tmp, LOCALE)],
                           check=True, capture_output=True)
            cls.env["LOCPATH"] = cls.tmp
        r = subprocess.run(probe, env=cls.env, capture_output=True, text=True)
        if r.returncode != 0:
            raise AssertionError(f"the generated locale does not load: {r.stderr}")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def child(self, code, *args):
        r = subprocess.run([sys.executable, "-c", code, *args], env=self.env, capture_output=True, text=True,
                           timeout=600, cwd=ROOT)
        return r.returncode, r.stdout, r.stderr

    def test_numbers(self):
        rc, c, err = self.child(NUMBERS, "C")
        self.assertEqual(rc, 0, err)
        self.assertIn("1500.0", c)
        for mode in ("numeric", "all"):
            rc, de, err = self.child(NUMBERS, mode)
            self.assertEqual(rc, 0, f"under LC_{mode.upper()} de_DE: {err}")
            self.assertEqual(de, c, f"under LC_{mode.upper()} de_DE the figures differ")

    def test_golden_corpus(self):
        rc, out, err = self.child(GOLDEN, os.path.join(ROOT, "tests", "python"))
        self.assertEqual(rc, 0, f"the golden corpus under de_DE: {err[-3000:]}")

    def test_command(self):
        env = dict(self.env, LC_ALL=LOCALE)
        for args in (["op", "matmul", "--m", "4096", "--n", "4096", "--k", "4096", "--hw", "h100", "--json"],
                     ["kernel", "--flops", "1.5G", "--bytes", "250MB", "--time", "1.5ms", "--hw", "h100"],
                     ["layer", "--hw", "h100", "--csv"]):
            a = subprocess.run([CLI] + args, env=self.env, capture_output=True, cwd=ROOT)
            b = subprocess.run([CLI] + args, env=env, capture_output=True, cwd=ROOT)
            self.assertEqual((a.returncode, a.stdout), (0, b.stdout), f"{' '.join(args)} under LC_ALL de_DE")


if __name__ == "__main__":
    unittest.main()
