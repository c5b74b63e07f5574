"""The table chat: the seated players write; they read it, and so does anyone watching a
public game (a private game's chat is for its players only). Messages are plain text
(templates escape them), length- and rate-limited; a player may mute another."""

from __future__ import annotations

import unicodedata
from functools import partial
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .. import limits, notify
from ..models import CHAT_MAX_LENGTH, ChatMessage, ChatMute, Game
from .access import Someone, can_view, find_game, is_guest, need_user, seat_of
from .errors import BadRequest, Conflict, Forbidden, GameError, NotFound
from .friends import blocked_by_all, blocked_ids

if TYPE_CHECKING:
    from accounts.models import Player

# Quick phrases (for phones): stored as their key, worded in each reader's language.
PHRASES = {
    "gg": gettext_lazy("Good game"),
    "turn": gettext_lazy("Your turn!"),
    "hello": gettext_lazy("Hello!"),
    "thanks": gettext_lazy("Thanks!"),
    "wait": gettext_lazy("One moment, please."),
}
HISTORY = 100  # messages a table shows


class TooFast(GameError):
    status = 429


def can_read(game: Game, user: Someone, invite_token: object = None) -> bool:
    """The seated players, and anyone who may watch a public game."""
    if seat_of(game, user) is not None:
        return True
    return not game.private and can_view(game, user, invite_token)


def among_friends(game: Game) -> bool:
    """A table whose players are no strangers to each other: a private one that is not a
    challenge, where everyone came by its invite link from a player who sent it (docs/design.md,
    "Guests from a link": where a guest may chat)."""
    return game.private and game.challenged_id is None


def _joins_emoji(text: str, i: int) -> bool:
    """A zero-width joiner inside an emoji (👩‍💻, a family): between a symbol (or its
    variation mark) and a symbol. Any other control or format character goes."""
    return (text[i] == "\u200d" and 0 < i < len(text) - 1
            and unicodedata.category(text[i - 1])[0] in "SM" and unicodedata.category(text[i + 1])[0] == "S")


def clean_text(text: object) -> str:
    """The message as it will be kept: no control characters, no surrounding space."""
    if not isinstance(text, str):
        raise BadRequest(_("That is not a message."))
    text = "".join(ch if unicodedata.category(ch)[0] != "C" or _joins_emoji(text, i) else " "
                   for i, ch in enumerate(text))
    text = " ".join(text.split())
    if not text:
        raise BadRequest(_("Write something first."))
    if len(text) > CHAT_MAX_LENGTH:
        raise BadRequest(_("A message holds at most %(max)s characters.") % {
            "max": CHAT_MAX_LENGTH})
    return text


def post(game_id: int | str, user: Someone, *, text: object = None,
         phrase: str | None = None) -> ChatMessage:
    """A seated player writes `text` (or sends the quick phrase `phrase`)."""
    author = need_user(user)
    game = find_game(game_id)
    if seat_of(game, user) is None:
        if not can_view(game, user):
            raise NotFound(_("There is no such game."))
        raise Forbidden(_("Only the players at this table can write here."))
    if game.status == Game.Status.ABORTED:
        raise Conflict(_("This table was cancelled, so its chat is closed."))
    if is_guest(author) and not among_friends(game):
        raise Forbidden(_("Guests chat only at private tables, with the people who came by "
                          "its link. Claim your account to chat here."))
    _check_heard(game, author)
    if phrase:
        if phrase not in PHRASES:
            raise BadRequest(_("That is not a message."))
        text = ""
    else:
        text, phrase = clean_text(text), ""
    with transaction.atomic():
        # settings.LIMITS["chat"]: a few messages per player and table in a few seconds.
        if limits.rows_full("chat", ChatMessage.objects.filter(game=game, author=author)):
            raise TooFast(_("You are writing too fast: wait a few seconds."))
        message = ChatMessage.objects.create(game=game, author=author, text=text, phrase=phrase)
        transaction.on_commit(partial(notify.chat_posted, game.pk, message.pk), robust=True)
    return message


def _check_heard(game: Game, author: Player) -> None:
    """Forbidden when every other person at the table has blocked the author: nobody
    there would read them (a block hides the blocked player's chat, friends.py)."""
    others = {pk for pk in game.seats.exclude(player=author).values_list("player_id", flat=True)
              if pk is not None}
    if blocked_by_all(author.pk, others):
        raise Forbidden(_("The other players at this table have blocked you, so they would "
                          "not read your messages."))


def muted_ids(user: Someone) -> set[int]:
    """The players whose chat the user does not read: muted, or blocked."""
    if user is None or not user.is_authenticated:
        return set()
    muted = set(ChatMute.objects.filter(user=user).values_list("muted_id", flat=True))
    return muted | blocked_ids(user)


def messages_for(game: Game, user: Someone) -> list[ChatMessage]:
    """The chat as `user` reads it (the last HISTORY messages, muted players left out);
    empty for someone who may not read it."""
    if not can_read(game, user):
        return []
    rows = (ChatMessage.objects.filter(game=game).exclude(author_id__in=muted_ids(user))
            .select_related("author").order_by("-at", "-pk")[:HISTORY])
    return list(reversed(rows))


def readable_by(message: ChatMessage, user: Someone, invite_token: object = None) -> bool:
    """May `user` read this message as it arrives (not muted, and allowed to read)?"""
    if message.author_id in muted_ids(user):
        return False
    return can_read(message.game, user, invite_token)


def set_mute(user: Someone, game_id: int | str, player_id: int | str | None,
             muted: bool) -> None:
    """Mute (or unmute) a player seated at a game whose chat the user reads."""
    me = need_user(user)
    game = find_game(game_id)
    if not can_read(game, me):
        raise NotFound(_("There is no such game."))
    try:
        seat = (game.seats.filter(player_id=int(player_id)).first()
                if player_id is not None else None)
    except (TypeError, ValueError):
        seat = None
    if seat is None:
        raise BadRequest(_("There is no such player at this table."))
    if seat.player_id == me.pk:
        raise BadRequest(_("You can't mute yourself."))
    if muted:
        ChatMute.objects.get_or_create(user=me, muted_id=seat.player_id)
    else:
        ChatMute.objects.filter(user=me, muted_id=seat.player_id).delete()


def phrase_text(message: ChatMessage) -> str:
    """What the message says, in the reader's language for a quick phrase."""
    return str(PHRASES[message.phrase]) if message.phrase in PHRASES else message.text
