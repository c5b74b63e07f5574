"""`python -m bench.leaffit` fits Expert's leaf evaluation (games/bots/leaf.py)."""

import ast
import math
import random
from pathlib import Path

import games.bots
from bench import leaffit
from bench.arena import BOT_MODULES


def test_fit_recovers_the_weights_of_a_known_logistic():
    rng = random.Random(1)
    true = [0.3, -1.0, 2.0]
    rows = []
    for _ in range(4000):
        x = [1.0, rng.uniform(-2, 2), rng.uniform(-1, 1)]
        p = 1 / (1 + math.exp(-sum(a * b for a, b in zip(true, x))))
        rows.append((x, float(rng.random() < p)))
    w = leaffit.fit(rows)
    assert all(abs(a - b) < 0.25 for a, b in zip(w, true)), w
    assert leaffit.log_loss(rows, w) < leaffit.log_loss(rows, None)


def test_main_prints_a_row_of_weights_per_stage(capsys):
    leaffit.main(["--deals", "2", "--per-position", "1", "--seed", "t"])
    out = capsys.readouterr().out
    assert out.startswith("WEIGHTS = (") and out.count("# stage") == 3


def test_the_arena_fingerprints_every_module_the_bots_play_by():
    """A run's parts must be played by the same bots: a module that search.py or the
    package imports is part of the fingerprint (bench/arena.py, BOT_MODULES)."""
    bots = Path(games.bots.__file__).parent
    for name in ("__init__.py", "search.py"):
        tree = ast.parse((bots / name).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
                assert f"{node.module}.py" in BOT_MODULES, (name, node.module)
