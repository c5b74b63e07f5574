"""Computer players keep a pace a person can follow: with a person at the table each bot
move is its own turn, queued after BOT_PACE_SECONDS (half of it after the person's own
move); a table of computers only plays on at once. And "Last move" tells the latest step
alone, and says when the site moved for a player whose time ran out."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone, translation

from games import notify, services, tasks
from games.models import Game, Move
from tests.games.conftest import client_for, seat_user, table_url

pytestmark = pytest.mark.django_db

PACE = 0.8


@pytest.fixture
def paced(settings):
    settings.BOT_PACE_SECONDS = PACE


@pytest.fixture
def queued(monkeypatch):
    """The bot turns queued, as (game, version, delay), not run."""
    turns = []
    monkeypatch.setattr(notify, "queue_bot_turn",
                        lambda game_id, version, delay=0.0: turns.append((game_id, version, delay)))
    return turns


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def last_move(body: str) -> str:
    """The table's "Last move:" line, in words."""
    line = body[body.index('class="last-move"'):]
    line = line[:line.index("</p>")]
    return " ".join(re.sub(r"<[^>]+>", " ", line.split(">", 1)[1]).split())


def test_the_countdown_reaches_celery(monkeypatch):
    sent = []

    class Signature:
        def __init__(self, name, args):
            self.name, self.args = name, args

        def apply_async(self, **options):
            sent.append((self.name, self.args, options))

    class App:
        signature = Signature

    monkeypatch.setattr(notify, "current_app", App())
    notify.queue_bot_turn(7, 3, 0.8)
    notify.queue_bot_turn(7, 4)
    assert sent == [(notify.BOT_TURN, (7, 3), {"countdown": 0.8}),
                    (notify.BOT_TURN, (7, 4), {"countdown": None})]


def test_each_bot_move_is_its_own_turn_after_the_pace(alice, classic, seeded, paced, queued,
                                                      django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = services.create_game(alice, classic, players=3, bots=["easy", "easy"],
                                    move_time=timedelta(hours=1))
    bot_moves = person_moves = 0
    while bot_moves < 6:
        game.refresh_from_db()
        assert game.is_playing
        deal = game.match().deal
        if deal.to_act == 0:  # alice: her move, then the bot waits half the pace
            with django_capture_on_commit_callbacks(execute=True):
                game = services.play(game.pk, alice, [deal.legal_actions(0)[0].token()],
                                     game.version)
            person_moves += 1
            if game.turn_seat != 0:
                assert queued[-1] == (game.pk, game.version, PACE / 2)
            continue
        # A bot is to act: its turn was queued for this version, after the pace.
        assert queued[-1][:2] == (game.pk, game.version)
        assert queued[-1][2] in (PACE, PACE / 2)
        before = len(queued)
        with django_capture_on_commit_callbacks(execute=True):
            assert tasks.bot_turn(game.pk, game.version) == 1  # one move, not a run
        bot_moves += 1
        game.refresh_from_db()
        if game.turn_seat != 0 and game.is_playing:
            assert queued[before:] == [(game.pk, game.version, PACE)]
        else:
            assert queued[before:] == []  # alice's turn: no bot to queue
    assert Move.objects.filter(game=game, kind=Move.Kind.BOT).count() == bot_moves
    assert person_moves  # alice played between the bots


def test_a_stale_bot_turn_does_nothing(alice, classic, seeded, paced, queued,
                                       django_capture_on_commit_callbacks):
    game = services.create_game(alice, classic, players=2, bots=1, move_time=timedelta(hours=1))
    if game.turn_seat == 0:  # alice leads: after her lead the bot is to act
        with django_capture_on_commit_callbacks(execute=True):
            game = services.play(game.pk, alice, [game.match().deal.legal_actions(0)[0].token()],
                                 game.version)
    assert game.turn_seat == 1
    version, state = game.version, game.state
    assert tasks.bot_turn(game.pk, version - 1) == 0  # queued for a version gone by
    game.refresh_from_db()
    assert (game.version, game.state) == (version, state)
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.bot_turn(game.pk, version) == 1
    assert tasks.bot_turn(game.pk, version) == 0  # the same turn given twice: once only
    game.refresh_from_db()
    assert game.version == version + 1


def test_a_table_of_computers_only_plays_on_without_a_pace(alice, classic, seeded, paced,
                                                           queued):
    game = services.create_game(alice, classic, players=3, bots=["easy", "easy"],
                                move_time=timedelta(hours=1))
    game.seats.filter(number=0).update(bot_level="easy", player=None)
    seats = list(game.seats.order_by("number"))
    assert services.turn.bot_pace(seats, Move.Kind.BOT) == 0
    assert services.run_bots(game.pk, max_moves=12) == 12  # one turn, twelve moves
    assert all(delay == 0 for _game, _version, delay in queued)


def test_the_sweep_wakes_a_paced_bot_no_task_handles(alice, classic, seeded, paced, queued):
    """A bot turn queued with a countdown that is lost (its worker died) is woken by the
    sweep; one waiting for its pace is not woken twice."""
    game = services.create_game(alice, classic, players=2, bots=1, move_time=timedelta(hours=1))
    if game.turn_seat == 0:
        game = services.play(game.pk, alice, [game.match().deal.legal_actions(0)[0].token()],
                             game.version)
    queued.clear()
    assert services.wake_stalled_bots() == 0  # within its pace: its task will come
    Game.objects.filter(pk=game.pk).update(turn_started=timezone.now() - timedelta(seconds=20))
    assert services.wake_stalled_bots() == 1
    assert queued == [(game.pk, game.version, 0.0)]


def test_last_move_tells_a_bots_latest_step_alone(alice, classic, stacked, queued):
    """alice takes the bot's 7♠; the bot throws in 7♣, then 7♦, each its own move (R15):
    "Last move" tells each step alone, not the run."""
    game = services.create_game(alice, classic, players=2, move_time=timedelta(hours=1))
    # A computer plays seat 0, which leads; alice takes the other seat.
    game.seats.filter(number=0).update(bot_level="easy", player=None)
    services.join_game(game.pk, alice)
    game.refresh_from_db()
    bot = game.seats.get(number=0).name
    game = services.play_seat(game.pk, 0, ["attack:7S"], game.version, by_bot=True)
    game = services.play(game.pk, alice, ["take"], game.version)
    game = services.play_seat(game.pk, 0, ["attack:7C"], game.version, by_bot=True)
    body = client_for(alice).get(table_url(game)).content.decode()
    assert last_move(body) == f"Last move: {bot} attacks with 7♣."
    game = services.play_seat(game.pk, 0, ["attack:7D"], game.version, by_bot=True)
    body = client_for(alice).get(table_url(game)).content.decode()
    # The bot has no 7 left: passed over, alice picks up (R13, R15). One step, what followed.
    assert last_move(body).startswith(
        f"Last move: {bot} attacks with 7♦. alice picks up 3 cards: 7♠, 7♣, 7♦.")
    assert "7♣." not in last_move(body)


def overdue(game):
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    game.refresh_from_db()
    return game


def test_last_move_says_the_site_played_for_a_player_out_of_time(duel):
    late = duel.turn_seat
    name = duel.seats.get(number=late).name
    card = services.timeout_action(duel.match().deal, late).token().split(":")[1]
    label = {"T": "10"}.get(card[0], card[0]) + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[card[1]]
    game = services.timeout(overdue(duel).pk, duel.version)
    mine = client_for(seat_user(game, late)).get(table_url(game)).content.decode()
    assert last_move(mine) == f"Last move: The site played {label} for you (time ran out)."
    theirs = client_for(seat_user(game, 1 - late)).get(table_url(game)).content.decode()
    assert last_move(theirs) == (
        f"Last move: The site played {label} for {name} (time ran out).")
    assert "site-moved" not in mine  # not said twice
    # The next move is told as it is; the late player still reads, beside it, what the
    # site did for them, until they move themselves.
    answer = game.match().deal.legal_actions(1 - late)[0].token()
    game = services.play(game.pk, seat_user(game, 1 - late), [answer], game.version)
    mine = client_for(seat_user(game, late)).get(table_url(game)).content.decode()
    assert "time ran out" not in last_move(mine)
    assert (f'<p class="site-moved">The site played {label} for you (time ran out).</p>'
            in mine)
    theirs = client_for(seat_user(game, 1 - late)).get(table_url(game)).content.decode()
    assert "site-moved" not in theirs
    if game.turn_seat == late:
        move = game.match().deal.legal_actions(late)[0].token()
        game = services.play(game.pk, seat_user(game, late), [move], game.version)
        mine = client_for(seat_user(game, late)).get(table_url(game)).content.decode()
        assert "site-moved" not in mine


def test_a_timeout_take_and_pass_are_told_too(duel):
    """The defender out of time takes; the attacker out of time passes (section 10)."""
    deal = duel.match().deal
    attacker = deal.to_act
    lead = deal.legal_actions(attacker)[0].token()
    game = services.play(duel.pk, seat_user(duel, attacker), [lead], duel.version)
    defender = game.turn_seat
    game = services.timeout(overdue(game).pk, game.version)
    body = client_for(seat_user(game, defender)).get(table_url(game)).content.decode()
    assert last_move(body) == "Last move: The site took the cards for you (time ran out)."
    game = services.timeout(overdue(game).pk, game.version)  # the attacker passes, then
    name = game.seats.get(number=attacker).name
    body = client_for(seat_user(game, defender)).get(table_url(game)).content.decode()
    assert last_move(body).startswith(
        f"Last move: The site passed for {name} (time ran out).")
