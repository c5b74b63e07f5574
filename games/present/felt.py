"""The felt, rendered by Jinja2: whose turn it is, the seats, the talon and the bout, the
reader's hand and buttons (templates/jinja2/games/felt.html and games/table/_*.html there).

The felt is the part of the table that changes with every move, and a push renders it
once per reader after every move (games.present.fragments): with Django's engine that
render was most of a push's cost, so these templates are Jinja2's, Django's second
engine (settings.TEMPLATES, "jinja2"), which compiles a template to Python. The whole
table (templates/games/table.html) puts the same felt in with `{% felt %}`.

Words are marked as `_("...")`, with `%(name)s` for what goes in, as makemessages reads
them; a count's words (ngettext) are made in games.present.table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from functools import partial
from typing import Any

import jinja2
from django.template import engines
from django.template.backends.jinja2 import Jinja2
from django.template.defaultfilters import date, timeuntil_filter
from django.urls import get_script_prefix, reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import localtime
from django.utils.translation import get_language, gettext

from .. import describe
from .cache import Kept, memo
from .cards import card
from .rating import rating

FELT = "games/felt.html"


def environment(**options: Any) -> jinja2.Environment:
    """The Jinja2 environment (settings.TEMPLATES): the felt's words, cards, ratings,
    links and dates, as the Django tags give them to the rest of the table."""
    env = jinja2.Environment(**options)
    env.globals.update({"_": gettext, "card": card, "rating": rating, "url": reverse})
    env.filters.update({
        "card_label": describe.label,
        "spoken": describe.spoken,
        "before_period": describe.before_period,
        "date": _date,
        "iso": _iso,
        "timeuntil": timeuntil_filter,
    })
    return env


def _date(value: datetime, arg: str | None = None) -> str:
    """Django's `date` filter, in the reader's time zone (the one put on)."""
    return date(localtime(value), arg)


def _iso(value: datetime) -> str:
    """ISO 8601 in the reader's time zone: Django's `date:"c"`."""
    return localtime(value).isoformat()


_words: Kept[tuple[str, str], str] = Kept(4096, name="present.felt.words")  # (language, message)


def words_in(language: str) -> Callable[[str], str]:
    """gettext for a render in `language` (the one put on): each message looked up once
    per process, not once per render (a felt says some forty)."""

    def words(message: str) -> str:
        text = _words.get((language, message))
        if text is None:
            text = gettext(message)
            _words.put((language, message), text)
        return text
    return words


def _engine() -> Jinja2:
    engine = engines["jinja2"]
    assert isinstance(engine, Jinja2)
    return engine


def render(ctx: Mapping[str, Any]) -> SafeString:
    """The felt for the reader of `ctx` (games.present.render.reader_context), with its
    CSRF token (`csrf_token`) and, for a push, `part_oob` (swapped in by its id)."""
    token = str(ctx.get("csrf_token") or "")
    csrf_input = (format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token)
                  if token and token != "NOTPROVIDED" else "")
    language = get_language()
    template = _engine().env.get_template(FELT)
    return mark_safe(template.render({  # noqa: S308 - autoescaped by Jinja2
        **ctx, "csrf_input": csrf_input, "play_url": play_url(ctx["game"].pk),
        "_": words_in(language), "card": partial(card, language=language)}))


@memo("present.felt.play_url", maxsize=4096)
def _play_url(game_id: int, prefix: str) -> str:
    return reverse("play", args=[game_id])


def play_url(game_id: int) -> str:
    """Where the felt's forms post a move (one reverse per game and script prefix)."""
    return _play_url(game_id, get_script_prefix())
