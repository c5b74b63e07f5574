"""{% card "TH" %}: a face-up card (games.present.cards draws it); its label and name."""

from django import template

from .. import describe
from ..present import cards

register = template.Library()
register.simple_tag(cards.card, name="card")


@register.filter
def card_label(code):
    return describe.label(code)


@register.filter
def card_name(code):
    return describe.spoken(code)


@register.filter
def duration(td):
    return describe.duration(td) if td else ""
