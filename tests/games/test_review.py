"""The coach's review of a finished game, on the replay page."""

import functools
import re
from datetime import timedelta

import pytest

from games import review, services
from games.bots.coach import review as coach_review
from games.models import Game
from games.present import replay

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

MARK = re.compile(r'href="/games/(\d+)/replay/\?move=(\d+)">Move (\d+)</a>:\s*alice chose to')


@pytest.fixture(autouse=True)
def small_gaps_count(monkeypatch):
    """The page is under test here, not the coach's judgement (tests/bots/test_coach.py):
    every gap that holds on fresh deals is marked, so a random game nearly always has some."""
    monkeypatch.setattr(review, "review", functools.partial(coach_review, threshold=0.01))


def _finished(alice, classic):
    """alice plays her first legal move each turn against a bot until the game ends."""
    game = services.create_game(alice, classic, players=2, bots=["easy"],
                                move_time=timedelta(hours=1))
    for _ in range(300):
        game.refresh_from_db()
        if not game.is_playing:
            break
        deal = game.match().deal
        token = deal.legal_actions(0)[-1].token()  # the last: often a poor choice
        services.play(game.pk, alice, [token], game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def test_a_player_asks_for_a_review_and_sees_marked_moves(alice_client, alice, classic, seeded):
    # The computer's moves vary, and a rare game has no costly move of alice's: up to three.
    for _attempt in range(3):
        game = _finished(alice, classic)
        page = alice_client.get(f"/games/{game.pk}/replay/").content.decode()
        assert "Ask the coach for a review" in page
        response = alice_client.post(f"/games/{game.pk}/review/")  # eager Celery: at once
        assert response.status_code == 302
        page = alice_client.get(f"/games/{game.pk}/replay/").content.decode()
        assert "Ask the coach for a review" not in page
        marks = MARK.findall(page)
        if marks:
            break
    assert marks, page[page.index('id="review"'):][:600]
    moves = replay.moves_of(game)
    for game_id, step, named in marks:
        # The link names the move it is about and opens it: step N shows the table after
        # move N, her move (moves[N - 1]), played.
        seat, _tokens = moves[int(step) - 1]
        assert int(game_id) == game.pk and seat == 0 and named == step  # alice's own moves
    assert [int(step) for _g, step, _n in marks] == sorted(int(step) for _g, step, _n in marks)
    # Each mark says the chance with the better move and as played, the first higher.
    listed = page[page.index('id="review"'):]
    chances = re.findall(r"about (\d+)% with the better move, (\d+)% as played", listed)
    assert len(chances) == len(marks)
    assert all(100 >= int(kept) > int(left) >= 0 for kept, left in chances)
    # Following a mark: the move it is about, "Move N", alice's, the coach's words above it.
    game_id, step, _named = marks[-1]
    page = alice_client.get(f"/games/{game_id}/replay/?move={step}").content.decode()
    assert f"Move {step} of" in page and "<h2>alice moves</h2>" in page
    assert re.search(rf'<li class="current" aria-current="step"><a href="/games/{game_id}/'
                     rf'replay/\?move={step}">Move {step}</a>', page)
    note = page[page.index('class="coach-note'):page.index('class="replay-move')]
    assert "alice chose to" in note and "% as played" in note


def test_only_players_ask_and_only_when_the_game_is_over(client, alice, bob, classic, seeded):
    game = services.create_game(alice, classic, players=2, bots=["easy"])
    client.force_login(alice)
    assert client.post(f"/games/{game.pk}/review/").status_code == 409
    finished = _finished(alice, classic)
    client.force_login(bob)
    assert client.post(f"/games/{finished.pk}/review/").status_code == 403
    assert "No review of this game yet." in client.get(
        f"/games/{finished.pk}/replay/").content.decode()


def test_a_review_under_way_is_shown_and_the_page_waits_for_it(alice_client, alice, classic,
                                                               seeded, monkeypatch):
    game = _finished(alice, classic)
    queued = []
    monkeypatch.setattr("games.notify.queue_review", queued.append)  # a worker, busy elsewhere
    response = alice_client.post(f"/games/{game.pk}/review/", {"move": "7"})
    assert queued == [game.pk]
    assert response.url == f"/games/{game.pk}/replay/?move=7#review"  # back where she was
    page = alice_client.get(f"/games/{game.pk}/replay/?move=7").content.decode()
    section = page[page.index('id="review"'):]
    assert "The coach is replaying this game." in section
    assert f'hx-get="/games/{game.pk}/replay/?move=7" hx-trigger="every 3s"' in section
    assert "Ask the coach for a review" not in page
    review.compute(game)  # the worker gets to it: the page stops waiting
    page = alice_client.get(f"/games/{game.pk}/replay/?move=7").content.decode()
    section = page[page.index('id="review"'):]
    assert "every 3s" not in section
    assert MARK.search(page) or "The coach found no move that cost much." in section


@pytest.fixture
def queued_reviews(monkeypatch):
    queued = []
    monkeypatch.setattr("games.notify.queue_review", queued.append)  # the coach is busy
    return queued


def _ended(alice, classic):
    """A game alice played, over (how does not matter: the coach's task is not run)."""
    game = services.create_game(alice, classic, players=2, bots=["easy"])
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    return Game.objects.get(pk=game.pk)


def test_30_requests_for_one_review_queue_one_task(alice_client, alice, classic, seeded,
                                                   queued_reviews):
    game = _ended(alice, classic)
    statuses = {alice_client.post(f"/games/{game.pk}/review/").status_code for _ in range(30)}
    assert statuses == {302}
    assert queued_reviews == [game.pk]


def test_a_player_over_the_review_limit_is_refused_and_nothing_changes(
        alice_client, alice, classic, seeded, queued_reviews, settings):
    settings.LIMITS = {**settings.LIMITS, "review": (2, 3600)}
    games = [_ended(alice, classic) for _ in range(3)]
    for game in games[:2]:
        assert alice_client.post(f"/games/{game.pk}/review/").status_code == 302
    refused = alice_client.post(f"/games/{games[2].pk}/review/")
    assert refused.status_code == 429
    assert "many reviews" in refused.content.decode()
    assert queued_reviews == [g.pk for g in games[:2]]
    assert not review.pending(games[2])
    assert "Ask the coach for a review" in alice_client.get(
        f"/games/{games[2].pk}/replay/").content.decode()
