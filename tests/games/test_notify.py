"""After a commit: the change's maker says whether a bot is to act; notify tells the group
and queues the bot turn by name. With eager Celery, bot turns chain without a thread-local."""

import inspect
import sys
from datetime import timedelta

import pytest

from games import notify, services, tasks
from games.models import Game, Move


@pytest.fixture
def heard(monkeypatch):
    """What notify.game_changed was told, in order."""
    calls = []
    monkeypatch.setattr(notify, "game_changed",
                        lambda game_id, version, *, bot_to_move=False, bot_delay=0.0,
                        state=None: calls.append(
                            (game_id, version, bot_to_move)))
    return calls


@pytest.mark.django_db
def test_a_change_says_whether_a_bot_is_to_act(alice, classic, stacked, heard,
                                               django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = services.create_game(alice, classic, players=2, bots=1)
    assert heard == [(game.pk, game.version, False)]  # alice leads (the stacked deal)
    with django_capture_on_commit_callbacks(execute=True):
        game = services.play(game.pk, alice, ["attack:7S"], game.version)
    assert heard[-1] == (game.pk, game.version, True)  # the bot defends next


@pytest.mark.django_db
def test_a_change_between_people_queues_no_bot(duel, alice, bob, heard,
                                               django_capture_on_commit_callbacks):
    deal = duel.match().deal
    user = alice if deal.to_act == 0 else bob
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        services.play(duel.pk, user, [deal.legal_actions(deal.to_act)[0].token()], duel.version)
    assert len(callbacks) == 3  # the table's group, the players' navigation, the log line
    assert heard == [(duel.pk, duel.version + 1, False)]


def test_notify_queues_a_bot_turn_by_name_only_when_told(monkeypatch):
    queued = []
    monkeypatch.setattr(notify, "queue_bot_turn", lambda *args: queued.append(args))
    notify.game_changed(7, 3)
    notify.game_changed(7, 4, bot_to_move=False)
    assert queued == []
    notify.game_changed(7, 5, bot_to_move=True)
    assert queued == [(7, 5, 0.0)]
    notify.game_changed(7, 6, bot_to_move=True, bot_delay=0.8)
    assert queued[-1] == (7, 6, 0.8)
    assert notify.BOT_TURN == tasks.bot_turn.name


def test_notify_imports_nothing_of_games():
    source = inspect.getsource(notify)
    assert "from ." not in source and "import games" not in source and "from games" not in source


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_bot_turns_chain_a_bounded_number_of_moves_each(alice, classic, seeded, monkeypatch):
    """An all-bot table plays out in eager mode: each turn plays at most its share and its
    last move queues the next, so the nesting stays shallow."""
    default = services.botplay.BOT_MOVES_PER_TASK
    monkeypatch.setattr(services.botplay, "BOT_MOVES_PER_TASK", 10)
    turns = []
    real = services.run_bots

    def counting(game_id, **kwargs):
        i = len(turns)
        turns.append(None)
        depth = len(inspect.stack(0))
        moves = real(game_id, **kwargs)
        turns[i] = (depth, moves)
        return moves

    monkeypatch.setattr(services, "run_bots", counting)
    game = services.create_game(alice, classic, players=3, bots=["easy", "easy"],
                                move_time=timedelta(hours=1))
    game.seats.filter(number=0).update(bot_level="easy", player=None)
    game.refresh_from_db()
    notify.game_changed(game.pk, game.version, bot_to_move=True)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    played = Move.objects.filter(game=game, kind=Move.Kind.BOT).count()
    assert played > 10 and len(turns) >= 2
    assert all(moves <= 10 for _depth, moves in turns)
    assert sum(moves for _depth, moves in turns) == played
    # Each queued turn nests once inside the last one's commit: even a game of 1000 bot
    # moves at the default bound stays far from the recursion limit.
    depths = [depth for depth, _moves in turns]
    per_turn = (depths[-1] - depths[0]) / (len(depths) - 1)
    print(f"{played} bot moves in {len(turns)} turns, {per_turn:.0f} frames per turn")
    assert per_turn * (1000 / default) < sys.getrecursionlimit() - depths[0]
