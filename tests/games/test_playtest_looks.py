"""Found by play-testing in a browser: words that were drawn in the felt's white on the
page's paper (the replay's board and hint), and a link drawn as a button whose words took
the panel's link colour, the same green as the button (Go to the rematch)."""

import re
from pathlib import Path

import pytest

from .conftest import client_for
from .playout import finish, table

pytestmark = pytest.mark.django_db

STATIC = Path(__file__).resolve().parents[2] / "static" / "css"


def rules(css: str, selector: str) -> list[str]:
    """The declarations of every rule whose selector list holds `selector` exactly."""
    found = []
    for selectors, body in re.findall(r"([^{}]+)\{([^}]*)\}", css):
        if selector in [s.strip() for s in re.sub(r"/\*.*?\*/", "", selectors, flags=re.S).split(",")]:
            found.append(body)
    return found


def test_the_replay_board_sits_on_the_felt(alice, bob, classic, seeded):
    game = finish(table(alice, classic, [bob]))
    page = client_for(alice).get(f"/games/{game.pk}/replay/").content.decode()
    felt = page.index('class="replay-felt"')
    assert felt < page.index('class="seats"') < page.index('class="deck"') < page.index('class="pairs"')
    css = (STATIC / "profile.css").read_text()
    # The page itself is on paper: dark words; the board is on the felt: light words.
    assert any("var(--fg)" in r for r in rules(css, ".table-page.replay"))
    assert any("background" in r and "color: #fff" in r for r in rules(css, ".replay-felt"))


def test_a_link_drawn_as_a_button_keeps_readable_words_in_a_panel():
    css = (STATIC / "site.css").read_text()
    # `.table-page .panel a` gives links the felt's green; a button is green or yellow.
    panel_link = css.index(".table-page .panel a {")
    button_link = css.index(".table-page a.button {")
    assert button_link > panel_link  # same weight: the later rule wins
    (body,) = rules(css, ".table-page a.button")
    assert "color: #111" in body and "#f2b705" in body


def test_the_lobby_filters_are_as_easy_to_tap_as_the_forms():
    # They were the browser's small default (13 px words, 19 px tall) on a phone.
    css = (STATIC / "site.css").read_text()
    (body,) = rules(css, ".filters select")
    assert "font-size: 1rem" in body and "padding" in body
