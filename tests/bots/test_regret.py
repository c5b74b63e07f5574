"""`python -m bench.regret`: a bot's choices against well-measured values."""

import json

from bench import regret
from games.bots import choose_action
from games.engine import action_from_token


def test_positions_are_valued_for_every_candidate_and_a_bot_gives_up_nothing_it_need_not():
    items = regret.positions(3, samples=40, epsilon=0.0, seed="t")
    assert len(items) == 3
    for item in items:
        assert len(item["legal"]) == len(item["values"]) > 1 and item["talon"] > 1
        assert item["legal"] == [a.token() for a in map(action_from_token, item["legal"])]
        assert all(0.0 <= v <= 1.0 for v in item["values"])
    found = regret.regrets(items, "medium", None, seeds=1)
    assert found["choices"] == 3 and 0.0 <= found["mean"] <= 1.0
    # A position whose heuristic move is made the only good one: Medium plays it (no
    # regret), and a bot that picked another would be charged the whole gap.
    item = dict(items[0])
    chosen = choose_action("medium", item["view"]).token()
    item["values"] = [1.0 if t == chosen else 0.0 for t in item["legal"]]
    assert regret.regrets([item], "medium", None, seeds=1)["mean"] == 0.0
    item["values"] = [0.0 if t == chosen else 1.0 for t in item["legal"]]
    assert regret.regrets([item], "medium", None, seeds=1)["mean"] == 1.0


def test_main_saves_positions_and_loads_them_again(tmp_path, capsys):
    path = tmp_path / "p.json"
    regret.main(["--positions", "2", "--samples", "10", "--save", str(path), "--bot", "medium"])
    first = capsys.readouterr().out
    assert len(json.loads(path.read_text())) == 2
    regret.main(["--load", str(path), "--bot", "medium", "--seeds", "1"])
    again = capsys.readouterr().out
    assert first.startswith("medium: mean regret") and "over 2 choices (2 positions)" in again
