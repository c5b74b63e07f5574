"""Web push for real: the site encrypts and signs each notification (pywebpush, VAPID) and
posts it to a push endpoint served here, which checks the VAPID signature and decrypts the
payload with the device's keys (http_ece), as a browser's push service and the browser
would. Also: one push per game per move, gone devices dropped, the subscription views, the
service worker and the manifest."""

import base64
import json
import os
from datetime import UTC, datetime, timedelta

import http_ece
import pytest
import time_machine
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.conf import settings
from django.contrib.staticfiles import finders

from games import services
from games.models import Game, PushSubscription
from tests.games.conftest import seat_user
from tests.games.pushfakes import PUBLIC, FakeDNS, LocalPushService

pytestmark = pytest.mark.django_db

T0 = datetime(2037, 12, 1, 9, 0, tzinfo=UTC)
MINUTE = timedelta(minutes=1)


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Device:
    """A browser's side of a push subscription: its key pair and auth secret."""

    def __init__(self):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    @property
    def p256dh(self) -> str:
        return b64(self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))

    def decrypt(self, body: bytes) -> dict:
        return json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth,
                                           version="aes128gcm"))


def check_vapid(header: str, audience: str) -> dict:
    """The VAPID Authorization header (RFC 8292): signed by the site's key; its claims."""
    fields = dict(part.strip().split("=", 1) for part in header.removeprefix("vapid ").split(","))
    assert fields["k"] == services.push.public_key()
    head, claims, signature = fields["t"].split(".")
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(fields["k"]))
    raw = unb64(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    claims = json.loads(unb64(claims))
    assert claims["aud"] == audience and claims["sub"] == settings.VAPID_SUBJECT
    return claims


class PushService(LocalPushService):
    """A push service (on 127.0.0.1 behind the door's transport): keeps what it is sent and
    answers `status`."""

    def subscribe(self, player, name=None) -> Device:
        device = Device()
        services.push.subscribe(player, f"{self.url}/push/{name or player.username}",
                                device.p256dh, b64(device.auth))
        device.name = name or player.username
        return device

    def payloads(self, device) -> list[dict]:
        """What `device` was sent, checked and decrypted."""
        found = []
        for path, headers, body in self.received:
            if path == f"/push/{device.name}":
                assert headers["content-encoding"] == "aes128gcm"
                check_vapid(headers["authorization"], self.url)
                found.append(device.decrypt(body))
        return found


@pytest.fixture(autouse=True)
def dns(monkeypatch):
    return FakeDNS(monkeypatch)


@pytest.fixture
def push_service(monkeypatch, dns):
    service = PushService(monkeypatch)
    yield service
    service.close()
    # Every request went to the address the door checked, under the name it checked.
    assert all(t.address == PUBLIC and t.host == service.host for t in service.targets)


@pytest.fixture
def slow(alice, bob, classic, seeded):
    with time_machine.travel(T0, tick=False):
        game = services.create_game(alice, classic, players=2, move_time=timedelta(days=1))
        services.join_game(game.pk, bob)
    game.refresh_from_db()
    return game


def test_your_move_reaches_the_device_encrypted_and_signed(slow, push_service):
    player = seat_user(slow, slow.turn_seat)
    player.language, player.time_zone = "ru", "Europe/Moscow"
    player.save()
    phone = push_service.subscribe(player)
    with time_machine.travel(T0 + 5 * MINUTE, tick=False):  # the push task's own clock
        services.send_move_emails(now=T0 + 5 * MINUTE)
    (payload,) = push_service.payloads(phone)
    assert payload == {
        "title": "Ваш ход", "url": f"/games/{slow.pk}/", "tag": f"game-{slow.pk}",
        "body": f"«Test classic» №{slow.pk}. Срок: завтра в 12:00, через 24 ч."}


def test_one_push_per_game_per_move(slow, push_service):
    player = seat_user(slow, slow.turn_seat)
    phone = push_service.subscribe(player)
    services.send_move_emails(now=T0 + 5 * MINUTE)
    # 80% of the turn used, still not looked: this move has had its push.
    assert services.push.time_warnings(now=T0 + timedelta(hours=20)) == 0
    assert len(push_service.payloads(phone)) == 1


def test_at_80_percent_of_the_time_a_player_who_has_not_looked_is_warned(
        alice, bob, classic, seeded, push_service):
    with time_machine.travel(T0, tick=False):
        game = services.create_game(alice, classic, players=2, move_time=timedelta(minutes=10))
        services.join_game(game.pk, bob)
    game.refresh_from_db()
    player = seat_user(game, game.turn_seat)
    phone = push_service.subscribe(player)
    assert services.push.time_warnings(now=T0 + 7 * MINUTE) == 0  # 70%
    assert services.push.time_warnings(now=T0 + 8 * MINUTE) == 1
    assert services.push.time_warnings(now=T0 + 9 * MINUTE) == 0  # once
    (payload,) = push_service.payloads(phone)
    assert payload["title"] == "Your time is running out"
    assert payload["body"] == f"Test classic #{game.pk}. Move by today at 9:10 a.m., in 2 min."


def test_no_warning_for_a_player_who_has_looked(alice, bob, classic, seeded, push_service):
    with time_machine.travel(T0, tick=False):
        game = services.create_game(alice, classic, players=2, move_time=timedelta(minutes=10))
        services.join_game(game.pk, bob)
    game.refresh_from_db()
    player = seat_user(game, game.turn_seat)
    push_service.subscribe(player)
    player.last_seen = T0 + MINUTE
    player.save()
    assert services.push.time_warnings(now=T0 + 8 * MINUTE) == 0


def test_a_device_the_push_service_says_is_gone_is_dropped(slow, push_service):
    player = seat_user(slow, slow.turn_seat)
    push_service.subscribe(player)
    push_service.status = 410
    services.send_move_emails(now=T0 + 5 * MINUTE)
    assert len(push_service.received) == 1
    assert not PushSubscription.objects.filter(player=player).exists()


def test_a_challenge_a_finished_game_and_a_rematch_offer(
        alice, bob, classic, seeded, push_service, django_capture_on_commit_callbacks):
    alices, bobs = push_service.subscribe(alice), push_service.subscribe(bob)
    with django_capture_on_commit_callbacks(execute=True):
        game = services.challenge(alice, bob, classic, move_time=timedelta(days=1))
    (challenge,) = push_service.payloads(bobs)
    assert challenge["title"] == "alice challenges you"
    assert challenge["url"] == game.invite_url
    with django_capture_on_commit_callbacks(execute=True):
        services.accept_challenge(game.pk, bob)
    with django_capture_on_commit_callbacks(execute=True):
        services.resign(game.pk, alice)
    assert push_service.payloads(alices)[-1]["title"] == "The game is over"
    assert push_service.payloads(bobs)[-1]["title"] == "The game is over"
    with django_capture_on_commit_callbacks(execute=True):
        services.accept_rematch(game.pk, alice)
    offer = push_service.payloads(bobs)[-1]
    assert offer["title"] == "alice offers a rematch" and offer["url"] == f"/games/{game.pk}/"
    assert len(push_service.payloads(alices)) == 1  # not told of her own offer


def test_subscribing_a_device_through_the_site(alice_client, alice, bob, client):
    device = Device()
    subscription = {"endpoint": "https://push.example.org/send/abc123",
                    "keys": {"p256dh": device.p256dh, "auth": b64(device.auth)}}
    r = alice_client.post("/push/subscribe/", json.dumps(subscription),
                          content_type="application/json")
    assert r.status_code == 204
    assert PushSubscription.objects.get().player == alice
    # The same device (its endpoint), now bob's: one subscription per device.
    client.force_login(bob)
    client.post("/push/subscribe/", json.dumps(subscription), content_type="application/json")
    assert list(PushSubscription.objects.values_list("player", flat=True)) == [bob.pk]
    for bad in ({"endpoint": "http://10.0.0.1/x", "keys": subscription["keys"]},
                {"endpoint": subscription["endpoint"], "keys": {"p256dh": "<script>"}}, []):
        r = client.post("/push/subscribe/", json.dumps(bad), content_type="application/json")
        assert r.status_code == 400
    r = client.post("/push/unsubscribe/", json.dumps({"endpoint": subscription["endpoint"]}),
                    content_type="application/json")
    assert r.status_code == 204 and not PushSubscription.objects.exists()


def test_the_switch_is_on_the_profile_and_at_the_table(alice_client, slow):
    key = services.push.public_key()
    assert len(unb64(key)) == 65  # an uncompressed P-256 point
    for url in ("/accounts/profile/", slow.get_absolute_url()):
        body = alice_client.get(url).content.decode()
        assert "Notify me on this device" in body and f'data-key="{key}"' in body


def test_the_service_worker_and_the_manifest(client):
    r = client.get("/sw.js")
    assert r.status_code == 200 and r["Content-Type"] == "text/javascript; charset=utf-8"
    assert r["Service-Worker-Allowed"] == "/" and "no-cache" in r["Cache-Control"]
    assert 'addEventListener("push"' in r.content.decode()
    r = client.get("/manifest.webmanifest")
    assert r["Content-Type"] == "application/manifest+json"
    manifest = r.json()
    assert manifest["start_url"] == "/games/mine/" and manifest["display"] == "standalone"
    assert {i["sizes"] for i in manifest["icons"]} == {"192x192", "512x512"}
    assert any(i.get("purpose") == "maskable" for i in manifest["icons"])
    for icon in manifest["icons"]:  # PNGs of the size they say
        found = finders.find(icon["src"].removeprefix(settings.STATIC_URL))
        with open(found, "rb") as f:
            head = f.read(24)
        size = int(icon["sizes"].split("x")[0])
        assert head[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(head[16:20], "big") == size
    page = client.get("/offline/")
    assert page.status_code == 200 and "You are offline" in page.content.decode()
    # Still no inline script anywhere: scripts only from the site's files.
    policy = page["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
    assert '<link rel="manifest" href="/manifest.en.webmanifest">' in page.content.decode()


def test_no_key_no_push(slow, push_service, settings):
    settings.VAPID_PRIVATE_KEY = ""
    push_service.subscribe(seat_user(slow, slow.turn_seat))
    services.send_move_emails(now=T0 + 5 * MINUTE)
    assert push_service.received == []
    assert Game.objects.get(pk=slow.pk).move_email_at is None  # the mail's round went on
