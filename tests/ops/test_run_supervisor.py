"""scripts/run under scripts/supervise.py: busy ports refused, crashes restarted, ordered stop.

These start the real scripts/run (private Redis, Daphne, Celery worker and beat) on free
ports, with a temporary RUN_DIR and SQLite database. Processes are found by walking
/proc from scripts/run's pid, so the tests judge any scripts/run, not only this one.
They are in the second tier (marked integration): each start takes 10–20 s of 2 cores.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from tests.integration.procs import free_port

ROOT = Path(__file__).resolve().parents[2]
RUN = ROOT / "scripts" / "run"

pytestmark = pytest.mark.integration


def run_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("REDIS_URL", "DATABASE_URL", "SECRET_KEY", "DEBUG", "SITE_URL")}
    env.update(RUN_DIR=str(tmp_path / "run"), DATABASE_URL=f"sqlite:///{tmp_path}/db.sqlite3",
               HOST="127.0.0.1", PORT=str(free_port()), REDIS_PORT=str(free_port()))
    env.update(extra)
    return env


def proc_stat(pid: int) -> tuple[int, str] | None:
    """(parent pid, state) of a live process, None if it is gone (or a zombie)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rpartition(")")[2].split()
    return (int(fields[1]), fields[0]) if fields[0] not in ("Z", "X") else None


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""


def alive(pid: int) -> bool:
    return proc_stat(pid) is not None


def descendants(root: int) -> set[int]:
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (stat := proc_stat(int(entry.name))):
            parents[int(entry.name)] = stat[0]
    found, frontier = set(), {root}
    while frontier:
        frontier = {pid for pid, ppid in parents.items() if ppid in frontier} - found
        found |= frontier
    return found


def main_pids(root: int, *words: str) -> set[int]:
    """Descendants whose command holds all words, without their own such children
    (Celery's pool processes share the command line of the worker)."""
    def names(pid: int) -> set[str]:
        return {os.path.basename(arg.split(" ")[0]) for arg in cmdline(pid).split("\0")}

    pids = {p for p in descendants(root) if set(words) <= names(p)}
    return {p for p in pids if (proc_stat(p) or (0,))[0] not in pids}


def wait_for(what, timeout: float, message: str, interval: float = 0.2):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if result := what():
            return result
        time.sleep(interval)
    raise AssertionError(message)


def status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status
    except Exception:
        return 0


class Site:
    def __init__(self, tmp_path: Path, **extra: str):
        self.env = run_env(tmp_path, **extra)
        self.url = f"http://127.0.0.1:{self.env['PORT']}/"
        self.out = tmp_path / "run.out"
        self._out = self.out.open("w")
        self.proc = subprocess.Popen([str(RUN)], cwd=ROOT, env=self.env, stdout=self._out,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        self.seen: set[int] = set()

    def output(self) -> str:
        return self.out.read_text(errors="replace")

    def track(self) -> set[int]:
        self.seen |= descendants(self.proc.pid)
        return self.seen

    def wait_until_served(self) -> None:
        wait_for(lambda: self.proc.poll() is not None or status(self.url) == 200, 120,
                 "the site did not answer")
        assert status(self.url) == 200, self.output()[-3000:]
        self.track()

    def worker(self) -> int | None:
        """The worker of bot moves (-Q play; the coach's worker is another)."""
        pids = main_pids(self.proc.pid, "celery", "worker", "play")
        return next(iter(pids)) if len(pids) == 1 else None

    def close(self) -> None:
        """Whatever happened, leave nothing running."""
        self.track()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                pass
        for pid in self.track() | {self.proc.pid}:
            if alive(pid):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        if self.proc.poll() is None:
            self.proc.wait(5)
        self._out.close()


@pytest.fixture
def site(tmp_path):
    sites: list[Site] = []

    def start(**extra: str) -> Site:
        sites.append(Site(tmp_path, **extra))
        return sites[-1]

    yield start
    for s in sites:
        s.close()


@pytest.mark.parametrize("var", ["PORT", "REDIS_PORT"])
def test_a_busy_port_stops_the_start_with_a_message_naming_it(tmp_path, var):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        env = run_env(tmp_path, **{var: str(port)})
        result = subprocess.run([str(RUN)], cwd=ROOT, env=env, capture_output=True,
                                text=True, timeout=60, start_new_session=True)
    out = result.stdout + result.stderr
    assert result.returncode != 0, out
    assert str(port) in result.stderr and f"{var}=" in result.stderr, out
    assert "Serving on" not in out and "migrate" not in out, out
    assert not (tmp_path / "db.sqlite3").exists(), "migrated before refusing"


def test_a_killed_worker_is_restarted_and_the_site_keeps_answering(site):
    s = site()
    s.wait_until_served()
    first = wait_for(s.worker, 30, "no Celery worker under scripts/run")
    old = {first} | descendants(first)  # its pool: orphans for a moment, not a new worker
    os.kill(first, signal.SIGKILL)
    wait_for(lambda: not alive(first), 10, "the killed worker lingers")
    second = wait_for(lambda: (w := s.worker()) and w not in old and w, 30,
                      f"the worker was not restarted:\n{s.output()[-3000:]}")
    assert alive(second)
    assert s.proc.poll() is None, "scripts/run stopped"
    assert status(s.url) == 200
    assert f"worker (pid {first}) died (killed by SIGKILL); restarting" in s.output()

    # The private Redis too; the site answers again once it is back.
    redis = wait_for(lambda: main_pids(s.proc.pid, "redis-server"), 5, "no private Redis")
    os.kill(next(iter(redis)), signal.SIGKILL)
    wait_for(lambda: (r := main_pids(s.proc.pid, "redis-server")) and r != redis, 30,
             f"Redis was not restarted:\n{s.output()[-3000:]}")
    wait_for(lambda: status(s.url) == 200, 30, "the site no longer answers")
    assert s.proc.poll() is None


def test_sigterm_stops_the_worker_and_beat_before_daphne_and_leaves_nothing(site):
    s = site()
    s.wait_until_served()
    wait_for(lambda: s.worker() and main_pids(s.proc.pid, "celery", "beat"), 30,
             "no worker and beat")
    groups = {
        "worker": main_pids(s.proc.pid, "celery", "worker"),
        "beat": main_pids(s.proc.pid, "celery", "beat"),
        "daphne": main_pids(s.proc.pid, "daphne"),
        "redis": main_pids(s.proc.pid, "redis-server"),
    }
    assert all(groups.values()), groups
    everything = s.track()

    s.proc.send_signal(signal.SIGTERM)
    gone: dict[str, float] = {}
    started = time.monotonic()
    while len(gone) < len(groups) and time.monotonic() - started < 40:
        for name, pids in groups.items():
            if name not in gone and not any(alive(p) for p in pids):
                gone[name] = time.monotonic() - started
        time.sleep(0.02)
    s.proc.wait(20)
    left = {p: cmdline(p) for p in everything if alive(p)}
    assert not left, f"left running: {left}"
    assert set(gone) == set(groups), gone
    assert gone["worker"] < gone["daphne"] and gone["beat"] < gone["daphne"], gone
    assert gone["daphne"] <= gone["redis"], gone
    log = s.output()
    order = [log.find(f"supervise: {name} stopped") for name in ("worker", "web", "redis")]
    assert -1 not in order and order == sorted(order), log[-2000:]
