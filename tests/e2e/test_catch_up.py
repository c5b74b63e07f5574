"""The table page catches up on what its socket never brought (static/js/catchup.js): its
socket asks on opening, and the table's poll brings chat lines that no socket told."""

from __future__ import annotations

import json
import time

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.models import ChatMessage
from tests.e2e.helpers import create_game, open_table, sign_up, wait_state, watch

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LINES = "#chat-lines [data-chat-id]"


def test_the_page_asks_on_opening_and_its_poll_brings_a_chat_line_no_socket_told(new_page):
    vera = watch(new_page(), "vera")
    # The page's clock is the test's to move on, so that a 20-second poll is not waited for.
    vera.page.clock.install()
    sign_up(vera.page, "vera")
    game_id = create_game(vera.page, players=2, bots=1)
    sent: list[dict] = []
    vera.page.on("websocket", lambda ws: "/ws/games/" in ws.url and ws.on(
        "framesent", lambda payload: isinstance(payload, str) and sent.append(json.loads(payload))))
    state = open_table(vera, game_id)
    end = time.monotonic() + 10
    while not any(frame.get("type") == "sync" for frame in sent):
        assert time.monotonic() < end, f"the page sent no sync on opening its socket: {sent}"
        vera.page.wait_for_timeout(25)  # lets Playwright deliver events
    sync = next(frame for frame in sent if frame.get("type") == "sync")
    assert sync["chat_after"] == 0 and sync["version"] <= state["version"], sent

    # Saved, but no socket is told (as while the site's Redis is away). It is vera's move,
    # so the table stays as it is: the poll brings the line alone. (Written after the first
    # poll, so that the sync, answered by then, can't be what brings it.)
    version = wait_state(vera, "(s) => s.mine")["version"]
    polled = lambda r: "chat_after=0" in r.url  # noqa: E731
    with vera.page.expect_response(polled) as first:
        vera.page.clock.fast_forward("00:21")
    assert first.value.status == 204  # nothing new
    author = get_user_model().objects.get(username="vera")
    ChatMessage.objects.create(game_id=game_id, author=author, text="nobody told you")
    with vera.page.expect_response(polled) as second:
        vera.page.clock.fast_forward("00:21")
        expect(vera.page.locator(LINES)).to_have_count(1)  # by the next poll
    assert second.value.status == 200 and second.value.headers["hx-reswap"] == "none"
    expect(vera.page.locator(LINES)).to_have_text(["vera nobody told you"])
    assert vera.version == version
