"""The computer players' ladder (docs/ladder.md): the arena rates the levels and keeps its
figures; games against people move a level's rating; the ladder page shows every level
with its figures, and the leaderboards list the levels with their uncertainty."""

import re

import pytest
from django.core.management import CommandError, call_command

from games.bots import LEVELS
from games.bots.arena import ArenaDeal, play_pairs
from games.models import ArenaRun, BotRating, Rating, RatingChange
from games.services import ladder
from games.services.ratings import BOT_RATINGS, BOT_SIGMA

from .playout import finish, table

pytestmark = pytest.mark.django_db


def test_the_arena_plays_each_pack_twice_with_the_seats_swapped():
    played = play_pairs(["easy", "medium"], deals=4, seed="t", budget=0.0)
    assert [d.levels for d in played.deals] == [("easy", "medium"), ("medium", "easy")] * 2
    assert set(played.cpu) == {"easy", "medium"} and all(played.cpu.values())


def test_a_level_that_keeps_winning_climbs():
    deals = [ArenaDeal(("easy", "expert"), 0), ArenaDeal(("expert", "easy"), 1)] * 5
    rows = ladder.rate_arena(deals)
    assert rows["expert"].mu > BOT_RATINGS["expert"] and rows["easy"].mu < BOT_RATINGS["easy"]
    assert rows["expert"].sigma < BOT_SIGMA and rows["expert"].arena_deals == 10
    saved = BotRating.objects.get(level="easy", pool=Rating.Pool.INDIVIDUAL)
    assert saved.mu == rows["easy"].mu and saved.games == 0  # no game against people


def test_a_draw_moves_the_weaker_level_up():
    rows = ladder.rate_arena([ArenaDeal(("easy", "expert"), None)])
    assert rows["easy"].mu > BOT_RATINGS["easy"] and rows["expert"].mu < BOT_RATINGS["expert"]


def test_games_against_people_move_the_level(alice, classic, seeded):
    game = finish(table(alice, classic, [], bots=["medium"]), seed=4)
    row = BotRating.objects.get(level="medium", pool=Rating.Pool.INDIVIDUAL)
    change = RatingChange.objects.get(game=game)  # the person's; a level has no history rows
    assert row.games == 1 and row.mu != BOT_RATINGS["medium"] and row.sigma < BOT_SIGMA
    assert (row.mu > BOT_RATINGS["medium"]) == change.lost


def test_a_casual_game_moves_no_level(alice, classic, seeded):
    finish(table(alice, classic, [], bots=["easy"], rated=False))
    assert not BotRating.objects.exists()


def test_the_ladder_page_shows_every_level_with_its_figures(client):
    before = client.get("/leaderboards/computer/").content.decode()
    assert "has not been run yet" in before
    run = ladder.run_arena(deals=2, budget=0.01, seed="page")
    assert run.deals == 6 * 2 and len(run.figures["pairs"]) == 6
    body = client.get("/leaderboards/computer/").content.decode()
    for tag in ("table", "div", "section", "tbody"):  # every part closed where it should be
        assert body.count(f"<{tag}") == body.count(f"</{tag}>"), tag
    for level in LEVELS:
        row = re.search(rf'<tr id="level-{level}">(.*?)</tr>', body, re.S)
        assert row, level
        cells = re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row.group(1), re.S)
        name, rating, _people, _teams, deals, won, lost_drawn, cpu = cells
        assert name == level.capitalize() and ("±" in rating or "?" in rating)
        assert deals == "6"  # three pairs of two deals
        assert re.fullmatch(r"\d+% \(\d+%–\d+%\)", won), won
        assert re.fullmatch(r"\d+ / \d+", lost_drawn)
        time = run.figures["cpu"][level]
        assert cpu == (f"{time['seconds'] / time['decisions'] * 1000:.1f}, "
                       f"{time['p95'] * 1000:.1f}")
        won_deals = sum(p["lost"][1 - p["levels"].index(level)] for p in run.figures["pairs"]
                        if level in p["levels"])
        assert won.startswith(f"{won_deals / 6 * 100:.0f}% (")
    assert "The arena has been run once: 12 deals" in body
    assert "0.01 seconds a move" in body
    assert body.count("95% interval") >= 2


def test_the_leaderboards_list_the_levels_with_their_uncertainty(client):
    ladder.rate_arena([ArenaDeal(("easy", "hard"), 0)])
    for bracket in ("2", "teams"):
        body = client.get("/leaderboards/", {"players": bracket}).content.decode()
        section = body[body.index('id="bots-title"'):]
        for level in LEVELS:
            assert f'/leaderboards/computer/#level-{level}">{level.capitalize()}</a>' in section
        assert section.count("±") + section.count("?") >= 4


def test_the_command_plays_rates_and_keeps_a_run(capsys):
    call_command("bot_ladder", deals=2, levels="easy,medium", seed="cmd")
    out = capsys.readouterr().out
    assert "arena run" in out and re.search(r"easy beat medium\s+\d+ of 2 ", out)
    assert re.search(r"medium: rating \d+ ±\d+, \d+\.\d ms a decision", out)
    run = ArenaRun.objects.get()
    assert run.deals == 2 and run.seed == "cmd" and run.budget is None
    assert BotRating.objects.get(level="easy", pool="individual").arena_deals == 2


@pytest.mark.parametrize("options", [{"deals": 0}, {"levels": "easy"}, {"levels": "easy,grand"},
                                     {"budget": -1.0}])
def test_the_command_refuses_bad_options(options):
    with pytest.raises(CommandError):
        call_command("bot_ladder", **{"deals": 2, **options})
    assert not ArenaRun.objects.exists()


def test_the_admin_shows_the_ladder_and_lets_nobody_type_in_figures(admin_client):
    run = ladder.run_arena(deals=2, budget=0.01, seed="admin")
    rating = BotRating.objects.first()
    assert "expert" in admin_client.get("/admin/games/botrating/").content.decode()
    assert admin_client.get(f"/admin/games/botrating/{rating.pk}/change/").status_code == 200
    assert admin_client.get(f"/admin/games/arenarun/{run.pk}/change/").status_code == 200
    assert admin_client.get("/admin/games/arenarun/add/").status_code == 403
    mu = rating.mu
    response = admin_client.post(f"/admin/games/botrating/{rating.pk}/change/",
                                 {"level": rating.level, "pool": rating.pool, "mu": mu + 5,
                                  "sigma": rating.sigma, "games": 0, "arena_deals": 0})
    assert response.status_code == 403
    rating.refresh_from_db()
    assert rating.mu == mu
