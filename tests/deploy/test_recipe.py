"""deploy/'s recipe, run on this machine: nginx in front of two Daphne processes
(--proxy-headers), a Redis and PostgreSQL, everything checked through nginx as a
browser or a monitor sees it. The processes log JSON (LOG_FORMAT=json)."""

import http.client
import json
import os
import re
import socket
import time
from datetime import timedelta
from urllib.parse import urlencode

import pytest
from django.contrib.auth.hashers import Argon2PasswordHasher
from websockets.exceptions import InvalidStatus

from games import services
from games.models import Move
from tests.games.leaks import assert_no_leak
from tests.integration.conftest import PASSWORD
from tests.integration.helpers import fresh, moves, plain_action, user_at
from tests.integration.procs import LOOPBACK, wait_until
from tests.integration.test_daphne import open_socket, request, session_cookie, table_frame

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

STATIC = re.compile(r'(?:src|href)="(/static/[^"]+)"')
HASHED = re.compile(r"\.[0-9a-f]{12}\.(?:css|js|svg|png)$")


def json_lines(proc) -> list[dict]:
    """Every line of a process's log, each parsed on its own (LOG_FORMAT=json)."""
    records = []
    for line in proc.log().splitlines():
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            raise AssertionError(f"{proc.name} logged a line that is not JSON: {line!r}") from None
    return records


def requests_seen(proc, method: str, path: str) -> list[dict]:
    return [r for r in json_lines(proc) if r.get("logger") == "durak.request"
            and r["method"] == method and r["path"] == path]


def rss_kib(proc) -> int:
    status = open(f"/proc/{proc.pid}/status").read()  # noqa: SIM115
    return int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1))


def fetch(recipe, path, *, headers=None, source=LOOPBACK) -> tuple[int, dict, str]:
    """GET through nginx from a chosen loopback address (127.0.0.x: another client)."""
    conn = http.client.HTTPConnection(LOOPBACK, recipe.nginx_port, timeout=15,
                                      source_address=(source, 0))
    try:
        conn.request("GET", path, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, dict(resp.headers), resp.read().decode(errors="replace")
    finally:
        conn.close()


def log_in(recipe, username, password, *, source, spoofed_for="") -> int:
    """The log-in form, sent from `source` with a forged X-Forwarded-For; the status."""
    conn = http.client.HTTPConnection(LOOPBACK, recipe.nginx_port, timeout=15,
                                      source_address=(source, 0))
    forged = {"X-Forwarded-For": spoofed_for} if spoofed_for else {}
    try:
        conn.request("GET", "/accounts/login/", headers=forged)
        resp = conn.getresponse()
        resp.read()
        token = re.search(r"csrftoken=([^;]+)", resp.headers["Set-Cookie"]).group(1)
        body = urlencode({"username": username, "password": password,
                          "csrfmiddlewaretoken": token})
        conn.request("POST", "/accounts/login/", body=body, headers={
            **forged, "Cookie": f"csrftoken={token}",
            "Content-Type": "application/x-www-form-urlencoded"})
        resp = conn.getresponse()
        resp.read()
        return resp.status
    finally:
        conn.close()


def post_move(recipe, game, cookies, action, version) -> tuple[int, str]:
    body = urlencode({"action": [action], "version": version}, doseq=True)
    return request(recipe.nginx_port, "POST", f"/games/{game.pk}/play/", cookies, body=body,
                   headers={"Content-Type": "application/x-www-form-urlencoded",
                            "X-CSRFToken": cookies["csrftoken"], "HX-Request": "true",
                            "Origin": recipe.url("").rstrip("/")})


def seat_cookies(recipe, game) -> dict[int, dict]:
    """Each seat's session, with the CSRF cookie the table page sets."""
    cookies = {}
    for seat in (0, 1):
        cookies[seat] = session_cookie(user_at(game, seat))
        status, _ = request(recipe.nginx_port, "GET", f"/games/{game.pk}/", cookies[seat])
        assert status == 200
    return cookies


def test_static_files_come_from_nginx_hashed_and_cached_for_a_year(recipe):
    status, headers, html = fetch(recipe, "/")
    assert status == 200 and headers["Server"] == "nginx"
    assets = STATIC.findall(html)
    assert any(a.endswith(".css") for a in assets) and any(a.endswith(".js") for a in assets)
    for asset in assets:
        assert HASHED.search(asset), f"{asset} has no content hash in its name"
        status, headers, _ = fetch(recipe, asset)
        assert status == 200, asset
        assert "max-age=31536000" in headers["Cache-Control"]
        assert "immutable" in headers["Cache-Control"]
    status, headers, _ = fetch(recipe, "/favicon.ico")  # the SVG's hashed name
    assert status == 301 and HASHED.search(headers["Location"]), headers
    assert fetch(recipe, headers["Location"])[0] == 200
    for daphne, _ in recipe.daphnes:  # Daphne never saw them (SERVE_STATIC=false)
        assert not [r for r in json_lines(daphne) if r.get("path", "").startswith("/static/")]


def test_a_table_plays_through_nginx_and_moves_reach_sockets_on_either_daphne(recipe, duel):
    game = fresh(duel)
    cookies = seat_cookies(recipe, game)
    proxied = recipe.nginx_port
    with open_socket(proxied, game, user_at(game, 0)) as first, \
            open_socket(proxied, game, user_at(game, 1)) as second:
        sockets = {0: first, 1: second}
        for ws in sockets.values():
            assert table_frame(ws, at_least=game.version)[1] == game.version
        # Moves in a row, nothing between them: nginx hands them to each Daphne in turn,
        # so every socket (held by one of them) hears of moves made on the other.
        for _ in range(4):
            game = fresh(duel)
            seat, version = game.turn_seat, game.version
            status, html = post_move(recipe, game, cookies[seat], plain_action(game), version)
            assert status == 200, html[:300]
            game = fresh(duel)
            assert game.version == version + 1
            for viewer, ws in sockets.items():
                html, seen = table_frame(ws, at_least=version + 1)
                assert seen == version + 1
                assert_no_leak(html, game.match().deal, viewer)
    assert [m.kind for m in moves(game, seq__gt=duel.version)] == [Move.Kind.MOVE] * 4
    play = f"/games/{game.pk}/play/"
    per_daphne = [requests_seen(daphne, "POST", play) for daphne, _ in recipe.daphnes]
    assert all(len(seen) == 2 for seen in per_daphne), per_daphne
    for daphne, _ in recipe.daphnes:
        assert not [r for r in json_lines(daphne) if r["level"] == "ERROR"], daphne.tail()
    access = [json.loads(line) for line in recipe.access_log().splitlines()]
    assert {r["upstream"] for r in access if r["uri"] == play} == {
        f"{LOOPBACK}:{port}" for _, port in recipe.daphnes}


def test_a_big_body_is_refused_by_nginx_before_daphne_reads_it(recipe):
    before = [rss_kib(daphne) for daphne, _ in recipe.daphnes]
    size = 50 * 1024 * 1024
    started = time.monotonic()
    with socket.create_connection((LOOPBACK, recipe.nginx_port), timeout=15) as conn:
        conn.sendall((f"POST /accounts/login/ HTTP/1.1\r\nHost: {LOOPBACK}\r\n"
                      "Content-Type: application/x-www-form-urlencoded\r\n"
                      f"Content-Length: {size}\r\nConnection: close\r\n\r\n").encode())
        chunk, sent = b"x" * (1024 * 1024), 0
        try:
            while sent < size:
                conn.sendall(chunk)
                sent += len(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass  # nginx may stop reading once it has answered
        answer = conn.recv(4096).decode(errors="replace")
    elapsed = time.monotonic() - started
    assert answer.startswith("HTTP/1.1 413"), answer[:200]
    print(f"50 MB body refused with 413 after {elapsed:.2f} s")
    after = [rss_kib(daphne) for daphne, _ in recipe.daphnes]
    assert all(a - b < 5 * 1024 for a, b in zip(after, before)), (before, after)
    for daphne, _ in recipe.daphnes:
        assert not requests_seen(daphne, "POST", "/accounts/login/")
    # Just over the limit (1 MB) is refused too; a form of normal size still gets through.
    status, _, _ = fetch(recipe, "/accounts/login/")
    assert status == 200
    conn = http.client.HTTPConnection(LOOPBACK, recipe.nginx_port, timeout=15)
    conn.request("POST", "/accounts/login/", body=b"x" * (1024 * 1024 + 1),
                 headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert conn.getresponse().status == 413
    conn.close()


def test_the_lockout_counts_the_client_address_nginx_passes_not_a_forged_one(recipe, carol):
    # The servers know the site's hashers, not the fast one of the test process.
    hasher = Argon2PasswordHasher()
    carol.password = hasher.encode(PASSWORD, hasher.salt())
    carol.save(update_fields=["password"])
    attacker, player = "127.0.0.5", "127.0.0.6"
    for attempt in range(5):
        forged = f"198.51.100.{attempt}"  # a new address each time, were it believed
        assert log_in(recipe, "carol", "wrong", source=attacker, spoofed_for=forged) in (200, 429)
    # Locked out from the attacker's address, even with the right password…
    assert log_in(recipe, "carol", PASSWORD, source=attacker, spoofed_for="203.0.113.9") == 429
    # …but not from carol's own address: the servers tell the two clients apart.
    assert log_in(recipe, "carol", PASSWORD, source=player) == 302
    clients = {r["client"] for daphne, _ in recipe.daphnes
               for r in requests_seen(daphne, "POST", "/accounts/login/")}
    assert clients == {attacker, player}


def test_healthz_follows_redis_and_play_survives_a_dead_daphne(recipe, duel):
    def health() -> tuple[int, dict]:
        status, _, body = fetch(recipe, "/healthz", headers={"Accept": "application/json"})
        return status, json.loads(body)

    status, checks = health()
    assert status == 200, checks
    assert len(checks) == 3 and set(checks.values()) == {"OK"}  # database, cache, Redis

    recipe.redis.kill()
    status, checks = health()
    assert status == 503
    failed = sorted(name.split("(")[0] for name, state in checks.items() if state != "OK")
    assert failed == ["Cache", "Redis"]
    assert checks[next(n for n in checks if n.startswith("Database"))] == "OK"
    # While Redis is gone the pages still answer (the lobby, sign-up, the table), and a
    # move is saved (the other players' sockets are not told: the page's poll catches
    # up); a new socket is refused at its handshake, as its counters live in Redis.
    game = fresh(duel)
    cookies = seat_cookies(recipe, game)
    for page in ("/", "/accounts/signup/", "/accounts/login/"):
        assert fetch(recipe, page)[0] == 200, page
    seat, version = game.turn_seat, game.version
    status, html = post_move(recipe, game, cookies[seat], plain_action(game), version)
    assert status == 200, html[:300]
    assert fresh(duel).version == version + 1
    with pytest.raises(InvalidStatus):
        open_socket(recipe.nginx_port, game, user_at(game, 0)).close()

    recipe.start_redis()  # the same port again
    wait_until(lambda: health()[0] == 200, timeout=15, what="/healthz to answer 200 again")

    # One Daphne dies: nginx sends everything to the other, and play goes on.
    dead, _ = recipe.daphnes[0]
    dead.kill()
    for _ in range(4):
        assert fetch(recipe, "/")[0] == 200
    game = fresh(duel)
    seat, version = game.turn_seat, game.version
    status, html = post_move(recipe, game, cookies[seat], plain_action(game), version)
    assert status == 200, html[:300]
    assert fresh(duel).version == version + 1
    assert health()[0] == 200
    json_lines(recipe.daphnes[1][0])  # still one JSON object per line, errors included


def test_the_worker_answers_a_player_through_the_recipe_and_celery_logs_json(
        shared_recipe, alice, classic, seeded):
    recipe = shared_recipe
    game = services.create_game(alice, classic, players=2, bots=1, move_time=timedelta(hours=1))
    cookies = session_cookie(alice)
    assert request(recipe.nginx_port, "GET", f"/games/{game.pk}/", cookies)[0] == 200
    worker, beat = recipe.celery("worker"), recipe.celery("beat")
    created = game

    def bot_done() -> bool:
        return not services.bot_holds_initiative(fresh(created))

    with open_socket(recipe.nginx_port, game, alice) as ws:
        for _ in range(3):  # alice moves through nginx; the worker's bot answers
            wait_until(bot_done, timeout=30, what="the bot to move", proc=worker)
            game = fresh(game)
            if not game.is_playing:
                break
            status, html = post_move(recipe, game, cookies, plain_action(game), game.version)
            assert status == 200, html[:300]
        wait_until(bot_done, timeout=30, what="the bot to move", proc=worker)
        game = fresh(game)
        kinds = {m.kind for m in moves(game)}
        assert {Move.Kind.MOVE, Move.Kind.BOT} <= kinds
        html, seen = table_frame(ws, at_least=game.version)
        assert seen == game.version
        assert_no_leak(html, game.match().deal, 0)
    beat.wait_for_log("sweep-deadlines", timeout=15)  # every 3 s
    for proc in (worker, beat):
        records = json_lines(proc)
        assert records and not [r for r in records if r["level"] in ("ERROR", "CRITICAL")]
    assert any("ready." in r["message"] for r in json_lines(worker))
    assert any("sweep-deadlines" in r["message"] for r in json_lines(beat))
    assert any(r["logger"] == "py.warnings" for r in json_lines(worker)) or os.geteuid() != 0
