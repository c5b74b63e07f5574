"""Standing orders: a seated player asks the site to pass for them when they could only
throw in, or to take when they cannot beat, so that a slow game need not wake them for
a move with nothing to decide. Each order is their seat's own (games.models.Seat) and
seen by them alone; it holds for the deal it is set in (the deal's end clears it).

The site plays an order as it plays a bot's or a timeout's move: a change that hands the
initiative to a seat whose order fits says so to its commit (moves.apply_move), which
queues a turn for the site (notify, botplay.run_bots -> moves.play_order), its own
transaction after the change that made it due. A fitting order still there at the
seat's deadline is played then, as the order, not as a timeout (clocks.timeout).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from django.db import transaction
from django.utils.translation import gettext as _

from .. import notify
from ..engine import Action, Attack, Deal, Defend, ExchangeTrump, Pass, Take, Transfer
from ..models import Seat
from .access import Someone
from .change import locked
from .errors import BadRequest

ORDER_FIELDS = ("auto_pass", "auto_take", "auto_moves")
TICKED = {"1": True, "on": True, "true": True, "0": False, "": False, "false": False}


def standing_action(deal: Deal, seat: Seat) -> Action | None:
    """The move the seat's standing orders make now, or None when none fits. Only ever
    one of the seat's legal actions (Deal.legal_actions), so never an illegal move.

    "Pass when I can only throw in" (`auto_pass`) fits when the seat holds the initiative
    as an attacker after the lead: attack cards lie on the table, so Pass is legal (R13),
    and every other legal action is a throw-in (R8, within R9's limit; also after the
    defender has said they take, R15) or the trump exchange, which is no move of the bout
    (R25-R27). A lead is never passed (R7: Pass is not legal then).

    "Take when I cannot beat" (`auto_take`) fits when the seat holds the initiative as the
    defender (R14) and has no legal defence (no card of its hand beats an unbeaten attack
    card, R6, R12) and no transfer (R32): Take is its only move of the bout. A defender who
    could beat even one of the cards decides for themself.

    A seat a computer plays (a bot, or one standing in) has no orders that act.
    """
    if not (seat.auto_pass or seat.auto_take) or seat.is_bot or seat.player_id is None:
        return None
    if deal.is_over or deal.to_act != seat.number:
        return None
    legal = [a for a in deal.legal_actions(seat.number) if not isinstance(a, ExchangeTrump)]
    if seat.auto_pass and Pass() in legal and all(isinstance(a, Attack | Pass) for a in legal):
        return Pass()
    if seat.auto_take and Take() in legal and not any(isinstance(a, Defend | Transfer)
                                                      for a in legal):
        return Take()
    return None


def order_due(deal: Deal, seats: list[Seat]) -> bool:
    """Does a standing order fit for the seat holding the initiative?"""
    to_act = deal.to_act
    return (not deal.is_over and to_act is not None and 0 <= to_act < len(seats)
            and standing_action(deal, seats[to_act]) is not None)


def mark_played(seat: Seat, deal: Deal) -> None:
    """The seat's order is about to play the deal's next event: keep its place, so that
    the seat's own log and last move say so (games.present.orders)."""
    seat.auto_moves = [*seat.auto_moves, len(deal.history)]
    seat.save(update_fields=["auto_moves"])


def clear_orders(seats: Iterable[Seat]) -> None:
    """A deal has ended: every seat's orders and their marks go with it."""
    for seat in seats:
        if seat.auto_pass or seat.auto_take or seat.auto_moves:
            seat.auto_pass = seat.auto_take = False
            seat.auto_moves = []
            seat.save(update_fields=list(ORDER_FIELDS))


def _ticked(value: object) -> bool:
    """A checkbox's value: missing or "0" is off, "1" (or "on") is on."""
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in TICKED:
        return TICKED[value.strip().lower()]
    raise BadRequest(_("A standing order is either on or off."))


def set_orders(game_id: int | str, user: Someone, *, auto_pass: object = None,
               auto_take: object = None, seat: object = None) -> Seat:
    """The user's standing orders at their seat of a game in play, as the table's form
    sends them (a ticked box "1", an unticked one missing); the seat as saved. `seat`:
    the seat the client believes it plays, refused if it is not the user's. If an order
    fits at once (it is their turn), the site plays it after the commit.

    No new version of the game: nobody else's table changes, and no one's move in
    flight is refused as stale for it. The game row is locked all the same, so a move
    being made meanwhile reads the seat before or after."""
    wanted = {"auto_pass": _ticked(auto_pass), "auto_take": _ticked(auto_take)}
    with locked(game_id, user, seated=True, seat=seat, playing=True) as change:
        mine = change.my_seat
        for name, value in wanted.items():
            setattr(mine, name, value)
        mine.save(update_fields=list(wanted))
        game = change.game
        if order_due(game.match_in_play().deal, change.seats):
            transaction.on_commit(partial(notify.queue_bot_turn, game.pk, game.version),
                                  robust=True)
        return mine
