"""The heuristic player (Medium), also the fast playout policy of the search bots.

`heuristic_action(deal, seat)` reads only what that seat may know, through the engine's
public API: its own hand, the table, the trump and the talon's size. It plays low non-trumps first,
defends with the cheapest beating card, takes when defending would cost too much, throws
in cheap cards, exchanges the trump 6 (R25) and transfers when it pays (R32).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import (
    ALL_CARDS,
    LOWEST_RANK,
    Action,
    Attack,
    Card,
    Deal,
    Defend,
    ExchangeTrump,
    Pass,
    Take,
    Transfer,
)
from games.kept import memo


@dataclass(frozen=True)
class Params:
    """The heuristic's knobs (tuned by self-play for Expert's playouts: see `tune`)."""

    pair_bonus: float = 1.5  # leading a rank you hold twice lets you throw in later
    throw_rank_early: int = 10  # throw in non-trumps up to this rank while the talon is long
    throw_rank_late: int = 12  # ... while the talon is short
    late_talon: int = 6  # "short" talon
    take_talon: int = 4  # with fewer cards left in the talon, always defend if possible
    take_trumps: int = 2  # take rather than spend this many trumps (talon long)
    take_high_trump: int = 12  # take rather than spend a trump of this rank or higher
    transfer_trump_talon: int = 0  # transfer with a trump only when the talon is this short
    lead_trump_penalty: float = 0.0  # extra reluctance to lead trumps


DEFAULT = Params()

# card value for each trump suit and pack: rank, and trumps above every plain card.
@memo("bots.heuristic.card_values", maxsize=64)
def card_values(trump: str, deck_size: int) -> list[int]:
    bonus = 15 - LOWEST_RANK[deck_size]
    return [c.rank + (bonus if c.suit == trump else 0) for c in ALL_CARDS]


_PASS, _TAKE, _EXCHANGE = Pass(), Take(), ExchangeTrump()


def heuristic_action(deal: Deal, seat: int, legal: list[Action] | None = None,
                     params: Params = DEFAULT, vals: list[int] | None = None) -> Action:
    """The heuristic's choice among `deal.legal_actions(seat)` (given as `legal`).
    `vals`: `card_values` for the deal's trump and pack, when the caller (a playout,
    which asks at every step) has them."""
    if legal is None:
        legal = deal.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    if vals is None:
        vals = card_values(deal.trump, deal.rules.deck_size)
    kinds = {type(a) for a in legal}  # actions without cards are equal by kind
    if ExchangeTrump in kinds:
        return _EXCHANGE  # R25: the face-up trump is always worth at least the 6
    if Take in kinds:  # R14: only a defender who has not taken may take
        return _defend(deal, seat, legal, params, vals)
    return _attack(deal, seat, legal, params, vals, leading=Pass not in kinds)


def defence_plan(hand: list[Card], table: list[tuple[Card, Card | None]], trump: str,
                 vals: list[int]) -> list[tuple[Card, Card]] | None:
    """Greedy cover of the unbeaten cards, strongest first, each by the cheapest card that
    beats it. A list of (attack, defence) or None when some card can't be beaten."""
    unbeaten = [a for a, d in table if d is None]
    if len(unbeaten) == 1:  # the usual case: the cheapest beating card, first in hand order
        a = unbeaten[0]
        suit, rank = a.suit, a.rank
        best: Card | None = None
        for c in hand:
            if (c.rank > rank if c.suit == suit else c.suit == trump) and (
                    best is None or vals[c.index] < vals[best.index]):
                best = c
        return None if best is None else [(a, best)]
    unbeaten.sort(key=lambda c: -vals[c.index])
    free = sorted(hand, key=lambda c: vals[c.index])
    plan: list[tuple[Card, Card]] = []
    for a in unbeaten:
        suit, rank = a.suit, a.rank
        for i, c in enumerate(free):
            if c.rank > rank if c.suit == suit else c.suit == trump:  # R6 (`beats`)
                plan.append((a, c))
                del free[i]
                break
        else:
            return None
    return plan


def _defend(deal: Deal, seat: int, legal: list[Action], params: Params, vals: list[int]) -> Action:
    trump = deal.trump
    talon = deal.talon_size
    transfers = [a for a in legal if type(a) is Transfer]
    if transfers:
        best = min(transfers, key=lambda a: vals[a.card.index])
        if best.card.suit != trump or talon <= params.transfer_trump_talon:
            return best  # R32: pass the whole attack on for one card
    plan = defence_plan(deal.hand(seat), deal.table, trump, vals)
    if transfers and plan is None:
        return best  # a trump transfer still beats taking
    if plan is None:
        return _TAKE
    if talon > params.take_talon:
        trumps = [c for _, c in plan if c.suit == trump]
        if len(trumps) >= params.take_trumps or any(c.rank >= params.take_high_trump for c in trumps):
            return _TAKE
    attack, card = plan[0]
    for a in legal:
        if type(a) is Defend and a.attack is attack and a.card is card:
            return a
    return Defend(attack, card)  # pragma: no cover - the plan uses legal pairs


def _attack(deal: Deal, seat: int, legal: list[Action], params: Params, vals: list[int],
            leading: bool) -> Action:
    trump = deal.trump
    attacks = [a for a in legal if type(a) is Attack]
    if not attacks:
        return _PASS
    best = attacks[0]
    if leading:  # the lead (R7): nothing on the table yet
        counts = [0] * 15  # non-trumps held, by rank
        for c in deal.hand(seat):
            if c.suit != trump:
                counts[c.rank] += 1
        best_score = None
        for a in attacks:  # the first with the lowest score
            c = a.card
            if c.suit == trump:
                score = vals[c.index] + params.lead_trump_penalty
            else:
                score = vals[c.index] - params.pair_bonus * (counts[c.rank] - 1)
            if best_score is None or score < best_score:
                best, best_score = a, score
        return best
    # Throw in (R8, R15): the cheapest card, if it is cheap enough.
    low = vals[best.card.index]
    for a in attacks:
        v = vals[a.card.index]
        if v < low:
            best, low = a, v
    card = best.card
    talon = deal.talon_size
    if card.suit == trump:
        if talon == 0 and len(deal.hand(seat)) <= 2:
            return best
        return _PASS
    if talon == 0:
        return best
    limit = params.throw_rank_late if talon <= params.late_talon else params.throw_rank_early
    if card.rank <= limit:
        return best
    return _PASS
