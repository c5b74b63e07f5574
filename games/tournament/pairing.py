"""Who sits with whom in a round of a tournament (docs/design.md, "Tournaments").

Pure and standard library only, like the engine. Players are ids (ints); a ranked list
holds them best first (the standings before the round, the seeding in round 1).

- `swiss_pairs`: two-player tables. From the top of the standings each player meets the
  one the fold of their score group gives (the top half against the bottom half, as the
  Dutch system does), else the nearest they have not met, floating down to the next
  group when theirs runs out; backtracking when the rest cannot be paired, so that no
  pair meets twice while another pairing avoids it. An odd player out sits out with a
  bye: the lowest ranked without one (then the lowest with fewest).
- `score_group_tables`: tables of 3 to 6. The leaders share board 1, the next ones board
  2..., then players are swapped between nearby boards while that lowers the meetings
  repeated.
- `round_robin`: the whole schedule. At two-player tables the circle method (every pair
  meets once); at larger tables, rounds whose meetings are as even as possible.

Who sits in seat 0 deals the first deal (R3); `first_seat` gives it to whoever has had it
less often, as Swiss balances colours.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

Pair = tuple[int, int]

# Nodes the rematch-free search may visit before it settles for the fewest rematches.
SEARCH_BUDGET = 200_000
# Players tried for the bye (lowest ranked first) before the fewest rematches will do.
BYE_TRIES = 8
# Any repeated pair costs more than making other repeats even (_cost).
REPEAT_COST = 1000


def pair_key(a: int, b: int) -> Pair:
    return (a, b) if a < b else (b, a)


@dataclass
class History:
    """What the rounds so far leave for pairing: who met whom, byes, seat 0s."""

    met: Counter[Pair] = field(default_factory=Counter)
    byes: Counter[int] = field(default_factory=Counter)
    firsts: Counter[int] = field(default_factory=Counter)
    tables: Counter[int] = field(default_factory=Counter)

    def meetings(self, a: int, b: int) -> int:
        return self.met[pair_key(a, b)]

    def record(self, pairing: Pairing) -> None:
        for table in pairing.tables:
            self.firsts[table[0]] += 1
            for i, a in enumerate(table):
                self.tables[a] += 1
                for b in table[i + 1:]:
                    self.met[pair_key(a, b)] += 1
        for player in pairing.byes:
            self.byes[player] += 1

    @classmethod
    def of(cls, rounds: Iterable[Pairing]) -> History:
        history = cls()
        for pairing in rounds:
            history.record(pairing)
        return history


@dataclass(frozen=True)
class Pairing:
    """One round: tables in board order (each seat 0 first) and the players with a bye."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()

    def players(self) -> list[int]:
        return [p for table in self.tables for p in table] + list(self.byes)

    def repeats(self, history: History) -> int:
        """Meetings at these tables that happened before."""
        return sum(history.meetings(a, b) for table in self.tables
                   for i, a in enumerate(table) for b in table[i + 1:])


def first_seat(table: Sequence[int], history: History, board: int = 0) -> tuple[int, ...]:
    """The table's seats: fewest seat 0s so far first; on a tie the table's order,
    turned on odd boards so that the higher ranked do not always deal."""
    order = list(table)
    if board % 2 == 1:
        order.reverse()
    return tuple(sorted(order, key=lambda p: history.firsts[p]))


# --- two-player Swiss ---------------------------------------------------------------------


def swiss_pairs(ranked: Sequence[int], history: History,
                scores: Mapping[int, float] | None = None) -> Pairing:
    """Two-player tables for the next round of a Swiss (see the module's docstring).
    `scores` (points so far) makes the score groups; without them the field is one."""
    players = list(dict.fromkeys(ranked))
    scores = scores or {}
    byes: list[int] = []
    pairs: list[Pair] | None = None
    if len(players) % 2 == 1:
        for out in _bye_order(players, history)[:BYE_TRIES]:  # the budget shared out
            rest = [p for p in players if p != out]
            pairs = _pair_without_rematch(rest, history, scores, SEARCH_BUDGET // BYE_TRIES)
            if pairs is not None:
                byes = [out]
                break
        else:
            out = _bye_order(players, history)[0]
            byes = [out]
    rest = [p for p in players if p not in byes]
    if pairs is None:
        pairs = _pair_without_rematch(rest, history, scores)
    if pairs is None:  # every pairing repeats some meeting: as few as greed finds
        pairs = _pair_fewest_rematches(rest, history)
    tables = tuple(first_seat(pair, history, board) for board, pair in enumerate(pairs))
    return Pairing(tables, tuple(byes))


def _bye_order(players: list[int], history: History) -> list[int]:
    """Who sits out, in order of preference: the lowest ranked with fewest byes."""
    position = {p: i for i, p in enumerate(players)}
    return sorted(players, key=lambda p: (history.byes[p], -position[p]))


def _fold(players: list[int], scores: Mapping[int, float]) -> tuple[list[int], list[int]]:
    """For each position, the end of its score group and the partner the fold gives it:
    in a group of m, the k-th of its top half meets the k-th of its bottom half (as the
    Dutch system does), so the leaders do not meet in the first round."""
    n = len(players)
    end = [n] * n
    ideal = list(range(1, n + 1))
    start = 0
    while start < n:
        stop = start
        while stop < n and scores.get(players[stop], 0.0) == scores.get(players[start], 0.0):
            stop += 1
        half = (stop - start) // 2
        for k in range(start, stop):
            end[k] = stop
            ideal[k] = k + half if k < start + half else k + 1
        start = stop
    return end, ideal


def _candidates(i: int, end: int, ideal: int, n: int) -> Iterator[int]:
    """Positions below `i` to try as its opponent: its fold partner and on down its score
    group, then back up the group, then the groups below (a float down)."""
    yield from range(ideal, end)
    yield from range(ideal - 1, i, -1)
    yield from range(end, n)


def _pair_without_rematch(players: list[int], history: History, scores: Mapping[int, float],
                          budget: int = SEARCH_BUDGET) -> list[Pair] | None:
    """Pairs from the top down, each player with the first of `_candidates` free and not
    yet met; depth-first with backtracking. None when no rematch-free pairing exists (or
    the search gives up after `budget` nodes)."""
    n = len(players)
    if n == 0:
        return []
    met = history.met
    end, ideal = _fold(players, scores)
    free = [True] * n
    # Each level: the top free position, its partner, and what it has left to try.
    stack: list[tuple[int, int, Iterator[int]]] = []
    i = 0
    options = _candidates(0, end[0], ideal[0], n)
    while True:
        budget -= 1
        j = next((j for j in options if free[j]
                  and not met[pair_key(players[i], players[j])]), None)
        if j is not None and budget > 0:
            free[i] = free[j] = False
            stack.append((i, j, options))
            nxt = i + 1
            while nxt < n and not free[nxt]:
                nxt += 1
            if nxt >= n:
                return [(players[a], players[b]) for a, b, _rest in stack]
            i = nxt
            options = _candidates(i, end[i], ideal[i], n)
            continue
        if not stack or budget <= 0:
            return None
        i, j, options = stack.pop()
        free[i] = free[j] = True


def _pair_fewest_rematches(players: list[int], history: History) -> list[Pair]:
    """Greedy from the top: each player with the one below met least often, nearest first."""
    left = list(players)
    pairs: list[Pair] = []
    while len(left) > 1:
        top = left.pop(0)
        best = min(range(len(left)), key=lambda k: (history.meetings(top, left[k]), k))
        pairs.append((top, left.pop(best)))
    return pairs


# --- tables of three to six ------------------------------------------------------------


def table_sizes(players: int, size: int, *, smaller_tables: bool = True) -> tuple[list[int], int]:
    """Tables for `players` at tables of `size`, and how many sit out. With
    `smaller_tables`, the tables left over hold one player fewer (at least two) rather than
    leaving players out; the small tables are the last boards."""
    if size < 2:
        raise ValueError("A table holds at least two players.")
    if players < 2:
        return [], players
    full, left = divmod(players, size)
    if left == 0:
        return [size] * full, 0
    if smaller_tables and size > 2:
        tables = -(-players // size)
        short = tables * size - players
        if short <= tables:
            return [size] * (tables - short) + [size - 1] * short, 0
    return [size] * full, left


def score_group_tables(ranked: Sequence[int], history: History, size: int, *,
                       smaller_tables: bool = True,
                       scores: Mapping[int, float] | None = None) -> Pairing:
    """Tables of `size` (2 to 6) by score: board 1 the leaders, and so on; then swaps
    between boards up to two apart while they lower the repeated meetings."""
    players = list(dict.fromkeys(ranked))
    if size == 2:
        return swiss_pairs(players, history, scores)
    sizes, out = table_sizes(len(players), size, smaller_tables=smaller_tables)
    byes: list[int] = []
    if out:
        byes = _bye_order(players, history)[:out]
        players = [p for p in players if p not in byes]
    tables = _fill_boards(players, sizes, history)
    _improve(tables, history, reach=2)
    seated = tuple(first_seat(_ranked_order(t, players), history, board)
                   for board, t in enumerate(tables))
    return Pairing(seated, tuple(byes))


def _positions(players: list[int]) -> dict[int, int]:
    return {p: i for i, p in enumerate(players)}


def _ranked_order(table: list[int], players: list[int]) -> list[int]:
    position = _positions(players)
    return sorted(table, key=position.__getitem__)


def _fill_boards(players: list[int], sizes: list[int], history: History) -> list[list[int]]:
    """Board by board from the top: the best unseated player, then whoever of the next few
    has met the table least (nearest in the standings on a tie)."""
    left = list(players)
    tables: list[list[int]] = []
    for seats in sizes:
        table = [left.pop(0)]
        while len(table) < seats:
            window = min(len(left), 3 * seats)
            best = min(range(window), key=lambda k: (
                sum(history.meetings(left[k], p) for p in table), k))
            table.append(left.pop(best))
        tables.append(table)
    return tables


def _cost(table: list[int], history: History) -> int:
    """Pairs at a table that met before, first; then their meetings squared, so that a
    third meeting costs more than two second ones."""
    total = 0
    for i, a in enumerate(table):
        for b in table[i + 1:]:
            m = history.met[pair_key(a, b)]
            if m:
                total += REPEAT_COST + m * m
    return total


def _improve(tables: list[list[int]], history: History, *, reach: int,
             passes: int = 20) -> None:
    """Swap two players of boards at most `reach` apart while it lowers the tables'
    cost."""
    for _ in range(passes):
        better = False
        for b1 in range(len(tables)):
            for b2 in range(b1 + 1, min(len(tables), b1 + reach + 1)):
                t1, t2 = tables[b1], tables[b2]
                base = _cost(t1, history) + _cost(t2, history)
                if base == 0:
                    continue
                for x in range(len(t1)):
                    for y in range(len(t2)):
                        t1[x], t2[y] = t2[y], t1[x]
                        if _cost(t1, history) + _cost(t2, history) < base:
                            base = _cost(t1, history) + _cost(t2, history)
                            better = True
                        else:
                            t1[x], t2[y] = t2[y], t1[x]
        if not better:
            return


# --- round robin -------------------------------------------------------------------------


def round_robin(players: Sequence[int], size: int = 2, *, seed: int = 0) -> list[Pairing]:
    """Every round of a round robin. At two-player tables the circle method: n-1 rounds
    (n for an odd field, one bye each), every pair once. At larger tables perfect rounds
    rarely exist (six players at tables of three cannot all meet in three rounds), so
    rounds are added until every pair has met, each the least repetitive filling found;
    of several such schedules the one with fewest rounds, then the most even meetings."""
    field_ = list(dict.fromkeys(players))
    if size == 2:
        return _circle(field_)
    rng = random.Random(seed)
    best: tuple[tuple[int, int], list[Pairing]] | None = None
    tries = SCHEDULE_TRIES if len(field_) <= 16 else 4
    for _attempt in range(tries):
        schedule, history = _schedule(field_, size, rng)
        score = (len(schedule), sum(m * m for m in history.met.values()))
        if best is None or score < best[0]:
            best = (score, schedule)
    assert best is not None
    return best[1]


SCHEDULE_TRIES = 24  # whole round-robin schedules drawn; the shortest, most even is kept


def _schedule(field_: list[int], size: int,
              rng: random.Random) -> tuple[list[Pairing], History]:
    """Rounds one after another, each the least repetitive of a few shuffled fillings,
    until every pair has met."""
    history = History()
    schedule: list[Pairing] = []
    sizes, out = table_sizes(len(field_), size)
    pairs = len(field_) * (len(field_) - 1) // 2
    most = 3 * -(-(len(field_) - 1) // (size - 1)) + 1
    while len(history.met) < pairs and len(schedule) < most:
        best: tuple[int, list[list[int]], list[int]] | None = None
        for _fill in range(4):
            order = list(field_)
            rng.shuffle(order)
            byes = _bye_order(order, history)[:out] if out else []
            seated = [p for p in order if p not in byes]
            tables = _fill_boards(seated, sizes, history)
            _improve(tables, history, reach=len(tables))
            cost = sum(_cost(t, history) for t in tables)
            if best is None or cost < best[0]:
                best = (cost, tables, byes)
        assert best is not None
        _cost_, tables, byes = best
        pairing = Pairing(tuple(first_seat(t, history, board) for board, t in enumerate(tables)),
                          tuple(byes))
        history.record(pairing)
        schedule.append(pairing)
    return schedule, history


def _circle(players: list[int]) -> list[Pairing]:
    """The circle method: the first player stays, the others turn one place a round."""
    ring: list[int | None] = list(players)
    if len(ring) % 2 == 1:
        ring.append(None)
    n = len(ring)
    history = History()
    schedule: list[Pairing] = []
    for _round in range(n - 1):
        tables: list[tuple[int, ...]] = []
        byes: list[int] = []
        for k in range(n // 2):
            a, b = ring[k], ring[n - 1 - k]
            if a is None or b is None:
                byes.extend(p for p in (a, b) if p is not None)
                continue
            tables.append(first_seat((a, b), history, len(tables) + _round))
        pairing = Pairing(tuple(tables), tuple(byes))
        history.record(pairing)
        schedule.append(pairing)
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return schedule
