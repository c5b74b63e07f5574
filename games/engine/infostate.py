"""The information state: what one seat may know of a deal (`view`), and complete deals
imagined from it (`sample`), so that no reader outside the engine rebuilds a rule.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from operator import attrgetter
from typing import TYPE_CHECKING, Any, TypedDict

from ..kept import Kept
from .cards import LOWEST_RANK, SUIT_NAMES, Card, full_deck, mask_cards
from .claims import LateClaim
from .rules import Rules

if TYPE_CHECKING:
    from .deal import Deal

BOUT_END = ("discard", "pick_up")


class View(TypedDict):
    """`deal.view(seat)`: exactly what `seat` may know (None: a spectator), JSON-safe."""

    seat: int | None
    players: int
    rules: dict[str, Any]
    dealer: int
    trump: str
    trump_suit_name: str
    trump_card: str | None  # the face-up card while it is in the talon (R3)
    talon_size: int
    discard_size: int
    hand: list[str] | None  # the viewer's own hand; None for a spectator
    hand_sizes: list[int]
    known: list[list[str]]  # per seat: cards everybody knows it holds (R4, R5, R15, R25)
    table: list[list[str | None]]  # [attack, defence or None]
    bout: int
    attacker: int | None
    defender: int | None
    attack_seat: int | None  # the seat whose role the attacker fills (R30)
    defend_seat: int | None
    leader: int | None  # who led this bout (R17 draws from them)
    passed: list[int]  # attackers who passed since the last card was played (R13, R14)
    eligible: list[int]  # who may attack, in priority order (R10, R11)
    limit: int
    taking: bool
    to_act: int | None
    out: list[int]
    teams: list[int] | None
    next_fillers: list[int | None] | None  # per team: who fills its next seat (R30)
    exchange_open: bool  # may a trump-6 exchange still be claimed this deal (R25-R27)
    is_over: bool
    loser: int | None
    losing_team: int | None
    is_draw: bool
    discarded: list[str]
    history: list[dict[str, Any]]
    legal_actions: list[str]  # tokens, e.g. "defend:7S:8S"


def _codes(cards: list[Card]) -> list[str]:
    return [c.code for c in cards]


def next_fillers(deal: Deal) -> list[int | None] | None:
    """R30: per team, the member who fills that team's next seat; None while nobody of
    the team has filled a seat yet (then each seat's own player does)."""
    if deal.last_filler is None:
        return None
    out: list[int | None] = []
    for team, last in enumerate(deal.last_filler):
        if last is None:
            out.append(None)
            continue
        members = deal.rules.team_members[team]
        start = members.index(last) + 1
        order = members[start:] + members[:start]
        out.append(next((p for p in order if not deal.out_mask >> p & 1), None))
    return out


def exchange_open(deal: Deal) -> bool:
    """R25-R27 from public facts only: may somebody still claim the trump-6 exchange?
    (Where an unseen 6 lies stays hidden: open means "possibly".)"""
    mode, six = deal.rules.trump_exchange, deal.trump_six
    if deal.over or mode == "off" or six is None:
        return False
    if six in deal.attacks or six in deal.defences or six in deal.discard:
        return False
    bit = 1 << six.index
    holder = next((s for s in range(deal.n) if deal.known[s] & bit), None)
    if deal.talon:
        face = deal.talon[0]
        if face == six or (mode == "six_if_ace" and face.rank != 14):
            return False
        # A known 6 was shown at the deal (a right, R26) or picked up (none).
        return holder is None or deal.six_right == holder
    # R27: the late claim, until the next lead after the draw that emptied the talon.
    face_code = next((e["card"] for e in deal.history if e["type"] == "trump_card"), None)
    if face_code is None or holder is not None or face_code == six.code:
        return False
    if mode == "six_if_ace" and Card.parse(face_code).rank != 14:
        return False
    drew = False
    for event in reversed(deal.history):
        kind = event["type"]
        if kind == "attack" or kind == "exchange":
            return False
        if kind == "draw":
            drew = True
        if kind in BOUT_END:
            return drew
    return False


def view(deal: Deal, seat: int | None) -> View:
    trump_card = deal.trump_card
    over = deal.over
    legal = deal.legal_actions(seat) if seat is not None else []
    return {
        "seat": seat,
        "players": deal.n,
        "rules": deal.rules.to_dict(),
        "dealer": deal.dealer,
        "trump": deal.trump,
        "trump_suit_name": SUIT_NAMES[deal.trump],
        "trump_card": trump_card.code if trump_card else None,
        "talon_size": len(deal.talon),
        "discard_size": len(deal.discard),
        "hand": _codes(deal.hands[seat]) if seat is not None else None,
        "hand_sizes": [len(h) for h in deal.hands],
        "known": [_codes(mask_cards(k)) for k in deal.known],
        "table": [[a.code, d.code if d else None] for a, d in zip(deal.attacks, deal.defences)],
        "bout": deal.bout,
        "attacker": None if over else deal.attacker,
        "defender": None if over else deal.defender,
        "attack_seat": None if over else deal.att_seat,
        "defend_seat": None if over else deal.def_seat,
        "leader": None if over else deal.leader,
        "passed": [] if over else [s for s in range(deal.n) if deal.passed >> s & 1],
        "eligible": [] if over else list(deal.eligible),
        "limit": deal.limit,
        "taking": deal.taking,
        "to_act": deal.to_act,
        "out": sorted(deal.out),
        "teams": list(deal.rules.seat_teams) if deal.rules.teams else None,
        "next_fillers": next_fillers(deal),
        "exchange_open": exchange_open(deal),
        "is_over": over,
        "loser": deal.loser,
        "losing_team": deal.losing_team,
        "is_draw": deal.draw,
        "discarded": _codes(deal.discard),
        "history": _history_copy(deal.history),
        "legal_actions": [a.token() for a in legal],
    }


def _history_copy(history: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events as new dicts (a reader may change its view, never the deal): each
    copied at C speed, then the few that hold a list of cards given their own list."""
    events = list(map(dict, history))
    for event in events:
        if "cards" in event:
            event["cards"] = list(event["cards"])
    return events


def _mask(cards: list[Card]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c.index
    return m


_index: Callable[[Card], int] = attrgetter("index")
_DECKS = {size: tuple(full_deck(size)) for size in LOWEST_RANK}  # R1, in display order


def sample(cls: type[Deal], v: View, rng: random.Random) -> Deal:
    """`Deal.sample`: a complete deal consistent with the view `v`."""
    if v["is_over"]:
        raise ValueError("The deal is over: there is nothing hidden to imagine.")
    rules = _rules(v["rules"])
    n, seat, parse = rules.players, v["seat"], _parse
    own = _cards(v["hand"]) if seat is not None and v["hand"] is not None else []
    attacks = [parse(a) for a, _ in v["table"] if a]
    defences = [parse(d) if d else None for _, d in v["table"]]
    discard = _cards(v["discarded"])
    face = parse(v["trump_card"]) if v["trump_card"] else None
    known = [_cards(k) for k in v["known"]]
    known_masks = [_mask(k) for k in known]
    if seat is not None:
        known[seat] = own
    seen = _mask(attacks) | _mask(discard)  # a mask of the cards placed by the view
    for d in defences:
        if d is not None:
            seen |= 1 << d.index
    for k in known:
        seen |= _mask(k)
    if face is not None:
        seen |= 1 << face.index
    unseen = [c for c in _DECKS[rules.deck_size] if not seen >> c.index & 1]
    need = [size - len(k) for size, k in zip(v["hand_sizes"], known)]
    talon_rest = v["talon_size"] - 1 if v["talon_size"] else 0
    if min(need, default=0) < 0 or sum(need) + talon_rest != len(unseen):
        raise ValueError("The view is inconsistent: the unseen cards don't fill the hands and talon.")
    rng.shuffle(unseen)  # every unseen card equally likely in every free place
    hands, pos = [], 0
    for s in range(n):
        hand = known[s] + unseen[pos:pos + need[s]]
        pos += need[s]
        hand.sort(key=_index)
        hands.append(hand)

    deal = object.__new__(cls)
    deal.rules, deal.n = rules, n
    deal.hands = hands
    deal.talon = [face, *unseen[pos:]] if face is not None else []  # talon[0]: face up (R3)
    deal.trump, deal.discard = v["trump"], discard
    deal.attacks, deal.defences = attacks, defences
    attacker, defender, leader = v["attacker"], v["defender"], v["leader"]
    att_seat, def_seat = v["attack_seat"], v["defend_seat"]
    # The roles are None only in the view of a deal that is over.
    assert attacker is not None and defender is not None and leader is not None
    assert att_seat is not None and def_seat is not None
    deal.attacker, deal.defender = attacker, defender
    deal.att_seat, deal.def_seat = att_seat, def_seat
    deal.leader, deal.limit, deal.eligible = leader, v["limit"], tuple(v["eligible"])
    deal.passed = _mask_seats(v["passed"])
    deal.taking, deal.to_act, deal.bout = v["taking"], v["to_act"], v["bout"]
    # R15: after a take, the seat asked to throw in is the take_idx-th eligible attacker.
    to_act = v["to_act"]
    deal.take_idx = (deal.eligible.index(to_act)
                     if deal.taking and to_act != deal.defender and to_act in deal.eligible else 0)
    deal.out_mask = _mask_seats(v["out"])
    deal.over, deal.loser, deal.losing_team, deal.draw = False, None, None, False
    deal.known = known_masks
    deal.history = list(v["history"])
    deal.last_filler = _last_fillers(rules, v["next_fillers"])
    deal.dealer = v["dealer"]
    deal.shown = next((e["card"] for e in v["history"] if e["type"] == "lowest_trump"), None)
    deal.six_right, deal.late = -1, None
    if v["exchange_open"]:
        _place_exchange_right(deal, v, need, rng)
    return deal


_RULES: Kept[tuple[tuple[str, Any], ...], Rules] = Kept(256, name="engine.infostate.rules")


def _rules(d: dict[str, Any]) -> Rules:
    """`Rules.from_dict`, remembered: search samples thousands of deals per move."""
    return _RULES.get_or_make(tuple(d.items()), lambda: Rules.from_dict(d))


def _parse(code: str) -> Card:
    card = _BY_CODE.get(code)
    return card if card is not None else Card.parse(code)


def _cards(codes: list[str]) -> list[Card]:
    try:
        return [_BY_CODE[c] for c in codes]  # a view's codes, as the engine wrote them
    except KeyError:
        return [_parse(c) for c in codes]


_BY_CODE = Card._by_code


def _mask_seats(seats: list[int]) -> int:
    m = 0
    for s in seats:
        m |= 1 << s
    return m


def _last_fillers(rules: Rules, fillers: list[int | None] | None) -> list[int | None] | None:
    """R30: a `last_filler` that makes each team's next filler the one the view names."""
    if fillers is None:
        return None
    last: list[int | None] = []
    for team, person in enumerate(fillers):
        if person is None:
            last.append(None)
            continue
        members = rules.team_members[team]
        last.append(members[(members.index(person) - 1) % len(members)])
    return last


def _place_exchange_right(deal: Deal, v: View, need: list[int], rng: random.Random) -> None:
    """R25-R27: who holds the right to exchange in this imagined deal. The viewer's own
    right shows in its legal actions; an unseen 6 was dealt or drawn, so it carries one."""
    six = deal.trump_six
    assert six is not None
    holder = next((s for s, hand in enumerate(deal.hands) if six in hand), None)
    if holder is None:
        return  # the 6 lies in the talon
    seat = v["seat"]
    own = holder == seat
    if own and "exchange" not in v["legal_actions"]:
        return
    if deal.talon:
        deal.six_right = holder
        return
    # R27: a late claim is open if the 6 came in the draw that emptied the talon.
    face = next(e["card"] for e in v["history"] if e["type"] == "trump_card")
    face_holder = next(s for s, k in enumerate(v["known"]) if face in k)
    if holder == face_holder:
        return
    if not own:
        drawn = 0
        for event in reversed(v["history"]):
            if event["type"] in BOUT_END:
                break
            if event["type"] == "draw" and event["seat"] == holder:
                drawn = event["count"]
        if not drawn or rng.random() >= drawn / max(need[holder], 1):
            return

    deal.late = LateClaim(holder, face_holder, face)
