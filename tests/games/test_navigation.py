"""The navigation socket (/ws/me/): the count of games waiting for you, My games and the
lobby, live."""

import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from durak_site.asgi import application
from games import notify, services
from tests.games.conftest import seat_user
from tests.games.test_live import session_headers

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True), pytest.mark.asyncio]

WAITING = re.compile(r'data-waiting="(\d+)"')


async def me(user=None, page="", extra_headers=()):
    headers = await sync_to_async(session_headers)(user) if user else [
        (b"origin", b"http://testserver"), (b"host", b"testserver")]
    headers = [*headers, *extra_headers]
    comm = WebsocketCommunicator(application, f"/ws/me/{'?page=' + page if page else ''}",
                                 headers=headers)
    connected, _ = await comm.connect()
    return comm, connected


async def waiting(comm):
    html = await comm.receive_from(timeout=3)
    assert 'id="nav-mine" hx-swap-oob="true"' in html
    return int(WAITING.search(html).group(1)), html


@sync_to_async
def to_act(game):
    game.refresh_from_db()
    return seat_user(game, game.turn_seat), game


@sync_to_async
def move(game):
    game.refresh_from_db()
    token = game.match().deal.legal_actions(game.turn_seat)[0].token()
    services.play(game.pk, seat_user(game, game.turn_seat), [token], game.version)


async def test_the_count_follows_the_moves(duel, alice, bob):
    first, game = await to_act(duel)
    other = bob if first == alice else alice
    comm, connected = await me(other)
    assert connected
    assert (await waiting(comm))[0] == 0
    await move(game)  # now it is `other`'s move
    count, html = await waiting(comm)
    assert count == 1 and "1 game waits for you" in html
    await comm.disconnect()


async def test_a_challenge_counts_until_it_is_answered(alice, bob, classic):
    comm, _ = await me(bob)
    assert (await waiting(comm))[0] == 0
    game = await sync_to_async(services.challenge)(alice, bob, classic)
    assert (await waiting(comm))[0] == 1
    await sync_to_async(services.decline_challenge)(game.pk, bob)
    assert (await waiting(comm))[0] == 0
    await comm.disconnect()


async def test_news_that_leaves_the_count_as_it_was_sends_nothing(duel, alice, bob):
    first, game = await to_act(duel)
    other = bob if first == alice else alice
    comm, _ = await me(other)
    assert (await waiting(comm))[0] == 0
    await sync_to_async(notify.people_changed)([other.pk])  # still nothing waits for them
    assert await comm.receive_nothing(timeout=0.5)
    await move(game)
    assert (await waiting(comm))[0] == 1
    await comm.disconnect()


async def test_my_games_page_is_told_to_refresh(duel, alice, bob):
    first, game = await to_act(duel)
    comm, _ = await me(first, page="mine")
    _, html = await waiting(comm)
    assert 'id="mine-poke"' in html and 'hx-get="/games/mine/"' in html
    await sync_to_async(notify.people_changed)([first.pk])  # the count is the same...
    _, html = await waiting(comm)  # ...but the page's list may not be
    assert 'id="mine-poke"' in html
    await comm.disconnect()


async def test_the_lobby_hears_of_new_tables_even_logged_out(alice, classic):
    comm, connected = await me(page="lobby")
    assert connected
    await sync_to_async(services.create_game)(alice, classic, players=3)
    html = await comm.receive_from(timeout=3)
    assert 'id="lobby-poke"' in html and 'hx-target="#open-games"' in html
    await comm.disconnect()


async def test_a_moves_does_not_poke_the_lobby(duel):
    comm, _ = await me(page="lobby")
    await move(duel)
    assert await comm.receive_nothing(timeout=0.5)
    await comm.disconnect()


async def test_nobody_to_tell_is_refused():
    comm, connected = await me()
    assert not connected


async def test_the_navigation_speaks_the_readers_language(alice, bob):
    """Rendered by the socket, not a page: in the player's saved language, else the
    browser's (as pages are), whatever language the server's thread had last."""
    alice.language = "fi"
    await sync_to_async(alice.save)(update_fields=["language"])
    comm, _ = await me(alice)
    _, html = await waiting(comm)
    assert ">Pelini<" in html and "My games" not in html
    await comm.disconnect()
    comm, _ = await me(bob, extra_headers=[(b"accept-language", b"ru,en;q=0.5")])
    _, html = await waiting(comm)
    assert ">Мои игры<" in html and "Pelini" not in html
    await comm.disconnect()
