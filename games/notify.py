"""After a change is committed: tell the game's channel group, and queue a bot turn.

A leaf: it imports no other module of `games`. Services register `game_changed` with
`transaction.on_commit` and decide themselves, inside the transaction, whether a bot is
to act; the Celery task is queued by name.
"""

import asyncio
import logging
import os

from asgiref.sync import SyncToAsync, async_to_sync
from celery import current_app
from channels.layers import BaseChannelLayer, get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)

BOT_TURN = "games.tasks.bot_turn"
COACH_HINT = "games.tasks.coach_hint"
REVIEW_GAME = "games.tasks.review_game"
CHALLENGE_MAIL = "games.tasks.challenge_mail"
ADVANCE_TOURNAMENT = "games.tasks.advance_tournament"
TOURNAMENT_MAIL = "games.tasks.tournament_mail"
PUSH = "games.tasks.push"


def group_name(game_id: int) -> str:
    return f"game-{game_id}"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def nav_group(user_id: int) -> str:
    """A player's navigation sockets (games.live.nav)."""
    return f"nav-{user_id}"


def _channel_layer() -> BaseChannelLayer:
    layer = get_channel_layer()
    assert layer is not None, "settings.CHANNEL_LAYERS names no default layer"
    return layer


def _serving_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop this thread works for, when it is a sync thread of a running server
    (Daphne runs every view and sync consumer of a process on one such thread); else None
    (Celery, management commands, a test without a loop)."""
    try:
        asyncio.get_running_loop()
        return None  # called from async code: async_to_sync refuses anyway
    except RuntimeError:
        pass
    local = SyncToAsync.threadlocal
    loop = getattr(local, "main_event_loop", None)
    if loop is None or getattr(local, "main_event_loop_pid", None) != os.getpid():
        return None
    return loop if loop.is_running() and not loop.is_closed() else None


def _group_send(group: str, event: dict) -> None:
    """Send `event` to `group`. On a server's sync thread the event loop sends it and the
    thread goes on at once (waiting for Redis held up every other request and socket of
    the process); elsewhere it waits until the event is sent. The channel layer
    (durak_site.channel_layer) tries a publish that fails once more on a fresh connection;
    an event lost all the same is made up for by the sockets' catching up."""
    layer = _channel_layer()
    loop = _serving_loop()
    if loop is None:
        async_to_sync(layer.group_send)(group, event)
        return

    def sent(future) -> None:
        if not future.cancelled() and future.exception() is not None:
            logger.error("could not tell group %s about %s: %s", group, event.get("type"),
                         future.exception())

    asyncio.run_coroutine_threadsafe(layer.group_send(group, event), loop).add_done_callback(sent)


def tell_user(user_id: int, event: dict) -> None:
    """Send `event` to every socket of user `user_id` (their table consumers)."""
    try:
        async_to_sync(_channel_layer().group_send)(user_group(user_id), event)
    except Exception:  # a broken channel layer must not stop a log-out
        logger.exception("could not tell user %s's sockets", user_id)


def logged_out(sender, request, user, **kwargs) -> None:
    """user_logged_out: close the sockets of the session that ends."""
    if user is not None and user.pk:
        key = getattr(getattr(request, "session", None), "session_key", None)
        tell_user(user.pk, {"type": "session.ended", "session_key": key})


def user_saved(sender, instance, created, **kwargs) -> None:
    """post_save of a user: sockets re-check their session (new password, deactivated)."""
    if not created:
        user_id = instance.pk
        transaction.on_commit(lambda: tell_user(user_id, {"type": "session.ended"}))


def game_changed(game_id: int, version: int, *, bot_to_move: bool = False,
                 bot_delay: float = 0.0, state: dict | None = None) -> None:
    """Game `game_id` is now at `version`: every consumer in its group renders its own
    reader's table. `bot_to_move`: a computer player is to act, so queue its turn, to run
    `bot_delay` seconds from now (its pace). `state`: the rows as committed
    (games.services.carried), for the server processes only: the sockets read it, never
    send it on."""
    event: dict = {"type": "game.changed", "version": version}
    if state is not None:
        event["state"] = state
    try:
        _group_send(group_name(game_id), event)
    except Exception:  # a broken channel layer must not undo a move; clients heal on reconnect
        logger.exception("could not tell game %s's group about version %s", game_id, version)
    if bot_to_move:
        queue_bot_turn(game_id, version, bot_delay)


LOBBY_GROUP = "lobby"


def people_changed(user_ids, *, lobby: bool = False) -> None:
    """After a change: the navigation sockets of these players update their count of games
    waiting for them ("My games" too); with `lobby`, lobby pages refresh their open tables."""
    try:
        for user_id in user_ids:
            _group_send(nav_group(user_id), {"type": "people.changed"})
        if lobby:
            _group_send(LOBBY_GROUP, {"type": "lobby.changed"})
    except Exception:  # pages heal on the next change or reload
        logger.exception("could not tell players %s", list(user_ids))


def friends_changed(user_ids) -> None:
    """A friend of these players came or went, or sat down at a table: their navigation
    sockets refresh the "Friends online" list they show (games.live.nav)."""
    try:
        for user_id in user_ids:
            _group_send(nav_group(user_id), {"type": "friends.changed"})
    except Exception:  # pages heal on the next change or reload
        logger.exception("could not tell players %s of their friends", list(user_ids))


def queue_bot_turn(game_id: int, version: int, delay: float = 0.0) -> None:
    """Queue `games.tasks.bot_turn(game_id, version)` by name, to run `delay` seconds from
    now (eager Celery runs it now, whatever the delay)."""
    current_app.signature(BOT_TURN, args=(game_id, version)).apply_async(
        countdown=delay if delay > 0 else None)


def queue_hint(game_id: int, version: int, seat: int) -> None:
    """Queue `games.tasks.coach_hint` by name (eager Celery runs it now)."""
    current_app.signature(COACH_HINT, args=(game_id, version, seat)).apply_async()


def queue_review(game_id: int) -> None:
    """Queue `games.tasks.review_game` by name."""
    current_app.signature(REVIEW_GAME, args=(game_id,)).apply_async()


def queue_challenge_mail(game_id: int) -> None:
    """Queue `games.tasks.challenge_mail` by name: the challenged player's email."""
    current_app.signature(CHALLENGE_MAIL, args=(game_id,)).apply_async()


def queue_push(kind: str, game_id: int, by_id: int | None = None) -> None:
    """Queue `games.tasks.push` by name: a push notification about a game."""
    current_app.signature(PUSH, args=(kind, game_id, by_id)).apply_async()


def chat_posted(game_id: int, message_id: int) -> None:
    """A chat message was written at game `game_id`: each consumer in its group sends it
    to its reader, if they may read it."""
    try:
        _group_send(group_name(game_id), {"type": "chat.message", "id": message_id})
    except Exception:  # a lost chat line must not fail the request; sockets catch up
        logger.exception("could not tell game %s's group about chat %s", game_id, message_id)


def tournament_group(tournament_id: int) -> str:
    """The sockets of a tournament's page (games.live.nav)."""
    return f"tournament-{tournament_id}"


def tournament_changed(tournament_id: int, *, lobby: bool = False) -> None:
    """A tournament's field, rounds or standings changed: its pages re-render them; with
    `lobby`, lobby pages refresh their list of open tournaments."""
    try:
        _group_send(tournament_group(tournament_id), {"type": "tournament.changed",
                                                      "tournament": tournament_id})
        if lobby:
            _group_send(LOBBY_GROUP, {"type": "lobby.changed"})
    except Exception:  # pages heal on the next change or reload
        logger.exception("could not tell tournament %s's pages", tournament_id)


def queue_tournament_check(tournament_id: int) -> None:
    """A table of the tournament ended: see whether its round is over."""
    current_app.signature(ADVANCE_TOURNAMENT, args=(tournament_id,)).apply_async()


def queue_tournament_mail(tournament_id: int, number: int) -> None:
    """Mail the players: round `number` has started, or (0) the final standings."""
    current_app.signature(TOURNAMENT_MAIL, args=(tournament_id, number)).apply_async()
