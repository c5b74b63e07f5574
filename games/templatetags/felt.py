"""{% felt %}: the table's felt in the whole table (games.present.felt renders it)."""

from django import template

from ..present import felt as felt_part

register = template.Library()


@register.simple_tag(takes_context=True)
def felt(context):
    return felt_part.render(context.flatten())
