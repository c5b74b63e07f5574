"""Whole matches played through the HTTP views, with the no-leak check on every page.

Each move is the first legal action of the seat to act, read from the saved game, posted
as the table's form would post it. After a move, every seat and a spectator load the
table (full page or htmx partial) and no page may show a card its reader may not see:
after every move in the two-player match, at milestones in the team game (every
`check_every`th move, the move that empties the talon, the deal's last move).
"""

from datetime import timedelta

import pytest

from games import describe, services
from games.engine.verify import verify
from games.models import Game, Move
from games.present import replay

from .conftest import client_for, play_url, table_url
from .leaks import assert_no_leak

pytestmark = pytest.mark.django_db


def drive(game, clients, spectator, max_steps=3000, check_every=1):
    """Play the game to its end; returns the number of moves and of pages checked."""
    moves = pages = 0
    talon = None
    game.refresh_from_db()
    secrets = (game.match().seed, game.match().salt)  # docs/fairness.md: shown at the end only
    for step in range(max_steps):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return moves, pages
        deal = game.match().deal
        seat = deal.to_act
        assert game.turn_seat == seat
        action = deal.legal_actions(seat)[0].token()
        htmx = step % 2 == 0
        headers = {"HX-Request": "true"} if htmx else {}
        r = clients[seat].post(play_url(game),
                               {"version": game.version, "action": action},
                               headers=headers)
        assert r.status_code == (200 if htmx else 302), r.content.decode()[:500]
        moves += 1
        game.refresh_from_db()
        after = game.match().deal
        if htmx:
            assert_no_leak(r.content.decode(), after, seat)
            assert not any(secret in r.content.decode() for secret in secrets)
            pages += 1
        if step % 25 == 0:  # the other pages a seat may open mid-game
            for other, client in enumerate(clients):
                for url in ("/games/mine/", "/", "/accounts/profile/"):
                    assert_no_leak(client.get(url).content.decode(), after, other)
        milestone = (step % check_every == 0 or after.is_over
                     or (talon and not after.talon))
        talon = len(after.talon)
        if not milestone:
            continue
        for other, client in enumerate(clients):
            partial = (step + other) % 2 == 0
            r = client.get(table_url(game), headers={"HX-Request": "true"} if partial else {})
            assert r.status_code == 200
            body = r.content.decode()
            assert_no_leak(body, after, other)
            assert not any(secret in body for secret in secrets)
            for card in after.hand(other):  # and the reader's own hand is there
                assert f'data-card="{card.code}"' in body
            pages += 1
        r = spectator.get(table_url(game))
        assert r.status_code == 200
        assert_no_leak(r.content.decode(), after, None)
        pages += 1
    raise AssertionError("the game did not finish")


def test_it_plays_a_two_player_match_to_the_end(alice, bob, carol, classic, seeded):
    game = services.create_game(alice, classic, players=2, deals=2,
                                move_time=timedelta(hours=1))
    alice_c, bob_c = client_for(alice), client_for(bob)
    assert bob_c.post(f"/games/{game.pk}/join/").status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING

    moves, pages = drive(game, [alice_c, bob_c], client_for(carol))

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.deadline is None and game.turn_seat is None
    match = game.match()
    assert match.is_over and match.deal_number == 2
    assert Move.objects.filter(game=game, kind=Move.Kind.MOVE).count() == moves
    assert game.version == Move.objects.filter(game=game).count()
    alice.refresh_from_db()
    bob.refresh_from_db()
    assert alice.deals_played == bob.deals_played == 2
    losses = match.losses
    assert alice.deals_lost == losses[0] and bob.deals_lost == losses[1]
    assert alice.deals_drawn == bob.deals_drawn == 2 - sum(losses.values())
    body = alice_c.get(table_url(game)).content.decode()
    assert "Game over. Fewest deals lost: " in body  # a match of deals: who lost fewest
    assert pages > moves
    assert verify(replay.record(game)).ok  # every card as the seed deals it


def test_it_plays_a_four_player_team_game_to_the_end(alice, bob, carol, dave, admin, pairs,
                                                    seeded):
    game = services.create_game(alice, pairs, players=4, move_time=timedelta(days=1))
    for user in (bob, carol, dave):
        r = client_for(user).post(f"/games/{game.pk}/join/")
        assert r.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    seats = {s.number: s.player for s in game.seats.all()}
    assert [seats[n] for n in range(4)] == [alice, bob, carol, dave]
    assert [s.team for s in game.seats.order_by("number")] == [0, 1, 0, 1]
    clients = [client_for(seats[n]) for n in range(4)]
    # A partner's hand is hidden too: alice never sees carol's cards.
    deal = game.match().deal
    body = clients[0].get(table_url(game)).content.decode()
    partner = [c for c in deal.hand(2) if c.code not in str(deal.view(0))]
    assert partner and all(f'data-card="{c.code}"' not in body for c in partner)

    moves, pages = drive(game, clients, client_for(admin), check_every=7)

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    deal = game.match().deal
    assert deal.is_over
    for number, user in seats.items():
        user.refresh_from_db()
        assert user.deals_played == 1
        lost = not deal.is_draw and number % 2 == deal.losing_team
        assert user.deals_lost == int(lost)
    assert moves > 7 and pages > (moves // 7) * 5
    body = clients[1].get(table_url(game)).content.decode()
    assert "Team A" in body and "Team B" in body
    # One deal: its durak (a team), or the draw.
    losers = "Team A" if deal.losing_team == 0 else "Team B"
    assert ("Game over. The deal was drawn." if deal.is_draw else
            f"Game over. The durak: {losers}") in body
    assert verify(replay.record(game)).ok


def test_the_leak_check_catches_a_leak(duel):
    deal = duel.match().deal
    theirs = deal.hand(1)[0]
    for body in (f'<span data-card="{theirs.code}">', f"<li>{theirs.label}</li>",
                 f'aria-label="{describe.spoken(theirs.code)}"',
                 f'value="attack:{theirs.code}"'):
        with pytest.raises(AssertionError):
            assert_no_leak(body, deal, 0)
    # The talon is hidden from everybody, the face-up trump card from nobody.
    talon = [c for c in deal.talon[1:] if c.code not in str(deal.view(0))]
    with pytest.raises(AssertionError):
        assert_no_leak(f'data-card="{talon[0].code}"', deal, 0)
    assert_no_leak(f'data-card="{deal.trump_card.code}"', deal, 0)
    assert assert_no_leak("", deal, None) >= 30  # 12 in hands, 23 under the trump card
