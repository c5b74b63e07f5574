"""One render per version for everyone who watches a table without logging in (issue 15).

Every anonymous spectator of a table sees the same view, `deal.view(None)`: the first of
them to need a version renders it, the others in this process get the same HTML, with
their own CSRF token put in. A seated player's table is still rendered for them alone.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from django.utils.html import escape
from django.utils.translation import get_language

from . import snapshots, views

CSRF_MARK = "csrf-token-of-this-socket"  # replaced by each socket's own token
MAX_KEPT = 512  # renders kept: the newest version of many tables (least recently used out)

_rendered: OrderedDict[tuple, tuple[str, int]] = OrderedDict()
_lock = threading.Lock()


def spectator_table(game_id: int, version: int | None, user, *, invite: str, site_root: str,
                    csrf_token: str) -> tuple[str, int] | None:
    """(the spectators' table as HTML, its version) for game `game_id`, rendered at most
    once per version here; `version` None (a (re)connect, a sync) always reads the game.
    None when the game is gone."""
    language = get_language()
    found = None
    if version is not None:
        with _lock:
            found = _rendered.get((game_id, version, invite, site_root, language))
    if found is None:
        table = snapshots.at(game_id, version)
        if table is None:
            return None
        game, seats = table
        html = views.table_html(game, user, invite=invite, csrf_token=CSRF_MARK, oob=True,
                                site_root=site_root, seats=seats)
        found = (html, game.version)
        with _lock:
            _rendered[(game_id, game.version, invite, site_root, language)] = found
            while len(_rendered) > MAX_KEPT:
                _rendered.popitem(last=False)
    html, at = found
    return html.replace(CSRF_MARK, escape(csrf_token)), at


def forget() -> None:
    """Drop every kept render (tests)."""
    with _lock:
        _rendered.clear()
