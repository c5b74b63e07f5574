"""The computer players' ladder (docs/ladder.md): the arena rates the levels and keeps its
figures; games against people move a level's rating; the ladder page shows every level
with its figures, and the leaderboards list the levels with their uncertainty."""

import io
import json
import re
from pathlib import Path

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


def _bench_run(tmp_path, *args):
    from bench.arena import main as bench_arena

    path = tmp_path / "run.jsonl"
    assert bench_arena(["--workers", "1", "--cpu-clock", "--seed", "t", "--save", str(path),
                        *args]) == 0
    return path


def _lost(path, seat_of_expert):
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    results = [res for line in lines for res in line["results"]]
    lost = sum(not res["draw"] and seat_of_expert(res) for res in results)
    return len(results), lost


def test_a_bench_run_on_a_bigger_table_shows_on_the_ladder_page(client, tmp_path):
    path = _bench_run(tmp_path, "--bots", "expert:0.005,easy,easy", "--players", "3",
                      "--deals", "6")
    deals, lost = _lost(path, lambda res: [lvl for lvl, _b in res["lineup"]].index("expert")
                        == res["loser"])
    call_command("bot_ladder", load=[str(path)])
    call_command("bot_ladder", load=[str(path)])  # loading again replaces the run
    assert ArenaRun.objects.count() == 1
    page = client.get("/leaderboards/computer/").content.decode()
    row = re.search(r"<th scope=\"row\">Classic, 3 players</th>(.*?)</tr>", page, re.S)
    assert row, page
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row.group(1))
    assert cells[0] == str(deals) == "6"
    assert cells[1].startswith(f"{round(100 * lost / deals)}% (")
    # at three players Expert thinks longer than its budget: 0.005 s x 2 / 0.48
    assert cells[2] == "33%" and cells[3] == "0.02 s" and cells[4] == "Easy"
    # the standing arena's figures are not mixed with it
    assert "The arena has not been run yet" in page


def test_a_team_run_counts_each_team_once(client, tmp_path):
    path = _bench_run(tmp_path, "--bots", "expert:0.001,easy", "--players", "4",
                      "--teams", "2x2", "--deals", "8")
    deals, lost = _lost(path, lambda res: res["lineup"][0][0] == "expert" and res["losing_team"] == 0
                        or res["lineup"][1][0] == "expert" and res["losing_team"] == 1)
    call_command("bot_ladder", load=[str(path)])
    run = ArenaRun.objects.get()
    expert = run.figures["table"]["bots"]["expert:0.001"]
    assert (expert["played"], expert["lost"]) == (deals, lost) and deals == 8
    page = client.get("/leaderboards/computer/").content.decode()
    assert "Classic, teams 2x2" in page and "50%</td>" in page  # a fair share of two teams


@pytest.mark.parametrize("text, says", [
    ("", "no saved deals"),
    ("{\"rules\": 1}\n", "line 1: not a saved arena run"),
    ("not json\n", "line 1: not a saved arena run"),
])
def test_a_file_that_is_not_a_saved_run_is_refused_and_keeps_nothing(tmp_path, text, says):
    good = _bench_run(tmp_path, "--bots", "medium,easy", "--deals", "2")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(text)
    with pytest.raises(CommandError, match=says):
        call_command("bot_ladder", load=[str(good), str(bad)])
    assert not ArenaRun.objects.exists()


def test_a_fresh_site_shows_the_measured_tables_on_the_ladder_page(client):
    call_command("setup_site", stdout=io.StringIO())
    page = client.get("/leaderboards/computer/").content.decode()
    # docs/arena/tables: a Classic run at the site's budgets played in two parts (two files,
    # one seed) is one row of both parts' deals
    tables = Path(__file__).resolve().parents[2] / "docs" / "arena" / "tables"
    parts = sorted(tables.glob("classic-2-d20-*.jsonl"))
    assert len(parts) == 2
    decks = {json.loads(line)["deck"] for part in parts for line in part.read_text().splitlines()}
    classic = re.findall(r"<th scope=\"row\">Classic, 2 players</th><td[^>]*>(\d+)</td>", page)
    assert str(2 * len(decks)) in classic  # and a row for each other line-up or budget
    assert "Classic, 6 players" in page and "Perevodnoy, 2 players" in page
    # a table measured at the site's budgets and at a fifth of them: the site's first
    six = re.findall(r"<th scope=\"row\">Classic, 6 players</th>(.*?)</tr>", page, re.S)
    thinking = [re.findall(r"<td[^>]*>(.*?)</td>", row)[3] for row in six]
    assert thinking == ["2 s", "0.38 s"]


def test_a_run_at_the_levels_own_budgets_shows_their_thinking_times(client):
    rules = {"players": 2, "teams": None, "transfer": False}
    bots = {"expert": {"played": 10, "lost": 3, "drawn": 0, "decisions": 5, "cpu_p95": 0.4321},
            "hard": {"played": 10, "lost": 7, "drawn": 0, "decisions": 5, "cpu_p95": 0.9}}
    ArenaRun.objects.create(deals=10, seed="s", seconds=0, figures={"table": {
        "rules": rules, "seed": "s", "code": "c", "packs": 5, "deals": 10, "drawn": 0,
        "bots": bots}})
    page = client.get("/leaderboards/computer/").content.decode()
    row = re.search(r"<th scope=\"row\">Classic, 2 players</th>(.*?)</tr>", page, re.S)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row.group(1))
    assert cells == ["10", "30% (11%–60%)", "50%", "0.48 s", "Hard (1 s a move)", "432"]


def test_a_run_played_in_parts_keeps_each_part_and_adds_them_up(client, tmp_path):
    parts = []
    for first in (0, 1):
        part = tmp_path / f"part-{first}"
        part.mkdir()
        parts.append(str(_bench_run(part, "--bots", "expert:0.001,easy", "--deals", "2",
                                    "--first-deck", str(first))))
    call_command("bot_ladder", load=parts)
    call_command("bot_ladder", load=parts[:1])  # the first part again (grown): replaced
    assert ArenaRun.objects.count() == 2
    page = client.get("/leaderboards/computer/").content.decode()
    assert re.findall(r"<th scope=\"row\">Classic, 2 players</th><td[^>]*>(\d+)</td>", page) == ["4"]
