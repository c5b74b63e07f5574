"""Standing orders (games.services.orders): a seated player's "pass automatically when I
can only throw in" and "take automatically when I cannot beat", set from the table, played
by the site on their turn when they fit, and seen by nobody else.

The pack is stacked (tests/games/conftest.py): alice (seat 0) holds 7S 7C 7D QS QC QD and
leads, bob (seat 1) holds 9S 9C 9D JS JC JD; hearts are trump. Bob beats a seven, never a
queen. Transactional, so that the commits' callbacks queue the site's turns (eager Celery).
"""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import notify, services
from games.models import Game, Move, Seat
from tests.games.conftest import client_for

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

HTMX = {"HX-Request": "true"}
ORDER_WORDS = ("standing order", "Standing orders", "auto_take", "auto_pass",
               "automatically")


@pytest.fixture
def game(alice, bob, classic, stacked):
    made = services.create_game(alice, classic, players=2, move_time=timedelta(days=3))
    return services.join_game(made.pk, bob)


def seat(game, number):
    return Seat.objects.get(game=game, number=number)


def orders_of(game):
    return list(Seat.objects.filter(game=game).order_by("number")
                .values_list("auto_pass", "auto_take", "auto_moves"))


def last_move(game):
    return Move.objects.filter(game=game).order_by("-seq").first()


def fresh(game):
    return Game.objects.get(pk=game.pk)


def post_orders(client, game, **fields):
    return client.post(f"/games/{game.pk}/orders/", fields, headers=HTMX)


# ----------------------------------------------------------------------------- the orders
def test_a_take_order_takes_when_the_defender_cannot_beat(game, alice, bob):
    services.set_orders(game.pk, bob, auto_take="1")
    game = services.play(game.pk, alice, ["attack:QS"], game.version)  # no card of bob's beats it
    game = fresh(game)
    move = last_move(game)
    assert (move.kind, move.seat, move.actions) == (Move.Kind.ORDER, 1, ["take"])
    deal = game.match().deal
    assert deal.taking and deal.to_act == 0  # alice may throw in before bob picks up (R15)
    assert seat(game, 1).timeouts == 0 and seat(game, 1).auto_take  # it stands for the deal


def test_a_take_order_waits_while_the_defender_can_beat(game, alice, bob):
    services.set_orders(game.pk, bob, auto_take="1")
    game = services.play(game.pk, alice, ["attack:7S"], game.version)  # 9S or JS beats it
    game = fresh(game)
    assert last_move(game).kind == Move.Kind.MOVE
    assert game.match().deal.to_act == 1 and not game.match().deal.taking


def test_a_pass_order_passes_when_only_throwing_in_is_left(game, alice, bob):
    services.set_orders(game.pk, alice, auto_pass="1")
    game = services.play(game.pk, alice, ["attack:7S"], game.version)  # a lead is never passed
    assert game.match().deal.to_act == 1
    services.play(game.pk, bob, ["defend:7S:9S"], game.version)
    # alice may throw in 7C or 7D (R8) or pass (R13): her order passes, the bout is beaten
    # off and bob leads the next (R16, R18).
    game = fresh(game)
    move = last_move(game)
    assert (move.kind, move.seat, move.actions) == (Move.Kind.ORDER, 0, ["pass"])
    deal = game.match().deal
    assert not deal.table and deal.attacker == 1 and deal.to_act == 1


def test_a_pass_order_never_leads_or_passes_a_lead(game, alice):
    version = game.version
    services.set_orders(game.pk, alice, auto_pass="1", auto_take="1")  # alice is to lead
    game = fresh(game)
    assert game.version == version and game.match().deal.to_act == 0
    assert services.standing_action(game.match().deal, seat(game, 0)) is None


def test_an_order_that_fits_when_it_is_set_plays_at_once(game, alice, bob):
    game = services.play(game.pk, alice, ["attack:QS"], game.version)
    assert game.match().deal.to_act == 1
    services.set_orders(game.pk, bob, auto_take="1")
    move = last_move(fresh(game))
    assert (move.kind, move.actions) == (Move.Kind.ORDER, ["take"])


def test_an_order_turned_off_plays_nothing(game, alice, bob):
    services.set_orders(game.pk, bob, auto_take="1")
    services.set_orders(game.pk, bob)  # both boxes unticked
    game = services.play(game.pk, alice, ["attack:QS"], game.version)
    assert fresh(game).version == game.version and fresh(game).match().deal.to_act == 1


def test_a_deadline_plays_a_fitting_order_not_a_timeout(game, alice, bob, monkeypatch):
    monkeypatch.setattr(notify, "queue_bot_turn", lambda *args: None)  # the turn got lost
    services.set_orders(game.pk, bob, auto_take="1")
    game = services.play(game.pk, alice, ["attack:QS"], game.version)
    assert fresh(game).match().deal.to_act == 1
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    services.timeout(game.pk, game.version)
    move = last_move(fresh(game))
    assert (move.kind, move.actions) == (Move.Kind.ORDER, ["take"])
    assert seat(game, 1).timeouts == 0 and seat(game, 1).timeouts_total == 0


def test_orders_clear_when_the_deal_ends(alice, bob, classic, seeded):
    game = services.create_game(alice, classic, players=2, deals=2, move_time=timedelta(days=3))
    game = services.join_game(game.pk, bob)
    users = {0: alice, 1: bob}
    for user in users.values():
        services.set_orders(game.pk, user, auto_pass="1", auto_take="1")
    for _ in range(400):
        game = fresh(game)
        match = game.match()
        if match.deal_number == 2:
            break
        to_act = match.deal.to_act
        action = match.deal.legal_actions(to_act)[0]  # leads and beats when it can
        services.play(game.pk, users[to_act], [action.token()], game.version)
    assert fresh(game).match().deal_number == 2
    assert orders_of(game) == [(False, False, []), (False, False, [])]
    assert Move.objects.filter(game=game, kind=Move.Kind.ORDER).exists()


def test_the_replay_plays_orders_as_moves(game, alice, bob):
    services.set_orders(game.pk, bob, auto_take="1")
    game = services.play(game.pk, alice, ["attack:QS"], game.version)
    from games.present.replay import moves_of

    assert moves_of(fresh(game))[-1] == (1, ["take"])


# ----------------------------------------------------------------------------- the form
def test_the_owner_sets_orders_from_the_table(game, bob):
    client = client_for(bob)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="orders"' in page and 'name="auto_take"' in page
    response = post_orders(client, game, seat="1", auto_take="1")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="orders"' in html and "Saved." in html
    assert 'name="auto_take" value="1" checked' in html
    assert 'name="auto_pass" value="1" checked' not in html
    assert orders_of(game)[1] == (False, True, [])
    # Without htmx: back to the table, which shows the box ticked.
    response = client.post(f"/games/{game.pk}/orders/", {"auto_pass": "1"})
    assert response.status_code == 302 and orders_of(game)[1] == (True, False, [])
    assert 'name="auto_pass" value="1" checked' in client.get(f"/games/{game.pk}/").content.decode()


def test_nobody_else_sets_a_players_orders(game, alice, carol):
    before = orders_of(game)
    response = post_orders(client_for(alice), game, seat="1", auto_take="1")
    assert response.status_code == 403 and "That is not your seat." in response.content.decode()
    response = post_orders(client_for(carol), game, auto_take="1")
    assert response.status_code == 403 and "You have no seat at this game." in response.content.decode()
    assert 'name="auto_take"' not in response.content.decode()
    response = Client().post(f"/games/{game.pk}/orders/", {"auto_take": "1"})
    assert response.status_code == 302 and "/login" in response["Location"]
    assert orders_of(game) == before


def test_bad_input_is_refused_and_changes_nothing(game, bob, alice, classic):
    client = client_for(bob)
    before = orders_of(game)
    response = post_orders(client, game, auto_take="maybe")
    assert response.status_code == 400
    assert "A standing order is either on or off." in response.content.decode()
    assert post_orders(client, game, seat="x", auto_take="1").status_code == 403
    assert client.get(f"/games/{game.pk}/orders/").status_code == 405
    assert client.post("/games/999999/orders/", {"auto_take": "1"}, headers=HTMX).status_code == 404
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(bob)
    assert strict.post(f"/games/{game.pk}/orders/", {"auto_take": "1"}).status_code == 403
    assert orders_of(game) == before
    waiting = services.create_game(alice, classic, players=2)  # not started: nothing to order
    response = post_orders(client_for(alice), waiting, auto_take="1")
    assert response.status_code == 409 and not Seat.objects.get(game=waiting, number=0).auto_take


# ----------------------------------------------------------------------------- who sees them
def test_orders_are_on_their_owners_page_alone(game, alice, bob, carol):
    services.set_orders(game.pk, bob, auto_take="1")
    services.play(game.pk, alice, ["attack:QS"], game.version)  # bob's order takes
    own = client_for(bob).get(f"/games/{game.pk}/").content.decode()
    assert 'name="auto_take" value="1" checked' in own
    assert "bob takes. (your standing order)" in own
    assert_orders_hidden(client_for(alice).get(f"/games/{game.pk}/").content.decode())
    assert_orders_hidden(client_for(carol).get(f"/games/{game.pk}/").content.decode(),
                         spectator=True)


def assert_orders_hidden(html, *, spectator=False):
    """bob's orders and their mark are nowhere in another reader's table: alice sees her
    own form, unticked; a spectator no form at all."""
    assert "bob takes." in html  # an ordinary take
    assert "standing order)" not in html and " checked" not in html
    assert 'name="seat" value="1"' not in html
    if spectator:
        for words in ORDER_WORDS:
            assert words not in html, words


@pytest.mark.asyncio
async def test_orders_are_in_their_owners_socket_frames_alone(game, alice, bob, carol):
    from asgiref.sync import sync_to_async

    from tests.games.test_live import connect, receive_table

    sockets = {}
    for user in (alice, bob, carol):
        sockets[user.username], connected, _ = await connect(game, user)
        assert connected
        await receive_table(sockets[user.username])
    await sync_to_async(services.set_orders)(game.pk, bob, auto_take="1")
    await sync_to_async(services.play)(game.pk, alice, ["attack:QS"], game.version)
    frames = {}
    for name, comm in sockets.items():  # the lead, then bob's order taking (or both at once)
        frames[name] = [await receive_table(comm)]
        while frames[name][-1][1] < game.version + 2:
            frames[name].append(await receive_table(comm))
        assert frames[name][-1][1] == game.version + 2
        await comm.disconnect()
    # (the orders form is in the side, which a push after a move leaves as it is)
    assert any('name="auto_take" value="1" checked' in html for html, _v in frames["bob"])
    assert "bob takes. (your standing order)" in frames["bob"][-1][0]
    assert_orders_hidden(frames["alice"][-1][0])
    assert_orders_hidden(frames["carol"][-1][0], spectator=True)
    for html, _version in frames["alice"] + frames["carol"]:
        assert "standing order)" not in html and " checked" not in html


@pytest.mark.asyncio
async def test_a_table_opened_after_setting_orders_shows_them_at_once(game, bob):
    """Setting orders makes no new version: a socket opened afterwards (a reload, another
    tab) must not be handed the table rendered before at that version."""
    from asgiref.sync import sync_to_async

    from tests.games.test_live import connect, receive_table

    first, *_ = await connect(game, bob)
    html, _version = await receive_table(first)
    assert 'name="auto_take" value="1" checked' not in html
    await sync_to_async(services.set_orders)(game.pk, bob, auto_take="1")
    second, *_ = await connect(game, bob)
    html, version = await receive_table(second)
    assert version == game.version and 'name="auto_take" value="1" checked' in html
    await first.disconnect()
    await second.disconnect()


def test_a_newcomers_lesson_offers_no_orders(alice):
    lesson = services.start_lesson(alice)
    page = client_for(alice).get(f"/games/{lesson.pk}/").content.decode()
    assert 'id="table"' in page and 'id="orders"' not in page
