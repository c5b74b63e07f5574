"""Every seat's time left as the table shows it (templates/games/table/_seat_clock.html),
as Lichess and BGA show it: with a time bank each seat shows its bank; the seat to move
shows the time left for this move as a bar and in words, counting down in the page
(static/js/seatclock.js moves the bar, static/js/clock.js the words)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils.timesince import timeuntil
from django.utils.translation import ngettext

from ..models import Game, Seat


def left_words(left: timedelta) -> str:
    """A time left in words, its two largest units ("2 days, 3 hours", "4 minutes"), or
    its seconds under a minute."""
    seconds = max(int(left.total_seconds()), 0)
    if seconds < 60:
        return ngettext("%(n)s second", "%(n)s seconds", seconds) % {"n": seconds}
    now = datetime(2000, 1, 1)
    return timeuntil(now + left, now)


def seat_clock(game: Game, seat: Seat, to_act: bool, now: datetime) -> dict[str, Any] | None:
    """What seat `seat`'s clock shows (None: nothing). The seat to act: `deadline`, the
    seconds `left` of `total` (the bank, or this move's time) and their words, `paused`
    while the clock stands still (a vacation). Any other seat, with a time bank: its
    `bank` in words. With a time per move only the seat to act has a clock."""
    if not game.is_playing:
        return None
    if to_act and game.deadline is not None:
        left = game.deadline - (game.paused_at or now)
        whole = (game.bank_time if game.has_bank else game.turn_time) or game.move_time
        total = max(whole, left, timedelta(seconds=1))
        seconds = int(total.total_seconds())
        return {"deadline": game.deadline, "paused": game.paused_at is not None,
                "left": max(int(left.total_seconds()), 0), "total": seconds,
                # the bar turns amber below 30% of it, red below 10% (<meter>'s low, high)
                "low": seconds // 10, "high": seconds * 3 // 10, "words": left_words(left)}
    if game.has_bank:
        bank = seat.bank if seat.bank is not None else game.bank_time
        if bank is not None:
            return {"bank": left_words(bank)}
    return None
