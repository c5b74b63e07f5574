"""Stacked packs and a tiny move language for rule tests (docs/rules.md).

`make_deck` lays out a full pack so that every hand is known: the cards of the deal go
one at a time clockwise from the dealer's left (R3: card i goes to seat
(dealer + 1 + i) mod n), then the face-up trump card, then the talon in draw order;
cards nobody asked for fill the gaps, in the pack's order (spades, hearts, diamonds,
clubs; low to high) unless `fill` gives another order.

`play(deal, "0 a 6S", "1 d 6S 7S", "1 take", "0 pass", "1 t 6H", "2 x")` applies moves and
checks, for every move but the exchange, that the seat named holds the initiative.
"""

from __future__ import annotations

from games.engine import (
    Attack,
    Card,
    Deal,
    Defend,
    ExchangeTrump,
    IllegalAction,
    Pass,
    Rules,
    Take,
    Transfer,
)
from games.engine.cards import full_deck

# Two players, 24 cards (no 6, so no exchange): the first bout (6 attack cards, all beaten)
# empties the talon; after the second the leader holds the Q♥ and the other the A♥.
DRAW24_HANDS = ("9S 9D 9C TS TD TC", "TH JD JC QS QD QC")  # (leader, other)
DRAW24_TALON = "KS AD AC KH 9H QH JS KD KC JH AS"  # face-up card: A♥


def _codes(cards) -> list[str]:
    if cards is None:
        return []
    if isinstance(cards, str):
        cards = cards.split()
    return [Card.parse(c).code for c in cards]


def make_deck(rules: Rules, dealer: int = 0, hands=None, trump_card=None, talon=(),
              fill=None) -> list[str]:
    """The whole pack, top first, that deals `hands` (seat -> cards, as a string "6S 7S"
    or a list; fewer than hand_size cards are topped up from the rest of the pack).

    With a talon, `trump_card` is the face-up card and `talon` lists the first cards
    drawn, in draw order. Without a talon (R4: the hands use the whole pack) `trump_card`
    is the dealer's last card: it must be in (or is added to) the dealer's hand and is
    dealt last.
    """
    n, size = rules.players, rules.hand_size
    pack = [c.code for c in full_deck(rules.deck_size)]
    hands = {seat: _codes(cards) for seat, cards in (hands or {}).items()}
    talon = _codes(talon)
    trump_card = Card.parse(trump_card).code if trump_card else None
    no_talon = n * size == len(pack)
    for seat in hands:
        if not 0 <= seat < n:
            raise ValueError(f"no seat {seat} with {n} players")
    if no_talon and talon:
        raise ValueError("R4: this deal has no talon")
    if no_talon and trump_card:
        dealer_hand = hands.setdefault(dealer, [])
        if trump_card in dealer_hand:
            dealer_hand.remove(trump_card)
        if len(dealer_hand) >= size:
            raise ValueError("the dealer's hand has no room for the trump card")
    named = [c for h in hands.values() for c in h] + talon + ([trump_card] if trump_card else [])
    if len(named) != len(set(named)):
        raise ValueError(f"a card is named twice: {sorted(c for c in named if named.count(c) > 1)}")
    unknown = [c for c in named if c not in pack]
    if unknown:
        raise ValueError(f"not in a {rules.deck_size}-card pack: {unknown}")
    order = _codes(fill) + pack if fill is not None else pack
    spare = []
    for c in order:
        if c not in named and c not in spare:
            spare.append(c)
    spare.reverse()  # pop() takes from the front of `order`

    full_hands = {}
    for seat in range(n):
        hand = list(hands.get(seat, []))
        room = size - (1 if no_talon and trump_card and seat == dealer else 0)
        if len(hand) > room:
            raise ValueError(f"seat {seat} is given {len(hand)} cards, more than {room}")
        while len(hand) < room:
            hand.append(spare.pop())
        if no_talon and trump_card and seat == dealer:
            hand.append(trump_card)
        full_hands[seat] = hand

    deck = []
    for i in range(n * size):  # R3
        seat = (dealer + 1 + i) % n
        deck.append(full_hands[seat][i // n])
    if not no_talon:
        deck.append(trump_card if trump_card else spare.pop())
        deck.extend(talon)
        while spare:
            deck.append(spare.pop())
    assert sorted(deck) == sorted(pack), "every card exactly once"
    return deck


def deal_from(rules: Rules, *, dealer: int = 0, opener=None, hands=None, trump_card=None,
              talon=(), fill=None) -> Deal:
    """`Deal.start` on a pack stacked by `make_deck`."""
    deck = make_deck(rules, dealer, hands=hands, trump_card=trump_card, talon=talon, fill=fill)
    return Deal.start(rules, deck=deck, dealer=dealer, opener=opener)


def parse_move(text: str):
    """'0 a 6S' -> (0, Attack('6S')); kinds: a(ttack) d(efend) ATTACK CARD, t(ransfer),
    take, pass, x (exchange)."""
    parts = text.split()
    seat, kind, args = int(parts[0]), parts[1].lower(), parts[2:]
    if kind in ("a", "attack"):
        return seat, Attack(*args)
    if kind in ("d", "defend"):
        return seat, Defend(*args)
    if kind in ("t", "transfer"):
        return seat, Transfer(*args)
    if kind == "take":
        return seat, Take()
    if kind == "pass":
        return seat, Pass()
    if kind in ("x", "exchange"):
        return seat, ExchangeTrump()
    raise ValueError(f"unknown move {text!r}")


def play(deal: Deal, *moves: str) -> Deal:
    """Apply moves in order; every move except an exchange must be made by `deal.to_act`."""
    for text in moves:
        seat, action = parse_move(text)
        if not isinstance(action, ExchangeTrump):
            assert deal.to_act == seat, (
                f"before {text!r}: seat {deal.to_act} holds the initiative, not seat {seat}; "
                f"table {[(str(a), str(d) if d else None) for a, d in deal.table]}"
            )
        deal.apply(seat, action)
    return deal


def refused(deal: Deal, seat, action) -> str:
    """Apply an action that must be refused; check nothing changed; return the message."""
    before = deal.to_json()
    try:
        deal.apply(seat, action)
    except IllegalAction as exc:
        message = str(exc)
    else:
        raise AssertionError(f"{action!r} by seat {seat} was accepted")
    assert deal.to_json() == before, "a refused action changed the deal"
    return message


def pass_round(deal: Deal) -> Deal:
    """Attackers holding the initiative pass until the defender acts or the bout ends
    (nothing to do if the bout has not started: its table is empty)."""
    bout = deal.bout
    while (not deal.is_over and deal.bout == bout and deal.table
           and deal.to_act != deal.defender):
        assert Pass() in deal.legal_actions(deal.to_act)
        deal.apply(deal.to_act, Pass())
    return deal


def hand(deal: Deal, seat: int) -> str:
    """A seat's hand as a sorted string of codes, e.g. '6S 7S AH'."""
    return " ".join(sorted(c.code for c in deal.hand(seat)))


def cards(text: str) -> str:
    """Normalise a string of codes to the sorted form `hand` returns."""
    return " ".join(sorted(_codes(text)))


def history(deal: Deal, *types: str) -> list[dict]:
    """Public history events, optionally only those of the given types."""
    events = deal.view(None)["history"]
    return [e for e in events if not types or e["type"] in types]


def accounted_for(deal: Deal) -> bool:
    """Every card of the pack is in exactly one place."""
    pack = full_deck(deal.rules.deck_size)
    where = [c for s in range(deal.rules.players) for c in deal.hand(s)]
    where += list(deal.talon) + list(deal.discard)
    where += [c for pair in deal.table for c in pair if c is not None]
    return len(where) == len(pack) and set(where) == set(pack)


def finish_randomly(deal: Deal, rng) -> Deal:
    """Play random legal actions (for the seat holding the initiative) until the deal ends."""
    steps = 0
    while not deal.is_over:
        steps += 1
        assert steps < 5000, "the deal does not end"
        deal.apply(deal.to_act, rng.choice(deal.legal_actions(deal.to_act)))
    return deal


def install_deal(match, **kwargs) -> Deal:
    """Replace a match's fresh, unplayed deal with one from a stacked pack, dealt by the
    same dealer (the match shuffles its own packs; tests need to know the hands)."""
    assert not history(match.deal, "attack"), "the current deal has started"
    match.deal = deal_from(match.rules, dealer=match.dealer, **kwargs)
    return match.deal


def draw24_moves(a: int = 0) -> tuple[str, ...]:
    """The first two bouts of the DRAW24 deal, seat `a` leading: afterwards the talon is
    empty, seat `a` holds only the Q♥ and attacks the other seat, who holds only the A♥."""
    b = 1 - a
    return (f"{a} a 9S", f"{b} d 9S TH", f"{a} a 9D", f"{a} a 9C", f"{a} a TS", f"{a} a TD",
            f"{a} a TC", f"{b} d 9D JD", f"{b} d 9C JC", f"{b} d TS QS", f"{b} d TD QD",
            f"{b} d TC QC",
            f"{b} a JS", f"{a} d JS KS", f"{b} a KD", f"{b} a KC", f"{b} pass",
            f"{a} d KD AD", f"{a} d KC AC", f"{b} a JH", f"{b} a AS", f"{b} pass",
            f"{a} d JH KH", f"{a} d AS 9H", f"{b} pass")


def draw24_hands(a: int = 0) -> dict:
    return {a: DRAW24_HANDS[0], 1 - a: DRAW24_HANDS[1]}


def draw24(a: int = 0) -> Deal:
    """Two players, 24 cards, after the first two bouts (see `draw24_moves`)."""
    deal = deal_from(Rules(players=2, deck_size=24), dealer=1 - a, opener=a,
                     hands=draw24_hands(a), trump_card="AH", talon=DRAW24_TALON)
    play(deal, *draw24_moves(a))
    assert hand(deal, a) == "QH" and hand(deal, 1 - a) == "AH" and deal.talon_size == 0
    assert (deal.attacker, deal.defender) == (a, 1 - a)
    return deal


def draw_game_deal() -> Deal:
    """A finished deal: drawn (R22), nobody holds a card."""
    deal = draw24()
    play(deal, "0 a QH", "1 d QH AH")
    assert deal.is_draw
    return deal


def endgame(rules: Rules, hands: dict, *, trump: str, attacker: int, out=()) -> Deal:
    """A late position: the talon drawn, `hands` (seat -> cards) held, seats in `out` out
    (R19), every other card discarded; `attacker`'s seat leads a new bout (team play: filled
    by its first active member, R30)."""
    deal = Deal.start(rules, seed=0)
    held = {seat: _codes(cards) for seat, cards in hands.items()}
    deal.hands = [[Card.parse(c) for c in sorted(held.get(s, []), key=lambda c: Card.parse(c).index)]
                  for s in range(rules.players)]
    in_hands = {c for cs in held.values() for c in cs}
    deal.trump, deal.talon = trump, []
    deal.discard = [c for c in full_deck(rules.deck_size) if c.code not in in_hands]
    deal.out_mask = sum(1 << s for s in out)
    deal.known, deal.history, deal.six_right, deal.late = [0] * rules.players, [], -1, None
    deal.bout = 9
    if rules.teams:
        deal.last_filler = [None] * rules.team_count
        deal._start_bout(attacker, deal._fill(attacker))
    else:
        deal._start_bout(attacker, attacker)
    assert accounted_for(deal)
    return deal
