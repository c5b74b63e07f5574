"""Anonymous spectators of a table share one render per version (games.present.render): each
still gets the new table, their own CSRF token in it, and no hidden card."""

import pytest
from asgiref.sync import sync_to_async

from games import services
from games.present import render
from tests.games.leaks import assert_no_leak

from .test_live import deal_of, fresh, legal, receive_table

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True), pytest.mark.asyncio]


async def watch(game, token):
    from channels.testing import WebsocketCommunicator

    from durak_site.asgi import application

    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"),
               (b"cookie", f"csrftoken={token}".encode())]
    comm = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)
    connected, _ = await comm.connect()
    assert connected
    return comm


async def test_spectators_share_one_render_of_each_version(duel, alice, bob, monkeypatch):
    rendered = []
    real = render.render_to_string

    def counted(template, ctx, *args, **kwargs):
        rendered.append(ctx["game"].version)
        return real(template, ctx, *args, **kwargs)

    monkeypatch.setattr(render, "render_to_string", counted)
    tokens = [f"{'abcdefgh'[i]}" * 32 for i in range(3)]
    comms = [await watch(duel, token) for token in tokens]
    for comm in comms:
        await receive_table(comm)  # on connect: the table as it is
    duel = await fresh(duel)
    seat = (await deal_of(duel)).to_act
    player = alice if seat == 0 else bob
    rendered.clear()
    before = duel.version
    await sync_to_async(services.play)(duel.pk, player, [(await legal(duel, seat))[0]],
                                       before, seat=seat)
    deal = await deal_of(duel)
    for comm, token in zip(comms, tokens):
        html, version = await receive_table(comm)
        assert version == before + 1
        assert render.CSRF_MARK not in html and render.SWAP_MARK not in html
        assert not any(other in html for other in tokens if other != token)
        await sync_to_async(assert_no_leak)(html, deal, None)
        await comm.disconnect()
    assert rendered == [before + 1]  # one render for the three of them
