"""The lobby's changes: make a table, join, leave, start early, abort, take a seat back."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..engine import Match, Rules
from ..models import (
    BOT_LEVELS,
    MAX_BANK_TIME,
    MAX_MOVE_TIME,
    MIN_MOVE_TIME,
    Game,
    Move,
    RulePreset,
    Seat,
    TimeControl,
    TournamentRound,
)
from . import offers, reliability
from .access import Someone, casual_only, need_user
from .change import Change, locked, new_change
from .errors import BadRequest, Conflict, Forbidden
from .friends import check_may_sit_with
from .turn import set_turn

if TYPE_CHECKING:
    from accounts.models import Player

LEVELS = tuple(level for level, _label in BOT_LEVELS)
MAX_DEALS = 99



def too_many_bots(players: int) -> str:
    """The refusal of more computer players than a table of `players` has seats to spare."""
    n = players - 1
    return ngettext("Leave a seat for yourself: at most %(n)s computer player.",
                    "Leave a seat for yourself: at most %(n)s computer players.", n) % {"n": n}

def new_match(rules: Rules, *, deals: int | None = None, loss_limit: int | None = None) -> Match:
    """A fresh match, shuffled from a secret random seed kept in its saved state, so that
    a replay can deal the same cards again (tests may replace this)."""
    return Match(rules, deals=deals, loss_limit=loss_limit, seed=secrets.token_hex(16))


def start_match(game: Game, seats: list[Seat], now: datetime | None = None, *,
                seed: str | None = None) -> None:
    """Fill empty seats with bots and deal the first deal (from `seed` when given: the
    lesson's arranged deal)."""
    for seat in seats:
        if seat.is_empty:
            seat.bot_level = game.fill_bot_level
            seat.save(update_fields=["bot_level"])
    if game.has_bank:
        for seat in seats:
            seat.bank = game.bank_time
        Seat.objects.bulk_update(seats, ["bank"])
    match = (new_match(game.get_rules(), deals=game.deals, loss_limit=game.loss_limit)
             if seed is None else
             Match(game.get_rules(), deals=game.deals, loss_limit=game.loss_limit, seed=seed))
    match.salt = secrets.token_hex(16)  # the deals' commitments' secret (docs/fairness.md)
    game.state = match.to_json()
    game.status = Game.Status.PLAYING
    game.started_at = now or timezone.now()
    set_turn(game, match, now, seats)


def create_game(creator: Someone, preset: RulePreset | None, *, players: int,
                bots: int | Iterable[str] = (), bot_level: str = "medium",
                deals: int | None = None, loss_limit: int | None = None,
                time_control: str | None = None, move_time: timedelta | None = None,
                bank_time: timedelta | None = None, increment: timedelta | None = None,
                private: bool = False, rated: bool | None = None,
                min_reliability: int | None = None, lesson: bool = False,
                seed: str | None = None, challenged: Player | None = None,
                tournament_round: TournamentRound | None = None) -> Game:
    """A new table with the creator in seat 0 and bots in the last seats (a table of a
    tournament's round names it: `tournament_round`).

    `bots` is a list of levels for seats to fill, or a count of `bot_level` bots. A table
    with no empty seat starts at once. The time control and its times default to the
    preset's. A casual game (`rated=False`) moves no rating; unsaid, a table in the lobby
    is rated and a private one (friends, guests by the link) casual. A `lesson` is dealt
    from `seed` (services/lesson.py).
    """
    maker = need_user(creator)
    if rated is None:
        rated = not private
    casual_only(maker, rated)
    if not isinstance(preset, RulePreset) or not preset.active:
        raise BadRequest(_("That rule preset is not offered."))
    if isinstance(players, bool) or not isinstance(players, int) or players not in offers.player_counts(preset):
        raise BadRequest(offers.played_by(preset))
    try:
        rules = preset.rules(players)
    except ValueError as exc:
        raise BadRequest(str(exc)) from None
    levels = [bot_level] * bots if isinstance(bots, int) else list(bots)
    if bot_level not in LEVELS or any(level not in LEVELS for level in levels):
        raise BadRequest(_("Bot levels are %(levels)s.") % {"levels": ", ".join(LEVELS)})
    if len(levels) > players - 1:
        raise BadRequest(too_many_bots(players))
    for value in (deals, loss_limit):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or not 1 <= value <= MAX_DEALS):
            raise BadRequest(_("The number of deals or losses must be between 1 and %(max)s.")
                             % {"max": MAX_DEALS})
    if deals is None and loss_limit is None:
        deals = 1
    clock = _time_control(preset, time_control, move_time, bank_time, increment)
    if min_reliability is not None and (isinstance(min_reliability, bool) or not isinstance(
            min_reliability, int) or not 1 <= min_reliability <= 100):
        raise BadRequest(_("The minimum reliability is a share between 1 and 100 percent."))

    with transaction.atomic():
        game = Game.objects.create(
            preset=preset, rules=rules.to_dict(), players=players, deals=deals,
            loss_limit=loss_limit, **clock, fill_bot_level=bot_level,
            private=bool(private), rated=bool(rated), created_by=maker,
            min_reliability=min_reliability, lesson=bool(lesson), challenged=challenged,
            tournament_round=tournament_round,
        )
        first_bot = players - len(levels)
        seats = [
            Seat(game=game, number=n, team=rules.team_of(n),
                 player=maker if n == 0 else None,
                 bot_level=levels[n - first_bot] if n >= first_bot else "",
                 **Seat.facts_of(game))
            for n in range(players)
        ]
        Seat.objects.bulk_create(seats)
        change = new_change(game, maker)
        if not any(seat.is_empty for seat in change.seats):
            start_match(game, change.seats, seed=seed)
        return change.save(Move.Kind.SYSTEM, ["create"], seat=0)


def _time_control(preset: RulePreset, control: str | None, move_time: timedelta | None,
                  bank_time: timedelta | None, increment: timedelta | None) -> dict[str, Any]:
    """The game's clock fields: the maker's choices, else the preset's defaults."""
    control = preset.time_control if control is None else control
    move_time = preset.move_time if move_time is None else move_time
    if control not in TimeControl.values:
        raise BadRequest(_("Choose a time per move or a time bank."))
    if not _duration_within(move_time, MIN_MOVE_TIME, MAX_MOVE_TIME):
        raise BadRequest(_("The time per move must be between one minute and fourteen days."))
    if control == TimeControl.MOVE:
        return {"time_control": control, "move_time": move_time}
    bank_time = preset.bank_time if bank_time is None else bank_time
    increment = preset.increment if increment is None else increment
    if not _duration_within(bank_time, MIN_MOVE_TIME, MAX_BANK_TIME):
        raise BadRequest(_("The time bank must be between one minute and thirty days."))
    if not _duration_within(increment, timedelta(0), MAX_MOVE_TIME):
        raise BadRequest(_("The time added per move must be between nothing and fourteen days."))
    return {"time_control": control, "move_time": move_time, "bank_time": bank_time,
            "increment": increment}


def _duration_within(value: object, low: timedelta, high: timedelta) -> bool:
    return isinstance(value, timedelta) and low <= value <= high


def join_game(game_id: int | str, user: Someone, *, invite_token: object = None,
              seat: object = None) -> Game:
    """Take a seat: the first empty one, or the one chosen (`seat`). A computer player in
    the chosen seat moves to an empty one, so that friends can play on one team. A seated
    player may move the same way. The game starts when the table is full."""
    with locked(game_id, user, visible=True, invite_token=invite_token,
                is_open=True) as change:
        game, seats, mine = change.game, change.seats, change.mine
        if mine is not None and seat is None:
            raise Conflict(_("You already have a seat at this game."))
        if game.challenged_id is not None and game.challenged_id != need_user(user).pk:
            raise Forbidden(_("This table was made for a challenged player: only they may "
                              "take its seat."))
        if mine is None:  # a block either way keeps two players apart (rule of friends.py)
            casual_only(change.user, game.rated)
            check_may_sit_with(need_user(user).pk, [s.player_id for s in seats])
        if mine is None and not reliability.meets(need_user(user), game.min_reliability):
            raise Forbidden(_("This table is for players who finish at least %(min)s%% of "
                              "their games without a timeout; you can see your share on "
                              "your profile.") % {"min": game.min_reliability})
        target = _free_seat(seats) if seat is None else _chosen_seat(seats, seat, mine)
        bot_to = None
        if target.is_bot:  # the computer player moves over: to the seat left, or an empty one
            bot_to = mine or _free_seat(seats)
            bot_to.bot_level = target.bot_level
            bot_to.bot_number = target.bot_number or target.number + 1  # it keeps its name
            target.bot_level, target.bot_number = "", None
        if mine is not None:
            mine.player = None
        target.player = change.user
        fields = ["player", "bot_level", "bot_number"]
        for seat_moved in dict.fromkeys(s for s in (mine, bot_to, target) if s is not None):
            seat_moved.save(update_fields=fields)  # the seat left is saved first (one seat each)
        if mine is None and not any(s.is_empty for s in seats):
            start_match(game, seats)
        return change.save(Move.Kind.SYSTEM, ["join" if mine is None else "move"],
                           seat=target.number)


def _free_seat(seats: list[Seat]) -> Seat:
    free = next((s for s in seats if s.is_empty), None)
    if free is None:
        raise Conflict(_("The table is full."))
    return free


def _chosen_seat(seats: list[Seat], number: object, mine: Seat | None) -> Seat:
    """The seat a player asked for: one that no person holds."""
    try:
        n = int(number) if isinstance(number, int | str | float) else -1  # as the client sent it
        target = seats[n] if n >= 0 else None
    except (TypeError, ValueError, IndexError):
        target = None
    if target is None:
        raise BadRequest(_("There is no such seat at this table."))
    if target is mine:
        raise Conflict(_("You already sit there."))
    if target.player_id is not None:
        raise Conflict(_("Someone already sits there: choose another seat."))
    return target


def leave_game(game_id: int | str, user: Someone) -> Game:
    """Give up a seat before the game starts. The last human to leave closes the table."""
    with locked(game_id, user, seated=True) as change:
        game, mine = change.game, change.my_seat
        if not game.is_open:
            raise Conflict(_("You can't leave a game once it has started."))
        mine.player = None
        mine.save(update_fields=["player"])
        humans = [seat for seat in change.seats if seat.player_id is not None]
        if not humans:
            return abort(change, "leave", seat=mine.number)
        if change.user is not None and game.created_by_id == change.user.pk:
            game.created_by = humans[0].player
        return change.save(Move.Kind.SYSTEM, ["leave"], seat=mine.number)


def start_game(game_id: int | str, user: Someone) -> Game:
    """Start now, filling empty seats with bots: the creator (or staff) may."""
    with locked(game_id, user, visible=True, is_open=True) as change:
        game, seats, player = change.game, change.seats, need_user(change.user)
        if not (player.is_staff or game.created_by_id == player.pk):
            raise Forbidden(_("Only the player who made the game can start it early."))
        start_match(game, seats)
        mine = change.mine.number if change.mine is not None else None
        return change.save(Move.Kind.SYSTEM, ["start"], seat=mine)


def abort_game(game_id: int | str, by_user: Someone) -> Game:
    """Staff may abort any game that is not over; the creator only one still open."""
    with locked(game_id, by_user, visible=True) as change:
        game, player = change.game, need_user(change.user)
        if game.is_over:
            raise Conflict(_("This game is already over."))
        if not player.is_staff and not (game.is_open and game.created_by_id == player.pk):
            raise Forbidden(_("Only an administrator can abort a game that has started."))
        return abort(change, "abort")


def abort(change: Change, action: str, *, seat: int | None = None,
          now: datetime | None = None) -> Game:
    """End the game of this change early, without a result (the one place a game is
    aborted: a cancel, the last player leaving, a declined challenge, a tournament
    cancelled): its clock stops, and `action` is its move row's token."""
    game = change.game
    game.status = Game.Status.ABORTED
    game.finished_at = now or timezone.now()
    game.deadline = None
    game.turn_seat = None
    return change.save(Move.Kind.SYSTEM, [action], seat=seat)


def resume_seat(game_id: int | str, user: Someone) -> Game:
    """Take a seat back from the bot that stood in after repeated timeouts."""
    with locked(game_id, user, seated=True, playing=True) as change:
        seat = change.my_seat
        if seat.resigned_deal is not None:
            raise Conflict(_("You resigned from this game."))
        if not seat.bot_level:
            raise Conflict(_("You are already playing your seat."))
        seat.bot_level = ""
        seat.timeouts = 0
        seat.save(update_fields=["bot_level", "timeouts"])
        return change.save(Move.Kind.SYSTEM, ["resume"], seat=seat.number)
