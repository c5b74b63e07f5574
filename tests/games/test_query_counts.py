"""Every list page asks the database the same number of questions whatever the number of
rows it lists (docs/design.md, "A year of data"): each page is read at two sizes and
its queries counted (Django's CaptureQueriesContext)."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import services
from games.admin import ADMIN_MOVES
from games.models import (
    ChatMessage,
    Entry,
    Game,
    Rating,
    RatingChange,
    RoundTable,
    Seat,
    Tournament,
    TournamentRound,
)
from games.views.lobby import FINISHED_PAGE

from .conftest import client_for
from .playout import finish, table

pytestmark = pytest.mark.django_db


def queries(client, url: str) -> int:
    client.get(url)  # sessions, caches and the like settle on the first request
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(captured)


def people(n: int, prefix: str):
    User = get_user_model()
    return [User.objects.create_user(username=f"{prefix}{i}") for i in range(n)]


def copies(game: Game, n: int, players=None) -> list[Game]:
    """`n` copies of a finished game (its match, seats, rating changes and chat), each
    at a later time; `players` replaces its seats' players by seat number."""
    seats = list(game.seats.all())
    changes = list(RatingChange.objects.filter(game=game))
    made = []
    for i in range(n):
        copy = Game.objects.get(pk=game.pk)
        copy.pk = None
        copy.invite_token = f"copy{game.pk}-{i}-{len(made)}"
        copy.save()
        at = (game.finished_at or timezone.now()) + timedelta(minutes=i + 1)
        Game.objects.filter(pk=copy.pk).update(finished_at=at)
        for seat in seats:
            seat.pk = None
            seat.game = copy
            seat.game_finished_at = at  # the game's facts on its seats (Seat.facts_of)
            if players is not None:
                seat.player = players[seat.number]
        Seat.objects.bulk_create(seats)
        for change in changes:
            change.pk = None
            change.game = copy
        RatingChange.objects.bulk_create(changes)
        ChatMessage.objects.create(game=copy, author=seats[0].player, phrase="gg")
        made.append(copy)
    return made


def grows_not(read, make_more) -> None:
    """The queries of `read()` are the same before and after `make_more()`."""
    before = read()
    make_more()
    after = read()
    assert after == before, f"{before} queries grew to {after}"


def test_my_games_asks_as_much_for_many_games_and_lists_a_page(alice, bob, carol, classic,
                                                               seeded):
    game = finish(table(alice, classic, [bob]))
    table(alice, classic, [carol])  # one in play
    c = client_for(alice)
    grows_not(lambda: queries(c, "/games/mine/"), lambda: copies(game, FINISHED_PAGE + 5))
    body = c.get("/games/mine/").content.decode()
    assert body.count('class="verdict"') == FINISHED_PAGE  # one page of finished games
    older = Game.objects.filter(seats__player=alice, status=Game.Status.FINISHED).order_by(
        "-finished_at", "-pk")
    last_shown = older[FINISHED_PAGE - 1]
    assert f'href="/games/mine/?before={last_shown.pk}#finished"' in body
    rest = c.get(f"/games/mine/?before={last_shown.pk}").content.decode()
    assert rest.count('class="verdict"') == older.count() - FINISHED_PAGE
    assert f'data-game="{older.last().pk}"' in rest and "?before=" not in rest
    assert queries(c, f"/games/mine/?before={last_shown.pk}") == queries(c, "/games/mine/") + 1


@pytest.mark.parametrize("before", ["abc", "99999999", "1" * 30])
def test_my_games_refuses_a_page_that_is_not_there(alice_client, before):
    response = alice_client.get(f"/games/mine/?before={before}")
    assert response.status_code == 400
    assert "There is no such page of finished games." in response.content.decode()


def test_profiles_ask_as_much_for_many_games(alice, bob, carol, classic, seeded):
    game = finish(table(alice, classic, [bob]))
    casual = finish(table(alice, classic, [bob], rated=False), seed=3)
    table(alice, classic, [carol])
    for reader, url in ((client_for(carol), "/accounts/u/alice/"),
                        (client_for(alice), "/accounts/u/alice/"),
                        (client_for(alice), "/accounts/profile/")):
        grows_not(lambda r=reader, u=url: queries(r, u),
                  lambda: copies(game, 12) + copies(casual, 3))
    body = client_for(carol).get("/accounts/u/alice/").content.decode()
    played = Seat.objects.filter(player=alice, game__status=Game.Status.FINISHED).count()
    lost = Seat.objects.filter(player=alice, lost=True).count()
    assert f"<td>Test classic</td><td>{played}</td><td>{lost}</td>" in body


def test_leaderboards_ask_as_much_for_many_players(carol):
    def rate(players):
        Rating.objects.bulk_create([
            Rating(player=p, pool=Rating.Pool.INDIVIDUAL, mu=20 + i % 7, sigma=3, games=5,
                   games_2=5, games_3_4=5, games_5_6=5) for i, p in enumerate(players)])

    rate(people(3, "early"))
    c = client_for(carol)
    for bracket in ("2", "3-4", "5-6", "teams"):
        grows_not(lambda b=bracket: queries(c, f"/leaderboards/?players={b}"),
                  lambda: rate(people(10, f"late{len(Rating.objects.all())}-")))
    assert c.get("/leaderboards/?players=2").content.decode().count("/accounts/u/") == 43


def tournament(classic, players, finished_games, status=Tournament.Status.FINISHED):
    now = timezone.now()
    t = Tournament.objects.create(name="Cup", preset=classic, status=status,
                                  current_round=1 if finished_games else 0)
    Entry.objects.bulk_create([Entry(tournament=t, player=p, seed=i + 1)
                               for i, p in enumerate(players)])
    if finished_games:
        rnd = TournamentRound.objects.create(tournament=t, number=1, started_at=now,
                                             deadline=now + timedelta(days=1), finished_at=now)
        RoundTable.objects.bulk_create([
            RoundTable(round=rnd, board=i + 1, game=g,
                       places=[[players[2 * i].pk], [players[2 * i + 1].pk]],
                       deals_lost={str(players[2 * i + 1].pk): 1, str(players[2 * i].pk): 0})
            for i, g in enumerate(finished_games)])
    return t


def test_tournament_pages_ask_as_much_for_big_fields(alice, bob, carol, classic, seeded):
    game = finish(table(alice, classic, [bob]))
    small = people(4, "small")
    big = people(12, "big")
    c = client_for(carol)

    def both(size, field):
        games = [copies(game, 1, players=field[2 * i: 2 * i + 2])[0] for i in range(size // 2)]
        return tournament(classic, field, games)

    first = both(4, small)
    second = both(12, big)
    assert queries(c, f"/tournaments/{first.pk}/") == queries(c, f"/tournaments/{second.pk}/")
    admin_client = client_for(get_user_model().objects.create_superuser("boss"))
    assert queries(admin_client, f"/admin/games/tournament/{first.pk}/change/") == queries(
        admin_client, f"/admin/games/tournament/{second.pk}/change/")
    grows_not(lambda: queries(admin_client, "/admin/games/entry/"),  # its players prefetched
              lambda: tournament(classic, big, [], Tournament.Status.OPEN))
    grows_not(lambda: queries(c, "/tournaments/"),
              lambda: [tournament(classic, small, [], Tournament.Status.OPEN) for _ in range(5)])
    entrant = client_for(small[0])  # and its own list of the tournaments they entered
    grows_not(lambda: queries(entrant, "/tournaments/"),
              lambda: [tournament(classic, small, [], Tournament.Status.FINISHED)
                       for _ in range(3)])


def test_the_lobby_asks_as_much_for_many_open_tables(alice, bob, carol, classic, seeded):
    finish(table(alice, classic, [bob]))  # its makers are rated
    services.create_game(bob, classic, players=2)
    c = client_for(carol)
    grows_not(lambda: queries(c, "/"),
              lambda: [services.create_game(p, classic, players=2)
                       for p in (alice, *people(5, "maker"))])


def test_admin_lists_ask_as_much_for_many_rows(admin_client, alice, bob, classic, seeded):
    game = finish(table(alice, classic, [bob]))
    for url in ("/admin/games/game/", "/admin/accounts/player/", "/admin/games/tournament/",
                "/admin/games/game/?q=alice"):
        grows_not(lambda u=url: queries(admin_client, u), lambda: copies(game, 5))
    # A long game's page shows its latest moves, not every one of them.
    assert game.moves.count() > ADMIN_MOVES
    body = admin_client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    shown = [int(n) for n in re.findall(r"<div>(\d+) · ", body)]
    last = game.moves.order_by("-seq").first().seq
    assert shown == list(range(last, last - ADMIN_MOVES, -1))


def test_admin_game_search_finds_the_same_games_by_id_or_by_name(admin_client, alice, bob,
                                                                 carol, classic, monkeypatch):
    from games import admin as games_admin

    mine = [table(alice, classic, [bob]).pk, table(carol, classic, [alice]).pk]
    others = table(bob, classic, [carol]).pk

    def listed(term: str) -> set[int]:
        body = admin_client.get(f"/admin/games/game/?q={term}").content.decode()
        return {int(n) for n in re.findall(r'/admin/games/game/(\d+)/change/', body)}

    assert listed("alic") == set(mine) and others not in listed("alic")  # asked by id
    monkeypatch.setattr(games_admin, "SEARCH_PLAYERS", 0)  # a word naming too many players
    assert listed("alic") == set(mine)
    assert listed("alic bob") == {mine[0]}
