"""Mail for real: Celery beat and a worker send the "your move" email and a reminder for
a game whose clock has been moved on, through a real SMTP server started here."""

import email
import re
from datetime import timedelta
from email import policy

import pytest
from aiosmtpd.controller import Controller
from django.utils import timezone

from games import services
from games.models import Game

from .helpers import fresh
from .procs import free_port, wait_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


class Inbox:
    """An SMTP server's handler that keeps every message it receives."""

    def __init__(self):
        self.messages = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(email.message_from_bytes(envelope.content, policy=policy.default))
        return "250 Message accepted"


@pytest.fixture
def smtp():
    inbox, port = Inbox(), free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()


def test_beat_and_worker_deliver_your_move_and_a_reminder(procs, smtp, alice, bob, classic,
                                                          seeded, client):
    inbox, port = smtp
    game = services.create_game(alice, classic, players=2, move_time=timedelta(days=1))
    services.join_game(game.pk, bob)
    game = fresh(game)
    player = game.seats.get(number=game.turn_seat).player
    # Move the clock on: the turn began seven hours ago and nobody has looked since.
    now = timezone.now()
    Game.objects.filter(pk=game.pk).update(
        turn_started=now - timedelta(hours=7), deadline=now + timedelta(hours=17),
        move_email_at=now - timedelta(hours=7) + services.MOVE_EMAIL_DELAY,
        next_reminder=now - timedelta(hours=1))

    env = {"EMAIL_URL": f"smtp://127.0.0.1:{port}", "REMINDER_INTERVAL": "1"}
    worker = procs.worker(env=env)
    procs.beat(env=env)
    wait_until(lambda: len(inbox.messages) >= 2, timeout=60, interval=0.25,
               what="two mails at the SMTP server", proc=worker)

    assert {m["To"] for m in inbox.messages} == {player.email}
    bodies = {m["Subject"]: m.get_content() for m in inbox.messages}
    assert set(bodies) == {f"Your move: {game.preset.label} #{game.pk}"}
    texts = [m.get_content() for m in inbox.messages]
    assert any("the site plays for you" in t for t in texts)  # the reminder
    assert any("Move by" in t for t in texts)  # the "your move" email
    for message in inbox.messages:
        header = message["List-Unsubscribe"]
        link = re.fullmatch(r"<(https?://[^>]+)>", header).group(1)
        assert link in message.get_content()
        assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # Each went once: nothing more arrives on the next beats.
    game = fresh(game)
    assert game.move_email_at is None and game.reminders_sent == 1
    # The reminder's one-click POST (RFC 8058), with no one logged in, stops reminders.
    reminder = next(m for m in inbox.messages if "plays for you" in m.get_content())
    path = re.search(r"/accounts/unsubscribe/[^>]+/", reminder["List-Unsubscribe"]).group(0)
    assert client.post(path, "List-Unsubscribe=One-Click",
                       content_type="application/x-www-form-urlencoded").status_code == 200
    player.refresh_from_db()
    assert player.email_reminders is False
