"""{% card "TH" %}: a card drawn in HTML and CSS with its code, its label and its spoken name.

The markup is fixed so tests can look for a card: data-card="TH" and the aria-label
"10 of hearts" appear; the face shows the rank and suit in two corners and a large suit
in the middle (static/css/site.css draws it). Hidden cards are never passed to this tag:
a card back (`{% card_back %}`) carries nothing about the card.
"""

from django import template
from django.utils.html import format_html
from django.utils.translation import get_language

from .. import describe
from ..engine import Card
from ..engine.cards import SUIT_SYMBOLS

register = template.Library()


_drawn: dict[tuple, str] = {}  # (code, class, language) -> HTML: a few hundred at most


@register.simple_tag
def card(code, extra_class=""):
    """A face-up card, drawn once per code, class and language (a table shows dozens)."""
    key = (code, extra_class, get_language())
    drawn = _drawn.get(key)
    if drawn is None:
        drawn = _drawn[key] = _draw(code, extra_class)
    return drawn


def _draw(code, extra_class):
    c = Card.parse(code)
    colour = "red" if c.suit in "HD" else "black"
    rank = describe.rank_letter(c.rank)
    suit = SUIT_SYMBOLS[c.suit]
    return format_html(
        '<span class="card {} {}" data-card="{}" role="img" aria-label="{}">'
        '<span class="face" aria-hidden="true"><span class="corner">{}<br>{}</span>'
        '<span class="pip">{}</span><span class="corner end">{}<br>{}</span></span></span>',
        colour, extra_class, c.code, describe.spoken(c.code), rank, suit, suit, rank, suit,
    )


@register.filter
def card_label(code):
    return describe.label(code)


@register.filter
def card_name(code):
    return describe.spoken(code)


@register.filter
def duration(td):
    return describe.duration(td) if td else ""
