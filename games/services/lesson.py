"""The lesson ("Learn Durak in five minutes"): a newcomer's first deal against an Easy
computer player, on the real table, dealt from an arranged pack so that the things to
learn come up early (the words that explain them: games/present/lesson.py).

The pack is one of the seeds LESSON_SEEDS (a seed keeps replays and exports working, as
for any game): a player's lessons take them in turn, so a second lesson deals another
hand. Each seed is checked to deal, in the classic rules for two players
(tests/games/test_lesson.py):

- the face-up trump card is the trump 6, so no trump exchange comes up (R27);
- the learner (seat 0) holds the lowest trump in the hands, and so leads (R5); in the
  first seed that is 7♥;
- the learner's lowest cards of a plain suit are a pair (9♠ and 9♦ in the first seed):
  after either is beaten the other may be thrown in (R8); the computer can beat one of
  the two in its suit and the other only with a trump (R6), or take it (R14);
- a take follows in every deal the tests play with the computer's choices varying: the
  computer's in nearly all, the learner's in most.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from ..models import MAX_MOVE_TIME, Game, RulePreset, Seat, TimeControl
from .access import Someone, need_user
from .errors import BadRequest
from .lobby import create_game

if TYPE_CHECKING:
    from accounts.models import Player

LESSON_SEED = "lesson-167585"  # a newcomer's first lesson
LESSON_SEEDS = (LESSON_SEED, "lesson-185", "lesson-524", "lesson-2198", "lesson-2754")
LESSON_BOT = "easy"
LESSON_PLAYERS = 2


def lesson_preset() -> RulePreset | None:
    """The rules the lesson explains: the classic game (36 cards, six in hand, no teams, no
    transfers, a lead of one card), the preset named Classic first."""
    presets = RulePreset.objects.filter(
        active=True, deck_size=36, hand_size=6, teams="", transfer=False, lead_multiple=False,
        min_players__lte=LESSON_PLAYERS, max_players__gte=LESSON_PLAYERS)
    return (presets.filter(name="Classic").first()
            or presets.order_by("position", "pk").first())


def unfinished_lesson(user: Someone) -> Game | None:
    """The player's lesson still being played, if any."""
    if user is None or not user.is_authenticated:
        return None
    return (Game.objects.filter(lesson=True, status=Game.Status.PLAYING, seats__player=user)
            .order_by("-created_at", "-pk").first())


def has_finished_game(user: Someone) -> bool:
    """Whether the player has finished any game (a lesson too)."""
    if user is None or not user.is_authenticated:
        return False
    return Seat.objects.filter(player=user, game__status=Game.Status.FINISHED).exists()


def offers_lesson(user: Someone) -> bool:
    """The lobby offers the lesson to visitors and to players who have not finished a game."""
    return not has_finished_game(user)


def start_lesson(user: Someone) -> Game:
    """The player's lesson: the unfinished one if there is one, else a new one (casual,
    private, one deal, the longest time per move). Two starts at once make one lesson:
    each locks the player's row first."""
    player: Player = need_user(user)
    preset = lesson_preset()
    if preset is None:
        raise BadRequest(_("The lesson plays the classic rules, which are not offered "
                           "right now."))
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=player.pk).first()  # the lock
        resumed = unfinished_lesson(player)
        if resumed is not None:
            return resumed
        earlier = Game.objects.filter(lesson=True, seats__player=player).count()
        return create_game(player, preset, players=LESSON_PLAYERS, bots=[LESSON_BOT],
                           bot_level=LESSON_BOT, deals=1, rated=False, private=True,
                           time_control=TimeControl.MOVE, move_time=MAX_MOVE_TIME,
                           lesson=True, seed=LESSON_SEEDS[earlier % len(LESSON_SEEDS)])
