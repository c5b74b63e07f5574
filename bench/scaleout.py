"""Throughput against the number of Daphne processes: `scripts/bench-scaleout`.

Run by scripts/bench-scaleout, which starts a private PostgreSQL and Redis (Debian's
packages, as scripts/_services.sh starts them for the tests) and gives their URLs in
DATABASE_URL and REDIS_URL. For each N of `--daphnes` (1 2 4) it starts N Daphne
processes of the production recipe's kind (DEBUG off, `-v 0`, a connection kept per
process) sharing one port through SO_REUSEPORT (scripts/daphne_shared_port.py, the
way scripts/run runs two), pinned with `taskset` to the site's cores (`--site-cpus`),
while PostgreSQL, Redis and the benchmark client (bench.loadtest, a process of its own)
are pinned to the others (`--other-cpus`); then it runs the load benchmark and prints one
row per N: bench.loadtest's columns, PostgreSQL's and Redis's CPU over the measured
time, the client's, and which resource limits (a set of cores that is nearly full, and
within the other set which process uses most of it).

No nginx in front: the kernel spreads connections over the Daphnes as nginx's upstream
would, and nginx's own CPU would share the other cores with the client. No Celery: the
benchmark's tables are two people, no bot. A benchmark, not a test: figures from a busy
machine say little; read them beside `uptime`.
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import psutil

ROOT = Path(__file__).resolve().parent.parent
ROW = re.compile(r"^\|(.+)\|\s*$")


def listening(port: int) -> psutil.Process | None:
    """The process listening on `port` on this machine."""
    for conn in psutil.net_connections(kind="tcp"):
        if conn.status == psutil.CONN_LISTEN and conn.laddr and conn.laddr.port == port \
                and conn.pid:
            return psutil.Process(conn.pid)
    return None


def family(root: psutil.Process) -> list[psutil.Process]:
    """A process and its children (PostgreSQL's postmaster forks a backend per connection)."""
    try:
        return [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def pin(processes: list[psutil.Process], cpus: list[int]) -> None:
    for p in processes:
        try:
            p.cpu_affinity(cpus)
        except psutil.NoSuchProcess:
            pass


class CpuMeter:
    """CPU seconds of a process and its children between `start` and `stop` (children
    that start meanwhile count from zero)."""

    def __init__(self, root: psutil.Process | None):
        self.root = root
        self.before: dict[int, float] = {}

    def _now(self) -> dict[int, float]:
        times = {}
        for p in family(self.root) if self.root else []:
            try:
                times[p.pid] = sum(p.cpu_times()[:2])
            except psutil.NoSuchProcess:
                continue
        return times

    def start(self) -> None:
        self.before = self._now()

    def stop(self) -> float:
        return sum(t - self.before.get(pid, 0.0) for pid, t in self._now().items())


def cpus(text: str) -> list[int]:
    """"0" or "0,2" or "0-3": the cores named."""
    found: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        found += list(range(int(low), int(high or low) + 1))
    return found


def site_env(args, secret: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update({
        "PYTHONPATH": str(ROOT), "DEBUG": "false", "SECRET_KEY": secret,
        "HOST": "127.0.0.1", "PORT": str(args.port), "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SITE_URL": f"http://127.0.0.1:{args.port}", "DB_CONN_MAX_AGE": "60",
        "WS_MAX_PER_ADDRESS": "100000", "WS_MAX_PER_GAME": "100000",
        "ACCOUNT_RATE_LIMITS": "off", "LOG_LEVEL": "WARNING", "DJANGO_SETTINGS_MODULE":
        "durak_site.settings",
    })
    return env


def wait_for_site(port: int, seconds: float = 60.0) -> None:
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return
        except Exception:  # noqa: BLE001 - not up yet
            time.sleep(0.3)
    raise SystemExit(f"the site did not answer on port {port} within {seconds:.0f} s")


def start_daphnes(n: int, args, env: dict[str, str]) -> list[subprocess.Popen]:
    site = ",".join(map(str, cpus(args.site_cpus)))
    daphnes = [subprocess.Popen(["taskset", "-c", site, sys.executable,
                                 str(ROOT / "scripts" / "daphne_shared_port.py"), "-v", "0"],
                                env=env, cwd=ROOT) for _ in range(n)]
    wait_for_site(args.port)
    time.sleep(1.0)  # every Daphne listening, not only the first
    return daphnes


def stop(processes: list[subprocess.Popen]) -> None:
    for p in processes:
        p.terminate()
    for p in processes:
        try:
            p.wait(15)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def load(args, env: dict[str, str], pg: CpuMeter, redis: CpuMeter) -> tuple[list[str], float, float, float, float]:
    """One run of bench.loadtest on the other cores: its row's cells, PostgreSQL's,
    Redis's and the client's CPU seconds over the measured time, and that time."""
    other = ",".join(map(str, cpus(args.other_cpus)))
    command = ["taskset", "-c", other, sys.executable, "-m", "bench.loadtest",
               "--url", f"http://127.0.0.1:{args.port}", "--tables", str(args.tables),
               "--seconds", str(args.seconds), "--interval", str(args.interval)]
    if args.echo:
        command.append("--echo")
    proc = subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    client = CpuMeter(psutil.Process(proc.pid))  # taskset, then the client it becomes
    started = ended = None
    pg_cpu = redis_cpu = client_cpu = 0.0
    assert proc.stderr is not None and proc.stdout is not None
    for line in proc.stderr:  # the measured time: from "ready" to the run's report
        if started is None and "ready" in line:
            for meter in (pg, redis, client):
                meter.start()
            started = time.monotonic()
        elif started is not None and ended is None and line.startswith("| live tables"):
            ended = time.monotonic()
            pg_cpu, redis_cpu, client_cpu = pg.stop(), redis.stop(), client.stop()
        elif not line.startswith("|"):
            sys.stderr.write(line)
    out = proc.stdout.read()
    proc.wait()
    rows = [ROW.match(line) for line in out.splitlines()]
    cells = [[c.strip() for c in m.group(1).split("|")] for m in rows if m]
    if proc.returncode or started is None or ended is None or len(cells) < 3:
        raise SystemExit(f"the load benchmark failed (exit {proc.returncode})")
    return cells[-1], pg_cpu, redis_cpu, client_cpu, ended - started


def percent(seconds: float, wall: float) -> str:
    return f"{100 * seconds / wall:.0f}%"


def daphne_cpus(cell: str) -> list[float]:
    """Each Daphne's CPU, in %, from bench.loadtest's "server CPU" cell ("daphne 41%, ...")."""
    return [float(m) for m in re.findall(r"(?:daphne|python[\d.]*)\s+(\d+)%", cell)]


def site_cpu(cell: str) -> float:
    """The Daphnes' CPU, in %, all together."""
    return sum(daphne_cpus(cell))


def verdict(daphnes: float, pg: float, redis: float, client: float, site_cores: int,
            other_cores: int, busiest_daphne: float = 0.0, shared: bool = False) -> str:
    """Which resource limits: a set of cores at 85% or more, or one Daphne process (it runs
    on one core at a time) at 85% of a core; else none. `shared`: the site and the rest run
    on the same cores, so their use adds up."""
    other = {"PostgreSQL": pg, "Redis": redis, "the client": client}
    site_full = (daphnes + (sum(other.values()) if shared else 0)) / (100 * site_cores)
    if busiest_daphne >= 85 and site_full < 0.85:
        return f"one Daphne process ({busiest_daphne:.0f}% of a core): run more"
    other_full = site_full if shared else sum(other.values()) / (100 * other_cores)
    busiest = max(other, key=lambda k: other[k])
    if max(site_full, other_full) < 0.85:
        return "nothing full: the offered load is handled"
    if site_full >= other_full:
        return f"the Daphnes' cores ({site_full:.0%} busy)"
    return f"the other cores ({other_full:.0%} busy), most of it {busiest}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="scripts/bench-scaleout", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--daphnes", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--tables", type=int, default=200, help="live two-player tables")
    parser.add_argument("--seconds", type=float, default=25.0)
    parser.add_argument("--interval", type=float, default=2.0,
                        help="seconds between a table's moves")
    parser.add_argument("--site-cpus", default="0", help="the Daphnes' cores (taskset)")
    parser.add_argument("--other-cpus", default="1",
                        help="PostgreSQL's, Redis's and the client's cores")
    parser.add_argument("--port", type=int, default=8460)
    parser.add_argument("--echo", action="store_true", help="also time the echo baseline")
    args = parser.parse_args(argv)
    for name in ("DATABASE_URL", "REDIS_URL"):
        if not os.environ.get(name):
            raise SystemExit(f"{name} is not set: run scripts/bench-scaleout")
    postgres = listening(urlsplit(os.environ["DATABASE_URL"]).port or 5432)
    redis = listening(urlsplit(os.environ["REDIS_URL"]).port or 6379)
    other = cpus(args.other_cpus)
    for server in (postgres, redis):
        if server is not None:
            pin(family(server), other)  # new backends inherit the postmaster's cores
    env = site_env(args, secrets.token_urlsafe(50))
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], env=env, cwd=ROOT,
                   check=True)
    columns = ["Daphnes", "live tables", "moves/s offered", "handled", "p50", "p95", "p99",
               "errors", "echo p50", "echo p95", "server CPU", "server RSS",
               "PostgreSQL CPU", "Redis CPU", "client CPU", "limit"]
    rows = []
    for n in args.daphnes:
        daphnes = start_daphnes(n, args, env)
        try:
            cells, pg_cpu, redis_cpu, client_cpu, wall = load(
                args, env, CpuMeter(postgres), CpuMeter(redis))
        finally:
            stop(daphnes)
        limit = verdict(site_cpu(cells[9]), 100 * pg_cpu / wall, 100 * redis_cpu / wall,
                        100 * client_cpu / wall, len(cpus(args.site_cpus)), len(other),
                        max(daphne_cpus(cells[9]), default=0.0),
                        shared=set(cpus(args.site_cpus)) == set(other))
        rows.append([str(n), *cells, percent(pg_cpu, wall), percent(redis_cpu, wall),
                     percent(client_cpu, wall), limit])
        print("| " + " | ".join(rows[-1]) + " |", file=sys.stderr)
    print(f"site cores {args.site_cpus}; PostgreSQL, Redis and the client on {args.other_cpus}; "
          f"{args.tables} tables, a move every {args.interval} s each, {args.seconds} s a run")
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
