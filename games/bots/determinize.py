"""Deals consistent with what one seat has seen (determinization for search).

A bot is given only `deal.view(seat)`. To search, it imagines complete deals that agree
with everything in that view: its own hand, the cards everybody knows a player holds
(picked up, exchanged, shown: R4, R5, R15, R25), the table, the discard pile, the face-up
trump card at the bottom of the talon (R3), and every hand's size. The cards it has not
seen are dealt at random to the other hands and to the rest of the talon.

The bout bookkeeping the view does not carry (who led, who has passed, whose turn it is
after a take, which seats stand in for which in team play) is worked out from the public
history, exactly as the engine would have it; `tests/bots` checks that against the engine.
"""

from __future__ import annotations

import json
import random

from games.engine import Card, Deal, Rules
from games.engine.cards import full_deck

BOUT_END = ("discard", "pick_up")


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << Card.parse(c).index
    return m


class _Seats:
    """The engine's seat/stand-in bookkeeping (R19, R30) replayed from public events."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self.n = rules.players
        self.out = 0
        self.last_filler = [None] * rules.team_count if rules.teams else None
        self.att_seat = self.attacker = self.def_seat = self.defender = None

    def team_active(self, seat: int) -> bool:
        return any(not self.out >> m & 1 for m in self.rules.members(self.rules.team_of(seat)))

    def next_seat(self, seat: int) -> int:
        for k in range(1, self.n + 1):
            t = (seat + k) % self.n
            if self.rules.teams:
                if self.team_active(t):
                    return t
            elif not self.out >> t & 1:
                return t
        raise ValueError("nobody left")

    def next_filler(self, seat: int) -> int:
        team = self.rules.team_of(seat)
        members = self.rules.members(team)
        last = self.last_filler[team]
        start = members.index(seat) if last is None else members.index(last) + 1
        for person in members[start:] + members[:start]:
            if not self.out >> person & 1:
                return person
        raise ValueError("team has no active member")

    def fill(self, seat: int) -> int:
        person = self.next_filler(seat)
        self.last_filler[self.rules.team_of(seat)] = person
        return person

    def start_bout(self, att_seat: int, attacker: int) -> None:
        self.att_seat, self.attacker = att_seat, attacker
        self.def_seat = self.next_seat(att_seat)
        self.defender = self.fill(self.def_seat) if self.rules.teams else self.def_seat

    def first_bout(self, opener: int) -> None:
        self.start_bout(opener, self.fill(opener) if self.rules.teams else opener)

    def transfer(self, seat: int) -> None:
        self.att_seat, self.attacker = self.def_seat, seat
        self.def_seat = self.next_seat(self.def_seat)
        self.defender = self.fill(self.def_seat) if self.rules.teams else self.def_seat

    def settle(self, taken: bool) -> None:
        """The start of the next bout (R18, R19, R30), as Deal._settle does it."""
        if self.rules.teams:
            if not taken and not self.out >> self.defender & 1:
                self.start_bout(self.def_seat, self.defender)
                return
            if not taken and self.team_active(self.def_seat):
                seat = self.def_seat
            else:
                seat = self.next_seat(self.def_seat)
            self.start_bout(seat, self.fill(seat))
            return
        if not taken and not self.out >> self.defender & 1:
            nxt = self.defender
        else:
            nxt = self.next_seat(self.defender)
        self.start_bout(nxt, nxt)


def bout_state(view: dict) -> dict:
    """Engine fields of the current bout that the view leaves out, derived from public
    events: leader, passed, take_idx, att_seat, def_seat, last_filler, six_right, late."""
    rules = Rules.from_dict(view["rules"])
    history = view["history"]
    seat = view["seat"]
    to_act, attacker, defender = view["to_act"], view["attacker"], view["defender"]
    eligible = list(view["eligible"])
    taking = view["taking"]

    # The current bout's events: everything after the last discard / pick-up.
    start = 0
    for i in range(len(history) - 1, -1, -1):
        if history[i]["type"] in BOUT_END:
            start = i + 1
            break
    leader = next((e["seat"] for e in history[start:] if e["type"] == "attack"), attacker)

    # R13/R14: while an attacker holds the initiative outside a take, everyone before it in
    # priority order has passed (or been passed over) since the defender last beat a card.
    passed = 0
    take_idx = 0
    if to_act is not None and to_act != defender and to_act in eligible:
        idx = eligible.index(to_act)
        if taking:
            take_idx = idx  # R15: each eligible attacker in turn, once
        else:
            for s in eligible[:idx]:
                passed |= 1 << s

    att_seat, def_seat, last_filler = attacker, defender, None
    if rules.teams:
        att_seat, def_seat, last_filler = _replay_seats(rules, history, attacker, defender)

    # R25-R27: the seat's own right to exchange shows in its legal actions.
    six_right, late = -1, None
    if seat is not None and any(a.get("type") == "exchange" for a in view["legal_actions"]):
        if view["talon_size"] > 0:
            six_right = seat
        else:  # a late claim (R27): swap with whoever drew the face-up card
            face = next((e["card"] for e in history if e["type"] == "trump_card"), None)
            holder = next((s for s, known in enumerate(view["known"]) if face in known), None)
            if face is not None and holder is not None:
                late = (seat, holder, face)
    shown = next((e["card"] for e in history if e["type"] == "lowest_trump"), None)
    return {
        "leader": leader, "passed": passed, "take_idx": take_idx, "att_seat": att_seat,
        "def_seat": def_seat, "last_filler": last_filler, "six_right": six_right,
        "late": late, "shown": shown,
    }


def _replay_seats(rules: Rules, history: list, attacker, defender):
    """Team play (R30): which seat each role fills, replayed from the public history."""
    seats = _Seats(rules)
    started = False
    pending = None  # a bout just ended: taken or not
    for event in history:
        kind = event["type"]
        if kind in ("draw", "out"):
            if kind == "out":
                seats.out |= 1 << event["seat"]
            continue
        if kind in ("trump_card", "trump_shown", "lowest_trump", "exchange"):
            continue
        if kind in ("durak", "draw_game"):
            pending = None
            continue
        if not started:
            seats.first_bout(event["seat"])  # the first event of play is the opener's lead
            started = True
        if pending is not None:
            seats.settle(pending)
            pending = None
        if kind == "transfer":
            seats.transfer(event["seat"])
        elif kind in BOUT_END:
            pending = kind == "pick_up"
    if attacker is None:
        return attacker, defender, seats.last_filler
    if not started:
        seats.first_bout(attacker)
    elif pending is not None:
        seats.settle(pending)
    if (seats.attacker, seats.defender) != (attacker, defender):  # pragma: no cover - safety net
        return attacker, defender, seats.last_filler
    return seats.att_seat, seats.def_seat, seats.last_filler


class Determinizer:
    """Samples complete deals consistent with one seat's view.

    >>> from games.engine import Rules, Deal
    >>> deal = Deal.start(Rules(players=2), seed=1)
    >>> det = Determinizer(deal.view(deal.to_act))
    >>> sample = det.sample(random.Random(0))
    >>> sample.hand(deal.to_act) == deal.hand(deal.to_act), sample.talon_size
    (True, 24)
    """

    def __init__(self, view: dict):
        if view.get("is_over"):
            raise ValueError("The deal is over: there is nothing to decide.")
        self.view = view
        self.seat = seat = view["seat"]
        self.rules = rules = Rules.from_dict(view["rules"])
        n = rules.players
        self.trump = view["trump"]
        hand = [Card.parse(c) for c in view["hand"]] if seat is not None else []
        table = [Card.parse(c) for pair in view["table"] for c in pair if c]
        discard = [Card.parse(c) for c in view["discarded"]]
        face = Card.parse(view["trump_card"]) if view["trump_card"] else None
        elsewhere = set(table) | set(discard) | set(hand)
        if face is not None:
            elsewhere.add(face)
        # A card known in a hand that is now face up elsewhere has left that hand (the
        # engine keeps a shown trump 6 "known" after an exchange: see the bots' report).
        known = [[c for c in map(Card.parse, k) if c not in elsewhere] for k in view["known"]]
        exchanged = {(e["seat"], e["six"]) for e in view["history"] if e["type"] == "exchange"}
        for s, k in enumerate(known):
            for c in k[:]:
                if (s, c.code) in exchanged and any(c in o for t, o in enumerate(known) if t != s):
                    k.remove(c)  # the exchanger's stale mark; the card is with the other seat
        if seat is not None:
            known[seat] = list(hand)
        seen = elsewhere | {c for k in known for c in k}
        self.unseen = [c for c in full_deck(rules.deck_size) if c not in seen]
        self.known = known
        self.need = [max(0, size - len(k)) for size, k in zip(view["hand_sizes"], known)]
        talon_size = view["talon_size"]
        self.talon_rest = talon_size - 1 if talon_size else 0
        self.face = face
        if sum(self.need) + self.talon_rest != len(self.unseen):
            raise ValueError("The view is inconsistent: the unseen cards don't fill the hands and talon.")
        self.six = None if rules.deck_size == 24 else Card.parse("6" + self.trump)
        # A known 6 that was shown as the lowest trump (R5) and has not moved since was dealt.
        self.six_shown = False
        if self.six is not None:
            code = self.six.code
            for e in view["history"]:
                if code == e.get("card") or code == e.get("six") or code in e.get("cards", ()):
                    self.six_shown = e["type"] == "lowest_trump"
        public = bout_state(view)
        self.six_right_own = public["six_right"]
        state = {
            "rules": view["rules"],
            "hands": [[c.code for c in k] for k in known],
            "talon": [face.code] if face else [],
            "trump": self.trump,
            "discard": view["discarded"],
            "attacks": [a for a, _ in view["table"]],
            "defences": [d for _, d in view["table"]],
            "attacker": view["attacker"], "defender": view["defender"],
            "att_seat": public["att_seat"], "def_seat": public["def_seat"],
            "leader": public["leader"], "limit": view["limit"], "eligible": view["eligible"],
            "passed": public["passed"], "taking": view["taking"], "take_idx": public["take_idx"],
            "to_act": view["to_act"], "bout": view["bout"],
            "out": sum(1 << s for s in view["out"]),
            "over": False, "loser": None, "losing_team": None, "draw": False,
            "six_right": public["six_right"], "late": public["late"],
            "known": [_mask(k) if s != seat else _mask(c for c in view["known"][s] if c in view["hand"])
                      for s, k in enumerate(known)],
            "history": [],  # the engine never reads it; search runs faster without
            "last_filler": public["last_filler"], "dealer": view["dealer"],
            "shown": public["shown"],
        }
        self.base = Deal.from_json(json.dumps(state))
        self.n = n
        # Seats whose hand holds unseen cards, for the sampler.
        self.hidden_seats = [s for s in range(n) if self.need[s]]
        self.perfect = len(self.hidden_seats) <= 1 and self.talon_rest == 0

    def sample(self, rng: random.Random) -> Deal:
        """One complete deal consistent with the view."""
        deal = self.base.copy()
        cards = self.unseen[:]
        rng.shuffle(cards)
        hands = deal.hands
        pos = 0
        for s in self.hidden_seats:
            k = self.need[s]
            hand = hands[s]
            hand.extend(cards[pos:pos + k])
            hand.sort(key=_index)
            pos += k
        if self.face is not None:
            deal.talon = [self.face] + cards[pos:]
        self.settle_six_right(deal)
        return deal

    def settle_six_right(self, deal: Deal) -> None:
        """R26: an unseen trump 6 in another hand was dealt or drawn, so it carries the right
        to exchange while the face-up card is in the talon."""
        six = self.six
        if six is None or deal.six_right != -1 or not deal.talon:
            return
        for s in self.hidden_seats:
            if six in deal.hands[s] and (not deal.known[s] >> six.index & 1 or self.six_shown):
                deal.six_right = s
                return


def _index(card: Card) -> int:
    return card.index
