"""Search bots (Hard; Expert at three hands or more, and its exact endgame at two):
determinized Monte Carlo search, exact once nothing is hidden. Expert's tree search at two
hands is `ismcts.py`, built on this.

From the view alone the bot imagines deals consistent with everything it has seen
(`Deal.sample`). On each sampled deal it tries every candidate action and plays the
deal out with the heuristic policy for every seat; the action that loses least often
over the samples wins (perfect-information Monte Carlo with common random deals).
When no card is hidden any more and two players are left (the talon drawn, so every
unseen card is in the one other hand), the deal is a perfect-information game: an
alpha-beta search with a transposition table solves it exactly if it can within 70% of the
budget. A won position is then played by a winning move; in a drawn or lost one the Monte
Carlo search picks, among the moves that keep the best exact value, the one a fallible
opponent most often spoils.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable
from typing import Any

from games.engine import Action, Deal, ExchangeTrump, Rules, View

from .base import Bot, _match
from .heuristic import DEFAULT, Params, card_values, heuristic_action
from .leaf import win_chance

EXCHANGE = ExchangeTrump()
WIN, DRAW, LOSS = 1.0, 0.5, 0.0
MAX_PLAYOUT_STEPS = 2000
MAX_SOLVER_DEPTH = 300
BUDGET_USE = 0.9

# Expert's playout policy: the heuristic's knobs after self-play tuning (`python -m
# bench.tune`). No nudge of any knob beat the defaults over 6,000 mirrored deals, so
# the tuned knobs are the defaults.
EXPERT_PARAMS = DEFAULT
# Expert's edge: noisy playouts. At each step of a playout, with this chance, a random
# legal move instead of the heuristic's. A move is then valued against a spread of
# replies, not the heuristic's one line, and more time buys more of them. In the arena
# (200 mirrored deals each, Expert 0.1 s vs Hard 0.05 s): 0 → Expert lost ~48%,
# 0.1 → 43.5%, 0.25 → 40.0%; searching the opponent's best reply instead: 48.5%.
# Tried and dropped (400 deals, seed 51, where 0.25 lost 43.0%): noise 0.4 → 49.2%;
# playouts that see the sampled deal's other hands → 48.0%; those with common noise for
# every candidate → 48.5%.
EXPERT_EPSILON = 0.25
# Expert's playouts in two-handed deals stop when the second bout they reach begins and
# score the position by `leaf.win_chance`: about 2.5 times the sampled deals in a budget
# (docs/arena/expert.md).
EXPERT_HORIZON = 2


def outcome(deal: Deal, team: int) -> float:
    """The deal's result for `team` (a seat in individual play): 1 win, 0.5 draw, 0 loss."""
    if deal.is_draw:
        return DRAW
    return LOSS if deal.losing_team == team else WIN


def playout(deal: Deal, team: int, params: Params = DEFAULT, rng: random.Random | None = None,
            epsilon: float = 0.0, horizon: int = 0) -> float:
    """Play the deal to its end with the heuristic for every seat; `team`'s result.
    With a `horizon` (two players, no teams), stop at the start of the horizon-th bout
    begun in the playout and return `team`'s chance by `leaf.win_chance` instead."""
    steps = 0
    vals = card_values(deal.trump, deal.rules.deck_size)  # the trump holds all deal
    rules = deal.rules
    other = 1 - team if horizon and rules.players == 2 and not rules.teams else -1
    bouts = 0
    while not deal.is_over:
        steps += 1
        if steps > MAX_PLAYOUT_STEPS:  # takes can pass cards round for ever at 3+ seats
            return DRAW
        seat = deal.to_act
        assert seat is not None
        holder = deal.exchanger
        if holder is not None and holder != seat:
            deal.apply(holder, EXCHANGE)  # R25-R27, out of turn
            continue
        legal = deal.legal_actions(seat)
        if epsilon and rng is not None and rng.random() < epsilon:
            action = legal[rng.randrange(len(legal))]
        else:
            action = heuristic_action(deal, seat, legal, params, vals)
        deal.apply(seat, action)
        if other >= 0 and not deal.table and not deal.is_over and type(action) is not ExchangeTrump:
            bouts += 1  # a bout has ended: the next begins
            if bouts >= horizon:
                return win_chance(deal, team, other, vals)
    return outcome(deal, team)


class Timeout(Exception):
    pass


class Solver:
    """Exact alpha-beta over a perfect-information deal; values from `team`'s side."""

    def __init__(self, deal: Deal, team: int, deadline: float, params: Params = DEFAULT,
                 clock: Callable[[], float] = time.perf_counter):
        self.team = team
        self.clock = clock
        self.rules = deal.rules
        self.deadline = deadline
        self.params = params
        self.tt: dict[Hashable, tuple[float, float]] = {}
        self.nodes = 0

    def ordered(self, d: Deal, seat: int, legal: list[Action]) -> list[Action]:
        first = heuristic_action(d, seat, legal, self.params)
        return [first] + [a for a in legal if a is not first and a != first]

    def value(self, d: Deal, alpha: float = LOSS, beta: float = WIN, depth: int = 0) -> float:
        if d.is_over:
            return outcome(d, self.team)
        self.nodes += 1
        if not self.nodes & 127 and self.clock() > self.deadline:
            raise Timeout
        if depth > MAX_SOLVER_DEPTH:
            raise Timeout  # pragma: no cover - two hands can't pass cards round for ever
        k = d.key()
        lo, hi = self.tt.get(k, (LOSS, WIN))
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        alpha, beta = max(alpha, lo), min(beta, hi)
        a0, b0 = alpha, beta
        seat = d.to_act
        assert seat is not None
        legal = d.legal_actions(seat)
        maximizing = self.rules.team_of(seat) == self.team
        best = LOSS if maximizing else WIN
        for action in self.ordered(d, seat, legal):
            child = d.copy()
            child.apply(seat, action)
            v = self.value(child, alpha, beta, depth + 1)
            if maximizing:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            else:
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
            if alpha >= beta:
                break
        if best <= a0:
            self.tt[k] = (lo, best)
        elif best >= b0:
            self.tt[k] = (best, hi)
        else:
            self.tt[k] = (best, best)
        return best

    def values(self, d: Deal, seat: int, legal: list[Action]) -> list[tuple[Action, float]]:
        """(action, exact value for `seat`'s side) for `seat`'s actions, the heuristic's
        choice first; stops at the first sure win."""
        maximizing = self.rules.team_of(seat) == self.team
        out = []
        for action in self.ordered(d, seat, legal):
            child = d.copy()
            child.apply(seat, action)
            v = self.value(child)
            v = v if maximizing else WIN - v
            out.append((action, v))
            if v == WIN:
                break
        return out


def nothing_hidden(view: View) -> bool:
    """Is the deal one of perfect information for this seat: the talon drawn (the face-up
    card at most) and the unknown cards all in one other hand?"""
    seat = view["seat"]
    hidden = [s for s, (size, known) in enumerate(zip(view["hand_sizes"], view["known"]))
              if s != seat and size > len(known)]
    return view["talon_size"] <= 1 and len(hidden) <= 1


class SearchBot(Bot):
    """Determinized Monte Carlo search (Hard; with noisy playouts cut at a horizon, the
    flat Expert of the arena, and Expert where it does not search a tree).

    The budget is wall-clock time (`clock`); the arena's --cpu-clock counts the process's
    CPU time instead, so that other load on the machine does not weaken the bots.
    """

    def __init__(self, *, seed: Any = None, budget: float = 1.0, params: Params = DEFAULT,
                 level: str = "hard", epsilon: float = 0.0, max_worlds: int | None = None,
                 horizon: int = 0, wide: float = 1.0):
        super().__init__(seed=seed)
        self.horizon = horizon  # playouts stop after this many bouts (0: at the end)
        # Times the budget where no playout is cut (3+ players, teams: no evaluation there).
        self.wide = wide
        self.max_worlds = max_worlds  # also stop after this many sampled deals (tests)
        self.default_budget = budget
        self.params = params
        self.level = level
        self.epsilon = epsilon
        self.last_stats: dict[str, Any] = {}

    def decide(self, view: View, legal: list[Action], budget: float) -> Action:
        start = self.clock()
        rules = Rules.from_dict(view["rules"])
        if self.horizon and (rules.players != 2 or rules.teams):
            budget *= self.wide  # whole playouts only: the thinking time they were measured at
        budget = max(budget, 0.0) * BUDGET_USE  # headroom for the last playout and the OS
        deadline = start + budget
        seat = view["seat"]
        assert seat is not None
        team = rules.team_of(seat)
        perfect = nothing_hidden(view)
        candidates = legal
        self.last_stats = {}
        if perfect and view["players"] - len(view["out"]) == 2:
            # Nothing hidden: solve exactly if the budget allows. A won position is played
            # out by the winning move; otherwise Monte Carlo picks, among the moves that
            # hold the best exact value, the one a fallible opponent most often spoils.
            world = Deal.sample(view, self.rng)
            solver = Solver(world, team, start + budget * 0.7, self.params, self.clock)
            try:
                values: list[tuple[Action, float]] | None = solver.values(world, seat, candidates)
            except Timeout:
                values = None
            self.last_stats = {"solved": values is not None, "nodes": solver.nodes}
            if values is not None:
                best = max(v for _, v in values)
                winners = [a for a, v in values if v == best]
                if best == WIN or len(winners) == 1:
                    return _match(winners[0], legal)
                candidates = winners
        chosen = self._monte_carlo(view, perfect, seat, team, candidates, deadline)
        return _match(chosen, legal)

    def _monte_carlo(self, view: View, perfect: bool, seat: int, team: int,
                     candidates: list[Action], deadline: float) -> Action:
        """Common sampled deals for all candidates; a candidate that is clearly worse than
        the leader on the same deals (paired difference below zero by PRUNE_SIGMAS standard
        errors) stops being sampled, and when one is left it is played at once."""
        rng = self.rng
        params = self.params
        results: list[list[float]] = [[] for _ in candidates]
        active = list(range(len(candidates)))
        worlds = 0
        # With nothing hidden every sample is the same deal; vary the playouts instead.
        eps = self.epsilon
        horizon = 0 if perfect else self.horizon
        clock = self.clock
        while len(active) > 1:
            world = Deal.sample(view, rng)
            row = []
            for i in active:
                d = world.copy()
                d.apply(seat, candidates[i])
                row.append(playout(d, team, params, rng, eps, horizon))
                if worlds and clock() >= deadline:
                    break
            else:
                for i, r in zip(active, row):
                    results[i].append(r)
                worlds += 1
                if perfect and not eps:
                    eps = 0.1
                if worlds % PRUNE_EVERY == 0:
                    active = _prune(active, results)
                    if worlds >= 4 * PRUNE_EVERY and all(results[i] == results[active[0]] for i in active):
                        break  # every candidate fares exactly the same: nothing to learn
                if clock() < deadline and worlds != self.max_worlds:
                    continue
            break
        means = {i: sum(results[i]) / len(results[i]) if results[i] else 0.0 for i in active}
        top = max(means.values())
        best = [candidates[i] for i in active if means[i] == top]
        choice = break_tie(best, view, seat, params, rng)
        self.last_stats.update({"worlds": worlds, "candidates": len(candidates),
                                "left": len(active), "value": top})
        return choice


def break_tie(best: list[Action], view: View, seat: int, params: Params,
              rng: random.Random) -> Action:
    """Among moves that fared the same: the heuristic's own choice on a deal drawn from
    the view, else the first in the engine's order."""
    if len(best) == 1:
        return best[0]
    first = heuristic_action(Deal.sample(view, rng), seat, None, params)
    return first if first in best else best[0]


PRUNE_EVERY = 8
PRUNE_SIGMAS = 2.5


def _prune(active: list[int], results: list[list[float]]) -> list[int]:
    means = {i: sum(results[i]) / len(results[i]) for i in active}
    leader = max(active, key=lambda i: means[i])
    lead = results[leader]
    keep = []
    for i in active:
        if i == leader:
            keep.append(i)
            continue
        xs = results[i]
        n = len(xs)
        diffs = [x - lead[w] for w, x in enumerate(xs)]
        m = sum(diffs) / n
        var = sum((d - m) ** 2 for d in diffs) / (n - 1) if n > 1 else 1.0
        if m + PRUNE_SIGMAS * (var / n) ** 0.5 >= 0:
            keep.append(i)
    return keep


__all__ = ["SearchBot", "Solver", "playout", "outcome", "EXPERT_PARAMS", "EXPERT_EPSILON",
           "EXPERT_HORIZON"]
