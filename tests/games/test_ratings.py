"""Ratings move when a rated match ends: the durak (or the losing team) goes down, everyone
else goes up; a bot plays at its level's ladder rating (tests/games/test_ladder.py); casual
and aborted games change nothing."""

from datetime import timedelta

import pytest

from games import services
from games.models import Game, Rating, RatingChange
from games.services import ratings

from .playout import finish, table

pytestmark = pytest.mark.django_db


def changes(game) -> dict[str, RatingChange]:
    return {c.player.username: c for c in RatingChange.objects.filter(game=game)
            .select_related("player")}


def assert_directions(game, losers: set[str]):
    rows = changes(game)
    assert rows, "no rating changed"
    for name, row in rows.items():
        assert row.sigma_after < row.sigma_before  # every game makes a rating surer
        if name in losers:
            assert row.lost and row.mu_after < row.mu_before, name
        else:
            assert not row.lost and row.mu_after > row.mu_before, name
        rating = Rating.objects.get(player=row.player, pool=row.pool)
        assert (rating.mu, rating.sigma, rating.games) == (row.mu_after, row.sigma_after, 1)


def test_a_two_player_match_moves_the_durak_down_and_the_winner_up(alice, bob, classic,
                                                                      seeded):
    game = finish(table(alice, classic, [bob]))
    deal = game.match().deal
    assert deal.loser is not None
    durak = game.seats.get(number=deal.loser).player.username
    assert_directions(game, {durak})
    assert {c.pool for c in changes(game).values()} == {Rating.Pool.INDIVIDUAL}


def test_a_four_player_match_has_one_durak_and_three_winners(alice, bob, carol, dave, classic,
                                                             seeded):
    game = finish(table(alice, classic, [bob, carol, dave]), seed=1)
    deal = game.match().deal
    assert deal.loser is not None
    durak = game.seats.get(number=deal.loser).player.username
    assert_directions(game, {durak})
    places = {name: row.place for name, row in changes(game).items()}
    assert places.pop(durak) == 2 and set(places.values()) == {1}  # non-losers tie


def test_a_team_match_moves_both_partners_together(alice, bob, carol, dave, pairs, seeded):
    game = finish(table(alice, pairs, [bob, carol, dave]), seed=2)
    deal = game.match().deal
    assert deal.losing_team is not None
    losers = {s.player.username for s in game.seats.filter(team=deal.losing_team)}
    assert len(losers) == 2
    assert_directions(game, losers)
    assert {c.pool for c in changes(game).values()} == {Rating.Pool.TEAMS}
    assert not Rating.objects.filter(pool=Rating.Pool.INDIVIDUAL).exists()


def test_a_longer_match_ranks_by_deals_lost(alice, bob, carol, classic, seeded):
    game = finish(table(alice, classic, [bob, carol], deals=3), seed=5)
    losses = game.match().losses
    place = {s.number: changes(game)[s.player.username].place
             for s in game.seats.select_related("player")}
    assert len(set(losses.values())) > 1
    for a in losses:
        for b in losses:
            assert (losses[a] < losses[b]) == (place[a] < place[b])
            assert (losses[a] == losses[b]) == (place[a] == place[b])


def test_a_stronger_bot_costs_less_and_its_level_has_no_history_rows(alice, bob, classic,
                                                                      seeded):
    lost_to = {}
    for level, player in (("easy", alice), ("expert", bob)):
        for seed in range(20):  # the first seed where the person is the durak
            game = finish(table(player, classic, [], bots=[level]), seed=seed)
            row = RatingChange.objects.filter(game=game).first()
            if row.lost:
                lost_to[level] = row.mu_before - row.mu_after
                break
            Rating.objects.filter(player=player).delete()
            RatingChange.objects.filter(player=player).delete()
        assert RatingChange.objects.filter(game=game).count() == 1  # the bot has no row
    assert 0 < lost_to["expert"] < lost_to["easy"]


def test_a_casual_game_moves_no_rating(alice, bob, classic, seeded):
    game = finish(table(alice, classic, [bob], rated=False))
    assert not RatingChange.objects.filter(game=game).exists()
    assert not Rating.objects.exists()


def test_a_game_is_rated_once(alice, bob, classic, seeded):
    game = finish(table(alice, classic, [bob]))
    before = list(Rating.objects.values_list("mu", "sigma", "games"))
    assert ratings.rate_game(game) == []
    assert list(Rating.objects.values_list("mu", "sigma", "games")) == before


def test_an_aborted_game_moves_no_rating(alice, bob, classic, admin, seeded):
    game = table(alice, classic, [bob])
    services.abort_game(game.pk, admin)
    assert not Rating.objects.exists()


def test_a_forfeit_puts_the_forfeiting_side_last(alice, bob, carol, classic, seeded):
    classic.timeout_policy = classic.TimeoutPolicy.FORFEIT
    classic.timeouts_allowed = 1
    classic.save()
    game = table(alice, classic, [bob, carol])
    late = game.match().deal.to_act
    services.timeout(game.pk, game.version, now=game.deadline + timedelta(seconds=1))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.forfeited_seat == late
    name = game.seats.get(number=late).player.username
    assert_directions(game, {name})


def test_the_create_form_offers_a_casual_game(alice_client, classic):
    from games.models import Game as G

    r = alice_client.post("/games/new/", {
        "preset": classic.pk, "players": 2, "bots": 1, "bot_level": "easy",
        "match_kind": "deals", "count": 1, "move_time": 3600, "rated": "casual"})
    assert r.status_code == 302
    assert G.objects.get().rated is False
    r = alice_client.post("/games/new/", {
        "preset": classic.pk, "players": 2, "bots": 1, "bot_level": "easy",
        "match_kind": "deals", "count": 1, "move_time": 3600, "rated": "both"})
    assert r.status_code == 400 and G.objects.count() == 1
    assert "rated" in alice_client.get("/").content.decode()


def test_a_drawn_match_is_rated_as_equal_results_and_read_as_a_draw(alice, classic, seeded,
                                                                    client):
    """A draw shares first place: openskill rates it with the ranks tied (a newcomer who
    draws a weaker computer player loses a little, as the model says), and the profile
    calls it a draw, not a game won."""
    for seed in range(30):  # the first seed whose two deals split one each
        game = finish(table(alice, classic, [], bots=["medium"], deals=2), seed=seed)
        if len(set(game.match().losses.values())) == 1:
            break
        Rating.objects.all().delete()
        RatingChange.objects.all().delete()
    else:
        pytest.fail("no drawn match among the seeds")
    row = RatingChange.objects.get(game=game)
    assert row.place == 1 and not row.lost
    (me,), _ = ratings.MODEL.rate(
        [[ratings.MODEL.rating()], [ratings.MODEL.rating(mu=ratings.BOT_RATINGS["medium"],
                                                         sigma=ratings.BOT_SIGMA)]],
        ranks=[1, 1])
    assert (row.mu_after, row.sigma_after) == pytest.approx((me.mu, me.sigma))
    (even,), (other,) = ratings.MODEL.rate([[ratings.MODEL.rating()], [ratings.MODEL.rating()]],
                                           ranks=[1, 1])
    assert even.mu == other.mu == ratings.MODEL.mu  # between equals a draw moves nobody
    page = client.get(f"/accounts/u/{alice.username}/").content.decode()
    recent = page[page.index('id="recent-title"'):]
    assert "a draw: nobody the durak" in recent and "not the durak" not in recent
