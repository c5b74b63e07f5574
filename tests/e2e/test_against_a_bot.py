"""One person plays a whole deal (of 24 cards) against a computer player, by clicking."""

import random

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import create_game, finish_line, play_against_bots, sign_up, watch

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.service_worker]


def test_it_plays_a_deal_against_a_bot_to_the_end(new_page, short_preset):
    vera = watch(new_page(), "vera")
    sign_up(vera.page, "vera")
    create_game(vera.page, preset=short_preset, players=2, bots=1, level="medium")

    # With one human and one bot the table is full: the deal starts at once.
    table = vera.page.locator("#table")
    expect(table.locator("fieldset.hand .card")).to_have_count(6)
    seats = table.locator(".seats .seat")
    expect(seats).to_have_count(2)
    bot_name = seats.filter(has_not_text="(you)").locator(".name").inner_text()
    navigations = len(vera.navigations)
    start = vera.version

    moves = play_against_bots(vera, random.Random(7))

    final = vera.state()
    assert len(vera.navigations) == navigations, "the page was never reloaded"
    assert moves, "vera made moves"
    # The bot's moves came over the WebSocket: tables that no answer to vera's clicks had.
    answers = {m.after for m in moves}
    assert [v for v in vera.ws_versions if v > start and v not in answers], vera.ws_versions
    assert any(line.startswith(f"{bot_name} ") for line in final["log"]), final["log"][:10]
    line = finish_line(final)
    expect(table.locator(".turn")).to_contain_text("Game over.")
    rows = table.locator(".final-tally tbody tr")  # the result panel
    expect(rows).to_have_count(2)
    if line.endswith("is the durak!"):
        durak = line.removesuffix(" is the durak!")
        assert durak in ("vera", bot_name)
        expect(rows.filter(has_text=durak).locator("td").nth(1)).to_have_text("1")
    else:
        expect(rows.locator("td:nth-child(2)")).to_have_text(["0", "0"])
    assert not table.locator("fieldset.hand input").count(), "nothing left to play"
