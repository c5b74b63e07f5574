"""One change of a game, from the row lock to the news of it (docs/design.md, "How a move
flows"). Every service that changes a game is written as

    with locked(game_id, user, seated=True, playing=True) as change:
        ...  # change.game, change.seats (in order, with players), change.mine
        return change.save(Move.Kind.SYSTEM, ["resign"], seat=change.mine.number)

`locked` locks the game row, reads its seats once and checks what changes have in common
(a logged-in player, a game they may see, their seat, the version they saw, a game in
play or still open, their own hand on the seat), each refusal worded here once.
`Change.save` writes the next version and the move log row; after the commit the table,
the people concerned and, if one is to act, a bot hear of it, and the log gets its line.
Anything refused raises a GameError inside the transaction: the game is left as it was.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils.translation import gettext as _

from .. import notify
from ..models import Game, Move, Seat
from . import rows
from .access import Someone, can_view, find_game, found, need_user, own_seat, seats_of
from .carried import carry
from .friends import tell_presence

if TYPE_CHECKING:
    from accounts.models import Player
from .errors import BadRequest, Conflict, Forbidden, NotFound, StaleVersion
from .turn import bot_holds_initiative, bot_pace

move_log = logging.getLogger("durak.move")  # one line per change of a game, after its commit


class _Site:
    """The site itself makes the change (a bot, a timeout, a vacation): nobody to check."""

    def __repr__(self) -> str:
        return "SITE"


SITE = _Site()
ANY_VERSION = object()  # `locked` without a version to check
CLOCK_SHIFT = "clocks"  # a change's one action when only the clocks moved on (an outage)


@dataclass(eq=False)
class Change:
    """A game being changed: the locked row, its seats in order (with their players) and
    the seat of the person making the change (None for the site or an unseated player).
    Change the game and these seats in place; `save` writes the change once."""

    game: Game
    seats: list[Seat]
    mine: Seat | None = None
    user: Player | None = None  # the person making the change; None: the site
    locked_at: float | None = None  # time.monotonic() at the lock, for the log line
    saved: bool = False

    @property
    def my_seat(self) -> Seat:
        """`mine`, for a change that requires it (`seated=True`)."""
        if self.mine is None:
            raise ValueError("this change has no seat of its user's: lock it seated=True")
        return self.mine

    def save(self, kind: str, actions: Iterable[str] = (), *, seat: int | None = None,
             player: Player | _Site | None = SITE,
             bot_plays_on: bool = False, fields: tuple[str, ...] | None = None,
             order_due: bool = False) -> Game:
        """Save the game with the next version and log the change (`actions`, tokens, as
        made by `player`, by default the change's user, at `seat`); after the commit,
        notify tells the table and, if a bot is to act, queues its turn (after its pace,
        turn.bot_pace, when people are at the table).

        `bot_plays_on`: the caller is a bot loop that plays the next bot move itself, so no
        bot turn is queued for this version. `fields`, the only columns the change touched,
        saves writing the rest. `order_due`: a standing order of the seat to act fits
        (games.services.orders), so the site plays it in a bot turn, as a bot's move.
        """
        game, seats = self.game, self.seats
        player = self.user if isinstance(player, _Site) else player
        game.version += 1
        if fields:
            rows.update(game, [*fields, "version"])
        else:
            game.save()
        rows.insert(Move(game=game, seq=game.version, seat=seat, player=player,
                         actions=list(actions), kind=kind))
        keep_seat_facts(game, seats)
        bot_to_move = not bot_plays_on and (order_due or bot_holds_initiative(game, seats))
        delay = bot_pace(seats, kind) if bot_to_move else 0.0
        transaction.on_commit(partial(self._tell, bot_to_move, delay), robust=True)
        people = [s.player_id for s in seats if s.player_id is not None]
        if game.challenged_id is not None and game.challenged_id not in people:
            people.append(game.challenged_id)  # their count of open challenges (navigation)
        lobby = kind == Move.Kind.SYSTEM or not game.is_playing  # seats, start, end: the lobby
        transaction.on_commit(partial(notify.people_changed, people, lobby=lobby), robust=True)
        if lobby:  # a table made, joined, started or ended: their friends see where they are
            tell_presence(people)
        transaction.on_commit(partial(_log_move, game, kind, seat, self.locked_at))
        self.saved = True
        return game


    def _tell(self, bot_to_move: bool, bot_delay: float) -> None:
        """After the commit: the table's group hears of the version with the rows as
        committed (carried.carry: no other process reads them again to push them)."""
        notify.game_changed(self.game.pk, self.game.version, bot_to_move=bot_to_move,
                            bot_delay=bot_delay, state=carry(self.game, self.seats))


def keep_seat_facts(game: Game, seats: list[Seat]) -> None:
    """The game's facts on its seats (Seat.facts_of: status, privacy, preset, finish time),
    written when they changed (a game made, started, finished or aborted): one UPDATE,
    none for a move (docs/design.md, "A year of data")."""
    facts = Seat.facts_of(game)
    if all(getattr(s, name) == value for s in seats for name, value in facts.items()):
        return
    Seat.objects.filter(game=game).update(**facts)
    for seat in seats:
        for name, value in facts.items():
            setattr(seat, name, value)


def _log_move(game: Game, kind: str, seat: int | None, locked_at: float | None) -> None:
    """One line per change; with LOG_FORMAT=json each field is a key of the line."""
    took = round((time.monotonic() - locked_at) * 1000, 1) if locked_at is not None else None
    move_log.info("game %s v%s %s seat %s %s ms", game.pk, game.version, kind, seat, took,
                  extra={"game": game.pk, "version": game.version, "kind": kind, "seat": seat,
                         "status": game.status, "duration_ms": took})


def parse_version(version: object) -> int:
    """The version of the game the client saw, a whole number."""
    if isinstance(version, bool) or not isinstance(version, int | str | float):
        raise BadRequest(_("The version must be a whole number."))
    try:
        return int(version)
    except (TypeError, ValueError):
        raise BadRequest(_("The version must be a whole number.")) from None


def lock_game(game_id: int | str) -> Game:
    """The game row, locked until the transaction ends; NotFound for a bad id."""
    # Lock the game row only (no joins: FOR UPDATE would lock the preset row too).
    return found(rows.game(game_id, lock=True))


def new_change(game: Game, user: Player | None = None) -> Change:
    """The change that makes a new game (its row just created in this transaction)."""
    return _reading(game, user)


def require(change: Change, *, visible: bool = False, invite_token: object = None,
            seated: bool = False, seat: object = None, version: int | None = None,
            shifts_ok: bool = False, playing: bool = False, is_open: bool = False,
            in_person: bool = False) -> None:
    """What a change may need, checked in this order: a game the user may see (`visible`,
    with the invite link's `invite_token`); their seat at it (`seated`), the seat the
    client believes it plays (`seat`); the `version` the client saw (or an older one
    with only clock shifts since, `shifts_ok`); a game in play
    (`playing`) or still open (`is_open`); a seat the user plays themself (`in_person`:
    not handed to a stand-in, docs/rules.md section 10)."""
    game, user = change.game, change.user
    if visible and not can_view(game, user, invite_token):
        raise NotFound(_("There is no such game."))
    if seated:
        change.mine = own_seat(game, user, change.mine)
        if seat is not None and str(seat) != str(change.mine.number):
            raise Forbidden(_("That is not your seat."))
    if version is not None and version != game.version and not (
            shifts_ok and _only_clocks_since(game, version)):
        raise StaleVersion()
    if playing and not game.is_playing:
        raise Conflict(_("The game is not being played."))
    if is_open and not game.is_open:
        raise Conflict(_("This game has already started."))
    if in_person and change.mine is not None and change.mine.bot_level:
        raise Conflict(_("A computer player is standing in for you: take your seat back first."))


def _only_clocks_since(game: Game, version: int) -> bool:
    """Were the changes after `version` clock shifts alone (clocks.forgive_downtime)?"""
    return version < game.version and not Move.objects.filter(game=game, seq__gt=version) \
        .exclude(kind=Move.Kind.SYSTEM, actions=[CLOCK_SHIFT]).exists()


@contextmanager
def locked(game_id: int | str, user: Someone | _Site = SITE, *, version: object = ANY_VERSION,
           **checks: Any) -> Iterator[Change]:
    """The game row locked for one change, in one transaction: its seats read once, the
    user's seat found, the `version` the client saw (a whole number) and `checks` (see
    `require`) passed. `user`: the person making the change (they must be logged in);
    SITE (the default) when the site makes it."""
    person = None if isinstance(user, _Site) else need_user(user)
    seen = None if version is ANY_VERSION else parse_version(version)
    with transaction.atomic():
        game = lock_game(game_id)
        change = _reading(game, person, time.monotonic())
        require(change, version=seen, **checks)
        yield change


def _reading(game: Game, person: Player | None, locked_at: float | None = None) -> Change:
    """The change of `game` by `person` (None: the site), its seats read once: the seats,
    the names, the clock, who to tell."""
    seats = seats_of(game)
    mine = next((s for s in seats if person is not None and s.player_id == person.pk), None)
    return Change(game, seats, mine, person, locked_at)


def read(game_id: int | str, user: Someone | _Site = SITE, **checks: Any) -> Change:
    """The game as it stands, not locked, checked as `locked` checks it: for services that
    only look (the coach)."""
    person = None if isinstance(user, _Site) else need_user(user)
    change = _reading(find_game(game_id), person)
    require(change, **checks)
    return change
