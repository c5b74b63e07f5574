"""Replaying a match from its start: the positions after each move, and a match's record
(rules, each deal's pack, dealer and first attacker, and its moves as tokens) that plays
back to the same final state without the seed. The record also names the cards each seat
was dealt, the card turned for trump, the cards drawn after each move and each deal's
commitment, which games.engine.verify checks against the seed (docs/fairness.md).

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
from .errors import InvalidAction
from .match import Match
from .rules import Rules

FORMAT = "durak-match/1"
Moves = Iterable[tuple[int, list[str]]]  # (seat, action tokens) in the order played


def pack(rules: Rules, seed: int | float | str | None) -> list[Card]:
    """The pack as `Deal.start(rules, seed=seed)` shuffles it, top first (R3)."""
    cards = full_deck(rules.deck_size)
    random.Random(seed).shuffle(cards)
    return cards


def turned(rules: Rules, deck: list[Card]) -> Card:
    """The card that decides trump: the one after the hands, or the dealer's last (R3, R4)."""
    return deck[min(rules.players * rules.hand_size, len(deck) - 1)]


def dealt_record(deal: Deal, deck: list[Card], commitment: str | None,
                 opener: int | None) -> dict[str, Any]:
    """What a record says of a deal as dealt: its pack, hands, turned card, commitment."""
    return {
        "dealer": deal.dealer,
        "opener": opener,  # None: R5 picks the first attacker
        "commitment": commitment,
        "deck": [c.code for c in deck],
        "hands": [[c.code for c in deal.hand(seat)] for seat in range(deal.rules.players)],
        "turned": turned(deal.rules, deck).code,
        "moves": [],
    }


def apply_drawing(deal: Deal, seat: int, tokens: Iterable[str]) -> list[dict[str, Any]]:
    """Play a move's tokens on `deal`; returns the cards each seat drew after it (R17), in
    the order drawn: [{"seat": 1, "cards": ["TH", "6S"]}, ...]."""
    drew: list[dict[str, Any]] = []
    for token in tokens:
        if not isinstance(token, str):
            raise InvalidAction(f"{token!r} is not an action.")
        talon, seen = list(deal.talon), len(deal.history)
        deal.apply(seat, action_from_token(token))
        for event in deal.history[seen:]:
            if event["type"] == "draw":
                count = event["count"]
                drew.append({"seat": event["seat"],
                             "cards": [c.code for c in reversed(talon[-count:])]})
                del talon[-count:]
    return drew


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
           seed: int | float | str | None, moves: Moves, salt: str | None = None) -> dict[str, Any]:
    """A JSON-safe record of a seeded match played with `moves` (with the salt of its
    commitments, when it has one)."""
    match = Match(rules, deals=deals, loss_limit=loss_limit, seed=seed, salt=salt)
    dealt: list[dict[str, Any]] = []

    def record_deal(first: bool) -> None:
        index = len(dealt)
        dealt.append(dealt_record(match.deal, pack(rules, match._deal_seed(index)),
                                  match.commitment(index), None if first else match.deal.att_seat))

    record_deal(True)
    number = match.deal_number
    for seat, tokens in moves:
        if match.deal.is_over and not match.is_over:
            match.next_deal()
        if match.deal_number != number:
            number = match.deal_number
            record_deal(False)
        move: dict[str, Any] = {"seat": seat, "actions": list(tokens)}
        drew = apply_drawing(match.deal, seat, tokens)
        if drew:
            move["drew"] = drew
        dealt[-1]["moves"].append(move)
    if match.deal.is_over and not match.is_over:
        match.next_deal()
        record_deal(False)
    return {
        "format": FORMAT, "rules": rules.to_dict(), "deals": deals, "loss_limit": loss_limit,
        "seed": seed, "salt": salt, "dealt": dealt,
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
                      seed=record["seed"], salt=record.get("salt"))
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
