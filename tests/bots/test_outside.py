"""bench.outside: the Expert against an outside Durak AI, here a stand-in program written
by the test in the outside AI's shape (durak.py and search.py in a folder of its own)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bench import outside
from bench.arena import deck_for
from games.engine import Card, Deal, Rules

STAND_IN_DURAK = '''
class Card:
    def __init__(self, rank, suit):
        self.rank, self.suit = rank, suit
    def __eq__(self, other):
        return (self.rank, self.suit) == (other.rank, other.suit)
    def __hash__(self):
        return hash((self.rank, self.suit))

class Player:
    def __init__(self, game):
        self.game, self.hand = game, []
    def chooseActionHeuristic(self):
        g = self.game
        if not g.is_attacker_move:
            return ("t", (self.hand[0],))  # a transfer with its first card, of any rank
        if g.defender_eating:
            return ("b", ())
        if g.attack_cards:
            return ("r", ())
        return ("a", tuple(c for c in self.hand if c.rank == self.hand[0].rank))

class TransferDurak:
    def __init__(self, num_players=2, num_humans=1):
        self.players = [Player(self), Player(self)]
    def getCurrentPlayer(self):
        return self.players[self.attacker_pos if self.is_attacker_move else self.defender_pos]
    def actions(self):
        return ["a", "choice"]
'''
STAND_IN_SEARCH = "def MCTS(s, num_iterations=None):\n    return s.getCurrentPlayer().chooseActionHeuristic()\n"


@pytest.fixture
def stand_in(tmp_path: Path) -> outside.Larsen:
    (tmp_path / "durak.py").write_text(STAND_IN_DURAK)
    (tmp_path / "search.py").write_text(STAND_IN_SEARCH)
    return outside.Larsen(tmp_path, playouts=3, sees="hand")


def rules() -> Rules:
    return Rules.from_dict(dict(outside.KIND_RULES["larsenbier"], players=2))


def test_its_moves_become_the_engines_actions(stand_in: outside.Larsen) -> None:
    game = stand_in.durak.TransferDurak()
    game.attack_cards = [stand_in.card("7H"), stand_in.card("7S")]
    game.defense_cards = []
    c = stand_in.card
    assert stand_in.tokens(game, ("d", (c("9H"), c("AS")))) == ["defend:7H:9H", "defend:7S:AS"]
    game.defense_cards = [c("9H")]
    assert stand_in.tokens(game, ("d", (c("AS"),))) == ["defend:7S:AS"]  # the last card only
    assert stand_in.tokens(game, ("t", (c("7D"), c("7C")))) == ["transfer:7D", "transfer:7C"]
    assert stand_in.tokens(game, ("e", ())) == ["take"]
    assert [stand_in.tokens(game, (k, ())) for k in "rbp"] == [["pass"]] * 3
    assert stand_in.tokens(game, ("a", (c("TD"),))) == ["attack:TD"]


def test_its_state_holds_what_the_seat_may_see(stand_in: outside.Larsen) -> None:
    deal = Deal.start(rules(), seed=5)
    seat = deal.to_act
    assert seat is not None
    game = stand_in.state(deal, dict(deal.view(seat)))
    me, other = game.players[seat], game.players[1 - seat]
    assert {Card.parse(stand_in.code_of(x)) for x in me.hand} == set(deal.hand(seat))
    # Unseen: neither its own cards nor the face-up cards; the other's hand is unknown yet.
    assert not me.talon_belief & set(me.hand) and me.hand_beliefs[1 - seat] == set()
    assert len(me.talon_belief) == 36 - 6
    assert len(game.talon) == deal.talon_size and len(other.hand) == 6
    assert game.is_attacker_move and game.attacker_pos == seat


def test_a_pack_is_played_twice_with_the_seats_swapped(stand_in: outside.Larsen) -> None:
    results = outside.play_pack(rules(), "t", 3, stand_in, budget=0.01)
    pack, dealer = deck_for(rules(), "t", 3)
    assert [r["expert_seat"] for r in results] == [0, 1]
    assert {r["pack"] for r in results} == {outside.hashlib.sha256(" ".join(pack).encode()).hexdigest()[:12]}
    assert {r["dealer"] for r in results} == {dealer}
    for r in results:
        assert r["draw"] or r["expert_lost"] != r["outside_lost"]


def test_refused_moves_fall_back_to_the_nearest_legal_action_and_are_counted(stand_in: outside.Larsen) -> None:
    results = outside.play_pack(rules(), "t", 3, stand_in, budget=0.01)
    fallbacks = [f for r in results for f in r["fallbacks"]]
    # Its transfers with a card of another rank are refused: a legal transfer, a defence
    # or a take instead.
    assert fallbacks and all(f["wanted"].startswith("transfer:") for f in fallbacks)
    assert all(f["played"].split(":")[0] in ("transfer", "defend", "take") for f in fallbacks)
    assert sum(r["followed"] for r in results) > 0  # the rest of a lead of several cards
    assert outside.nearest_legal("transfer:9H", ["defend:8H:TH", "take"]) == "defend:8H:TH"
    assert outside.nearest_legal("attack:KS", ["attack:KH", "attack:QS", "pass"]) == "attack:QS"
    assert outside.nearest_legal("attack:KS", ["pass", "take"]) == "pass"


def test_each_deal_is_written_as_it_ends(stand_in: outside.Larsen, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "o.jsonl"
    argv = ["--opponent", "larsenbier:x", "--deals", "2", "--seed", "t", "--budget", "0.01", "--out", str(out)]
    assert outside.main(argv, opponent_factory=lambda *a: stand_in) == 0
    lines = [json.loads(t) for t in out.read_text().splitlines()]
    assert len(lines) == 2 and lines[0]["rules"]["transfer"] and lines[0]["rules"]["trump_exchange"] == "off"
    assert "Expert lost" in capsys.readouterr().out


@pytest.mark.parametrize("sees", ["hand", "sample"])
def test_its_search_is_given_the_true_deal_or_a_sample_of_its_view(tmp_path: Path, sees: str) -> None:
    (tmp_path / "durak.py").write_text(STAND_IN_DURAK)
    (tmp_path / "search.py").write_text(STAND_IN_SEARCH)
    program = outside.Larsen(tmp_path, playouts=3, sees=sees)
    given: list[Deal] = []
    build = program.state
    program.state = lambda source, view: (given.append(source), build(source, view))[1]  # type: ignore[method-assign]
    deal = Deal.start(rules(), seed=5)
    seat = deal.to_act
    assert seat is not None
    for i in range(6):
        program.choose(deal, seat, random.Random(i))
    assert all(set(g.hand(seat)) == set(deal.hand(seat)) for g in given)
    others = [set(g.hand(1 - seat)) == set(deal.hand(1 - seat)) for g in given]
    assert all(others) if sees == "hand" else not all(others)
