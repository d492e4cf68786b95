"""checks.py -- what the CLI test scripts share (not a test itself: the
Makefile runs tests/cli/test_*.py).

    rf = roofline_arg()          # --roofline PATH, default build/roofline, absolute
    check = Checks()
    check("name", ok, "what went wrong")
    return check.report("label")  # prints "label: N passed, M failed"; 1 when any failed
"""
import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def roofline_arg():
    """The binary under test: --roofline PATH (default build/roofline), made absolute."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--roofline", default=os.path.join(ROOT, "build", "roofline"))
    return os.path.abspath(ap.parse_args().roofline)


class Checks:
    """Counts passed and failed checks; a failure prints "FAIL name: msg" on stderr."""

    def __init__(self):
        self.passed = self.failed = 0

    def __call__(self, name, ok, msg=""):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL {name}: {msg}", file=sys.stderr)

    def report(self, label=""):
        print(f"{label + ': ' if label else ''}{self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0
