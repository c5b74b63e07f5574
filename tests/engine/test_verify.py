"""games.engine.verify: an export of a fairly dealt match passes; one card, the seed, the
salt or a commitment changed fails, with the problem named (docs/fairness.md)."""

import copy
import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import Match, Rules
from games.engine.commitment import commitment, deal_seed
from games.engine.replay import export, pack
from games.engine.verify import main, verify

ROOT = Path(__file__).resolve().parents[2]


def played(rules, seed="v", salt="pepper", deals=2, rng_seed=3):
    match = Match(rules, deals=deals, seed=seed, salt=salt)
    rng, moves = random.Random(rng_seed), []
    while not match.is_over:
        if match.deal.is_over:
            match.next_deal()
        seat = match.deal.to_act
        action = rng.choice(match.deal.legal_actions(seat))
        match.deal.apply(seat, action)
        moves.append((seat, [action.token()]))
    record = export(rules, deals=deals, loss_limit=None, seed=seed, salt=salt, moves=moves)
    return json.loads(json.dumps(record))


@pytest.fixture(scope="module")
def record():
    return played(Rules(players=3))


def codes(report):
    return {p.code for p in report.problems}


def test_the_commitment_is_the_documented_sha256():
    expected = hashlib.sha256(b"durak-deal-commitment/1\nsalt\nseed/2").hexdigest()
    assert commitment(deal_seed("seed", 2), "salt") == expected


def test_a_fair_export_passes(record):
    report = verify(record)
    assert report.ok, [str(p) for p in report.problems]
    assert report.deals == 2 and report.moves > 20
    assert report.cards > 2 * (36 + 18 + 1)  # packs, hands, the turned cards, the draws
    assert [d["commitment"] for d in record["dealt"]] == report.commitments


@pytest.mark.parametrize("rules", [Rules(players=2), Rules(players=4, teams="2x2", transfer=True),
                                   Rules(players=6), Rules(players=2, deck_size=24)])
def test_every_kind_of_table_passes(rules):
    assert verify(played(rules, deals=3, rng_seed=7)).ok


def test_the_pack_is_the_engines_shuffle_in_pure_python():
    rules = Rules(players=2)
    cards = [c.code for c in sorted(pack(rules, "x/0"), key=lambda c: c.index)]
    shuffled = list(cards)
    random.Random("x/0").shuffle(shuffled)  # the standard library's shuffle, nothing else
    assert [c.code for c in pack(rules, "x/0")] == shuffled


@pytest.mark.parametrize("where", ["deck", "hands", "turned", "drew"])
def test_one_card_changed_is_caught(record, where):
    bad = copy.deepcopy(record)
    deal = bad["dealt"][1]
    if where == "deck":
        deal["deck"][10], deal["deck"][11] = deal["deck"][11], deal["deck"][10]
    elif where == "hands":
        other = next(c for c in deal["deck"] if c not in deal["hands"][0])
        deal["hands"][0][0] = other
    elif where == "turned":
        deal["turned"] = next(c for c in deal["deck"] if c != deal["turned"])
    else:
        move = next(m for m in deal["moves"] if m.get("drew"))
        drawn = move["drew"][0]["cards"]
        drawn[0] = next(c for c in deal["deck"] if c != drawn[0])
    report = verify(bad)
    assert not report.ok
    assert codes(report) == {{"deck": "deck_card", "hands": "hand_card", "turned": "turned",
                              "drew": "drawn_card"}[where]}
    assert all(p.params["deal"] == 2 for p in report.problems)


def test_a_changed_seed_is_caught(record):
    report = verify(record | {"seed": "w"})
    assert {"commitment", "deck_card"} <= codes(report)


def test_a_changed_salt_is_caught(record):
    report = verify(record | {"salt": "salt"})
    assert codes(report) == {"commitment"}


def test_a_changed_commitment_is_caught(record):
    bad = copy.deepcopy(record)
    bad["dealt"][0]["commitment"] = "0" * 64
    report = verify(bad)
    assert codes(report) == {"commitment"} and report.problems[0].params["deal"] == 1


def test_a_changed_move_or_tally_is_caught(record):
    bad = copy.deepcopy(record)
    bad["losses"] = {side: 0 for side in bad["losses"]}
    assert "losses" in codes(verify(bad))
    bad = copy.deepcopy(record)
    first = bad["dealt"][0]["moves"][0]
    first["seat"] = (first["seat"] + 1) % 3
    assert codes(verify(bad)) == {"illegal_move"}


@pytest.mark.parametrize("junk", [None, [], "text", {"format": "durak-match/1"},
                                  {"format": "durak-match/1", "seed": "s", "salt": "t"},
                                  {"format": "other"}])
def test_junk_is_refused_without_raising(junk):
    report = verify(junk)
    assert not report.ok and codes(report) <= {"not_a_record", "no_seed"}


def test_a_game_without_a_salt_is_not_passed(record):
    assert codes(verify(record | {"salt": None})) == {"no_salt"}


def test_the_command_exits_by_the_result(record, tmp_path, capsys):
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(record))
    bad.write_text(json.dumps(record | {"salt": "other"}))
    assert main([str(good)]) == 0 and capsys.readouterr().out.startswith("OK:")
    assert main([str(bad)]) == 1 and "commitment" in capsys.readouterr().out
    (tmp_path / "junk.json").write_text("{not json")
    assert main([str(tmp_path / "junk.json")]) == 2


def test_the_command_runs_without_django(record, tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    code = ("import runpy, sys\n"
            f"sys.argv = ['verify', {str(path)!r}]\n"
            "try:\n"
            "    runpy.run_module('games.engine.verify', run_name='__main__')\n"
            "except SystemExit as stop:\n"
            "    print('EXIT', stop.code, any(m.startswith('django') for m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         env={"PATH": "/usr/bin:/bin"}, check=True)
    assert out.stdout.startswith("OK:") and out.stdout.strip().endswith("EXIT 0 False"), out
