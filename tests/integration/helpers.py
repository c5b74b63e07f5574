"""Small helpers for the integration tests: racing threads, reading a game back."""

from __future__ import annotations

import threading

from django.db import connection

from games.models import Game, Move


def race(*calls, timeout: float = 30.0) -> list:
    """Run each call in its own thread, all released at the same moment by a barrier.

    Returns, in order, each call's result or the exception it raised. Each thread has its
    own database connection (closed when it ends), so on PostgreSQL the calls really do
    run side by side and meet at the game row's lock.
    """
    barrier = threading.Barrier(len(calls))
    outcomes: list = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait(timeout=timeout)
            outcomes[i] = call()
        except BaseException as exc:  # noqa: BLE001 - the outcome is what the test checks
            outcomes[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call), daemon=True)
               for i, call in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
    assert not any(t.is_alive() for t in threads), "a racing call is stuck (a deadlock?)"
    return outcomes


def split(outcomes) -> tuple[list, list]:
    """(results, exceptions) of race()."""
    errors = [o for o in outcomes if isinstance(o, BaseException)]
    return [o for o in outcomes if not isinstance(o, BaseException)], errors


def fresh(game) -> Game:
    return Game.objects.get(pk=game.pk)


def moves(game, **filters) -> list[Move]:
    return list(Move.objects.filter(game_id=game.pk, **filters).order_by("seq"))


def to_act(game) -> int:
    return fresh(game).match().deal.to_act


def plain_action(game, seat=None) -> str:
    """A legal move for the seat to act that hands the turn on (no trump exchange)."""
    from games.services import timeout_action

    deal = fresh(game).match().deal
    seat = deal.to_act if seat is None else seat
    return timeout_action(deal, seat).token()


def user_at(game, number):
    return game.seats.get(number=number).player
