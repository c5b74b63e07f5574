"""Anonymous spectators of a table share one render per version (games.present.render): each
still gets the new table, their own CSRF token in it, and no hidden card."""

import pytest
from asgiref.sync import sync_to_async

from games import services
from games.present import felt, render
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


async def watchers(game, tokens):
    """A watcher's socket for each CSRF token, each with the table it gets on connect."""
    comms = [await watch(game, token) for token in tokens]
    for comm in comms:
        await receive_table(comm)  # on connect: the table as it is
    return comms


async def play_a_move(game, alice, bob):
    """The seat to act plays its first legal move; the version it was played on."""
    seat = (await deal_of(game)).to_act
    before = game.version
    await sync_to_async(services.play)(game.pk, alice if seat == 0 else bob,
                                       [(await legal(game, seat))[0]], before, seat=seat)
    return before


async def test_spectators_share_one_render_of_each_version(duel, alice, bob, monkeypatch):
    rendered = []
    real, real_felt = render.render_to_string, felt.render

    def counted(template, ctx, *args, **kwargs):
        rendered.append(ctx["game"].version)
        return real(template, ctx, *args, **kwargs)

    def counted_felt(ctx):
        if ctx.get("part_oob"):  # a push's felt (the whole table's is in its render)
            rendered.append(ctx["game"].version)
        return real_felt(ctx)

    monkeypatch.setattr(render, "render_to_string", counted)
    monkeypatch.setattr(felt, "render", counted_felt)
    tokens = [f"{'abcdefgh'[i]}" * 32 for i in range(3)]
    comms = await watchers(duel, tokens)
    rendered.clear()
    before = await play_a_move(await fresh(duel), alice, bob)
    deal = await deal_of(duel)
    for comm, token in zip(comms, tokens):
        html, version = await receive_table(comm)
        assert version == before + 1
        assert render.CSRF_MARK not in html and render.SWAP_MARK not in html
        assert not any(other in html for other in tokens if other != token)
        await sync_to_async(assert_no_leak)(html, deal, None)
        await comm.disconnect()
    assert rendered == [before + 1]  # one render for the three of them


async def test_a_watchers_push_made_for_another_watcher_goes_out_from_the_event_loop(
        duel, alice, bob, monkeypatch):
    """The first anonymous watcher in a process makes the frame in the socket's thread;
    the others of the same view are sent it without that thread (TableConsumer.dispatch)."""
    from games.live.table import TableConsumer

    handled = []
    real = TableConsumer.game_changed

    def counted(self, event):
        handled.append(event.get("version"))
        return real(self, event)

    monkeypatch.setattr(TableConsumer, "game_changed", counted)
    tokens = [f"{'pqrstuvw'[i]}" * 32 for i in range(4)]
    comms = await watchers(duel, tokens)
    duel = await fresh(duel)
    for _move in range(2):
        handled.clear()
        before = await play_a_move(duel, alice, bob)
        deal = await deal_of(duel)
        for comm, token in zip(comms, tokens):
            html, version = await receive_table(comm)
            assert version == before + 1
            assert 'id="table-frame"' in html and f'data-from="{before}"' in html
            assert token in html and not any(t in html for t in tokens if t != token)
            await sync_to_async(assert_no_leak)(html, deal, None)
        assert handled == [before + 1]  # one socket's thread made it; three were sent it
        duel = await fresh(duel)
    for comm in comms:
        await comm.disconnect()


async def test_watchers_whose_event_comes_one_after_another_take_the_frame_made_first(
        duel, alice, bob, monkeypatch):
    """The group event reaches a process's watchers one after another too (a busy event
    loop): each after the first takes the kept frame, none goes to the socket thread."""
    from bench.movebench import consumer_for
    from games import notify
    from games.live.table import TableConsumer

    handled, events = [], []
    real = TableConsumer.game_changed

    def counted(self, event):
        handled.append(event.get("version"))
        return real(self, event)

    monkeypatch.setattr(TableConsumer, "game_changed", counted)
    monkeypatch.setattr(notify, "_group_send", lambda group, event: events.append(event))
    watchers = [consumer_for(duel.pk, None) for _ in range(3)]
    for watcher in watchers:
        await sync_to_async(watcher.send_table)()
    before = await play_a_move(await fresh(duel), alice, bob)
    event = next(e for e in events if e.get("type") == "game.changed")
    for watcher in watchers:
        await watcher.dispatch(dict(event))
        assert watcher.reader.sent_version == before + 1
        assert f'data-from="{before}"' in watcher.frames[-1]
    assert handled == [before + 1]
