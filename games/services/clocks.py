"""Time limits: the move the site plays for a seat whose time ran out (section 10), the
deadline sweep, and waking bot turns that no task is handling."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import DurationField, Exists, ExpressionWrapper, F, Field, OuterRef, Value
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import notify
from ..engine import Action, Attack, Deal, ExchangeTrump, Match, Pass, Take
from ..models import DeadlineSweep, Game, Move, RulePreset, Seat
from .access import Someone
from .change import SITE, Change, locked, parse_version
from .errors import Conflict, GameError, TimeRanOut
from .moves import apply_move, apply_order, play_move
from .orders import standing_action
from .results import finish_match


def timeout_action(deal: Deal, seat: int) -> Action:
    """docs/rules.md section 10: a defender takes, an attacker passes, a leader leads the
    lowest non-trump card (else the lowest trump)."""
    legal = deal.legal_actions(seat)
    for action in (Take(), Pass()):
        if action in legal:
            return action
    hand = deal.hand(seat)
    plain = [c for c in hand if c.suit != deal.trump]
    card = min(plain or hand, key=lambda c: (c.rank, c.index))
    lead = Attack(card)
    if lead in legal:
        return lead
    return next(a for a in legal if not isinstance(a, ExchangeTrump))  # pragma: no cover


def play(game_id: int | str, user: Someone, tokens: object, version: object, *,
         seat: object = None) -> Game:
    """The user's move (moves.play_move): the game as committed."""
    return play_change(game_id, user, tokens, version, seat=seat).game


def play_change(game_id: int | str, user: Someone, tokens: object, version: object, *,
                seat: object = None) -> Change:
    """The user's move (moves.play_move), as its change: the game and its seats as
    committed. After the seat's deadline it is refused, and the site's move for the seat
    (section 10) is played at once rather than at the next sweep; unless the deadline
    passed while the site was down (forgive_downtime)."""
    try:
        return play_move(game_id, user, tokens, version, seat=seat)
    except TimeRanOut:
        pass
    # If the site was down, not the player, the clocks move on (maybe a sweep just did).
    forgive_downtime()
    try:
        return play_move(game_id, user, tokens, version, seat=seat)
    except TimeRanOut:
        try:
            timeout(game_id, version)
        except GameError:
            pass  # the sweep played it first
        raise


def timeout(game_id: int | str, version: object, *, now: datetime | None = None) -> Game:
    """Play for the seat whose time ran out (section 10), counting its timeouts in a row.

    Refused unless the deadline has passed and `version` is current, so a sweep that
    runs twice, or a move that lands first, never causes a double move.
    """
    seen = parse_version(version)
    now = now or timezone.now()
    with locked(game_id, SITE, version=seen, playing=True) as change:
        game = change.game
        if game.deadline is None or game.deadline > now or game.paused_at is not None:
            raise Conflict(_("The seat to act still has time."))
        match = game.match_in_play()
        number = match.deal.to_act
        assert number is not None  # a match in play has a seat to act (R13)
        seat = change.seats[number]
        if seat.stands_in:
            raise Conflict(_("A computer is playing this seat; it moves when its time comes."))
        if standing_action(match.deal, seat) is not None:
            return apply_order(change, number)  # its turn was lost: the order, no timeout
        seat.timeouts += 1
        seat.timeouts_total += 1
        preset = game.preset
        human = seat.player_id is not None and not seat.bot_level
        if human and seat.timeouts >= preset.timeouts_allowed:
            if preset.timeout_policy == RulePreset.TimeoutPolicy.FORFEIT:
                seat.save(update_fields=["timeouts", "timeouts_total"])
                return _forfeit(change, match, seat, now)
            seat.bot_level = game.fill_bot_level
        seat.save(update_fields=["timeouts", "timeouts_total", "bot_level"])
        # The deal's log says where the site moved for the player (games.present.outcome).
        game.timeout_marks = [*game.timeout_marks,
                              [match.deal_number, len(match.deal.history), number]]
        return apply_move(change, number, [timeout_action(match.deal, number)],
                          kind=Move.Kind.TIMEOUT)


def claim_match(game_id: int | str, user: Someone, now: datetime | None = None) -> Game:
    """After a player has run out of time repeatedly and a computer stands in for them, an
    opponent may end the match rather than play on against the stand-in: the absent
    player's side loses, as by forfeit."""
    now = now or timezone.now()
    with locked(game_id, user, seated=True, playing=True) as change:
        game, mine = change.game, change.my_seat
        rules = game.get_rules()
        absent = next((seat for seat in change.seats if claimable(game, seat)
                       and rules.team_of(seat.number) != rules.team_of(mine.number)), None)
        if absent is None or mine.bot_level:
            raise Conflict(_("Nobody has run out of time often enough for you to claim the match."))
        return _forfeit(change, game.match_in_play(), absent, now, actions=["claim"])


def forfeit_seat(game_id: int, number: int, now: datetime | None = None) -> Game:
    """The site ends a match against seat `number`, as a forfeit out of time (section 10):
    a tournament's round ran out, or its player was withdrawn."""
    with locked(game_id, SITE, playing=True) as change:
        return _forfeit(change, change.game.match_in_play(), change.seats[number],
                        now or timezone.now())


def claimable(game: Game, seat: Seat) -> bool:
    """Has this seat's player run out of time so often that a computer stands in?"""
    return seat.stands_in and seat.timeouts >= game.preset.timeouts_allowed


def _forfeit(change: Change, match: Match, seat: Seat, now: datetime, *,
             actions: Iterable[str] = ("forfeit",)) -> Game:
    """The seat's player (their team) becomes the durak of this deal, and the game ends."""
    match.forfeit(seat.number)
    finish_match(change.game, match, now, seats=change.seats)
    kind = Move.Kind.TIMEOUT if change.user is None else Move.Kind.SYSTEM
    return change.save(kind, actions, seat=seat.number)


SWEEP_GRACE = timedelta(seconds=30)  # the sweep runs every SWEEP_INTERVAL (3 s)
CLOCK_TIMES = ("turn_started", "deadline", "next_reminder", "move_email_at")


def forgive_downtime(now: datetime | None = None) -> timedelta | None:
    """Record that the clocks are watched up to `now`. If they had not been for longer than
    SWEEP_GRACE (the site, beat, the worker or the database was down), first move every
    running clock on by the part of its turn that fell in the gap, so that nobody's time
    runs out while the site could not play for them; returns the gap then, else None.
    The first sweep ever knows of no gap. Two at once: the row lock makes one wait, and
    it then sees the other's time."""
    now = now or timezone.now()
    with transaction.atomic():
        record = _locked_sweep_record()
        last, gap = record.last_run, None
        if last is not None and now - last > SWEEP_GRACE:
            gap = now - last
            _move_clocks_on(last, now)
        record.last_run = max(now, last) if last is not None else now
        record.save(update_fields=["last_run"])
    return gap


def _locked_sweep_record() -> DeadlineSweep:
    record = DeadlineSweep.objects.select_for_update().filter(pk=1).first()
    if record is None:
        try:
            with transaction.atomic():
                record = DeadlineSweep.objects.create(pk=1)
        except IntegrityError:  # another sweep made it first
            record = DeadlineSweep.objects.select_for_update().get(pk=1)
    return record


def _clock_field(name: str) -> Field[Any, Any]:
    field = Game._meta.get_field(name)
    assert isinstance(field, Field)  # a column of the game, not a relation
    return field


def _move_clocks_on(last: datetime, now: datetime) -> None:
    """Running clocks (not stopped for a vacation, not already overdue at the last sweep)
    move on by the time since `last`, or since their turn began if it began later. One
    UPDATE each, so a move that locks the game meanwhile sees the clock before or after."""
    running = Game.objects.filter(status=Game.Status.PLAYING, paused_at__isnull=True,
                                  deadline__gt=last, turn_started__isnull=False)
    # Begun during the gap: the turn starts again now, with all of its time. (First: the
    # others' turns then begin after `last` too.)
    since_start = {name: ExpressionWrapper(F(name) - F("turn_started"),
                                           output_field=DurationField())
                   for name in CLOCK_TIMES[1:]}
    running.filter(turn_started__gt=last).update(
        turn_started=Value(now),
        **{name: ExpressionWrapper(Value(now) + since, output_field=_clock_field(name))
           for name, since in since_start.items()})
    gap = now - last
    running.filter(turn_started__lte=last).update(
        **{name: F(name) + gap for name in CLOCK_TIMES})


def sweep_expired(now: datetime | None = None) -> int:
    """Play every overdue timeout, and wake the stand-ins whose time has come; returns how
    many were handled. Clocks move on first by any outage (forgive_downtime)."""
    now = now or timezone.now()
    forgive_downtime(now)
    done = 0
    stand_in = Seat.objects.filter(game=OuterRef("pk"), number=OuterRef("turn_seat"),
                                   player__isnull=False).exclude(bot_level="")
    due = Game.objects.filter(status=Game.Status.PLAYING, deadline__lte=now,
                              paused_at__isnull=True).annotate(stand_in=Exists(stand_in))
    for pk, version, is_stand_in in due.values_list("pk", "version", "stand_in"):
        if is_stand_in:
            notify.queue_bot_turn(pk, version)  # its time has come: it moves (botplay)
            done += 1
            continue
        try:
            timeout(pk, version, now=now)
            done += 1
        except GameError:
            continue  # somebody moved first
    return done


def wake_stalled_bots(now: datetime | None = None, *,
                      stall: timedelta = timedelta(seconds=15)) -> int:
    """Queue a bot turn for games where a bot has held the initiative for a while with no
    task handling it (say its worker died); returns how many were woken. One query finds
    them, however many games are waiting for people."""
    now = now or timezone.now()
    bot_to_act = Seat.objects.filter(game=OuterRef("pk"), number=OuterRef("turn_seat"),
                                     player__isnull=True).exclude(bot_level="")
    stalled = Game.objects.filter(status=Game.Status.PLAYING, turn_seat__isnull=False,
                                  turn_started__lte=now - stall).filter(Exists(bot_to_act))
    woke = 0
    for pk, version in stalled.values_list("pk", "version"):
        notify.queue_bot_turn(pk, version)
        woke += 1
    return woke
