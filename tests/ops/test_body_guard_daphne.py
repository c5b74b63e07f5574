"""A real Daphne, run alone, answers 413 to a body over the limit, sent with a
Content-Length or chunked, and goes on serving (durak_site.bodylimit, an ASGI middleware).
Daphne reads a body whole before it calls the application and has no limit of its own:
that a big body is refused before Daphne reads it is nginx's job in the deploy recipe
(tests/deploy/test_recipe.py). Also, on the same Daphne run as behind nginx, what
/healthz tells a client nginx passes on."""

from __future__ import annotations

import os
import select
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.integration.procs import free_port

ROOT = Path(__file__).resolve().parents[2]
DAPHNE = Path(sys.executable).parent / "daphne"
BODY = 8 * 1024 * 1024  # over the limit (about 1 MB), small enough to send whole
PIECE = b"\0" * (1024 * 1024)
# (Daphne runs with --proxy-headers, as behind nginx: X-Forwarded-For is the client.)


@pytest.fixture
def daphne(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env.update(DJANGO_SETTINGS_MODULE="durak_site.settings", DEBUG="false",
               SECRET_KEY="x7Qp2-" + "".join(f"{b:02x}" for b in os.urandom(32)),
               DATABASE_URL=f"sqlite:///{tmp_path}/db.sqlite3", ALLOWED_HOSTS="127.0.0.1",
               PYTHONUNBUFFERED="1")
    env.pop("REDIS_URL", None)
    log = (tmp_path / "daphne.log").open("w")
    proc = subprocess.Popen([str(DAPHNE), "-b", "127.0.0.1", "-p", str(port), "--proxy-headers",
                             "durak_site.asgi:application"], cwd=ROOT, env=env, stdout=log,
                            stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, (tmp_path / "daphne.log").read_text()[-3000:]
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "Daphne did not listen"
                time.sleep(0.2)
        yield proc, port
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        log.close()


def ask(port: int, head: bytes, body_pieces=0, chunked=False) -> tuple[bytes, int]:
    """Send head and up to body_pieces MiB of zeros, reading as we go; returns (the
    answer, the body bytes sent) once the server answers and closes, or all is sent."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    answer, sent = b"", 0
    try:
        sock.sendall(head)
        for _ in range(body_pieces):
            readable, _, _ = select.select([sock], [], [], 0)
            if readable:
                break
            try:
                sock.sendall(b"%x\r\n%s\r\n" % (len(PIECE), PIECE) if chunked else PIECE)
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += len(PIECE)
        else:
            if chunked:
                sock.sendall(b"0\r\n\r\n")
        sock.settimeout(30)
        while True:
            try:
                data = sock.recv(65536)
            except (ConnectionResetError, TimeoutError):
                break
            if not data:
                break
            answer += data
            if b"\r\n\r\n" in answer and b"Content-Length: 0" in answer:
                break
    finally:
        sock.close()
    return answer, sent


def test_a_body_over_the_limit_gets_a_413_and_daphne_goes_on(daphne):
    _, port = daphne
    warm = b"GET /static/css/site.css HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    assert ask(port, warm)[0].startswith(b"HTTP/1.1 200")
    small = (b"POST /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
             b"Content-Type: application/octet-stream\r\nContent-Length: 10\r\n\r\n0123456789")
    assert ask(port, small)[0].startswith(b"HTTP/1.1 403")  # read and refused (no CSRF)

    head = (b"POST /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/octet-stream\r\n")
    with_length = head + b"Content-Length: %d\r\n\r\n" % BODY
    chunked = head + b"Transfer-Encoding: chunked\r\n\r\n"
    for answer, _ in (ask(port, with_length, BODY // len(PIECE)),
                      ask(port, chunked, BODY // len(PIECE), chunked=True)):
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert ask(port, warm)[0].startswith(b"HTTP/1.1 200")  # and it still serves


def test_behind_a_proxy_healthz_names_nothing_to_a_remote_client(daphne):
    """nginx is on this machine, but with --proxy-headers Daphne sees the client's
    address: a remote client gets "ok", this machine the checks by name."""
    _, port = daphne
    head = "GET /healthz?format=json HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
    remote, _ = ask(port, (head + "X-Forwarded-For: 203.0.113.9\r\n\r\n").encode())
    assert remote.startswith(b"HTTP/1.1 200") and remote.endswith(b"\r\n\r\nok\n"), remote
    local, _ = ask(port, (head + "X-Forwarded-For: 127.0.0.1\r\n\r\n").encode())
    assert local.startswith(b"HTTP/1.1 200") and b"Database" in local, local
