"""A move applied to a locked change: its actions read from their tokens ("attack:7H",
"defend:7H:9H", "take"...) and applied all-or-nothing (the player's move, a bot's, a
standing order, a timeout: games.services.moves and clocks)."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _

from ..engine import (
    Action,
    Attack,
    ExchangeTrump,
    IllegalAction,
    InvalidAction,
    Pass,
    action_from_token,
)
from ..models import Game, Move
from .change import Change
from .errors import BadRequest, Conflict, IllegalMove, NotYourTurn
from .orders import clear_orders, mark_played, order_due, standing_action
from .refusals import (
    nth_card_refused,
    refusal_message,
    repeated_card,
    single_lead,
    turn_ended_after,
)
from .results import keep_deal, record_deal
from .turn import charge_clock, restart_clock, set_turn

MAX_ACTIONS = 24  # more than a bout can hold is certainly a malformed request


def read_move(tokens: object, *, allow_empty: bool = False) -> list[Action]:
    """The engine actions of a move, from a list of tokens (engine actions pass as they are).
    BadRequest, naming the bad token, for anything else. `allow_empty`: the caller words
    an empty move for the player (moves.play_change)."""
    if not isinstance(tokens, list):
        raise BadRequest(_("That is not a move."))
    if not tokens and not allow_empty:
        raise BadRequest(_("Choose a card first, or take or pass."))
    if len(tokens) > MAX_ACTIONS:
        raise BadRequest(_("That is more than one move can hold."))
    actions: list[Action] = []
    for token in tokens:
        if isinstance(token, Action):
            actions.append(token)
            continue
        if not isinstance(token, str):
            raise BadRequest(_("That is not a move."))
        try:
            actions.append(action_from_token(token))
        except InvalidAction:
            raise BadRequest(_("“%(token)s” is not a move.") % {"token": token[:40]}) from None
    return actions


def apply_order(change: Change, number: int, *, bot_plays_on: bool = False) -> Game:
    """Play seat `number`'s fitting standing order in this change (moves.play_order, and a
    deadline that finds one, clocks.charge_timeout): a move of kind ORDER, marked for its
    player's own log."""
    if not 0 <= number < len(change.seats):
        raise BadRequest(_("There is no such seat."))
    seat = change.seats[number]
    deal = change.game.match_in_play().deal
    action = standing_action(deal, seat)
    if action is None:
        raise Conflict(_("No standing order fits this move."))
    mark_played(seat, deal)
    return apply_move(change, number, [action], kind=Move.Kind.ORDER, bot_plays_on=bot_plays_on)


# The columns a move changes (apply_move, set_turn, restart_clock): saved alone, not the row.
MOVE_FIELDS = ("state", "status", "finished_at", "turn_seat", "turn_started", "deadline",
               "reminders_sent", "paused_at", "next_reminder", "move_email_at", "timeout_marks",
               "last_move_mark")


def apply_move(change: Change, seat: int, actions: list[Action], *, kind: str,
               bot_plays_on: bool = False) -> Game:
    """Apply actions on a copy of the deal; save only if every one of them is legal."""
    repeated = repeated_card(actions)
    if repeated:
        raise IllegalMove(repeated)
    game, seats = change.game, change.seats
    match = game.match_in_play()
    # Where this move begins in the deal's log: the table's "Last move" tells it alone.
    mark = [match.deal_number, len(match.deal.history)]
    deal = match.deal.copy()
    leading = not deal.table
    bout = deal.bout

    def name(number: int | None) -> str:
        if number is not None and 0 <= number < len(seats):
            return seats[number].name
        return _("another player")

    last = len(actions) - 1
    applied: list[Action] = []
    for i, action in enumerate(actions):
        played = [a for a in applied if not isinstance(a, ExchangeTrump)]
        if isinstance(action, ExchangeTrump):  # R27: the one action allowed out of turn
            pass
        elif played and isinstance(action, Pass) and i == last and (
            deal.is_over or deal.to_act != seat or deal.bout != bout
        ):
            break  # "…then pass": the engine already passed the seat over, or the bout ended (R13)
        elif played and (deal.is_over or deal.to_act != seat):
            if (leading and not deal.is_over and not match.rules.lead_multiple
                    and isinstance(action, Attack) and isinstance(played[-1], Attack)):
                raise IllegalMove(single_lead(name(deal.to_act)))  # R7
            raise IllegalMove(turn_ended_after(
                played[-1], None if deal.is_over else name(deal.to_act)))
        try:
            deal.apply(seat, action)
        except IllegalAction as exc:
            reason = refusal_message(exc, name)
            if exc.code == "not_your_turn" and not played:
                raise NotYourTurn(reason) from None
            if last == 0:
                raise IllegalMove(reason) from None
            raise IllegalMove(nth_card_refused(actions, i, reason)) from None
        applied.append(action)
    match.deal = deal
    game.last_move_mark = mark
    now = timezone.now()
    restart_clock(game, now)  # a player on vacation who moves anyway
    charge_clock(game, seats[seat], now)
    if deal.is_over:
        record_deal(game, match, seats)
        keep_deal(game, match)
        clear_orders(seats)  # standing orders hold for one deal
        if not match.is_over:
            match.next_deal()
    game.state = match.to_json()
    set_turn(game, match, now, seats)
    return change.save(kind, [a.token() for a in applied], seat=seat,
                       bot_plays_on=bot_plays_on, fields=MOVE_FIELDS,
                       order_due=game.is_playing and order_due(match.deal, seats))
