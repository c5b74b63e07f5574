"""Friends and blocks (docs/design.md, "Friends and blocks"): a player's friend list (one
way, as a follow; presence is shown between mutual friends only), their blocks, and the
questions the other services ask of them (may these two meet at a table, whose chat is
hidden from whom, whom to tell when someone comes online)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from accounts.models import Block, Friend

from .. import notify
from ..models import Game, Seat
from ..tournament.pairing import pair_key
from .access import Someone, can_view, need_user
from .errors import BadRequest, Forbidden, NotFound

if TYPE_CHECKING:
    from accounts.models import Player

MAX_FRIENDS = 200  # a friend list's length; each is a presence the navigation reads
MAX_BLOCKS = 500


def _other(me: Player, other: Player | None) -> Player:
    if other is None or not getattr(other, "is_active", False):
        raise NotFound(_("There is no such player."))
    if other.pk == me.pk:
        raise BadRequest(_("That is you."))
    return other


def add_friend(user: Someone, other: Player | None) -> bool:
    """Add `other` to the user's friends; False if they were already there."""
    me = need_user(user)
    other = _other(me, other)
    if blocked_between(me.pk, other.pk):
        raise Forbidden(_("You can't add a player you have blocked, or who has blocked you."))
    with transaction.atomic():
        if Friend.objects.filter(player=me).count() >= MAX_FRIENDS:
            raise BadRequest(_("Your friend list is full: at most %(max)s friends.") % {
                "max": MAX_FRIENDS})
        _row, made = Friend.objects.get_or_create(player=me, friend=other)
    if made:
        tell_presence([me.pk, other.pk], themselves=True)
    return made


def remove_friend(user: Someone, other: Player | None) -> bool:
    """Take `other` off the user's friends; False if they were not there."""
    me = need_user(user)
    other = _other(me, other)
    removed = Friend.objects.filter(player=me, friend=other).delete()[0] > 0
    if removed:
        tell_presence([me.pk, other.pk], themselves=True)
    return removed


def block(user: Someone, other: Player | None) -> bool:
    """Block `other`: the friendship ends both ways, and from now on neither can challenge
    or invite the other, sit at the other's table or be paired with them by quick match,
    and the user no longer reads their chat. False if they were blocked already. The pages
    call `apart.block`, which also ends the open tables the two share."""
    me = need_user(user)
    other = _other(me, other)
    with transaction.atomic():
        if Block.objects.filter(player=me).count() >= MAX_BLOCKS:
            raise BadRequest(_("You have blocked as many players as one can: unblock one "
                               "first."))
        _row, made = Block.objects.get_or_create(player=me, blocked=other)
        Friend.objects.filter(Q(player=me, friend=other) | Q(player=other, friend=me)).delete()
    tell_presence([me.pk, other.pk], themselves=True)
    return made


def unblock(user: Someone, other: Player | None) -> bool:
    """Lift the user's block of `other` (a block `other` made stays)."""
    me = need_user(user)
    other = _other(me, other)
    return Block.objects.filter(player=me, blocked=other).delete()[0] > 0


# ----------------------------------------------------------------------------- reading
def friends_of(user: Someone) -> list[Player]:
    """The players the user has added, by name."""
    if user is None or not user.is_authenticated:
        return []
    Player = get_user_model()
    return list(Player.objects.filter(friend_of_rows__player=user, is_active=True)
                .order_by("username"))


def mutual_friends(user: Someone) -> list[Player]:
    """The user's friends who have added them too: the ones whose presence they see."""
    if user is None or not user.is_authenticated:
        return []
    Player = get_user_model()
    return list(Player.objects.filter(friend_of_rows__player=user, friend_rows__friend=user,
                                      is_active=True).order_by("username"))


def added_by(user: Someone) -> list[Player]:
    """The players who have added the user and whom the user has not added back (nor
    blocked, either way), by name: the friends page offers to add them back."""
    if user is None or not user.is_authenticated:
        return []
    Player = get_user_model()
    apart = Block.objects.filter(Q(player=user) | Q(blocked=user))
    return list(Player.objects.filter(friend_rows__friend=user, is_active=True)
                .exclude(friend_of_rows__player=user)
                .exclude(pk__in=apart.values("blocked_id"))
                .exclude(pk__in=apart.values("player_id"))
                .order_by("username"))


def friend_ids(user: Someone) -> set[int]:
    if user is None or not user.is_authenticated:
        return set()
    return set(Friend.objects.filter(player=user).values_list("friend_id", flat=True))


def is_friend(user: Someone, other: Player) -> bool:
    return other.pk in friend_ids(user)


def blocked_players(user: Someone) -> list[Player]:
    """The players the user has blocked, by name."""
    if user is None or not user.is_authenticated:
        return []
    Player = get_user_model()
    return list(Player.objects.filter(blocked_by_rows__player=user).order_by("username"))


def blocked_ids(user: Someone) -> set[int]:
    """The players the user has blocked (their chat is hidden from the user)."""
    if user is None or not user.is_authenticated:
        return set()
    return set(Block.objects.filter(player=user).values_list("blocked_id", flat=True))


def has_blocked(player_id: int, other_id: int) -> bool:
    """Has player `player_id` blocked `other_id`?"""
    return Block.objects.filter(player_id=player_id, blocked_id=other_id).exists()


def blocked_by_all(player_id: int, others: set[int]) -> bool:
    """Have all of `others` (some) blocked `player_id`?"""
    return bool(others) and others == set(Block.objects.filter(
        player_id__in=others, blocked_id=player_id).values_list("player_id", flat=True))


def blocked_between(one: int, other: int) -> bool:
    """A block either way between two players."""
    return Block.objects.filter(Q(player_id=one, blocked_id=other)
                                | Q(player_id=other, blocked_id=one)).exists()


def blocked_pairs(players: Iterable[int]) -> set[tuple[int, int]]:
    """The pairs among `players` with a block either way, keyed as the pairing keys them."""
    ids = list(players)
    rows = Block.objects.filter(player_id__in=ids, blocked_id__in=ids).values_list("player_id", "blocked_id")
    return {pair_key(a, b) for a, b in rows}


def kept_apart(player_id: int) -> set[int]:
    """Everyone with a block either way with `player_id`: they never share a table."""
    ids: set[int] = set()
    for one, other in Block.objects.filter(Q(player_id=player_id) | Q(blocked_id=player_id)).values_list(
            "player_id", "blocked_id"):
        ids.add(other if one == player_id else one)
    return ids


def check_may_sit_with(player_id: int, others: Iterable[int | None]) -> None:
    """Forbidden when a block either way stands between `player_id` and one of `others`
    (the people at a table they would join, challenge or play again with)."""
    people = {pk for pk in others if pk is not None and pk != player_id}
    if not people:
        return
    rows = set(Block.objects.filter(Q(player_id=player_id, blocked_id__in=people)
                                    | Q(player_id__in=people, blocked_id=player_id))
               .values_list("player_id", flat=True))
    if player_id in rows:
        raise Forbidden(_("You have blocked a player at this table: unblock them first to "
                          "play with them."))
    if rows:
        raise Forbidden(_("A player at this table does not want to play with you."))


# ----------------------------------------------------------------------------- presence
def presence_audience(player_id: int) -> list[int]:
    """Who sees `player_id` come and go: their mutual friends."""
    return list(Friend.objects.filter(friend_id=player_id,
                                      player__friend_of_rows__player_id=player_id)
                .values_list("player_id", flat=True))


def tell_presence(player_ids: Iterable[int], *, themselves: bool = False) -> None:
    """These players' presence or tables changed (a socket opened or closed, a table
    started or ended): their mutual friends' pages refresh their "Friends online"
    (games.live.nav), after the commit; `themselves` too (their friendship changed)."""
    ids = list(player_ids)

    def tell() -> None:
        audience = {pk for player_id in ids for pk in presence_audience(player_id)}
        notify.friends_changed(sorted(audience | set(ids) if themselves else audience))

    transaction.on_commit(tell, robust=True)


def tables_of(player_ids: Iterable[int], reader: Someone) -> dict[int, Game | None]:
    """Each player's table now (the newest game in play or still open at which they hold
    a seat), if the reader may see it; None when it is a table the reader may not see."""
    tables: dict[int, Game | None] = {}
    seats = (Seat.objects.filter(player_id__in=list(player_ids),
                                 game__status__in=[Game.Status.PLAYING, Game.Status.OPEN])
             .select_related("game", "game__preset").order_by("-game__created_at"))
    for seat in seats[:1000]:
        if seat.player_id is None or seat.player_id in tables:
            continue
        tables[seat.player_id] = seat.game if can_view(seat.game, reader) else None
    return tables
