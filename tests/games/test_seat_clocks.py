"""Every seat's time left at the table (games.present.clocks, templates/games/table/
_seat_clock.html): with a time bank each seat shows its bank and the seat to move a bar
and words counting down; with a time per move only the seat to move has a clock."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Game, Seat
from games.present.clocks import left_words
from tests.games.conftest import client_for

DAY = timedelta(days=1)


def seats_of(html):
    """Each seat's <li> in the seats' list, by the seat's name."""
    html = html.replace("\xa0", " ")  # Django's words keep a number and its unit together
    part = html[html.index('<ul class="seats"'):]
    part = part[:part.index("</ul>")]
    return {re.search(r'<span class="name">(?:<span class="own-name">)?(\w+)', li).group(1): li
            for li in re.findall(r"<li class=\"seat.*?</li>", part, re.S)}


def test_a_bank_game_shows_every_seats_bank_and_the_bar_of_the_seat_to_move(
        alice, bob, classic, stacked):
    game = services.create_game(alice, classic, players=2, time_control="bank",
                                bank_time=3 * DAY, increment=timedelta(hours=2))
    game = services.join_game(game.pk, bob)
    game = services.play(game.pk, alice, ["attack:7S"], game.version)  # bob to move
    Seat.objects.filter(game=game, number=0).update(bank=timedelta(hours=50, minutes=30))
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() + timedelta(hours=20, seconds=30))
    html = client_for(alice).get(f"/games/{game.pk}/").content.decode()
    seats = seats_of(html)
    assert "2 days, 2 hours in the bank" in seats["alice"] and "<meter" not in seats["alice"]
    bar = re.search(r'<meter class="time-bar"[^>]*>', seats["bob"]).group(0)
    assert 'max="259200"' in bar  # the whole bank: three days
    assert re.search(r'value="7\d{4}"', bar)  # 20 hours left: 72,000 seconds and a little
    assert "data-deadline=" in bar
    assert "20 hours left" in seats["bob"] and 'class="countdown" data-deadline=' in seats["bob"]
    assert "in the bank" not in seats["bob"]


def test_a_game_with_a_time_per_move_shows_the_clock_of_the_seat_to_move(duel, alice, bob):
    duel.refresh_from_db()
    to_move = duel.seats.get(number=duel.turn_seat).player.username
    waiting = "bob" if to_move == "alice" else "alice"
    html = client_for(bob).get(f"/games/{duel.pk}/").content.decode()  # an hour a move
    seats = seats_of(html)
    bar = re.search(r'<meter class="time-bar"[^>]*>', seats[to_move]).group(0)
    assert 'max="3600"' in bar and re.search(r'value="3[5-6]\d\d"', bar)
    assert "left" in seats[to_move]
    assert "seat-clock" not in seats[waiting]


def test_a_stopped_clock_stands_still(duel, bob):
    Game.objects.filter(pk=duel.pk).update(paused_at=timezone.now() - timedelta(minutes=5))
    html = client_for(bob).get(f"/games/{duel.pk}/").content.decode()
    clock = re.search(r'<span class="seat-clock running paused">.*?</span>\n</span>', html, re.S)
    assert clock and "data-deadline" not in clock.group(0)


@pytest.mark.parametrize("left, words", [
    (timedelta(seconds=42), "42 seconds"), (timedelta(minutes=4, seconds=12), "4 minutes"),
    (timedelta(days=2, hours=3, minutes=5), "2 days, 3 hours")])
def test_time_left_in_words(left, words):
    assert left_words(left).replace("\xa0", " ") == words
