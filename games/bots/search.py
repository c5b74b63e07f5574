"""Search bots (Hard, Expert): determinized Monte Carlo search, exact once nothing is hidden.

From the view alone the bot samples deals consistent with everything it has seen
(`determinize.py`). On each sampled deal it tries every candidate action and plays the
deal out with the heuristic policy for every seat; the action that loses least often
over the samples wins (perfect-information Monte Carlo with common random deals).
When no card is hidden any more (two hands left and the talon drawn, or the only unseen
cards in one hand), the deal is a perfect-information game and an alpha-beta search with a
transposition table solves it exactly, if it can within the budget.
"""

from __future__ import annotations

import time

from games.engine import Attack, Defend, ExchangeTrump, Pass, Take, Transfer

from .base import Bot, _match
from .determinize import Determinizer
from .heuristic import DEFAULT, Params, heuristic_action

EXCHANGE = ExchangeTrump()
WIN, DRAW, LOSS = 1.0, 0.5, 0.0

# Expert's playout policy: the heuristic's knobs as tuned by self-play (see tune.py).
EXPERT_PARAMS = DEFAULT


def outcome(deal, team: int) -> float:
    """The deal's result for `team` (a seat in individual play): 1 win, 0.5 draw, 0 loss."""
    if deal.draw:
        return DRAW
    return LOSS if deal.losing_team == team else WIN


def playout(deal, team: int, params: Params = DEFAULT, rng=None, epsilon: float = 0.0) -> float:
    """Play the deal to its end with the heuristic for every seat; `team`'s result."""
    rules = deal.rules
    while not deal.over:
        holder = deal.six_right
        if holder >= 0 and deal.talon and holder != deal.to_act:
            if EXCHANGE in deal.legal_actions(holder):  # R25, out of turn
                deal.apply(holder, EXCHANGE)
                continue
        late = deal.late
        if late is not None and late[0] != deal.to_act:
            deal.apply(late[0], EXCHANGE)  # R27, out of turn
            continue
        seat = deal.to_act
        legal = deal.legal_actions(seat)
        if epsilon and rng.random() < epsilon:
            action = legal[rng.randrange(len(legal))]
        else:
            action = heuristic_action(deal, seat, legal, params)
        deal.apply(seat, action)
    return outcome(deal, team if rules.teams else team)


class Timeout(Exception):
    pass


class Solver:
    """Exact alpha-beta over a perfect-information deal; values from `team`'s side."""

    def __init__(self, deal, team: int, deadline: float, params: Params = DEFAULT):
        self.team = team
        self.rules = deal.rules
        self.deadline = deadline
        self.params = params
        self.tt: dict = {}
        self.nodes = 0

    def key(self, d):
        masks = []
        for h in d.hands:
            m = 0
            for c in h:
                m |= 1 << c.index
            masks.append(m)
        return (
            tuple(masks), tuple(d.attacks), tuple(d.defences), d.to_act, d.attacker,
            d.defender, d.att_seat, d.def_seat, d.taking, d.take_idx, d.passed, d.limit,
            d.out_mask, len(d.talon), d.bout == 1,
            tuple(d.last_filler) if d.last_filler is not None else None,
        )

    def ordered(self, d, seat, legal):
        first = heuristic_action(d, seat, legal, self.params)
        return [first] + [a for a in legal if a is not first and a != first]

    def value(self, d, alpha=LOSS, beta=WIN) -> float:
        if d.over:
            return outcome(d, self.team)
        self.nodes += 1
        if not self.nodes & 1023 and time.perf_counter() > self.deadline:
            raise Timeout
        k = self.key(d)
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
        legal = d.legal_actions(seat)
        maximizing = self.rules.team_of(seat) == self.team
        best = LOSS if maximizing else WIN
        for action in self.ordered(d, seat, legal):
            child = d.copy()
            child.apply(seat, action)
            v = self.value(child, alpha, beta)
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

    def best_action(self, d, seat, legal):
        """(action, value) for `seat`, the best under exact play."""
        maximizing = self.rules.team_of(seat) == self.team
        best_a, best_v = None, None
        for action in self.ordered(d, seat, legal):
            child = d.copy()
            child.apply(seat, action)
            v = self.value(child)
            if best_v is None or (v > best_v if maximizing else v < best_v):
                best_a, best_v = action, v
                if best_v == (WIN if maximizing else LOSS):
                    break
        return best_a, best_v


class SearchBot(Bot):
    """Determinized Monte Carlo search (Hard; Expert with more time and tuned playouts)."""

    def __init__(self, *, seed=None, budget: float = 1.0, params: Params = DEFAULT,
                 level: str = "hard", epsilon: float = 0.0):
        super().__init__(seed=seed)
        self.default_budget = budget
        self.params = params
        self.level = level
        self.epsilon = epsilon
        self.last_stats: dict = {}

    def decide(self, view, legal, budget):
        start = time.perf_counter()
        deadline = start + max(budget, 0.0)
        seat = view["seat"]
        det = Determinizer(view)
        rules = det.rules
        team = rules.team_of(seat)
        if det.perfect:
            world = det.sample(self.rng)
            solver = Solver(world, team, start + max(budget, 0.0) * 0.8, self.params)
            try:
                action, v = solver.best_action(world, seat, world.legal_actions(seat))
                self.last_stats = {"solved": True, "value": v, "nodes": solver.nodes}
                return _match(action, legal)
            except Timeout:
                pass
        return self._monte_carlo(det, seat, team, legal, deadline)

    def _monte_carlo(self, det, seat, team, legal, deadline):
        rng = self.rng
        params = self.params
        candidates = legal
        totals = [0.0] * len(candidates)
        worlds = 0
        eps = self.epsilon
        while True:
            world = det.sample(rng)
            for i, action in enumerate(candidates):
                d = world.copy()
                d.apply(seat, action)
                totals[i] += playout(d, team, params, rng, eps)
            worlds += 1
            if time.perf_counter() >= deadline:
                break
        best = max(range(len(candidates)), key=lambda i: totals[i])
        self.last_stats = {"solved": False, "worlds": worlds,
                           "means": [t / worlds for t in totals]}
        return candidates[best]


__all__ = ["SearchBot", "Solver", "playout", "outcome", "EXPERT_PARAMS",
           "Attack", "Defend", "Pass", "Take", "Transfer"]
