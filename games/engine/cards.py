"""Cards, decks and the beating rule (R1, R6)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import ClassVar, NoReturn, overload

RANKS = "23456789TJQKA"
SUITS = "SHDC"
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
SUIT_NAMES = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}
RANK_NAMES = {10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}
LOWEST_RANK = {24: 9, 36: 6, 52: 2}  # R1


class Card:
    """An immutable playing card; one shared instance per card.

    >>> Card.parse("TH").rank, Card.parse("TH").suit, str(Card.parse("th"))
    (10, 'H', 'TH')
    """

    __slots__ = ("rank", "suit", "code", "index")
    rank: int  # 2..14, J=11 Q=12 K=13 A=14
    suit: str  # "S" "H" "D" "C"
    code: str  # e.g. "TH"
    index: int  # suit * 13 + rank - 2: the display order, and the card's bit in a mask
    _by_code: ClassVar[dict[str, Card]] = {}

    @overload
    def __new__(cls, code: Card | str) -> Card: ...
    @overload
    def __new__(cls, code: int, suit: str) -> Card: ...
    def __new__(cls, code: Card | str | int, suit: str | None = None) -> Card:
        if suit is None:
            if isinstance(code, int):  # a rank without a suit: parse's refusal
                raise ValueError(f"A card is given by a code such as 'TH', not {code!r}.")
            return cls.parse(code)
        if isinstance(code, int) and not isinstance(code, bool) and 2 <= code <= 14:
            return cls.parse(RANKS[code - 2] + str(suit))
        raise ValueError(f"Unknown card rank {code!r}: use 2..14 (J=11, Q=12, K=13, A=14).")

    @classmethod
    def parse(cls, code: str | Card) -> Card:
        if isinstance(code, Card):
            return code
        if not isinstance(code, str):
            raise ValueError(f"A card is given by a code such as 'TH', not {code!r}.")
        card = cls._by_code.get(code)  # a code as the engine writes it ("TH"): at once
        if card is None:
            card = cls._by_code.get(code.strip().upper().replace("10", "T"))
        if card is None:
            raise ValueError(
                f"Unknown card code {code!r}: use a rank of {RANKS} and a suit of {SUITS}, e.g. 'TH'."
            )
        return card

    @classmethod
    def _make(cls, rank: int, suit: str) -> Card:
        card = object.__new__(cls)
        code = RANKS[rank - 2] + suit
        for name, value in (("rank", rank), ("suit", suit), ("code", code),
                            ("index", SUITS.index(suit) * 13 + rank - 2)):
            object.__setattr__(card, name, value)
        cls._by_code[code] = card
        return card

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[Callable[[str], Card], tuple[str]]:
        return (Card.parse, (self.code,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card('{self.code}')"

    def __hash__(self) -> int:
        return self.index

    # Equality is identity (object's own __eq__, fast in list and dict look-ups): there is
    # exactly one instance per card, whether parsed, copied or unpickled.

    # Display order is (suit, rank); index encodes exactly that.
    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        return self.index >= other.index

    @property
    def bit(self) -> int:
        return 1 << self.index

    @property
    def label(self) -> str:
        """Human text such as '10♥'."""
        return RANK_NAMES.get(self.rank, str(self.rank)) + SUIT_SYMBOLS[self.suit]


for _suit in SUITS:
    for _rank in range(2, 15):
        Card._make(_rank, _suit)

ALL_CARDS: tuple[Card, ...] = tuple(sorted(Card._by_code.values(), key=lambda c: c.index))


def full_deck(deck_size: int) -> list[Card]:
    """The pack of R1 in display order."""
    low = LOWEST_RANK[deck_size]
    return [c for c in ALL_CARDS if c.rank >= low]


def beats(defence: Card, attack: Card, trump: str) -> bool:
    """R6: a higher card of the attacked suit, or any trump on a non-trump."""
    if defence.suit == attack.suit:
        return defence.rank > attack.rank
    return defence.suit == trump


def why_not_beats(defence: Card, attack: Card, trump: str) -> str:
    """The player-facing reason R6 refuses a defence."""
    head = f"The {defence.label} can't beat the {attack.label}"
    if attack.suit == trump:
        return f"{head}: a trump is beaten only by a higher trump."
    return f"{head}: it is neither a higher {SUIT_NAMES[attack.suit]} nor a trump."


def cards_mask(cards: Iterable[Card]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c.index
    return mask


def mask_cards(mask: int) -> list[Card]:
    cards: list[Card] = []
    while mask:
        low = mask & -mask
        cards.append(ALL_CARDS[low.bit_length() - 1])
        mask ^= low
    return cards
