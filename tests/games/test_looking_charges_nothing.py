"""Looking at an overdue table charges no timeout: only the deadline sweep and a move do
(docs/design.md, "Clocks"). The socket's connect here; the page, its htmx fragment and
poll in tests/games/test_downtime.py and test_table_view.py."""

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from games.models import Game, Move
from tests.games.test_live import connect, receive_table

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True),
              pytest.mark.asyncio]


@sync_to_async
def _overdue(game):
    late = timezone.now() - timedelta(minutes=5)
    Game.objects.filter(pk=game.pk).update(deadline=late)
    return late


@sync_to_async
def _after(game):
    game.refresh_from_db()
    return game.version, game.deadline, Move.objects.filter(kind=Move.Kind.TIMEOUT).count()


async def test_a_socket_that_connects_to_an_overdue_table_charges_nothing(duel, alice, carol):
    late = await _overdue(duel)
    for user in (alice, carol, None):  # a player, a watcher, a visitor
        comm, connected, _code = await connect(duel, user)
        assert connected
        _html, version = await receive_table(comm)
        assert version == duel.version
        await comm.disconnect()
    assert await _after(duel) == (duel.version, late, 0)
