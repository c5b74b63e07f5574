"""{% card "TH" %}: a card drawn in HTML with its code, its label and its spoken name.

The markup is fixed so tests can look for a card: data-card="TH", the label "10♥" and
the aria-label "10 of hearts" all appear; hidden cards are never passed to this tag.
"""

from django import template
from django.utils.html import format_html

from .. import describe
from ..engine import Card

register = template.Library()


@register.simple_tag
def card(code, extra_class=""):
    c = Card.parse(code)
    colour = "red" if c.suit in "HD" else "black"
    return format_html(
        '<span class="card {} {}" data-card="{}" role="img" aria-label="{}">'
        '<span aria-hidden="true">{}</span></span>',
        colour, extra_class, c.code, describe.spoken(c.code), c.label,
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
