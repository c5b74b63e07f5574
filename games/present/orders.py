"""A seated player's own standing orders (games.services.orders) as their table shows
them: the form's state, and the moves the site played by them, marked in that player's
own log and last move. Built only from the reader's own seat, so no other player's or
spectator's page, socket frame or replay carries any of it (others read an ordinary
pass or take)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from django.utils.translation import gettext as _

from ..models import Game, Seat


def own_orders(game: Game, me: Seat | None) -> dict[str, Any] | None:
    """The orders form's state for the reader's own seat (templates/games/table/
    _orders.html): None where there is nothing to order (a spectator, a game not in
    play, a seat a computer plays, a newcomer's lesson)."""
    if me is None or me.player_id is None or me.is_bot or not game.is_playing or game.lesson:
        return None
    return {"seat": me.number, "pass": me.auto_pass, "take": me.auto_take}


def marked(lines: list[str | None], me: Seat | None) -> list[str | None]:
    """The deal's events in words (games.present.table.event_lines), each one the
    reader's standing order played marked as such: for the reader's own seat only. A new
    list; the kept one, shared by every reader, is left alone."""
    if me is None or not me.auto_moves:
        return lines
    played = set(me.auto_moves)
    return [_("%(move)s (your standing order)") % {"move": line}
            if line and i in played else line for i, line in enumerate(lines)]


def orders_key(seats: list[Seat], reader: int | None) -> Hashable:
    """The reader's own orders, as part of the name a render is kept under
    (games.present.render): setting them makes no new version, so a table rendered
    before at this version must not be handed out again after."""
    mine = next((s for s in seats if reader is not None and s.player_id == reader), None)
    if mine is None:
        return None
    return (mine.auto_pass, mine.auto_take, tuple(mine.auto_moves))
