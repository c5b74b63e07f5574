"""The engine's refusals (IllegalAction.code) in words a player understands: card labels
such as "8♦" and players' names, never seat numbers or rule numbers."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..describe import label
from ..engine import (
    Action,
    Attack,
    Card,
    Deal,
    Defend,
    ExchangeTrump,
    IllegalAction,
    Pass,
    Take,
    Transfer,
)

logger = logging.getLogger(__name__)

# code -> message; %(card)s, %(attack)s, %(lead)s are card labels, %(name)s a player's name.
REFUSALS = {
    "not_an_action": gettext_lazy("That is not a move."),
    "deal_over": gettext_lazy("The deal is over."),
    "not_your_turn": gettext_lazy("It is not your turn: %(name)s is to act."),
    "defender_cannot_attack": gettext_lazy("You are defending: beat the cards, or take them."),
    "defender_cannot_pass": gettext_lazy("The defender can't pass: beat the cards or take them."),
    "lead_first": gettext_lazy("You lead this bout: play a card first."),
    "only_defender": gettext_lazy("Only %(name)s, the defender, may do that."),
    "not_in_hand": gettext_lazy("You don't hold the %(card)s."),
    "limit_reached": gettext_lazy(
        "No more cards may be played in this bout: the limit is %(limit)s."),
    "lead_same_rank": gettext_lazy(
        "The %(card)s can't join the lead: every card led must have the rank of the %(lead)s."),
    "wait_for_defence": gettext_lazy("Wait until the defender beats the lead or takes it."),
    "rank_not_on_table": gettext_lazy(
        "The %(card)s can't be thrown in: no card of its rank is on the table."),
    "attack_not_on_table": gettext_lazy("The %(attack)s is not on the table."),
    "already_beaten": gettext_lazy("The %(attack)s is already beaten."),
    "cannot_beat": gettext_lazy(
        "The %(card)s can't beat the %(attack)s: it is neither a higher card of the same "
        "suit nor a trump."),
    "cannot_beat_trump": gettext_lazy(
        "The %(card)s can't beat the %(attack)s: a trump is beaten only by a higher trump."),
    "transfer_off": gettext_lazy("Transfers are not played at this table."),
    "transfer_after_defence": gettext_lazy(
        "You can only transfer before any card on the table has been beaten."),
    "transfer_wrong_rank": gettext_lazy(
        "To transfer, add a card of the same rank as the %(lead)s; the %(card)s is not."),
    "transfer_too_many": gettext_lazy(
        "You can't transfer: %(name)s would have to beat %(count)s cards but may be given at "
        "most %(limit)s."),
    "exchange_off": gettext_lazy("The trump exchange is not played at this table."),
    "exchange_no_six": gettext_lazy(
        "This pack has no 6, so there is no trump exchange."),
    "exchange_not_holder": gettext_lazy(
        "Only the holder of the %(card)s may exchange it for the trump card."),
    "exchange_talon_empty": gettext_lazy("The trump card is no longer in the talon."),
    "exchange_six_face_up": gettext_lazy("The face-up trump card is the %(card)s itself."),
    "exchange_ace_only": gettext_lazy(
        "At this table the trump 6 may be exchanged only for the trump ace."),
    "exchange_no_right": gettext_lazy(
        "You may not exchange the %(card)s: a 6 picked up from the table gives no right to "
        "exchange."),
}
CARD_PARAMS = {"card": "card", "attack": "attack", "lead": "lead", "rank_of": "lead"}
NOT_ALLOWED = gettext_lazy("That move is not allowed now.")

# Where a move of several cards stops, the card is named by its place in the move.
NTH_CARD = {
    1: gettext_lazy("Your first card"), 2: gettext_lazy("Your second card"),
    3: gettext_lazy("Your third card"), 4: gettext_lazy("Your fourth card"),
    5: gettext_lazy("Your fifth card"), 6: gettext_lazy("Your sixth card"),
    7: gettext_lazy("Your seventh card"), 8: gettext_lazy("Your eighth card"),
    9: gettext_lazy("Your ninth card"), 10: gettext_lazy("Your tenth card"),
    11: gettext_lazy("Your eleventh card"), 12: gettext_lazy("Your twelfth card"),
}


def nothing_chosen(deal: Deal, seat: int, name: Callable[[int | None], str]) -> str:
    """What to do instead of sending a move with nothing in it, for this seat now."""
    if deal.is_over:
        return str(REFUSALS["deal_over"])
    if deal.to_act != seat:
        return str(REFUSALS["not_your_turn"]) % {"name": name(deal.to_act)}
    legal = deal.legal_actions(seat)
    if any(isinstance(a, Take) for a in legal):
        return str(REFUSALS["defender_cannot_attack"])
    if any(isinstance(a, Pass) for a in legal):
        return _("Choose a card to throw in first, or pass.")
    return str(REFUSALS["lead_first"])


def _label(code: Any) -> str:
    """A card param of the engine's refusal as drawn, else as it came."""
    try:
        return label(code)
    except (TypeError, ValueError):
        return str(code)


def refusal_message(exc: IllegalAction, name: Callable[[int], str]) -> str:
    """The refusal in the player's language; `name(seat)` gives a seat's display name."""
    template = REFUSALS.get(getattr(exc, "code", ""))
    if template is None:
        logger.warning("no site message for the engine's refusal %r (%s)",
                       getattr(exc, "code", None), exc)
        return str(NOT_ALLOWED)
    params: dict[str, object] = {}
    for key, value in (getattr(exc, "params", None) or {}).items():
        if key in CARD_PARAMS and value is not None:
            params[CARD_PARAMS[key]] = _label(value)
        elif key == "seat" and value is not None:
            params["name"] = name(value)
        else:
            params[key] = value
    try:
        return str(template) % params
    except (KeyError, TypeError, ValueError):
        logger.warning("the refusal %r lacks what its message needs: %r", exc.code, params)
        return str(NOT_ALLOWED)


def _card_of(action: Action) -> Card | None:
    """The card an action puts on the table (for a defence: the card that beats)."""
    if isinstance(action, (Attack, Transfer, Defend)):
        return action.card
    return None


def nth_card_refused(actions: list[Action], i: int, reason: str) -> str:
    """Action `i` of a move of several was refused: say which card, and that nothing moved."""
    card = _card_of(actions[i])
    if card is None:
        return _("%(reason)s Nothing was played.") % {"reason": reason}
    n = sum(1 for a in actions[: i + 1] if _card_of(a) is not None)
    nth = str(NTH_CARD[n]) if n in NTH_CARD else _("Card %(n)s of your move") % {"n": n}
    return _("%(nth)s: %(reason)s Nothing was played.") % {"nth": nth, "reason": reason}


def turn_ended_after(action: Action, next_name: str | None) -> str:
    """A move of several went on after the turn had passed to another player (R13)."""
    card = _card_of(action)
    if next_name is None:
        if card is not None:
            return _("After the %(card)s the deal is over, so the rest of your move can't be "
                     "played. Nothing was played.") % {"card": label(card.code)}
        return _("The deal is over, so the rest of your move can't be played. "
                 "Nothing was played.")
    params = {"name": next_name}
    if card is not None:
        text = _("After the %(card)s it is %(name)s's turn.") % {**params, "card": label(card.code)}
    elif isinstance(action, Take):
        text = _("After you take it is %(name)s's turn.") % params
    elif isinstance(action, Pass):
        text = _("After you pass it is %(name)s's turn.") % params
    elif isinstance(action, ExchangeTrump):
        text = _("After the exchange it is %(name)s's turn.") % params
    else:  # pragma: no cover - every action is one of the above
        text = _("It is %(name)s's turn.") % params
    return text + " " + _("The rest of your move can't be played. Nothing was played.")


def repeated_card(actions: list[Action]) -> str | None:
    """A move that puts one hand card on the table twice (the same card chosen to beat two
    attack cards, or a tampered form), in the player's words; None if every card is new."""
    seen: dict[Card, Action] = {}
    for action in actions:
        card = _card_of(action)
        if card is None:
            continue
        if card in seen:
            if isinstance(action, Defend) and isinstance(seen[card], Defend):  # R12
                return _("You chose the %(card)s for two cards; each card can beat only "
                         "one.") % {"card": label(card.code)}
            return _("You chose the %(card)s twice; each card can be played only "
                     "once.") % {"card": label(card.code)}
        seen[card] = action
    return None


def single_lead(next_name: str) -> str:
    """A lead of several cards where the rules allow one (R7)."""
    return _("Only one card may lead a bout at this table; more can be thrown in once "
             "%(name)s has beaten it or taken it. Nothing was played.") % {"name": next_name}
