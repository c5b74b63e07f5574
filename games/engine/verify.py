"""Check a finished game's export (docs/fairness.md): every deal's commitment is the SHA-256
of its seed with the published salt, and every card dealt, turned for trump and drawn is
the one the seed's shuffle puts there. Standard library only:

    python -m games.engine.verify durak-game-12.json

prints what it checked and exits 0 when everything matches, 1 when something does not,
2 when the file is not a game's export.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .commitment import commitment, deal_seed
from .errors import IllegalAction, InvalidAction
from .match import Match
from .replay import FORMAT, apply_drawing, pack, turned
from .rules import Rules

MAX_PROBLEMS = 20  # a file changed everywhere is not listed card by card

# What each problem says (the site words them in the reader's language by `code`).
WORDS = {
    "not_a_record": "This is not a game's export ({format}): {detail}.",
    "no_seed": "The export has no seed: the game is not over, or it was dealt before seeds were kept.",
    "no_salt": "The export has no salt: the game was dealt before deals were committed to.",
    "commitment": "Deal {deal}: the commitment {found} is not the SHA-256 of the seed with the salt ({expected}).",
    "dealer": "Deal {deal}: the export names seat {found} as the dealer; the rules give seat {expected}.",
    "opener": "Deal {deal}: the export names seat {found} as the first attacker; the rules give seat {expected}.",
    "deck_card": "Deal {deal}: card {position} of the pack is {found} in the export; the seed gives {expected}.",
    "hand_card": "Deal {deal}: seat {seat} was dealt {found} in the export; the seed gives {expected}.",
    "turned": "Deal {deal}: the trump card turned is {found} in the export; the seed gives {expected}.",
    "drawn_card": "Deal {deal}, move {move}: the export has {found} drawn; the seed gives {expected}.",
    "illegal_move": "Deal {deal}, move {move}: {found} is not a legal move there.",
    "deal_unfinished": "Deal {deal} starts before the deal before it is over.",
    "deals": "The export has {found} deals; the match played through its moves has {expected}.",
    "losses": "The export's deals lost {found} are not the match's {expected}.",
}


@dataclass(frozen=True)
class Problem:
    """One thing in the export that the seed, the salt or the rules contradict."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return WORDS[self.code].format(**self.params)


@dataclass
class Report:
    """What the check found: how much it checked, and the problems (none: all matches)."""

    deals: int = 0
    cards: int = 0  # cards compared with the seed's shuffle
    moves: int = 0
    commitments: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def add(self, code: str, **params: Any) -> None:
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(Problem(code, params))


def _codes(cards: object) -> list[str]:
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise TypeError("a list of cards is not one")
    return list(cards)


def _compare(report: Report, code: str, expected: list[str], found: object, **where: Any) -> None:
    """Card lists: one problem per differing list (deck: per differing card)."""
    got = _codes(found)
    report.cards += len(expected)
    if code == "deck_card":
        for i, card in enumerate(expected):
            if i >= len(got) or got[i] != card:
                report.add(code, position=i + 1, expected=card,
                           found=got[i] if i < len(got) else "-", **where)
        if len(got) > len(expected):
            report.add(code, position=len(expected) + 1, expected="-",
                       found=got[len(expected)], **where)
    elif got != expected:
        report.add(code, expected=" ".join(expected) or "-", found=" ".join(got) or "-", **where)


def verify(record: object) -> Report:
    """Check an export (parsed JSON) against its seed and salt; never raises for bad input."""
    report = Report()
    try:
        _verify(record, report)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        report.add("not_a_record", format=FORMAT, detail=str(exc) or type(exc).__name__)
    return report


def _verify(record: object, report: Report) -> None:
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise ValueError("it names no such format")
    seed, salt = record.get("seed"), record.get("salt")
    if not isinstance(seed, str | int) or isinstance(seed, bool):
        report.add("no_seed")
        return
    if not isinstance(salt, str):
        report.add("no_salt")
    rules = Rules.from_dict(record["rules"])
    match = Match(rules, deals=record["deals"], loss_limit=record["loss_limit"], seed=seed,
                  salt=salt if isinstance(salt, str) else None)
    dealt = record["dealt"]
    if not isinstance(dealt, list) or not dealt:
        raise ValueError("it lists no deal")
    for index, shown in enumerate(dealt):
        number = index + 1
        if not isinstance(shown, dict):
            raise TypeError(f"deal {number} is not a deal")
        if index:
            if not match.deal.is_over or match.is_over:
                report.add("deal_unfinished", deal=number)
                return
            match.next_deal()
            if shown.get("opener") != match.deal.att_seat:
                report.add("opener", deal=number, expected=match.deal.att_seat,
                           found=shown.get("opener"))
        report.deals += 1
        this_seed = deal_seed(seed, index)
        if isinstance(salt, str):
            expected = commitment(this_seed, salt)
            report.commitments.append(expected)
            if shown.get("commitment") != expected:
                report.add("commitment", deal=number, expected=expected,
                           found=shown.get("commitment"))
        if shown.get("dealer") != match.deal.dealer:
            report.add("dealer", deal=number, expected=match.deal.dealer, found=shown.get("dealer"))
        deck = pack(rules, this_seed)
        _compare(report, "deck_card", [c.code for c in deck], shown["deck"], deal=number)
        hands = shown["hands"]
        if not isinstance(hands, list) or len(hands) != rules.players:
            raise ValueError(f"deal {number} lists no hand for each seat")
        for seat, hand in enumerate(hands):
            _compare(report, "hand_card", [c.code for c in match.deal.hand(seat)], hand,
                     deal=number, seat=seat)
        _compare(report, "turned", [turned(rules, deck).code], [shown["turned"]], deal=number)
        for m, move in enumerate(shown["moves"], 1):
            seat, tokens = move["seat"], move["actions"]
            try:
                if isinstance(seat, bool) or not isinstance(seat, int) or not isinstance(tokens, list):
                    raise InvalidAction("not a move")
                drew = apply_drawing(match.deal, seat, tokens)
            except (IllegalAction, InvalidAction):
                report.add("illegal_move", deal=number, move=m, found=" ".join(map(str, tokens)))
                return
            report.moves += 1
            expected_draws = [f"{d['seat']}:{c}" for d in drew for c in d["cards"]]
            found_draws = move.get("drew", [])
            if not isinstance(found_draws, list):
                raise TypeError(f"deal {number}, move {m}: what was drawn is not a list")
            _compare(report, "drawn_card", expected_draws,
                     [f"{d['seat']}:{c}" for d in found_draws for c in _codes(d["cards"])],
                     deal=number, move=m)
    if match.deal.is_over and not match.is_over:
        match.next_deal()  # the site deals the next deal at once; the export lists it
        report.add("deals", expected=len(dealt) + 1, found=len(dealt))
    losses = {str(side): lost for side, lost in match.losses.items()}
    if record.get("losses") != losses:
        report.add("losses", expected=losses, found=record.get("losses"))


def summary(report: Report) -> str:
    """The check's result in English (the command's words)."""
    if report.ok:
        return (f"OK: {report.deals} deal(s), {report.cards} cards and {report.moves} moves "
                f"match the seed; every commitment matches the seed and the salt.")
    return "\n".join(["NOT OK:", *(f"- {p}" for p in report.problems)])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engine.verify",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("export", help="the game's JSON export (- reads standard input)")
    args = parser.parse_args(argv)
    try:
        if args.export == "-":
            record = json.load(sys.stdin)
        else:
            with open(args.export, encoding="utf-8") as f:
                record = json.load(f)
    except (OSError, ValueError) as exc:
        print(f"Cannot read {args.export}: {exc}", file=sys.stderr)
        return 2
    report = verify(record)
    print(summary(report))
    if any(p.code == "not_a_record" for p in report.problems):
        return 2
    return 0 if report.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
