"""A match: a series of deals at one table (R23, R24, R33), resigning or forfeiting it,
and its outcome."""

from __future__ import annotations

import json
import random

from .commitment import commitment, deal_seed
from .deal import Deal
from .outcome import Outcome, Termination
from .rules import Rules


class Match:
    """Deals in a row with dealer rotation and a tally of losses.

    Ends after `deals` deals or when someone reaches `loss_limit` losses (either given;
    neither: a single deal), or when a side resigns (`resign`) or a player forfeits
    (`forfeit`); `outcome()` then says how it ended and who lost.
    """

    def __init__(self, rules: Rules, *, deals: int | None = None, loss_limit: int | None = None,
                 seed: int | float | str | None = None, salt: str | None = None) -> None:
        if not isinstance(rules, Rules):
            raise ValueError(f"rules must be a Rules, not {type(rules).__name__}.")
        for name, value in (("deals", deals), ("loss_limit", loss_limit)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise ValueError(f"{name} must be a positive whole number, not {value!r}.")
        if deals is None and loss_limit is None:
            deals = 1
        self.rules, self.deals, self.loss_limit, self.seed = rules, deals, loss_limit, seed
        self.salt = salt  # the secret of the deals' commitments (docs/fairness.md)
        rng = random.Random(f"{seed}/dealer") if seed is not None else random.SystemRandom()
        self.dealer = rng.randrange(rules.players)  # R23: the first dealer is chosen at random
        self.results: list[int | None] = []  # per finished deal: losing seat/team, None = draw
        self.prev_loser: int | None = None
        self.resigned: int | None = None  # the seat or team that resigned the match
        self.forfeited: int | None = None  # the seat that forfeited it (section 10)
        self.deal = Deal.start(rules, seed=self._deal_seed(0), dealer=self.dealer, opener=None)

    def _deal_seed(self, index: int) -> str | None:
        return None if self.seed is None else deal_seed(self.seed, index)

    def commitment(self, index: int | None = None) -> str | None:
        """The commitment of deal `index` (0 for the first; None: the deal in play), or None
        for a match without a seed or a salt (docs/fairness.md)."""
        seed = self._deal_seed(len(self.results) if index is None else index)
        return None if seed is None or self.salt is None else commitment(seed, self.salt)

    def _sides(self) -> range:
        return range(self.rules.team_count)

    def _finished(self) -> list[int | None]:
        results = list(self.results)
        if self.deal.is_over:
            results.append(self.deal.losing_team)
        elif self.resigned is not None:
            results.append(self.resigned)  # the deal left unfinished counts as lost
        return results

    @property
    def deal_number(self) -> int:
        """1 for the first deal."""
        return len(self.results) + 1

    @property
    def losses(self) -> dict[int, int]:
        """R24: deals lost by each seat (individual play) or team."""
        tally = {side: 0 for side in self._sides()}
        for loser in self._finished():
            if loser is not None:
                tally[loser] += 1
        return tally

    @property
    def is_over(self) -> bool:
        if self.resigned is not None:
            return True
        finished = self._finished()
        if self.deals is not None and len(finished) >= self.deals:
            return True
        return self.loss_limit is not None and max(self.losses.values()) >= self.loss_limit

    @property
    def standings(self) -> list[tuple[int, int]]:
        """(seat-or-team, losses), fewest losses first (R24)."""
        return sorted(self.losses.items(), key=lambda kv: (kv[1], kv[0]))

    @property
    def loser(self) -> int | None:
        """The seat (or team) that lost the match once it is over: the side that resigned
        or forfeited, else the one with the most losses (R24); None while playing or on a
        shared last place."""
        outcome = self.outcome()
        return None if outcome is None else outcome.loser

    def outcome(self) -> Outcome | None:
        """How the match ended and who lost it, once it is over (R24, section 10); None
        while it is played."""
        if not self.is_over:
            return None
        losses = self.losses
        tally = tuple(losses[side] for side in self._sides())
        deals = len(self._finished())
        if self.forfeited is not None:
            return Outcome(Termination.FORFEIT, self.resigned, tally, deals, self.forfeited)
        if self.resigned is not None:
            seat = None if self.rules.teams else self.resigned
            return Outcome(Termination.RESIGNATION, self.resigned, tally, deals, seat)
        most = max(tally)
        worst = [side for side, count in enumerate(tally) if count == most]
        loser = worst[0] if len(worst) == 1 else None
        if self.loss_limit is not None and most >= self.loss_limit:
            return Outcome(Termination.LOSS_LIMIT, loser, tally, deals)
        return Outcome(Termination.DEALS_PLAYED, loser, tally, deals)

    def resign(self, side: int) -> None:
        """`side` (a seat; in team play a team) gives up: it loses the match, and the deal
        in play, if unfinished, counts as lost by it (like section 10's forfeit: the
        resigner is the durak). The match is then over."""
        sides = self._sides()
        if isinstance(side, bool) or not isinstance(side, int) or side not in sides:
            what = "team" if self.rules.teams else "seat"
            raise ValueError(f"side must be a {what} number 0..{len(sides) - 1}, not {side!r}.")
        if self.is_over:
            raise ValueError("The match is over.")
        self.resigned = side

    def forfeit(self, seat: int) -> None:
        """Section 10: the player at `seat` ran out of time too often and forfeits the
        match. Their side (their team in team play) loses it as by resigning (R24), the
        deal in play, if unfinished, counting as lost by it; the outcome names the seat."""
        n = self.rules.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat must be a seat number 0..{n - 1}, not {seat!r}.")
        self.resign(self.rules.team_of(seat))
        self.forfeited = seat

    def next_deal(self) -> Deal:
        """Start the next deal once the current one is over (R23, R33)."""
        if not self.deal.is_over:
            raise ValueError("The current deal is not over yet.")
        if self.is_over:
            raise ValueError("The match is over.")
        loser_team = self.deal.losing_team
        self.results.append(loser_team)
        rules, n = self.rules, self.rules.players
        if loser_team is not None:  # R23: the loser deals; after a draw the same dealer again
            if rules.teams:
                self.dealer = next(
                    (self.dealer + k) % n for k in range(n)
                    if rules.team_of((self.dealer + k) % n) == loser_team
                )
            else:
                self.dealer = loser_team
            self.prev_loser = self.dealer
        if rules.next_deal_start == "loser_right" and self.prev_loser is not None:
            opener = (self.prev_loser - 1) % n  # R33: the loser's right attacks the loser
        else:
            opener = (self.dealer + 1) % n  # R5, R33: left of the dealer
        self.deal = Deal.start(rules, seed=self._deal_seed(len(self.results)),
                               dealer=self.dealer, opener=opener)
        return self.deal

    def to_json(self) -> str:
        salt = {} if self.salt is None else {"salt": self.salt}  # kept only when there is one
        return json.dumps({
            "rules": self.rules.to_dict(), "deals": self.deals, "loss_limit": self.loss_limit,
            "seed": self.seed, **salt, "dealer": self.dealer, "results": self.results,
            "prev_loser": self.prev_loser, "resigned": self.resigned,
            "forfeited": self.forfeited,
            "deal": self.deal.to_json(),
        }, separators=(",", ":"))

    @classmethod
    def from_json(cls, s: str) -> Match:
        try:
            d = json.loads(s)
            self = object.__new__(cls)
            self.rules = Rules.from_dict(d["rules"])
            self.deals, self.loss_limit, self.seed = d["deals"], d["loss_limit"], d["seed"]
            self.salt = d.get("salt")  # absent in matches saved before commitments
            self.dealer, self.results, self.prev_loser = d["dealer"], d["results"], d["prev_loser"]
            self.resigned = d.get("resigned")  # absent in matches saved before resigning
            self.forfeited = d.get("forfeited")  # absent in matches saved before forfeits
            self.deal = Deal.from_json(d["deal"])
        except (KeyError, TypeError, json.JSONDecodeError) as exc:
            raise ValueError(f"Not a saved match: {exc}") from None
        return self

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Match) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]  # mutable, so unhashable
