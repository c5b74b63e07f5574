"""Rule options of docs/rules.md section 9: one frozen `Rules` per combination, checked."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import asdict, dataclass, fields
from functools import cached_property
from typing import Any

TEAMS = {  # R2: team index of each seat
    "2x2": (4, 2),  # players, number of teams; partners opposite (0&2, 1&3)
    "2x3": (6, 2),  # 0,2,4 vs 1,3,5
    "3x2": (6, 3),  # 0&3, 1&4, 2&5
}
THROW_IN = ("auto", "all", "neighbours", "main_only")
TRUMP_EXCHANGE = ("off", "six", "six_if_ace")
NEXT_DEAL_START = ("dealer_left", "loser_right")


def _int(name: str, value: object, allowed: Collection[int]) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(map(str, allowed))}, not {value!r}.")


def _choice(name: str, value: object, allowed: Collection[str | None]) -> None:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}, not {value!r}.")


@dataclass(frozen=True)
class Rules:
    players: int = 2
    teams: str | None = None
    deck_size: int = 36
    hand_size: int = 6
    attack_limit: int = 6
    first_bout_limit: int = 6
    lead_multiple: bool = False
    throw_in: str = "auto"
    transfer: bool = False
    trump_exchange: str = "six"
    next_deal_start: str = "dealer_left"

    def __post_init__(self) -> None:
        _int("players", self.players, range(2, 7))
        _choice("teams", self.teams, (None, *TEAMS))
        if self.teams is not None and TEAMS[self.teams][0] != self.players:
            raise ValueError(
                f"teams {self.teams!r} needs {TEAMS[self.teams][0]} players, not {self.players}."
            )
        _int("deck_size", self.deck_size, (24, 36, 52))
        _int("hand_size", self.hand_size, (5, 6))
        if self.players * self.hand_size > self.deck_size:
            raise ValueError(
                f"hand_size {self.hand_size} for {self.players} players needs "
                f"{self.players * self.hand_size} cards, more than the deck_size of {self.deck_size}."
            )
        _int("attack_limit", self.attack_limit, range(1, 7))
        _int("first_bout_limit", self.first_bout_limit, (5, 6))
        for name in ("lead_multiple", "transfer"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be true or false, not {getattr(self, name)!r}.")
        _choice("throw_in", self.throw_in, THROW_IN)
        if self.throw_in == "neighbours" and self.teams:
            raise ValueError("throw_in 'neighbours' is for individual play (R29), not with teams.")
        _choice("trump_exchange", self.trump_exchange, TRUMP_EXCHANGE)
        _choice("next_deal_start", self.next_deal_start, NEXT_DEAL_START)

    @property
    def team_count(self) -> int:
        return TEAMS[self.teams][1] if self.teams else self.players

    def team_of(self, seat: int) -> int:
        """Team index (team play) or the seat itself (individual play)."""
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ValueError(f"seat must be 0..{self.players - 1}, not {seat!r}.")
        return seat % TEAMS[self.teams][1] if self.teams else seat

    def members(self, team: int) -> list[int]:
        """Seats of a team in clockwise order."""
        return [s for s in range(self.players) if self.team_of(s) == team]

    @cached_property
    def seat_teams(self) -> tuple[int, ...]:
        """`team_of` of every seat, in seat order (looked up often in play)."""
        return tuple(self.team_of(s) for s in range(self.players))

    @cached_property
    def team_members(self) -> tuple[tuple[int, ...], ...]:
        """`members` of every team, in team order."""
        return tuple(tuple(self.members(t)) for t in range(self.team_count))

    @property
    def effective_throw_in(self) -> str:
        """R10: neighbours-only at 5-6 players in individual play unless chosen otherwise."""
        if self.throw_in != "auto":
            return self.throw_in
        return "neighbours" if self.players >= 5 and not self.teams else "all"

    @cached_property
    def _hash(self) -> int:
        return hash(tuple(getattr(self, f.name) for f in fields(self)))

    def __hash__(self) -> int:  # once per Rules: deal.key() hashes the rules often
        return self._hash

    @cached_property
    def _dict(self) -> dict[str, Any]:
        # Not a field: computed once per (frozen) Rules, outside eq/repr/fields().
        return asdict(self)

    def to_dict(self) -> dict[str, Any]:
        return dict(self._dict)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Rules:
        if not isinstance(d, dict):
            raise ValueError(f"Rules are given as a mapping of options, not {type(d).__name__}.")
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(d) - names)
        if unknown:
            raise ValueError(f"Unknown rule option(s): {', '.join(map(str, unknown))}.")
        return cls(**d)
