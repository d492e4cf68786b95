"""`pip install ./python` and `pip install -e ./python` work offline (no index)
into a fresh virtual environment: the installed package finds its own copy of
the library, the editable one the source and build trees."""
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROBE = ("import roofline as rl; print(rl.__file__); print(rl.library_path); "
         "print(rl.min_batch(4096, 989.4e12, 3.35e12)); "
         "print(rl.op('layernorm', rows=4096, cols=4096, hw='h100')['time_s'])")


class PipInstall(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.venv = os.path.join(cls.tmp.name, "venv")
        subprocess.run([sys.executable, "-m", "venv", cls.venv], check=True)
        cls.py = os.path.join(cls.venv, "bin", "python")
        cls.env = {k: v for k, v in os.environ.items()
                   if k not in ("PYTHONPATH", "ROOFLINE_LIB", "PIP_INDEX_URL")}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def pip(self, *args):
        subprocess.run([self.py, "-m", "pip", "-q", "--disable-pip-version-check", *args],
                       check=True, env=self.env, cwd=self.tmp.name)

    def probe(self):
        """Imported from outside the source tree: (module file, library, min batch, time)."""
        out = subprocess.run([self.py, "-c", PROBE], check=True, env=self.env, cwd=self.tmp.name,
                             capture_output=True, text=True).stdout
        module, lib, batch, time_s = out.split()
        return module, lib, batch, float(time_s)

    def test_install_then_editable(self):
        # one environment for both (a venv takes seconds): the wheel, then -e over it
        self.pip("install", "--no-index", os.path.join(ROOT, "python"))
        module, lib, batch, time_s = self.probe()
        self.assertTrue(module.startswith(self.venv), module)
        self.assertTrue(lib.startswith(self.venv), lib)
        self.assertEqual(batch, "346")
        self.assertAlmostEqual(time_s, 2.004e-05, delta=1e-8)  # the README's layernorm bound
        # python3 -m roofline.profile runs from the installed package (the venv has no
        # PyTorch: its one-line refusal, before the script runs)
        script = os.path.join(self.tmp.name, "s.py")
        with open(script, "w") as f:
            f.write("import torch\n")
        r = subprocess.run([self.py, "-m", "roofline.profile", script], env=self.env, cwd=self.tmp.name,
                           capture_output=True, text=True)
        self.assertEqual((r.returncode, r.stdout), (2, ""))
        self.assertEqual(r.stderr, "roofline.profile: needs PyTorch (pip install torch, or Debian's "
                                   "python3-torch)\n")

        self.pip("uninstall", "-y", "roofline")
        self.pip("install", "--no-index", "-e", os.path.join(ROOT, "python"))
        module, lib, batch, time_s = self.probe()
        self.assertEqual(module, os.path.join(ROOT, "python", "roofline", "__init__.py"))
        self.assertEqual(lib, os.path.join(ROOT, "build", "libroofline.so"))
        self.assertEqual(batch, "346")
        self.assertAlmostEqual(time_s, 2.004e-05, delta=1e-8)
        self.pip("uninstall", "-y", "roofline")
        r = subprocess.run([self.py, "-c", "import roofline"], env=self.env, cwd=self.tmp.name,
                           capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0, "uninstall left the package importable")


if __name__ == "__main__":
    unittest.main()
