"""The words of the lesson ("Learn Durak in five minutes"): what the lesson panel beside
the learner's hand says, chosen from what is happening in their view of the deal.

`lesson(view, seat)` reads only `deal.view(seat)` of the learner (the table, whose turn,
the history, their own legal actions), never a hidden card, and returns a `Lesson`: a
`step` that names the situation (tests and CSS read it), a title and a few sentences.
The situations, by the rules they teach: the trump (R3, R6), the attack (R5, R7), beating
(R6, R12), throwing in (R8, R13), taking (R14, R15), the refill from the talon (R17) and
the goal, not to be the last with cards (R21).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from .. import describe
from ..engine import Card, View
from ..models import Game, Seat

BOUT_END = ("discard", "pick_up")


def _goal() -> str:
    return _("The goal: get rid of all your cards. Whoever is left holding cards at the end "
             "is the durak, the fool.")
ACTIONS = ("attack", "defend", "take", "pass", "transfer")


@dataclass
class Lesson:
    """What the lesson panel says now."""

    step: str  # lead-first, lead, throw-in, add-to-take, defend, must-take, wait-defence,
    # wait-attack, you-take, end
    title: str
    lines: list[str] = field(default_factory=list)  # this step's words only
    trump: str = ""  # the trump explained, while it matters most
    recap: list[str] = field(default_factory=list)  # how the last bout ended: folded away
    over: bool = False
    won: bool = False


def _ranks(view: View) -> str:
    """The ranks on the table, low to high, as the cards' corners show them: "9, Q"."""
    ranks = sorted({Card.parse(code).rank for pair in view["table"] for code in pair if code})
    return ", ".join(describe.rank_letter(rank) for rank in ranks)


def _how_to_add(view: View) -> str:
    """How the page takes a throw-in: one card plays on a tap; where several may go, taps
    choose them and a button plays them (the table's form, games/present/table.py)."""
    if view["limit"] - len(view["table"]) > 1:
        return _("Tap the cards you add, then “Play selected”; or tap “Pass” when you are "
                 "done.")
    return _("Tap the card to add it, or tap “Pass” when you are done.")


def _trump(view: View) -> str:
    suit = describe.suit_name(view["trump"])
    if view["trump_card"]:
        return _("The card under the talon, %(card)s, sets the trump suit: %(suit)s. Any "
                 "trump beats any card of another suit.") % {
            "card": describe.label(view["trump_card"]), "suit": suit}
    return _("Trumps are %(suit)s: any trump beats any card of another suit.") % {"suit": suit}


def _last(history: list[dict[str, Any]], kinds: tuple[str, ...]) -> dict[str, Any] | None:
    return next((e for e in reversed(history) if e.get("type") in kinds), None)


def _beaten_how(event: dict[str, Any], trump: str, seat: int) -> str:
    """The last defence in words: which card beat which, and why that may."""
    attack, card = Card.parse(event["attack"]), Card.parse(event["card"])
    words = {"attack": describe.label(event["attack"]), "card": describe.label(event["card"])}
    if event.get("seat") == seat:
        if card.suit == trump and attack.suit != trump:
            return _("You beat %(attack)s with %(card)s, a trump.") % words
        return _("You beat %(attack)s with %(card)s.") % words
    if card.suit == trump and attack.suit != trump:
        return _("The computer beat %(attack)s with %(card)s, a trump: any trump beats any "
                 "card of another suit.") % words
    return _("The computer beat %(attack)s with %(card)s: a higher card of the same "
             "suit.") % words


def _after_bout(history: list[dict[str, Any]], seat: int, talon: int,
                trump: str) -> list[str]:
    """What the last bout's end means for this one: who took, the refill (R17, R18)."""
    end_at = next((i for i in range(len(history) - 1, -1, -1)
                   if history[i].get("type") in BOUT_END), None)
    if end_at is None:
        return []
    end = history[end_at]
    lines = []
    if end["type"] == "pick_up" and end.get("seat") == seat:
        lines.append(_("You took the cards: they are in your hand now, and the computer "
                       "attacks again."))
    elif end["type"] == "pick_up":
        lines.append(_("The computer took the cards, so you attack again."))
    elif end["type"] == "discard":
        defence = _last(history[:end_at], ("defend",))
        if defence is not None:  # the bout's last beat, which the learner may not have seen
            lines.append(_beaten_how(defence, trump, seat))
        lines.append(_("Every card was beaten, so the bout's cards went to the discard pile, "
                       "and the defender attacks next."))
    if any(e.get("type") == "draw" for e in history[end_at + 1:]):
        lines.append(_("After each bout both hands are filled up to six cards from the talon, "
                       "the attacker first."))
    elif not talon:
        lines.append(_("The talon is empty, so nobody draws any more: get rid of your cards."))
    if sum(e.get("type") in BOUT_END for e in history) == 1:  # once the first bout is over
        lines.append(_goal())
    return lines


def lesson(view: View, seat: int) -> Lesson:
    """What the lesson says to the learner at `seat`, from their view."""
    history = view["history"]
    trump = view["trump"]
    legal = view["legal_actions"]
    table = view["table"]
    unbeaten = [attack for attack, defence in table if attack and defence is None]
    my_turn = view["to_act"] == seat
    can_attack = any(t.startswith("attack:") for t in legal)
    can_defend = any(t.startswith("defend:") for t in legal)

    if view["is_over"]:
        won = view["loser"] != seat and not view["is_draw"]
        if view["is_draw"]:
            title = _("A draw: both of you ran out of cards at once.")
        elif won:
            title = _("You got rid of your cards: the computer is the durak!")
        else:
            title = _("The computer got rid of its cards first: you are the durak this time.")
        return Lesson("end", title, [_goal(), _("You have seen the attack, beating, throwing in "
                                             "and taking: that is the whole game.")],
                      over=True, won=won)

    before = _after_bout(history, seat, view["talon_size"], trump)
    if my_turn and view["attacker"] == seat and not table:
        if not any(e.get("type") in BOUT_END for e in history):  # the deal's first bout
            shown = next((e["card"] for e in history if e.get("type") == "lowest_trump"
                          and e.get("seat") == seat), None)
            lines = [_("You hold the lowest trump, %(card)s, so you attack first.") % {
                "card": describe.label(shown)}] if shown else []
            lines.append(_("Tap a card to attack with it. Lead a low card: keep trumps and "
                           "high cards for beating."))
            return Lesson("lead-first", _("Your attack"), lines, trump=_trump(view))
        return Lesson("lead", _("Your attack"), [_("Tap a card to attack with it: the computer "
                                                   "must beat it or take it.")], recap=before)
    if my_turn and view["taking"]:
        lines = [_("The computer takes the cards. Before it picks them up you may add cards "
                   "of a rank already on the table (%(ranks)s): it takes those too.")
                 % {"ranks": _ranks(view)}]
        lines.append(_how_to_add(view) if can_attack
                     else _("You have no card of those ranks: tap “Pass”."))
        return Lesson("add-to-take", _("The computer takes"), lines)
    if my_turn and view["attacker"] == seat:
        defence = _last(history, ("defend",))
        lines = [_beaten_how(defence, trump, seat)] if defence else []
        if can_attack:
            lines.append(_("You may throw in another card of a rank already on the table "
                           "(%(ranks)s); it must be beaten too. If you pass, the cards go to "
                           "the discard pile.") % {"ranks": _ranks(view)})
            lines.append(_how_to_add(view))
        else:
            lines.append(_("You have no card of a rank on the table (%(ranks)s) to throw in: "
                           "tap “Pass”, and the beaten cards go to the discard pile.")
                         % {"ranks": _ranks(view)})
        return Lesson("throw-in", _("Throw in, or pass"), lines,
                      trump=_trump(view) if defence and Card.parse(defence["card"]).suit == trump
                      else "")
    if my_turn and view["defender"] == seat and unbeaten:
        words = {"card": describe.label(unbeaten[0]), "suit": describe.suit_name(trump)}
        before = before if len(table) == 1 else []  # the bout's first card only
        if can_defend:
            lines = [_("The computer attacks with %(card)s. Beat it with a higher card of the "
                       "same suit or with any trump (%(suit)s): tap your card.") % words,
                     _("If you can't or don't want to, tap “Take the cards”: they go into your "
                       "hand.")]
            return Lesson("defend", _("Beat the card, or take it"), lines, trump=_trump(view),
                          recap=before)
        lines = [_("You have no higher card of that suit and no trump to beat %(card)s: tap "
                   "“Take the cards” to pick it up.") % words,
                 _("Taking is no disaster: the cards are yours to play later, but the computer "
                   "attacks again.")]
        return Lesson("must-take", _("Take the cards"), lines, trump=_trump(view), recap=before)
    if view["taking"] and view["defender"] == seat:
        return Lesson("you-take", _("You take the cards"), [
            _("The computer may still add cards of the ranks on the table for you to pick "
              "up; then they all go into your hand.")])
    if view["defender"] != seat and unbeaten:
        return Lesson("wait-defence", _("The computer must beat your card"), [
            _("A card is beaten by a higher card of its own suit or by any trump. If the "
              "computer can't or won't, it takes the cards.")])
    return Lesson("wait-attack", _("The computer attacks"), [
        _("Wait for its card, then beat it or take it.")], trump=_trump(view), recap=before)


def lesson_context(game: Game, me: Seat | None, view: View | None) -> dict[str, Any]:
    """The lesson panel's context for a lesson's own learner (nobody else sees it)."""
    if not game.lesson or me is None or me.bot_level or view is None or view["seat"] is None:
        return {"lesson": None}
    if not game.is_playing and not view["is_over"]:
        return {"lesson": None}  # given up or aborted: the result panel says so
    return {"lesson": lesson(view, me.number)}
