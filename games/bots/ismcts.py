"""Expert at two hands: information-set Monte Carlo tree search.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012). Each iteration samples a
deal consistent with the view (`Deal.sample`) and descends one tree, keyed by the actions
played since the current decision, through both seats' decisions: at each node only the
actions legal in the sampled deal are open, chosen by UCB1 with availability counts (a
child's exploration term counts the visits in which it could have been chosen). One new
node is added per iteration; from there Expert's noisy playout, cut at its horizon and
scored by `leaf.win_chance`, gives the value, backed up to every node from the side of the
seat that chose its move. The move played is the root's most visited child.

Where Expert tries every move against each sampled deal and plays it out by the heuristic
(one level of search), the tree also searches the opponent's replies and the bot's own
later moves, keeping the hidden cards hidden (the statistics of a node are shared by every
deal that reaches it).

Three hands or more, teams, and positions with nothing hidden are searched as Expert does
(the exact solver first, then flat Monte Carlo).
"""

from __future__ import annotations

import math
from typing import Any

from games.engine import Action, Deal, Rules, View

from .base import _match
from .heuristic import heuristic_action
from .search import BUDGET_USE, EXCHANGE, SearchBot, break_tie, nothing_hidden, outcome, playout

# UCB1's exploration constant for values in [0, 1].
ISMCTS_EXPLORATION = 0.7


class Node:
    """A move's statistics: visits, summed value for the seat that chose it, availability."""

    __slots__ = ("children", "visits", "total", "avail", "mine")

    def __init__(self, mine: bool = True) -> None:
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 1
        self.mine = mine  # chosen by the searching seat's side (else by the opponent)


class ISMCTSBot(SearchBot):
    """Expert: two-handed positions with something hidden searched by ISMCTS."""

    def __init__(self, *, exploration: float = ISMCTS_EXPLORATION, **kwargs: Any):
        super().__init__(**kwargs)
        self.exploration = exploration

    def decide(self, view: View, legal: list[Action], budget: float) -> Action:
        seat = view["seat"]
        assert seat is not None
        if view["players"] != 2 or view["out"] or nothing_hidden(view):
            return super().decide(view, legal, budget)
        start = self.clock()
        deadline = start + max(budget, 0.0) * BUDGET_USE  # Expert's headroom
        team = Rules.from_dict(view["rules"]).team_of(seat)
        self.last_stats = {}
        return _match(self._ismcts(view, seat, team, legal, deadline), legal)

    def _ismcts(self, view: View, seat: int, team: int, candidates: list[Action],
                deadline: float) -> Action:
        rng = self.rng
        params = self.params
        eps, horizon = self.epsilon, self.horizon
        c = self.exploration
        clock = self.clock
        root = Node()
        iterations = 0
        depth_sum = 0
        while True:
            d = Deal.sample(view, rng)
            node = root
            path: list[Node] = []
            legal = candidates  # the root's moves: the same in every sampled deal
            expanded = False
            value: float | None = None
            while True:
                mover = d.to_act
                assert mover is not None
                children = node.children
                unseen = [a for a in legal if a not in children]
                if unseen:
                    if len(unseen) > 1:  # the heuristic's move first, then at random
                        first = heuristic_action(d, mover, legal, params)
                        action = first if first in unseen else unseen[rng.randrange(len(unseen))]
                    else:
                        action = unseen[0]
                    child = Node(mine=mover == seat)
                    children[action] = child
                    expanded = True
                else:
                    best_score = -1.0
                    action = legal[0]
                    child = children[action]
                    for a in legal:
                        ch = children[a]
                        score = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                        if score > best_score:
                            best_score, action, child = score, a, ch
                    for a in legal:
                        children[a].avail += 1
                d.apply(mover, action)
                path.append(child)
                node = child
                # Moves made for the seat: the out-of-turn exchange (R25-R27), as bots do.
                while not d.is_over:
                    holder = d.exchanger
                    if holder is None or holder == d.to_act:
                        break
                    d.apply(holder, EXCHANGE)
                if d.is_over:
                    value = outcome(d, team)
                    break
                if expanded:
                    break
                to_act = d.to_act
                assert to_act is not None
                legal = d.legal_actions(to_act)
                if EXCHANGE in legal:
                    legal = [EXCHANGE]  # R25: always made (Bot.act)
            if value is None:
                value = playout(d, team, params, rng, eps, horizon)
            for n in path:
                n.visits += 1
                n.total += value if n.mine else 1.0 - value
            iterations += 1
            depth_sum += len(path)
            if clock() >= deadline or iterations == self.max_worlds:
                break
        most = max(root.children[a].visits for a in candidates if a in root.children)
        best = [a for a in candidates if a in root.children and root.children[a].visits == most]
        choice = break_tie(best, view, seat, params, rng)
        top = root.children[choice]
        self.last_stats.update({"worlds": iterations, "candidates": len(candidates),
                                "value": top.total / top.visits,
                                "depth": depth_sum / iterations})
        return choice


__all__ = ["ISMCTSBot", "ISMCTS_EXPLORATION", "Node"]
