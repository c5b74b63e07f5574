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
]


def visible_codes(view: dict) -> set[str]:
    return set(CODE.findall(json.dumps(view)))


def hidden_cards(deal, seat) -> list:
    visible = visible_codes(deal.view(seat))
    return [c for c in full_deck(deal.rules.deck_size) if c.code not in visible]


def assert_no_leak(body: str, deal, seat) -> int:
    """Fail if the body shows a hidden card; returns how many cards were hidden."""
    for token in TOKENS:
        body = token.sub("", body)
    hidden = hidden_cards(deal, seat)
    for card in hidden:
        code = re.compile(rf"(?<![A-Za-z0-9]){card.code}(?![A-Za-z0-9])")
        assert not code.search(body), f"{card.code} leaked to seat {seat}"
        assert card.label not in body, f"{card.label} leaked to seat {seat}"
        assert describe.spoken(card.code) not in body, f"{card.code} named to seat {seat}"
    return len(hidden)
