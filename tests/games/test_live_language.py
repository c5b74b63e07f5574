"""The table's socket speaks its reader's language, as the table page does."""

import pytest
from asgiref.sync import sync_to_async

from tests.games.test_live import connect, receive_table

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True), pytest.mark.asyncio]


async def test_the_table_socket_speaks_the_readers_language(duel, alice, bob):
    """The saved language of a player; the browser's for anyone else."""
    alice.language = "fi"
    await sync_to_async(alice.save)(update_fields=["language"])
    comm, connected, _ = await connect(duel, alice)
    assert connected
    html, _ = await receive_table(comm)
    await comm.disconnect()
    assert ">Nostopakka<" in html and ">Talon<" not in html

    comm, connected, _ = await connect(duel, bob)
    html, _ = await receive_table(comm)
    await comm.disconnect()
    assert ">Talon<" in html and ">Nostopakka<" not in html
