"""One deal of Podkidnoy Durak: docs/rules.md sections 1-8 as a state machine.

Exactly one seat holds the initiative (`to_act`, R13-R15); only it may attack, defend,
take, pass or transfer. The trump exchange (R25-R27) is the one out-of-turn action.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Hashable, Iterable
from operator import attrgetter
from typing import Any

from . import infostate
from .actions import ACTION_TYPES, Action, Attack, Defend, ExchangeTrump, Pass, Take, Transfer
from .cards import ALL_CARDS, SUITS, Card, beats, cards_mask, full_deck, mask_cards, why_not_beats
from .claims import LateClaim
from .errors import IllegalAction
from .infostate import View
from .rules import Rules

_index: Callable[[Card], int] = attrgetter("index")
# One shared action per card, looked up by the card's index (ALL_CARDS order).
_ATTACK = [Attack(c) for c in ALL_CARDS]
_TRANSFER = [Transfer(c) for c in ALL_CARDS]
_DEFEND = [Defend(a, c) for a in ALL_CARDS for c in ALL_CARDS]  # [attack.index * 52 + card.index]
_TAKE, _PASS, _EXCHANGE = Take(), Pass(), ExchangeTrump()
_NO_DEFENCE = None
_SIX = {suit: Card(6, suit) for suit in SUITS}  # the trump 6 of each trump suit (R25)
ANY_RANK = -1  # a rank mask (bit r: rank r) that holds every rank


def _ordinal(n: int) -> str:
    return f"seat {n}"


# What `random.Random` accepts as a seed (None: `Deal.start` shuffles securely).
type Seed = int | float | str | bytes | bytearray | None


class Deal:
    """A deal in progress. Build one with `Deal.start`."""

    __slots__ = (
        "rules", "n", "hands", "talon", "trump", "discard", "attacks", "defences",
        "attacker", "defender", "att_seat", "def_seat", "leader", "limit", "eligible",
        "passed", "taking", "take_idx", "to_act", "bout", "out_mask", "over", "loser",
        "losing_team", "draw", "six_right", "late", "known", "history", "last_filler",
        "dealer", "shown",
    )
    rules: Rules
    n: int  # players
    hands: list[list[Card]]  # per seat, sorted by index
    talon: list[Card]  # talon[-1] is drawn next; talon[0] is the face-up trump card
    trump: str
    discard: list[Card]
    attacks: list[Card]  # the table: attacks[i] is beaten by defences[i] (None: not yet)
    defences: list[Card | None]
    attacker: int  # the current bout's main attacker and defender (persons)
    defender: int
    att_seat: int  # the seats whose roles they fill (differ with teams, R30)
    def_seat: int
    leader: int
    limit: int
    eligible: tuple[int, ...]
    passed: int  # bit mask of seats
    taking: bool
    take_idx: int
    to_act: int | None  # None once over
    bout: int
    out_mask: int  # bit mask of seats
    over: bool
    loser: int | None
    losing_team: int | None
    draw: bool
    six_right: int  # the seat holding the right to exchange the trump 6, or -1
    late: LateClaim | None
    known: list[int]  # per seat: a mask of the cards everybody knows it holds
    history: list[dict[str, Any]]
    last_filler: list[int | None] | None  # per team (None without teams), R30
    dealer: int
    shown: str | None  # the lowest trump shown at the start (R5)

    # ------------------------------------------------------------------ setup
    @classmethod
    def start(cls, rules: Rules, *, deck: Iterable[Card | str] | None = None, seed: Seed = None,
              dealer: int = 0, opener: int | None = None) -> Deal:
        if not isinstance(rules, Rules):
            raise ValueError(f"rules must be a Rules, not {type(rules).__name__}.")
        n = rules.players
        _check_seat_arg("dealer", dealer, n)
        if opener is not None:
            _check_seat_arg("opener", opener, n)
        pack = full_deck(rules.deck_size)
        if deck is None:
            rng = random.SystemRandom() if seed is None else random.Random(seed)
            rng.shuffle(pack)
        else:
            pack = _parse_deck(deck, pack)

        self = object.__new__(cls)
        self.rules, self.n = rules, n
        dealt = n * rules.hand_size
        self.hands = [[] for _ in range(n)]
        for i, card in enumerate(pack[:dealt]):  # R3: one at a time from the dealer's left
            self.hands[(dealer + 1 + i) % n].append(card)
        for hand in self.hands:
            hand.sort(key=_index)
        self.history = []
        self.known = [0] * n
        self.shown = None
        if dealt == len(pack):  # R4: the dealer's last card decides trump and stays with them
            last = pack[dealt - 1]
            self.trump = last.suit
            self.talon = []
            self.known[dealer] |= 1 << last.index
            self.history.append({"type": "trump_shown", "seat": dealer, "card": last.code})
        else:
            face = pack[dealt]
            self.trump = face.suit
            # talon[-1] is drawn next; talon[0] is the face-up trump card, drawn last (R3).
            self.talon = [face] + pack[dealt + 1:][::-1]
            self.history.append({"type": "trump_card", "card": face.code})
        self.discard = []
        self.attacks, self.defences = [], []
        self.dealer = dealer
        self.bout = 0
        self.out_mask = 0
        self.over = False
        self.loser = self.losing_team = None
        self.draw = False
        self.late = None
        self.last_filler = [None] * rules.team_count if rules.teams else None
        six = self.trump_six
        self.six_right = -1
        for seat, hand in enumerate(self.hands):
            if six in hand:
                self.six_right = seat  # R26: dealt the 6
        if opener is None:  # R5
            opener = (dealer + 1) % n
            trumps = [(c.rank, s, c) for s, h in enumerate(self.hands) for c in h if c.suit == self.trump]
            if trumps:
                _, opener, lowest = min(trumps)
                self.known[opener] |= 1 << lowest.index
                self.shown = lowest.code
                self.history.append({"type": "lowest_trump", "seat": opener, "card": lowest.code})
        if rules.teams:
            self._start_bout(opener, self._fill(opener))
        else:
            self._start_bout(opener, opener)
        return self

    # ---------------------------------------------------------- public state
    @property
    def trump_card(self) -> Card | None:
        return self.talon[0] if self.talon else None

    @property
    def talon_size(self) -> int:
        return len(self.talon)

    @property
    def discard_size(self) -> int:
        return len(self.discard)

    def hand(self, seat: int) -> list[Card]:
        if type(seat) is not int or not 0 <= seat < self.n:
            _check_seat_arg("seat", seat, self.n)
        return self.hands[seat][:]

    @property
    def table(self) -> list[tuple[Card, Card | None]]:
        return list(zip(self.attacks, self.defences))

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def is_draw(self) -> bool:
        return self.draw

    @property
    def out(self) -> set[int]:
        return {s for s in range(self.n) if self.out_mask >> s & 1}

    @property
    def trump_six(self) -> Card | None:
        return None if self.rules.deck_size == 24 else _SIX[self.trump]

    def known_cards(self, seat: int) -> list[Card]:
        """Cards everybody knows `seat` holds: picked up, exchanged, shown (R4, R5)."""
        return mask_cards(self.known[seat])

    # ------------------------------------------------------------ team roles
    def _fill(self, seat: int, gone: int | None = None) -> int:
        """R30: the team member who fills `seat` now (and remember them)."""
        person = self._next_filler(seat, gone)
        last_filler = self.last_filler
        assert last_filler is not None  # team play
        last_filler[self.rules.seat_teams[seat]] = person
        return person

    def _next_filler(self, seat: int, gone: int | None = None) -> int:
        out = self.out_mask if gone is None else gone
        team = self.rules.seat_teams[seat]
        members = self.rules.team_members[team]
        last_filler = self.last_filler
        assert last_filler is not None  # team play
        last = last_filler[team]
        if last is None:  # nobody of this team has filled a seat yet: the seat's own player
            start = members.index(seat)
            order = members[start:] + members[:start]
        else:
            start = members.index(last) + 1
            order = members[start:] + members[:start]
        for person in order:
            if not out >> person & 1:
                return person
        raise AssertionError("team has no active member")  # pragma: no cover

    def _team_active(self, seat: int, gone: int | None = None) -> bool:
        out = self.out_mask if gone is None else gone
        for m in self.rules.team_members[self.rules.seat_teams[seat]]:
            if not out >> m & 1:
                return True
        return False

    def _gone(self) -> int:
        """R19 as R32 reads it: the out seats, and (talon empty) any seat with no cards,
        who is out the moment they lead or throw their last card."""
        gone = self.out_mask
        if not self.talon:
            for s, hand in enumerate(self.hands):
                if not hand:
                    gone |= 1 << s
        return gone

    def _next_seat(self, seat: int, gone: int | None = None) -> int:
        """Next seat clockwise that takes part: an active player, or (teams) a seat whose
        team still has an active member (R19, R30)."""
        n = self.n
        out = self.out_mask if gone is None else gone
        for k in range(1, n + 1):
            t = (seat + k) % n
            if self.rules.teams:
                if self._team_active(t, out):
                    return t
            elif not out >> t & 1:
                return t
        raise AssertionError("nobody left")  # pragma: no cover

    def _defender_for(self, att_seat: int, commit: bool, gone: int | None = None) -> tuple[int, int]:
        def_seat = self._next_seat(att_seat, gone)
        if self.rules.teams:
            person = self._fill(def_seat, gone) if commit else self._next_filler(def_seat, gone)
            return def_seat, person
        return def_seat, def_seat

    def _bout_limit(self, defender: int) -> int:
        """R9: fixed when the bout begins (and again after a transfer, R32)."""
        limit = min(self.rules.attack_limit, len(self.hands[defender]))
        if self.bout == 1:
            limit = min(limit, self.rules.first_bout_limit)
        return limit

    def _eligible(self) -> tuple[int, ...]:
        """R10, R11, R28, R29: who may attack, in priority order."""
        rules, n, attacker, defender = self.rules, self.n, self.attacker, self.defender
        mode = rules.effective_throw_in
        if mode == "main_only":
            return (attacker,)
        others: list[int] = []
        for k in range(1, n):
            s = (self.def_seat + k) % n  # clockwise from the defender's left (R11)
            if s == attacker or s == defender or self.out_mask >> s & 1:
                continue
            if rules.teams and rules.seat_teams[s] == rules.seat_teams[defender]:
                continue  # R28: partners never attack each other
            others.append(s)
        if mode == "neighbours":
            left = self._next_seat(defender)
            right = next(
                (defender - k) % n for k in range(1, n) if not self.out_mask >> ((defender - k) % n) & 1
            )
            others = [s for s in others if s in (left, right)]
        return (attacker, *others)

    def _start_bout(self, att_seat: int, attacker: int) -> None:
        self.bout += 1
        self.att_seat, self.attacker = att_seat, attacker
        self.def_seat, self.defender = self._defender_for(att_seat, commit=True)
        self.leader = attacker
        self.limit = self._bout_limit(self.defender)
        self.eligible = self._eligible()
        self.passed = 0
        self.taking = False
        self.take_idx = 0
        self.to_act = attacker

    # ------------------------------------------------------- legal actions
    def _unbeaten(self) -> int:
        return self.defences.count(None)

    def _throw_ranks(self) -> int:
        """R7, R8, R9: the ranks that may go on the table now (the seat holding the card
        aside), as a mask with bit r for rank r; ANY_RANK for every rank."""
        attacks = self.attacks
        if not attacks:
            return ANY_RANK
        if len(attacks) >= self.limit:
            return 0
        if not self.taking and not any(self.defences):
            # Still the lead (R7): only a multiple lead of one rank.
            return 1 << attacks[0].rank if self.rules.lead_multiple else 0
        ranks = 0
        for c in attacks:
            ranks |= 1 << c.rank
        for d in self.defences:
            if d is not None:
                ranks |= 1 << d.rank
        return ranks

    def _can_throw(self, seat: int, ranks: int | None = None) -> bool:
        """Does `seat` hold a card that may go on the table now? `ranks`: the table's
        `_throw_ranks()`, when the caller has it."""
        if len(self.attacks) >= self.limit:
            return False
        if ranks is None:
            ranks = self._throw_ranks()
        if ranks == ANY_RANK:
            return bool(self.hands[seat])
        for c in self.hands[seat]:
            if ranks >> c.rank & 1:
                return True
        return False

    def _transfer_target(self) -> tuple[int, int] | None:
        """R32: the seat and person who would defend after a transfer, if one is possible."""
        if not self.rules.transfer or self.taking or any(self.defences):
            return None
        # R32, R19: a seat that has just played its last card, talon empty, is passed over.
        def_seat, person = self._defender_for(self.def_seat, commit=False, gone=self._gone())
        if person == self.defender:
            return None
        if len(self.attacks) + 1 > self._bout_limit(person):
            return None
        return def_seat, person

    def _may_exchange(self, seat: int) -> bool:
        """R25-R27."""
        mode = self.rules.trump_exchange
        if self.over or mode == "off":
            return False
        six = self.trump_six
        if six is None:
            return False
        if self.late is not None:  # R27: the late claim before the next lead
            return seat == self.late.six_holder and six in self.hands[seat]
        if not self.talon or seat != self.six_right:
            return False
        face = self.talon[0]
        if face == six or (mode == "six_if_ace" and face.rank != 14):
            return False
        return six in self.hands[seat]

    def legal_actions(self, seat: int) -> list[Action]:
        """Every legal action for `seat` now, in a stable order (empty when none)."""
        if type(seat) is not int or not 0 <= seat < self.n:
            _check_seat_arg("seat", seat, self.n)
        actions: list[Action] = []
        if self.over:
            return actions
        if seat == self.to_act:
            hand = self.hands[seat]
            if seat == self.defender and not self.taking:
                trump = self.trump
                for a, d in zip(self.attacks, self.defences):
                    if d is None:
                        suit, rank, row = a.suit, a.rank, a.index * 52
                        for c in hand:  # R6, as `beats` reads it
                            if c.rank > rank if c.suit == suit else c.suit == trump:
                                actions.append(_DEFEND[row + c.index])
                if self.rules.transfer and self._transfer_target() is not None:
                    rank = self.attacks[0].rank
                    actions.extend([_TRANSFER[c.index] for c in hand if c.rank == rank])
                actions.append(_TAKE)
            else:
                ranks = self._throw_ranks()
                if ranks == ANY_RANK:
                    actions.extend([_ATTACK[c.index] for c in hand])
                elif ranks:
                    actions.extend([_ATTACK[c.index] for c in hand if ranks >> c.rank & 1])
                if self.attacks:
                    actions.append(_PASS)
        # Only the holder of the right, or of a late claim, may exchange (R25-R27).
        if (seat == self.six_right or self.late is not None) and self._may_exchange(seat):
            actions.append(_EXCHANGE)
        return actions

    # --------------------------------------------------------------- apply
    def apply(self, seat: int, action: Action) -> None:
        """Apply `action` for `seat`, or raise IllegalAction leaving the deal unchanged."""
        if type(seat) is not int or not 0 <= seat < self.n:
            _check_seat_arg("seat", seat, self.n)
        kind = type(action)
        if kind not in ACTION_TYPES:
            raise IllegalAction(
                f"{action!r} is not an action: use Attack, Defend, Take, Pass, Transfer or ExchangeTrump.",
                "not_an_action",
            )
        if self.over:
            raise IllegalAction("The deal is over.", "deal_over")
        if kind is ExchangeTrump:
            return self._exchange(seat)
        if seat != self.to_act:
            to_act = self.to_act
            assert to_act is not None  # the deal is not over
            raise IllegalAction(
                f"It is not your turn: {_ordinal(to_act)} is to act.", "not_your_turn",
                seat=to_act,
            )
        # `type(action) is X` where the action's fields are read: mypy narrows by that,
        # not by `kind is X`.
        if seat == self.defender and not self.taking:
            if type(action) is Defend:
                return self._defend_card(seat, action.attack, action.card)
            if kind is Take:
                return self._take(seat)
            if type(action) is Transfer:
                return self._transfer(seat, action.card)
            if kind is Attack:
                raise IllegalAction("You are defending: beat the cards, or take them.", "defender_cannot_attack")
            raise IllegalAction("The defender can't pass: beat the cards or take them.", "defender_cannot_pass")
        if type(action) is Attack:
            return self._attack(seat, action.card)
        if kind is Pass:
            if not self.attacks:
                raise IllegalAction("You lead this bout: play a card first.", "lead_first")
            return self._pass(seat, logged=True)
        if kind is Defend or kind is Transfer:
            raise IllegalAction(
                f"Only the defender ({_ordinal(self.defender)}) may do that.", "only_defender",
                seat=self.defender,
            )
        raise IllegalAction("Only the defender can take the cards.", "only_defender", seat=self.defender)

    def _need_card(self, seat: int, card: Card) -> None:
        if card not in self.hands[seat]:
            raise IllegalAction(f"You don't hold the {card.label}.", "not_in_hand", card=card.code)

    def _attack(self, seat: int, card: Card) -> None:
        self._need_card(seat, card)
        if not self._throw_ranks() >> card.rank & 1:  # R7, R8, R9
            if len(self.attacks) >= self.limit:
                raise IllegalAction(
                    f"No more cards may be played in this bout: the limit is {self.limit}.",
                    "limit_reached", limit=self.limit,
                )
            if not self.taking and not any(self.defences):
                if self.rules.lead_multiple:
                    raise IllegalAction(
                        f"The {card.label} can't join the lead: every card led must have the lead's rank.",
                        "lead_same_rank", card=card.code, lead=self.attacks[0].code,
                    )
                raise IllegalAction("Wait until the defender beats the lead or takes it.", "wait_for_defence")
            raise IllegalAction(
                f"The {card.label} can't be thrown in: no card of its rank is on the table (R8).",
                "rank_not_on_table", card=card.code,
            )
        leading = not self.attacks
        self.hands[seat].remove(card)
        self.known[seat] &= ~(1 << card.index)
        if seat == self.six_right and card is self.trump_six:
            self.six_right = -1  # R26: once played, the right is gone
        self.attacks.append(card)
        self.defences.append(_NO_DEFENCE)
        self.history.append({"type": "attack", "seat": seat, "card": card.code})
        if leading:
            self.late = None  # R27: the late claim lasts until the next lead
        if self.taking:
            if not self._can_throw(seat):
                self.take_idx += 1
                self._next_take_thrower()
        elif not self._can_throw(seat):
            self._pass(seat, logged=False)  # R13: passed over automatically

    def _pass(self, seat: int, logged: bool) -> None:
        if logged:
            self.history.append({"type": "pass", "seat": seat})
        if self.taking:  # R15: nobody is asked twice
            self.take_idx += 1
            self._next_take_thrower()
            return
        self.passed |= 1 << seat
        self._hand_on()

    def _hand_on(self) -> None:
        """R13: after an attacker passes, the initiative goes on."""
        if None in self.defences:
            self.to_act = self.defender
            return
        ranks = self._throw_ranks()
        for s in self.eligible:
            if self.passed >> s & 1:
                continue
            if self._can_throw(s, ranks):
                self.to_act = s
                return
            self.passed |= 1 << s
        self._end_bout(taken=False)

    def _next_take_thrower(self) -> None:
        """R15: after a take, each eligible attacker in priority order may throw in once."""
        eligible = self.eligible
        ranks = self._throw_ranks()
        while self.take_idx < len(eligible):
            s = eligible[self.take_idx]
            if self._can_throw(s, ranks):
                self.to_act = s
                return
            self.take_idx += 1
        self._end_bout(taken=True)

    def _defend_card(self, seat: int, attack: Card, card: Card) -> None:
        try:
            i = self.attacks.index(attack)
        except ValueError:
            raise IllegalAction(
                f"The {attack.label} is not on the table.", "attack_not_on_table", attack=attack.code
            ) from None
        if self.defences[i] is not None:
            raise IllegalAction(
                f"The {attack.label} is already beaten.", "already_beaten", attack=attack.code
            )
        self._need_card(seat, card)
        if not beats(card, attack, self.trump):
            raise IllegalAction(
                why_not_beats(card, attack, self.trump),
                "cannot_beat_trump" if attack.suit == self.trump else "cannot_beat",
                card=card.code, attack=attack.code,
            )
        self.hands[seat].remove(card)
        self.known[seat] &= ~(1 << card.index)
        if seat == self.six_right and card is self.trump_six:
            self.six_right = -1
        self.defences[i] = card
        self.history.append({"type": "defend", "seat": seat, "attack": attack.code, "card": card.code})
        if None in self.defences:
            return  # R14: the defender keeps the initiative
        if len(self.attacks) >= self.limit or not self.hands[seat]:
            self._end_bout(taken=False)  # R16
            return
        self.passed = 0  # R14: passes are forgotten
        self._hand_on()

    def _take(self, seat: int) -> None:
        self.history.append({"type": "take", "seat": seat})
        self.taking = True
        self.take_idx = 0
        self._next_take_thrower()

    def _transfer(self, seat: int, card: Card) -> None:
        if not self.rules.transfer:
            raise IllegalAction("Transfers are not played at this table.", "transfer_off")
        if any(self.defences):
            raise IllegalAction(
                "You can only transfer before any attack card has been beaten (R32).",
                "transfer_after_defence",
            )
        rank = self.attacks[0].rank
        if card.rank != rank:
            raise IllegalAction(
                f"To transfer, add a card of the attack's rank; the {card.label} is not.",
                "transfer_wrong_rank", card=card.code, rank_of=self.attacks[0].code,
            )
        self._need_card(seat, card)
        target = self._transfer_target()
        if target is None:
            nxt = self._defender_for(self.def_seat, commit=False, gone=self._gone())[1]
            count, most = len(self.attacks) + 1, self._bout_limit(nxt)
            raise IllegalAction(
                f"You can't transfer: {_ordinal(nxt)} would have to beat {count} cards "
                f"but may be given at most {most}.",
                "transfer_too_many", seat=nxt, count=count, limit=most,
            )
        self.hands[seat].remove(card)
        self.known[seat] &= ~(1 << card.index)
        if seat == self.six_right and card is self.trump_six:
            self.six_right = -1
        self.attacks.append(card)
        self.defences.append(_NO_DEFENCE)
        self.history.append({"type": "transfer", "seat": seat, "card": card.code})
        # The defender becomes the main attacker; the next player defends (R32).
        self.att_seat, self.attacker = self.def_seat, seat
        if self.rules.teams:
            self.def_seat, self.defender = target[0], self._fill(target[0], self._gone())
        else:
            self.def_seat, self.defender = target
        self.limit = self._bout_limit(self.defender)
        self.eligible = self._eligible()
        self.passed = 0
        self.to_act = self.defender

    def _exchange(self, seat: int) -> None:
        if not self._may_exchange(seat):
            message, code = self._why_no_exchange(seat)
            raise IllegalAction(message, code, card=self.trump_six.code if self.trump_six else None)
        six = self.trump_six
        assert six is not None  # _may_exchange
        hand = self.hands[seat]
        hand.remove(six)
        self.known[seat] &= ~(1 << six.index)  # the 6 leaves this hand, even if it was shown (R5)
        if self.late is not None:  # R27: swap with whoever drew the face-up card
            other = self.late.face_holder
            face = Card.parse(self.late.face)
            self.hands[other].remove(face)
            self.hands[other].append(six)
            self.hands[other].sort(key=_index)
            self.known[other] = (self.known[other] & ~(1 << face.index)) | (1 << six.index)
            self.history.append({"type": "exchange", "seat": seat, "six": six.code, "card": face.code, "with_seat": other})
            self.late = None
        else:  # R25: the 6 takes the face-up card's place and is drawn last
            face = self.talon[0]
            self.talon[0] = six
            self.history.append({"type": "exchange", "seat": seat, "six": six.code, "card": face.code, "with_seat": None})
        hand.append(face)
        hand.sort(key=_index)
        self.known[seat] |= 1 << face.index
        self.six_right = -1

    def _why_no_exchange(self, seat: int) -> tuple[str, str]:
        """The refusal's message and code (R25-R27)."""
        if self.over:
            return "The deal is over.", "deal_over"
        if self.rules.trump_exchange == "off":
            return "The trump exchange is not played at this table.", "exchange_off"
        six = self.trump_six
        if six is None:
            return "The 24-card pack has no 6, so there is no trump exchange (R25).", "exchange_no_six"
        if six not in self.hands[seat]:
            return f"Only the holder of the {six.label} may exchange it for the trump card.", "exchange_not_holder"
        if self.late is None and not self.talon:
            return "The trump card is no longer in the talon (R25).", "exchange_talon_empty"
        if self.talon and self.talon[0] == six:
            return f"The face-up trump card is the {six.label} itself.", "exchange_six_face_up"
        if self.rules.trump_exchange == "six_if_ace" and self.talon and self.talon[0].rank != 14:
            return "At this table the 6 may be exchanged only for the trump ace.", "exchange_ace_only"
        return (f"You have no right to exchange the {six.label}: a 6 picked up in a take gives none (R26).",
                "exchange_no_right")

    # ----------------------------------------------------------- end of bout
    def _end_bout(self, taken: bool) -> None:
        table = self.attacks + [c for c in self.defences if c is not None]
        defender = self.defender
        if taken:  # R15: the defender picks up every card on the table
            hand = self.hands[defender]
            hand.extend(table)
            hand.sort(key=_index)
            for c in table:
                self.known[defender] |= 1 << c.index
            self.history.append({"type": "pick_up", "seat": defender, "cards": [c.code for c in table]})
        else:  # R16
            self.discard.extend(table)
            self.history.append({"type": "discard", "cards": [c.code for c in table]})
        self.attacks, self.defences = [], []
        self.taking = False
        self._draw_up()
        self._settle(taken)

    def _draw_up(self) -> None:
        """R17: the leader first, then clockwise, the defender last."""
        if not self.talon:
            return
        n, defender, size = self.n, self.defender, self.rules.hand_size
        order = [(self.leader + k) % n for k in range(n)]
        order.remove(defender)
        order.append(defender)
        talon, six, face = self.talon, self.trump_six, self.talon[0]
        six_drawer: int | None = None
        face_holder: int | None = None
        for s in order:
            hand = self.hands[s]
            drawn = min(size - len(hand), len(talon))
            if drawn <= 0:
                continue
            cards = talon[-drawn:]  # drawn from the end: cards[0] comes last
            del talon[-drawn:]
            hand.extend(cards)
            if six in cards:
                self.six_right = s  # R26: drew it from the talon
                if six is not face:
                    six_drawer = s
            if not talon:  # the face-up trump card is public: its taker is known
                self.known[s] |= 1 << face.index
                face_holder = s
            hand.sort(key=_index)
            self.history.append({"type": "draw", "seat": s, "count": drawn})
        if face_holder is not None and six_drawer is not None and six_drawer != face_holder:
            # R27: the 6 came in the draw that emptied the talon; a late claim stays open.
            mode = self.rules.trump_exchange
            if mode == "six" or (mode == "six_if_ace" and face.rank == 14):
                self.late = LateClaim(six_drawer, face_holder, face.code)

    def _settle(self, taken: bool) -> None:
        """R19-R22, R18: who is out, whether the deal is over, who attacks next."""
        if not self.talon:
            for s in range(self.n):
                if not self.hands[s] and not self.out_mask >> s & 1:
                    self.out_mask |= 1 << s
                    self.history.append({"type": "out", "seat": s})
        holders = [s for s in range(self.n) if not self.out_mask >> s & 1]
        rules = self.rules
        seat_teams = rules.seat_teams
        teams_left = {seat_teams[s] for s in holders}
        if len(teams_left) <= 1:
            self.over = True
            self.to_act = None
            self.late = None
            if not holders:
                self.draw = True  # R22
                self.history.append({"type": "draw_game"})
            else:  # R21, R31
                self.losing_team = teams_left.pop()
                if not rules.teams:
                    self.loser = holders[0]
                self.history.append({"type": "durak", "seat": self.loser, "team": self.losing_team})
            return
        if rules.teams:
            if not taken and not self.out_mask >> self.defender & 1:
                self._start_bout(self.def_seat, self.defender)  # R18
                return
            if not taken and self._team_active(self.def_seat):
                seat = self.def_seat  # R30: a teammate stands in
            else:
                seat = self._next_seat(self.def_seat)
            self._start_bout(seat, self._fill(seat))
            return
        if not taken and not self.out_mask >> self.defender & 1:
            nxt = self.defender  # R18
        else:
            nxt = self._next_seat(self.defender)  # R18 skip after a take, R19 skip the out
        self._start_bout(nxt, nxt)

    # ------------------------------------------------------------- copying
    def copy(self) -> Deal:
        """A fast independent copy (for search)."""
        new = object.__new__(Deal)
        new.rules, new.n = self.rules, self.n
        new.hands = [h[:] for h in self.hands]
        new.talon = self.talon[:]
        new.trump = self.trump
        new.discard = self.discard[:]
        new.attacks = self.attacks[:]
        new.defences = self.defences[:]
        new.attacker, new.defender = self.attacker, self.defender
        new.att_seat, new.def_seat = self.att_seat, self.def_seat
        new.leader, new.limit, new.eligible = self.leader, self.limit, self.eligible
        new.passed, new.taking, new.take_idx = self.passed, self.taking, self.take_idx
        new.to_act, new.bout, new.out_mask = self.to_act, self.bout, self.out_mask
        new.over, new.loser, new.losing_team, new.draw = self.over, self.loser, self.losing_team, self.draw
        new.six_right, new.late = self.six_right, self.late
        new.known = self.known[:]
        new.history = self.history[:]
        new.last_filler = self.last_filler[:] if self.last_filler is not None else None
        new.dealer, new.shown = self.dealer, self.shown
        return new

    __copy__ = copy

    def __deepcopy__(self, memo: dict[int, object]) -> Deal:
        return self.copy()

    # ------------------------------------------------------------- json
    def _state(self) -> dict[str, Any]:
        codes = _codes
        return {
            "rules": self.rules.to_dict(),
            "hands": [codes(h) for h in self.hands],
            "talon": codes(self.talon),
            "trump": self.trump,
            "discard": codes(self.discard),
            "attacks": codes(self.attacks),
            "defences": [c.code if c else None for c in self.defences],
            "attacker": self.attacker, "defender": self.defender,
            "att_seat": self.att_seat, "def_seat": self.def_seat,
            "leader": self.leader, "limit": self.limit, "eligible": list(self.eligible),
            "passed": self.passed, "taking": self.taking, "take_idx": self.take_idx,
            "to_act": self.to_act, "bout": self.bout, "out": self.out_mask,
            "over": self.over, "loser": self.loser, "losing_team": self.losing_team,
            "draw": self.draw, "six_right": self.six_right,
            "late": list(self.late) if self.late else None,
            "known": self.known, "history": self.history,
            "last_filler": self.last_filler, "dealer": self.dealer, "shown": self.shown,
        }

    def to_json(self) -> str:
        return json.dumps(self._state(), separators=(",", ":"))

    @classmethod
    def from_json(cls, s: str) -> Deal:
        try:
            d = json.loads(s)
            cards = _cards
            self = object.__new__(cls)
            self.rules = Rules.from_dict(d["rules"])
            self.n = self.rules.players
            self.hands = [cards(h) for h in d["hands"]]
            self.talon = cards(d["talon"])
            self.trump = d["trump"]
            self.discard = cards(d["discard"])
            self.attacks = cards(d["attacks"])
            self.defences = [Card.parse(c) if c else None for c in d["defences"]]
            self.attacker, self.defender = d["attacker"], d["defender"]
            self.att_seat, self.def_seat = d["att_seat"], d["def_seat"]
            self.leader, self.limit = d["leader"], d["limit"]
            self.eligible = tuple(d["eligible"])
            self.passed, self.taking, self.take_idx = d["passed"], d["taking"], d["take_idx"]
            self.to_act, self.bout, self.out_mask = d["to_act"], d["bout"], d["out"]
            self.over, self.loser = d["over"], d["loser"]
            self.losing_team, self.draw = d["losing_team"], d["draw"]
            self.six_right = d["six_right"]
            self.late = LateClaim(*d["late"]) if d["late"] else None
            self.known = list(d["known"])
            self.history = d["history"]
            self.last_filler = d["last_filler"]
            self.dealer, self.shown = d["dealer"], d["shown"]
        except (KeyError, TypeError, AttributeError, json.JSONDecodeError) as exc:
            raise ValueError(f"Not a saved deal: {exc}") from None
        if len(self.hands) != self.n:
            raise ValueError("Not a saved deal: wrong number of hands.")
        return self

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deal) and self._state() == other._state()

    __hash__ = None  # type: ignore[assignment]  # mutable, so unhashable

    def __repr__(self) -> str:
        status = "over" if self.over else f"bout {self.bout}, seat {self.to_act} to act"
        return f"<Deal {self.rules.players} players, trump {self.trump}, {status}>"

    # ----------------------------------------------------- information state
    def view(self, seat: int | None) -> View:
        """Exactly what `seat` may know (None: a spectator), JSON-safe (`infostate.View`)."""
        if seat is not None:
            _check_seat_arg("seat", seat, self.n)
        return infostate.view(self, seat)

    @classmethod
    def sample(cls, view: View, rng: random.Random) -> Deal:
        """A complete deal consistent with `view`: the viewer's hand, every publicly known
        card with its holder, every hand's size, the face-up trump; the unknown cards
        spread uniformly over the places where they may be. It continues like any deal."""
        return infostate.sample(cls, view, rng)

    def key(self) -> Hashable:
        """Equal for two deals exactly when they continue identically (for search)."""
        return (
            self.rules, tuple([cards_mask(h) for h in self.hands]),
            tuple([c.index for c in self.talon]), self.trump,
            tuple([c.index for c in self.attacks]),
            tuple([-1 if c is None else c.index for c in self.defences]),
            self.to_act, self.attacker, self.defender, self.att_seat, self.def_seat,
            self.leader, self.limit, self.eligible, self.passed, self.taking, self.take_idx,
            self.bout == 1, self.out_mask, self.over, self.loser, self.losing_team, self.draw,
            self.six_right, self.late,
            None if self.last_filler is None else tuple(infostate.next_fillers(self) or ()),
        )

    @property
    def exchanger(self) -> int | None:
        """The seat that may exchange the trump 6 now (R25-R27), if any; the seat holding
        the initiative may too, among its legal actions."""
        late = self.late
        if late is not None:
            return late.six_holder if self._may_exchange(late.six_holder) else None
        holder = self.six_right
        if holder >= 0 and self.talon and self._may_exchange(holder):
            return holder
        return None


def _codes(cards: Iterable[Card]) -> list[str]:
    return [c.code for c in cards]


def _cards(codes: Iterable[Card | str]) -> list[Card]:
    return [Card.parse(c) for c in codes]


def _check_seat_arg(name: str, seat: object, n: int) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise ValueError(f"{name} must be a seat number 0..{n - 1}, not {seat!r}.")


def _parse_deck(deck: Iterable[Card | str], pack: list[Card]) -> list[Card]:
    if isinstance(deck, (str, bytes)) or not hasattr(deck, "__iter__"):
        raise ValueError("deck must be a list of card codes, top first.")
    cards = [Card.parse(c) for c in deck]
    if len(cards) != len(pack) or set(cards) != set(pack):
        missing = sorted(set(pack) - set(cards))
        extra = [c.code for c in cards if c not in pack]
        raise ValueError(
            f"deck must hold each of the {len(pack)} cards of the pack exactly once"
            + (f"; missing {', '.join(c.code for c in missing)}" if missing else "")
            + (f"; not in this pack: {', '.join(extra)}" if extra else "")
            + ("; some card appears twice" if not missing and not extra else "")
            + "."
        )
    return cards
