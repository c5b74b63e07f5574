"""Speed work on the engine and the heuristic changes no behaviour: the golden
trace of `tests.engine.golden` still hashes to the digest computed before it."""

from tests.engine.golden import FAST_DEALS, FAST_DIGEST, digest


def test_golden_trace_is_unchanged():
    assert digest(FAST_DEALS) == FAST_DIGEST
