"""The table page catches up on what its socket never brought (static/js/catchup.js): its
socket asks on opening, and the table's poll brings chat lines that no socket told."""

from __future__ import annotations

import json
import time

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.models import ChatMessage
from tests.e2e.helpers import create_game, open_table, sign_up, watch

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LINES = "#chat-lines [data-chat-id]"


def test_the_page_asks_on_opening_and_its_poll_brings_a_chat_line_no_socket_told(new_page):
    vera = watch(new_page(), "vera")
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

    # Saved, but no socket is told (as while the site's Redis is away).
    author = get_user_model().objects.get(username="vera")
    line = ChatMessage.objects.create(game_id=game_id, author=author, text="nobody told you")
    with vera.page.expect_request(lambda r: f"chat_after={line.pk}" in r.url, timeout=50_000):
        expect(vera.page.locator(LINES)).to_have_count(1, timeout=30_000)  # within a poll
    expect(vera.page.locator(LINES)).to_have_text(["vera nobody told you"])
