"""A face-up card in HTML and CSS with its code, its label and its spoken name.

The markup is fixed so tests can look for a card: data-card="TH" and the aria-label
"10 of hearts" appear (a card inside a control that names it, `hidden`, is aria-hidden: a
screen reader says the control's name alone, once); the face shows the rank and suit in
two corners and a large suit in the middle (static/css/site.css draws it). Hidden cards are never passed here: a card
back carries nothing about the card. The table's templates draw cards with it (the
`{% card %}` tag, and the felt's Jinja2 templates, games.present.felt).
"""

from __future__ import annotations

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from .. import describe
from ..engine import Card
from ..engine.cards import SUIT_SYMBOLS
from .cache import Kept

_drawn: Kept[tuple[str, str, str | None, bool], SafeString] = Kept(2048, name="present.cards.drawn")


def card(code: str, extra_class: str = "", *, language: str | None = None,
         hidden: bool = False) -> SafeString:
    """A face-up card, drawn once per code, class and language (a table shows dozens);
    `language`, the one put on, when the caller knows it; `hidden`: the picture of a card
    in a button or a box that says what pressing it does, hidden from screen readers."""
    key = (code, extra_class, language or get_language(), hidden)
    drawn = _drawn.get(key)
    if drawn is None:
        drawn = _draw(code, extra_class, hidden)
        _drawn.put(key, drawn)
    return drawn


def _draw(code: str, extra_class: str, hidden: bool = False) -> SafeString:
    c = Card.parse(code)
    colour = "red" if c.suit in "HD" else "black"
    rank = describe.rank_letter(c.rank)
    suit = SUIT_SYMBOLS[c.suit]
    return format_html(
        '<span class="card {} {}" data-card="{}" role="img" aria-label="{}"{}>'
        '<span class="face" aria-hidden="true"><span class="corner">{}<br>{}</span>'
        '<span class="pip">{}</span><span class="corner end">{}<br>{}</span></span></span>',
        colour, extra_class, c.code, describe.spoken(c.code),
        mark_safe(' aria-hidden="true"') if hidden else "", rank, suit, suit, rank, suit,
    )
