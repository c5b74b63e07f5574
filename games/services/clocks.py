"""Time limits, the one home of deadlines (docs/design.md, "Clocks"): the move the site
plays for a seat whose time ran out (section 10), the outage check, the deadline sweep,
and waking bot turns that no task is handling. Only the sweep and a move
(games.services.moves.play_change) charge a timeout; a page view never does."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import notify
from ..engine import Action, Attack, Deal, ExchangeTrump, Match, Pass, Take
from ..models import DeadlineSweep, Game, Move, RulePreset, Seat
from .access import Someone
from .apply import apply_move, apply_order
from .change import CLOCK_SHIFT, SITE, Change, locked, parse_version
from .errors import Conflict, GameError
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


def overdue(game: Game, number: int, now: datetime) -> bool:
    """Has seat `number`'s time run out: its turn, its clock running, its deadline past?"""
    return (game.turn_seat == number and game.deadline is not None
            and game.paused_at is None and game.deadline <= now)


def timeout(game_id: int | str, version: object, *, now: datetime | None = None) -> Game:
    """Play for the seat whose time ran out (section 10): the sweep's timeout.

    Refused unless the deadline has passed and `version` is current, so a sweep that
    runs twice, or a move that lands first, never causes a double move.
    """
    seen = parse_version(version)
    now = now or timezone.now()
    with locked(game_id, SITE, version=seen, playing=True) as change:
        game = change.game
        if game.deadline is None or game.deadline > now or game.paused_at is not None:
            raise Conflict(_("The seat to act still has time."))
        return charge_timeout(change, now)


def charge_timeout(change: Change, now: datetime) -> Game:
    """In this change, the site's move for the seat to act, whose time ran out (section
    10), counting its timeouts in a row; a fitting standing order is played instead."""
    game = change.game
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


def forgive_here(change: Change, now: datetime) -> bool:
    """The outage rule for a move that finds its seat's time run out: if the clocks went
    unwatched for longer than SWEEP_GRACE, this game's clocks move on by its share of the
    gap first, in the move's own change (the sweep shifts the others when it is back).
    True if they moved. One read of the sweep's row, not locked: a move never waits for
    the sweep's lock while it holds its game's."""
    last = DeadlineSweep.objects.filter(pk=1).values_list("last_run", flat=True).first()
    if last is None or now - last <= SWEEP_GRACE or not _running_since(change.game, last):
        return False
    _shift(change.game, last, now)
    return True


def forgive_downtime(now: datetime | None = None) -> int:
    """Record that the clocks are watched up to `now`. If they had not been for longer than
    SWEEP_GRACE (the site, beat, the worker or the database was down), first move every
    running clock on by the part of its turn that fell in the gap, so that nobody's time
    runs out while the site could not play for them. Each game so shifted is a change of
    its own (a new version, a move row, the table told); returns how many. The first sweep
    ever knows of no gap. Two at once: the sweep row's lock makes one wait, and it then
    sees the other's time."""
    now = now or timezone.now()
    shifted = 0
    with transaction.atomic():
        record = _locked_sweep_record()
        last = record.last_run
        if last is not None and now - last > SWEEP_GRACE:
            shifted = _move_clocks_on(last, now)
        record.last_run = max(now, last) if last is not None else now
        record.save(update_fields=["last_run"])
    return shifted


def _locked_sweep_record() -> DeadlineSweep:
    record = DeadlineSweep.objects.select_for_update().filter(pk=1).first()
    if record is None:
        try:
            with transaction.atomic():
                record = DeadlineSweep.objects.create(pk=1)
        except IntegrityError:  # another sweep made it first
            record = DeadlineSweep.objects.select_for_update().get(pk=1)
    return record


def _running_since(game: Game, last: datetime) -> bool:
    """A running clock (in play, not stopped for a vacation, not already overdue at the
    last sweep)."""
    return (game.is_playing and game.paused_at is None and game.turn_started is not None
            and game.deadline is not None and game.deadline > last)


def _shift(game: Game, last: datetime, now: datetime) -> None:
    """Move a running clock on by the time since `last`, or since its turn began if it
    began later: that turn starts again now, with all of its time."""
    started = game.turn_started
    assert started is not None  # _running_since
    if started > last:
        times = {name: getattr(game, name) for name in CLOCK_TIMES[1:]}
        game.turn_started = now
        for name, value in times.items():
            if value is not None:
                setattr(game, name, now + (value - started))
        return
    for name in CLOCK_TIMES:
        value = getattr(game, name)
        if value is not None:
            setattr(game, name, value + (now - last))


def _move_clocks_on(last: datetime, now: datetime) -> int:
    """Every running clock moves on (_shift), each game through the door (change.locked,
    Change.save: a version of its own); the game rows are locked after the sweep's row.
    Returns how many moved."""
    running = Game.objects.filter(status=Game.Status.PLAYING, paused_at__isnull=True,
                                  deadline__gt=last, turn_started__isnull=False)
    shifted = 0
    for pk in running.order_by("pk").values_list("pk", flat=True):
        with locked(pk, SITE) as change:
            if not _running_since(change.game, last):
                continue  # a move or a vacation got there first
            _shift(change.game, last, now)
            change.save(Move.Kind.SYSTEM, [CLOCK_SHIFT], fields=CLOCK_TIMES)
            shifted += 1
    return shifted


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
