"""A push after a move: only the parts of the table that changed, as htmx out-of-band
fragments, for a socket whose reader shows the version just before.

A move changes the felt (whose turn it is, the seats, the bout, the hand and its
buttons: `#table-felt`), adds lines to the deal's log (`#table-log`) and may show or hide
the coach's button (`#table-coach`); the header, the tally, the result panel and the
rest of the side stay as they are while a deal is played. So a socket that has sent its
reader version V-1 sends for V a frame of

- a marker, `#table-frame`, saying which version the frame is made on top of
  (`data-from`) and which it brings (`data-version`), and whether it is now the reader's
  turn: static/js/frames.js swaps the frame in only on top of that version, and asks for
  the whole table otherwise;
- the felt, the reader's own (their hand, their buttons, "your turn"), kept per version
  and reader like a whole table (games.present.render), so every spectator and the
  reader's other tabs share one render;
- the log's new lines, rendered once per version for every reader (the log is public);
- the coach's part, when it appears or goes (one render per game and language).

An anonymous watcher's frame is also kept under a name its socket makes without reading
the game (`watched`), so the other watchers are sent it from the event loop
(games.live.table.TableConsumer.dispatch).

Anything else (a new deal, the end of the match, a seat taken over, a claim, a gap of
versions) sends the whole table, as on connect. Each reader's felt comes from
`deal.view(their seat)` like the whole table: no fragment carries a card its reader may
not see.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from django.utils import timezone
from django.utils.html import conditional_escape
from django.utils.translation import get_language

from ..models import Game
from . import felt, render
from .cache import Kept

COACH = "games/table/_aside.html#coach"


@dataclass(frozen=True)
class Shown:
    """What a socket's reader shows after a frame: the version, what a fragment frame
    leaves as it is (`fixed`), the number of log lines and whether the coach's button
    is there."""

    version: int
    fixed: Hashable
    log: int
    coach: bool


_shown: Kept[Hashable, Shown] = Kept(render.MAX_KEPT, seconds=render.RENDER_SECONDS,
                                     name="present.fragments.shown")
_lines: Kept[Hashable, str] = Kept(render.MAX_KEPT, seconds=render.RENDER_SECONDS,
                                   name="present.fragments.lines")
_frames: Kept[Hashable, tuple[str | None, Shown | None]] = Kept(
    render.MAX_KEPT, seconds=render.RENDER_SECONDS, name="present.fragments.frames")
# Frames for anonymous watchers, under a name the socket makes without reading the game
# (games.live.table: a watcher's push needs no thread and no context).
_watched: Kept[Hashable, tuple[str, Shown]] = Kept(render.MAX_KEPT, seconds=render.RENDER_SECONDS,
                                                  name="present.fragments.watched")


def forget() -> None:
    """Drop every kept part (tests)."""
    _shown.clear()
    _lines.clear()
    _frames.clear()
    _watched.clear()


def shown(view: render.TableView) -> Shown | None:
    """What the whole table of `view` shows (None: a table no fragment may follow, one
    not being played)."""
    key = view.key()
    found = _shown.get(key) if key is not None else None
    if found is None:
        found = _shown_of(view.game, view.context)
        if key is not None and found is not None:
            _shown.put(key, found)
    return found


def _shown_of(game: Game, ctx: dict[str, Any]) -> Shown | None:
    if not ctx.get("view") or game.status != Game.Status.PLAYING or ctx.get("lesson"):
        return None  # a lesson's words change with every move: the whole table
    seats = ctx["seats"]
    me = ctx.get("me")
    fixed = (game.status, ctx.get("deal_number"), ctx.get("match_over"), ctx.get("last_result"),
             ctx.get("can_claim"), tuple(sorted(ctx.get("on_vacation") or ())),
             getattr(me, "pk", None), bool(game.paused_at), repr(ctx.get("orders")),
             tuple((s.player_id, s.bot_level, s.resigned_deal) for s in seats))
    return Shown(game.version, fixed, len(ctx.get("log") or ()), bool(ctx.get("can_hint")))


def frame(view: render.TableView, before: Shown, *, csrf_token: str,
          shared_as: Hashable = None) -> tuple[str, Shown] | None:
    """The fragment frame that takes a reader from `before` to `view` (the next version),
    and what they show then; None when only the whole table will do. `shared_as`: the
    name under which every anonymous watcher of the same view finds it (`watched`)."""
    game = view.game
    if game.version != before.version + 1 or view.message is not None:
        return None
    # Readers of the same view coming from the same table (every spectator) share one
    # frame: the reader's context is built once, not per socket.
    key = view.key()
    made = _frames.get((key, before)) if key is not None else None
    if made is None:
        made = _made(view, before)
        if key is not None:
            _frames.put((key, before), made)
    html, now = made
    if html is None or now is None:
        return None
    if shared_as is not None:
        _watched.put((shared_as, before), (html, now))
    return render.fill(html, csrf_token=csrf_token, oob=True), now


def watched(shared_as: Hashable, before: Shown, *, csrf_token: str) -> tuple[str, Shown] | None:
    """The frame another watcher of the same view was sent on top of `before` (`frame`'s
    `shared_as`), with this reader's CSRF token; None if there is none yet."""
    made = _watched.get((shared_as, before))
    if made is None:
        return None
    return render.fill(made[0], csrf_token=csrf_token, oob=True), made[1]


def _made(view: render.TableView, before: Shown) -> tuple[str | None, Shown | None]:
    """The frame before its reader's CSRF token is put in, and what it shows then; (None,
    None) when only the whole table will do."""
    game = view.game
    now = shown(view)
    if now is None or now.fixed != before.fixed or now.log < before.log:
        return None, None
    ctx = view.context
    parts = [marker(before.version, game.version, bool(ctx.get("my_turn"))),
             _felt(view, ctx)]
    if now.coach != before.coach:
        parts.append(_coach(view, ctx))
    if now.log > before.log:
        me = ctx.get("me")  # a reader's own standing orders mark their own log alone
        marks = tuple(me.auto_moves) if me is not None and me.auto_moves else ()
        parts.append(_new_lines(game, ctx["log"][:now.log - before.log], marks))
    return "".join(parts), now


def marker(before: int, version: int, my_turn: bool) -> str:
    """The frame's first element: static/js/frames.js reads it before anything is swapped."""
    turn = " data-my-turn" if my_turn else ""
    return (f'<div id="table-frame" hidden data-from="{before}" data-version="{version}"'
            f'{turn}></div>')


def _felt(view: render.TableView, ctx: dict[str, Any]) -> str:
    """The reader's felt, swapped in by its id; kept per version and reader
    (render.TableView.key) for the next socket of the same view."""
    key = view.key()
    name = None if key is None else (key, felt.FELT)
    html = render.get(name)
    if html is None:
        with timezone.override(ZoneInfo(view.zone)):
            html = felt.render({**ctx, "csrf_token": render.CSRF_MARK, "part_oob": True})
        render.put(name, html)
    return html


def _coach(view: render.TableView, ctx: dict[str, Any]) -> str:
    """The coach's part: its button or nothing, alike for every reader of the game in a
    language (the CSRF token is put in per reader)."""
    can_hint = bool(ctx.get("can_hint"))
    key = ("coach", view.game.pk, can_hint, get_language())
    html = _lines.get(key)
    if html is None:
        html = render.render_part(COACH, {"game": view.game, "can_hint": can_hint,
                                          "csrf_token": render.CSRF_MARK, "part_oob": True})
        _lines.put(key, html)
    return html


def _new_lines(game: Game, lines: list[str], marks: Hashable) -> str:
    """The log's new lines, newest first as the log shows them, put at its top; one render
    per version and language for every reader (the log is public: deal.view's history)
    but those whose own standing orders it marks (`marks`, games.present.orders)."""
    key = (game.pk, game.version, get_language(), len(lines), marks)
    html = _lines.get(key)
    if html is None:
        items = "".join(f"<li>{conditional_escape(line)}</li>" for line in lines)
        html = f'<ol hx-swap-oob="afterbegin:#table-log">{items}</ol>'
        _lines.put(key, html)
    return html
