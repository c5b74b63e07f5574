"""With DEBUG off a missing or weak SECRET_KEY stops the start; scripts/run makes one."""

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STRONG = "Xq0d4Lw7zB_s9KfN2mVtR-8jHcY1pGaE6uQoW3eTiZyU5rDxMnJbC0vFhSlAk7gP4-wq"  # token_urlsafe(50)


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
    "password" * 7,  # long, but one word repeated
    "abcde" * 10,
    "kX3v-9qLr2" * 6,
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",  # runs of the alphabet
])
def test_a_missing_or_weak_key_stops_the_start_with_debug_off(key):
    env = {"DEBUG": "false"} if key is None else {"DEBUG": "false", "SECRET_KEY": key}
    result = manage_check(**env)
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr and "token_urlsafe" in result.stderr, result.stderr


@pytest.mark.parametrize("key", [
    "password" * 7, "abcde" * 10, "ab" * 40, "kX3v-9qLr2" * 6,
    "insecure-dev-key-change-me-in-production-0123456789",
    "k3Y-" + "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ_-" * 2,
    "Correct-Horse-Battery-Staple-Correct-Horse-Battery-Staple-Correct-Horse",
])
def test_keys_made_of_words_patterns_or_repeats_are_weak(key):
    from durak_site.settings import weak_key

    assert weak_key(key)


def test_keys_from_the_usual_generators_are_strong_and_short_random_keys_are_weak():
    import base64
    import secrets

    from django.core.management.utils import get_random_secret_key

    from durak_site.settings import weak_key

    assert not any(weak_key(secrets.token_urlsafe(50)) for _ in range(500))
    # scripts/run's key: 48 random bytes in base64
    assert not any(weak_key(base64.b64encode(secrets.token_bytes(48)).decode())
                   for _ in range(500))
    assert not any(weak_key(secrets.token_hex(32)) for _ in range(500))  # openssl rand -hex 32
    assert not any(weak_key(get_random_secret_key()) for _ in range(500))  # startproject's
    assert all(weak_key(secrets.token_urlsafe(16)) for _ in range(500))  # 128 bits


def test_the_message_says_how_much_and_how_to_make_one():
    result = manage_check(DEBUG="false", SECRET_KEY="password" * 7)
    assert "SECRET_KEY is missing or weak" in result.stderr
    assert "bits" in result.stderr and "token_urlsafe(50)" in result.stderr


def test_a_long_key_is_judged_quickly():
    from durak_site.settings import weak_key

    assert weak_key("password" * 5000)
    assert not weak_key("".join(__import__("secrets").token_urlsafe(50) for _ in range(100)))


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
    from durak_site.settings import weak_key

    assert not weak_key(key)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert ensure_secret_key(run_dir) == key  # the same on the next start
    other = tmp_path / "other"
    assert ensure_secret_key(other, SECRET_KEY=STRONG) == STRONG  # the environment wins
    assert not (other / "secret-key").exists()
    assert manage_check(DEBUG="false", SECRET_KEY=key).returncode == 0
