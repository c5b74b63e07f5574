"""Time limits: the move the site plays for a seat whose time ran out (section 10), the
deadline sweep, and waking bot turns that no task is handling."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import notify
from ..engine import Attack, ExchangeTrump, Match, Pass, Take
from ..models import Game, Move, RulePreset, Seat
from .core import (
    bot_holds_initiative,
    commit_change,
    lock_game,
    parse_version,
    record_deal,
    seats_of,
)
from .errors import Conflict, GameError, StaleVersion
from .moves import apply_move
from .results import finish_match, keep_deal


def timeout_action(deal, seat: int):
    """RULES.md section 10: a defender takes, an attacker passes, a leader leads the
    lowest non-trump card (else the lowest trump)."""
    legal = deal.legal_actions(seat)
    for action in (Take(), Pass()):
        if action in legal:
            return action
    hand = deal.hand(seat)
    plain = [c for c in hand if c.suit != deal.trump]
    card = min(plain or hand, key=lambda c: (c.rank, c.index))
    action = Attack(card)
    if action in legal:
        return action
    return next(a for a in legal if not isinstance(a, ExchangeTrump))  # pragma: no cover


def timeout(game_id, version, *, now=None) -> Game:
    """Play for the seat whose time ran out (section 10), counting its timeouts in a row.

    Refused unless the deadline has passed and `version` is current, so a sweep that
    runs twice, or a move that lands first, never causes a double move.
    """
    version = parse_version(version)
    now = now or timezone.now()
    with transaction.atomic():
        game = lock_game(game_id)
        if not game.is_playing:
            raise Conflict(_("The game is not being played."))
        if version != game.version:
            raise StaleVersion()
        if game.deadline is None or game.deadline > now:
            raise Conflict(_("The seat to act still has time."))
        match = game.match()
        number = match.deal.to_act
        seat = game.seats.select_related("player").get(number=number)
        seat.timeouts += 1
        seat.timeouts_total += 1
        preset = game.preset
        human = seat.player_id is not None and not seat.bot_level
        if human and seat.timeouts >= preset.timeouts_allowed:
            if preset.timeout_policy == RulePreset.TimeoutPolicy.FORFEIT:
                seat.save(update_fields=["timeouts", "timeouts_total"])
                return _forfeit(game, match, seat, now)
            seat.bot_level = game.fill_bot_level
        seat.save(update_fields=["timeouts", "timeouts_total", "bot_level"])
        return apply_move(game, number, [timeout_action(match.deal, number)],
                          kind=Move.Kind.TIMEOUT, player=None)


def _forfeit(game: Game, match: Match, seat: Seat, now) -> Game:
    """The seat's player (their team) becomes the durak of this deal, and the game ends."""
    team = match.rules.team_of(seat.number)
    record_deal(game, match, seats_of(game), forfeit_team=team)
    keep_deal(game, match, resigned=seat.number)
    match.resign(team)  # the tally counts the deal as lost, and the match is over
    game.state = match.to_json()
    finish_match(game, match, now)
    game.forfeited_seat = seat.number
    return commit_change(game, kind=Move.Kind.TIMEOUT, seat=seat.number, actions=["forfeit"])


def sweep_expired(now=None) -> int:
    """Play every overdue timeout; returns how many were played."""
    now = now or timezone.now()
    done = 0
    due = Game.objects.filter(status=Game.Status.PLAYING, deadline__lte=now)
    for pk, version in due.values_list("pk", "version"):
        try:
            timeout(pk, version, now=now)
            done += 1
        except GameError:
            continue  # somebody moved first
    return done


def wake_stalled_bots(now=None, *, stall=timedelta(seconds=15)) -> int:
    """Queue a bot turn for games where a bot has held the initiative for a while with no
    task handling it (say its worker died); returns how many were woken."""
    now = now or timezone.now()
    woke = 0
    waiting = Game.objects.filter(status=Game.Status.PLAYING, turn_seat__isnull=False,
                                  deadline__isnull=False)
    for game in waiting:
        if game.deadline - game.move_time > now - stall or not bot_holds_initiative(game):
            continue
        notify.queue_bot_turn(game.pk, game.version)
        woke += 1
    return woke
