"""The end of a deal and of a match: the result panel, the finished deals kept readable
(games.services.results, games.present.outcome), and a new game with the same rules."""

import re
from datetime import timedelta

import pytest

from games import services
from games.models import DealRecord, Game

from .conftest import client_for, table_url
from .leaks import assert_no_leak, assert_record_no_leak
from .matchplay import play_on

pytestmark = pytest.mark.django_db


@pytest.fixture
def match3(alice, bob, classic, seeded):
    """alice and bob, a match of three deals."""
    game = services.create_game(alice, classic, players=2, deals=3,
                                move_time=timedelta(hours=1))
    services.join_game(game.pk, bob)
    game.refresh_from_db()
    return game


def names(game):
    return {s.number: s.name for s in game.seats.select_related("player")}


def test_a_finished_deal_is_kept_with_its_log_and_who_went_out(match3):
    game = play_on(match3, until_deal=2)
    record = DealRecord.objects.get(game=game, number=1)
    first = game.match().results[0]
    assert record.loser == first and record.draw == (first is None)
    assert record.history[-1]["type"] in ("durak", "draw_game")
    out = [e["seat"] for e in record.history if e["type"] == "out"]
    assert record.out == out and out  # somebody went out before the durak was left


def test_the_table_names_the_durak_and_who_went_out_while_the_next_deal_runs(match3, alice):
    game = play_on(match3, until_deal=2)
    record = DealRecord.objects.get(game=game, number=1)
    body = client_for(alice).get(table_url(game)).content.decode()
    panel = body[body.index('class="result-panel'):]
    panel = panel[:panel.index("</section>")]
    seat_names = names(game)
    if record.draw:
        assert "Deal 1 was drawn" in panel
    else:
        assert f"Deal 1: {seat_names[record.loser]} is the durak." in panel
    order = re.findall(r"<li>([^<]+)</li>", panel.split('<ol class="out-order">')[1])
    assert order == [seat_names[s] for s in record.out]
    assert f'href="/games/{game.pk}/deals/1/"' in panel
    # No card of the finished deal is named on the running table's panel.
    assert_no_leak(body, game.match().deal, 0)


def test_an_earlier_deal_stays_browsable(match3, alice, carol):
    game = play_on(match3, until_deal=3)
    for number in (1, 2):
        record = DealRecord.objects.get(game=game, number=number)
        for client in (client_for(alice), client_for(carol)):  # a player, a spectator
            r = client.get(f"/games/{game.pk}/deals/{number}/", headers={"HX-Request": "true"})
            assert r.status_code == 200
            body = r.content.decode()
            assert "<html" not in body  # the partial for the box beside the table
            assert "How the deal went" in body
            assert "attacks with" in body
            assert_record_no_leak(body, record)
    full = client_for(alice).get(f"/games/{game.pk}/deals/1/")
    assert full.status_code == 200 and "<html" in full.content.decode()


def test_a_deal_record_of_a_private_game_is_not_there_for_outsiders(alice, bob, carol, classic,
                                                                    seeded):
    game = services.create_game(alice, classic, players=2, deals=2, private=True,
                                move_time=timedelta(hours=1))
    services.join_game(game.pk, bob, invite_token=game.invite_token)
    game = play_on(game, until_deal=2)
    assert client_for(carol).get(f"/games/{game.pk}/deals/1/").status_code == 404
    invited = client_for(carol).get(f"/games/{game.pk}/deals/1/?invite={game.invite_token}")
    assert invited.status_code == 200
    assert client_for(alice).get(f"/games/{game.pk}/deals/9/").status_code == 404
    assert client_for(alice).get(f"/games/{game.pk}/deals/x/").status_code == 404


def test_the_end_of_the_match_shows_the_tally_the_loser_and_what_next(match3, alice):
    game = play_on(match3)
    assert game.status == Game.Status.FINISHED
    match = game.match()
    body = client_for(alice).get(table_url(game)).content.decode()
    assert "The match is over" in body and "Final tally" in body
    assert "3 deals played" in body
    if match.loser is not None:
        assert f"{names(game)[match.loser]} loses the match." in body
    else:
        assert "the last place is shared" in body
    assert '<button type="submit">Rematch</button>' in body
    assert f'href="/games/new/?from={game.pk}#create-game"' in body
    assert DealRecord.objects.filter(game=game).count() == 3
    # The last deal's record shows what a spectator saw of it, and nothing more: the
    # durak's last cards stay hidden.
    last = DealRecord.objects.get(game=game, number=3)
    assert last.history == match.deal.view(None)["history"]
    page = client_for(alice).get(f"/games/{game.pk}/deals/3/").content.decode()
    assert assert_no_leak(page, match.deal, None) > 0


def test_new_game_with_these_rules_fills_in_the_lobby_form(alice, classic, seeded):
    game = services.create_game(alice, classic, players=3, bots=2, bot_level="hard",
                                loss_limit=4, move_time=timedelta(minutes=5))
    r = client_for(alice).get(f"/games/new/?from={game.pk}")
    assert r.status_code == 200
    form = r.context["form"]
    assert form["preset"].value() == classic.pk
    assert form["players"].value() == 3 and form["bots"].value() == 2
    assert form["bot_level"].value() == "hard"
    assert form["match_kind"].value() == "losses" and form["count"].value() == 4
    assert form["move_time"].value() == 300
    body = r.content.decode()
    assert re.search(r'<option value="3" selected>3</option>', body)


def test_new_game_from_a_game_you_cannot_see_is_an_empty_form(alice, bob, classic, seeded):
    hidden = services.create_game(bob, classic, players=3, bots=2, private=True,
                                  move_time=timedelta(minutes=5))
    for ref in (hidden.pk, 999999, "x"):
        r = client_for(alice).get(f"/games/new/?from={ref}")
        assert r.status_code == 200
        assert r.context["form"]["players"].value() == 2  # the form's own default


def test_the_result_is_told_in_full_during_the_next_deals_first_bout_then_in_a_line(
        match3, alice):
    game = play_on(match3, until_deal=2)
    c = client_for(alice)
    assert game.match().deal.view(None)["bout"] == 1
    body = c.get(table_url(game)).content.decode()
    assert 'class="result-panel panel"' in body and 'class="out-order"' in body
    while game.match().deal.view(None)["bout"] == 1:  # play on into the second bout
        deal = game.match().deal
        services.play_seat(game.pk, deal.to_act, [deal.legal_actions(deal.to_act)[0].token()],
                           game.version)
        game.refresh_from_db()
    body = c.get(table_url(game)).content.decode()
    assert 'class="result-panel panel compact"' in body and 'class="out-order"' not in body
    assert "Deal 1:" in body and f'href="/games/{game.pk}/deals/1/"' in body
