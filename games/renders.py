"""One render of a table per version and reader, kept a little while.

After a move the table is rendered for the mover's answer and pushed to every socket of
the table; the mover's own socket, their other tabs and every anonymous spectator would
render the same view again. games.views.table_html keeps each render here under the
game, its version and who reads it (the user, or every anonymous reader of that invite
alike), so each distinct view is rendered once per version in a process.

The parts that differ between requests and sockets are left as marks and put in by
`fill`: the reader's CSRF token, and whether the table swaps itself in out of band
(`hx-swap-oob`, the sockets) or answers an htmx request. A version never changes once
written; renders are still dropped after RENDER_SECONDS, so that the words that tell the
time ("59 minutes left") are never old.
"""

from __future__ import annotations

from django.utils.html import escape

from .present.cache import Kept

CSRF_MARK = "csrf-token-of-this-reader"  # replaced by each reader's own token
SWAP_MARK = "data-swap-of-this-reader"  # replaced by hx-swap-oob="true" on a socket
SWAP_OOB = 'hx-swap-oob="true"'
MAX_KEPT = 1024  # renders kept: the newest versions of many tables (least recently used out)
RENDER_SECONDS = 30.0

_rendered: Kept[tuple, str] = Kept(MAX_KEPT, seconds=RENDER_SECONDS)


def get(key: tuple | None) -> str | None:
    """The kept render for `key`, or None."""
    return None if key is None else _rendered.get(key)


def put(key: tuple | None, html: str) -> None:
    if key is not None:
        _rendered.put(key, html)


def fill(html: str, *, csrf_token: str, oob: bool) -> str:
    """The render for one reader: their CSRF token, swapped in out of band or not."""
    return (html.replace(CSRF_MARK, escape(csrf_token))
            .replace(SWAP_MARK, SWAP_OOB if oob else "", 1))


def forget() -> None:
    """Drop every kept render (tests)."""
    _rendered.clear()
