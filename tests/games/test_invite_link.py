"""The invite link a seated player copies from the waiting room is a whole URL, on the
page and in the table pushed over the WebSocket (which has no request to ask for a host).

Found by the browser tier: the live table replaced the link with "://" + path.
"""

import html as html_lib
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings

from durak_site.asgi import application
from games import services
from games.present import render

from .conftest import client_for, table_url

INVITE = re.compile(r'id="invite-link"[^>]*value="([^"]*)"')


def invite_link(body: str) -> str:
    return html_lib.unescape(INVITE.search(body).group(1))


@pytest.mark.django_db
def test_it_shows_a_whole_invite_link_on_the_page(alice, classic):
    game = services.create_game(alice, classic, players=2, private=True)
    body = client_for(alice).get(table_url(game)).content.decode()
    assert invite_link(body) == f"http://testserver{game.invite_url}"


@pytest.mark.django_db
def test_the_pushed_table_uses_the_given_origin_or_the_site_url(alice, classic):
    game = services.create_game(alice, classic, players=2, private=True)
    html = render.table_html(game, alice, site_root="http://127.0.0.1:8123", oob=True)
    assert invite_link(html) == f"http://127.0.0.1:8123{game.invite_url}"
    html = render.table_html(game, alice, oob=True)
    assert invite_link(html) == settings.SITE_URL.rstrip("/") + game.invite_url


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.asyncio
async def test_the_websocket_table_links_to_the_page_origin(alice, classic):
    game = await sync_to_async(services.create_game)(alice, classic, players=2, private=True)
    client = await sync_to_async(client_for)(alice)
    cookie = f"sessionid={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    comm = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=[
        (b"origin", b"http://localhost:8000"), (b"host", b"localhost:8000"), (b"cookie", cookie.encode())])
    connected, _ = await comm.connect()
    assert connected
    html = await comm.receive_from(timeout=3)
    assert invite_link(html) == f"http://localhost:8000{game.invite_url}"
    await comm.disconnect()
