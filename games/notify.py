"""What happens after a game changed (called by services after the commit).

In this issue: run any pending bot moves, synchronously. The live-updates issue adds the
channel-layer push here and moves the bot loop into a Celery task.
"""


def game_changed(game) -> None:
    from . import services  # services imports this module

    game_id = getattr(game, "pk", game)
    services.run_bots(game_id)
