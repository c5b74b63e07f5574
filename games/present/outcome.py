"""What the result panel (templates/games/_result.html), the resign control and the chat
(templates/games/_chat.html) show to one person, and the words of the end of a match.

Finished deals are read from their records (a public log, no hidden card); the match's
result from the engine's `Match.outcome()`; nothing here reads a hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .. import describe
from ..engine import Match, Outcome, Rules, Termination
from ..models import CHAT_MAX_LENGTH, DealRecord, Game, Seat
from ..services import chat, friends
from ..services.access import Someone, seats_of
from .table import side_name

if TYPE_CHECKING:
    from accounts.models import Player


def _name(seats: list[Seat], number: int | None) -> str:
    return seats[number].name if number is not None and 0 <= number < len(seats) else "?"


def deal_verdict(record: DealRecord, rules: Rules, seats: list[Seat]) -> str:
    """'Deal 2: Anna is the durak.', the losing team, or the draw; and who resigned."""
    if record.resigned is not None:
        return _("Deal %(n)s: %(name)s gave up and lost.") % {
            "n": record.number, "name": _name(seats, record.resigned)}
    if record.draw:
        return _("Deal %(n)s was drawn: nobody holds cards.") % {"n": record.number}
    if rules.teams:
        return _("Deal %(n)s: %(team)s lost.") % {
            "n": record.number, "team": side_name(rules, seats, record.losing_team)}
    return _("Deal %(n)s: %(name)s is the durak.") % {
        "n": record.number, "name": _name(seats, record.loser)}


def record_log(record: DealRecord, seats: list[Seat]) -> list[str]:
    """The finished deal's log in words, oldest first (a resignation included)."""
    lines: list[str] = []
    for event in record.history:
        if event.get("type") == "resign":
            lines.append(_("%(name)s resigned.") % {"name": _name(seats, event.get("seat"))})
        elif line := describe.event(event, lambda seat: _name(seats, seat)):
            lines.append(line)
    return lines


def record_context(record: DealRecord, rules: Rules, seats: list[Seat], *,
                   log: bool = True) -> dict[str, Any]:
    """A finished deal: its verdict, who went out, and (`log`) its log in words."""
    return {
        "record": record,
        "verdict": deal_verdict(record, rules, seats),
        "out": [_name(seats, seat) for seat in record.out],
        "log": record_log(record, seats) if log else [],
    }


def resign_meaning(game: Game) -> str:
    """What resigning means at this table, said before the player confirms."""
    if game.get_rules().teams:
        return _("Your team plays on: a computer player takes your seat for the rest of the "
                 "game, and you can't come back to it.")
    return _("You lose the match: the deal in play counts as lost by you, and the game "
             "ends for everybody.")


def match_verdict(game: Game, seats: list[Seat], match: Match | None = None) -> str:
    """Who lost a finished match, in a sentence ("Anna loses the match.")."""
    match = match or game.match()
    outcome = match.outcome() if match is not None else None
    if match is None or outcome is None:
        return ""
    rules = match.rules
    if outcome.termination is Termination.FORFEIT:  # section 10: as a resignation would
        return _("%(name)s ran out of time too often and loses the match.") % {
            "name": _name(seats, outcome.seat)}
    if outcome.termination is Termination.RESIGNATION:
        return _("%(name)s resigned and loses the match.") % {
            "name": side_name(rules, seats, outcome.loser)}
    if outcome.loser is not None:
        return _("%(name)s loses the match.") % {"name": side_name(rules, seats, outcome.loser)}
    return _("Nobody loses the match alone: the last place is shared.")


def finished_note(rules: Rules, seats: list[Seat], outcome: Outcome) -> str:
    """The table's line once the match is over ("Game over. The durak: Anna.")."""
    if outcome.termination is Termination.FORFEIT:
        return _("%(name)s ran out of time too often and forfeited: the durak.") % {
            "name": _name(seats, outcome.seat)}
    if outcome.termination is Termination.RESIGNATION:
        return _("Game over. %(name)s resigned and loses the match.") % {
            "name": side_name(rules, seats, outcome.loser)}
    if outcome.deals == 1:  # one deal played: its durak, or the draw
        if outcome.is_draw:
            return _("Game over. The deal was drawn.")
        return _("Game over. The durak: %(names)s.") % {
            "names": side_name(rules, seats, outcome.loser)}
    if len(set(outcome.losses)) == 1:  # every side lost as many deals
        return _("Game over. The match is drawn.")
    return _("Game over. Fewest deals lost: %(names)s.") % {
        "names": ", ".join(side_name(rules, seats, side) for side in outcome.winners)}


def result_context(game: Game, seats: list[Seat], me: Seat | None, ctx: dict[str, Any],
                   match: Match | None = None) -> dict[str, Any]:
    """The result panel's context, added to the table's (`ctx`: games.present.table's context)
    with the table's line once the match is over (`finished_note`); `match`: the game's
    match, when the caller has parsed it already."""
    match = match or game.match()
    if match is None:
        return {}
    rules = match.rules
    records = getattr(game, "kept_records", None)  # a kept snapshot's (games.present.snapshots)
    if records is None:
        records = list(game.deal_records.all())  # in deal order (DealRecord.Meta)
    resigned_seats = [s for s in seats if s.resigned_deal is not None]
    out: dict[str, Any] = {
        "deal_records": [{"number": r.number, "verdict": deal_verdict(r, rules, seats)}
                         for r in records],
        # The panel shows the last deal's verdict, not its log (the deal's own page does).
        "last_record": record_context(records[-1], rules, seats, log=False) if records else None,
        "can_resign": (game.is_playing and me is not None and me.player_id is not None
                       and me.resigned_deal is None),
        "resigned_seats": resigned_seats,
        # The last deal's result is told in full while the next deal's first bout runs,
        # then in one line.
        "result_fresh": game.status == Game.Status.FINISHED or bool(
            ctx.get("view") and ctx["view"]["bout"] == 1),
    }
    # The current deal's log shows a resignation, and each move the site made for a player
    # whose time ran out, where it happened.
    log = list(ctx.get("log") or [])
    if log or ctx.get("view"):
        history_length = len(ctx["view"]["history"]) if ctx.get("view") else 0
        notes = [(seat.resigned_event, _("%(name)s resigned.") % {"name": seat.name})
                 for seat in resigned_seats
                 if seat.resigned_deal == match.deal_number and seat.resigned_event is not None]
        notes += [(event, _("%(name)s ran out of time: the site moved for them.") % {
                      "name": _name(seats, number)})
                  for deal, event, number in game.timeout_marks if deal == match.deal_number]
        # The log is newest first: insert the earliest (the largest index) first.
        for event, note in sorted(notes, key=lambda n: n[0]):
            log.insert(max(history_length - event, 0), note)
        out["log"] = log
    if game.status == Game.Status.FINISHED:
        reason = match_verdict(game, seats, match)
        ended = match.outcome()
        humans = [s for s in seats if s.player_id is not None]
        waiting = [s.name for s in humans if not s.wants_rematch]
        out.update({
            "match_over": True,
            "match_verdict": reason,
            "finished_note": finished_note(rules, seats, ended) if ended else None,
            "rematch_game": game.rematch,
            "rematch_accepted": me is not None and me.wants_rematch,
            "rematch_waiting": ", ".join(waiting),
            "rematch_wanted_by": [s.name for s in humans if s.wants_rematch and s is not me],
            "can_rematch": me is not None and me.player_id is not None and game.rematch_id is None,
            "stand_in_notes": stand_in_notes(game, seats),
            "new_friends": new_friends(humans, me),
            "deals_played": ngettext("%(n)s deal played", "%(n)s deals played",
                                     len(records)) % {"n": len(records)},
        })
    return out


def new_friends(humans: list[Seat], me: Seat | None) -> list[Player]:
    """The people the reader shared this finished table with and may add as friends (not
    friends yet, no block either way): the panel's "Add as a friend" buttons."""
    if me is None or me.player_id is None:
        return []
    others = [s.player for s in humans if s.player_id != me.player_id and s.player is not None]
    if not others:
        return []
    known = friends.friend_ids(me.player) | friends.kept_apart(me.player_id)
    return [player for player in others if player.pk not in known]


def table_friends(game: Game, seats: list[Seat], me: Seat | None) -> list[dict[str, Any]]:
    """The people the seated reader plays with now, from the table's menu
    (templates/games/table/_friends.html): each other person's seat (no computer, no
    guest, nobody with a block either way, no one twice) as `player` and `is_friend`
    (added already). Only the whole page reads it, outside the live-swapped table, so a
    move's answer and its pushes ask nothing more (docs/design.md, "Friends and blocks")."""
    if not game.is_playing or me is None or me.player_id is None or me.player is None:
        return []
    others: dict[int, Player] = {}
    for seat in seats:
        player = seat.player
        if (player is not None and seat.player_id != me.player_id and player.is_active
                and not player.is_guest):
            others.setdefault(player.pk, player)
    if not others:
        return []
    apart = friends.kept_apart(me.player_id)
    added = friends.friend_ids(me.player)
    return [{"player": player, "is_friend": pk in added}
            for pk, player in others.items() if pk not in apart]


def stand_in_notes(game: Game, seats: list[Seat]) -> list[str]:
    """What the result says of each person a computer stood in for (the preset's
    `stand_in_counts` says whether its deals count on their record)."""
    counts = game.preset.stand_in_counts
    return [(_("A computer played for %(name)s after they ran out of time; the deals it "
               "played count on their record.") if counts else
             _("A computer played for %(name)s after they ran out of time; the deals it "
               "played do not count on their record.")) % {"name": seat.name}
            for seat in seats if seat.stands_in and seat.resigned_deal is None]


def chat_context(game: Game, user: Someone, invite: str = "") -> dict[str, Any]:
    """The chat beside the table: its messages, whether the user may write, whom they mute."""
    if not chat.can_read(game, user, invite):
        return {"chat_readable": False}
    seats = seats_of(game)
    me = next((s for s in seats if user is not None and user.is_authenticated
               and s.player_id == user.pk), None)
    messages = chat.messages_for(game, user)
    closed = game.status == Game.Status.ABORTED  # a cancelled table's chat is closed
    if closed and not messages:
        return {"chat_readable": False}
    for message in messages:
        message.shown = chat.phrase_text(message)
    muted = chat.muted_ids(user)
    return {
        "chat_readable": True,
        "chat_writable": me is not None and not closed,
        "chat_closed": closed,
        "chat_messages": messages,
        "chat_phrases": list(chat.PHRASES.items()),
        "chat_muted": [s for s in seats if s.player_id in muted],
        "chat_max": CHAT_MAX_LENGTH,
        "reader": user,
    }
