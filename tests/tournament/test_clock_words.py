"""A tournament's time control reads as a table's does: its tables are games with the same
clock, so both say it in the same words."""

from datetime import timedelta

from django.utils import translation

from games.models import Game, TimeControl, Tournament


def test_a_tournament_says_its_clock_as_its_tables_do():
    day, hour = timedelta(days=1), timedelta(hours=1)
    cases = [
        (dict(time_control=TimeControl.MOVE, move_time=day), "1 day per move"),
        (dict(time_control=TimeControl.BANK, move_time=day, bank_time=3 * day, increment=hour),
         "3 days + 1 hour per move"),
        (dict(time_control=TimeControl.BANK, move_time=day, bank_time=3 * day,
              increment=timedelta(0)), "3 days for the game"),
    ]
    with translation.override("en"):
        for fields, words in cases:
            assert Tournament(name="Cup", **fields).clock_label == words
            assert Game(**fields).clock_label == words


def test_the_invite_link_carries_the_token():
    cup = Tournament(pk=7, name="Cup", invite_token="abc")
    game = Game(pk=9, invite_token="def")
    assert cup.invite_url.endswith("/7/?invite=abc")
    assert game.invite_url.endswith("/9/?invite=def")
