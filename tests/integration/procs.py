"""Real processes for the integration tier: Daphne, a Celery worker, Celery beat.

Every process is started in its own session (its own process group) on loopback, with
its output in a log file, and stopped by `Proc.stop()` (SIGTERM to the group, then
SIGKILL after a bounded wait). The `procs` fixture in conftest.py stops whatever a test
started, even when the test fails. Every wait here is bounded.
"""

from __future__ import annotations

import atexit
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent
LOOPBACK = "127.0.0.1"


class ProcessError(AssertionError):
    """A process did not start, or died, or a wait ran out: carries the log's tail."""


def free_port() -> int:
    """A TCP port that was free on loopback a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


def port_open(port: int, host: str = LOOPBACK) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def wait_until(predicate, *, timeout: float, interval: float = 0.1, what: str = "a condition",
               proc: Proc | None = None):
    """Poll `predicate` until it returns something truthy (returned) or `timeout` seconds
    pass (ProcessError naming `what`, with `proc`'s log tail). A watched process that dies
    ends the wait at once."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if proc is not None and not proc.alive:
            raise ProcessError(f"{proc.name} exited with {proc.returncode} while waiting for "
                               f"{what}\n{proc.tail()}")
        if time.monotonic() >= deadline:
            tail = f"\n{proc.tail()}" if proc is not None else ""
            raise ProcessError(f"timed out after {timeout:g} s waiting for {what}{tail}")
        time.sleep(interval)


class Proc:
    """One child process (and its group), logging to `log_path`."""

    def __init__(self, name: str, argv: list[str], env: dict, log_path: Path):
        self.name = name
        self.argv = argv
        self.log_path = Path(log_path)
        self._log = open(self.log_path, "ab")  # noqa: SIM115 - closed in stop()
        self.popen = subprocess.Popen(
            argv, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=self._log,
            stderr=subprocess.STDOUT, start_new_session=True,
        )
        self.pid = self.popen.pid  # also the process group id (its own session)

    def __repr__(self):
        return f"<Proc {self.name} pid={self.pid} alive={self.alive}>"

    @property
    def alive(self) -> bool:
        return self.popen.poll() is None

    @property
    def returncode(self):
        return self.popen.poll()

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def tail(self, lines: int = 40) -> str:
        text = self.log().splitlines()[-lines:]
        return f"--- last lines of {self.name}'s log ({self.log_path}) ---\n" + "\n".join(text)

    def wait_for_log(self, text: str, *, timeout: float = 30.0, start: int = 0) -> int:
        """Wait until `text` appears in the log after offset `start`; returns its offset."""
        def found():
            i = self.log().find(text, start)
            return i + 1 if i >= 0 else 0
        return wait_until(found, timeout=timeout, what=f"{text!r} in {self.name}'s log",
                          proc=self) - 1

    def _signal_group(self, sig) -> None:
        try:
            os.killpg(self.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass

    def kill(self) -> None:
        """SIGKILL the whole process group (the worker and its pool children) at once."""
        self._signal_group(signal.SIGKILL)
        try:
            self.popen.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL is not refused
            pass
        self._wait_group_gone()

    def stop(self, timeout: float = 10.0, *, signalled: bool = False) -> None:
        """SIGTERM the group (unless `signalled` already); SIGKILL whatever is left after
        `timeout` seconds."""
        if self.alive:
            if not signalled:
                self._signal_group(signal.SIGTERM)
            try:
                self.popen.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                pass
        self._signal_group(signal.SIGKILL)  # children that outlived their parent, too
        try:
            self.popen.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            pass
        self._wait_group_gone()
        if not self._log.closed:
            self._log.close()

    def _wait_group_gone(self, timeout: float = 10.0) -> None:
        """Until no process of the group is left (pool children die a moment later)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                os.killpg(self.pid, 0)
            except (ProcessLookupError, PermissionError):
                return
            time.sleep(0.05)


_LIVE: list[Proc] = []


@atexit.register
def _stop_leftovers() -> None:
    """Last resort (pytest itself interrupted): no site process outlives the test run."""
    for proc in _LIVE:
        proc._signal_group(signal.SIGKILL)


class Procs:
    """Starts the site's processes for one test and stops them all afterwards."""

    def __init__(self, env: dict, log_dir: Path):
        self.env = dict(env)
        self.log_dir = Path(log_dir)
        self.started: list[Proc] = []
        self._count = 0

    def _start(self, name: str, argv: list[str], env: dict | None = None) -> Proc:
        self._count += 1
        full_env = {**self.env, **(env or {})}
        proc = Proc(name, argv, full_env, self.log_dir / f"{self._count:02d}-{name}.log")
        self.started.append(proc)
        _LIVE.append(proc)
        return proc

    def daphne(self, port: int | None = None, *, env: dict | None = None,
               timeout: float = 30.0) -> tuple[Proc, int]:
        """A Daphne process serving the site on loopback; returns (proc, port) once it
        accepts connections."""
        port = port or free_port()
        proc = self._start(f"daphne-{port}", [
            str(VENV_BIN / "daphne"), "-b", LOOPBACK, "-p", str(port),
            "durak_site.asgi:application",
        ], env)
        wait_until(lambda: port_open(port), timeout=timeout,
                   what=f"Daphne to listen on {LOOPBACK}:{port}", proc=proc)
        return proc, port

    def worker(self, name: str = "worker", *, concurrency: int = 2, env: dict | None = None,
               module: str | None = None, timeout: float = 30.0) -> Proc:
        """A Celery worker consuming the default queue, ready when this returns.

        `module` runs the worker through a wrapper module (`python -m module ...`) that may
        change the worker before it starts (see slow_bot_worker.py).
        """
        launcher = [sys.executable, "-m", module] if module else [str(VENV_BIN / "celery")]
        node = f"{name}-{os.getpid()}-{len(self.started)}@{LOOPBACK}"
        proc = self._start(name, [
            *launcher, "-A", "durak_site", "worker", "--loglevel=info", "-n", node,
            f"--concurrency={concurrency}", "--pool=prefork",
            "--without-gossip", "--without-mingle", "--without-heartbeat",
        ], env)
        proc.wait_for_log(" ready.", timeout=timeout)
        return proc

    def site_worker(self, name: str, args: list[str], *, env: dict | None = None,
                    module: str | None = None, timeout: float = 30.0) -> Proc:
        """A Celery worker with the site's own arguments (`args`: a Procfile line after
        "celery"), its own node name and info logging (its tasks are in its log); ready when
        this returns. `module` as for worker()."""
        launcher = [sys.executable, "-m", module] if module else [str(VENV_BIN / "celery")]
        node = f"{name}-{os.getpid()}-{len(self.started)}@{LOOPBACK}"
        proc = self._start(name, [
            *launcher, *args, "--loglevel=info", "-n", node,
            "--without-gossip", "--without-mingle", "--without-heartbeat",
        ], env)
        proc.wait_for_log(" ready.", timeout=timeout)
        return proc

    def redis(self, port: int | None = None, *, timeout: float = 30.0) -> tuple[Proc, int]:
        """A private Redis on loopback, kept in memory only (as the site's own); returns
        (proc, port) once it answers. Started again on the same port, it is empty."""
        port = port or free_port()
        proc = self._start(f"redis-{port}", [
            "redis-server", "--bind", LOOPBACK, "--port", str(port), "--save", "",
            "--appendonly", "no", "--dir", str(self.log_dir),
        ])
        wait_until(lambda: port_open(port), timeout=timeout,
                   what=f"Redis to listen on {LOOPBACK}:{port}", proc=proc)
        return proc, port

    def beat(self, *, env: dict | None = None, timeout: float = 30.0) -> Proc:
        """Celery beat with the site's schedule (the deadline sweep every few seconds)."""
        schedule = self.log_dir / f"beat-schedule-{len(self.started)}"
        proc = self._start("beat", [
            str(VENV_BIN / "celery"), "-A", "durak_site", "beat", "--loglevel=info",
            "--schedule", str(schedule), "--max-interval", "1",
        ], env)
        proc.wait_for_log("beat: Starting...", timeout=timeout)
        return proc

    def stop_all(self, timeout: float = 5.0) -> None:
        """SIGTERM every group at once (not one after another: each takes a second or
        more), then stop() each; SIGKILL for what is left `timeout` s after the SIGTERM."""
        signalled = {id(proc) for proc in self.started if proc.alive}
        for proc in self.started:
            if id(proc) in signalled:
                proc._signal_group(signal.SIGTERM)
        deadline = time.monotonic() + timeout
        for proc in reversed(self.started):
            proc.stop(max(0.0, deadline - time.monotonic()), signalled=id(proc) in signalled)
            if proc in _LIVE:
                _LIVE.remove(proc)
        self.started.clear()
