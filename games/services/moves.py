"""A move at the table: the player's (play_change: the outage rule and the deadline
decided once, before the move, in its change), the site's for a seat (a bot), a standing
order. The actions are read and applied by games.services.apply."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Game, Move
from .access import Someone, need_user
from .apply import apply_move, apply_order, read_move
from .change import SITE, Change, locked
from .clocks import charge_timeout, forgive_here, overdue
from .errors import BadRequest, TimeRanOut
from .refusals import nothing_chosen


def play(game_id: int | str, user: Someone, tokens: object, version: object, *,
         seat: object = None) -> Game:
    """The user's move (play_change): the game as committed."""
    return play_change(game_id, user, tokens, version, seat=seat).game


def play_change(game_id: int | str, user: Someone, tokens: object, version: object, *,
                seat: object = None) -> Change:
    """The user's move: one or more actions (tokens) applied all-or-nothing; the change
    as committed (the game and its seats, for the answer: games.present.snapshots.keep).

    `version` is the version the client saw (newer clock shifts alone do not make it
    stale); `seat` (optional) is the seat the client believes it plays, refused if it is
    not the user's. The deadline is decided once, before the move: a seat whose time ran
    out while the site was down gets its clock moved on (clocks.forgive_here); else after
    its deadline the move is refused (TimeRanOut) and the site's move for the seat
    (section 10) is played at once, in the same change, rather than at the next sweep.
    """
    need_user(user)  # before reading the move: a visitor hears "log in" first
    actions = read_move(tokens, allow_empty=True)
    with locked(game_id, user, seated=True, seat=seat, version=version, playing=True,
                in_person=True, shifts_ok=True) as change:
        game, mine, seats = change.game, change.my_seat, change.seats
        now = timezone.now()
        late = overdue(game, mine.number, now) and not (
            forgive_here(change, now) and not overdue(game, mine.number, now))
        if not late:
            if not actions:  # what to choose, said for where the player stands
                raise BadRequest(nothing_chosen(game.match_in_play().deal, mine.number,
                                                lambda n: seats[n].name if n is not None else ""))
            apply_move(change, mine.number, actions, kind=Move.Kind.MOVE)
            if mine.timeouts:
                mine.timeouts = 0
                mine.save(update_fields=["timeouts"])
            return change
        charge_timeout(change, now)  # too late: the clock the player saw has run out
    raise TimeRanOut(_("Your time for this move ran out, so the site moved for you."))


def play_seat(game_id: int | str, seat: object, tokens: object, version: object, *,
              by_bot: bool = False, bot_plays_on: bool = False) -> Game:
    """A move for a seat, made by the site itself (bots, timeouts). `bot_plays_on`: the
    caller plays the next bot move itself (see change.Change.save)."""
    actions = read_move(tokens)
    with locked(game_id, SITE, version=version, playing=True) as change:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < change.game.players:
            raise BadRequest(_("There is no such seat."))
        kind = Move.Kind.BOT if by_bot else Move.Kind.MOVE
        return apply_move(change, seat, actions, kind=kind, bot_plays_on=bot_plays_on)


def play_order(game_id: int | str, number: int, version: object, *,
               bot_plays_on: bool = False) -> Game:
    """The standing order of seat `number`, played for its player by the site (a bot
    turn, games.services.botplay). Refused (Conflict) unless one of the seat's orders
    fits now (orders.standing_action): the player may have changed them meanwhile."""
    with locked(game_id, SITE, version=version, playing=True) as change:
        return apply_order(change, number, bot_plays_on=bot_plays_on)
