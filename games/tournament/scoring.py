"""Points and standings of a tournament (docs/design.md, "Tournaments"). Pure, standard
library only.

A table's result is an order of places, best first: who went out first (R19) ... the
durak last. Places score by how many players finished behind: at a table of n, the first
n-1 points, the next n-2, ..., the durak 0; players sharing a place (a drawn deal, R20,
or equal losses in a match of several deals, R24) share its points. A bye scores as a
two-player win (1), or an average place at larger tables.

Standings: points, then (Swiss) Buchholz, the points of everyone met; then head-to-head
among the players still tied (how many of them each finished ahead of at a shared
table); then fewest deals lost; then the seeding.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class TableResult:
    """A finished table: places best first, each the players sharing it; deals lost by
    each player over the table's match."""

    places: tuple[tuple[int, ...], ...]
    deals_lost: Mapping[int, int] = field(default_factory=dict)
    team_size: int = 1  # in team play a side is a team: its players share its place

    @property
    def players(self) -> list[int]:
        return [p for place in self.places for p in place]

    def points(self) -> dict[int, float]:
        """Points by place, the last place 0, shared places sharing their points; in team
        play by the team's place among the teams (the losing team 0)."""
        n = len(self.players) // self.team_size
        points: dict[int, float] = {}
        position = 0
        for place in self.places:
            sides = max(1, len(place) // self.team_size)
            share = sum(n - 1 - (position + k) for k in range(sides)) / sides
            for player in place:
                points[player] = share
            position += sides
        return points

    def place_of(self, player: int) -> int:
        return next(i for i, place in enumerate(self.places) if player in place)


def places_from_deal(players: Sequence[int], went_out: Sequence[int],
                     last: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """A one-deal table's places: each player who went out (R19) a place of their own in
    that order, then whoever neither went out nor lost sharing a place, then `last` (the
    durak; a player who resigned or forfeited; nobody on a drawn deal)."""
    out = [p for p in dict.fromkeys(went_out) if p in players and p not in last]
    middle = tuple(p for p in players if p not in out and p not in last)
    places: list[tuple[int, ...]] = [(p,) for p in out]
    if middle:
        places.append(middle)
    if last:
        places.append(tuple(last))
    return tuple(places)


def places_from_losses(losses: Mapping[int, int],
                       last: Sequence[int] = ()) -> tuple[tuple[int, ...], ...]:
    """A match's places (R24): fewest deals lost first, equal losses sharing; `last` (who
    resigned or forfeited the match) last whatever their losses."""
    groups: dict[int, list[int]] = defaultdict(list)
    for player, lost in losses.items():
        if player not in last:
            groups[lost].append(player)
    places = [tuple(groups[lost]) for lost in sorted(groups)]
    if last:
        places.append(tuple(last))
    return tuple(places)


def bye_points(table_size: int) -> float:
    """A bye: a two-player win (1), or an average place at a larger table."""
    return max(1.0, (table_size - 1) / 2)


@dataclass(frozen=True)
class RoundResult:
    """A round's finished tables and its byes."""

    tables: tuple[TableResult, ...]
    byes: tuple[int, ...] = ()


@dataclass(frozen=True)
class Standing:
    rank: int
    player: int
    points: float
    buchholz: float
    head_to_head: float
    deals_lost: int
    played: int


def standings(seeded: Sequence[int], rounds: Iterable[RoundResult], *, table_size: int = 2,
              buchholz: bool = True) -> list[Standing]:
    """Everyone of `seeded` (the seeding, best first), ranked by the module's order."""
    rounds = list(rounds)
    points: dict[int, float] = dict.fromkeys(seeded, 0.0)
    lost: dict[int, int] = dict.fromkeys(seeded, 0)
    played: dict[int, int] = dict.fromkeys(seeded, 0)
    opponents: dict[int, list[int]] = {p: [] for p in seeded}
    for result in rounds:
        for table in result.tables:
            for player, score in table.points().items():
                points[player] = points.get(player, 0.0) + score
                played[player] = played.get(player, 0) + 1
                lost[player] = lost.get(player, 0) + table.deals_lost.get(player, 0)
                opponents.setdefault(player, []).extend(
                    p for p in table.players if p != player)
        for player in result.byes:
            points[player] = points.get(player, 0.0) + bye_points(table_size)
    seed = {p: i for i, p in enumerate(seeded)}
    for p in points:
        seed.setdefault(p, len(seed))
    tiebreak = {p: sum(points.get(o, 0.0) for o in opponents.get(p, [])) if buchholz else 0.0
                for p in points}
    # Head-to-head among the players tied on the criteria before it.
    groups: dict[tuple[float, float], list[int]] = defaultdict(list)
    for p in points:
        groups[(points[p], tiebreak[p])].append(p)
    h2h: dict[int, float] = dict.fromkeys(points, 0.0)
    for tied in groups.values():
        if len(tied) > 1:
            h2h.update(head_to_head(tied, rounds))
    order = sorted(points, key=lambda p: (-points[p], -tiebreak[p], -h2h[p], lost.get(p, 0),
                                          seed[p]))
    return [Standing(rank=i + 1, player=p, points=points[p], buchholz=tiebreak[p],
                     head_to_head=h2h[p], deals_lost=lost.get(p, 0), played=played.get(p, 0))
            for i, p in enumerate(order)]


def head_to_head(tied: Sequence[int], rounds: Iterable[RoundResult]) -> dict[int, float]:
    """For each of `tied`: how many of the others they finished ahead of at tables they
    shared (a shared place counts a half)."""
    group = set(tied)
    score = dict.fromkeys(tied, 0.0)
    for result in rounds:
        for table in result.tables:
            here = [p for p in table.players if p in group]
            for a in here:
                for b in here:
                    if a != b:
                        pa, pb = table.place_of(a), table.place_of(b)
                        score[a] += 1.0 if pa < pb else 0.5 if pa == pb else 0.0
    return score
