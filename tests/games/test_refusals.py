"""Every refusal of the engine reaches the player in words: a message per code, with card
labels and players' names, and moves of several cards say where they stopped."""

import ast
import logging
import re
from pathlib import Path

import pytest

from games import services
from games.engine import Deal, IllegalAction, Rules, action_from_token
from games.engine.cards import full_deck
from games.services.refusals import REFUSALS, refusal_message

from .conftest import refused

ENGINE = Path(services.__file__).resolve().parents[1] / "engine"
# The codes the engine documents for refusals (stable, for translations); the scan below must find at least these.
DOCUMENTED = {
    "not_an_action", "deal_over", "not_your_turn", "defender_cannot_attack",
    "defender_cannot_pass", "lead_first", "only_defender", "not_in_hand", "limit_reached",
    "lead_same_rank", "wait_for_defence", "rank_not_on_table", "attack_not_on_table",
    "already_beaten", "cannot_beat", "cannot_beat_trump", "transfer_off",
    "transfer_after_defence", "transfer_wrong_rank", "transfer_too_many", "exchange_off",
    "exchange_no_six", "exchange_not_holder", "exchange_talon_empty", "exchange_six_face_up",
    "exchange_ace_only", "exchange_no_right",
}
CODE = re.compile(r"^[a-z]+(_[a-z]+)+$|^[a-z]+$")


def _strings(node) -> set[str]:
    return {n.value for n in ast.walk(node) if isinstance(n, ast.Constant)
            and isinstance(n.value, str) and CODE.match(n.value)}


def engine_refusal_codes() -> set[str]:
    """Codes in the engine's source: IllegalAction(message, code, …) calls (code may be an
    expression), and the (message, code) pairs returned by its `_why_…` helpers."""
    codes = set()
    for path in sorted(ENGINE.glob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "IllegalAction":
                if len(node.args) >= 2:
                    codes |= _strings(node.args[1])
                codes |= {s for k in node.keywords if k.arg == "code" for s in _strings(k.value)}
            if isinstance(node, ast.FunctionDef) and node.name.startswith("_why"):
                for ret in ast.walk(node):
                    if isinstance(ret, ast.Return) and isinstance(ret.value, ast.Tuple):
                        codes |= _strings(ret.value.elts[-1])
    return codes


def test_the_scan_finds_every_documented_code():
    assert DOCUMENTED <= engine_refusal_codes()


def test_every_refusal_code_of_the_engine_has_a_message_for_players():
    missing = engine_refusal_codes() - set(REFUSALS)
    assert not missing, f"no site message for the engine's refusals {sorted(missing)}"


PARAMS = {"card": "8D", "attack": "TS", "lead": "7H", "rank_of": "7H", "seat": 1,
          "limit": 5, "count": 4}
WORDS_PLAYERS_NEVER_SEE = re.compile(r"\bseat\b|\bR\d+\b|action|params|%\(|\b[2-9TJQKA][SHDC]\b")


@pytest.mark.parametrize("code", sorted(REFUSALS))
def test_each_message_reads_for_a_player(code):
    text = refusal_message(IllegalAction("English", code, **PARAMS), {1: "Bob"}.get)
    assert text and text != "English"
    assert not WORDS_PLAYERS_NEVER_SEE.search(text), text
    if "%(card)s" in str(REFUSALS[code]):
        assert "8♦" in text
    if "%(name)s" in str(REFUSALS[code]):
        assert "Bob" in text


def test_an_unknown_code_gets_a_plain_refusal_and_a_warning(caplog):
    with caplog.at_level(logging.WARNING, logger="games.services.refusals"):
        text = refusal_message(IllegalAction("R99 says no", "brand_new"), str)
    assert text == "That move is not allowed now."
    assert "brand_new" in caplog.text


def _deal():
    """Seat 0 holds 7♠ 7♣ 7♦ Q♠ Q♣ Q♦, seat 1 9♠ 9♣ 9♦ J♠ J♣ J♦; hearts are trump."""
    deck = ["7S", "9S", "7C", "9C", "7D", "9D", "QS", "JS", "QC", "JC", "QD", "JD", "6H"]
    deck += [c.code for c in full_deck(36) if c.code not in deck]
    return Deal.start(Rules(players=2), deck=deck, dealer=1, opener=0)


@pytest.mark.parametrize("moves, expected", [
    ([(0, "attack:8D")], "You don't hold the 8♦."),
    ([(1, "take")], "It is not your turn: Anna is to act."),
    ([(0, "attack:7S"), (1, "defend:7S:JC")],
     "The J♣ can't beat the 7♠: it is neither a higher card of the same suit nor a trump."),
    ([(0, "attack:7S"), (1, "defend:7S:9S"), (0, "take")],
     "Only Bob, the defender, may do that."),
    ([(0, "attack:7S"), (1, "defend:7S:9S"), (0, "attack:QS")],
     "The Q♠ can't be thrown in: no card of its rank is on the table."),
])
def test_forced_refusals_name_cards_and_players(moves, expected):
    deal = _deal()
    *before, (seat, token) = moves
    for s, t in before:
        deal.apply(s, action_from_token(t))
    with pytest.raises(IllegalAction) as info:
        deal.apply(seat, action_from_token(token))
    assert refusal_message(info.value, {0: "Anna", 1: "Bob"}.get) == expected


def test_a_move_of_several_cards_names_the_card_that_was_refused(alice, bob, classic, stacked):
    game = services.create_game(alice, classic, players=2)
    game = services.join_game(game.pk, bob)
    game = services.play(game.pk, alice, ["attack:7S"], game.version)
    game = services.play(game.pk, bob, ["defend:7S:9S"], game.version)
    message = refused(game, lambda: services.play(
        game.pk, alice, ["attack:7C", "attack:8D", "pass"], game.version),
        services.IllegalMove, 400)
    assert message == "Your second card: You don't hold the 8♦. Nothing was played."


def test_a_move_that_outlasts_the_turn_says_after_which_card(alice, bob, classic, stacked):
    game = services.create_game(alice, classic, players=2)
    game = services.join_game(game.pk, bob)
    game = services.play(game.pk, alice, ["attack:7S"], game.version)
    message = refused(game, lambda: services.play(
        game.pk, bob, ["defend:7S:9S", "take"], game.version), services.IllegalMove, 400)
    assert message == ("After the 9♠ it is alice's turn. The rest of your move can't be played. "
                       "Nothing was played.")
    assert not re.search(r"action|\d", message.replace("9♠", ""))

