"""With DEBUG off a missing or weak SECRET_KEY stops the start; scripts/run makes one."""

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STRONG = "k3Y-" + "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ_-" * 2


def manage_check(**env):
    base = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DEBUG")}
    return subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, capture_output=True, text=True,
        env={**base, "DJANGO_SETTINGS_MODULE": "durak_site.settings", **env})


@pytest.mark.parametrize("key", [
    None,  # no SECRET_KEY at all
    "",
    "insecure-dev-key-change-me-in-production-0123456789",  # the public dev key
    "short-but-varied-key-0123456789",  # under 50 characters
    "ab" * 40,  # long, but 2 distinct characters
])
def test_a_missing_or_weak_key_stops_the_start_with_debug_off(key):
    env = {"DEBUG": "false"} if key is None else {"DEBUG": "false", "SECRET_KEY": key}
    result = manage_check(**env)
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr and "token_urlsafe" in result.stderr, result.stderr


def test_a_strong_key_passes_and_debug_needs_none():
    strong = manage_check(DEBUG="false", SECRET_KEY=STRONG)
    assert strong.returncode == 0, strong.stderr
    assert manage_check(DEBUG="true").returncode == 0


def ensure_secret_key(run_dir: Path, **env) -> str:
    """scripts/run's ensure_secret_key in a shell of its own: the key it exports."""
    # Sourcing a scripts/run without the function (and its guard) would start the site.
    assert "\nensure_secret_key() {" in (ROOT / "scripts" / "run").read_text()
    base = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    result = subprocess.run(
        ["bash", "-c", 'source scripts/run && ensure_secret_key "$1" && printf %s "$SECRET_KEY"',
         "bash", str(run_dir)],
        cwd=ROOT, capture_output=True, text=True, check=True, env={**base, **env})
    return result.stdout


def test_scripts_run_makes_a_strong_key_once_and_keeps_it_private(tmp_path):
    run_dir = tmp_path / ".run"
    key = ensure_secret_key(run_dir)
    path = run_dir / "secret-key"
    assert path.read_text() == key
    assert len(key) >= 50 and len(set(key)) >= 5
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert ensure_secret_key(run_dir) == key  # the same on the next start
    other = tmp_path / "other"
    assert ensure_secret_key(other, SECRET_KEY=STRONG) == STRONG  # the environment wins
    assert not (other / "secret-key").exists()
    assert manage_check(DEBUG="false", SECRET_KEY=key).returncode == 0
