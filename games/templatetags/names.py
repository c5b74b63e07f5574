"""Filters for names set in sentences: "Waiting for {{ name|before_period }}." gives
"Waiting for Aino K." and not "Aino K.." when the name ends in a period itself."""

from django import template

from .. import describe

register = template.Library()


register.filter("before_period", describe.before_period)
