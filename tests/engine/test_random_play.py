"""OpenSpiel-style random simulation: deals under every option, checked at every step.

One chunk per run (32 deals per seating, 256 in all), with a seed that changes every day:
`RANDOM_PLAY_SEED` (default: today's UTC date). A failure names the seed and the deal to
replay. The full sweep (2,048 deals, the fixed seeds) is `python -m tests.engine.soak`
(docs/testing.md).
"""

import pytest

from tests.engine.randomplay import SEATING, random_play_seed, run_chunk

DEALS_PER_SEATING = 32  # 8 seatings x 32 = 256 deals a run


@pytest.mark.parametrize("seating", SEATING, ids=[f"{p}-{t or 'alone'}" for p, t in SEATING])
def test_random_deals_keep_every_promise(seating):
    seed = random_play_seed()
    try:
        results = run_chunk(f"{seed}/{seating}", DEALS_PER_SEATING, seating=seating)
    except BaseException as e:
        e.add_note(f"replay: RANDOM_PLAY_SEED={seed} python -m pytest "
                   "tests/engine/test_random_play.py")
        raise
    assert results["lost"] > 0
