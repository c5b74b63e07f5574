"""Logs a log system can parse: LOG_FORMAT=json gives one JSON object per line, and every
request is logged with its game, status and duration."""

import json
import logging
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import Client

from games import services
from games.models import RulePreset

ROOT = Path(__file__).resolve().parents[2]

LOG_SOME = """
import logging
import django
django.setup()
logging.getLogger("games").info("a move", extra={"game": 7, "version": 12})
logging.getLogger("django.request").warning("Not Found: %s", "/nowhere/")
try:
    1 / 0
except ZeroDivisionError:
    logging.getLogger("games").exception("a bot turn failed\\nacross lines")
"""


def run_logging(**env) -> subprocess.CompletedProcess:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "durak_site.settings", "DEBUG": "true",
           **env}
    return subprocess.run([sys.executable, "-c", LOG_SOME], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


def test_log_format_json_writes_one_json_object_per_line():
    result = run_logging(LOG_FORMAT="json")
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()
    records = [json.loads(line) for line in lines]  # every line parses on its own
    assert [(r["level"], r["logger"]) for r in records] == [
        ("INFO", "games"), ("WARNING", "django.request"), ("ERROR", "games")]
    move, not_found, failed = records
    assert move["message"] == "a move" and move["game"] == 7 and move["version"] == 12
    assert move["time"].startswith("20") and "T" in move["time"]
    assert not_found["message"] == "Not Found: /nowhere/"  # Django's own logger: no plain copy
    assert "ZeroDivisionError" in failed["exc_info"]  # the traceback stays inside its line
    assert failed["message"] == "a bot turn failed\nacross lines"


def test_plain_text_logs_by_default():
    result = run_logging()
    assert result.returncode == 0, result.stderr
    first = result.stderr.splitlines()[0]
    assert first.endswith("INFO games a move")
    with pytest.raises(json.JSONDecodeError):
        json.loads(first)


def test_an_unknown_log_format_stops_the_start_with_a_clear_message():
    result = run_logging(LOG_FORMAT="xml")
    assert result.returncode != 0
    assert "LOG_FORMAT must be text or json, not 'xml'" in result.stderr


@pytest.mark.django_db
def test_every_request_is_logged_with_its_status_duration_and_game(caplog, alice):
    preset = RulePreset.objects.create(name="Log classic", min_players=2, max_players=6)
    game = services.create_game(alice, preset, players=2, move_time=timedelta(hours=1))
    client = Client()
    client.force_login(alice)
    with caplog.at_level(logging.INFO, logger="durak.request"):
        assert client.get(f"/games/{game.pk}/").status_code == 200
        assert client.get("/no-such-page/").status_code == 404
    table, missing = [r for r in caplog.records if r.name == "durak.request"]
    assert (table.method, table.path, table.status, table.game) == (
        "GET", f"/games/{game.pk}/", 200, game.pk)
    assert table.user == alice.pk
    assert table.duration_ms >= 0 and table.client == "127.0.0.1"
    assert (missing.status, missing.game) == (404, None)
