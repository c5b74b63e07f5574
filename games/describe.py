"""Words for the table: card names, the deal's log (view["history"]), time limits.

Everything here is translated; a card's label (e.g. "10♥") stays as the engine writes it.
"""

from __future__ import annotations

from datetime import timedelta

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from .engine import Card
from .engine.cards import SUIT_SYMBOLS

RANK_WORDS = {
    11: lambda: _("jack"), 12: lambda: _("queen"), 13: lambda: _("king"), 14: lambda: _("ace"),
}
SUIT_PLURALS = {
    "S": lambda: _("spades"), "H": lambda: _("hearts"),
    "D": lambda: _("diamonds"), "C": lambda: _("clubs"),
}


# The letters printed on a card's corner, as in the player's language's packs: В Д К Т.
RANK_LETTERS = {
    11: lambda: pgettext("the letter on a jack", "J"), 12: lambda: pgettext("the letter on a queen", "Q"),
    13: lambda: pgettext("the letter on a king", "K"), 14: lambda: pgettext("the letter on an ace", "A"),
}


def rank_letter(rank: int) -> str:
    return RANK_LETTERS[rank]() if rank in RANK_LETTERS else str(rank)


def label(code: str) -> str:
    """The short label drawn on a card: '10♥', 'Q♠' (Russian 'Д♠')."""
    card = Card.parse(code)
    return rank_letter(card.rank) + SUIT_SYMBOLS[card.suit]


def spoken(code: str) -> str:
    """The card's name for screen readers: '10 of hearts', 'queen of spades'."""
    card = Card.parse(code)
    rank = RANK_WORDS[card.rank]() if card.rank in RANK_WORDS else str(card.rank)
    return _("%(rank)s of %(suit)s") % {"rank": rank, "suit": SUIT_PLURALS[card.suit]()}


def before_period(name: object) -> str:
    """The name without its own final period, for a sentence that ends right after it:
    "Waiting for Aino K." and not "Aino K.."."""
    text = str(name)
    return text[:-1] if text.endswith(".") else text


def suit_name(suit: str) -> str:
    return SUIT_PLURALS[suit]()


def _cards(codes) -> str:
    return ", ".join(label(c) for c in codes)


def event(e: dict, name) -> str | None:
    """One history event in words; `name(seat)` gives a seat's display name."""
    kind = e.get("type")
    who = name(e["seat"]) if e.get("seat") is not None else ""
    card = label(e["card"]) if e.get("card") else ""
    match kind:
        case "trump_card":
            return _("The trump card is %(card)s.") % {"card": card}
        case "trump_shown":
            return _("%(who)s shows the last card dealt, %(card)s: it decides trump.") % {
                "who": who, "card": card}
        case "lowest_trump":
            return _("%(who)s holds the lowest trump, %(card)s, and starts.") % {
                "who": who, "card": card}
        case "attack":
            return _("%(who)s attacks with %(card)s.") % {"who": who, "card": card}
        case "defend":
            return _("%(who)s beats %(attack)s with %(card)s.") % {
                "who": who, "attack": label(e["attack"]), "card": card}
        case "transfer":
            return _("%(who)s transfers with %(card)s.") % {"who": who, "card": card}
        case "take":
            return _("%(who)s takes.") % {"who": who}
        case "pass":
            return _("%(who)s passes.") % {"who": who}
        case "pick_up":
            count = len(e.get("cards", ()))
            return ngettext(
                "%(who)s picks up %(count)s card: %(cards)s.",
                "%(who)s picks up %(count)s cards: %(cards)s.", count,
            ) % {"who": who, "count": count, "cards": _cards(e["cards"])}
        case "discard":
            count = len(e.get("cards", ()))
            return ngettext(
                "Beaten off: %(count)s card goes to the discard pile.",
                "Beaten off: %(count)s cards go to the discard pile.", count,
            ) % {"count": count}
        case "draw":
            count = e.get("count", 0)
            return ngettext("%(who)s draws %(count)s card.", "%(who)s draws %(count)s cards.",
                            count) % {"who": who, "count": count}
        case "exchange":
            return _("%(who)s exchanges %(six)s for %(card)s.") % {
                "who": who, "six": label(e["six"]), "card": card}
        case "out":
            return _("%(who)s has no cards left and is out.") % {"who": who}
        case "durak":
            if e.get("seat") is not None:
                return _("%(who)s is the durak!") % {"who": who}
            return _("Team %(team)s loses the deal.") % {"team": team_name(e.get("team"))}
        case "draw_game":
            return _("Nobody holds cards: the deal is drawn.")
    return None


def site_move(e: dict, who: str | None) -> str:
    """A move the site made for a player whose time ran out (docs/rules.md section 10), said
    of `who` (their name; None: to the player themself)."""
    kind = e.get("type")
    if kind == "attack" and e.get("card"):
        card = label(e["card"])
        if who is None:
            return _("The site played %(card)s for you (time ran out).") % {"card": card}
        return _("The site played %(card)s for %(who)s (time ran out).") % {
            "card": card, "who": who}
    if kind == "take":
        if who is None:
            return _("The site took the cards for you (time ran out).")
        return _("The site took the cards for %(who)s (time ran out).") % {"who": who}
    if kind == "pass":
        if who is None:
            return _("The site passed for you (time ran out).")
        return _("The site passed for %(who)s (time ran out).") % {"who": who}
    if who is None:
        return _("The site moved for you (time ran out).")
    return _("The site moved for %(who)s (time ran out).") % {"who": who}


def history(events, name) -> list[str]:
    """The deal's log in words, oldest first."""
    lines = (event(e, name) for e in events)
    return [line for line in lines if line]


def team_name(team) -> str:
    """Teams are lettered A, B, C for people."""
    if team is None:
        return ""
    return "ABC"[team] if 0 <= team < 3 else str(team + 1)


def duration(td: timedelta) -> str:
    """A move time limit in words: '5 minutes', '1 day', '2 hours 30 minutes'."""
    total = int(td.total_seconds()) // 60
    days, rest = divmod(total, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = []
    if days:
        parts.append(ngettext("%(n)s day", "%(n)s days", days) % {"n": days})
    if hours:
        parts.append(ngettext("%(n)s hour", "%(n)s hours", hours) % {"n": hours})
    if minutes or not parts:
        parts.append(ngettext("%(n)s minute", "%(n)s minutes", minutes) % {"n": minutes})
    return " ".join(parts)
