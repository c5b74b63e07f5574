"""{% push_switch %}: the "Notify me on this device" switch (static/js/push.js), shown when
the site has a VAPID key (games.services.push)."""

from django import template

from .. import services

register = template.Library()


@register.inclusion_tag("games/_push_switch.html")
def push_switch():
    return {"push_key": services.push.public_key()}
