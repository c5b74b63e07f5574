"""The one door that changes a game (docs/design.md, "How a move flows"), a module per job;
callers use `from games import services` and the names re-exported here."""

# Every change is one transaction, `with change.locked(...) as change:`: it locks the game
# row (`select_for_update`), checks what the caller may do (access), changes the game
# through the engine, writes the state, the move log (action tokens) and the new deadline
# (turn), bumps `version` (Change.save), decides whether a bot is to act, and after the
# commit hands that to `games.notify.game_changed`. Anything wrong raises a `GameError`
# with a message for the player and an HTTP status; the game is then left exactly as it
# was. Imports run one way: tasks -> services -> notify.

from . import apart, chat, friends, guests, push, tournament
from .access import can_view, seat_of
from .apply import MAX_ACTIONS, read_move
from .botplay import BOT_MOVES_PER_TASK, bot_action, run_bots
from .challenge import (
    accept_challenge,
    challenge,
    challenge_friend,
    decline_challenge,
    find_player,
    open_challenges,
    send_challenge_mail,
)
from .change import Change, parse_version
from .clocks import (
    claim_match,
    claimable,
    sweep_expired,
    timeout,
    timeout_action,
    wake_stalled_bots,
)
from .coach import ask_hint, compute_hint, hint_for
from .errors import (
    BadRequest,
    Conflict,
    Forbidden,
    GameError,
    IllegalMove,
    NotFound,
    NotYourTurn,
    StaleVersion,
    TimeRanOut,
)
from .lesson import offers_lesson, start_lesson, unfinished_lesson
from .lobby import (
    LEVELS,
    MAX_DEALS,
    abort_game,
    create_game,
    join_game,
    leave_game,
    resume_seat,
    start_game,
)
from .moves import play, play_change, play_order, play_seat
from .orders import set_orders, standing_action
from .quickmatch import quick_match
from .refusals import REFUSALS, refusal_message
from .rematch import accept_rematch, new_game_answers
from .reminders import REMINDER_MIN_MOVE_TIME, send_reminders
from .resign import resign
from .results import finish_match, keep_deal
from .turn import bot_holds_initiative
from .vacation import days_left, end_vacation, end_vacations, start_vacation
from .your_move import MOVE_EMAIL_DELAY, send_move_emails, send_summaries

__all__ = [
    "BOT_MOVES_PER_TASK", "bot_action", "run_bots",
    "Change", "claim_match", "claimable", "play", "play_change", "sweep_expired", "timeout", "timeout_action",
    "wake_stalled_bots",
    "ask_hint", "compute_hint", "hint_for",
    "bot_holds_initiative", "can_view", "parse_version", "seat_of",
    "BadRequest", "Conflict", "Forbidden", "GameError", "IllegalMove", "NotFound",
    "NotYourTurn", "StaleVersion", "TimeRanOut",
    "LEVELS", "MAX_DEALS", "abort_game", "create_game", "join_game", "leave_game",
    "resume_seat", "start_game",
    "offers_lesson", "start_lesson", "unfinished_lesson",
    "MAX_ACTIONS", "play_order", "play_seat", "read_move",
    "set_orders", "standing_action",
    "REFUSALS", "refusal_message",
    "REMINDER_MIN_MOVE_TIME", "send_reminders",
    "days_left", "end_vacation", "end_vacations", "start_vacation",
    "MOVE_EMAIL_DELAY", "send_move_emails", "send_summaries",
    "accept_challenge", "challenge", "challenge_friend", "decline_challenge", "find_player", "open_challenges",
    "send_challenge_mail", "quick_match",
    "apart", "chat", "friends", "guests", "push", "tournament", "accept_rematch", "new_game_answers", "resign", "finish_match", "keep_deal",
]
