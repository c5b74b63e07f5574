"""A block keeps two players apart (docs/design.md, "Friends and blocks", "One door"): the
block itself (friends.block), then every challenge between them and every table both wait
at ends, as a declined challenge does (lobby.abort), so that neither waits on the other."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Q

from ..models import Game
from . import friends
from .access import Someone, need_user
from .change import locked
from .lobby import abort

if TYPE_CHECKING:
    from accounts.models import Player

BLOCK = "block"  # the system move row's token of a table ended by a block


def block(user: Someone, other: Player | None) -> bool:
    """`friends.block`, then the open tables the two share end (`part`)."""
    made = friends.block(user, other)
    if other is not None:
        part(need_user(user).pk, other.pk)
    return made


def _waiting_for(player_id: int) -> set[int]:
    """The open tables where the player sits or is the one challenged."""
    return set(Game.objects.filter(status=Game.Status.OPEN)
               .filter(Q(seats__player_id=player_id) | Q(challenged_id=player_id))
               .values_list("pk", flat=True))


def part(one: int, other: int) -> list[int]:
    """End every open table both players wait at (a challenge either way, a table both
    sit at, waiting to start), each through the one door: both players' pages, My games
    and the table hear of it as of a declined challenge. The ids of the tables ended."""
    ended = []
    for game_id in sorted(_waiting_for(one) & _waiting_for(other)):
        with locked(game_id) as change:
            people = {s.player_id for s in change.seats} | {change.game.challenged_id}
            if change.game.is_open and {one, other} <= people:  # still, under the lock
                abort(change, BLOCK)
                ended.append(game_id)
    return ended
