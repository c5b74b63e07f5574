"""The coach's hint at a casual table: the move a search bot would make for your seat, and
why in a few words. Asked for over HTTP, computed by a Celery task from your seat's view
only (games.bots.coach), kept in the cache for that version of the game."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.utils.translation import gettext as _

from .. import limits, notify
from ..bots.coach import hint
from ..describe import label
from ..models import Game, Seat
from .access import Someone, need_user
from .change import read, require
from .errors import Conflict, Forbidden, GameError

HINT_WORLDS = 24  # sampled deals: well under a second
HINT_SECONDS = 600  # how long a hint is kept
ASKED_SECONDS = 60  # a hint on its way is not asked for again at that version meanwhile


def _key(game_id: int, version: int, seat: int) -> str:
    return f"hint:{game_id}:{version}:{seat}"


def _asked_key(game_id: int, version: int, seat: int) -> str:
    return f"hint-asked:{game_id}:{version}:{seat}"


def take_allowance(kind: str, user_id: int) -> bool:
    """Count one hint or review ("hint", "review") the player asks for; False, counting
    nothing, when they have used up settings.LIMITS[kind] (a fixed window per player).
    Over it: 429, nothing queued."""
    return limits.hit(kind, user_id)


def too_many_reviews() -> GameError:
    return GameError(_("You have asked for many reviews in the last hour: wait a while "
                       "and ask again."), 429)


def _check(game_id: int | str, user: Someone) -> tuple[Game, Seat]:
    looked = read(game_id, user, seated=True)
    game, seat = looked.game, looked.my_seat
    if game.rated:
        raise Forbidden(_("Hints are for casual games, not rated ones."))
    require(looked, playing=True, in_person=True)
    if not game.match_in_play().deal.legal_actions(seat.number):
        raise Conflict(_("Nothing to do right now: wait for your turn."))
    return game, seat


def ask_hint(game_id: int | str, user: Someone) -> tuple[int, int]:
    """Queue the coach for the user's seat at this version, once (a hint on its way or
    kept is not asked for again), within the player's hint limit; (version, seat)."""
    game, seat = _check(game_id, user)
    version, number = game.version, seat.number
    if cache.get(_key(game.pk, version, number)) is not None:
        return version, number
    if not cache.add(_asked_key(game.pk, version, number), True, ASKED_SECONDS):
        return version, number  # on its way
    if not take_allowance("hint", need_user(user).pk):
        cache.delete(_asked_key(game.pk, version, number))
        raise GameError(_("You have asked the coach for many hints in the last minute: "
                          "wait a moment and ask again."), 429)
    notify.queue_hint(game.pk, version, number)
    return version, number


def hint_for(game_id: int | str, user: Someone, version: int) -> dict[str, Any] | None:
    """The hint for the user's seat at `version`, in the user's words, once the coach has
    it (else None)."""
    game, seat = _check(game_id, user)
    kept = cache.get(_key(game.pk, version, seat.number))
    if kept is None:
        return None
    return {**kept, "text": advice_words(kept["reason"], kept["card"])}


def compute_hint(game_id: int, version: int, seat: int) -> bool:
    """The task: the coach looks at the seat's view (nothing else) and keeps its advice."""
    game = Game.objects.filter(pk=game_id, version=version).first()
    if game is None or not game.is_playing:
        return False  # moved on: nobody needs this hint any more
    advice = hint(game.match_in_play().deal.view(seat), worlds=HINT_WORLDS, seed=version)
    cache.set(_key(game_id, version, seat), {
        "token": advice.action.token(),
        "chance": round(advice.chance * 100),
        "reason": advice.reason,
        "card": advice.card,
    }, HINT_SECONDS)
    return True


def advice_words(reason: str, card: str | None) -> str:
    """The coach's reason in the player's words."""
    name = label(card) if card else ""
    words = {
        "wins": _("Play the %(card)s: it wins by force.") if card else _("This wins by force."),
        "exchange": _("Take the %(card)s for your trump 6: a higher trump for a low one."),
        "take": _("Take the cards: beating this would cost you more than picking it up."),
        "must_take": _("Take the cards: nothing in your hand beats them all."),
        "stop": _("Stop throwing in: keep your cards for the next bout."),
        "pass": _("Pass: there is nothing worth adding."),
        "transfer": _("Transfer with the %(card)s: let the next player defend."),
        "keeps_trumps": _("Beat with the %(card)s: it keeps your trumps."),
        "cheapest": _("Beat with the %(card)s: the cheapest card that does it."),
        "beat": _("Beat with the %(card)s."),
        "throw_in": _("Throw in the %(card)s: the defender must beat it too."),
        "lowest": _("Lead the %(card)s: get rid of your lowest card first."),
        "lead": _("Lead the %(card)s."),
    }
    return words.get(reason, _("This gives you the best chance.")) % {"card": name}
