"""Challenges: a private 2-player table made for one named player, who accepts (takes the
free seat; the game starts) or declines (the table is cancelled), and hears of it by email."""

from __future__ import annotations

from datetime import timedelta
from functools import partial
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import QuerySet
from django.urls import reverse
from django.utils.translation import gettext as _

from .. import notify
from ..models import Game, RulePreset
from . import offers
from .access import Someone, is_guest, need_user
from .change import Change, locked
from .errors import BadRequest, Conflict, Forbidden, NotFound
from .friends import has_blocked
from .lobby import abort, create_game, join_game
from .mail import mail_player
from .words import for_player

if TYPE_CHECKING:
    from accounts.models import Player

CHALLENGE_PLAYERS = offers.TWO


def find_player(name: str) -> Player:
    """The active player called `name` (their username, in any case if only one matches),
    or NotFound."""
    Player = get_user_model()
    name = str(name or "").strip()
    active = Player.objects.filter(is_active=True)
    player = active.filter(username=name).first()
    if player is None:  # "Boris" for boris, when only one player's name matches so
        matches = list(active.filter(username__iexact=name)[:2])
        player = matches[0] if len(matches) == 1 else None
    if player is None:
        raise NotFound(_("There is no player called %(name)s.") % {"name": str(name)[:150]})
    return player


def challenge(user: Someone, opponent: Player | None, preset: RulePreset | None, *,
              time_control: str | None = None, move_time: timedelta | None = None,
              bank_time: timedelta | None = None, increment: timedelta | None = None,
              rated: bool = True) -> Game:
    """A private table for `user` and `opponent` (no bots), rated unless `rated=False`;
    `opponent` hears of it by email after the commit."""
    me = need_user(user)
    if opponent is None or not getattr(opponent, "is_active", False):
        raise NotFound(_("There is no such player."))
    if opponent.pk == me.pk:
        raise BadRequest(_("You can't challenge yourself."))
    if is_guest(me) or getattr(opponent, "is_guest", False):  # a challenge reaches strangers
        raise Forbidden(_("Guests can't send or receive challenges. Claim your account to "
                          "challenge other players."))
    if has_blocked(me.pk, opponent.pk):
        raise Forbidden(_("You have blocked %(name)s: unblock them first to challenge them.")
                        % {"name": opponent.name})
    if has_blocked(opponent.pk, me.pk):
        raise Forbidden(_("%(name)s does not take challenges from you.") % {
            "name": opponent.name})
    if isinstance(preset, RulePreset) and not offers.for_challenge(preset):
        raise BadRequest(_("A challenge is a game for two: %(preset)s is played by "
                           "%(players)s.") % {
            "preset": preset.label, "players": offers.players_words(preset)})
    # The new table's change tells the opponent's pages (Change.save: the challenged player).
    game = create_game(user, preset, players=CHALLENGE_PLAYERS, bots=0, private=True,
                       time_control=time_control, move_time=move_time, bank_time=bank_time,
                       increment=increment, rated=rated, challenged=opponent)
    transaction.on_commit(partial(notify.queue_challenge_mail, game.pk), robust=True)
    return game


def challenge_friend(user: Someone, opponent: Player | None) -> Game:
    """The one-tap challenge (docs/design.md, "Friends and blocks"): the rules, clock and
    rating of the last game for two these players had together, else the first offered
    preset for two at its own clock, rated."""
    me = need_user(user)
    last = (Game.objects.filter(players=CHALLENGE_PLAYERS, seats__player=me, preset__active=True)
            .filter(seats__player=opponent).exclude(status=Game.Status.ABORTED)
            .select_related("preset").order_by("-created_at").first()
            if opponent is not None else None)
    if last is not None:
        return challenge(me, opponent, last.preset, time_control=last.time_control,
                         move_time=last.move_time, bank_time=last.bank_time,
                         increment=last.increment, rated=last.rated)
    presets = RulePreset.objects.filter(active=True, min_players__lte=CHALLENGE_PLAYERS,
                                        max_players__gte=CHALLENGE_PLAYERS)
    preset = presets.order_by("position", "pk").first()
    if preset is None:
        raise Conflict(_("No rules for two players are offered right now."))
    return challenge(me, opponent, preset)


def _challenge_for(change: Change) -> Game:
    """The locked challenge table; only the challenged player may answer it."""
    game, user = change.game, change.user
    if game.challenged_id is None:
        raise NotFound(_("There is no such challenge."))
    if user is None or game.challenged_id != user.pk:
        raise Forbidden(_("Only the challenged player may answer this challenge."))
    if not game.is_open:
        raise Conflict(_("This challenge has already been answered or withdrawn."))
    return game


def accept_challenge(game_id: int | str, user: Someone) -> Game:
    """Take the free seat: the table is full and the game starts."""
    with locked(game_id, user) as change:
        game = _challenge_for(change)
        return join_game(game.pk, user, invite_token=game.invite_token)


def decline_challenge(game_id: int | str, user: Someone) -> Game:
    """Say no: the table is cancelled."""
    with locked(game_id, user) as change:
        _challenge_for(change)
        return abort(change, "decline")


def open_challenges(user: Player) -> QuerySet[Game]:
    """The challenges waiting for `user`'s answer, oldest first."""
    return (Game.objects.filter(challenged=user, status=Game.Status.OPEN)
            .exclude(seats__player=user).select_related("preset", "created_by")
            .order_by("created_at"))


def send_challenge_mail(game_id: int) -> bool:
    """Email the challenged player (unless they want no emails): who challenged them, to
    what, and the link to answer. True when a mail went."""
    game = Game.objects.select_related("preset", "created_by", "challenged").filter(
        pk=game_id, status=Game.Status.OPEN).first()
    player = game.challenged if game is not None else None
    if game is None or player is None or not player.is_active or not player.email:
        return False
    if player.move_emails == type(player).MoveEmails.NEVER:
        return False
    root = settings.SITE_URL.rstrip("/")
    challenger = game.created_by.name if game.created_by else "—"
    with for_player(player):
        mail_player(player, "moves", _("%(name)s challenges you to a game of durak") % {
            "name": challenger}, _(
            "Hello %(player)s,\n\n%(name)s challenges you to a game: %(game)s, %(clock)s.\n\n"
            "Accept or decline in My games: %(mine)s\nThe table: %(url)s") % {
            "player": player.name, "name": challenger, "game": game.preset.label,
            "clock": game.clock_label, "mine": root + reverse("my_games"),
            "url": root + game.invite_url})
    return True
