"""The no-leak check: a page served to a seat holds no card that seat may not see.

A card is visible to a seat when it appears anywhere in deal.view(seat) (own hand,
table, face-up trump, cards known to be held, discard pile, the deal's history). Every
other card of the pack (other hands, the talon) must not appear in the page: not its
code (data-card="TH", "attack:TH"), not its label ("10♥"), not its spoken name
("10 of hearts").
"""

import json
import re

from games import describe
from games.engine.cards import full_deck

CODE = re.compile(r'"([2-9TJQKA][SHDC])"')
TOKENS = [
    re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"'),
    re.compile(r'"X-CSRFToken": "[^"]*"'),
    # A form's once-only token (base64url, random) may hold "KD" between dashes too.
    re.compile(r'name="once" value="[^"]*"'),
    # The site's public push key (base64url, random per run) may hold "7D" between dashes.
    re.compile(r'data-key="[A-Za-z0-9_-]{40,}"'),
]


def visible_codes(view: dict) -> set[str]:
    return set(CODE.findall(json.dumps(view)))


def hidden_cards(deal, seat) -> list:
    visible = visible_codes(deal.view(seat))
    return [c for c in full_deck(deal.rules.deck_size) if c.code not in visible]


def assert_no_leak(body: str, deal, seat) -> int:
    """Fail if the body shows a hidden card; returns how many cards were hidden."""
    hidden = hidden_cards(deal, seat)
    _assert_hidden_absent(body, hidden, f"seat {seat}")
    return len(hidden)


def _assert_hidden_absent(body: str, hidden, reader) -> None:
    for token in TOKENS:
        body = token.sub("", body)
    for card in hidden:
        code = re.compile(rf"(?<![A-Za-z0-9]){card.code}(?![A-Za-z0-9])")
        assert not code.search(body), f"{card.code} leaked to {reader}"
        assert card.label not in body, f"{card.label} leaked to {reader}"
        assert describe.spoken(card.code) not in body, f"{card.code} named to {reader}"


def assert_record_no_leak(body: str, record, deck_size: int = 36) -> int:
    """A finished deal's page (games.DealRecord) shows only cards its public log shows:
    never, say, the durak's last hand. Returns how many cards were hidden."""
    visible = set(CODE.findall(json.dumps(record.history)))
    hidden = [c for c in full_deck(deck_size) if c.code not in visible]
    _assert_hidden_absent(body, hidden, f"deal {record.number}'s page")
    return len(hidden)


# Frames of the table socket besides the table itself.
CHAT_FRAME = 'hx-swap-oob="beforeend:#chat-lines"'
CHAT_ERROR_FRAME = 'id="chat-error"'
RESULT_PANEL = 'class="result-panel'
FRAGMENT_FRAME = '<div id="table-frame"'  # a push after a move: only what changed


def assert_frames_no_leak(frames: list[str], deal, seat, *, fragments: bool = False) -> dict:
    """Every chat frame and every table frame carrying the result panel (with
    `fragments`, every fragment frame too: frames of `deal`'s version) shows no card
    hidden from `seat` in `deal`; returns how many of each were read."""
    seen = {"chat": 0, "result": 0, **({"fragments": 0} if fragments else {})}
    for frame in frames:
        if CHAT_FRAME in frame or CHAT_ERROR_FRAME in frame:
            seen["chat"] += 1
        elif RESULT_PANEL in frame:
            seen["result"] += 1
        elif fragments and frame.startswith(FRAGMENT_FRAME):
            seen["fragments"] += 1
        else:
            continue
        assert_no_leak(frame, deal, seat)
    return seen
