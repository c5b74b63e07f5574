"""bench.movebench runs: it plays real moves through the site and prints the
CPU per move by part. A benchmark, so the test checks what it prints, never a time."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("over, label", [("socket", "move over the socket (per move)"),
                                         ("http", "POST /play (per move)")])
def test_the_move_benchmark_plays_moves_and_prints_the_parts(over, label):
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "durak_site.test_settings"}
    env.pop("DATABASE_URL", None)
    run = subprocess.run(
        [sys.executable, "-m", "bench.movebench", "--tables", "2", "--moves", "6",
         "--warm", "2", "--over", over], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    out = run.stdout
    assert "6 moves, 12 pushes (2.0 per move)" in out
    assert "server CPU per move:" in out
    for line in (label, "push (per socket)", "channel layer (per move)"):
        assert line in out
