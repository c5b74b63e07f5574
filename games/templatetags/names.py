"""Filters for names set in sentences: "Waiting for {{ name|before_period }}." gives
"Waiting for Aino K." and not "Aino K.." when the name ends in a period itself."""

from django import template

register = template.Library()


@register.filter
def before_period(name) -> str:
    """The name without its own final period, for a sentence that ends right after it."""
    text = str(name)
    return text[:-1] if text.endswith(".") else text
