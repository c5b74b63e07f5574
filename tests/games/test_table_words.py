"""What a player reads and hears at the table, whole and once: "(you)" beside a name that
may be cut, the last move of a finished deal, and each playable card said once by a
screen reader, with what pressing it does."""

import re
from html.parser import HTMLParser

import pytest

from games import services
from games.models import Game

from .conftest import client_for, table_url
from .playout import play_out

pytestmark = pytest.mark.django_db

LONG_NAME = "M" * 40  # Player.display_name's max_length


def test_your_seat_keeps_you_outside_the_name_a_phone_may_cut(alice, bob, classic, seeded):
    alice.display_name = LONG_NAME
    alice.save()
    game = services.create_game(alice, classic, players=2)
    game = services.join_game(game.pk, bob)
    page = client_for(alice).get(table_url(game)).content.decode()
    # The name alone is the box cut with an ellipsis (site.css); "(you)" follows it.
    assert (f'<span class="name"><span class="own-name">{LONG_NAME}</span> '
            '<span class="you">(you)</span></span>') in page
    theirs = client_for(bob).get(table_url(game)).content.decode()
    assert f'<span class="name">{LONG_NAME}</span>' in theirs  # to bob, a plain name
    game = play_out(game)
    replay = client_for(alice).get(f"/games/{game.pk}/replay/?move=0").content.decode()
    assert f'<span class="own-name">{LONG_NAME}</span> <span class="you">(you)</span>' in replay


def test_the_last_move_of_a_finished_deal_is_shown_whole(duel, alice):
    page = client_for(alice).get(table_url(duel)).content.decode()
    assert '<p class="last-move">' not in page  # no move yet
    game = play_out(duel)
    assert game.status == Game.Status.FINISHED
    page = client_for(alice).get(table_url(game)).content.decode()
    # table-mode.css cuts the line to two on a phone only while a deal is on.
    line = re.search(r'<p class="last-move"( data-ended)?><span class="label">Last move:</span>'
                     r'([^<]+)</p>', page)
    assert line and line.group(1) == " data-ended", page
    assert "durak" in line.group(2)


class Controls(HTMLParser):
    """Each control of the hand and the beat choices, with what a screen reader says of
    it and of what is inside it: its aria-label, then every label and text not hidden."""

    CONTROLS = {"button", "label"}

    def __init__(self):
        super().__init__()
        self.stack: list[tuple[str, bool, dict | None]] = []  # tag, hidden, control
        self.controls: list[dict] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        hidden = bool(self.stack and self.stack[-1][1]) or a.get("aria-hidden") == "true" \
            or "hidden" in a
        control = self.stack[-1][2] if self.stack else None
        if control is None and tag in self.CONTROLS and "pick" in (a.get("class") or "").split():
            control = {"tag": tag, "said": []}
            self.controls.append(control)
        if control is not None and not hidden and a.get("aria-label"):
            control["said"].append(a["aria-label"])
        if tag not in ("input", "br"):
            self.stack.append((tag, hidden, control))

    def handle_endtag(self, tag):
        if self.stack and tag not in ("input", "br"):
            self.stack.pop()

    def handle_data(self, data):
        if self.stack and self.stack[-1][2] is not None and not self.stack[-1][1] and data.strip():
            self.stack[-1][2]["said"].append(data.strip())


def said(page: str) -> list[list[str]]:
    felt = re.search(r'<form id="move".*?</form>', page, re.S).group(0)
    parser = Controls()
    parser.feed(felt)
    return [c["said"] for c in parser.controls]


def test_each_playable_card_is_said_once_with_what_pressing_it_does(alice, bob, classic,
                                                                      stacked):
    # stacked: alice holds 7S 7C 7D QS QC QD, bob 9S 9C 9D JS JC JD; hearts are trump.
    game = services.create_game(alice, classic, players=2)
    game = services.join_game(game.pk, bob)
    page = client_for(alice).get(table_url(game)).content.decode()
    assert said(page) == [[f"Play the {card}"] for card in (
        "7 of spades", "queen of spades", "7 of clubs", "queen of clubs", "7 of diamonds",
        "queen of diamonds")]
    game = services.play(game.pk, alice, ["attack:7S"], game.version)
    page = client_for(bob).get(table_url(game)).content.decode()
    # bob's 9S and JS beat the 7S: the choices under it ("Beat 7♠ with" says what they
    # do), then the hand's buttons.
    assert said(page) == [["9 of spades"], ["jack of spades"], ["not yet"],
                          ["Beat with the 9 of spades"], ["Beat with the jack of spades"]]
    assert "Beat 7♠ with" in page
