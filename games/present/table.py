"""What a table page shows to one person, built only from deal.view(seat).

A seated player gets `deal.view(their seat)` (in team play only their own hand) and their
own legal actions as tokens, anyone else `deal.view(None)`, which holds no hand at all.
Nothing else about the deal reaches the template.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from django.utils import timezone
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from .. import describe
from ..engine import (
    Action,
    Attack,
    Card,
    Defend,
    ExchangeTrump,
    Match,
    Pass,
    Rules,
    Take,
    Transfer,
    View,
)
from ..engine.cards import SUIT_SYMBOLS
from ..models import Game, Seat, TournamentRound
from ..services.words import deadline_words
from .cache import Kept
from .clocks import seat_clock
from .orders import marked

type Namer = Callable[[int | None], str]  # a seat's display name


def _group_legal(legal: list[Action]) -> dict[str, Any]:
    """The seat's legal actions by kind: card code -> token for cards, flags for the rest."""
    moves: dict[str, Any] = {"attack": {}, "transfer": {}, "defend": {}, "pass": False,
                             "take": False, "exchange": False}
    for action in legal:
        if isinstance(action, Attack):
            moves["attack"][action.card.code] = action.token()
        elif isinstance(action, Transfer):
            moves["transfer"][action.card.code] = action.token()
        elif isinstance(action, Defend):
            moves["defend"].setdefault(action.attack.code, []).append(
                {"card": action.card.code, "token": action.token()})
        elif isinstance(action, Take):
            moves["take"] = True
        elif isinstance(action, Pass):
            moves["pass"] = True
        elif isinstance(action, ExchangeTrump):
            moves["exchange"] = True
    return moves


def _together(view: View, rules: Rules, moves: dict[str, Any]) -> dict[str, Any]:
    """Which hand cards may go together in this move, for static/js/table.js to offer
    (the engine still judges the move): at most `max` cards; `same_rank`: all of one rank;
    `ranks`: when not empty, each card's rank must be among these or the chosen cards'."""
    attacks = len(view["table"])
    if moves["attack"]:
        if not attacks:  # R7: the lead is one card, or several of one rank
            return {"max": view["limit"] if rules.lead_multiple else 1,
                    "same_rank": rules.lead_multiple, "ranks": ""}
        # R8: ranks already on the table; R9: the limit less the attack cards there
        ranks = {card[0] for pair in view["table"] for card in pair if card}
        return {"max": max(view["limit"] - attacks, 0), "same_rank": False,
                "ranks": " ".join(sorted(ranks))}
    # R32: a transfer is one card; the next defender answers it
    return {"max": 1 if moves["transfer"] else 0, "same_rank": False, "ranks": ""}


SUIT_ORDER = "SHCD"  # black and red take turns along the hand


def sort_hand(codes: list[str], trump: str) -> list[str]:
    """The hand as a player holds it: by suit, low to high, trumps last."""
    def key(code: str) -> tuple[bool, int, int]:
        card = Card.parse(code)
        return (card.suit == trump, SUIT_ORDER.index(card.suit), card.rank)
    return sorted(codes, key=key)


ACTIONS = {"attack", "defend", "transfer", "take", "pass", "exchange"}


MAX_LOGS = 1024  # deals whose log lines are kept (least recently used out)
_logs: Kept[Hashable, tuple[list[dict[str, Any]], list[str | None]]] = Kept(
    MAX_LOGS, name="present.table.logs")


def event_lines(key: Hashable, history: list[dict[str, Any]], name: Namer) -> list[str | None]:
    """Each event of a deal's history in words (None: one the log leaves out), in order.

    `key` names the deal and its words (game, deal, language, the seats' names): a
    deal's history only grows, so each version describes only its new events (so the
    cost of a render does not grow with the deal); a history that does not continue
    the kept one is described afresh. The history is public (deal.view), alike for all.
    """
    kept = _logs.get(key)
    events, lines = kept if kept is not None else ([], [])
    if len(events) > len(history) or history[:len(events)] != events:
        events, lines = [], []
    if len(events) < len(history):
        new = history[len(events):]
        events, lines = events + new, lines + [describe.event(e, name) for e in new]
        _logs.put(key, (events, lines))
    return lines


def forget() -> None:
    """Drop every kept log (tests: ids come back in a new test)."""
    _logs.clear()


def last_move(history: list[dict[str, Any]], name: Namer,
              lines: list[str | None] | None = None, *,
              since: int | None = None) -> dict[str, Any] | None:
    """The last move, read from the deal's history, with what followed it (drawing, a
    pick-up): from `since`, where it began (Game.last_move_mark), when known, so that a
    bot's quick moves show one at a time; else the trailing run of one seat's actions (a
    lead and its throw-ins, a defence, a take). `cards`: the cards that move put on the
    table, to highlight. `lines`: the history's events in words (event_lines), when known."""
    end = len(history)
    while end and history[end - 1].get("type") not in ACTIONS:
        end -= 1
    if not end:
        return None
    seat = history[end - 1].get("seat")
    start = end - 1
    if since is not None and 0 <= since < end:
        start = since
    else:
        while (start and history[start - 1].get("type") in ACTIONS
               and history[start - 1].get("seat") == seat):
            start -= 1
    events = history[start:end]
    return {
        "seat": seat,
        "line": " ".join(describe.history(history[start:], name) if lines is None
                         else [line for line in lines[start:] if line]),
        "cards": {e["card"] for e in events if e.get("type") in ("attack", "defend", "transfer")},
    }


def my_timeout(history: list[dict[str, Any]], deal_number: int, seat: int,
               marks: list[list[int]]) -> dict[str, Any] | None:
    """The seat's latest action, if the site made it for them when their time ran out
    (a timeout mark at it: clocks.timeout); else None."""
    for index in range(len(history) - 1, -1, -1):
        event = history[index]
        if event.get("seat") == seat and event.get("type") in ACTIONS:
            return event if [deal_number, index, seat] in marks else None
    return None


def around(seats: list[Seat], me: Seat | None) -> list[Seat]:
    """The other seats in the order they sit clockwise from the viewer's left (R2), so
    that the table draws them around; a spectator sees every seat from seat 0."""
    if me is None:
        return list(seats)
    n = len(seats)
    return [seats[(me.number + k) % n] for k in range(1, n)]


def side_name(game_rules: Rules, seats: list[Seat], side: int | None) -> str:
    """A seat's name in individual play; 'Team A (Anna, Bob)' in team play ("?": none)."""
    if game_rules.teams:
        members = ", ".join(s.name for s in seats if game_rules.team_of(s.number) == side)
        return _("Team %(team)s (%(members)s)") % {
            "team": describe.team_name(side), "members": members}
    return seats[side].name if side is not None else "?"


def _seat_role(view: View, n: int, playing: bool) -> str:
    """What seat `n` is doing in the bout, in a word or two."""
    if n in view["out"]:
        return _("out")
    if not playing:
        return ""
    if n == view["defender"]:
        return _("taking") if view["taking"] else _("defender")  # R15: takes after throw-ins
    if n == view["attacker"]:
        return _("attacker")
    if n in view["eligible"]:  # R13: a co-attacker waits for the initiative
        return _("may throw in") if view["to_act"] == n else _("can throw in later")
    return ""


def _table_seats(game: Game, seats: list[Seat], me: Seat | None, view: View,
                 playing: bool) -> list[dict[str, Any]]:
    """Every seat around the felt as the reader sees it, the reader's own last."""
    teams, now = view["teams"], timezone.now()
    table_seats = []
    for seat in around(seats, me) + ([me] if me is not None else []):
        n = seat.number
        table_seats.append({
            "seat": seat,
            "is_me": me is not None and me.number == n,
            "team": describe.team_name(teams[n]) if teams else "",
            "hand_size": view["hand_sizes"][n],
            "count": ngettext("%(n)s card", "%(n)s cards", view["hand_sizes"][n])
            % {"n": view["hand_sizes"][n]},
            "backs": range(min(view["hand_sizes"][n], 8)),  # a fan; the count says the rest
            "known": view["known"][n] if not (me is not None and me.number == n) else [],
            "role": _seat_role(view, n, playing),
            "partner": bool(teams and me is not None and me.number != n
                            and teams[n] == teams[me.number]),
            "to_act": playing and view["to_act"] == n,
            "clock": seat_clock(game, seat, playing and view["to_act"] == n, now),
        })
    return table_seats


def _last_moves(game: Game, match: Match, seats: list[Seat], me: Seat | None, view: View,
                lines: list[str | None], name: Namer) -> tuple[dict[str, Any] | None, str]:
    """The last move, as the felt marks it, and the reader's own move made by the site when
    their time ran out (said while others have moved since)."""
    deal_of_mark, begun = (game.last_move_mark or [None, None])[:2]
    since: int | None = begun if deal_of_mark == match.deal_number else None
    last: dict[str, Any] | None = last_move(view["history"], name, lines, since=since)
    if (last is not None and since is not None
            and [match.deal_number, since, last["seat"]] in game.timeout_marks):
        # The site moved for a player out of time (section 10): said so, to them as "you".
        first = view["history"][since]
        mine = me is not None and me.number == last["seat"]
        last["line"] = " ".join([describe.site_move(first, None if mine else name(last["seat"])),
                                 *[line for line in lines[since + 1:] if line]])
    timed_out = ""
    if me is not None and not (last and last["seat"] == me.number):
        own = my_timeout(view["history"], match.deal_number, me.number, game.timeout_marks)
        timed_out = describe.site_move(own, None) if own is not None else ""
    for seat in seats:  # a resignation after the last card played is the last move
        if (seat.resigned_deal == match.deal_number and seat.resigned_event is not None
                and seat.resigned_event >= len(view["history"])):
            last = {"seat": seat.number, "cards": set(),
                    "line": _("%(name)s resigned.") % {"name": seat.name}}
    return last, timed_out


def _cards(view: View, moves: dict[str, Any],
           last: dict[str, Any] | None) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The bout's pairs on the felt and the reader's hand, each card with what it can do."""
    defend_options = moves["defend"]
    fresh = last["cards"] if last else set()
    pairs = [
        {"attack": a, "defence": d, "options": defend_options.get(a, []) if d is None else [],
         # CSS classes; "last": put there by the last move
         "attack_class": "attack last" if a in fresh else "attack",
         "defence_class": "defence last" if d in fresh else "defence"}
        for a, d in view["table"]
    ]
    beating = {o["card"] for options in defend_options.values() for o in options}
    hand = [
        {"card": c, "rank": c[0],
         "action": moves["attack"].get(c) or moves["transfer"].get(c) or "",
         "transfer": c in moves["transfer"] and c not in moves["attack"],
         "beats": c in beating}  # a click on it beats a card (static/js/table.js)
        for c in sort_hand(view["hand"] or [], view["trump"])
    ]
    return pairs, hand


def _tally(match: Match, seats: list[Seat], view: View) -> tuple[list[dict[str, Any]], str | None]:
    """Deals lost by each side so far, and who lost the deal before this one."""
    rules = match.rules
    tally = [{"name": side_name(rules, seats, side), "losses": count}
             for side, count in sorted(match.losses.items())]
    last_result = None
    if match.deal_number > 1 and not view["is_over"]:
        loser = match.results[-1]
        last_result = (_("The last deal was drawn.") if loser is None else
                       _("Last deal: %(loser)s lost.") % {"loser": side_name(rules, seats, loser)})
    return tally, last_result


def table_context(game: Game, seats: list[Seat], me: Seat | None,
                  match: Match | None = None) -> dict[str, Any]:
    """Context for templates/games/table.html for the seat `me` (None: a spectator);
    `match`: the game's match, when the caller has parsed it already."""
    ctx: dict[str, Any] = {"game": game, "seats": seats, "me": me, "view": None}
    match = match or game.match()
    if match is None:
        return ctx
    rules = match.rules
    deal = match.deal
    view = deal.view(me.number if me is not None else None)

    def name(seat: int | None) -> str:
        return seats[seat].name if seat is not None and 0 <= seat < len(seats) else "?"

    playing = game.is_playing and not view["is_over"]
    moves = _group_legal(deal.legal_actions(me.number) if me is not None and game.is_playing
                         else [])
    lines = event_lines((game.pk, match.deal_number, get_language(),
                         tuple(s.name for s in seats)), view["history"], name)
    lines = marked(lines, me)  # the reader's own standing orders, to them alone
    last, timed_out = _last_moves(game, match, seats, me, view, lines, name)
    pairs, hand = _cards(view, moves, last)
    selectable = bool(moves["attack"] or moves["transfer"] or moves["defend"])
    tally, last_result = _tally(match, seats, view)
    my_turn = playing and me is not None and view["to_act"] == me.number and not me.is_bot
    ctx.update({
        "view": view,
        "rules": rules,
        "table_seats": _table_seats(game, seats, me, view, playing),
        "pairs": pairs,
        "hand": hand,
        "moves": moves,
        "together": _together(view, rules, moves),
        "selectable": selectable and my_turn,
        "my_turn": my_turn,
        # R13: an attacker keeps the turn after a throw-in until passing it to the defender.
        "defender_waits": name(view["defender"]) if me is not None and my_turn
        and moves["attack"] and moves["pass"] and view["defender"] != me.number
        and any(d is None for _a, d in view["table"]) else "",
        "defender_takes": bool(view["taking"]),
        "to_act_name": name(view["to_act"]) if playing else "",
        # A computer player (not one standing in at a person's pace) searches right now.
        "bot_thinking": playing and view["to_act"] is not None
        and seats[view["to_act"]].is_bot and not seats[view["to_act"]].stands_in,
        "last_move": last,
        "timed_out": timed_out,
        "opponents": len(seats) - (1 if me is not None else 0),
        "log": [line for line in reversed(lines) if line],
        "tally": tally,
        "deal_number": match.deal_number,
        "commitment": match.commitment(),  # docs/fairness.md
        "last_result": last_result,
        "trump_name": describe.suit_name(view["trump"]),
        "trump_symbol": SUIT_SYMBOLS[view["trump"]],
    })
    return ctx


def tournament_of(game: Game) -> dict[str, Any] | None:
    """A tournament's table: its tournament (name, page), the round and when it ends (an
    unfinished table is lost then by the player to act); None for any other table."""
    if game.tournament_round_id is None:  # no query for any other table
        return None
    rnd = TournamentRound.objects.select_related("tournament").get(pk=game.tournament_round_id)
    return {"name": rnd.tournament.name, "url": rnd.tournament.get_absolute_url(),
            "round": rnd.number, "deadline": rnd.deadline, "ends": deadline_words(rnd.deadline)}
