"""Replays: a finished game, rebuilt from its move log, reaches exactly its saved state;
its export plays back in the engine alone; the replay page steps through every move."""

import json
import re

import pytest

from games import services
from games.engine import Match
from games.engine.replay import replay as engine_replay
from games.models import Game, Move
from games.present import replay

from .conftest import client_for
from .leaks import assert_no_leak
from .playout import finish, table

pytestmark = pytest.mark.django_db


def assert_replays_exactly(game: Game):
    saved = game.match()
    assert replay.replayed(game).to_json() == saved.to_json()
    record = json.loads(json.dumps(replay.record(game)))
    again = engine_replay(record)
    assert again.to_json() == saved.to_json()
    assert again.losses == saved.losses
    # Without the seed, each deal comes from its recorded pack: the same final table.
    assert engine_replay(record | {"seed": None}).deal.to_json() == saved.deal.to_json()


def test_a_two_player_match_replays_exactly(alice, bob, classic, seeded):
    assert_replays_exactly(finish(table(alice, classic, [bob], deals=2)))


def test_a_four_player_match_replays_exactly(alice, bob, carol, dave, classic, seeded):
    assert_replays_exactly(finish(table(alice, classic, [bob, carol, dave]), seed=1))


def test_a_team_match_replays_exactly(alice, bob, carol, dave, pairs, seeded):
    assert_replays_exactly(finish(table(alice, pairs, [bob, carol, dave], loss_limit=2), seed=2))


def test_a_real_shuffle_is_kept_for_the_replay(alice, bob, classic):
    """The site's own shuffle (no test seeding): a secret seed in the saved state."""
    game = finish(table(alice, classic, [bob]))
    assert game.match().seed
    assert_replays_exactly(game)


def test_the_replay_page_steps_through_every_move(alice, bob, carol, classic, seeded):
    game = finish(table(alice, classic, [bob]))
    moves = len(replay.moves_of(game))
    assert moves == Move.objects.filter(game=game, kind=Move.Kind.BOT).count() + Move.objects.filter(
        game=game, kind=Move.Kind.MOVE).count()
    c = client_for(carol)  # a spectator of a public game
    url = f"/games/{game.pk}/replay/"
    start = c.get(url).content.decode()
    assert f"Move 0 of {moves}" in start and 'rel="next"' in start and 'rel="prev"' not in start
    assert "js/replay.js" in start and "<script>" not in start  # CSP: no inline script
    dealt = Match.from_json(game.state)
    # Every hand is shown once the game is over: step 0 has the 12 cards dealt.
    assert len(re.findall(r'class="card [a-z]+ small" data-card=', start)) == 12
    assert "The trump card is" in start
    first = c.get(f"{url}?move=1").content.decode()
    assert "The trump card is" not in first and "attacks with" in first  # that move alone
    step = c.get(f"{url}?move=3").content.decode()
    assert f"Move 3 of {moves}" in step
    assert f'href="{url}?move=2" rel="prev"' in step and f'href="{url}?move=4" rel="next"' in step
    end = c.get(f"{url}?move={moves}").content.decode()
    assert 'rel="next"' not in end
    assert "is the durak" in end  # the last move ended the deal
    for card in dealt.deal.hand(dealt.deal.loser):  # the durak's cards at the end
        assert f'data-card="{card.code}"' in end
    assert c.get(f"{url}?move=99999").content.decode().count(f"Move {moves} of {moves}") == 1


def test_bad_move_numbers_are_refused(alice, bob, classic, seeded):
    game = finish(table(alice, classic, [bob]))
    c = client_for(alice)
    for bad in ("abc", "-1", "1.5", "9" * 20):
        r = c.get(f"/games/{game.pk}/replay/", {"move": bad})
        assert r.status_code == 400 and "is not a move number" in r.content.decode()


def test_a_game_being_played_has_no_replay_and_shows_no_card(alice, bob, carol, classic,
                                                           seeded):
    game = table(alice, classic, [bob])
    for user in (alice, carol):
        r = client_for(user).get(f"/games/{game.pk}/replay/?move=1")
        assert r.status_code == 409
        body = r.content.decode()
        assert "still being played" in body and "data-card" not in body
        assert_no_leak(body, game.match().deal, None)
    r = client_for(alice).get(f"/games/{game.pk}/export.json")
    assert r.status_code == 409 and "error" in r.json()


def test_a_private_game_replays_only_for_those_who_could_see_it(alice, bob, carol, classic,
                                                                seeded):
    game = finish(table(alice, classic, [bob], private=True))
    assert client_for(carol).get(f"/games/{game.pk}/replay/").status_code == 404
    assert client_for(carol).get(f"/games/{game.pk}/export.json").status_code == 404
    assert client_for(bob).get(f"/games/{game.pk}/replay/").status_code == 200
    table_page = client_for(carol).get(f"/games/{game.pk}/", {"invite": game.invite_token})
    assert f'href="/games/{game.pk}/replay/?invite={game.invite_token}"' in table_page.content.decode()
    r = client_for(carol).get(f"/games/{game.pk}/replay/", {"invite": game.invite_token})
    assert r.status_code == 200 and f"invite={game.invite_token}" in r.content.decode()
    assert client_for(carol).get("/games/999999/replay/").status_code == 404


def test_the_export_downloads_a_record_the_engine_replays(alice, bob, classic, seeded):
    game = finish(table(alice, classic, [bob], deals=2))
    r = client_for(alice).get(f"/games/{game.pk}/export.json")
    assert r.status_code == 200
    assert r["Content-Disposition"] == f'attachment; filename="durak-game-{game.pk}.json"'
    data = json.loads(r.content)
    assert data["rules"] == game.rules and len(data["dealt"]) == 2
    assert len(data["dealt"][0]["deck"]) == 36
    assert [s["name"] for s in data["game"]["seats"]] == ["alice", "bob"]
    assert engine_replay(data).to_json() == game.state


def test_a_game_aborted_in_play_replays_to_where_it_stopped(alice, bob, admin, classic, seeded):
    game = table(alice, classic, [bob])
    for _ in range(5):  # a few moves, then staff abort it
        deal = game.match().deal
        services.play_seat(game.pk, deal.to_act, [deal.legal_actions(deal.to_act)[0].token()],
                           game.version)
        game.refresh_from_db()
    services.abort_game(game.pk, admin)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert_replays_exactly(game)
    body = client_for(bob).get(f"/games/{game.pk}/replay/?move=5").content.decode()
    assert "Move 5 of 5" in body


def test_the_replay_shows_your_seat_at_the_bottom_and_the_others_from_your_left(
        alice, bob, carol, dave, classic, seeded, django_user_model):
    game = finish(table(alice, classic, [bob, carol, dave]), seed=1)

    def names(page):  # the seats' names from top to bottom
        return [re.sub(r"<[^>]+>", "", name) for name in re.findall(
            r'<li class="seat[^"]*">\s*<span class="name">(.*?)</span>\n', page)]

    url = f"/games/{game.pk}/replay/?move=0"
    assert names(client_for(carol).get(url).content.decode()) == [
        "dave", "alice", "bob", "carol (you)"]  # R2: clockwise from carol's left
    erin = django_user_model.objects.create_user(username="erin", password="x")
    assert names(client_for(erin).get(url).content.decode()) == [  # a spectator: from seat 0
        "alice", "bob", "carol", "dave"]
