"""The one door for requests out (games.outbound) and web push through it: no forbidden
endpoint is saved or reached (a local listener gets no connection), one broken or silent
device costs only itself, a player's devices are capped and an endpoint moves to another
account only with its own keys; and no other code in the site opens connections."""

import ast
import json
import time
from datetime import timedelta
from pathlib import Path

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from games import outbound, services
from games.models import Game, PushSubscription
from tests.games.conftest import seat_user
from tests.games.pushfakes import PUBLIC, FakeDNS, Listener, LocalPushService
from tests.games.test_push import Device, b64

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
MINUTE = timedelta(minutes=1)

# The attacks found on the live site (8 of 8 were accepted), and more forms of the same.
FORBIDDEN = [
    "https://127.0.0.1:9443/x", "https://127.0.0.1:6379/", "https://169.254.169.254/latest/",
    "https://[::1]:22/", "https://user:pw@10.0.0.1/", "https://[::ffff:127.0.0.1]/",
    "https://0.0.0.0/", "https://localhost/x",
    "http://push.example.com/x",  # not https
    "https://push.example.com@127.0.0.1/x", "https://user@push.example.com/x",
    "https://2130706433/", "https://0x7f000001/", "https://127.1/", "https://017700000001/",
    "https://[::]/", "https://[::127.0.0.1]/", "https://[::ffff:7f00:1]/",
    "https://[2002:7f00:1::]/", "https://[2002:a00:1::1]/", "https://[64:ff9b::7f00:1]/",
    "https://[fe80::1]/", "https://[fc00::1]/", "https://[fd12:3456::1]/", "https://[fec0::1]/",
    "https://[ff02::1]/", "https://224.0.0.1/", "https://240.0.0.1/", "https://255.255.255.255/",
    "https://100.64.0.1/", "https://192.168.1.1/", "https://172.16.0.1/", "https://10.0.0.1/",
    "https://192.0.0.8/", "https://198.18.0.1/",
    "https://internal.example.com/x",  # a name with a private address
    "https://mixed.example.com/x",  # a public and a loopback address: refused
    "https://nowhere.invalid/x",  # not found
    "https://push.example.com:99999/x", "https://push.example.com/x#frag", "https:///x",
    "https://push.exam ple.com/x", "https://push.example.com\\@127.0.0.1/",
    "https://рush.example.com/x", "ftp://push.example.com/x", "javascript:alert(1)",
    "https://" + "a" * 1000 + ".example.com/",
]


@pytest.fixture(autouse=True)
def dns(monkeypatch):
    return FakeDNS(monkeypatch, {"internal.example.com": ["10.1.2.3"],
                                 "mixed.example.com": [PUBLIC, "127.0.0.1"]})


@pytest.fixture
def listener():
    found = Listener()
    yield found
    found.close()


def subscription(endpoint, device=None):
    device = device or Device()
    return {"endpoint": endpoint, "keys": {"p256dh": device.p256dh, "auth": b64(device.auth)}}


@pytest.mark.parametrize("endpoint", FORBIDDEN)
def test_a_forbidden_endpoint_is_refused_at_subscribe_with_a_players_words(
        alice_client, endpoint):
    r = alice_client.post("/push/subscribe/", json.dumps(subscription(endpoint)),
                          content_type="application/json")
    assert r.status_code == 400
    words = r.content.decode()
    assert "address" in words or "push" in words or "https" in words, words
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize("endpoint", [
    "https://push.example.com/send/abc", "https://fcm.googleapis.com/fcm/send/x",
    "https://[2606:4700::1111]/x", "https://1.1.1.1:8443/x"])
def test_a_public_endpoint_is_saved(alice, alice_client, dns, endpoint):
    dns.names["fcm.googleapis.com"] = ["142.250.74.106", "2a00:1450:4001:82b::200a"]
    r = alice_client.post("/push/subscribe/", json.dumps(subscription(endpoint)),
                          content_type="application/json")
    assert r.status_code == 204
    assert PushSubscription.objects.get().endpoint == endpoint


def test_push_hosts_restricts_the_push_services(alice_client, settings, dns):
    dns.names["fcm.googleapis.com"] = ["142.250.74.106"]
    dns.names["updates.push.services.mozilla.com"] = ["34.117.237.239"]
    dns.names["evilpush.services.mozilla.com"] = ["34.117.237.239"]
    settings.PUSH_HOSTS = ["fcm.googleapis.com", ".push.services.mozilla.com"]
    for endpoint, status in [("https://push.example.com/x", 400),
                             ("https://fcm.googleapis.com/x", 204),
                             ("https://updates.push.services.mozilla.com/x", 204),
                             ("https://evilpush.services.mozilla.com/x", 400)]:
        r = alice_client.post("/push/subscribe/", json.dumps(subscription(endpoint)),
                              content_type="application/json")
        assert r.status_code == status, endpoint
    assert PushSubscription.objects.count() == 2


@pytest.mark.parametrize("form", ["https://127.0.0.1:{port}/x", "https://localhost:{port}/x",
                                  "https://[::ffff:127.0.0.1]:{port}/x",
                                  "https://user:pw@127.0.0.1:{port}/x"])
def test_a_forbidden_subscription_in_the_database_is_refused_at_send(alice, listener, form):
    """Saved before the door existed: the send refuses it, the listener gets no connection,
    and the device is dropped."""
    device = Device()
    PushSubscription.objects.create(player=alice, endpoint=form.format(port=listener.port),
                                    p256dh=device.p256dh, auth=b64(device.auth))
    assert services.push.send(alice, title="t", body="b", url="/", tag="x") == 0
    time.sleep(0.3)
    assert listener.accepted == []
    assert not PushSubscription.objects.exists()


def test_the_door_connects_to_the_address_it_checked(monkeypatch, listener):
    """One lookup: the connection goes to the address checked, whatever DNS says later."""
    answers = iter([[PUBLIC], ["127.0.0.1"]])
    monkeypatch.setattr(outbound, "_addresses", lambda host, port: next(answers))
    dialled = []
    monkeypatch.setattr(outbound, "_dial", lambda address, timeout: dialled.append(address)
                        or (_ for _ in ()).throw(ConnectionRefusedError()))
    with pytest.raises(OSError):
        outbound.post("https://rebind.example.com/x", b"", {})
    assert dialled == [(PUBLIC, 443)] and listener.accepted == []


def test_a_silent_push_service_times_out_soon(monkeypatch, listener):
    """A listener that accepts and never answers: the door gives up after its read
    timeout (TLS waits for the answer), not the 10 s pywebpush was given."""
    monkeypatch.setattr(outbound, "_dial", lambda address, timeout: outbound.socket
                        .create_connection(("127.0.0.1", listener.port), timeout=timeout))
    start = time.monotonic()
    with pytest.raises(OSError):
        outbound.post("https://silent.example.com/x", b"{}", {})
    took = time.monotonic() - start
    assert outbound.READ_TIMEOUT - 0.5 < took < outbound.READ_TIMEOUT + 1.5
    assert len(listener.accepted) == 1


def test_a_whole_exchange_is_cut_at_its_total_timeout(monkeypatch, listener):
    """However the answer trickles, an exchange ends after TOTAL_TIMEOUT."""
    monkeypatch.setattr(outbound, "READ_TIMEOUT", 30.0)
    monkeypatch.setattr(outbound, "TOTAL_TIMEOUT", 1.0)
    monkeypatch.setattr(outbound, "_dial", lambda address, timeout: outbound.socket
                        .create_connection(("127.0.0.1", listener.port), timeout=timeout))
    start = time.monotonic()
    with pytest.raises(OSError):
        outbound.post("https://slow.example.com/x", b"{}", {})
    assert 0.8 < time.monotonic() - start < 3


def test_a_broken_and_a_silent_device_cost_only_themselves(
        alice, bob, classic, seeded, monkeypatch, listener, django_capture_on_commit_callbacks):
    """bob has a device pywebpush could not use, one behind a silent listener and a good
    one; alice one good device. The challenge's mail and push reach bob, and the game
    over push reaches both, each within the door's timeouts."""
    service = LocalPushService(monkeypatch)
    silent_ip = "93.184.215.99"
    real_dial = outbound._dial
    monkeypatch.setattr(outbound, "_dial", lambda address, timeout: real_dial(
        ("127.0.0.1", listener.port) if address[0] == silent_ip else address, timeout))
    FakeDNS(monkeypatch, {"silent.example.com": [silent_ip]})
    broken = Device()
    PushSubscription.objects.create(player=bob, endpoint="https://user:pw@push.example.com/b",
                                    p256dh=broken.p256dh, auth=b64(broken.auth))
    PushSubscription.objects.create(player=bob, endpoint="https://push.example.com/keys",
                                    p256dh="not-a-key", auth="nor-this")
    for player, endpoint in [(bob, "https://silent.example.com/bob"),
                             (bob, "https://push.example.com/bob"),
                             (alice, "https://push.example.com/alice")]:
        device = Device()
        PushSubscription.objects.create(player=player, endpoint=endpoint,
                                        p256dh=device.p256dh, auth=b64(device.auth))
    start = time.monotonic()
    with django_capture_on_commit_callbacks(execute=True):
        game = services.challenge(alice, bob, classic, move_time=timedelta(days=1))
    took = time.monotonic() - start
    assert [m.to for m in mail.outbox] == [["bob@example.org"]]
    assert [path for path, _h, _b in service.received] == ["/bob"]
    assert took < outbound.CONNECT_TIMEOUT + outbound.READ_TIMEOUT + 2
    with django_capture_on_commit_callbacks(execute=True):
        services.accept_challenge(game.pk, bob)
    with django_capture_on_commit_callbacks(execute=True):
        services.resign(game.pk, alice)
    assert sorted(path for path, _h, _b in service.received) == ["/alice", "/bob", "/bob"]
    # The user-info endpoint is gone at once; the failing ones are counted.
    assert not PushSubscription.objects.filter(endpoint__contains="user:pw").exists()
    assert PushSubscription.objects.get(endpoint__endswith="/keys").failures == 2
    assert PushSubscription.objects.get(endpoint__startswith="https://silent").failures == 2
    service.close()


def test_the_move_round_mails_everyone_whatever_a_device_does(
        alice, bob, carol, dave, classic, seeded, monkeypatch):
    """The "your move" round: the first player's devices are broken (user-info, bad keys);
    every player still gets their mail, and the next player their push."""
    service = LocalPushService(monkeypatch)
    for player in (carol, dave):
        player.email = f"{player.username}@example.org"
        player.save()
    t0 = timezone.now().replace(microsecond=0)
    with time_machine.travel(t0, tick=False):
        games = [services.create_game(a, classic, players=2, move_time=timedelta(days=1))
                 for a in (alice, carol)]
        services.join_game(games[0].pk, bob)
        services.join_game(games[1].pk, dave)
    first, second = (seat_user(Game.objects.get(pk=g.pk), Game.objects.get(pk=g.pk).turn_seat)
                     for g in games)
    for endpoint, p256dh in [("https://user:pw@push.example.com/1", Device().p256dh),
                             ("https://push.example.com/keys", "not-a-key")]:
        PushSubscription.objects.create(player=first, endpoint=endpoint, p256dh=p256dh,
                                        auth=b64(b"0123456789abcdef"))
    device = Device()
    services.push.subscribe(second, "https://push.example.com/second", device.p256dh,
                            b64(device.auth))
    with time_machine.travel(t0 + 6 * MINUTE, tick=False):
        assert services.send_move_emails() == 2
    assert sorted(m.to[0] for m in mail.outbox) == sorted([first.email, second.email])
    assert [path for path, _h, _b in service.received] == ["/second"]
    service.close()


def test_a_device_is_dropped_after_repeated_failures_or_at_once_when_gone(alice, monkeypatch):
    service = LocalPushService(monkeypatch)
    device = Device()
    services.push.subscribe(alice, "https://push.example.com/a", device.p256dh, b64(device.auth))
    service.status = 500
    for attempt in range(1, services.push.MAX_FAILURES):
        assert services.push.send(alice, title="t", body="b", url="/", tag="x") == 0
        assert PushSubscription.objects.get().failures == attempt
    service.status = 201  # a success starts the count again
    assert services.push.send(alice, title="t", body="b", url="/", tag="x") == 1
    assert PushSubscription.objects.get().failures == 0
    service.status = 302  # a redirect is not followed: a failure
    for _attempt in range(services.push.MAX_FAILURES):
        services.push.send(alice, title="t", body="b", url="/", tag="x")
    assert not PushSubscription.objects.exists()
    services.push.subscribe(alice, "https://push.example.com/a", device.p256dh, b64(device.auth))
    service.status = 404
    services.push.send(alice, title="t", body="b", url="/", tag="x")
    assert not PushSubscription.objects.exists()
    service.close()


def test_at_most_ten_devices_a_player_the_oldest_goes(alice, alice_client, settings):
    settings.LIMITS = {**settings.LIMITS, "push_subscriptions": (100, 3600)}  # the cap, not the rate
    for n in range(12):
        r = alice_client.post("/push/subscribe/", json.dumps(
            subscription(f"https://push.example.com/{n}")), content_type="application/json")
        assert r.status_code == 204
    kept = sorted(int(e.rsplit("/", 1)[1]) for e in
                  PushSubscription.objects.values_list("endpoint", flat=True))
    assert kept == list(range(2, 12))


def test_an_endpoint_moves_to_another_account_only_with_its_own_keys(
        alice, bob, alice_client, client):
    device = Device()
    mine = subscription("https://push.example.com/phone", device)
    assert alice_client.post("/push/subscribe/", json.dumps(mine),
                             content_type="application/json").status_code == 204
    client.force_login(bob)
    stolen = subscription("https://push.example.com/phone")  # bob's own keys
    r = client.post("/push/subscribe/", json.dumps(stolen), content_type="application/json")
    assert r.status_code == 400 and "already registered" in r.content.decode()
    saved = PushSubscription.objects.get()
    assert (saved.player, saved.p256dh) == (alice, device.p256dh)
    # The device itself, signed in as bob now, posts its own keys: it is bob's.
    assert client.post("/push/subscribe/", json.dumps(mine),
                       content_type="application/json").status_code == 204
    assert PushSubscription.objects.get().player == bob


# --------------------------------------------------------------------------- the code walk
DOOR = ROOT / "games" / "outbound.py"
NETWORK_MODULES = {"requests", "urllib.request", "http.client", "socket", "ssl", "urllib3",
                   "httpx", "aiohttp", "pycurl", "asyncio.streams", "telnetlib", "ftplib"}
NETWORK_CALLS = {"create_connection", "open_connection", "urlopen", "webpush",
                 "webpush_async", "getaddrinfo", "send_async"}


def network_uses(path: Path) -> list[str]:
    """What in this file opens connections itself (imports and calls)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names
                      if a.name in NETWORK_MODULES or a.name.split(".")[0] in NETWORK_MODULES
                      or a.name == "pywebpush"]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module in NETWORK_MODULES or node.module.split(".")[0] in NETWORK_MODULES:
                found.append(node.module)
            elif node.module == "urllib" and any(a.name == "request" for a in node.names):
                found.append("urllib.request")
            elif node.module == "http" and any(a.name == "client" for a in node.names):
                found.append("http.client")
            elif node.module.startswith("pywebpush"):  # only its encryption: WebPusher
                found += [f"pywebpush.{a.name}" for a in node.names if a.name != "WebPusher"]
        elif isinstance(node, ast.Attribute) and node.attr in NETWORK_CALLS:
            found.append(node.attr)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "send" and isinstance(node.func.value, ast.Call) \
                and getattr(node.func.value.func, "id", "") == "WebPusher":
            found.append("WebPusher(...).send")
        elif isinstance(node, ast.Name) and node.id in NETWORK_CALLS:
            found.append(node.id)
    return found


def test_nothing_but_the_door_opens_connections():
    files = [p for top in ("games", "accounts", "durak_site") for p in (ROOT / top).rglob("*.py")]
    assert DOOR in files and len(files) > 50
    offenders = {str(p.relative_to(ROOT)): uses for p in files if p != DOOR
                 and (uses := network_uses(p))}
    assert offenders == {}


@pytest.mark.parametrize("code", [
    "import requests", "from urllib.request import urlopen", "import http.client",
    "from http import client", "import socket", "from pywebpush import webpush",
    "import pywebpush", "x = socket.create_connection(('a', 1))",
    "WebPusher(info).send(data)", "import urllib3", "import ssl",
])
def test_the_code_walk_finds_each_way_out(tmp_path, code):
    path = tmp_path / "mod.py"
    path.write_text(code + "\n")
    assert network_uses(path)
