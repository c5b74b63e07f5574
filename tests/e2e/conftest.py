"""The browser tier: a real Daphne and a real Celery worker on 127.0.0.1, driven through a
real Chromium with Playwright's sync API.

The servers are subprocesses started once for this package against pytest-django's test
database on PostgreSQL (tests mark themselves `django_db(transaction=True)`, so what they
make is committed; the seeded rule presets are put back before each test, as the flush
after a transactional test empties every table). Each process runs in its own process
group, which teardown kills whole. Every wait is bounded.

Needs what scripts/test starts (scripts/_services.sh): DATABASE_URL on PostgreSQL and
REDIS_URL. The servers use their own Redis database number so that another tier's Celery
worker never takes this tier's bot moves.
"""

from __future__ import annotations

import importlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
import redis
from django.db import connection

from tests.e2e.helpers import TIMEOUT_MS
from tests.integration.procs import free_port  # noqa: F401 - the one way, re-exported

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
LOGS = ARTIFACTS / "e2e-logs"
SCREENSHOTS = ARTIFACTS / "screenshots"
FAILURES = ARTIFACTS / "e2e-failures"
CHROMIUM = os.getenv("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
E2E_REDIS_DB = 9  # the servers' own Redis database (broker and channel layer)


def worker_index() -> int:
    """0, or the number of this pytest-xdist worker (gw0, gw1, ...: scripts/test runs this
    tier in two)."""
    return int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw"))


def own_redis_db(number: int) -> int:
    """A servers' Redis database for this worker: 9 and 10 (the paced servers') for the
    first, 11 and 12 for the second, ... (each worker's servers take only their own
    tasks)."""
    return number + 2 * worker_index()

# Django logs each 500 as "Internal Server Error: /path"; any traceback, and anything
# logged at ERROR or CRITICAL (a refused bot move, a failed task), is a failure too.
SERVER_ERROR = re.compile(
    r"Internal Server Error|Traceback \(most recent call last\)|\bERROR\b|\bCRITICAL\b")
# Not the site's: a browser that leaves a page while one of its requests is in flight makes
# Django's ASGI handler send request_finished after asgiref's per-request executor has
# quit (https://github.com/django/asgiref/issues/491 and 526). The player sees nothing;
# the log gets this traceback.
LEFT_MID_REQUEST = re.compile(
    r"[^\n]*ERROR daphne\.server Exception inside application: CurrentThreadExecutor already "
    r"quit or is broken\nTraceback \(most recent call last\):\n(?:  [^\n]*\n)*?"
    r"(?=(?:  [^\n]*\n)*RuntimeError)(?:  [^\n]*\n)*RuntimeError: CurrentThreadExecutor already "
    r"quit or is broken\n")


def server_error(output: str) -> re.Match | None:
    """The first error the servers logged, but for a request its browser left."""
    output = LEFT_MID_REQUEST.sub(
        lambda m: "" if "request_finished" in m.group(0) else m.group(0), output)
    return SERVER_ERROR.search(output)


# ----------------------------------------------------------------------------- processes
def wait_until(check, timeout: float, what: str, proc: subprocess.Popen | None = None,
               log: Path | None = None):
    """Poll `check()` until it is truthy; fail after `timeout` seconds or if `proc` died."""
    end = time.monotonic() + timeout
    while True:
        result = check()
        if result:
            return result
        if proc is not None and proc.poll() is not None:
            tail = log.read_text(errors="replace")[-3000:] if log else ""
            raise RuntimeError(f"{what}: the process exited with {proc.returncode}\n{tail}")
        if time.monotonic() > end:
            tail = log.read_text(errors="replace")[-3000:] if log else ""
            raise TimeoutError(f"{what}: not ready after {timeout}s\n{tail}")
        time.sleep(0.1)


def port_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port)) == 0


def spawn(name: str, args: list[str], env: dict) -> tuple[subprocess.Popen, Path]:
    """Start `args` in its own process group, output to artifacts/e2e-logs/<name>.log."""
    LOGS.mkdir(parents=True, exist_ok=True)
    log = LOGS / f"{name}.log"
    out = log.open("wb")
    proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    out.close()
    return proc, log


def stop(procs: list[subprocess.Popen], timeout: float = 10) -> None:
    """TERM every process group at once, then KILL those that linger past `timeout`."""
    for proc in procs:
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
    end = time.monotonic() + timeout
    for proc in procs:
        try:
            proc.wait(max(0.0, end - time.monotonic()))
            continue
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(5)


def with_db(url: str, path: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=path))


class Inbox:
    """An SMTP server's handler that keeps every message the servers send."""

    def __init__(self):
        self.messages = []

    async def handle_DATA(self, server, session, envelope):
        import email
        from email import policy

        self.messages.append(email.message_from_bytes(envelope.content, policy=policy.default))
        return "250 Message accepted"


@dataclass
class Site:
    """The running servers: `url` for the browser, logs to check for server errors, the
    mails they sent (`inbox`, a real SMTP server) and their Redis (`redis_url`)."""

    url: str
    logs: list[Path]
    procs: list[subprocess.Popen]
    marks: dict = field(default_factory=dict)
    inbox: Inbox = field(default_factory=Inbox)
    redis_url: str = ""

    def mark(self):
        self.marks = {log: log.stat().st_size for log in self.logs}

    def new_output(self) -> str:
        text = []
        for log in self.logs:
            with log.open("rb") as f:
                f.seek(self.marks.get(log, 0))
                text.append(f.read().decode(errors="replace"))
        return "\n".join(text)

    def check_alive(self):
        for proc in self.procs:
            assert proc.poll() is None, f"{proc.args[:4]} exited with {proc.returncode}"


@pytest.fixture(scope="package")
def site(django_db_setup):
    """Daphne and a Celery worker against the test database, for this package's tests."""
    yield from serve()


def serve(redis_db: int = E2E_REDIS_DB, label: str = "", **settings: str):
    """Start Daphne and a Celery worker, with their own Redis database `redis_db`, logs
    named with `label` and the environment's `settings` on top of this tier's, and yield
    the Site; stop them after. (A module that needs other settings, say a bot's pace,
    overrides `site` with it.)"""
    database_url = os.getenv("DATABASE_URL", "")
    redis_url = os.getenv("REDIS_URL", "")
    if not database_url.startswith(("postgres://", "postgresql://")) or not redis_url:
        pytest.fail("The browser tier needs DATABASE_URL on PostgreSQL and REDIS_URL: run it "
                    "through scripts/test (or source scripts/_services.sh && start_services).")
    test_db = connection.settings_dict["NAME"]  # pytest-django's test database (per worker)
    redis_db = own_redis_db(redis_db)
    if os.environ.get("PYTEST_XDIST_WORKER"):
        label += f"-{os.environ['PYTEST_XDIST_WORKER']}"
    from aiosmtpd.controller import Controller

    inbox, smtp_port = Inbox(), free_port()
    smtp = Controller(inbox, hostname="127.0.0.1", port=smtp_port)
    smtp.start()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.e2e.server_settings",
        "DATABASE_URL": with_db(database_url, f"/{test_db}"),
        "REDIS_URL": with_db(redis_url, f"/{redis_db}"),
        "BOT_MOVE_BUDGET": "0.05",
        "ACCOUNT_RATE_LIMITS": "off",  # accounts.ratelimit: many sign-ups from 127.0.0.1
        "EMAIL_URL": f"smtp://127.0.0.1:{smtp_port}",  # the mails reach `inbox`
        "DEBUG": "false",  # as scripts/run: players' error pages, static files still served
        "SERVE_STATIC": "true",
        "PYTHONUNBUFFERED": "1",
        **settings,
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # the servers keep Django's safety check
    # No task or channel left in this tier's Redis database by an earlier run.
    client = redis.Redis.from_url(env["REDIS_URL"])
    client.flushdb()
    client.close()
    port = free_port()
    procs = []
    try:
        daphne, daphne_log = spawn(f"daphne{label}", [
            sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
            "durak_site.asgi:application"], env)
        procs.append(daphne)
        worker, worker_log = spawn(f"celery-worker{label}", [
            sys.executable, "-m", "celery", "-A", "durak_site", "worker", "--pool=solo",
            "--loglevel=info", "--without-gossip", "--without-mingle", "--without-heartbeat",
            "-n", f"e2e-{port}@%h"], env)
        procs.append(worker)
        wait_until(lambda: port_open(port), 30, "daphne", daphne, daphne_log)
        wait_until(lambda: "ready." in worker_log.read_text(errors="replace"), 30,
                   "celery worker", worker, worker_log)
        yield Site(url=f"http://127.0.0.1:{port}", logs=[daphne_log, worker_log], procs=procs,
                   inbox=inbox, redis_url=env["REDIS_URL"])
    finally:
        smtp.stop()
        # Before django_db_setup's teardown drops the database these processes use.
        stop(procs)


# ----------------------------------------------------------------------------- browser
@pytest.fixture(scope="package")
def browser():
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop running in this thread, so Django's
    # async-safety check would refuse the test's own database work (the flush between
    # tests, a superuser made by a test). The ORM is used synchronously here: allow it
    # while the browser runs.
    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                        headless=True)
            yield browser
            browser.close()
    finally:
        if before is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = before


@dataclass
class Watch:
    """What went wrong in a page that the test did not ask for."""

    server_errors: list = field(default_factory=list)
    page_errors: list = field(default_factory=list)


@pytest.fixture
def live(site, request):
    """The site for one test; afterwards no 500 and no traceback may have appeared."""
    site.check_alive()
    site.mark()
    yield site
    site.check_alive()
    output = site.new_output()
    found = server_error(output)
    assert not found, f"the servers logged an error during the test:\n{output[-4000:]}"


@pytest.fixture
def new_page(browser, live, request):
    """new_page(viewport=...) -> a page in a fresh browser context (a person of its own).

    Every response with a 5xx status and every uncaught script error fails the test; on a
    failure each page's screenshot is saved under artifacts/e2e-failures/. The site's
    service worker (static/js/sw.js) is blocked unless the test is marked
    `service_worker`: it sees every request a page makes (a tenth of Chromium's CPU in the
    table's tests); the tests of push and the offline page, and the whole deals played
    by people, keep it.
    """
    contexts, watch = [], Watch()
    workers = "allow" if request.node.get_closest_marker("service_worker") else "block"

    def make(viewport=None, **options):
        options.setdefault("service_workers", workers)
        context = browser.new_context(base_url=live.url,
                                      viewport=viewport or {"width": 1366, "height": 900},
                                      **options)
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.on("response", lambda r: r.status >= 500 and watch.server_errors.append(
            f"{r.status} {r.request.method} {r.url}"))
        page.on("pageerror", lambda e: watch.page_errors.append(str(e)))
        return page

    yield make
    failed = getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed
    if failed:
        FAILURES.mkdir(parents=True, exist_ok=True)
        for i, context in enumerate(contexts):
            for j, page in enumerate(context.pages):
                try:
                    page.screenshot(path=FAILURES / f"{request.node.name}-{i}-{j}.png",
                                    full_page=True)
                except Exception:  # the screenshot is a courtesy; the failure is reported
                    pass
    for context in contexts:
        context.close()
    assert not watch.server_errors, f"server errors seen by the browser: {watch.server_errors}"
    assert not watch.page_errors, f"script errors in the page: {watch.page_errors}"


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call":
        item.rep_call = report
    return report


@pytest.fixture(autouse=True)
def _presets(transactional_db):
    """The rule presets as the migration seeds them. (Not serialized_rollback: Django keeps
    the serialized data on the connection object, and once Playwright's event loop runs in
    this thread Django's context-local connections hand out another object, without it.)"""
    from django.apps import apps

    from games.models import RulePreset

    seed = importlib.import_module("games.migrations.0002_seed_presets")
    for fields in seed.PRESETS:
        RulePreset.objects.update_or_create(name=fields["name"], defaults=fields)
    importlib.import_module("games.migrations.0017_preset_languages").into_rows(apps, None)


SHORT_PRESET = "Short 24"


@pytest.fixture
def short_preset(_presets):
    """A preset like Classic but with 24 cards (9 to ace): a whole deal clicked in a
    browser takes about two thirds of Classic's moves. Returns its name."""
    from games.models import RulePreset

    RulePreset.objects.update_or_create(name=SHORT_PRESET, defaults=dict(
        position=15, min_players=2, max_players=4, deck_size=24,
        description="Classic with 24 cards, for the browser tests."))
    return SHORT_PRESET
