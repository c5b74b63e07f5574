"""A small process supervisor for scripts/run (stdlib, and the site's environment helpers).

    python scripts/supervise.py Procfile [--skip NAME] [--once NAME] [--ready NAME=HOST:PORT]
        [--free VAR=HOST:PORT] [--announce TEXT] [--log FILE]

The Procfile holds `name: command` lines (run with bash, so $VARS expand). They start in
file order: a --once step runs to completion (failure stops everything), a --ready
process must accept connections on HOST:PORT before the next one starts. After the last
one, --announce is printed. A process that dies is restarted after a back-off (1 s,
doubling up to 30 s, back to 1 s once it has run for a minute). Ctrl-C or SIGTERM stops
the processes one by one in the reverse order of their start (SIGTERM to the process
group, SIGKILL after a grace period), so list first what must stop last.
Each --free port is checked before anything starts: in use -> a message naming the
port and the variable that changes it, exit 2.
"""

import argparse
import ctypes
import errno
import os
import signal
import socket
import subprocess
import sys
import time

from durak_site.env import envfloat

GRACE = envfloat("SUPERVISE_GRACE", "10") or 0.0  # seconds from SIGTERM to SIGKILL
BACKOFF_FIRST, BACKOFF_MAX, STABLE = 1.0, 30.0, 60.0
_log_file = None


def log(message: str) -> None:
    line = f"{time.strftime('%H:%M:%S')} supervise: {message}"
    print(line, file=sys.stderr, flush=True)
    if _log_file:
        _log_file.write(line + "\n")
        _log_file.flush()


def read_procfile(path: str) -> list[tuple[str, str]]:
    entries = []
    with open(path) as f:
        for raw in f:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            name, sep, command = line.partition(":")
            if not sep or not name.strip() or not command.strip():
                raise SystemExit(f"supervise: bad Procfile line: {raw.rstrip()}")
            entries.append((name.strip(), command.strip()))
    return entries


def host_port(value: str) -> tuple[str, int]:
    host, _, port = value.rpartition(":")
    return host.strip("[]") or "127.0.0.1", int(port)


def port_in_use(host: str, port: int) -> bool:
    """True if a server could not bind host:port (as Daphne and Redis will try to)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as e:
            return e.errno in (errno.EADDRINUSE, errno.EACCES)
    # Bound to a wildcard address? A server on 127.0.0.1 alone still blocks it for us.
    if host in ("0.0.0.0", "::"):
        return port_in_use("127.0.0.1", port)
    return False


def accepting(host: str, port: int) -> bool:
    host = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def _child_setup() -> None:
    """In the child before exec: a session of its own (Ctrl-C reaches only the supervisor,
    which stops the processes in order; the whole group, e.g. Celery's pool, can be
    signalled), and SIGTERM if the supervisor itself dies (Linux), so nothing is orphaned."""
    os.setsid()
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def describe(status: int) -> str:
    if status < 0:
        try:
            return f"killed by {signal.Signals(-status).name}"
        except ValueError:
            return f"killed by signal {-status}"
    return f"exit status {status}"


class Proc:
    def __init__(self, name: str, command: str):
        self.name, self.command = name, command
        self.popen: subprocess.Popen | None = None
        self.started = 0.0
        self.backoff = BACKOFF_FIRST
        self.restart_at: float | None = None
        self.restarts = 0

    def start(self) -> None:
        self.popen = subprocess.Popen(
            ["bash", "-c", f"exec {self.command}"], preexec_fn=_child_setup)  # noqa: PLW1509
        self.started = time.monotonic()
        self.restart_at = None
        log(f"{self.name} started (pid {self.popen.pid})")

    @property
    def pid(self) -> int | None:
        return self.popen.pid if self.popen else None

    def signal_group(self, sig: int) -> None:
        if self.popen is None:
            return
        try:
            os.killpg(self.popen.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass

    def stop(self) -> None:
        self.restart_at = None
        if self.popen is None:
            return
        if self.popen.poll() is None:
            log(f"stopping {self.name} (pid {self.popen.pid})")
            # The leader only: a Celery worker then finishes its running tasks (warm
            # shutdown) and stops its pool itself; what is left of the group is killed.
            self.popen.send_signal(signal.SIGTERM)
            try:
                self.popen.wait(GRACE)
            except subprocess.TimeoutExpired:
                log(f"{self.name} did not stop within {GRACE:g} s: SIGKILL")
                self.signal_group(signal.SIGKILL)
                self.popen.wait()
        self.signal_group(signal.SIGKILL)  # anything of its group left behind
        log(f"{self.name} stopped ({describe(self.popen.returncode)})")
        self.popen = None


class Supervisor:
    def __init__(self) -> None:
        self.running: list[Proc] = []  # in start order
        self.stopping = False

    def on_signal(self, signum, frame) -> None:
        if not self.stopping:
            self.stopping = True
            log(f"{signal.Signals(signum).name} received: stopping everything")

    def sleep(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while not self.stopping and time.monotonic() < end:
            self.check()
            time.sleep(min(0.1, max(0.0, end - time.monotonic())))

    def check(self) -> None:
        """Restart what died (after its back-off)."""
        now = time.monotonic()
        for p in self.running:
            if p.restart_at is not None:
                if now >= p.restart_at and not self.stopping:
                    p.restarts += 1
                    p.start()
                continue
            if p.popen is None or p.popen.poll() is None:
                continue
            status = p.popen.returncode
            p.signal_group(signal.SIGKILL)  # orphans of the dead one (e.g. pool children)
            if now - p.started >= STABLE:
                p.backoff = BACKOFF_FIRST
            log(f"{p.name} (pid {p.popen.pid}) died ({describe(status)}); "
                f"restarting it in {p.backoff:g} s")
            p.restart_at = now + p.backoff
            p.backoff = min(p.backoff * 2, BACKOFF_MAX)

    def stop_all(self) -> None:
        self.stopping = True
        for p in reversed(self.running):
            p.stop()
        log("everything stopped")

    def run(self, entries, once, ready, announce) -> int:
        for name, command in entries:
            if self.stopping:
                return 1
            if name in once:
                log(f"{name}: {command}")
                step = subprocess.Popen(["bash", "-c", command])
                while step.poll() is None:
                    if self.stopping:
                        step.terminate()
                        step.wait()
                        return 1
                    self.sleep(0.1)
                if step.returncode != 0:
                    log(f"{name} failed ({describe(step.returncode)}): stopping")
                    return 1
                continue
            proc = Proc(name, command)
            proc.start()
            self.running.append(proc)
            if name in ready:
                host, port = ready[name]
                while not accepting(host, port):
                    if self.stopping:
                        return 1
                    self.sleep(0.1)
                log(f"{name} is accepting connections on {host}:{port}")
        if announce:
            print(announce, file=sys.stderr, flush=True)
        while not self.stopping:
            self.sleep(0.5)
        return 0


def main(argv=None) -> int:
    global _log_file
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("procfile")
    parser.add_argument("--skip", action="append", default=[])
    parser.add_argument("--once", action="append", default=[])
    parser.add_argument("--ready", action="append", default=[], metavar="NAME=HOST:PORT")
    parser.add_argument("--free", action="append", default=[], metavar="VAR=HOST:PORT")
    parser.add_argument("--announce", default="")
    parser.add_argument("--log")
    args = parser.parse_args(argv)

    for item in args.free:
        var, _, address = item.partition("=")
        host, port = host_port(address)
        if port_in_use(host, port):
            print(f"Can't start: port {port} ({var}) on {host} is already in use, perhaps by "
                  f"another copy of the site. Stop that program, or choose another port: "
                  f"{var}=<free port> scripts/run", file=sys.stderr)
            return 2

    if args.log:
        _log_file = open(args.log, "a")  # noqa: SIM115 - open for the whole run
    entries = [(n, c) for n, c in read_procfile(args.procfile) if n not in args.skip]
    ready = {}
    for item in args.ready:
        name, _, address = item.partition("=")
        ready[name] = host_port(address)

    supervisor = Supervisor()
    signal.signal(signal.SIGINT, supervisor.on_signal)
    signal.signal(signal.SIGTERM, supervisor.on_signal)
    signal.signal(signal.SIGHUP, supervisor.on_signal)
    try:
        status = supervisor.run(entries, set(args.once), ready, args.announce)
    finally:
        supervisor.stop_all()
    return status


if __name__ == "__main__":
    sys.exit(main())
