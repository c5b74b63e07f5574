"""'Your move' emails, daily summaries, reminders: when they go, what they say, and their
one-click unsubscribe links (no log-in needed)."""

import re
import time
from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest
import time_machine
from django.core import mail

from games import services
from games.models import Game, RulePreset
from tests.games.conftest import seat_user

pytestmark = pytest.mark.django_db

T0 = datetime(2037, 12, 1, 9, 0, tzinfo=UTC)  # a Tuesday, after any real "now": no time bomb
MINUTE = timedelta(minutes=1)


@pytest.fixture
def slow(alice, bob, classic, seeded):
    """alice and bob, a day per move, made at T0."""
    with time_machine.travel(T0, tick=False):
        game = services.create_game(alice, classic, players=2, move_time=timedelta(days=1))
        services.join_game(game.pk, bob)
    game.refresh_from_db()
    return game


def _to_act(game):
    return seat_user(game, game.turn_seat)


def _link(message):
    return re.search(r"https?://\S+/accounts/unsubscribe/\S+/", message.body).group(0)


def test_your_move_comes_a_few_minutes_after_the_move(slow):
    player = _to_act(slow)
    assert services.send_move_emails(now=T0 + 4 * MINUTE) == 0
    assert services.send_move_emails(now=T0 + 5 * MINUTE) == 1
    assert services.send_move_emails(now=T0 + 6 * MINUTE) == 0  # once per turn
    (message,) = mail.outbox
    assert message.to == [player.email]
    assert message.subject == f"Your move: Test classic #{slow.pk}"
    # The deadline in the player's zone (UTC when the profile has none), in words.
    assert "Move by tomorrow at 9 a.m. (UTC), in 24 h." in message.body
    assert f"/games/{slow.pk}/" in message.body and player.name in message.body
    link = _link(message)
    assert message.extra_headers["List-Unsubscribe"] == f"<{link}>"
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_no_email_for_a_move_the_player_has_seen(slow, client):
    player = _to_act(slow)
    with time_machine.travel(T0 + 2 * MINUTE, tick=False):
        client.force_login(player)
        client.get(slow.get_absolute_url())  # on the site since the move
    assert services.send_move_emails(now=T0 + 5 * MINUTE) == 0
    assert mail.outbox == []


def test_no_email_in_live_games_or_when_the_player_said_never(alice, bob, classic, seeded, slow):
    with time_machine.travel(T0, tick=False):
        live = services.create_game(alice, classic, players=2, move_time=timedelta(minutes=5))
        services.join_game(live.pk, bob)
    player = _to_act(slow)
    player.move_emails = "never"
    player.save()
    assert services.send_move_emails(now=T0 + 10 * MINUTE) == 0
    assert mail.outbox == []


def test_the_email_speaks_the_players_language(slow):
    player = _to_act(slow)
    player.language = "ru"
    player.save()
    services.send_move_emails(now=T0 + 5 * MINUTE)
    assert mail.outbox[0].subject.startswith("Ваш ход")


def test_opening_the_link_asks_first_and_changes_nothing(slow, client):
    """Mail scanners open links: a GET only shows a button."""
    player = _to_act(slow)
    services.send_move_emails(now=T0 + 5 * MINUTE)
    link = _link(mail.outbox[0])
    response = client.get(link)  # nobody is logged in
    assert response.status_code == 200
    body = response.content.decode()
    assert "Do you want no more emails when it" in body
    assert '<form method="post"' in body and "Yes, stop them" in body
    player.refresh_from_db()
    assert player.move_emails == "now"


def test_the_button_unsubscribes_and_undo_subscribes_again(slow, client):
    player = _to_act(slow)
    services.send_move_emails(now=T0 + 5 * MINUTE)
    link = _link(mail.outbox[0])
    response = client.post(link)  # the page's button
    assert response.status_code == 200
    assert "no more emails when it" in response.content.decode()
    player.refresh_from_db()
    assert player.move_emails == "never"
    # The undo button on that page turns them back on.
    client.post(link, {"undo": "now"})
    player.refresh_from_db()
    assert player.move_emails == "now"


def test_a_mail_programs_one_click_post_unsubscribes_without_a_csrf_token(slow, client):
    player = _to_act(slow)
    services.send_move_emails(now=T0 + 5 * MINUTE)
    message = mail.outbox[0]
    url = message.extra_headers["List-Unsubscribe"].strip("<>")
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    client.handler.enforce_csrf_checks = True
    response = client.post(url, "List-Unsubscribe=One-Click",
                           content_type="application/x-www-form-urlencoded")
    assert response.status_code == 200
    player.refresh_from_db()
    assert player.move_emails == "never"


def test_a_link_expires_after_sixty_days(slow, client):
    from accounts import unsubscribe

    player = _to_act(slow)
    then = time.time() - 61 * 24 * 3600
    with mock.patch("django.core.signing.time.time", return_value=then):
        old = unsubscribe.link(player, "moves")
    for method in (client.get, client.post):
        response = method(old)
        assert response.status_code == 400
        body = response.content.decode()
        assert "This link has expired." in body and 'href="/accounts/profile/"' in body
    player.refresh_from_db()
    assert player.move_emails == "now"
    then = time.time() - 59 * 24 * 3600
    with mock.patch("django.core.signing.time.time", return_value=then):
        recent = unsubscribe.link(player, "moves")
    assert client.post(recent).status_code == 200
    player.refresh_from_db()
    assert player.move_emails == "never"


@pytest.mark.parametrize("token", ["nonsense", "eyJ1IjoxLCJrIjoibW92ZXMifQ:1abc:forged"])
def test_a_bad_unsubscribe_link_changes_nothing(slow, client, alice, token):
    response = client.get(f"/accounts/unsubscribe/{token}/")
    assert response.status_code == 400 and "not valid" in response.content.decode()
    alice.refresh_from_db()
    assert alice.move_emails == "now"


def test_reminders_carry_their_own_unsubscribe_link(slow, client):
    player = _to_act(slow)
    player.last_seen = T0 + MINUTE  # seen the move: no "your move" email, but reminders
    player.save()
    assert services.send_reminders(now=T0 + timedelta(hours=6, minutes=1)) == 1
    (message,) = mail.outbox
    assert "Unless you move by tomorrow at 9 a.m. (UTC), in 18 h, the site plays" in message.body
    body = client.get(_link(message)).content.decode()
    assert "Do you want no more reminders before the site moves for you?" in body
    client.post(_link(message))
    player.refresh_from_db()
    assert player.email_reminders is False and player.move_emails == "now"


def test_a_daily_summary_lists_the_waiting_games_once_a_day(alice, bob, classic, seeded, slow):
    with time_machine.travel(T0, tick=False):
        other = services.create_game(bob, classic, players=2, move_time=timedelta(days=1))
        services.join_game(other.pk, alice)
    other.refresh_from_db()
    player = _to_act(slow)
    waiting = [g for g in (slow, other) if _to_act(g) == player]
    player.move_emails = "daily"
    player.save()
    services.send_move_emails(now=T0 + 5 * MINUTE)
    assert player.email not in [m.to[0] for m in mail.outbox]  # no single "your move"
    mail.outbox.clear()
    assert services.send_summaries(now=T0 + timedelta(hours=1)) == 1
    (message,) = mail.outbox
    assert message.to == [player.email] and "List-Unsubscribe" in message.extra_headers
    for game in (slow, other):
        assert (f"/games/{game.pk}/" in message.body) == (game in waiting)
    assert services.send_summaries(now=T0 + timedelta(hours=2)) == 0  # one a day
    assert services.send_summaries(now=T0 + timedelta(hours=25)) == 1


@pytest.mark.parametrize(("language", "zone", "subject", "words"), [
    ("ru", "Europe/Moscow", "Ваш ход: «Классический» №{id}",
     "Срок: завтра в 12:00 (Europe/Moscow), через 24 ч."),
    ("fi", "Europe/Helsinki", "Sinun vuorosi: Klassinen nro {id}",
     "Siirrä viimeistään huomenna klo 11.00 (Europe/Helsinki), 24 h kuluttua."),
    ("nb", "Europe/Oslo", "Ditt trekk: Klassisk nr. {id}",
     "Trekk innen i morgen kl. 10:00 (Europe/Oslo), om 24 t."),
])
def test_your_move_in_the_players_language_and_time_zone(slow, language, zone, subject, words):
    # The seeded preset, whose name is translated.
    Game.objects.filter(pk=slow.pk).update(preset=RulePreset.objects.get(name="Classic"))
    player = _to_act(slow)
    player.language, player.time_zone = language, zone
    player.save()
    services.send_move_emails(now=T0 + 5 * MINUTE)
    (message,) = mail.outbox
    assert message.subject == subject.format(id=slow.pk)
    assert words in message.body


def test_the_daily_summary_comes_at_the_players_hour_least_time_left_first(settings,
        alice, bob, classic, seeded, slow):
    with time_machine.travel(T0 + timedelta(hours=2), tick=False):
        later = services.create_game(bob, classic, players=2, move_time=timedelta(days=1))
        services.join_game(later.pk, alice)
    later.refresh_from_db()
    player = _to_act(slow)
    games = [g for g in (slow, later) if _to_act(g) == player]
    player.move_emails, player.summary_hour, player.time_zone = "daily", 13, "Europe/Moscow"
    player.save()
    at = T0 + timedelta(hours=3)  # 15:00 in Moscow
    assert services.send_summaries(now=T0 + timedelta(minutes=30)) == 0  # 12:30 in Moscow
    assert services.send_summaries(now=at) == 1
    (message,) = mail.outbox
    lines = [line for line in message.body.splitlines() if line.startswith("- ")]
    assert lines == [f"- Test classic #{g.pk}, in {21 if g == slow else 23} h: "
                     f"{settings.SITE_URL}/games/{g.pk}/" for g in games]
    assert services.send_summaries(now=at + timedelta(hours=8)) == 0  # 23:00, same day
    assert services.send_summaries(now=T0 + timedelta(hours=24)) == 0  # 12:00 the next day
    assert services.send_summaries(now=T0 + timedelta(hours=25)) == 1  # 13:00


def test_the_summary_hour_is_chosen_on_the_profile(alice_client, alice):
    alice_client.post("/accounts/profile/", {"display_name": "", "move_emails": "daily",
                                             "summary_hour": "7"})
    alice.refresh_from_db()
    assert (alice.move_emails, alice.summary_hour) == ("daily", 7)
