"""A push after a move brings only the parts that changed, swapped into the table the
page shows (static/js/frames.js); a page that shows another version than the one a frame
was made on drops it and asks its socket for the whole table."""

from __future__ import annotations

import json
import random
import time

import pytest

from tests.e2e.helpers import (
    alone,
    choose_and_play,
    create_game,
    open_table,
    sign_up,
    tap_card,
    wait_my_turn_or_over,
    wait_state,
    watch,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SAME_TABLE = "() => document.querySelector('#table').hasAttribute('data-kept')"


def test_a_move_swaps_in_its_parts_and_a_page_behind_asks_for_the_whole_table(new_page):
    vera = watch(new_page(), "vera")
    sign_up(vera.page, "vera")
    game_id = create_game(vera.page, players=2, bots=1)
    frames: list[str] = []
    sent: list[dict] = []

    def on_ws(ws):
        if "/ws/games/" in ws.url:
            ws.on("framereceived", lambda p: isinstance(p, str) and frames.append(p))
            ws.on("framesent", lambda p: isinstance(p, str) and sent.append(json.loads(p)))

    vera.page.on("websocket", on_ws)
    open_table(vera, game_id)
    rng = random.Random(7)
    state = wait_my_turn_or_over(vera)
    assert state["mine"], state["turn"]

    # The table element stays: only its felt and the log's new lines are swapped in.
    vera.page.evaluate("() => document.querySelector('#table').setAttribute('data-kept', '')")
    move = choose_and_play(vera, rng)
    assert vera.page.evaluate(SAME_TABLE), "a push after a move brought the whole table"
    assert any(f.startswith('<div id="table-frame"') for f in frames), frames[-1][:200]
    after = wait_state(vera, "(s, v) => s.version >= v", move.after)
    assert after["log"] and vera.page.locator("#table-felt").count() == 1

    # A page behind the frame's version (as if a frame had been lost) drops it and asks
    # its socket for the whole table, which then replaces the one it shows.
    state = wait_my_turn_or_over(vera)
    assert not state["over"], "a deal can't end after one attack and its answer"
    shown = state["version"]
    vera.page.evaluate("""(v) => { const t = document.querySelector('#table');
        t.dataset.version = String(v); }""", shown - 1)
    sent.clear()
    choose_and_play_blind(vera, rng)
    end = time.monotonic() + 15
    while not any(f.get("type") == "sync" and f.get("version") == shown - 1 for f in sent):
        assert time.monotonic() < end, f"the page asked for nothing: {sent}"
        vera.page.wait_for_timeout(25)
    final = wait_state(vera, "(s, v) => s.version > v", shown)
    assert not vera.page.evaluate(SAME_TABLE), "the whole table never came"
    assert final["hand"] or final["over"]


def choose_and_play_blind(person, rng) -> None:
    """Play a move whose answer the page will not swap in (it shows an older version):
    click it, and do not wait for the table to change."""
    page = person.page
    table = page.locator("#table")
    beats = table.locator("fieldset.beat label.pick:not(.none)")
    cards = table.locator("fieldset.hand label.pick")
    play = table.get_by_role("button", name="Play selected", exact=True)
    if beats.count():
        tap_card(beats.first)
        play.click()
    elif cards.count():
        at_once = alone(page)  # a card that can only go alone plays on the click
        tap_card(cards.first)
        if not at_once:
            play.click()
    elif table.get_by_role("button", name="Take the cards").count():
        table.get_by_role("button", name="Take the cards").click()
    else:
        table.get_by_role("button", name="Pass (no more cards)").click()
