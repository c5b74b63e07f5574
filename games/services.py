"""The one door that changes a game (DESIGN.md: "How data flows").

Every function here is one transaction: it locks the game row (`select_for_update`),
checks what the caller may do, changes the game through the engine, writes the state,
the move log and the new deadline, bumps `version`, and after the commit calls
`games.notify.game_changed(game)`. Anything wrong raises a `GameError` carrying a
message for the player and an HTTP status; the game is then left exactly as it was.
"""

from __future__ import annotations

import hmac
import logging
import threading
from datetime import timedelta

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from . import notify
from .bots import choose_action
from .engine import IllegalAction, Match, Pass, action_from_dict
from .engine.actions import Attack, ExchangeTrump, Take
from .models import BOT_LEVELS, MAX_MOVE_TIME, MIN_MOVE_TIME, Game, Move, RulePreset, Seat

logger = logging.getLogger(__name__)

LEVELS = tuple(level for level, _label in BOT_LEVELS)
MAX_ACTIONS = 24  # more actions than a bout can hold is certainly a malformed request
MAX_DEALS = 99
ACTION_FIELDS = {
    "attack": {"type", "card"},
    "defend": {"type", "attack", "card"},
    "transfer": {"type", "card"},
    "take": {"type"},
    "pass": {"type"},
    "exchange": {"type"},
}


# ----------------------------------------------------------------------------- errors
class GameError(Exception):
    """A refused change: `message` is for the player, `status` the HTTP status."""

    status = 400

    def __init__(self, message, status: int | None = None):
        super().__init__(str(message))
        self.message = str(message)
        if status is not None:
            self.status = status


class BadRequest(GameError):
    status = 400


class IllegalMove(GameError):
    status = 400


class Forbidden(GameError):
    status = 403


class NotFound(GameError):
    status = 404


class Conflict(GameError):
    """The game is in the wrong state for this (already started, full, over…)."""

    status = 409


class StaleVersion(Conflict):
    def __init__(self, message=None, status=None):
        super().__init__(message or _("The game has moved on; here is the current table."), status)


class NotYourTurn(Conflict):
    pass


# ----------------------------------------------------------------------------- helpers
def new_match(rules, *, deals=None, loss_limit=None) -> Match:
    """A fresh match, shuffled from a secure random source (tests may replace this)."""
    return Match(rules, deals=deals, loss_limit=loss_limit)


def _lock(game_id) -> Game:
    try:
        pk = int(game_id)
    except (TypeError, ValueError):
        raise NotFound(_("There is no such game.")) from None
    try:
        # Lock the game row only (no joins: FOR UPDATE would lock the preset row too).
        return Game.objects.select_for_update().get(pk=pk)
    except Game.DoesNotExist:
        raise NotFound(_("There is no such game.")) from None


def _seats(game) -> list[Seat]:
    return list(game.seats.select_related("player").order_by("number"))


def seat_of(game, user) -> Seat | None:
    """The user's seat at this game, or None."""
    if user is None or not user.is_authenticated:
        return None
    return game.seats.select_related("player").filter(player=user).first()


def can_view(game, user, invite_token=None) -> bool:
    """Private games are seen only by their players, holders of the invite link, and staff."""
    if not game.private:
        return True
    if user is not None and user.is_authenticated and (
        user.is_staff or game.seats.filter(player=user).exists()
    ):
        return True
    return bool(invite_token) and hmac.compare_digest(str(invite_token), game.invite_token)


def _need_user(user):
    if user is None or not user.is_authenticated:
        raise Forbidden(_("Log in to play."))


def _changed(game: Game, *, kind: str, seat=None, player=None, actions=()) -> Game:
    """Save the game with the next version and log the change; notify after the commit."""
    game.version += 1
    game.save()
    Move.objects.create(game=game, seq=game.version, seat=seat, player=player,
                        actions=list(actions), kind=kind)
    transaction.on_commit(lambda: notify.game_changed(game), robust=True)
    return game


def _set_turn(game: Game, match: Match, now=None) -> None:
    """The seat to act and its deadline, or the end of the game."""
    now = now or timezone.now()
    if match.is_over:
        game.status = Game.Status.FINISHED
        game.finished_at = now
        game.turn_seat = None
        game.deadline = None
    else:
        game.turn_seat = match.deal.to_act
        game.deadline = now + game.move_time
    game.reminders_sent = 0


def _record_deal(game: Game, match: Match, seats: list[Seat], *, forfeit_team=None) -> None:
    """Count a finished deal in every seated player's record (R21, R22, R31)."""
    rules, deal = match.rules, match.deal
    for seat in seats:
        if seat.player_id is None:
            continue
        if forfeit_team is not None:
            lost, drawn = rules.team_of(seat.number) == forfeit_team, False
        elif deal.is_draw:
            lost, drawn = False, True
        else:
            lost, drawn = rules.team_of(seat.number) == deal.losing_team, False
        seat.player.record_deal(lost=lost, drawn=drawn)


def _start(game: Game, seats: list[Seat], now=None) -> None:
    """Fill empty seats with bots and deal the first deal."""
    for seat in seats:
        if seat.is_empty:
            seat.bot_level = game.fill_bot_level
            seat.save(update_fields=["bot_level"])
    match = new_match(game.get_rules(), deals=game.deals, loss_limit=game.loss_limit)
    game.state = match.to_json()
    game.status = Game.Status.PLAYING
    game.started_at = now or timezone.now()
    _set_turn(game, match, now)


def _seat_name(seats: list[Seat], number) -> str:
    for seat in seats:
        if seat.number == number:
            return seat.name
    return _("seat %(number)s") % {"number": number}


# ----------------------------------------------------------------------------- parsing
def parse_actions(actions) -> list:
    """Engine actions from a list of action dicts; BadRequest with a reason otherwise."""
    if not isinstance(actions, list) or not actions:
        raise BadRequest(_("A move is a non-empty list of actions."))
    if len(actions) > MAX_ACTIONS:
        raise BadRequest(_("Too many actions in one move."))
    parsed = []
    for d in actions:
        if not isinstance(d, dict) or not isinstance(d.get("type"), str):
            raise BadRequest(_("Each action needs a type such as attack, defend, take or pass."))
        allowed = ACTION_FIELDS.get(d["type"])
        if allowed is None:
            raise BadRequest(_("Unknown action type “%(type)s”: use one of %(types)s.") % {
                "type": d["type"][:20], "types": ", ".join(ACTION_FIELDS)})
        extra = sorted(set(d) - allowed)
        if extra:
            raise BadRequest(_("Unexpected field(s) in a %(type)s action: %(fields)s.") % {
                "type": d["type"], "fields": ", ".join(str(f)[:20] for f in extra)})
        if any(not isinstance(d[k], str) for k in allowed - {"type"} if k in d):
            raise BadRequest(_("Cards are given by codes such as “TH”."))
        try:
            parsed.append(action_from_dict(d))
        except ValueError as exc:
            raise BadRequest(str(exc)) from None
    return parsed


def parse_version(version) -> int:
    if isinstance(version, bool):
        raise BadRequest(_("The version must be a whole number."))
    try:
        return int(version)
    except (TypeError, ValueError):
        raise BadRequest(_("The version must be a whole number.")) from None


# ----------------------------------------------------------------------------- lobby
def create_game(creator, preset: RulePreset, *, players: int, bots=(), bot_level="medium",
                deals=None, loss_limit=None, move_time=timedelta(days=1),
                private=False) -> Game:
    """A new table with the creator in seat 0 and bots in the last seats.

    `bots` is a list of levels for seats to fill, or a count of `bot_level` bots. A table
    with no empty seat starts at once.
    """
    _need_user(creator)
    if not isinstance(preset, RulePreset) or not preset.active:
        raise BadRequest(_("That rule preset is not offered."))
    if isinstance(players, bool) or not isinstance(players, int) or players not in preset.player_counts:
        raise BadRequest(_("%(preset)s is played by %(min)s to %(max)s players.") % {
            "preset": preset.name, "min": preset.min_players, "max": preset.max_players})
    try:
        rules = preset.rules(players)
    except ValueError as exc:
        raise BadRequest(str(exc)) from None
    if isinstance(bots, int) and not isinstance(bots, bool):
        bots = [bot_level] * bots
    bots = list(bots)
    if bot_level not in LEVELS or any(level not in LEVELS for level in bots):
        raise BadRequest(_("Bot levels are %(levels)s.") % {"levels": ", ".join(LEVELS)})
    if len(bots) > players - 1:
        raise BadRequest(_("Leave a seat for yourself: at most %(n)s bots.") % {"n": players - 1})
    for value in (deals, loss_limit):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or not 1 <= value <= MAX_DEALS):
            raise BadRequest(_("The number of deals or losses must be between 1 and %(max)s.")
                             % {"max": MAX_DEALS})
    if deals is None and loss_limit is None:
        deals = 1
    if not isinstance(move_time, timedelta) or not MIN_MOVE_TIME <= move_time <= MAX_MOVE_TIME:
        raise BadRequest(_("The time per move must be between one minute and seven days."))

    with transaction.atomic():
        game = Game.objects.create(
            preset=preset, rules=rules.to_dict(), players=players, deals=deals,
            loss_limit=loss_limit, move_time=move_time, fill_bot_level=bot_level,
            private=bool(private), created_by=creator,
        )
        first_bot = players - len(bots)
        seats = [
            Seat(game=game, number=n, team=rules.team_of(n),
                 player=creator if n == 0 else None,
                 bot_level=bots[n - first_bot] if n >= first_bot else "")
            for n in range(players)
        ]
        Seat.objects.bulk_create(seats)
        seats = _seats(game)
        if not any(seat.is_empty for seat in seats):
            _start(game, seats)
        return _changed(game, kind=Move.Kind.SYSTEM, seat=0, player=creator,
                        actions=[{"type": "create"}])


def join_game(game_id, user, *, invite_token=None) -> Game:
    """Take the first empty seat; the game starts when the table is full."""
    _need_user(user)
    with transaction.atomic():
        game = _lock(game_id)
        if not can_view(game, user, invite_token):
            raise NotFound(_("There is no such game."))
        if not game.is_open:
            raise Conflict(_("This game has already started."))
        seats = _seats(game)
        if any(seat.player_id == user.pk for seat in seats):
            raise Conflict(_("You already have a seat at this game."))
        free = next((seat for seat in seats if seat.is_empty), None)
        if free is None:
            raise Conflict(_("The table is full."))
        free.player = user
        free.save(update_fields=["player"])
        if not any(seat.is_empty for seat in seats):
            _start(game, seats)
        return _changed(game, kind=Move.Kind.SYSTEM, seat=free.number, player=user,
                        actions=[{"type": "join"}])


def leave_game(game_id, user) -> Game:
    """Give up a seat before the game starts. The last human to leave closes the table."""
    _need_user(user)
    with transaction.atomic():
        game = _lock(game_id)
        seats = _seats(game)
        mine = next((seat for seat in seats if seat.player_id == user.pk), None)
        if mine is None:
            if not can_view(game, user):
                raise NotFound(_("There is no such game."))
            raise Forbidden(_("You have no seat at this game."))
        if not game.is_open:
            raise Conflict(_("You can't leave a game once it has started."))
        mine.player = None
        mine.save(update_fields=["player"])
        humans = [seat for seat in seats if seat.player_id is not None]
        if not humans:
            game.status = Game.Status.ABORTED
            game.finished_at = timezone.now()
        elif game.created_by_id == user.pk:
            game.created_by = humans[0].player
        return _changed(game, kind=Move.Kind.SYSTEM, seat=mine.number, player=user,
                        actions=[{"type": "leave"}])


def start_game(game_id, user) -> Game:
    """Start now, filling empty seats with bots: the creator (or staff) may."""
    _need_user(user)
    with transaction.atomic():
        game = _lock(game_id)
        if not can_view(game, user):
            raise NotFound(_("There is no such game."))
        if not game.is_open:
            raise Conflict(_("This game has already started."))
        seats = _seats(game)
        if not (user.is_staff or game.created_by_id == user.pk):
            raise Forbidden(_("Only the player who made the game can start it early."))
        _start(game, seats)
        mine = next((seat.number for seat in seats if seat.player_id == user.pk), None)
        return _changed(game, kind=Move.Kind.SYSTEM, seat=mine, player=user,
                        actions=[{"type": "start"}])


def abort_game(game_id, by_user) -> Game:
    """Staff may abort any game that is not over; the creator only one still open."""
    _need_user(by_user)
    with transaction.atomic():
        game = _lock(game_id)
        if not can_view(game, by_user):
            raise NotFound(_("There is no such game."))
        if game.is_over:
            raise Conflict(_("This game is already over."))
        if not by_user.is_staff and not (game.is_open and game.created_by_id == by_user.pk):
            raise Forbidden(_("Only an administrator can abort a game that has started."))
        game.status = Game.Status.ABORTED
        game.finished_at = timezone.now()
        game.deadline = None
        game.turn_seat = None
        return _changed(game, kind=Move.Kind.SYSTEM, player=by_user,
                        actions=[{"type": "abort"}])


def resume_seat(game_id, user) -> Game:
    """Take a seat back from the bot that stood in after repeated timeouts."""
    _need_user(user)
    with transaction.atomic():
        game = _lock(game_id)
        seat = game.seats.filter(player=user).first()
        if seat is None:
            if not can_view(game, user):
                raise NotFound(_("There is no such game."))
            raise Forbidden(_("You have no seat at this game."))
        if not game.is_playing:
            raise Conflict(_("The game is not being played."))
        if not seat.bot_level:
            raise Conflict(_("You are already playing your seat."))
        seat.bot_level = ""
        seat.timeouts = 0
        seat.save(update_fields=["bot_level", "timeouts"])
        return _changed(game, kind=Move.Kind.SYSTEM, seat=seat.number, player=user,
                        actions=[{"type": "resume"}])


# ----------------------------------------------------------------------------- moves
def play(game_id, user, actions, version, *, seat=None) -> Game:
    """The user's move: one or more actions applied all-or-nothing.

    `version` is the version the client saw; `seat` (optional) is the seat the client
    believes it plays, refused if it is not the user's.
    """
    _need_user(user)
    parsed = parse_actions(actions)
    version = parse_version(version)
    with transaction.atomic():
        game = _lock(game_id)
        mine = game.seats.select_related("player").filter(player=user).first()
        if mine is None:
            if not can_view(game, user):
                raise NotFound(_("There is no such game."))
            raise Forbidden(_("You have no seat at this game."))
        if seat is not None and str(seat) != str(mine.number):
            raise Forbidden(_("That is not your seat."))
        if version != game.version:
            raise StaleVersion()
        if not game.is_playing:
            raise Conflict(_("The game is not being played."))
        if mine.bot_level:
            raise Conflict(_("A computer player is standing in for you: take your seat back first."))
        _apply(game, mine.number, parsed, kind=Move.Kind.MOVE, player=user)
        if mine.timeouts:
            mine.timeouts = 0
            mine.save(update_fields=["timeouts"])
        return game


def play_seat(game_id, seat: int, actions, version, *, by_bot=False) -> Game:
    """A move for a seat, made by the site itself (bots, timeouts)."""
    parsed = parse_actions(actions)
    version = parse_version(version)
    with transaction.atomic():
        game = _lock(game_id)
        if version != game.version:
            raise StaleVersion()
        if not game.is_playing:
            raise Conflict(_("The game is not being played."))
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.players:
            raise BadRequest(_("There is no such seat."))
        kind = Move.Kind.BOT if by_bot else Move.Kind.MOVE
        _apply(game, seat, parsed, kind=kind, player=None)
        return game


def _apply(game: Game, seat: int, actions: list, *, kind: str, player) -> Game:
    """Apply actions on a copy of the deal; save only if every one of them is legal."""
    match = game.match()
    deal = match.deal.copy()
    seats = _seats(game)
    last = len(actions) - 1
    applied = []
    for i, action in enumerate(actions):
        if isinstance(action, ExchangeTrump):  # R27: the one action allowed out of turn
            pass
        elif i > 0 and isinstance(action, Pass) and i == last and (
            deal.is_over or deal.to_act != seat
        ):
            break  # "…then pass": the engine already passed the seat over (R13)
        elif deal.to_act != seat:
            name = _seat_name(seats, deal.to_act)
            if i == 0:
                raise NotYourTurn(_("It is not your turn: %(name)s is to act.") % {"name": name})
            raise IllegalMove(_(
                "After your first %(count)s action(s) it is %(name)s's turn, so the rest can't "
                "be played. Nothing was played."
            ) % {"count": i, "name": name})
        try:
            deal.apply(seat, action)
        except IllegalAction as exc:
            if last == 0:
                raise IllegalMove(str(exc)) from None
            raise IllegalMove(_("Action %(n)s of %(count)s: %(reason)s Nothing was played.") % {
                "n": i + 1, "count": last + 1, "reason": exc}) from None
        applied.append(action)
    match.deal = deal
    now = timezone.now()
    if deal.is_over:
        _record_deal(game, match, seats)
        if not match.is_over:
            match.next_deal()
    game.state = match.to_json()
    _set_turn(game, match, now)
    return _changed(game, kind=kind, seat=seat, player=player,
                    actions=[a.to_dict() for a in applied])


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
        game = _lock(game_id)
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
        return _apply(game, number, [timeout_action(match.deal, number)],
                      kind=Move.Kind.TIMEOUT, player=None)


def _forfeit(game: Game, match: Match, seat: Seat, now) -> Game:
    """The seat's player (their team) becomes the durak of this deal, and the game ends."""
    team = match.rules.team_of(seat.number)
    _record_deal(game, match, _seats(game), forfeit_team=team)
    game.status = Game.Status.FINISHED
    game.finished_at = now
    game.deadline = None
    game.turn_seat = None
    game.forfeited_seat = seat.number
    return _changed(game, kind=Move.Kind.TIMEOUT, seat=seat.number,
                    actions=[{"type": "forfeit"}])


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


# ----------------------------------------------------------------------------- bots
_running = threading.local()


def _bot_budget() -> float | None:
    """Seconds a bot may think (None: its level's default)."""
    return settings.BOT_MOVE_BUDGET


def bot_action(level: str, view: dict) -> dict | None:
    """The bot's choice as an action dict (None if the bot failed); bots see only
    deal.view(seat)."""
    try:
        return choose_action(level, view, budget=_bot_budget()).to_dict()
    except Exception:  # a broken bot must not stop the table
        logger.exception("bot %s failed", level)
        return None


def bot_holds_initiative(game: Game) -> bool:
    return (game.is_playing and game.turn_seat is not None
            and game.seats.filter(number=game.turn_seat).exclude(bot_level="").exists())


def bots_running_here(game_id) -> bool:
    """A bot loop for this game is running in this thread (it makes the next move itself)."""
    return game_id in _running.__dict__.get("games", ())


def run_bots(game_id, *, version=None, max_moves: int = 1000) -> int:
    """Let bots move while a bot holds the initiative; returns the number of bot moves.

    Each move goes through play_seat (its own transaction and lock). Runs once per game
    at a time in this thread: a change made by a bot does not start another loop.
    With `version`, a game that has moved on since (a stale task) is left alone.
    """
    running = _running.__dict__.setdefault("games", set())
    if game_id in running:
        return 0
    running.add(game_id)
    moves = 0
    try:
        while moves < max_moves:
            game = Game.objects.filter(pk=game_id).first()
            if game is None or not game.is_playing:
                break
            if version is not None and moves == 0 and game.version != version:
                break
            match = game.match()
            number = match.deal.to_act
            seat = game.seats.filter(number=number).first()
            if seat is None or not seat.is_bot:
                break
            view = match.deal.view(number)
            # A failed or refused bot move falls back to the timeout move (section 10).
            fallback = timeout_action(match.deal, number).to_dict()
            action = bot_action(seat.bot_level, view) or fallback
            try:
                play_seat(game_id, number, [action], game.version, by_bot=True)
            except StaleVersion:
                continue
            except GameError as exc:
                logger.error("bot move %s refused (%s); playing %s", action, exc, fallback)
                play_seat(game_id, number, [fallback], game.version, by_bot=True)
            moves += 1
    finally:
        running.discard(game_id)
    return moves


def wake_stalled_bots(now=None, *, stall=timedelta(seconds=15)) -> int:
    """Queue a bot turn for games where a bot has held the initiative for a while with no
    task handling it (say its worker died); returns how many were woken."""
    from . import tasks

    now = now or timezone.now()
    woke = 0
    waiting = Game.objects.filter(status=Game.Status.PLAYING, turn_seat__isnull=False,
                                  deadline__isnull=False)
    for game in waiting:
        if game.deadline - game.move_time > now - stall or not bot_holds_initiative(game):
            continue
        tasks.bot_turn.delay(game.pk, game.version)
        woke += 1
    return woke


# ----------------------------------------------------------------------------- reminders
REMINDER_MIN_MOVE_TIME = timedelta(hours=1)  # faster games are played live: no email


def _reminder_due(game: Game, now) -> bool:
    """First after a quarter of the move time, again when an eighth of it is left."""
    started = game.deadline - game.move_time
    if game.reminders_sent == 0:
        return now - started >= game.move_time / 4
    return game.reminders_sent == 1 and game.deadline - now <= game.move_time / 8


def send_reminders(now=None) -> int:
    """Email players whose turn has waited (unless they turned reminders off); each
    reminder is claimed with a conditional update, so a second sweep sends nothing."""
    now = now or timezone.now()
    sent = 0
    due = Game.objects.filter(status=Game.Status.PLAYING, turn_seat__isnull=False,
                              deadline__gt=now, reminders_sent__lt=2,
                              move_time__gte=REMINDER_MIN_MOVE_TIME)
    for game in due.select_related("preset"):
        if not _reminder_due(game, now):
            continue
        seat = game.seats.select_related("player").filter(number=game.turn_seat).first()
        player = seat.player if seat is not None and not seat.bot_level else None
        claimed = Game.objects.filter(pk=game.pk, version=game.version,
                                      reminders_sent=game.reminders_sent).update(
            reminders_sent=game.reminders_sent + 1)
        if not claimed or player is None or not player.email_reminders or not player.email:
            continue
        url = settings.SITE_URL.rstrip("/") + game.get_absolute_url()
        left = game.deadline - now
        hours = max(1, round(left.total_seconds() / 3600))
        send_mail(
            _("Your move in %(game)s") % {"game": game},
            _("Hello %(name)s,\n\nIt is your turn in %(game)s. You have about %(hours)s "
              "hour(s) left before the site plays for you.\n\n%(url)s\n\nYou can turn these "
              "emails off on your profile page.") % {
                "name": player.name, "game": game, "hours": hours, "url": url},
            None, [player.email],
        )
        sent += 1
    return sent
