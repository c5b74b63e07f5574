"""A block keeps two players apart (docs/design.md, "Friends and blocks"): the challenges
between them and the tables both wait at end as a declined challenge does, and both
players' pages hear of it; a refusal on My games stays where the live refresh can't
wipe it."""

import re
from html import unescape

import pytest
from django.template.loader import render_to_string

from games import notify, services
from games.models import Game, Move

from .conftest import client_for, table_url

pytestmark = pytest.mark.django_db


def block_by_page(blocker, name):
    r = client_for(blocker).post(f"/friends/{name}/", {"do": "block"})
    assert r.status_code == 302
    return r


@pytest.fixture
def told(monkeypatch):
    """The ids of the players whose navigation sockets hear people_changed."""
    ids: list[int] = []
    real = notify.people_changed

    def spy(people, **kwargs):
        ids.extend(people)
        return real(people, **kwargs)

    monkeypatch.setattr(notify, "people_changed", spy)
    return ids


@pytest.mark.parametrize("blocker", ["challenged", "challenger"])
def test_a_block_ends_a_challenge_sent_before_it(alice, bob, classic, told, blocker,
                                                 django_capture_on_commit_callbacks):
    game = services.challenge(bob, alice, classic)  # bob challenges alice
    assert "Challenges for you" in client_for(alice).get("/games/mine/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        if blocker == "challenged":
            block_by_page(alice, "bob")
        else:
            block_by_page(bob, "alice")
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    last = Move.objects.filter(game=game).order_by("-seq").first()
    assert last is not None and last.kind == Move.Kind.SYSTEM and last.actions == ["block"]
    assert {alice.pk, bob.pk} <= set(told)  # both players' My games and badges refresh
    table = unescape(client_for(bob).get(table_url(game)).content.decode())
    assert "This game was cancelled before it started." in table  # as on a decline
    assert "Waiting for alice to accept the challenge." not in table
    assert "challenge sent to" not in client_for(bob).get("/games/mine/").content.decode()
    assert "Challenges for you" not in client_for(alice).get("/games/mine/").content.decode()


def test_a_block_ends_only_the_tables_both_wait_at(alice, bob, carol, classic,
                                                  django_capture_on_commit_callbacks):
    shared = services.create_game(alice, classic, players=3)
    services.join_game(shared.pk, bob)
    own = services.create_game(alice, classic, players=3)  # alice's alone
    other = services.challenge(carol, bob, classic)  # between bob and carol
    with django_capture_on_commit_callbacks(execute=True):
        block_by_page(alice, "bob")
    status = dict(Game.objects.values_list("pk", "status"))
    assert status == {shared.pk: Game.Status.ABORTED, own.pk: Game.Status.OPEN,
                      other.pk: Game.Status.OPEN}
    assert services.apart.part(alice.pk, bob.pk) == []  # twice changes nothing


def test_a_refusal_on_my_games_is_outside_what_the_refresh_replaces(alice, bob, classic):
    game = services.challenge(bob, alice, classic)
    services.friends.block(alice, bob)  # the rows alone: the challenge is still open
    r = client_for(alice).post(f"/games/{game.pk}/challenge/", {"answer": "accept"},
                               HTTP_ACCEPT_LANGUAGE="fi")
    assert r.status_code == 403
    page = r.content.decode()
    refusal = re.search(r'<p [^>]*role="alert">([^<]+)</p>', page)
    assert refusal is not None and refusal.group(1).strip()
    # The navigation socket's refresh swaps #my-games for the list fetched again.
    poke = notify_fragment()
    target = re.search(r'hx-target="#([\w-]+)"', poke)
    select = re.search(r'hx-select="#([\w-]+)"', poke)
    assert target is not None and select is not None
    replaced = element(page, target.group(1))
    assert refusal.group(0) not in replaced and refusal.group(0) in page
    assert refusal.group(1) not in element(
        client_for(alice).get("/games/mine/").content.decode(), select.group(1))


def notify_fragment():
    """What the navigation socket of My games pushes (games/_live.html)."""
    return render_to_string("games/_live.html", {"nav": True, "waiting": 0, "moves": 0,
                                                 "mine": True})


def element(page, id_):
    """The element with this id, up to its matching close tag (divs and sections)."""
    start = page.index(f'id="{id_}"')
    start = page.rindex("<", 0, start)
    tag = re.match(r"<(\w+)", page[start:]).group(1)
    depth, at = 0, start
    for m in re.finditer(rf"<(/?){tag}\b[^>]*>", page[start:]):
        depth += -1 if m.group(1) else 1
        if depth == 0:
            at = start + m.end()
            break
    return page[start:at]
