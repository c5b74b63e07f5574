"""What happens after a game changed (services call this after the commit).

1. The game's channel group hears "game N is at version V"; every consumer renders its own
   user's table and pushes it (games.consumers).
2. If a bot holds the initiative, a Celery task makes its move (games.tasks.bot_turn),
   queued only after the commit. A bot loop already running in this thread carries on by
   itself instead.
"""

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)


def group_name(game_id: int) -> str:
    return f"game-{game_id}"


def game_changed(game) -> None:
    from . import services, tasks  # both import this module

    try:
        layer = get_channel_layer()
        async_to_sync(layer.group_send)(
            group_name(game.pk), {"type": "game.changed", "version": game.version}
        )
    except Exception:  # a broken channel layer must not undo a move; clients heal on reconnect
        logger.exception("could not tell game %s's group about version %s", game.pk, game.version)
    if services.bot_holds_initiative(game) and not services.bots_running_here(game.pk):
        tasks.bot_turn.delay_on_commit(game.pk, game.version)
