"""What the card table shows, from the server's side: the hand sorted with trumps last, the
other seats clockwise from the viewer's left, the last move in words with its cards marked,
the countdown to the deadline, and times in the player's own time zone."""

import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import formats, timezone, translation

from games import services
from games.engine import Card
from games.present import render
from games.present.table import around, last_move, sort_hand
from tests.games.conftest import client_for, seat_user, table_url
from tests.games.leaks import assert_no_leak

pytestmark = pytest.mark.django_db


def test_the_hand_is_sorted_by_suit_and_rank_with_trumps_last():
    assert sort_hand(["AH", "6S", "7H", "TD", "9C", "6D"], "S") == [
        "7H", "AH", "9C", "6D", "TD", "6S"]


def test_the_other_seats_sit_clockwise_from_the_viewers_left(duel):
    seats = list(duel.seats.order_by("number"))
    assert around(seats, seats[1]) == [seats[0]]
    assert around(seats, None) == seats


def name(seat):
    return ["anna", "bob", "cleo"][seat]


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def test_the_last_move_is_one_seats_run_of_actions_with_what_followed():
    history = [
        {"type": "trump_card", "card": "6H"},
        {"type": "attack", "seat": 0, "card": "7S"},
        {"type": "defend", "seat": 1, "attack": "7S", "card": "9S"},
        {"type": "attack", "seat": 0, "card": "9C"},
        {"type": "attack", "seat": 0, "card": "7D"},
        {"type": "pass", "seat": 0},
    ]
    last = last_move(history, name)
    assert last["seat"] == 0 and last["cards"] == {"9C", "7D"}
    assert last["line"] == "anna attacks with 9♣. anna attacks with 7♦. anna passes."
    history += [{"type": "take", "seat": 1},
                {"type": "pick_up", "seat": 1, "cards": ["7S", "9S", "9C", "7D"]},
                {"type": "draw", "seat": 0, "count": 2}]
    last = last_move(history, name)
    assert last["seat"] == 1 and last["cards"] == set()
    assert last["line"].startswith("bob takes. bob picks up 4 cards")
    assert last_move(history[:1], name) is None


def test_the_table_marks_the_last_move_and_counts_down(duel):
    deal = duel.match().deal
    seat = deal.to_act
    lead = Card.parse(sorted(deal.hand(seat), key=lambda c: c.rank)[0].code)
    game = services.play(duel.pk, seat_user(duel, seat), [f"attack:{lead}"], duel.version)
    viewer = 1 - seat
    body = client_for(seat_user(game, viewer)).get(table_url(game)).content.decode()
    assert re.search(rf'class="card \w+ attack last" data-card="{lead}"', body)
    assert "Last move:" in body and f"attacks with {lead.label}." in body
    assert f'data-deadline="{game.deadline.isoformat()}"' in body
    assert 'data-format="{} left"' in body
    assert_no_leak(body, game.match().deal, viewer)


def test_the_browsers_time_zone_is_saved_and_times_are_shown_in_it(duel, alice):
    client = client_for(alice)
    client.cookies["tz"] = "Asia/Tokyo"
    body = client.get(table_url(duel)).content.decode()
    alice.refresh_from_db()
    assert alice.time_zone == "Asia/Tokyo"
    local = duel.deadline.astimezone(ZoneInfo("Asia/Tokyo"))
    with translation.override("en"):
        assert formats.date_format(local, "DATETIME_FORMAT") in body
        # The live table (no middleware there) uses the profile's zone.
        html = render.table_html(duel, alice)
        assert formats.date_format(local, "DATETIME_FORMAT") in html
    assert timezone.get_current_timezone_name() == "UTC"  # not left active


def test_a_made_up_time_zone_is_ignored(duel, alice):
    client = client_for(alice)
    client.cookies["tz"] = "Mars/Olympus_Mons"
    assert client.get(table_url(duel)).status_code == 200
    client.cookies["tz"] = "../../etc/passwd"
    assert client.get("/games/mine/").status_code == 200
    alice.refresh_from_db()
    assert alice.time_zone == ""


def test_my_games_counts_down_to_each_deadline(duel, alice, bob):
    duel.deadline = timezone.now() + timedelta(minutes=4, seconds=30)
    duel.save()
    for user in (alice, bob):
        body = client_for(user).get("/games/mine/").content.decode()
        assert f'data-deadline="{duel.deadline.isoformat()}"' in body
        assert "js/clock.js" in body


def test_a_computer_to_move_is_thinking_a_person_is_waited_for(alice, classic, seeded,
                                                               monkeypatch):
    from games import notify

    monkeypatch.setattr(notify, "queue_bot_turn", lambda *args, **kwargs: None)  # it waits
    game = services.create_game(alice, classic, players=2, bots=["hard"],
                                move_time=timedelta(hours=1))
    game.refresh_from_db()
    page = client_for(alice).get(f"/games/{game.pk}/").content.decode()
    bot = game.seats.get(number=1).name
    if game.turn_seat == 1:
        assert f"{bot} is thinking…" in page
    else:  # alice opens: play until the computer is to move
        assert "Your turn." in page and "is thinking" not in page
        deal = game.match().deal
        services.play(game.pk, alice, [deal.legal_actions(0)[0].token()], game.version)
        page = client_for(alice).get(f"/games/{game.pk}/").content.decode()
        assert f"{bot} is thinking…" in page
