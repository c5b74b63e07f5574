"""An invite survives logging in and signing up: "Log in" and "Sign up" carry `next=`
(checked by Django's url_has_allowed_host_and_scheme) and both land there afterwards."""

import html
import re
from urllib.parse import quote

import pytest

from games import services

pytestmark = pytest.mark.django_db
SIGNUP = "/accounts/signup/"
LOGIN = "/accounts/login/"


def links(body: str) -> dict:
    """The header's log-in and sign-up links."""
    header = body[body.index('<header class="site-header">'):body.index("</header>")]
    found = dict(re.findall(r'<a href="([^"]*)">(Log in|Sign up)</a>', header))
    return {text: html.unescape(href) for href, text in found.items()}


def new_player(**extra):
    return {"username": "friend", "email": "", "password1": "a-Fine-pass-9137",
            "password2": "a-Fine-pass-9137", **extra}


@pytest.fixture
def private_game(alice, classic):
    return services.create_game(alice, classic, players=2, private=True)


def test_the_header_links_on_an_invite_carry_it(client, private_game):
    body = client.get(private_game.invite_url).content.decode()
    expected = quote(private_game.invite_url, safe="/")
    assert links(body) == {"Log in": f"{LOGIN}?next={expected}",
                           "Sign up": f"{SIGNUP}?next={expected}"}


def test_the_lobby_links_carry_nothing(client):
    assert links(client.get("/").content.decode()) == {"Log in": LOGIN, "Sign up": SIGNUP}


def test_the_log_in_page_passes_next_on_to_sign_up_and_back(client, private_game):
    url = private_game.invite_url
    body = client.get(LOGIN, {"next": url}).content.decode()
    assert f'name="next" value="{html.escape(url)}"' in body
    assert f'href="{SIGNUP}?next={html.escape(quote(url, safe="/"))}"' in body
    body = client.get(SIGNUP, {"next": url}).content.decode()
    assert f'name="next" value="{html.escape(url)}"' in body
    assert f'href="{LOGIN}?next={html.escape(quote(url, safe="/"))}"' in body


def test_log_in_lands_on_the_invite(client, alice, password, private_game):
    r = client.post(LOGIN, {"username": "alice", "password": password,
                            "next": private_game.invite_url})
    assert r.status_code == 302 and r.url == private_game.invite_url


def test_sign_up_lands_on_the_invite_and_the_newcomer_can_join(client, private_game):
    r = client.post(SIGNUP, new_player(next=private_game.invite_url))
    assert r.status_code == 302 and r.url == private_game.invite_url
    body = client.get(r.url).content.decode()
    assert "Take a seat" in body
    r = client.post(f"/games/{private_game.pk}/join/", {"invite": private_game.invite_token})
    assert r.status_code == 302
    assert private_game.seats.filter(player__username="friend").exists()


@pytest.mark.parametrize("unsafe", ["https://evil.example/", "//evil.example/games/1/",
                                    "javascript:alert(1)", "http://testserver.evil.example/"])
def test_sign_up_ignores_an_offsite_next(client, unsafe):
    body = client.get(SIGNUP, {"next": unsafe}).content.decode()
    assert "evil" not in body and "javascript" not in body
    r = client.post(SIGNUP, new_player(next=unsafe))
    assert r.status_code == 302 and r.url == "/"


def test_a_logged_in_player_is_sent_on_to_next(alice_client, private_game):
    r = alice_client.get(SIGNUP, {"next": private_game.invite_url})
    assert r.status_code == 302 and r.url == private_game.invite_url


def test_the_tables_own_log_in_link_keeps_the_invite(client, private_game, bob):
    body = client.get(private_game.invite_url).content.decode()
    found = re.search(r'<a href="([^"]*)">Log in</a> or <a href="[^"]*">sign up</a> to take a seat',
                      body)
    assert found, "the table offers no log-in link"
    href = html.unescape(found.group(1))
    assert href.startswith(f"{LOGIN}?next=")
    bob.set_password("a-Fine-pass-9137")
    bob.save()
    response = client.post(href, {"username": bob.username, "password": "a-Fine-pass-9137",
                                  "next": client.get(href).context["next"]})
    assert response.status_code == 302 and response.url == private_game.invite_url
