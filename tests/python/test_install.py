"""`pip install ./python` works offline (no index) into a fresh virtual
environment, and the installed package finds its own copy of the library."""
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class PipInstall(unittest.TestCase):
    def test_offline_install(self):
        with tempfile.TemporaryDirectory() as tmp:
            venv = os.path.join(tmp, "venv")
            subprocess.run([sys.executable, "-m", "venv", venv], check=True)
            py = os.path.join(venv, "bin", "python")
            env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ROOFLINE_LIB")}
            subprocess.run([py, "-m", "pip", "install", "-q", "--no-index", os.path.join(ROOT, "python")],
                           check=True, env=env, cwd=tmp)
            out = subprocess.run([py, "-c", "import roofline as rl; print(rl.library_path); "
                                  "print(rl.min_batch(4096, 989.4e12, 3.35e12))"],
                                 check=True, env=env, cwd=tmp, capture_output=True, text=True).stdout
            path, batch = out.split()
            self.assertTrue(path.startswith(venv), path)
            self.assertEqual(batch, "346")


if __name__ == "__main__":
    unittest.main()
