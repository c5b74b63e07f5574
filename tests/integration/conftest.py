"""Fixtures for the integration tier: PostgreSQL, Redis and real site processes.

scripts/test runs this tier with DATABASE_URL (PostgreSQL) and REDIS_URL set. Tests use
pytest-django's transactional database (`test_<name>`): their rows are committed, so a
Daphne or Celery process started with DATABASE_URL pointing at that test database sees
them. Nothing is skipped: without PostgreSQL or Redis the tier fails and says why.

Run this tier alone:
    source scripts/_venv.sh && source scripts/_services.sh && start_services
    python -m pytest -m integration tests/integration; stop_services
A failing test's process logs are in its tmp_path (logs/NN-name.log); the assertion
messages carry their last lines.
"""

from __future__ import annotations

import os
from urllib.parse import quote

import pytest
import redis
from channels_redis.core import RedisChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings
from django.db import connection
from django.utils.module_loading import import_string

from durak_site.channel_layer import ReconnectingPubSubChannelLayer
from games.models import RulePreset
from tests.conftest import PASSWORD  # noqa: F401 - tests/deploy imports it from here

from .procs import Procs


def database_url() -> str:
    """The URL of the database this test process uses now (the test database)."""
    db = connection.settings_dict
    auth = quote(db["USER"] or "")
    if db.get("PASSWORD"):
        auth += ":" + quote(db["PASSWORD"])
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def real_services(transactional_db):
    """PostgreSQL and Redis, checked: this tier is honest about what it runs on."""
    assert connection.vendor == "postgresql", (
        f"the integration tier needs PostgreSQL (DATABASE_URL), but this run uses "
        f"{connection.vendor}: run it through scripts/test")
    assert settings.REDIS_URL, "the integration tier needs Redis (REDIS_URL): run scripts/test"
    assert not settings.CELERY_TASK_ALWAYS_EAGER, "Celery must use the real broker here"
    assert issubclass(import_string(settings.CHANNEL_LAYERS["default"]["BACKEND"]),
                      (RedisChannelLayer, RedisPubSubChannelLayer,
                       ReconnectingPubSubChannelLayer)), (
        "the channel layer must be Redis here")
    client = redis.Redis.from_url(settings.REDIS_URL)
    client.ping()
    client.flushdb()  # no queued task or group from an earlier test
    yield client
    client.flushdb()
    client.close()


def site_environment() -> dict[str, str]:
    """The environment for site processes: the test database, the same Redis, fast bots."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("PYTEST_", "COV_"))}
    env.update({
        "DJANGO_SETTINGS_MODULE": "durak_site.settings",
        "DATABASE_URL": database_url(),
        "REDIS_URL": settings.REDIS_URL,
        "BOT_MOVE_BUDGET": "0.02",
        "CELERY_VISIBILITY_TIMEOUT": "60",
        "PYTHONUNBUFFERED": "1",
        "DEBUG": "True",
    })
    env.pop("CELERY_TASK_ALWAYS_EAGER", None)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # set by the browser tier for its own use
    return env


@pytest.fixture
def site_env(real_services):
    """The environment for this test's site processes (site_environment)."""
    return site_environment()


@pytest.fixture
def procs(site_env, tmp_path):
    """Start processes with procs.daphne()/worker()/beat(); all are stopped after the test
    (before the test database is flushed), whether it passed or not."""
    log_dir = tmp_path / "logs"
    log_dir.mkdir()
    started = Procs(site_env, log_dir)
    try:
        yield started
    finally:
        started.stop_all()


def kept_procs(tmp_path_factory, logs: str):
    """Processes started for longer than a test, stopped when the fixture ends."""
    started = Procs(site_environment(), tmp_path_factory.mktemp(logs))
    try:
        yield started
    finally:
        started.stop_all()


@pytest.fixture(scope="module")
def module_procs(django_db_setup, tmp_path_factory):
    """Like `procs`, but what it starts serves the whole module and is stopped after its
    last test: for processes no test kills, stops or starts with its own environment.
    (Each test still gets an empty database and Redis; row ids keep growing, so a
    process's caches by id never see an old game's id again.)"""
    yield from kept_procs(tmp_path_factory, "module-logs")


@pytest.fixture(scope="session")
def session_procs(django_db_setup, tmp_path_factory):
    """Like module_procs, for the whole run."""
    yield from kept_procs(tmp_path_factory, "session-logs")


@pytest.fixture(scope="session")
def shared_daphnes(session_procs):
    """Two Daphne servers with the site's own settings, started once for every test that
    needs plain servers (a test that kills one, or sets its environment, starts its own
    with `procs`); returns ((proc, port), (proc, port))."""
    return session_procs.daphne(), session_procs.daphne()


# ----------------------------------------------------------------------------- personas
@pytest.fixture
def seed_prefix():
    return "integration"


@pytest.fixture
def classic(transactional_db):
    """Two to six players; many timeouts allowed, so a racing timeout never hands a seat
    to a bot (that would add bot moves to the counts)."""
    return RulePreset.objects.create(name="Integration classic", min_players=2, max_players=6,
                                     timeouts_allowed=50)


