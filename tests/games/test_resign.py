"""Resigning (games.services.resign): in individual play the resigner loses the match; in
team play the team plays on with a computer player in the seat. Shown on the log and on
the result."""

import re
from datetime import timedelta

import pytest

from games import services
from games.models import DealRecord, Game, Move

from .conftest import client_for, refused, table_url
from .matchplay import play_on

pytestmark = pytest.mark.django_db


def last_move(body: str) -> str:
    """The table's "Last move:" line, in words."""
    line = body[body.index('class="last-move"'):]
    return " ".join(re.sub(r"<[^>]+>", " ", line[line.index(">") + 1:line.index("</p>")]).split())


def test_resigning_loses_the_match(duel, alice, bob):
    game = services.resign(duel.pk, bob)
    assert game.status == Game.Status.FINISHED and game.deadline is None
    match = game.match()
    assert match.is_over and match.loser == 1 and match.losses == {0: 0, 1: 1}
    record = DealRecord.objects.get(game=game, number=1)
    assert record.resigned == 1 and record.loser == 1
    assert record.history[-1] == {"type": "resign", "seat": 1}
    assert Move.objects.filter(game=game).last().actions == ["resign"]
    bob.refresh_from_db()
    alice.refresh_from_db()
    assert (bob.deals_played, bob.deals_lost) == (1, 1)
    assert (alice.deals_played, alice.deals_lost) == (1, 0)


def test_the_result_and_the_log_say_who_resigned(duel, alice, bob):
    services.resign(duel.pk, bob)
    body = client_for(alice).get(table_url(duel)).content.decode()
    assert "bob resigned and loses the match." in body
    assert "Deal 1: bob gave up and lost." in body
    log = body[body.index('id="log-title"'):]
    assert log.index("bob resigned.") < log.index("</ol>")
    assert last_move(body) == "Last move: bob resigned."  # not the last card played
    turn = body[body.index('class="turn"'):]
    assert turn[:turn.index("</p>")].count("bob resigned and loses the match.") == 1



def test_resigning_in_a_later_deal_keeps_the_earlier_results(alice, bob, classic, seeded):
    game = services.create_game(alice, classic, players=2, deals=3,
                                move_time=timedelta(hours=1))
    services.join_game(game.pk, bob)
    game = play_on(game, until_deal=2)
    first = game.match().results[0]
    game = services.resign(game.pk, alice)
    losses = {0: 1, 1: 0}
    if first is not None:
        losses[first] += 1
    assert game.match().losses == losses and game.match().loser == 0
    assert list(DealRecord.objects.filter(game=game).values_list("number", "resigned")) == [
        (1, None), (2, 0)]


def test_in_team_play_a_computer_takes_the_seat_and_the_team_plays_on(alice, bob, carol, dave,
                                                                       pairs, seeded):
    game = services.create_game(alice, pairs, players=4, move_time=timedelta(hours=1))
    for user in (bob, carol, dave):
        services.join_game(game.pk, user)
    game.refresh_from_db()
    version = game.version
    game = services.resign(game.pk, carol)  # seat 2, alice's partner
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING and not game.match().is_over
    seat = game.seats.get(number=2)
    assert seat.bot_level == pairs.games.first().fill_bot_level and seat.player == carol
    assert seat.resigned_deal == 1
    assert game.version > version
    # She can't take the seat back, nor resign again; the bot plays it.
    refused(game, lambda: services.resume_seat(game.pk, carol), services.Conflict)
    refused(game, lambda: services.resign(game.pk, carol), services.Conflict)
    body = client_for(alice).get(table_url(game)).content.decode()
    assert "carol resigned." in body
    assert "computer standing in" in body
    assert "I&#x27;m back" not in body and "I'm back" not in body
    assert last_move(body) == "Last move: carol resigned."
    match = game.match()  # one card later, the last move is that card again
    seat = match.deal.to_act
    services.play_seat(game.pk, seat, [match.deal.legal_actions(seat)[0].token()], game.version)
    assert "resigned" not in last_move(client_for(alice).get(table_url(game)).content.decode())
    # The game goes on to its end with the computer in carol's seat; the result names the
    # losing team.
    game = play_on(game)
    assert game.status == Game.Status.FINISHED
    record = DealRecord.objects.get(game=game, number=1)
    body = client_for(alice).get(table_url(game)).content.decode()
    if record.draw:
        assert "Deal 1 was drawn" in body
    else:
        team = "AB"[record.losing_team]
        members = "alice, carol" if team == "A" else "bob, dave"
        assert f"Deal 1: Team {team} ({members}) lost." in body
        assert f"Team {team} ({members}) loses the match." in body


def test_resigning_is_refused_unless_you_play_a_running_game(duel, alice, bob, carol, classic):
    refused(duel, lambda: services.resign(duel.pk, carol), services.Forbidden, 403)
    refused(duel, lambda: services.resign(duel.pk, None), services.Forbidden, 403)
    refused(duel, lambda: services.resign("nope", alice), services.NotFound, 404)
    waiting = services.create_game(alice, classic, players=3, move_time=timedelta(hours=1))
    refused(waiting, lambda: services.resign(waiting.pk, alice), services.Conflict, 409)
    services.resign(duel.pk, alice)
    refused(duel, lambda: services.resign(duel.pk, bob), services.Conflict, 409)


def test_the_confirmation_says_what_resigning_means(duel, alice, pairs, bob, carol, dave):
    c = client_for(alice)
    r = c.get(f"/games/{duel.pk}/resign/", headers={"HX-Request": "true"})
    assert r.status_code == 200
    body = r.content.decode()
    assert "<html" not in body and "You lose the match" in body
    assert f'hx-post="/games/{duel.pk}/resign/"' in body
    assert "Yes, resign" in body and "No, keep playing" in body
    # The page itself (no htmx) says the same; nothing changed by looking. Its form posts
    # plainly: the page has no table for an htmx answer to replace.
    page = c.get(f"/games/{duel.pk}/resign/").content.decode()
    assert "You lose the match" in page and "hx-post" not in page.split("confirm-resign")[1]
    duel.refresh_from_db()
    assert duel.is_playing
    answer = c.post(f"/games/{duel.pk}/resign/")
    assert answer.status_code == 302 and answer["Location"] == table_url(duel)
    duel.refresh_from_db()
    assert not duel.is_playing
    team = services.create_game(alice, pairs, players=4, bots=3, move_time=timedelta(hours=1))
    body = c.get(f"/games/{team.pk}/resign/").content.decode()
    assert "Your team plays on" in body


def test_resign_is_offered_to_players_only(duel, alice, carol):
    assert "Resign…" in client_for(alice).get(table_url(duel)).content.decode()
    assert "Resign…" not in client_for(carol).get(table_url(duel)).content.decode()
    r = client_for(carol).get(f"/games/{duel.pk}/resign/")
    assert r.status_code == 302  # nothing to confirm: back to the table


def test_resigning_through_the_page(duel, alice, carol):
    r = client_for(alice).post(f"/games/{duel.pk}/resign/", headers={"HX-Request": "true"})
    assert r.status_code == 200
    body = r.content.decode()
    assert 'id="match-dialog"' in body and 'hx-swap-oob="true"' in body  # the box closes
    assert "alice resigned and loses the match." in body
    again = client_for(alice).post(f"/games/{duel.pk}/resign/", headers={"HX-Request": "true"})
    assert again.status_code == 409 and "The game is not being played." in again.content.decode()
    assert client_for(carol).post(f"/games/{duel.pk}/resign/").status_code == 403
    assert client_for(alice).put(f"/games/{duel.pk}/resign/").status_code == 405
