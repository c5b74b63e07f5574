"""A finished game step by step, rebuilt from its move log with the engine (never from
anything but the log and the match's seed), and its record for export.

Step 0 is the first deal as dealt; step N shows the table after the Nth move. The game
is over, so every hand is shown.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from .. import describe
from ..engine import InvalidAction, Match, action_from_token
from ..engine.replay import export, play_through, positions
from ..models import Game, Move, Seat
from ..services.access import seats_of
from .table import around, side_name

PLAYED = (Move.Kind.MOVE, Move.Kind.BOT, Move.Kind.TIMEOUT, Move.Kind.ORDER)


class NoReplay(Exception):
    """This game cannot be replayed; the message says why, for the player."""


def _is_engine_move(move: Move) -> bool:
    if move.seat is None or not move.actions:
        return False
    try:
        for token in move.actions:
            action_from_token(token)
    except (InvalidAction, TypeError):
        return False  # "forfeit", and any other change that is not a play of cards
    return True


def moves_of(game: Game) -> list[tuple[int, list[str]]]:
    """(seat, tokens) of every move of cards, in the order played."""
    rows = Move.objects.filter(game=game, kind__in=PLAYED).order_by("seq")
    return [(m.seat, list(m.actions)) for m in rows if m.seat is not None and _is_engine_move(m)]


def start_of(game: Game) -> Match:
    """The match as it was dealt: the same rules, options and seed."""
    if not game.is_over:
        raise NoReplay(_("This game is still being played: its replay opens when it ends."))
    saved = game.match()
    if saved is None:
        raise NoReplay(_("This game ended before any card was dealt."))
    if saved.seed is None:
        raise NoReplay(_("This game was dealt before replays were kept."))
    return Match(saved.rules, deals=saved.deals, loss_limit=saved.loss_limit, seed=saved.seed,
                 salt=saved.salt)


def replayed(game: Game) -> Match:
    """The match played through its move log: equal to the saved one."""
    return play_through(start_of(game), moves_of(game))


def record(game: Game) -> dict[str, Any]:
    """The game's record (rules, each deal's pack, the moves) for export: the engine's
    `games.engine.replay.replay` plays it back to the final state."""
    start = start_of(game)
    data = export(start.rules, deals=start.deals, loss_limit=start.loss_limit,
                  seed=start.seed, salt=start.salt, moves=moves_of(game))
    seats = seats_of(game)
    data["game"] = {
        "id": game.pk, "rules_name": game.preset.name,
        "seats": [{"seat": s.number, "name": s.name, "bot": bool(s.bot_level)} for s in seats],
        "forfeited_seat": game.forfeited_seat,
        "finished": game.finished_at.isoformat() if game.finished_at else None,
    }
    return data


def step(game: Game, number: int, viewer: int | None = None) -> dict[str, Any]:
    """The table after move `number` (clamped to 0..the last move), for
    templates/games/replay.html. `viewer`: the seat of the player looking, shown apart as
    `me`, at the bottom as at the live table; the others from the viewer's left (R2)."""
    moves = moves_of(game)
    match = start_of(game)
    number = max(0, min(number, len(moves)))
    seats: list[Seat] = seats_of(game)

    def name(seat: int | None) -> str:
        return seats[seat].name if seat is not None and 0 <= seat < len(seats) else "?"

    lines: list[dict[str, Any]] = []  # this move's events (step 0: the deal as dealt)
    seen, deal_number = len(match.deal.view(None)["history"]), match.deal_number
    for played in positions(match, moves[:number]):  # plays on `match` itself
        if played.deal_number != deal_number:  # the move came after a new deal was dealt
            deal_number, seen = played.deal_number, 0
        events = played.deal.view(None)["history"]
        lines, seen = events[seen:], len(events)
    deal = match.deal
    view = deal.view(None)  # the public table; hands come from the deal: the game is over
    if number == 0:
        lines = view["history"]
    me = seats[viewer] if viewer is not None and 0 <= viewer < len(seats) else None

    def shown(seat: Seat) -> dict[str, Any]:
        return {
            "name": seat.name,
            "hand": [c.code for c in deal.hand(seat.number)],
            "out": seat.number in view["out"],
            "to_act": not deal.is_over and deal.to_act == seat.number,
            "defender": not deal.is_over and deal.defender == seat.number,
        }
    return {
        "number": number,
        "last": len(moves),
        "mover": name(moves[number - 1][0]) if number else "",
        "lines": describe.history(lines, name),
        "deal_number": match.deal_number,
        "trump": view["trump"],
        "trump_name": describe.suit_name(view["trump"]),
        "trump_card": view["trump_card"],
        "talon_size": view["talon_size"],
        "discard_size": view["discard_size"],
        "pairs": view["table"],
        "seats": [shown(seat) for seat in around(seats, me)],
        "me": shown(me) if me is not None else None,
        "tally": [{"name": side_name(match.rules, seats, side), "losses": lost}
                  for side, lost in sorted(match.losses.items())],
    }
