"""checks.py -- the pass/fail counter the test scripts share
(tests/cli/test_manners.py, tests/cli/test_outputs.py, test_hostile.py,
test_trace_agree.py, test_trace_job.py, test_graph.py, test_trace_idle.py,
tests/install/test_completion.py).

    check = Checks("FAIL ")
    check(cond, "what was expected")   # counts it; a failure named on stderr
    check.named("case", cond, "what")   # the same, failing as "FAIL case: what"
    print(f"name: {check.passed} passed, {check.failed} failed")
"""
import sys


class Checks:
    def __init__(self, fail_prefix):
        self.passed = self.failed = 0
        self.fail_prefix = fail_prefix

    def __call__(self, cond, what):
        """Count cond as passed or failed; return it."""
        if cond:
            self.passed += 1
        else:
            self.failed += 1
            print(self.fail_prefix + what, file=sys.stderr)
        return cond

    def named(self, name, cond, msg=""):
        """Count cond, a failure printed as "NAME: msg"; return it."""
        return self(cond, f"{name}: {msg}")
