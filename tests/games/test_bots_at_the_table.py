"""Bots move synchronously after every change (notify queues a bot turn after the commit; eager Celery runs it at once).

These tests need real commits (the bots run in transaction.on_commit), so they use a
transactional database; serialized_rollback brings the seeded presets back afterwards.
"""

from datetime import timedelta

import pytest

from games import services
from games.models import Game, Move

from .conftest import client_for, play_url, table_url
from .leaks import assert_no_leak

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def test_a_human_plays_a_bot_to_the_end_over_http(alice, classic, seeded):
    client = client_for(alice)
    r = client.post("/games/new/", {"preset": classic.pk, "players": 2, "bots": 1,
                                    "bot_level": "medium", "match_kind": "deals", "count": 1,
                                    "move_time": 300})
    game = Game.objects.get()
    assert r.status_code == 302 and game.status == Game.Status.PLAYING
    for _ in range(500):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            break
        deal = game.match().deal
        assert deal.to_act == 0, "a bot left the initiative with itself"
        action = deal.legal_actions(0)[0].token()
        r = client.post(play_url(game), {"version": game.version, "action": action},
                        headers={"HX-Request": "true"})
        assert r.status_code == 200
        game.refresh_from_db()
        assert_no_leak(r.content.decode(), game.match().deal, 0)
    assert game.status == Game.Status.FINISHED
    assert Move.objects.filter(game=game, kind=Move.Kind.BOT).exists()
    alice.refresh_from_db()
    assert alice.deals_played == 1


def test_bots_play_a_bot_only_table_out(alice, classic, seeded):
    """Three bots and one human: after the human's moves the bots play on; an all-bot
    table (after the human hands over) runs to the end."""
    game = services.create_game(alice, classic, players=3, bots=["easy", "medium"],
                                move_time=timedelta(minutes=1))
    game.refresh_from_db()
    assert game.match().deal.to_act == 0 or game.status != Game.Status.PLAYING
    # alice gives her seat to a bot: the whole table is bots now.
    game.seats.filter(number=0).update(bot_level="easy", player=None)
    assert services.run_bots(game.pk) > 0
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_bots_see_only_their_own_view(alice, classic, seeded, monkeypatch):
    seen = []
    real = services.botplay.bot_action

    def spy(level, view):
        seen.append(view)
        return real(level, view)

    monkeypatch.setattr(services.botplay, "bot_action", spy)
    game = services.create_game(alice, classic, players=2, bots=1)
    game.seats.filter(number=0).update(bot_level="medium", player=None)
    services.run_bots(game.pk)
    assert seen
    for view in seen:
        assert view["seat"] is not None and isinstance(view["hand"], list)
        assert len(view["hand"]) == view["hand_sizes"][view["seat"]]
        assert "hands" not in view and "talon" not in view


def test_a_bot_moves_first_when_it_holds_the_initiative(bob, classic, monkeypatch):
    """If the bot must lead, it has already led when the human first sees the table."""
    from games.engine import Deal, Match
    from games.engine.cards import full_deck

    def new_match(rules, *, deals=None, loss_limit=None):
        match = Match(rules, deals=deals, loss_limit=loss_limit, seed="bot-first")
        deck = [c.code for c in full_deck(36)]
        match.deal = Deal.start(rules, deck=deck, dealer=0, opener=1)
        return match

    monkeypatch.setattr(services.lobby, "new_match", new_match)
    game = services.create_game(bob, classic, players=2, bots=1)
    game.refresh_from_db()
    deal = game.match().deal
    assert deal.table and deal.to_act == 0
    body = client_for(bob).get(table_url(game)).content.decode()
    assert "Your turn." in body and "attacks with" in body
