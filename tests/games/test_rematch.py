"""Rematch (games.services.rematch): the same players and rules, seats rotated; each person
accepts, computer players at once; the last acceptance opens the new table for everyone."""

from datetime import timedelta

import pytest

from games import services
from games.models import Game

from .conftest import client_for, refused, table_url
from .matchplay import play_on

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(alice, bob, carol, classic, seeded):
    """alice, bob and carol have finished a two-deal match (private, 5 minutes a move)."""
    game = services.create_game(alice, classic, players=3, deals=2, private=True,
                                move_time=timedelta(minutes=5))
    services.join_game(game.pk, bob, invite_token=game.invite_token)
    services.join_game(game.pk, carol, invite_token=game.invite_token)
    return play_on(game)


def test_the_rematch_opens_when_everybody_has_accepted(finished, alice, bob, carol):
    game = services.accept_rematch(finished.pk, bob)
    assert game.rematch is None and game.seats.get(number=1).wants_rematch
    assert services.accept_rematch(finished.pk, bob).version == game.version  # twice: no change
    services.accept_rematch(finished.pk, alice)
    game = services.accept_rematch(finished.pk, carol)
    new = game.rematch
    assert new is not None and new.status == Game.Status.PLAYING
    # Same rules and settings; everyone one seat on.
    assert (new.rules, new.players, new.deals, new.loss_limit, new.move_time, new.private) == (
        finished.rules, 3, 2, None, timedelta(minutes=5), True)
    assert [s.player for s in new.seats.order_by("number")] == [carol, alice, bob]
    assert new.match().deal_number == 1 and new.deadline is not None


def test_a_rematch_keeps_the_clock_and_the_rating_choice(alice, classic, seeded):
    game = services.create_game(alice, classic, players=2, bots=1, bot_level="easy",
                                time_control="bank", bank_time=timedelta(days=3),
                                increment=timedelta(hours=6), rated=False)
    game = services.accept_rematch(play_on(game).pk, alice)
    new = game.rematch
    assert (new.time_control, new.bank_time, new.increment, new.rated) == (
        "bank", timedelta(days=3), timedelta(hours=6), False)
    assert {seat.bank for seat in new.seats.all()} == {timedelta(days=3)}
    answers = services.new_game_answers(game)
    assert (answers["time_control"], answers["bank_time"], answers["rated"]) == (
        "bank", 3 * 86400, "casual")


def test_computer_players_accept_at_once(alice, classic, seeded):
    game = services.create_game(alice, classic, players=4, bots=3, bot_level="easy",
                                move_time=timedelta(minutes=5))
    game = play_on(game)
    game = services.accept_rematch(game.pk, alice)
    new = game.rematch
    seats = list(new.seats.order_by("number"))
    assert seats[1].player == alice
    assert [s.bot_level for s in seats] == ["easy", "", "easy", "easy"]
    # Each computer player keeps its name in its new seat, rematch after rematch.
    before = {s.number: s.name for s in game.seats.all() if s.bot_level}
    assert {(n + 1) % 4: name for n, name in before.items()} == {
        s.number: s.name for s in seats if s.bot_level}
    again = services.accept_rematch(play_on(new).pk, alice).rematch
    assert sorted(s.name for s in again.seats.all() if s.bot_level) == sorted(before.values())


def test_a_rematch_in_team_play_keeps_the_partners_together(alice, pairs, seeded):
    game = play_on(services.create_game(alice, pairs, players=4, bots=3,
                                        move_time=timedelta(minutes=5)))
    new = services.accept_rematch(game.pk, alice).rematch
    rules = new.get_rules()
    old_partner = game.seats.get(number=2)
    me, partner = new.seats.get(number=1), new.seats.get(number=3)
    assert me.player == alice and partner.bot_level == old_partner.bot_level
    assert rules.team_of(1) == rules.team_of(3)


def test_a_rematch_is_refused_before_the_end_or_to_outsiders(duel, alice, carol, finished,
                                                             dave):
    refused(duel, lambda: services.accept_rematch(duel.pk, alice), services.Conflict, 409)
    refused(finished, lambda: services.accept_rematch(finished.pk, dave), services.NotFound, 404)
    refused(finished, lambda: services.accept_rematch(finished.pk, None), services.Forbidden)


def test_a_rematch_that_has_begun_is_not_begun_again(finished, alice, bob, carol):
    for user in (alice, bob, carol):
        game = services.accept_rematch(finished.pk, user)
    refused(game, lambda: services.accept_rematch(finished.pk, alice), services.Conflict, 409)
    assert Game.objects.count() == 2


def test_the_table_offers_the_rematch_and_then_leads_to_it(finished, alice, bob, carol):
    invite = f"?invite={finished.invite_token}"
    a, b = client_for(alice), client_for(bob)
    r = a.post(f"/games/{finished.pk}/rematch/", headers={"HX-Request": "true"})
    assert r.status_code == 200
    assert "You accepted the rematch. Waiting for: bob, carol." in r.content.decode()
    page = b.get(table_url(finished)).content.decode()
    assert "Rematch</button>" in page and "alice would like a rematch." in page  # told who asks
    assert "would like a rematch" not in a.get(table_url(finished)).content.decode()
    b.post(f"/games/{finished.pk}/rematch/", headers={"HX-Request": "true"})
    r = client_for(carol).post(f"/games/{finished.pk}/rematch/")
    finished.refresh_from_db()
    new = finished.rematch
    assert r.status_code == 302 and r.url == f"/games/{new.pk}/"  # without scripts
    # The others' tables now lead to the new one (their page follows the marked link).
    body = a.get(table_url(finished)).content.decode()
    assert f'href="/games/{new.pk}/" data-follow' in body
    # A spectator holding the invite sees the link but is not taken along.
    spectator = client_for(carol.__class__.objects.create_user("eve", password="x" * 20))
    body = spectator.get(table_url(finished) + invite).content.decode()
    assert f'href="/games/{new.pk}/"' in body and "data-follow" not in body
    assert "Rematch</button>" not in body


def test_the_last_acceptance_takes_the_page_and_its_address_to_the_rematch(finished, alice,
                                                                            bob, carol):
    for player in (alice, bob):
        r = client_for(player).post(f"/games/{finished.pk}/rematch/",
                                    headers={"HX-Request": "true"})
        assert "HX-Redirect" not in r.headers  # waiting for the others: the same table
    r = client_for(carol).post(f"/games/{finished.pk}/rematch/", headers={"HX-Request": "true"})
    finished.refresh_from_db()
    # A full load of the new table: its address in the bar, its socket, not the old one's.
    assert r.headers["HX-Redirect"] == f"/games/{finished.rematch.pk}/"


def test_a_refused_rematch_answers_with_the_table_and_why(duel, alice):
    r = client_for(alice).post(f"/games/{duel.pk}/rematch/", headers={"HX-Request": "true"})
    assert r.status_code == 409
    assert "A rematch can be agreed once the game is over." in r.content.decode()


def test_a_rematch_offer_waits_in_my_games_and_on_the_badge(finished, alice, bob, carol):
    from games.live.nav import waiting_for

    assert waiting_for(alice) == 0
    services.accept_rematch(finished.pk, bob)
    assert (waiting_for(alice), waiting_for(carol), waiting_for(bob)) == (1, 1, 0)
    page = client_for(alice).get("/games/mine/").content.decode()
    assert "bob would like a rematch." in page
    assert "would like a rematch" not in client_for(bob).get("/games/mine/").content.decode()
    services.accept_rematch(finished.pk, alice)
    assert waiting_for(alice) == 0 and waiting_for(carol) == 1
    services.accept_rematch(finished.pk, carol)  # the rematch opens: nothing left to answer
    assert waiting_for(carol) == 0


def test_a_rematch_offer_from_two_players_reads_in_the_plural(finished, alice, bob, carol):
    services.accept_rematch(finished.pk, bob)
    finn = client_for(carol)
    finn.cookies["django_language"] = "fi"
    assert "bob haluaa uusintaottelun." in finn.get("/games/mine/").content.decode()
    services.accept_rematch(finished.pk, alice)
    for url in ("/games/mine/", table_url(finished)):
        assert "alice, bob haluavat uusintaottelun." in finn.get(url).content.decode()
