"""Who may see a game and who may play in it: the reader's seat, the private game's
readers, the logged-in player a change needs. Reads only; nothing here locks or writes."""

from __future__ import annotations

import hmac
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from ..models import Game, Seat
from . import rows
from .errors import Forbidden, NotFound

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import Player

# Whoever asks: a request's or a socket's user, logged in or not (None: nobody).
type Someone = Player | AnonymousUser | None


def need_user(user: Someone) -> Player:
    """The logged-in player; Forbidden for nobody or a visitor."""
    if user is None or not user.is_authenticated:
        raise Forbidden(_("Log in to play."))
    return user


def is_guest(user: Someone) -> bool:
    """A guest from an invite link (accounts.guests), not yet claimed."""
    return bool(user is not None and user.is_authenticated and getattr(user, "is_guest", False))


def casual_only(user: Someone, rated: bool) -> None:
    """Guests play casual games only: Forbidden from a rated game or tournament
    (docs/design.md, "Guests from a link")."""
    if rated and is_guest(user):
        raise Forbidden(_("Guests play casual games only. Claim your account (a username, an "
                          "email address and a password) to play rated games."))


def find_game(game_id: int | str) -> Game:
    """The game of this id; NotFound for a bad id."""
    return found(rows.game(game_id))


def found(game: Game | None) -> Game:
    """`game`, or NotFound when there is none."""
    if game is None:
        raise NotFound(_("There is no such game."))
    return game


def seats_of(game: Game) -> list[Seat]:
    """The game's seats in order, with their players."""
    return rows.seats(game)


def seat_of(game: Game, user: Someone) -> Seat | None:
    """The user's seat at this game, or None."""
    if user is None or not user.is_authenticated:
        return None
    return game.seats.select_related("player").filter(player=user).first()


def can_view(game: Game, user: Someone, invite_token: object = None) -> bool:
    """Private games are seen only by their players, the player challenged to one, holders
    of the invite link, and staff."""
    if not game.private:
        return True
    if user is not None and user.is_authenticated and (
        user.is_staff or game.challenged_id == user.pk
        or game.seats.filter(player=user).exists()
    ):
        return True
    return bool(invite_token) and hmac.compare_digest(str(invite_token), game.invite_token)


def own_seat(game: Game, user: Someone, seat: Seat | None = None) -> Seat:
    """The user's seat at this game (`seat`, when the caller has found it already);
    NotFound if they may not even see the game, else Forbidden."""
    seat = seat if seat is not None else seat_of(game, user)
    if seat is None:
        if not can_view(game, user):
            raise NotFound(_("There is no such game."))
        raise Forbidden(_("You have no seat at this game."))
    return seat
