"""Replaying a match from its start: the positions after each move, and a match's record
(rules, each deal's pack, dealer and first attacker, and its moves as tokens) that plays
back to the same final state without the seed.

>>> from games.engine import Rules
>>> record = export(Rules(players=2), deals=None, loss_limit=None, seed="doc", moves=[])
>>> len(record["dealt"][0]["deck"]), replay(record) == Match(Rules(players=2), seed="doc")
(36, True)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from typing import Any

from .actions import action_from_token
from .cards import Card, full_deck
from .deal import Deal
from .match import Match
from .rules import Rules

FORMAT = "durak-match/1"
Moves = Iterable[tuple[int, list[str]]]  # (seat, action tokens) in the order played


def pack(rules: Rules, seed: int | float | str | None) -> list[Card]:
    """The pack as `Deal.start(rules, seed=seed)` shuffles it, top first (R3)."""
    cards = full_deck(rules.deck_size)
    random.Random(seed).shuffle(cards)
    return cards


def positions(match: Match, moves: Moves) -> Iterator[Match]:
    """The match after each move. A deal that a move ended is left over (its durak
    showing) until the next move, when the next deal starts (R23) as the site starts it."""
    for seat, tokens in moves:
        if match.deal.is_over and not match.is_over:
            match.next_deal()
        for token in tokens:
            match.deal.apply(seat, action_from_token(token))
        yield match


def play_through(match: Match, moves: Moves) -> Match:
    """The match after every move, the next deal dealt as the site deals it."""
    for _played in positions(match, moves):  # positions() plays on `match` itself
        pass
    if match.deal.is_over and not match.is_over:
        match.next_deal()
    return match


def export(rules: Rules, *, deals: int | None, loss_limit: int | None,
           seed: int | float | str | None, moves: Moves) -> dict[str, Any]:
    """A JSON-safe record of a seeded match played with `moves`."""
    match = Match(rules, deals=deals, loss_limit=loss_limit, seed=seed)
    dealt: list[dict[str, Any]] = []

    def record_deal(first: bool) -> None:
        deal = match.deal
        dealt.append({
            "dealer": deal.dealer,
            "opener": None if first else deal.att_seat,  # None: R5 picks the first attacker
            "deck": [c.code for c in pack(rules, match._deal_seed(len(dealt)))],
            "moves": [],
        })

    record_deal(True)
    number = match.deal_number
    for seat, tokens in moves:
        if match.deal.is_over and not match.is_over:
            match.next_deal()
        if match.deal_number != number:
            number = match.deal_number
            record_deal(False)
        for token in tokens:
            match.deal.apply(seat, action_from_token(token))
        dealt[-1]["moves"].append({"seat": seat, "actions": list(tokens)})
    if match.deal.is_over and not match.is_over:
        match.next_deal()
        record_deal(False)
    return {
        "format": FORMAT, "rules": rules.to_dict(), "deals": deals, "loss_limit": loss_limit,
        "seed": seed, "dealt": dealt,
        "losses": {str(side): lost for side, lost in match.losses.items()},
    }


def replay(record: dict[str, Any]) -> Match:
    """The match a record describes, played from each deal's pack: ValueError if the
    record is not one, IllegalAction if a move is not legal where it stands."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise ValueError(f"Not a match record ({FORMAT}).")
    try:
        rules = Rules.from_dict(record["rules"])
        match = Match(rules, deals=record["deals"], loss_limit=record["loss_limit"],
                      seed=record["seed"])
        for i, dealt in enumerate(record["dealt"]):
            if i:
                match.next_deal()  # the tally and the next dealer (R23); the pack follows
                if match.dealer != dealt["dealer"]:
                    raise ValueError(f"Deal {i + 1}: the dealer should be seat {match.dealer}.")
            match.dealer = dealt["dealer"]
            match.deal = Deal.start(rules, deck=dealt["deck"], dealer=dealt["dealer"],
                                    opener=dealt["opener"])
            for move in dealt["moves"]:
                for token in move["actions"]:
                    match.deal.apply(move["seat"], action_from_token(token))
    except (KeyError, TypeError) as exc:
        raise ValueError(f"Not a match record: {exc}") from None
    return match
