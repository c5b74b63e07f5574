"""Chat and result frames across processes: a chat line written over one Daphne's socket
and a resignation made elsewhere reach a socket held by another Daphne (through Redis),
and neither frame carries a card its reader may not see."""

import json
import time

import pytest

from games import services
from tests.games.leaks import CHAT_FRAME, RESULT_PANEL, assert_frames_no_leak

from .helpers import fresh
from .test_daphne import open_socket, table_frame

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def frame_with(ws, text: str, timeout: float = 15.0) -> list[str]:
    """Frames received on `ws` up to and including the first that contains `text`."""
    frames, deadline = [], time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"no frame with {text!r} within {timeout} s: {[f[:80] for f in frames]}"
        try:
            frames.append(ws.recv(timeout=left))
        except TimeoutError:
            continue
        if text in frames[-1]:
            return frames


def test_chat_and_the_result_reach_a_socket_on_another_daphne(shared_daphnes, real_services,
                                                              duel, alice, bob):
    (_a, port_a), (_b, port_b) = shared_daphnes
    game = fresh(duel)
    with open_socket(port_a, game, alice) as alices, open_socket(port_b, game, bob) as bobs:
        table_frame(alices, at_least=game.version)
        table_frame(bobs, at_least=game.version)
        bobs.send(json.dumps({"chat": "hello from B", "HEADERS": {}}))
        frames = frame_with(alices, CHAT_FRAME)
        assert "hello from B" in frames[-1] and "bob" in frames[-1]
        deal = fresh(duel).match().deal
        assert assert_frames_no_leak(frames, deal, 0)["chat"] == 1

        services.resign(game.pk, bob)  # made in this process: the news goes through Redis
        game = fresh(duel)
        final = game.match().deal
        for ws, seat in ((alices, 0), (bobs, 1)):
            frames = frame_with(ws, RESULT_PANEL)
            assert "bob resigned and loses the match." in frames[-1]
            assert "Rematch</button>" in frames[-1]
            assert assert_frames_no_leak(frames, final, seat)["result"] == 1
