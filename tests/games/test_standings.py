"""Leaderboards per player count, ratings next to names, and a player's profile: ratings
with their chart, games by rules, current games and recent results."""

import re

import pytest

from games import services
from games.models import Rating, RatingChange
from games.services import ratings
from games.services.ratings import MIN_GAMES, SCALE, shown

from .conftest import client_for
from .playout import finish, table

pytestmark = pytest.mark.django_db


def duels(alice, bob, preset, count):
    return [finish(table(alice, preset, [bob]), seed=n) for n in range(count)]


def test_a_leaderboard_lists_players_after_the_minimum_of_games(alice, bob, carol, classic,
                                                                 seeded):
    duels(alice, bob, classic, MIN_GAMES - 1)
    c = client_for(carol)
    assert "Nobody is listed here yet." in c.get("/leaderboards/").content.decode()
    duels(alice, bob, classic, 1)
    body = c.get("/leaderboards/?players=2").content.decode()
    assert "alice" in body and "bob" in body
    rows = re.findall(r'<td><a href="/accounts/u/(\w+)/">', body)
    ordinal = {r.player.username: r.mu - 3 * r.sigma for r in Rating.objects.select_related("player")}
    assert rows == sorted(ordinal, key=lambda name: -ordinal[name])  # best first
    # Other player counts and teams have their own boards.
    for bracket in ("3-4", "5-6", "teams"):
        assert "Nobody is listed here yet." in c.get(f"/leaderboards/?players={bracket}").content.decode()
    assert c.get("/leaderboards/?players=nonsense").status_code == 200  # the 2-player board


def test_team_games_have_their_own_leaderboard(alice, bob, carol, dave, pairs, seeded):
    for n in range(MIN_GAMES):
        finish(table(alice, pairs, [bob, carol, dave]), seed=n)
    body = client_for(alice).get("/leaderboards/?players=teams").content.decode()
    assert all(name in body for name in ("alice", "bob", "carol", "dave"))
    body = client_for(alice).get("/leaderboards/?players=3-4").content.decode()
    assert "Nobody is listed here yet." in body


def test_the_lobby_and_the_table_show_the_rating_next_to_names(alice, bob, carol, classic,
                                                               seeded):
    finish(table(alice, classic, [bob]))
    rating = Rating.objects.get(player=alice)
    value = round(rating.mu * SCALE)
    open_game = services.create_game(alice, classic, players=2)  # waits for players
    assert open_game.is_open
    body = client_for(carol).get("/").content.decode()
    # One game says little: the rating is provisional ("1520?"), with no ± yet.
    assert (f'class="rating provisional" title="Provisional rating {value} after 1 rated game'
            in body)
    assert f"{value}<small>?</small>" in body
    # and in words under the list (a phone has no hover for the title; site.css shows it
    # only under a list with a "?")
    assert ('<p class="helptext rating-key">A question mark after a rating means it is still'
            ' provisional.</p>' in body)
    playing = table(alice, classic, [carol])
    body = client_for(carol).get(f"/games/{playing.pk}/").content.decode()
    assert f"Provisional rating {value} after" in body
    Rating.objects.filter(player=alice).update(sigma=3.0)  # as after many games
    body = client_for(carol).get(f"/games/{playing.pk}/").content.decode()
    assert f'class="rating" title="Rating {value}, give or take 360, after 1 rated game' in body
    assert f"{value}&#8239;<small>±360</small>" in body


def test_a_rating_is_provisional_until_its_spread_halves():
    newcomer = shown(ratings.MODEL.mu, ratings.MODEL.sigma)
    assert (newcomer.value, newcomer.spread, newcomer.provisional) == (1500, 1000, True)
    assert shown(25.0, ratings.MODEL.sigma / 2 + 0.01).provisional
    settled = shown(25.0, ratings.MODEL.sigma / 2)
    assert not settled.provisional and settled.spread == 500


def test_the_profile_shows_ratings_chart_and_games(alice, bob, carol, classic, seeded):
    games = duels(alice, bob, classic, 3)
    casual = finish(table(alice, classic, [bob], rated=False), seed=9)
    playing = table(alice, classic, [carol])
    secret = table(alice, classic, [bob], private=True)
    body = client_for(carol).get("/accounts/u/alice/").content.decode()
    assert body.count('<svg class="rating-chart"') == 1  # individual play only
    points = re.search(r'<polyline class="line" points="([^"]+)"', body).group(1).split()
    assert len(points) == 4  # the start and after each of the 3 rated games
    rows = list(RatingChange.objects.filter(player=alice).order_by("at", "pk"))
    ys = [float(p.split(",")[1]) for p in points]
    for row, (before, after) in zip(rows, zip(ys, ys[1:])):
        # y grows downwards: a rating that went up draws a line that goes up
        assert (after < before) == (row.mu_after > row.mu_before)
    lost = RatingChange.objects.filter(player=alice, lost=True).count()
    assert re.search(rf"<td>Test classic</td><td>4</td><td>{lost + int(_lost(casual, alice))}</td>",
                     body)
    assert f'href="/games/{playing.pk}/"' in body  # playing now
    assert f"/games/{secret.pk}/" not in body  # a private game is not shown to others
    assert "1 private game is not listed here" in body
    assert f'href="/games/{secret.pk}/"' in client_for(bob).get("/accounts/u/alice/").content.decode()
    assert f'href="/games/{secret.pk}/"' in client_for(alice).get("/accounts/u/alice/").content.decode()
    for game in games + [casual]:
        assert f'href="/games/{game.pk}/replay/"' in body
    assert "casual" in body
    russian = client_for(carol)
    russian.cookies["django_language"] = "ru"
    body = russian.get("/accounts/u/alice/").content.decode()
    assert re.search(r"Играет с [а-я]+[ая] \d{4}\.", body)  # the month in the genitive
    assert "Рейтинг" in body  # in Russian, the chart's numbers still have decimal points
    assert re.search(r'<circle class="last" cx="[\d.]+" cy="[\d.]+"', body)
    assert re.search(r'<polyline class="line" points="[\d., ]+"', body)


def _lost(game, user) -> bool:
    from games.present.standings import seat_lost

    return seat_lost(game, game.seats.get(player=user))


def test_a_new_player_has_no_rating_yet(alice, carol):
    body = client_for(carol).get("/accounts/u/alice/").content.decode()
    assert "No rated games yet." in body and "rating-chart" not in body
