"""The environment is read through durak_site.env only, and strictly: a boolean, number,
log level or time zone that is not one stops the start with a message naming the
variable."""

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from durak_site import settings as site_settings

ROOT = Path(__file__).resolve().parents[2]
STRONG = "Xq0d4Lw7zB_s9KfN2mVtR-8jHcY1pGaE6uQoW3eTiZyU5rDxMnJbC0vFhSlAk7gP4-wq"  # token_urlsafe(50)
VAR = "DURAK_TEST_SETTING"  # a name the site never reads, for the helpers themselves


def manage_check(**env):
    base = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DEBUG")}
    return subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, capture_output=True, text=True,
        env={**base, "DJANGO_SETTINGS_MODULE": "durak_site.settings", "SECRET_KEY": STRONG,
             **env})


def last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else ""


@pytest.mark.parametrize("name, value, words", [
    ("DEBUG", "Ture", ["true", "false"]),  # a boolean
    ("WS_MAX_PER_GAME", "lots", ["whole number"]),  # a whole number
    ("REMINDER_INTERVAL", "soon", ["number"]),  # seconds, fractions allowed
    ("BOT_MOVE_BUDGET", "fast", ["number"]),  # optional seconds
    ("LOG_LEVEL", "LOUD", ["DEBUG", "WARNING"]),  # one of logging's levels
    ("LOG_FORMAT", "xml", ["text", "json"]),
    ("TIME_ZONE", "Mars/Olympus", ["time zone"]),
])
def test_a_bad_value_stops_the_start_with_a_message_naming_the_variable(name, value, words):
    result = manage_check(**{name: value})
    assert result.returncode != 0
    message = last_line(result.stderr)  # the exception's own words, not a traceback's line
    assert message.startswith("django.core.exceptions.ImproperlyConfigured:"), result.stderr
    assert name in message and repr(value) in message, message
    assert all(word in message for word in words), message


def test_good_values_in_any_spelling_still_start():
    result = manage_check(DEBUG=" Yes ", AXES_VERBOSE="OFF", WS_MAX_PER_GAME=" 300 ",
                          REMINDER_INTERVAL="0.5", BOT_MOVE_BUDGET="2",
                          ACCOUNT_RATE_LIMITS="off")
    assert result.returncode == 0, result.stderr


def settings_read(**env) -> dict:
    """The settings a fresh process reads from `env`, as JSON."""
    code = ("import json; import durak_site.settings as s; print(json.dumps({k: str(getattr(s, k))"
            " for k in ('DEBUG', 'WS_MAX_PER_GAME', 'BOT_MOVE_BUDGET',"
            " 'ACCOUNT_RATE_LIMITS_ENABLED', 'ADMIN_USERNAME', 'ADMIN_PASSWORD', 'RUN_DIR')}"
            " | {'REMINDER': s.CELERY_BEAT_SCHEDULE['send-reminders']['schedule']}))")
    names = ("DEBUG", "WS_MAX_PER_GAME", "BOT_MOVE_BUDGET", "ACCOUNT_RATE_LIMITS",
             "ADMIN_USERNAME", "ADMIN_PASSWORD", "RUN_DIR", "REMINDER_INTERVAL")
    base = {k: v for k, v in os.environ.items() if k not in names}
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, env={**base, "SECRET_KEY": STRONG, **env})
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_the_settings_carry_what_the_environment_says():
    assert settings_read() == {
        "DEBUG": "False", "WS_MAX_PER_GAME": "200", "BOT_MOVE_BUDGET": "None",
        "ACCOUNT_RATE_LIMITS_ENABLED": "True",
        "ADMIN_USERNAME": "admin", "ADMIN_PASSWORD": "", "RUN_DIR": str(ROOT / ".run"),
        "REMINDER": 60.0}
    assert settings_read(
        DEBUG="on", WS_MAX_PER_GAME="12", BOT_MOVE_BUDGET="0.25",
        ACCOUNT_RATE_LIMITS="off", ADMIN_USERNAME="boss", ADMIN_PASSWORD="a b c",
        RUN_DIR="/srv/durak", REMINDER_INTERVAL="1.5") == {
        "DEBUG": "True", "WS_MAX_PER_GAME": "12", "BOT_MOVE_BUDGET": "0.25",
        "ACCOUNT_RATE_LIMITS_ENABLED": "False",
        "ADMIN_USERNAME": "boss", "ADMIN_PASSWORD": "a b c", "RUN_DIR": "/srv/durak",
        "REMINDER": 1.5}


@pytest.mark.parametrize("value, expected", [
    ("1", True), ("true", True), (" YES ", True), ("On", True),
    ("0", False), ("False", False), ("no", False), (" off", False),
])
def test_envbool_reads_the_usual_words(monkeypatch, value, expected):
    monkeypatch.setenv(VAR, value)
    assert site_settings.envbool(VAR, "True" if not expected else "False") is expected


@pytest.mark.parametrize("value", ["Ture", "2", "enabled", "y e s"])
def test_envbool_refuses_anything_else(monkeypatch, value):
    monkeypatch.setenv(VAR, value)
    with pytest.raises(ImproperlyConfigured) as refused:
        site_settings.envbool(VAR, "False")
    message = str(refused.value)
    assert VAR in message and repr(value) in message, message
    assert "1/true/yes/on" in message and "0/false/no/off" in message, message


def test_unset_or_empty_means_the_default(monkeypatch):
    monkeypatch.delenv(VAR, raising=False)
    assert site_settings.envbool(VAR, "True") is True
    assert site_settings.envint(VAR, "7") == 7
    assert site_settings.envfloat(VAR, "0.5") == 0.5
    assert site_settings.envfloat(VAR, None) is None
    monkeypatch.setenv(VAR, "  ")
    assert site_settings.envbool(VAR, "True") is True
    assert site_settings.envint(VAR, "7") == 7
    assert site_settings.envfloat(VAR, None) is None


@pytest.mark.parametrize("helper, value", [
    ("envint", "lots"), ("envint", "1.5"), ("envint", "1e3"),
    ("envfloat", "soon"), ("envfloat", "nan"), ("envfloat", "inf"),
])
def test_numbers_that_are_not_refused_by_name(monkeypatch, helper, value):
    monkeypatch.setenv(VAR, value)
    with pytest.raises(ImproperlyConfigured, match=rf"{VAR}.*{value!r}"):
        getattr(site_settings, helper)(VAR, "1")


def test_numbers_are_read_with_spaces_trimmed(monkeypatch):
    monkeypatch.setenv(VAR, " 42 ")
    assert site_settings.envint(VAR, "1") == 42
    assert site_settings.envfloat(VAR, "1") == 42.0


# The helpers that read the environment, the test settings (which only set it, for the
# site's processes), and the DJANGO_SETTINGS_MODULE line of the entry points.
SETTINGS = {"durak_site/env.py", "durak_site/test_settings.py"}
ENTRY_POINTS = {"durak_site/asgi.py", "durak_site/wsgi.py", "durak_site/celery.py"}
ENV_NAMES = {"environ", "environb", "getenv", "getenvb", "putenv", "unsetenv"}


def _settings_module_default(node: ast.AST) -> bool:
    """os.environ.setdefault("DJANGO_SETTINGS_MODULE", ...)"""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "setdefault" and bool(node.args)
            and isinstance(node.args[0], ast.Constant)
            and node.args[0].value == "DJANGO_SETTINGS_MODULE")


def environment_reads(path: Path, relative: str) -> list[str]:
    tree = ast.parse(path.read_text(), filename=relative)
    allowed: set[int] = set()
    if relative in ENTRY_POINTS:
        allowed = {id(node.func.value) for node in ast.walk(tree)
                   if _settings_module_default(node)}
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr in ENV_NAMES
                and isinstance(node.value, ast.Name) and node.value.id == "os"
                and id(node) not in allowed):
            found.append(f"{relative}:{node.lineno} os.{node.attr}")
        elif isinstance(node, ast.ImportFrom) and node.module == "os":
            found += [f"{relative}:{node.lineno} from os import {alias.name}"
                      for alias in node.names if alias.name in ENV_NAMES | {"*"}]
    return found


# The benchmarks are no part of the site: these set the environment of the processes they
# start, as a shell would, and read their own knobs.
BENCHMARKS = {"bench/loadecho.py", "bench/loadtest.py", "bench/movebench.py", "bench/queues.py",
              "bench/scaleout.py", "bench/sweep.py", "bench/datascale.py"}


def test_nothing_outside_the_helpers_reads_the_environment():
    found, seen = [], 0
    paths = [path for package in ("games", "accounts", "durak_site", "bench")
             for path in sorted((ROOT / package).rglob("*.py"))]
    for path in [*paths, *sorted((ROOT / "scripts").glob("*.py"))]:
        relative = path.relative_to(ROOT).as_posix()
        if relative in SETTINGS | BENCHMARKS:
            continue
        seen += 1
        found += environment_reads(path, relative)
    assert seen > 50  # the scan saw the site
    assert not found, ("read the environment through durak_site.env's helpers instead:\n"
                       + "\n".join(found))


def test_the_scan_finds_each_way_of_reading_the_environment(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import os\nfrom os import getenv\nos.getenv('A')\nos.environ['B']\n"
                      "os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'x')\n")
    assert len(environment_reads(sample, "games/sample.py")) == 4
    assert len(environment_reads(sample, "durak_site/asgi.py")) == 3  # its one allowed line
